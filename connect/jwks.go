package connect

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/go-jose/go-jose/v4"
)

// JWKS cache bounds.
const (
	jwksTTL        = time.Hour        // a key set is refetched after this long
	jwksMinRefetch = 30 * time.Second // an unknown kid refetches at most this often
	jwksMaxBytes   = 1 << 20          // largest key set read
)

// jwksCache holds the authorization server's key set (RFC 7517 §5), fetched
// on first use, again after jwksTTL, and early (at most every
// jwksMinRefetch) when a token names a key it does not hold: that is how a
// key rotation shows up.
type jwksCache struct {
	url    string
	client *http.Client
	now    func() time.Time

	mu      sync.Mutex
	set     jose.JSONWebKeySet
	fetched time.Time // last successful fetch
	tried   time.Time // last attempt
}

func newJWKSCache(url string, client *http.Client) *jwksCache {
	if client == nil {
		client = &http.Client{Timeout: 10 * time.Second}
	}
	return &jwksCache{url: url, client: client, now: time.Now}
}

// keys returns the signing keys matching kid (all signing keys when kid is
// empty), refetching the set when it is stale or lacks kid.
func (c *jwksCache) keys(ctx context.Context, kid string) ([]jose.JSONWebKey, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := c.now()
	found := c.match(kid)
	stale := c.fetched.IsZero() || now.Sub(c.fetched) > jwksTTL
	if (stale || len(found) == 0) && now.Sub(c.tried) >= jwksMinRefetch {
		c.tried = now
		set, err := c.fetch(ctx)
		if err != nil {
			if len(found) > 0 {
				return found, nil // keep serving the cached set
			}
			return nil, err
		}
		c.set, c.fetched = set, now
		found = c.match(kid)
	}
	if len(found) == 0 {
		return nil, fmt.Errorf("no signing key %q in the key set", kid)
	}
	return found, nil
}

// match returns the cached public signing keys for kid.
func (c *jwksCache) match(kid string) []jose.JSONWebKey {
	var out []jose.JSONWebKey
	for _, k := range c.set.Keys {
		if (kid == "" || k.KeyID == kid) && k.Use != "enc" && k.IsPublic() {
			out = append(out, k)
		}
	}
	return out
}

func (c *jwksCache) fetch(ctx context.Context) (jose.JSONWebKeySet, error) {
	var set jose.JSONWebKeySet
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.url, nil)
	if err != nil {
		return set, fmt.Errorf("jwks request: %v", err)
	}
	req.Header.Set("Accept", "application/jwk-set+json, application/json")
	resp, err := c.client.Do(req)
	if err != nil {
		return set, fmt.Errorf("fetching jwks: %v", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return set, fmt.Errorf("fetching jwks: status %d", resp.StatusCode)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, jwksMaxBytes+1))
	if err != nil {
		return set, fmt.Errorf("reading jwks: %v", err)
	}
	if len(body) > jwksMaxBytes {
		return set, fmt.Errorf("jwks larger than %d bytes", jwksMaxBytes)
	}
	if err := json.Unmarshal(body, &set); err != nil {
		return set, fmt.Errorf("parsing jwks: %v", err)
	}
	return set, nil
}
