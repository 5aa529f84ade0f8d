#!/usr/bin/env bash
# The 32GiB PoRep synthesis benchmarks on a large host (the GPU machine's
# 16 cores and 128 GiB, through the device tool), CPU only:
#   1. record the blank 32GiB circuit, write its pre-compiled R1CS (time,
#      peak RSS, file size);
#   2. load it (mapped, validated, checksummed) and synthesise 10
#      partitions of a synthetic C1: witness and a/b/c per partition on
#      16 threads, then 3 partitions on 8 threads;
#   3. the 32GiB fingerprint in COUNT mode (one thread).
#
#   scripts/porep-host-bench.sh [BENCH]     BENCH: a cuzk-bench binary
#                                           (default build/host/cuzk-bench)
# A CPU-only binary without the daemon's libraries runs there:
#   cmake -S . -B build/host -DCMAKE_BUILD_TYPE=Release -DCZ_CUDA=OFF \
#         -DCMAKE_DISABLE_FIND_PACKAGE_PkgConfig=TRUE
#   cmake --build build/host --target cuzk-bench
# Scratch files go to ${TMPDIR:-/tmp} (13 GiB for the R1CS).
set -euo pipefail
B=${1:-build/host/cuzk-bench}
T=${TMPDIR:-/tmp}
PCE=$T/porep-32GiB.pce
echo "== $(date -u '+%Y-%m-%d %H:%M:%S UTC') on $(hostname): $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB"
echo "== 1. record and write the pre-compiled R1CS"
"$B" porep-synth --sector-size 32GiB --partitions 1 --threads "$(nproc)" --save-pce "$PCE"
ls -l "$PCE"
echo "== 2. load it, 10 partitions on $(nproc) threads, then 3 on 8"
"$B" porep-synth --sector-size 32GiB --pce "$PCE" --threads "$(nproc)"
"$B" porep-synth --sector-size 32GiB --pce "$PCE" --partitions 3 --threads 8
rm -f "$PCE"
echo "== 3. the fingerprint, counting mode"
"$B" circuit-info --count porep-32GiB
