#!/usr/bin/env bash
# peers.sh: our HTML-to-Markdown pipeline side by side with its peers, in one
# run, on the same corpus and the same machine.
#
# It installs the peers itself: pandoc and html2text from Debian (apt-get),
# turndown, turndown-plugin-gfm and node-html-markdown from npm (npm ci into
# bench/node_modules, pinned by bench/package-lock.json). Every tool converts
# the full source.html of each page of go-readability's test corpus; their
# outputs go to a temporary directory, and `go run ./bench/corpus -baseline
# -score-dir` scores them with the same word-level code as our own output and
# prints the table (MB/s, output bytes, recall, precision, F1).
#
# Usage: bench/peers.sh [extra flags for bench/corpus, e.g. -json or -rounds 5]
#   KEEP=1   keep the output directory (its path is printed)
#   CORE=N   the CPU every tool is pinned to with taskset (default 0)
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
core=${CORE:-0}

pin=()
if command -v taskset >/dev/null; then
	pin=(taskset -c "$core")
fi

install_peers() {
	local missing=()
	command -v pandoc >/dev/null || missing+=(pandoc)
	command -v html2text >/dev/null || missing+=(html2text)
	if ((${#missing[@]})); then
		echo "peers: installing ${missing[*]} with apt-get" >&2
		local sudo=()
		((EUID == 0)) || sudo=(sudo)
		"${sudo[@]}" apt-get update -qq
		DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null
	fi
	if [[ ! -d bench/node_modules/turndown || ! -d bench/node_modules/node-html-markdown ]]; then
		echo "peers: installing npm peers into bench/node_modules" >&2
		(cd bench && npm ci --no-audit --no-fund --silent)
	fi
}

# time_loop TOOL CMD...: runs CMD (a shell function over all pages) and writes
# TOOL's timing.json: wall time, and the CPU time of the processes it started
# as bash's `times` accounts for them.
time_loop() {
	local tool=$1
	shift
	local t0 t1 c0 c1 bytes
	# `times` must run in this shell: a subshell reports its own fresh counters.
	t0=$(date +%s.%N)
	times >"$out/.times0"
	"$@"
	times >"$out/.times1"
	t1=$(date +%s.%N)
	c0=$(children_cpu_seconds "$out/.times0")
	c1=$(children_cpu_seconds "$out/.times1")
	bytes=$(cut -f2 "$out/pages.tsv" | xargs stat -c %s | awk '{ s += $1 } END { print s }')
	cat >"$out/$tool/timing.json" <<JSON
{
  "wall_seconds": $(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }'),
  "cpu_seconds": $(awk -v a="$c0" -v b="$c1" 'BEGIN { print b - a }'),
  "html_bytes": $bytes,
  "rounds": 1,
  "note": "$(${tool}_version), one process per page: startup included"
}
JSON
	echo "peers: $tool done" >&2
}

# children_cpu_seconds FILE prints the user+system CPU seconds of finished
# children from the output of `times` saved in FILE (its second line).
children_cpu_seconds() {
	awk 'NR == 2 { split($1, u, "m"); split($2, s, "m");
		printf "%.3f\n", u[1] * 60 + u[2] + s[1] * 60 + s[2] }' "$1"
}

pandoc_version() { pandoc --version | head -n1; }
html2text_version() { html2text -version 2>&1 | head -n1 | sed 's/^This is //'; }

# Pandoc's HTML reader fetches iframe sources by default: --sandbox forbids
# any I/O beyond its input and output, and where the kernel allows it the
# process also runs in a network namespace of its own, with no network.
run_pandoc() {
	local name file
	local nonet=()
	if unshare --net true 2>/dev/null; then
		nonet=(unshare --net)
	fi
	while IFS=$'\t' read -r name file; do
		"${pin[@]}" "${nonet[@]}" timeout 120 pandoc --sandbox -f html -t gfm --wrap=none \
			-o "$out/pandoc/$name.md" "$file" 2>>"$out/pandoc.log" ||
			echo "peers: pandoc failed on $name" >&2
	done <"$out/pages.tsv"
}

# The corpus files are UTF-8 whatever their <meta charset> says (they were
# re-saved): -utf8 -nometa reads them as such, as every other tool does.
run_html2text() {
	local name file
	while IFS=$'\t' read -r name file; do
		"${pin[@]}" timeout 120 html2text -utf8 -nometa -nobs -width 100 -o "$out/html2text/$name.md" "$file" \
			2>>"$out/html2text.log" ||
			echo "peers: html2text failed on $name" >&2
	done <"$out/pages.tsv"
}

install_peers
command -v taskset >/dev/null || echo "peers: taskset not found, tools are not pinned" >&2

out=$(mktemp -d "${TMPDIR:-/tmp}/agentready-peers.XXXXXX")
if [[ -z ${KEEP:-} ]]; then
	trap 'rm -rf "$out"' EXIT
else
	echo "peers: outputs kept in $out" >&2
fi

go run ./bench/corpus -list >"$out/pages.tsv"
mkdir -p "$out/pandoc" "$out/html2text"

"${pin[@]}" node bench/peers/convert.js "$out/pages.tsv" "$out"
time_loop pandoc run_pandoc
time_loop html2text run_html2text

# Our pipeline and the readability baseline run in process, timed with
# GOMAXPROCS=1; pinned to the same core as the peers.
"${pin[@]}" go run ./bench/corpus -baseline -score-dir "$out" -pages=false "$@"
