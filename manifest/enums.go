package manifest

import (
	"fmt"
	"strings"
)

// InterfaceType is the kind of a backend interface.
type InterfaceType string

// The interface types.
const (
	TypeMCP     InterfaceType = "mcp"
	TypeOpenAPI InterfaceType = "openapi"
	TypeGraphQL InterfaceType = "graphql"
	TypeA2A     InterfaceType = "a2a"
	TypeCLI     InterfaceType = "cli"
	TypeSDK     InterfaceType = "sdk"
)

// Transport is an MCP transport.
type Transport string

// The MCP transports a server card may name.
const (
	TransportStreamableHTTP Transport = "streamable-http"
	TransportSSE            Transport = "sse"
)

// AuthType is the authentication posture.
type AuthType string

// The authentication postures.
const (
	AuthNone  AuthType = "none"
	AuthOAuth AuthType = "oauth"
)

// Permission is allow or disallow for one kind of crawler; "" states nothing.
type Permission string

// The permissions.
const (
	Allow    Permission = "allow"
	Disallow Permission = "disallow"
)

// EnforceMode is how the crawler policy is enforced (policy.enforce).
type EnforceMode string

// The enforcement modes.
const (
	// EnforceOff only declares the policy; nothing is blocked (the default).
	EnforceOff EnforceMode = "off"
	// EnforceClaimed answers 403 to clients that claim to be a disallowed
	// AI crawler by their User-Agent.
	EnforceClaimed EnforceMode = "claimed"
	// EnforceVerified answers 403 only to verified disallowed crawlers and
	// to clients that fail verification (spoofers).
	EnforceVerified EnforceMode = "verified"
)

// Serve says how a generated document is served.
type Serve string

// The serving modes.
const (
	// ServeGenerate serves our document, always (the default).
	ServeGenerate Serve = "generate"
	// ServeOrigin lets the origin's copy win when it answers 200.
	ServeOrigin Serve = "origin"
	// ServeOff never serves ours.
	ServeOff Serve = "off"
)

// ConnectAuth is the access mode of the built-in endpoints.
type ConnectAuth string

// The connect access modes.
const (
	ConnectPublic ConnectAuth = "public"
	ConnectOAuth  ConnectAuth = "oauth"
)

// DiscoveryMode is where the list of pages comes from.
type DiscoveryMode string

// The discovery modes.
const (
	DiscoveryAuto    DiscoveryMode = "auto"
	DiscoverySitemap DiscoveryMode = "sitemap"
	DiscoveryCrawl   DiscoveryMode = "crawl"
)

// oneOf checks value against the allowed spellings (case-insensitive) and
// returns the canonical one.
func oneOf(value string, allowed ...string) (string, error) {
	v := strings.ToLower(strings.TrimSpace(value))
	for _, a := range allowed {
		if v == a {
			return a, nil
		}
	}
	return "", fmt.Errorf("want one of %s, got %q%s", strings.Join(allowed, ", "), value, didYouMean(v, allowed))
}

func (t *InterfaceType) setScalar(s string) error {
	v, err := oneOf(s, "mcp", "openapi", "graphql", "a2a", "cli", "sdk")
	*t = InterfaceType(v)
	return err
}

func (t *Transport) setScalar(s string) error {
	v, err := oneOf(s, string(TransportStreamableHTTP), string(TransportSSE))
	*t = Transport(v)
	return err
}

func (t *AuthType) setScalar(s string) error {
	v, err := oneOf(s, string(AuthNone), string(AuthOAuth))
	*t = AuthType(v)
	return err
}

func (p *Permission) setScalar(s string) error {
	// YAML 1.1 booleans are accepted: yes/true mean allow, no/false disallow.
	if b, err := parseBool(s); err == nil {
		*p = Disallow
		if b {
			*p = Allow
		}
		return nil
	}
	v, err := oneOf(s, string(Allow), string(Disallow))
	*p = Permission(v)
	return err
}

func (e *EnforceMode) setScalar(s string) error {
	// YAML 1.1 reads an unquoted off as false: accept it (and no) as off.
	if b, err := parseBool(s); err == nil && !b {
		*e = EnforceOff
		return nil
	}
	v, err := oneOf(s, string(EnforceOff), string(EnforceClaimed), string(EnforceVerified))
	*e = EnforceMode(v)
	return err
}

func (m *Serve) setScalar(s string) error {
	if b, err := parseBool(s); err == nil {
		*m = ServeOff
		if b {
			*m = ServeGenerate
		}
		return nil
	}
	v, err := oneOf(s, string(ServeGenerate), string(ServeOrigin), string(ServeOff))
	*m = Serve(v)
	return err
}

func (a *ConnectAuth) setScalar(s string) error {
	v, err := oneOf(s, string(ConnectPublic), string(ConnectOAuth))
	*a = ConnectAuth(v)
	return err
}

func (m *DiscoveryMode) setScalar(s string) error {
	v, err := oneOf(s, string(DiscoveryAuto), string(DiscoverySitemap), string(DiscoveryCrawl))
	*m = DiscoveryMode(v)
	return err
}

// enabled reports whether the document is served at all.
func (m Serve) enabled() bool { return m != ServeOff }

// signal is the Content-Signal value of a permission.
func (p Permission) signal() string {
	if p == Allow {
		return "yes"
	}
	return "no"
}
