#!/usr/bin/env bash
# scripts/bench-report.sh (also rows of `make bench`): `bis report` at scale
# and the detail refresh's pace.
#
#   report   `bis report --offline` (the terminal view, -o json, --html) on
#            the sandbox's own store of each size (`sandbox serve
#            --submissions N`: its dates, products and variants), synced
#            unthrottled into SQLite and, for the sizes BENCH_REPORT_PG
#            lists, into a throwaway PostgreSQL cluster; whole process,
#            median (range) of BENCH_REPORT_RUNS after one warm-up run;
#            goals (issue 38) 100 ms at 100,000 rows and 300 ms at
#            1,000,000 on SQLite, PostgreSQL within 1.5× of those, and
#            bis find --email and bis demand below 50 ms. BENCH_REPORT_KEEP
#            names a directory where each SQLite mirror is kept and reused
#            by the next run (a million rows take minutes to sync).
#   refresh  `mirror sync bis --details --for BENCH_REFRESH_SECONDS` (default
#            180) against `sandbox serve --throttle 30/3s`, the scaled-down
#            throttle (10 a second for 30 a minute): detail requests a second
#            ÷ the share it was given (80%: 8 a second), goal ≥ 0.95, and the
#            429s the server sent.
#
# Usage: scripts/bench-report.sh report|refresh [STORECTL_BINARY]
# Environment: BENCH_REPORT_ROWS (the sizes; default "100000 1000000"),
# BENCH_REPORT_RUNS (default 9), BENCH_REPORT_PG, BENCH_REPORT_KEEP,
# BENCH_REFRESH_SECONDS. Prints one line per figure: "NAME<TAB>VALUE<TAB>NOTE".
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/bench-lib.sh
source scripts/bench-lib.sh
export GOTOOLCHAIN=${GOTOOLCHAIN:-local}
what=${1:?usage: scripts/bench-report.sh report|refresh [STORECTL_BINARY]}
work=$(mktemp -d "${TMPDIR:-/tmp}/storectl-bench-report.XXXXXX")
server=
stop_server() {
  if [ -n "$server" ]; then
    kill "$server" 2>/dev/null || true
    wait "$server" 2>/dev/null || true
    server=
  fi
}
cleanup() {
  stop_server
  [ -x "$work/pgcluster" ] && "$work/pgcluster" stop "$work/pg" >/dev/null 2>&1
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
bin=${2:-}
if [ -z "$bin" ]; then
  bin="$work/storectl"
  build_release "$bin"
fi

while IFS= read -r var; do unset "$var"; done < <(compgen -e | grep '^STORECTL_' || true)
export HOME="$work/home" XDG_CONFIG_HOME="$work/config" XDG_CACHE_HOME="$work/cache"
export XDG_STATE_HOME="$work/state" XDG_DATA_HOME="$work/data" NO_COLOR=1 TZ=UTC
export DBUS_SESSION_BUS_ADDRESS="unix:path=$work/no-dbus" STORECTL_SHOP_TOKEN=shop_sandbox_demo
mkdir -p "$HOME"

die() { echo "bench-report: $*" >&2; exit 1; }

# serve ARGS... starts `sandbox serve` in memory and points storectl at it.
serve() {
  rm -f "$work/url"
  "$bin" sandbox serve --memory --addr 127.0.0.1:0 --url-file "$work/url" --log "$work/requests.log" "$@" \
    >"$work/serve.out" 2>&1 &
  server=$!
  until [ -s "$work/url" ]; do
    kill -0 "$server" 2>/dev/null || die "sandbox serve exited: $(cat "$work/serve.out")"
    sleep 0.05
  done
  STORECTL_BASE_URL=$(cat "$work/url")
  export STORECTL_BASE_URL
}

# median_ms CMD... runs CMD BENCH_REPORT_RUNS times (after one to warm the
# page cache) and prints the median wall time in milliseconds and the range.
median_ms() {
  local i t0 times=()
  "$@" >/dev/null 2>"$work/cmd.err" || die "$* failed: $(tail -n 3 "$work/cmd.err")"
  for ((i = 0; i < ${BENCH_REPORT_RUNS:-9}; i++)); do
    t0=${EPOCHREALTIME/./}
    "$@" >/dev/null 2>&1
    times+=($(((${EPOCHREALTIME/./} - t0))))
  done
  printf '%s\n' "${times[@]}" | sort -n | awk '{ a[NR] = $1 } END { printf "%.1f ms (%.1f–%.1f)", a[int((NR + 1) / 2)] / 1000, a[1] / 1000, a[NR] / 1000 }'
}

# mirror_for BACKEND ROWS points storectl at a mirror of the sandbox's store
# of ROWS submissions, synced unthrottled: kept under BENCH_REPORT_KEEP (SQLite)
# when it names a directory, else made afresh.
mirror_for() {
  local backend=$1 rows=$2 home=$work/$1-$2
  [ "$backend" = sqlite ] && [ -n "${BENCH_REPORT_KEEP:-}" ] && home=$BENCH_REPORT_KEEP/sqlite-$rows
  export XDG_STATE_HOME=$home/state XDG_DATA_HOME=$home/data
  unset STORECTL_MIRROR_URL
  if [ "$backend" = pg ]; then
    "$psql" -q "$pg_server" -c "CREATE DATABASE bench_$rows" >/dev/null
    export STORECTL_MIRROR_URL=${pg_server/\/postgres\?//bench_$rows?}
  fi
  # The sandbox makes the same store for the same size: a kept mirror is
  # synced (and so upgraded) against it at the address it mirrors.
  local addr=127.0.0.1:0 kept
  unset STORECTL_BASE_URL # the last size's sandbox, which the mirror is not of
  if [ "$backend" = sqlite ] && kept=$("$bin" mirror status -o json --jq .store 2>/dev/null) && [ -n "$kept" ]; then
    addr=${kept#http://}
  fi
  serve --throttle 0 --submissions "$rows" --addr "$addr"
  STORECTL_RATE_LIMIT=0 "$bin" mirror sync bis -q 2>"$work/sync.err" || die "sync: $(tail -n 3 "$work/sync.err")"
  stop_server
}

report() {
  local rows backend goal email
  if [ -n "${BENCH_REPORT_PG:-}" ]; then
    (go build -o "$work/pgcluster" ./internal/mirror/postgres/pgtest/pgcluster) || die "build pgcluster"
    chmod 0755 "$work"
    pg_server=$("$work/pgcluster" -durable start "$work/pg")
    psql=$(ls /usr/lib/postgresql/*/bin/psql 2>/dev/null | sort -V | tail -1)
  fi
  for rows in ${BENCH_REPORT_ROWS:-100000 1000000}; do
    for backend in sqlite pg; do
      [ "$backend" = pg ] && [[ " ${BENCH_REPORT_PG:-} " != *" $rows "* ]] && continue
      mirror_for "$backend" "$rows"
      goal=$([ "$rows" -ge 1000000 ] && echo 300 || echo 100)
      [ "$backend" = pg ] && goal=$((goal * 3 / 2))
      # The same store's newest customer (mirror query refuses the
      # cluster's superuser): read from the SQLite mirror, timed first.
      [ "$backend" = sqlite ] && email=$("$bin" mirror query --no-headers 'SELECT customer_email FROM submissions ORDER BY id DESC LIMIT 1')
      printf '%s, %s rows: bis report --offline\t%s\tgoal %s ms\n' "$backend" "$rows" "$(median_ms "$bin" bis report --offline)" "$goal"
      printf '%s, %s rows: bis report --offline -o json\t%s\t\n' "$backend" "$rows" "$(median_ms "$bin" bis report --offline -o json)"
      printf '%s, %s rows: bis report --offline --html\t%s\t\n' "$backend" "$rows" "$(median_ms "$bin" bis report --offline --html "$work/page.html")"
      printf '%s, %s rows: bis find --email -o json\t%s\tgoal 50 ms\n' "$backend" "$rows" "$(median_ms "$bin" bis find --email "$email" --offline -o json)"
      printf '%s, %s rows: bis demand --by variant -o json\t%s\tgoal 50 ms\n' "$backend" "$rows" "$(median_ms "$bin" bis demand --by variant --offline -o json)"
      printf '%s, %s rows: storectl --version (the floor)\t%s\t\n' "$backend" "$rows" "$(median_ms "$bin" --version)"
    done
  done
}

refresh() {
  local secs=${BENCH_REFRESH_SECONDS:-180} subs
  # Enough rows that the run never runs out of details due: 8 a second.
  subs=$(((secs * 10 / 15 + 1) * 15))
  serve --throttle 30/3s --submissions "$subs"
  export STORECTL_RATE_LIMIT=30/3s
  "$bin" mirror sync bis -q 2>"$work/sync.err" || die "list sync: $(tail -n 3 "$work/sync.err")"
  sleep 3 # the list pass's window passes: the run starts with a whole budget
  : >"$work/requests.log"
  local t0 t1
  t0=${EPOCHREALTIME/./}
  "$bin" mirror sync bis --details --for "${secs}s" -q 2>"$work/refresh.err" || die "refresh: $(tail -n 3 "$work/refresh.err")"
  t1=${EPOCHREALTIME/./}
  stop_server
  local details too_many
  details=$(grep -c '^GET /shop-api/back-in-stock/get/' "$work/requests.log" || true)
  too_many=$(grep -cE '^[A-Z]+ [^ ]+ 429' "$work/requests.log" || true)
  awk -v n="$details" -v us=$((t1 - t0)) -v tm="$too_many" -v s="$secs" 'BEGIN {
    rate = n / (us / 1e6)
    printf "detail refresh --for %ds at 30/3s\t%.2f /s\t%.3f× the 80%% share (8 /s); %d details in %.1f s; %d × 429\n", s, rate, rate / 8, n, us / 1e6, tm }'
}

case $what in
report) report ;;
refresh) refresh ;;
*) die "usage: scripts/bench-report.sh report|refresh [STORECTL_BINARY]" ;;
esac
