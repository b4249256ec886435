package fleet

import (
	"testing"
	"time"
)

func TestParseSetting(t *testing.T) {
	for _, tc := range []struct {
		in    string
		every time.Duration // 0: nil settings
		err   bool
	}{
		{"off", 0, false},
		{"on", DefaultSyncInterval, false},
		{"2s", 2 * time.Second, false},
		{"0s", 0, true},
		{"soon", 0, true},
	} {
		s, err := ParseSetting(tc.in)
		switch {
		case (err != nil) != tc.err:
			t.Errorf("%s: error %v", tc.in, err)
		case tc.every == 0 && s != nil, tc.every != 0 && (s == nil || s.Every() != tc.every):
			t.Errorf("%s: got %+v", tc.in, s)
		}
	}
}
