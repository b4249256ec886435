package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
)

// timingFile is the name, inside a peer's output directory, of the JSON
// object (fields of timing) that bench/peers.sh writes.
const timingFile = "timing.json"

// loadPeers reads the output directories that bench/peers.sh wrote: one
// subdirectory per tool, holding <page>.md for every page it converted and
// timing.json. A page with no output file scores as empty output.
func loadPeers(dir string) ([]*system, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("reading peer outputs: %w", err)
	}
	var systems []*system
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		sys, err := loadPeer(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		systems = append(systems, sys)
	}
	sort.Slice(systems, func(i, j int) bool { return systems[i].name < systems[j].name })
	return systems, nil
}

// loadPeer reads one tool's directory.
func loadPeer(dir string) (*system, error) {
	sys := &system{name: filepath.Base(dir), outputs: map[string][]byte{}}
	files, err := filepath.Glob(filepath.Join(dir, "*.md"))
	if err != nil {
		return nil, fmt.Errorf("listing outputs of %s: %w", sys.name, err)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, fmt.Errorf("reading output of %s: %w", sys.name, err)
		}
		name := filepath.Base(f)
		sys.outputs[name[:len(name)-len(".md")]] = b
	}
	b, err := os.ReadFile(filepath.Join(dir, timingFile))
	if err == nil {
		sys.timing = new(timing)
		if err := json.Unmarshal(b, sys.timing); err != nil {
			return nil, fmt.Errorf("parsing %s of %s: %w", timingFile, sys.name, err)
		}
	} else if !os.IsNotExist(err) {
		return nil, fmt.Errorf("reading %s of %s: %w", timingFile, sys.name, err)
	}
	return sys, nil
}
