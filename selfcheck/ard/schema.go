package ard

import (
	"bytes"
	_ "embed"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
)

//go:embed schema/ard-entry.schema.v0.91.json
var ardSchemaJSON []byte

// ardSchemaURL is the schema's own $id; the embedded copy is registered
// under it so no network access is ever attempted.
const ardSchemaURL = "https://raw.githubusercontent.com/ards-project/ard-spec/main/spec/schemas/ard-entry.schema.json"

// schemas holds the two compiled definitions the audit validates against.
type schemas struct {
	manifest, entry *jsonschema.Schema
}

// compiledSchemas compiles the embedded schema once. Formats are asserted
// (`uri`, `date-time`), as Lighthouse's Ajv build does with ajv-formats.
var compiledSchemas = sync.OnceValues(func() (schemas, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(ardSchemaJSON))
	if err != nil {
		return schemas{}, fmt.Errorf("decoding embedded ard schema: %w", err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource(ardSchemaURL, doc); err != nil {
		return schemas{}, fmt.Errorf("adding embedded ard schema: %w", err)
	}
	var s schemas
	if s.manifest, err = c.Compile(ardSchemaURL + "#/$defs/ardManifest"); err != nil {
		return schemas{}, fmt.Errorf("compiling ardManifest: %w", err)
	}
	if s.entry, err = c.Compile(ardSchemaURL + "#/$defs/ardEntry"); err != nil {
		return schemas{}, fmt.Errorf("compiling ardEntry: %w", err)
	}
	return s, nil
})

// schemaError validates v against s and returns the first relevant error
// formatted as "<message> at path '<path>'", or "" when v is valid.
func schemaError(s *jsonschema.Schema, v any) string {
	err := s.Validate(v)
	if err == nil {
		return ""
	}
	ve, ok := err.(*jsonschema.ValidationError)
	if !ok {
		return err.Error() + " at path 'root'"
	}
	leaf := firstLeaf(ve)
	path := "root"
	if len(leaf.InstanceLocation) > 0 {
		parts := make([]string, len(leaf.InstanceLocation))
		for i, p := range leaf.InstanceLocation {
			// JSON Pointer escaping (RFC 6901 §3), as Ajv's instancePath.
			parts[i] = strings.NewReplacer("~", "~0", "/", "~1").Replace(p)
		}
		path = strings.Join(parts, ".")
	}
	return ajvMessage(leaf.ErrorKind) + " at path '" + path + "'"
}

// firstLeaf picks the error Lighthouse reports: the first one that is not
// restated by a oneOf/anyOf/not combinator. Combinators are therefore leaves
// here; every other error with causes is descended into.
func firstLeaf(ve *jsonschema.ValidationError) *jsonschema.ValidationError {
	for len(ve.Causes) > 0 {
		switch ve.ErrorKind.(type) {
		case *kind.OneOf, *kind.AnyOf, *kind.Not:
			return ve
		}
		ve = ve.Causes[0]
	}
	return ve
}

// ajvMessage words a schema error as Ajv does, so messages match a
// Lighthouse run.
func ajvMessage(k jsonschema.ErrorKind) string {
	switch k := k.(type) {
	case *kind.Required:
		if len(k.Missing) > 0 {
			return "'" + k.Missing[0] + "' is a required property"
		}
	case *kind.Type:
		return "must be " + strings.Join(k.Want, ",")
	case *kind.Pattern:
		return `must match pattern "` + k.Want + `"`
	case *kind.Format:
		return `must match format "` + k.Want + `"`
	case *kind.OneOf:
		return "must match exactly one schema in oneOf"
	case *kind.AnyOf:
		return "must match a schema in anyOf"
	case *kind.Not:
		return "must NOT be valid"
	case *kind.AdditionalProperties:
		return "must NOT have additional properties"
	case *kind.MinItems:
		return "must NOT have fewer than " + strconv.Itoa(k.Want) + " items"
	case *kind.MaxItems:
		return "must NOT have more than " + strconv.Itoa(k.Want) + " items"
	case *kind.MinLength:
		return "must NOT have fewer than " + strconv.Itoa(k.Want) + " characters"
	case *kind.MaxLength:
		return "must NOT have more than " + strconv.Itoa(k.Want) + " characters"
	case *kind.Enum:
		return "must be equal to one of the allowed values"
	case *kind.Const:
		return "must be equal to constant"
	case *kind.FalseSchema:
		return "boolean schema is false"
	}
	return "must satisfy '" + strings.Join(k.KeywordPath(), "/") + "'"
}
