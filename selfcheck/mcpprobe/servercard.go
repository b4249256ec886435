package mcpprobe

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// serverCardSchema is the MCP Server Card JSON Schema (v1); see
// schema/README.md for its source and licence.
//
//go:embed schema/server-card.schema.json
var serverCardSchema []byte

// serverCardValidator compiles the schema's ServerCard definition once.
var serverCardValidator = sync.OnceValues(func() (*jsonschema.Schema, error) {
	var doc any
	if err := json.Unmarshal(serverCardSchema, &doc); err != nil {
		return nil, fmt.Errorf("parsing server card schema: %v", err)
	}
	c := jsonschema.NewCompiler()
	const id = "urn:agentready:server-card.schema.json"
	if err := c.AddResource(id, doc); err != nil {
		return nil, fmt.Errorf("adding server card schema: %v", err)
	}
	return c.Compile(id + "#/$defs/ServerCard")
})

// ValidateServerCard checks a server card, as decoded by encoding/json,
// against the v1 ServerCard definition. problem is "" for a valid card, else
// the validation error on one line; err is non-nil only when the schema
// itself could not be compiled.
func ValidateServerCard(card map[string]any) (problem string, err error) {
	sch, err := serverCardValidator()
	if err != nil {
		return "", err
	}
	if err := sch.Validate(any(card)); err != nil {
		return strings.Join(strings.Fields(err.Error()), " "), nil
	}
	return "", nil
}
