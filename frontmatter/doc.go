// Package frontmatter reads a page's metadata from its parsed HTML (title,
// description, canonical address, dates, language, author, image, site name)
// and writes it as YAML front matter that always parses back to the same
// values, whatever the strings contain. It is also the one reader of that
// front matter: Parse reads a Markdown document's block back into a Meta,
// Split only finds where the block ends and the body starts.
//
// Every value comes from the page or from its origin response; nothing is
// invented. A field with no source is left empty and omitted from the YAML.
package frontmatter
