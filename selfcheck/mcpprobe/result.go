package mcpprobe

import "time"

// Auth modes of Result.Auth.Mode.
const (
	AuthNone    = "none"    // everything probed answered without a token
	AuthOAuth   = "oauth"   // a token is required and OAuth metadata resolved
	AuthUnknown = "unknown" // a token is required but no metadata resolved, or the probe never got that far
)

// TransportStreamableHTTP is Result.Transport when initialize was answered
// over Streamable HTTP (a POST answered with JSON or an SSE stream).
const TransportStreamableHTTP = "streamable-http"

// Protocol records version negotiation (STANDARD §5 rule 4): what the probe
// offered, what the server returned, and the version the session runs at
// ("" when the returned one is not a revision the probe speaks).
type Protocol struct {
	Offered    string `json:"offered"`
	Returned   string `json:"returned"`
	Negotiated string `json:"negotiated"`
}

// ServerInfo is the server's self-description from the initialize result.
type ServerInfo struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// Auth records how the endpoint announces sign-in.
type Auth struct {
	// Mode is AuthNone, AuthOAuth or AuthUnknown.
	Mode string `json:"mode"`
	// OAuthMetadata reports that authorization-server metadata resolved.
	OAuthMetadata bool `json:"oauthMetadata"`
	// MetadataURL is where the authorization-server metadata was found.
	MetadataURL string `json:"metadataUrl,omitempty"`
	// PKCE lists code_challenge_methods_supported (RFC 8414 §2).
	PKCE []string `json:"pkce"`
	// DynamicRegistration reports a registration_endpoint (RFC 7591).
	DynamicRegistration bool `json:"dynamicRegistration"`
	// ResourceMetadataURL is where the protected-resource metadata
	// (RFC 9728) was found.
	ResourceMetadataURL string `json:"resourceMetadataUrl,omitempty"`
	// AuthorizationServer is the issuer the protected-resource metadata
	// named (or the endpoint's origin for servers without it).
	AuthorizationServer string `json:"authorizationServer,omitempty"`
}

// UnknownMethod is the answer to a JSON-RPC method nobody defines.
type UnknownMethod struct {
	// Status is the HTTP status.
	Status int `json:"status"`
	// JSONRPCError reports a JSON-RPC error object in the body.
	JSONRPCError bool `json:"jsonrpcError"`
}

// Tools counts what tools/list returned. A count nobody could take is nil
// (unknown), never zero (STANDARD §4).
type Tools struct {
	// ListedWithoutToken is how many tools tools/list returned without a
	// token: 0 when the endpoint demanded one, nil when never learned.
	ListedWithoutToken *int `json:"listedWithoutToken"`
	// Authenticated is always nil: the probe never signs in.
	Authenticated *int `json:"authenticated"`
	// WithReadOnlyHint counts listed tools with annotations.readOnlyHint
	// true. A hint, not behaviour: reported, never scored (rule 5).
	WithReadOnlyHint *int `json:"withReadOnlyHint"`
	// ExecutionTested is always false: the probe never calls a tool.
	ExecutionTested bool `json:"executionTested"`
}

// Exchange is one HTTP exchange of the probe, as the receipt shows it.
// Credentials and session ids are never recorded; URLs and excerpts are
// redacted.
type Exchange struct {
	// Method is the JSON-RPC method, or the metadata document fetched.
	Method string `json:"method"`
	// Request is the HTTP method and (redacted) URL.
	Request string `json:"request"`
	// ProtocolVersionHeader is the MCP-Protocol-Version header sent, if any.
	ProtocolVersionHeader string `json:"protocolVersionHeader,omitempty"`
	// SessionSent reports that an Mcp-Session-Id header was sent;
	// SessionReturned that the response carried one. Values are not recorded.
	SessionSent     bool `json:"sessionSent,omitempty"`
	SessionReturned bool `json:"sessionReturned,omitempty"`
	// Body is the (redacted) request body, for JSON-RPC exchanges.
	Body string `json:"body,omitempty"`
	// Status and ContentType describe the response (Status 0: none arrived).
	Status      int    `json:"status"`
	ContentType string `json:"contentType,omitempty"`
	// WWWAuthenticate is the (redacted) challenge of a 401/403.
	WWWAuthenticate string `json:"wwwAuthenticate,omitempty"`
	// Excerpt is the start of the (redacted) response body.
	Excerpt string `json:"excerpt,omitempty"`
	// Error says why the exchange failed, if it did.
	Error string `json:"error,omitempty"`
}

// Result is the mcp_transport receipt.
type Result struct {
	// Endpoint is the probed URL (redacted).
	Endpoint string `json:"endpoint"`
	// Transport is TransportStreamableHTTP once initialize was answered.
	Transport string `json:"transport"`
	// Protocol is the version negotiation.
	Protocol Protocol `json:"protocol"`
	// Initialize reports an initialize result with a protocol version.
	Initialize bool `json:"initialize"`
	// ToolsList reports a tools/list result with a tools array.
	ToolsList bool `json:"toolsList"`
	// Auth is how the endpoint announces sign-in.
	Auth Auth `json:"auth"`
	// Tools are the counts taken without a token.
	Tools Tools `json:"tools"`
	// ServerInfo is the server's name and version from initialize.
	ServerInfo ServerInfo `json:"serverInfo"`
	// SessionAssigned reports that initialize returned an Mcp-Session-Id.
	SessionAssigned bool `json:"sessionAssigned"`
	// Pages is how many tools/list pages were read.
	Pages int `json:"pages"`
	// Discover reports a server/discover result (MCP 2026-07-28), asked
	// only when initialize gave no result.
	Discover bool `json:"discover,omitempty"`
	// UnknownMethod is how the endpoint answered a method that does not
	// exist (asked once after tools/list; nil when never asked).
	UnknownMethod *UnknownMethod `json:"unknownMethod,omitempty"`
	// UITools counts listed tools whose _meta.ui.resourceUri names an MCP
	// App resource.
	UITools int `json:"uiTools,omitempty"`
	// Exchanges are the HTTP exchanges in order (the raw handshake).
	Exchanges []Exchange `json:"exchanges"`
	// Err is the first failure that stopped or limited the probe.
	Err string `json:"error,omitempty"`
}

// Options tunes a probe. The zero value gives the defaults.
type Options struct {
	// OfferedVersion is the protocol version offered in initialize.
	// Default: DefaultOfferedVersion.
	OfferedVersion string
	// MaxBodyBytes caps each response body read. Default: 1 MiB.
	MaxBodyBytes int64
	// MaxPages caps tools/list pages followed through nextCursor. Default: 20.
	MaxPages int
	// MaxTools caps the tools counted. Default: 10000.
	MaxTools int
	// Timeout bounds the whole probe when ctx has no deadline. Default: 30s.
	Timeout time.Duration
	// ExcerptBytes caps each recorded excerpt. Default: 1024.
	ExcerptBytes int
	// ClientName and ClientVersion are sent as clientInfo.
	// Default: "caddy-agentready-selfcheck" and "1".
	ClientName, ClientVersion string
}

// DefaultOfferedVersion is the protocol revision offered by default.
const DefaultOfferedVersion = "2025-11-25"

// KnownVersions are the protocol revisions the probe speaks, oldest first.
var KnownVersions = []string{"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"}

func (o Options) withDefaults() Options {
	if o.OfferedVersion == "" {
		o.OfferedVersion = DefaultOfferedVersion
	}
	if o.MaxBodyBytes <= 0 {
		o.MaxBodyBytes = 1 << 20
	}
	if o.MaxPages <= 0 {
		o.MaxPages = 20
	}
	if o.MaxTools <= 0 {
		o.MaxTools = 10000
	}
	if o.Timeout <= 0 {
		o.Timeout = 30 * time.Second
	}
	if o.ExcerptBytes <= 0 {
		o.ExcerptBytes = 1024
	}
	if o.ClientName == "" {
		o.ClientName = "caddy-agentready-selfcheck"
	}
	if o.ClientVersion == "" {
		o.ClientVersion = "1"
	}
	return o
}
