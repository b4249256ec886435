package mcpprobe

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"strconv"
)

// rpcError is a JSON-RPC 2.0 error object (§5.1).
type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// rpcMessage is any JSON-RPC 2.0 message; only the members the probe reads.
type rpcMessage struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *rpcError       `json:"error,omitempty"`
}

// isResponseTo reports whether m is the response to request id.
func (m rpcMessage) isResponseTo(id int) bool {
	return m.Method == "" && string(bytes.TrimSpace(m.ID)) == strconv.Itoa(id) &&
		(m.Result != nil || m.Error != nil)
}

// errTooLarge reports a body over the cap.
var errTooLarge = errors.New("response body exceeds the size cap")

// readResponse reads the response to request id from an HTTP body, which is
// either application/json (one message or a batch) or text/event-stream
// (Streamable HTTP: the response arrives as one SSE event, possibly after
// server requests and notifications). At most limit bytes are read; an SSE
// stream is abandoned as soon as the response arrived. raw holds what was
// read, for the receipt's excerpt.
func readResponse(contentType string, body io.Reader, id int, limit int64) (msg rpcMessage, raw []byte, err error) {
	mt, _, _ := mime.ParseMediaType(contentType)
	lr := &io.LimitedReader{R: body, N: limit + 1}
	switch mt {
	case "application/json":
		raw, err = io.ReadAll(lr)
		if err != nil {
			return msg, raw, fmt.Errorf("reading json body: %w", err)
		}
		if int64(len(raw)) > limit {
			return msg, raw[:limit], errTooLarge
		}
		return findResponse(raw, id)
	case "text/event-stream":
		var rec bytes.Buffer
		sse := newSSEReader(io.TeeReader(lr, &rec))
		for {
			data, err := sse.next()
			if err != nil {
				if lr.N <= 0 {
					err = errTooLarge
				} else if errors.Is(err, io.EOF) {
					err = errors.New("event stream ended without the response")
				}
				return msg, capBytes(rec.Bytes(), limit), err
			}
			if m, _, ferr := findResponse([]byte(data), id); ferr == nil {
				return m, capBytes(rec.Bytes(), limit), nil
			}
		}
	default:
		raw, _ = io.ReadAll(io.LimitReader(body, 4096))
		return msg, raw, fmt.Errorf("unexpected content type %q", contentType)
	}
}

func capBytes(b []byte, n int64) []byte {
	if int64(len(b)) > n {
		return b[:n]
	}
	return b
}

// findResponse decodes a JSON-RPC message or batch and returns the response
// to id.
func findResponse(data []byte, id int) (rpcMessage, []byte, error) {
	data = bytes.TrimSpace(data)
	if len(data) > 0 && data[0] == '[' {
		var batch []rpcMessage
		if err := json.Unmarshal(data, &batch); err != nil {
			return rpcMessage{}, data, fmt.Errorf("decoding json-rpc batch: %w", err)
		}
		for _, m := range batch {
			if m.isResponseTo(id) {
				return m, data, nil
			}
		}
		return rpcMessage{}, data, fmt.Errorf("no response to request %d in batch", id)
	}
	var m rpcMessage
	if err := json.Unmarshal(data, &m); err != nil {
		return m, data, fmt.Errorf("decoding json-rpc message: %w", err)
	}
	if m.JSONRPC != "2.0" {
		return m, data, fmt.Errorf("not a json-rpc 2.0 message")
	}
	if !m.isResponseTo(id) {
		return m, data, fmt.Errorf("message is not the response to request %d", id)
	}
	return m, data, nil
}
