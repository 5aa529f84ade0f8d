#!/usr/bin/env bash
# Side-by-side Groth16 proving: cuzk against `snarkjs groth16 prove` on the
# same .zkey and .wtns (BENCHMARKS.md).  The circuit is
# tests/oracle/chain.circom with N steps (2N + 2 constraints and 4 input
# rows, so N = 2^(LOG-1) - 3 fills a 2^LOG domain); the key comes from cuzk's
# INSECURE seeded setup written as a .zkey (snarkjs's own powers-of-tau
# preparation takes hours at 2^18 on two cores), which both provers read.
#
#   scripts/bench-snarkjs.sh LOG [THREADS]     e.g. 16, 18
# RUNS (default 3): how many times snarkjs proves (a 2^20 run takes minutes).
# Needs a release build (scripts/build.sh release; BENCH=path picks another
# cuzk-bench) and npm ci.
set -euo pipefail
cd "$(dirname "$0")/.."
log=${1:?usage: scripts/bench-snarkjs.sh LOG [THREADS]}
threads=${2:-$(nproc)}
bench=${BENCH:-$PWD/build/release/cuzk-bench}
bin=$PWD/node_modules/.bin
[ -x "$bench" ] || { echo "bench-snarkjs: build first: scripts/build.sh release" >&2; exit 1; }
[ -x "$bin/snarkjs" ] || { echo "bench-snarkjs: run npm ci" >&2; exit 1; }
steps=$(((1 << (log - 1)) - 3))
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
sed "s/Chain(500)/Chain($steps)/" tests/oracle/chain.circom >"$work/chain.circom"
cd "$work"

echo "bench-snarkjs: chain with $steps steps ($((2 * steps + 2)) constraints), $threads thread(s)"
"$bin/circom2" chain.circom --prime bls12381 --r1cs --wasm -o . >/dev/null
echo '{"x": "3", "p": "11", "k": "7"}' >input.json
"$bin/snarkjs" wtns calculate chain_js/chain.wasm input.json chain.wtns
"$bench" setup --r1cs chain.r1cs --zkey-out chain.zkey --threads "$threads"
"$bin/snarkjs" zkey export verificationkey chain.zkey vk.json >/dev/null

# a fresh checked-keys store: the first command checks the key, the next
# ones find it by digest (as a user's second proof with the same key)
export CUZK_CHECKED_KEYS=$work/checked-keys
for run in "first (key checked, remembered)" "second (key known by digest)"; do
    echo "--- cuzk-bench prove as a user runs it (default options, the whole command): $run"
    s=$(date +%s.%N)
    "$bench" prove --zkey chain.zkey --wtns chain.wtns --proof-out ours.json --public-out public.json
    e=$(date +%s.%N)
    awk -v a="$s" -v b="$e" -v r="${run%% *}" \
        'BEGIN { printf "cuzk-bench prove, %s run: %.3f s (wall, whole command)\n", r, b - a }'
done
echo "--- cuzk-bench prove phases (median of 3 after a warm-up, $threads thread(s))"
"$bench" prove --zkey chain.zkey --wtns chain.wtns --threads "$threads" --reps 3
echo "--- the same key read without its subgroup checks (as snarkjs reads it)"
"$bench" prove --zkey chain.zkey --wtns chain.wtns --threads "$threads" --trusted-key |
    grep -E "load key|  proof "

runs=${RUNS:-3}
echo "--- snarkjs groth16 prove ($runs runs, wall seconds each)"
for _ in $(seq "$runs"); do
    s=$(date +%s.%N)
    "$bin/snarkjs" groth16 prove chain.zkey chain.wtns theirs.json public2.json
    e=$(date +%s.%N)
    awk -v a="$s" -v b="$e" 'BEGIN { printf "snarkjs prove: %.3f s\n", b - a }'
done
"$bench" verify --vk vk.json --proof theirs.json --public public2.json
