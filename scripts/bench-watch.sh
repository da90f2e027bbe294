#!/usr/bin/env bash
# scripts/bench-watch.sh: `storectl watch` beside a person's `bis get` loop
# on the same token, against `sandbox serve --throttle 30/3s` (the API's 30
# a minute scaled down to 10 a second), for BENCH_WATCH_SECONDS (default
# 600). The watcher runs every 1s with a full pass every 5s on a 50% share;
# the loop asks for one submission every 0.2s. Prints the requests of
# each, the 429s the server sent (goal 0), the most list requests the
# watcher had in any 3 s window (goal ≤ 15, its share; the stamps are when
# the log line was read, so a burst read late can show a few more) and in
# any 30 s window (goal ≤ 150), and its mean rate.
#
# Usage: scripts/bench-watch.sh [STORECTL_BINARY]
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/bench-lib.sh
source scripts/bench-lib.sh
export GOTOOLCHAIN=${GOTOOLCHAIN:-local}
seconds=${BENCH_WATCH_SECONDS:-600}
work=$(mktemp -d "${TMPDIR:-/tmp}/storectl-bench-watch.XXXXXX")
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
bin=${1:-}
if [ -z "$bin" ]; then
  bin=$work/storectl
  build_release "$bin"
fi
export HOME=$work/home XDG_CONFIG_HOME=$work/config XDG_STATE_HOME=$work/state XDG_DATA_HOME=$work/data XDG_CACHE_HOME=$work/cache
export STORECTL_RATE_LIMIT=30/3s STORECTL_SHOP_TOKEN=shop_sandbox_demo NO_COLOR=1
"$bin" sandbox serve --memory --addr 127.0.0.1:0 --url-file "$work/url" --log "$work/requests.log" --throttle 30/3s >/dev/null 2>&1 &
pids+=($!)
until [ -s "$work/url" ]; do sleep 0.05; done
export STORECTL_BASE_URL=$(cat "$work/url")
"$bin" -q mirror sync >/dev/null 2>&1
# The server's log, each line stamped as it comes.
# (perl, not a date per line: a loop forking under load stamps late, in bursts.)
tail -n0 -s 0.05 -F "$work/requests.log" 2>/dev/null | perl -MTime::HiRes=time -ne '$| = 1; printf "%.6f %s", time, $_' >"$work/stamped.log" &
pids+=($!)
"$bin" -q watch --every 1s --full-every 5s --share 50 >/dev/null 2>"$work/watch.err" &
pids+=($!)
end=$((SECONDS + seconds))
while [ $SECONDS -lt $end ]; do
  "$bin" -q bis get 10001 >/dev/null 2>&1 || true
  sleep 0.2
done
sleep 1
awk -v secs="$seconds" '
  $2 == "GET" && $3 ~ /\/list/ { t[n++] = $1 }
  $2 == "GET" && $3 ~ /back-in-stock\/get/ { gets++ }
  $NF == 429 { refused++ }
  END {
    max = 0; j = 0; max30 = 0; k = 0
    for (i = 0; i < n; i++) {
      while (t[i] - t[j] >= 3) j++
      while (t[i] - t[k] >= 30) k++
      if (i - j + 1 > max) max = i - j + 1
      if (i - k + 1 > max30) max30 = i - k + 1
    }
    printf "watch list requests\t%d\t%.2f/s (share: 5/s)\n", n, n / secs
    printf "bis get requests\t%d\n", gets
    printf "429 answers\t%d\n", refused + 0
    printf "watch max in 3s\t%d\t(share: 15)\n", max
    printf "watch max in 30s\t%d\t(share: 150)\n", max30
  }' "$work/stamped.log"
