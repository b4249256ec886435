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

// Options configures a Handler. Its fields are the negotiation settings of
// the agent_ready handler, under the names the Caddyfile and the JSON config
// use, and their comments are the user documentation. Boolean switches that
// default to on are *bool: nil means the default, so the zero Options is the
// documented configuration; use Bool(false) to turn one off. Provision fills
// in the defaults; Validate rejects values that would corrupt a header.
type Options struct {
	// MaxSize is the largest origin body, in bytes, that is buffered for
	// conversion, before and after decompression. A larger page passes
	// through as HTML (streamed, still with `Vary: Accept`). Negative is an
	// error. Default: 2 MiB (DefaultMaxSize, the cap of Cloudflare's
	// Markdown for Agents too).
	MaxSize int64 `json:"max_size,omitempty"`

	// ConvertTimeout is the time budget of one conversion, counted from
	// the moment the page has been read (and Handler.Run let it start). A conversion past it stops and
	// the page is sent as HTML (logged, and counted with reason
	// `budget_time`). It is a deadline on the request's context, so a
	// conversion also stops when its client goes away (nothing is sent;
	// reason `canceled`). Negative is an error. Default: 2s
	// (DefaultConvertTimeout).
	ConvertTimeout time.Duration `json:"convert_timeout,omitempty"`

	// MaxMarkdownSize is the output budget of one conversion, in bytes: a
	// conversion whose Markdown grows past it stops and the page is sent
	// as HTML (logged, and counted with reason `budget_size`). The Markdown
	// of a page is smaller than its HTML; far beyond it, it is
	// amplification (repeated table spans, quote and list prefixes, long
	// resolved URLs), not content. Negative is an error. Default: 4 ×
	// MaxSize (8 MiB).
	MaxMarkdownSize int64 `json:"max_markdown_size,omitempty"`

	// MarkdownSuffix is the path suffix that serves a page's Markdown to
	// clients that cannot send headers: `GET /pricing/md` answers the
	// Markdown of `/pricing` (never canonical: the front matter and the
	// Link headers name the page URL). It must be a path segment starting
	// with "/"; "-" disables it. Default: "/md".
	MarkdownSuffix string `json:"markdown_suffix,omitempty"`

	// LinkLLMS is the target of the `Link: <…>; rel="describedby";
	// type="text/plain"` header pointing at llms.txt. "-" removes the
	// header. Default: "/llms.txt".
	LinkLLMS string `json:"link_llms,omitempty"`

	// LinkAgents is the target of the `Link: <…>; rel="alternate";
	// type="application/json"` header pointing at agents.json. "-" removes
	// the header. Default: "/agents.json".
	LinkAgents string `json:"link_agents,omitempty"`

	// LinkMarkdown adds the `Link` header that offers the page's own
	// Markdown alternate: its suffix URL, or the page URL itself when
	// MarkdownSuffix is disabled. Default: true.
	LinkMarkdown *bool `json:"link_markdown,omitempty"`

	// HeadLink repeats the Markdown alternate in the HTML head as
	// `<link rel="alternate" type="text/markdown">` when the page has none,
	// inserted by the HTML rewrite (see RewriteCache; pages of unknown or
	// large size stream through it). Default: true.
	HeadLink *bool `json:"head_link,omitempty"`

	// CacheControl is the `Cache-Control` of the Markdown form. It never
	// widens what the origin or the request allow: an origin's no-store
	// stands as sent; a page the origin marked private, a page that sets a
	// cookie (Set-Cookie is then kept), and a page asked for with
	// Authorization or Cookie get `private` instead of public and
	// s-maxage, so a shared cache never serves one user's Markdown to
	// another (RFC 9111 §3, §3.5). Default: the origin's value, with
	// `private` added whenever the origin response sets a cookie.
	CacheControl string `json:"cache_control,omitempty"`

	// ContentSignal is sent as the `Content-Signal` header on both forms,
	// e.g. `search=yes, ai-input=yes, ai-train=no`. Default: none (the
	// agent_ready handler uses the usage policy of the site's YAML, if any).
	ContentSignal string `json:"content_signal,omitempty"`

	// RewriteCache bounds, in bytes, the rewrite plans: where the
	// annotations went into each HTML page. The same page bytes with the
	// same annotations are annotated again by copying, without reading the
	// page as HTML again. A page its origin names (a strong ETag and a
	// Content-Length, in no content coding) has its plan filed under its
	// URL, tag and length, whatever its size: its next copy streams
	// through the plan with its exact length, a hash of every byte before
	// each insertion checked on the way (a page that differs passes
	// unannotated from there: no insertion lands where a rewrite of its
	// own bytes would not put it). Any other page rewritten whole (a
	// Content-Length up to 256 KiB) has it filed under a hash of its bytes,
	// checked against the page before use. Plans are per Injection Key
	// (injections without a Key are never planned). The same bound, kept
	// apart, holds what compressed pages became (annotated and compressed
	// again in their coding, or sent as they came), under a hash of the
	// origin's compressed bytes. The pages' head injections (an eighth of
	// the bound, at most 1 MiB) and the Link values of their Markdown
	// alternates (1,024 pages) are kept beside them. -1 disables all of
	// them.
	// Default: 8 MiB (DefaultRewriteCache).
	RewriteCache int64 `json:"rewrite_cache,omitempty"`

	// TokensHeader adds `x-markdown-tokens` (the converter's o200k BPE
	// count) to the Markdown form. Default: true.
	TokensHeader *bool `json:"tokens_header,omitempty"`
}

// Bool returns a pointer to v, for the *bool fields of Options.
func Bool(v bool) *bool { return &v }

// on reads a *bool option whose default is true.
func on(b *bool) bool { return b == nil || *b }

// disabled is the value that turns an optional string setting off.
const disabled = "-"

// Provision fills in the defaults of o and validates it (see Validate).
// It is idempotent: Handler.Provision calls it again.
func (o *Options) Provision() error {
	if err := o.Validate(); err != nil {
		return err
	}
	if o.MaxSize == 0 {
		o.MaxSize = DefaultMaxSize
	}
	if o.ConvertTimeout == 0 {
		o.ConvertTimeout = DefaultConvertTimeout
	}
	if o.MaxMarkdownSize == 0 {
		o.MaxMarkdownSize = markdownPerHTML * o.MaxSize
	}
	if o.RewriteCache == 0 {
		o.RewriteCache = DefaultRewriteCache
	}
	setDefault(&o.MarkdownSuffix, "/md")
	setDefault(&o.LinkLLMS, "/llms.txt")
	setDefault(&o.LinkAgents, "/agents.json")
	for _, b := range []**bool{&o.LinkMarkdown, &o.HeadLink, &o.TokensHeader} {
		if *b == nil {
			*b = Bool(true)
		}
	}
	return nil
}

// Validate reports every setting of o that is out of range or would
// corrupt a header (CR, LF, NUL or another control character), each error
// naming the setting. Zero values, the defaults, are valid.
func (o *Options) Validate() error {
	var errs []error
	for _, n := range []struct {
		name string
		bad  bool
		v    any
	}{
		{"max_size", o.MaxSize < 0, o.MaxSize},
		{"convert_timeout", o.ConvertTimeout < 0, o.ConvertTimeout},
		{"max_markdown_size", o.MaxMarkdownSize < 0, o.MaxMarkdownSize},
	} {
		if n.bad {
			errs = append(errs, fmt.Errorf("%s %v: must not be negative", n.name, n.v))
		}
	}
	for _, f := range []struct{ name, value string }{
		{"markdown_suffix", o.MarkdownSuffix},
		{"link_llms", o.LinkLLMS},
		{"link_agents", o.LinkAgents},
		{"cache_control", o.CacheControl},
		{"content_signal", o.ContentSignal},
	} {
		if hasCtl(f.value) {
			errs = append(errs, fmt.Errorf("%s %q: control characters (CR, LF, NUL…) are not allowed in a header value", f.name, f.value))
		}
	}
	if s := o.MarkdownSuffix; s != "" && s != disabled && (!strings.HasPrefix(s, "/") || len(s) < 2 || strings.ContainsAny(s, "?#")) {
		errs = append(errs, fmt.Errorf("markdown_suffix %q: must be a path segment such as \"/md\", or \"-\"", s))
	}
	return errors.Join(errs...)
}

// Suffix is the Markdown suffix in effect: MarkdownSuffix, or "" when it is
// disabled ("-").
func (o *Options) Suffix() string {
	if o.MarkdownSuffix == disabled {
		return ""
	}
	return o.MarkdownSuffix
}

func setDefault(s *string, def string) {
	if *s == "" {
		*s = def
	}
}
