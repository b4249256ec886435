package negotiate

import (
	"bytes"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
)

// planned rewrites page with inj through a fresh plan cache, twice: the
// first time by the rewriter, recording the plan, the second from the plan.
func planned(t testing.TB, page []byte, inj *Injection) (first, second []byte, plans int) {
	t.Helper()
	h := &Handler{plans: newPlanCache(DefaultRewriteCache)}
	inj.Key = "test"
	b1, plan1 := h.rewritePage(new([]byte), page, inj)
	b2, plan2 := h.rewritePage(new([]byte), page, inj)
	if plan1 || !plan2 {
		t.Fatalf("from a plan: first %v, second %v; want false, true", plan1, plan2)
	}
	return *b1, *b2, h.plans.len()
}

func TestRewritePlanReplaysTheRewrite(t *testing.T) {
	var pages [][]byte
	for _, tc := range rewriteCases {
		in, err := readGolden(tc.name)
		if err != nil {
			t.Fatal(err)
		}
		pages = append(pages, in)
	}
	for _, in := range tokenizerCases {
		pages = append(pages, []byte("<html><head>"+in+"</head><body><form id=contact><input name=email></form>"))
	}
	for _, page := range pages {
		for i, inj := range libraryInjections {
			inj := *inj
			first, second, n := planned(t, page, &inj)
			if want := libraryRewrite(page, &inj); !bytes.Equal(first, want) {
				t.Fatalf("injection %d: rewritePage differs from the rewriter:\n%q\n%q", i, first, want)
			}
			if !bytes.Equal(second, first) {
				t.Fatalf("injection %d: the plan gives\n%q\nthe rewrite gave\n%q", i, second, first)
			}
			if n != 1 {
				t.Fatalf("%d plans kept, want 1", n)
			}
		}
	}
}

// A plan found for another page (a hash collision, simulated here by
// filing page A's plan under page B's key) is refused by its check bytes,
// dropped, and B is rewritten afresh.
func TestRewritePlanRefusesAnotherPage(t *testing.T) {
	h := &Handler{plans: newPlanCache(DefaultRewriteCache)}
	inj := &Injection{Lang: "en", Head: []HeadElement{alwaysHead}, Key: "k"}
	// The same length, the head's end 3 bytes apart.
	a := []byte("<html><head><title>A</title></head><body>aaaa</body></html>")
	b := []byte("<html><head><title>BBBB</title></head><body>b</body></html>")
	if len(a) != len(b) {
		t.Fatalf("pages of %d and %d bytes: the check must be the bytes, not the length", len(a), len(b))
	}
	first, _ := h.rewritePage(new([]byte), b, inj)
	want := bytes.Clone(*first)
	pb := onlyPlan(t, h)
	h.plans.drop(pb)
	h.rewritePage(new([]byte), a, inj)
	pa := onlyPlan(t, h)
	h.plans.drop(pa)
	pa.key = pb.key
	h.plans.put(pa)
	if got, fromPlan := h.rewritePage(new([]byte), b, inj); !bytes.Equal(*got, want) || fromPlan {
		t.Fatalf("with page A's plan under its key, page B came out as\n%q\nwant\n%q", *got, want)
	}
	if p := h.plans.get(pb.key); p == pa || p == nil {
		t.Errorf("plan under B's key: %p (A's was %p); want B's own, recorded anew", p, pa)
	}
}

// onlyPlan returns the one plan h keeps.
func onlyPlan(t *testing.T, h *Handler) *plan {
	t.Helper()
	if n := h.plans.len(); n != 1 {
		t.Fatalf("%d plans, want 1", n)
	}
	for _, p := range h.plans.plans.All() {
		return p
	}
	return nil
}

func TestRewritePlanNeedsAKey(t *testing.T) {
	h := &Handler{plans: newPlanCache(DefaultRewriteCache)}
	page := []byte("<html><head></head><body></body></html>")
	inj := &Injection{Lang: "en"}
	h.rewritePage(new([]byte), page, inj)
	if n := h.plans.len(); n != 0 {
		t.Errorf("%d plans kept for an injection without a Key", n)
	}
}

// A rewrite that gave up part way (a tag too large to hold) leaves no
// plan: only complete rewrites are replayed.
func TestRewritePlanNotForAGivenUpRewrite(t *testing.T) {
	page := []byte("<html><head><meta content=\"" + strings.Repeat("x", 2*maxTokenBuf) + "\"></head><body>")
	r := newRewriter(&bytes.Buffer{}, &Injection{Lang: "en", Head: []HeadElement{alwaysHead}})
	r.plan = &plan{}
	for p := page; len(p) > 0; {
		n := min(len(p), 32<<10)
		r.Write(p[:n])
		p = p[n:]
	}
	r.Close()
	if r.plan != nil {
		t.Error("a rewrite that gave up kept its plan")
	}
}

func TestPlanCacheBound(t *testing.T) {
	c := newPlanCache(10 << 10)
	for i := range 100 {
		p := &plan{key: planKey{page: uint64(i)}}
		p.add(0, make([]byte, 1000))
		p.seal([]byte("<p>"))
		c.put(p)
		if c.plans.Cost() > c.plans.MaxCost() {
			t.Fatalf("after %d plans the cache holds %d bytes, bound %d", i+1, c.plans.Cost(), c.plans.MaxCost())
		}
		if c.get(planKey{page: 0}) == nil && i < 5 {
			t.Fatalf("the plan used most recently was evicted after %d plans", i+1)
		}
	}
	if c.get(planKey{page: 99}) == nil {
		t.Error("the newest plan is missing")
	}
	if c.get(planKey{page: 50}) != nil {
		t.Error("an old plan survived past the bound")
	}
	big := &plan{key: planKey{page: 1000}}
	big.add(0, make([]byte, 20<<10))
	c.put(big)
	if c.get(big.key) != nil {
		t.Error("a plan larger than the whole cache was kept")
	}
}

// Through the handler: the second request for the same page is annotated
// from the plan, byte for byte as the first, and both carry the exact
// Content-Length; a changed page gets a plan of its own.
func TestHandlerRewritePlans(t *testing.T) {
	page := testPage
	s := newStack(t, stackConfig{
		origin: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprint(w, strings.Replace(page, "<title>", "<title>"+r.URL.Query().Get("v"), 1))
		},
		inject: func(r *http.Request) *Injection {
			return &Injection{Lang: "en", Head: []HeadElement{alwaysHead}, Key: "site"}
		},
	})
	first := s.do(http.MethodGet, "/pricing", hdr("Accept", browserAccept))
	second := s.do(http.MethodGet, "/pricing", hdr("Accept", browserAccept))
	if !bytes.Equal(first.body, second.body) || !strings.Contains(string(first.body), alwaysHead.HTML) {
		t.Fatalf("first %q\nsecond %q", first.body, second.body)
	}
	for _, res := range []*result{first, second} {
		res.wantHeader(t, "Content-Length", fmt.Sprint(len(first.body)))
	}
	if n := s.handler.plans.len(); n != 1 {
		t.Errorf("%d plans after two requests for one page, want 1", n)
	}
	if ev := s.obs.list(); !slices.Contains(ev, "rewrote:plan=false") || !slices.Contains(ev, "rewrote:plan=true") {
		t.Errorf("events %v: want one rewrite read as HTML and one from its plan", ev)
	}
	other := s.do(http.MethodGet, "/pricing?v=2", hdr("Accept", browserAccept))
	if !strings.Contains(string(other.body), "<title>2") || s.handler.plans.len() != 2 {
		t.Errorf("a changed page: %d plans, body %q", s.handler.plans.len(), other.body)
	}
}
