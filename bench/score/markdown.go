package score

import (
	"bytes"
	"html"
	"regexp"
)

// The patterns below remove what a reader of the rendered Markdown does not
// read as words. Each is linear-time (RE2), so hostile input stays bounded.
var (
	// frontMatter is a YAML block at the very start: "---" … "---".
	frontMatter = regexp.MustCompile(`\A\x{FEFF}?---[ \t]*\r?\n(?s:.*?)\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|\z)`)
	// image is ![alt](target "title"); alt text is not text content in HTML
	// either, so it is dropped on both sides.
	image = regexp.MustCompile(`!\[[^\]\n]*\]\((?:[^()\s]|\([^()\s]*\))*(?:\s+(?:"[^"\n]*"|'[^'\n]*'))?\s*\)`)
	// linkTarget is the "(target "title")" after a link text's closing bracket.
	linkTarget = regexp.MustCompile(`\]\(\s*<?(?:[^()\s]|\([^()\s]*\))*>?(?:\s+(?:"[^"\n]*"|'[^'\n]*'|\([^()\n]*\)))?\s*\)`)
	// refDefinition is a link reference definition line: [label]: target.
	refDefinition = regexp.MustCompile(`(?m)^[ \t]{0,3}\[[^\]\n]+\]:[ \t]*\S+.*$`)
	// autolink is <scheme:…>.
	autolink = regexp.MustCompile(`<[A-Za-z][A-Za-z0-9+.\-]{1,31}:[^<>\s]*>`)
	// bareURL is a URL written out in the text (GFM autolink literals, peers
	// that print link targets in parentheses or as footnotes).
	bareURL = regexp.MustCompile(`(?i)\b(?:https?|ftp|mailto|data|tel):[^\s<>()\[\]"'` + "`" + `]+|\bwww\.[^\s<>()\[\]"'` + "`" + `]+`)
	// fenceInfo is the info string of a code fence, such as "go" in ```go.
	fenceInfo = regexp.MustCompile("(?m)^[ \\t]*(?:```+|~~~+)[^\\n]*$")
	// tag is a raw HTML tag or comment left in the Markdown.
	tag = regexp.MustCompile(`<!--(?s:.*?)-->|</?[A-Za-z][A-Za-z0-9\-]*(?:\s[^<>]*)?/?>`)
)

// MarkdownText reduces Markdown to the words a reader sees: it removes a
// leading YAML front matter block, images, link targets and reference
// definitions, autolinks and bare URLs, code-fence info strings and raw HTML
// tags, then decodes character references. Markdown punctuation that is left
// (#, *, |, >, -) is not a word character and falls away in [Words].
func MarkdownText(md []byte) string {
	b := frontMatter.ReplaceAll(md, nil)
	b = image.ReplaceAll(b, nil)
	b = linkTarget.ReplaceAll(b, []byte("]"))
	b = refDefinition.ReplaceAll(b, nil)
	b = autolink.ReplaceAll(b, nil)
	b = bareURL.ReplaceAll(b, nil)
	b = fenceInfo.ReplaceAll(b, nil)
	b = tag.ReplaceAll(b, []byte(" "))
	if bytes.IndexByte(b, '&') >= 0 {
		return html.UnescapeString(string(b))
	}
	return string(b)
}

// DropURLs removes the URLs written out in text, as MarkdownText removes
// them from Markdown. An expected text that keeps the URLs it shows (a
// link whose text is its address, an address in a <pre>) is scored with
// it against MarkdownText's output, which would otherwise count every
// such word as missed whatever the tool kept.
func DropURLs(text string) string { return bareURL.ReplaceAllString(text, "") }
