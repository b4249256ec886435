package caddymodule

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"time"

	"go.uber.org/zap"
)

// maxDeclaredChecks bounds the declared URLs checked after start.
const maxDeclaredChecks = 200

// checkDeclared asks the site, through its own server (every middleware,
// the generated documents and the origin), for each URL on the site that
// the YAML declares and the generated documents publish (interfaces' url,
// docs and card, site.pages, the llms.txt links, the contact page), and logs
// a warning naming the YAML field and line for each that answers 404 or
// 410: an agent that follows ard.json, agents.json or llms.txt there finds
// nothing (the self-scan fails such a document too). URLs on other sites are
// not checked. It returns how many were missing.
func (ar *AgentReady) checkDeclared(ctx context.Context, srv http.Handler, origin string) int {
	public, err := url.Parse(ar.publicOrigin(origin) + "/")
	if err != nil {
		return 0
	}
	at, err := url.Parse(origin)
	if err != nil {
		return 0
	}
	client := ar.internalClient(srv)
	missing := 0
	for i, d := range ar.site.DeclaredURLs() {
		if i >= maxDeclaredChecks || ctx.Err() != nil {
			break
		}
		u, err := public.Parse(d.URL)
		if err != nil || u.Host != public.Host || (u.Scheme != "http" && u.Scheme != "https") {
			continue
		}
		u.Scheme, u.Host, u.Fragment = at.Scheme, at.Host, ""
		status, err := declaredStatus(ctx, client, u.String())
		switch {
		case err != nil:
			ar.logger.Debug("checking a declared URL", zap.String("field", d.Field), zap.String("url", d.URL), zap.Error(err))
		case status == http.StatusNotFound || status == http.StatusGone:
			missing++
			ar.logger.Warn("a URL the site configuration declares is not found",
				zap.String("field", d.Field),
				zap.Int("line", d.Line),
				zap.String("url", d.URL),
				zap.Int("status", status),
				zap.Bool("document", d.Document))
		}
	}
	return missing
}

// declaredStatus is the status a GET of u answers, redirects on the site
// followed.
func declaredStatus(ctx context.Context, client *http.Client, u string) (int, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return 0, err
	}
	req.Header.Set("User-Agent", "agentready (declared URL check)")
	resp, err := client.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	return resp.StatusCode, nil
}

// checkDeclaredAfter runs checkDeclared once, delay after start, in the
// background.
func (ar *AgentReady) checkDeclaredAfter(app *App, srv http.Handler, origin string, delay time.Duration) {
	if len(ar.site.DeclaredURLs()) == 0 {
		return
	}
	app.onStart(func(ctx context.Context) {
		go func() {
			t := time.NewTimer(delay)
			defer t.Stop()
			select {
			case <-t.C:
			case <-ctx.Done():
				return
			}
			ar.checkDeclared(ctx, srv, origin)
		}()
	})
}
