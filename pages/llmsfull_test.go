package pages

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentready/caddy-agentready/connect"
	"github.com/agentready/caddy-agentready/discover"
)

// fakeIndex is a content index ready after `after` looks, holding pages.
type fakeIndex struct {
	looks, after int
	pages        map[string]connect.Page
}

func (f *fakeIndex) Stats() connect.Stats {
	f.looks++
	if f.looks > f.after {
		return connect.Stats{Indexed: time.Unix(1, 0)}
	}
	return connect.Stats{}
}

func (f *fakeIndex) Page(u string) (connect.Page, bool) {
	p, ok := f.pages[u]
	return p, ok
}

// TestAwaitIndex: llms-full.txt waits for the index's first refresh,
// looking every second, at most MaxDiscovery; without an index, not at all.
func TestAwaitIndex(t *testing.T) {
	for _, tc := range []struct {
		name  string
		index Index
		waits int
	}{
		{"no index", nil, 0},
		{"ready at once", &fakeIndex{}, 0},
		{"ready at the third look", &fakeIndex{after: 2}, 2},
		{"never ready", &fakeIndex{after: 1 << 30}, int(MaxDiscovery / time.Second)},
	} {
		p, _, clock := newPages(t, &site{}, parseSite(t, ""))
		p.awaitIndex(context.Background(), tc.index)
		if got := clock.recorded(); len(got) != tc.waits || (len(got) > 0 && got[0] != time.Second) {
			t.Errorf("%s: %d waits (%v…), want %d of 1s", tc.name, len(got), got[:min(len(got), 1)], tc.waits)
		}
	}
}

// TestBuildLLMsFull: llms-full.txt holds the home page, the named pages and
// the discovered ones, each once, in that order, under the YAML's title;
// a page the index holds is taken from it, the others fetched as Markdown.
func TestBuildLLMsFull(t *testing.T) {
	s := &site{}
	p, docs, _ := newPages(t, s, parseSite(t, "  pages: [/faq, /faq]\nllms:\n  title: Widgets\n  auto_list:\n    enabled: true\n"))
	p.Retry() // discovers /, /guide, /faq
	index := &fakeIndex{pages: map[string]connect.Page{
		"http://site.test/guide": {Title: "Guide", Markdown: []byte("---\ntitle: Guide\n---\n\nFrom the index.\n")},
	}}
	if got, want := p.fullURLs(), []string{"http://site.test/", "http://site.test/faq", "http://site.test/guide"}; !slices.Equal(got, want) {
		t.Errorf("fullURLs = %v, want %v", got, want)
	}
	s.asked = nil
	p.buildLLMsFull(context.Background(), index)
	body := string(docs.full)
	if !strings.HasPrefix(body, "# Widgets") {
		t.Errorf("llms-full.txt does not start with its title:\n%s", body)
	}
	home, faq, guide := strings.Index(body, "All about home."), strings.Index(body, "All about faq."), strings.Index(body, "From the index.")
	if home < 0 || faq < home || guide < faq {
		t.Errorf("pages missing or out of order (home %d, faq %d, guide %d):\n%s", home, faq, guide, body)
	}
	if slices.Contains(s.asked, "/guide") {
		t.Error("a page the index holds was fetched again")
	}
}

// TestLLMsFullTitle: llms.title, else site.name, else the public host.
func TestLLMsFullTitle(t *testing.T) {
	for yaml, want := range map[string]string{
		"llms:\n  title: Docs\n": "Docs",
		"":                       "Site",
	} {
		p, _, _ := newPages(t, &site{}, parseSite(t, yaml))
		if got := p.title(); got != want {
			t.Errorf("%q: title %q, want %q", yaml, got, want)
		}
	}
	p, _, _ := newPages(t, &site{}, parseSite(t, ""))
	p.cfg.Site.Info.Name, p.public = "", "https://www.site.example"
	if got := p.title(); got != "www.site.example" {
		t.Errorf("title %q, want the public host", got)
	}
}

// TestAnsweredSource: a discovery that met a site that did not answer is a
// failed listing for the content index, and is not published.
func TestAnsweredSource(t *testing.T) {
	p, docs, _ := newPages(t, &site{down: 1}, parseSite(t, "connect:\n  enabled: true\n"))
	if urls, err := p.Source().Pages(context.Background()); err == nil {
		t.Errorf("a refused robots.txt listed %v without an error", urls)
	}
	if docs.pages != nil {
		t.Errorf("an unanswered discovery was published: %v", docs.pages)
	}
	urls, err := p.Source().Pages(context.Background())
	if err != nil || len(urls) != 3 || len(docs.pages) != 3 {
		t.Errorf("once answered: %v, %v; %d published", urls, err, len(docs.pages))
	}
	var empty discover.Result
	p.Found(&empty) // no page, nothing skipped: a site of no pages
	if docs.pages == nil || len(docs.pages) != 0 {
		t.Errorf("an answered empty discovery was not published: %v", docs.pages)
	}
}

// TestReload: a config that follows within ListFresh lists the last
// config's pages at once and does not crawl again.
func TestReload(t *testing.T) {
	s := &site{}
	first, _, clock := newPages(t, s, parseSite(t, ""))
	first.FindSitemap(context.Background())
	<-first.Ready()
	list := first.cfg.List
	docs := &fakeDocs{}
	next, err := New(Config{Origin: "http://site.test", Transport: first.cfg.Transport, Site: first.cfg.Site,
		Docs: docs, List: list, Clock: clock})
	if err != nil {
		t.Fatal(err)
	}
	defer next.Close()
	if len(docs.pages) != 3 {
		t.Fatalf("the reload lists %d pages at once, want 3", len(docs.pages))
	}
	s.asked = nil
	next.FindSitemap(context.Background())
	<-next.Ready()
	for _, a := range s.asked {
		if a == "/" || a == "/guide" || a == "/faq" {
			t.Errorf("the reload crawled %s", a)
		}
	}
}
