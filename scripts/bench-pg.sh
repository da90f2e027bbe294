#!/usr/bin/env bash
# scripts/bench-pg.sh: the team's mirror on PostgreSQL against the local
# SQLite mirror (issue 26), in the same run, runs interleaved.
#
# One `sandbox serve --memory --submissions ROWS --throttle 0`, pacing off
# (STORECTL_RATE_LIMIT=0), a throttle-free server and a throwaway PostgreSQL
# cluster started here with fsync on (pgcluster -durable), on this machine:
#
#   sync      the first `mirror sync bis` into an empty mirror: wall time and
#             peak RSS, SQLite (a fresh file) and PostgreSQL (a fresh database)
#   answers   medians of ANSWER_RUNS whole-process runs, --offline, on the
#             mirror just synced: bis find --email, bis demand (by product),
#             bis demand --by variant, bis report; and --version, the
#             floor every whole-process run stands on
#
# Usage: scripts/bench-pg.sh [ROWS] [RUNS]   (100000, 3)
# BIN=path measures that build (default: this tree). ANSWER_RUNS (default
# 15). Prints one line per figure, backend and run, then the medians, and
# PostgreSQL's sync time ÷ SQLite's (the goal: within 2×).
set -euo pipefail
rows=${1:-100000}
runs=${2:-3}
answer_runs=${ANSWER_RUNS:-15}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/storectl-bench-pg.XXXXXX")
chmod 0755 "$work" # the cluster's unprivileged user (as root) reaches its directory
server_pid=
cleanup() {
	if [[ -n $server_pid ]]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
	[[ -x $work/pgcluster ]] && "$work/pgcluster" stop "$work/pg" >/dev/null 2>&1 || true
	rm -rf "$work"
}
trap cleanup EXIT

# shellcheck source=scripts/bench-lib.sh
source "$root/scripts/bench-lib.sh"
bin=${BIN:-}
if [[ -z $bin ]]; then
	build_release "$work/storectl"
	bin=$work/storectl
fi
(cd "$root" && go build -o "$work/pgcluster" ./internal/mirror/postgres/pgtest/pgcluster)
pg_server=$("$work/pgcluster" -durable start "$work/pg")
psql=$(ls /usr/lib/postgresql/*/bin/psql 2>/dev/null | sort -V | tail -1)
[[ -x $psql ]] || psql=psql

while IFS= read -r var; do unset "$var"; done < <(compgen -e | grep '^STORECTL_' || true)
bench_isolate

serve() {
	"$bin" sandbox serve --memory --submissions "$rows" --addr 127.0.0.1:0 --url-file "$work/url" --throttle 0 >/dev/null 2>&1 &
	server_pid=$!
	for _ in $(seq 1 3000); do [[ -s $work/url ]] && break; sleep 0.1; done
	[[ -s $work/url ]] || { echo "the sandbox did not start" >&2; exit 1; }
	export STORECTL_BASE_URL=$(cat "$work/url")
}

# fresh BACKEND RUN points storectl at a new, empty mirror: a SQLite file,
# or a new PostgreSQL database. The run before's database goes first, and a
# checkpoint writes out what it left: else autovacuum's round over the
# 100,000 rows it just took, and the checkpoint its write-ahead log is
# due, fall into this run's sync, where SQLite's runs leave nothing
# behind (two runs of this script minutes apart, without and with: 8.18 s
# and 7.58 s).
fresh() {
	export XDG_STATE_HOME=$work/$1-$2/state XDG_DATA_HOME=$work/$1-$2/data
	unset STORECTL_MIRROR_URL
	if [[ $1 == pg ]]; then
		for db in $("$psql" -At "$pg_server" -c "SELECT datname FROM pg_database WHERE datname LIKE 'bench\_%'"); do
			"$psql" -q "$pg_server" -c "DROP DATABASE $db WITH (FORCE)"
		done
		"$psql" -q "$pg_server" -c "CHECKPOINT"
		"$psql" -q "$pg_server" -c "CREATE DATABASE bench_$2"
		export STORECTL_MIRROR_URL=${pg_server/\/postgres\?//bench_$2?}
	fi
}

one_run() {
	local backend=$1 email
	fresh "$backend" "$run"
	echo "$backend sync $(timed "$bin" mirror sync bis -q)"
	if [[ $backend == pg ]]; then # mirror query refuses the cluster's superuser
		email=$("$psql" -At "$STORECTL_MIRROR_URL" -c 'SELECT customer_email FROM storectl.submissions ORDER BY id DESC LIMIT 1')
	else
		email=$("$bin" mirror query --no-headers 'SELECT customer_email FROM submissions ORDER BY id DESC LIMIT 1')
	fi
	echo "$backend answer find-email $(median_ms "$bin" bis find --email "$email" --offline -o json)"
	echo "$backend answer demand-product $(median_ms "$bin" bis demand --offline -o json)"
	echo "$backend answer demand-variant $(median_ms "$bin" bis demand --by variant --offline -o json)"
	echo "$backend answer report $(median_ms "$bin" bis report --offline -o json)"
	echo "$backend answer version $(median_ms "$bin" --version)"
}

echo "# $rows submissions, $runs runs; $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg); $("$psql" -At "$pg_server" -c 'SHOW server_version')"
serve
for ((run = 1; run <= runs; run++)); do
	for backend in sqlite pg; do one_run "$backend"; done
done | tee "$work/lines"
echo "# medians (seconds, KiB; ms); load $(cut -d' ' -f1-3 /proc/loadavg)"
print_medians "$work/lines" | tee "$work/medians"
awk '$2 == "sync" { sync[$1] = $3 } END { if (sync["pg"] && sync["sqlite"]) printf "pg÷sqlite sync %.2f (goal ≤ 1.3)\n", sync["pg"] / sync["sqlite"] }' "$work/medians"
