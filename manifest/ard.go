package manifest

import (
	"fmt"
	"strings"
)

// ARD media types (ARD v0.91; the validator's standard discovery types).
const (
	mediaMCPCard     = "application/mcp-server-card+json"
	mediaA2ACard     = "application/a2a-agent-card+json"
	mediaSkillMD     = `text/markdown; profile="urn:air:agent-skills"`
	mediaSkillZip    = "application/agent-skills+zip"
	mediaSkillGzip   = "application/agent-skills+gzip"
	mediaOpenAPIJSON = "application/vnd.oai.openapi+json"
	mediaOpenAPIYAML = "application/vnd.oai.openapi"
	mediaGraphQL     = "application/graphql-response+json"
)

// ardEntry is one entry of the ARD manifest: exactly one of URL and Data.
type ardEntry struct {
	Identifier            string         `json:"identifier"`
	DisplayName           string         `json:"displayName"`
	Type                  string         `json:"type"`
	URL                   string         `json:"url,omitempty"`
	Data                  map[string]any `json:"data,omitempty"`
	Description           string         `json:"description,omitempty"`
	RepresentativeQueries []string       `json:"representativeQueries"`
	Capabilities          []string       `json:"capabilities,omitempty"`
	Tags                  []string       `json:"tags,omitempty"`
	Version               string         `json:"version,omitempty"`
}

// ardJSON renders /.well-known/ard.json.
func (r *resolved) ardJSON() ([]byte, error) {
	entries := r.ardEntries()
	seen := map[string]bool{}
	for _, e := range entries {
		if seen[e.Identifier] {
			return nil, fmt.Errorf("generating ard.json: identifier %s is used twice; set interfaces[].identifier", e.Identifier)
		}
		seen[e.Identifier] = true
	}
	doc := map[string]any{
		"host":    map[string]string{"displayName": r.name, "identifier": r.origin},
		"entries": entries,
	}
	return marshal(doc)
}

// ardEntries lists the entries: generated from connect, interfaces and
// skills unless ard.generate is false, then the hand-written ones.
func (r *resolved) ardEntries() []ardEntry {
	s := r.s
	var out []ardEntry
	if on(s.ARD.Generate) {
		if s.Connect.Enabled && r.serve[PathMCPServerCard] {
			out = append(out, ardEntry{
				Identifier:            r.urn("mcp", "connect"),
				DisplayName:           r.name + " content (MCP)",
				Type:                  mediaMCPCard,
				URL:                   r.url(PathMCPServerCard),
				Description:           "Read-only MCP server to search and read the pages of " + r.name + ".",
				RepresentativeQueries: orSlice(s.Connect.Queries, []string{"search the " + r.name + " website", "read a page of " + r.name + " as Markdown"}),
				Capabilities:          ConnectTools,
			})
		}
		for i := range s.Interfaces {
			if e, ok := r.ifaceEntry(&s.Interfaces[i]); ok {
				out = append(out, e)
			}
		}
		if r.serve[PathSkillsIndex] {
			for _, sk := range s.Skills {
				out = append(out, r.skillEntry(sk))
			}
		}
	}
	for _, e := range s.ARD.Entries {
		out = append(out, ardEntry{Identifier: e.Identifier, DisplayName: e.DisplayName, Type: e.Type,
			URL: r.abs(e.URL), Description: e.Description, RepresentativeQueries: e.Queries,
			Capabilities: e.Capabilities, Tags: e.Tags})
	}
	return out
}

// ifaceEntry derives the entry of an interface; CLIs and SDKs have none.
func (r *resolved) ifaceEntry(it *Interface) (ardEntry, bool) {
	e := ardEntry{
		Identifier:   orDefault(it.Identifier, r.urn(string(it.Type), it.ID)),
		DisplayName:  r.ifaceName(it),
		Description:  r.ifaceDescription(it),
		Capabilities: it.Capabilities,
		Version:      it.Version,
	}
	switch it.Type {
	case TypeMCP:
		e.Type = mediaMCPCard
		if e.URL = r.serverCardURL(it); e.URL == "" {
			e.Data = r.mcpCard(it)
		}
	case TypeA2A:
		e.Type = mediaA2ACard
		if e.URL = r.agentCardURL(it); e.URL == "" {
			e.Data = r.a2aCard(it)
		}
	case TypeOpenAPI:
		e.Type = mediaOpenAPIJSON
		if u := strings.ToLower(it.URL); strings.HasSuffix(u, ".yaml") || strings.HasSuffix(u, ".yml") {
			e.Type = mediaOpenAPIYAML
		}
		e.URL = r.abs(it.URL)
	case TypeGraphQL:
		e.Type = mediaGraphQL
		e.URL = r.abs(it.URL)
	default:
		return e, false
	}
	e.RepresentativeQueries = orSlice(it.Queries, defaultQueries(e.DisplayName, e.Description))
	return e, true
}

// skillEntry is the entry of an agent skill.
func (r *resolved) skillEntry(sk Skill) ardEntry {
	typ := mediaSkillMD
	if sk.Type == "archive" {
		typ = mediaSkillZip
		if !strings.HasSuffix(strings.ToLower(sk.File), ".zip") {
			typ = mediaSkillGzip
		}
	}
	name := strings.ReplaceAll(sk.Name, "-", " ")
	return ardEntry{
		Identifier:            r.urn("skill", sk.Name),
		DisplayName:           name,
		Type:                  typ,
		URL:                   r.origin + skillPath(sk),
		Description:           sk.Description,
		RepresentativeQueries: []string{"how to " + name + " with " + r.name, firstSentence(sk.Description)},
	}
}

// urn builds urn:air:<host>:<namespace>:<name>.
func (r *resolved) urn(namespace, name string) string {
	host := dnsLabelBad.ReplaceAllString(strings.Trim(r.host, "[]"), "-")
	if strings.Contains(r.host, ".") {
		host = strings.Trim(r.host, "[]")
	}
	return "urn:air:" + host + ":" + namespace + ":" + name
}

// firstSentence is the first sentence of s, lower-cased, without its
// full stop, at most 120 bytes: a query-like phrase.
func firstSentence(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexAny(s, ".!?\n"); i > 0 {
		s = s[:i]
	}
	return strings.ToLower(trimTo(s, 120))
}

// defaultQueries derives two representative queries from a name and a
// description; configured queries say more and are preferred.
func defaultQueries(name, description string) []string {
	q := []string{"what can " + name + " do"}
	if first := firstSentence(description); first != "" && first != q[0] {
		q = append(q, first)
	} else {
		q = append(q, "use "+name)
	}
	return q
}
