package manifest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// MaxConfigBytes caps the size of a configuration file.
const MaxConfigBytes = 4 << 20

// Load reads, parses and validates the configuration file at path. Skill
// files are resolved against the file's directory. Problems are returned as
// Errors, each printed "file:line: field: message".
func Load(path string) (*Site, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("reading site config: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxConfigBytes+1))
	if err != nil {
		return nil, fmt.Errorf("reading site config %s: %w", path, err)
	}
	return Parse(data, path)
}

// Parse parses and validates one configuration. filename names it in error
// messages, and its directory is where skill files are looked up (the
// current directory when filename has none). An empty document yields the
// same Site as Default. Every problem found is reported, as Errors sorted by
// line.
func Parse(data []byte, filename string) (*Site, error) {
	s := newSite()
	s.file = filename
	s.baseDir = filepath.Dir(filename)
	if len(data) > MaxConfigBytes {
		return nil, Errors{{File: filename, Line: 1, Msg: fmt.Sprintf("file is larger than %d bytes", MaxConfigBytes)}}
	}
	var doc, extra yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&doc); err != nil && !errors.Is(err, io.EOF) {
		return nil, Errors{yamlError(filename, err)}
	}
	// One file is one configuration: a second document would be ignored
	// silently, so it is an error.
	switch err := dec.Decode(&extra); {
	case errors.Is(err, io.EOF):
	case err != nil:
		return nil, Errors{yamlError(filename, err)}
	default:
		return nil, Errors{{File: filename, Line: max(extra.Line, 1), Msg: "a second YAML document (---): put the whole configuration in one document"}}
	}
	d := &decoder{file: filename, lines: s.lines, failed: map[string]bool{}}
	if len(doc.Content) > 0 {
		root := doc.Content[0]
		if root.Kind == yaml.ScalarNode && root.Tag == "!!null" {
			root = &yaml.Node{Kind: yaml.MappingNode}
		}
		if root.Kind != yaml.MappingNode {
			return nil, Errors{{File: filename, Line: root.Line, Msg: fmt.Sprintf("want a mapping of sections at the top level, got %s", kindName(root))}}
		}
		d.decode(root, reflect.ValueOf(s).Elem(), "")
	}
	v := &validator{s: s, errs: d.errs, failed: d.failed}
	v.validate()
	if len(v.errs) > 0 {
		return nil, sortErrors(v.errs)
	}
	return s, nil
}

// Default returns the configuration of an empty file: everything derived
// from the Env given to Generate.
func Default() *Site {
	s := newSite()
	s.applyDefaults()
	return s
}

// newSite returns an empty configuration with no defaults applied.
func newSite() *Site {
	return &Site{file: "site.yaml", baseDir: ".", lines: map[string]int{}}
}

// Warnings returns the problems found at load time that do not stop the
// site from being served (an llms.txt over 50,000 characters, a description
// truncated to fit a card…), each as "file:line: field: message".
func (s *Site) Warnings() []string {
	return append([]string(nil), s.warnings...)
}

// warnf records a load-time warning on the line of path.
func (s *Site) warnf(path, format string, args ...any) {
	e := &FieldError{File: s.file, Line: s.line(path), Field: path, Msg: fmt.Sprintf(format, args...)}
	s.warnings = append(s.warnings, e.Error())
}

// line returns the line of path, or of its nearest ancestor present in the
// file (a missing required key is reported on its parent's line).
func (s *Site) line(path string) int {
	for path != "" {
		if l, ok := s.lines[path]; ok {
			return l
		}
		i := strings.LastIndexAny(path, ".[")
		if i < 0 {
			break
		}
		path = path[:i]
	}
	return 1
}

var yamlLineRe = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// yamlError turns a yaml.v3 syntax error into a FieldError with its line.
func yamlError(file string, err error) *FieldError {
	msg := err.Error()
	var te *yaml.TypeError
	if errors.As(err, &te) && len(te.Errors) > 0 {
		msg = te.Errors[0]
	}
	line := 1
	if m := yamlLineRe.FindStringSubmatch(msg); m != nil {
		line, _ = strconv.Atoi(m[1])
		msg = m[2]
	}
	return &FieldError{File: file, Line: line, Msg: "invalid YAML: " + strings.TrimPrefix(msg, "yaml: ")}
}
