package caddymodule

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/caddyserver/caddy/v2/caddyconfig/caddyfile"
)

func TestUnmarshalFleet(t *testing.T) {
	for _, tc := range []struct {
		input, json, err string
	}{
		{"fleet on", `{"fleet":{}}`, ""},
		{"fleet 2s", `{"fleet":{"sync_interval":2000000000}}`, ""},
		{"fleet off", `{}`, ""},
		{"fleet soon", "", "fleet: expected on, off or a sync interval, got 'soon'"},
		{"fleet", "", "wrong argument count"},
	} {
		var ar AgentReady
		err := ar.UnmarshalCaddyfile(caddyfile.NewTestDispenser("agent_ready {\n\t" + tc.input + "\n}"))
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: error %v, want %q", tc.input, err, tc.err)
			}
			continue
		}
		got, _ := json.Marshal(ar)
		if err != nil || string(got) != tc.json {
			t.Errorf("%s: %s, %v; want %s", tc.input, got, err, tc.json)
		}
	}
}
