#!/usr/bin/env bash
# CI for the cluster tests, their own Go module: a real redis-server, three
# mcpgen-demo replicas and HAProxy on loopback (see cluster_test.go).
# .ci/run installs redis-server and haproxy first.
set -euo pipefail
export GOWORK=off
cd "$(dirname "$0")"
export PATH="$PATH:/usr/local/go/bin:$(go env GOPATH)/bin"
export GOFLAGS="${GOFLAGS:--buildvcs=false}"
name=cluster

step() { printf '\n== examples/%s: %s (%ss)\n' "$name" "$1" "$SECONDS"; }

step "modules"
go mod download
go mod verify

step "gofmt"
unformatted=$(gofmt -l .)
if [ -n "$unformatted" ]; then
  echo "gofmt would change:"; echo "$unformatted"; exit 1
fi

# The go directive rule: .ci/godirective.sh, run by .ci/run on every module.

step "go mod tidy"
go mod tidy -diff

step "go vet"
go vet ./...

step "staticcheck"
go run honnef.co/go/tools/cmd/staticcheck@v0.8.2 ./...

step "tests: the cluster on loopback (not -race: the replicas are separate processes)"
MCPGEN_REQUIRE_CLUSTER=1 go test -count=1 -timeout 10m ./...
