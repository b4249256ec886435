package selfcheck

import (
	"maps"
	"net/http"
	"slices"
	"strings"
	"unicode/utf8"
)

// excerptLimit is the longest body excerpt a receipt keeps, in bytes.
const excerptLimit = 240

// Receipt is the evidence behind a verdict (STANDARD.md §4): the call made,
// the answer the standard expects, and the answer actually received.
type Receipt struct {
	// Request is the main call the check made (nil when it made none).
	Request *RequestRecord `json:"request,omitempty"`
	// Expected states the answer the standard expects.
	Expected string `json:"expected"`
	// Received is what the main call got back.
	Received *ResponseRecord `json:"received,omitempty"`
	// Also lists further calls the check relied on, in order.
	Also []Exchange `json:"also,omitempty"`
	// Routes holds the per-route findings of a page-level check.
	Routes []RouteFinding `json:"routes,omitempty"`
	// Details holds structured evidence of checks that record more than one
	// exchange (mcp_transport, ard_manifest…).
	Details any `json:"details,omitempty"`
	// Note is a free-text observation (what was found, how it was judged).
	Note string `json:"note,omitempty"`
	// Cause is the stable id of why the check did not pass (for a
	// page-level check, the cause of its worst route), from which the
	// fix-first plan takes its advice; empty on a PASS. docs/standard.md
	// lists every check's causes.
	Cause string `json:"cause,omitempty"`
}

// RequestRecord is a request as a receipt records it: only the headers that
// shape the answer, credentials redacted.
type RequestRecord struct {
	// Method is the HTTP method.
	Method string `json:"method"`
	// URL is the URL asked for, credentials redacted.
	URL string `json:"url"`
	// Header holds the request headers that shape the answer (Accept…).
	Header map[string]string `json:"header,omitempty"`
}

// ResponseRecord is a response as a receipt records it.
type ResponseRecord struct {
	// Status is the HTTP status code, 0 when no response came back.
	Status int `json:"status"`
	// ContentType is the Content-Type header.
	ContentType string `json:"content_type,omitempty"`
	// Header holds the headers relevant to the check, credentials redacted.
	Header map[string]string `json:"header,omitempty"`
	// Excerpt is the start of the body (valid UTF-8, at most 240 bytes).
	Excerpt string `json:"excerpt,omitempty"`
	// URL is the final URL when redirects were followed.
	URL string `json:"url,omitempty"`
	// Error says why no usable response came back (refused, timeout,
	// redirect loop, oversize…).
	Error string `json:"error,omitempty"`
}

// Exchange is one request with its response.
type Exchange struct {
	// Request is the call made.
	Request RequestRecord `json:"request"`
	// Received is what came back.
	Received ResponseRecord `json:"received"`
}

// RouteFinding is one route's share of a page-level check.
type RouteFinding struct {
	// Route is the page's URL.
	Route string `json:"route"`
	// Verdict is the route's own verdict.
	Verdict Verdict `json:"verdict"`
	// Fraction is the route's share of the weight (0..1).
	Fraction float64 `json:"fraction"`
	// Received summarises what the route answered.
	Received string `json:"received,omitempty"`
	// Missing names what the route lacks.
	Missing string `json:"missing,omitempty"`
	// Cause is the stable id of why the route did not pass.
	Cause string `json:"cause,omitempty"`
}

// recordRequest builds the request half of a receipt.
func recordRequest(req request, redact []string) *RequestRecord {
	rr := &RequestRecord{Method: req.method, URL: redactURL(req.url)}
	if req.accept != "" {
		rr.Header = map[string]string{"Accept": req.accept}
	}
	for k, v := range req.header {
		if rr.Header == nil {
			rr.Header = map[string]string{}
		}
		rr.Header[k] = redactHeaderValue(k, v, redact)
	}
	return rr
}

// recordResponse builds the received half of a receipt, keeping only the
// named headers.
func recordResponse(resp *response, headers []string, redact []string) *ResponseRecord {
	rr := &ResponseRecord{Status: resp.status, Error: resp.errText()}
	if resp.finalURL != "" && resp.finalURL != resp.req.url {
		rr.URL = redactURL(resp.finalURL)
	}
	if resp.header != nil {
		rr.ContentType = resp.header.Get("Content-Type")
		for _, h := range headers {
			vals := resp.header.Values(h)
			if len(vals) == 0 {
				continue
			}
			if rr.Header == nil {
				rr.Header = map[string]string{}
			}
			rr.Header[http.CanonicalHeaderKey(h)] = redactHeaderValue(h, strings.Join(vals, ", "), redact)
		}
	}
	rr.Excerpt = excerpt(resp.body)
	return rr
}

// exchange records a request and its response.
func exchange(resp *response, headers []string, redact []string) Exchange {
	return Exchange{Request: *recordRequest(resp.req, redact), Received: *recordResponse(resp, headers, redact)}
}

// excerpt returns the start of body as valid UTF-8, whitespace collapsed.
func excerpt(body []byte) string {
	if len(body) == 0 {
		return ""
	}
	b := body
	if len(b) > excerptLimit {
		b = b[:excerptLimit]
		for len(b) > 0 && !utf8.Valid(b) {
			b = b[:len(b)-1]
		}
	}
	s := strings.ToValidUTF8(string(b), "\uFFFD")
	s = redactText(strings.Join(strings.Fields(s), " "))
	if len(body) > excerptLimit {
		s += " …"
	}
	return s
}

// summary renders a response record on one line, as §4 prints "received".
func (rr *ResponseRecord) summary() string {
	if rr == nil {
		return ""
	}
	if rr.Error != "" {
		return "no answer: " + rr.Error
	}
	var b strings.Builder
	b.WriteString(itoa(rr.Status))
	if rr.ContentType != "" {
		b.WriteString(" " + rr.ContentType)
	}
	for _, k := range slices.Sorted(maps.Keys(rr.Header)) {
		b.WriteString("; " + k + ": " + rr.Header[k])
	}
	return b.String()
}
