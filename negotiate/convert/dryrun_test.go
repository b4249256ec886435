package convert

import "testing"

func TestDryRun(t *testing.T) {
	c, err := New(Options{FrontMatter: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.DryRun(); err != nil {
		t.Fatalf("DryRun of the default converter: %v", err)
	}
}
