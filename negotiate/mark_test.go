package negotiate

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// A request is marked inside Handler.Reenter's call and nowhere else:
// markOf answers without the context while no call is under way, so the
// count of calls under way must go back to zero, also when the route
// chain panics.
func TestMarkOnlyInsideReenter(t *testing.T) {
	var inside []bool
	h := &Handler{Convert: fixedConvert, Reenter: func(w http.ResponseWriter, r *http.Request) bool {
		inside = append(inside, SuffixRequest(r))
		if r.Header.Get("X-Panic") != "" {
			panic(http.ErrAbortHandler)
		}
		return true
	}}
	if err := h.Provision(); err != nil {
		t.Fatal(err)
	}
	next := func(w http.ResponseWriter, r *http.Request) error { return nil }
	for _, panics := range []bool{false, true} {
		r := httptest.NewRequest(http.MethodGet, "/pricing/md", nil)
		if panics {
			r.Header.Set("X-Panic", "1")
		}
		func() {
			defer func() { _ = recover() }()
			_ = h.ServeHTTP(httptest.NewRecorder(), r, next)
		}()
		if n := reentering.Load(); n != 0 {
			t.Errorf("panics %v: %d calls of Reenter counted under way after it returned", panics, n)
		}
		if SuffixRequest(r) {
			t.Errorf("panics %v: the client's request is marked", panics)
		}
	}
	if len(inside) != 2 || !inside[0] || !inside[1] {
		t.Errorf("inside Reenter, the page request marked: %v, want [true true]", inside)
	}
}
