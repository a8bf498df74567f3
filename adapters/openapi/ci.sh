#!/usr/bin/env bash
# CI for the OpenAPI adapter, its own Go module (the core module must not
# depend on an OpenAPI library). The tests on GitHub's description and
# against Prism install their npm packages through internal/npmtest.
# .ci/run calls it; it runs from any directory (the steps: .ci/module.sh).
# TestGitHub registers 1,223 operations and TestGitHubQuick checks its
# schemas: without -race (5 minutes with it), after the module's steps.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
bash "$here/../../.ci/module.sh" "adapters/openapi" -race -count=1 -skip '^TestGitHub(Quick)?$' ./...
cd "$here" && GOWORK=off go test -count=1 -run '^TestGitHub(Quick)?$' .
