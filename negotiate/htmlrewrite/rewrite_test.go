package htmlrewrite

import (
	"bytes"
	"errors"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// Head elements as the handler and the lead's manifest build them.
var (
	mdLinkHead = HeadElement{
		HTML:   `<link rel="alternate" type="text/markdown" href="/pricing/md">`,
		SkipIf: TagMatch{Tag: "link", Attrs: map[string]string{"rel": "alternate", "type": "text/markdown"}},
	}
	canonicalHead = HeadElement{
		HTML:   `<link rel="canonical" href="https://example.com/pricing">`,
		SkipIf: TagMatch{Tag: "link", Attrs: map[string]string{"rel": "canonical"}},
	}
	jsonLDHead = HeadElement{
		HTML:   `<script type="application/ld+json">{"@type":"WebPage"}</script>`,
		SkipIf: TagMatch{Tag: "script", Attrs: map[string]string{"type": "application/ld+json"}},
	}
	alwaysHead = HeadElement{HTML: `<meta name="x-injected" content="1">`}
)

var contactForm = FormAnnotation{
	Selector: "form#contact",
	Attrs:    map[string]string{"toolname": "contact_us", "tooldescription": `Send a message to the "team"`},
	Fields: map[string]map[string]string{
		"email":   {"toolparamdescription": "Your email address"},
		"message": {"toolparamdescription": "What you want to say"},
		"topic":   {"toolparamdescription": "Sales or support", "bad name!": "dropped"},
	},
}

var searchForm = FormAnnotation{
	Selector: ".newsletter",
	Attrs:    map[string]string{"toolname": "search_site"},
	Fields: map[string]map[string]string{
		"q/": {"toolparamdescription": "Words to look for"},
		"q2": {"toolparamdescription": "More words"},
	},
}

// rewriteCases name a file under testdata/rewrite and the injection applied.
var rewriteCases = []struct {
	name string
	inj  *Injection
}{
	{"lang", &Injection{Lang: "en"}},
	{"lang_present", &Injection{Lang: "en", Head: []HeadElement{alwaysHead}}},
	{"head_elements", &Injection{Head: []HeadElement{mdLinkHead, canonicalHead, jsonLDHead, {HTML: "<!-- skip on rel token -->", SkipIf: TagMatch{Tag: "link", Attrs: map[string]string{"rel": "alternate", "type": "*"}}}}}},
	{"no_head_close", &Injection{Lang: "en", Head: []HeadElement{mdLinkHead}}},
	{"no_head", &Injection{Lang: "en", Head: []HeadElement{mdLinkHead}}},
	{"text_first", &Injection{Head: []HeadElement{mdLinkHead, alwaysHead}}},
	{"uppercase", &Injection{Lang: "en-GB", Head: []HeadElement{mdLinkHead, canonicalHead}, Forms: []FormAnnotation{{Selector: "#Contact", Attrs: map[string]string{"toolname": "contact"}, Fields: map[string]map[string]string{"email": {"toolparamdescription": "Email"}}}}}},
	{"head_in_script", &Injection{Head: []HeadElement{alwaysHead}}},
	{"forms", &Injection{Forms: []FormAnnotation{contactForm, searchForm, {Selector: "form[", Attrs: map[string]string{"toolname": "never"}}}}},
	{"invalid", &Injection{Lang: "en", Head: []HeadElement{alwaysHead}, Forms: []FormAnnotation{contactForm}}},
	{"empty", &Injection{Lang: "en", Head: []HeadElement{alwaysHead}}},
	{"bom_template", &Injection{Lang: "en", Head: []HeadElement{alwaysHead}}},
	{"utf16", &Injection{Lang: "en", Head: []HeadElement{alwaysHead}}},
}

// rewriteAll runs the rewriter over in, chunk bytes per Write; it fails
// the test on any error.
func rewriteAll(t testing.TB, in []byte, inj *Injection, chunk int) []byte {
	t.Helper()
	var out bytes.Buffer
	w := New(&out, inj)
	for len(in) > 0 {
		n := min(chunk, len(in))
		if m, err := w.Write(in[:n]); err != nil || m != n {
			t.Fatalf("Write = %d, %v; want %d, nil", m, err, n)
		}
		in = in[n:]
	}
	if err := w.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	return out.Bytes()
}

func TestRewriterGolden(t *testing.T) {
	for _, tc := range rewriteCases {
		t.Run(tc.name, func(t *testing.T) {
			base := filepath.Join("testdata", "rewrite", tc.name)
			in, err := os.ReadFile(base + ".in.html")
			if err != nil {
				t.Fatal(err)
			}
			got := rewriteAll(t, in, tc.inj, 1<<20)
			if *update {
				if err := os.WriteFile(base+".out.html", got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(base + ".out.html")
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("output differs from %s.out.html:\n--- got\n%s\n--- want\n%s", base, got, want)
			}
			if !isSubsequence(in, got) {
				t.Errorf("an input byte was changed or dropped:\n%s", got)
			}
			// Nothing injected at all: the rewriter is a copy.
			if got := rewriteAll(t, in, nil, 1<<20); !bytes.Equal(got, in) {
				t.Errorf("nil injection changed the page:\n%s", got)
			}
		})
	}
}

// TestRewriterSplitWrites feeds every golden input split at every byte
// boundary, and one byte per Write: the output must not depend on how the
// page arrives.
func TestRewriterSplitWrites(t *testing.T) {
	for _, tc := range rewriteCases {
		t.Run(tc.name, func(t *testing.T) {
			in, err := os.ReadFile(filepath.Join("testdata", "rewrite", tc.name+".in.html"))
			if err != nil {
				t.Fatal(err)
			}
			want := rewriteAll(t, in, tc.inj, len(in)+1)
			if got := rewriteAll(t, in, tc.inj, 1); !bytes.Equal(got, want) {
				t.Fatalf("one byte per write:\n%s\nwant\n%s", got, want)
			}
			for i := 1; i < len(in); i++ {
				var out bytes.Buffer
				w := New(&out, tc.inj)
				w.Write(in[:i])
				w.Write(in[i:])
				if err := w.Close(); err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(out.Bytes(), want) {
					t.Fatalf("split at %d:\n%s\nwant\n%s", i, out.Bytes(), want)
				}
			}
		})
	}
}

func TestRewriterStreams(t *testing.T) {
	var out bytes.Buffer
	w := New(&out, &Injection{Head: []HeadElement{alwaysHead}, Forms: []FormAnnotation{contactForm}})
	first := "<html><head></head><body><p>first</p>"
	w.Write([]byte(first))
	if want := "<html><head>" + alwaysHead.HTML + "</head><body><p>first</p>"; out.String() != want {
		t.Errorf("after the first Write the client has %q, want %q", out.String(), want)
	}
	w.Write([]byte("<p>second"))
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(out.String(), "<p>second") {
		t.Errorf("Close did not flush the tail: %q", out.String())
	}
	if _, err := w.Write([]byte("x")); err == nil {
		t.Error("Write after Close succeeded")
	}
}

// TestRewriterHugeTokens checks the memory bound: what the rewriter holds
// back (an incomplete tag, or text before the body) never passes
// maxTokenBuf; a tag or head text larger than that stops the rewriting and
// the rest is copied as is, while tokens it never changes (scripts,
// comments, plaintext) stream through however large.
func TestRewriterHugeTokens(t *testing.T) {
	inj := &Injection{Lang: "en", Head: []HeadElement{alwaysHead}, Forms: []FormAnnotation{contactForm}}
	big := strings.Repeat("x", 3*maxTokenBuf)
	for _, tc := range []struct {
		name, page, want string
	}{
		{"script in head", "<html><head><script>" + big + "</script></head><body></body></html>",
			`<html lang="en"><head><script>` + big + "</script>" + alwaysHead.HTML + "</head><body></body></html>"},
		{"comment", "<!--" + strings.Repeat("-", 3*maxTokenBuf) + "-->", "<!--" + strings.Repeat("-", 3*maxTokenBuf) + "-->"},
		{"plaintext", "<html><head></head><body><plaintext>" + strings.Repeat("<p>", maxTokenBuf),
			"<html lang=\"en\"><head>" + alwaysHead.HTML + "</head><body><plaintext>" + strings.Repeat("<p>", maxTokenBuf)},
		{"attribute value", "<html><head><meta content=\"" + big + "\"></head><body><form id=contact></form></body></html>",
			"<html lang=\"en\"><head><meta content=\"" + big + "\"></head><body><form id=contact></form></body></html>"},
		{"text before the body", "<html><head>" + strings.Repeat(" ", 3*maxTokenBuf) + "</head><body>",
			"<html lang=\"en\"><head>" + strings.Repeat(" ", 3*maxTokenBuf) + "</head><body>"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			w := New(&out, inj)
			held, capacity := 0, 0
			for in := []byte(tc.page); len(in) > 0; {
				n := min(len(in), 32<<10)
				if _, err := w.Write(in[:n]); err != nil {
					t.Fatal(err)
				}
				in = in[n:]
				held = max(held, len(w.hold))
				capacity = max(capacity, cap(w.hold))
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			if held > maxTokenBuf || capacity > 2*maxTokenBuf {
				t.Errorf("held %d bytes at once in a buffer of %d, bound %d", held, capacity, maxTokenBuf)
			}
			if got := out.String(); got != tc.want {
				t.Errorf("output of %d bytes, want %d:\n%.200q…\n%.200q…", len(got), len(tc.want), got, tc.want)
			}
		})
	}
}

type failWriter struct{ n int }

func (f *failWriter) Write(p []byte) (int, error) {
	if f.n <= 0 {
		return 0, errors.New("client went away")
	}
	f.n--
	return len(p), nil
}

func TestRewriterWriteError(t *testing.T) {
	w := New(&failWriter{n: 1}, &Injection{Forms: []FormAnnotation{contactForm}})
	var err error
	for i := 0; i < 100 && err == nil; i++ {
		_, err = w.Write([]byte("<p>paragraph</p>"))
	}
	if err == nil {
		t.Fatal("Write never reported the writer's error")
	}
	if cerr := w.Close(); cerr == nil {
		t.Error("Close did not report the writer's error")
	}
}

func TestInjectionValidate(t *testing.T) {
	if err := (&Injection{Forms: []FormAnnotation{contactForm}}).Validate(); err != nil {
		t.Errorf("valid selector rejected: %v", err)
	}
	if err := (&Injection{Forms: []FormAnnotation{{Selector: "form["}}}).Validate(); err == nil {
		t.Error("invalid selector accepted")
	}
	if err := (*Injection)(nil).Validate(); err != nil {
		t.Errorf("nil injection: %v", err)
	}
}

// isSubsequence reports whether every byte of in appears in out, in order:
// the rewriter only ever adds.
func isSubsequence(in, out []byte) bool {
	i := 0
	for j := 0; i < len(in) && j < len(out); j++ {
		if in[i] == out[j] {
			i++
		}
	}
	return i == len(in)
}

var _ io.WriteCloser = (*Rewriter)(nil)

func readGolden(name string) ([]byte, error) {
	return os.ReadFile(filepath.Join("testdata", "rewrite", name+".in.html"))
}

// Abandon drops what the rewriter holds (here the incomplete tag at the end
// of the first Write) and makes later Writes fail.
func TestRewriterAbandon(t *testing.T) {
	var out bytes.Buffer
	w := New(&out, &Injection{Lang: "en"})
	w.Write([]byte("<p>text</p><html a"))
	w.Abandon()
	if got, want := out.String(), "<p>text</p>"; got != want {
		t.Errorf("after Abandon the output is %q, want %q", got, want)
	}
	if _, err := w.Write([]byte(">")); !errors.Is(err, ErrClosed) {
		t.Errorf("Write after Abandon: %v, want ErrClosed", err)
	}
	if err := w.Close(); err != nil || out.String() != "<p>text</p>" {
		t.Errorf("Close after Abandon: %v, output %q", err, out.String())
	}
}
