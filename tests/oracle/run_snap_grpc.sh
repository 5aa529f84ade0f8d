#!/usr/bin/env bash
# SnapDeals (EmptySectorUpdate) through cuzk-daemon as Curio sends it
# (issue 21), run by ctest as snap_grpc (Release builds only; its fixture
# snap_params fills PARAMS_DIR with the INSECURE 2KiB update parameters).
# The client is tests/oracle/snap_client.py (python3-grpcio); the proofs
# are checked by `cuzk snap verify --vk --proof`, which shares no
# code path with the daemon's prover.  Every check prints PASS or FAIL.
#   1. input: `cuzk snap encode` seals a 2KiB CC sector (miner 1000,
#      sector 7), encodes new data into it and writes the vanilla
#      partition proof and the commitments;
#   2. daemon B, param_cache an empty folder: SubmitProof, Prove and
#      PreloadSRS "snap-2k" refused NOT_FOUND naming the .params path;
#   3. daemon A: PreloadSRS "snap-2k"; Prove with raw commitments (Curio's
#      proof share path) and with their CIDs (its UpdateProve task); both
#      proofs valid under snap verify, and invalid with comm_r_new of
#      another update; request ids (the same job again; the update tried
#      again with new data under Curio's same id snap-<miner>-<sector>: a
#      job of its own whose proof verifies for its commitments only);
#      refusals naming the problem
#      (tampered vanilla proofs, edited commitments, CIDs of the other
#      kind, counts, sizes, fields SnapDeals does not use); afterwards
#      every memory counter back to its idle value; SIGTERM, exit 0.
#
#   tests/oracle/run_snap_grpc.sh PATH/TO/cuzk-daemon PATH/TO/cuzk PARAMS_DIR
#   CZ_SNAP_GRPC_KEEP=1    keep the work directory and logs (always kept on failure)
set -euo pipefail

# shellcheck source=tests/oracle/kind_lib.sh
. "$(dirname "$0")/kind_lib.sh"
sc=$root/tests/oracle/snap_client.py
base=v28-empty-sector-update-merkletree-poseidon_hasher-8-0-0-fb9e095bebdd77511c0269b967b4d87ba8b8a525edaa0e165de23ba454510194
kind_start snap_params "$base"
sc() { $py "$sc" "$@" || fail "snap_client.py $1 (exit $?)"; }

# 1. the update: encode NAME SEED, sector 7 with new data from SEED into
# $work/NAME; comm NAME KEY, a commitment it printed
encode() {
    "$cuzk" snap encode --sector-size 2KiB --miner-id 1000 --sector-id 7 --new-data-seed "$2" \
        --out "$work/$1" >"$work/$1.out" 2>&1 || die "snap-encode: $(cat "$work/$1.out")"
}
comm() { sed -n "s/^$2 //p" "$work/$1.out"; }
upd=$work/update
encode update 3
old=$(comm update comm_r_old)
dnew=$(comm update comm_d_new)
rnew=$(comm update comm_r_new)
step "2KiB update: comm_r_old $old, comm_d_new $dnew, comm_r_new $rnew"
other=$work/other
encode other 4
rother=$(comm other comm_r_new)
dother=$(comm other comm_d_new)
oold=$(comm other comm_r_old)

# verify WANT WHAT PROOF COMM_R_NEW [COMM_D_NEW COMM_R_OLD]: snap verify of a
# SNARK proof exits WANT (the commitments default to the first update's)
verify() {
    verify_exit "$1" "verify-update, $2" "$cuzk" snap verify --sector-size 2KiB \
        --comm-r-old "${6:-$old}" --comm-d-new "${5:-$dnew}" --comm-r-new "$4" \
        --vk "$pdir/$base.vk" --proof "$3"
}

# 2. no parameters
daemon_b sc "$upd" "$work/empty/$base.params"

# 3. daemon A
daemon_a sc
step "A: Prove, raw commitments and CIDs; request ids"
sc prove "$atarget" "$upd" "$other" "$work/raw.bin" "$work/cid.bin" "$work/other.bin"
if [ -s "$work/other.bin" ]; then
    verify 0 "the update with new data under the same id" "$work/other.bin" "$rother" "$dother" \
        "$oold"
    verify 1 "the update with new data, against the first update" "$work/other.bin" "$rnew"
else
    fail "no proof of the update with new data"
fi
for f in raw cid; do
    if [ -s "$work/$f.bin" ]; then
        verify 0 "the proof of the request with $f commitments" "$work/$f.bin" "$rnew"
        verify 1 "the same proof against another update's comm_r_new" "$work/$f.bin" "$rother"
    else
        fail "no proof of the request with $f commitments"
    fi
done
if [ -s "$work/raw.bin" ] && cmp -s "$work/raw.bin" "$work/cid.bin"; then
    fail "the two proofs are equal bytes: each proof draws its own r and s"
fi
step "A: refusals"
sc refusals "$atarget" "$upd"
log_has a "A's log names the INSECURE generated parameters" snap INSECURE
daemon_a_done "after the SnapDeals jobs (circuit loaded)"
