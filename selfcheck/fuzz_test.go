package selfcheck

import "testing"

func FuzzFrontMatter(f *testing.F) {
	f.Add([]byte("---\ntitle: x\ncanonical: https://a.test/\n---\n# x"))
	f.Fuzz(func(t *testing.T, b []byte) { frontMatter(b) })
}

func FuzzSecurityTxt(f *testing.F) {
	f.Add([]byte("Contact: mailto:a@b.test\nExpires: 2030-01-01T00:00:00Z\n"))
	f.Fuzz(func(t *testing.T, b []byte) { parseSecurityTxt(b) })
}

func FuzzRedactURL(f *testing.F) {
	f.Add("https://u:p@a.test/x?token=1&q=2#f")
	f.Fuzz(func(t *testing.T, s string) { redactURL(s) })
}
