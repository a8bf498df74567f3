#!/usr/bin/env bash
# CI smoke run of the comparison: every test (including the equivalence
# checks) and every benchmark once (-benchtime=1x), so they keep compiling
# and running. Not a measurement: see run.sh.
set -euo pipefail
# Test the module standalone, as its users get it, not through the root go.work.
export GOWORK=off
cd "$(dirname "$0")"
# The generated registration types (and gentypes' cmd/mcpgen output) are current.
go generate ./...
if ! git diff --quiet -- internal/regtypes internal/gentypes; then
	echo "bench: go generate changed files (commit them):"; git diff --stat -- internal/regtypes internal/gentypes; exit 1
fi
go test -run . -bench . -benchtime=1x -timeout 10m ./...
# The three-server series, once, briefly, on each wire: it builds and serves.
go run ./internal/series -rounds 1 -duration 300ms
go run ./internal/series -wire session -rounds 1 -duration 300ms
go run ./internal/series -wire stdio -rounds 1 -duration 300ms -cold 1
