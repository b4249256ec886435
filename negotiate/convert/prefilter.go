package convert

import (
	"strings"

	"github.com/andybalholm/cascadia"
	"golang.org/x/net/html"
)

// selectorSet matches when any of its selectors does, like a
// cascadia.SelectorGroup, but first asks of each selector the one thing its
// rightmost compound selector requires of the element itself, when the
// selector's text states it: a type selector (the element's tag), or an
// ID, class or attribute selector outside any pseudo-class's parentheses
// (an attribute of that name must be present: cascadia matches each of
// them only on an element that has the attribute). A page's elements
// mostly carry no class, id, role or style, and the default prune list is
// about sixty selectors that each require one of those: the cheap test
// skips almost all of them, and the result is that of the group, since a
// skipped selector could not have matched.
type selectorSet struct {
	sels []cascadia.Sel
	need []requirement
}

// requirement is what a selector needs of the element it matches: its tag
// (lowercase; "" for any), an attribute it must have ("" for none) and a
// string that attribute's value must hold ("" for any): part of the class
// or id named, or of the value an attribute selector compares with.
type requirement struct{ tag, attr, val string }

// newSelectorSet builds the set of the compiled selectors, nil for none.
func newSelectorSet(sels []namedSel) *selectorSet {
	if len(sels) == 0 {
		return nil
	}
	s := &selectorSet{sels: make([]cascadia.Sel, len(sels)), need: make([]requirement, len(sels))}
	for i, n := range sels {
		s.sels[i], s.need[i] = n.sel, needs(n.text)
	}
	return s
}

// Match reports whether any selector matches n (an element).
func (s *selectorSet) Match(n *html.Node) bool {
	for i, sel := range s.sels {
		r := s.need[i]
		if r.tag != "" && n.Data != r.tag {
			continue
		}
		if r.attr != "" && !hasAttrHolding(n, r.attr, r.val) {
			continue
		}
		if sel.Match(n) {
			return true
		}
	}
	return false
}

// hasAttrHolding reports whether n has an attribute named key, in any
// namespace (as cascadia compares attribute names), whose value holds val.
func hasAttrHolding(n *html.Node, key, val string) bool {
	for _, a := range n.Attr {
		if a.Key == key && strings.Contains(a.Val, val) {
			return true
		}
	}
	return false
}

// needs reads, from a selector's text, what its rightmost compound selector
// requires of the element. It states a requirement only where the text is
// plain: no escapes, no selector list, no namespace; anything else needs
// nothing, and the selector is always asked. A value it keeps may be a
// prefix of the one named (an identifier is read up to its first
// character outside ASCII letters, digits, - and _): what holds the whole
// holds the prefix.
func needs(sel string) requirement {
	if strings.ContainsAny(sel, `\|`) {
		return requirement{}
	}
	start, ok := rightmostCompound(sel)
	if !ok {
		return requirement{}
	}
	comp := sel[start:]
	var r requirement
	i := 0
	if i < len(comp) && isLetter(comp[i]) {
		for i < len(comp) && isIdent(comp[i]) {
			i++
		}
		if i < len(comp) && strings.IndexByte(".#[:", comp[i]) < 0 {
			return requirement{} // not a plain type selector
		}
		r.tag = strings.ToLower(comp[:i])
	}
	for i < len(comp) && r.attr == "" {
		switch comp[i] {
		case '(':
			// a pseudo-class's argument constrains other elements (:has)
			// or negates (:not): skip it
			i = skipGroup(comp, i, '(', ')')
			continue
		case '[':
			j := i + 1
			for j < len(comp) && isIdent(comp[j]) {
				j++
			}
			key := strings.ToLower(comp[i+1 : j])
			for j < len(comp) && comp[j] == ' ' {
				j++
			}
			// [key!=value] also matches elements without the attribute
			if key != "" && j < len(comp) && (comp[j] == ']' || comp[j] == '=' ||
				(strings.IndexByte("~^$*|#", comp[j]) >= 0 && j+1 < len(comp) && comp[j+1] == '=')) {
				r.attr = key
				if comp[j] != ']' && comp[j] != '#' { // #= is a regular expression
					r.val = attrValue(comp[i:skipGroup(comp, i, '[', ']')], j-i)
				}
			}
			i = skipGroup(comp, i, '[', ']')
			continue
		case '.', '#':
			r.attr = "class"
			if comp[i] == '#' {
				r.attr = "id"
			}
			j := i + 1
			for j < len(comp) && isIdent(comp[j]) {
				j++
			}
			r.val = comp[i+1 : j]
		}
		i++
	}
	return r
}

// rightmostCompound is where the rightmost compound selector of sel
// starts: after the last combinator outside brackets, parentheses and
// quotes. It is not ok for a selector list or an unbalanced selector.
func rightmostCompound(sel string) (start int, ok bool) {
	depth, quote := 0, byte(0)
	for i := 0; i < len(sel); i++ {
		c := sel[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '(' || c == '[':
			depth++
		case c == ')' || c == ']':
			depth--
		case depth > 0:
		case c == ',':
			return 0, false // a selector list: any of its parts
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '>' || c == '+' || c == '~':
			start = i + 1
		}
	}
	return start, quote == 0 && depth == 0
}

// attrValue returns the value an attribute selector ([key op value], op at
// br[at]) compares with, or its prefix: "" when it is matched without
// regard to case (the i flag) or is not plain.
func attrValue(br string, at int) string {
	v := strings.TrimSpace(strings.TrimSuffix(br, "]"))
	rest := strings.TrimLeft(v[at:], "~^$*|=")
	rest = strings.TrimSpace(rest)
	if rest == "" {
		return ""
	}
	if q := rest[0]; q == '"' || q == '\'' {
		end := strings.IndexByte(rest[1:], q)
		if end < 0 || strings.TrimSpace(rest[end+2:]) != "" {
			return "" // a flag after the value (i, s), or not plain
		}
		return rest[1 : end+1]
	}
	j := 0
	for j < len(rest) && isIdent(rest[j]) {
		j++
	}
	if strings.TrimSpace(rest[j:]) != "" {
		return rest[:0] // a flag, or more than an identifier
	}
	return rest[:j]
}

// skipGroup returns the index after the group that opens at s[i] (open),
// nested groups and quoted strings inside it skipped; len(s) when it does
// not close.
func skipGroup(s string, i int, open, close byte) int {
	depth, quote := 0, byte(0)
	for ; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == open:
			depth++
		case c == close:
			if depth--; depth == 0 {
				return i + 1
			}
		}
	}
	return len(s)
}

func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

func isIdent(c byte) bool { return isLetter(c) || '0' <= c && c <= '9' || c == '-' || c == '_' }
