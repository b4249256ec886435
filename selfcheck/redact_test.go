package selfcheck

import (
	"net/http"
	"strings"
	"testing"
)

func TestRedactURL(t *testing.T) {
	tests := []struct{ in, want string }{
		{"https://a.test/x?token=abc&page=2", "https://a.test/x?token=[REDACTED]&page=2"},
		{"https://a.test/cb?code=xyz&state=s", "https://a.test/cb?code=[REDACTED]&state=s"},
		{"https://a.test/?access_token=1&api_key=2&key=3&sig=4&signature=5&password=6", "https://a.test/?access_token=[REDACTED]&api_key=[REDACTED]&key=[REDACTED]&sig=[REDACTED]&signature=[REDACTED]&password=[REDACTED]"},
		{"https://a.test/?X-Amz-Signature=1&my_secret=2&refresh_token=3", "https://a.test/?X-Amz-Signature=[REDACTED]&my_secret=[REDACTED]&refresh_token=[REDACTED]"},
		{"https://user:pass@a.test/", "https://REDACTED@a.test/"},
		{"https://a.test/plain?q=widgets", "https://a.test/plain?q=widgets"},
		{"https://a.test/%zz?token=1", "https://a.test/%zz?[REDACTED]"},
	}
	for _, tc := range tests {
		if got := redactURL(tc.in); got != tc.want {
			t.Errorf("redactURL(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestCredentialHeaders(t *testing.T) {
	for _, h := range []string{"Authorization", "Proxy-Authorization", "Cookie", "Set-Cookie", "X-Api-Key", "Api-Key", "X-Auth-Token", "X-Refresh-Token", "Client-Secret", "X-Client-Secret", "Mcp-Session-Id", "X-Custom"} {
		want := h != "X-Custom"
		if got := isCredentialHeader(h, nil); got != want {
			t.Errorf("isCredentialHeader(%q) = %v, want %v", h, got, want)
		}
	}
	if !isCredentialHeader("x-custom", []string{"X-Custom"}) {
		t.Error("Options.Redact names are not redacted")
	}
	for _, h := range []string{"X-Session-Id", "X-Access-Key", "X-Api_Key", "X-CSRF-Token", "X-Xsrf-Token", "X-Amz-Security-Token", "X-Goog-Signature"} {
		if !isCredentialHeader(h, nil) {
			t.Errorf("%s not treated as a credential", h)
		}
	}
	// Headers about credentials, whose names merely contain the words.
	for _, h := range []string{"Accept", "Content-Type", "Vary", "Link", "X-Markdown-Tokens", "Access-Control-Allow-Credentials",
		"Access-Control-Expose-Headers", "Sec-WebSocket-Key", "X-Keyboard", "X-Tokenizer", "Keep-Alive"} {
		if isCredentialHeader(h, nil) {
			t.Errorf("%s wrongly treated as a credential", h)
		}
	}
}

// TestReceiptsNeverRecordCredentials: a site that echoes credentials in
// headers and URLs leaves no trace of them in any rendering.
func TestReceiptsNeverRecordCredentials(t *testing.T) {
	const secret = "s3cr3t-value"
	s := agentReadySite(t)
	s.edit("/", func(d *doc) {
		d.header.Add("Set-Cookie", "session="+secret)
		d.header.Add("Authorization", "Bearer "+secret)
		d.header.Add("X-Api-Key", secret)
		d.header.Add("Link", `</llms.txt?token=`+secret+`>; rel="describedby"`)
	})
	s.set("/sitemap.xml", &doc{ctype: "application/xml", body: `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>{{origin}}/pricing?access_token=` + secret + `</loc></url></urlset>`})
	s.set("/robots.txt", &doc{status: http.StatusNotFound})
	r := scanHandler(t, s, Options{Header: http.Header{"Authorization": {"Bearer " + secret}}})
	j, _ := r.JSON()
	for name, out := range map[string]string{"json": string(j), "markdown": string(r.Markdown()), "html": string(r.HTML())} {
		if strings.Contains(out, secret) {
			i := strings.Index(out, secret)
			t.Errorf("%s rendering leaks a credential: …%s…", name, out[max(0, i-120):i+20])
		}
	}
}

func FuzzRedactURL(f *testing.F) {
	f.Add("https://u:p@a.test/x?token=1&q=2#f")
	f.Fuzz(func(t *testing.T, s string) { redactURL(s) })
}
