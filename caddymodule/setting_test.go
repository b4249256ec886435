package caddymodule

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/caddyserver/caddy/v2"

	"github.com/agentready/caddy-agentready/internal/setting"
)

// TestSettingDurationIsCaddys: setting.ParseDuration and setting.Duration,
// which the packages that own settings use because they may not import
// Caddy, read every input as caddy.ParseDuration and caddy.Duration do.
func TestSettingDurationIsCaddys(t *testing.T) {
	for _, in := range []string{
		"", "0", "0s", "1s", "1500ms", "-2m", "+3h", "1d", "1.5d", "2d3h", "0.5d30m", "1h1d", "d", "-1d", "1dd", "1x", "5",
		"3000000000", "1e3s", ".5d", "1d.5h", "soon", " 1s", "1s ", "9999999999999h", strings.Repeat("1", 1025) + "s",
	} {
		want, wantErr := caddy.ParseDuration(in)
		got, gotErr := setting.ParseDuration(in)
		if got != want || (gotErr == nil) != (wantErr == nil) {
			t.Errorf("ParseDuration(%q) = %v, %v; Caddy's %v, %v", in, got, gotErr, want, wantErr)
		}
		for _, raw := range []string{`"` + in + `"`, in} {
			var c caddy.Duration
			var s setting.Duration
			cErr, sErr := json.Unmarshal([]byte(raw), &c), json.Unmarshal([]byte(raw), &s)
			if int64(c) != int64(s) || (cErr == nil) != (sErr == nil) {
				t.Errorf("JSON %s: %v, %v; Caddy's %v, %v", raw, s, sErr, c, cErr)
			}
		}
	}
	if a, b := mustJSON(caddy.Duration(1500e6)), mustJSON(setting.Duration(1500e6)); a != b {
		t.Errorf("writes %s, Caddy's %s", b, a)
	}
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}
