#!/usr/bin/env bash
# scripts/bench-mirror.sh: the mirror's write path, size, memory and answers
# (issue 23), for one or more builds side by side, runs interleaved.
#
# Against one `sandbox serve --memory --submissions ROWS --throttle 0` per run,
# pacing off (STORECTL_RATE_LIMIT=0), fresh state and mirror per figure:
#
#   list        `bis list --all -o ndjson > /dev/null`: reading the list alone
#   sync        the first `mirror sync bis`: wall time, peak RSS, the file's
#               size (with its log) and its size after VACUUM of a copy
#   full        `mirror sync bis --full` onto that mirror (every row unchanged)
#   export      an online `bis export --file` onto an empty mirror
#   answers     medians of ANSWER_RUNS whole-process runs, --offline, on the
#               synced mirror: bis demand (by product, by variant), bis find
#               by e-mail, phone (without its country code), variant, SKU and
#               date, bis report (the terminal view, to a pipe); and
#               `storectl --version`, the floor of them all
#
# Usage: scripts/bench-mirror.sh [ROWS] [RUNS]    (100000, 3)
# BENCH_BINS="name=path name=path" compares builds (default: this tree).
# ANSWER_RUNS (default 15). FIGURES (default "list sync size answers full
# export") picks the figures (sync is always run: the others need its
# mirror). Prints one line per figure, build and run, then the medians.
set -euo pipefail
rows=${1:-100000}
runs=${2:-3}
answer_runs=${ANSWER_RUNS:-15}
figures=" ${FIGURES:-list sync size answers full export} "
wanted() { [[ $figures == *" $1 "* ]]; }
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/storectl-bench-mirror.XXXXXX")
server_pid=
cleanup() {
	if [[ -n $server_pid ]]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
	rm -rf "$work"
}
trap cleanup EXIT

# shellcheck source=scripts/bench-lib.sh
source "$root/scripts/bench-lib.sh"
if [[ -z ${BENCH_BINS:-} ]]; then
	build_release "$work/storectl"
	BENCH_BINS="tree=$work/storectl"
fi
bench_isolate

# fresh NAME points storectl at a new, empty state and mirror.
fresh() { export XDG_STATE_HOME=$work/$1/state XDG_DATA_HOME=$work/$1/data; rm -rf "$work/$1"; }

size_mib() { awk -v b="$1" 'BEGIN { printf "%.1f", b / 1048576 }'; }

serve() {
	rm -f "$work/url"
	"${bins[0]#*=}" sandbox serve --memory --submissions "$rows" --addr 127.0.0.1:0 --url-file "$work/url" --throttle 0 >/dev/null 2>&1 &
	server_pid=$!
	for _ in $(seq 1 3000); do [[ -s $work/url ]] && break; sleep 0.1; done
	[[ -s $work/url ]] || { echo "the sandbox did not start" >&2; exit 1; }
	export STORECTL_BASE_URL=$(cat "$work/url")
}

# answers NAME BIN: the offline answers' medians on the mirror just synced.
answers() {
	local bin=$2 email phone variant sku since
	email=$("$bin" mirror query --no-headers 'SELECT customer_email FROM submissions ORDER BY id DESC LIMIT 1')
	phone=$("$bin" mirror query --no-headers "SELECT substr(phone_digits, 2) FROM submissions WHERE phone_digits IS NOT NULL LIMIT 1")
	variant=$("$bin" mirror query --no-headers 'SELECT variant_id FROM submissions GROUP BY variant_id ORDER BY count(*) DESC LIMIT 1')
	sku=$("$bin" mirror query --no-headers "SELECT sku FROM submissions WHERE coalesce(sku, '') <> '' GROUP BY sku ORDER BY count(*) DESC LIMIT 1")
	since=$("$bin" mirror query --no-headers "SELECT substr(max(created_at), 1, 10) FROM submissions")
	# The floor of any answer: starting the process (on a loaded machine,
	# most of every figure below).
	echo "$1 answer version $(median_ms "$bin" --version)"
	echo "$1 answer demand-product $(median_ms "$bin" bis demand --offline -o json)"
	echo "$1 answer demand-variant $(median_ms "$bin" bis demand --by variant --offline -o json)"
	echo "$1 answer find-email $(median_ms "$bin" bis find --email "$email" --offline -o json)"
	echo "$1 answer find-phone $(median_ms "$bin" bis find --phone "$phone" --offline -o json)"
	echo "$1 answer find-variant $(median_ms "$bin" bis find --variant-id "$variant" --offline -o json)"
	echo "$1 answer find-sku $(median_ms "$bin" bis find --sku "$sku" --offline -o json)"
	echo "$1 answer find-since $(median_ms "$bin" bis find --since "$since" --offline -o json)"
	echo "$1 answer report $(median_ms "$bin" bis report --offline)"
}

# one_run NAME BIN: the figures of one build in one run.
one_run() {
	local name=$1 bin=$2 path
	if wanted list; then
		fresh "$name-list"
		echo "$name list $(timed sh -c "\"$bin\" bis list --all -o ndjson > /dev/null")"
	fi
	fresh "$name-sync"
	echo "$name sync $(timed "$bin" mirror sync bis -q)"
	path=$("$bin" mirror path)
	if wanted size; then
		local size=$(($(stat -c %s "$path") + $(stat -c %s "$path-wal" 2>/dev/null || echo 0)))
		cp "$path" "$work/copy.db"
		python3 -c 'import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute("VACUUM"); c.close()' "$work/copy.db"
		echo "$name size $(size_mib "$size") $(size_mib "$(stat -c %s "$work/copy.db")")"
		rm -f "$work/copy.db"
	fi
	if [[ $run == 1 ]] && wanted answers; then answers "$name" "$bin"; fi
	if wanted full; then echo "$name full $(timed "$bin" mirror sync bis --full -q)"; fi
	if wanted export; then
		fresh "$name-export"
		echo "$name export $(timed "$bin" bis export --file "$work/export.csv" -q)"
		rm -f "$work/export.csv"
	fi
	rm -rf "${work:?}/$name-sync"
}

read -r -a bins <<<"$BENCH_BINS"
echo "# $rows submissions, $runs runs; $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
serve
for ((run = 1; run <= runs; run++)); do
	for b in "${bins[@]}"; do one_run "${b%%=*}" "${b#*=}"; done
done | tee "$work/lines"
echo "# medians (seconds, KiB, MiB, ms); load $(cut -d' ' -f1-3 /proc/loadavg)"
print_medians "$work/lines"
