#!/usr/bin/env bash
# A/B of two prebuilt cuzk-bench binaries on the GPU machine, run in turns
# (A B A B ...) so that clocks and heat treat both alike:
#
#   scripts/gpu-ab.sh DIR_A DIR_B ROUNDS BENCH-ARGS...
#   e.g. scripts/gpu-ab.sh build/gpu-base build/gpu 2 ntt --gpu --log 27
#
# DIR_A and DIR_B each hold a cuzk-bench (built elsewhere, carried here);
# each run's lines matching $GREP (default: RESULT lines, medians and the
# MSM profile's) are printed under "== A" / "== B".  CZ_CUDA_PROFILE and
# LD_LIBRARY_PATH pass through.  Exit status: non-zero when a run fails.
set -u -o pipefail
[ $# -ge 4 ] || { sed -n 2,11p "$0"; exit 2; }
A=$1 B=$2 N=$3
shift 3
GREP=${GREP:-'^RESULT|median|^msm '}
fail=0
for ((i = 1; i <= N; i++)); do
    for side in A B; do
        dir=$A
        [ $side = B ] && dir=$B
        echo "== $side ($dir) round $i: cuzk-bench $*"
        timeout "${AB_TIMEOUT:-200}" "$dir/cuzk-bench" "$@" >/tmp/gpu-ab.$$ 2>&1
        rc=$?
        grep -E "$GREP" /tmp/gpu-ab.$$
        [ $rc -eq 0 ] || { tail -5 /tmp/gpu-ab.$$; echo "gpu-ab: $side failed (rc $rc)"; fail=1; }
    done
done
rm -f /tmp/gpu-ab.$$
exit $fail
