package answered

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/agentready/caddy-agentready/discover"
)

func TestPage(t *testing.T) {
	for _, tc := range []struct {
		name   string
		status int
		ctype  string
		n      int64
		err    error
		want   string // a part of the error; "" for an answer
	}{
		{"a page", 200, "text/html", 1200, nil, ""},
		{"a 404 is an answer", 404, "text/html", 10, nil, ""},
		{"a 403 is an answer", 403, "", 0, nil, ""},
		{"an empty page with a type is an answer", 200, "text/html", 0, nil, ""},
		{"a body without a type is an answer", 200, "", 12, nil, ""},
		{"refused", 0, "", 0, errors.New("connection refused"), "connection refused"},
		{"a proxy with nothing behind", 502, "", 0, nil, "502"},
		{"unavailable", 503, "text/html", 100, nil, "503"},
		{"gateway timeout", 504, "", 0, nil, "504"},
		{"Caddy's empty 200", 200, "", 0, nil, "empty 200"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := Page(tc.status, tc.ctype, tc.n, tc.err)
			if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
				t.Errorf("Page = %v, want %q", err, tc.want)
			}
		})
	}
}

func TestDiscovery(t *testing.T) {
	for _, tc := range []struct {
		name string
		res  *discover.Result
		want string
	}{
		{"pages", &discover.Result{Pages: []discover.Page{{URL: "https://a.test/"}}, RobotsStatus: 502}, ""},
		{"nothing", nil, "no discovery result"},
		{"robots.txt 502", &discover.Result{RobotsStatus: 502}, "robots.txt answered 502"},
		{"the home page an empty 200", &discover.Result{RobotsStatus: 200,
			Skipped: map[discover.SkipReason]int{discover.SkipNotHTML: 1},
			Samples: []discover.Skip{{URL: "https://a.test/", Reason: discover.SkipNotHTML}}}, "not_html 1 (https://a.test/"},
		{"the home page 502", &discover.Result{RobotsStatus: 404,
			Skipped: map[discover.SkipReason]int{discover.SkipStatus: 1}}, "status 1"},
		{"refused", &discover.Result{Skipped: map[discover.SkipReason]int{discover.SkipError: 3}}, "error 3"},
		{"every page kept out by robots.txt: an answer", &discover.Result{RobotsStatus: 200,
			Skipped: map[discover.SkipReason]int{discover.SkipRobots: 4}}, ""},
		{"noindex: an answer", &discover.Result{RobotsStatus: 404,
			Skipped: map[discover.SkipReason]int{discover.SkipNoindex: 1}}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := Discovery(tc.res)
			if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
				t.Errorf("Discovery = %v, want %q", err, tc.want)
			}
		})
	}
}

func TestBackoff(t *testing.T) {
	for _, tc := range []struct {
		n    int
		want time.Duration
	}{{1, 2 * time.Second}, {2, 4 * time.Second}, {3, 8 * time.Second}, {12, time.Hour}, {1000, time.Hour}} {
		if got := Backoff(tc.n, 2*time.Second, time.Hour); got != tc.want {
			t.Errorf("Backoff(%d) = %v, want %v", tc.n, got, tc.want)
		}
	}
}
