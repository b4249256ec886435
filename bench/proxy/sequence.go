package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"time"
)

// runSequence is the sequence subcommand: -n GET requests to -url, one
// after the other on one kept-alive connection, each body read to the end.
// It is the load of bench/proxy/wholeproc.sh, which counts the
// instructions a Caddy process spends on them: a fixed number of requests,
// none in flight together, so that the count per request repeats from run
// to run. It prints the number of responses by status and their bytes, and
// fails on a response outside 2xx or on a network error.
func runSequence(ctx context.Context, args []string, w io.Writer) error {
	fl := flag.NewFlagSet("sequence", flag.ContinueOnError)
	target := fl.String("url", "", "URL to ask, e.g. http://127.0.0.1:8080/size/1k.html (loopback only)")
	n := fl.Int("n", 2000, "requests")
	accept := fl.String("accept", "text/html", "Accept header of each request")
	if err := fl.Parse(args); err != nil {
		return err
	}
	u, err := url.Parse(*target)
	if err != nil || u.Scheme != "http" {
		return fmt.Errorf("sequence: bad URL %q", *target)
	}
	if err := loopbackOnly(u.Host); err != nil {
		return fmt.Errorf("sequence: %w", err)
	}
	if *n <= 0 {
		return fmt.Errorf("sequence: -n must be positive")
	}
	client := newClient(1, 30*time.Second)
	defer client.CloseIdleConnections()
	statuses := map[int]int{}
	var bytes int64
	for i := 0; i < *n; i++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, *target, nil)
		if err != nil {
			return fmt.Errorf("sequence: %w", err)
		}
		req.Header.Set("Accept", *accept)
		resp, err := client.Do(req)
		if err != nil {
			return fmt.Errorf("sequence: request %d: %w", i+1, err)
		}
		m, err := io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if err != nil {
			return fmt.Errorf("sequence: request %d: reading the body: %w", i+1, err)
		}
		if resp.StatusCode < 200 || resp.StatusCode > 299 {
			return fmt.Errorf("sequence: request %d: status %d", i+1, resp.StatusCode)
		}
		statuses[resp.StatusCode]++
		bytes += m
	}
	fmt.Fprintf(w, "%d requests to %s: statuses %v, %d body bytes\n", *n, *target, statuses, bytes)
	return nil
}
