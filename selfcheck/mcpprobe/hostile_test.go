package mcpprobe

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// fake serves a hand-written MCP endpoint: reply gets the JSON-RPC method,
// and the request id in the X-Rpc-Id request header.
func fake(t *testing.T, reply func(w http.ResponseWriter, r *http.Request, method string)) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var m struct {
			Method string
			ID     json.RawMessage
		}
		_ = json.NewDecoder(io.LimitReader(r.Body, 1<<16)).Decode(&m)
		r.Header.Set("X-Rpc-Id", string(m.ID))
		reply(w, r, m.Method)
	}))
	t.Cleanup(srv.Close)
	return srv
}

const initOK = `{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"fake","version":"0"}}}`

func writeAs(w http.ResponseWriter, ctype, body string) {
	w.Header().Set("Content-Type", ctype)
	_, _ = io.WriteString(w, body)
}

// listing answers initialize and notifications properly and tools/list with
// toolsList.
func listing(toolsList func(w http.ResponseWriter, r *http.Request)) func(http.ResponseWriter, *http.Request, string) {
	return func(w http.ResponseWriter, r *http.Request, method string) {
		switch method {
		case "initialize":
			writeAs(w, "application/json", initOK)
		case "tools/list":
			toolsList(w, r)
		default:
			w.WriteHeader(http.StatusAccepted)
		}
	}
}

func TestProbeHostile(t *testing.T) {
	tests := []struct {
		name       string
		reply      func(w http.ResponseWriter, r *http.Request, method string)
		opts       Options
		initialize bool
		errHas     string
	}{
		{"html page", func(w http.ResponseWriter, _ *http.Request, _ string) {
			writeAs(w, "text/html", "<!doctype html><p>hello")
		}, Options{}, false, "unexpected content type"},
		{"malformed json", func(w http.ResponseWriter, _ *http.Request, _ string) {
			writeAs(w, "application/json", "{not json")
		}, Options{}, false, "decoding json-rpc message"},
		{"json-rpc error", func(w http.ResponseWriter, _ *http.Request, _ string) {
			writeAs(w, "application/json", `{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found"}}`)
		}, Options{}, false, "json-rpc error -32601"},
		{"sse without the response", func(w http.ResponseWriter, _ *http.Request, _ string) {
			writeAs(w, "text/event-stream", "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"ping\",\"id\":99}\n\n: comment\n\n")
		}, Options{}, false, "event stream ended without the response"},
		{"405 (not streamable http)", func(w http.ResponseWriter, _ *http.Request, _ string) {
			w.WriteHeader(http.StatusMethodNotAllowed)
		}, Options{}, false, "http status 405"},
		{"oversize body", func(w http.ResponseWriter, _ *http.Request, _ string) {
			writeAs(w, "application/json", `{"jsonrpc":"2.0","id":1,"result":{"pad":"`+strings.Repeat("x", 4096)+`"}}`)
		}, Options{MaxBodyBytes: 1024}, false, "size cap"},
		{"endless event stream", func(w http.ResponseWriter, _ *http.Request, _ string) {
			w.Header().Set("Content-Type", "text/event-stream")
			for i := 0; i < 10000; i++ {
				if _, err := io.WriteString(w, ": keep-alive padding padding padding\n"); err != nil {
					return
				}
			}
		}, Options{MaxBodyBytes: 2048}, false, "size cap"},
		{"unknown protocol version", func(w http.ResponseWriter, _ *http.Request, _ string) {
			writeAs(w, "application/json", strings.Replace(initOK, "2025-06-18", "1999-01-01", 1))
		}, Options{}, true, "does not speak"},
		{"garbage tools/list", listing(func(w http.ResponseWriter, _ *http.Request) {
			writeAs(w, "application/json", `{"jsonrpc":"2.0","id":2,"result":{"tools":"many"}}`)
		}), Options{}, true, "no tools array"},
		{"repeating cursor", listing(func(w http.ResponseWriter, r *http.Request) {
			body := `{"jsonrpc":"2.0","id":` + r.Header.Get("X-Rpc-Id") + `,"result":{"tools":[{"name":"a"}],"nextCursor":"same"}}`
			writeAs(w, "text/event-stream", "data: "+body+"\n\n")
		}), Options{}, true, "cursor repeated"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := fake(t, tt.reply)
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			res := ProbeWith(ctx, srv.Client(), srv.URL+"/mcp", tt.opts)
			if res.Initialize != tt.initialize || !strings.Contains(res.Err, tt.errHas) {
				t.Errorf("initialize = %v, err = %q, want %v and %q", res.Initialize, res.Err, tt.initialize, tt.errHas)
			}
			if len(res.Exchanges) == 0 || res.Exchanges[0].Method != "initialize" {
				t.Errorf("exchanges = %+v", res.Exchanges)
			}
			for _, ex := range res.Exchanges {
				if len(ex.Excerpt) > 1024+len("…") {
					t.Errorf("excerpt of %d bytes", len(ex.Excerpt))
				}
			}
		})
	}
}

// hangingServer answers with prelude, then never finishes the response.
func hangingServer(t *testing.T, prelude func(w http.ResponseWriter)) string {
	t.Helper()
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		prelude(w)
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(release) })
	return srv.URL
}

func TestProbeHangs(t *testing.T) {
	tests := []struct {
		name    string
		prelude func(w http.ResponseWriter)
	}{
		{"no headers", func(http.ResponseWriter) {}},
		{"mid event stream", func(w http.ResponseWriter) {
			w.Header().Set("Content-Type", "text/event-stream")
			_, _ = io.WriteString(w, ": open\n\n")
			w.(http.Flusher).Flush()
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u := hangingServer(t, tt.prelude)
			ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
			defer cancel()
			res := Probe(ctx, nil, u)
			if res.Initialize || !strings.Contains(res.Err, "deadline exceeded") {
				t.Errorf("initialize = %v, err = %q", res.Initialize, res.Err)
			}
		})
	}
}

func TestProbeBadEndpoint(t *testing.T) {
	for _, ep := range []string{"", "ftp://example.com/mcp", "::", "/relative"} {
		res := Probe(context.Background(), nil, ep)
		if res.Err == "" || len(res.Exchanges) != 0 {
			t.Errorf("Probe(%q) = %+v", ep, res)
		}
	}
}

func TestProbeRefused(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	u := srv.URL
	srv.Close()
	res := Probe(context.Background(), nil, u+"/mcp?token=abc")
	if res.Err == "" || strings.Contains(res.Err+res.Endpoint, "abc") {
		t.Errorf("res = %+v", res)
	}
}

func TestProbeBadSessionID(t *testing.T) {
	srv := fake(t, func(w http.ResponseWriter, r *http.Request, method string) {
		if method == "initialize" {
			w.Header().Set("Mcp-Session-Id", "bad id")
			writeAs(w, "application/json", initOK)
			return
		}
		if r.Header.Get("Mcp-Session-Id") != "" {
			t.Error("probe echoed an invalid session id")
		}
		if method == "tools/list" {
			writeAs(w, "application/json", `{"jsonrpc":"2.0","id":2,"result":{"tools":[]}}`)
			return
		}
		w.WriteHeader(http.StatusAccepted)
	})
	res := Probe(context.Background(), srv.Client(), srv.URL)
	if res.SessionAssigned || !strings.Contains(res.Err, "visible ASCII") || !res.ToolsList {
		t.Errorf("res = %+v", res)
	}
}
