package manifest

import (
	"strings"
	"time"
)

// Defaults that do not depend on where the site is served.
const (
	defaultCacheControl = "public, max-age=3600"
	defaultExpiresDays  = 180
	defaultAutoListMax  = 50
	// DefaultLLMsFullMaxBytes is llms.full_max_bytes by default.
	DefaultLLMsFullMaxBytes = 4 << 20
	defaultVersion          = "1.0.0"
	defaultMCPPath          = "/mcp"
	defaultAskPath          = "/ask"
	defaultMaxPages         = 1000
	defaultMaxBytes         = 64 << 20
	defaultRefresh          = time.Hour
	defaultRetryMin         = 2 * time.Second
	maxRetryMin             = 5 * time.Minute
	defaultRateLimit        = 60
	// Discovery defaults, the same as package discover's.
	defaultDiscoveryPages       = 10000
	defaultDiscoveryDepth       = 50
	defaultDiscoveryBytes       = 512 << 20
	defaultDiscoveryPageBytes   = 5 << 20
	defaultDiscoveryConcurrency = 4
	defaultDiscoveryTimeout     = 30 * time.Second
	// llmsTxtLimit is the size llms.txt should stay under: agents truncate
	// near 100k characters, and half of it leaves room for the page itself.
	llmsTxtLimit = 50_000
	// maxSkillBytes caps one skill file.
	maxSkillBytes = 8 << 20
)

// applyDefaults fills every default that does not need the origin.
func (s *Site) applyDefaults() {
	if s.Info.Organization.Type == "" {
		s.Info.Organization.Type = "Organization"
	}
	if s.Contacts.Security.ExpiresDays == 0 {
		s.Contacts.Security.ExpiresDays = defaultExpiresDays
	}
	if s.LLMs.FullMaxBytes == 0 {
		s.LLMs.FullMaxBytes = DefaultLLMsFullMaxBytes
	}
	if s.LLMs.AutoList.Max == 0 {
		s.LLMs.AutoList.Max = defaultAutoListMax
	}
	if s.LLMs.AutoList.Section == "" {
		s.LLMs.AutoList.Section = "Pages"
	}
	for i := range s.Interfaces {
		it := &s.Interfaces[i]
		if it.Type == TypeMCP && it.Transport == "" {
			it.Transport = TransportStreamableHTTP
		}
		if it.Version == "" {
			it.Version = defaultVersion
		}
	}
	s.defaultAuthentication()
	for i := range s.Skills {
		if s.Skills[i].Type == "" {
			s.Skills[i].Type = skillType(s.Skills[i].File)
		}
	}
	d := &s.Documents
	if d.CacheControl == "" {
		d.CacheControl = defaultCacheControl
	}
	for _, m := range []*Serve{&d.LLMsTxt, &d.LLMsFullTxt, &d.AgentsJSON, &d.ARD, &d.Robots, &d.Sitemap, &d.APICatalog,
		&d.SecurityTxt, &d.AgentCard, &d.MCPServerCard, &d.AgentSkills, &d.OAuthResource} {
		if *m == "" {
			*m = ServeGenerate
		}
	}
	c := &s.Connect
	c.MCPPath = orDefault(c.MCPPath, defaultMCPPath)
	c.AskPath = orDefault(c.AskPath, defaultAskPath)
	if c.MaxPages == 0 {
		c.MaxPages = defaultMaxPages
	}
	if c.MaxBytes == 0 {
		c.MaxBytes = defaultMaxBytes
	}
	if c.Refresh == 0 {
		c.Refresh = defaultRefresh
	}
	if c.RetryMin == 0 {
		c.RetryMin = defaultRetryMin
	}
	if c.RateLimit == 0 {
		c.RateLimit = defaultRateLimit
	}
	if c.Auth == "" {
		c.Auth = ConnectPublic
	}
	s.defaultDiscovery()
}

func (s *Site) defaultDiscovery() {
	d := &s.Discovery
	if d.Mode == "" {
		d.Mode = DiscoveryAuto
	}
	if d.MaxPages == 0 {
		d.MaxPages = defaultDiscoveryPages
	}
	if d.MaxDepth == 0 {
		d.MaxDepth = defaultDiscoveryDepth
	}
	if d.MaxBytes == 0 {
		d.MaxBytes = defaultDiscoveryBytes
	}
	if d.MaxPageBytes == 0 {
		d.MaxPageBytes = defaultDiscoveryPageBytes
	}
	if d.Concurrency == 0 {
		d.Concurrency = defaultDiscoveryConcurrency
	}
	if d.Timeout == 0 {
		d.Timeout = defaultDiscoveryTimeout
	}
}

func (s *Site) defaultAuthentication() {
	a := &s.Authentication
	if a.Type == "" {
		a.Type = AuthNone
	}
	if len(a.Public) == 0 {
		a.Public = []string{"*"}
		if a.Type == AuthOAuth {
			a.Public = []string{"content"}
		}
	}
	if a.Type == AuthNone && a.Note == "" {
		a.Note = "everything is public and read-only"
	}
}

// on reads an optional switch whose default is true.
func on(b *bool) bool { return b == nil || *b }

// orDefault returns v, or def when v is empty.
func orDefault(v, def string) string {
	if v == "" {
		return def
	}
	return v
}

// skillType derives a skill's type from its file name.
func skillType(file string) string {
	f := strings.ToLower(file)
	if strings.HasSuffix(f, ".zip") || strings.HasSuffix(f, ".tar.gz") || strings.HasSuffix(f, ".tgz") {
		return "archive"
	}
	return "skill-md"
}

// checkSize warns when the configured llms.txt content alone exceeds the
// size agents read comfortably.
func (s *Site) checkSize() {
	n := len(s.LLMs.Title) + len(s.LLMs.Summary) + len(s.LLMs.Instructions) + len(s.Info.Description)
	count := func(links []Link) {
		for _, l := range links {
			n += len(l.Title) + len(l.URL) + len(l.Note) + 8
		}
	}
	for _, sec := range s.LLMs.Sections {
		n += len(sec.Title) + 4
		count(sec.Links)
	}
	count(s.LLMs.Optional)
	if n > llmsTxtLimit {
		s.warnf("llms", "configured llms.txt content is %d characters, over the %d agents read comfortably", n, llmsTxtLimit)
	}
}
