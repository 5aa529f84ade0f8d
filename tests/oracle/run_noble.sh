#!/usr/bin/env bash
# Cross-checks cuzk against @noble/curves on fresh random inputs: picks a
# seed, has node write the vectors (tests/oracle/noble_vectors.mjs) into a
# temporary file, and runs the C checker on it.  ctest runs it as
# noble_crosscheck.
#
#   tests/oracle/run_noble.sh PATH/TO/test_noble
#   CZ_TEST_SEED=N    replay a seed (default: a fresh random one)
#   CZ_NOBLE_COUNT=N  cases per op family (default 1000, times CZ_TEST_SCALE)
#   CZ_NOBLE_KEEP=1   keep the vectors file (it is always kept on failure)
set -euo pipefail

# shellcheck source=tests/oracle/args_lib.sh
. "$(dirname "$0")/args_lib.sh"
one_program PATH/TO/test_noble "$@"
bin=$prog
cd "$root"

if ! command -v node >/dev/null 2>&1; then
    echo "run_noble: node is not installed (scripts/deps.sh installs it)" >&2
    exit 1
fi
if [ ! -f node_modules/@noble/curves/package.json ]; then
    echo "run_noble: $root/node_modules/@noble/curves is missing: run npm ci in $root" >&2
    exit 1
fi

seed=${CZ_TEST_SEED:-$(od -An -N8 -tu8 /dev/urandom | tr -d ' ')}
count=$(( ${CZ_NOBLE_COUNT:-1000} * ${CZ_TEST_SCALE:-1} ))
echo "run_noble: seed $seed (replay: CZ_TEST_SEED=$seed $0 $bin)"

vectors=$(mktemp "${TMPDIR:-/tmp}/cuzk-noble.XXXXXX")
keep=${CZ_NOBLE_KEEP:-0}
cleanup() { [ "$keep" = 1 ] || rm -f "$vectors"; }
trap cleanup EXIT

start=$SECONDS
if ! node tests/oracle/noble_vectors.mjs --seed "$seed" --count "$count" --out "$vectors"; then
    echo "run_noble: generating the vectors failed" >&2
    exit 1
fi
gen=$((SECONDS - start))
status=0
"$bin" "$vectors" --seed "$seed" || status=$?
if [ "$status" -ne 0 ]; then
    keep=1
    echo "run_noble: FAILED; vectors kept in $vectors" >&2
fi
echo "run_noble: ${gen} s generating, $((SECONDS - start - gen)) s checking"
exit "$status"
