#!/usr/bin/env bash
# WindowPoSt and WinningPoSt at 32GiB on the GPU machine (one H200, 16
# cores, 128 GiB, through the device tool), in steps that each fit the
# tool's 10 minutes a call (files under CACHE stay while the machine is
# held).  The 64 GB disk holds one 32GiB circuit of PoRep size at a time
# (~52 GB with its .pce) beside WinningPoSt's (~0.2 GB); the WindowPoSt's
# .params alone are 60.8 GB, so its 9.3 GB .pce lives in PCE_DIR (default
# /dev/shm, memory) with a link in CACHE:
#   STEP=winning  INSECURE WinningPoSt 32GiB parameters (`cuzk params
#                 --circuit winning --gpu`) and a synthetic WinningPoSt
#                 (`cuzk post vanilla --synthetic`) in CACHE/winning-32g;
#   STEP=window   the WindowPoSt 32GiB parameters: the .pce (`--pce-only`,
#                 the circuit recorded as one sector copied 2,348 times:
#                 21 s), moved to PCE_DIR, then the parameters from it
#                 (`--reuse-pce`: the setup 27 s, writing 60.8 GB 276 s),
#                 and a synthetic partition of 2,349 sectors (30 s) in
#                 CACHE/wpost-32g; remove the PoRep files first (disk);
#   STEP=idle     `cuzk-bench engine --post` on KIND (winning or wpost): the
#                 circuit loaded, a warm-up job, then JOBS (default 5) jobs
#                 one at a time: latency from submit to proof, peak RSS;
#   STEP=load     a PoRep load (`engine --porep`, the files of
#                 scripts/porep-gpu-bench.sh STEP=params in CACHE, JOBS
#                 jobs two at a time) with KIND's PoSt beside it, one job
#                 after a gap uniform in [0, 2 EVERY] ms (EVERY default 1000):
#                 its latency under the load.
#
# The device tool gives an idle machine back after about 30 s, and with it
# CACHE: have the next call's binaries packed before the current call
# ends, or put STEP=params (scripts/porep-gpu-bench.sh), STEP=winning and
# STEP=load in one call (about 9 minutes in all).
#
#   STEP=winning scripts/post-gpu-bench.sh [BENCH]
# BENCH: a cuzk-bench built with CUDA (default build/cuda/cuzk-bench), the
# cuzk beside it making the inputs.
set -euo pipefail
B=${1:-build/cuda/cuzk-bench}
T=$(dirname "$B")/cuzk
CACHE=${CACHE:-build/p32}
STEP=${STEP:-idle}
KIND=${KIND:-winning}
mkdir -p "$CACHE"
[ -d /usr/local/cuda/lib64 ] && export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
echo "== $STEP $KIND $(date -u '+%Y-%m-%d %H:%M:%S UTC') on $(hostname): $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB"
df -h "$CACHE" | tail -1
case $KIND in
winning | wpost) ;;
*)
    echo "KIND is winning or wpost" >&2
    exit 2
    ;;
esac
case $STEP in
winning | window)
    circuit=$([ "$STEP" = window ] && echo wpost || echo winning)
    kind=$([ "$STEP" = window ] && echo window || echo winning)
    n=$([ "$STEP" = window ] && echo 2349 || echo 1)
    if [ "$STEP" = window ]; then
        "$T" params --circuit wpost --sector-size 32GiB --out "$CACHE" --force --pce-only |
            tee "$CACHE/pce.log"
        pce=$(awk '$1 == "pce" { sub(":$", "", $2); print $2 }' "$CACHE/pce.log")
        dir=${PCE_DIR:-/dev/shm}
        mv "$pce" "$dir/" && ln -s "$dir/$(basename "$pce")" "$pce"
        time "$T" params --circuit wpost --sector-size 32GiB --gpu --out "$CACHE" --force \
            --reuse-pce
    else
        time "$T" params --circuit winning --sector-size 32GiB --gpu --out "$CACHE" --force
    fi
    rm -rf "$CACHE/$circuit-32g"
    time "$T" post vanilla --kind "$kind" --sector-size 32GiB --sectors "$n" --synthetic 1 \
        --out "$CACHE/$circuit-32g"
    ;;
idle)
    "$B" engine --post "$CACHE/$KIND-32g" --param-cache "$CACHE" --backend gpu \
        --jobs "${JOBS:-5}" -j 1
    ;;
load)
    "$B" engine --porep "$CACHE/c1-32g.json" --miner-id 1000 --sector-number 1 \
        --param-cache "$CACHE" --backend gpu --synth-workers "${SYNTH:-2}" \
        --jobs "${JOBS:-3}" -j 2 --post "$CACHE/$KIND-32g" --post-every "${EVERY:-1000}"
    ;;
*)
    echo "STEP is winning, window, idle or load" >&2
    exit 2
    ;;
esac
