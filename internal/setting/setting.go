// Package setting holds what the settings of agent_ready's packages share
// without importing Caddy: Duration, which reads Caddy's duration syntax in
// JSON, and the readers of the Caddyfile's words (a size, a duration, a
// number, on or off) that the subdirective parsers use. The Caddy glue
// walks the Caddyfile's tokens and hands each subdirective's words to a
// reader of the package that owns the setting.
package setting

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/dustin/go-humanize"
)

// Duration is a time.Duration that reads, in JSON, either a number of
// nanoseconds or a string in Caddy's duration syntax (ParseDuration), as
// caddy.Duration does. It writes a number of nanoseconds.
type Duration time.Duration

// UnmarshalJSON satisfies json.Unmarshaler.
func (d *Duration) UnmarshalJSON(b []byte) error {
	if len(b) == 0 {
		return io.EOF
	}
	var dur time.Duration
	var err error
	if b[0] == byte('"') && b[len(b)-1] == byte('"') {
		dur, err = ParseDuration(strings.Trim(string(b), `"`))
	} else {
		err = json.Unmarshal(b, &dur)
	}
	*d = Duration(dur)
	return err
}

// Or is d as a time.Duration, or def when d is zero (unset).
func (d Duration) Or(def time.Duration) time.Duration {
	if d == 0 {
		return def
	}
	return time.Duration(d)
}

// ParseDuration reads Caddy's duration syntax (caddy.ParseDuration, copied
// because the packages that own settings do not import Caddy): Go's
// time.ParseDuration plus the unit "d", a day of 24h; at most 1024 bytes.
func ParseDuration(s string) (time.Duration, error) {
	if len(s) > 1024 {
		return 0, fmt.Errorf("parsing duration: input string too long")
	}
	var inNumber bool
	var numStart int
	for i := 0; i < len(s); i++ {
		ch := s[i]
		if ch == 'd' {
			days, err := strconv.ParseFloat(s[numStart:i], 64)
			if err != nil {
				return 0, err
			}
			s = s[:numStart] + strconv.FormatFloat(days*24.0, 'f', -1, 64) + "h" + s[i+1:]
			i--
			continue
		}
		if !inNumber {
			numStart = i
		}
		inNumber = (ch >= '0' && ch <= '9') || ch == '.' || ch == '-' || ch == '+'
	}
	return time.ParseDuration(s)
}

// ErrArgs is the error of a subdirective given too few or too many
// words; the glue answers it with the Caddyfile's own argument error.
var ErrArgs = errors.New("wrong argument count")

// ErrOneWord is the ErrArgs of a subdirective that takes one word (Word).
var ErrOneWord = fmt.Errorf("%w: want one word", ErrArgs)

// Words reads the words of one subdirective into a setting of S.
type Words[S any] func(s *S, args []string) error

// Block is the syntax of a settings block: the reader of each
// subdirective, by name.
type Block[S any] map[string]Words[S]

// Word reads the one word of a subdirective with read into the field of S.
func Word[S, T any](field func(*S) *T, read func(string) (T, error)) Words[S] {
	return func(s *S, args []string) error {
		if len(args) != 1 {
			return ErrOneWord
		}
		v, err := read(args[0])
		if err != nil {
			return err
		}
		*field(s) = v
		return nil
	}
}

// Text reads a word as it is.
func Text(v string) (string, error) { return v, nil }

// Offable reads a word; "off" is "-", the value that turns a setting off.
func Offable(v string) (string, error) {
	if v == "off" {
		return "-", nil
	}
	return v, nil
}

// Switch reads on or off (or a word strconv.ParseBool reads).
func Switch(v string) (*bool, error) {
	b := v == "on"
	if v != "on" && v != "off" {
		var err error
		if b, err = strconv.ParseBool(v); err != nil {
			return nil, fmt.Errorf("expected on or off, got '%s'", v)
		}
	}
	return &b, nil
}

// Size reads a positive size ("4MiB", "10MB", bytes).
func Size(v string) (int64, error) {
	n, err := humanize.ParseBytes(v)
	if err != nil || n == 0 || n > math.MaxInt64 {
		return 0, fmt.Errorf("invalid size '%s'", v)
	}
	return int64(n), nil
}

// SizeOrOff reads a positive size, or "off" as -1.
func SizeOrOff(v string) (int64, error) {
	if v == "off" {
		return -1, nil
	}
	return Size(v)
}

// Positive reads a positive duration in Caddy's syntax.
func Positive(v string) (Duration, error) {
	d, err := ParseDuration(v)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("invalid duration '%s'", v)
	}
	return Duration(d), nil
}

// PositiveOr reads a positive duration, or "off" as off.
func PositiveOr(off Duration) func(string) (Duration, error) {
	return func(v string) (Duration, error) {
		if v == "off" {
			return off, nil
		}
		return Positive(v)
	}
}

// AtLeast reads a whole number of at least least.
func AtLeast(least int) func(string) (int, error) {
	return func(v string) (int, error) {
		n, err := strconv.Atoi(v)
		if err != nil || n < least {
			return 0, fmt.Errorf("invalid number '%s'", v)
		}
		return n, nil
	}
}
