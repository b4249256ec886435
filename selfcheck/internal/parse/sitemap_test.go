package parse

import (
	"fmt"
	"strings"
	"testing"
)

// xmlBomb is the billion-laughs document: encoding/xml never expands
// custom entities, so it fails to parse instead of exploding.
const xmlBomb = `<?xml version="1.0"?>
<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>
<urlset><url><loc>&lol3;</loc></url></urlset>`

func TestSitemapXMLBombNotExpanded(t *testing.T) {
	doc := Sitemap([]byte(xmlBomb), 10)
	if doc.Err == nil || !strings.Contains(doc.Err.Error(), "entity") {
		t.Fatalf("XML bomb parsed: %+v", doc)
	}
	if len(doc.Locs) != 0 {
		t.Errorf("bomb produced locs %v", doc.Locs)
	}
}

func TestSitemapLocCap(t *testing.T) {
	var b strings.Builder
	b.WriteString("<urlset>")
	for i := range 100 {
		fmt.Fprintf(&b, "<url><loc>https://a.test/%d</loc></url>", i)
	}
	b.WriteString("</urlset>")
	doc := Sitemap([]byte(b.String()), 10)
	if len(doc.Locs) != 10 || !doc.Truncated {
		t.Errorf("%d locs, truncated %v; want 10 and true", len(doc.Locs), doc.Truncated)
	}
}

func FuzzSitemap(f *testing.F) {
	f.Add([]byte(`<urlset><url><loc>https://a.test/</loc></url></urlset>`))
	f.Add([]byte(`<sitemapindex><sitemap><loc>x</loc></sitemap></sitemapindex>`))
	f.Add([]byte(xmlBomb))
	f.Fuzz(func(t *testing.T, b []byte) {
		d := Sitemap(b, 100)
		if len(d.Locs) > 100 {
			t.Fatalf("%d locs over the cap", len(d.Locs))
		}
	})
}
