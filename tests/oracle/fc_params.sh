#!/usr/bin/env bash
# The 2KiB parameters of a Filecoin circuit shared by the slow tests, run
# by ctest as porep_params (porep: the FIXTURES_SETUP of porep_e2e and
# porep_grpc) and snap_params (snap: of snap_grpc): DIR gets `cuzk-bench
# params --sector-size 2KiB [--circuit snap]` (INSECURE: the .pce, .params
# and .vk under Filecoin's name, their digests in DIR/cuzk-generated.digests)
# unless the three files and a digest list naming the .params and the .vk
# are already there, so a build generates them once (minutes on two cores)
# and later runs reuse them.  Remove DIR to make them again (after a change
# to the circuit or the file formats).  When it generates, the output must
# say INSECURE and the name, and leave no temporary file.
#
#   tests/oracle/fc_params.sh porep|snap PATH/TO/cuzk-bench DIR
set -euo pipefail

if [ $# -ne 3 ] || [ ! -x "$2" ]; then
    echo "usage: $0 porep|snap PATH/TO/cuzk-bench DIR" >&2
    exit 2
fi
circuit=$1
bench=$2
dir=$3
case $circuit in
porep) base=v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-032d3138d22506ec0082ed72b2dcba18df18477904e35bafee82b3793b06832f ;;
snap) base=v28-empty-sector-update-merkletree-poseidon_hasher-8-0-0-fb9e095bebdd77511c0269b967b4d87ba8b8a525edaa0e165de23ba454510194 ;;
*)
    echo "usage: $0 porep|snap PATH/TO/cuzk-bench DIR" >&2
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
"$bench" params --circuit "$circuit" --sector-size 2KiB --out "$dir" --force >"$out" 2>&1 || rc=$?
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
