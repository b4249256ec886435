package manifest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSourceLoad(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "site.yaml")
	if err := os.WriteFile(file, []byte("site:\n  name: From File\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		src  Source
		want string // site name, or the error's text
	}{
		{"file", Source{Config: file}, "From File"},
		{"inline", Source{SiteYAML: "site:\n  name: Inline\n"}, "Inline"},
		{"neither", Source{}, ""},
		{"both", Source{Config: file, SiteYAML: "site: {}\n"}, "config and site_yaml are mutually exclusive"},
		{"missing", Source{Config: filepath.Join(dir, "none.yaml")}, "reading site config"},
	} {
		s, err := tc.src.Load()
		got := ""
		if err != nil {
			got = err.Error()
		} else {
			got = s.Info.Name
		}
		if !strings.Contains(got, tc.want) || (tc.want == "" && got != "") {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
	if d := (Source{Config: file}).Dir(); d != dir {
		t.Errorf("Dir %q, want %q", d, dir)
	}
}
