package documents

import (
	"html"
	"net/http"
	"net/url"
	"strconv"
	"sync/atomic"

	"github.com/agentready/caddy-agentready/manifest"
	"github.com/agentready/caddy-agentready/negotiate"
)

// Tags whose presence in a page's head means the page already has its own
// version of what we would inject.
var (
	skipCanonical = negotiate.TagMatch{Tag: "link", Attrs: map[string]string{"rel": "canonical"}}
	skipARD       = negotiate.TagMatch{Tag: "link", Attrs: map[string]string{"rel": "ard"}}
	skipJSONLD    = negotiate.TagMatch{Tag: "script", Attrs: map[string]string{"type": "application/ld+json"}}
)

// templates numbers the injection templates, so that each has a Key of
// its own for the rewrite plans (negotiate.Injection.Key).
var templates atomic.Uint64

// Injection is the negotiate.Handler Inject hook: what the HTML form of
// the page r gains, nil when the documents fail to generate.
func (s *Set) Injection(r *http.Request) *negotiate.Injection {
	b := s.bundleFor(r)
	if b.err != nil || b.Bundle == nil {
		return nil
	}
	return b.injection(s.opts.ClientURL(r))
}

// injectionTemplate turns the site's annotations into the rewriter's terms,
// once per bundle; only the canonical link differs between pages.
func injectionTemplate(mi manifest.Injection) *negotiate.Injection {
	inj := &negotiate.Injection{Lang: mi.Lang, Key: "t" + strconv.FormatUint(templates.Add(1), 10)}
	if mi.JSONLD != "" {
		inj.Head = append(inj.Head, negotiate.HeadElement{HTML: mi.JSONLD, SkipIf: skipJSONLD})
	}
	if mi.ARDLink != "" {
		inj.Head = append(inj.Head, negotiate.HeadElement{HTML: mi.ARDLink, SkipIf: skipARD})
	}
	for _, f := range mi.Forms {
		fa := negotiate.FormAnnotation{
			Selector: f.Selector,
			Attrs:    map[string]string{},
			Fields:   map[string]map[string]string{},
		}
		if f.ToolName != "" {
			fa.Attrs["toolname"] = f.ToolName
		}
		if f.ToolDescription != "" {
			fa.Attrs["tooldescription"] = f.ToolDescription
		}
		for name, desc := range f.Params {
			fa.Fields[name] = map[string]string{"toolparamdescription": desc}
		}
		inj.Forms = append(inj.Forms, fa)
	}
	return inj
}

// injection returns what the HTML form of the page the client asked for at
// u gains: the bundle's template plus, when configured, the page's
// canonical link, u's path on the canonical origin. A path rewritten inside
// the server (php_fastcgi's /index.php, try_files) is never the page's
// public URL, and a query may or may not be part of it (a search, a
// filter, a tracking parameter): a page whose public URL is not known this
// way (u nil, or with a query) gets no canonical.
func (b *bundle) injection(u *url.URL) *negotiate.Injection {
	if !b.Inject.Canonical || u == nil || u.RawQuery != "" || u.ForceQuery {
		return b.inject
	}
	href := html.EscapeString(b.Inject.Origin + (&url.URL{Path: u.Path, RawPath: u.RawPath}).EscapedPath())
	canonical := negotiate.HeadElement{
		HTML:   `<link rel="canonical" href="` + href + `">`,
		SkipIf: skipCanonical,
	}
	inj := *b.inject
	inj.Head = append([]negotiate.HeadElement{canonical}, b.inject.Head...)
	inj.Key += "\x00canonical:" + href
	return &inj
}
