#!/usr/bin/env bash
# The main job on its embedded default: a PoRep Commit Phase 2 as Curio asks
# cuzk for it.
#   1. builds cuzk in Release;
#   2. seals a 2KiB sector in memory (seeded data, miner 1000, sector 7):
#      its C1 (SealCommitPhase1Output JSON);
#   3. INSECURE parameters for 2KiB under Filecoin's names (`cuzk params`:
#      minutes the first time, kept in build/release/porep-params and
#      reused), linked into a temporary param cache;
#   4. starts cuzk-daemon on that cache (srs.param_cache) and proves the C2
#      through gRPC as Curio sends it (`cuzk daemon prove`: Prove with
#      POREP_SEAL_COMMIT, registered proof 5, the C1 base64 in Curio's
#      wrapper), COUNT times (default 3) after PreloadSRS has loaded the
#      parameters, printing s/proof;
#   5. verifies the proof with `cuzk porep verify`, stops the daemon
#      with SIGTERM.
#
#   scripts/run.sh               (COUNT=3)
#   COUNT=8 scripts/run.sh -j 2  (extra options go to cuzk daemon prove)
#   scripts/run.sh --synthetic   the synthetic-circuit demo instead: COUNT
#                                (default 8) jobs of two 2^LOG-row (16)
#                                partitions with `cuzk-bench batch`
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
scripts/build.sh release
b=build/release
dir=$(mktemp -d)
pid=
cleanup() {
    if [ -n "$pid" ]; then
        kill -TERM "$pid" 2>/dev/null && wait "$pid" || true
        echo "--- daemon log ($dir/daemon.log):"
        cat "$dir/daemon.log"
    fi
    rm -rf "$dir"
}
trap cleanup EXIT

# start_daemon ARGS...: cuzk-daemon in the background until it says ready
start_daemon() {
    $b/cuzk-daemon "$@" >"$dir/ready" 2>"$dir/daemon.log" &
    pid=$!
    for _ in $(seq 300); do
        grep -q ready "$dir/ready" 2>/dev/null && return 0
        kill -0 "$pid" 2>/dev/null || { cat "$dir/daemon.log" >&2; echo "cuzk-daemon failed to start" >&2; exit 1; }
        sleep 0.1
    done
    echo "cuzk-daemon not ready after 30 s" >&2
    exit 1
}

sock="unix://$dir/cuzk.sock"
if [ "${1:-}" = "--synthetic" ]; then
    shift
    start_daemon --listen "$sock" --status-listen 127.0.0.1:0
    $b/cuzk-bench batch --addr "$sock" -c "${COUNT:-8}" -j 2 --log "${LOG:-16}" \
        --partitions 2 "$@"
    $b/cuzk daemon status --addr "$sock"
    exit 0
fi

miner=1000
sector=7
ticket=$(printf '%064d' 3)
seed=$(printf '%064d' 5)
echo "== seal a 2KiB sector (miner $miner, sector $sector)"
$b/cuzk porep seal --sector-size 2KiB --data-seed 1 --miner-id $miner --sector-id $sector \
    --ticket "$ticket" --seed "$seed" --out "$dir/c1.json" >"$dir/seal.out"
cat "$dir/seal.out"
comm_d=$(sed -n 's/^comm_d //p' "$dir/seal.out")
comm_r=$(sed -n 's/^comm_r //p' "$dir/seal.out")

params=$b/porep-params
base=v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-032d3138d22506ec0082ed72b2dcba18df18477904e35bafee82b3793b06832f
if [ ! -s "$params/$base.params" ] || [ ! -s "$params/$base.vk" ] || [ ! -s "$params/$base.pce" ] ||
    ! grep -q "$base.params" "$params/cuzk-generated.digests" 2>/dev/null; then
    echo "== INSECURE 2KiB parameters into $params (once: a few minutes)"
    $b/cuzk params --sector-size 2KiB --out "$params" --force
fi
mkdir "$dir/params"
for f in "$params/$base".{params,vk,pce} "$params/cuzk-generated.digests"; do
    ln -s "$(cd "$(dirname "$f")" && pwd)/$(basename "$f")" "$dir/params/"
done
cat >"$dir/cuzk.toml" <<EOF
[daemon]
listen = "$sock"
status_listen = "127.0.0.1:0"
[srs]
param_cache = "$dir/params"
EOF

echo "== cuzk-daemon on the param cache $dir/params; C2 through gRPC as Curio sends it"
start_daemon --config "$dir/cuzk.toml"
$b/cuzk daemon preload --addr "$sock" porep-2k
$b/cuzk daemon prove --addr "$sock" --c1 "$dir/c1.json" --sector-number $sector \
    --miner-id $miner -c "${COUNT:-3}" --out "$dir/proof.bin" "$@"
$b/cuzk daemon status --addr "$sock"

echo "== porep verify"
$b/cuzk porep verify --sector-size 2KiB --vk "$dir/params/$base.vk" --proof "$dir/proof.bin" \
    --comm-r "$comm_r" --comm-d "$comm_d" --miner-id $miner --sector-id $sector \
    --ticket "$ticket" --seed "$seed"
