package main

import (
	"bytes"
	"fmt"
	"net/http"
	"net/url"
	"runtime"
	"runtime/debug"
	"syscall"
	"time"

	readability "codeberg.org/readeck/go-readability/v2"
	"github.com/JohannesKaufmann/html-to-markdown/v2/converter"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/base"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/commonmark"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/table"
	gt "github.com/markusmobius/go-trafilatura"

	"github.com/agentready/caddy-agentready/negotiate"
	"github.com/agentready/caddy-agentready/negotiate/convert"
)

// lastExtraction is how agent_ready chose the content of the page it
// converted last (convert.Result.Extraction), for the per-path tallies.
var lastExtraction string

// tool converts one page to Markdown.
type tool struct {
	name    string
	convert func(html []byte, u *url.URL) ([]byte, error)
	peer    bool // outputs read from peerDir (see peers.go)
}

func newTool(name string) (tool, error) {
	switch name {
	case "whole":
		// The reference for what extraction may lose: the module's
		// pipeline on the whole <body> (content selector body), default
		// prune rules on.
		conv, err := convert.New(convert.Options{FrontMatter: true, Settings: convert.Settings{
			JSONLDBlock: convert.Bool(false), ContentSelectors: []string{"body"}}})
		if err != nil {
			return tool{}, err
		}
		return tool{name: "agent_ready on the whole body", convert: func(html []byte, u *url.URL) ([]byte, error) {
			res, err := conv.Convert(html, u, nil)
			if err != nil {
				return nil, err
			}
			return res.Markdown, nil
		}}, nil
	case "ours":
		// The JSON-LD appendix (on by default in the module) is off: it is
		// the page's metadata, not the content the corpora score, and
		// bench/corpus leaves it off too.
		conv, err := convert.New(convert.Options{FrontMatter: true, Settings: convert.Settings{JSONLDBlock: convert.Bool(false)}})
		if err != nil {
			return tool{}, err
		}
		const ct = "text/html; charset=utf-8"
		header := http.Header{"Content-Type": {ct}}
		return tool{name: "agent_ready", convert: func(html []byte, u *url.URL) ([]byte, error) {
			body, err := negotiate.ToUTF8(html, ct)
			if err != nil {
				return nil, err
			}
			res, err := conv.Convert(body, u, header)
			if err != nil {
				lastExtraction = "error: " + err.Error()
				return nil, err
			}
			lastExtraction = res.Extraction
			return res.Markdown, nil
		}}, nil
	case "readability":
		md := h2m()
		return tool{name: "readability+h2m", convert: func(html []byte, u *url.URL) ([]byte, error) {
			art, err := readability.FromReader(bytes.NewReader(html), u)
			if err != nil || art.Node == nil {
				return nil, err
			}
			return md.ConvertNode(art.Node, converter.WithDomain(u.String()))
		}}, nil
	case "trafilatura":
		md := h2m()
		return tool{name: "trafilatura+h2m", convert: func(html []byte, u *url.URL) ([]byte, error) {
			res, err := gt.Extract(bytes.NewReader(html), gt.Options{
				OriginalURL: u, ExcludeComments: true, IncludeLinks: true, IncludeImages: true,
			})
			if err != nil || res.ContentNode == nil {
				return nil, err
			}
			return md.ConvertNode(res.ContentNode, converter.WithDomain(u.String()))
		}}, nil
	}
	return tool{}, fmt.Errorf("unknown tool %q", name)
}

// h2m is html-to-markdown v2 with the base, CommonMark and table plugins.
func h2m() *converter.Converter {
	return converter.NewConverter(converter.WithPlugins(
		base.NewBasePlugin(), commonmark.NewCommonmarkPlugin(), table.NewTablePlugin()))
}

// timed runs fn over every input repeat times (after one untimed call)
// with GOMAXPROCS=1 and returns the MB of input per CPU second, and the
// CPU time of each input's conversion in the last pass.
func timed(inputs [][]byte, fn func(i int)) (mbps float64, per []time.Duration) {
	per = make([]time.Duration, len(inputs))
	timedOne(func() {
		if len(inputs) > 0 {
			fn(0) // warm up: lazily loaded tables (the o200k tokenizer) are not the page's cost
		}
		runtime.GC()
		total := 0
		c0 := cpuTime()
		for range max(repeat, 1) {
			for i, in := range inputs {
				p0 := cpuTime()
				fn(i)
				per[i] = cpuTime() - p0
				total += len(in)
			}
		}
		mbps = float64(total) / 1e6 / (cpuTime() - c0).Seconds()
	})
	return mbps, per
}

// timedOne runs fn with GOMAXPROCS=1.
func timedOne(fn func()) {
	prev := runtime.GOMAXPROCS(1)
	defer runtime.GOMAXPROCS(prev)
	fn()
}

// allocBound returns the bytes one conversion allocates with the garbage
// collector off: a bound on its peak live heap.
func allocBound(t tool, html []byte, u *url.URL) uint64 {
	runtime.GC()
	prev := debug.SetGCPercent(-1)
	defer debug.SetGCPercent(prev)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, _ = t.convert(html, u)
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// cpuTime is the process's user and system time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
