// Command caddy is Caddy built with the standard modules plus agent_ready,
// the way `xcaddy build --with github.com/agentready/caddy-agentready` would.
package main

import (
	caddycmd "github.com/caddyserver/caddy/v2/cmd"

	_ "github.com/caddyserver/caddy/v2/modules/standard"

	_ "github.com/agentready/caddy-agentready/caddymodule"
)

func main() {
	caddycmd.Main()
}
