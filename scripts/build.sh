#!/usr/bin/env bash
# Configures and builds one preset: scripts/build.sh [release|clang|debug|asan|tsan|fuzz] [cmake -D...]
# Warnings are errors in every build made through this script.
set -euo pipefail
cd "$(dirname "$0")/.."
preset=${1:-release}
shift || true
extra=()
case "$preset" in
    clang|asan|tsan|fuzz) extra+=(-DCMAKE_C_COMPILER=clang) ;;
esac
cmake --preset "$preset" -DCZ_WERROR=ON -DCZ_REQUIRE_DAEMON=ON "${extra[@]}" "$@" >/dev/null
cmake --build "build/$preset" -j"$(nproc)"
