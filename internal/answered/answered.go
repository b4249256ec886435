// Package answered judges whether the site answered the module's own
// requests at all, so that a crawl, an index refresh or a self-scan that
// met a site still starting (connections refused, 502 from the proxy) or
// a Host no site block serves (Caddy's empty 200) is retried soon, and
// its empty result is never published as the site's.
package answered

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/agentready/caddy-agentready/discover"
)

// Page judges one answer for a page of the site, the home page the
// self-scan starts from: nil when the site answered, else why not. err is
// the request's error; n the bytes of the body read.
//
// Not an answer: a failed request (refused, reset, timed out); 502, 503
// or 504 (a proxy with nothing behind it, a site starting or overloaded);
// a 200 with no Content-Type and no body, which is what Caddy's server
// sends for a request that no route handles.
func Page(status int, contentType string, n int64, err error) error {
	switch {
	case err != nil:
		return fmt.Errorf("the request failed: %v", err)
	case status == 502 || status == 503 || status == 504:
		return fmt.Errorf("it answered %d", status)
	case status == 200 && contentType == "" && n == 0:
		return errors.New("it answered an empty 200, as Caddy does for a host or path that no route handles")
	}
	return nil
}

// Discovery judges a discovery's result: nil when the site answered, else
// why not. A site that answered has at least one page; a result without
// pages counts as no answer when its robots.txt answered a server error or
// what kept its pages out was failed requests, error statuses or answers
// that are not pages (an empty 200). A site that keeps every page out by
// robots.txt or noindex answered.
func Discovery(res *discover.Result) error {
	if res == nil {
		return errors.New("no discovery result")
	}
	if len(res.Pages) > 0 {
		return nil
	}
	if res.RobotsStatus >= 500 {
		return fmt.Errorf("the site answered no page: robots.txt answered %d", res.RobotsStatus)
	}
	var reasons []string
	for _, r := range []discover.SkipReason{discover.SkipError, discover.SkipStatus, discover.SkipNotHTML} {
		if n := res.Skipped[r]; n > 0 {
			reasons = append(reasons, fmt.Sprintf("%s %d", r, n))
		}
	}
	if len(reasons) == 0 {
		return nil
	}
	sort.Strings(reasons)
	detail := ""
	for _, s := range res.Samples {
		if s.Reason == discover.SkipError || s.Reason == discover.SkipStatus || s.Reason == discover.SkipNotHTML {
			detail = fmt.Sprintf(" (%s: %s %s)", s.URL, s.Reason, s.Detail)
			break
		}
	}
	return fmt.Errorf("the site answered no page: skipped %s%s", strings.Join(reasons, ", "), detail)
}

// Backoff is the wait before retry n (1 for the first): min doubled per
// retry, at most max. Every retry of the module's own requests doubles
// through it (the page list, the self-scan, and connect's index refresh,
// which adds its jitter on top).
func Backoff(n int, min, max time.Duration) time.Duration {
	d := min
	for i := 1; i < n && d < max; i++ {
		d *= 2
	}
	if d > max {
		d = max
	}
	return d
}
