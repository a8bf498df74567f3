#!/usr/bin/env bash
# CI for the Redis adapter, its own Go module (the core module must not
# depend on a Redis client). .ci/run calls it; it runs from any directory.
# Its tests start their own redis-server on loopback; .ci/run installs it.
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

step "go directive"
# No dependency may need a Go newer than this module's go directive.
want=$(awk '$1 == "go" { print $2; exit }' go.mod)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cp go.mod go.sum "$tmp/"
too_new=""
while IFS= read -r gomod; do
  v=$(awk '$1 == "go" { print $2; exit }' "$gomod")
  [ -z "$v" ] && continue
  if [ "$(printf '%s\n%s\n' "$v" "$want" | sort -V | tail -n1)" != "$want" ]; then
    too_new="$too_new$gomod: go $v"$'\n'
  fi
done < <(go mod download -modfile="$tmp/go.mod" -json all | sed -n 's/^[[:space:]]*"GoMod": "\(.*\)",\{0,1\}$/\1/p')
if [ -n "$too_new" ]; then
  echo "dependencies that need a Go newer than $want:"; printf '%s' "$too_new"; exit 1
fi

step "go mod tidy"
go mod tidy -diff

step "go vet"
go vet ./...

step "staticcheck"
go run honnef.co/go/tools/cmd/staticcheck@v0.8.2 ./...

step "tests: go test -race ./... (real redis-server)"
MCPGEN_REQUIRE_REDIS=1 go test -race -count=1 ./...
