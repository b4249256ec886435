package selfcheck

import (
	"net/http"
	"strings"
	"testing"
)

// shell is an empty single-page-app shell.
const shell = `<!doctype html><html lang="en"><head><script src="/app.js"></script></head><body><div id="root"></div></body></html>`

// markdownAlways answers every request with Markdown, whatever it accepts.
func markdownAlways(s *testSite) {
	s.set("/", &doc{handler: func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/markdown; charset=utf-8")
		w.Header().Set("Vary", "Accept")
		w.Write([]byte("# Home\n"))
	}})
}

func TestCheckContentInInitialHTML(t *testing.T) {
	words := strings.Repeat("word ", 60)
	runVerdictCases(t, "content_in_initial_html", []verdictCase{
		{name: "server-rendered main", site: ready(), verdict: Pass},
		{name: "no main landmark", site: bare(replace("/", htmlDoc(`<html><body><div>`+words+`</div></body></html>`))), verdict: Partial, fraction: 0.5},
		{name: "role=main counts", site: bare(replace("/", htmlDoc(`<html><body><div role="main">`+words+`</div></body></html>`))), verdict: Pass},
		{name: "text hidden in a template does not count", site: bare(replace("/", htmlDoc(`<html><body><main></main><template>`+words+`</template></body></html>`))), verdict: Fail},
		{name: "app shell", site: bare(replace("/", htmlDoc(shell))), verdict: Fail},
		{name: "home 500", site: ready(serverError("/"), without("/sitemap.xml")), verdict: CouldNotCheck},
	})
}

func TestCheckMarkdownRepresentation(t *testing.T) {
	noCharset := func(s *testSite) {
		s.set("/", &doc{handler: func(w http.ResponseWriter, r *http.Request) {
			if strings.HasPrefix(r.Header.Get("Accept"), "text/markdown") {
				w.Header().Set("Content-Type", "text/markdown")
				w.Write([]byte("# Home\n"))
				return
			}
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte("<html></html>"))
		}})
	}
	runVerdictCases(t, "markdown_representation", []verdictCase{
		{name: "negotiated", site: ready(), verdict: Pass},
		{name: "no charset", site: ready(noCharset, without("/sitemap.xml")), verdict: Partial, fraction: 0.5},
		{name: "a tie with text/html gets HTML", site: ready(without("/sitemap.xml"), func(s *testSite) {
			s.set("/", &doc{handler: func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Vary", "Accept")
				if r.Header.Get("Accept") == "text/markdown" { // the old rule: only a strict preference
					w.Header().Set("Content-Type", "text/markdown; charset=utf-8")
					w.Write([]byte("# Home\n"))
					return
				}
				w.Header().Set("Content-Type", "text/html")
				w.Write([]byte("<html></html>"))
			}})
		}), verdict: Partial, fraction: 0.5},
		{name: "one route HTML only", site: ready(func(s *testSite) { s.edit("/pricing", func(d *doc) { d.markdown = "" }) }), verdict: Partial, fraction: 0.5},
		{name: "HTML only", site: bare(), verdict: Fail},
		{name: "markdown request fails", site: ready(without("/sitemap.xml"), func(s *testSite) {
			s.set("/", &doc{handler: func(w http.ResponseWriter, r *http.Request) {
				if strings.HasPrefix(r.Header.Get("Accept"), "text/markdown") {
					w.WriteHeader(502)
					return
				}
				w.Write([]byte("<html></html>"))
			}})
		}), verdict: CouldNotCheck},
	})
}

func TestCheckVaryAccept(t *testing.T) {
	runVerdictCases(t, "vary_accept", []verdictCase{
		{name: "both forms", site: ready(), verdict: Pass},
		{name: "Vary star counts", opts: Options{Pages: -1}, site: ready(without("/sitemap.xml"), func(s *testSite) { s.edit("/", func(d *doc) { d.header.Set("Vary", "*") }) }), verdict: Pass},
		{name: "merged Vary list", opts: Options{Pages: -1}, site: ready(without("/sitemap.xml"), func(s *testSite) { s.edit("/", func(d *doc) { d.header.Set("Vary", "Accept-Encoding, accept") }) }), verdict: Pass},
		{name: "HTML form only", site: ready(without("/sitemap.xml"), func(s *testSite) {
			s.set("/", &doc{handler: func(w http.ResponseWriter, r *http.Request) {
				if strings.HasPrefix(r.Header.Get("Accept"), "text/markdown") {
					w.Header().Set("Content-Type", "text/markdown; charset=utf-8")
					return
				}
				w.Header().Set("Vary", "Accept")
				w.Header().Set("Content-Type", "text/html")
			}})
		}), verdict: Partial, fraction: 0.5},
		{name: "none", site: bare(), verdict: Fail},
		{name: "home 500", site: ready(serverError("/"), without("/sitemap.xml")), verdict: CouldNotCheck},
	})
}

func TestCheckMarkdownFrontMatter(t *testing.T) {
	fm := func(md string) func(s *testSite) {
		return func(s *testSite) {
			s.set("/sitemap.xml", nil)
			s.edit("/", func(d *doc) { d.markdown = md })
		}
	}
	runVerdictCases(t, "markdown_front_matter", []verdictCase{
		{name: "all four fields", site: ready(), verdict: Pass},
		{name: "title only", opts: Options{Pages: -1}, site: ready(fm("---\ntitle: Home\n---\n# Home\n")), verdict: Partial, fraction: 0.25},
		{name: "canonical is an AI URL", opts: Options{Pages: -1}, site: ready(fm("---\ntitle: Home\ncanonical: {{origin}}/index.md\nupdated: 2026-01-01\nlanguage: en\n---\n# Home\n")), verdict: Partial, fraction: 0.75},
		{name: "no front matter", opts: Options{Pages: -1}, site: ready(fm("# Home\n")), verdict: Fail},
		{name: "no markdown at all", site: bare(), verdict: Fail},
		{name: "home 500", site: ready(serverError("/"), without("/sitemap.xml")), verdict: CouldNotCheck},
	})
}

func TestFrontMatter(t *testing.T) {
	tests := []struct {
		in   string
		ok   bool
		keys int
	}{
		{"---\ntitle: \"A: B\"\nlanguage: en\n---\nbody", true, 2},
		{"\xef\xbb\xbf---\ntitle: x\n---\n", true, 1},
		{"---\ntitle: x\n", false, 0},
		{"# no\n---\n", false, 0},
		{"", false, 0},
	}
	for _, tc := range tests {
		f, ok := frontMatter([]byte(tc.in))
		if ok != tc.ok || len(f) != tc.keys {
			t.Errorf("frontMatter(%q) = %v %v, want %d keys %v", tc.in, f, ok, tc.keys, tc.ok)
		}
	}
}

func TestCheckMarkdownAlternate(t *testing.T) {
	runVerdictCases(t, "markdown_alternate_advertised", []verdictCase{
		{name: "header and head", site: ready(), verdict: Pass},
		{name: "head only", site: ready(func(s *testSite) {
			s.edit("/", func(d *doc) { d.header.Del("Link") })
			s.edit("/pricing", func(d *doc) { d.header.Del("Link") })
		}), verdict: Partial, fraction: 0.5},
		{name: "header only", site: ready(editBody("/", `<link rel="alternate" type="text/markdown" href="{{origin}}/index.md">`, ""), editBody("/pricing", `<link rel="alternate" type="text/markdown" href="{{origin}}/pricing.md">`, "")), verdict: Partial, fraction: 0.5},
		{name: "none", site: bare(), verdict: Fail},
		{name: "home 500", site: ready(serverError("/"), without("/sitemap.xml")), verdict: CouldNotCheck},
	})
}

func TestCheckBrowserGetsHTML(t *testing.T) {
	starMarkdown := func(s *testSite) {
		s.set("/sitemap.xml", nil)
		s.set("/", &doc{handler: func(w http.ResponseWriter, r *http.Request) {
			if r.Header.Get("Accept") == "*/*" {
				w.Header().Set("Content-Type", "text/markdown")
				return
			}
			w.Header().Set("Content-Type", "text/html")
		}})
	}
	runVerdictCases(t, "browser_gets_html", []verdictCase{
		{name: "HTML for both", site: ready(), verdict: Pass},
		{name: "*/* gets markdown", site: ready(starMarkdown), verdict: Partial, fraction: 0.5},
		{name: "markdown for everyone", site: ready(markdownAlways, without("/sitemap.xml")), verdict: Fail},
		{name: "home 500", site: ready(serverError("/"), without("/sitemap.xml")), verdict: CouldNotCheck},
	})
}

func FuzzFrontMatter(f *testing.F) {
	f.Add([]byte("---\ntitle: x\ncanonical: https://a.test/\n---\n# x"))
	f.Fuzz(func(t *testing.T, b []byte) { frontMatter(b) })
}
