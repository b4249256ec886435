package selfcheck

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// compileServerCardSchema compiles the embedded server card schema and
// returns its ServerCard definition.
func compileServerCardSchema() (*jsonschema.Schema, error) {
	var doc any
	if err := json.Unmarshal([]byte(serverCardSchema), &doc); err != nil {
		return nil, fmt.Errorf("parsing server card schema: %v", err)
	}
	c := jsonschema.NewCompiler()
	const id = "urn:agentready:server-card.schema.json"
	if err := c.AddResource(id, doc); err != nil {
		return nil, fmt.Errorf("adding server card schema: %v", err)
	}
	return c.Compile(id + "#/$defs/ServerCard")
}

// serverCardErr shortens a validation error to one line.
func serverCardErr(err error) string {
	return strings.Join(strings.Fields(err.Error()), " ")
}
