package connect

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
)

const testOrigin = "https://shop.example"

// fakePage is one page of the fake site.
type fakePage struct {
	path, title, description, lang, updated, body string
	frontMatter                                   bool // Markdown already carries front matter
}

// testPages is a small realistic site: a shop with docs and a blog.
var testPages = []fakePage{
	{path: "/", title: "Example Shop", description: "Handmade ceramics shipped across Europe.", lang: "en", updated: "2026-09-01",
		body: "# Example Shop\n\nWe make **handmade ceramics**: mugs, bowls and vases, fired in our studio in Lyon.\n\n- [Pricing](/pricing)\n- [Docs](/docs/)\n"},
	{path: "/about", title: "About us", description: "Two potters and a kiln.", lang: "en", updated: "2026-03-12",
		body: "# About us\n\nFounded in 2019 by two potters. Every piece is thrown on the wheel and glazed by hand.\n"},
	{path: "/pricing", title: "Pricing", description: "What each plan includes and what it costs.", lang: "en", updated: "2026-09-15", frontMatter: true,
		body: "# Pricing\n\n| Plan | Price |\n|---|---|\n| Starter | 9 EUR a month |\n| Studio | 29 EUR a month |\n\nThe Studio plan includes free shipping and early access to new glazes.\n"},
	{path: "/docs/", title: "Documentation", description: "Guides for the shop API.", lang: "en", updated: "2026-08-20",
		body: "# Documentation\n\nStart with [Getting started](/docs/getting-started), then read the [API reference](/docs/api).\n"},
	{path: "/docs/getting-started", title: "Getting started", lang: "en", updated: "2026-08-20",
		body: "# Getting started\n\nCreate an account, then request an API key from your dashboard. Keys are scoped to one shop.\n"},
	{path: "/docs/api", title: "API reference", description: "Endpoints for orders, products and shipping.", lang: "en", updated: "2026-08-22",
		body: "# API reference\n\n## Orders\n\n`GET /api/orders` lists orders. `POST /api/orders` creates one.\n\n## Shipping\n\nShipping rates depend on weight and destination.\n"},
	{path: "/docs/webhooks", title: "Webhooks", lang: "en", updated: "2026-07-02",
		body: "# Webhooks\n\nWe send an HTTP POST to your endpoint when an order ships. Verify the signature header.\n"},
	{path: "/blog/kiln-day", title: "A day at the kiln", description: "How a glaze firing goes, hour by hour.", lang: "en", updated: "2026-05-05",
		body: "# A day at the kiln\n\nThe glaze firing starts at dawn and reaches 1280 °C by evening. Patience is the main ingredient.\n"},
	{path: "/blog/tasse-bleue", title: "La tasse bleue", description: "L'histoire de notre émail bleu.", lang: "fr", updated: "2026-06-10",
		body: "# La tasse bleue\n\nNotre émail bleu vient d'un mélange de cobalt et de fer, cuit à haute température.\n"},
	{path: "/contact", title: "Contact", description: "Write to us or visit the studio.", lang: "en", updated: "2026-01-10",
		body: "# Contact\n\nWrite to hello@shop.example or visit the studio, 12 rue des Potiers, Lyon.\n"},
}

// testLLMsTxt is the fake site's llms.txt.
const testLLMsTxt = "# Example Shop\n\n> Handmade ceramics.\n\n- [Pricing](https://shop.example/pricing)\n"

// fakeSource serves testPages with ETags, answering ErrNotModified when the
// caller holds the current one.
type fakeSource struct {
	mu      sync.Mutex
	pages   map[string]*Page
	order   []string
	extra   []string // listed URLs that are not pages (foreign, malformed)
	fetches atomic.Int64
	fetchFn func(ctx context.Context, url string) (*Page, error) // overrides, when set
	down    atomic.Bool                                          // the origin is down: listing and fetches fail
}

func newFakeSource() *fakeSource {
	f := &fakeSource{pages: make(map[string]*Page)}
	for i, p := range testPages {
		u := testOrigin + p.path
		md := p.body
		if p.frontMatter {
			md = fmt.Sprintf("---\ntitle: %s\ndescription: %s\ncanonical: %s\nupdated: %s\nlanguage: %s\n---\n%s",
				p.title, p.description, u, p.updated, p.lang, p.body)
		}
		f.pages[u] = &Page{
			URL: u, Title: p.title, Description: p.description, Language: p.lang, Updated: p.updated,
			Markdown: []byte(md), Validators: Validators{ETag: fmt.Sprintf(`"v1-%d"`, i)},
		}
		f.order = append(f.order, u)
	}
	f.pages[testOrigin+"/llms.txt"] = &Page{URL: testOrigin + "/llms.txt", Markdown: []byte(testLLMsTxt), Validators: Validators{ETag: `"llms"`}}
	return f
}

func (f *fakeSource) Pages(context.Context) ([]string, error) {
	if f.down.Load() {
		return nil, errors.New("reading sitemap: status 502")
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	return append(append([]string(nil), f.order...), f.extra...), nil
}

func (f *fakeSource) Fetch(ctx context.Context, u string, prev Validators) (*Page, error) {
	f.fetches.Add(1)
	if f.down.Load() {
		return nil, fmt.Errorf("fetching %s: status 502", u)
	}
	if f.fetchFn != nil {
		return f.fetchFn(ctx, u)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	p, ok := f.pages[u]
	if !ok {
		return nil, fmt.Errorf("fetching %s: status 404", u)
	}
	if prev.ETag != "" && prev.ETag == p.Validators.ETag {
		return nil, ErrNotModified
	}
	cp := *p
	return &cp, nil
}

// set replaces or adds the page at path and lists it.
func (f *fakeSource) set(path string, p *Page) {
	f.mu.Lock()
	defer f.mu.Unlock()
	u := testOrigin + path
	if _, ok := f.pages[u]; !ok {
		f.order = append(f.order, u)
	}
	f.pages[u] = p
}

// drop stops listing the page at path.
func (f *fakeSource) drop(path string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	u := testOrigin + path
	delete(f.pages, u)
	for i, o := range f.order {
		if o == u {
			f.order = append(f.order[:i], f.order[i+1:]...)
			break
		}
	}
}

func fmtPath(format string, a ...any) string { return fmt.Sprintf(format, a...) }
