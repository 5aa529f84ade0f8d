#!/usr/bin/env bash
# The main job on its embedded default.  For now (the arithmetic milestone)
# it builds cuzk in Release and runs the micro-benchmarks; later milestones
# start the daemon on built-in circuits and print s/proof.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
scripts/build.sh release
exec build/release/cuzk-bench micro "$@"
