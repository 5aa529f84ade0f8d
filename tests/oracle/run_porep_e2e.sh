#!/usr/bin/env bash
# A 2KiB PoRep end to end with cuzk, run by ctest as porep_e2e
# (Release builds only: the setup and the proof at the 2^22 domain take
# minutes on two cores):
#   1. seal a 2KiB sector (seeded data); the parameters come from
#      PARAMS_DIR, which the porep_params test (tests/oracle/fc_params.sh porep,
#      this test's fixture) filled with `params --sector-size 2KiB`: the
#      .pce, .params and .vk under Filecoin's name for 2KiB (hash
#      032d3138...) and their digests, no temporary file left; params again
#      without --force refuses to overwrite them (exit 2, the folder
#      untouched); params --pce-only into a scratch folder writes only the
#      .pce, the same bytes;
#   2. porep prove the C1 (pce and vk found beside the parameters): one
#      192-byte proof; porep verify accepts it (exit 0) and rejects it
#      (exit 1) with another prover id, sector id, ticket, seed or comm_r;
#   3. porep prove refuses (exit 1, nothing written) another sector id
#      (the vanilla verifier's replica_id message) and C1s with one value
#      edited by sed (the seed's first byte: the challenges; the ticket's:
#      the replica_id); bad options and a missing pce exit 2.
# Each step's time is printed.  PARAMS_DIR is only read.
#
#   tests/oracle/run_porep_e2e.sh PATH/TO/cuzk PARAMS_DIR
set -euo pipefail

if [ $# -ne 2 ] || [ ! -x "$1" ] || [ ! -d "$2" ]; then
    echo "usage: $0 PATH/TO/cuzk PARAMS_DIR" >&2
    exit 2
fi
cuzk=$1
pdir=$(cd "$2" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fails=0

# shellcheck source=tests/oracle/cli_lib.sh
. "$(dirname "$0")/cli_lib.sh"

prover=e8$(printf '%062d' 0)
ticket=$(printf '%064d' 3)
seed=$(printf '%064d' 5)
ids=(--prover-id "$prover" --sector-id 7 --ticket "$ticket" --seed "$seed")
base=v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-032d3138d22506ec0082ed72b2dcba18df18477904e35bafee82b3793b06832f
params=$pdir/$base.params

# 1. seal; the shared parameters
expect 0 "porep seal 2KiB" "$cuzk" porep seal --sector-size 2KiB --data-seed 1 "${ids[@]}" --out "$work/c1.json"
comm_d=$(sed -n 's/^comm_d //p' "$work/out")
comm_r=$(sed -n 's/^comm_r //p' "$work/out")
for ext in pce params vk; do
    if [ ! -s "$pdir/$base.$ext" ]; then
        echo "FAIL: $pdir has no $base.$ext (the porep_params fixture makes it)" >&2
        fails=$((fails + 1))
    fi
done
for ext in params vk; do
    if ! grep -q " $base\.$ext\$" "$pdir/cuzk-generated.digests" 2>/dev/null; then
        echo "FAIL: $pdir/cuzk-generated.digests does not list $base.$ext" >&2
        fails=$((fails + 1))
    fi
done
if compgen -G "$pdir/*.tmp-*" >/dev/null; then
    echo "FAIL: params left a temporary file in $pdir" >&2
    fails=$((fails + 1))
fi
before=$(cd "$pdir" && stat -c '%n %s %Y' -- *)
expect 2 "params again, without --force" "$cuzk" params --sector-size 2048 --out "$pdir"
said "exists" err
if [ "$(cd "$pdir" && stat -c '%n %s %Y' -- *)" != "$before" ]; then
    echo "FAIL: the refused params run changed $pdir:" >&2
    echo "$before" >"$work/before"
    sed 's/^/  was | /' "$work/before" >&2
    (cd "$pdir" && stat -c '%n %s %Y' -- *) | sed 's/^/  now | /' >&2
    fails=$((fails + 1))
fi
expect 0 "params --pce-only" "$cuzk" params --sector-size 2KiB --pce-only --out "$work/pce"
said "\.pce only"
if [ "$(find "$work/pce" -mindepth 1 -printf '%f')" != "$base.pce" ]; then
    echo "FAIL: params --pce-only wrote $(find "$work/pce" -mindepth 1 -printf '%f '), expected only $base.pce" >&2
    fails=$((fails + 1))
elif ! cmp -s "$work/pce/$base.pce" "$pdir/$base.pce"; then
    echo "FAIL: params --pce-only wrote another .pce than the full run's" >&2
    fails=$((fails + 1))
fi
expect 2 "params, unknown option" "$cuzk" params --sector-size 2KiB --out "$work/x" --frob 1
expect 0 "params --help" "$cuzk" params --help
said "INSECURE"

# 2. porep prove, porep verify
prove=("$cuzk" porep prove --c1 "$work/c1.json" --params "$params" --prover-id "$prover")
expect 0 "porep prove" "${prove[@]}" --sector-id 7 --out "$work/proof.bin"
said "^partition 0: witness"
said "\.pce: loaded"
said "vk: $pdir/$base.vk"
grep -E '^(partition|total)' "$work/out" | sed 's/^/     /'
if [ "$(wc -c <"$work/proof.bin")" != 192 ]; then
    echo "FAIL: the proof is not 192 bytes" >&2
    fails=$((fails + 1))
fi
vs=("$cuzk" porep verify --sector-size 2KiB --vk "$pdir/$base.vk" --proof "$work/proof.bin")
expect 0 "porep verify" "${vs[@]}" --comm-r "$comm_r" --comm-d "$comm_d" "${ids[@]}"
said "^valid$"
expect 1 "porep verify, another prover id" "${vs[@]}" --comm-r "$comm_r" --comm-d "$comm_d" \
    --prover-id "e9${prover:2}" --sector-id 7 --ticket "$ticket" --seed "$seed"
said "^invalid$"
expect 1 "porep verify, another sector id" "${vs[@]}" --comm-r "$comm_r" --comm-d "$comm_d" \
    --prover-id "$prover" --sector-id 8 --ticket "$ticket" --seed "$seed"
expect 1 "porep verify, another ticket" "${vs[@]}" --comm-r "$comm_r" --comm-d "$comm_d" \
    --prover-id "$prover" --sector-id 7 --ticket "$seed" --seed "$seed"
expect 1 "porep verify, another seed" "${vs[@]}" --comm-r "$comm_r" --comm-d "$comm_d" \
    --prover-id "$prover" --sector-id 7 --ticket "$ticket" --seed "$ticket"
# comm_r's first byte changed (byte 31, the top one, untouched: still canonical)
other_r=$(printf '%02x' $(((0x${comm_r:0:2} + 1) % 256)))${comm_r:2}
expect 1 "porep verify, another comm_r" "${vs[@]}" --comm-r "$other_r" --comm-d "$comm_d" "${ids[@]}"
said "^invalid$"

# 3. refusals
expect 1 "porep prove, another sector id" "${prove[@]}" --sector-id 8 --out "$work/x.bin"
said "replica_id" err
said "vanilla proofs do not verify" err
sed 's/"seed":\[0,/"seed":[1,/' "$work/c1.json" >"$work/bad_seed.json"
expect 1 "porep prove, the C1's seed edited" "$cuzk" porep prove --c1 "$work/bad_seed.json" \
    --params "$params" --prover-id "$prover" --sector-id 7 --out "$work/x.bin"
said "vanilla proofs do not verify" err
sed 's/"ticket":\[0,/"ticket":[1,/' "$work/c1.json" >"$work/bad_ticket.json"
expect 1 "porep prove, the C1's ticket edited" "$cuzk" porep prove --c1 "$work/bad_ticket.json" \
    --params "$params" --prover-id "$prover" --sector-id 7 --out "$work/x.bin"
said "replica_id" err
if [ -e "$work/x.bin" ] || cmp -s "$work/c1.json" "$work/bad_seed.json" ||
    cmp -s "$work/c1.json" "$work/bad_ticket.json"; then
    echo "FAIL: a refused porep-prove wrote a proof, or sed edited nothing" >&2
    fails=$((fails + 1))
fi
expect 2 "porep prove, a missing pce" "${prove[@]}" --sector-id 7 --pce "$work/none.pce" \
    --out "$work/x.bin"
said "none.pce" err
expect 2 "porep prove, unknown option" "${prove[@]}" --sector-id 7 --out "$work/x.bin" --seed 1
expect 2 "porep prove, no --out" "${prove[@]}" --sector-id 7
said "\-\-out is required" err
expect 0 "porep prove --help" "$cuzk" porep prove --help

if [ $fails -ne 0 ]; then
    echo "run_porep_e2e: $fails failed" >&2
    exit 1
fi
echo "run_porep_e2e: all passed"
