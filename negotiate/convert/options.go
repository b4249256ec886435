package convert

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"math"
)

// Options configure a Converter. The zero value is usable: default pruning,
// no content selectors, no front matter, no JSON-LD block.
type Options struct {
	// ContentSelectors are CSS selectors naming the page's main content. They
	// are tried in order before the landmarks; the first one that matches
	// wins, and all its top-level matches are kept in document order.
	// Default: none.
	ContentSelectors []string `json:"content_selectors,omitempty"`

	// Prune are CSS selectors of elements removed from the chosen content
	// (navigation, footers, cookie banners, share widgets...). nil means
	// DefaultPrune(); an empty non-nil slice prunes nothing.
	Prune []string `json:"prune,omitempty"`

	// Keep are CSS selectors of elements that always survive: pruning never
	// removes them (nor the path to them), and when they sit outside the
	// chosen content they are appended after it. Default: none.
	Keep []string `json:"keep,omitempty"`

	// KeepImagesWithoutAlt keeps images that have no alt text (rendered as
	// "![](src)"). Default: false, they are dropped, since an agent cannot
	// see them and they only cost tokens.
	KeepImagesWithoutAlt bool `json:"keep_images_without_alt,omitempty"`

	// JSONLD appends the page's own JSON-LD blocks as fenced ```json code
	// blocks at the end of the Markdown, so no structured fact is lost.
	// Default: false (the caller decides).
	JSONLD bool `json:"jsonld,omitempty"`

	// FrontMatter prepends YAML front matter (title, description,
	// canonical, updated, language...) to the Markdown. Default: false (the
	// caller decides).
	FrontMatter bool `json:"front_matter,omitempty"`

	// DefaultLanguage is the front matter's language when neither the page
	// (<html lang>) nor the origin (Content-Language) names one.
	// Default: "" (the field is omitted).
	DefaultLanguage string `json:"default_language,omitempty"`

	// MaxMarkdownSize is the output budget, in bytes: a conversion whose
	// Markdown grows past it stops and fails with ErrTooLarge (the caller
	// sends the HTML). It does not change the Markdown of the pages within
	// it, so it is not part of Hash. Default DefaultMaxMarkdownSize
	// (8 MiB); negative means no limit.
	MaxMarkdownSize int64 `json:"max_markdown_size,omitempty"`
}

// maxMarkdownSize returns the effective output budget, 0 for none.
func (o Options) maxMarkdownSize() int {
	switch {
	case o.MaxMarkdownSize == 0:
		return DefaultMaxMarkdownSize
	case o.MaxMarkdownSize < 0:
		return 0
	}
	return int(min(o.MaxMarkdownSize, int64(math.MaxInt)))
}

// DefaultPrune returns the prune selectors used when Options.Prune is nil:
// navigation, footers, asides, hidden elements, menus, toolbars and
// dialogs, cookie and consent banners, share widgets, comment threads and
// reply forms, related-post and ad widgets, skip links, and WordPress's
// post meta.
func DefaultPrune() []string {
	return []string{
		"nav", "footer:not(blockquote footer)", "aside",
		"[role=navigation]", "[role=contentinfo]", "[role=complementary]", "[role=search]",
		"[aria-hidden=true]", "[hidden]", `[style*="display:none"]`, `[style*="display: none"]`,
		`[style*="visibility:hidden"]`, `[style*="visibility: hidden"]`,
		"dialog:not([open])",
		// widget chrome: media-player and site menus, toolbars, tooltips,
		// modal dialogs (WAI-ARIA 1.2 roles)
		"[role=menu]", "[role=menubar]", "[role=toolbar]", "[role=tooltip]",
		"[role=dialog]", "[role=alertdialog]",
		// cookie and consent banners
		"[id*=cookie-banner]", "[class*=cookie-banner]", "[id*=cookie-consent]", "[class*=cookie-consent]",
		"[id*=cookie-notice]", "[class*=cookie-notice]", "[id*=cookiebanner]", "[class*=cookiebanner]",
		"[id*=consent-banner]", "[class*=consent-banner]", "[class*=gdpr]",
		"#onetrust-consent-sdk", "#CybotCookiebotDialog", ".cc-window",
		// share widgets
		"[class*=share-buttons]", "[class*=social-share]", "[class*=share-links]", "[class*=sharing]",
		".sharedaddy", ".addthis_toolbox", "[class*=share-widget]", ".share", `[aria-label^="Share"]`,
		// comment threads, related-post and ad widgets
		"#comments", ".comments-area", "#disqus_thread", "#jp-relatedposts", "[class*=related-posts]",
		"[id*=taboola]", "[class*=taboola]", "[id*=outbrain]", "[class*=outbrain]",
		".ad", ".ads", ".advert", ".advertisement", "[id^=div-gpt-ad]",
		// skip links
		"a.skip-link", `a[href="#main"]`, `a[href="#content"]`, `a[href="#main-content"]`,
		// WordPress: comment threads and the reply form of block and classic
		// themes, and a block theme's post meta (the groups that hold a post's
		// date, terms or author but no heading nor post text: "Posted",
		// "in", "by", "Tags:"), which the front matter states already
		".wp-block-comments", ".wp-block-post-comments", ".wp-block-post-comments-form",
		"#respond", ".comment-respond", ".comment-list", ".commentlist",
		wpPostMeta(".wp-block-group"), wpPostMeta(".wp-block-columns"),
	}
}

// wpPostMeta selects the WordPress blocks of kind that hold a post's meta
// (date, categories and tags, author) and none of its title, headings,
// excerpt or text: on a listing, the teaser that dates a post stays.
func wpPostMeta(kind string) string {
	return kind + ":has(.wp-block-post-date, .wp-block-post-terms, .wp-block-post-author)" +
		":not(:has(h1, h2, h3, h4, h5, h6, .wp-block-post-title, .wp-block-post-content, .wp-block-post-excerpt))"
}

// prune returns the effective prune selectors.
func (o Options) prune() []string {
	if o.Prune == nil {
		return DefaultPrune()
	}
	return o.Prune
}

// formatVersion changes whenever the Markdown this package writes for the
// same input changes, so cached conversions of an older build are not served.
const formatVersion = "convert/3"

// Hash returns a short stable digest of the options (with the default prune
// list spelled out) and the output format version: two Options with the same
// Hash produce the same Markdown. It keys the conversion cache.
func (o Options) Hash() string {
	o.Prune = o.prune()
	o.MaxMarkdownSize = 0 // a budget, not a format
	b, _ := json.Marshal(struct {
		V string
		O Options
	}{formatVersion, o})
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:12])
}
