#!/usr/bin/env bash
# The pending kernel patches of docs/pending/ decided in one device call.
#
#   scripts/gpu-pending.sh prepare   on a machine with the CUDA toolkit: builds
#                                    main and every variant below into
#                                    build/pending/NAME (cuzk-bench and the GPU
#                                    tests), packs them into carry/pending.tgz
#                                    (carry/, ignored by git, is for the
#                                    device tool's `carry`)
#   scripts/gpu-pending.sh run       on the GPU machine, from the repository
#                                    root with carry/ carried: main's GPU
#                                    tests; fpd-rate (the Fp product on the
#                                    two multipliers); on a card of more
#                                    than 100 GB main's 2^27 partition
#                                    (BENCHMARKS.md's table); each variant's
#                                    GPU tests and its benchmark in turns
#                                    with main's; with NCU=1 main's pipe
#                                    counters; logs under $OUT
#
# Variants: NAME PATCH CUDA-FLAGS TESTS BENCH-ARGS (one line each, | apart;
# a patch may appear twice, to be timed on two benchmarks).
# A variant that passes its tests and beats main in both rounds is the one
# to land (docs/pending/README.md); RUN_LIMIT (seconds, default 520) stops
# starting new steps so that the call ends inside the device tool's limit;
# a second call can take the rest: BASE=0 leaves out main's tests and
# partition, ONLY="NAME ..." runs only those variants.
set -u -o pipefail
cd "$(dirname "$0")/.."
VARIANTS='
'
# main's GPU tests, run first: every test program that reaches the CUDA back
# end (the kernels, the GPU setup, the proof against the CPU's byte for
# byte, the engine on the device)
BASE_TESTS=$(grep -l 'cz_cuda\|CZ_HAVE_CUDA' tests/test_*.c | xargs -n1 basename | sed 's/\.c$//' | tr '\n' ' ')
field() { echo "$1" | cut -d'|' -f"$2" | sed 's/^ *//; s/ *$//'; }

prepare() {
    export PATH=/usr/local/cuda/bin:$PATH
    local stage=build/pending/stage head
    head=$(git rev-parse HEAD)
    rm -rf build/pending && mkdir -p "$stage" carry
    build_one() { # name dir flags targets (cuzk-bench and the variant's tests)
        cmake -S "$2" -B "build/pending/$1" -DCMAKE_BUILD_TYPE=Release -DCZ_WERROR=ON \
            -DCZ_CUDA_ARCHS=90 -DCMAKE_DISABLE_FIND_PACKAGE_PkgConfig=TRUE \
            -DCMAKE_CUDA_FLAGS="$3" \
            >"build/pending/$1.cmake.log" 2>&1 &&
            cmake --build "build/pending/$1" -j"$(nproc)" --target $4 \
                >"build/pending/$1.build.log" 2>&1 ||
            { echo "gpu-pending: $1 does not build (build/pending/$1.*.log)"; return 1; }
        mkdir -p "$stage/$1"
        for t in $4; do cp "build/pending/$1/$t" "$stage/$1/"; done
        echo "gpu-pending: built $1"
    }
    build_one base . "" "cuzk-bench fpd-rate $BASE_TESTS" || exit 1
    echo "$VARIANTS" | while read -r line; do
        [ -z "$line" ] && continue
        name=$(field "$line" 1) patch=$(field "$line" 2) flags=$(field "$line" 3)
        tests=$(field "$line" 4) wt=build/pending/src-$name
        git worktree add --detach "$wt" "$head" >/dev/null 2>&1 &&
            git -C "$wt" apply "$PWD/docs/pending/$patch" ||
            { echo "gpu-pending: $patch does not apply"; exit 1; }
        build_one "$name" "$wt" "$flags" "cuzk-bench $tests" || exit 1
        git worktree remove --force "$wt"
    done || exit 1
    tar czf carry/pending.tgz -C "$stage" .
    echo "gpu-pending: carry/pending.tgz $(du -h carry/pending.tgz | cut -f1)"
}

run() {
    export LD_LIBRARY_PATH=/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    export PATH=/usr/local/cuda/bin:$PATH
    local B=/tmp/pending O=${OUT:-build/pending/out} limit=${RUN_LIMIT:-520} t0
    rm -rf $B && mkdir -p $B "$O" && tar xzf carry/pending.tgz -C $B || exit 1
    t0=$(date +%s)
    left() { [ $(($(date +%s) - t0)) -lt "$limit" ]; }
    nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>&1
    if [ "${BASE:-1}" != 0 ]; then # main: its GPU tests, fpd-rate, the partition
        for t in $(cd $B/base && ls test_*); do
            timeout 200 "$B/base/$t" >"$O/base-$t.log" 2>&1
            echo "== base $t (rc $?): $(tail -1 "$O/base-$t.log")"
            grep -q "GPU tests skipped" "$O/base-$t.log" && echo "== base $t: no device seen"
        done
        timeout 60 "$B/base/fpd-rate" 2>&1 | tee "$O/fpd-rate.log"
        local mem
        mem=$(nvidia-smi --query-gpu=memory.total --format=csv,noheader,nounits 2>/dev/null | head -1)
        if left && [ "${mem:-0}" -gt 100000 ]; then
            echo "== base: the 2^27 partition"
            CZ_CUDA_PROFILE=1 timeout 300 "$B/base/cuzk-bench" gpu-partition --log 27 --reps 2 2>&1 |
                grep -v '^msm ' | tee "$O/partition.log"
        fi
    fi
    echo "$VARIANTS" | while read -r line; do
        [ -z "$line" ] && continue
        name=$(field "$line" 1) tests=$(field "$line" 4) args=$(field "$line" 5)
        [ -n "${ONLY:-}" ] && [[ " $ONLY " != *" $name "* ]] && continue
        left || { echo "== $name: not run (RUN_LIMIT)"; continue; }
        ok=pass
        for t in $tests; do
            timeout 200 "$B/$name/$t" >"$O/$name-$t.log" 2>&1 || ok=FAIL
            grep -q "GPU tests skipped" "$O/$name-$t.log" && ok=FAIL # no device seen
            echo "== $name $t: $(tail -1 "$O/$name-$t.log")"
        done
        [ $ok = pass ] || continue
        CZ_CUDA_PROFILE=1 scripts/gpu-ab.sh "$B/base" "$B/$name" 2 $args | tee -a "$O/bench.log"
    done
    if [ "${NCU:-0}" = 1 ] && left; then
        local ncu m
        ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
        m='regex:sm__pipe_.*_cycles_active.avg.pct_of_peak_sustained_active,regex:sm__inst_executed_pipe_.*\.sum$,sm__inst_executed.sum'
        for k in "chunk_sums|msm --gpu --log 24 --reps 1" "ntt_pass|ntt --gpu --log 24"; do
            echo "== ncu ${k%%|*}: the pipes' busy share"
            timeout 120 "$ncu" --clock-control none -k "regex:${k%%|*}" -c 1 --metrics "$m" \
                "$B/base/cuzk-bench" ${k#*|} >"$O/ncu-${k%%|*}.txt" 2>&1
            grep -E 'pipe_(fma|fmaheavy|fmalite|alu|lsu)_cycles' "$O/ncu-${k%%|*}.txt" | sed 's/  */ /g'
        done
    fi
    echo "gpu-pending: logs in $O"
}

case "${1:-}" in
prepare) prepare ;;
run) run ;;
*) sed -n 2,25p "$0"; exit 2 ;;
esac
