package ard

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"regexp"
	"strconv"
)

// Finding is one validation message and the element it is about: "Root" for
// the manifest, else the entry's label (displayName, identifier or "Entry #n").
type Finding struct {
	Element string `json:"element"`
	Message string `json:"message"`
}

// Result is the outcome of validating a manifest. Errors fail the audit,
// warnings cost it 0.1, infos are informational only.
type Result struct {
	// Errors are conformance failures (schema, required terms, URN form,
	// url/data, malformed JSON).
	Errors []Finding `json:"errors"`
	// Warnings are best-practice findings (representativeQueries, media
	// types, collections).
	Warnings []Finding `json:"warnings"`
	// Infos are notes that never cost points (extension media types).
	Infos []Finding `json:"infos"`
}

// Passed reports whether the manifest has no errors.
func (r Result) Passed() bool { return len(r.Errors) == 0 }

func (r *Result) addError(element, msg string) { r.Errors = append(r.Errors, Finding{element, msg}) }
func (r *Result) addWarning(element, msg string) {
	r.Warnings = append(r.Warnings, Finding{element, msg})
}
func (r *Result) addInfo(element, msg string) { r.Infos = append(r.Infos, Finding{element, msg}) }

// root is the element name of manifest-level findings.
const root = "Root"

// urnRE is the conformance test's strict URN form
// urn:air:<publisher>:<namespace>:<agent-name>.
var urnRE = regexp.MustCompile(`^urn:air:([a-zA-Z0-9.-]+)(?::([a-zA-Z0-9._:-]+))?:([a-zA-Z0-9._-]+)$`)

// Validate checks a raw manifest as the ARD v0.91 conformance test ported by
// Lighthouse does: JSON parsing, JSON Schema (the manifest against
// ardManifest, each entry against ardEntry), then the hand rules. Findings
// come in upstream order; one schema problem may appear twice, under Root and
// under the entry, as the official conformance output does.
func Validate(raw []byte) Result {
	var r Result
	data, err := decodeJSON(raw)
	if err != nil {
		r.addError(root, "Malformed JSON in manifest: "+err.Error())
		return r
	}
	validateSchema(&r, data)
	validateRules(&r, data)
	return r
}

// decodeJSON parses exactly one JSON value, keeping numbers exact.
func decodeJSON(raw []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, errors.New("unexpected end of JSON input")
		}
		return nil, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("unexpected non-whitespace character after JSON data")
	}
	return v, nil
}

// validateSchema runs the JSON Schema step. If the embedded schema cannot be
// compiled the step is skipped with a warning, as upstream does when its
// validator throws.
func validateSchema(r *Result, data any) {
	s, err := compiledSchemas()
	if err != nil {
		r.addWarning(root, "Failed to run JSON Schema validator: "+err.Error())
		return
	}
	if msg := schemaError(s.manifest, data); msg != "" {
		r.addError(root, "ArdManifest validation failed: "+msg)
	}
	entries, ok := asObject(data)["entries"].([]any)
	if !ok {
		return
	}
	for i, e := range entries {
		label := "Entry #" + strconv.Itoa(i)
		if obj := asObject(e); obj != nil {
			label = entryLabel(obj, i)
		}
		if msg := schemaError(s.entry, e); msg != "" {
			r.addError(label, "ArdEntry validation failed: "+msg)
		}
	}
}

// validateRules runs the conformance test's semantic checks. A root or entry
// that is not an object is treated as empty, as Lighthouse's port does.
func validateRules(r *Result, data any) {
	rootObj := asObject(data)
	entriesVal, present := rootObj["entries"]
	if !present || entriesVal == nil {
		r.addError(root, "Missing required 'entries' array.")
		return
	}
	entries, ok := entriesVal.([]any)
	if !ok {
		r.addError(root, "'entries' must be a JSON array.")
		return
	}
	for i, raw := range entries {
		entry := asObject(raw)
		if entry == nil {
			entry = map[string]any{}
		}
		validateEntry(r, entry, entryLabel(entry, i))
	}
	if _, ok := rootObj["collections"]; ok {
		r.addWarning(root, "Found 'collections' at root. Top-level collections were removed in ADR-0003; "+
			"ARD ignores unrecognized top-level members, so this does not invalidate the manifest, "+
			"but hierarchies should be modeled inside 'entries'.")
	}
}

// validateEntry applies the per-entry hand rules in upstream order.
func validateEntry(r *Result, entry map[string]any, label string) {
	if ident := entry["identifier"]; !truthy(ident) {
		r.addError(label, "Missing required 'identifier'.")
	} else if s := jsString(ident); !urnRE.MatchString(s) {
		r.addError(label, "Identifier '"+s+"' does not match RFC 8141 URN pattern "+
			"'urn:air:<publisher>:<namespace>:<agent-name>'.")
	}
	if !truthy(entry["displayName"]) {
		r.addError(label, "Missing required 'displayName'.")
	}
	if mt := entry["type"]; !truthy(mt) {
		r.addError(label, "Missing required 'type' (mediaType).")
	} else {
		switch sev, msg := classifyMediaType(mt); sev {
		case sevInfo:
			r.addInfo(label, msg)
		case sevWarning:
			r.addWarning(label, msg)
		}
	}
	// Value-or-reference: exactly one of url and data, by key presence.
	_, hasURL := entry["url"]
	_, hasData := entry["data"]
	switch {
	case hasURL && hasData:
		r.addError(label, "Constraint violation: both 'url' and 'data' are provided. MUST provide exactly one.")
	case !hasURL && !hasData:
		r.addError(label, "Constraint violation: neither 'url' nor 'data' is provided. MUST provide exactly one.")
	}
	validateQueries(r, entry["representativeQueries"], label)
	if trust := entry["trustManifest"]; trust != nil {
		if obj := asObject(trust); obj == nil {
			r.addError(label, "'trustManifest' must be a JSON object.")
		} else if !truthy(obj["identity"]) {
			r.addError(label, "'trustManifest' is missing required 'identity' field.")
		}
	}
}

// validateQueries checks representativeQueries (ARD §4.2, §D.2).
func validateQueries(r *Result, v any, label string) {
	if v == nil {
		r.addWarning(label, "No 'representativeQueries'. The semantic index is built from this term, "+
			"so the entry will not be found by search — it is a valid catalog entry but not a discoverable ARD entry.")
		return
	}
	queries, ok := v.([]any)
	if !ok {
		r.addError(label, "'representativeQueries' must be an array of strings.")
		return
	}
	if n := len(queries); n < 2 || n > 5 {
		r.addWarning(label, "'representativeQueries' array has size "+strconv.Itoa(n)+
			". 2 to 5 queries are recommended for vector index embedding.")
	}
	for _, q := range queries {
		if _, ok := q.(string); !ok {
			r.addError(label, "Query '"+jsString(q)+"' is not a string.")
		}
	}
}
