package caddymodule

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/agentready/caddy-agentready/internal/agentshapes"
)

// TestIntegrationAgentRequestShapes plays every agent of
// internal/agentshapes as that agent would, through a real Caddy with
// agent_ready in front of a real origin, and asserts what the agent ends
// up reading: Claude Code's, Cursor's and Cloudflare's Accept get the
// Markdown at the page's own URL; Codex CLI gets the HTML, reads the
// head's Markdown alternate and fetches it; browsers', curl's and the
// */* fetchers' get the HTML.
func TestIntegrationAgentRequestShapes(t *testing.T) {
	shapes, err := agentshapes.All()
	if err != nil {
		t.Fatal(err)
	}
	origin := newOrigin(t)
	base, _ := runCaddy(t, `
:{port} {
	bind 127.0.0.1
	agent_ready {
		self_scan off
	}
	reverse_proxy `+strings.TrimPrefix(origin.URL, "http://")+`
}`)
	page := base + "/pricing"
	for _, s := range shapes {
		t.Run(s.Name, func(t *testing.T) {
			hdr := []string{"User-Agent", s.UserAgent}
			if s.Accept != "" {
				hdr = append(hdr, "Accept", s.Accept)
			}
			resp, body := get(t, http.MethodGet, page, hdr...)
			assertVaryAccept(t, resp)
			if s.FollowsAlternate {
				if !isHTML(resp) {
					t.Fatalf("%s asks for HTML first and got %q", s.Name, resp.Header.Get("Content-Type"))
				}
				href := markdownAlternate(t, body)
				u, err := url.Parse(page)
				if err != nil {
					t.Fatal(err)
				}
				ref, err := u.Parse(href)
				if err != nil {
					t.Fatalf("head alternate %q: %v", href, err)
				}
				resp, body = get(t, http.MethodGet, ref.String(), hdr...)
			}
			reads := "html"
			if resp.StatusCode == http.StatusOK && strings.HasPrefix(resp.Header.Get("Content-Type"), "text/markdown") &&
				strings.HasPrefix(body, "---\ntitle: Pricing\n") {
				reads = "markdown"
			} else if resp.StatusCode != http.StatusOK || !isHTML(resp) || !strings.Contains(body, "<h1") {
				t.Fatalf("%s: %d %q, neither the page's Markdown nor its HTML:\n%.300s", s.Name, resp.StatusCode, resp.Header.Get("Content-Type"), body)
			}
			if reads != s.Reads {
				t.Errorf("%s (Accept %q) reads %s, want %s (%s)", s.Name, s.Accept, reads, s.Reads, s.Source)
			}
		})
	}
}

// isHTML reports a text/html answer.
func isHTML(resp *http.Response) bool {
	return strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html")
}

// markdownAlternate returns the href of the head's
// <link rel="alternate" type="text/markdown">, as an agent that follows it
// reads it.
func markdownAlternate(t *testing.T, html string) string {
	t.Helper()
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(html))
	if err != nil {
		t.Fatal(err)
	}
	var href string
	doc.Find(`head link[rel~="alternate"]`).EachWithBreak(func(_ int, l *goquery.Selection) bool {
		if typ, _ := l.Attr("type"); strings.HasPrefix(typ, "text/markdown") {
			href, _ = l.Attr("href")
			return false
		}
		return true
	})
	if href == "" {
		t.Fatal("the HTML head has no <link rel=\"alternate\" type=\"text/markdown\">")
	}
	return href
}
