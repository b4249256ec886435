package manifest

import (
	"fmt"
	"sort"
	"strings"
)

// FieldError is one problem found in a configuration file. Its Error method
// prints it as "file:line: field: message", the form every load error takes.
type FieldError struct {
	// File is the configuration file name as given to Parse or Load.
	File string
	// Line is the 1-based line of the offending value (0 when unknown).
	Line int
	// Field is the dotted path of the offending key, e.g. "llms.sections[0].links[1].url".
	Field string
	// Msg says what is wrong, lowercase, without a trailing period.
	Msg string
}

// Error implements error.
func (e *FieldError) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	fmt.Fprintf(&b, ":%d: ", e.Line)
	if e.Field != "" {
		b.WriteString(e.Field)
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// Errors is every problem found in one configuration, one per problem,
// sorted by line. It is the error type returned by Parse and Load.
type Errors []*FieldError

// Error implements error: one problem per line.
func (es Errors) Error() string {
	lines := make([]string, len(es))
	for i, e := range es {
		lines[i] = e.Error()
	}
	return strings.Join(lines, "\n")
}

// sortErrors orders problems by line, then field, and drops exact duplicates
// (an alias may make the same value fail twice).
func sortErrors(es Errors) Errors {
	sort.SliceStable(es, func(i, j int) bool {
		if es[i].Line != es[j].Line {
			return es[i].Line < es[j].Line
		}
		return es[i].Field < es[j].Field
	})
	out := es[:0]
	for i, e := range es {
		if i > 0 && *e == *es[i-1] {
			continue
		}
		out = append(out, e)
	}
	return out
}
