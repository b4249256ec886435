package mcpprobe

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestDeclaredURL(t *testing.T) {
	tests := []struct {
		name, card, want string
	}{
		{"interfaces type", `{"interfaces":[{"type":"openapi","url":"/openapi.json"},{"type":"mcp","url":"/mcp"}]}`, "/mcp"},
		{"agents protocol, any case", `{"agents":[{"name":"a","protocol":"MCP","url":"https://x.test/mcp"}]}`, "https://x.test/mcp"},
		{"first with a url wins", `{"interfaces":[{"type":"mcp"},{"type":"mcp","url":"/second"}]}`, "/second"},
		{"no mcp", `{"interfaces":[{"type":"graphql","url":"/graphql"}]}`, ""},
		{"url not a string", `{"interfaces":[{"type":"mcp","url":7}]}`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var card map[string]any
			if err := json.Unmarshal([]byte(tt.card), &card); err != nil {
				t.Fatal(err)
			}
			var entries []map[string]any
			for _, key := range []string{"interfaces", "agents"} {
				arr, _ := card[key].([]any)
				for _, e := range arr {
					entries = append(entries, e.(map[string]any))
				}
			}
			if got := DeclaredURL(entries); got != tt.want {
				t.Errorf("DeclaredURL = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestRemoteURL(t *testing.T) {
	tests := []struct {
		name, card, want string
	}{
		{"first remote", `{"remotes":[{"type":"streamable-http","url":"https://x.test/mcp"},{"url":"https://y.test/mcp"}]}`, "https://x.test/mcp"},
		{"templates skipped", `{"remotes":[{"url":"https://{tenant}.x.test/mcp"},{"url":"/mcp"}]}`, "/mcp"},
		{"no remotes", `{"name":"a/b"}`, ""},
		{"remotes not an array", `{"remotes":{"url":"/mcp"}}`, ""},
		{"no card", `null`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var card map[string]any
			if err := json.Unmarshal([]byte(tt.card), &card); err != nil {
				t.Fatal(err)
			}
			if got := RemoteURL(card); got != tt.want {
				t.Errorf("RemoteURL = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestValidateServerCard(t *testing.T) {
	tests := []struct {
		name, card, problemHas string
	}{
		{"valid", `{"$schema":"https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json","name":"test.acme/widgets","version":"1.0.0","description":"Widget catalogue tools."}`, ""},
		{"name without a namespace", `{"$schema":"https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json","name":"no-slash","version":"1","description":"d"}`, "name"},
		{"empty", `{}`, "missing"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var card map[string]any
			if err := json.Unmarshal([]byte(tt.card), &card); err != nil {
				t.Fatal(err)
			}
			problem, err := ValidateServerCard(card)
			if err != nil {
				t.Fatalf("schema: %v", err)
			}
			if (problem == "") != (tt.problemHas == "") || !strings.Contains(problem, tt.problemHas) {
				t.Errorf("problem = %q, want one containing %q", problem, tt.problemHas)
			}
			if strings.Contains(problem, "\n") {
				t.Errorf("problem spans lines: %q", problem)
			}
		})
	}
}
