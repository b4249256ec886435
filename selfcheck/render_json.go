package selfcheck

import (
	"bytes"
	"encoding/json"
)

// JSON renders the report in the schema of docs/report-schema.md, indented,
// with a trailing newline.
func (r *Report) JSON() ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(r); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
