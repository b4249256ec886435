package selfscan

import (
	"testing"
	"time"

	"github.com/agentready/caddy-agentready/internal/setting"
)

// TestSettingsRunner: unset durations take their defaults, set ones are
// kept, and the scanner gets the scan's timeout, freshness and pages.
func TestSettingsRunner(t *testing.T) {
	for _, tc := range []struct {
		name                            string
		s                               Settings
		delay, interval, timeout, fresh time.Duration
	}{
		{"defaults", Settings{}, 2 * time.Second, 6 * time.Hour, time.Minute, 6 * time.Hour * 9 / 10},
		{"set", Settings{Delay: setting.Duration(time.Second), Interval: setting.Duration(time.Hour), Timeout: setting.Duration(5 * time.Second), Pages: 3},
			time.Second, time.Hour, 5 * time.Second, time.Hour * 9 / 10},
		{"interval off", Settings{Interval: -1}, 2 * time.Second, -1, time.Minute, 0},
	} {
		r := tc.s.Runner(NewSite("k"), Scanner{Target: "http://a.example/"})
		sc := r.Scanner
		if r.Delay != tc.delay || r.Interval != tc.interval || sc.Timeout != tc.timeout || sc.Fresh != tc.fresh ||
			sc.Options.Timeout != tc.timeout || sc.Options.Pages != tc.s.Pages || !sc.Options.SameOriginOnly || sc.Target != "http://a.example/" {
			t.Errorf("%s: runner %+v, scanner %+v", tc.name, r, sc)
		}
	}
	var none *Settings
	if none.FirstDelay() != DefaultDelay {
		t.Error("a nil Settings' first delay is not the default")
	}
}
