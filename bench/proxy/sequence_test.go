package main

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

func TestSequence(t *testing.T) {
	var asked, conns atomic.Int64
	var accept atomic.Value
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked.Add(1)
		accept.Store(r.Header.Get("Accept"))
		if r.URL.Path == "/missing" {
			http.NotFound(w, r)
			return
		}
		w.Write([]byte("hello"))
	}))
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			conns.Add(1)
		}
	}
	srv.Start()
	defer srv.Close()
	var out strings.Builder
	if err := runSequence(context.Background(), []string{"-url", srv.URL + "/a", "-n", "25", "-accept", "text/markdown"}, &out); err != nil {
		t.Fatal(err)
	}
	if asked.Load() != 25 || conns.Load() != 1 || accept.Load() != "text/markdown" {
		t.Errorf("%d requests on %d connections, Accept %v; want 25 on 1, text/markdown", asked.Load(), conns.Load(), accept.Load())
	}
	if want := "25 requests to " + srv.URL + "/a: statuses map[200:25], 125 body bytes\n"; out.String() != want {
		t.Errorf("printed %q, want %q", out.String(), want)
	}
	for _, args := range [][]string{
		{"-url", srv.URL + "/missing", "-n", "3"},
		{"-url", "http://example.com/", "-n", "3"},
		{"-url", srv.URL, "-n", "0"},
		{"-url", "ftp://127.0.0.1/"},
	} {
		if err := runSequence(context.Background(), args, &out); err == nil {
			t.Errorf("%v: no error", args)
		}
	}
}
