#!/usr/bin/env bash
# Runs the whole test suite: installs dependencies, builds Release (gcc),
# ASan+UBSan (clang) and TSan (clang), runs every test in each (the
# @noble/curves cross-check on fresh random inputs and the snarkjs/circom2
# interop test in the first two), then
# the constant-time check under valgrind and a short fuzzing run.
#
#   scripts/test.sh            everything
#   CZ_TEST_SEED=N scripts/test.sh   replay one seed in every test program
#   CZ_FUZZ_SECONDS=N          fuzzing time per harness (default 20)
set -euo pipefail
cd "$(dirname "$0")/.."
export CTEST_OUTPUT_ON_FAILURE=1
jobs=$(nproc)

step() { printf '\n=== %s (%s)\n' "$1" "$(date -u +%H:%M:%S)"; }

step "dependencies"
scripts/deps.sh

step "release build (gcc, -Werror)"
scripts/build.sh release
step "release tests"
ctest --test-dir build/release -j"$jobs"

step "ASan+UBSan build (clang, -Werror)"
scripts/build.sh asan
step "ASan+UBSan tests"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    ctest --test-dir build/asan -j"$jobs"

step "ThreadSanitizer build (clang, -Werror)"
scripts/build.sh tsan
step "ThreadSanitizer tests (the oracle cross-check runs in the two builds above)"
TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 ctest --test-dir build/tsan -j"$jobs" -E 'noble|snarkjs|grpc'

step "clang Release build (-Werror)"
scripts/build.sh clang
step "clang Release tests (the porep and snap tests ran in build/release)"
ctest --test-dir build/clang -j"$jobs" -E 'noble|snarkjs|grpc|porep|snap'

step "constant-time check (valgrind), gcc and clang code"
scripts/ctime.sh build/release
scripts/ctime.sh build/clang

if [ -x scripts/fuzz.sh ]; then
    step "fuzzing (${CZ_FUZZ_SECONDS:-20} s per harness)"
    scripts/fuzz.sh "${CZ_FUZZ_SECONDS:-20}"
fi

step "all tests passed"
