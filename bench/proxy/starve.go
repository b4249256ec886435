package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// The starve measurement (issue 23, hole 9): browsers' HTML latency while
// clients keep many cold Markdown conversions of large pages in flight.

// starveConfig is one starve run.
type starveConfig struct {
	// Base is the front under test.
	Base string
	// Attackers is the number of cold Markdown requests kept in flight.
	Attackers int
	// Sources is the number of loopback addresses the attackers come
	// from (127.0.0.1, 127.0.0.2, …), each a client to the front.
	Sources int
	// Page is the path of the page the attackers ask for, each time with
	// a query of its own (a conversion cache never has it).
	Page string
	// Browser is the path browsers ask for, at Rate per second.
	Browser string
	Rate    float64
	// Duration is the length of each phase.
	Duration time.Duration
}

// attackResult counts what the attackers got.
type attackResult struct {
	markdown, html, errors atomic.Int64
	firstError             atomic.Value // string
}

// sourceClient is a loopback client whose connections come from ip.
func sourceClient(ip net.IP, workers int, timeout time.Duration) *http.Client {
	c := newClient(workers, timeout)
	c.Transport.(*http.Transport).DialContext = (&net.Dialer{Timeout: 5 * time.Second, LocalAddr: &net.TCPAddr{IP: ip}}).DialContext
	return c
}

// attack keeps cfg.Attackers cold Markdown requests in flight until ctx
// ends, spread over cfg.Sources source addresses.
func attack(ctx context.Context, cfg starveConfig, res *attackResult) {
	var seq atomic.Int64
	var wg sync.WaitGroup
	clients := make([]*http.Client, cfg.Sources)
	for i := range clients {
		clients[i] = sourceClient(net.IPv4(127, 0, 0, byte(1+i)), cfg.Attackers, 60*time.Second)
		defer clients[i].CloseIdleConnections()
	}
	for w := range cfg.Attackers {
		client := clients[w%cfg.Sources]
		wg.Go(func() {
			for ctx.Err() == nil {
				u := fmt.Sprintf("%s%s?cold=%d", cfg.Base, cfg.Page, seq.Add(1))
				ctype, err := attackOnce(ctx, client, u)
				switch {
				case ctx.Err() != nil:
				case err != nil:
					res.errors.Add(1)
					res.firstError.CompareAndSwap(nil, err.Error())
				case strings.HasPrefix(ctype, "text/markdown"):
					res.markdown.Add(1)
				default:
					res.html.Add(1)
				}
			}
		})
	}
	wg.Wait()
}

// attackOnce asks for u as Markdown and returns the answer's type.
func attackOnce(ctx context.Context, client *http.Client, u string) (string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return "", err
	}
	req.Header.Set("Accept", markdownAccept)
	resp, err := client.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	if _, err := io.Copy(io.Discard, resp.Body); err != nil {
		return "", err
	}
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("%s: status %d", u, resp.StatusCode)
	}
	return resp.Header.Get("Content-Type"), nil
}

// starvePhase measures browsers for cfg.Duration, with the attack on or
// off, and writes one table row.
func starvePhase(ctx context.Context, cfg starveConfig, attacked bool, w io.Writer) error {
	var res attackResult
	actx, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		if attacked {
			attack(actx, cfg, &res)
		}
	}()
	if attacked {
		time.Sleep(time.Second) // the attack is under way before browsers are measured
	}
	br, err := runLoad(ctx, loadConfig{
		Base: cfg.Base, Rate: cfg.Rate, Duration: cfg.Duration, Workers: 64,
		Max: int(cfg.Rate*cfg.Duration.Seconds()) + 1, Timeout: 30 * time.Second,
		Mix: []request{{Name: "browser " + cfg.Browser, Path: cfg.Browser, Header: accept(browserAccept), Want: 200}},
	})
	stop()
	<-done
	if err != nil {
		return err
	}
	k := br.Kinds[0]
	phase, answers := "browsers alone", "—"
	if attacked {
		phase = fmt.Sprintf("browsers + %d cold Markdown in flight from %d client(s)", cfg.Attackers, cfg.Sources)
		answers = fmt.Sprintf("%d / %d / %d", res.markdown.Load(), res.html.Load(), res.errors.Load())
	}
	fmt.Fprintf(w, "| %s | %d | %d | %.2f | %.2f | %.2f | %s |\n", phase, k.Count, k.Errors+br.Dropped,
		ms(k.Lat.percentile(50)), ms(k.Lat.percentile(99)), ms(k.Lat.percentile(100)), answers)
	if k.FirstError != "" {
		return fmt.Errorf("starve: browser: %d errors, first: %s", k.Errors, k.FirstError)
	}
	if first, _ := res.firstError.Load().(string); first != "" {
		return fmt.Errorf("starve: attack: %d errors, first: %s", res.errors.Load(), first)
	}
	return nil
}

// runStarve is the starve subcommand: browsers' HTML latency alone, then
// while cold Markdown conversions are kept in flight.
func runStarve(ctx context.Context, args []string, w io.Writer) error {
	fl := flag.NewFlagSet("starve", flag.ContinueOnError)
	var cfg starveConfig
	fl.StringVar(&cfg.Base, "base", "", "front URL, e.g. http://127.0.0.1:8080 (loopback only)")
	fl.IntVar(&cfg.Attackers, "attackers", 40, "cold Markdown requests kept in flight")
	fl.IntVar(&cfg.Sources, "sources", 1, "loopback addresses the attackers come from (127.0.0.1 up), each a client")
	fl.StringVar(&cfg.Page, "page", "/size/250k.html", "page the attackers ask for as Markdown, each with a query of its own")
	fl.StringVar(&cfg.Browser, "browser", "/pricing", "page browsers ask for")
	fl.Float64Var(&cfg.Rate, "rate", 50, "browser requests per second")
	fl.DurationVar(&cfg.Duration, "duration", 15*time.Second, "length of each phase")
	header := fl.Bool("header", false, "print the table header and exit")
	if err := fl.Parse(args); err != nil {
		return err
	}
	if *header {
		fmt.Fprintln(w, "| phase | browser requests | errors | p50 ms | p99 ms | max ms | attack answers: Markdown / HTML (busy) / errors |")
		fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|---|")
		return nil
	}
	if cfg.Attackers <= 0 || cfg.Sources <= 0 || cfg.Sources > 250 || cfg.Rate <= 0 || cfg.Duration <= 0 {
		return fmt.Errorf("starve: -attackers, -rate and -duration must be positive, -sources within 1..250")
	}
	u, err := url.Parse(cfg.Base)
	if err != nil || u.Host == "" {
		return fmt.Errorf("starve: bad base URL %q", cfg.Base)
	}
	if err := loopbackOnly(u.Host); err != nil {
		return fmt.Errorf("starve: %w", err)
	}
	for _, attacked := range []bool{false, true} {
		if err := starvePhase(ctx, cfg, attacked, w); err != nil {
			return err
		}
	}
	return nil
}
