package negotiate

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

func FuzzParseAccept(f *testing.F) {
	for _, s := range []string{acceptChrome, acceptFirefox, acceptCurl, acceptAgent, "", "text/markdown;q=0", "text/markdown, text/html, */*", "text/html;q=0.5, text/markdown;q=0.5",
		`text/html;a="b,c";q=0.5, */*`, "text/*;q=1.000", "a/b;q=0.", ";;,,", `x/y;p="\"`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, header string) {
		var md, html float64
		for _, r := range ParseAccept(header) {
			if r.Type == "" || r.Subtype == "" || r.Type != strings.ToLower(r.Type) || r.Subtype != strings.ToLower(r.Subtype) {
				t.Fatalf("bad range %+v", r)
			}
			if r.Type == "*" && r.Subtype != "*" {
				t.Fatalf("*/subtype accepted: %+v", r)
			}
			if r.Q < 0 || r.Q > 1 {
				t.Fatalf("q out of range: %+v", r)
			}
			switch {
			case r.Type == "text" && (r.Subtype == "markdown" || r.Subtype == "x-markdown"):
				cs, ok := r.Params["charset"]
				if !ok || strings.EqualFold(cs, "utf-8") || strings.EqualFold(cs, "utf8") {
					md = max(md, r.Q)
				}
			case r.Type == "text" && r.Subtype == "html", r.Type == "application" && r.Subtype == "xhtml+xml":
				html = max(html, r.Q)
			}
		}
		if got := PrefersMarkdown(header); got != (md > 0 && md >= html) {
			t.Fatalf("PrefersMarkdown = %v, but ParseAccept gives markdown %v, html %v", got, md, html)
		}
	})
}

func FuzzDecode(f *testing.F) {
	page := []byte(testPage)
	for _, c := range []string{"gzip", "br", "zstd", "deflate", "rawdeflate"} {
		f.Add(encode(f, page, c), c)
	}
	f.Add(page, "")
	f.Add([]byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff}, "gzip")
	f.Add([]byte{0x78, 0x9c}, "deflate")
	long := repetitive(200 << 10)
	f.Add(zstdLongWindow(f, long, 27), "zstd")
	f.Add(zstdWindow(f, long, maxZstdWindow), "zstd")
	f.Add(encode(f, long, "gzip"), "gzip")
	f.Add(cut(encode(f, long, "br")), "br")
	f.Fuzz(func(t *testing.T, body []byte, coding string) {
		if coding == "rawdeflate" {
			coding = "deflate"
		}
		const limit = 1 << 16
		out, err := Decode(bytes.NewReader(body), coding, limit)
		if len(out) > limit {
			t.Fatalf("decoded %d bytes past the limit %d", len(out), limit)
		}
		if err != nil && errors.Is(err, ErrTooLarge) && out != nil {
			t.Fatal("ErrTooLarge with output")
		}
		if trimOWS(coding) == "" && len(body) <= limit && (err != nil || !bytes.Equal(out, body)) {
			t.Fatalf("identity changed the body: %v", err)
		}
		// Whatever the input, a round trip through gzip gives it back.
		if len(body) <= limit {
			back, err := Decode(bytes.NewReader(encode(t, body, "gzip")), "gzip", limit)
			if err != nil || !bytes.Equal(back, body) {
				t.Fatalf("gzip round trip: %v", err)
			}
		}
	})
}

func FuzzSplitIfNoneMatch(f *testing.F) {
	for _, s := range []string{`"a"`, `"a-md"`, `W/"a-md", "b"`, "*", `"x,y-md", "z"`, `"a-md`, `junk "a-md"`, ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		origin, md := SplitIfNoneMatch(v)
		for _, tag := range md {
			if !strings.HasSuffix(tag, `-md"`) {
				t.Fatalf("markdown tag %q without the suffix", tag)
			}
			if !ETagMatch(v, tag) {
				t.Fatalf("ETagMatch(%q, %q) = false for a listed tag", v, tag)
			}
			if o := originTag(tag); MarkdownETag(o) != tag {
				t.Fatalf("MarkdownETag(originTag(%q)) = %q", tag, MarkdownETag(o))
			}
		}
		if o2, md2 := SplitIfNoneMatch(origin); len(md2) != 0 || o2 != origin {
			t.Fatalf("splitting the origin part again gives %q, %q from %q", o2, md2, origin)
		}
		if hasCtl(origin) && !hasCtl(v) {
			t.Fatalf("control character introduced: %q", origin)
		}
	})
}
