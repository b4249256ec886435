#!/usr/bin/env bash
# Instructions per request of the whole Caddy process, front by front,
# counted by valgrind's callgrind: unlike wrk's requests per second, the
# count does not move with the machine's load, so the module's per-request
# cost beside plain Caddy shows on a busy machine too (issue #28).
#
#   bench/proxy/wholeproc.sh                  # all fronts, 2,000 requests each
#   N=500 FRONTS="plain plan" bench/proxy/wholeproc.sh
#
# For each front, a fresh Caddy (the Caddyfiles of bench/proxy, ports and
# origin as bench/proxy/run.sh's overhead mode has them) runs under
# `valgrind --tool=callgrind` with GOMAXPROCS=1, GODEBUG=asyncpreemptoff=1
# (callgrind asserts on the preemption signals) and the Go runtime's
# defaults otherwise (the garbage collector runs as it would, and its cost
# is part of the count). `proxy sequence` asks WARM requests (200), then
# callgrind's counters are zeroed (callgrind_control -z), N requests (2000)
# are asked one after the other on one connection, and the counters are
# dumped (callgrind_control -d): every thread of the process, from the
# first byte read to the last written, collector and scheduler included.
# The table gives instructions per request (the dump's total over N), of
# them the garbage collector's marking (the self cost of the runtime's
# mark and scan functions, callgrind_annotate), the rest, and the
# collections in the window (GODEBUG=gctrace=1: a cycle's cost falls in
# whole, so the per-request count of N requests moves with their number;
# compare the rest across fronts, and the marking per collection); then
# the self cost of the runtime's scheduler, timers, locks and clocks
# (scheduling), which follows the run's timing under valgrind rather than
# the requests' work, and the count without it, with GOGC=off only (the
# collector's workers share those functions): the steadiest figure (plain Caddy 224,401–224,771 in three runs whose
# totals spanned 240,186–247,711). With strace installed, a second pass without valgrind counts
# the system calls of the same N requests (strace -c -f attached to the
# process): the writes and the reads that returned data per request, and
# all of them (the rest, futex, nanosleep, epoll_pwait and reads that
# found nothing, follows the scheduler's timing, not the request's work).
#
# Fronts (FRONTS, default all but plan-scan): plain (reverse_proxy), directive
# (Caddy's `header` directive adding agent_ready's headers), headers
# (agent_ready, inject and head_link off), plan (agent_ready zero-config
# HTML, the rewrite plan cached), md-warm (Accept: text/markdown, the
# conversion cached), plan-scan (plan with the self-scan on, the default,
# scan.caddyfile: measured once the first scan has finished). PAGE
# (/size/1k.html).
# SETTLE (seconds, default 0) waits after the warm-up before the window:
# the module's own background work started with the server (the check of
# the URLs the YAML declares, llms-full.txt, the content index) otherwise
# falls into some windows and not others, 300-2,000 instructions a
# request under valgrind; SETTLE=30 leaves it out.
# CADDY (a prebuilt binary), WORK (a directory for the dumps and logs),
# STRACE (1; 0 skips the system calls). The environment reaches Caddy:
# GOGC=off counts the requests' own work without any collection (what is
# left is what allocating costs, not collecting), the difference to the
# default run is what the collections cost.
set -euo pipefail

cd "$(dirname "$0")/../.."
ROOT=$PWD
WORK=${WORK:-$(mktemp -d /tmp/agentready-wholeproc.XXXXXX)}
mkdir -p "$WORK"
N=${N:-2000}
WARM=${WARM:-200}
STRACE=${STRACE:-1}
PAGE=${PAGE:-/size/1k.html}
FRONTS=${FRONTS:-plain directive headers plan md-warm}
HTML='text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8'

PIDS=()
cleanup() {
	for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
	wait 2>/dev/null || true
}
trap cleanup EXIT
log() { echo "# $*" >&2; }

command -v valgrind >/dev/null || { echo "valgrind is missing (apt-get install valgrind)" >&2; exit 1; }
if [ -z "${CADDY:-}" ]; then
	log "building Caddy with agent_ready into $WORK/caddy"
	go build -o "$WORK/caddy" ./cmd/caddy
	CADDY=$WORK/caddy
	BUILT="built from commit $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- . || echo ' with uncommitted changes')"
else
	BUILT="prebuilt $CADDY"
fi
go build -o "$WORK/proxy" ./bench/proxy
mapfile -t PORTS < <("$WORK/proxy" ports 3)
ORIGIN=${PORTS[0]} FRONT=${PORTS[1]} ADMIN=${PORTS[2]}

wait_up() { # url seconds [pid]
	for _ in $(seq $(($2 * 10))); do
		curl -s -o /dev/null "$1" && return 0
		[ -z "${3:-}" ] || kill -0 "$3" 2>/dev/null || break
		sleep 0.1
	done
	log "not up: $1"
	return 1
}

"$WORK/proxy" origin -addr "127.0.0.1:$ORIGIN" -site examples/site -big 100000 -huge 100000 -bomb 100000 2>"$WORK/origin.log" &
PIDS+=($!)
wait_up "http://127.0.0.1:$ORIGIN/" 60

# front name -> "caddyfile cache inject convert_timeout self_scan accept"
spec() {
	case $1 in
	plain) echo "plain.caddyfile 64MiB on 2s off html" ;;
	directive) echo "header.caddyfile 64MiB on 2s off html" ;;
	headers) echo "agent.caddyfile 64MiB off 2s off html" ;;
	plan) echo "agent.caddyfile 64MiB on 60s off html" ;;
	md-warm) echo "agent.caddyfile 64MiB on 60s off md" ;;
	plan-scan) echo "scan.caddyfile 64MiB on 60s on html" ;;
	*) return 1 ;;
	esac
}

# start name [valgrind args...] -> sets FPID; runs the front until stop.
start() {
	local name=$1 caddyfile cache inject timeout scan accept
	shift
	read -r caddyfile cache inject timeout scan accept <<<"$(spec "$name")"
	env FRONT_PORT="$FRONT" ADMIN_PORT="$ADMIN" ORIGIN_PORT="$ORIGIN" CACHE="$cache" INJECT="$inject" \
		CONVERT_TIMEOUT="$timeout" SELF_SCAN="$scan" SITE_YAML="$ROOT/examples/site.yaml" \
		GOMAXPROCS=1 GODEBUG=asyncpreemptoff=1,gctrace=1 \
		XDG_DATA_HOME="$WORK/data" XDG_CONFIG_HOME="$WORK/config" \
		"$@" "$CADDY" run --adapter caddyfile --config "$ROOT/bench/proxy/$caddyfile" >>"$WORK/$name.log" 2>&1 &
	FPID=$!
	PIDS+=("$FPID")
	wait_up "http://127.0.0.1:$FRONT/" 300 "$FPID"
}
stop() {
	kill "$FPID" 2>/dev/null || true
	wait "$FPID" 2>/dev/null || true
}
accept_of() { [ "$(spec "$1" | cut -d' ' -f6)" = md ] && echo text/markdown || echo "$HTML"; }
sequence() { # name n
	"$WORK/proxy" sequence -url "http://127.0.0.1:$FRONT$PAGE" -n "$2" -accept "$(accept_of "$1")" >>"$WORK/$1.log"
}
# warm name: the warm-up requests; with the self-scan on, first until the
# scan has finished (its score is on the admin endpoint's metrics).
warm() {
	if [ "$(spec "$1" | cut -d' ' -f5)" = on ]; then
		for _ in $(seq 600); do
			curl -s "http://127.0.0.1:$ADMIN/metrics" | grep -q '^caddy_agent_ready_self_score' && break
			sleep 1
		done
	fi
	sequence "$1" "$WARM"
}

# gcs name: the collections between the marks "window start" and "window
# end" in the front's log.
gcs() { awk '/^# window start/ {on = 1; n = 0} /^# window end/ {on = 0; print n} on && /^gc [0-9]+ @/ {n++}' "$WORK/$1.log" | tail -1; }
# marking dump: the self cost of the collector's mark and scan functions.
marking() {
	callgrind_annotate --auto=no --threshold=100 "$1" 2>/dev/null | sed -n '/file:function/,$p' | awk '
		{ n = $1; gsub(",", "", n); f = $0; sub(/^[^:]*:/, "", f); sub(/ \[.*/, "", f) }
		f ~ /^runtime\.(scanObject|scanObjectsSmall|scanObjectSmall|tryDeferToSpanScan|typePointers\.|findObject|greyobject|scanblock|scanstack|scanframeworker|markroot|gcDrain|scanSpan|spanOf|pageIndexOf|gcmarknewobject|heapBitsSmallForAddr|markBits|gcmarkBits)/ ||
		f ~ /^runtime\.\(\*(gcWork|spanQueue|spanInlineMarkBits|markBits|gcBits|spanSPMC|localSpanQueue)\)/ ||
		f ~ /^runtime\.\(\*mspan\)\.(markBitsForIndex|heapBits|typePointersOf|base)$/ { s += n }
		END { print s + 0 }'
}
# scheduling dump: the self cost of the runtime's scheduler, timers,
# locks and clocks, which follows the timing of the run under valgrind
# (plain Caddy moved by 7,000 instructions a request between two runs of
# one binary with GOGC=off), not the requests' work.
scheduling() {
	callgrind_annotate --auto=no --threshold=100 "$1" 2>/dev/null | sed -n '/file:function/,$p' | grep -E '^ *[0-9,]+ \([ 0-9.]+%\)  [^ ]*:' | awk '
		{ n = $1; gsub(",", "", n); f = $0; sub(/^[^:]*:/, "", f); sub(/ \[.*/, "", f) }
		f ~ /^runtime\.(lock2|unlock2|lockWithRank|unlockWithRank|nanotime|walltime|sysmon|retake|stealWork|findRunnable|netpoll|procyield|pidle|startm|stopm|schedule|checkdead|incidlelocked|futex|notesleep|notewakeup|notetsleep|usleep|osyield|runqgrab|runqsteal|mPark|park_m|resetspinning|wakep|epollwait|setBlockOnExitSyscall|timeSleepUntil|checkTimers|handoffp|entersyscall|exitsyscall|reentersyscall|casgstatus|mcall|gogo|gosave|goschedIfBusy|acquirep|releasep|wirep)/ ||
		f ~ /^runtime\.\(\*timers?\)/ { s += n }
		END { print s + 0 }'
}
declare -A INSTR SYSC GCS MARK SCHED
for name in $FRONTS; do
	spec "$name" >/dev/null || { echo "unknown front $name" >&2; exit 2; }
	log "$name: callgrind, $WARM + $N requests"
	out="$WORK/callgrind.$name.out"
	rm -f "$out"*
	start "$name" valgrind --tool=callgrind --callgrind-out-file="$out"
	warm "$name"
	sleep "${SETTLE:-0}"
	callgrind_control -z "$FPID" >/dev/null 2>&1
	echo "# window start" >>"$WORK/$name.log"
	sequence "$name" "$N"
	echo "# window end" >>"$WORK/$name.log"
	callgrind_control -d "$FPID" >/dev/null 2>&1
	stop
	GCS[$name]=$(gcs "$name")
	# The dump after the zeroing is the file with the highest suffix.
	dump=$(ls -v "$out".* | tail -1)
	total=$(awk '/^(summary|totals):/ {print $2; exit}' "$dump")
	INSTR[$name]=$((total / N))
	MARK[$name]=$(($(marking "$dump") / N))
	SCHED[$name]=$(($(scheduling "$dump") / N))
	if [ "$STRACE" = 1 ] && command -v strace >/dev/null; then
		log "$name: strace, $WARM + $N requests"
		start "$name"
		warm "$name"
		strace -c -f -p "$FPID" -o "$WORK/strace.$name.txt" 2>/dev/null &
		spid=$!
		sleep 1
		sequence "$name" "$N"
		kill -INT "$spid"
		wait "$spid" 2>/dev/null || true
		stop
		# strace -c: "% seconds usecs/call calls [errors] syscall".
		SYSC[$name]=$(awk -v n="$N" '$NF == "write" {w = $4} $NF == "read" {r = $4 - (NF == 6 ? $5 : 0)} $NF == "total" {t = $4}
			END {printf "%.2f | %.2f | %.2f", w / n, r / n, t / n}' "$WORK/strace.$name.txt")
	fi
done

echo "Date: $(date -u '+%Y-%m-%d %H:%M UTC'); $(go version | cut -d' ' -f3-4); $(valgrind --version); Caddy $BUILT."
echo "Command: ${GOGC:+GOGC=$GOGC }${SETTLE:+SETTLE=$SETTLE }N=$N WARM=$WARM PAGE=$PAGE FRONTS=\"$FRONTS\" bench/proxy/wholeproc.sh (GOMAXPROCS=1; $WORK)"
echo
echo "| front | instructions/request | over plain | of them marking | the rest | scheduling | without scheduling | over plain | collections in the window | writes/request | reads with data/request | system calls/request, all |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
pct() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%+.1f%%", 100 * (a - b) / b}'; }
for name in $FRONTS; do
	over="–" over2="–"
	sched="–" work="–"
	[ -z "${INSTR[plain]:-}" ] || over=$(pct "${INSTR[$name]}" "${INSTR[plain]}")
	if [ "${GOGC:-}" = off ]; then
		# With collections, the collector's workers share the scheduling
		# functions: the split holds for GOGC=off only.
		sched=${SCHED[$name]} work=$((INSTR[$name] - SCHED[$name]))
		[ -z "${INSTR[plain]:-}" ] || over2=$(pct "$work" $((INSTR[plain] - SCHED[plain])))
	fi
	echo "| $name | ${INSTR[$name]} | $over | ${MARK[$name]} | $((INSTR[$name] - MARK[$name])) | $sched | $work | $over2 | ${GCS[$name]:-–} | ${SYSC[$name]:-– | – | –} |"
done
