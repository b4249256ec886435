package main

import "net/http"

// Accept headers of the two audiences.
const (
	// browserAccept is what Chromium and Firefox send for a navigation.
	browserAccept = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8"
	// markdownAccept is what an agent asking for Markdown sends.
	markdownAccept = "text/markdown"
)

// accept returns a header with only Accept set.
func accept(v string) http.Header {
	return http.Header{"Accept": {v}}
}

// soakMix is the soak run's workload: browsers' HTML, agents' Markdown
// (cached, through the /md suffix, and one cold page in twelve by a unique
// query), the generated documents, and revalidations answered 304.
func soakMix() []request {
	html, md := accept(browserAccept), accept(markdownAccept)
	return []request{
		{Name: "html /pricing", Path: "/pricing", Header: html, Want: 200, Weight: 5},
		{Name: "html /docs/getting-started", Path: "/docs/getting-started", Header: html, Want: 200, Weight: 3},
		{Name: "html /big.html (2 MB)", Path: "/big.html", Header: html, Want: 200, Weight: 1},
		{Name: "md /pricing (warm)", Path: "/pricing", Header: md, Want: 200, Weight: 3},
		{Name: "md /blog/… (warm)", Path: "/blog/why-agents-read-markdown", Header: md, Want: 200, Weight: 2},
		{Name: "md /pricing/md (suffix)", Path: "/pricing/md", Want: 200, Weight: 1},
		{Name: "md /docs/…?n (cold)", Path: "/docs/getting-started?n={n}", Header: md, Want: 200, Weight: 2},
		{Name: "md /big.html (2 MB, warm)", Path: "/big.html", Header: md, Want: 200, Weight: 1},
		{Name: "/llms.txt", Path: "/llms.txt", Want: 200, Weight: 2},
		{Name: "/.well-known/agents.json", Path: "/.well-known/agents.json", Want: 200, Weight: 1},
		{Name: "/.well-known/ard.json", Path: "/.well-known/ard.json", Want: 200, Weight: 1},
		{Name: "/robots.txt", Path: "/robots.txt", Want: 200, Weight: 1},
		{Name: "/sitemap.xml", Path: "/sitemap.xml", Want: 200, Weight: 1},
		{Name: "304 html /pricing", Path: "/pricing", Header: html, Want: 304, Revalidate: true, Weight: 2},
		{Name: "304 md /pricing", Path: "/pricing", Header: md, Want: 304, Revalidate: true, Weight: 2},
		{Name: "304 /llms.txt", Path: "/llms.txt", Want: 304, Revalidate: true, Weight: 1},
	}
}

// memoryPhases are the memory run's workloads, each run with every worker
// busy: Markdown of distinct 2 MB pages (each conversion cold), then a
// 50 MB page and a gzip bomb, both asked for as Markdown.
func memoryPhases() []request {
	md := accept(markdownAccept)
	return []request{
		{Name: "md 2 MB page, cold", Path: bigPath + "?n={n}", Header: md, Want: 200},
		{Name: "md 50 MB page (over the cap)", Path: hugePath + "?n={n}", Header: md, Want: 200},
		{Name: "md gzip bomb (1 GiB inflated)", Path: bombPath + "?n={n}", Header: md, Want: 200},
	}
}
