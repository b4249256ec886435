package connect

import (
	"slices"
	"strings"
)

// ToolInfo describes one MCP tool for documents that declare the endpoint
// (capability manifest, MCP server card): STANDARD.md's access_documented
// check wants each capability's token requirement stated.
type ToolInfo struct {
	// Name is the tool name.
	Name string `json:"name"`
	// Description is the tool description sent in tools/list.
	Description string `json:"description"`
	// ReadOnly is always true: no tool changes anything.
	ReadOnly bool `json:"readOnly"`
	// Scopes are the OAuth scopes a call needs; empty when public.
	Scopes []string `json:"scopes,omitempty"`
	// RequiresToken is true when Options.Auth is set.
	RequiresToken bool `json:"requiresToken"`
}

// Tools lists the tools the MCP endpoint offers, in name order, with the
// access each needs.
func (s *Server) Tools() []ToolInfo {
	var out []ToolInfo
	for _, t := range s.tools {
		out = append(out, ToolInfo{
			Name: t.Name, Description: t.Description, ReadOnly: t.Annotations != nil && t.Annotations.ReadOnlyHint,
			Scopes: s.requiredScopes(t.Name), RequiresToken: s.tokens != nil,
		})
	}
	slices.SortFunc(out, func(a, b ToolInfo) int { return strings.Compare(a.Name, b.Name) })
	return out
}
