#!/usr/bin/env bash
# Instructions per iteration of Go benchmarks, counted by valgrind's
# callgrind: unlike ns/op, the count does not move with the machine's load,
# so a change of a few percent shows on a busy machine too.
#
#   bench/instructions.sh TESTBINARY 'BenchmarkRegexp' [N]
#
# Runs the benchmarks matching the pattern once with N (default 1000)
# iterations and once with 3N, and prints, per benchmark, the difference
# of the two counts over 2N: what one iteration costs, set-up excluded.
# Build the binary with `go test -c -o BINARY ./pkg` and run this from the
# package's directory (benchmarks read files relative to it). Needs valgrind
# (Debian package, installed if missing). One run takes about half a
# minute per benchmark (valgrind runs the set-up too).
set -euo pipefail
bin=$1
pattern=$2
n=${3:-1000}
if ! command -v valgrind >/dev/null; then
	if [ "$(id -u)" = 0 ]; then apt-get install -y valgrind >&2; else sudo apt-get install -y valgrind >&2; fi
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The benchmark names, as -test.bench prints them.
mapfile -t names < <("$bin" -test.run '^$' -test.bench "$pattern" -test.benchtime 1x 2>/dev/null |
	awk '/^Benchmark/ {sub(/-[0-9]+$/, "", $1); print $1}')
count() { # name iterations -> instructions of the whole run
	# One thread, no asynchronous preemption, no garbage collection: the
	# collector runs at times that vary between runs (±10% of the count
	# of a small benchmark); without it the count repeats to 0.2%. An
	# allocation still counts what allocating costs, not its collection.
	# No memory profile either: a sample (one per 512 KiB allocated, at
	# random) unwinds the stack, about 60,000 instructions, and moved the
	# count of a 1 KiB page's request by up to 900.
	GOGC=off GOMAXPROCS=1 GODEBUG=asyncpreemptoff=1,memprofilerate=0 valgrind --tool=callgrind \
		--callgrind-out-file="$tmp/cg.out" "$bin" -test.run '^$' \
		-test.bench "^$(sed 's/[][().*+?^$|]/\\&/g; s|/|$/^|g' <<<"$1")\$" \
		-test.benchtime "${2}x" >/dev/null 2>"$tmp/log"
	awk '/Collected :/ {print $NF}' "$tmp/log"
}
printf '| benchmark | instructions/op |\n|---|---:|\n'
for name in "${names[@]}"; do
	a=$(count "$name" "$n")
	b=$(count "$name" $((3 * n)))
	printf '| %s | %d |\n' "$name" $(((b - a) / (2 * n)))
done
