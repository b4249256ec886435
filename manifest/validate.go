package manifest

import (
	"fmt"
	"github.com/agentready/caddy-agentready/traffic/agents"
	"net/mail"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/andybalholm/cascadia"
)

// validator checks a decoded Site and collects every problem.
type validator struct {
	s      *Site
	errs   Errors
	failed map[string]bool   // paths the decoder reported: one problem each
	ids    map[string]string // ARD identifier -> field path that defined it
}

var (
	idRe         = regexp.MustCompile(`^[A-Za-z0-9._-]{1,64}$`)
	urnRe        = regexp.MustCompile(`^urn:air:[a-zA-Z0-9.-]+(:[a-zA-Z0-9._-]+){2,}$`)
	langRe       = regexp.MustCompile(`^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$`)
	skillNameRe  = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
	toolNameRe   = regexp.MustCompile(`^[a-z][a-z0-9]*(_[a-z0-9]+)*$`)
	schemaTypeRe = regexp.MustCompile(`^[A-Z][A-Za-z]{1,63}$`)
	phoneRe      = regexp.MustCompile(`^\+?[0-9][0-9 ().-]{3,30}$`)
	mediaTypeRe  = regexp.MustCompile(`^[a-zA-Z0-9][a-zA-Z0-9!#$&^_.+-]*/[a-zA-Z0-9][a-zA-Z0-9!#$&^_.+-]*(\s*;\s*[a-zA-Z0-9!#$&^_.+-]+=("[^"]*"|[a-zA-Z0-9!#$&^_.+-]+))*$`)
	signalRe     = regexp.MustCompile(`^\s*[a-z-]+=(yes|no)\s*(,\s*[a-z-]+=(yes|no)\s*)*$`)
)

func (v *validator) errorf(path, format string, args ...any) {
	if v.failed[path] {
		return
	}
	v.errs = append(v.errs, &FieldError{File: v.s.file, Line: v.s.line(path), Field: path, Msg: fmt.Sprintf(format, args...)})
}

func (v *validator) validate() {
	v.ids = map[string]string{}
	v.site()
	v.contacts()
	v.llms()
	v.interfaces()
	v.authentication()
	v.policy()
	v.ard()
	v.skills()
	v.webmcp()
	v.connect()
	v.discovery()
	if len(v.errs) == 0 {
		v.s.applyDefaults()
		v.s.checkSize()
	}
}

// origin returns the configured origin, parsed, or nil.
func (v *validator) origin() *url.URL {
	if v.s.Info.Origin == "" {
		return nil
	}
	u, err := url.Parse(v.s.Info.Origin)
	if err != nil || u.Host == "" {
		return nil
	}
	return u
}

func (v *validator) site() {
	info := &v.s.Info
	if info.Origin != "" {
		if _, err := parseOrigin(info.Origin); err != nil {
			v.errorf("site.origin", "%v", err)
		}
	}
	if info.Language != "" && !langRe.MatchString(info.Language) {
		v.errorf("site.language", "%q is not a BCP 47 language tag such as en or en-GB", info.Language)
	}
	org := &info.Organization
	if org.Type != "" && !schemaTypeRe.MatchString(org.Type) {
		v.errorf("site.organization.type", "%q is not a schema.org type name such as Organization", org.Type)
	}
	v.anyURL("site.organization.url", org.URL)
	v.anyURL("site.organization.logo", org.Logo)
	for i, u := range org.SameAs {
		v.absURL(fmt.Sprintf("site.organization.same_as[%d]", i), u)
	}
	for i, p := range info.Pages {
		v.siteURL(fmt.Sprintf("site.pages[%d]", i), p, true)
	}
}

func (v *validator) contacts() {
	c := &v.s.Contacts
	if c.Email != "" {
		if a, err := mail.ParseAddress(c.Email); err != nil || a.Address != c.Email {
			v.errorf("contacts.email", "%q is not a plain e-mail address", c.Email)
		}
	}
	v.siteURL("contacts.page", c.Page, false)
	if c.Phone != "" && !phoneRe.MatchString(c.Phone) {
		v.errorf("contacts.phone", "%q is not a phone number such as +1 555 0100", c.Phone)
	}
	sec := &c.Security
	for i, u := range sec.Contact {
		path := fmt.Sprintf("contacts.security.contact[%d]", i)
		if strings.Contains(u, "@") && !strings.Contains(u, ":") {
			sec.Contact[i] = "mailto:" + u
			continue
		}
		p, err := url.Parse(u)
		// RFC 9116 §2.5.3: Contact is a URI, https for web forms.
		if err != nil || (p.Scheme != "mailto" && p.Scheme != "tel" && p.Scheme != "https") || (p.Scheme == "https" && p.Host == "") {
			v.errorf(path, "want a mailto:, tel: or https:// URI, got %q", u)
		}
	}
	if sec.ExpiresDays < 0 || sec.ExpiresDays > 3650 {
		v.errorf("contacts.security.expires_days", "want between 1 and 3650 days, got %d", sec.ExpiresDays)
	} else if sec.ExpiresDays > 365 {
		// RFC 9116 §2.5.5: Expires SHOULD be less than a year in the future.
		v.s.warnf("contacts.security.expires_days", "%d days is more than the year RFC 9116 §2.5.5 recommends", sec.ExpiresDays)
	}
	v.absURL("contacts.security.policy", sec.Policy)
	v.absURL("contacts.security.encryption", sec.Encryption)
	v.absURL("contacts.security.acknowledgments", sec.Acknowledgments)
	for i, l := range sec.PreferredLanguages {
		if !langRe.MatchString(l) {
			v.errorf(fmt.Sprintf("contacts.security.preferred_languages[%d]", i), "%q is not a BCP 47 language tag", l)
		}
	}
}

func (v *validator) llms() {
	l := &v.s.LLMs
	for i, sec := range l.Sections {
		path := fmt.Sprintf("llms.sections[%d]", i)
		if strings.TrimSpace(sec.Title) == "" {
			v.errorf(path+".title", "a section needs a title")
		}
		if strings.EqualFold(strings.TrimSpace(sec.Title), "optional") {
			v.errorf(path+".title", "use llms.optional for the Optional section")
		}
		if len(sec.Links) == 0 {
			v.errorf(path+".links", "a section needs at least one link")
		}
		for j := range sec.Links {
			v.link(fmt.Sprintf("%s.links[%d]", path, j), sec.Links[j])
		}
	}
	for j := range l.Optional {
		v.link(fmt.Sprintf("llms.optional[%d]", j), l.Optional[j])
	}
	if l.FullMaxBytes != 0 && (l.FullMaxBytes < 4096 || l.FullMaxBytes > 64<<20) {
		v.errorf("llms.full_max_bytes", "want between 4096 and %d, got %d", 64<<20, l.FullMaxBytes)
	}
	if l.AutoList.Max < 0 || l.AutoList.Max > 1000 {
		v.errorf("llms.auto_list.max", "want between 1 and 1000, got %d", l.AutoList.Max)
	}
}

func (v *validator) link(path string, l Link) {
	if strings.TrimSpace(l.Title) == "" {
		v.errorf(path+".title", "a link needs a title")
	}
	if strings.ContainsAny(l.Title, "[]\n") {
		v.errorf(path+".title", "a link title may not contain brackets or line breaks")
	}
	if l.URL == "" {
		v.errorf(path+".url", "a link needs a url")
		return
	}
	v.siteURL(path+".url", l.URL, true)
}

func (v *validator) interfaces() {
	seen := map[string]bool{}
	for i := range v.s.Interfaces {
		it := &v.s.Interfaces[i]
		path := fmt.Sprintf("interfaces[%d]", i)
		switch {
		case it.ID == "":
			v.errorf(path+".id", "an interface needs an id")
		case !idRe.MatchString(it.ID):
			v.errorf(path+".id", "%q: use letters, digits, '.', '_' and '-' only", it.ID)
		case seen[it.ID]:
			v.errorf(path+".id", "duplicate id %q", it.ID)
		}
		seen[it.ID] = true
		if it.Type == "" {
			v.errorf(path+".type", "an interface needs a type (mcp, openapi, graphql, a2a, cli, sdk)")
		}
		tool := it.Type == TypeCLI || it.Type == TypeSDK
		if it.URL == "" && !tool && it.Type != "" {
			v.errorf(path+".url", "a %s interface needs a url", it.Type)
		}
		v.anyURL(path+".url", it.URL)
		v.anyURL(path+".docs", it.Docs)
		v.anyURL(path+".card", it.Card)
		if it.Transport != "" && it.Type != TypeMCP {
			v.errorf(path+".transport", "only an mcp interface has a transport")
		}
		if it.Install != "" && !tool {
			v.errorf(path+".install", "only a cli or sdk has an install command")
		}
		if tool && it.Install == "" && it.URL == "" {
			v.errorf(path+".install", "a %s needs an install command or a url", it.Type)
		}
		if it.Card != "" && it.Type != TypeMCP && it.Type != TypeA2A {
			v.errorf(path+".card", "only mcp and a2a interfaces have a card")
		}
		if len(it.Skills) > 0 && it.Type != TypeA2A {
			v.errorf(path+".skills", "only an a2a interface has skills")
		}
		skillIDs := map[string]bool{}
		for j, sk := range it.Skills {
			sp := fmt.Sprintf("%s.skills[%d]", path, j)
			if !idRe.MatchString(sk.ID) {
				v.errorf(sp+".id", "a skill needs an id of letters, digits, '.', '_' and '-'")
			} else if skillIDs[sk.ID] {
				v.errorf(sp+".id", "duplicate skill id %q", sk.ID)
			}
			skillIDs[sk.ID] = true
			if strings.TrimSpace(sk.Description) == "" {
				v.errorf(sp+".description", "a skill needs a description")
			}
		}
		v.identifier(path+".identifier", it.Identifier)
		v.queries(path+".queries", it.Queries)
		if it.Type == TypeMCP && len(it.Description) > 100 {
			v.s.warnf(path+".description", "longer than the 100 characters an MCP server card allows; the card carries it truncated")
		}
	}
}

func (v *validator) authentication() {
	a := &v.s.Authentication
	if a.Type == AuthOAuth {
		if len(a.AuthorizationServers) == 0 {
			v.errorf("authentication.authorization_servers", "type oauth needs at least one authorization server")
		}
	} else if len(a.AuthorizationServers) > 0 {
		v.errorf("authentication.authorization_servers", "only with type oauth")
	}
	for i, u := range a.AuthorizationServers {
		path := fmt.Sprintf("authentication.authorization_servers[%d]", i)
		// RFC 8414 §2: the issuer is an https URL with no query or fragment.
		if p, err := url.Parse(u); err != nil || p.Scheme != "https" || p.Host == "" || p.RawQuery != "" || p.Fragment != "" {
			v.errorf(path, "want an absolute https issuer URL without query or fragment, got %q", u)
		}
	}
	v.anyURL("authentication.documentation", a.Documentation)
	v.absURL("authentication.authorization_endpoint", a.AuthorizationEndpoint)
	v.absURL("authentication.jwks_uri", a.JWKSURI)
	v.absURL("authentication.token_endpoint", a.TokenEndpoint)
	if a.Type == AuthOAuth && (a.AuthorizationEndpoint == "" || a.TokenEndpoint == "") {
		for i, it := range v.s.Interfaces {
			if it.Type == TypeA2A && it.Card == "" && (it.Public == nil || !*it.Public) && !slices.Contains(a.Public, it.ID) && !slices.Contains(a.Public, "*") {
				v.s.warnf(fmt.Sprintf("interfaces[%d]", i), "the A2A agent card needs authentication.authorization_endpoint and token_endpoint to describe its OAuth flow; it is published without a security scheme")
			}
		}
	}
	v.absURL("authentication.resource", a.Resource)
	ids := map[string]bool{"*": true, "content": true, "connect": true}
	for _, it := range v.s.Interfaces {
		ids[it.ID] = true
	}
	for i, p := range a.Public {
		if !ids[p] {
			names := make([]string, 0, len(ids))
			for k := range ids {
				names = append(names, k)
			}
			v.errorf(fmt.Sprintf("authentication.public[%d]", i), "%q is not an interface id, \"content\", \"connect\" or \"*\"%s", p, didYouMean(p, names))
		}
	}
}

func (v *validator) policy() {
	p := &v.s.Policy
	if p.ContentSignal != "" && !signalRe.MatchString(p.ContentSignal) {
		v.errorf("policy.content_signal", "want comma-separated key=yes|no pairs such as \"search=yes, ai-train=no\", got %q", p.ContentSignal)
	}
	lists := map[string][]string{"training": p.ExtraAgents.Training, "search": p.ExtraAgents.Search, "user": p.ExtraAgents.User}
	for kind, tokens := range lists {
		for i, a := range tokens {
			field := fmt.Sprintf("policy.extra_agents.%s[%d]", kind, i)
			if a == "" || strings.ContainsAny(a, " \t:#\n*") {
				v.errorf(field, "%q is not a user-agent product token", a)
				continue
			}
			// robots.txt would name a known agent in this kind's group while
			// enforcement judges it by its own purpose: the two would say
			// different things.
			if known := agents.ByRobotsToken(a); known != nil && known.Purpose.Kind() != kind {
				v.errorf(field, "%s is already known as a %s crawler (%s); it is governed by policy.%s, list it there or not at all", a, known.Purpose.Kind(), known.Operator, known.Purpose.Kind())
			}
		}
	}
}

func (v *validator) ard() {
	for i, e := range v.s.ARD.Entries {
		path := fmt.Sprintf("ard.entries[%d]", i)
		if e.Identifier == "" {
			v.errorf(path+".identifier", "an entry needs an identifier")
		}
		v.identifier(path+".identifier", e.Identifier)
		if strings.TrimSpace(e.DisplayName) == "" {
			v.errorf(path+".display_name", "an entry needs a display_name")
		}
		if !mediaTypeRe.MatchString(e.Type) {
			v.errorf(path+".type", "%q is not a media type such as application/mcp-server-card+json", e.Type)
		}
		if e.URL == "" {
			v.errorf(path+".url", "an entry needs a url")
		}
		v.anyURL(path+".url", e.URL)
		if len(e.Queries) == 0 {
			v.errorf(path+".queries", "an entry needs 2 to 5 representative queries")
		}
		v.queries(path+".queries", e.Queries)
	}
}

func (v *validator) identifier(path, id string) {
	if id == "" {
		return
	}
	if !urnRe.MatchString(id) {
		v.errorf(path, "%q is not an ARD identifier urn:air:<publisher>:<namespace>:<name>", id)
		return
	}
	if prev, ok := v.ids[id]; ok {
		v.errorf(path, "duplicate identifier %q (first at %s)", id, prev)
		return
	}
	v.ids[id] = path
	if o := v.origin(); o != nil && strings.Split(id, ":")[2] != o.Hostname() {
		v.s.warnf(path, "publisher %q is not the site's host %q", strings.Split(id, ":")[2], o.Hostname())
	}
}

func (v *validator) queries(path string, qs []string) {
	if len(qs) == 0 {
		return
	}
	if len(qs) < 2 || len(qs) > 5 {
		v.errorf(path, "want 2 to 5 representative queries, got %d", len(qs))
	}
	for i, q := range qs {
		if strings.TrimSpace(q) == "" {
			v.errorf(fmt.Sprintf("%s[%d]", path, i), "empty query")
		}
	}
}

func (v *validator) skills() {
	seen := map[string]bool{}
	for i := range v.s.Skills {
		sk := &v.s.Skills[i]
		path := fmt.Sprintf("skills[%d]", i)
		switch {
		case !skillNameRe.MatchString(sk.Name) || len(sk.Name) > 64:
			v.errorf(path+".name", "%q: use 1 to 64 lowercase letters, digits and hyphens", sk.Name)
		case seen[sk.Name]:
			v.errorf(path+".name", "duplicate skill %q", sk.Name)
		}
		seen[sk.Name] = true
		if strings.TrimSpace(sk.Description) == "" {
			v.errorf(path+".description", "a skill needs a description")
		}
		if sk.Type != "" && sk.Type != "skill-md" && sk.Type != "archive" {
			v.errorf(path+".type", "want skill-md or archive, got %q", sk.Type)
		}
		if sk.File == "" {
			v.errorf(path+".file", "a skill needs a file")
			continue
		}
		fi, err := os.Stat(v.s.skillPath(sk.File, ""))
		switch {
		case err != nil:
			v.errorf(path+".file", "%s does not exist (looked in %s)", sk.File, v.s.baseDir)
		case !fi.Mode().IsRegular():
			v.errorf(path+".file", "%s is not a regular file", sk.File)
		case fi.Size() > maxSkillBytes:
			v.errorf(path+".file", "%s is larger than %d bytes", sk.File, maxSkillBytes)
		}
	}
}

func (v *validator) webmcp() {
	names := map[string]bool{}
	for i, f := range v.s.WebMCP.Forms {
		path := fmt.Sprintf("webmcp.forms[%d]", i)
		if f.Selector == "" {
			v.errorf(path+".selector", "a form needs a CSS selector")
		} else if _, err := cascadia.ParseGroup(f.Selector); err != nil {
			v.errorf(path+".selector", "invalid CSS selector %q: %v", f.Selector, err)
		}
		switch {
		case !toolNameRe.MatchString(f.ToolName):
			v.errorf(path+".toolname", "%q is not a snake_case tool name such as contact_sales", f.ToolName)
		case names[f.ToolName]:
			v.errorf(path+".toolname", "duplicate tool name %q", f.ToolName)
		}
		names[f.ToolName] = true
		switch desc := strings.Join(strings.Fields(f.ToolDescription), " "); {
		case len(desc) < 10:
			v.errorf(path+".tooldescription", "say what the tool does in at least 10 characters")
		case strings.EqualFold(desc, PlaceholderToolDescription):
			v.errorf(path+".tooldescription", "%q is the fix snippet's placeholder: replace it with a sentence saying what this form does", desc)
		}
		for name, desc := range f.Params {
			if strings.TrimSpace(desc) == "" {
				v.errorf(path+".params."+name, "empty toolparamdescription")
			}
		}
	}
}

func (v *validator) connect() {
	c := &v.s.Connect
	for _, p := range []struct{ path, val string }{{"connect.mcp_path", c.MCPPath}, {"connect.ask_path", c.AskPath}} {
		if p.val != "" && (!strings.HasPrefix(p.val, "/") || strings.ContainsAny(p.val, "?# ")) {
			v.errorf(p.path, "want a path starting with /, got %q", p.val)
		}
	}
	if c.MCPPath != "" && c.MCPPath == c.AskPath {
		v.errorf("connect.ask_path", "mcp_path and ask_path must differ")
	}
	if c.MaxPages < 0 {
		v.errorf("connect.max_pages", "want a positive number, got %d", c.MaxPages)
	}
	if c.MaxBytes < 0 {
		v.errorf("connect.max_bytes", "want a positive number, got %d", c.MaxBytes)
	}
	if c.Refresh < 0 || (c.Refresh > 0 && c.Refresh.Minutes() < 1) {
		v.errorf("connect.refresh", "want at least 1m, got %s", c.Refresh)
	}
	if c.RetryMin < 0 || c.RetryMin > maxRetryMin {
		v.errorf("connect.retry_min", "want a duration from 0 to 5m (the longest wait between retries), got %s", c.RetryMin)
	}
	if c.RateLimit < 0 {
		v.errorf("connect.rate_limit", "want a positive number, got %d", c.RateLimit)
	}
	if c.Auth == ConnectOAuth && v.s.Authentication.Type != AuthOAuth {
		v.errorf("connect.auth", "oauth needs authentication.type oauth")
	}
	if c.Auth == ConnectOAuth && v.s.Authentication.JWKSURI == "" {
		v.errorf("connect.auth", "oauth needs authentication.jwks_uri, the authorization server's key set, to verify access tokens")
	}
	scopes := map[string]bool{}
	for _, sc := range v.s.Authentication.Scopes {
		scopes[sc] = true
	}
	if c.Auth == ConnectOAuth && slices.Contains(v.s.Authentication.Public, "connect") {
		v.errorf("authentication.public", "\"connect\" is public here but connect.auth is oauth")
	}
	for tool, scope := range c.ToolScopes {
		if !slices.Contains(ConnectTools, tool) {
			v.errorf("connect.tool_scopes."+tool, "unknown tool %q%s", tool, didYouMean(tool, ConnectTools))
		}
		if c.Auth != ConnectOAuth {
			v.errorf("connect.tool_scopes."+tool, "tool scopes need auth: oauth")
			break
		}
		if !scopes[scope] {
			v.errorf("connect.tool_scopes."+tool, "scope %q is not listed in authentication.scopes", scope)
		}
	}
	v.queries("connect.queries", c.Queries)
}

// Discovery bounds: wide enough for any real site, narrow enough that a
// typo cannot turn the crawl on the origin into a flood.
const (
	maxDiscoveryPages       = 1_000_000
	maxDiscoveryDepth       = 1000
	maxDiscoveryConcurrency = 32
	maxDiscoveryDelay       = time.Minute
	minDiscoveryPageBytes   = 64 << 10
	maxDiscoveryTimeout     = 10 * time.Minute
)

func (v *validator) discovery() {
	d := &v.s.Discovery
	intRange := func(path string, n, lo, hi int64) {
		if n != 0 && (n < lo || n > hi) {
			v.errorf(path, "want between %d and %d, got %d", lo, hi, n)
		}
	}
	intRange("discovery.max_pages", int64(d.MaxPages), 1, maxDiscoveryPages)
	intRange("discovery.max_depth", int64(d.MaxDepth), 1, maxDiscoveryDepth)
	intRange("discovery.concurrency", int64(d.Concurrency), 1, maxDiscoveryConcurrency)
	if d.MaxPageBytes != 0 && d.MaxPageBytes < minDiscoveryPageBytes {
		v.errorf("discovery.max_page_bytes", "want at least %d, got %d", minDiscoveryPageBytes, d.MaxPageBytes)
	}
	if d.MaxBytes != 0 && d.MaxBytes < max(d.MaxPageBytes, minDiscoveryPageBytes) {
		v.errorf("discovery.max_bytes", "want at least max_page_bytes (%d), got %d", max(d.MaxPageBytes, minDiscoveryPageBytes), d.MaxBytes)
	}
	if d.Delay < 0 || d.Delay > maxDiscoveryDelay {
		v.errorf("discovery.delay", "want between 0s and %s, got %s", maxDiscoveryDelay, d.Delay)
	}
	if d.Timeout != 0 && (d.Timeout < time.Second || d.Timeout > maxDiscoveryTimeout) {
		v.errorf("discovery.timeout", "want between 1s and %s, got %s", maxDiscoveryTimeout, d.Timeout)
	}
}

// anyURL accepts an absolute http(s) URL or a site-relative path.
func (v *validator) anyURL(path, u string) {
	if u == "" {
		return
	}
	if strings.HasPrefix(u, "/") && !strings.HasPrefix(u, "//") {
		if _, err := url.Parse(u); err != nil {
			v.errorf(path, "invalid path %q", u)
		}
		return
	}
	v.absURL(path, u)
}

// absURL requires an absolute http(s) URL.
func (v *validator) absURL(path, u string) {
	if u == "" {
		return
	}
	p, err := url.Parse(u)
	if err != nil || (p.Scheme != "http" && p.Scheme != "https") || p.Host == "" {
		v.errorf(path, "want an absolute http(s) URL, got %q", u)
	}
}

// siteURL requires a page of this site: a site-relative path or an absolute
// URL on the configured origin. Canonical page URLs carry no fragment.
func (v *validator) siteURL(path, u string, page bool) {
	if u == "" {
		return
	}
	p, err := url.Parse(u)
	if err != nil {
		v.errorf(path, "invalid URL %q", u)
		return
	}
	if page && p.Fragment != "" {
		v.errorf(path, "%q: a canonical page URL has no #fragment", u)
	}
	if p.Scheme == "" && p.Host == "" {
		if !strings.HasPrefix(u, "/") {
			v.errorf(path, "%q is relative: write it from the site root (/%s) or absolute", u, u)
		}
		return
	}
	if p.Scheme != "http" && p.Scheme != "https" {
		v.errorf(path, "want a site path or an http(s) URL, got %q", u)
		return
	}
	if o := v.origin(); o != nil && !sameOrigin(p, o) {
		v.errorf(path, "%q is on another origin; list only pages of %s", u, v.s.Info.Origin)
	}
}

// skillPath resolves a skill file against dir, or the configuration's
// directory when dir is empty.
func (s *Site) skillPath(file, dir string) string {
	if filepath.IsAbs(file) {
		return file
	}
	if dir == "" {
		dir = s.baseDir
	}
	return filepath.Join(dir, filepath.FromSlash(file))
}
