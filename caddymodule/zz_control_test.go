package caddymodule

import (
"fmt"
"net/http"
"strconv"
"strings"
"sync"
"sync/atomic"
"testing"
)

func TestZZControlReload(t *testing.T) {
	origin := newOrigin(t)
	config := func(signal string) string {
		return fmt.Sprintf(`{
	admin 127.0.0.1:{admin}
	persist_config off
}
:{port} {
	bind 127.0.0.1
	encode gzip
	header Content-Signal %s
	respond "---`+"\n"+`title: Pricing`+"\n"+`</html>" 200 # %s
}`, signal, strings.TrimPrefix(origin.URL, "http://"))
	}
	base, admin := runCaddy(t, config("search=yes"))
	ports := strings.NewReplacer("{port}", strings.TrimPrefix(base, "http://127.0.0.1:"), "{admin}", strings.TrimPrefix(admin, "http://127.0.0.1:"))
	configs := []string{ports.Replace(config("search=yes")), ports.Replace(config("search=no"))}

	var (
		stop     atomic.Bool
		inFlight atomic.Int64
		done     atomic.Int64
		wg       sync.WaitGroup
		mu       sync.Mutex
		failures []string
		signals  = map[string]int{}
	)
	fail := func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		if len(failures) < 20 {
			failures = append(failures, fmt.Sprintf(format, args...))
		}
	}
	const workers = 4
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			client := &http.Client{Transport: &http.Transport{DisableCompression: true}}
			defer client.CloseIdleConnections()
			for i := 0; !stop.Load(); i++ {
				markdown := (i+w)%2 == 0
				accept := acceptBrowser
				if markdown {
					accept = acceptMarkdown
				}
				inFlight.Add(1)
				resp, body, err := fetch(client, "GET", base+"/pricing", "Accept", accept)
				inFlight.Add(-1)
				done.Add(1)
				switch {
				case err != nil:
					fail("Accept %s: %v", accept, err)
				case resp.StatusCode != 200:
					fail("Accept %s: status %d", accept, resp.StatusCode)
				case markdown && !strings.HasPrefix(body, "---\ntitle: Pricing\n"):
					fail("Markdown form incomplete: %.100q", body)
				case !markdown && !strings.Contains(body, "</html>"):
					fail("HTML form incomplete: %d bytes", len(body))
				case resp.Header.Get("Content-Length") != "" && resp.Header.Get("Content-Length") != strconv.Itoa(len(body)):
					fail("Content-Length %s for %d bytes", resp.Header.Get("Content-Length"), len(body))
				default:
					mu.Lock()
					signals[resp.Header.Get("Content-Signal")]++
					mu.Unlock()
				}
			}
		}()
	}

	busy := 0
	for i := 1; i <= 4; i++ {
		waitFor(t, func() bool { return done.Load() >= int64(20*i) })
		if inFlight.Load() > 0 {
			busy++
		}
		loadCaddyfile(t, configs[i%2])
	}
	waitFor(t, func() bool { return done.Load() >= 100 })
	stop.Store(true)
	wg.Wait()

	for _, f := range failures {
		t.Error(f)
	}
	if busy == 0 {
		t.Errorf("no reload happened while requests were in flight")
	}
	if signals["search=yes"] == 0 || signals["search=no"] == 0 {
		t.Errorf("both configurations must have answered: %v", signals)
	}
	t.Logf("%d requests across 4 reloads (%d started with requests in flight): %v", done.Load(), busy, signals)
}

