package setting

import (
	"errors"
	"testing"
	"time"
)

// TestReaders: each word reader accepts what the Caddyfile documents and
// refuses the rest with the message the Caddyfile shows.
func TestReaders(t *testing.T) {
	type out struct {
		v   any
		err string
	}
	run := func(v any, err error) out {
		if err != nil {
			return out{nil, err.Error()}
		}
		if b, ok := v.(*bool); ok {
			return out{*b, ""}
		}
		return out{v, ""}
	}
	for _, tc := range []struct {
		name string
		got  out
		want out
	}{
		{"size", run(Size("4MiB")), out{int64(4 << 20), ""}},
		{"size zero", run(Size("0")), out{nil, "invalid size '0'"}},
		{"size off", run(Size("off")), out{nil, "invalid size 'off'"}},
		{"size or off", run(SizeOrOff("off")), out{int64(-1), ""}},
		{"positive", run(Positive("1d")), out{Duration(24 * time.Hour), ""}},
		{"positive zero", run(Positive("0s")), out{nil, "invalid duration '0s'"}},
		{"positive off", run(PositiveOr(-1)("off")), out{Duration(-1), ""}},
		{"positive or, bad", run(PositiveOr(0)("soon")), out{nil, "invalid duration 'soon'"}},
		{"at least", run(AtLeast(1)("3")), out{3, ""}},
		{"at least, below", run(AtLeast(1)("0")), out{nil, "invalid number '0'"}},
		{"on", run(Switch("on")), out{true, ""}},
		{"off", run(Switch("off")), out{false, ""}},
		{"true", run(Switch("true")), out{true, ""}},
		{"0", run(Switch("0")), out{false, ""}},
		{"maybe", run(Switch("maybe")), out{nil, "expected on or off, got 'maybe'"}},
		{"offable", run(Offable("off")), out{"-", ""}},
		{"offable text", run(Offable("/md")), out{"/md", ""}},
	} {
		if tc.got != tc.want {
			t.Errorf("%s: got %+v, want %+v", tc.name, tc.got, tc.want)
		}
	}
}

func TestWord(t *testing.T) {
	type s struct{ n int }
	set := Word(func(x *s) *int { return &x.n }, AtLeast(0))
	var x s
	for _, args := range [][]string{nil, {"1", "2"}} {
		if err := set(&x, args); !errors.Is(err, ErrArgs) {
			t.Errorf("%q: %v, want ErrArgs", args, err)
		}
	}
	if err := set(&x, []string{"7"}); err != nil || x.n != 7 {
		t.Errorf("got %d, %v", x.n, err)
	}
	if Duration(0).Or(time.Second) != time.Second || Duration(-1).Or(time.Second) != -1 {
		t.Error("Or")
	}
}
