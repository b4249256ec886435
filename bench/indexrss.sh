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
# The heap's peaks: Caddy runs with GODEBUG=gctrace=1, and the summary
# gives the largest live heap the collector marked (the third figure of
# gctrace's "A->B->C MB") and the largest HeapAlloc sampled once a second
# from the start to the end of the settling, both with the second they
# were reached. LOG=FILE keeps the samples and Caddy's log (the gctrace
# lines) there; PROFILES=DIR writes heap profiles of the admin endpoint's
# /debug/pprof/heap to DIR when the index is ready (heap-ready.pprof) and
# at the end (heap-settled.pprof): `go tool pprof -sample_index=inuse_space
# -top DIR/heap-settled.pprof`.
#
#   bench/indexrss.sh                      # the Python docs
#   SETTLE=150 LOG=/tmp/rss.log PROFILES=/tmp/rss bench/indexrss.sh
#   DOCS=/usr/share/doc/git-doc bench/indexrss.sh
#   SELF_SCAN=on bench/indexrss.sh         # with the self-scan, as by default
#                                          # (SELF_SCAN: off, or on)
set -euo pipefail
cd "$(dirname "$0")/.."
DOCS=${DOCS:-/usr/share/doc/python3.11/html}
SETTLE=${SETTLE:-60}
LOG=${LOG:-}
PROFILES=${PROFILES:-}
work=$(mktemp -d /tmp/agentready-rss.XXXXXX)
trap 'kill "$pid" 2>/dev/null || true; rm -rf "$work"' EXIT
[ -d "$DOCS" ] || { echo "no $DOCS (apt-get install python3.11-doc)" >&2; exit 1; }
go build -o "$work/caddy" ./cmd/caddy
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
admin=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
printf 'site:\n  name: docs\nconnect:\n  enabled: true\n  rate_limit: 1000000\n' >"$work/site.yaml"
# The self-scan is off unless SELF_SCAN=on (the default of a real config).
scanline='self_scan off'
[ "${SELF_SCAN:-off}" = on ] && scanline=""
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
		$scanline
	}
	root * $DOCS
	file_server
}
CF
GODEBUG=${GODEBUG:+$GODEBUG,}gctrace=1 XDG_DATA_HOME=$work/data XDG_CONFIG_HOME=$work/config "$work/caddy" run --config "$work/Caddyfile" --adapter caddyfile >"$work/caddy.log" 2>&1 &
pid=$!
start=$(date +%s)
kb() { awk -v k="$1:" '$1 == k {print $2}' "/proc/$pid/status"; }
vars() { curl -s "http://127.0.0.1:$admin/debug/vars"; }
heap() { vars | python3 -c 'import json,sys; m=json.load(sys.stdin)["memstats"]; print(" ".join("%s %.1f MiB" % (k, m[k] / 2**20) for k in ("HeapAlloc", "HeapInuse", "HeapReleased")))'; }
# sample: "+Ns HeapAlloc_bytes" once a second into $work/samples.
sample() {
	local b
	b=$(vars | python3 -c 'import json,sys; print(json.load(sys.stdin)["memstats"]["HeapAlloc"])' 2>/dev/null) || return 0
	echo "+$(($(date +%s) - start))s $b" >>"$work/samples"
}
profile() { [ -z "$PROFILES" ] || { mkdir -p "$PROFILES" && curl -s -o "$PROFILES/$1.pprof" "http://127.0.0.1:$admin/debug/pprof/heap"; }; }
: >"$work/samples"
until [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/ask?query=index")" = 200 ]; do
	kill -0 "$pid" 2>/dev/null || { cat "$work/caddy.log" >&2; exit 1; }
	[ $(($(date +%s) - start)) -lt 600 ] || { echo "index not ready after 600 s" >&2; exit 1; }
	sample
	sleep 1
done
ready=$(($(date +%s) - start))
index() { curl -s "http://127.0.0.1:$admin/metrics" | awk '/^caddy_agent_ready_index_(pages|bytes)[{ ]/ {sub(/^caddy_agent_ready_/, "", $1); sub(/[{].*/, "", $1); printf "%s %s ", $1, $2}'; }
echo "index ready after $ready s; $(index)"
profile heap-ready
for t in $(seq 0 "$SETTLE"); do
	[ "$t" = 0 ] || { sample; sleep 1; }
	[ $((t % 5)) = 0 ] || continue
	echo "+${t}s VmRSS $(kb VmRSS) kB, VmHWM $(kb VmHWM) kB, RssAnon $(kb RssAnon) kB; $(heap)"
done
profile heap-settled
echo "settled: $(index)"
# gctrace: "gc N @T s P%: ... A->B->C MB, G MB goal, ..." (C: live heap marked).
awk '/^gc [0-9]+ @/ { split($0, a, "->"); split(a[3], c, " "); if (c[1] + 0 > max) { max = c[1] + 0; at = $3 } }
	END { printf "largest live heap (gctrace, marked): %s MB at %s\n", max, at }' "$work/caddy.log"
awk '{ if ($2 + 0 > max) { max = $2 + 0; at = $1 } } END { printf "largest HeapAlloc sampled: %.1f MiB at %s (index ready at +%ss)\n", max / 2^20, at, r }' r="$ready" "$work/samples"
if [ -n "$LOG" ]; then
	{ echo "# samples (+seconds HeapAlloc bytes)"; cat "$work/samples"; echo "# caddy log"; cat "$work/caddy.log"; } >"$LOG"
fi
