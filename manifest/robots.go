package manifest

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"
)

// MaxRobotsBytes is the largest origin robots.txt MergeRobots accepts
// (RFC 9309 §2.5: crawlers must parse at least 500 KiB).
const MaxRobotsBytes = 512 << 10

// RobotsAdditions is what the site adds to the origin's robots.txt.
type RobotsAdditions struct {
	// Sitemap is the absolute sitemap URL for a Sitemap: line, "" for none.
	// It is added only when the origin's robots.txt names no sitemap.
	Sitemap string
	// OriginSitemaps are the origin's own sitemaps (Env.OriginSitemaps);
	// when set they are named instead of Sitemap, each one the origin's
	// robots.txt does not name already.
	OriginSitemaps []string
	// Agentmap is the absolute ard.json URL for an Agentmap: line, "" for none.
	Agentmap string
	// ContentSignal is the Content-Signal: value, "" for none.
	ContentSignal string
	// Groups are the crawler groups the policy asks for.
	Groups []RobotsGroup
	// OriginWins is true when documents.robots_txt is origin: an origin
	// robots.txt is then served unmerged, and ours only when it has none.
	OriginWins bool
}

// RobotsGroup is one user-agent group for a crawler kind.
type RobotsGroup struct {
	// Kind is the crawler kind.
	Kind CrawlerKind
	// Agents are the user-agent tokens.
	Agents []string
	// Allow is true to give the agents the same rules as the origin's
	// `User-agent: *` group, false to disallow everything.
	Allow bool
}

// robotsAdditions derives the additions from the policy.
func (r *resolved) robotsAdditions() *RobotsAdditions {
	p := &r.s.Policy
	add := &RobotsAdditions{ContentSignal: r.contentSignal(), Agentmap: r.url(PathARD),
		OriginWins: r.s.Documents.Robots == ServeOrigin}
	switch {
	case len(r.sitemaps) > 0:
		add.OriginSitemaps = r.sitemaps
	case r.s.Documents.Sitemap.enabled() && r.sitemapURL != "":
		add.Sitemap = r.sitemapURL
	}
	kinds := []struct {
		kind  CrawlerKind
		perm  Permission
		extra []string
	}{{KindTraining, p.Training, p.ExtraAgents.Training}, {KindSearch, p.Search, p.ExtraAgents.Search}, {KindUser, p.User, p.ExtraAgents.User}}
	for _, k := range kinds {
		if k.perm == "" {
			continue
		}
		agents := append(append([]string(nil), KnownCrawlers[k.kind]...), k.extra...)
		add.Groups = append(add.Groups, RobotsGroup{Kind: k.kind, Agents: agents, Allow: k.perm == Allow})
	}
	return add
}

// contentSignal is the Content-Signal value: the override, or derived from
// the three kinds (search, ai-input for user-initiated, ai-train).
func (r *resolved) contentSignal() string {
	p := &r.s.Policy
	if p.ContentSignal != "" {
		return strings.Join(strings.Fields(p.ContentSignal), " ")
	}
	var parts []string
	if p.Search != "" {
		parts = append(parts, "search="+p.Search.signal())
	}
	if p.User != "" {
		parts = append(parts, "ai-input="+p.User.signal())
	}
	if p.Training != "" {
		parts = append(parts, "ai-train="+p.Training.signal())
	}
	return strings.Join(parts, ", ")
}

// MergeRobots merges the bundle's additions into the origin's robots.txt
// (nil when the origin has none). Without additions (documents.robots_txt
// off) the origin's file is returned as is.
func (b *Bundle) MergeRobots(origin []byte) ([]byte, []string, error) {
	if b.Robots == nil {
		return origin, nil, nil
	}
	return MergeRobots(origin, *b.Robots)
}

// originRobots is what MergeRobots learns from the origin's file.
type originRobots struct {
	agents        map[string]bool // lower-cased user-agent tokens with a group
	starRules     []string        // Allow/Disallow lines of the `*` group
	sitemaps      map[string]bool
	agentmap      string
	contentSignal string
}

// MergeRobots appends the additions to the origin's robots.txt (nil or
// empty when it has none). The origin's lines are kept byte for byte: an
// agent the origin already names keeps the origin's group, and each such
// conflict is returned as a warning. A file over MaxRobotsBytes, or one that
// is not a robots.txt (binary, HTML, mostly unparsable lines), is an error:
// the caller then serves the origin's file unmerged.
func MergeRobots(origin []byte, add RobotsAdditions) (merged []byte, warnings []string, err error) {
	if len(origin) > MaxRobotsBytes {
		return nil, nil, fmt.Errorf("merging robots.txt: origin file is %d bytes, over %d", len(origin), MaxRobotsBytes)
	}
	o, err := parseRobots(origin)
	if err != nil {
		return nil, nil, fmt.Errorf("merging robots.txt: %w", err)
	}
	var out bytes.Buffer
	out.Grow(len(origin) + 2048)
	if len(bytes.TrimSpace(origin)) > 0 {
		out.Write(origin)
		if origin[len(origin)-1] != '\n' {
			out.WriteByte('\n')
		}
		out.WriteByte('\n')
	}
	out.WriteString("# Added by agent_ready from the site configuration\n")
	for _, g := range add.Groups {
		warnings = append(warnings, writeGroup(&out, g, o)...)
	}
	if add.ContentSignal != "" {
		switch {
		case o.contentSignal == "":
			// Content-Signal sits in a `User-agent: *` group, as
			// contentsignals.org publishes it; robots parsers of
			// RFC 9309 §2.2.4 ignore the unknown record.
			fmt.Fprintf(&out, "User-agent: *\nContent-Signal: %s\n\n", add.ContentSignal)
		case o.contentSignal != add.ContentSignal:
			warnings = append(warnings, fmt.Sprintf("robots.txt: the origin states Content-Signal %q; it is kept instead of %q", o.contentSignal, add.ContentSignal))
		}
	}
	for _, sm := range add.OriginSitemaps {
		if !o.sitemaps[sm] {
			fmt.Fprintf(&out, "Sitemap: %s\n", sm)
		}
	}
	// The generated sitemap is named only when the origin's robots.txt
	// names none of its own: a second one would send crawlers to the same
	// pages twice, or to a redirect (WordPress redirects /sitemap.xml).
	if len(add.OriginSitemaps) == 0 && add.Sitemap != "" && len(o.sitemaps) == 0 {
		fmt.Fprintf(&out, "Sitemap: %s\n", add.Sitemap)
	}
	if add.Agentmap != "" {
		switch {
		case o.agentmap == "":
			fmt.Fprintf(&out, "Agentmap: %s\n", add.Agentmap)
		case o.agentmap != add.Agentmap:
			warnings = append(warnings, fmt.Sprintf("robots.txt: the origin's Agentmap %s is kept; agents will not find %s from robots.txt", o.agentmap, add.Agentmap))
		}
	}
	return append(bytes.TrimRight(out.Bytes(), "\n"), '\n'), warnings, nil
}

// writeGroup writes one crawler group without the agents the origin
// already governs, and returns a warning per such agent.
func writeGroup(out *bytes.Buffer, g RobotsGroup, o *originRobots) []string {
	var warnings, agents []string
	for _, a := range g.Agents {
		if o.agents[strings.ToLower(a)] {
			warnings = append(warnings, fmt.Sprintf("robots.txt: the origin has its own group for %s; its rules are kept and the %s policy is not applied to it", a, g.Kind))
			continue
		}
		agents = append(agents, a)
	}
	if len(agents) == 0 {
		return warnings
	}
	if g.Allow && slices.Contains(o.starRules, "Disallow: /") {
		warnings = append(warnings, fmt.Sprintf("robots.txt: the origin disallows everything for User-agent: *; the %s crawlers it allows by policy get the same rules", g.Kind))
	}
	label := map[CrawlerKind]string{KindTraining: "Model training crawlers", KindSearch: "AI search crawlers", KindUser: "Fetches a person asked for"}[g.Kind]
	if g.Allow {
		fmt.Fprintf(out, "# %s: allowed, with the same rules as User-agent: *\n", label)
	} else {
		fmt.Fprintf(out, "# %s: not allowed\n", label)
	}
	for _, a := range agents {
		fmt.Fprintf(out, "User-agent: %s\n", a)
	}
	switch {
	case !g.Allow:
		out.WriteString("Disallow: /\n")
	case len(o.starRules) == 0:
		out.WriteString("Allow: /\n")
	default:
		// RFC 9309 §2.2.1: a crawler obeys only its most specific group, so
		// an allowed kind repeats the `*` rules to stay as restricted as
		// every other visitor.
		for _, rule := range o.starRules {
			out.WriteString(rule + "\n")
		}
	}
	out.WriteString("\n")
	return warnings
}

// parseRobots reads the origin's groups and records after RFC 9309 §2.
func parseRobots(data []byte) (*originRobots, error) {
	o := &originRobots{agents: map[string]bool{}, sitemaps: map[string]bool{}}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if !utf8.Valid(data) || bytes.IndexByte(data, 0) >= 0 {
		return nil, errors.New("origin file is not UTF-8 text")
	}
	if t := bytes.TrimSpace(data); len(t) > 0 && t[0] == '<' {
		return nil, errors.New("origin file looks like HTML, not robots.txt")
	}
	var groupAgents []string
	inRules := false
	records, bad := 0, 0
	for line := range strings.Lines(string(data)) {
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		records++
		key, value, ok := strings.Cut(line, ":")
		key = strings.ToLower(strings.TrimSpace(key))
		value = strings.TrimSpace(value)
		if !ok || key == "" || strings.ContainsAny(key, " \t") {
			bad++
			continue
		}
		switch key {
		case "user-agent":
			if inRules {
				groupAgents, inRules = nil, false
			}
			groupAgents = append(groupAgents, value)
			o.agents[strings.ToLower(value)] = true
		case "allow", "disallow":
			inRules = true
			if slices.Contains(groupAgents, "*") {
				o.starRules = append(o.starRules, strings.ToUpper(key[:1])+key[1:]+": "+value)
			}
		case "sitemap":
			o.sitemaps[value] = true
		case "agentmap":
			o.agentmap = value
		case "content-signal":
			o.contentSignal = value
		default:
			inRules = true
		}
	}
	if bad > 0 && bad*2 >= records {
		return nil, fmt.Errorf("origin file is malformed: %d of %d lines are not \"field: value\" records", bad, records)
	}
	return o, nil
}
