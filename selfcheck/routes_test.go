package selfcheck

import (
	"strings"
	"testing"
)

// TestPickRoutes: the pages read spread over the site's sections and page
// kinds, a likely form page first, instead of the first pages in sitemap
// order.
func TestPickRoutes(t *testing.T) {
	const d = "https://docs.example/"
	var python []string
	for _, p := range []string{"about.html", "bugs.html", "c-api/abstract.html", "c-api/index.html", "contents.html", "copyright.html",
		"glossary.html", "library/csv.html", "library/index.html", "library/json.html", "tutorial/appetite.html", "tutorial/index.html", "whatsnew/3.13.html"} {
		python = append(python, d+p)
	}
	for _, tc := range []struct {
		name string
		in   []string
		n    int
		want []string
	}{
		{"one page per section, content first", python, 5, []string{"about.html", "c-api/abstract.html", "library/csv.html", "tutorial/appetite.html", "whatsnew/3.13.html"}},
		{"then listings, then second pages", python, 9, []string{"about.html", "c-api/abstract.html", "library/csv.html", "tutorial/appetite.html", "whatsnew/3.13.html", "c-api/index.html", "library/index.html", "tutorial/index.html", "bugs.html"}},
		{"a form page first", []string{d + "a", d + "b", d + "blog/x", d + "contact/"}, 3, []string{"contact/", "a", "blog/x"}},
		{"fewer candidates than n", []string{d + "a"}, 5, []string{"a"}},
		{"none asked", python, 0, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := pickRoutes(tc.in, tc.n)
			for i := range got {
				got[i] = strings.TrimPrefix(got[i], d)
			}
			if strings.Join(got, " ") != strings.Join(tc.want, " ") {
				t.Errorf("pickRoutes = %v, want %v", got, tc.want)
			}
		})
	}
}

// TestNoSitemapFollowsHomeLinks: a site without a sitemap is scanned on
// the home page and its same-origin page links, so a form one link away
// is seen (web_actions_declared applies) and foreign links and files are
// not read.
func TestNoSitemapFollowsHomeLinks(t *testing.T) {
	s := bareSite()
	s.edit("/", func(d *doc) {
		d.body = `<!doctype html><html><head><title>My site</title></head><body><h1>Welcome</h1>
<a href="/about">About</a> <a href="/contact">Contact</a> <a href="/logo.png">Logo</a> <a href="https://elsewhere.example/">Elsewhere</a></body></html>`
	})
	s.set("/about", &doc{ctype: "text/html", body: `<html><body><p>About us.</p></body></html>`})
	s.set("/contact", &doc{ctype: "text/html", body: `<html><body><form action="/send"><label for="m">Message</label><textarea id="m" name="message"></textarea></form></body></html>`})
	r := scanHandler(t, s, Options{})
	var paths []string
	for _, u := range r.Routes {
		paths = append(paths, pathOf(u))
	}
	if strings.Join(paths, " ") != "/ /contact /about" {
		t.Errorf("routes %v, want the home page, the form page, then /about", paths)
	}
	if c := r.checkByID("web_actions_declared"); c.Verdict != Fail {
		t.Errorf("web_actions_declared = %s, want FAIL (the contact form is unannotated)", c.Verdict)
	}
}
