package selfcheck

import (
	"context"
	"net/url"
	"regexp"
	"strings"
)

// formPagePath matches a path segment of a page that likely holds a form
// (contact, search, sign-up, quote, order…): the route picker reads one
// such page when there is one, so that the Act checks see a form.
var formPagePath = regexp.MustCompile(`(?i)^(?:contact(?:-us)?|search|signup|sign-up|register|subscribe|newsletter|quote|get-a-quote|book(?:ing)?|order|checkout|feedback|support|help|demo|request-demo|apply|login|sign-in)(?:\.html?|\.php)?$`)

// pickRoutes chooses up to n pages that represent the site from the
// candidates (sitemap order, or the home page's links): a page that likely
// holds a form first, when there is one; then one page per section (the
// first path segment), sections in the order they first appear,
// alternating listing pages (a path ending in / or index.html) and
// content pages, round after round, until n are picked.
func pickRoutes(candidates []string, n int) []string {
	if n <= 0 {
		return nil
	}
	type section struct {
		listing, content []string
	}
	var order []string
	sections := map[string]*section{}
	var form string
	for _, c := range candidates {
		u, err := url.Parse(c)
		if err != nil {
			continue
		}
		segs := strings.Split(strings.Trim(u.Path, "/"), "/")
		if form == "" && formPagePath.MatchString(segs[len(segs)-1]) {
			form = c
			continue
		}
		key := segs[0]
		if len(segs) == 1 {
			key = "" // top-level pages are one section
		}
		sec := sections[key]
		if sec == nil {
			sec = &section{}
			sections[key] = sec
			order = append(order, key)
		}
		if strings.HasSuffix(u.Path, "/") || strings.HasSuffix(u.Path, "/index.html") {
			sec.listing = append(sec.listing, c)
		} else {
			sec.content = append(sec.content, c)
		}
	}
	var out []string
	if form != "" {
		out = append(out, form)
	}
	rounds := 0
	for _, sec := range sections {
		rounds = max(rounds, 2*len(sec.content), 2*len(sec.listing))
	}
	// Round r takes each section's content page r/2 (even r) or listing
	// page r/2 (odd r): content first, it holds what agents read.
	for round := 0; round < rounds && len(out) < n; round++ {
		for _, key := range order {
			sec := sections[key]
			list := sec.content
			if round%2 == 1 {
				list = sec.listing
			}
			if i := round / 2; i < len(list) && len(out) < n {
				out = append(out, list[i])
			}
		}
	}
	return out
}

// homeLinks returns the home page's same-origin links, in page order,
// fragments dropped: the candidates of a site without a sitemap.
func (s *site) homeLinks(ctx context.Context) []string {
	home := s.page(ctx, s.home)
	var out []string
	for _, a := range home.facts.Anchors {
		u, err := url.Parse(a)
		if err != nil || !onOrigin(a, s.origin) || !pageLike(u.Path) {
			continue
		}
		u.Fragment = ""
		if u.Path == "" {
			u.Path = "/"
		}
		out = append(out, u.String())
	}
	return out
}

// pageLike reports a path that names a page rather than a file: no
// extension, or an HTML one.
func pageLike(p string) bool {
	last := p[strings.LastIndex(p, "/")+1:]
	i := strings.LastIndex(last, ".")
	if i < 0 {
		return true
	}
	switch strings.ToLower(last[i+1:]) {
	case "html", "htm", "php", "asp", "aspx", "jsp":
		return true
	}
	return false
}
