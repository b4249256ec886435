package selfcheck

import "testing"

func TestCheckHumanHandoff(t *testing.T) {
	runVerdictCases(t, "human_handoff", []verdictCase{
		{name: "everything", site: ready(), verdict: Pass},
		{name: "mailto link", site: bare(replace("/", htmlDoc(`<html><body><a href="mailto:a@b.test">mail</a></body></html>`))), verdict: Pass},
		{name: "contact page link", site: bare(replace("/", htmlDoc(`<html><body><a href="/contact-us">Contact</a></body></html>`))), verdict: Pass},
		{name: "JSON-LD contactPoint", site: bare(replace("/", htmlDoc(`<html><head><script type="application/ld+json">{"@type":"Organization","contactPoint":{"@type":"ContactPoint","telephone":"+1"}}</script></head></html>`))), verdict: Pass},
		{name: "llms.txt contact line", site: bare(replace("/llms.txt", &doc{ctype: "text/plain", body: "# A\n\nContact: support@a.test\n"})), verdict: Pass},
		{name: "nobody", site: bare(), verdict: Fail},
		{name: "everything 500", site: bare(serverError("/"), func(s *testSite) { s.fallback = &doc{status: 500} }), verdict: CouldNotCheck},
	})
}

func TestCheckAccessPolicy(t *testing.T) {
	runVerdictCases(t, "access_policy_declared", []verdictCase{
		{name: "authentication and policy", site: ready(), verdict: Pass},
		{name: "authentication none plus robots Content-Signal", site: bare(card(`{"authentication":{"type":"none"}}`), replace("/robots.txt", &doc{ctype: "text/plain", body: "User-agent: *\nContent-Signal: search=yes, ai-train=no\n"})), verdict: Pass},
		{name: "policy line in llms.txt only", site: bare(replace("/llms.txt", &doc{ctype: "text/plain", body: "# A\n\nOur usage policy: answers yes, training no.\n"})), verdict: Partial, fraction: 0.5},
		{name: "authentication only", site: bare(card(`{"authentication":{"type":"none"}}`)), verdict: Partial, fraction: 0.5},
		{name: "an empty authentication object states nothing", site: bare(card(`{"authentication":{}}`)), verdict: Fail},
		{name: "nothing", site: bare(), verdict: Fail},
		{name: "all sources 500", site: bare(serverError("/", "/agents.json", "/.well-known/agents.json", "/llms.txt")), verdict: CouldNotCheck},
	})
}

func TestCheckSecurityContact(t *testing.T) {
	sec := func(body string) func(s *testSite) {
		return replace("/.well-known/security.txt", &doc{ctype: "text/plain", body: body})
	}
	runVerdictCases(t, "security_contact", []verdictCase{
		{name: "contact and future expiry", site: ready(), verdict: Pass},
		{name: "expired", site: ready(sec("Contact: mailto:s@a.test\nExpires: 2020-01-01T00:00:00Z\n")), verdict: Partial, fraction: 0.5},
		{name: "no expiry", site: ready(sec("Contact: https://a.test/security\n")), verdict: Partial, fraction: 0.5},
		{name: "bad date, no contact", site: ready(sec("Expires: next year\n")), verdict: Fail},
		{name: "404", site: bare(), verdict: Fail},
		{name: "500", site: ready(serverError("/.well-known/security.txt")), verdict: CouldNotCheck},
	})
}

func FuzzSecurityTxt(f *testing.F) {
	f.Add([]byte("Contact: mailto:a@b.test\nExpires: 2030-01-01T00:00:00Z\n"))
	f.Fuzz(func(t *testing.T, b []byte) { parseSecurityTxt(b) })
}
