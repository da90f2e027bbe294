# scripts/bench-lib.sh: what the scripts/bench* share, sourced after they set
# $work (their scratch directory) and, for median_ms, $answer_runs.

bench_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# build_release OUT builds storectl into OUT (an absolute path) as
# .goreleaser.yaml builds a release: CGO_ENABLED=0, -trimpath, -s -w. The
# figures are then those of the binary users run: a cgo build (the default
# where a C compiler is installed) is dynamically linked and pays the loader,
# libc and its thread set-up at every start (33.3 vs 29.1 ms for --version
# here, 1,069 vs 1,017 page faults).
build_release() {
	(cd "$bench_root" && CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o "$1" ./cmd/storectl)
}

# bench_isolate points storectl at a home of its own under $work, with the
# sandbox's token and pacing off.
bench_isolate() {
	export HOME=$work/home XDG_CONFIG_HOME=$work/home/.config XDG_CACHE_HOME=$work/home/.cache \
		DBUS_SESSION_BUS_ADDRESS=unix:path=$work/no-dbus STORECTL_SHOP_TOKEN=shop_sandbox_demo STORECTL_RATE_LIMIT=0
}

now_us() { echo "${EPOCHREALTIME/./}"; }

# timed CMD... prints "seconds peak_rss_kb" of CMD (its output discarded).
timed() {
	/usr/bin/time -f '%e %M' -o "$work/time" "$@" >/dev/null 2>"$work/err" || { echo "failed: $* $(tail -3 "$work/err")" >&2; exit 1; }
	tail -n 1 "$work/time"
}

# median_ms CMD... prints the median wall time of answer_runs runs of CMD.
median_ms() {
	local i t0 t1
	for ((i = 0; i < answer_runs; i++)); do
		t0=$(now_us)
		"$@" >/dev/null 2>"$work/err" || { echo "failed: $* $(tail -3 "$work/err")" >&2; exit 1; }
		t1=$(now_us)
		echo $((t1 - t0))
	done | sort -n | awk '{ a[NR] = $1 } END { printf "%.1f", a[int((NR + 1) / 2)] / 1000 }'
}

# print_medians FILE prints, per figure of FILE's lines ("build figure
# numbers…", or "build answer name numbers…"), each column's median with its
# range.
print_medians() {
	python3 - "$1" <<'PY'
import collections, statistics, sys
vals = collections.defaultdict(list)
for line in open(sys.argv[1]):
    f = line.split()
    key, nums = (f[:3], f[3:]) if f[1] == "answer" else (f[:2], f[2:])
    vals[" ".join(key)].append([float(x) for x in nums])
for key in sorted(vals):
    cols = list(zip(*vals[key]))
    print(key, "  ".join(f"{statistics.median(c):g} ({min(c):g}–{max(c):g})" for c in cols))
PY
}
