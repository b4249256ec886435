package selfcheck

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/agentready/caddy-agentready/selfcheck/llmstxt"
)

func init() {
	register(map[string]checkFunc{
		"human_handoff":          checkHumanHandoff,
		"access_policy_declared": checkAccessPolicy,
		"security_contact":       checkSecurityContact,
	})
}

// checkHumanHandoff: a person is reachable (rule 12): a mailto link, a
// contact page, JSON-LD contactPoint, a contact line in llms.txt, or the
// card's contact.
func checkHumanHandoff(ctx context.Context, s *site) outcome {
	const expected = "a mailto link, a contact page link, JSON-LD contactPoint/email/telephone, a contact line in llms.txt, or agents.json contact"
	home := s.page(ctx, s.home)
	rec := s.receiptOf(home.resp, expected)
	scope := append([]string(nil), s.routes...)
	var found []string
	for _, r := range s.routes {
		p := s.page(ctx, r)
		if len(p.facts.Mailto) > 0 {
			found = append(found, "mailto link on "+pathOf(r)+": "+redactURL(p.facts.Mailto[0]))
		}
		if len(p.facts.Contact) > 0 {
			found = append(found, "contact link on "+pathOf(r)+": "+redactURL(p.facts.Contact[0]))
		}
		for _, n := range p.ld.Nodes {
			if n.Has("contactPoint") || n.Has("email") || n.Has("telephone") {
				found = append(found, "JSON-LD contact data on "+pathOf(r))
				break
			}
		}
	}
	if m := s.manifest(ctx); m.doc != nil && m.doc["contact"] != nil {
		found = append(found, "agents.json contact")
	}
	if l := s.llmsTxt(ctx); llmsUsable(l) && llmstxt.Inspect(l.body).ContactLine != "" {
		found = append(found, "contact line in llms.txt")
	}
	if len(found) > 0 {
		rec.Note = strings.Join(found, "; ")
		return outcome{verdict: Pass, fraction: 1, receipt: rec, scope: scope}
	}
	if s.allSourcesUnreachable(ctx) {
		o := s.couldNotCheck(home.resp, expected)
		o.scope = scope
		return o
	}
	return outcome{verdict: Fail, missing: "no way to reach a person", receipt: rec, scope: scope, cause: CauseNoHuman}
}

// allSourcesUnreachable reports that no route, no capability card and no
// llms.txt gave a usable answer: a missing finding is then a gap, not a FAIL.
func (s *site) allSourcesUnreachable(ctx context.Context) bool {
	for _, r := range s.routes {
		if !s.page(ctx, r).resp.unreachable() {
			return false
		}
	}
	m := s.manifest(ctx)
	return m.wellKnown.unreachable() && m.root.unreachable() && s.llmsTxt(ctx).unreachable()
}

// usagePolicyKeys are card fields that state a usage policy.
var usagePolicyKeys = []string{"policy", "usagePolicy", "usage_policy", "usage", "terms", "termsOfService", "terms_of_service", "license", "contentPolicy", "content_policy"}

// checkAccessPolicy: agents.json authentication (even "none") plus a usage
// policy line (agents.json, llms.txt or a Content-Signal).
func checkAccessPolicy(ctx context.Context, s *site) outcome {
	const expected = "agents.json authentication (even \"none\") and a usage policy line (agents.json, llms.txt, or a Content-Signal)"
	m := s.manifest(ctx)
	rec := s.receiptOf(m.chosen, expected)
	scope := []string{"/.well-known/agents.json", "/llms.txt", "/robots.txt"}
	// An empty object states nothing (STANDARD.md §9: {} passes nothing).
	auth := authStated(m.doc["authentication"])
	policy := ""
	for _, k := range usagePolicyKeys {
		if m.doc[k] != nil {
			policy = "agents.json " + k
			break
		}
	}
	l := s.llmsTxt(ctx)
	if policy == "" && llmsUsable(l) && llmstxt.PolicyLine(l.body) != "" {
		policy = "a policy line in llms.txt"
		rec.Also = append(rec.Also, s.also(l))
	}
	if policy == "" {
		if sig := s.contentSignal(ctx); sig != "" {
			policy = "Content-Signal: " + sig
		}
	}
	var missing []string
	if !auth {
		missing = append(missing, "agents.json authentication")
	}
	if policy == "" {
		missing = append(missing, "a usage policy line")
	}
	rec.Note = fmt.Sprintf("authentication stated: %t; policy: %s", auth, orNone(policy))
	if !auth && policy == "" && s.allSourcesUnreachable(ctx) {
		o := s.couldNotCheck(m.chosen, expected)
		o.scope = scope
		return o
	}
	f := 0.0
	if auth {
		f += 0.5
	}
	if policy != "" {
		f += 0.5
	}
	o := fromFraction(f, strings.Join(missing, "; "))
	o.receipt, o.scope = rec, scope
	return o
}

// orNone returns s, or "none" when empty.
func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// contentSignal returns the site's Content-Signal policy: a robots.txt line
// or a response header on the home page.
func (s *site) contentSignal(ctx context.Context) string {
	if rb := s.robots(ctx); rb.doc != nil && len(rb.doc.ContentSignals) > 0 {
		return rb.doc.ContentSignals[0]
	}
	if h := s.page(ctx, s.home).resp.header; h != nil {
		return h.Get("Content-Signal")
	}
	return ""
}

// securityTxt holds the fields of a security.txt that the check reads.
type securityTxt struct {
	contacts []string
	expires  string
}

// parseSecurityTxt reads Contact and Expires fields (RFC 9116 §2.5),
// ignoring an OpenPGP signature's armour lines.
func parseSecurityTxt(body []byte) securityTxt {
	var st securityTxt
	sc := bufio.NewScanner(bytes.NewReader(body))
	sc.Buffer(make([]byte, 0, 1024), 64<<10)
	for n := 0; sc.Scan() && n < 10000; n++ {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			continue
		}
		switch strings.ToLower(strings.TrimSpace(k)) {
		case "contact":
			st.contacts = append(st.contacts, strings.TrimSpace(v))
		case "expires":
			if st.expires == "" {
				st.expires = strings.TrimSpace(v)
			}
		}
	}
	return st
}

// checkSecurityContact: /.well-known/security.txt (RFC 9116) with Contact:
// and an unexpired Expires:.
func checkSecurityContact(ctx context.Context, s *site) outcome {
	const expected = "200 text/plain at /.well-known/security.txt with Contact: and an Expires: in the future (RFC 9116 §2.5.3, §2.5.5)"
	r := s.f.get(ctx, s.abs("/.well-known/security.txt"), "text/plain")
	rec := s.receiptOf(r, expected)
	scope := []string{"/.well-known/security.txt"}
	switch {
	case r.unreachable():
		o := s.couldNotCheck(r, expected)
		o.scope = scope
		return o
	case !r.ok() || isHTMLish(r):
		return outcome{verdict: Fail, missing: fmt.Sprintf("no security.txt (%d %s)", r.status, r.mediaType()), receipt: rec, scope: scope, cause: CauseSecurityTxtMissing}
	}
	st := parseSecurityTxt(r.body)
	var missing []string
	have := 0
	if len(st.contacts) > 0 {
		have++
	} else {
		missing = append(missing, "a Contact: field")
	}
	exp, err := time.Parse(time.RFC3339, st.expires)
	switch {
	case st.expires == "":
		missing = append(missing, "an Expires: field")
	case err != nil:
		missing = append(missing, fmt.Sprintf("Expires %q is not an RFC 3339 date", st.expires))
	case !exp.After(s.opts.Now()):
		missing = append(missing, "an unexpired Expires: (it passed on "+exp.UTC().Format(time.DateOnly)+")")
	default:
		have++
	}
	rec.Note = fmt.Sprintf("%d contact(s), expires %q", len(st.contacts), st.expires)
	o := fromFraction(float64(have)/2, strings.Join(missing, "; ")).because(CauseSecurityTxtIncomplete)
	o.receipt, o.scope = rec, scope
	return o
}
