package caddymodule

import (
	"errors"
	"log/slog"
	"net/http"
	"net/url"

	"github.com/caddyserver/caddy/v2/modules/caddyhttp"
	"go.uber.org/zap/exp/zapslog"

	"github.com/agentready/caddy-agentready/documents"
	"github.com/agentready/caddy-agentready/manifest"
)

// provisionDocuments sets up the site's generated documents and HTML
// annotations (package documents) under Caddy: its handler errors, its
// logger, the URL a client asked for.
func (ar *AgentReady) provisionDocuments(site *manifest.Site) (err error) {
	ar.docs, err = documents.New(site, documents.Options{
		MarkdownSuffix: ar.Suffix(),
		ConfigDir:      ar.Source.Dir(),
		Logger:         slog.New(zapslog.NewHandler(ar.logger.Core())),
		NotFound:       notFound,
		ClientURL:      clientURL,
	})
	return err
}

// notFound reports whether an error of the next handler is a 404 (as
// file_server returns for a missing file).
func notFound(err error) bool {
	var herr caddyhttp.HandlerError
	return errors.As(err, &herr) && herr.StatusCode == http.StatusNotFound
}

// clientURL is the URL the client asked for, before any rewrite inside the
// server: Caddy keeps it with the request as the original request. It is
// nil outside a Caddy server.
func clientURL(r *http.Request) *url.URL {
	or, ok := r.Context().Value(caddyhttp.OriginalRequestCtxKey).(http.Request)
	if !ok || or.URL == nil {
		return nil
	}
	return or.URL
}
