package convert

import (
	"fmt"
	"hash/maphash"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
)

func TestCacheKey(t *testing.T) {
	c := NewCache(1 << 20)
	tests := []struct {
		name    string
		request http.Header
		header  http.Header
		ok      bool
	}{
		{"no validators", nil, http.Header{}, false},
		{"etag", nil, http.Header{"Etag": {`"v1"`}}, true},
		{"last-modified", nil, http.Header{"Last-Modified": {"Tue, 15 Sep 2026 08:00:00 GMT"}}, true},
		{"no-store", nil, http.Header{"Etag": {`"v1"`}, "Cache-Control": {"max-age=60, no-store"}}, false},
		{"private", nil, http.Header{"Etag": {`"v1"`}, "Cache-Control": {`private="x"`}}, false},
		{"set-cookie", nil, http.Header{"Etag": {`"v1"`}, "Set-Cookie": {"a=b"}}, false},
		{"vary cookie", nil, http.Header{"Etag": {`"v1"`}, "Vary": {"Accept-Encoding, Cookie"}}, false},
		{"vary accept", nil, http.Header{"Etag": {`"v1"`}, "Vary": {"accept, Accept-Encoding"}}, true},
		// A shared cache and a request with credentials (RFC 9111 §3.5).
		{"authorization", http.Header{"Authorization": {"Bearer x"}}, http.Header{"Etag": {`"v1"`}}, false},
		{"cookie", http.Header{"Cookie": {"session=1"}}, http.Header{"Etag": {`"v1"`}}, false},
		{"cookie, max-age only", http.Header{"Cookie": {"session=1"}}, http.Header{"Etag": {`"v1"`}, "Cache-Control": {"max-age=60"}}, false},
		{"authorization, public", http.Header{"Authorization": {"Bearer x"}}, http.Header{"Etag": {`"v1"`}, "Cache-Control": {"Public, max-age=60"}}, true},
		{"cookie, s-maxage", http.Header{"Cookie": {"session=1"}}, http.Header{"Etag": {`"v1"`}, "Cache-Control": {"s-maxage=60"}}, true},
		{"authorization, must-revalidate", http.Header{"Authorization": {"Basic eDp5"}}, http.Header{"Etag": {`"v1"`}, "Cache-Control": {"no-cache, must-revalidate"}}, true},
		{"other request headers", http.Header{"Accept": {"text/markdown"}}, http.Header{"Etag": {`"v1"`}}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, ok := c.Key("https://example.com/", tt.request, tt.header, "h"); ok != tt.ok {
				t.Errorf("Key ok = %v, want %v", ok, tt.ok)
			}
		})
	}
	base := http.Header{"Etag": {`"v1"`}}
	k0, _ := c.Key("https://example.com/", nil, base, "h")
	for name, k := range map[string]func() (string, bool){
		"url":     func() (string, bool) { return c.Key("https://example.com/x", nil, base, "h") },
		"etag":    func() (string, bool) { return c.Key("https://example.com/", nil, http.Header{"Etag": {`"v2"`}}, "h") },
		"options": func() (string, bool) { return c.Key("https://example.com/", nil, base, "h2") },
		"language": func() (string, bool) {
			return c.Key("https://example.com/", nil, http.Header{"Etag": {`"v1"`}, "Content-Language": {"de"}}, "h")
		},
	} {
		if k1, _ := k(); k1 == k0 {
			t.Errorf("changing the %s does not change the key", name)
		}
	}
}

// put stores r under key past the doorkeeper: the first Put of a key only
// makes the cache remember it.
func put(c *Cache, key string, r *Result) {
	c.Put(key, r)
	c.Put(key, r)
}

func TestCacheLRU(t *testing.T) {
	res := func(n int) *Result { return &Result{Markdown: []byte(strings.Repeat("x", n))} }
	// Each entry costs its Markdown, its key and entryOverhead.
	c := NewCache(3 * (1000 + 1 + entryOverhead))
	put(c, "a", res(1000))
	put(c, "b", res(1000))
	put(c, "c", res(1000))
	if _, ok := c.Get("a"); !ok { // a is now the most recent
		t.Fatal("a missing")
	}
	put(c, "d", res(1000)) // evicts b, the least recently used
	if _, ok := c.Get("b"); ok {
		t.Error("b survived eviction")
	}
	for _, k := range []string{"a", "c", "d"} {
		if _, ok := c.Get(k); !ok {
			t.Errorf("%s evicted", k)
		}
	}
	put(c, "huge", res(1<<20)) // larger than the cache: not stored, nothing evicted
	hits, misses, bytes, entries := c.Stats()
	if hits != 4 || misses != 1 || entries != 3 || bytes != 3*(1000+1+entryOverhead) {
		t.Errorf("Stats = %d hits, %d misses, %d bytes, %d entries", hits, misses, bytes, entries)
	}
	c.Put("a", res(10)) // replacing an entry updates the size
	if _, _, b, n := c.Stats(); n != 3 || b != 2*(1000+1+entryOverhead)+10+1+entryOverhead {
		t.Errorf("after replace: %d bytes, %d entries", b, n)
	}
}

// The doorkeeper: a conversion put once is not stored, the second Put of
// the same key is; storing it does not change what is already there.
func TestCacheDoorkeeper(t *testing.T) {
	c := NewCache(1 << 20)
	r := &Result{Markdown: []byte("# once")}
	c.Put("crawled once", r)
	if _, ok := c.Get("crawled once"); ok {
		t.Fatal("a conversion put once was stored")
	}
	c.Put("crawled once", r)
	if got, ok := c.Get("crawled once"); !ok || string(got.Markdown) != "# once" {
		t.Fatalf("the second put was not stored: %v %v", got, ok)
	}
	// A crawl of many pages, each once, stores nothing and evicts nothing.
	for i := range 3 * doorkeeperSlots {
		c.Put(fmt.Sprint("/page/", i), &Result{Markdown: make([]byte, 100)})
	}
	if _, _, _, n := c.Stats(); n != 1 {
		t.Errorf("after a crawl the cache holds %d entries, want the 1 page asked for twice", n)
	}
	if got := c.skipped.Load(); got != 1+3*doorkeeperSlots {
		t.Errorf("doorkeeper turned away %d puts, want %d", got, 1+3*doorkeeperSlots)
	}
}

// Two pages whose hashes share a slot of the doorkeeper, asked for in
// turn, are both stored at their second conversion.
func TestCacheDoorkeeperSharedSlot(t *testing.T) {
	c := NewCache(1 << 20)
	slot := func(k string) uint64 { return (maphash.String(doorkeeperSeed, k) | 1) % doorkeeperSlots }
	a, b := "/a", ""
	for i := 0; b == ""; i++ {
		if k := fmt.Sprint("/b", i); slot(k) == slot(a) {
			b = k
		}
	}
	r := &Result{Markdown: []byte("x")}
	c.Put(a, r)
	c.Put(b, r)
	c.Put(a, r)
	c.Put(b, r)
	for _, k := range []string{a, b} {
		if _, ok := c.Get(k); !ok {
			t.Errorf("%s not stored after its second conversion", k)
		}
	}
}

func TestCacheOff(t *testing.T) {
	for name, c := range map[string]*Cache{"nil": nil, "zero": NewCache(0)} {
		put(c, "k", &Result{Markdown: []byte("x")})
		if _, ok := c.Get("k"); ok {
			t.Errorf("%s cache returned an entry", name)
		}
		if _, _, b, n := c.Stats(); b != 0 || n != 0 {
			t.Errorf("%s cache holds %d bytes in %d entries", name, b, n)
		}
	}
}

func TestCacheConcurrent(t *testing.T) {
	c := NewCache(64 << 10)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 500 {
				k := fmt.Sprint(g, i%50)
				if _, ok := c.Get(k); !ok {
					c.Put(k, &Result{Markdown: make([]byte, 100+i)})
				}
			}
		})
	}
	wg.Wait()
	if _, _, b, _ := c.Stats(); b > 64<<10 {
		t.Errorf("cache grew to %d bytes", b)
	}
}

// TestKeyURLIsKey holds KeyURL, which writes the page's URL into the key
// from its pieces, to Key of the URL's String, for URLs of every shape
// String writes differently (and those KeyURL hands to String).
func TestKeyURLIsKey(t *testing.T) {
	c := NewCache(1 << 20)
	resp := http.Header{"Etag": {`"v1"`}, "Content-Language": {"de", "en"}}
	urls := []*url.URL{
		{Scheme: "http", Host: "127.0.0.1:8080", Path: "/size/1k.html"},
		{Scheme: "https", Host: "Example.COM", Path: "/a b/ü", RawQuery: "q=1&x=%20"},
		{Scheme: "https", Host: "example.com", Path: "/a/b", RawPath: "/a%2Fb"},
		{Scheme: "https", Host: "example.com", Path: "/a/b", RawPath: "/a%2fb/wrong"},
		{Scheme: "https", Host: "example.com"},
		{Scheme: "https", Host: "example.com", Path: "relative"},
		{Scheme: "http", Host: "[::1]:80", Path: "/"},
		{Scheme: "http", Host: "[fe80::1%en0]:80", Path: "/"},
		{Scheme: "http", Host: "bücher.example", Path: "/"},
		{Scheme: "http", Host: "a b", Path: "/"},
		{Scheme: "https", Host: "example.com", Path: "/", ForceQuery: true},
		{Scheme: "https", Host: "example.com", Path: "/", Fragment: "top"},
		{Scheme: "https", Host: "example.com", Path: "/", User: url.UserPassword("u", "p")},
		{Scheme: "mailto", Opaque: "a@example.com"},
		{Scheme: "https", Path: "/no-host"},
		{Host: "example.com", Path: "/no-scheme"},
		{Scheme: "https", Host: "example.com", Path: "/x", OmitHost: true},
	}
	for _, raw := range []string{"https://example.com/%7Ea/%E2%82%AC?x=%2F#f", "http://h:1/p;q?a=b&c", "https://EXAMPLE.com:443/A%2fB"} {
		u, err := url.Parse(raw)
		if err != nil {
			t.Fatal(err)
		}
		urls = append(urls, u)
	}
	for _, u := range urls {
		for _, opts := range []string{"h", ""} {
			want, wantOK := c.Key(u.String(), nil, resp, opts)
			got, ok := c.KeyURL(u, nil, resp, opts)
			if got != want || ok != wantOK {
				t.Errorf("%#v: KeyURL = %q, %v; Key of String = %q, %v", u, got, ok, want, wantOK)
			}
		}
	}
}
