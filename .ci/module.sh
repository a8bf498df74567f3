#!/usr/bin/env bash
# CI for one of the repository's nested Go modules (adapters/*, examples/cluster),
# standalone (GOWORK=off), the way its users get it: modules verified, gofmt, the
# go directive rule, go mod tidy, go vet, staticcheck, then go test with the
# arguments given (default: -race -count=1 ./...).
#
#   bash .ci/module.sh adapters/mcpgo
#   bash .ci/module.sh examples/cluster -count=1 -timeout 10m ./...
set -euo pipefail
[ "$#" -ge 1 ] || { echo "usage: $0 DIR [go test args...]" >&2; exit 2; }
root="$(cd "$(dirname "$0")/.." && pwd)"
dir="$1"; shift
[ "$#" -gt 0 ] || set -- -race -count=1 ./...
export GOWORK=off
export PATH="$PATH:/usr/local/go/bin:$(go env GOPATH)/bin"
export GOFLAGS="${GOFLAGS:--buildvcs=false}"
cd "$root/$dir"

step() { printf '\n== %s: %s (%ss)\n' "$dir" "$1" "$SECONDS"; }

step "modules"
go mod download
go mod verify

step "gofmt"
unformatted=$(gofmt -l .)
if [ -n "$unformatted" ]; then
  echo "gofmt would change:"; echo "$unformatted"; exit 1
fi

step "go directive"
bash "$root/.ci/godirective.sh" "$dir"

step "go mod tidy"
go mod tidy -diff

step "go vet"
go vet ./...

step "staticcheck"
go run honnef.co/go/tools/cmd/staticcheck@v0.8.2 ./...

step "tests: go test $*"
go test "$@"
