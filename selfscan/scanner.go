package selfscan

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"go.uber.org/zap"

	"github.com/agentready/caddy-agentready/fleet"
	"github.com/agentready/caddy-agentready/internal/answered"
	"github.com/agentready/caddy-agentready/selfcheck"
)

// Scanner is one config's way to scan one site.
type Scanner struct {
	// Target is the URL the scan starts from.
	Target string
	// Note says why Target: the setting it comes from.
	Note string
	// Transport carries the scan's requests to the site (the glue's: in
	// process, through Caddy's server, as an outside visitor).
	Transport http.RoundTripper
	// Warning says why the requests may not reach the site (siteaddr.Reach).
	Warning string
	// Options are the scanner's; Transport is set from the field above.
	Options selfcheck.Options
	// Timeout bounds one scan, and the wait for Pages.
	Timeout time.Duration
	// Logger receives a line per scan.
	Logger *zap.Logger
	// Pages is closed once the site's pages are discovered; a scan waits
	// for it, at most Timeout, so that it chooses its pages among them.
	// nil: nothing to wait for.
	Pages <-chan struct{}
	// Fleet, when set, scans once per Fresh for the instances that share
	// it (see fleetScan).
	Fleet *fleet.Fleet
	Fresh time.Duration
}

// waitPages waits for the site's pages, at most the scan's timeout.
func (sc *Scanner) waitPages(ctx context.Context) {
	if sc.Pages == nil {
		return
	}
	t := time.NewTimer(sc.Timeout)
	defer t.Stop()
	select {
	case <-sc.Pages:
	case <-ctx.Done():
	case <-t.C:
	}
}

// scan runs one scan of the site in process, within the scan's timeout,
// and renders its report; missed says why the site's home page did not
// answer (nil when it did).
func (sc *Scanner) scan(ctx context.Context) (rep *selfcheck.Report, rendered map[string][]byte, missed, err error) {
	if sc.Fleet != nil {
		return sc.fleetScan(ctx)
	}
	return sc.scanHere(ctx)
}

// scanHere is scan in this instance.
func (sc *Scanner) scanHere(ctx context.Context) (rep *selfcheck.Report, rendered map[string][]byte, missed, err error) {
	ctx, cancel := context.WithTimeout(ctx, sc.Timeout)
	defer cancel()
	opts := sc.Options
	home := &homeAnswer{rt: sc.Transport}
	home.target, _ = url.Parse(sc.Target)
	opts.Transport = home
	rep, err = selfcheck.Scan(ctx, sc.Target, opts)
	missed = home.problem()
	if err != nil {
		return nil, nil, missed, err
	}
	rep.TargetNote = sc.Note
	js, err := rep.JSON()
	if err != nil {
		return nil, nil, missed, err
	}
	return rep, map[string][]byte{"json": js, "md": rep.Markdown(), "html": rep.HTML()}, missed, nil
}

// scanNowKey marks the context of a scan asked for on the admin endpoint.
type scanNowKey struct{}

// Now marks ctx as a scan asked for now: it runs in this instance even
// when the fleet has a fresh report.
func Now(ctx context.Context) context.Context { return context.WithValue(ctx, scanNowKey{}, true) }

// RenderedBy is the key of a scan's rendered forms that names the fleet's
// instance that ran it (never served as a form).
const RenderedBy = "instance"

// errNotShared keeps a scan whose site did not answer out of the fleet.
var errNotShared = errors.New("not shared")

// fleetScan is the self-scan once per interval for the fleet: the report
// of another instance's scan within the interval, else a scan here,
// stored for the others.
func (sc *Scanner) fleetScan(ctx context.Context) (rep *selfcheck.Report, rendered map[string][]byte, missed, err error) {
	fresh := sc.Fresh
	if now, _ := ctx.Value(scanNowKey{}).(bool); now {
		fresh = 0
	}
	ran := false
	var here error
	res, err := sc.Fleet.Once(ctx, "selfscan", fresh, func(ctx context.Context) ([]byte, error) {
		ran = true
		rep, rendered, missed, here = sc.scanHere(ctx)
		if here != nil || missed != nil {
			return nil, errNotShared
		}
		rendered[RenderedBy] = []byte(sc.Fleet.Instance())
		return json.Marshal(rendered)
	})
	if ran {
		return rep, rendered, missed, here
	}
	if err != nil {
		return nil, nil, nil, err
	}
	if err := json.Unmarshal(res.Data, &rendered); err != nil {
		return nil, nil, nil, fmt.Errorf("the fleet's self-scan report: %v", err)
	}
	rep = new(selfcheck.Report)
	if err := json.Unmarshal(rendered["json"], rep); err != nil {
		return nil, nil, nil, fmt.Errorf("the fleet's self-scan report: %v", err)
	}
	return rep, rendered, nil, nil
}

// homeAnswer carries the self-scan's requests and records the answer to
// the first GET of the target, for answered.Page.
type homeAnswer struct {
	rt     http.RoundTripper
	target *url.URL

	mu     sync.Mutex
	seen   bool
	status int
	ctype  string
	err    error
	n      atomic.Int64 // body bytes read
}

// RoundTrip implements http.RoundTripper.
func (h *homeAnswer) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := h.rt.RoundTrip(req)
	if h.target == nil || req.Method != http.MethodGet || req.URL.Host != h.target.Host ||
		strings.TrimSuffix(req.URL.Path, "/") != strings.TrimSuffix(h.target.Path, "/") {
		return resp, err
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.seen {
		return resp, err
	}
	h.seen, h.err = true, err
	if err == nil {
		h.status, h.ctype = resp.StatusCode, resp.Header.Get("Content-Type")
		resp.Body = &countingBody{ReadCloser: resp.Body, n: &h.n}
	}
	return resp, err
}

// problem is why the site did not answer the target, nil when it did or
// was never asked.
func (h *homeAnswer) problem() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.seen {
		return nil
	}
	return answered.Page(h.status, h.ctype, h.n.Load(), h.err)
}

// countingBody counts the bytes read through it.
type countingBody struct {
	io.ReadCloser
	n *atomic.Int64
}

func (b *countingBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.n.Add(int64(n))
	return n, err
}
