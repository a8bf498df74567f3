#!/usr/bin/env bash
# Starts a local cluster on loopback: redis-server, three mcpgen-demo
# replicas (stateless 2026-07-28 serving, 2025-era sessions too) and HAProxy
# in front of them. Ctrl-C stops everything. Needs redis-server and haproxy
# (Debian: apt-get install redis-server haproxy). See docs/deploy.md.
#
#   bash examples/cluster/run.sh           # clients use http://127.0.0.1:8080/mcp
#
# Ports: MCPGEN_LB_PORT (8080), replicas on the three ports after it,
# Redis on MCPGEN_REDIS_PORT (6380), the development OAuth issuer on
# MCPGEN_ISSUER_PORT (9000): authorization is on, clients need a token.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
lb=${MCPGEN_LB_PORT:-8080}
rport=${MCPGEN_REDIS_PORT:-6380}
for cmd in redis-server haproxy go; do
  command -v "$cmd" >/dev/null || { echo "run.sh: $cmd is not installed" >&2; exit 1; }
done

work=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT INT TERM

echo "building mcpgen-demo"
(cd "$here/../../cmd/mcpgen-demo/full" && go build -o "$work/mcpgen-demo" .) # -redis, -auth-issuer, issuer

# Tasks must survive a Redis restart (mcpredis.Open refuses a Redis that
# would lose them): the append-only file, fsynced every second. A Redis
# crash loses nothing already written; a crash of the machine loses at most
# the last second of writes (tasks created or changed in it).
redis-server --port "$rport" --bind 127.0.0.1 --save '' --appendonly yes --appendfsync everysec --dir "$work" >"$work/redis.log" 2>&1 &
pids+=($!)

# Authorization on: a development issuer on loopback signs the tokens, and
# every replica verifies them for the load balancer's URL (docs/auth.md).
iport=${MCPGEN_ISSUER_PORT:-9000}
issuer="http://127.0.0.1:$iport"
audience="http://127.0.0.1:$lb/mcp"
"$work/mcpgen-demo" issuer -http "127.0.0.1:$iport" >"$work/issuer.log" 2>&1 &
pids+=($!)
for i in $(seq 50); do
  curl -fsS "$issuer/.well-known/oauth-authorization-server" >/dev/null 2>&1 && break
  sleep 0.2
done

# Every replica seals requestState with the same key.
MCPGEN_STATE_KEY=${MCPGEN_STATE_KEY:-$(head -c32 /dev/urandom | base64)}
export MCPGEN_STATE_KEY
# Three replicas share this machine's cores: each gets its share (GOMAXPROCS),
# as a container's CPU limit would give it (docs/deploy.md).
procs=$(( $(nproc) / 3 )); [ "$procs" -ge 1 ] || procs=1
for i in 1 2 3; do
  port=$((lb + i))
  export "MCPGEN_REPLICA$i=127.0.0.1:$port"
  sleep 0.2 # Redis first
  GOMAXPROCS=${GOMAXPROCS:-$procs} "$work/mcpgen-demo" -http "127.0.0.1:$port" -redis "redis://127.0.0.1:$rport/0" \
    -auth-issuer "$issuer" -auth-audience "$audience" -data "$work/data$i" >"$work/replica$i.log" 2>&1 &
  pids+=($!)
done
export MCPGEN_LB_ADDR="127.0.0.1:$lb"
haproxy -f "$here/haproxy.cfg" -db >"$work/haproxy.log" 2>&1 &
pids+=($!)

for i in $(seq 50); do
  curl -fsS "http://127.0.0.1:$lb/healthz" >/dev/null 2>&1 && break
  sleep 0.2
done
echo "cluster up: http://127.0.0.1:$lb/mcp (replicas on ports $((lb + 1))-$((lb + 3)), Redis on $rport; logs in $work)"
echo "tokens: curl -d grant_type=client_credentials -d 'scope=demo:read demo:write demo:admin' -d resource=$audience $issuer/token"
echo "Ctrl-C stops it."
wait -n "${pids[@]}" || true
echo "a process exited; stopping the cluster" >&2
