package sites

import (
	"errors"
	"reflect"
	"testing"

	"github.com/agentready/caddy-agentready/internal/setting"
)

// TestSettingsSubdirectives: the traffic block's words set the fields
// they name; "off" stops saving (save_interval) or refreshing
// (refresh_ranges).
func TestSettingsSubdirectives(t *testing.T) {
	var s Settings
	for _, line := range [][]string{
		{"save_interval", "off"}, {"refresh_ranges", "1h"}, {"refresh_ranges", "off"}, {"reverse_dns", "off"},
		{"ranges", "https://openai.com/gptbot.json", "gptbot.json"},
	} {
		if err := Subdirectives[line[0]](&s, line[1:]); err != nil {
			t.Fatalf("%v: %v", line, err)
		}
	}
	f := false
	want := Settings{SaveInterval: -1, ReverseDNS: &f, Ranges: map[string]string{"https://openai.com/gptbot.json": "gptbot.json"}}
	if !reflect.DeepEqual(s, want) || !s.NoReverseDNS() || s.SaveEvery() != -1 {
		t.Errorf("got %+v", s)
	}
	if err := Subdirectives["ranges"](&s, []string{"one"}); !errors.Is(err, setting.ErrArgs) {
		t.Errorf("ranges with one word: %v", err)
	}
	if err := Subdirectives["save_interval"](&s, []string{"0s"}); err == nil || err.Error() != "invalid duration '0s'" {
		t.Errorf("save_interval 0s: %v", err)
	}
	if d := (Settings{}).SaveEvery(); d != DefaultSaveInterval || (Settings{}).NoReverseDNS() {
		t.Errorf("defaults: save every %v", d)
	}
}
