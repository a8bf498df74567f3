#!/usr/bin/env bash
# CI for the Redis adapter, its own Go module (the core module must not
# depend on a Redis client). Its tests start their own redis-server on
# loopback (.ci/run installs it); MCPGEN_REQUIRE_REDIS=1 makes its absence a
# failure instead of a skip.
# .ci/run calls it; it runs from any directory (the steps: .ci/module.sh).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
export MCPGEN_REQUIRE_REDIS=1
exec bash "$here/../../.ci/module.sh" "adapters/redis"
