#!/usr/bin/env bash
# WindowPoSt and WinningPoSt through cuzk-daemon as Curio sends them (issue
# 22), run by ctest as post_grpc (Release builds only; its fixture
# post_params fills PARAMS_DIR with the INSECURE 2KiB wpost and winning
# parameters).  The client is tests/oracle/post_client.py (python3-grpcio);
# the proofs are checked by `cuzk post verify --vk --proof`, which
# computes the public inputs from post.json alone.  Every check prints PASS
# or FAIL.
#   1. inputs: `cuzk post vanilla` seals 2KiB CC sectors and writes
#      their vanilla sector proofs: a full Window partition (2 sectors,
#      V1_1 = registered proof 10), a short one (1 sector: padded), a
#      Window V1 (registered proof 5, API 1.0) at partition 1, a Winning
#      (registered proof 0); for each, another with other randomness and
#      another with other sectors, for the refused verifications;
#   2. daemon B, param_cache an empty folder: SubmitProof, Prove and
#      PreloadSRS "wpost-2k" / "winning-2k" refused NOT_FOUND naming the
#      .params path;
#   3. daemon A: the queues window-post and winning-post; PreloadSRS both;
#      Prove each input with Curio's fields (priority HIGH / CRITICAL, its
#      request id): 192 bytes, valid under post verify, invalid for other
#      randomness or sectors; priority unset: the kind's default, valid
#      proofs; request ids (the same job and proof again); a deadline's
#      three partitions under Curio's one id wdpost-<miner>-0-<rand[:8]>,
#      one after the other and at once: a job and proof each, each proof
#      valid for its own sectors only, a retry answered without a job;
#      refusals naming the problem (partition_index too large for the
#      sectors or the deadline among them);
#      afterwards every memory counter back to its idle value; SIGTERM,
#      exit 0.
#
#   tests/oracle/run_post_grpc.sh PATH/TO/cuzk-daemon PATH/TO/cuzk PARAMS_DIR
#   CZ_POST_GRPC_KEEP=1    keep the work directory and logs (always kept on failure)
set -euo pipefail

# shellcheck source=tests/oracle/kind_lib.sh
. "$(dirname "$0")/kind_lib.sh"
pc=$root/tests/oracle/post_client.py
wbase=v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-0170db1f394b35d995252228ee359194b13199d259380541dc529fb0099096b0
nbase=v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-3ea05428c9d11689f23529cde32fd30aabd50f7d2c93657c1d3650bca3e8ea9e
kind_start post_params "$wbase" "$nbase"
pc() { $py "$pc" "$@" || fail "post_client.py $1 (exit $?)"; }

# 1. the inputs: NAME KIND ARGS...
rand2=1111111111111111111111111111111111111111111111111111111111111105
vanilla() {
    local name=$1 kind=$2
    shift 2
    "$cuzk" post vanilla --kind "$kind" --sector-size 2KiB --out "$work/$name" "$@" \
        >"$work/$name.out" 2>&1 || die "post-vanilla $name: $(cat "$work/$name.out")"
}
step "inputs: post-vanilla"
vanilla w2 window --sectors 2 --first-sector 1
vanilla w2-rand window --sectors 2 --first-sector 1 --randomness $rand2
vanilla w2-sect window --sectors 2 --first-sector 11
vanilla w1 window --sectors 1 --first-sector 3
vanilla w1-rand window --sectors 1 --first-sector 3 --randomness $rand2
vanilla w1-sect window --sectors 1 --first-sector 13
vanilla v1 window --sectors 2 --first-sector 5 --registered-proof 5 --partition 1
vanilla v1-rand window --sectors 2 --first-sector 5 --registered-proof 5 --partition 1 \
    --randomness $rand2
vanilla v1-sect window --sectors 2 --first-sector 15 --registered-proof 5 --partition 1
vanilla v1-part0 window --sectors 2 --first-sector 5 --registered-proof 5
# two deadlines of three V1_1 partitions (Curio sends each at partition_index
# 0 under one id): the first proved one after the other, the second at once
rand3=3333333333333333333333333333333333333333333333333333333333333303
for i in 0 1 2; do
    vanilla dl-seq$i window --sectors 2 --first-sector $((21 + 2 * i))
    vanilla dl-all$i window --sectors 2 --first-sector $((31 + 2 * i)) --randomness $rand3
done
vanilla win winning --first-sector 7
vanilla win-rand winning --first-sector 7 --randomness $rand2
vanilla win-sect winning --first-sector 17
for d in w2 w1 v1 win; do
    step "$d: $(tail -1 "$work/$d.out")"
done

# verify WANT WHAT DIR VK PROOF: post verify of a SNARK proof exits WANT
# (--kind named as the directory's: win* Winning, the others Window)
verify() {
    local kind=window
    [ "${3%%-*}" = win ] && kind=winning
    verify_exit "$1" "verify-post, $2" "$cuzk" post verify --dir "$work/$3" --kind $kind \
        --vk "$4" --proof "$5"
}
vk_of() { if [ "${1%%-*}" = win ]; then echo "$pdir/$nbase.vk"; else echo "$pdir/$wbase.vk"; fi; }
# check NAME PROOF WHAT: PROOF valid for NAME, invalid for NAME-rand, NAME-sect
check() {
    local name=$1 proof=$2 what=$3 vk
    vk=$(vk_of "$name")
    if [ ! -s "$proof" ]; then
        fail "no proof of $what"
        return
    fi
    verify 0 "$what" "$name" "$vk" "$proof"
    verify 1 "$what, against other randomness" "$name-rand" "$vk" "$proof"
    verify 1 "$what, against other sectors" "$name-sect" "$vk" "$proof"
}

# 2. no parameters
daemon_b pc "$work/w2" "$work/win" "$work/empty/$wbase.params" "$work/empty/$nbase.params"

# 3. daemon A
daemon_a pc
step "A: Prove as Curio sends it"
# NAME:PART (PART: the chain partition in Curio's request id)
for np in w2:0 w1:1 v1:2 win:0; do
    n=${np%%:*}
    pc prove "$atarget" "$work/$n" "$work/$n.bin" "${np##*:}"
done
check w2 "$work/w2.bin" "the full Window partition (V1_1, 2 sectors)"
check w1 "$work/w1.bin" "the short Window partition (V1_1, 1 sector)"
check v1 "$work/v1.bin" "the Window V1 partition 1"
if [ -s "$work/v1.bin" ]; then
    verify 1 "the Window V1 partition 1, against the same sectors as partition 0" v1-part0 \
        "$(vk_of v1)" "$work/v1.bin"
fi
check win "$work/win.bin" "the Winning proof"
rc=0
"$cuzk" post verify --dir "$work/w2" --kind winning >"$work/vp.out" 2>"$work/vp.err" || rc=$?
if [ $rc = 2 ] && grep -q "holds a window PoSt" "$work/vp.err"; then
    pass "verify-post --kind winning on a Window directory: refused (exit 2)"
else
    fail "verify-post --kind winning on a Window directory: exit $rc: $(cat "$work/vp.err")"
fi
if [ -s "$work/w2.bin" ] && [ -s "$work/w1.bin" ]; then
    verify 1 "the full partition's proof for the short partition's sector" w1 "$(vk_of w1)" \
        "$work/w2.bin"
fi
step "A: priority unset"
pc unset "$atarget" "$aurl" "$work/w2" "$work/w2-unset.bin"
pc unset "$atarget" "$aurl" "$work/win" "$work/win-unset.bin"
check w2 "$work/w2-unset.bin" "the full Window partition, priority unset"
check win "$work/win-unset.bin" "the Winning proof, priority unset"
for f in w2 win; do
    if [ -s "$work/$f.bin" ] && cmp -s "$work/$f.bin" "$work/$f-unset.bin"; then
        fail "$f: two jobs' proofs are equal bytes: each proof draws its own r and s"
    fi
done
log_has a "A's log has the Window jobs at HIGH and the Winning ones at CRITICAL" \
    'window-post wpost-2k, 1 partition, priority HIGH' \
    'winning-post winning-2k, 1 partition, priority CRITICAL'
step "A: request ids"
for np in w2:0 win:0; do
    n=${np%%:*}
    if [ -s "$work/$n.bin" ]; then
        pc idem "$atarget" "$work/$n" "$work/$n.bin" "${np##*:}"
    else
        fail "idem $n: no proof from prove"
    fi
done
step "A: a deadline's partitions under Curio's one request id"
for mode in seq all; do
    pc deadline "$atarget" $mode "$work/dl-$mode" "$work/dl-${mode}0" "$work/dl-${mode}1" \
        "$work/dl-${mode}2"
    for i in 0 1 2; do
        proof=$work/dl-$mode-$i.bin
        if [ -s "$proof" ]; then
            verify 0 "deadline ($mode), partition $i under the shared id" "dl-$mode$i" \
                "$(vk_of w2)" "$proof"
            verify 1 "deadline ($mode), partition $i's proof for partition $(((i + 1) % 3))" \
                "dl-$mode$(((i + 1) % 3))" "$(vk_of w2)" "$proof"
        else
            fail "no proof of deadline ($mode) partition $i"
        fi
    done
done
step "A: refusals"
pc refusals "$atarget" "$work/w2" "$work/w1" "$work/win" "$work/v1"
for c in wpost-2k winning-2k; do
    log_has a "A's log names $c's INSECURE generated parameters" "$c: .*INSECURE"
done
daemon_a_done "after the PoSt jobs (circuits loaded)"
