package negotiate

import (
	"net/http"
	"reflect"
	"testing"
)

func TestAddVary(t *testing.T) {
	for _, tc := range []struct {
		name string
		have []string
		want []string
	}{
		{"none", nil, []string{"Accept"}},
		{"merged", []string{"Accept-Encoding"}, []string{"Accept-Encoding", "Accept"}},
		{"already", []string{"accept-encoding, ACCEPT"}, []string{"accept-encoding, ACCEPT"}},
		{"on a later line", []string{"Origin", "Accept"}, []string{"Origin", "Accept"}},
		{"star", []string{"*"}, []string{"*"}},
		{"star in list", []string{"Origin, *"}, []string{"Origin, *"}},
		{"prefix is not a match", []string{"Accept-Language"}, []string{"Accept-Language", "Accept"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := http.Header{}
			if tc.have != nil {
				h["Vary"] = append([]string(nil), tc.have...)
			}
			AddVary(h, "Accept")
			if got := h["Vary"]; !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Vary = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestMarkdownETag(t *testing.T) {
	for in, want := range map[string]string{
		`"abc"`:    `"abc-md"`,
		`W/"abc"`:  `W/"abc-md"`,
		` "abc" `:  `"abc-md"`,
		`""`:       `"-md"`,
		"":         "",
		"abc":      "",
		`"a"b"`:    "",
		`W/abc`:    "",
		`"a b"`:    "",
		`"abc-md"`: `"abc-md-md"`,
	} {
		if got := MarkdownETag(in); got != want {
			t.Errorf("MarkdownETag(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestAppendMarkdownETag holds appendMarkdownETag, which the Markdown
// form's headers write their tag with, to MarkdownETag, after what dst
// held.
func TestAppendMarkdownETag(t *testing.T) {
	for _, in := range []string{`"abc"`, `W/"abc"`, ` "abc" `, `""`, "", "abc", `"a"b"`, `W/abc`, `"a b"`, `"abc-md"`, "W/\"\x7f\""} {
		got, ok := appendMarkdownETag([]byte("12"), in)
		want := MarkdownETag(in)
		if string(got) != "12"+want || ok != (want != "") {
			t.Errorf("appendMarkdownETag(%q) = %q, %v; MarkdownETag = %q", in, got, ok, want)
		}
	}
}

func TestSplitIfNoneMatch(t *testing.T) {
	for _, tc := range []struct {
		name, in   string
		wantOrigin string
		wantMD     []string
	}{
		{"empty", "", "", nil},
		{"origin only", `"a"`, `"a"`, nil},
		{"markdown only", `"a-md"`, "", []string{`"a-md"`}},
		{"weak markdown", `W/"a-md"`, "", []string{`W/"a-md"`}},
		{"mixed", `"a", W/"b-md", "c"`, `"a", "c"`, []string{`W/"b-md"`}},
		{"star stays with origin", `*`, `*`, nil},
		{"quoted comma", `"x,y-md", "z"`, `"z"`, []string{`"x,y-md"`}},
		{"suffix inside tag", `"a-md-x"`, `"a-md-x"`, nil},
		{"other suffix", `"a-gzip"`, `"a-gzip"`, nil},
		{"unterminated", `"a-md`, `"a-md`, nil},
		{"garbage after tag", `"a-md" junk, "b"`, `junk, "b"`, []string{`"a-md"`}},
		{"no spaces", `"a","b-md"`, `"a"`, []string{`"b-md"`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			origin, md := SplitIfNoneMatch(tc.in)
			if origin != tc.wantOrigin || !reflect.DeepEqual(md, tc.wantMD) {
				t.Errorf("SplitIfNoneMatch(%q) = %q, %q; want %q, %q", tc.in, origin, md, tc.wantOrigin, tc.wantMD)
			}
		})
	}
}

func TestETagMatch(t *testing.T) {
	for _, tc := range []struct {
		inm, etag string
		want      bool
	}{
		{`"a"`, `"a"`, true},
		{`W/"a"`, `"a"`, true},
		{`"a"`, `W/"a"`, true},
		{`"b", "a"`, `"a"`, true},
		{`"b"`, `"a"`, false},
		{`*`, `"a"`, true},
		{`*`, "", true},
		{`"a"`, "", false},
		{"", `"a"`, false},
		{`"a-md"`, `"a"`, false},
		{`"a"`, `"a-md"`, false},
		{`"a`, `"a"`, false},
		{`"x,y"`, `"x,y"`, true},
	} {
		if got := ETagMatch(tc.inm, tc.etag); got != tc.want {
			t.Errorf("ETagMatch(%q, %q) = %v, want %v", tc.inm, tc.etag, got, tc.want)
		}
	}
}

func TestLinkValue(t *testing.T) {
	for _, tc := range []struct {
		target, rel, typ, want string
	}{
		{"/llms.txt", "describedby", "text/plain", `</llms.txt>; rel="describedby"; type="text/plain"`},
		{"/agents.json", "alternate", "application/json", `</agents.json>; rel="alternate"; type="application/json"`},
		{"/a b?x=1&y=ü#f", "alternate", "", `</a%20b?x=1&y=%C3%BC#f>; rel="alternate"`},
		{"/x>\r\nSet-Cookie: a=b", "alternate", "text/markdown", `</x%3E%0D%0ASet-Cookie:%20a=b>; rel="alternate"; type="text/markdown"`},
		{"/x", "a\"b\r\n", `t\y`, `</x>; rel="a\"b"; type="t\\y"`},
		{"/already%20escaped", "alternate", "", `</already%20escaped>; rel="alternate"`},
	} {
		got := LinkValue(tc.target, tc.rel, tc.typ)
		if got != tc.want {
			t.Errorf("LinkValue(%q, %q, %q) = %q, want %q", tc.target, tc.rel, tc.typ, got, tc.want)
		}
		if hasCtl(got) {
			t.Errorf("LinkValue(%q) holds a control character: %q", tc.target, got)
		}
	}
}

func TestMakePrivate(t *testing.T) {
	for in, want := range map[string]string{
		"":                                 "private",
		"public, max-age=600":              "max-age=600, private",
		"max-age=60, s-maxage=600":         "max-age=60, private",
		"private":                          "private",
		`no-cache="Set-Cookie", max-age=1`: `no-cache="Set-Cookie", max-age=1, private`,
	} {
		if got := makePrivate(in); got != want {
			t.Errorf("makePrivate(%q) = %q, want %q", in, got, want)
		}
	}
}
