package convert

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// cpuTime returns the CPU time the process has used (user + system, all
// threads, so garbage collection counts too).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// loopCPU runs the benchmark loop and reports "cpu-MB/s": bytes per second
// of CPU time, which stays meaningful on a machine shared with other work
// (wall-clock MB/s then understates the pipeline's speed).
func loopCPU(b *testing.B, bytesPerOp int, op func()) {
	b.SetBytes(int64(bytesPerOp))
	b.ReportAllocs()
	start, n := cpuTime(), 0
	for b.Loop() {
		op()
		n++
	}
	if used := cpuTime() - start; used > 0 && n > 0 {
		b.ReportMetric(float64(bytesPerOp)*float64(n)/used.Seconds()/1e6, "cpu-MB/s")
	}
}

// BenchmarkConvert runs the whole pipeline (parse, extract, convert, front
// matter, token count) on each golden page and on a large synthetic article;
// MB/s is HTML bytes in per second.
func BenchmarkConvert(b *testing.B) {
	c, err := New(Options{FrontMatter: true})
	if err != nil {
		b.Fatal(err)
	}
	pages, _ := filepath.Glob("testdata/golden/*.html")
	inputs := map[string][]byte{"large-article": largeArticle()}
	for _, p := range pages {
		in, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		inputs[strings.TrimSuffix(filepath.Base(p), ".html")] = in
	}
	CountTokens([]byte("warm up the tokenizer"))
	for name, in := range inputs {
		b.Run(name, func(b *testing.B) {
			loopCPU(b, len(in), func() { _, _ = c.Convert(in, testURL, nil) })
		})
	}
}

// largeArticle returns a ~1 MB page shaped like a real one: head, chrome,
// a long <main> with paragraphs, lists, tables and code.
func largeArticle() []byte {
	var b bytes.Buffer
	b.WriteString(`<!DOCTYPE html><html lang="en"><head><title>Big page | Site</title>
<meta name="description" content="d"><link rel="stylesheet" href="/s.css"><script>var x = 1;</script></head>
<body><header><nav><ul><li><a href="/">Home</a></li><li><a href="/docs">Docs</a></li></ul></nav></header><main>`)
	for i := 0; b.Len() < 1<<20; i++ {
		b.WriteString(`<section><h2 id="s">Section heading</h2><p>Lorem ipsum dolor sit amet, <a href="/link/page">consectetur</a> adipiscing elit,
sed do <em>eiusmod</em> tempor incididunt ut labore et <strong>dolore magna</strong> aliqua. Ut enim ad minim veniam, quis nostrud
exercitation ullamco laboris nisi ut aliquip ex ea commodo consequat.</p><ul><li>First item</li><li>Second <code>item</code></li></ul>
<table><tr><th>Key</th><th>Value</th></tr><tr><td>a</td><td>1</td></tr><tr><td>b</td><td>2</td></tr></table>
<pre><code class="language-go">func main() {
	fmt.Println("hello")
}</code></pre><div class="share-buttons"><a href="#">Share</a></div></section>`)
	}
	b.WriteString(`</main><footer><p>Footer</p></footer></body></html>`)
	return b.Bytes()
}

// BenchmarkCountTokens measures the o200k_base count over Markdown.
func BenchmarkCountTokens(b *testing.B) {
	md := bytes.Repeat([]byte("## Section\n\nLorem ipsum dolor sit amet, [consectetur](https://example.com/link/page) adipiscing elit, *eiusmod* **dolore**.\n\n- First item\n- Second `item`\n\n| Key | Value |\n|---|---|\n| a | 1 |\n\n```go\nfunc main() {}\n```\n\n"), 2000)
	CountTokens(md)
	loopCPU(b, len(md), func() { CountTokens(md) })
}

func TestCountTokens(t *testing.T) {
	// Reference counts from tiktoken's o200k_base.
	tests := map[string]int{
		"":              0,
		"hello world":   2,
		"Hello, world!": 4,
	}
	for in, want := range tests {
		if got := CountTokens([]byte(in)); got != want {
			t.Errorf("CountTokens(%q) = %d, want %d", in, got, want)
		}
	}
}
