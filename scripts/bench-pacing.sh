#!/usr/bin/env bash
# scripts/bench-pacing.sh: the two paced figures of `make bench`, run
# several times and, given two binaries, interleaved (A, B, A, B, …) so that
# both see the same machine load:
#
#   40-page export   `bis export` of 600 submissions (15 a page) from
#                    `sandbox serve --throttle 30/3s`
#   60 creates       60 separate `storectl comingsoon create` processes
#                    against one such server (the budget shared between
#                    processes through the pace file)
#
# Each figure is elapsed ÷ the throttle's minimum (40 or 60 requests at 30
# per 3 s: 3 s), and the 429s in the server's log; the median of the runs
# closes each binary's lines. 60 processes started one after the other
# cannot beat 3 s plus the time the last 30 take to run (each waits for its
# slot of the first window to expire), so the creates also get a floor:
# 3 s + half the time of the same 60 creates unthrottled and unpaced
# (measured in the same run), and elapsed ÷ that floor, the pacing's own
# overhead.
#
# Usage: scripts/bench-pacing.sh [RUNS] [BINARY...]   (RUNS 5; builds one
# from the working tree when no binary is given)
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/bench-lib.sh
source scripts/bench-lib.sh
export GOTOOLCHAIN=${GOTOOLCHAIN:-local}
runs=${1:-5}
shift || true
work=$(mktemp -d "${TMPDIR:-/tmp}/storectl-bench-pacing.XXXXXX")
server=
cleanup() {
  if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
bins=("$@")
if [ ${#bins[@]} -eq 0 ]; then
  build_release "$work/storectl"
  bins=("$work/storectl")
fi
throttle=30/3s
minimum_us=3000000

while IFS= read -r var; do unset "$var"; done < <(compgen -e | grep '^STORECTL_' || true)
export NO_COLOR=1 DBUS_SESSION_BUS_ADDRESS="unix:path=$work/no-dbus"
export STORECTL_SHOP_TOKEN=shop_sandbox_demo STORECTL_RATE_LIMIT=$throttle

# serve BIN NAME ARGS...: a fresh server, and a fresh home (pace state,
# mirror) for the client.
serve() {
  local bin=$1 name=$2; shift 2
  rm -f "$work/url"
  "$bin" sandbox serve --memory --addr 127.0.0.1:0 --url-file "$work/url" --throttle "$throttle" \
    --log "$work/$name.log" "$@" >/dev/null 2>&1 &
  server=$!
  until [ -s "$work/url" ]; do sleep 0.05; done
  STORECTL_BASE_URL=$(cat "$work/url")
  export STORECTL_BASE_URL
  local h="$work/home-$name"
  rm -rf "$h"
  export HOME="$h" XDG_CONFIG_HOME="$h/config" XDG_STATE_HOME="$h/state" XDG_DATA_HOME="$h/data" XDG_CACHE_HOME="$h/cache"
}

stop() {
  kill "$server" 2>/dev/null || true
  wait "$server" 2>/dev/null || true
  server=
}

too_many() { grep -cE '^[A-Z]+ [^ ]+ 429( |$)' "$1" || true; }

# figure BIN KIND: one run; prints "ratio 429s".
figure() {
  local bin=$1 kind=$2 t0 t1
  if [ "$kind" = export ]; then
    serve "$bin" export --submissions 600
    t0=${EPOCHREALTIME/./}
    "$bin" bis export --file "$work/export.csv" -q
    t1=${EPOCHREALTIME/./}
  else
    serve "$bin" free --throttle 0
    local f0=${EPOCHREALTIME/./}
    STORECTL_RATE_LIMIT=0 creates "$bin"
    local f1=${EPOCHREALTIME/./}
    stop
    serve "$bin" creates
    t0=${EPOCHREALTIME/./}
    creates "$bin"
    t1=${EPOCHREALTIME/./}
  fi
  stop
  awk -v us=$((t1 - t0)) -v min="$minimum_us" -v free=$((${f1:-0} - ${f0:-0})) -v tm="$(too_many "$work/$kind.log")" \
    'BEGIN { printf "%.3f %d %.3f\n", us / min, tm, us / (min + free / 2) }'
}

creates() {
  for i in $(seq 1 60); do
    "$1" comingsoon create --name "bench rule $i" --start 2030-01-01T00:00:00Z --apply-to all -q >/dev/null
  done
}

median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

for kind in export creates; do
  declare -A ratios=() throttled=() floors=()
  for ((r = 1; r <= runs; r++)); do
    for i in "${!bins[@]}"; do
      read -r ratio tm floor < <(figure "${bins[$i]}" "$kind")
      ratios[$i]+="$ratio "
      floors[$i]+="$floor "
      throttled[$i]=$((${throttled[$i]:-0} + tm))
    done
  done
  for i in "${!bins[@]}"; do
    m=$(tr ' ' '\n' <<<"${ratios[$i]}" | grep . | median)
    line=$(printf '%-8s %s: %s× the minimum (runs: %s), %d × 429 in all' "$kind" "${bins[$i]}" "$m" "${ratios[$i]% }" "${throttled[$i]}")
    if [ "$kind" = creates ]; then
      f=$(tr ' ' '\n' <<<"${floors[$i]}" | grep . | median)
      line+="; $f× the floor of process starts (runs: ${floors[$i]% })"
    fi
    echo "$line"
  done
  unset ratios throttled floors
done
