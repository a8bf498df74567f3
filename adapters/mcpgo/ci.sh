#!/usr/bin/env bash
# CI for the mcp-go adapter, its own Go module (the core module must not
# depend on mcp-go). .ci/run calls it; it runs from any directory.
set -euo pipefail
# Test the module standalone, as its users get it, not through the root go.work.
export GOWORK=off
cd "$(dirname "$0")"
export PATH="$PATH:/usr/local/go/bin:$(go env GOPATH)/bin"
export GOFLAGS="${GOFLAGS:--buildvcs=false}"

step() { printf '\n== adapters/mcpgo: %s (%ss)\n' "$1" "$SECONDS"; }

step "modules"
go mod download
go mod verify

step "gofmt"
unformatted=$(gofmt -l .)
if [ -n "$unformatted" ]; then
  echo "gofmt would change:"; echo "$unformatted"; exit 1
fi

step "go directive"
# The adapter supports Go 1.25+, like the core module: its go.mod says
# 'go 1.25.0', and no dependency may ask for more.
grep -qx 'go 1.25.0' go.mod || { echo "go.mod must say 'go 1.25.0':"; grep '^go ' go.mod; exit 1; }
# Listing every module of the graph adds go.sum lines: list from a copy.
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cp go.mod go.sum "$tmp/"
too_new=""
n=0
while IFS= read -r gomod; do
  n=$((n + 1))
  v=$(awk '$1 == "go" { print $2; exit }' "$gomod")
  [ -z "$v" ] && continue
  if [ "$(printf '%s\n%s\n' "$v" 1.25.0 | sort -V | tail -n1)" != 1.25.0 ]; then
    too_new="$too_new$gomod: go $v"$'\n'
  fi
done < <(go mod download -modfile="$tmp/go.mod" -json all | sed -n 's/^[[:space:]]*"GoMod": "\(.*\)",\{0,1\}$/\1/p')
if [ -n "$too_new" ]; then
  echo "dependencies that need a Go newer than 1.25.0:"; printf '%s' "$too_new"; exit 1
fi
[ "$n" -gt 10 ] || { echo "found only $n dependencies' go.mod files"; exit 1; }
echo "$n dependencies, none needs a Go newer than 1.25.0"

step "go mod tidy"
go mod tidy -diff

step "go vet"
go vet ./...

step "staticcheck"
go run honnef.co/go/tools/cmd/staticcheck@v0.8.2 ./...

step "tests: go test -race ./..."
go test -race -count=1 ./...
