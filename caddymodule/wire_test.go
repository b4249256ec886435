package caddymodule

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
)

// What goes to a browser on the wire (issue 23, holes 7 and 10): the
// annotations land only where a rewrite of the page's own bytes puts them,
// and the page never gets bigger than the origin sent it.

// TestSecurityPlanNeverInsertsIntoScript: an origin that names two
// variants of a page the same (one strong ETag, one length; here by
// cookie) gets no markup inserted into a script by the plan of the other.
// Variant b has a's "</title></head>" at the same offset, and the 8 bytes
// before it, inside a JavaScript string: the plan recorded on a used to
// insert the Markdown link and the JSON-LD there. Now the replay checks a
// hash of every byte before the insertion, b passes untouched (its length
// made up with spaces) and is counted as plan_mismatch, and the next copy
// of b is read and annotated at its real head's end.
func TestSecurityPlanNeverInsertsIntoScript(t *testing.T) {
	const pa = "<!DOCTYPE html><html><head><title>"
	const pb = "<!DOCTYPE html><html><head><script>var s=\"<title>"
	tail := "</title></head><body>" + strings.Repeat("<p>text</p>", 50) + "</body></html>\";</script></head><body><p>b</p></body></html>"
	a := pa + strings.Repeat("x", len(pb)-len(pa)) + tail
	b := pb + tail
	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body := a
		if c, err := r.Cookie("variant"); err == nil && c.Value == "b" {
			body = b
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("ETag", `"same"`)
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		_, _ = w.Write([]byte(body))
	}))
	t.Cleanup(origin.Close)
	base, _ := runCaddy(t, agentReadySite(proxyTo(origin.URL)))
	const link = `<link rel="alternate" type="text/markdown"`

	if _, got := get(t, "GET", base+"/page", "Accept", acceptBrowser); !strings.Contains(got, "</title>"+link) {
		t.Fatalf("variant a is not annotated at its head's end: %.300q", got)
	}
	mismatches := counterValue(t, metrics.failOpen.WithLabelValues("plan_mismatch"))
	resp, got := get(t, "GET", base+"/page", "Accept", acceptBrowser, "Cookie", "variant=b")
	if strings.TrimRight(got, " ") != b {
		t.Errorf("variant b through a's plan:\n%.300q\nwant b untouched", got)
	}
	if resp.Header.Get("Content-Length") != strconv.Itoa(len(got)) {
		t.Errorf("Content-Length %q for %d bytes", resp.Header.Get("Content-Length"), len(got))
	}
	if n := counterValue(t, metrics.failOpen.WithLabelValues("plan_mismatch")) - mismatches; n != 1 {
		t.Errorf("%v plan mismatches counted, want 1", n)
	}
	_, got = get(t, "GET", base+"/page", "Accept", acceptBrowser, "Cookie", "variant=b")
	script := b[len(pb)-len("<title>") : strings.Index(b, "</script>")]
	if !strings.Contains(got, script) || !strings.Contains(got, "</script>"+link) {
		t.Errorf("the next copy of b is not annotated where its own rewrite puts it:\n%.400q", got)
	}
	if bytes.Count([]byte(got), []byte(link)) != 1 {
		t.Errorf("%d Markdown links in b", bytes.Count([]byte(got), []byte(link)))
	}
}
