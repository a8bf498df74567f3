#!/usr/bin/env bash
# CI for the OpenAPI adapter, its own Go module (the core module must not
# depend on an OpenAPI library). The tests on GitHub's description and
# against Prism install their npm packages through internal/npmtest.
# .ci/run calls it; it runs from any directory (the steps: .ci/module.sh).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
exec bash "$here/../../.ci/module.sh" "adapters/openapi"
