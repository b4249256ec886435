package convert

import (
	"flag"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode"

	"golang.org/x/net/html"
)

var corpus = flag.Bool("corpus", false, "score the conversion against go-readability's test pages")

// CorpusPage is one page of a test corpus: its source HTML and the text a
// reader is expected to get from it.
type CorpusPage struct {
	Name     string
	Source   []byte
	Expected []byte // HTML of the expected article
}

// loadReadabilityCorpus returns go-readability's test pages
// (test-pages/<name>/source.html and expected.html) from the module cache.
func loadReadabilityCorpus(t testing.TB) []CorpusPage {
	t.Helper()
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "codeberg.org/readeck/go-readability/v2").Output()
	if err != nil {
		t.Skipf("locating go-readability: %v", err)
	}
	dirs, _ := filepath.Glob(filepath.Join(strings.TrimSpace(string(out)), "test-pages", "*"))
	var pages []CorpusPage
	for _, d := range dirs {
		src, err1 := os.ReadFile(filepath.Join(d, "source.html"))
		exp, err2 := os.ReadFile(filepath.Join(d, "expected.html"))
		if err1 != nil || err2 != nil {
			continue
		}
		pages = append(pages, CorpusPage{filepath.Base(d), src, exp})
	}
	if len(pages) == 0 {
		t.Skip("no go-readability test pages in the module cache")
	}
	return pages
}

// TestCorpus reports median word-level recall and precision of the Markdown
// against go-readability's expected articles, and the throughput. It runs
// only with -corpus.
func TestCorpus(t *testing.T) {
	if !*corpus {
		t.Skip("run with -corpus")
	}
	pages := loadReadabilityCorpus(t)
	c := mustNew(t, Options{})
	u, _ := url.Parse("http://fakehost/test/page.html")
	var recalls, precisions, f1s []float64
	var inBytes int
	var elapsed time.Duration
	ways := map[string]int{}
	for _, p := range pages {
		start := time.Now()
		res, err := c.Convert(p.Source, u, nil)
		elapsed += time.Since(start)
		inBytes += len(p.Source)
		if err != nil {
			t.Logf("%-40s error: %v", p.Name, err)
			recalls, precisions, f1s = append(recalls, 0), append(precisions, 0), append(f1s, 0)
			continue
		}
		ways[res.Extraction]++
		if ref := referenceCount(t, string(res.Markdown)); ref != res.Tokens {
			t.Errorf("%s: CountTokens = %d, library says %d", p.Name, res.Tokens, ref)
		}
		want := words(htmlText(p.Expected))
		got := words(markdownText(res.Markdown))
		r, pr := overlap(want, got)
		recalls, precisions = append(recalls, r), append(precisions, pr)
		if r+pr > 0 {
			f1s = append(f1s, 2*r*pr/(r+pr))
		} else {
			f1s = append(f1s, 0)
		}
		if testing.Verbose() {
			t.Logf("%-40s recall %.3f precision %.3f %s", p.Name, r, pr, res.Extraction)
		}
	}
	t.Logf("%d pages: median recall %.3f, median precision %.3f, worst-decile F1 %.3f, %.1f MB/s (wall), extraction %v",
		len(pages), median(recalls), median(precisions), percentile(f1s, 0.1), float64(inBytes)/elapsed.Seconds()/1e6, ways)
}

// htmlText returns the text content of an HTML document.
func htmlText(b []byte) string {
	doc, err := html.Parse(strings.NewReader(string(b)))
	if err != nil {
		return ""
	}
	return textOf(doc)
}

var mdLinkTarget = regexp.MustCompile(`\]\([^)]*\)`)

// markdownText strips link and image targets, which are not words a reader sees.
func markdownText(md []byte) string {
	return mdLinkTarget.ReplaceAllString(string(md), "]")
}

// words returns the multiset of lowercased words in s.
func words(s string) map[string]int {
	m := map[string]int{}
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		m[w]++
	}
	return m
}

// overlap returns recall (share of want found in got) and precision (share
// of got that is in want), on word multisets.
func overlap(want, got map[string]int) (recall, precision float64) {
	common, nw, ng := 0, 0, 0
	for w, n := range want {
		common += min(n, got[w])
		nw += n
	}
	for _, n := range got {
		ng += n
	}
	if nw == 0 || ng == 0 {
		return 0, 0
	}
	return float64(common) / float64(nw), float64(common) / float64(ng)
}

func median(xs []float64) float64 { return percentile(xs, 0.5) }

// percentile returns the value below which the fraction q of xs lies.
func percentile(xs []float64, q float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[int(q*float64(len(s)-1))]
}

// BenchmarkCorpus converts every go-readability test page per iteration
// (MB/s over the whole corpus). It runs only with -corpus.
func BenchmarkCorpus(b *testing.B) {
	if !*corpus {
		b.Skip("run with -corpus")
	}
	pages := loadReadabilityCorpus(b)
	c := mustNew(b, Options{FrontMatter: true})
	u, _ := url.Parse("http://fakehost/test/page.html")
	total := 0
	for _, p := range pages {
		total += len(p.Source)
	}
	CountTokens([]byte("warm up"))
	loopCPU(b, total, func() {
		for _, p := range pages {
			_, _ = c.Convert(p.Source, u, nil)
		}
	})
}
