#!/usr/bin/env bash
# CI smoke run of the comparison: every test (including the equivalence
# checks) and every benchmark once (-benchtime=1x), so they keep compiling
# and running. Not a measurement: see run.sh.
set -euo pipefail
cd "$(dirname "$0")"
go test -run . -bench . -benchtime=1x -timeout 10m ./...
