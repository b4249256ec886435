package selfcheck

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"net/url"
	"strings"

	"github.com/agentready/caddy-agentready/selfcheck/internal/parse"
)

func init() {
	register(map[string]checkFunc{
		"content_in_initial_html":       checkContentInInitialHTML,
		"markdown_representation":       checkMarkdownRepresentation,
		"vary_accept":                   checkVaryAccept,
		"markdown_front_matter":         checkMarkdownFrontMatter,
		"markdown_alternate_advertised": checkMarkdownAlternate,
		"browser_gets_html":             checkBrowserGetsHTML,
	})
}

// minContentWords is the visible text, in words, below which a page is an
// empty app shell rather than server-rendered content.
const minContentWords = 50

// notHTML is the route outcome of a route that did not answer with HTML.
func notHTML(p *page) routeOutcome {
	return routeFraction(0, fmt.Sprintf("%d %s", p.resp.status, p.resp.mediaType()), "no HTML page")
}

// checkContentInInitialHTML: the initial HTML carries the visible text and
// the main landmark is non-empty.
func checkContentInInitialHTML(ctx context.Context, s *site) outcome {
	expected := fmt.Sprintf("the initial HTML holds ≥ %d words of visible text outside script/style and a non-empty <main> (or role=main, <article>)", minContentWords)
	return s.perRoute(ctx, expected, nil, func(p *page) routeOutcome {
		if !p.resp.ok() || !isHTMLish(p.resp) {
			return notHTML(p)
		}
		f := p.facts
		got := fmt.Sprintf("%d words of visible text, main landmark %d characters", f.TextWords, f.MainChars)
		switch {
		case f.TextWords < minContentWords:
			return routeFraction(0, got, "visible text in the initial HTML (an empty app shell?)").because(CauseAppShell)
		case !f.HasMain:
			return routeFraction(0.5, got, "a <main> landmark").because(CauseNoMain)
		case f.MainChars == 0:
			return routeFraction(0.5, got, "text inside the <main> landmark").because(CauseNoMain)
		}
		return routePass(got)
	})
}

// markdownOf returns the answer of route to Accept: text/markdown.
func (s *site) markdownOf(ctx context.Context, route string) *response {
	return s.f.get(ctx, route, acceptMarkdown)
}

// isMarkdown reports a 200 text/markdown answer.
func isMarkdown(r *response) bool {
	return r.ok() && r.mediaType() == "text/markdown"
}

// checkMarkdownRepresentation: Accept: text/markdown gets 200
// text/markdown; charset=utf-8 (STANDARD.md §6), and so does the Accept
// real agents send, text/markdown tied with text/html (Claude Code's):
// a site that gives a tie to HTML serves Markdown to no agent in use, so
// it gets half the weight, the receipt naming the Accept that got HTML.
func checkMarkdownRepresentation(ctx context.Context, s *site) outcome {
	return s.perRoute(ctx, "200 text/markdown; charset=utf-8 for Accept: "+acceptMarkdown+" and for Accept: "+acceptAgentTie, []string{"Vary"}, func(p *page) routeOutcome {
		md := s.markdownOf(ctx, p.url)
		var ro routeOutcome
		got := recordResponse(md, []string{"Vary"}, s.opts.Redact).summary()
		switch {
		case md.unreachable():
			ro = routeCNC(md)
		case !isMarkdown(md):
			ro = whyNoMarkdown(md, got)
		case !strings.Contains(strings.ToLower(strings.ReplaceAll(md.header.Get("Content-Type"), " ", "")), "charset=utf-8"):
			ro = routeFraction(0.5, got, "charset=utf-8 on the Content-Type").because(CauseMarkdownCharset)
		default:
			tie := s.f.get(ctx, p.url, acceptAgentTie)
			switch {
			case tie.unreachable():
				ro = routeCNC(tie)
			case !isMarkdown(tie):
				ro = routeFraction(0.5, got+"; Accept: "+acceptAgentTie+" got "+orNone(tie.mediaType()),
					"Markdown for Accept: "+acceptAgentTie+" (Claude Code's; a tie with text/html goes to Markdown)").because(CauseMarkdownTieToHTML)
			default:
				ro = routePass(got + "; Accept: " + acceptAgentTie + " got text/markdown too")
			}
		}
		ro.resp = md
		return ro
	})
}

// varyHasAccept reports whether Vary names Accept or is "*" (RFC 9110 §12.5.5).
func varyHasAccept(r *response) bool {
	for _, v := range r.header.Values("Vary") {
		for _, f := range strings.Split(v, ",") {
			f = strings.TrimSpace(f)
			if strings.EqualFold(f, "accept") || f == "*" {
				return true
			}
		}
	}
	return false
}

// checkVaryAccept: both forms carry Vary naming Accept (RFC 9110 §12.5.5),
// so no cache hands one form to the other's reader.
func checkVaryAccept(ctx context.Context, s *site) outcome {
	return s.perRoute(ctx, "Vary: Accept on the HTML and on the Markdown answer", []string{"Vary"}, func(p *page) routeOutcome {
		md := s.markdownOf(ctx, p.url)
		if md.unreachable() {
			return routeCNC(md)
		}
		htmlOK, mdOK := varyHasAccept(p.resp), varyHasAccept(md)
		got := fmt.Sprintf("HTML Vary: %q; Markdown request Vary: %q", p.resp.header.Get("Vary"), md.header.Get("Vary"))
		return routeTwoParts(got, htmlOK, mdOK, "Vary: Accept on the HTML answer", "Vary: Accept on the answer to Accept: text/markdown", "Vary: Accept on both forms").because(CauseVaryMissing)
	})
}

// frontMatter reads the YAML front matter at the start of a Markdown body:
// top-level "key: value" lines between two "---" lines. ok is false when
// the body does not open with front matter.
func frontMatter(body []byte) (fields map[string]string, ok bool) {
	body = bytes.TrimPrefix(body, []byte("\xef\xbb\xbf"))
	sc := bufio.NewScanner(bytes.NewReader(body))
	sc.Buffer(make([]byte, 0, 1024), 64<<10)
	if !sc.Scan() || strings.TrimSpace(sc.Text()) != "---" {
		return nil, false
	}
	fields = map[string]string{}
	for n := 0; sc.Scan() && n < 200; n++ {
		line := sc.Text()
		if strings.TrimSpace(line) == "---" {
			return fields, true
		}
		if line == "" || line[0] == ' ' || line[0] == '\t' || line[0] == '#' {
			continue
		}
		k, v, found := strings.Cut(line, ":")
		if !found {
			continue
		}
		v = strings.TrimSpace(v)
		if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') && v[len(v)-1] == v[0] {
			v = v[1 : len(v)-1]
		}
		fields[strings.ToLower(strings.TrimSpace(k))] = v
	}
	return nil, false
}

// sameURL compares two URLs ignoring a trailing slash and default ports.
func sameURL(a, b string) bool {
	ua, err1 := url.Parse(a)
	ub, err2 := url.Parse(b)
	if err1 != nil || err2 != nil || !ua.IsAbs() || !ub.IsAbs() {
		return false
	}
	return sameOrigin(ua, ub) && strings.TrimSuffix(ua.Path, "/") == strings.TrimSuffix(ub.Path, "/") && ua.RawQuery == ub.RawQuery
}

// checkMarkdownFrontMatter: the Markdown opens with front matter holding
// title, canonical (the page's own URL), updated and language.
func checkMarkdownFrontMatter(ctx context.Context, s *site) outcome {
	return s.perRoute(ctx, "the Markdown opens with --- front matter holding title, canonical (the page's own URL), updated, language", nil, func(p *page) routeOutcome {
		md := s.markdownOf(ctx, p.url)
		var ro routeOutcome
		switch fm, ok := frontMatter(md.body); {
		case md.unreachable():
			ro = routeCNC(md)
		case !isMarkdown(md):
			ro = routeFraction(0, fmt.Sprintf("%d %s", md.status, md.mediaType()), "a Markdown answer to carry front matter").because(whyNoMarkdown(md, "").cause)
		case !ok:
			ro = routeFraction(0, "Markdown without front matter", "front matter").because(CauseFrontMatterMissing)
		default:
			var have []string
			var missing []string
			cause := ""
			for _, k := range []string{"title", "canonical", "updated", "language"} {
				v := fm[k]
				switch {
				case v == "":
					missing = append(missing, k)
					if cause == "" {
						cause = "front_matter_no_" + k
					}
				case k == "canonical" && !sameURL(v, p.url) && !sameURL(v, md.finalURL):
					missing = append(missing, fmt.Sprintf("canonical %q is not the page's own URL", v))
					if cause == "" {
						cause = CauseFrontMatterCanonical
					}
				default:
					have = append(have, k)
				}
			}
			ro = routeFraction(float64(len(have))/4, "front matter with "+strings.Join(have, ", "), strings.Join(missing, ", ")).because(cause)
		}
		ro.resp = md
		return ro
	})
}

// checkMarkdownAlternate: the Link header offers the page's Markdown
// alternate (RFC 8288 rel="alternate" type="text/markdown") and the HTML
// head repeats it.
func checkMarkdownAlternate(ctx context.Context, s *site) outcome {
	const expected = `Link: <…>; rel="alternate"; type="text/markdown" and the same <link> in the HTML head`
	return s.perRoute(ctx, expected, []string{"Link"}, func(p *page) routeOutcome {
		if !p.resp.ok() || !isHTMLish(p.resp) {
			return notHTML(p)
		}
		base, _ := url.Parse(p.url)
		header := hasMarkdownAlternate(parse.LinkHeader(p.resp.header.Values("Link"), base))
		head := hasMarkdownAlternate(p.facts.Links)
		got := fmt.Sprintf("Link header alternate: %t; head <link> alternate: %t", header, head)
		return routeTwoParts(got, header, head, "the Link header", "the <link> in the HTML head", "a Markdown alternate link").because(CauseAlternateMissing)
	})
}

// hasMarkdownAlternate reports a rel=alternate type=text/markdown link.
func hasMarkdownAlternate(links []parse.Link) bool {
	for _, l := range links {
		if l.HasRel("alternate") && strings.HasPrefix(l.Type, "text/markdown") {
			return true
		}
	}
	return false
}

// checkBrowserGetsHTML: a browser's Accept and a bare */* both still get
// HTML (RFC 9110 §12.5.1: */* alone prefers nothing, so HTML stays).
func checkBrowserGetsHTML(ctx context.Context, s *site) outcome {
	return s.perRoute(ctx, "text/html for Accept: "+acceptBrowser+" and for Accept: */*", nil, func(p *page) routeOutcome {
		anyResp := s.f.get(ctx, p.url, acceptAny)
		if anyResp.unreachable() {
			return routeCNC(anyResp)
		}
		browser, star := isHTMLish(p.resp), isHTMLish(anyResp)
		got := fmt.Sprintf("browser Accept → %s; */* → %s", p.resp.mediaType(), anyResp.mediaType())
		return routeTwoParts(got, browser, star, "HTML for a browser's Accept", "HTML for Accept: */*", "HTML for browsers").because(CauseBrowserNotHTML)
	})
}
