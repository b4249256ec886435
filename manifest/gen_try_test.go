package manifest

import (
	"fmt"
	"testing"
	"time"
)

func TestTry(t *testing.T) {
	s, err := Load("testdata/full.yaml")
	if err != nil {
		t.Fatal(err)
	}
	fmt.Println(s.Warnings())
	b, err := s.Generate(Env{MarkdownSuffix: "/md", Now: time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC), SitemapURLs: []string{"https://acme.example/", "https://acme.example/a/b-c", "https://x.example/y", "https://acme.example/z"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range b.Documents {
		fmt.Printf("==== %s %s %s %v\n%s\n", d.Path, d.ContentType, d.CacheControl, d.OriginWins, d.Body)
	}
	m, w, err := b.MergeRobots([]byte("User-agent: *\nDisallow: /admin/\n\nUser-agent: GPTBot\nDisallow: /x\n"))
	fmt.Printf("%s\n%q %v\n", m, w, err)
	fmt.Printf("%s\n%+v\n", b.Sitemap.Body, b.Inject)
}
