package main

import (
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/agentready/caddy-agentready/fulltext"
)

func TestTextChunks(t *testing.T) {
	docs := []fulltext.Document{
		{Title: "git stash", Sections: []fulltext.Section{{Heading: "NAME", Text: "stash the changes"}, {Heading: "", Text: "away"}}},
		{Title: "git", Sections: []fulltext.Section{{Heading: "stash", Text: "a b c d e f"}}},
		{Title: "empty"},
	}
	var got []string
	for _, c := range textChunks(docs, 6, 0) {
		got = append(got, c.text)
	}
	want := []string{
		// page 0: title, heading and text
		"git stash NAME stash the changes",
		"git stash away", // the window is full: a new one, the title and the (empty) heading in front
		// page 1: four words fit after "git stash" in a window of 6
		"git stash a b c d",
		"git stash e f",
		// page 2: no text, its title alone
		"empty",
	}
	if !slices.Equal(got, want) {
		t.Errorf("textChunks = %q, want %q", got, want)
	}
	if n := len(textChunks(docs[1:2], 6, 1)); n != 1 {
		t.Errorf("maxPerPage 1: %d chunks, want 1", n)
	}
}

func TestReadVectors(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v.f32")
	raw := make([]byte, 0, 16)
	for _, f := range []float32{3, 4, 0, 2} {
		raw = binary.LittleEndian.AppendUint32(raw, math.Float32bits(f))
	}
	if err := os.WriteFile(path, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := readVectors(path, 2, 2)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got[0], []float32{0.6, 0.8}) || !slices.Equal(got[1], []float32{0, 1}) {
		t.Errorf("readVectors = %v, want unit vectors [0.6 0.8] [0 1]", got)
	}
	if _, err := readVectors(path, 3, 2); err == nil {
		t.Error("readVectors of a short file: no error")
	}
}

func TestReadCache(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, body []byte) {
		if err := os.WriteFile(filepath.Join(dir, name), body, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var vecs []byte
	for _, f := range []float32{1, 0, 0, 1} {
		vecs = binary.LittleEndian.AppendUint32(vecs, math.Float32bits(f))
	}
	write("git-windows-1.jsonl", []byte("\"a\"\n\"b\"\n"))
	write("git-windows-1.f32", vecs)
	write("git-windows-1.json", []byte(`{"texts":2,"embedMs":10}`))
	write("git-windows-2.jsonl", []byte("\"c\"\n")) // unfinished: no vectors
	write("git-questions-1.jsonl", []byte("\"q\"\n"))
	known, stats, err := readCache(dir, "git-windows", 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(known) != 2 || !slices.Equal(known["b"], []float32{0, 1}) {
		t.Errorf("readCache = %v, want a and b", known)
	}
	if len(stats) != 1 || stats[0].Texts != 2 {
		t.Errorf("stats = %+v, want one run of 2 texts", stats)
	}
}
