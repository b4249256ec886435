package connect

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func TestRefreshConditional(t *testing.T) {
	src := newFakeSource()
	s, _ := newTestServer(t, Options{}, src)
	first := s.Stats()
	if first.Pages != len(testPages) || first.Fetched != len(testPages) || first.Bytes == 0 {
		t.Fatalf("after the first refresh: %+v", first)
	}

	// Unchanged site: every page answers not-modified, nothing is re-indexed.
	if err := s.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	st := s.Stats()
	if st.NotModified != len(testPages) || st.Fetched != 0 || st.Pages != len(testPages) || st.Refreshes != 2 {
		t.Fatalf("unchanged refresh: %+v", st)
	}

	// One page changes, one disappears, one appears.
	src.set("/about", &Page{Title: "About the studio", Markdown: []byte("# About\n\nNow with a gallery of raku pieces."), Validators: Validators{ETag: `"v2"`}})
	src.drop("/contact")
	src.set("/gallery", &Page{Title: "Gallery", Markdown: []byte("# Gallery\n\nRaku and stoneware.")})
	if err := s.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	st = s.Stats()
	if st.Fetched != 2 || st.Removed != 1 || st.NotModified != len(testPages)-2 || st.Pages != len(testPages) {
		t.Fatalf("changed refresh: %+v", st)
	}
	hits, err := s.index.search(context.Background(), "raku", 10)
	if err != nil || len(hits) != 2 {
		t.Fatalf("search after update = %d hits, %v; want about and gallery", len(hits), err)
	}
	if s.index.get(testOrigin+"/contact") != nil {
		t.Error("a dropped page is still served")
	}
	if hits, _ := s.index.search(context.Background(), "potiers", 10); len(hits) != 0 {
		t.Error("a dropped page is still found")
	}
}

func TestRefreshBounds(t *testing.T) {
	tests := []struct {
		name        string
		opts        Options
		edit        func(*fakeSource)
		wantPages   int
		wantSkipped int
		wantFailed  int
		wantErr     bool // every fetch failed: the refresh failed
	}{
		{name: "page cap", opts: Options{MaxPages: 4}, wantPages: 4, wantSkipped: len(testPages) - 4},
		{name: "byte budget", opts: Options{MaxBytes: 400}, wantPages: -1, wantSkipped: -1},
		{name: "huge page skipped", edit: func(f *fakeSource) {
			f.set("/huge", &Page{Title: "Huge", Markdown: bytes.Repeat([]byte("a "), maxPageBytes)})
		}, wantPages: len(testPages), wantSkipped: 1},
		{name: "foreign and malformed listings ignored", edit: func(f *fakeSource) {
			f.extra = []string{"https://evil.example/x", "::::", testOrigin + "/../etc/passwd", testOrigin + "/about#again"}
		}, wantPages: len(testPages)},
		{name: "failing page", edit: func(f *fakeSource) {
			f.order = append(f.order, testOrigin+"/missing")
		}, wantPages: len(testPages), wantFailed: 1},
		{name: "nil page", edit: func(f *fakeSource) {
			f.fetchFn = func(context.Context, string) (*Page, error) { return nil, nil }
		}, wantPages: 0, wantFailed: len(testPages), wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := newFakeSource()
			if tt.edit != nil {
				tt.edit(src)
			}
			s, _ := newUnindexedServer(t, tt.opts, src)
			if err := s.Refresh(context.Background()); (err != nil) != tt.wantErr {
				t.Fatalf("Refresh = %v, want an error: %v", err, tt.wantErr)
			}
			st := s.Stats()
			if tt.opts.MaxBytes > 0 && (st.Bytes > tt.opts.MaxBytes || st.Pages == 0 || st.Skipped == 0) {
				t.Fatalf("byte budget %d: %+v", tt.opts.MaxBytes, st)
			}
			if tt.wantPages >= 0 && st.Pages != tt.wantPages {
				t.Errorf("pages = %d, want %d (%+v)", st.Pages, tt.wantPages, st)
			}
			if tt.wantSkipped >= 0 && st.Skipped != tt.wantSkipped {
				t.Errorf("skipped = %d, want %d (%+v)", st.Skipped, tt.wantSkipped, st)
			}
			if st.Failed != tt.wantFailed {
				t.Errorf("failed = %d, want %d (%+v)", st.Failed, tt.wantFailed, st)
			}
		})
	}
}

func TestRefreshKeepsPageOnFailure(t *testing.T) {
	src := newFakeSource()
	s, _ := newTestServer(t, Options{}, src)
	src.fetchFn = func(context.Context, string) (*Page, error) { return nil, errors.New("origin down") }
	if err := s.Refresh(context.Background()); err == nil || !strings.Contains(err.Error(), "every page fetch failed") {
		t.Fatalf("Refresh = %v, want a failed refresh", err)
	}
	if st := s.Stats(); st.Failed != len(testPages) || st.Pages != len(testPages) || st.State != StateStale || st.Failures != 1 {
		t.Fatalf("stats %+v: want every fetch failed, every page kept, the index stale", st)
	}
}

// TestRefreshSlowSource: a Source that ignores its context is abandoned at
// FetchTimeout, so the refresh ends and counts the pages as failed.
func TestRefreshSlowSource(t *testing.T) {
	src := newFakeSource()
	release := make(chan struct{})
	defer close(release)
	src.fetchFn = func(context.Context, string) (*Page, error) {
		<-release // ignores the context on purpose
		return nil, errors.New("released")
	}
	s, err := New(Options{Origin: testOrigin, FetchTimeout: 10 * time.Millisecond}, src, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Refresh(context.Background()); err == nil {
		t.Fatal("a refresh whose every fetch timed out succeeded")
	}
	if st := s.Stats(); st.Failed != len(testPages) || st.Pages != 0 || st.State != StateEmpty {
		t.Fatalf("stats %+v", st)
	}
}

func TestRefreshCancelled(t *testing.T) {
	src := newFakeSource()
	ctx, cancel := context.WithCancel(context.Background())
	var n atomic.Int64
	src.fetchFn = func(ctx context.Context, u string) (*Page, error) {
		if n.Add(1) == 2 {
			cancel()
		}
		return &Page{Markdown: []byte("x")}, ctx.Err()
	}
	s, err := New(Options{Origin: testOrigin}, src, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Refresh(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("Refresh = %v, want context.Canceled", err)
	}
	if st := s.Stats(); st.LastError == "" || st.Refreshing {
		t.Errorf("stats %+v", st)
	}
}

func TestStartSchedulesAndCloseStops(t *testing.T) {
	src := newFakeSource()
	s, err := New(Options{Origin: testOrigin, Refresh: time.Millisecond}, src, nil)
	if err != nil {
		t.Fatal(err)
	}
	s.Start(context.Background())
	s.Start(context.Background()) // no second schedule
	deadline := time.Now().Add(10 * time.Second)
	for s.Stats().Refreshes < 3 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	n := s.Stats().Refreshes
	if n < 3 {
		t.Fatalf("%d refreshes ran", n)
	}
	if s.Stats().Pages != len(testPages) {
		t.Errorf("pages = %d", s.Stats().Pages)
	}
	if err := s.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

func TestNewRejectsBadOptions(t *testing.T) {
	for name, o := range map[string]Options{
		"no origin":      {},
		"origin path":    {Origin: "https://a.example/docs"},
		"ftp origin":     {Origin: "ftp://a.example"},
		"relative path":  {Origin: testOrigin, MCPPath: "mcp"},
		"same paths":     {Origin: testOrigin, MCPPath: "/x", AskPath: "/x"},
		"negative pages": {Origin: testOrigin, MaxPages: -1},
		"oauth partial":  {Origin: testOrigin, Auth: &OAuth{Issuer: "https://as.example"}},
	} {
		t.Run(name, func(t *testing.T) {
			if s, err := New(o, newFakeSource(), nil); err == nil {
				s.Close()
				t.Fatal("accepted")
			}
		})
	}
	if _, err := New(Options{Origin: testOrigin}, nil, nil); err == nil {
		t.Error("accepted a nil source")
	}
}

// TestRebuildFollowsChanges: every refresh that changes a page swaps in a
// full-text index built anew, which finds the new text and still every
// other page; a refresh that changes nothing keeps the build it has.
func TestRebuildFollowsChanges(t *testing.T) {
	src := newFakeSource()
	s, _ := newTestServer(t, Options{}, src)
	for i := range 3 {
		src.set("/news", &Page{Title: "News", Markdown: []byte(fmtPath("# News\n\nEdition %d of the stoneware letter.", i)),
			Validators: Validators{ETag: fmtPath(`"n%d"`, i)}})
		if err := s.Refresh(context.Background()); err != nil {
			t.Fatal(err)
		}
		hits, err := s.index.search(context.Background(), "stoneware letter", 5)
		if err != nil || len(hits) != 1 || !strings.Contains(hits[0].snippet, fmtPath("Edition %d", i)) {
			t.Fatalf("refresh %d: %+v, %v", i, hits, err)
		}
	}
	if hits, _ := s.index.search(context.Background(), "kiln", 5); len(hits) == 0 {
		t.Error("the rebuild lost pages")
	}
	before := s.index.full.Load()
	if err := s.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	if s.index.full.Load() != before {
		t.Error("a refresh that changed nothing rebuilt the index")
	}
}
