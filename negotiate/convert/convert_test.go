package convert

import (
	"errors"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"
)

var testURL, _ = url.Parse("https://example.com/section/page")

func mustNew(t testing.TB, o Options) *Converter {
	t.Helper()
	c, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestNewRejectsBadSelectors(t *testing.T) {
	tests := []struct {
		name string
		opts Options
		want string
	}{
		{"content", Options{Settings: Settings{ContentSelectors: []string{"main", "div[["}}}, `content_selectors: selector "div[["`},
		{"prune", Options{Settings: Settings{Prune: []string{":nope("}}}, `prune: selector ":nope("`},
		{"keep", Options{Settings: Settings{Keep: []string{"##"}}}, `keep: selector "##"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := New(tt.opts)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("New() error = %v, want it to name %s", err, tt.want)
			}
		})
	}
}

func TestConvertCases(t *testing.T) {
	tests := []struct {
		name    string
		opts    Options
		html    string
		want    string // exact Markdown body
		extract string
	}{
		{
			name:    "content selector beats main",
			opts:    Options{Settings: Settings{ContentSelectors: []string{".missing", ".post"}}},
			html:    `<main><p>main text</p><div class="post"><p>one</p></div><div class="post"><p>two</p></div></main>`,
			want:    "one\n\ntwo\n",
			extract: "selector:.post",
		},
		{
			name:    "selector matching only empty elements falls through",
			opts:    Options{Settings: Settings{ContentSelectors: []string{".post"}}},
			html:    `<div class="post"> </div><main><p>main text</p></main>`,
			want:    "main text\n",
			extract: "landmark:main",
		},
		{
			name:    "a code block is its text: a placeholder in <em><code> is not padded",
			html:    `<main><pre class="synopsis">LOCK [ ONLY ] <em class="replaceable"><code>name</code></em> [ * ]</pre></main>`,
			want:    "```\nLOCK [ ONLY ] name [ * ]\n```\n",
			extract: "landmark:main",
		},
		{
			name:    "a code block's lines in blocks of their own stay lines",
			html:    `<main><pre><code class="language-go"><div>a := 1</div><div>b := <a href="/x">x</a>(a)<br>c()</div></code></pre></main>`,
			want:    "```go\na := 1\nb := x(a)\nc()\n```\n",
			extract: "landmark:main",
		},
		{
			name: "a GFM table cell's paragraphs are its lines, one <br> apart",
			html: `<main><table><thead><tr><th><p>Function</p><p>Description</p></th></tr></thead>` +
				`<tr><td><p><code>cube_dim</code> ( <code>cube</code> ) → <code>integer</code></p> <p>Returns the number of dimensions of the cube.</p></td></tr>` +
				`<tr><td><div>one</div><div>two</div></td></tr></table></main>`,
			want:    "| Function<br />Description |\n|---|\n| `cube_dim` ( `cube` ) → `integer`<br />Returns the number of dimensions of the cube. |\n| one<br />two |\n",
			extract: "landmark:main",
		},
		{
			name: "what a <dl> holds beside its terms stays, in its place (a <dl> never closed holds the rest of the page)",
			html: `<main><p>Codes:</p><p><dl><a name="x"></a><dt>NONE</dt><dd>No transaction.</dd></p>` +
				`<p><dt>READ</dt><dd>A read transaction.</dd></p><hr><h2>Next function</h2><p>Its text.</p></main>`,
			want:    "Codes:\n\n- **NONE**: No transaction.\n- **READ**: A read transaction.\n\n## Next function\n\nIts text.\n",
			extract: "landmark:main",
		},
		{
			name:    "a document's section or heading with id=comments is no comment thread",
			html:    `<main><h2 id="comments"><a class="header" href="#comments">Comments</a></h2><p>Rust ignores them.</p><section id="comments"><h3>Comment syntax</h3><p>A comment starts with a hash.</p></section></main>`,
			want:    "## [Comments](https://example.com/section/page#comments)\n\nRust ignores them.\n\n### Comment syntax\n\nA comment starts with a hash.\n",
			extract: "landmark:main",
		},
		{
			name:    "a blog's comments section with its load button is a comment thread",
			html:    `<main><p>The story of the tide tables, which the harbour drew by hand for a century.</p><section id="comments"><h2>Comments</h2><p>Reply on Mastodon.</p><p><button id="load-comment">Load comments</button></p></section></main>`,
			want:    "The story of the tide tables, which the harbour drew by hand for a century.\n",
			extract: "landmark:main",
		},
		{
			name:    "table caption comes before the table",
			html:    `<main><table><caption>Sizes <a href="javascript:x()">(help)</a></caption><tr><th>a</th></tr><tr><td>1</td></tr></table></main>`,
			want:    "Sizes (help)\n\n| a |\n|---|\n| 1 |\n",
			extract: "landmark:main",
		},
		{
			name:    "menus, toolbars and dialogs are pruned",
			html:    `<main><p>text</p><ul role="menu"><li>Captions off</li></ul><div role="toolbar"><button>Bold</button></div><div role="dialog"><p>Subscribe?</p></div></main>`,
			want:    "text\n",
			extract: "landmark:main",
		},
		{
			name: "a form reads as its labels and choices",
			html: `<main><form><label for="n">Name</label><input id="n"><label>Topic</label>` +
				`<select><option>Sales</option><optgroup label="Help"><option> Widgets </option></optgroup><option></option></select>` +
				`<select><option></option></select><button>Send</button></form><select><option>English</option></select></main>`,
			want:    "Name\n\nTopic\n\nSales, Widgets\n\nSend\n",
			extract: "landmark:main",
		},
		{
			name:    "hidden main skipped",
			html:    `<main hidden><p>old</p></main><main><p>new</p></main>`,
			want:    "new\n",
			extract: "landmark:main",
		},
		{
			name:    "several articles: body",
			html:    `<article><p>a</p></article><article><p>b</p></article>`,
			want:    "a\n\nb\n",
			extract: "body",
		},
		{
			name:    "nested article counts once",
			html:    `<article><p>a</p><article><p>comment</p></article></article>`,
			want:    "a\n\ncomment\n",
			extract: "landmark:article",
		},
		{
			name: "default prune",
			html: `<main><nav>menu</nav><p>text</p><div aria-hidden="true">icon</div><div hidden>x</div>
<div style="display: none">y</div><div class="cookie-consent">cookies</div><aside>side</aside><footer>foot</footer>
<dialog>modal</dialog><dialog open>open dialog</dialog></main>`,
			want:    "text\n\nopen dialog\n",
			extract: "landmark:main",
		},
		{
			name: "headings hidden from view go, a hidden h1 and hidden text stay",
			html: `<main><h1 class="sr-only">Acme tools</h1><h2 class="sr-only">Filter controls</h2><p>text</p>
<h3 class="visually-hidden">Results list</h3><p>Price: <span class="sr-only">Sale price</span> $5</p>
<h2 class="screen-reader-text" id="footnote-label">Footnotes</h2><h4 class="show-for-sr">Park footer</h4><h2>Seen</h2></main>`,
			want:    "# Acme tools\n\ntext\n\nPrice: Sale price $5\n\n## Seen\n",
			extract: "landmark:main",
		},
		{
			name: "Webflow's elements hidden by a CMS condition go",
			html: `<main><h1>Oak table</h1><div class="w-dyn-item"><p>Solid oak, oiled.</p>
<div class="badge w-condition-invisible">Sold out</div><p class="w-condition-invisible">No reviews yet</p><p>$450</p></div></main>`,
			want:    "# Oak table\n\nSolid oak, oiled.\n\n$450\n",
			extract: "landmark:main",
		},
		{
			name: "a page declared an article is refined though readability finds it short",
			html: `<head><meta property="og:type" content="article"></head><main><h1>Tide log</h1>
<p>The tide rose twice on Thursday evening, the second surge higher than the first, and the fish market on the quay was flooded before the crews came in.</p>
<p>The harbour master has kept the tide log for twenty-two years and never saw a second surge arrive forty minutes after high water on this coast before.</p>
<p>Oceanographers at the university think a fast band of low pressure pushed a long wave into the bay just as the tide turned, a rare but known event.</p>
<p>The last such wave was recorded in 1978, when it was mistaken for an error in the tables and left out of the harbour's official record of the year.</p>
<p>The council has asked for a siren that sounds when the water rises faster than ten centimetres in five minutes, whatever the printed table says.</p>
<p>Fishermen say they will moor further up the river until the siren is in place, and the market will open an hour later on the days of spring tides.</p>
<div class="sidebar"><ul><li><a href="/a">Boats return</a></li><li><a href="/b">Quay repairs to start in the spring</a></li>
<li><a href="/c">The fish market reopens</a></li></ul><button>Load more</button></div></main>`,
			want:    "# Tide log\n\nThe tide rose twice on Thursday evening, the second surge higher than the first, and the fish market on the quay was flooded before the crews came in.\n\nThe harbour master has kept the tide log for twenty-two years and never saw a second surge arrive forty minutes after high water on this coast before.\n\nOceanographers at the university think a fast band of low pressure pushed a long wave into the bay just as the tide turned, a rare but known event.\n\nThe last such wave was recorded in 1978, when it was mistaken for an error in the tables and left out of the harbour's official record of the year.\n\nThe council has asked for a siren that sounds when the water rises faster than ten centimetres in five minutes, whatever the printed table says.\n\nFishermen say they will moor further up the river until the siren is in place, and the market will open an hour later on the days of spring tides.\n",
			extract: "landmark:main+pruned",
		},
		{
			name:    "empty prune list prunes nothing",
			opts:    Options{Settings: Settings{PruneDefaults: Bool(false)}},
			html:    `<main><nav>menu</nav><p>text</p></main>`,
			want:    "menu\n\ntext\n",
			extract: "landmark:main",
		},
		{
			name:    "keep inside a pruned element survives, the rest of it does not",
			opts:    Options{Settings: Settings{Keep: []string{".legal"}}},
			html:    `<main><p>text</p><footer><a href="/x">links</a><div><p class="legal">Prices include VAT.</p></div></footer></main>`,
			want:    "text\n\nPrices include VAT.\n",
			extract: "landmark:main",
		},
		{
			name:    "keep outside the content is appended",
			opts:    Options{Settings: Settings{Keep: []string{"#notice"}}},
			html:    `<header><p id="notice">Service notice</p></header><main><p>text</p></main>`,
			want:    "text\n\nService notice\n",
			extract: "landmark:main",
		},
		{
			name: "definition list",
			html: `<dl><dt>Term</dt><dd>Definition</dd><dd>Second</dd><dt>Lonely</dt></dl>`,
			want: "- **Term**: Definition; Second\n- **Lonely**\n",
		},
		{
			name: "definition list with div groups",
			html: `<dl><div><dt>A</dt><dd>1</dd></div><div><dt>B</dt><dd>2</dd></div></dl>`,
			want: "- **A**: 1\n- **B**: 2\n",
		},
		{
			name: "table: section row written once, spanned data cell mirrored",
			html: `<table><tr><th>A</th><th>B</th><th>C</th></tr><tr><th colspan="3">Section</th></tr><tr><td>1</td><td colspan="2">wide</td></tr></table>`,
			want: "| A | B | C |\n|---|---|---|\n| Section |  |  |\n| 1 | wide | wide |\n",
		},
		{
			name: "table without header row gets the first row as header",
			html: `<table><tr><td>k</td><td>v</td></tr><tr><td>a|b</td><td><a href="/x">x</a></td></tr></table>`,
			want: "| k | v |\n|---|---|\n| a\\|b | [x](https://example.com/x) |\n",
		},
		{
			name: "code language from wrappers and attributes",
			html: `<div class="highlight highlight-source-rust"><pre>fn main() {}</pre></div><pre><code class="hljs lang-ts">let x = 1</code></pre><pre class="language-none">plain</pre>`,
			want: "```rust\nfn main() {}\n```\n\n```ts\nlet x = 1\n```\n\n```\nplain\n```\n",
		},
		{
			name: "adjacent lists leave no comment",
			html: `<ul><li>a</li></ul><ul><li>b</li></ul>`,
			want: "- a\n\n- b\n",
		},
		{
			name: "images without alt kept when configured",
			opts: Options{Settings: Settings{KeepImagesWithoutAlt: true}},
			html: `<p><img src="a.png"></p>`,
			want: "![](https://example.com/section/a.png)\n",
		},
		{
			name: "heading levels kept",
			html: `<h1>A</h1><h3>C</h3><h2>B</h2><h6>F</h6>`,
			want: "# A\n\n### C\n\n## B\n\n###### F\n",
		},
		{
			name: "hard break kept, whitespace normalised",
			html: `<p>line one<br>line two   </p><p></p><p></p><p>next&nbsp;&nbsp;</p>`,
			want: "line one  \nline two\n\nnext\n",
		},
		{
			name: "markdown-looking text escaped",
			html: `<p># not a heading</p><p>*not emphasis*</p><p>&lt;!-- not a comment --&gt;</p>`,
			want: "\\# not a heading\n\n\\*not emphasis*\n\n&lt;!-- not a comment -->\n",
		},
		{
			// a bare ">" or "<" where it cannot be syntax; the reference
			// stays where it could open a quote, raw HTML or an autolink
			name: "angle brackets literal where safe",
			html: `<p>a &lt; b &gt; c, &lt;&lt;&lt; &lt;3</p><p>&gt; not a quote</p><p>x &lt;div&gt; &lt;https://a.example&gt;</p><p><a href="/n">[&gt;&gt;&gt;]</a></p>`,
			want: "a < b > c, <<< <3\n\n&gt; not a quote\n\nx &lt;div> &lt;https://a.example>\n\n[\\[>>>\\]](https://example.com/n)\n",
		},
		{
			name: "script and data URLs dropped from links and images",
			html: `<p><a href="javascript:go()">a</a> <a href=" JAVA&#9;SCRIPT:go()">b</a> <a href="vbscript:x">c</a> <a href="data:text/html,x">d</a> <img src="javascript:x" alt="e"> <img src="data:image/gif;base64,R0" alt="f"></p>`,
			want: "a b c d e f\n",
		},
		{
			name: "template and noscript dropped",
			html: `<p>a</p><template><p>tpl</p></template><noscript><p>ns</p></noscript><style>p{}</style>`,
			want: "a\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := mustNew(t, tt.opts)
			res, err := c.Convert([]byte(tt.html), testURL, nil)
			if err != nil {
				t.Fatal(err)
			}
			if string(res.Markdown) != tt.want {
				t.Errorf("Markdown =\n%q\nwant\n%q", res.Markdown, tt.want)
			}
			if tt.extract != "" && res.Extraction != tt.extract {
				t.Errorf("Extraction = %q, want %q", res.Extraction, tt.extract)
			}
		})
	}
}

func TestConvertFrontMatterAndTokens(t *testing.T) {
	c := mustNew(t, Options{FrontMatter: true, Settings: Settings{DefaultLanguage: "en"}})
	res, err := c.Convert([]byte(`<title>T: "x"</title><main><h1>T</h1><p>Hello world.</p></main>`), testURL,
		http.Header{"Last-Modified": {"Tue, 15 Sep 2026 08:00:00 GMT"}})
	if err != nil {
		t.Fatal(err)
	}
	want := "---\ntitle: \"T: \\\"x\\\"\"\ncanonical: https://example.com/section/page\nupdated: 2026-09-15\nlanguage: en\n---\n# T\n\nHello world.\n"
	if string(res.Markdown) != want {
		t.Errorf("Markdown =\n%s\nwant\n%s", res.Markdown, want)
	}
	if res.Tokens != CountTokens(res.Markdown) || res.Tokens < 20 || res.Tokens > 60 {
		t.Errorf("Tokens = %d, CountTokens = %d", res.Tokens, CountTokens(res.Markdown))
	}
}

func TestConvertBadInput(t *testing.T) {
	c := mustNew(t, Options{FrontMatter: true})
	deep := strings.Repeat("<div>", 10000) + "text" + strings.Repeat("</div>", 10000)
	deepSpans := strings.Repeat("<span>", 10000) + "text"
	tests := []struct {
		name    string
		html    string
		wantErr error // nil: must succeed
		anyErr  bool  // an error is acceptable
	}{
		{"empty", "", nil, false},
		{"no body text", "<html><head><title>x</title></head><body> </body></html>", nil, false},
		{"only scripts", "<script>render()</script><div id=app></div>", ErrNoContent, false},
		{"10000 nested divs", deep, ErrTooDeep, false},
		{"10000 nested spans", deepSpans, ErrTooDeep, false},
		{"invalid utf-8", "<p>caf\xe9 \xff\xfe ok</p>", nil, false},
		{"binary garbage", string([]byte{0, 1, 2, 0xff, '<', 0x80, '>', 0, 'x'}), nil, true},
		{"unclosed everything", "<table><tr><td><ul><li><p><b><i>text", nil, false},
		{"1 MB code block of blank lines", "<pre>x" + strings.Repeat(" \n", 1<<19) + "y</pre>", nil, false},
		{"1 MB word", "<p>" + strings.Repeat("ab", 1<<19) + "</p>", nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := c.Convert([]byte(tt.html), testURL, nil)
			switch {
			case tt.wantErr != nil:
				if !errors.Is(err, tt.wantErr) {
					t.Fatalf("err = %v, want %v", err, tt.wantErr)
				}
			case err != nil && !tt.anyErr:
				t.Fatalf("err = %v", err)
			case err == nil:
				if !strings.HasPrefix(string(res.Markdown), "---\n") {
					t.Errorf("no front matter: %q", res.Markdown)
				}
				if !isValidUTF8(res.Markdown) {
					t.Errorf("invalid UTF-8 output: %q", res.Markdown)
				}
			}
		})
	}
}

func TestConvertBigTable(t *testing.T) {
	var b strings.Builder
	b.WriteString("<main><table><tr><th>id</th><th>name</th><th>price</th></tr>")
	for i := 0; b.Len() < 2<<20; i++ {
		b.WriteString("<tr><td>")
		b.WriteString(strings.Repeat("7", i%9+1))
		b.WriteString("</td><td>Widget number ")
		b.WriteString(strings.Repeat("x", i%40))
		b.WriteString("</td><td>$9.99</td></tr>")
	}
	b.WriteString("</table></main>")
	c := mustNew(t, Options{})
	res, err := c.Convert([]byte(b.String()), testURL, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(res.Markdown), "| id | name | price |\n|---|---|---|\n| 7 | Widget number | $9.99 |\n") {
		t.Errorf("unexpected table start: %.200q", res.Markdown)
	}
	if len(res.Markdown) > b.Len() {
		t.Errorf("Markdown (%d bytes) larger than the HTML (%d bytes)", len(res.Markdown), b.Len())
	}
}

func TestConvertConcurrent(t *testing.T) {
	c := mustNew(t, Options{FrontMatter: true, Settings: Settings{ContentSelectors: []string{".post"}}})
	page := []byte(`<nav>x</nav><div class="post"><h1>T</h1><p>body <a href="/a">a</a></p><table><tr><td>1</td></tr></table></div>`)
	first, err := c.Convert(page, testURL, nil)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 20 {
				res, err := c.Convert(page, testURL, nil)
				if err != nil || string(res.Markdown) != string(first.Markdown) {
					t.Errorf("concurrent Convert differs: %v %q", err, res.Markdown)
					return
				}
			}
		})
	}
	wg.Wait()
}

func isValidUTF8(b []byte) bool { return strings.ToValidUTF8(string(b), "?") == string(b) }

func TestOptionsHash(t *testing.T) {
	a := Options{}.Hash()
	if b := (Options{Settings: Settings{PruneDefaults: Bool(true), Prune: nil}}).Hash(); a != b {
		t.Errorf("the defaults spelled out hash differently: %s %s", a, b)
	}
	// prune off with the default list given explicitly keeps the header
	// lines, contents lists and credits the default pruning removes
	if b := (Options{Settings: Settings{PruneDefaults: Bool(false), Prune: DefaultPrune()}}).Hash(); a == b {
		t.Error("prune off with the default list hashes like the default prune")
	}
	if b := (Options{Settings: Settings{PruneDefaults: Bool(false)}}).Hash(); a == b {
		t.Error("no prune hashes like the default prune")
	}
	if b := (Options{FrontMatter: true}).Hash(); a == b {
		t.Error("FrontMatter does not change the hash")
	}
}

func TestConvertWithoutPageURL(t *testing.T) {
	c := mustNew(t, Options{FrontMatter: true})
	for _, name := range []string{"no-landmarks", "relative-links", "article-chrome"} {
		in, err := os.ReadFile("testdata/golden/" + name + ".html")
		if err != nil {
			t.Fatal(err)
		}
		res, err := c.Convert(in, nil, nil)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if strings.Contains(string(res.Markdown), "canonical:") && name != "article-chrome" {
			t.Errorf("%s: canonical invented without a page URL:\n%s", name, res.Markdown)
		}
	}
}
