package inproc

import (
	"context"
	"io"
	"net/http"
	"testing"

	"github.com/agentready/caddy-agentready/internal/outsider"
)

type callerKey struct{}

type markKey struct{}

// TestTransport: the handler's status, headers and body come back as the
// response; HEAD has no body; a 1xx is not the final status; a panic is an
// error, not a clean response; the handler sees only what Carry copies of
// the caller's context, as an outside visitor.
func TestTransport(t *testing.T) {
	var seen *http.Request
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen = r
		switch r.URL.Path {
		case "/panic":
			panic("boom")
		case "/early":
			w.WriteHeader(http.StatusEarlyHints)
		}
		w.Header().Set("X-Test", "1")
		w.Header().Set("Content-Length", "5")
		w.WriteHeader(http.StatusTeapot)
		io.WriteString(w, "stout")
	})
	carry := func(caller, ctx context.Context) context.Context {
		return context.WithValue(ctx, callerKey{}, caller.Value(callerKey{}))
	}
	for _, tc := range []struct {
		method, path string
		wantErr      bool
		wantBody     string
	}{
		{"GET", "/pot", false, "stout"},
		{"HEAD", "/pot", false, ""},
		{"GET", "/early", false, "stout"},
		{"GET", "/panic", true, ""},
	} {
		ctx := context.WithValue(context.Background(), callerKey{}, "kept")
		ctx = context.WithValue(ctx, markKey{}, "dropped")
		req, _ := http.NewRequestWithContext(ctx, tc.method, "http://example.test"+tc.path, nil)
		resp, err := (&http.Client{Transport: Transport{Handler: h, Carry: carry}}).Do(req)
		var body []byte
		if err == nil {
			body, err = io.ReadAll(resp.Body)
			resp.Body.Close()
		}
		if (err != nil) != tc.wantErr {
			t.Errorf("%s %s: err %v, want error %v", tc.method, tc.path, err, tc.wantErr)
			continue
		}
		if tc.wantErr {
			continue
		}
		if resp.StatusCode != http.StatusTeapot || resp.Header.Get("X-Test") != "1" || resp.ContentLength != 5 || string(body) != tc.wantBody {
			t.Errorf("%s %s: got %d %q %v (length %d)", tc.method, tc.path, resp.StatusCode, body, resp.Header, resp.ContentLength)
		}
		if seen.RemoteAddr != outsider.RemoteAddr || seen.Context().Value(callerKey{}) != "kept" || seen.Context().Value(markKey{}) != nil {
			t.Errorf("%s %s: the handler saw %q, carried %v, not carried %v", tc.method, tc.path,
				seen.RemoteAddr, seen.Context().Value(callerKey{}), seen.Context().Value(markKey{}))
		}
	}
}

// TestTransportErrors: a request without a host, or whose context ends
// before the handler answers, is an error.
func TestTransportErrors(t *testing.T) {
	block := make(chan struct{})
	defer close(block)
	h := http.HandlerFunc(func(http.ResponseWriter, *http.Request) { <-block })
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", "http://example.test/", nil)
	if _, err := (Transport{Handler: h}).RoundTrip(req); err == nil {
		t.Error("a request whose context ended got a response")
	}
	req, _ = http.NewRequest("GET", "/relative", nil)
	if _, err := (Transport{Handler: h}).RoundTrip(req); err == nil {
		t.Error("a request without a host got a response")
	}
}

// TestMark: Mark sets its key in the context of the requests it carries,
// and only its own.
func TestMark(t *testing.T) {
	var got context.Context
	h := http.HandlerFunc(func(http.ResponseWriter, *http.Request) {})
	carry := func(caller, ctx context.Context) context.Context { got = caller; return ctx }
	rt := Mark[markKey]{Transport{Handler: h, Carry: carry}}
	resp, err := (&http.Client{Transport: rt}).Get("http://example.test/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if !Marked[markKey](got) || Marked[callerKey](got) {
		t.Errorf("marked %v, other mark %v", Marked[markKey](got), Marked[callerKey](got))
	}
}
