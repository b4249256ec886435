package llmstxt

import (
	"bytes"
	"regexp"
	"strings"
	"unicode/utf8"
)

// Link is one inline Markdown link, [Text](URL), and the H2 section it is in
// ("" before the first H2).
type Link struct {
	Text    string `json:"text"`
	URL     string `json:"url"`
	Section string `json:"section,omitempty"`
}

// Facts is what Inspect reads from an llms.txt.
type Facts struct {
	// Size is the body's length in bytes; Chars its length in characters.
	Size  int `json:"size"`
	Chars int `json:"chars"`
	// H1 is the first level-1 ATX heading's text ("" when there is none).
	H1 string `json:"h1,omitempty"`
	// Blockquote is the first blockquote's text, lines joined by a space
	// (the llmstxt.org summary).
	Blockquote string `json:"blockquote,omitempty"`
	// Sections are the H2 headings, in order.
	Sections []string `json:"sections,omitempty"`
	// Links are the inline Markdown links, in order (at most maxLinks).
	Links []Link `json:"links,omitempty"`
	// HasInstructions reports direct plain instructions (see Instructions).
	HasInstructions bool `json:"hasInstructions"`
	// Instructions are the first lines judged to be instructions (at most
	// maxInstructionLines), as written.
	Instructions []string `json:"instructions,omitempty"`
	// ContactLine is the first line naming a way to reach a person: a
	// mailto: link, an e-mail address, or the words contact/support/e-mail.
	ContactLine string `json:"contactLine,omitempty"`
}

// Bounds that keep hostile input cheap.
const (
	maxLinks            = 10000
	maxInstructionLines = 5
	maxLineRecord       = 300
)

var (
	atxHeading = regexp.MustCompile(`^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$`)
	fenceOpen  = regexp.MustCompile("^ {0,3}(`{3,}|~{3,})")
	// inlineLink is [text](url "title"); a leading ! (an image) is checked
	// by the caller.
	inlineLink = regexp.MustCompile(`\[([^\[\]\n]*)\]\(\s*(?:<([^<>\n]*)>|([^\s()<>]*))(?:\s+(?:"[^"\n]*"|'[^'\n]*'))?\s*\)`)
	listMarker = regexp.MustCompile(`^\s*(?:[-*+]|\d{1,9}[.)])\s+`)
	contactRE  = regexp.MustCompile(`(?i)mailto:|\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b|\b(?:contact|support|e-?mail)\b`)
)

// Inspect reads the facts of an llms.txt body. It is line-based and linear:
// fenced code blocks are skipped, headings, blockquotes and links are
// recorded, and each remaining line is judged for instructions.
//
// Instruction heuristic (for UAIX `llms_minimal_instruction_required`: a file
// that only points at specs, without direct minimal instructions, fails). A
// line counts when, after list markers and ">" are removed and links are
// replaced by their text, it has at least four words and either
//   - begins with an imperative verb addressed to the reader ("Use the search
//     API…", "Cite…", "Do not…", "Send…"), or
//   - carries a directive ("must", "should", "do not", "never", "always",
//     "please", "you can", "agents may"…);
//
// or it has at least three words and sits under an H2 whose title announces
// guidance ("Instructions", "For agents", "How to…", "Usage", "Guidelines",
// "Rules", "Policy", "Getting started"). Plain descriptions ("Docs: API
// reference") and bare link lists therefore do not count.
func Inspect(content []byte) Facts {
	content = bytes.TrimPrefix(content, bom)
	f := Facts{Size: len(content), Chars: utf8.RuneCount(content)}
	var fence string
	section, guidance := "", false
	inQuote, quoteDone := false, false
	for line := range strings.Lines(lineBreaks.Replace(string(content))) {
		line = strings.TrimRight(line, "\n")
		if fence != "" {
			if t := strings.TrimSpace(line); strings.HasPrefix(t, fence) && strings.Trim(t, fence[:1]) == "" {
				fence = ""
			}
			continue
		}
		if m := fenceOpen.FindStringSubmatch(line); m != nil {
			fence = m[1]
			continue
		}
		if m := atxHeading.FindStringSubmatch(line); m != nil {
			inQuote = false
			quoteDone = quoteDone || f.Blockquote != ""
			title := strings.TrimSpace(m[2])
			switch len(m[1]) {
			case 1:
				if f.H1 == "" && title != "" {
					f.H1 = title
				}
			case 2:
				section, guidance = title, guidanceTitle.MatchString(title)
				f.Sections = append(f.Sections, title)
			}
			continue
		}
		trimmed := strings.TrimSpace(line)
		if q, ok := strings.CutPrefix(trimmed, ">"); ok {
			if !quoteDone {
				inQuote = true
				f.Blockquote = strings.TrimSpace(f.Blockquote + " " + strings.TrimSpace(q))
			}
		} else if inQuote {
			inQuote, quoteDone = false, true
		}
		text := f.collectLinks(line, section)
		if f.ContactLine == "" && contactRE.MatchString(line) {
			f.ContactLine = clip(trimmed)
		}
		// Once enough instruction lines are recorded, the rest are not judged.
		if len(f.Instructions) < maxInstructionLines && isInstruction(text, guidance) {
			f.HasInstructions = true
			f.Instructions = append(f.Instructions, clip(trimmed))
		}
	}
	return f
}

// collectLinks records the line's inline links and returns the line with
// each link replaced by its text and list/quote markers removed.
func (f *Facts) collectLinks(line, section string) string {
	var b strings.Builder
	last := 0
	for _, m := range inlineLink.FindAllStringSubmatchIndex(line, -1) {
		if m[0] > 0 && line[m[0]-1] == '!' {
			continue // an image, not a link
		}
		text, target := line[m[2]:m[3]], ""
		if m[4] >= 0 {
			target = line[m[4]:m[5]] // <destination with spaces>
		} else {
			target = line[m[6]:m[7]]
		}
		if len(f.Links) < maxLinks && target != "" {
			f.Links = append(f.Links, Link{Text: strings.TrimSpace(text), URL: target, Section: section})
		}
		b.WriteString(line[last:m[0]])
		// A link that opens a list item is a label ("- [Search](…): …"),
		// not the first word of a sentence: drop its text.
		if !leadsItem(line[:m[0]]) {
			b.WriteString(text)
		}
		last = m[1]
	}
	b.WriteString(line[last:])
	return stripMarkers(b.String())
}

// stripMarkers removes blockquote and list markers and a leading separator.
func stripMarkers(s string) string {
	s = strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(s), ">"))
	s = listMarker.ReplaceAllString(s, "")
	return strings.TrimSpace(strings.TrimLeft(s, ":-–— \t"))
}

// leadsItem reports whether prefix holds nothing but markers.
func leadsItem(prefix string) bool {
	return stripMarkers(prefix+" x") == "x"
}

func clip(s string) string {
	if len(s) <= maxLineRecord {
		return s
	}
	cut := maxLineRecord
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}
