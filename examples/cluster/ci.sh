#!/usr/bin/env bash
# CI for the cluster tests, their own Go module: a real redis-server, three
# mcpgen-demo replicas and HAProxy on loopback (see cluster_test.go); .ci/run
# installs redis-server and haproxy first. Not -race: the replicas are
# separate processes.
# .ci/run calls it; it runs from any directory (the steps: .ci/module.sh).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
export MCPGEN_REQUIRE_CLUSTER=1
exec bash "$here/../../.ci/module.sh" "examples/cluster" -count=1 -timeout 10m ./...
