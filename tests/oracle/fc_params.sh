#!/usr/bin/env bash
# The 2KiB parameters of a Filecoin circuit shared by the slow tests, run
# by ctest as porep_params (porep: the FIXTURES_SETUP of porep_e2e and
# porep_grpc), snap_params (snap: of snap_grpc) and post_params
# (wpost,winning: of post_grpc): DIR gets `cuzk params --sector-size
# 2KiB [--circuit snap|wpost|winning]` (INSECURE: the .pce, .params and .vk
# under Filecoin's name, their digests in DIR/cuzk-generated.digests)
# unless the three files and a digest list naming the .params and the .vk
# are already there, so a build generates them once (minutes on two cores
# for porep and snap, seconds for wpost and winning) and later runs reuse
# them.  Remove DIR to make them again (after a change to the circuit or
# the file formats).  When it generates, the output must say INSECURE and
# the name, and leave no temporary file.  A comma list of circuits is made
# one after the other (params appends to the one digest list: never two at
# once in one DIR).
#
#   tests/oracle/fc_params.sh porep|snap|wpost|winning[,...] PATH/TO/cuzk DIR
set -euo pipefail

if [ $# -ne 3 ] || [ ! -x "$2" ]; then
    echo "usage: $0 porep|snap|wpost|winning[,...] PATH/TO/cuzk DIR" >&2
    exit 2
fi
case $1 in
*,*)
    IFS=, read -r -a circuits <<<"$1"
    for c in "${circuits[@]}"; do
        "$0" "$c" "$2" "$3" || exit 1
    done
    exit 0
    ;;
esac
circuit=$1
cuzk=$2
dir=$3
case $circuit in
porep) base=v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-032d3138d22506ec0082ed72b2dcba18df18477904e35bafee82b3793b06832f ;;
snap) base=v28-empty-sector-update-merkletree-poseidon_hasher-8-0-0-fb9e095bebdd77511c0269b967b4d87ba8b8a525edaa0e165de23ba454510194 ;;
wpost) base=v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-0170db1f394b35d995252228ee359194b13199d259380541dc529fb0099096b0 ;;
winning) base=v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-3ea05428c9d11689f23529cde32fd30aabd50f7d2c93657c1d3650bca3e8ea9e ;;
*)
    echo "usage: $0 porep|snap|wpost|winning[,...] PATH/TO/cuzk DIR" >&2
    exit 2
    ;;
esac
me=${circuit}_params
list=$dir/cuzk-generated.digests

complete() {
    local ext
    for ext in pce params vk; do
        [ -s "$dir/$base.$ext" ] || return 1
    done
    [ -f "$list" ] && grep -q " $base\.params$" "$list" && grep -q " $base\.vk$" "$list"
}

if complete; then
    echo "$me: reusing $dir (remove it to generate the parameters again)"
    ls -l "$dir"
    exit 0
fi
echo "$me: generating the 2KiB $circuit parameters in $dir"
mkdir -p "$dir"
# --force: files of an interrupted run are replaced, not refused
out=$(mktemp)
trap 'rm -f "$out"' EXIT
t0=$(date +%s)
rc=0
"$cuzk" params --circuit "$circuit" --sector-size 2KiB --out "$dir" --force >"$out" 2>&1 || rc=$?
cat "$out"
fails=0
if [ $rc != 0 ]; then
    echo "FAIL: params exited $rc, expected 0" >&2
    fails=1
fi
for want in INSECURE "$base"; do
    if ! grep -q -- "$want" "$out"; then
        echo "FAIL: expected '$want' in the output of params" >&2
        fails=1
    fi
done
if compgen -G "$dir/*.tmp-*" >/dev/null; then
    echo "FAIL: params left a temporary file: $(ls "$dir"/*.tmp-*)" >&2
    fails=1
fi
if ! complete; then
    echo "FAIL: $dir lacks the .pce, .params, .vk or their digests after params:" >&2
    ls -l "$dir" >&2
    fails=1
fi
if [ $fails != 0 ]; then
    exit 1
fi
ls -l "$dir"
echo "$me: generated in $(($(date +%s) - t0)) s"
