package selfscan

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"net/http"
	"time"
)

// HTTPError is an error of Serve with the status to answer it with.
type HTTPError struct {
	Status int
	Err    error
}

func (e HTTPError) Error() string { return e.Err.Error() }

func (e HTTPError) Unwrap() error { return e.Err }

// Resources are the self-score's read-only resources below /agent-ready/
// ("": the HTML report, report.json, report.md, status) and POST scan,
// over the sites the glue registers.
type Resources struct {
	// Sites lists the sites, sorted by key.
	Sites func() []*Site
	// Indexes is the content_indexes member of status.
	Indexes func() any
	// Nav adds the links to the other views to the HTML report's page.
	Nav func(page []byte) []byte
	// AllowScan offers POST scan (the admin endpoint, not a site's
	// agent_ready_report).
	AllowScan bool
	// ScanTimeout bounds how long POST scan waits for the scan it
	// started; the scan itself goes on within its own timeout.
	ScanTimeout time.Duration
}

// Serve answers one resource: sub is the path below /agent-ready/. Errors
// are HTTPErrors carrying the status to answer with.
func (res Resources) Serve(w http.ResponseWriter, r *http.Request, sub string) error {
	switch sub {
	case "", "report.json", "report.md", "status":
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			return HTTPError{http.StatusMethodNotAllowed, fmt.Errorf("method %s not allowed", r.Method)}
		}
	case "scan":
		if !res.AllowScan {
			return HTTPError{http.StatusNotFound, fmt.Errorf("no such resource: %s", r.URL.Path)}
		}
		if r.Method != http.MethodPost {
			return HTTPError{http.StatusMethodNotAllowed, fmt.Errorf("method %s not allowed", r.Method)}
		}
	default:
		return HTTPError{http.StatusNotFound, fmt.Errorf("no such resource: %s", r.URL.Path)}
	}
	if sub == "status" {
		var all []Status
		for _, s := range res.Sites() {
			all = append(all, s.Status())
		}
		return WriteJSON(w, http.StatusOK, map[string]any{"sites": all, "content_indexes": res.Indexes()})
	}
	site, err := res.pick(r.URL.Query().Get("site"))
	if err != nil {
		return err
	}
	if sub == "scan" {
		return res.scan(w, r, site)
	}
	return res.report(w, sub, site)
}

// pick finds the site named key, or the first one.
func (res Resources) pick(key string) (*Site, error) {
	all := res.Sites()
	if key != "" {
		for _, s := range all {
			if s.key == key {
				return s, nil
			}
		}
		return nil, HTTPError{http.StatusNotFound, fmt.Errorf("no site %q uses agent_ready", key)}
	}
	if len(all) == 0 {
		return nil, HTTPError{http.StatusNotFound, errors.New("no site uses agent_ready with self_scan in the running config")}
	}
	return all[0], nil
}

// scan runs a scan of site now and answers its status.
func (res Resources) scan(w http.ResponseWriter, r *http.Request, site *Site) error {
	ctx, cancel := context.WithTimeout(r.Context(), res.ScanTimeout)
	defer cancel()
	err := site.Run(Now(ctx))
	if errors.Is(err, ErrRunning) {
		return HTTPError{http.StatusConflict, err}
	}
	if err != nil {
		return HTTPError{http.StatusBadGateway, fmt.Errorf("scan failed: %v", err)}
	}
	return WriteJSON(w, http.StatusOK, site.Status())
}

// report answers the last complete report of site in sub's format.
func (res Resources) report(w http.ResponseWriter, sub string, site *Site) error {
	rendered := site.Rendered()
	st := site.Status()
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Agent-Ready-Scan-Running", fmt.Sprint(st.Running))
	if !st.Finished.IsZero() {
		w.Header().Set("Last-Modified", st.Finished.UTC().Format(http.TimeFormat))
	}
	if rendered == nil {
		// No complete scan yet: say so plainly, in the asked-for form.
		return writePending(w, sub, st)
	}
	var err error
	switch sub {
	case "":
		page := rendered["html"]
		if res.Nav != nil {
			page = res.Nav(page)
		}
		err = WriteHTML(w, page)
	case "report.json":
		w.Header().Set("Content-Type", "application/json")
		_, err = w.Write(rendered["json"])
	case "report.md":
		w.Header().Set("Content-Type", "text/markdown; charset=utf-8")
		_, err = w.Write(rendered["md"])
	}
	return err
}

func writePending(w http.ResponseWriter, sub string, st Status) error {
	msg := st.PendingMessage()
	switch sub {
	case "report.json":
		return WriteJSON(w, http.StatusServiceUnavailable, map[string]any{"status": st, "message": msg})
	case "report.md":
		w.Header().Set("Content-Type", "text/markdown; charset=utf-8")
		w.WriteHeader(http.StatusServiceUnavailable)
		_, err := fmt.Fprintf(w, "# Agent readiness\n\n%s\n", msg)
		return err
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Retry-After", "5")
	w.WriteHeader(http.StatusServiceUnavailable)
	_, err := fmt.Fprintf(w, "<!doctype html><html lang=\"en\"><meta charset=\"utf-8\"><title>Agent readiness</title><p>%s</p></html>\n", html.EscapeString(msg))
	return err
}

// WriteJSON answers v as indented JSON with status.
func WriteJSON(w http.ResponseWriter, status int, v any) error {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// WriteHTML answers a self-contained page (inline styles and images
// only, as its Content-Security-Policy says).
func WriteHTML(w http.ResponseWriter, page []byte) error {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; img-src data:")
	_, err := w.Write(page)
	return err
}
