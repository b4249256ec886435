package ard

import (
	"context"
	"fmt"
	"io"
	"net/http"
)

// DefaultMaxManifestBytes is HTTPFetcher's body cap when none is given.
const DefaultMaxManifestBytes = 1 << 20

// HTTPFetcher returns a Fetcher that GETs with client (http.DefaultClient when
// nil), honouring ctx, and reads at most maxBytes of the body
// (DefaultMaxManifestBytes when maxBytes <= 0). A body over the cap is
// reported as an error, never truncated into a different document.
func HTTPFetcher(client *http.Client, maxBytes int64) Fetcher {
	if client == nil {
		client = http.DefaultClient
	}
	if maxBytes <= 0 {
		maxBytes = DefaultMaxManifestBytes
	}
	return func(ctx context.Context, u string) Response {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
		if err != nil {
			return Response{Err: fmt.Errorf("building request for %s: %w", u, err)}
		}
		// RFC 9110 §12.5.1: say which representation is wanted.
		req.Header.Set("Accept", "application/json")
		resp, err := client.Do(req)
		if err != nil {
			return Response{Err: err}
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(io.LimitReader(resp.Body, maxBytes+1))
		if err != nil {
			return Response{Err: fmt.Errorf("reading %s: %w", u, err)}
		}
		if int64(len(body)) > maxBytes {
			return Response{Err: fmt.Errorf("body of %s exceeds %d bytes", u, maxBytes)}
		}
		return Response{Status: resp.StatusCode, Header: resp.Header, Body: body}
	}
}
