package selfcheck

import (
	"context"
	"net/http"
)

// probeMCP runs the MCP probe against f.endpoint and fills f.
// TODO(selfcheck): wire selfcheck/mcpprobe.Probe when it lands.
func probeMCP(ctx context.Context, client *http.Client, f *mcpFindings) {
	f.unreachable, f.errText = true, "MCP probe not available"
}
