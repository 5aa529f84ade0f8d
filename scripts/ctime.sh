#!/usr/bin/env bash
# Runs the constant-time check: secret inputs marked undefined under
# valgrind memcheck; any secret-dependent branch or index fails the run.
#   scripts/ctime.sh [BUILD_DIR]   (default build/release)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-build/release}/ctime_test
if [ ! -x "$bin" ]; then
    echo "ctime: $bin not built (valgrind headers missing?)" >&2
    exit 1
fi
valgrind --error-exitcode=1 --track-origins=yes -q "$bin"
echo "ctime: no secret-dependent branches or memory indices found"
