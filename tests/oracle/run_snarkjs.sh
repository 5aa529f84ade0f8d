#!/usr/bin/env bash
# Interoperability with snarkjs and circom2 (the npm packages pinned in
# package.json), run by ctest as snarkjs_interop:
#   1. circom2 compiles tests/oracle/chain.circom (1,002 constraints) for the
#      bls12381 prime; snarkjs computes the witness of fresh random inputs;
#   2. a snarkjs ceremony: powers of tau 2^10 (new, contribute, prepare
#      phase2), groth16 setup, one phase-2 contribution, verification key;
#   3. cuzk proves from the .zkey and .wtns: `snarkjs groth16 verify`
#      accepts the proof, and cuzk's public.json equals snarkjs's;
#   4. snarkjs proves: cuzk's verifier accepts the proof;
#   5. a changed public input, or a proof with A and C swapped, is rejected
#      by both verifiers;
#   6. cuzk's insecure setup writes a .zkey: snarkjs proves with it and
#      both verify, and cuzk's proof with it verifies in snarkjs;
#   7. the checked-keys store: the first proof checks the key and remembers
#      it, the second skips the checks, --checked-keys none checks again,
#      a malformed store is refused with its line.
#
#   tests/oracle/run_snarkjs.sh PATH/TO/cuzk-bench
#   CZ_TEST_SEED=N   replay the inputs (default: fresh random)
#   CZ_INTEROP_KEEP=1 keep the work directory (always kept on failure)
set -euo pipefail

# shellcheck source=tests/oracle/args_lib.sh
. "$(dirname "$0")/args_lib.sh"
one_program PATH/TO/cuzk-bench "$@"
bench=$prog
bin=$root/node_modules/.bin
for tool in snarkjs circom2; do
    if [ ! -x "$bin/$tool" ]; then
        echo "run_snarkjs: $bin/$tool is missing: run npm ci in $root" >&2
        exit 1
    fi
done

seed=${CZ_TEST_SEED:-$(od -An -N8 -tu8 /dev/urandom | tr -d ' ')}
echo "run_snarkjs: seed $seed (replay: CZ_TEST_SEED=$seed)"
work=$(mktemp -d)
ok=0
cleanup() {
    if [ $ok = 1 ] && [ -z "${CZ_INTEROP_KEEP:-}" ]; then
        rm -rf "$work"
    else
        echo "run_snarkjs: work directory kept: $work" >&2
    fi
}
trap cleanup EXIT
cd "$work"

step() { echo "run_snarkjs: $*"; }
snarkjs() { "$bin/snarkjs" "$@"; }
expect_fail() {
    if "$@" >fail.log 2>&1; then
        echo "run_snarkjs: FAILED: expected a rejection from: $*" >&2
        cat fail.log >&2
        exit 1
    fi
}

step "circom2: compile chain.circom for bls12381"
"$bin/circom2" "$root/tests/oracle/chain.circom" --prime bls12381 --r1cs --wasm -o . >/dev/null
# Random inputs below 2^62 from the seed (node does the arithmetic).
node -e '
let s = BigInt(process.argv[1]) & ((1n << 64n) - 1n);
const next = () => { s = (s * 6364136223846793005n + 1442695040888963407n) & ((1n << 64n) - 1n); return (s >> 2n).toString(); };
console.log(JSON.stringify({x: next(), p: next(), k: next()}));' "$seed" >input.json
snarkjs wtns calculate chain_js/chain.wasm input.json chain.wtns

step "snarkjs: powers of tau 2^10, groth16 setup, phase-2 contribution"
snarkjs powersoftau new bls12381 10 p0.ptau >/dev/null
snarkjs powersoftau contribute p0.ptau p1.ptau -name=cuzk -e="cuzk-$seed" >/dev/null
snarkjs powersoftau prepare phase2 p1.ptau final.ptau >/dev/null
snarkjs groth16 setup chain.r1cs final.ptau c0.zkey >/dev/null
snarkjs zkey contribute c0.zkey chain.zkey -name=cuzk -e="cuzk-zkey-$seed" >/dev/null
snarkjs zkey export verificationkey chain.zkey vk.json >/dev/null

step "cuzk proves from the .zkey; snarkjs verifies"
# the default checked-keys store, inside the work directory
export CUZK_CHECKED_KEYS=$work/store/checked-keys
"$bench" prove --zkey chain.zkey --wtns chain.wtns --proof-out ours.json \
    --public-out ours_public.json 2>prove1.err
snarkjs groth16 verify vk.json ours_public.json ours.json
grep -q "chain.zkey checked, remembered in $CUZK_CHECKED_KEYS" prove1.err
[ "$(wc -l <"$CUZK_CHECKED_KEYS")" = 2 ]

step "the key checked once: skipped the second time, checked again with --checked-keys none"
"$bench" prove --zkey chain.zkey --wtns chain.wtns 2>prove2.err >/dev/null
grep -q "chain.zkey found in $CUZK_CHECKED_KEYS: its subgroup checks were skipped" prove2.err
"$bench" prove --zkey chain.zkey --wtns chain.wtns --checked-keys none 2>prove3.err >/dev/null
if grep -q "checked-keys" prove3.err; then
    echo "run_snarkjs: FAILED: --checked-keys none used a store: $(cat prove3.err)" >&2
    exit 1
fi
expect_fail "$bench" prove --zkey chain.zkey --wtns chain.wtns --trusted-key --checked-keys x
echo garbage >bad-store
expect_fail "$bench" prove --zkey chain.zkey --wtns chain.wtns --checked-keys bad-store
grep -q "bad-store, line 1" fail.log

step "prove refuses options it does not take (verify's --proof / --public)"
expect_fail "$bench" prove --zkey chain.zkey --wtns chain.wtns --proof p.json --public q.json
[ ! -e p.json ] && [ ! -e q.json ]
"$bench" prove --help | grep -q -- "--proof-out"
expect_fail "$bench" verify --vk vk.json --proof ours.json --public ours_public.json --gpu

step "prove --gpu: the CUDA back end's proof verifies in snarkjs, or no device is named"
if "$bench" prove --zkey chain.zkey --wtns chain.wtns --gpu --proof-out gpu.json \
    --public-out gpu_public.json >gpu.log 2>&1; then
    grep -q "GPU back end" gpu.log
    snarkjs groth16 verify vk.json gpu_public.json gpu.json
else
    grep -q "no CUDA device" gpu.log || {
        echo "run_snarkjs: FAILED: prove --gpu: $(cat gpu.log)" >&2
        exit 1
    }
    [ ! -e gpu.json ]
fi

step "snarkjs proves; cuzk verifies"
snarkjs groth16 prove chain.zkey chain.wtns theirs.json public.json
cmp public.json ours_public.json
"$bench" verify --vk vk.json --proof theirs.json --public public.json

step "tampered statements and proofs are rejected by both"
node -e '
const fs = require("fs");
const r = 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001n;
const pub = JSON.parse(fs.readFileSync("public.json"));
pub[pub.length - 1] = ((BigInt(pub[pub.length - 1]) + 1n) % r).toString();
fs.writeFileSync("bad_public.json", JSON.stringify(pub));
const pf = JSON.parse(fs.readFileSync("theirs.json"));
[pf.pi_a, pf.pi_c] = [pf.pi_c, pf.pi_a];
fs.writeFileSync("bad_proof.json", JSON.stringify(pf));'
expect_fail snarkjs groth16 verify vk.json bad_public.json theirs.json
expect_fail "$bench" verify --vk vk.json --proof theirs.json --public bad_public.json
expect_fail snarkjs groth16 verify vk.json public.json bad_proof.json
expect_fail "$bench" verify --vk vk.json --proof bad_proof.json --public public.json
expect_fail snarkjs groth16 verify vk.json bad_public.json ours.json
expect_fail "$bench" verify --vk vk.json --proof ours.json --public bad_public.json

step "cuzk's insecure setup writes a .zkey; snarkjs proves with it"
"$bench" setup --r1cs chain.r1cs --zkey-out cuzk.zkey --seed "$seed"
snarkjs zkey export verificationkey cuzk.zkey vk2.json >/dev/null
snarkjs groth16 prove cuzk.zkey chain.wtns theirs2.json public2.json
snarkjs groth16 verify vk2.json public2.json theirs2.json
"$bench" verify --vk vk2.json --proof theirs2.json --public public2.json
"$bench" prove --zkey cuzk.zkey --wtns chain.wtns --proof-out ours2.json \
    --public-out ours2_public.json
snarkjs groth16 verify vk2.json ours2_public.json ours2.json
expect_fail "$bench" verify --vk vk.json --proof theirs2.json --public public2.json

ok=1
echo "run_snarkjs: all interop checks passed"
