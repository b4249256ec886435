package connect

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

// postMCP sends body to the MCP endpoint as a streamable-HTTP client would.
func postMCP(t *testing.T, url, body string, header http.Header) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url+DefaultMCPPath, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range header {
		req.Header[k] = v
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, b
}

const initializeBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`

func TestMCPRawRequests(t *testing.T) {
	_, ts := newTestServer(t, Options{MaxRequestBytes: 4096}, nil)
	batchOf := func(n int) string {
		return "[" + strings.TrimSuffix(strings.Repeat(`{"jsonrpc":"2.0","method":"notifications/initialized"},`, n), ",") + "]"
	}
	tests := []struct {
		name       string
		body       string
		header     http.Header
		wantStatus int
		wantCode   int // JSON-RPC error code, 0 for none
	}{
		{name: "initialize negotiates the offered version", body: initializeBody, wantStatus: 200},
		{name: "initialize with an old version", body: strings.Replace(initializeBody, "2025-06-18", "2024-11-05", 1), wantStatus: 200},
		{name: "malformed JSON", body: `{"jsonrpc":"2.0","id":1,"method":`, wantStatus: 400, wantCode: codeParseError},
		{name: "not an object", body: `42`, wantStatus: 400, wantCode: codeInvalidRequest},
		{name: "empty batch", body: `[]`, wantStatus: 400, wantCode: codeInvalidRequest},
		{name: "oversized batch", body: batchOf(maxBatch + 1), wantStatus: 400, wantCode: codeInvalidRequest},
		{name: "batch with a malformed member", body: `[{"jsonrpc":"2.0","id":1,"method":"ping"}, 7]`, wantStatus: 400, wantCode: codeInvalidRequest},
		{name: "unknown method", body: `{"jsonrpc":"2.0","id":7,"method":"tools/delete_everything"}`, wantStatus: 404, wantCode: codeMethodNotFound},
		{name: "unknown method in a batch", body: `[{"jsonrpc":"2.0","id":7,"method":"nope"}]`, wantStatus: 404, wantCode: codeMethodNotFound},
		{name: "body over the cap", body: `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"` + strings.Repeat("a", 5000) + `"}}`, wantStatus: 413, wantCode: codeInvalidRequest},
		{name: "unsupported protocol header", body: `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, header: http.Header{"Mcp-Protocol-Version": {"1999-01-01"}}, wantStatus: 400},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := postMCP(t, ts.URL, tt.body, tt.header)
			if resp.StatusCode != tt.wantStatus {
				t.Fatalf("status %d, want %d: %s", resp.StatusCode, tt.wantStatus, body)
			}
			var msg struct {
				ID     json.RawMessage `json:"id"`
				Result struct {
					ProtocolVersion string `json:"protocolVersion"`
				} `json:"result"`
				Error *struct {
					Code int `json:"code"`
				} `json:"error"`
			}
			if tt.wantStatus == 200 || tt.wantCode != 0 {
				if err := json.Unmarshal(body, &msg); err != nil {
					t.Fatalf("answer is not JSON-RPC: %v: %s", err, body)
				}
			}
			if tt.wantCode != 0 && (msg.Error == nil || msg.Error.Code != tt.wantCode) {
				t.Fatalf("error = %s, want code %d", body, tt.wantCode)
			}
			if tt.wantCode == codeMethodNotFound && string(msg.ID) != "7" {
				t.Errorf("error id = %s, want 7", msg.ID)
			}
			if tt.wantStatus == 200 && msg.Result.ProtocolVersion == "" {
				t.Errorf("no negotiated version: %s", body)
			}
		})
	}
}

func TestMCPInitializeEchoesSupportedVersion(t *testing.T) {
	_, ts := newTestServer(t, Options{}, nil)
	for _, v := range []string{"2024-11-05", "2025-03-26", "2025-06-18"} {
		_, body := postMCP(t, ts.URL, strings.Replace(initializeBody, "2025-06-18", v, 1), nil)
		if !strings.Contains(string(body), `"protocolVersion":"`+v+`"`) {
			t.Errorf("offered %s, answer %s", v, body)
		}
	}
}

func TestMCPOtherMethods(t *testing.T) {
	_, ts := newTestServer(t, Options{}, nil)
	resp, err := http.Get(ts.URL + DefaultMCPPath)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed || resp.Header.Get("Allow") == "" {
		t.Errorf("GET = %d Allow %q, want 405 with Allow", resp.StatusCode, resp.Header.Get("Allow"))
	}
	resp, err = http.Get(ts.URL + "/elsewhere")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("GET /elsewhere = %d, want 404", resp.StatusCode)
	}
}

func FuzzScreen(f *testing.F) {
	for _, seed := range []string{initializeBody, `[]`, `[{"id":1,"method":"x"}]`, `{"method":"tools/call","params":{"name":"ask"}}`, `{`, `null`, `[[[[`} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		tools, rerr := screen(body)
		if rerr != nil && tools != nil {
			t.Fatalf("both tools %q and an error", tools)
		}
		if len(tools) > maxBatch {
			t.Fatalf("%d tools from one body", len(tools))
		}
		if rerr != nil && (rerr.status < 400 || rerr.code >= 0) {
			t.Fatalf("bad error %+v", rerr)
		}
	})
}
