#!/usr/bin/env bash
# The 2KiB PoRep parameters shared by the slow PoRep tests, run by ctest as
# porep_params (the FIXTURES_SETUP of porep_e2e and porep_grpc): DIR gets
# `cuzk-bench params --sector-size 2KiB` (INSECURE: the .pce, .params and
# .vk under Filecoin's name, their digests in DIR/cuzk-generated.digests)
# unless the three files and a digest list naming the .params and the .vk
# are already there, so a build generates them once (minutes on two cores)
# and later runs reuse them.  Remove DIR to make them again (after a change
# to the circuit or the file formats).  When it generates, the output must
# say INSECURE and the name, and leave no temporary file.
#
#   tests/oracle/porep_params.sh PATH/TO/cuzk-bench DIR
set -euo pipefail

if [ $# -ne 2 ] || [ ! -x "$1" ]; then
    echo "usage: $0 PATH/TO/cuzk-bench DIR" >&2
    exit 2
fi
bench=$1
dir=$2
base=v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-032d3138d22506ec0082ed72b2dcba18df18477904e35bafee82b3793b06832f
list=$dir/cuzk-generated.digests

complete() {
    local ext
    for ext in pce params vk; do
        [ -s "$dir/$base.$ext" ] || return 1
    done
    [ -f "$list" ] && grep -q " $base\.params$" "$list" && grep -q " $base\.vk$" "$list"
}

if complete; then
    echo "porep_params: reusing $dir (remove it to generate the parameters again)"
    ls -l "$dir"
    exit 0
fi
echo "porep_params: generating the 2KiB parameters in $dir"
mkdir -p "$dir"
# --force: files of an interrupted run are replaced, not refused
out=$(mktemp)
trap 'rm -f "$out"' EXIT
t0=$(date +%s)
rc=0
"$bench" params --sector-size 2KiB --out "$dir" --force >"$out" 2>&1 || rc=$?
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
echo "porep_params: generated in $(($(date +%s) - t0)) s"
