package browser

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	_ "github.com/caddyserver/caddy/v2/modules/standard"

	_ "github.com/agentready/caddy-agentready/caddymodule"
	"github.com/agentready/caddy-agentready/caddymodule/internal/caddytest"
)

var update = flag.Bool("update", false, "rewrite docs/agents-view.png")

// root is the repository root, from this package's directory.
var root = filepath.Join("..", "..")

// TestMain gives Caddy a data directory of its own, so that what the sites
// save (traffic counts) stays out of the user's.
func TestMain(m *testing.M) { caddytest.Main(m) }

var freePort = caddytest.FreePort

// runCaddy runs the Caddyfile text in this process until the test ends:
// {port} is replaced by port, {admin} by a free port for the admin
// endpoint, which a global options block is added for unless text has
// one. It returns the site's and the admin endpoint's base URLs.
func runCaddy(t *testing.T, port int, text string) (base, admin string) {
	t.Helper()
	adminPort := freePort(t)
	if !strings.Contains(text, "admin ") {
		text = "{\n\tadmin 127.0.0.1:{admin}\n\tpersist_config off\n}\n" + text
	}
	caddytest.Load(t, strings.NewReplacer("{port}", fmt.Sprint(port), "{admin}", fmt.Sprint(adminPort)).Replace(text), "Caddyfile")
	caddytest.WaitListening(t, fmt.Sprintf("127.0.0.1:%d", port))
	return fmt.Sprintf("http://127.0.0.1:%d", port), fmt.Sprintf("http://127.0.0.1:%d", adminPort)
}

// get sends a request with the given header pairs and returns the status
// and body.
func get(t *testing.T, url string, hdr ...string) (int, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, "GET", url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("reading %s: %v", url, err)
	}
	return resp.StatusCode, string(body)
}

// newOrigin serves the bundled demo site, its pages in NAME.html as the
// demo's try_files has them.
func newOrigin(t *testing.T) *httptest.Server {
	t.Helper()
	files := http.FileServer(http.Dir(filepath.Join(root, "examples", "site")))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" && filepath.Ext(r.URL.Path) == "" {
			r.URL.Path += ".html"
		}
		files.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// waitScanned polls the admin endpoint until the one site's self-scan has
// finished.
func waitScanned(t *testing.T, admin string) {
	t.Helper()
	for deadline := time.Now().Add(45 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		code, body := get(t, admin+"/agent-ready/status")
		var st struct {
			Sites []struct{ Finished time.Time }
		}
		if code == 200 && json.Unmarshal([]byte(body), &st) == nil && len(st.Sites) == 1 && !st.Sites[0].Finished.IsZero() {
			return
		}
	}
	t.Fatal("no self-scan finished in 45 s")
}

// withReport appends a site on a free port that mounts the report pages
// (agent_ready_report), as a browser reaches them, and returns its URL.
func withReport(t *testing.T, caddyfileText string) (string, string) {
	port := freePort(t)
	return caddyfileText + fmt.Sprintf(`

http://127.0.0.1:%d {
	bind 127.0.0.1
	agent_ready_report
}`, port), fmt.Sprintf("http://127.0.0.1:%d/agent-ready/", port)
}
