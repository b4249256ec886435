// Command proxy is the Go half of the proxy benchmarks in bench/proxy: the
// origin the front Caddy instances proxy to, and the load and memory drivers
// that wrk cannot be (a fixed request rate with a mixed workload, peak RSS of
// the Caddy process). bench/proxy/run.sh drives it; everything listens on and
// talks to loopback only.
//
// Usage:
//
//	proxy origin -addr 127.0.0.1:PORT -site examples/site
//	proxy ports N
//	proxy soak -base http://127.0.0.1:PORT -pid PID [-rate 100] [-duration 10m]
//	proxy memory -base http://127.0.0.1:PORT -pid PID [-concurrency 64]
//	proxy starve -base http://127.0.0.1:PORT [-attackers 40] [-sources 1] [-rate 50] [-duration 15s]
//	proxy overhead-report [-file overhead.tsv]
//	proxy sequence -url http://127.0.0.1:PORT/PATH [-n 2000] [-accept text/html]
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: proxy origin|ports|soak|memory|starve|overhead-report|sequence [flags]")
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	var err error
	switch os.Args[1] {
	case "origin":
		err = runOrigin(ctx, os.Args[2:])
	case "ports":
		err = runPorts(os.Args[2:])
	case "soak":
		err = runSoak(ctx, os.Args[2:], os.Stdout)
	case "memory":
		err = runMemory(ctx, os.Args[2:], os.Stdout)
	case "starve":
		err = runStarve(ctx, os.Args[2:], os.Stdout)
	case "overhead-report":
		err = runOverheadReport(os.Args[2:], os.Stdin, os.Stdout)
	case "sequence":
		err = runSequence(ctx, os.Args[2:], os.Stdout)
	default:
		err = fmt.Errorf("unknown subcommand %q", os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "proxy:", err)
		os.Exit(1)
	}
}
