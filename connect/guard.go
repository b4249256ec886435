package connect

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
)

// JSON-RPC 2.0 error codes (JSON-RPC 2.0 §5.1).
const (
	codeParseError     = -32700
	codeInvalidRequest = -32600
	codeMethodNotFound = -32601
)

// maxBatch is the most messages a JSON-RPC batch may hold; the SDK refuses
// batches outright from protocol 2025-06-18 on, older versions get this cap.
const maxBatch = 8

// serverMethods are the request methods an MCP server answers (the SDK's own
// table, server side). Anything else is answered "method not found" before it
// reaches the SDK, with the JSON-RPC error the spec requires.
var serverMethods = map[string]bool{
	"initialize": true, "ping": true, "server/discover": true,
	"tools/list": true, "tools/call": true,
	"resources/list": true, "resources/read": true, "resources/templates/list": true,
	"resources/subscribe": true, "resources/unsubscribe": true, "subscriptions/listen": true,
	"prompts/list": true, "prompts/get": true, "completion/complete": true, "logging/setLevel": true,
}

// rpcMessage is the part of a JSON-RPC message the guard reads.
type rpcMessage struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params struct {
		Name string `json:"name"`
	} `json:"params"`
}

// rpcError is a JSON-RPC error response the guard answers by itself.
type rpcError struct {
	status int
	id     json.RawMessage
	code   int
	msg    string
}

// screen reads a POST body and returns the tools it calls (none for other
// methods), or the error to answer: malformed JSON, an empty or oversized
// batch, an unknown method.
func screen(body []byte) (tools []string, rerr *rpcError) {
	body = bytes.TrimSpace(body)
	if len(body) > 0 && body[0] == '[' {
		var batch []json.RawMessage
		if err := json.Unmarshal(body, &batch); err != nil {
			return nil, &rpcError{status: http.StatusBadRequest, code: codeParseError, msg: "parse error"}
		}
		if len(batch) == 0 || len(batch) > maxBatch {
			return nil, &rpcError{status: http.StatusBadRequest, code: codeInvalidRequest,
				msg: fmt.Sprintf("batch must hold 1 to %d messages", maxBatch)}
		}
		for _, m := range batch {
			t, rerr := screenOne(m)
			if rerr != nil {
				return nil, rerr
			}
			tools = append(tools, t...)
		}
		return tools, nil
	}
	return screenOne(body)
}

func screenOne(raw []byte) ([]string, *rpcError) {
	var m rpcMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		var syn *json.SyntaxError
		if errors.As(err, &syn) || !json.Valid(raw) {
			return nil, &rpcError{status: http.StatusBadRequest, code: codeParseError, msg: "parse error"}
		}
		return nil, &rpcError{status: http.StatusBadRequest, code: codeInvalidRequest, msg: "invalid request"}
	}
	isRequest := len(m.ID) > 0 && string(m.ID) != "null"
	if isRequest && m.Method != "" && !serverMethods[m.Method] {
		// STANDARD §9 and MCP 2026-07-28: an unknown method answers 404 with
		// the JSON-RPC "method not found" error.
		return nil, &rpcError{status: http.StatusNotFound, id: m.ID, code: codeMethodNotFound,
			msg: "method not found: " + truncate(m.Method, 100)}
	}
	if m.Method == "tools/call" {
		return []string{m.Params.Name}, nil
	}
	return nil, nil
}

// write answers the error as a JSON-RPC response.
func (e *rpcError) write(w http.ResponseWriter) {
	id := e.id
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	writeJSON(w, e.status, "application/json", map[string]any{
		"jsonrpc": "2.0", "id": id, "error": map[string]any{"code": e.code, "message": e.msg},
	})
}

// serveMCP guards the SDK handler: it caps and reads the body, refuses what
// the SDK would answer with plain text or not at all (malformed JSON, batch
// abuse, unknown methods), checks the bearer token and the called tool's
// scopes, and hands the request on with the body restored.
func (s *Server) serveMCP(w http.ResponseWriter, r *http.Request) {
	var tools []string
	if r.Method == http.MethodPost {
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, s.opts.MaxRequestBytes))
		if err != nil {
			var tooBig *http.MaxBytesError
			if errors.As(err, &tooBig) {
				// RFC 9110 §15.5.14: the content is larger than the server accepts.
				(&rpcError{status: http.StatusRequestEntityTooLarge, code: codeInvalidRequest,
					msg: fmt.Sprintf("request body over %d bytes", s.opts.MaxRequestBytes)}).write(w)
				return
			}
			writeProblem(w, http.StatusBadRequest, "bad request", "could not read the request body")
			return
		}
		called, rerr := screen(body)
		if rerr != nil {
			rerr.write(w)
			return
		}
		tools = called
		r.Body = io.NopCloser(bytes.NewReader(body))
		r.ContentLength = int64(len(body))
	}
	r, ok := s.authenticate(w, r, tools...)
	if !ok {
		return
	}
	s.mcpHTTP.ServeHTTP(w, r)
}
