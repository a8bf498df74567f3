#!/usr/bin/env bash
# CI for the protobuf adapter, its own Go module (the core module must not
# depend on protobuf). Installs protoc (Debian's protobuf-compiler) when
# absent, checks the generated code is current (go generate, then no diff),
# then runs .ci/module.sh's steps.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
if ! command -v protoc >/dev/null; then
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
  $SUDO apt-get update -qq && $SUDO apt-get install -y -qq protobuf-compiler >/dev/null
fi
protoc --version
(
  cd "$here"
  export GOWORK=off GOFLAGS="${GOFLAGS:--buildvcs=false}"
  go generate ./...
  # descriptors.binpb holds protoc's source info, byte-stable for one protoc.
  if ! git diff --quiet --exit-code -- . 2>/dev/null; then
    echo "generated code is not current: run go generate ./... in adapters/protobuf"
    git diff --stat -- .
    exit 1
  fi
  if [ -n "$(git ls-files --others --exclude-standard -- . 2>/dev/null)" ]; then
    echo "go generate wrote files not committed:"; git ls-files --others --exclude-standard -- .
    exit 1
  fi
)
exec bash "$here/../../.ci/module.sh" "adapters/protobuf"
