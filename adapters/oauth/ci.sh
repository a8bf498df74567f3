#!/usr/bin/env bash
# CI for the OAuth token verifier, its own Go module (the core module must
# not depend on a JWT library).
# .ci/run calls it; it runs from any directory (the steps: .ci/module.sh).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
exec bash "$here/../../.ci/module.sh" "adapters/oauth"
