package mcpprobe

import "strings"

// NamesMCP reports whether an interface entry of a capability card
// (agents.json "interfaces" or "agents") names the MCP protocol in its
// "type" or "protocol" member.
func NamesMCP(entry map[string]any) bool {
	for _, k := range []string{"type", "protocol"} {
		if strings.EqualFold(str(entry, k), "mcp") {
			return true
		}
	}
	return false
}

// DeclaredURL returns the url of the first interface entry that names MCP
// and has one, as written (unresolved), or "".
func DeclaredURL(interfaces []map[string]any) string {
	for _, it := range interfaces {
		if NamesMCP(it) && str(it, "url") != "" {
			return str(it, "url")
		}
	}
	return ""
}

// RemoteURL returns the url of the first remote of an MCP server card that
// is not a URL template (no "{"), as written, or "".
func RemoteURL(card map[string]any) string {
	remotes, _ := card["remotes"].([]any)
	for _, r := range remotes {
		if o, ok := r.(map[string]any); ok && str(o, "url") != "" && !strings.Contains(str(o, "url"), "{") {
			return str(o, "url")
		}
	}
	return ""
}

// str reads a string member of a JSON object.
func str(o map[string]any, key string) string {
	s, _ := o[key].(string)
	return s
}
