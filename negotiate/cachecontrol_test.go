package negotiate

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// TestMarkdownCacheControlNeverWidens walks every combination of the
// configured value, the origin's Cache-Control, a Set-Cookie and the
// request's credentials, and checks the rule: what a shared cache may store
// is never more than the origin and the request allow.
func TestMarkdownCacheControlNeverWidens(t *testing.T) {
	configured := []string{"", "public, max-age=300", "max-age=60", "s-maxage=600, public"}
	origins := []string{"", "public, max-age=60", "private", "no-store", "private, no-store", "max-age=10, s-maxage=20"}
	for _, conf := range configured {
		for _, orig := range origins {
			for _, setCookie := range []bool{false, true} {
				for _, cred := range []string{"", "Authorization", "Cookie"} {
					resp, req := http.Header{}, http.Header{}
					if orig != "" {
						resp.Set("Cache-Control", orig)
					}
					if setCookie {
						resp.Set("Set-Cookie", "s=1")
					}
					if cred != "" {
						req.Set(cred, "x")
					}
					got := markdownCacheControl(conf, resp, req)
					name := fmt.Sprintf("conf=%q origin=%q set-cookie=%v cred=%q", conf, orig, setCookie, cred)
					shared := sharedStorable(got)
					switch {
					case hasToken([]string{orig}, "no-store"):
						if got != orig {
							t.Errorf("%s: %q, want the origin's %q", name, got, orig)
						}
					case hasToken([]string{orig}, "private") || setCookie:
						if shared {
							t.Errorf("%s: %q lets a shared cache store a private page", name, got)
						}
					case conf != "" && cred != "":
						if shared {
							t.Errorf("%s: %q lets a shared cache store a page asked for with credentials", name, got)
						}
					case conf == "":
						if got != orig {
							t.Errorf("%s: %q, want the origin's own %q", name, got, orig)
						}
					default:
						if got != conf {
							t.Errorf("%s: %q, want the configured %q", name, got, conf)
						}
					}
				}
			}
		}
	}
}

// sharedStorable reports whether a shared cache may store a response with
// this Cache-Control (and no other restriction): neither private nor
// no-store.
func sharedStorable(cc string) bool {
	for _, d := range strings.Split(cc, ",") {
		switch strings.ToLower(strings.TrimSpace(strings.SplitN(d, "=", 2)[0])) {
		case "private", "no-store":
			return false
		}
	}
	return true
}
