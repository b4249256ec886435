package llmstxt

import (
	"regexp"
	"strings"
	"unicode"
)

var (
	// guidanceTitle matches H2 titles that announce instructions.
	guidanceTitle = regexp.MustCompile(`(?i)\b(instructions?|for (ai )?agents|for llms|how to|usage|guidelines?|rules|polic(y|ies)|getting started|quick ?start|agent access)\b`)
	// directive matches wording that tells the reader what to do.
	directive = regexp.MustCompile(`(?i)\b(must|should|shall|do not|don't|never|always|please|prefer|avoid|you can|you may|agents (can|may|should|must)|is allowed|are allowed|not allowed|permitted)\b`)
)

// imperatives are verbs that open an instruction addressed to the reader.
var imperatives = map[string]bool{
	"use": true, "call": true, "fetch": true, "send": true, "read": true, "start": true,
	"see": true, "ask": true, "request": true, "query": true, "search": true, "contact": true,
	"email": true, "include": true, "cite": true, "respect": true, "follow": true, "do": true,
	"visit": true, "get": true, "post": true, "open": true, "check": true, "sign": true,
	"authenticate": true, "append": true, "add": true, "link": true, "browse": true,
	"download": true, "submit": true, "book": true, "order": true, "find": true, "go": true,
	"note": true, "set": true, "pass": true, "try": true, "keep": true, "limit": true,
	"refer": true, "write": true, "reach": true, "register": true, "log": true,
}

// isInstruction applies the heuristic documented on Inspect to one line
// whose links were already replaced by their text.
func isInstruction(text string, guidance bool) bool {
	words := strings.FieldsFunc(text, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\''
	})
	switch {
	case len(words) >= 3 && guidance:
		return true
	case len(words) < 4:
		return false
	case imperatives[strings.ToLower(words[0])]:
		return true
	}
	return directive.MatchString(text)
}
