#!/usr/bin/env bash
# CI for the OpenTelemetry adapter, its own Go module (the core module must
# not depend on OpenTelemetry).
# .ci/run calls it; it runs from any directory (the steps: .ci/module.sh).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
exec bash "$here/../../.ci/module.sh" "adapters/otel"
