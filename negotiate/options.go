package negotiate

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// DefaultMaxSize is the default Options.MaxSize: the origin body size, encoded
// and decoded, up to which a page is buffered for conversion (the cap
// Cloudflare's Markdown for Agents uses too).
const DefaultMaxSize = 2 << 20

// DefaultConvertTimeout is the default Options.ConvertTimeout: twice what
// converting a 2 MiB page (DefaultMaxSize) costs on one core.
const DefaultConvertTimeout = 2 * time.Second

// markdownPerHTML × MaxSize is the default Options.MaxMarkdownSize.
const markdownPerHTML = 4

// ErrMarkdownTooLarge is the error a ConvertFunc returns (wrapped) when it
// stops because the Markdown grew past its output budget (which should be
// Options.MaxMarkdownSize): the page fails open with reason "budget_size",
// as when a ConvertFunc returns more than MaxMarkdownSize.
var ErrMarkdownTooLarge = errors.New("markdown larger than max_markdown_size")

// Options configures a Handler. Boolean switches that default to on are
// *bool: nil means the default, so the zero Options is the documented
// configuration; use Bool(false) to turn one off. Provision fills in the
// defaults and rejects values that would corrupt a header.
type Options struct {
	// MaxSize is the largest origin body, encoded and decoded, buffered for
	// conversion. A bigger page is sent as HTML (streamed, with Vary). Default
	// DefaultMaxSize (2 MiB); negative is an error.
	MaxSize int64 `json:"max_size,omitempty"`

	// ConvertTimeout is the time budget of one conversion, from the moment
	// the page has been read: past it, the conversion stops and the page
	// is sent as HTML (a fail-open with reason "budget_time"). It is a
	// deadline on the request's context, so a conversion also stops when
	// the client goes away (nothing is sent; reason "canceled"). Default
	// DefaultConvertTimeout (2s); negative is an error.
	ConvertTimeout time.Duration `json:"convert_timeout,omitempty"`

	// MaxMarkdownSize is the output budget of one conversion, in bytes: a
	// conversion whose Markdown grows past it stops and the page is sent
	// as HTML (reason "budget_size"). The Markdown of a page is smaller
	// than its HTML; far beyond it, it is amplification (repeated table
	// spans, quote and list prefixes, long resolved URLs), not content.
	// Default 4 × MaxSize (8 MiB); negative is an error.
	MaxMarkdownSize int64 `json:"max_markdown_size,omitempty"`

	// MarkdownSuffix is the path suffix that asks for the Markdown form of a
	// page without negotiation: GET /pricing/md gives the Markdown of
	// /pricing (never canonical: the front matter and the Link headers name
	// the page URL). It must start with "/". Default "/md"; "-" disables it.
	MarkdownSuffix string `json:"markdown_suffix,omitempty"`

	// LLMSLink is the target of the `rel="describedby"` Link header
	// (type text/plain). Default "/llms.txt"; "-" leaves the header out.
	LLMSLink string `json:"llms_link,omitempty"`

	// AgentsLink is the target of the `rel="alternate"` Link header of type
	// application/json. Default "/agents.json"; "-" leaves the header out.
	AgentsLink string `json:"agents_link,omitempty"`

	// MarkdownLink adds a Link header naming the page's Markdown alternate:
	// its suffix URL, or the page URL itself when MarkdownSuffix is
	// disabled. Default on.
	MarkdownLink *bool `json:"markdown_link,omitempty"`

	// HeadLink inserts the same alternate as
	// `<link rel="alternate" type="text/markdown" href="…">` into the head of
	// HTML pages that do not have one. Default on.
	HeadLink *bool `json:"head_link,omitempty"`

	// CacheControl replaces the Cache-Control of the Markdown form. Default:
	// the origin's value. It never widens what the origin or the request
	// allow: an origin's no-store stands as sent; a page the origin marked
	// private, a page that sets a cookie (Set-Cookie is then kept), and a
	// page asked for with Authorization or Cookie get "private" instead of
	// public and s-maxage, so a shared cache never serves one user's
	// Markdown to another (RFC 9111 §3, §3.5).
	CacheControl string `json:"cache_control,omitempty"`

	// ContentSignal, when set, is sent as the Content-Signal header on both
	// forms (for example "search=yes, ai-input=yes, ai-train=no"). Default
	// unset.
	ContentSignal string `json:"content_signal,omitempty"`

	// RewriteCache bounds, in bytes, the rewrite plans kept: where the
	// annotations went into the pages rewritten whole (HTML pages with a
	// Content-Length up to 256 KiB), so that the same page with the same
	// injection is annotated again by copying instead of by tokenizing.
	// A plan is found by a hash of the page's bytes and of the Injection's
	// Key (injections without a Key are never planned) and checked against
	// the page before use. Default DefaultRewriteCache (8 MiB); negative
	// turns the plans off.
	RewriteCache int64 `json:"rewrite_cache,omitempty"`

	// TokensHeader sends x-markdown-tokens, the converter's token count, on
	// Markdown responses. Default on.
	TokensHeader *bool `json:"tokens_header,omitempty"`
}

// Bool returns a pointer to v, for the *bool fields of Options.
func Bool(v bool) *bool { return &v }

// on reads a *bool option whose default is true.
func on(b *bool) bool { return b == nil || *b }

// disabled is the value that turns an optional string setting off.
const disabled = "-"

// provision fills in the defaults and validates o.
func (o *Options) provision() error {
	if o.MaxSize < 0 {
		return fmt.Errorf("max_size %d: must not be negative", o.MaxSize)
	}
	if o.MaxSize == 0 {
		o.MaxSize = DefaultMaxSize
	}
	if o.ConvertTimeout < 0 {
		return fmt.Errorf("convert_timeout %s: must not be negative", o.ConvertTimeout)
	}
	if o.ConvertTimeout == 0 {
		o.ConvertTimeout = DefaultConvertTimeout
	}
	if o.MaxMarkdownSize < 0 {
		return fmt.Errorf("max_markdown_size %d: must not be negative", o.MaxMarkdownSize)
	}
	if o.MaxMarkdownSize == 0 {
		o.MaxMarkdownSize = markdownPerHTML * o.MaxSize
	}
	if o.RewriteCache == 0 {
		o.RewriteCache = DefaultRewriteCache
	}
	setDefault(&o.MarkdownSuffix, "/md")
	setDefault(&o.LLMSLink, "/llms.txt")
	setDefault(&o.AgentsLink, "/agents.json")
	for _, b := range []**bool{&o.MarkdownLink, &o.HeadLink, &o.TokensHeader} {
		if *b == nil {
			*b = Bool(true)
		}
	}
	var errs []error
	for _, f := range []struct{ name, value string }{
		{"markdown_suffix", o.MarkdownSuffix},
		{"llms_link", o.LLMSLink},
		{"agents_link", o.AgentsLink},
		{"cache_control", o.CacheControl},
		{"content_signal", o.ContentSignal},
	} {
		if hasCtl(f.value) {
			errs = append(errs, fmt.Errorf("%s %q: control characters (CR, LF, NUL…) are not allowed in a header value", f.name, f.value))
		}
	}
	if s := o.MarkdownSuffix; s != disabled && (!strings.HasPrefix(s, "/") || len(s) < 2 || strings.ContainsAny(s, "?#")) {
		errs = append(errs, fmt.Errorf("markdown_suffix %q: must be a path segment such as \"/md\", or \"-\"", s))
	}
	return errors.Join(errs...)
}

func setDefault(s *string, def string) {
	if *s == "" {
		*s = def
	}
}
