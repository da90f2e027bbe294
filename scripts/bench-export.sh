#!/usr/bin/env bash
# Measures `storectl bis export` against `storectl sandbox serve` (a real
# HTTP server in a separate process), with fresh config, state and cache
# directories:
#
#  1. memory and speed: 100,000 submissions (6,667 pages), pacing off on
#     both sides; peak RSS of the exporting process from /usr/bin/time -v
#     (must stay under 60 MB), rate in rows/s;
#  2. pacing: 600 submissions (40 pages) with the server throttled to 30/3s
#     and STORECTL_RATE_LIMIT=30/3s; the export must finish within 10% of
#     the 3 s the throttle allows at least (30 requests at once, the other 10
#     a window later) and the server log must hold no 429.
#
# Usage: scripts/bench-export.sh [ROWS]   (ROWS defaults to 100000)
set -euo pipefail

rows=${1:-100000}
max_rss_kb=$((60 * 1024))
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
server_pid=""
cleanup() {
	if [[ -n $server_pid ]]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
	rm -rf "$work"
}
trap cleanup EXIT

bin=$work/storectl
# shellcheck source=scripts/bench-lib.sh
source "$root/scripts/bench-lib.sh"
build_release "$bin"

export HOME=$work/home XDG_CONFIG_HOME=$work/home/.config XDG_STATE_HOME=$work/home/.local/state \
	XDG_CACHE_HOME=$work/home/.cache DBUS_SESSION_BUS_ADDRESS=unix:path=$work/no-dbus
export STORECTL_SHOP_TOKEN=shop_sandbox_demo

# serve SUBMISSIONS THROTTLE LOG: starts a sandbox and sets STORECTL_BASE_URL.
serve() {
	rm -f "$work/url"
	"$bin" sandbox serve --memory --submissions "$1" --addr 127.0.0.1:0 --url-file "$work/url" --throttle "$2" --log "$3" >/dev/null &
	server_pid=$!
	for _ in $(seq 1 600); do [[ -s $work/url ]] && break; sleep 0.1; done
	[[ -s $work/url ]] || { echo "the sandbox did not start" >&2; exit 1; }
	export STORECTL_BASE_URL=$(cat "$work/url")
}

stop() {
	kill "$server_pid"
	wait "$server_pid" 2>/dev/null || true
	server_pid=""
}

echo "== 1. $rows submissions, pacing off"
serve "$rows" 0 /dev/null
STORECTL_RATE_LIMIT=0 /usr/bin/time -v "$bin" bis export --file "$work/big.csv" -q 2>"$work/time.txt"
stop
rss_kb=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$work/time.txt")
wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$work/time.txt")
secs=$(echo "$wall" | awk -F: '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i; print s }')
lines=$(($(wc -l <"$work/big.csv") - 1))
echo "rows exported:  $lines (file lines after the header; multi-line cells would add more)"
echo "wall time:      ${secs}s"
echo "rate:           $(awk -v r="$rows" -v s="$secs" 'BEGIN { printf "%.0f", r / s }') rows/s"
echo "peak RSS:       $((rss_kb / 1024)) MB ($rss_kb kB; limit $((max_rss_kb / 1024)) MB)"
((rss_kb < max_rss_kb)) || { echo "FAIL: peak RSS over the limit" >&2; exit 1; }

echo "== 2. 600 submissions (40 pages), server throttle 30/3s, STORECTL_RATE_LIMIT=30/3s"
serve 600 30/3s "$work/requests.log"
start=$(date +%s.%N)
STORECTL_RATE_LIMIT=30/3s "$bin" bis export --file "$work/paced.csv" -q
end=$(date +%s.%N)
stop
elapsed=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f", b - a }')
requests=$(grep -c ' /shop-api/back-in-stock/list' "$work/requests.log")
throttled=$(grep -c ' 429' "$work/requests.log" || true)
echo "requests:       $requests"
echo "elapsed:        ${elapsed}s (minimum 3s, limit 3.3s)"
echo "429 answers:    $throttled"
awk -v e="$elapsed" 'BEGIN { exit !(e <= 3.3) }' || { echo "FAIL: slower than 110% of the minimum" >&2; exit 1; }
((throttled == 0)) || { echo "FAIL: the server answered 429" >&2; exit 1; }
echo "ok"
