#!/usr/bin/env bash
# The 32GiB PoRep C2 pipeline on the GPU machine (one H200, 16 cores, 128
# GiB, through the device tool), or with KIND=snap the 32GiB SnapDeals
# update proof (16 partitions), in steps that each fit the tool's 10
# minutes a call (files under CACHE stay between calls while the machine
# is held):
#   STEP=params  INSECURE 32GiB parameters generated on the GPU
#                (`cuzk params --gpu [--circuit snap]`: .pce, .params,
#                .vk and the digest list, Filecoin's names) into CACHE, and
#                a synthetic 32GiB C1 (miner 1000, sector 1) or synthetic
#                update (`cuzk snap encode --synthetic 1`: vanilla proofs and
#                commitments in CACHE/snap-32g);
#   STEP=run     `cuzk-bench engine --porep` (--snap) on them with the CUDA back end,
#                self-verification on: the parameters loaded as the daemon
#                loads them (digest, counts), a warm-up job, then JOBS jobs
#                (default 3) two at a time: s/proof, peak RSS, peak
#                untracked RSS, utilisation, the timeline as SVG in OUT;
#   STEP=sweep   the same after one load at 1, 2, 4 and 8 syntheses at once
#                (SWEEP), 2 jobs each: s/proof and peak RSS per setting;
#   STEP=all     params, then run (with SWEEP set: the sweep, JOBS jobs per
#                setting, the first setting drawn): for a machine that is
#                given back between calls (the device tool's idle release).
#
#   STEP=params scripts/porep-gpu-bench.sh [BENCH]
# BENCH: a cuzk-bench built with CUDA and without the daemon's libraries
# (default build/cuda/cuzk-bench), the cuzk beside it making the inputs:
#   cmake -S . -B build/cuda -DCMAKE_BUILD_TYPE=Release -DCZ_CUDA_ARCHS=90 \
#         -DCMAKE_DISABLE_FIND_PACKAGE_PkgConfig=TRUE
#   cmake --build build/cuda --target cuzk-bench cuzk
# CACHE (default build/p32) needs ~52 GB of disk: 45 GB of parameters,
# 5.1 GiB of pre-compiled circuit.
set -euo pipefail
B=${1:-build/cuda/cuzk-bench}
T=$(dirname "$B")/cuzk
CACHE=${CACHE:-build/p32}
OUT=${OUT:-$CACHE/out}
STEP=${STEP:-run}
mkdir -p "$CACHE" "$OUT"
[ -d /usr/local/cuda/lib64 ] && export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
echo "== $STEP $(date -u '+%Y-%m-%d %H:%M:%S UTC') on $(hostname): $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB"
nvidia-smi --query-gpu=name,memory.total,memory.used --format=csv,noheader || true
df -h "$CACHE" | tail -1
KIND=${KIND:-porep}
case $KIND in
porep) input=(--porep "$CACHE/c1-32g.json" --miner-id 1000 --sector-number 1) ;;
snap) input=(--snap "$CACHE/snap-32g") ;;
*)
    echo "KIND is porep or snap" >&2
    exit 2
    ;;
esac
engine=("$B" engine "${input[@]}" --param-cache "$CACHE" --backend gpu
    --synth-workers "${SYNTH:-8}")
case $STEP in
params)
    if [ "$KIND" = snap ]; then
        time "$T" params --circuit snap --sector-size 32GiB --gpu --out "$CACHE" --force
        time "$T" snap encode --sector-size 32GiB --synthetic 1 --out "$CACHE/snap-32g"
    else
        time "$T" params --sector-size 32GiB --gpu --out "$CACHE" --force
        "$T" porep c1-synth --sector-size 32GiB --miner-id 1000 --sector-id 1 --seed 7 \
            --out "$CACHE/c1-32g.json"
    fi
    ls -l "$CACHE"
    ;;
run)
    "${engine[@]}" --jobs "${JOBS:-3}" -j 2 --svg "$OUT/$KIND-32g-timeline.svg"
    ;;
sweep)
    "${engine[@]}" --jobs 2 -j 2 --sweep "${SWEEP:-1,2,4,8}"
    ;;
all)
    STEP=params "$0" "$B"
    "${engine[@]}" --jobs "${JOBS:-3}" -j 2 --svg "$OUT/$KIND-32g-timeline.svg" \
        ${SWEEP:+--sweep "$SWEEP"}
    ;;
*)
    echo "STEP is params, run, sweep or all" >&2
    exit 2
    ;;
esac
