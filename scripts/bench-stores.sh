#!/usr/bin/env bash
# scripts/bench-stores.sh (also a row of `make bench`): `--all-profiles
# mirror sync bis` of 4 stores against `sandbox serve --throttle 30/3s`,
# each profile with its own token (shop_sandbox_demo_2…5, the same demo
# store under four throttle budgets), against one store synced alone: the
# ratio should be near 1 (stores run concurrently, each at its own pace),
# with no 429.
#
# Usage: scripts/bench-stores.sh [STORECTL_BINARY]   (builds one when none)
# Environment: BENCH_SUBMISSIONS (default 1500: 100 pages a store).
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/bench-lib.sh
source scripts/bench-lib.sh
export GOTOOLCHAIN=${GOTOOLCHAIN:-local}
work=$(mktemp -d "${TMPDIR:-/tmp}/storectl-bench-stores.XXXXXX")
server=
cleanup() {
  [ -n "$server" ] && kill "$server" 2>/dev/null && wait "$server" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
bin=${1:-}
if [ -z "$bin" ]; then
  bin="$work/storectl"
  build_release "$bin"
fi
subs=${BENCH_SUBMISSIONS:-1500}
throttle=30/3s

while IFS= read -r var; do unset "$var"; done < <(compgen -e | grep '^STORECTL_' || true)
export STORECTL_RATE_LIMIT=$throttle NO_COLOR=1 DBUS_SESSION_BUS_ADDRESS="unix:path=$work/no-dbus"

"$bin" sandbox serve --memory --submissions "$subs" --addr 127.0.0.1:0 --url-file "$work/url" \
  --throttle "$throttle" --log "$work/requests.log" >/dev/null 2>&1 &
server=$!
until [ -s "$work/url" ]; do sleep 0.05; done
url=$(cat "$work/url")

# home NAME TOKEN... logs a fresh home in to one profile per token.
home() {
  local h="$work/$1"; shift
  local i=0
  for token in "$@"; do
    i=$((i + 1))
    echo "$token" | HOME="$h" XDG_CONFIG_HOME="$h/config" XDG_STATE_HOME="$h/state" XDG_DATA_HOME="$h/data" XDG_CACHE_HOME="$h/cache" \
      "$bin" auth login --profile "store$i" --base-url "$url" --shop-token-stdin --insecure-storage >/dev/null 2>&1
  done
}

# timed NAME ARGS... runs storectl in home NAME and prints the wall time in ms.
timed() {
  local h="$work/$1"; shift
  local t0=${EPOCHREALTIME/./}
  HOME="$h" XDG_CONFIG_HOME="$h/config" XDG_STATE_HOME="$h/state" XDG_DATA_HOME="$h/data" XDG_CACHE_HOME="$h/cache" \
    "$bin" "$@" >/dev/null 2>"$work/$1.err" || { cat "$work/$1.err" >&2; exit 1; }
  echo $(((${EPOCHREALTIME/./} - t0) / 1000))
}

# The login checks spent a little of each token's window: let it pass.
home solo shop_sandbox_demo_5
home four shop_sandbox_demo_2 shop_sandbox_demo_3 shop_sandbox_demo_4 shop_sandbox_demo_6
sleep 3
one=$(timed solo -p store1 mirror sync bis)
four=$(timed four --all-profiles mirror sync bis)
pages=$(grep -c '^GET /shop-api/back-in-stock/list' "$work/requests.log" || true)
too_many=$(grep -cE '^GET [^ ]+ 429' "$work/requests.log" || true)
awk -v one="$one" -v four="$four" -v pages="$pages" -v tm="$too_many" 'BEGIN {
  printf "4 stores at once: %.2f s; one store alone: %.2f s; ratio %.2f; %d list pages in all; %d × 429\n", four / 1000, one / 1000, four / one, pages, tm }'
