package negotiate

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func fixedConvert([]byte, Page) (*Converted, error) {
	return &Converted{Markdown: []byte("# x\n")}, nil
}

func TestProvisionDefaults(t *testing.T) {
	h := &Handler{Convert: fixedConvert}
	if err := h.Provision(); err != nil {
		t.Fatal(err)
	}
	o := h.Options
	if o.MaxSize != DefaultMaxSize || o.MarkdownSuffix != "/md" || o.LinkLLMS != "/llms.txt" || o.LinkAgents != "/agents.json" ||
		!*o.LinkMarkdown || !*o.HeadLink || !*o.TokensHeader || o.CacheControl != "" || o.ContentSignal != "" {
		t.Errorf("defaults = %+v", o)
	}
	if h.Observer == nil {
		t.Error("no default observer")
	}
	off := &Handler{Convert: fixedConvert, Options: Options{HeadLink: Bool(false), MarkdownSuffix: "-", LinkLLMS: "-", LinkAgents: "-"}}
	if err := off.Provision(); err != nil {
		t.Fatal(err)
	}
	if *off.Options.HeadLink || off.suffix != "" || len(off.staticLink) != 0 {
		t.Errorf("explicit values not kept: %+v", off.Options)
	}
}

func TestProvisionRejects(t *testing.T) {
	for _, tc := range []struct {
		name string
		h    Handler
		want string
	}{
		{"no converter", Handler{}, "Convert"},
		{"negative max size", Handler{Convert: fixedConvert, Options: Options{MaxSize: -1}}, "max_size"},
		{"CRLF in cache-control", Handler{Convert: fixedConvert, Options: Options{CacheControl: "private\r\nSet-Cookie: a=b"}}, "cache_control"},
		{"LF in content-signal", Handler{Convert: fixedConvert, Options: Options{ContentSignal: "ai-train=no\nX: y"}}, "content_signal"},
		{"NUL in llms link", Handler{Convert: fixedConvert, Options: Options{LinkLLMS: "/llms\x00.txt"}}, "link_llms"},
		{"CR in agents link", Handler{Convert: fixedConvert, Options: Options{LinkAgents: "/a\r"}}, "link_agents"},
		{"suffix without slash", Handler{Convert: fixedConvert, Options: Options{MarkdownSuffix: "md"}}, "markdown_suffix"},
		{"suffix with query", Handler{Convert: fixedConvert, Options: Options{MarkdownSuffix: "/md?x"}}, "markdown_suffix"},
		{"suffix slash only", Handler{Convert: fixedConvert, Options: Options{MarkdownSuffix: "/"}}, "markdown_suffix"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.h.Provision()
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Provision error = %v, want one naming %s", err, tc.want)
			}
			if strings.HasSuffix(err.Error(), ".") || strings.ContainsAny(err.Error(), "\r\n") {
				t.Errorf("error %q ends with a period or spans lines", err)
			}
		})
	}
}

func TestServeHTTPBeforeProvision(t *testing.T) {
	var h Handler
	err := h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/", nil), func(http.ResponseWriter, *http.Request) error {
		t.Error("next called by an unprovisioned handler")
		return nil
	})
	if !errors.Is(err, errNotProvisioned) {
		t.Errorf("error = %v", err)
	}
}
