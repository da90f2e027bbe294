#!/usr/bin/env bash
# Shows that bulk input is streamed: the peak memory of a --from-file dry
# run does not grow with the number of rows. For each number of rows in
# ROWS (default: 100,000 and 1,000,000) it generates, in a temp dir:
#
#   rules.csv     valid coming-soon rules   comingsoon create --from-file --dry-run
#   rules.yaml    the same rules as a YAML list of mappings, the same command
#   subs.csv      valid submissions         bis create --from-file --dry-run (--sandbox form)
#   bad-rules.csv every row invalid         comingsoon create --from-file (exit 2)
#   bad-subs.csv  every row invalid         bis create --from-file (exit 2)
#
# and prints, per command, the median over RUNS runs of the peak RSS
# (/usr/bin/time -v, else VmHWM sampled from /proc) and the largest Go heap
# the runtime reported (GODEBUG=gctrace=1: the heap at the end of marking,
# and what stayed live after the collection). The peak RSS of a Go process
# on a busy machine jumps by tens of MB between runs (the collector's
# workers wait for a CPU while the reader allocates); the live heap is the
# figure that shows what is kept per row.
#
# Usage: scripts/bench-bulk.sh [RUNS]   (RUNS defaults to 3)
#   ROWS="10000 100000 1000000"  the file sizes to measure
#   JOBS=yaml                    only the commands whose line contains this
#   STORECTL_BIN=path            measure that build (another commit's, for a
#                                before/after) instead of building this tree
set -euo pipefail

runs=${1:-3}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# shellcheck source=scripts/bench-lib.sh
source "$root/scripts/bench-lib.sh"
bin=${STORECTL_BIN:-$work/storectl}
if [[ -z ${STORECTL_BIN:-} ]]; then
	build_release "$bin"
fi
export HOME=$work/home XDG_CONFIG_HOME=$work/home/.config XDG_STATE_HOME=$work/home/.local/state \
	XDG_CACHE_HOME=$work/home/.cache DBUS_SESSION_BUS_ADDRESS=unix:path=$work/no-dbus TZ=UTC

gen() { # ROWS DIR
	awk -v n="$1" 'BEGIN { print "name,start_date,apply_to"; for (i = 1; i <= n; i++) printf "Launch %d,2026-11-02 09:00:00,all\n", i }' >"$2/rules.csv"
	awk -v n="$1" 'BEGIN { for (i = 1; i <= n; i++) printf "- name: Launch %d\n  start_date: 2026-11-02 09:00:00\n  apply_to: all\n", i }' >"$2/rules.yaml"
	awk -v n="$1" 'BEGIN { print "name,start_date,apply_to"; for (i = 1; i <= n; i++) printf "Launch %d,2026-02-30,all\n", i }' >"$2/bad-rules.csv"
	awk -v n="$1" 'BEGIN { print "email,product-id,variant-id,Your name,size_worn,accept_terms"; for (i = 1; i <= n; i++) printf "c%d@example.com,8001234560001,45001234560001,Ann,S,true\n", i }' >"$2/subs.csv"
	awk -v n="$1" 'BEGIN { print "email,product-id,variant-id,Your name,size_worn,accept_terms"; for (i = 1; i <= n; i++) print ",8001234560001,45001234560001,Ann,S,true" }' >"$2/bad-subs.csv"
}

# peak_kb CMD...: the peak RSS in kB of one run (stdout discarded).
peak_kb() {
	if [[ -x /usr/bin/time ]]; then
		/usr/bin/time -f '%M' -o "$work/rss" "$@" >/dev/null 2>/dev/null || true
		tail -n 1 "$work/rss"
		return
	fi
	"$@" >/dev/null 2>/dev/null &
	local pid=$! hwm=0 v
	while kill -0 "$pid" 2>/dev/null; do
		v=$(awk '/VmHWM/ { print $2 }' "/proc/$pid/status" 2>/dev/null || true)
		[[ -n $v ]] && hwm=$v
		sleep 0.05
	done
	wait "$pid" || true
	echo "$hwm"
}

# heap CMD...: "PEAK LIVE" in MB, the largest heap at the end of a marking
# and the largest heap left live, from the runtime's GC trace.
heap() {
	GODEBUG=gctrace=1 "$@" 2>&1 >/dev/null | awk '/^gc [0-9]+ @/ {
		for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+->[0-9]+->[0-9]+$/) { split($i, a, "->"); if (a[2] > p) p = a[2]; if (a[3] > l) l = a[3] }
	} END { print p + 0, l + 0 }'
}

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

printf '%-44s %10s %16s %14s %s\n' command rows 'peak RSS (MiB)' 'Go heap (MB)' 'RSS of each run (MiB)'
for rows in ${ROWS:-100000 1000000}; do
	dir=$work/$rows
	mkdir -p "$dir"
	gen "$rows" "$dir"
	for job in "comingsoon create --from-file rules.csv --dry-run" \
		"comingsoon create --from-file rules.yaml --dry-run" \
		"bis create --from-file subs.csv --dry-run" \
		"comingsoon create --from-file bad-rules.csv" \
		"bis create --from-file bad-subs.csv"; do
		[[ $job == *"${JOBS:-}"* ]] || continue
		read -r -a args <<<"$job"
		cmd=("$bin" --sandbox "${args[@]}")
		all=()
		for _ in $(seq 1 "$runs"); do all+=("$(cd "$dir" && peak_kb "${cmd[@]}")"); done
		med=$(printf '%s\n' "${all[@]}" | median)
		read -r peak live < <(cd "$dir" && heap "${cmd[@]}")
		each=$(printf '%s\n' "${all[@]}" | awk '{ printf "%s%.1f", (NR > 1 ? " " : ""), $1 / 1024 }')
		printf '%-44s %10s %16.1f %14s %s\n' "$job" "$rows" "$(awk -v k="$med" 'BEGIN { print k / 1024 }')" "$peak/$live" "$each"
	done
done
