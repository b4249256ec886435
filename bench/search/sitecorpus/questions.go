package sitecorpus

import (
	"bufio"
	"bytes"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"strings"

	"golang.org/x/net/html"

	"github.com/agentready/caddy-agentready/frontmatter"
	"github.com/agentready/caddy-agentready/fulltext"
)

// Question is one line of a question file: its id, the question, and the
// URL path of its answer page under the site's prefix.
type Question struct {
	ID, Text, Answer string
}

// ReadQuestions reads id<TAB>question<TAB>path lines; # starts a comment.
func ReadQuestions(name string) ([]Question, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []Question
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		parts := strings.Split(line, "\t")
		if len(parts) != 3 {
			return nil, fmt.Errorf("%s:%d: want id<TAB>question<TAB>path", name, n)
		}
		out = append(out, Question{parts[0], parts[1], parts[2]})
	}
	return out, sc.Err()
}

// ReadSite reads every HTML file under root as the index reads a fetched
// page: its title and description as the front matter states them, its
// text by fulltext.FromHTML, its URL path (prefix plus the file's path).
func ReadSite(root, prefix string) ([]fulltext.Document, error) {
	var out []fulltext.Document
	err := EachHTML(root, func(rel string, raw []byte) error {
		path := prefix + rel
		node, err := html.Parse(bytes.NewReader(raw))
		if err != nil {
			return err
		}
		meta := frontmatter.Extract(node, &url.URL{Scheme: "http", Host: "localhost", Path: path}, http.Header{}, "en")
		_, sections, err := fulltext.FromHTML(bytes.NewReader(raw))
		if err != nil {
			return err
		}
		out = append(out, fulltext.Document{Title: meta.Title, Description: meta.Description, Path: path, Sections: sections})
		return nil
	})
	return out, err
}
