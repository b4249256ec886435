package manifest

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"
)

// maxNodes bounds how many YAML nodes one configuration may expand to, so an
// alias bomb ("billion laughs") fails fast instead of exhausting memory;
// maxDepth bounds nesting, which no configuration needs beyond a handful.
const (
	maxNodes = 200_000
	maxDepth = 32
)

// scalarSetter is implemented by configuration types that parse themselves
// from a YAML scalar (enumerations, durations).
type scalarSetter interface {
	setScalar(value string) error
}

// decoder walks a yaml.Node tree into the configuration structs with
// KnownFields-style strictness: unknown keys, duplicate keys and wrong kinds
// are all reported, with the line they sit on, and decoding carries on so
// that one load reports every problem.
type decoder struct {
	file      string
	errs      Errors
	lines     map[string]int  // field path -> line of its value
	failed    map[string]bool // field paths already reported
	nodes     int
	depth     int
	expanding map[*yaml.Node]bool // aliases being expanded, to catch cycles
}

func (d *decoder) errorf(line int, field, format string, args ...any) {
	d.errs = append(d.errs, &FieldError{File: d.file, Line: line, Field: field, Msg: fmt.Sprintf(format, args...)})
	d.failed[field] = true
}

var durationType = reflect.TypeFor[time.Duration]()

// decode fills v from n; path is the dotted field path used in messages.
func (d *decoder) decode(n *yaml.Node, v reflect.Value, path string) {
	d.nodes++
	if d.nodes > maxNodes {
		if d.nodes == maxNodes+1 {
			d.errorf(n.Line, path, "document expands to more than %d nodes (alias loop or bomb?)", maxNodes)
		}
		return
	}
	if d.depth >= maxDepth {
		d.errorf(n.Line, path, "nested more than %d levels deep", maxDepth)
		return
	}
	d.depth++
	defer func() { d.depth-- }()
	if n.Kind == yaml.AliasNode {
		if n.Alias == nil {
			return
		}
		if d.expanding[n.Alias] {
			d.errorf(n.Line, path, "alias *%s refers to itself", n.Value)
			return
		}
		if d.expanding == nil {
			d.expanding = map[*yaml.Node]bool{}
		}
		d.expanding[n.Alias] = true
		defer delete(d.expanding, n.Alias)
		n = n.Alias
	}
	if path != "" {
		d.lines[path] = n.Line
	}
	if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
		return // an empty value keeps the default
	}
	if setter, ok := v.Addr().Interface().(scalarSetter); ok {
		if s, ok := d.scalar(n, path); ok {
			if err := setter.setScalar(s); err != nil {
				d.errorf(n.Line, path, "%v", err)
			}
		}
		return
	}
	switch v.Kind() {
	case reflect.Pointer:
		elem := reflect.New(v.Type().Elem())
		d.decode(n, elem.Elem(), path)
		v.Set(elem)
	case reflect.Struct:
		d.decodeStruct(n, v, path)
	case reflect.Slice:
		d.decodeSlice(n, v, path)
	case reflect.Map:
		d.decodeMap(n, v, path)
	case reflect.String:
		if s, ok := d.scalar(n, path); ok {
			v.SetString(s)
		}
	case reflect.Bool:
		d.decodeBool(n, v, path)
	case reflect.Int, reflect.Int64:
		if v.Type() == durationType {
			d.decodeDuration(n, v, path)
			return
		}
		d.decodeInt(n, v, path)
	default:
		d.errorf(n.Line, path, "unsupported configuration type %s", v.Type())
	}
}

// decodeBool sets the boolean v from the scalar n.
func (d *decoder) decodeBool(n *yaml.Node, v reflect.Value, path string) {
	s, ok := d.scalar(n, path)
	if !ok {
		return
	}
	b, err := parseBool(s)
	if err != nil {
		d.errorf(n.Line, path, "%v", err)
		return
	}
	v.SetBool(b)
}

// decodeInt sets the integer v from the scalar n; underscores between
// digits are allowed.
func (d *decoder) decodeInt(n *yaml.Node, v reflect.Value, path string) {
	s, ok := d.scalar(n, path)
	if !ok {
		return
	}
	i, err := strconv.ParseInt(strings.ReplaceAll(s, "_", ""), 10, 64)
	if err != nil {
		d.errorf(n.Line, path, "want an integer, got %q", s)
		return
	}
	v.SetInt(i)
}

func (d *decoder) decodeDuration(n *yaml.Node, v reflect.Value, path string) {
	s, ok := d.scalar(n, path)
	if !ok {
		return
	}
	dur, err := time.ParseDuration(s)
	if err != nil {
		d.errorf(n.Line, path, "want a duration such as 30m or 1h, got %q", s)
		return
	}
	v.SetInt(int64(dur))
}

// scalar returns the text of a scalar node, reporting any other kind.
func (d *decoder) scalar(n *yaml.Node, path string) (string, bool) {
	if n.Kind != yaml.ScalarNode {
		d.errorf(n.Line, path, "want a single value, got %s", kindName(n))
		return "", false
	}
	return n.Value, true
}

func (d *decoder) decodeStruct(n *yaml.Node, v reflect.Value, path string) {
	if n.Kind != yaml.MappingNode {
		d.errorf(n.Line, path, "want a mapping of keys, got %s", kindName(n))
		return
	}
	fields := yamlFields(v.Type())
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, val := n.Content[i], n.Content[i+1]
		key := k.Value
		child := joinPath(path, key)
		if k.Kind != yaml.ScalarNode {
			d.errorf(k.Line, path, "keys must be plain names, got %s", kindName(k))
			continue
		}
		if key == "<<" {
			d.errorf(k.Line, path, "merge keys (<<) are not supported")
			continue
		}
		if seen[key] {
			d.errorf(k.Line, child, "duplicate key")
			continue
		}
		seen[key] = true
		idx, ok := fields[key]
		if !ok {
			d.unknownKey(k, path, key, fields)
			continue
		}
		d.decode(val, v.Field(idx), child)
	}
}

func (d *decoder) unknownKey(k *yaml.Node, path, key string, fields map[string]int) {
	names := make([]string, 0, len(fields))
	for name := range fields {
		names = append(names, name)
	}
	d.errorf(k.Line, joinPath(path, key), "unknown key%s", didYouMean(strings.ToLower(key), names))
}

func (d *decoder) decodeSlice(n *yaml.Node, v reflect.Value, path string) {
	if n.Kind != yaml.SequenceNode {
		// A lone value where a list is expected is accepted as a list of one.
		if n.Kind == yaml.ScalarNode && v.Type().Elem().Kind() == reflect.String {
			v.Set(reflect.Append(reflect.MakeSlice(v.Type(), 0, 1), reflect.ValueOf(n.Value).Convert(v.Type().Elem())))
			return
		}
		d.errorf(n.Line, path, "want a list, got %s", kindName(n))
		return
	}
	out := reflect.MakeSlice(v.Type(), len(n.Content), len(n.Content))
	for i, item := range n.Content {
		d.decode(item, out.Index(i), fmt.Sprintf("%s[%d]", path, i))
	}
	v.Set(out)
}

func (d *decoder) decodeMap(n *yaml.Node, v reflect.Value, path string) {
	if n.Kind != yaml.MappingNode {
		d.errorf(n.Line, path, "want a mapping of keys, got %s", kindName(n))
		return
	}
	m := reflect.MakeMapWithSize(v.Type(), len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, val := n.Content[i], n.Content[i+1]
		child := joinPath(path, k.Value)
		if k.Kind != yaml.ScalarNode {
			d.errorf(k.Line, path, "keys must be plain names, got %s", kindName(k))
			continue
		}
		if m.MapIndex(reflect.ValueOf(k.Value)).IsValid() {
			d.errorf(k.Line, child, "duplicate key")
			continue
		}
		elem := reflect.New(v.Type().Elem()).Elem()
		d.decode(val, elem, child)
		m.SetMapIndex(reflect.ValueOf(k.Value), elem)
	}
	v.Set(m)
}

// yamlFields maps each yaml key of struct type t to its field index.
func yamlFields(t reflect.Type) map[string]int {
	fields := make(map[string]int, t.NumField())
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		if !f.IsExported() || name == "-" || name == "" {
			continue
		}
		fields[name] = i
	}
	return fields
}

func joinPath(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.AliasNode:
		return "an alias"
	}
	return fmt.Sprintf("%q", n.Value)
}

// parseBool accepts the YAML 1.1 spellings people write in configuration.
func parseBool(s string) (bool, error) {
	switch strings.ToLower(s) {
	case "true", "yes", "on":
		return true, nil
	case "false", "no", "off":
		return false, nil
	}
	return false, fmt.Errorf("want true or false, got %q", s)
}
