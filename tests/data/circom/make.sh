#!/bin/sh
# Regenerates the circom fixtures of tests/test_circom.c from mul.circom and
# input.json with the pinned circom2 and snarkjs of the repository's
# package.json (run `npm ci` at the repository root first).
#   mul.r1cs     circom --O1 (default) constraints, BLS12-381 scalar field
#   mul.wtns     snarkjs wtns calculate of mul.wasm on input.json
#   mul_bn128.r1cs, mul_bn128.wtns  the same for the BN254 (bn128) field:
#                the readers must reject them as the wrong curve
# shellcheck source=tests/data/npm_fixture.sh
. "$(dirname "$0")/../npm_fixture.sh"
"$bin/circom2" mul.circom --prime bls12381 --r1cs --wasm -o "$tmp"
cp "$tmp/mul.r1cs" mul.r1cs
"$bin/snarkjs" wtns calculate "$tmp/mul_js/mul.wasm" input.json mul.wtns
mkdir "$tmp/bn"
"$bin/circom2" mul.circom --prime bn128 --r1cs --wasm -o "$tmp/bn"
cp "$tmp/bn/mul.r1cs" mul_bn128.r1cs
"$bin/snarkjs" wtns calculate "$tmp/bn/mul_js/mul.wasm" input.json mul_bn128.wtns
"$bin/snarkjs" r1cs info mul.r1cs
"$bin/snarkjs" wtns check mul.r1cs mul.wtns
