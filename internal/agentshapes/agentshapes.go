// Package agentshapes holds the request shapes of the agents in use (their
// Accept and User-Agent, and whether they follow the HTML head's Markdown
// alternate) with what each must end up reading, as one data file,
// agent-requests.yaml, where each row says where it came from. The
// negotiation tests play every row; the next agent's shape is one row to
// add.
package agentshapes

import (
	_ "embed"
	"fmt"

	"gopkg.in/yaml.v3"
)

//go:embed agent-requests.yaml
var data []byte

// Shape is one agent's request, and what it must read.
type Shape struct {
	// Name is the agent's.
	Name string `yaml:"name"`
	// UserAgent is the User-Agent it sends.
	UserAgent string `yaml:"user_agent"`
	// Accept is the Accept it sends; empty: none.
	Accept string `yaml:"accept"`
	// FollowsAlternate: it reads the HTML head's
	// <link rel="alternate" type="text/markdown" href> and fetches it.
	FollowsAlternate bool `yaml:"follows_alternate"`
	// Reads is what it must end up reading: "markdown" or "html".
	Reads string `yaml:"reads"`
	// Source says where the shape comes from.
	Source string `yaml:"source"`
}

// WantsMarkdown reports whether the agent must end up reading Markdown.
func (s Shape) WantsMarkdown() bool { return s.Reads == "markdown" }

// All returns the rows of agent-requests.yaml, checked: every row names
// its agent, its source, and reads markdown or html.
func All() ([]Shape, error) {
	var doc struct {
		Agents []Shape `yaml:"agents"`
	}
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("agent-requests.yaml: %w", err)
	}
	for i, s := range doc.Agents {
		if s.Name == "" || s.Source == "" || (s.Reads != "markdown" && s.Reads != "html") {
			return nil, fmt.Errorf("agent-requests.yaml: row %d (%q): name, source and reads (markdown or html) are required", i+1, s.Name)
		}
	}
	if len(doc.Agents) == 0 {
		return nil, fmt.Errorf("agent-requests.yaml: no agents")
	}
	return doc.Agents, nil
}
