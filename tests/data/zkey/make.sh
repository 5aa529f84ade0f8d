#!/bin/sh
# Regenerates the .zkey fixtures of tests/test_zkey.c with the pinned snarkjs
# of the repository's package.json (run `npm ci` at the repository root
# first).  The circuits are ../circom/mul.r1cs (BLS12-381) and
# ../circom/mul_bn128.r1cs (BN254, must be rejected as the wrong curve).
#   mul.zkey                 snarkjs groth16 setup, powers of tau 2^4, then
#                            one phase-2 contribution (so delta != generator)
#   verification_key.json    snarkjs zkey export verificationkey mul.zkey
#   mul_bn128.zkey           the same ceremony on bn128
#   proof.json, public.json  snarkjs groth16 prove mul.zkey ../circom/mul.wtns
#                            (checked by snarkjs groth16 verify)
#   verification_key_infinity.json
#                            vk_infinity.mjs: verification_key.json with
#                            alpha and delta at infinity (ffjavascript, bfj)
#   verification_key_bn128.json, proof_bn128.json
#                            the bn128 key's export and a bn128 proof: must be
#                            rejected as the wrong curve
# The contributions use fixed entropy, but snarkjs also mixes in its own
# randomness, so reruns give different (equally valid) keys; a proof is
# randomised (r, s), so every rerun of the prove step changes its bytes.
# shellcheck source=tests/data/npm_fixture.sh
. "$(dirname "$0")/../npm_fixture.sh"
for curve in bls12381 bn128; do
    "$bin/snarkjs" powersoftau new $curve 4 "$tmp/p0_$curve.ptau"
    "$bin/snarkjs" powersoftau contribute "$tmp/p0_$curve.ptau" "$tmp/p1_$curve.ptau" \
        -name=cuzk-fixture -e=cuzk-zkey-fixture-entropy
    "$bin/snarkjs" powersoftau prepare phase2 "$tmp/p1_$curve.ptau" "$tmp/final_$curve.ptau"
done
"$bin/snarkjs" groth16 setup ../circom/mul.r1cs "$tmp/final_bls12381.ptau" "$tmp/mul_0.zkey"
"$bin/snarkjs" zkey contribute "$tmp/mul_0.zkey" mul.zkey -name=cuzk-fixture \
    -e=cuzk-zkey-phase2-entropy
"$bin/snarkjs" zkey export verificationkey mul.zkey verification_key.json
"$bin/snarkjs" groth16 setup ../circom/mul_bn128.r1cs "$tmp/final_bn128.ptau" mul_bn128.zkey
"$bin/snarkjs" zkey verify ../circom/mul.r1cs "$tmp/final_bls12381.ptau" mul.zkey
"$bin/snarkjs" groth16 prove mul.zkey ../circom/mul.wtns proof.json public.json
"$bin/snarkjs" groth16 verify verification_key.json public.json proof.json
node vk_infinity.mjs
"$bin/snarkjs" zkey export verificationkey mul_bn128.zkey verification_key_bn128.json
"$bin/snarkjs" groth16 prove mul_bn128.zkey ../circom/mul_bn128.wtns proof_bn128.json \
    "$tmp/public_bn128.json"
