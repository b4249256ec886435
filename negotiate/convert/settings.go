package convert

import "errors"

// DefaultConversionCache is the default Settings.ConversionCache: 64 MiB of
// converted pages.
const DefaultConversionCache = 64 << 20

// Settings are the conversion settings of the agent_ready handler, under
// the names the Caddyfile and the JSON config use; their comments are the
// user documentation. Switches that default to on are *bool: nil means the
// default, so the zero Settings is the documented configuration (use
// Bool(false) to turn one off). Provision fills in the defaults and checks
// the selectors.
type Settings struct {
	// ContentSelectors are CSS selectors of the page's main content, tried
	// in order before the built-in landmarks (`main`, `[role=main]`, a
	// single `article`) and the readability fallback: the first one that
	// matches wins, and all its top-level matches are kept in document
	// order. Default: none.
	ContentSelectors []string `json:"content_selectors,omitempty"`

	// Prune are CSS selectors of elements removed from the chosen content
	// before conversion, on top of the built-in ones (see PruneDefaults).
	// Default: none.
	Prune []string `json:"prune,omitempty"`

	// PruneDefaults applies the built-in prune selectors (DefaultPrune):
	// navigation, footers, asides, cookie and consent banners, share
	// widgets, comment threads, `[aria-hidden=true]` and `[hidden]`, and
	// the like. Default: true.
	PruneDefaults *bool `json:"prune_defaults,omitempty"`

	// Keep are CSS selectors of elements that always survive: pruning never
	// removes them (nor the path to them), and when they sit outside the
	// chosen content they are appended after it. Default: none.
	Keep []string `json:"keep,omitempty"`

	// KeepImagesWithoutAlt keeps `<img>` elements that have no alt text
	// (as `![](src)`). Default: false (they are dropped, since an agent
	// cannot see them and they only cost tokens).
	KeepImagesWithoutAlt bool `json:"keep_images_without_alt,omitempty"`

	// JSONLDBlock appends the page's own JSON-LD to the Markdown as fenced
	// `json` blocks, so no structured fact is lost. Default: true.
	JSONLDBlock *bool `json:"jsonld_block,omitempty"`

	// DefaultLanguage is the front matter `language` when neither the page
	// (`<html lang>`) nor the origin (`Content-Language`) names one.
	// Default: none (the agent_ready handler uses the site's YAML default
	// language, if any).
	DefaultLanguage string `json:"default_language,omitempty"`

	// ConversionCache bounds, in bytes, the cache of converted pages (see
	// Cache) keyed by the origin's validators (ETag/Last-Modified), URL and
	// these settings. -1 disables it. Default: 64 MiB
	// (DefaultConversionCache).
	ConversionCache int64 `json:"conversion_cache,omitempty"`
}

// Bool returns a pointer to v, for the *bool fields of Settings.
func Bool(v bool) *bool { return &v }

// on reads a *bool setting whose default is true.
func on(b *bool) bool { return b == nil || *b }

// Provision fills in the defaults of s and checks its selectors; an error
// names the setting and the selector. It is idempotent.
func (s *Settings) Provision() error {
	_, err := s.provision()
	return err
}

// selectors are the compiled selectors of a Settings.
type selectors struct {
	content, prune, keep []namedSel
}

// provision fills in the defaults and compiles the selectors.
func (s *Settings) provision() (selectors, error) {
	for _, b := range []**bool{&s.PruneDefaults, &s.JSONLDBlock} {
		if *b == nil {
			*b = Bool(true)
		}
	}
	if s.ConversionCache == 0 {
		s.ConversionCache = DefaultConversionCache
	}
	var sel selectors
	var errs [3]error
	sel.content, errs[0] = compile("content_selectors", s.ContentSelectors)
	sel.prune, errs[1] = compile("prune", s.pruneList())
	sel.keep, errs[2] = compile("keep", s.Keep)
	return sel, errors.Join(errs[:]...)
}

// pruneList is the effective prune list: the defaults, when on, then the
// configured selectors.
func (s *Settings) pruneList() []string {
	if !on(s.PruneDefaults) {
		return s.Prune
	}
	return append(DefaultPrune(), s.Prune...)
}
