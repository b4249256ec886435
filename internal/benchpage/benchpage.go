// Package benchpage is the article content the benchmarks are made of (the
// proxy's pages, the rewriter's and the negotiation's benchmarks): one
// definition, so that the pages they call "the same shape" are.
package benchpage

import "fmt"

// Section is the i-th numbered block of an article: a heading, a paragraph
// with links and inline marks, a list, a table and a code block.
func Section(i int) string {
	return fmt.Sprintf(`<section id="s%[1]d">
<h2>Section %[1]d: widgets at scale</h2>
<p>Widget %[1]d renders on every page that embeds it. Read the <a href="/docs/getting-started#s%[1]d">setup guide</a>
or the <a href="/pricing">pricing</a> before you <strong>deploy</strong> it; the <em>status</em> widget polls once a minute.</p>
<ul><li>Status: operational</li><li>Bookings: %[1]d this week</li><li>Feedback: <code>POST /v1/feedback</code></li></ul>
<table><thead><tr><th>Plan</th><th>Widgets</th><th>Price</th></tr></thead>
<tbody><tr><td>Starter</td><td>%[1]d</td><td>$9</td></tr><tr><td>Team</td><td>%[2]d</td><td>$49</td></tr></tbody></table>
<pre><code class="language-sh">curl -H 'Accept: text/markdown' https://acme.example/widgets/%[1]d</code></pre>
</section>
`, i, i*10)
}

// Article is a page of size bytes (about): a short head, then sections
// dense with tags (Section) and no form. Its sections differ by their
// numbers only, so how hard it is compressed shows in its size.
func Article(size int) []byte {
	b := []byte("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>Bench</title>\n" +
		"<link rel=\"canonical\" href=\"/bench\">\n</head>\n<body>\n<nav><a href=\"/\">Home</a> <a href=\"/pricing\">Pricing</a></nav>\n<main>\n")
	for i := 0; len(b) < size; i++ {
		b = append(b, Section(i)...)
	}
	return append(b, "</main>\n<footer><p>© Acme Widgets</p></footer>\n</body>\n</html>\n"...)
}
