#!/usr/bin/env bash
# scripts/bench-stores.sh (also a row of `make bench`): reads over STORES
# profiles at once against one `sandbox serve`, each profile with its own
# token (shop_sandbox_demo_2, _3, …: the same demo store under as many
# throttle budgets), against one store read alone, with the default
# --concurrency:
#   - `--all-profiles mirror sync bis` (a first sync of every store), and
#   - `--all-profiles bis list --all -o json`.
# Each line gives the wall time of STORES stores and of one store alone,
# their ratio (near 1: the stores run at once, each at its own pace), the
# peak RSS of the run over STORES stores, and the 429s the sandbox sent.
#
# Usage: scripts/bench-stores.sh [STORES] [STORECTL_BINARY]   (4 stores; builds a binary when none)
# Environment: BENCH_SUBMISSIONS (default 1500: 100 pages a store),
# BENCH_THROTTLE (default 30/10s: slow enough that the CPU, shared with the
# sandbox, is not what is measured).
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/bench-lib.sh
source scripts/bench-lib.sh
export GOTOOLCHAIN=${GOTOOLCHAIN:-local}
stores=${1:-4}
bin=${2:-}
work=$(mktemp -d "${TMPDIR:-/tmp}/storectl-bench-stores.XXXXXX")
server=
cleanup() {
  [ -n "$server" ] && kill "$server" 2>/dev/null && wait "$server" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
if [ -z "$bin" ]; then
  bin="$work/storectl"
  build_release "$bin"
fi
subs=${BENCH_SUBMISSIONS:-1500}
throttle=${BENCH_THROTTLE:-30/10s}
window=${throttle#*/}

while IFS= read -r var; do unset "$var"; done < <(compgen -e | grep '^STORECTL_' || true)
export STORECTL_RATE_LIMIT=$throttle NO_COLOR=1 DBUS_SESSION_BUS_ADDRESS="unix:path=$work/no-dbus"

"$bin" sandbox serve --memory --submissions "$subs" --addr 127.0.0.1:0 --url-file "$work/url" \
  --throttle "$throttle" --log "$work/requests.log" >/dev/null 2>&1 &
server=$!
until [ -s "$work/url" ]; do sleep 0.05; done
url=$(cat "$work/url")

# at NAME CMD... runs CMD with home NAME.
at() {
  local h="$work/$1"; shift
  HOME="$h" XDG_CONFIG_HOME="$h/config" XDG_STATE_HOME="$h/state" XDG_DATA_HOME="$h/data" XDG_CACHE_HOME="$h/cache" "$@"
}

# home NAME FIRST COUNT logs a fresh home in to COUNT profiles, with the
# tokens numbered from FIRST.
home() {
  local i
  for ((i = 0; i < $3; i++)); do
    echo "shop_sandbox_demo_$(($2 + i))" | at "$1" "$bin" auth login --profile "store$((i + 1))" --base-url "$url" \
      --shop-token-stdin --insecure-storage >/dev/null 2>&1
  done
}

# run NAME ARGS... prints "seconds peak_rss_kb" of storectl ARGS in home NAME.
run() {
  local name=$1; shift
  at "$name" timed "$bin" "$@"
}

# too_many is the count of 429s the sandbox sent so far.
too_many() { grep -cE '^GET [^ ]+ 429' "$work/requests.log" || true; }

# The logins' checks spent a little of each token's window: let it pass
# before each measured run, so that every one starts with a full window.
home solo 2 1
home many 3 "$stores"
settle() { sleep "$(awk -v w="${window%s}" 'BEGIN { print w + 1 }')"; }

# line WHAT SOLO MANY 429S prints one result.
line() {
  awk -v what="$1" -v n="$stores" -v solo="$2" -v many="$3" -v tm="$4" 'BEGIN {
    split(solo, s, " "); split(many, m, " ")
    printf "%s: %d stores %.1f s, one store alone %.1f s, ratio %.2f; peak RSS %.0f MiB (one store: %.0f MiB); %d × 429\n",
      what, n, m[1], s[1], m[1] / s[1], m[2] / 1024, s[2] / 1024, tm }'
}

before=$(too_many)
settle
solo=$(run solo -p store1 mirror sync bis)
settle
many=$(run many --all-profiles mirror sync bis)
line "mirror sync bis" "$solo" "$many" $(($(too_many) - before))

before=$(too_many)
settle
solo=$(run solo -p store1 bis list --all -o json)
settle
many=$(run many --all-profiles bis list --all -o json)
line "bis list --all -o json" "$solo" "$many" $(($(too_many) - before))
