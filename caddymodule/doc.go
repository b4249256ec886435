// Package caddymodule is the Caddy glue of agent_ready.
package caddymodule
