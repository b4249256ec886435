package ard

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
)

// The conformance test is written in JavaScript (ported from Python) and leans
// on the language's coercions: truthiness, String(value) in messages and
// Python type names. These helpers reproduce them over values decoded by
// encoding/json with UseNumber.

// truthy reports whether v is truthy in JavaScript.
func truthy(v any) bool {
	switch x := v.(type) {
	case nil:
		return false
	case bool:
		return x
	case string:
		return x != ""
	case json.Number:
		f, err := x.Float64()
		return err != nil || (f != 0 && !math.IsNaN(f))
	default:
		return true
	}
}

// jsString renders v as JavaScript's String(v) would.
func jsString(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return strconv.FormatBool(x)
	case string:
		return x
	case json.Number:
		return jsNumber(x)
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			if e != nil {
				parts[i] = jsString(e)
			}
		}
		return strings.Join(parts, ",")
	default:
		return "[object Object]"
	}
}

// jsNumber formats a JSON number the way JavaScript prints a double.
func jsNumber(n json.Number) string {
	f, err := n.Float64()
	if err != nil {
		if math.IsInf(f, 0) {
			if f > 0 {
				return "Infinity"
			}
			return "-Infinity"
		}
		return n.String()
	}
	if f == 0 {
		return "0"
	}
	if a := math.Abs(f); a >= 1e-6 && a < 1e21 {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	s := strconv.FormatFloat(f, 'e', -1, 64)
	// Go writes 1e+21 and 1e-07; JavaScript writes 1e+21 and 1e-7.
	mant, exp, _ := strings.Cut(s, "e")
	sign := exp[:1]
	exp = strings.TrimLeft(exp[1:], "0")
	return mant + "e" + sign + exp
}

// pythonTypeName names the Python type a JSON value parses to, as the
// upstream messages do.
func pythonTypeName(v any) string {
	switch x := v.(type) {
	case nil:
		return "NoneType"
	case bool:
		return "bool"
	case string:
		return "str"
	case json.Number:
		if f, err := x.Float64(); err == nil && f == math.Trunc(f) {
			return "int"
		}
		return "float"
	case []any:
		return "list"
	default:
		return "dict"
	}
}

// asObject returns v as a JSON object, or nil when it is not one.
func asObject(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}

// entryLabel is the element an entry's findings are reported under: its
// displayName, else its identifier, else "Entry #n" (JavaScript `||` chain).
func entryLabel(entry map[string]any, idx int) string {
	if v := entry["displayName"]; truthy(v) {
		return jsString(v)
	}
	if v := entry["identifier"]; truthy(v) {
		return jsString(v)
	}
	return "Entry #" + strconv.Itoa(idx)
}
