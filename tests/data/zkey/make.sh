#!/bin/sh
# Regenerates the .zkey fixtures of tests/test_zkey.c with the pinned snarkjs
# of the repository's package.json (run `npm ci` at the repository root
# first).  The circuits are ../circom/mul.r1cs (BLS12-381) and
# ../circom/mul_bn128.r1cs (BN254, must be rejected as the wrong curve).
#   mul.zkey                 snarkjs groth16 setup, powers of tau 2^4, then
#                            one phase-2 contribution (so delta != generator)
#   verification_key.json    snarkjs zkey export verificationkey mul.zkey
#   mul_bn128.zkey           the same ceremony on bn128
# The contributions use fixed entropy, but snarkjs also mixes in its own
# randomness, so reruns give different (equally valid) keys.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
bin=$here/../../../node_modules/.bin
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$here"
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
