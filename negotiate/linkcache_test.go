package negotiate

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"unsafe"
)

// TestLinkCacheAnswersAsMade serves the pages of more addresses than the
// link table has slots (so that pages share slots), with queries, escapes,
// directory paths and addresses too long to keep, three times each from
// four goroutines at once, through a handler that keeps the Markdown
// alternates' links and one that keeps nothing (rewrite_cache off): every
// response carries the same Link header from both.
func TestLinkCacheAnswersAsMade(t *testing.T) {
	handler := func(cache int64) *Handler {
		h := &Handler{Convert: fixedConvert, Options: Options{RewriteCache: cache}}
		if err := h.Provision(); err != nil {
			t.Fatal(err)
		}
		return h
	}
	kept, fresh := handler(1<<20), handler(-1)
	if kept.links == nil || fresh.links != nil {
		t.Fatal("rewrite_cache does not switch the link table")
	}
	var targets []string
	for i := range 3 * linkSlots {
		p := fmt.Sprintf("/p%d", i)
		switch i % 6 {
		case 1:
			p += "/"
		case 2:
			p += "?q=" + fmt.Sprint(i%7)
		case 3:
			p = "/a%2Fb" + p + "/%E2%82%AC"
		case 4:
			p = "/" + strings.Repeat("x", maxLinkPage) + p
		case 5:
			p = "/"
			if i%12 == 5 {
				p = "/?q"
			}
		}
		targets = append(targets, p)
	}
	next := func(w http.ResponseWriter, r *http.Request) error {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, err := w.Write([]byte("<html><head></head><body>x</body></html>"))
		return err
	}
	link := func(h *Handler, target string) string {
		r := httptest.NewRequest(http.MethodGet, "http://example.test"+target, nil)
		r.Header.Set("Accept", "text/html")
		w := httptest.NewRecorder()
		if err := h.ServeHTTP(w, r, next); err != nil {
			t.Error(err)
		}
		return strings.Join(w.Result().Header["Link"], ", ")
	}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for round := range 3 {
				for i := range targets {
					target := targets[(i*(g+1)+round*131)%len(targets)]
					if got, want := link(kept, target), link(fresh, target); got != want || !strings.Contains(got, "text/markdown") {
						t.Errorf("%s: Link %q, made afresh %q", target, got, want)
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	for i := range kept.links.slots {
		if e := kept.links.slots[i].Load(); e != nil && len(e.path)+len(e.query) > maxLinkPage {
			t.Errorf("slot %d keeps a link of %d bytes of address", i, len(e.path)+len(e.query))
		}
	}
}

// TestLinkCacheChecksAddress: a slot answers only for the page whose link
// it holds, not for another page whose hash picks it.
func TestLinkCacheChecksAddress(t *testing.T) {
	c := newLinkCache()
	c.get("/a", "q=1") // first seen: not kept yet (the doorkeeper)
	_, slot, ok := c.get("/a", "q=1")
	if ok || slot == nil {
		t.Fatalf("empty table answers, or has no slot for a page seen twice")
	}
	for _, other := range [][2]string{{"/a", "q=2"}, {"/b", "q=1"}, {"/a", ""}, {"/a?q=1", ""}, {"/aq=1", ""}} {
		keepLink(slot, other[0], other[1], "<other>")
		if link, _, ok := c.get("/a", "q=1"); ok {
			t.Errorf("the link of %q answers for /a?q=1: %q", other, link)
		}
		keepLink(slot, "/a", "q=1", "<a>")
		if link, _, ok := c.get("/a", "q=1"); !ok || link != "<a>" {
			t.Errorf("/a?q=1 kept, got %q, %v", link, ok)
		}
	}
	if _, slot, ok := c.get("/"+strings.Repeat("x", maxLinkPage), ""); ok || slot != nil {
		t.Error("a long address has a slot")
	}
	if _, slot, ok := (*linkCache)(nil).get("/", ""); ok || slot != nil {
		t.Error("a nil table has a slot")
	}
}

// within reports whether s's bytes lie inside line's.
func within(s, line string) bool {
	if s == "" {
		return false
	}
	p, lo := uintptr(unsafe.Pointer(unsafe.StringData(s))), uintptr(unsafe.Pointer(unsafe.StringData(line)))
	return p >= lo && p < lo+uintptr(len(line))
}

// TestKeptAddressIsCopied: a kept link holds its own copy of the page's
// address, not the request line its path was cut from (an absolute-form
// request with a long host and a short path would otherwise keep the
// whole line alive in every slot), with or without a query.
func TestKeptAddressIsCopied(t *testing.T) {
	line := "GET http://" + strings.Repeat("h", 4096) + "/page?q=1 HTTP/1.1"
	at := strings.Index(line, "/page")
	path, query := line[at:at+len("/page")], line[at+len("/page?"):at+len("/page?q=1")]
	for _, q := range []string{"", query} {
		c := newLinkCache()
		slot := c.slot(path, q)
		keepLink(slot, path, q, "<l>")
		e := slot.Load()
		if e.path != path || e.query != q {
			t.Fatalf("kept %q %q, want %q %q", e.path, e.query, path, q)
		}
		if within(e.path, line) || within(e.query, line) {
			t.Errorf("query %q: the kept address shares the request line's memory", q)
		}
	}
}

func TestDetach(t *testing.T) {
	line := "GET /a/b?x=1 HTTP/1.1"
	for _, parts := range [][]string{{"/a/b", "", "x=1"}, {"/a/b", "", ""}, {"", "", ""}, {"", "x=1"}} {
		in := make([]string, len(parts))
		ptrs := make([]*string, len(parts))
		for i, p := range parts {
			if j := strings.Index(line, p); p != "" && j >= 0 {
				in[i] = line[j : j+len(p)]
			}
			ptrs[i] = &in[i]
		}
		detach(ptrs...)
		for i, p := range parts {
			if in[i] != p {
				t.Errorf("%q: part %d is %q after detach", parts, i, in[i])
			}
			if within(in[i], line) {
				t.Errorf("%q: part %d still shares the line's memory", parts, i)
			}
		}
	}
}

// TestLinkCacheDoorkeeper: a page is given a slot to be kept in the second
// time it is missed, not the first (a crawler fetching each page once
// fills nothing), and answers from the table once kept.
func TestLinkCacheDoorkeeper(t *testing.T) {
	c := newLinkCache()
	if _, slot, ok := c.get("/once", ""); ok || slot != nil {
		t.Fatalf("a page missed once is to be kept (slot %v, ok %v)", slot, ok)
	}
	_, slot, ok := c.get("/once", "")
	if ok || slot == nil {
		t.Fatalf("a page missed twice is not to be kept (slot %v, ok %v)", slot, ok)
	}
	keepLink(slot, "/once", "", "<once>")
	if link, _, ok := c.get("/once", ""); !ok || link != "<once>" {
		t.Errorf("kept page answers %q, %v", link, ok)
	}
}
