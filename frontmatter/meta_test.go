package frontmatter

import (
	"bytes"
	"math/rand"
	"reflect"
	"strings"
	"testing"
	"testing/quick"
	"unicode/utf8"
)

func TestMarshal(t *testing.T) {
	tests := []struct {
		name string
		meta Meta
		want string
	}{
		{"empty", Meta{}, "---\n---\n"},
		{"standard example", Meta{
			Title:       "Pricing",
			Description: "What each plan includes and what it costs.",
			Canonical:   "https://yourwebsite.com/pricing",
			Updated:     "2026-09-15",
			Language:    "en",
		}, "---\ntitle: Pricing\ndescription: What each plan includes and what it costs.\ncanonical: https://yourwebsite.com/pricing\nupdated: 2026-09-15\nlanguage: en\n---\n"},
		{"field order and omission", Meta{SiteName: "Acme", Author: "Ann", Published: "2026-01-02"},
			"---\npublished: 2026-01-02\nauthor: Ann\nsite_name: Acme\n---\n"},
		{"colon space quoted", Meta{Title: "Go: the good parts"}, "---\ntitle: \"Go: the good parts\"\n---\n"},
		{"quotes first", Meta{Title: `"Quoted" title`}, "---\ntitle: \"\\\"Quoted\\\" title\"\n---\n"},
		{"document marker", Meta{Title: "---"}, "---\ntitle: \"---\"\n---\n"},
		{"newline escaped", Meta{Title: "a\nb"}, "---\ntitle: \"a\\nb\"\n---\n"},
		{"keyword quoted", Meta{Title: "Yes"}, "---\ntitle: \"Yes\"\n---\n"},
		{"number quoted", Meta{Title: "2026"}, "---\ntitle: \"2026\"\n---\n"},
		{"emoji first quoted", Meta{Title: "🚀 Launch"}, "---\ntitle: \"🚀 Launch\"\n---\n"},
		{"emoji inside plain", Meta{Title: "Launch 🚀"}, "---\ntitle: Launch 🚀\n---\n"},
		{"comment marker quoted", Meta{Title: "Issue #42 fixed"}, "---\ntitle: \"Issue #42 fixed\"\n---\n"},
		{"control escaped", Meta{Title: "a\x7fb\u2028c"}, "---\ntitle: \"a\\x7fb\\u2028c\"\n---\n"},
		{"invalid utf-8 replaced", Meta{Title: "a\xffb"}, "---\ntitle: a\uFFFDb\n---\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := string(tt.meta.Marshal())
			if got != tt.want {
				t.Errorf("Marshal() =\n%s\nwant\n%s", got, tt.want)
			}
			back, body, err := Parse([]byte(got + "body"))
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if back != tt.meta.Sanitized() || string(body) != "body" {
				t.Errorf("round trip = %+v, %q; want %+v, %q", back, body, tt.meta.Sanitized(), "body")
			}
		})
	}
}

func TestParse(t *testing.T) {
	tests := []struct {
		name     string
		doc      string
		want     Meta
		wantBody string
		wantErr  bool
	}{
		{"no front matter", "# Title\n", Meta{}, "# Title\n", false},
		{"crlf", "---\r\ntitle: T\r\n---\r\nbody", Meta{Title: "T"}, "body", false},
		{"dots end", "---\ntitle: T\n...\nbody", Meta{Title: "T"}, "body", false},
		{"unknown keys ignored", "---\ntitle: T\ntags: [a, b]\n---\n", Meta{Title: "T"}, "", false},
		{"no trailing newline", "---\ntitle: T\n---", Meta{Title: "T"}, "", false},
		{"unterminated", "---\ntitle: T\n", Meta{}, "---\ntitle: T\n", true},
		{"bad yaml", "---\ntitle: [\n---\n", Meta{}, "---\ntitle: [\n---\n", true},
		{"dash line in body kept", "---\ntitle: T\n---\na\n---\nb", Meta{Title: "T"}, "a\n---\nb", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, body, err := Parse([]byte(tt.doc))
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tt.wantErr)
			}
			if m != tt.want || string(body) != tt.wantBody {
				t.Errorf("Parse = %+v, %q; want %+v, %q", m, body, tt.want, tt.wantBody)
			}
		})
	}
}

// hostileStrings are the values a generated Meta draws from: YAML
// indicators, keywords, numbers, markers, line breaks and odd code points.
var hostileStrings = []string{
	"", " ", "a", "Title", "---", "...", "- item", "? key", ": v", "a: b", "a #b", "#c",
	`"`, `'`, `\`, "'single'", `"double"`, "[x]", "{y: 1}", "|", ">", "&anchor", "*alias",
	"!tag", "%YAML", "@at", "`tick", "yes", "No", "ON", "off", "~", "null", "NULL", "true",
	"1", "-1", "0x1F", "0o17", "1e3", ".inf", ".NaN", "1:20", "2026-09-15", "2026-09-15T10:00:00Z",
	"\n", "\r\n", "\t", "a\nb", "trailing ", " leading", "emoji 🚀", "🚀", "中文标题", "é",
	"\u0085", "\u2028", "\u2029", "\uFEFF", "\u00a0", "\x00", "\x1b[31m", "\x7f", "\U0010FFFF",
	"\uE000", "\xff", "a\xc3", "https://example.com/a?b=c#d", "https://example.com/a: b",
}

func randomString(r *rand.Rand) string {
	var b strings.Builder
	for range r.Intn(4) {
		b.WriteString(hostileStrings[r.Intn(len(hostileStrings))])
		if r.Intn(3) == 0 {
			b.WriteRune(rune(r.Intn(0x110000)))
		}
	}
	return b.String()
}

// Generate makes Meta usable with testing/quick.
func (Meta) Generate(r *rand.Rand, _ int) reflect.Value {
	var m Meta
	for _, f := range m.fields() {
		*f.val = randomString(r)
	}
	return reflect.ValueOf(m)
}

func TestRoundTripProperty(t *testing.T) {
	prop := func(m Meta) bool {
		back, body, err := Parse(append(m.Marshal(), "# body\n"...))
		return err == nil && back == m.Sanitized() && string(body) == "# body\n"
	}
	if err := quick.Check(prop, &quick.Config{MaxCount: 5000}); err != nil {
		t.Error(err)
	}
}

func FuzzFrontMatterRoundTrip(f *testing.F) {
	for i, s := range hostileStrings {
		f.Add(s, hostileStrings[(i+7)%len(hostileStrings)], "2026-09-15")
	}
	f.Fuzz(func(t *testing.T, title, desc, updated string) {
		m := Meta{Title: title, Description: desc, Updated: updated, Canonical: title + desc}
		out := m.Marshal()
		if !utf8.Valid(out) {
			t.Fatalf("Marshal produced invalid UTF-8: %q", out)
		}
		if n := bytes.Count(out, []byte("\n")); n != 2+nonEmpty(m) {
			t.Fatalf("Marshal wrote %d lines for %d fields: %q", n, nonEmpty(m), out)
		}
		back, body, err := Parse(append(out, "body"...))
		if err != nil {
			t.Fatalf("Parse(Marshal(%+v)): %v\n%s", m, err, out)
		}
		if back != m.Sanitized() || string(body) != "body" {
			t.Fatalf("round trip\n got %+v\nwant %+v\nyaml %q", back, m.Sanitized(), out)
		}
	})
}

func nonEmpty(m Meta) int {
	n := 0
	for _, f := range m.fields() {
		if *f.val != "" {
			n++
		}
	}
	return n
}

func FuzzParse(f *testing.F) {
	f.Add([]byte("---\ntitle: T\n---\nbody"))
	f.Add([]byte("---\n---\n"))
	f.Add([]byte("---\ntitle: &a [*a]\n---\n"))
	f.Add([]byte("no front matter"))
	f.Fuzz(func(t *testing.T, doc []byte) {
		m, body, err := Parse(doc)
		if err != nil {
			return
		}
		if len(body) > len(doc) {
			t.Fatalf("body longer than document")
		}
		// Whatever was read must survive its own round trip.
		back, _, err := Parse(m.Marshal())
		if err != nil || back != m.Sanitized() {
			t.Fatalf("re-marshal of %+v: %+v, %v", m, back, err)
		}
	})
}

func TestSplit(t *testing.T) {
	tests := []struct {
		name, doc, block, body string
		ok                     bool
	}{
		{"lf", "---\ntitle: A\n---\n# A", "title: A\n", "# A", true},
		{"crlf", "---\r\ntitle: A\r\n---\r\nbody", "title: A\r\n", "body", true},
		{"closed at the end", "---\ntitle: A\n---", "title: A\n", "", true},
		{"dots close", "---\ntitle: A\n...\nbody", "title: A\n", "body", true},
		{"empty block", "---\n---\nbody", "", "body", true},
		{"first closing line wins", "---\na: 1\n---\nb\n---\n", "a: 1\n", "b\n---\n", true},
		{"unterminated", "---\ntitle: A\n", "", "---\ntitle: A\n", false},
		{"opening alone", "---", "", "---", false},
		{"not at the start", "# A\n---\n", "", "# A\n---\n", false},
		{"four dashes", "----\n---\n", "", "----\n---\n", false},
		{"marker with trailing text", "---\na: 1\n--- x\n", "", "---\na: 1\n--- x\n", false},
		{"lone carriage return", "---\ra: 1\r---\r", "", "---\ra: 1\r---\r", false},
		{"empty", "", "", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			block, body, ok := Split([]byte(tt.doc))
			if ok != tt.ok || string(block) != tt.block || string(body) != tt.body {
				t.Errorf("Split(%q) = %q, %q, %v; want %q, %q, %v", tt.doc, block, body, ok, tt.block, tt.body, tt.ok)
			}
		})
	}
}

// FuzzSplit checks that Split only cuts: the block and the body are the
// document's own bytes, the body is its tail, and Parse agrees on where
// the body starts.
func FuzzSplit(f *testing.F) {
	f.Add([]byte("---\ntitle: T\n---\nbody"))
	f.Add([]byte("---\r\n...\r\n"))
	f.Add([]byte("---\n"))
	f.Fuzz(func(t *testing.T, doc []byte) {
		block, body, ok := Split(doc)
		if !ok {
			if block != nil || !bytes.Equal(body, doc) {
				t.Fatalf("no block, yet Split(%q) = %q, %q", doc, block, body)
			}
			return
		}
		if !bytes.HasSuffix(doc, body) || !bytes.Contains(doc, block) || len(block)+len(body) >= len(doc) {
			t.Fatalf("Split(%q) = %q, %q: not a cut of the document", doc, block, body)
		}
		if _, pbody, err := Parse(doc); err == nil && len(pbody) != len(body) {
			t.Fatalf("Parse body %q, Split body %q", pbody, body)
		}
	})
}
