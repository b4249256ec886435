#!/usr/bin/env bash
# weight.sh: what agent_ready adds to a stripped Caddy binary and to a
# user's first download (README, Dependencies: weight).
#
# Builds, with this tree's Go, two throw-away modules the way xcaddy would:
# Caddy with its standard modules, and the same plus agent_ready (this tree,
# through a replace). Both binaries are linked with -s -w. The download is
# what the build needs: each module's zip (and the go.mod files of its
# graph) fetched by `go mod download` into an empty module cache; agent_ready's
# own zip is not fetched (it is this tree): its size is printed on its own
# line, as `git archive --format=zip` of HEAD without the nested modules.
#
# Usage: bench/weight.sh      (about 10 minutes on 2 cores; needs the network)
#   KEEP=1   keep the work directory (its path is printed), with the
#            per-module zip sizes in */zips.txt
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/agentready-weight.XXXXXX")
if [ -n "${KEEP:-}" ]; then echo "work directory: $work" >&2; else trap 'rm -rf "$work"' EXIT; fi
caddy=$(go -C "$root" list -m -f '{{.Version}}' github.com/caddyserver/caddy/v2)
goversion=$(go -C "$root" list -m -f '{{.GoVersion}}')

mkmodule() { # dir module-path agent_ready?
	mkdir -p "$1"
	{
		echo 'package main'
		echo 'import ('
		echo '	caddycmd "github.com/caddyserver/caddy/v2/cmd"'
		echo '	_ "github.com/caddyserver/caddy/v2/modules/standard"'
		[ "$3" = yes ] && echo '	_ "github.com/agentready/caddy-agentready/caddymodule"'
		echo ')'
		echo 'func main() { caddycmd.Main() }'
	} >"$1/main.go"
	printf 'module %s\n\ngo %s\n\nrequire github.com/caddyserver/caddy/v2 %s\n' "$2" "$goversion" "$caddy" >"$1/go.mod"
	if [ "$3" = yes ]; then
		printf 'require github.com/agentready/caddy-agentready v0.0.0\nreplace github.com/agentready/caddy-agentready => %s\n' "$root" >>"$1/go.mod"
	fi
	(cd "$1" && GOFLAGS=-mod=mod go mod tidy >/dev/null 2>&1)
}

download() { # dir -> bytes of the zips the build needs
	local cache mods
	cache=$(mktemp -d "$work/cache.XXXXXX")
	mods=$(cd "$1" && go list -deps -f '{{with .Module}}{{if not .Main}}{{if not .Replace}}{{.Path}}@{{.Version}}{{end}}{{end}}{{end}}' . | sort -u)
	# shellcheck disable=SC2086
	(cd "$1" && GOMODCACHE=$cache GOFLAGS=-modcacherw go mod download $mods && GOMODCACHE=$cache go list -m all >/dev/null)
	find "$cache/cache/download" -name '*.zip' -printf '%s %P\n' | sort -rn >"$1/zips.txt"
	awk '{s += $1} END {print s}' "$1/zips.txt"
	rm -rf "$cache"
}

mkmodule "$work/plain" example.com/plain no
mkmodule "$work/agent" example.com/agent yes
for m in plain agent; do
	(cd "$work/$m" && go build -ldflags='-s -w' -o "$work/$m/caddy" .)
done
p=$(stat -c %s "$work/plain/caddy")
a=$(stat -c %s "$work/agent/caddy")
dp=$(download "$work/plain")
da=$(download "$work/agent")
# The module zip holds the tree without the nested modules.
own=$(git -C "$root" archive --format=zip HEAD -- . ':!caddymodule/browser' ':!bench/extract' | wc -c)
printf 'binary, stripped:  plain Caddy %s  with agent_ready %s  added %.1f MB\n' "$p" "$a" "$(bc -l <<<"($a - $p) / 1000000")"
printf 'download, zips:    plain Caddy %s  with agent_ready %s  added %.1f MB (dependencies)\n' "$dp" "$da" "$(bc -l <<<"($da - $dp) / 1000000")"
printf "agent_ready's own source, zipped (git archive HEAD): %.1f MB\n" "$(bc -l <<<"$own / 1000000")"
