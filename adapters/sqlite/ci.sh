#!/usr/bin/env bash
# CI for the SQLite task store, its own Go module (the core module must not
# depend on SQLite). .ci/run calls it; it runs from any directory.
set -euo pipefail
# Test the module standalone, as its users get it, not through the root go.work.
export GOWORK=off
cd "$(dirname "$0")"
export PATH="$PATH:/usr/local/go/bin:$(go env GOPATH)/bin"
export GOFLAGS="${GOFLAGS:--buildvcs=false}"

step() { printf '\n== adapters/sqlite: %s (%ss)\n' "$1" "$SECONDS"; }

step "modules"
go mod download
go mod verify

step "gofmt"
unformatted=$(gofmt -l .)
if [ -n "$unformatted" ]; then
  echo "gofmt would change:"; echo "$unformatted"; exit 1
fi

step "go directive"
# The repository's rule, shared by every module: the go directive is the
# oldest Go release the Go team still supports, no dependency needs more.
bash ../../.ci/godirective.sh adapters/sqlite

step "go mod tidy"
go mod tidy -diff

step "go vet"
go vet ./...

step "staticcheck"
go run honnef.co/go/tools/cmd/staticcheck@v0.8.2 ./...

step "tests: go test -race ./..."
go test -race -count=1 ./...
