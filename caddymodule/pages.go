package caddymodule

import (
	"log/slog"
	"net/http"

	"github.com/caddyserver/caddy/v2"
	"go.uber.org/zap"
	"go.uber.org/zap/exp/zapslog"

	"github.com/agentready/caddy-agentready/pages"
)

// pageLists holds the last page list discovered of every site, by origin.
// The entries outlive config reloads (a usage pool counts the configs that
// use each), so a reload neither crawls the site again nor forgets it.
var pageLists = caddy.NewUsagePool()

// pageList is one site's entry in pageLists.
type pageList struct{ pages.List }

// Destruct implements caddy.Destructor: nothing to release but the entry.
func (p *pageList) Destruct() error { return nil }

// sitePages is one config's part in discovering its site's pages (package
// pages), and its entry in pageLists.
type sitePages struct {
	*pages.Pages
	key string // in pageLists
}

// pagesRetryMin is the wait before the first retry of work that met a
// site that did not answer (pages.Config.RetryMin).
var pagesRetryMin = pages.DefaultRetryMin

// provisionSitePages builds the site's discovery, through srv, the site's
// own server, at origin, and its entry in pageLists; the documents list
// what it finds.
func (ar *AgentReady) provisionSitePages(srv http.Handler, origin string) error {
	val, _, err := pageLists.LoadOrNew(origin, func() (caddy.Destructor, error) { return &pageList{}, nil })
	if err != nil {
		return err
	}
	p, err := pages.New(pages.Config{
		Origin:    origin,
		Transport: inProcessTransport{handler: srv, site: ar.own},
		Site:      ar.site,
		Docs:      ar.docs,
		List:      &val.(*pageList).List,
		Fleet:     ar.fleet,
		Logger:    slog.New(zapslog.NewHandler(ar.logger.Core(), zapslog.WithName(ar.logger.Name()))),
		RetryMin:  pagesRetryMin,
	})
	if err != nil {
		_, _ = pageLists.Delete(origin)
		return err
	}
	ar.pages = &sitePages{Pages: p, key: origin} // Cleanup releases the entry from here on
	return nil
}

// cleanupPages stops a background discovery of this config and releases
// its hold on the site's page list.
func (ar *AgentReady) cleanupPages() {
	if ar.pages == nil {
		return
	}
	ar.pages.Close()
	if _, err := pageLists.Delete(ar.pages.key); err != nil {
		ar.logger.Warn("releasing the page list", zap.Error(err))
	}
}

// Interface guards
var (
	_ caddy.Destructor = (*pageList)(nil)
)
