package convert

import (
	"slices"
	"testing"
)

// TestSettingsProvision: the zero Settings is the documented
// configuration, filled in by Provision; explicit values are kept.
func TestSettingsProvision(t *testing.T) {
	var s Settings
	if err := s.Provision(); err != nil {
		t.Fatal(err)
	}
	if !*s.PruneDefaults || !*s.JSONLDBlock || s.ConversionCache != DefaultConversionCache ||
		s.KeepImagesWithoutAlt || s.DefaultLanguage != "" || s.Prune != nil || s.Keep != nil || s.ContentSelectors != nil {
		t.Errorf("defaults = %+v", s)
	}
	off := Settings{PruneDefaults: Bool(false), JSONLDBlock: Bool(false), ConversionCache: -1}
	if err := off.Provision(); err != nil {
		t.Fatal(err)
	}
	if *off.PruneDefaults || *off.JSONLDBlock || off.ConversionCache != -1 {
		t.Errorf("explicit values not kept: %+v", off)
	}
}

// TestSettingsPruneList: prune adds to the built-in selectors, and
// prune_defaults off leaves only the configured ones.
func TestSettingsPruneList(t *testing.T) {
	for _, tc := range []struct {
		name string
		s    Settings
		want []string
	}{
		{"defaults", Settings{}, DefaultPrune()},
		{"more", Settings{Prune: []string{".ads"}}, append(DefaultPrune(), ".ads")},
		{"no defaults", Settings{Prune: []string{".ads"}, PruneDefaults: Bool(false)}, []string{".ads"}},
		{"nothing", Settings{PruneDefaults: Bool(false)}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.s.pruneList(); !slices.Equal(got, tc.want) {
				t.Errorf("prune list = %v, want %v", got, tc.want)
			}
		})
	}
}
