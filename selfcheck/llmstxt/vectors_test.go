package llmstxt

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// TestLighthouseVectors runs the llms_txt_cases of the shared conformance
// vectors (kept with the ard package's test data).
func TestLighthouseVectors(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "ard", "testdata", "lighthouse-ard-test-vectors.json"))
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		Cases []struct {
			Status  *int    `json:"status"`
			Content *string `json:"content"`
			Expect  struct {
				Score         float64 `json:"score"`
				NotApplicable bool    `json:"notApplicable"`
			} `json:"expect"`
		} `json:"llms_txt_cases"`
	}
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	if len(v.Cases) == 0 {
		t.Fatal("no llms_txt_cases")
	}
	for i, c := range v.Cases {
		status := 0
		if c.Status != nil {
			status = *c.Status
		}
		var content []byte
		if c.Content != nil {
			content = []byte(*c.Content)
		}
		r := Audit(status, content)
		if r.Score != c.Expect.Score || r.NotApplicable != c.Expect.NotApplicable {
			t.Errorf("case %d (status %d, %q): got %+v, want score %v notApplicable %v",
				i, status, content, r, c.Expect.Score, c.Expect.NotApplicable)
		}
	}
}

func TestAuditEdges(t *testing.T) {
	long := " and enough padding text to pass the length check."
	tests := []struct {
		name    string
		status  int
		content string
		nilBody bool
		score   float64
		errs    int
	}{
		{"BOM stripped before H1", 200, "\uFEFF# Title\n[Link](https://example.com)" + long, false, 1, 0},
		{"CRLF", 200, "intro\r\n# Title\r\n[Link](https://example.com)" + long, false, 1, 0},
		{"JavaScript \\s spans the line break", 200, "#\nTitle [Link](https://example.com)" + long, false, 1, 0},
		{"hash without space", 200, "#Title [Link](https://example.com)" + long, false, 0, 1},
		{"link across lines", 200, "# Title\n[Link]\n(https://example.com)" + long, false, 0, 1},
		{"all three missing", 200, "short", false, 0, 3},
		{"redirect without body", 301, "", true, 0, 0},
		{"server error", 502, "x", false, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			body := []byte(tt.content)
			if tt.nilBody {
				body = nil
			}
			r := Audit(tt.status, body)
			if r.Score != tt.score || len(r.Errors) != tt.errs {
				t.Errorf("Audit = %+v, want score %v with %d errors", r, tt.score, tt.errs)
			}
		})
	}
}
