package documents

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"slices"

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

// Injection is the negotiate.Handler Inject hook: what the HTML form of
// the page r gains, nil when the documents fail to generate.
func (s *Set) Injection(r *http.Request) *negotiate.Injection {
	return s.InjectionAt(r, s.opts.ClientURL(r))
}

// InjectionAt is the negotiate.Handler InjectAt hook: Injection, given the
// URL the client asked for (Options.ClientURL's answer for r, which the
// handler asked already; nil for none).
func (s *Set) InjectionAt(r *http.Request, client *url.URL) *negotiate.Injection {
	b := s.bundleFor(r)
	if b.err != nil || b.Bundle == nil {
		return nil
	}
	return b.injection(client)
}

// injectionTemplate turns the site's annotations into the rewriter's terms,
// once per bundle; only the canonical link differs between pages.
func injectionTemplate(mi manifest.Injection) *negotiate.Injection {
	inj := &negotiate.Injection{Lang: mi.Lang}
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
	inj.Key = templateKey(inj)
	return inj
}

// templateKey names what a template injects, for the rewrite plans
// (negotiate.Injection.Key): a hash of its content, so that a bundle
// generated again with the same annotations (after discovery found the
// site's pages, say) finds the plans of the one before it.
func templateKey(inj *negotiate.Injection) string {
	h := sha256.New()
	field := func(s string) { fmt.Fprintf(h, "%d:%s;", len(s), s) }
	field(inj.Lang)
	for _, e := range inj.Head {
		field(e.HTML)
	}
	for _, f := range inj.Forms {
		field(f.Selector)
		for _, k := range slices.Sorted(maps.Keys(f.Attrs)) {
			field(k)
			field(f.Attrs[k])
		}
		for _, name := range slices.Sorted(maps.Keys(f.Fields)) {
			field(name)
			for _, k := range slices.Sorted(maps.Keys(f.Fields[name])) {
				field(k)
				field(f.Fields[name][k])
			}
		}
	}
	return "t" + hex.EncodeToString(h.Sum(nil)[:12])
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
	k := pageKey{path: u.Path, rawPath: u.RawPath}
	if inj, ok := b.pages.Get(k); ok {
		return inj
	}
	inj := b.pageInjection(u.Path, u.RawPath)
	keepPage(b.pages, k, inj)
	return inj
}

// pageInjection is the template with the canonical link of the page at
// path (its escaped form rawPath, as url.URL has them) on the canonical
// origin.
func (b *bundle) pageInjection(path, rawPath string) *negotiate.Injection {
	escaped := (&url.URL{Path: path, RawPath: rawPath}).EscapedPath()
	// The link and the Key in one string, the injection and its head in
	// one allocation.
	st := &struct {
		inj  negotiate.Injection
		head [4]negotiate.HeadElement
	}{inj: *b.inject}
	canonical := negotiate.HeadElement{SkipIf: skipCanonical}
	canonical.HTML, st.inj.Key = negotiate.LinkWithKeyOf(`<link rel="canonical" href="`, b.inject.Key, "\x00canonical:", b.Inject.Origin, escaped)
	st.inj.Head = append(append(st.head[:0:len(st.head)], canonical), b.inject.Head...)
	return &st.inj
}
