#!/usr/bin/env bash
# scripts/bench-report.sh (also rows of `make bench`): `bis report` at scale
# and the detail refresh's pace.
#
#   report   `bis report --offline` (the terminal view, and --html) on mirrors
#            of 100,000 and 1,000,000 submissions, whole process, median of
#            BENCH_REPORT_RUNS; goals 200 ms and 1 s. The mirrors are the
#            sandbox's BENCH_REPORT_BASE submissions (default 10,000) synced
#            with every detail, then copied with sqlite3 under new ids until
#            they hold the size (each copy created 7 s before the last, with
#            the same products, status, details and JSON, so rows are as
#            wide as real ones).
#   refresh  `mirror sync bis --details --for BENCH_REFRESH_SECONDS` (default
#            180) against `sandbox serve --throttle 30/3s`, the scaled-down
#            throttle (10 a second for 30 a minute): detail requests a second
#            ÷ the share it was given (80%: 8 a second), goal ≥ 0.95, and the
#            429s the server sent.
#
# Usage: scripts/bench-report.sh report|refresh [STORECTL_BINARY]
# Environment: BENCH_REPORT_ROWS (the sizes; default "100000 1000000"),
# BENCH_REPORT_BASE, BENCH_REPORT_RUNS, BENCH_REFRESH_SECONDS.
# Prints one line per figure: "NAME<TAB>VALUE<TAB>RATIO". Needs sqlite3 for
# `report` (installed with apt-get when missing and allowed).
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
# page cache) and prints the median wall time in milliseconds.
median_ms() {
  local i t0 times=()
  "$@" >/dev/null 2>"$work/cmd.err" || die "$* failed: $(tail -n 3 "$work/cmd.err")"
  for ((i = 0; i < ${BENCH_REPORT_RUNS:-9}; i++)); do
    t0=${EPOCHREALTIME/./}
    "$@" >/dev/null 2>&1
    times+=($(((${EPOCHREALTIME/./} - t0))))
  done
  printf '%s\n' "${times[@]}" | sort -n | awk '{ a[NR] = $1 } END { printf "%.1f", a[int((NR + 1) / 2)] / 1000 }'
}

# grow DB ROWS copies the mirror's submissions under new ids until it holds
# ROWS (a multiple of what it has).
grow() {
  local db=$1 rows=$2 have copies k
  have=$(sqlite3 "$db" 'SELECT count(*) FROM submissions')
  copies=$((rows / have))
  # The indexes are dropped while rows go in and built again after, in one
  # sorted pass each: inserting into eight indexes row by row is slower.
  local indexes drops
  indexes=$(sqlite3 "$db" "SELECT sql || ';' FROM sqlite_master WHERE type = 'index' AND tbl_name = 'submissions' AND sql IS NOT NULL")
  drops=$(sqlite3 "$db" "SELECT 'DROP INDEX ' || name || ';' FROM sqlite_master WHERE type = 'index' AND tbl_name = 'submissions' AND sql IS NOT NULL")
  {
    # No journal while copying (a failed run is thrown away), WAL again after
    # as storectl leaves it.
    echo "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; CREATE TEMP TABLE base AS SELECT * FROM submissions; BEGIN;"
    echo "$drops"
    for ((k = 1; k < copies; k++)); do
      echo "UPDATE base SET id = id + 100000000, created_at = strftime('%Y-%m-%dT%H:%M:%S', created_at, '-7 seconds') || substr(created_at, 20);"
      echo "INSERT INTO submissions SELECT * FROM base;"
    done
    echo "$indexes"
    echo "COMMIT; PRAGMA journal_mode = WAL;"
  } | sqlite3 "$db" >/dev/null
}

report() {
  if ! command -v sqlite3 >/dev/null && command -v apt-get >/dev/null && [ "$(id -u)" = 0 ]; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq sqlite3 >/dev/null 2>&1 ||
      { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq sqlite3 >/dev/null; } || true
  fi
  command -v sqlite3 >/dev/null || die "needs sqlite3 (apt-get install sqlite3) to build the big mirrors"
  local base=${BENCH_REPORT_BASE:-10000}
  serve --throttle 0 --submissions "$base"
  STORECTL_RATE_LIMIT=0 "$bin" mirror sync bis --details -q 2>"$work/sync.err" || die "sync: $(tail -n 3 "$work/sync.err")"
  stop_server
  local db sent detailed
  db=$("$bin" mirror status -o json --jq .path)
  sent=$(sqlite3 "$db" 'SELECT count(*) FROM submissions WHERE status = 1')
  detailed=$(sqlite3 "$db" 'SELECT count(*) FROM submissions WHERE detail_fetched_at IS NOT NULL')
  cp "$db" "$work/base.db"
  local rows goal t th mb
  for rows in ${BENCH_REPORT_ROWS:-100000 1000000}; do
    cp "$work/base.db" "$db"
    grow "$db" "$rows"
    goal=$([ "$rows" -eq 100000 ] && echo 200 || echo 1000)
    t=$(median_ms "$bin" bis report --offline)
    th=$(median_ms "$bin" bis report --offline --html "$work/page.html")
    mb=$(($(stat -c %s "$db") / 1048576))
    printf 'bis report --offline, %s rows\t%s ms\t%s× the %s ms goal; --html %s ms; medians of %s; %s MiB mirror, %s%% sent, every row detailed\n' \
      "$rows" "$t" "$(awk -v t="$t" -v g="$goal" 'BEGIN { printf "%.2f", t / g }')" "$goal" "$th" "${BENCH_REPORT_RUNS:-9}" \
      "$mb" "$((100 * sent / base))"
  done
  [ "$detailed" -eq "$base" ] || echo "bench-report: only $detailed of $base rows were detailed" >&2
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
