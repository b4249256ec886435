package htmlrewrite

import (
	"bytes"
	"strings"
	"testing"
)

// testPlanCache is the bound of the plan caches of the tests.
const testPlanCache = 8 << 20

// planned rewrites page with inj through a fresh plan cache, twice: the
// first time by the rewriter, recording the plan, the second from the plan.
func planned(t testing.TB, page []byte, inj *Injection) (first, second []byte, plans int) {
	t.Helper()
	c := NewPlanCache(testPlanCache)
	inj.Key = "test"
	first, plan1 := RewritePage(nil, page, inj, c)
	second, plan2 := RewritePage(nil, page, inj, c)
	if plan1 || !plan2 {
		t.Fatalf("from a plan: first %v, second %v; want false, true", plan1, plan2)
	}
	return first, second, c.Len()
}

// planPages are the pages the plan tests replay: every rewrite golden, and
// every tokenizer case in a head before a form.
func planPages(t *testing.T) [][]byte {
	t.Helper()
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
	return pages
}

func TestRewritePlanReplaysTheRewrite(t *testing.T) {
	for _, page := range planPages(t) {
		for i, inj := range libraryInjections {
			inj := *inj
			first, second, n := planned(t, page, &inj)
			if want := libraryRewrite(page, &inj); !bytes.Equal(first, want) {
				t.Fatalf("injection %d: RewritePage differs from x/net/html's tokens:\n%q\n%q", i, first, want)
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
	c := NewPlanCache(testPlanCache)
	inj := &Injection{Lang: "en", Head: []HeadElement{alwaysHead}, Key: "k"}
	// The same length, the head's end 3 bytes apart.
	a := []byte("<html><head><title>A</title></head><body>aaaa</body></html>")
	b := []byte("<html><head><title>BBBB</title></head><body>b</body></html>")
	if len(a) != len(b) {
		t.Fatalf("pages of %d and %d bytes: the check must be the bytes, not the length", len(a), len(b))
	}
	want, _ := RewritePage(nil, b, inj, c)
	pb := onlyPlan(t, c)
	c.drop(pb)
	RewritePage(nil, a, inj, c)
	pa := onlyPlan(t, c)
	c.drop(pa)
	pa.key = pb.key
	c.put(pa)
	if got, fromPlan := RewritePage(nil, b, inj, c); !bytes.Equal(got, want) || fromPlan {
		t.Fatalf("with page A's plan under its key, page B came out as\n%q\nwant\n%q", got, want)
	}
	if p := c.get(pb.key); p == pa || p == nil {
		t.Errorf("plan under B's key: %p (A's was %p); want B's own, recorded anew", p, pa)
	}
}

// onlyPlan returns the one plan c keeps.
func onlyPlan(t *testing.T, c *PlanCache) *plan {
	t.Helper()
	if n := c.Len(); n != 1 {
		t.Fatalf("%d plans, want 1", n)
	}
	for _, p := range c.plans.All() {
		return p
	}
	return nil
}

func TestRewritePlanNeedsAKey(t *testing.T) {
	c := NewPlanCache(testPlanCache)
	page := []byte("<html><head></head><body></body></html>")
	inj := &Injection{Lang: "en"}
	RewritePage(nil, page, inj, c)
	if n := c.Len(); n != 0 {
		t.Errorf("%d plans kept for an injection without a Key", n)
	}
}

// A rewrite that gave up part way (a tag too large to hold) leaves no
// plan: only complete rewrites are replayed.
func TestRewritePlanNotForAGivenUpRewrite(t *testing.T) {
	page := []byte("<html><head><meta content=\"" + strings.Repeat("x", 2*maxTokenBuf) + "\"></head><body>")
	r := New(&bytes.Buffer{}, &Injection{Lang: "en", Head: []HeadElement{alwaysHead}})
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
	c := NewPlanCache(10 << 10)
	for i := range 100 {
		p := &plan{key: planKey{page: uint64(i)}}
		p.add(0, 0, 0, make([]byte, 1000))
		p.seal(3)
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
	big.add(0, 0, 0, make([]byte, 20<<10))
	c.put(big)
	if c.get(big.key) != nil {
		t.Error("a plan larger than the whole cache was kept")
	}
}
