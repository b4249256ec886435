package mcpprobe

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
)

// prober holds one probe's state.
type prober struct {
	ctx      context.Context
	client   *http.Client
	opts     Options
	endpoint *url.URL
	res      *Result
	session  string // Mcp-Session-Id assigned at initialize
	version  string // negotiated protocol version
}

// Probe runs the mcp_transport probe against endpoint with the default
// Options. See ProbeWith.
func Probe(ctx context.Context, client *http.Client, endpoint string) Result {
	return ProbeWith(ctx, client, endpoint, Options{})
}

// ProbeWith initializes an MCP session over Streamable HTTP, lists the tools
// without a token (following nextCursor), and, when the endpoint asks for a
// token, follows its challenge to the OAuth metadata. client defaults to
// http.DefaultClient; ctx bounds every request (Options.Timeout applies when
// it has no deadline).
func ProbeWith(ctx context.Context, client *http.Client, endpoint string, opts Options) Result {
	opts = opts.withDefaults()
	res := Result{Endpoint: redact(endpoint), Auth: Auth{Mode: AuthUnknown}, Exchanges: []Exchange{}}
	res.Protocol.Offered = opts.OfferedVersion
	u, err := url.Parse(endpoint)
	if err != nil || !isHTTP(u) {
		res.Err = fmt.Sprintf("endpoint %q is not an http(s) url", res.Endpoint)
		return res
	}
	if client == nil {
		client = http.DefaultClient
	}
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, opts.Timeout)
		defer cancel()
	}
	p := &prober{ctx: ctx, client: client, opts: opts, endpoint: u, res: &res}
	p.run()
	return res
}

// fail records the first failure.
func (p *prober) fail(format string, args ...any) {
	if p.res.Err == "" {
		p.res.Err = redact(fmt.Sprintf(format, args...))
	}
}

// recordURL is a URL as the receipt may show it.
func (p *prober) recordURL(u string) string { return redact(u) }

// outcome is what a JSON-RPC POST produced at the HTTP level.
type outcome struct {
	status    int
	challenge []string // WWW-Authenticate field lines of a 401/403
}

func (o outcome) needsToken() bool {
	return o.status == http.StatusUnauthorized || (o.status == http.StatusForbidden && len(o.challenge) > 0)
}

func (p *prober) run() {
	init, ok := p.request("initialize", 1, map[string]any{
		"protocolVersion": p.opts.OfferedVersion,
		"capabilities":    map[string]any{},
		"clientInfo":      map[string]any{"name": p.opts.ClientName, "version": p.opts.ClientVersion},
	})
	if !ok {
		p.discover()
		return
	}
	var ir struct {
		ProtocolVersion string                     `json:"protocolVersion"`
		Capabilities    map[string]json.RawMessage `json:"capabilities"`
		ServerInfo      ServerInfo                 `json:"serverInfo"`
	}
	if err := json.Unmarshal(init, &ir); err != nil || ir.ProtocolVersion == "" {
		p.fail("initialize: result has no protocolVersion")
		return
	}
	p.res.Transport, p.res.Initialize = TransportStreamableHTTP, true
	p.res.Protocol.Returned, p.res.ServerInfo = ir.ProtocolVersion, ir.ServerInfo
	// MCP lifecycle (version negotiation): a client that does not support
	// the returned version should disconnect.
	if !slices.Contains(KnownVersions, ir.ProtocolVersion) {
		p.fail("initialize: server returned protocol version %q, which the probe does not speak", ir.ProtocolVersion)
		return
	}
	p.version, p.res.Protocol.Negotiated = ir.ProtocolVersion, ir.ProtocolVersion
	defer p.closeSession()

	if _, _, err := p.call("notifications/initialized", 0, nil); err != nil {
		p.fail("notifications/initialized: %v", err)
		return
	}
	if _, ok := ir.Capabilities["tools"]; !ok {
		zero := 0
		p.res.Tools.ListedWithoutToken, p.res.Auth.Mode = &zero, AuthNone
		p.fail("server did not declare the tools capability")
		return
	}
	p.listTools()
	p.unknownMethod()
}

// discover asks server/discover (MCP 2026-07-28, stateless discovery) when
// initialize gave no result and no token was asked for. Read-only.
func (p *prober) discover() {
	if p.res.Tools.ListedWithoutToken != nil || p.ctx.Err() != nil {
		return // a 401 already told the story
	}
	msg, out, err := p.call("server/discover", 90, nil)
	if err == nil && !out.needsToken() && len(msg.Result) > 0 && string(msg.Result) != "null" {
		p.res.Discover = true
	}
}

// unknownMethod asks a method nobody defines, once: the checkpoint wants an
// HTTP 404 carrying a JSON-RPC error. Read-only: no tool is ever called.
func (p *prober) unknownMethod() {
	if p.ctx.Err() != nil {
		return
	}
	msg, out, err := p.call("agentready/no-such-method", 91, nil)
	if out.status == 0 && err != nil {
		return
	}
	um := &UnknownMethod{Status: out.status, JSONRPCError: msg.Error != nil}
	if !um.JSONRPCError && len(p.res.Exchanges) > 0 {
		// A non-2xx answer is not parsed by call; its excerpt is the body.
		var m rpcMessage
		if json.Unmarshal([]byte(p.res.Exchanges[len(p.res.Exchanges)-1].Excerpt), &m) == nil && m.Error != nil {
			um.JSONRPCError = true
		}
	}
	p.res.UnknownMethod = um
}

// request calls method and returns its result. On a 401/403 it records
// that a token is required and follows the challenge; on any other failure
// it records the failure.
func (p *prober) request(method string, id int, params any) (json.RawMessage, bool) {
	msg, out, err := p.call(method, id, params)
	switch {
	case out.needsToken():
		p.tokenRequired(out)
		return nil, false
	case err != nil:
		p.fail("%s: %v", method, err)
		return nil, false
	}
	return msg.Result, true
}

// tokenRequired records a 401/403: no tool answers without a token, and the
// challenge is followed to the sign-in metadata.
func (p *prober) tokenRequired(out outcome) {
	zero := 0
	p.res.Tools.ListedWithoutToken = &zero
	p.discoverAuth(out.challenge)
}

// listTools pages through tools/list without a token.
func (p *prober) listTools() {
	total, readOnly := 0, 0
	cursor := ""
	seen := map[string]bool{}
	for page := 0; page < p.opts.MaxPages; page++ {
		// JSON-RPC 2.0 §4.2: params is omitted, never null, without a cursor.
		var params any
		if cursor != "" {
			params = map[string]any{"cursor": cursor}
		}
		result, ok := p.request("tools/list", 2+page, params)
		if !ok {
			break
		}
		var lr struct {
			Tools []struct {
				Annotations *struct {
					ReadOnlyHint *bool `json:"readOnlyHint"`
				} `json:"annotations"`
				Meta *struct {
					UI *struct {
						ResourceURI string `json:"resourceUri"`
					} `json:"ui"`
				} `json:"_meta"`
			} `json:"tools"`
			NextCursor string `json:"nextCursor"`
		}
		if err := json.Unmarshal(result, &lr); err != nil || lr.Tools == nil {
			p.fail("tools/list: result has no tools array")
			break
		}
		p.res.ToolsList = true
		p.res.Pages++
		for _, t := range lr.Tools {
			if total >= p.opts.MaxTools {
				p.fail("tools/list: more than %d tools, counting stopped", p.opts.MaxTools)
				break
			}
			total++
			if t.Annotations != nil && t.Annotations.ReadOnlyHint != nil && *t.Annotations.ReadOnlyHint {
				readOnly++
			}
			if t.Meta != nil && t.Meta.UI != nil && strings.HasPrefix(t.Meta.UI.ResourceURI, "ui://") {
				p.res.UITools++
			}
		}
		if lr.NextCursor == "" || total >= p.opts.MaxTools {
			break
		}
		if seen[lr.NextCursor] {
			p.fail("tools/list: cursor repeated, pagination stopped")
			break
		}
		seen[lr.NextCursor] = true
		cursor = lr.NextCursor
		if page == p.opts.MaxPages-1 {
			p.fail("tools/list: more than %d pages, pagination stopped", p.opts.MaxPages)
		}
	}
	if p.res.ToolsList {
		p.res.Tools.ListedWithoutToken, p.res.Tools.WithReadOnlyHint = &total, &readOnly
		p.res.Auth.Mode = AuthNone
	}
}

// call POSTs one JSON-RPC request (id > 0) or notification (id == 0) and
// returns the response to a request.
func (p *prober) call(method string, id int, params any) (rpcMessage, outcome, error) {
	msg := map[string]any{"jsonrpc": "2.0", "method": method}
	if id > 0 {
		msg["id"] = id
	}
	if params != nil {
		msg["params"] = params
	}
	body, _ := json.Marshal(msg)
	ex := Exchange{Method: method, Request: "POST " + p.res.Endpoint, Body: excerpt(body, p.opts.ExcerptBytes)}
	defer func() { p.res.Exchanges = append(p.res.Exchanges, ex) }()

	req, err := http.NewRequestWithContext(p.ctx, http.MethodPost, p.endpoint.String(), bytes.NewReader(body))
	if err != nil {
		ex.Error = err.Error()
		return rpcMessage{}, outcome{}, err
	}
	req.Header.Set("Content-Type", "application/json")
	// Streamable HTTP: the client MUST accept both JSON and an SSE stream.
	req.Header.Set("Accept", "application/json, text/event-stream")
	// MCP-Protocol-Version exists from revision 2025-06-18 on; a session
	// pinned to an earlier revision is not sent a later header (rule 4).
	if p.version >= "2025-06-18" {
		req.Header.Set("MCP-Protocol-Version", p.version)
		ex.ProtocolVersionHeader = p.version
	}
	if p.session != "" {
		req.Header.Set("Mcp-Session-Id", p.session)
		ex.SessionSent = true
	}
	resp, err := p.client.Do(req)
	if err != nil {
		ex.Error = redact(err.Error())
		return rpcMessage{}, outcome{}, errors.New(ex.Error)
	}
	defer resp.Body.Close()
	out := outcome{status: resp.StatusCode}
	ex.Status, ex.ContentType = resp.StatusCode, resp.Header.Get("Content-Type")
	if sid := resp.Header.Get("Mcp-Session-Id"); sid != "" {
		ex.SessionReturned = true
		if method == "initialize" {
			p.assignSession(sid)
		}
	}
	if resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden {
		// RFC 9110 §11.6.1 / RFC 6750 §3: the challenge says how to sign in.
		out.challenge = resp.Header.Values("WWW-Authenticate")
		ex.WWWAuthenticate = redact(strings.Join(out.challenge, ", "))
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		raw, _ := io.ReadAll(io.LimitReader(resp.Body, min(p.opts.MaxBodyBytes, 64<<10)))
		ex.Excerpt = excerpt(raw, p.opts.ExcerptBytes)
		err := fmt.Errorf("http status %d", resp.StatusCode)
		ex.Error = err.Error()
		return rpcMessage{}, out, err
	}
	if id == 0 {
		// Streamable HTTP: a notification is answered 202 Accepted, no body.
		if resp.StatusCode != http.StatusAccepted {
			ex.Error = fmt.Sprintf("expected 202 Accepted, got %d", resp.StatusCode)
		}
		return rpcMessage{}, out, nil
	}
	m, raw, err := readResponse(ex.ContentType, resp.Body, id, p.opts.MaxBodyBytes)
	ex.Excerpt = excerpt(raw, p.opts.ExcerptBytes)
	if err != nil {
		ex.Error = err.Error()
		return m, out, err
	}
	if m.Error != nil {
		err := fmt.Errorf("json-rpc error %d: %s", m.Error.Code, m.Error.Message)
		ex.Error = redact(err.Error())
		return m, out, err
	}
	return m, out, nil
}

// assignSession keeps a session id the server assigned. Streamable HTTP: the
// id must be visible ASCII (0x21–0x7E); anything else is not echoed.
func (p *prober) assignSession(sid string) {
	for i := 0; i < len(sid); i++ {
		if sid[i] < 0x21 || sid[i] > 0x7e {
			p.fail("initialize: Mcp-Session-Id holds characters outside visible ASCII")
			return
		}
	}
	p.session, p.res.SessionAssigned = sid, true
}

// closeSession ends an assigned session with DELETE, as Streamable HTTP asks
// of clients that no longer need it. The server may answer 405.
func (p *prober) closeSession() {
	if p.session == "" || p.ctx.Err() != nil {
		return
	}
	ex := Exchange{Method: "session/delete", Request: "DELETE " + p.res.Endpoint, SessionSent: true}
	defer func() { p.res.Exchanges = append(p.res.Exchanges, ex) }()
	req, err := http.NewRequestWithContext(p.ctx, http.MethodDelete, p.endpoint.String(), nil)
	if err != nil {
		ex.Error = err.Error()
		return
	}
	req.Header.Set("Mcp-Session-Id", p.session)
	if p.version >= "2025-06-18" {
		req.Header.Set("MCP-Protocol-Version", p.version)
		ex.ProtocolVersionHeader = p.version
	}
	resp, err := p.client.Do(req)
	if err != nil {
		ex.Error = redact(err.Error())
		return
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 4096))
	resp.Body.Close()
	ex.Status = resp.StatusCode
}
