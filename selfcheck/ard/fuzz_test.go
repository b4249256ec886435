package ard

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func FuzzValidate(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "ard-examples", "*.json"))
	for _, name := range files {
		if b, err := os.ReadFile(name); err == nil {
			f.Add(b)
		}
	}
	for _, s := range []string{`{ invalid`, `null`, `"x"`, `{"entries":[null,1,"a",[],{}]}`,
		`{"entries":[{"type":"text/markdown; profile=\"a\\\"b\""}],"collections":1}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		r := Validate(raw)
		for _, fs := range [][]Finding{r.Errors, r.Warnings, r.Infos} {
			for _, x := range fs {
				if x.Element == "" || x.Message == "" {
					t.Fatalf("empty finding %+v", x)
				}
			}
		}
	})
}

func FuzzParseAgentmap(f *testing.F) {
	f.Add("User-agent: *\nAgentmap: /ard.json\n")
	f.Add("agentmap:\r\n\u2028https://x.example/a")
	f.Fuzz(func(t *testing.T, robots string) {
		if got := ParseAgentmap(robots, pageURL); got != "" && !strings.Contains(got, ":") {
			t.Fatalf("not absolute: %q", got)
		}
	})
}

func FuzzParseLinkHeader(f *testing.F) {
	f.Add(`<https://example.com/a.json>; rel="ard", </l.json>; rel=ai-catalog`)
	f.Add(`<a>;rel="\`)
	f.Add(`<<>>;;;rel=,,"`)
	f.Fuzz(func(t *testing.T, v string) {
		ard, legacy := ParseLinkHeader([]string{v, v}, pageURL)
		for _, u := range []string{ard, legacy} {
			if u != "" && !strings.Contains(u, ":") {
				t.Fatalf("not absolute: %q", u)
			}
		}
	})
}

func BenchmarkValidate(b *testing.B) {
	raw, err := os.ReadFile(filepath.Join("testdata", "ard-examples", "local-business_local-business-catalog.json"))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		Validate(raw)
	}
}

func BenchmarkValidateLongMediaType(b *testing.B) {
	raw := longInvalidManifest()
	for b.Loop() {
		Validate(raw)
	}
}
