#!/usr/bin/env bash
# CI for the OpenTelemetry adapter, its own Go module (the core module must
# not depend on OpenTelemetry). .ci/run calls it; it runs from any directory.
set -euo pipefail
export GOWORK=off
cd "$(dirname "$0")"
export PATH="$PATH:/usr/local/go/bin:$(go env GOPATH)/bin"
export GOFLAGS="${GOFLAGS:--buildvcs=false}"
name=${PWD##*/adapters/}

step() { printf '\n== adapters/%s: %s (%ss)\n' "$name" "$1" "$SECONDS"; }

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

step "tests: go test -race ./..."
go test -race -count=1 ./...
