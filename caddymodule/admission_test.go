package caddymodule

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/caddyserver/caddy/v2/modules/caddyhttp"

	"github.com/agentready/caddy-agentready/internal/admission"
)

// TestConversionAdmission: pages wait for their share of the bytes in
// flight before they are buffered, and give up with their client.
func TestConversionAdmission(t *testing.T) {
	ar := &AgentReady{gate: admission.New(admission.Limits{Bytes: 1 << 10}, nil), queueTimeout: time.Minute}
	holder, err := ar.admit(context.Background(), 1<<10) // another page holds every byte
	if err != nil {
		t.Fatal(err)
	}
	refused := func(n int64) bool {
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		defer cancel()
		release, err := ar.admit(ctx, n)
		if err == nil {
			release()
			return false
		}
		if !strings.Contains(err.Error(), "conversion slot") {
			t.Errorf("refusal: %v", err)
		}
		return true
	}
	if !refused(100) {
		t.Fatal("a page was admitted past the bound")
	}
	holder()
	release, err := ar.admit(context.Background(), 100)
	if err != nil {
		t.Fatalf("with the bytes free: %v", err)
	}
	release()
	// A page larger than the bound is admitted alone.
	big, err := ar.admit(context.Background(), 1<<20)
	if err != nil {
		t.Fatalf("a page over the bound: %v", err)
	}
	if !refused(1) {
		t.Error("a page over the bound must hold every byte")
	}
	big()
	if refused(1 << 10) {
		t.Error("releases did not give the bytes back")
	}
}

// TestConversionAdmissionPerClient: conversions are counted per client_ip,
// a client past its share waits until queue_timeout and is told "busy",
// and the CPU slot is waited for by the deadline admit set, not a new one.
func TestConversionAdmissionPerClient(t *testing.T) {
	slots := admission.NewSlots(1)
	ar := &AgentReady{gate: admission.New(admission.Limits{PerClient: 2}, slots), queueTimeout: 20 * time.Millisecond}
	client := func(ip string) context.Context {
		return context.WithValue(context.Background(), caddyhttp.VarsCtxKey, map[string]any{caddyhttp.ClientIPVarKey: ip})
	}
	a := client("192.0.2.1")
	r1, err1 := ar.admit(a, 1)
	r2, err2 := ar.admit(a, 1)
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	var busy *admission.BusyError
	if _, err := ar.admit(client("192.0.2.1"), 1); !errors.As(err, &busy) || busy.FailOpenReason() != "busy" {
		t.Errorf("a third conversion of one client: %v, want busy", err)
	}
	b := client("192.0.2.2")
	rb, err := ar.admit(b, 1)
	if err != nil {
		t.Fatalf("another client: %v", err)
	}
	running, err := ar.runConversion(a)
	if err != nil {
		t.Fatal(err)
	}
	// b's deadline, set when it was admitted, is the one its wait for the
	// CPU keeps.
	ar.queueTimeout = time.Hour
	queueDeadlines.Store(b, time.Now().Add(-time.Second))
	if _, err := ar.runConversion(b); !errors.As(err, &busy) {
		t.Errorf("CPU wait past the admission's deadline: %v, want busy", err)
	}
	running()
	for _, r := range []func(){r1, r2, rb} {
		r()
	}
	// released, the deadlines are not kept
	n := 0
	queueDeadlines.Range(func(any, any) bool { n++; return true })
	if n != 0 {
		t.Errorf("%d queue deadlines kept after every admission was released", n)
	}
}
