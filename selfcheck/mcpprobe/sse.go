package mcpprobe

import (
	"bufio"
	"io"
	"strings"
)

// sseReader parses a text/event-stream (WHATWG HTML §9.2.6) far enough to
// return each event's data: lines end in CRLF, LF or CR; ":" starts a
// comment; "data" lines are joined with "\n"; a blank line dispatches.
// Memory is bounded by the reader it wraps (a LimitedReader in practice).
type sseReader struct {
	r       *bufio.Reader
	pending bool // a CR was just read; swallow a following LF
}

func newSSEReader(r io.Reader) *sseReader { return &sseReader{r: bufio.NewReader(r)} }

// line returns the next line without its terminator.
func (s *sseReader) line() (string, error) {
	var b strings.Builder
	for {
		c, err := s.r.ReadByte()
		if err != nil {
			if b.Len() > 0 && err == io.EOF {
				return b.String(), nil
			}
			return "", err
		}
		if s.pending {
			s.pending = false
			if c == '\n' {
				continue
			}
		}
		switch c {
		case '\r':
			s.pending = true
			return b.String(), nil
		case '\n':
			return b.String(), nil
		}
		b.WriteByte(c)
	}
}

// next returns the data of the next event that has any. Events are
// dispatched only on a blank line; a stream ending mid-event drops it, as
// the standard says.
func (s *sseReader) next() (string, error) {
	var data strings.Builder
	has := false
	for {
		l, err := s.line()
		if err != nil {
			return "", err
		}
		if l == "" {
			if has {
				return data.String(), nil
			}
			continue
		}
		field, value, _ := strings.Cut(l, ":")
		value = strings.TrimPrefix(value, " ")
		if field == "data" {
			if has {
				data.WriteByte('\n')
			}
			data.WriteString(value)
			has = true
		}
	}
}
