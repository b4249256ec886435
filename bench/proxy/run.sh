#!/usr/bin/env bash
# Proxy overhead, memory and soak measurements of agent_ready, on loopback.
#
#   bench/proxy/run.sh [throughput] [memory] [soak]   # default: throughput memory
#
# Builds Caddy with the module once (or uses $CADDY), starts a static origin
# (the Go origin in bench/proxy: examples/site, a 2 MB and a 50 MB page, a
# gzip bomb, all with ETags), then front Caddy instances on free loopback
# ports: plain `reverse_proxy`, and the same with `agent_ready` (conversion
# cache and rewrite plans on; both off for cold Markdown and first-sight
# HTML; `inject off` and `head_link off` for the headers-only HTML path).
# Installs wrk from Debian if missing.
#
#   throughput  wrk, the same load on plain and agent_ready side by side,
#               RUNS rounds alternating which goes first; a Markdown table
#               of req/s, p50, p99 and the ratio to plain Caddy.
#   memory      peak RSS (VmHWM) of a fresh agent_ready Caddy under
#               64 concurrent Markdown requests for 2 MB pages, a 50 MB page
#               and a gzip bomb.
#   soak        SOAK_DURATION (10m) of mixed traffic at SOAK_RATE (100)
#               req/s on a fresh agent_ready Caddy, RSS sampled every 10 s.
#
# Environment: DURATION (20, seconds per wrk run), CONNS (32), CONNS_2MB (2,
# connections of the cold 2 MB Markdown case), THREADS (2),
# RUNS (2), CASES (all), SOAK_RATE (100), SOAK_DURATION (10m), SOAK_CACHE
# (64MiB, the soak front's conversion cache), MEM_CACHE (64MiB, the memory
# fronts' conversion cache), MEM_PHASES ("0 1 2": 2 MB pages, 50 MB page,
# gzip bomb), PROFILE (1: CPU profiles of the agent_ready runs in
# $WORK via the admin endpoint's /debug/pprof), CADDY (a prebuilt binary),
# WORK (a directory for binaries, logs and profiles; default: a new temp dir).
set -euo pipefail

cd "$(dirname "$0")/../.."
ROOT=$PWD
WORK=${WORK:-$(mktemp -d /tmp/agentready-proxy.XXXXXX)}
mkdir -p "$WORK"
DURATION=${DURATION:-20}
CONNS=${CONNS:-32}
CONNS_2MB=${CONNS_2MB:-2}
THREADS=${THREADS:-2}
RUNS=${RUNS:-2}
PROFILE=${PROFILE:-0}
SOAK_RATE=${SOAK_RATE:-100}
SOAK_DURATION=${SOAK_DURATION:-10m}
SOAK_CACHE=${SOAK_CACHE:-64MiB}
MEM_CACHE=${MEM_CACHE:-64MiB}
MEM_PHASES=${MEM_PHASES:-0 1 2}
MODES=("$@")
[ ${#MODES[@]} -gt 0 ] || MODES=(throughput memory)

PIDS=()
declare -A PID_OF # front port -> Caddy pid
cleanup() {
	for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
	wait 2>/dev/null || true
}
trap cleanup EXIT

log() { echo "# $*" >&2; }

# --- tools ---------------------------------------------------------------
if ! command -v wrk >/dev/null; then
	log "installing wrk (Debian package)"
	if [ "$(id -u)" = 0 ]; then apt-get install -y wrk >&2; else sudo apt-get install -y wrk >&2; fi
fi
tree() { echo "commit $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- . || echo ' with uncommitted changes')"; }
if [ -z "${CADDY:-}" ]; then
	log "building Caddy with agent_ready into $WORK/caddy"
	go build -o "$WORK/caddy" ./cmd/caddy
	CADDY=$WORK/caddy
	BUILT="built from $(tree) at $(date -u +%H:%M)"
else
	BUILT="prebuilt $CADDY (the tree is now at $(tree))"
fi
go build -o "$WORK/proxy" ./bench/proxy

mapfile -t PORTS < <("$WORK/proxy" ports 13)
ORIGIN_PORT=${PORTS[0]}

wait_up() { # url
	for _ in $(seq 100); do
		curl -s -o /dev/null "$1" && return 0
		sleep 0.1
	done
	log "not up: $1"
	return 1
}

# start_front name caddyfile front_port admin_port cache [inject] -> sets FRONT_PID
start_front() {
	env FRONT_PORT="$3" ADMIN_PORT="$4" ORIGIN_PORT="$ORIGIN_PORT" CACHE="$5" INJECT="${6:-on}" \
		SITE_YAML="$ROOT/examples/site.yaml" \
		XDG_DATA_HOME="$WORK/data" XDG_CONFIG_HOME="$WORK/config" \
		"$CADDY" run --adapter caddyfile --config "$ROOT/bench/proxy/$2" >"$WORK/$1.log" 2>&1 &
	FRONT_PID=$!
	PIDS+=("$FRONT_PID")
	PID_OF[$3]=$FRONT_PID
	wait_up "http://127.0.0.1:$3/"
}

"$WORK/proxy" origin -addr "127.0.0.1:$ORIGIN_PORT" -site examples/site 2>"$WORK/origin.log" &
PIDS+=($!)
wait_up "http://127.0.0.1:$ORIGIN_PORT/"

machine() {
	echo "Date: $(date -u '+%Y-%m-%d %H:%M UTC'); nproc: $(nproc); CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'); $(go version | cut -d' ' -f3-4); Caddy $BUILT."
}
loadavg() { cut -d' ' -f1-3 /proc/loadavg; }
# cputicks pid: user+system CPU time of a process in clock ticks (proc(5)
# /proc/<pid>/stat fields 14 and 15; the command name in field 2 has no
# spaces for caddy).
cputicks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
TICK=$(getconf CLK_TCK)

# --- throughput ----------------------------------------------------------
throughput() {
	local plain_port=${PORTS[1]} agent_port=${PORTS[2]} cold_port=${PORTS[3]}
	start_front plain plain.caddyfile "$plain_port" "${PORTS[4]}" 64MiB
	start_front agent agent.caddyfile "$agent_port" "${PORTS[5]}" 64MiB
	start_front cold agent.caddyfile "$cold_port" "${PORTS[6]}" off
	start_front noinject agent.caddyfile "${PORTS[11]}" "${PORTS[12]}" 64MiB off
	local html=$'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8'
	# case | path | Accept | agent_ready front (port, admin port) | connections
	# The cold 2 MB case runs with CONNS_2MB (2) connections: it measures
	# what one conversion costs, and 32 conversions of 2 MB at once take
	# longer than a run (the Markdown path has no admission control).
	local cases=(
		"html|/pricing|$html|$agent_port|${PORTS[5]}|$CONNS"
		"html-cold|/pricing|$html|$cold_port|${PORTS[6]}|$CONNS"
		"html-noinject|/pricing|$html|${PORTS[11]}|${PORTS[12]}|$CONNS"
		"md-warm|/pricing|text/markdown|$agent_port|${PORTS[5]}|$CONNS"
		"md-cold|/pricing|text/markdown|$cold_port|${PORTS[6]}|$CONNS"
		"html-2MB|/big.html|$html|$agent_port|${PORTS[5]}|$CONNS"
		"md-cold-2MB|/big.html|text/markdown|$cold_port|${PORTS[6]}|$CONNS_2MB"
	)
	local tsv=$WORK/throughput.tsv
	: >"$tsv"
	log "throughput: ${DURATION}s per run, $CONNS connections, $THREADS threads, $RUNS rounds; results in $tsv"
	for run in $(seq "$RUNS"); do
		for c in "${cases[@]}"; do
			IFS='|' read -r name path accept aport admin conns <<<"$c"
			[ -z "${CASES:-}" ] || [[ " $CASES " == *" $name "* ]] || continue
			local order=("plain|$plain_port" "agent_ready|$aport")
			[ $((run % 2)) = 1 ] || order=("agent_ready|$aport" "plain|$plain_port")
			for o in "${order[@]}"; do
				IFS='|' read -r server port <<<"$o"
				local prof=
				if [ "$PROFILE" = 1 ] && [ "$run" = 1 ] && [ "$server" = agent_ready ]; then
					curl -s -o "$WORK/cpu-$name.pprof" \
						"http://127.0.0.1:$admin/debug/pprof/profile?seconds=$((DURATION > 6 ? DURATION - 4 : 2))" &
					prof=$!
				fi
				local before out t0 t1
				before=$(loadavg)
				t0=$(cputicks "${PID_OF[$port]}")
				out=$(ACCEPT="$accept" wrk -t"$((conns < THREADS ? conns : THREADS))" -c"$conns" -d"${DURATION}s" --timeout 10s \
					-s bench/proxy/wrk.lua "http://127.0.0.1:$port$path" | grep '^RESULT') || {
					log "wrk failed: $name $server"
					return 1
				}
				t1=$(cputicks "${PID_OF[$port]}")
				[ -z "$prof" ] || wait "$prof"
				# run case server requests rps p50 p99 errors bytes load-before
				# load-after cpu-seconds-of-the-front
				echo "$run	$name	$server	${out#RESULT }	$before	$(loadavg)	$(awk -v t=$((t1 - t0)) -v hz="$TICK" 'BEGIN{printf "%.2f", t/hz}')" | tr ' ' '\t' >>"$tsv"
				log "$run $name $server: ${out#RESULT } (load $(loadavg))"
			done
		done
	done
	local size2mb
	size2mb=$(curl -s -o /dev/null -w '%{size_download}' "http://127.0.0.1:$ORIGIN_PORT/big.html")
	echo
	machine
	echo "Command: DURATION=$DURATION CONNS=$CONNS CONNS_2MB=$CONNS_2MB THREADS=$THREADS RUNS=$RUNS${CASES:+ CASES=\"$CASES\"} bench/proxy/run.sh throughput"
	echo
	awk -F'\t' -v size2mb="$size2mb" -f bench/proxy/summary.awk "$tsv"
}

# --- memory --------------------------------------------------------------
memory() {
	echo
	machine
	echo "Command: bench/proxy/run.sh memory  (a fresh front per phase: agent_ready + reverse_proxy, conversion cache $MEM_CACHE, max_size default 2 MiB${GOGC:+, GOGC=$GOGC}${GOMEMLIMIT:+, GOMEMLIMIT=$GOMEMLIMIT}; load average at start: $(loadavg))"
	echo
	"$WORK/proxy" memory -header
	local status=0
	for phase in $MEM_PHASES; do
		start_front "memory$phase" agent.caddyfile "${PORTS[7]}" "${PORTS[8]}" "$MEM_CACHE"
		sleep 1 # let the start-up work (connect index) settle before the idle reading
		"$WORK/proxy" memory -phase "$phase" -base "http://127.0.0.1:${PORTS[7]}" -pid "$FRONT_PID" || status=1
		kill "$FRONT_PID"
		wait "$FRONT_PID" 2>/dev/null || true
	done
	echo
	echo "Load average at end: $(loadavg)"
	return $status
}

# --- soak ----------------------------------------------------------------
soak() {
	start_front soak agent.caddyfile "${PORTS[10]}" "${PORTS[9]}" "$SOAK_CACHE"
	echo
	machine
	echo "Command: SOAK_RATE=$SOAK_RATE SOAK_DURATION=$SOAK_DURATION SOAK_CACHE=$SOAK_CACHE bench/proxy/run.sh soak  (load average at start: $(loadavg))"
	echo
	"$WORK/proxy" soak -base "http://127.0.0.1:${PORTS[10]}" -pid "$FRONT_PID" \
		-rate "$SOAK_RATE" -duration "$SOAK_DURATION"
	echo
	echo "Load average at end: $(loadavg)"
	kill "$FRONT_PID"
	wait "$FRONT_PID" 2>/dev/null || true
}

STATUS=0
for m in "${MODES[@]}"; do
	case $m in
	throughput | memory | soak) "$m" || STATUS=1 ;;
	*)
		echo "unknown mode $m (throughput, memory, soak)" >&2
		exit 2
		;;
	esac
done
exit $STATUS
