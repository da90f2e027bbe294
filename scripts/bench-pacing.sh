#!/usr/bin/env bash
# scripts/bench-pacing.sh: the two paced figures of `make bench`, run
# several times and, given two binaries, interleaved (A, B, A, B, …) so that
# both see the same machine load:
#
#   40-page export   `bis export` of 600 submissions (15 a page) from
#                    `sandbox serve --throttle $THROTTLE`
#   60 creates       60 separate `storectl comingsoon create` processes
#                    against one such server (the budget shared between
#                    processes through the pace file)
#
# THROTTLE is 30/3s unless set: the real API's 30 a minute scaled 20×
# down, so that a run takes seconds; THROTTLE=30/1m is the real one (each
# run then takes a minute and a bit). Each figure is elapsed ÷ the
# throttle's minimum (40 or 60 requests at 30 a window: one window), and the
# 429s in the server's log; the median of the runs closes each binary's
# lines. What a run costs beyond the minimum (process start, creating the
# mirror, the last pages' commits, the pacer's margin) is fixed in
# seconds, so the scaled throttle magnifies it 20×: it is the magnifier of
# those costs, the real throttle the figure users see.
#
# 60 processes started one after the other cannot beat the window plus the
# time the last 30 take to run (each waits for its slot of the first window
# to expire), so the creates also get a floor: the window plus half the
# time of the same 60 creates unthrottled and unpaced (measured in the same
# run), and elapsed ÷ that floor, the pacing's own overhead.
#
# Usage: [THROTTLE=N/DURATION] [BENCH_PACING_ROWS=1] scripts/bench-pacing.sh [RUNS] [BINARY...]
# RUNS is 5; one binary is built from the working tree when none is given.
# BENCH_PACING_ROWS=1 prints, instead of the runs, one tab-separated row per
# figure (name, median, the rest) for scripts/bench.
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
throttle=${THROTTLE:-30/3s}

# window_us prints the throttle's window in microseconds ("3s", "1m", "m").
window_us() {
  awk -v per="${throttle#*/}" 'BEGIN {
    unit = substr(per, length(per)); n = substr(per, 1, length(per) - 1); if (n == "") n = 1
    f = unit == "s" ? 1e6 : unit == "m" ? 60e6 : unit == "h" ? 3600e6 : 0
    if (f == 0) { print "THROTTLE: give the window in s, m or h" > "/dev/stderr"; exit 1 }
    printf "%d", n * f }'
}
window=$(window_us)
per_window=${throttle%%/*}

# minimum_us N: the least time N requests take, every window but the last
# run out.
minimum_us() { echo $((($1 + per_window - 1) / per_window * window - window)); }

while IFS= read -r var; do unset "$var"; done < <(compgen -e | grep '^STORECTL_' || true)
export NO_COLOR=1 DBUS_SESSION_BUS_ADDRESS="unix:path=$work/no-dbus"
export STORECTL_SHOP_TOKEN=shop_sandbox_demo STORECTL_RATE_LIMIT=$throttle

# serve BIN NAME ARGS...: a fresh server, and a fresh home (pace state,
# mirror) for the client. The server does not keep the caller's file
# descriptors above 2 (a bench lock taken with flock on one).
serve() {
  local bin=$1 name=$2; shift 2
  rm -f "$work/url"
  closefds "$bin" sandbox serve --memory --addr 127.0.0.1:0 --url-file "$work/url" --throttle "$throttle" \
    --log "$work/$name.log" "$@" >/dev/null 2>&1 &
  server=$!
  until [ -s "$work/url" ]; do sleep 0.05; done
  STORECTL_BASE_URL=$(cat "$work/url")
  export STORECTL_BASE_URL
  local h="$work/home-$name"
  rm -rf "$h"
  export HOME="$h" XDG_CONFIG_HOME="$h/config" XDG_STATE_HOME="$h/state" XDG_DATA_HOME="$h/data" XDG_CACHE_HOME="$h/cache"
}

# closefds CMD...: CMD without this shell's file descriptors above 2.
closefds() {
  local fd
  for fd in /proc/$BASHPID/fd/*; do
    fd=${fd##*/}
    if [ "$fd" -gt 2 ] 2>/dev/null; then eval "exec $fd>&-"; fi
  done
  exec "$@"
}

stop() {
  kill "$server" 2>/dev/null || true
  wait "$server" 2>/dev/null || true
  server=
}

too_many() { grep -cE '^[A-Z]+ [^ ]+ 429( |$)' "$1" || true; }

# figure BIN KIND: one run; prints "ratio 429s floor-ratio seconds".
figure() {
  local bin=$1 kind=$2 t0 t1 n=40 f0=0 f1=0
  if [ "$kind" = export ]; then
    serve "$bin" export --submissions 600
    t0=${EPOCHREALTIME/./}
    "$bin" bis export --file "$work/export.csv" -q
    t1=${EPOCHREALTIME/./}
  else
    n=60
    serve "$bin" free --throttle 0
    f0=${EPOCHREALTIME/./}
    STORECTL_RATE_LIMIT=0 creates "$bin"
    f1=${EPOCHREALTIME/./}
    stop
    serve "$bin" creates
    t0=${EPOCHREALTIME/./}
    creates "$bin"
    t1=${EPOCHREALTIME/./}
  fi
  stop
  local min last
  min=$(minimum_us "$n")
  last=$((n - min / window * per_window)) # requests in the last window
  awk -v us=$((t1 - t0)) -v min="$min" -v free=$((f1 - f0)) -v n="$n" -v last="$last" \
    -v tm="$(too_many "$work/$kind.log")" \
    'BEGIN { printf "%.3f %d %.3f %.2f\n", us / min, tm, us / (min + free * last / n), us / 1e6 }'
}

creates() {
  for i in $(seq 1 60); do
    "$1" comingsoon create --name "bench rule $i" --start 2030-01-01T00:00:00Z --apply-to all -q >/dev/null 2>>"$work/creates.err" ||
      { echo "bench-pacing: create $i failed: $(tail -n 3 "$work/creates.err")" >&2; exit 1; }
  done
}

median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
spread() { sort -n | awk 'NR == 1 { lo = $1 } { hi = $1 } END { print lo "–" hi }'; }
of() { tr ' ' '\n' <<<"$1" | grep .; }

# report KIND I: the lines of bins[I]'s runs of KIND.
report() {
  local kind=$1 i=$2 m line
  m=$(of "${ratios[$i]}" | median)
  if [ "${BENCH_PACING_ROWS:-0}" = 1 ]; then
    local name="40-page export, $throttle" what="bis export of 600 rows"
    [ "$kind" = creates ] && name="60 x comingsoon create, $throttle" what="60 separate processes"
    line=$(printf '%s\t%s×\t%s: %s s (%s s), %s× the minimum (%s), median of %d; %d × 429 in all' \
      "$name" "$m" "$what" "$(of "${seconds[$i]}" | median)" "$(of "${seconds[$i]}" | spread)" "$m" "$(of "${ratios[$i]}" | spread)" "$runs" "${throttled[$i]}")
    [ "$kind" = creates ] && line+="; $(of "${floors[$i]}" | median)× the floor of process starts ($(of "${floors[$i]}" | spread))"
    echo "$line"
    return
  fi
  line=$(printf '%-8s %s: %s× the minimum at %s (runs: %s), %d × 429 in all' "$kind" "${bins[$i]}" "$m" "$throttle" "${ratios[$i]% }" "${throttled[$i]}")
  [ "$kind" = creates ] && line+="; $(of "${floors[$i]}" | median)× the floor of process starts (runs: ${floors[$i]% })"
  echo "$line"
}

for kind in export creates; do
  declare -A ratios=() throttled=() floors=() seconds=()
  for ((r = 1; r <= runs; r++)); do
    for i in "${!bins[@]}"; do
      read -r ratio tm floor secs < <(figure "${bins[$i]}" "$kind") ||
        { echo "bench-pacing: a $kind run of ${bins[$i]} failed" >&2; exit 1; }
      ratios[$i]+="$ratio "
      floors[$i]+="$floor "
      seconds[$i]+="$secs "
      throttled[$i]=$((${throttled[$i]:-0} + tm))
    done
  done
  for i in "${!bins[@]}"; do report "$kind" "$i"; done
  unset ratios throttled floors seconds
done
