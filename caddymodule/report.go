package caddymodule

import (
	"errors"
	"net/http"
	"strings"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/caddyconfig/caddyfile"
	"github.com/caddyserver/caddy/v2/caddyconfig/httpcaddyfile"
	"github.com/caddyserver/caddy/v2/modules/caddyhttp"
)

func init() {
	caddy.RegisterModule(Report{})
	httpcaddyfile.RegisterHandlerDirective("agent_ready_report", parseReportCaddyfile)
	httpcaddyfile.RegisterDirectiveOrder("agent_ready_report", httpcaddyfile.Before, "respond")
}

// Report serves the self-score (the same read-only resources as the admin
// endpoint: /agent-ready/, report.json, report.md, status) from an ordinary
// site block, for browsers.
//
// Why it exists: Caddy's admin endpoint refuses requests that a browser
// navigates to (they carry Sec-Fetch-Mode but no Origin), so the HTML report
// on localhost:2019 can be fetched with curl but not opened in a browser.
// Mount this handler on a site that only you can reach, for example
//
//	http://localhost:2020 {
//		bind 127.0.0.1 [::1]
//		agent_ready_report
//	}
//
// and never on the public site without authentication in front of it: the
// report lists what the site exposes. It never starts a scan (POST to the
// admin endpoint's /agent-ready/scan does).
type Report struct{}

// CaddyModule returns the Caddy module information.
func (Report) CaddyModule() caddy.ModuleInfo {
	return caddy.ModuleInfo{
		ID:  "http.handlers.agent_ready_report",
		New: func() caddy.Module { return new(Report) },
	}
}

// ServeHTTP answers the self-score resources under /agent-ready/ and passes
// every other request on.
func (Report) ServeHTTP(w http.ResponseWriter, r *http.Request, next caddyhttp.Handler) error {
	sub, ok := strings.CutPrefix(r.URL.Path, "/agent-ready/")
	if !ok {
		if r.URL.Path != "/" && r.URL.Path != "/agent-ready" {
			return next.ServeHTTP(w, r)
		}
		http.Redirect(w, r, "/agent-ready/", http.StatusFound)
		return nil
	}
	err := serveSelfScore(w, r, sub, false)
	var apiErr caddy.APIError
	if errors.As(err, &apiErr) {
		return caddyhttp.Error(apiErr.HTTPStatus, apiErr.Err)
	}
	return err
}

// UnmarshalCaddyfile sets up the handler from Caddyfile tokens. Syntax:
//
//	agent_ready_report
func (rep *Report) UnmarshalCaddyfile(d *caddyfile.Dispenser) error {
	d.Next() // consume directive name
	if d.NextArg() {
		return d.ArgErr()
	}
	if d.NextBlock(0) {
		return d.Errf("agent_ready_report takes no options")
	}
	return nil
}

func parseReportCaddyfile(h httpcaddyfile.Helper) (caddyhttp.MiddlewareHandler, error) {
	rep := new(Report)
	return rep, rep.UnmarshalCaddyfile(h.Dispenser)
}

// Interface guards
var (
	_ caddyhttp.MiddlewareHandler = (*Report)(nil)
	_ caddyfile.Unmarshaler       = (*Report)(nil)
)
