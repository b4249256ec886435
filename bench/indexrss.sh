#!/usr/bin/env bash
# Memory of a Caddy serving a documentation site with the content index on
# (issue #28's "RSS with the Python docs indexed"): builds ./cmd/caddy,
# serves DOCS (default Debian's python3.11-doc) with file_server behind
# agent_ready with `connect.enabled: true` and nothing else, waits until
# /ask answers (the first complete index build), then samples
# /proc/PID/status every 5 s for SETTLE (60) seconds and prints VmRSS,
# VmHWM, RssAnon and the Go heap (HeapAlloc, HeapInuse, HeapReleased from
# the admin endpoint's /debug/vars). Extra environment (GOGC,
# GOMEMLIMIT) is passed to Caddy.
#
#   bench/indexrss.sh                      # the Python docs
#   DOCS=/usr/share/doc/git-doc bench/indexrss.sh
set -euo pipefail
cd "$(dirname "$0")/.."
DOCS=${DOCS:-/usr/share/doc/python3.11/html}
SETTLE=${SETTLE:-60}
work=$(mktemp -d /tmp/agentready-rss.XXXXXX)
trap 'kill "$pid" 2>/dev/null || true; rm -rf "$work"' EXIT
[ -d "$DOCS" ] || { echo "no $DOCS (apt-get install python3.11-doc)" >&2; exit 1; }
go build -o "$work/caddy" ./cmd/caddy
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
admin=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
printf 'site:\n  name: docs\nconnect:\n  enabled: true\n  rate_limit: 1000000\n' >"$work/site.yaml"
cat >"$work/Caddyfile" <<CF
{
	admin 127.0.0.1:$admin
	persist_config off
	log {
		level ERROR
	}
}
http://127.0.0.1:$port {
	agent_ready {
		config $work/site.yaml
		self_scan off
	}
	root * $DOCS
	file_server
}
CF
XDG_DATA_HOME=$work/data XDG_CONFIG_HOME=$work/config "$work/caddy" run --config "$work/Caddyfile" --adapter caddyfile >"$work/caddy.log" 2>&1 &
pid=$!
start=$(date +%s)
until [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/ask?query=index")" = 200 ]; do
	kill -0 "$pid" 2>/dev/null || { cat "$work/caddy.log" >&2; exit 1; }
	[ $(($(date +%s) - start)) -lt 600 ] || { echo "index not ready after 600 s" >&2; exit 1; }
	sleep 1
done
echo "index ready after $(($(date +%s) - start)) s; pages: $(curl -s "http://127.0.0.1:$admin/agent-ready/index" | grep -o '"pages":[0-9]*' | head -1)"
kb() { awk -v k="$1:" '$1 == k {print $2}' "/proc/$pid/status"; }
heap() { curl -s "http://127.0.0.1:$admin/debug/vars" | python3 -c 'import json,sys; m=json.load(sys.stdin)["memstats"]; print(" ".join("%s %.1f MiB" % (k, m[k] / 2**20) for k in ("HeapAlloc", "HeapInuse", "HeapReleased")))'; }
for t in $(seq 0 5 "$SETTLE"); do
	[ "$t" = 0 ] || sleep 5
	echo "+${t}s VmRSS $(kb VmRSS) kB, VmHWM $(kb VmHWM) kB, RssAnon $(kb RssAnon) kB; $(heap)"
done
