#!/usr/bin/env bash
# peers.sh: the four peers of bench/peers.sh (turndown, node-html-markdown,
# pandoc, html2text) on the corpora of bench/extract, scored side by side
# with agent_ready, readability+h2m and trafilatura+h2m by the same code.
#
# It installs the peers as bench/peers.sh does (apt-get: pandoc, html2text;
# npm ci in bench/). bench/extract -list writes each corpus's page list; the
# peers convert every page's full HTML into a temporary directory (the npm
# peers in one process, timed around their loop; pandoc and html2text one
# process per page, start-up included); bench/extract -peers scores them.
#
# Usage: bench/extract/peers.sh [bench/extract flags: -corpus, -tools,
#        -sample, -match, -docs]
#   KEEP=1   keep the output directory (its path is printed)
#   CORE=N   the CPU every peer is pinned to with taskset (default 0)
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"
pin=()
if command -v taskset >/dev/null; then
	pin=(taskset -c "${CORE:-0}")
fi

missing=()
command -v pandoc >/dev/null || missing+=(pandoc)
command -v html2text >/dev/null || missing+=(html2text)
if ((${#missing[@]})); then
	sudo=()
	((EUID == 0)) || sudo=(sudo)
	"${sudo[@]}" apt-get update -qq
	DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null
fi
if [[ ! -d bench/node_modules/turndown || ! -d bench/node_modules/node-html-markdown ]]; then
	(cd bench && npm ci --no-audit --no-fund --silent)
fi

out=$(mktemp -d "${TMPDIR:-/tmp}/agentready-extract-peers.XXXXXX")
if [[ -z ${KEEP:-} ]]; then
	trap 'rm -rf "$out"' EXIT
else
	echo "peers: outputs kept in $out" >&2
fi
go -C bench/extract build -o "$out/extract" .
"$out/extract" -list "$out" "$@"

# cpu_children FILE prints the user+system seconds of finished children
# from the output of `times` saved in FILE (its second line); `times` must
# run in this shell, not in a command substitution's subshell.
cpu_children() { awk 'NR == 2 { split($1, u, "m"); split($2, s, "m"); printf "%.3f\n", u[1] * 60 + u[2] + s[1] * 60 + s[2] }' "$1"; }

# per_page TOOL DIR CMD...: runs CMD IN OUT for every page of DIR/pages.tsv
# and writes DIR/TOOL/timing.json.
per_page() {
	local tool=$1 dir=$2
	shift 2
	mkdir -p "$dir/$tool"
	local c0 c1 bytes=0 key file
	times >"$dir/.times0"
	while IFS=$'\t' read -r key file; do
		"$@" "$file" "$dir/$tool/$key.md" 2>>"$dir/$tool.log" || echo "peers: $tool failed on $file" >&2
		bytes=$((bytes + $(stat -c %s "$file")))
	done <"$dir/pages.tsv"
	times >"$dir/.times1"
	c0=$(cpu_children "$dir/.times0")
	c1=$(cpu_children "$dir/.times1")
	printf '{"cpu_seconds": %s, "html_bytes": %s, "note": "one process per page: start-up included"}\n' \
		"$(awk -v a="$c0" -v b="$c1" 'BEGIN { print b - a }')" "$bytes" >"$dir/$tool/timing.json"
}

# Pandoc's HTML reader fetches iframe sources: --sandbox forbids any I/O
# beyond its input and output, and a network namespace of its own, where
# the kernel allows it, takes the network away.
nonet=()
if unshare --net true 2>/dev/null; then
	nonet=(unshare --net)
fi
pandoc_one() { "${pin[@]}" "${nonet[@]}" timeout 120 pandoc --sandbox -f html -t gfm --wrap=none -o "$2" "$1"; }
html2text_one() { "${pin[@]}" timeout 120 html2text -utf8 -nometa -nobs -width 100 -o "$2" "$1"; }

for tsv in "$out"/*/pages.tsv; do
	dir=$(dirname "$tsv")
	echo "peers: $(basename "$dir"): $(wc -l <"$tsv") pages" >&2
	"${pin[@]}" node bench/peers/convert.js "$tsv" "$dir"
	per_page pandoc "$dir" pandoc_one
	per_page html2text "$dir" html2text_one
done

"${pin[@]}" "$out/extract" -peers "$out" "$@"
