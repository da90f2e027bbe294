#!/usr/bin/env bash
# .ci/mcp-client/run.sh: a real MCP client from the npm registry (the
# official TypeScript SDK, pinned in package-lock.json) drives the real
# storectl binary's `--sandbox mcp` over stdio: initialize, tools/list, a
# call of each read tool. It fails, never skips: without Node.js it installs
# it (apt), and without the registry `npm ci` fails.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)

if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq nodejs npm >/dev/null
fi
echo "node $(node --version), npm $(npm --version)"

work=$(mktemp -d "${TMPDIR:-/tmp}/storectl-mcp-client.XXXXXX")
trap 'rm -rf "$work"' EXIT
(cd "$root" && CGO_ENABLED=0 GOTOOLCHAIN=local go build -o "$work/storectl" ./cmd/storectl)
(cd "$here" && npm ci --no-audit --no-fund --loglevel=error)

# A home of its own: the sandbox's state and mirror, no keyring, no pacing.
export HOME="$work/home" XDG_CONFIG_HOME="$work/home/.config" XDG_STATE_HOME="$work/home/.local/state" \
  XDG_CACHE_HOME="$work/home/.cache" XDG_DATA_HOME="$work/home/.local/share" \
  DBUS_SESSION_BUS_ADDRESS="unix:path=$work/no-dbus" STORECTL_RATE_LIMIT=0 NO_COLOR=1
unset STORECTL_PROFILE STORECTL_SHOP_TOKEN STORECTL_CATALOG_TOKEN STORECTL_BASE_URL STORECTL_CATALOG_URL STORECTL_MIRROR_URL
mkdir -p "$HOME"
"$work/storectl" --sandbox mirror sync -q
node "$here/client.mjs" "$work/storectl"
