package mcpprobe

import (
	"errors"
	"strings"
	"testing"
)

func TestReadResponse(t *testing.T) {
	tests := []struct {
		name, ctype, body string
		id                int
		ok                bool
		errHas            string
	}{
		{"json", "application/json; charset=utf-8", `{"jsonrpc":"2.0","id":1,"result":{}}`, 1, true, ""},
		{"json batch", "application/json", `[{"jsonrpc":"2.0","method":"x"},{"jsonrpc":"2.0","id":3,"result":{}}]`, 3, true, ""},
		{"wrong id", "application/json", `{"jsonrpc":"2.0","id":2,"result":{}}`, 1, false, "not the response"},
		{"string id is not the numeric id", "application/json", `{"jsonrpc":"2.0","id":"1","result":{}}`, 1, false, "not the response"},
		{"not 2.0", "application/json", `{"jsonrpc":"1.0","id":1,"result":{}}`, 1, false, "json-rpc 2.0"},
		{"sse after a server request", "text/event-stream",
			"id: 1\nevent: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"roots/list\"}\n\n" +
				"data: {\"jsonrpc\":\"2.0\",\r\ndata: \"id\":1,\"result\":{}}\r\n\r\n", 1, true, ""},
		{"sse CR line ends", "text/event-stream", "data:{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\r\r", 1, true, ""},
		{"sse event cut off", "text/event-stream", "data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}", 1, false, "ended without"},
		{"no content type", "", `{}`, 1, false, "unexpected content type"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, _, err := readResponse(tt.ctype, strings.NewReader(tt.body), tt.id, 1<<20)
			if (err == nil) != tt.ok || (err != nil && !strings.Contains(err.Error(), tt.errHas)) {
				t.Fatalf("err = %v, want ok=%v containing %q", err, tt.ok, tt.errHas)
			}
			if tt.ok && m.Result == nil {
				t.Errorf("no result in %+v", m)
			}
		})
	}
}

func TestReadResponseCap(t *testing.T) {
	_, raw, err := readResponse("application/json", strings.NewReader(strings.Repeat(" ", 100)), 1, 10)
	if !errors.Is(err, errTooLarge) || len(raw) != 10 {
		t.Errorf("err = %v, raw = %d bytes", err, len(raw))
	}
}

func FuzzReadResponse(f *testing.F) {
	f.Add(true, []byte("data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n\n"))
	f.Add(true, []byte("\r\r\n:x\ndata\ndata:\n\n"))
	f.Add(false, []byte(`[{"jsonrpc":"2.0","id":1,"result":null},1,"x"]`))
	f.Add(false, []byte(`{"jsonrpc":"2.0","id":1,"error":{"code":1}}`))
	f.Fuzz(func(t *testing.T, sse bool, body []byte) {
		ctype := "application/json"
		if sse {
			ctype = "text/event-stream"
		}
		const limit = 4096
		m, raw, err := readResponse(ctype, strings.NewReader(string(body)), 1, limit)
		if len(raw) > limit {
			t.Fatalf("read %d bytes past the cap", len(raw))
		}
		if err == nil && !m.isResponseTo(1) {
			t.Fatalf("accepted %+v", m)
		}
	})
}

func BenchmarkReadResponseSSE(b *testing.B) {
	var sb strings.Builder
	for range 200 {
		sb.WriteString("event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{}}\n\n")
	}
	sb.WriteString("data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"tools\":[]}}\n\n")
	body := sb.String()
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		if _, _, err := readResponse("text/event-stream", strings.NewReader(body), 1, 1<<20); err != nil {
			b.Fatal(err)
		}
	}
}

// TestRequestBodies pins what the probe sends: JSON-RPC 2.0 requests with
// structured params (never null), a notification without an id.
func TestRequestBodies(t *testing.T) {
	srv, _ := serveMCP(t, newServer(1, 0, nil), nil)
	res := Probe(t.Context(), srv.Client(), srv.URL+"/mcp")
	want := map[string]string{
		"notifications/initialized": `{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		"tools/list":                `{"id":2,"jsonrpc":"2.0","method":"tools/list"}`,
	}
	for _, ex := range res.Exchanges {
		if w, ok := want[ex.Method]; ok && ex.Body != w {
			t.Errorf("%s body = %s, want %s", ex.Method, ex.Body, w)
		}
	}
}
