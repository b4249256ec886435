package convert

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"math"
)

// Options configure a Converter: the user's Settings and what the caller
// decides. The zero value is usable: the default Settings, no front matter,
// the default output budget.
type Options struct {
	Settings

	// FrontMatter prepends YAML front matter (title, description,
	// canonical, updated, language...) to the Markdown. Default: false (the
	// caller decides).
	FrontMatter bool `json:"front_matter,omitempty"`

	// MaxMarkdownSize is the output budget, in bytes: a conversion whose
	// Markdown grows past it stops and fails with ErrTooLarge (the caller
	// sends the HTML). It does not change the Markdown of the pages within
	// it, so it is not part of Hash. The agent_ready handler passes its
	// max_markdown_size (negotiate.Options.MaxMarkdownSize). Default
	// DefaultMaxMarkdownSize (8 MiB); negative means no limit.
	MaxMarkdownSize int64 `json:"-"`
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

// DefaultPrune returns the built-in prune selectors (Settings.PruneDefaults):
// navigation, footers, asides, hidden elements, menus, toolbars and
// dialogs, cookie and consent banners, share widgets, comment threads and
// reply forms, related-post and ad widgets, skip links, WordPress's post
// meta, Webflow's elements hidden by a CMS condition, DocBook XSL's
// navigation header and footer, and the <h2> to <h6>
// hidden from view (hiddenHeadings).
func DefaultPrune() []string {
	return append([]string{
		// an <aside> is chrome unless it is a note or a footnote (docutils
		// writes footnotes as aside.footnote in aside.footnote-list) or holds
		// a code block (a Sphinx sidebar with an example): code is content
		"nav", "footer:not(blockquote footer)", "aside:not([role=note]):not([class*=footnote]):not(.admonition):not(:has(pre))",
		"[role=navigation]", "[role=contentinfo]", "[role=complementary]:not(:has(pre))", "[role=search]",
		// hidden elements, but a tab panel: the panels of a tab group are
		// hidden until their tab is chosen (a quickstart's steps in each
		// programming language, a product's specifications), and each is
		// the page's as much as the one shown
		"[aria-hidden=true]:not([role=tabpanel])", "[hidden]:not([role=tabpanel])", `[style*="display:none"]:not([role=tabpanel])`, `[style*="display: none"]:not([role=tabpanel])`,
		`[style*="visibility:hidden"]`, `[style*="visibility: hidden"]`,
		"dialog:not([open])",
		// Webflow hides a CMS item's elements whose condition fails (an
		// empty field, a "sold out" badge of an item in stock) with this
		// class and display:none in its stylesheet
		".w-condition-invisible",
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
		"div#comments", commentSection, ".comments-area", "#disqus_thread", "#jp-relatedposts", "[class*=related-posts]",
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
		// DocBook XSL's chunked HTML (the PostgreSQL, GTK and many other
		// manuals): the Prev / Up / Home / Next table at the top and the
		// bottom of every page
		"div.navheader", "div.navfooter",
		// MediaWiki (Wikipedia, the Arch and Gentoo wikis): its skip links
		// ("Jump to navigation"), the "[edit]" links beside every heading,
		// and what its own search leaves out as navigation
		// (.navigation-not-searchable: hatnotes such as "Main article: …",
		// and navigation boxes, .navbox and the sidebar .vertical-navbox)
		".mw-jump-link", ".mw-editsection", ".navigation-not-searchable", ".navbox", ".vertical-navbox",
	}, hiddenHeadings()...)
}

// commentSection selects a comment thread by its id, "comments", on an
// element other than a <div> (which is always one: WordPress, Disqus)
// when it holds comments, a reply form, a "Load comments" button or an
// embedded thread (an element whose id or class names comments, a form,
// a button, an iframe): a
// document's section about comments has the same id (Sphinx's
// <section id="comments"> of Python's lexical analysis, mdBook's
// <h2 id="comments"> in the Rust book).
const commentSection = "#comments:not(div, h1, h2, h3, h4, h5, h6)" +
	":has([id*=comment], [class*=comment], form, button, iframe)"

// hiddenClasses are the classes that hide an element from view but not
// from screen readers, as CSS frameworks and CMSs name them: Bootstrap 3–4
// and Tailwind (sr-only), Bootstrap 5 and Drupal (visually-hidden),
// WordPress (screen-reader-text), HTML5 Boilerplate (visuallyhidden),
// Foundation (show-for-sr).
var hiddenClasses = []string{"sr-only", "visually-hidden", "screen-reader-text", "visuallyhidden", "show-for-sr"}

// hiddenHeadings selects the <h2> to <h6> hidden from view: labels of a
// page's regions for screen readers' heading navigation ("Filter
// controls", "Results list", "Footnotes", a modal's title), not a heading
// of the text a reader sees. A hidden <h1> stays: it is often the page's
// title where the visible one is a logo.
func hiddenHeadings() []string {
	var sels []string
	for _, c := range hiddenClasses {
		for _, h := range []string{"h2", "h3", "h4", "h5", "h6"} {
			sels = append(sels, h+"."+c)
		}
	}
	return sels
}

// wpPostMeta selects the WordPress blocks of kind that hold a post's meta
// (date, categories and tags, author) and none of its title, headings,
// excerpt or text: on a listing, the teaser that dates a post stays.
func wpPostMeta(kind string) string {
	return kind + ":has(.wp-block-post-date, .wp-block-post-terms, .wp-block-post-author)" +
		":not(:has(h1, h2, h3, h4, h5, h6, .wp-block-post-title, .wp-block-post-content, .wp-block-post-excerpt))"
}

// formatVersion changes whenever the Markdown this package writes for the
// same input changes, so cached conversions of an older build are not served.
const formatVersion = "convert/27"

// Hash returns a short stable digest of the options (with the defaults
// filled in and the prune list spelled out) and the output format version:
// two Options with the same Hash produce the same Markdown. It keys the
// conversion cache.
func (o Options) Hash() string {
	defaults := on(o.PruneDefaults) // the header lines, contents lists and credits go with them
	o.Prune, o.PruneDefaults = o.pruneList(), Bool(false)
	o.JSONLDBlock = Bool(on(o.JSONLDBlock))
	o.ConversionCache = 0 // a budget, not a format
	b, _ := json.Marshal(struct {
		V string
		O Options
		D bool
	}{formatVersion, o, defaults})
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:12])
}
