#!/usr/bin/env bash
# Builds the libFuzzer harnesses (the `fuzz` CMake preset: clang, CZ_FUZZ=ON)
# and runs each fuzz/fuzz_NAME.c for SECONDS (default 30) over its seed corpus
# fuzz/corpus/NAME (NAME without the fuzz_ prefix).  Exits non-zero when any
# harness crashes; the crashing input is saved as build/fuzz/artifacts/*.
#
#   scripts/fuzz.sh [SECONDS]
#   replay a crash:  build/fuzz/fuzz_NAME build/fuzz/artifacts/fuzz_NAME-crash-...
#
# The whole library is compiled with coverage instrumentation
# (-fsanitize=fuzzer-no-link), not only the harness, so libFuzzer is guided by
# the decoder's branches.  New inputs found go to a scratch copy of the
# corpus under build/fuzz/, never into the repository.
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-30}

cmake --preset fuzz -DCZ_WERROR=ON -DCMAKE_C_FLAGS="-O1" >/dev/null
harnesses=()
for f in fuzz/fuzz_*.c; do
    [ -e "$f" ] || continue
    harnesses+=("$(basename "$f" .c)")
done
if [ ${#harnesses[@]} -eq 0 ]; then
    echo "fuzz: no harnesses in fuzz/" >&2
    exit 1
fi
cmake --build build/fuzz -j"$(nproc)" --target "${harnesses[@]}"

mkdir -p build/fuzz/artifacts
failed=()
for h in "${harnesses[@]}"; do
    seeds=fuzz/corpus/${h#fuzz_}
    work=build/fuzz/corpus/${h#fuzz_}
    mkdir -p "$work"
    echo "fuzz: $h for ${secs} s (seeds: $seeds)"
    if ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
        "build/fuzz/$h" -max_total_time="$secs" -timeout=20 -print_final_stats=1 \
            -artifact_prefix="build/fuzz/artifacts/$h-" "$work" $( [ -d "$seeds" ] && echo "$seeds" ) \
            >"build/fuzz/$h.log" 2>&1; then
        grep -E "^stat::number_of_executed_units|^stat::new_units_added|Done [0-9]+ runs" \
            "build/fuzz/$h.log" | sed "s/^/fuzz: $h: /"
    else
        echo "fuzz: $h FAILED (log: build/fuzz/$h.log); its last lines:" >&2
        tail -40 "build/fuzz/$h.log" >&2
        failed+=("$h")
    fi
done
if [ ${#failed[@]} -gt 0 ]; then
    echo "fuzz: ${#failed[@]} harness(es) failed: ${failed[*]}" >&2
    exit 1
fi
echo "fuzz: ${#harnesses[@]} harness(es) ran ${secs} s each without a crash"
