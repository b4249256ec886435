package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"

	"github.com/agentready/caddy-agentready/bench/score"
)

// readabilityModule ships the corpus: Mozilla Readability's test pages, each
// a real page written by others (source.html) with the article text a
// reader-view extractor is expected to keep (expected.html).
const readabilityModule = "codeberg.org/readeck/go-readability/v2"

// pageURL is the address the corpus pages were saved from, as go-readability's
// own tests pass it; relative links resolve against it.
const pageURL = "http://fakehost/test/page.html"

// page is one corpus entry, loaded into memory.
type page struct {
	name     string    // directory name, such as "ars-1"
	path     string    // path of source.html
	html     []byte    // source.html
	expected score.Bag // words of expected.html
	htmlToks int       // o200k tokens of source.html
}

// locateCorpus returns the test-pages directory of the go-readability module
// in the module cache, asking the go command where the module lives.
func locateCorpus() (string, error) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", readabilityModule).Output()
	if err != nil {
		return "", fmt.Errorf("locating %s in the module cache (is it in go.mod?): %w", readabilityModule, err)
	}
	dir := strings.TrimSpace(string(out))
	if dir == "" {
		return "", fmt.Errorf("module %s has no directory; run go mod download", readabilityModule)
	}
	return filepath.Join(dir, "test-pages"), nil
}

// loadCorpus reads every <dir>/<name>/source.html that has an expected.html
// beside it, sorted by name. A name filter keeps only pages whose name
// contains it.
func loadCorpus(dir, filter string, countTokens func([]byte) int) ([]*page, error) {
	sources, err := filepath.Glob(filepath.Join(dir, "*", "source.html"))
	if err != nil {
		return nil, fmt.Errorf("listing corpus %s: %w", dir, err)
	}
	sort.Strings(sources)
	var pages []*page
	for _, src := range sources {
		name := filepath.Base(filepath.Dir(src))
		if filter != "" && !strings.Contains(name, filter) {
			continue
		}
		p, err := loadPage(name, src, countTokens)
		if err != nil {
			return nil, err
		}
		if p != nil {
			pages = append(pages, p)
		}
	}
	if len(pages) == 0 {
		return nil, fmt.Errorf("no pages with source.html and expected.html under %s", dir)
	}
	return pages, nil
}

// loadPage reads one page; it returns nil, nil when the page has no expected
// output to score against.
func loadPage(name, src string, countTokens func([]byte) int) (*page, error) {
	exp, err := os.ReadFile(filepath.Join(filepath.Dir(src), "expected.html"))
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading expected output of %s: %w", name, err)
	}
	body, err := os.ReadFile(src)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", src, err)
	}
	text, err := score.HTMLText(bytes.NewReader(exp))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return &page{
		name:     name,
		path:     src,
		html:     body,
		expected: score.Words(text),
		htmlToks: countTokens(body),
	}, nil
}
