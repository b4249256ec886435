#!/usr/bin/env bash
# Proxy overhead, memory and soak measurements of agent_ready, on loopback.
#
#   bench/proxy/run.sh [throughput] [memory] [soak] [overhead] [starve]   # default: throughput memory
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
#   overhead    the cost of agent_ready on the paths a browser takes, and on
#               warm Markdown: each case a pair of wrk runs (1 thread, 16
#               connections, DURATION 8 s), plain Caddy (A) and the front
#               under test (B), A first in odd rounds and B first in even
#               ones, ROUNDS (9) rounds after a warm-up round; a control
#               pair of plain Caddy against a second plain Caddy on the same
#               page. Pages of 1 KiB, 60 KiB and 1 MiB (SIZES). Prints the
#               median of the per-round B/A ratios of req/s, p99 and CPU per
#               request, their range, and the control beside them.
#               PAIRED=1 runs each pair's A and B at the same time instead,
#               two wrk processes of CONNS/2 connections each: what the
#               machine's other load does to one run it does to the other,
#               so the ratio of the two keeps the difference of the fronts
#               and loses most of the noise between rounds (session 15: the
#               control's rounds 0.97-1.04 in three runs of 15 rounds,
#               against 0.79-1.17 alternating).
#   starve      browsers' HTML latency (/pricing at STARVE_RATE/s), alone
#               and while STARVE_ATTACKERS cold Markdown requests for
#               distinct URLs of a 250 KB page are kept in flight, from one
#               client and from many (STARVE_SOURCES), STARVE_RUNS rounds.
#
# Environment: DURATION (20, seconds per wrk run; 8 for overhead), CONNS
# (32; 16 for overhead), THREADS (2; 1 for overhead), CONNS_2MB (2,
# connections of the cold 2 MB Markdown case), THREADS (2),
# RUNS (2), CASES (all), SOAK_RATE (100), SOAK_DURATION (10m), SOAK_CACHE
# (64MiB, the soak front's conversion cache), ROUNDS (9, overhead), SIZES
# ("1k 60k 1m", overhead), WARMUP (2, seconds of each overhead pair's
# unrecorded warm-up run), MEM_CACHE (64MiB, the memory
# fronts' conversion cache), MEM_PHASES ("0 1 2": 2 MB pages, 50 MB page,
# gzip bomb), STARVE_RUNS (3), STARVE_SOURCES ("1 40", loopback addresses
# the attackers come from), STARVE_ATTACKERS (40), STARVE_RATE (50),
# STARVE_DURATION (15, seconds per phase), PROFILE (1: CPU profiles of the agent_ready runs in
# $WORK via the admin endpoint's /debug/pprof; for overhead, of every B run
# of the first round, with their top entries in $WORK/top-*.txt), CADDY (a
# prebuilt binary),
# WORK (a directory for binaries, logs and profiles; default: a new temp dir).
set -euo pipefail

cd "$(dirname "$0")/../.."
ROOT=$PWD
WORK=${WORK:-$(mktemp -d /tmp/agentready-proxy.XXXXXX)}
mkdir -p "$WORK"
# The overhead mode has its own defaults (the method of issue #15).
OH_DURATION=${DURATION:-8}
OH_CONNS=${CONNS:-16}
OH_THREADS=${THREADS:-1}
ROUNDS=${ROUNDS:-9}
SIZES=${SIZES:-1k 60k 1m}
WARMUP=${WARMUP:-2}
DURATION=${DURATION:-20}
CONNS=${CONNS:-32}
CONNS_2MB=${CONNS_2MB:-2}
THREADS=${THREADS:-2}
RUNS=${RUNS:-2}
PROFILE=${PROFILE:-0}
PAIRED=${PAIRED:-0}
SOAK_RATE=${SOAK_RATE:-100}
SOAK_DURATION=${SOAK_DURATION:-10m}
SOAK_CACHE=${SOAK_CACHE:-64MiB}
MEM_CACHE=${MEM_CACHE:-64MiB}
MEM_PHASES=${MEM_PHASES:-0 1 2}
STARVE_RUNS=${STARVE_RUNS:-3}
STARVE_SOURCES=${STARVE_SOURCES:-1 40}
STARVE_ATTACKERS=${STARVE_ATTACKERS:-40}
STARVE_RATE=${STARVE_RATE:-50}
STARVE_DURATION=${STARVE_DURATION:-15}
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

mapfile -t PORTS < <("$WORK/proxy" ports 27)
ORIGIN_PORT=${PORTS[0]}

wait_up() { # url [seconds, default 10]
	for _ in $(seq $((${2:-10} * 10))); do
		curl -s -o /dev/null "$1" && return 0
		sleep 0.1
	done
	log "not up: $1"
	return 1
}

# start_front name caddyfile front_port admin_port cache [inject [convert_timeout]] -> sets FRONT_PID
start_front() {
	env FRONT_PORT="$3" ADMIN_PORT="$4" ORIGIN_PORT="$ORIGIN_PORT" CACHE="$5" INJECT="${6:-on}" CONVERT_TIMEOUT="${7:-2s}" \
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
wait_up "http://127.0.0.1:$ORIGIN_PORT/" 120 # it makes a 1 GiB gzip bomb first

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

# --- starve --------------------------------------------------------------
# Browsers' HTML latency alone, then while STARVE_ATTACKERS cold Markdown
# requests for distinct URLs of a 250 KB page are kept in flight, from one
# client and from as many clients as there are attackers (STARVE_SOURCES:
# loopback source addresses); STARVE_RUNS rounds on one front.
starve() {
	start_front starve agent.caddyfile "${PORTS[23]}" "${PORTS[24]}" 64MiB
	echo
	machine
	echo "Command: STARVE_RUNS=$STARVE_RUNS STARVE_SOURCES=\"$STARVE_SOURCES\" STARVE_ATTACKERS=$STARVE_ATTACKERS STARVE_RATE=$STARVE_RATE STARVE_DURATION=$STARVE_DURATION bench/proxy/run.sh starve  (agent_ready + reverse_proxy, the demo's YAML, browsers GET /pricing at $STARVE_RATE/s for ${STARVE_DURATION}s per phase; load average at start: $(loadavg))"
	echo
	"$WORK/proxy" starve -header
	local status=0
	for _ in $(seq "$STARVE_RUNS"); do
		for src in $STARVE_SOURCES; do
			"$WORK/proxy" starve -base "http://127.0.0.1:${PORTS[23]}" -attackers "$STARVE_ATTACKERS" -sources "$src" \
				-rate "$STARVE_RATE" -duration "${STARVE_DURATION}s" || status=1
		done
	done
	echo
	echo "Load average at end: $(loadavg)"
	kill "$FRONT_PID"
	wait "$FRONT_PID" 2>/dev/null || true
	return $status
}

# --- overhead ------------------------------------------------------------
# wrk_run name size case role port path accept: one recorded (or, with
# round 0, warm-up) wrk run, appended to $WORK/overhead.tsv.
wrk_run() {
	local round=$1 size=$2 case=$3 role=$4 port=$5 path=$6 accept=$7 admin=$8
	local dur=$OH_DURATION prof= out t0 t1 load
	[ "$round" != 0 ] || dur=$WARMUP
	if [ "$PROFILE" = 1 ] && [ "$round" = 1 ] && [ "$role" = b ] && [ "$case" != control ]; then
		curl -s -o "$WORK/cpu-$case-$size.pprof" \
			"http://127.0.0.1:$admin/debug/pprof/profile?seconds=$((dur > 2 ? dur - 1 : 1))" &
		prof=$!
	fi
	load=$(cut -d' ' -f1 /proc/loadavg)
	t0=$(cputicks "${PID_OF[$port]}")
	out=$(ACCEPT="$accept" wrk -t"$OH_THREADS" -c"$OH_CONNS" -d"${dur}s" --timeout 10s \
		-s bench/proxy/wrk.lua "http://127.0.0.1:$port$path" | grep '^RESULT') || {
		log "wrk failed: $case $size $role"
		return 1
	}
	t1=$(cputicks "${PID_OF[$port]}")
	[ -z "$prof" ] || wait "$prof"
	[ "$round" != 0 ] || return 0
	# RESULT requests rps p50 p99 errors bytes -> the report's columns
	read -r _ requests rps p50 p99 errors _ <<<"$out"
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$round" "$size" "$case" "$role" \
		"$requests" "$rps" "$p50" "$p99" "$errors" \
		"$(awk -v t=$((t1 - t0)) -v hz="$TICK" 'BEGIN{printf "%.2f", t/hz}')" "$load" >>"$WORK/overhead.tsv"
	log "$round $size $case $role: $rps req/s, p99 $p99 ms (load $load)"
}

# wrk_pair round size case aport bport path accept badmin: A and B at the
# same time (PAIRED=1), each with half the connections of a single run.
wrk_pair() {
	local OH_CONNS=$((OH_CONNS / 2)) apid
	wrk_run "$1" "$2" "$3" a "$4" "$6" "$7" "" &
	apid=$!
	wrk_run "$1" "$2" "$3" b "$5" "$6" "$7" "$8" || { wait "$apid"; return 1; }
	wait "$apid"
}

overhead() {
	local plain=${PORTS[13]} plain2=${PORTS[14]} headers=${PORTS[15]} annotated=${PORTS[16]} first=${PORTS[17]} directive=${PORTS[25]}
	start_front oh-plain plain.caddyfile "$plain" "${PORTS[18]}" 64MiB
	start_front oh-plain2 plain.caddyfile "$plain2" "${PORTS[19]}" 64MiB
	# The floor: Caddy's own header directive adding the same headers.
	start_front oh-directive header.caddyfile "$directive" "${PORTS[26]}" 64MiB
	start_front oh-headers agent.caddyfile "$headers" "${PORTS[20]}" 64MiB off
	# The warm Markdown case reads the cache only; a long budget lets the
	# warm-up fill it on a loaded machine too.
	start_front oh-annotated agent.caddyfile "$annotated" "${PORTS[21]}" 64MiB on 60s
	start_front oh-first agent.caddyfile "$first" "${PORTS[22]}" off on
	declare -A admin_of=([$plain]=${PORTS[18]} [$plain2]=${PORTS[19]} [$headers]=${PORTS[20]} [$annotated]=${PORTS[21]} [$first]=${PORTS[22]} [$directive]=${PORTS[26]})
	local html=$'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8'
	local md='text/markdown'
	# case | A's path prefix | B's front | Accept. The path is the prefix
	# and /size/<size>.html; A is always plain Caddy, on the same path.
	local cases=(
		"control||$plain2|$html"
		"directive||$directive|$html"
		"headers||$headers|$html"
		"plan||$annotated|$html"
		"first||$first|$html"
		"chunked|/chunked|$annotated|$html"
		"md-warm||$annotated|$md"
	)
	local n=0
	for c in "${cases[@]}"; do
		[ -z "${CASES:-}" ] || [[ " control $CASES " == *" ${c%%|*} "* ]] && n=$((n + 1))
	done
	# The warm Markdown case needs each page in the conversion cache: it
	# admits a page the second time it is converted, and only a conversion
	# within its time budget. Ask until the cache answers (its hit counter
	# on the admin endpoint's /metrics moves).
	hits() { curl -s "http://127.0.0.1:${PORTS[21]}/metrics" | awk '/^caddy_agent_ready_conversion_cache_total\{result="hit"\}/ {print $2} END {print 0}' | head -1; }
	for size in $SIZES; do
		local warm=0 h0
		for _ in $(seq 10); do
			h0=$(hits)
			curl -s -o /dev/null -H "Accept: $md" "http://127.0.0.1:$annotated/size/$size.html"
			[ "$(hits)" = "$h0" ] || { warm=1; break; }
		done
		[ "$warm" = 1 ] || log "warning: the Markdown of /size/$size.html is not in the conversion cache (conversions over their budget?): md-warm $size measures conversions"
	done
	: >"$WORK/overhead.tsv"
	log "overhead: $n cases × $(wc -w <<<"$SIZES") pages × 2 runs × ${OH_DURATION}s × $ROUNDS rounds ≈ $((n * $(wc -w <<<"$SIZES") * 2 * OH_DURATION * ROUNDS / 60)) minutes, after a warm-up round of ${WARMUP}s runs; results in $WORK/overhead.tsv"
	local start_load
	start_load=$(loadavg)
	for round in $(seq 0 "$ROUNDS"); do
		for size in $SIZES; do
			for c in "${cases[@]}"; do
				IFS='|' read -r name prefix bport accept <<<"$c"
				[ -z "${CASES:-}" ] || [[ " control $CASES " == *" $name "* ]] || continue
				local path="$prefix/size/$size.html"
				if [ "$PAIRED" = 1 ]; then
					wrk_pair "$round" "$size" "$name" "$plain" "$bport" "$path" "$accept" "${admin_of[$bport]}" || return 1
					continue
				fi
				local order=(a b)
				[ $((round % 2)) = 1 ] || order=(b a)
				for role in "${order[@]}"; do
					local port=$plain
					[ "$role" = a ] || port=$bport
					wrk_run "$round" "$size" "$name" "$role" "$port" "$path" "$accept" "${admin_of[$port]}" || return 1
				done
			done
		done
	done
	echo
	machine
	echo "Command: DURATION=$OH_DURATION ROUNDS=$ROUNDS CONNS=$OH_CONNS THREADS=$OH_THREADS SIZES=\"$SIZES\"${CASES:+ CASES=\"$CASES\"}$([ "$PAIRED" != 1 ] || echo ' PAIRED=1') bench/proxy/run.sh overhead"
	echo "Load average: $start_load at the start, $(loadavg) at the end. A = plain Caddy (reverse_proxy), B = the front of the case$([ "$PAIRED" != 1 ] || echo ', run at the same time, each with half the connections'); ratios are B/A, the median of the per-round ratios (range in brackets). Pages: $(for s in $SIZES; do printf '%s %s bytes; ' "$s" "$(curl -s -o /dev/null -w '%{size_download}' "http://127.0.0.1:$ORIGIN_PORT/size/$s.html")"; done)"
	echo
	"$WORK/proxy" overhead-report -file "$WORK/overhead.tsv"
	if [ "$PROFILE" = 1 ]; then
		echo
		for f in "$WORK"/cpu-*.pprof; do
			[ -s "$f" ] || continue
			local top="$WORK/top-$(basename "$f" .pprof | sed 's/^cpu-//').txt"
			go tool pprof -top -nodecount=25 "$CADDY" "$f" >"$top" 2>&1 || true
			echo "CPU profile $f; top entries in $top (go tool pprof -top $CADDY $f)"
		done
	fi
}

STATUS=0
for m in "${MODES[@]}"; do
	case $m in
	throughput | memory | soak | overhead | starve) "$m" || STATUS=1 ;;
	*)
		echo "unknown mode $m (throughput, memory, soak, overhead, starve)" >&2
		exit 2
		;;
	esac
done
exit $STATUS
