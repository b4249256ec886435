// Package agentready makes `xcaddy build --with github.com/agentready/caddy-agentready`
// include the agent_ready Caddy modules.
package agentready

import (
	// Registers http.handlers.agent_ready, admin.api.agent_ready and the
	// `caddy agent-ready` subcommand.
	_ "github.com/agentready/caddy-agentready/caddymodule"
)
