#!/usr/bin/env bash
# Runs the fleet example: the origin and a load balancer (front.caddyfile)
# and three agent_ready instances (Caddyfile) that share one storage
# directory. Ctrl-C stops them all. From the repository root:
#
#   examples/fleet/run.sh
#
# Then http://localhost:8180 is the site, and each instance's admin
# endpoint (localhost:2181, 2182, 2183) shows the fleet's state at
# /agent-ready/status and the fleet's traffic at /agent-ready/agents.
set -euo pipefail
cd "$(dirname "$0")"
work="${FLEET_WORK:-/tmp/agent-ready-fleet}"
mkdir -p "$work"
bin="$work/caddy"
go build -o "$bin" ../../cmd/caddy
pids=()
trap 'kill "${pids[@]}" 2>/dev/null; wait' EXIT INT TERM
"$bin" run --config front.caddyfile >"$work/front.log" 2>&1 &
pids+=($!)
for i in 1 2 3; do
	XDG_DATA_HOME="$work/data$i" XDG_CONFIG_HOME="$work/config$i" \
		FLEET_PORT="818$i" FLEET_ADMIN="localhost:218$i" FLEET_STORAGE="$work/storage" \
		"$bin" run --config Caddyfile >"$work/instance$i.log" 2>&1 &
	pids+=($!)
done
echo "fleet: site on http://localhost:8180, admin on localhost:2181-2183, logs in $work"
wait
