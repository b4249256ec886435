#!/usr/bin/env bash
# A second, external MCP client against the demo: the MCP Inspector's CLI
# (npm @modelcontextprotocol/inspector-cli) lists the tools of the built-in
# MCP endpoint over the Streamable HTTP transport, and this script checks that
# the four tools are there.
#
#   bash connect/inspector/run.sh             # builds ./cmd/caddy into a temp dir
#   CADDY=/path/to/caddy bash connect/inspector/run.sh   # reuses a binary
#
# It installs the pinned CLI into connect/inspector/node_modules (npm ci,
# from package-lock.json), runs a copy of the root Caddyfile with every port
# moved to a free one on loopback (so a demo already running is not in the
# way), and exits non-zero when a tool is missing or anything fails. Needs
# go, node and npm; touches nothing outside a temp dir and node_modules.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
tmp="$(mktemp -d)"
caddy_pid=""

cleanup() {
	if [[ -n "$caddy_pid" ]] && kill -0 "$caddy_pid" 2>/dev/null; then
		kill "$caddy_pid" 2>/dev/null || true
		wait "$caddy_pid" 2>/dev/null || true
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT

fail() {
	echo "inspector: FAIL: $*" >&2
	if [[ -s "$tmp/caddy.log" ]]; then
		echo "--- last lines of the Caddy log:" >&2
		tail -n 20 "$tmp/caddy.log" >&2
	fi
	exit 1
}

# free_port prints a TCP port on 127.0.0.1 that was free a moment ago.
free_port() {
	node -e 'const s = require("net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); });'
}

echo "inspector: installing the CLI (npm ci)"
(cd "$here" && npm ci --no-audit --no-fund --loglevel=error) || fail "npm ci in $here"
cli="$here/node_modules/.bin/mcp-inspector-cli"
[[ -x "$cli" ]] || fail "$cli not installed"

caddy="${CADDY:-}"
if [[ -z "$caddy" ]]; then
	echo "inspector: building ./cmd/caddy"
	(cd "$root" && go build -o "$tmp/caddy" ./cmd/caddy) || fail "go build ./cmd/caddy"
	caddy="$tmp/caddy"
fi

# The root Caddyfile uses 8080 (site), 8081 (origin), 2019 (admin) and 2020
# (report): move each to a free port. Its relative config path is the
# Caddyfile's directory's, so the copy names the repository's file.
site=$(free_port) origin=$(free_port) admin=$(free_port) report=$(free_port)
sed -E \
	-e "s/\\b8080\\b/$site/g" \
	-e "s/\\b8081\\b/$origin/g" \
	-e "s/\\b2019\\b/$admin/g" \
	-e "s/\\b2020\\b/$report/g" \
	-e "s#config examples/#config $root/examples/#" \
	"$root/Caddyfile" >"$tmp/Caddyfile"
grep -q ":$site {" "$tmp/Caddyfile" || fail "the root Caddyfile no longer has a :8080 site"

echo "inspector: starting the demo on 127.0.0.1:$site"
(cd "$root" && exec "$caddy" run --config "$tmp/Caddyfile" --adapter caddyfile) >"$tmp/caddy.log" 2>&1 &
caddy_pid=$!

base="http://127.0.0.1:$site"
for _ in $(seq 1 150); do
	if curl -fsS -o /dev/null --max-time 2 "$base/llms.txt" 2>/dev/null; then
		break
	fi
	kill -0 "$caddy_pid" 2>/dev/null || fail "caddy exited"
	sleep 0.2
done
curl -fsS -o /dev/null --max-time 2 "$base/llms.txt" || fail "the demo did not answer on $base within 30 s"

# inspector-cli 1.0.3 looks for its own package.json with
# fs.existsSync("../package.json") relative to the working directory but
# imports it relative to its build/ folder; outside the inspector's monorepo
# that only lines up when the parent of the working directory has a
# package.json, so run it from node_modules (whose parent is this folder).
echo "inspector: $cli --cli $base/mcp --transport http --method tools/list"
if ! (cd "$here/node_modules" && timeout 60 "$cli" --cli "$base/mcp" --transport http --method tools/list) >"$tmp/tools.json" 2>"$tmp/cli.err"; then
	cat "$tmp/cli.err" >&2
	fail "the inspector CLI could not list the tools"
fi

# The answer is the tools/list result as JSON: {"tools": [{"name": …}, …]}.
node - "$tmp/tools.json" <<'EOF' || fail "tools missing from the inspector's answer"
const fs = require("fs");
const want = ["search_site", "get_page", "list_pages", "ask"];
const got = JSON.parse(fs.readFileSync(process.argv[2], "utf8")).tools.map((t) => t.name);
console.log("inspector: tools listed: " + got.join(", "));
const missing = want.filter((n) => !got.includes(n));
if (missing.length > 0) {
	console.error("inspector: missing: " + missing.join(", "));
	process.exit(1);
}
EOF
echo "inspector: PASS"
