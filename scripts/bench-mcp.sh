#!/usr/bin/env bash
# scripts/bench-mcp.sh: `storectl mcp` on a big mirror (issue 40), measured
# in a real MCP client (the official TypeScript SDK's, .ci/mcp-client):
#
#   start       from spawning `storectl mcp` to the answer of its first
#               find_submissions call (initialize included): median of STARTS
#   warm        find_submissions by e-mail, demand by product and by variant
#               on one running server: medians of CALLS calls each
#   idle RSS    that server's resident memory after 2 s idle
#   --version   `storectl --version`, whole process: the cold start every
#               other command pays, which the MCP SDK must not slow
#
# on a mirror of ROWS submissions synced from `sandbox serve --memory
# --submissions ROWS --throttle 0`, pacing off, as scripts/bench-mirror.sh
# makes its million-row mirror.
#
# Usage: scripts/bench-mcp.sh [ROWS] [STARTS] [CALLS]   (1000000 15 50)
# BENCH_MCP_DATA=DIR keeps the mirror in DIR: a later run with the same DIR
# and ROWS answers from it without syncing again. BENCH_MCP_BASE=BINARY
# times its --version too, runs alternating (a build without the MCP SDK,
# say).
# Needs Go, Node.js 18+ and npm (npm ci in .ci/mcp-client).
set -euo pipefail
rows=${1:-1000000}
starts=${2:-15}
calls=${3:-50}
answer_runs=${ANSWER_RUNS:-30}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/storectl-bench-mcp.XXXXXX")
server_pid=
cleanup() {
	if [[ -n $server_pid ]]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
	rm -rf "$work"
}
trap cleanup EXIT

# shellcheck source=scripts/bench-lib.sh
source "$root/scripts/bench-lib.sh"
build_release "$work/storectl"
bin=$work/storectl
(cd "$root/.ci/mcp-client" && npm ci --no-audit --no-fund --loglevel=error)
bench_isolate
data=${BENCH_MCP_DATA:-$work/data}
mkdir -p "$data"
export XDG_STATE_HOME=$work/state XDG_DATA_HOME=$data

echo "# $rows submissions; $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg); node $(node --version)"
# The mirror is of the store at its address: a kept mirror is answered from
# as of the address it was synced from (the server is gone by then).
if [[ $(cat "$data/rows" 2>/dev/null) != "$rows" ]]; then
	rm -rf "${data:?}"/* && rm -f "$work/url"
	"$bin" sandbox serve --memory --submissions "$rows" --addr 127.0.0.1:0 --url-file "$work/url" --throttle 0 >/dev/null 2>&1 &
	server_pid=$!
	for _ in $(seq 1 3000); do [[ -s $work/url ]] && break; sleep 0.1; done
	[[ -s $work/url ]] || { echo "the sandbox did not start" >&2; exit 1; }
	cp "$work/url" "$data/url"
	t0=$(now_us)
	STORECTL_BASE_URL=$(cat "$data/url") "$bin" mirror sync bis -q
	echo "sync $((($(now_us) - t0) / 1000000)) s"
	kill "$server_pid"; wait "$server_pid" 2>/dev/null || true; server_pid=
	echo "$rows" >"$data/rows"
fi
export STORECTL_BASE_URL=$(cat "$data/url")
email=$("$bin" mirror query --no-headers 'SELECT customer_email FROM submissions ORDER BY id DESC LIMIT 1')
echo "find-email-rows $("$bin" bis find --email "$email" --offline -o json 2>/dev/null | grep -c '"id"')"
versions() {
	for _ in 1 2; do
		echo "version $(median_ms "$bin" --version)"
		if [[ -n ${BENCH_MCP_BASE:-} ]]; then echo "version-base $(median_ms "$BENCH_MCP_BASE" --version)"; fi
	done
}
versions
node "$root/.ci/mcp-client/bench.mjs" "$bin" "$email" "$starts" "$calls"
versions
echo "# load $(cut -d' ' -f1-3 /proc/loadavg)"
