package pages

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"time"
)

const (
	// MaxDeclaredChecks bounds the declared URLs checked after start.
	MaxDeclaredChecks = 200
	// maxRedirects bounds the redirects a request of the module follows.
	maxRedirects = 5
)

// sameSite is a client over rt that follows at most maxRedirects
// redirects, and none that leaves the site.
func sameSite(rt http.RoundTripper) *http.Client {
	return &http.Client{
		Transport: rt,
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) >= maxRedirects {
				return errors.New("too many redirects")
			}
			if req.URL.Host != via[0].URL.Host {
				return fmt.Errorf("redirect leaves the site: %s", req.URL.Host)
			}
			return nil
		},
	}
}

// CheckDeclaredAfter runs CheckDeclared once, delay after it is called,
// unless ctx ends first.
func (p *Pages) CheckDeclaredAfter(ctx context.Context, delay time.Duration) {
	if len(p.cfg.Site.DeclaredURLs()) == 0 {
		return
	}
	select {
	case <-p.cfg.Clock.After(delay):
	case <-ctx.Done():
		return
	}
	p.CheckDeclared(ctx)
}

// CheckDeclared asks the site (every middleware, the generated documents
// and the origin) for each URL on the site that the YAML declares and the
// generated documents publish (interfaces' url, docs and card, site.pages,
// the llms.txt links, the contact page), and logs a warning naming the YAML
// field and line for each that answers 404 or 410: an agent that follows
// ard.json, agents.json or llms.txt there finds nothing (the self-scan
// fails such a document too). URLs on other sites are not checked. It
// returns how many were missing.
func (p *Pages) CheckDeclared(ctx context.Context) int {
	public, err := url.Parse(p.public + "/")
	if err != nil {
		return 0
	}
	at, err := url.Parse(p.cfg.Origin)
	if err != nil {
		return 0
	}
	client := sameSite(p.cfg.Transport)
	missing := 0
	for i, d := range p.cfg.Site.DeclaredURLs() {
		if i >= MaxDeclaredChecks || ctx.Err() != nil {
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
			p.cfg.Logger.Debug("checking a declared URL", slog.String("field", d.Field), slog.String("url", d.URL), slog.Any("error", err))
		case status == http.StatusNotFound || status == http.StatusGone:
			missing++
			p.cfg.Logger.Warn("a URL the site configuration declares is not found",
				slog.String("field", d.Field),
				slog.Int("line", d.Line),
				slog.String("url", d.URL),
				slog.Int("status", status),
				slog.Bool("document", d.Document))
		}
	}
	return missing
}

// declaredStatus is the status a GET of u answers, redirects on the site
// followed.
func declaredStatus(ctx context.Context, client *http.Client, u string) (int, error) {
	ctx, cancel := context.WithTimeout(ctx, FetchTimeout)
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
