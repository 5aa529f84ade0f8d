#!/usr/bin/env bash
# PoRep C2 through cuzk-daemon as Curio sends it (issue 19), run by ctest as
# porep_grpc (Release builds only; its fixture porep_params fills
# PARAMS_DIR with the INSECURE 2KiB parameters).  The clients are
# tests/oracle/porep_client.py (python3-grpcio, stubs from grpc_tools at run
# time) and tests/oracle/porep_client.mjs (@grpc/grpc-js); the proofs are
# checked by `cuzk porep verify`, which shares no code path with the
# daemon's prover.  Every check prints a PASS or FAIL line.
#   1. inputs: a sealed 2KiB sector (seal, sector 7) and a synthetic C1
#      (c1-synth, sector 9), miner 1000;
#   2. daemon B, param_cache an empty folder: SubmitProof, Prove and
#      PreloadSRS "porep-2k" are refused NOT_FOUND naming the .params path;
#      a param_cache that is not there is warned about at start;
#   3. daemon A (budget 8GiB): PreloadSRS "porep-2k" loads it; Prove from
#      Python of the sealed C1 in Curio's wrapper, porep verify valid and
#      invalid with another sector id; Curio's request id porep-<miner>-
#      <sector>: the same request twice is one job and proof, the sector
#      sealed again (another ticket and seed) under the same id a job of its
#      own whose proof porep verify accepts for the second seal only;
#      refusals from both clients (INVALID_ARGUMENT naming the problem: an
#      edited seed, corrupted base64, truncated JSON, another registered
#      proof, unknown registered_proof, wrong sector_size, sector_number or
#      miner_id, fields PoRep does not use); cancel during synthesis
#      (CANCELLED, the memory counters back to idle); SIGTERM with two Prove
#      calls in flight (the raw C1 JSON of the sealed sector and the
#      synthetic C1 wrapped): new calls refused UNAVAILABLE, both complete
#      with proofs porep verify accepts, exit 0;
#   4. daemon C, memory.total_budget for about two partitions: A's /status
#      after its first proof (one partition alone) gave what a partition
#      reserves at most, P = peak_reserved - request_pool - the circuit's
#      bytes, and the budget B solves B - B/8 (the request pool) =
#      circuit + 2.5 P, so two partitions fit beside the circuit and a
#      third waits.  16 jobs at once (CZ_POREP_GRPC_JOBS): Prove calls from
#      Python (sealed wrapped, synthetic raw) and SubmitProof+AwaitProof from
#      Node (synthetic wrapped, sealed raw), one C1 under many request ids
#      (distinct ids are distinct jobs, src/engine/job.c), the last one
#      CRITICAL, sent once the 15 NORMAL are queued: it starts before every
#      NORMAL job still queued (the daemon's log).  All complete, every proof
#      verifies; reserved never above the budget (sampled, and /status
#      peak_reserved), partitions waited for memory and two were held at
#      once; afterwards reserved, allocated and every buffer class are back
#      to their values before the jobs; EvictSRS frees the circuit's bytes;
#      SIGTERM, exit 0.
# Time: 19 proofs of ~40 s of CPU each and three parameter loads, about
# 800 CPU seconds (printed at the end): 7 to 8 minutes on an idle two-core
# machine, three times that on a shared one.  The 16 jobs under the budget
# are most of it: a 2KiB PoRep is not proved faster on the CPU, one prover
# proves one partition at a time, and the CRITICAL check needs NORMAL jobs
# still queued behind the budget (CZ_POREP_GRPC_JOBS=5 for a quicker run).
#
#   tests/oracle/run_porep_grpc.sh PATH/TO/cuzk-daemon PATH/TO/cuzk PARAMS_DIR
#   CZ_POREP_GRPC_KEEP=1    keep the work directory and logs (always kept on failure)
#   CZ_POREP_GRPC_JOBS=N    jobs under the budget (default 16, at least 5)
set -euo pipefail

# shellcheck source=tests/oracle/kind_lib.sh
. "$(dirname "$0")/kind_lib.sh"
pyc=$root/tests/oracle/porep_client.py
jsc=$root/tests/oracle/porep_client.mjs
n_jobs=${CZ_POREP_GRPC_JOBS:-16}
base=v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-032d3138d22506ec0082ed72b2dcba18df18477904e35bafee82b3793b06832f
# at least 5: four NORMAL jobs, of which at most three start before the
# CRITICAL one comes (two partitions in memory, a third waiting for it)
if ! [ "$n_jobs" -ge 5 ] 2>/dev/null; then
    echo "$me: CZ_POREP_GRPC_JOBS=$n_jobs: at least 5" >&2
    exit 2
fi
kind_start node porep_params "$base"

# the clients: a non-zero exit is a failure (they print which check)
pyc() { $py "$pyc" "$@" || fail "porep_client.py $1 (exit $?)"; }
jsc() { node "$jsc" "$@" || fail "porep_client.mjs $1 (exit $?)"; }

# jget URL KEY.KEY...: a value of a daemon's /status
jget() {
    $py -c 'import json, sys, urllib.request
d = json.load(urllib.request.urlopen(sys.argv[1], timeout=30))
for k in sys.argv[2].split("."):
    d = d[k]
print(d)' "$1" "$2"
}

# 1. inputs
ticket=$(printf '%064d' 3)
seed=$(printf '%064d' 5)
sealed=$work/sealed.json
synth=$work/synth.json
"$cuzk" porep seal --sector-size 2KiB --data-seed 1 --miner-id 1000 --sector-id 7 --ticket "$ticket" \
    --seed "$seed" --out "$sealed" >"$work/seal.out" 2>&1 || die "seal: $(cat "$work/seal.out")"
"$cuzk" porep c1-synth --sector-size 2KiB --miner-id 1000 --sector-id 9 --ticket "$ticket" \
    --porep-seed "$seed" --out "$synth" >"$work/synth.out" 2>&1 ||
    die "c1-synth: $(cat "$work/synth.out")"
# sector 7 sealed again with another ticket and seed (Curio proves it under
# the same request id): its C1 and commitments under the key "7b"
ticket_b=$(printf '%064d' 13)
seed_b=$(printf '%064d' 15)
resealed=$work/resealed.json
"$cuzk" porep seal --sector-size 2KiB --data-seed 1 --miner-id 1000 --sector-id 7 --ticket "$ticket_b" \
    --seed "$seed_b" --out "$resealed" >"$work/reseal.out" 2>&1 ||
    die "seal again: $(cat "$work/reseal.out")"
declare -A comm_r comm_d tickets seeds
comm_r[7]=$(sed -n 's/^comm_r //p' "$work/seal.out")
comm_d[7]=$(sed -n 's/^comm_d //p' "$work/seal.out")
comm_r[7b]=$(sed -n 's/^comm_r //p' "$work/reseal.out")
comm_d[7b]=$(sed -n 's/^comm_d //p' "$work/reseal.out")
tickets[7b]=$ticket_b
seeds[7b]=$seed_b
comm_r[9]=$(sed -n 's/^comm_r //p' "$work/synth.out")
comm_d[9]=$(sed -n 's/^comm_d //p' "$work/synth.out")
step "sealed sector 7 (comm_r ${comm_r[7]}), synthetic C1 of sector 9 (comm_r ${comm_r[9]})"

# verify_seal WANT WHAT PROOF SECTOR [AS_SECTOR]: porep verify of a proof of
# SECTOR's C1 (checked as AS_SECTOR's) must exit WANT (0 valid, 1 invalid);
# SECTOR 7b: sector 7 sealed again, with its own ticket and seed
verify_seal() {
    local s=$4 as=${5:-${4%b}}
    verify_exit "$1" "verify-seal, $2" "$cuzk" porep verify --sector-size 2KiB \
        --vk "$pdir/$base.vk" --proof "$3" --comm-r "${comm_r[$s]}" --comm-d "${comm_d[$s]}" \
        --miner-id 1000 --sector-id "$as" --ticket "${tickets[$s]:-$ticket}" \
        --seed "${seeds[$s]:-$seed}"
}
# verify_specs OUTDIR SPEC...: each spec's proof (OUTDIR/ID.bin) is valid
verify_specs() {
    local dir=$1 s id sector
    shift
    for s in "$@"; do
        IFS=: read -r id _ sector _ <<<"$s"
        if [ -f "$dir/$id.bin" ]; then
            verify_seal 0 "$id (sector $sector)" "$dir/$id.bin" "$sector"
        else
            fail "no proof of $id"
        fi
    done
}

# 2. no parameters
daemon_b pyc "$sealed" 7 "$work/empty/$base.params"
config b2 "$work/none" '"8GiB"'
start_daemon b2 --config "$work/b2.toml" --listen 127.0.0.1:0
log_has b2 "a param_cache that is not there is warned about at start" \
    "srs.param_cache $work/none is not a folder"
kill -TERM "$dpid"
wait_exit "$dpid" 30 || true

# 3. daemon A
step "daemon A: budget 8GiB"
kind_daemon a "$pdir" '"8GiB"' --grace-ms 900000
apid=$dpid
atarget=$target
aurl=$status_url
pyc preload "$atarget"
step "A: Prove (Python) of the sealed C1 in Curio's wrapper; request ids"
mkdir "$work/proofs"
pyc idem "$atarget" "$sealed" 7 "$resealed" "$work/proofs/idem.bin" "$work/proofs/idem-b.bin"
verify_seal 0 "the sealed sector's proof" "$work/proofs/idem.bin" 7
verify_seal 1 "the sealed sector's proof as sector 8's" "$work/proofs/idem.bin" 7 8
verify_seal 0 "the sector sealed again: its proof under the same id" "$work/proofs/idem-b.bin" 7b
verify_seal 1 "the first seal's proof for the second seal" "$work/proofs/idem.bin" 7b
verify_seal 1 "the second seal's proof for the first seal" "$work/proofs/idem-b.bin" 7
out=$($py "$pyc" budget "$aurl") || die "no budget from A's /status: $out"
echo "$out" | sed '$d'
read -r budget circuit part <<<"$(echo "$out" | tail -1)"
step "A: refusals (Python, Node)"
pyc refusals "$atarget" "$sealed" 7 "$synth"
jsc refusals "$atarget" "$sealed" 7
step "A: cancel during synthesis"
pyc cancel "$atarget" "$aurl" "$sealed" 7
step "A: SIGTERM with two Prove calls in flight (the sealed C1 raw, the synthetic one wrapped)"
term=(term-sealed-raw:"$sealed":7:raw term-synth-wrap:"$synth":9:wrap)
term_in_flight "$apid" $py "$pyc" hold "$atarget" "$work/proofs" "${term[@]}"
pyc refused "$atarget" "$sealed" 7
hrc=0
wait_exit "$hpid" 900 || hrc=$?
cat "$work/hold.out"
if [ $hrc = 0 ]; then
    pass "both calls in flight at SIGTERM completed"
else
    fail "calls in flight at SIGTERM did not all complete (client exit $hrc)"
fi
verify_specs "$work/proofs" "${term[@]}"
verify_seal 1 "the synthetic C1's proof as sector 10's" "$work/proofs/term-synth-wrap.bin" 9 10
arc=0
wait_exit "$apid" 120 || arc=$?
if [ $arc = 0 ]; then pass "daemon A: exit 0 after SIGTERM"; else fail "daemon A: exit $arc after SIGTERM"; fi
log_has a "A's log: SIGTERM with 2 calls in flight, no job failed" \
    'SIGTERM: stopping (grace 900000 ms, 2 calls in flight' 'stopped: .* 0 failed'

# 4. daemon C: the budget of about two partitions
step "daemon C: budget $budget bytes (circuit $circuit, partition $part, request pool 1/8)"
kind_daemon c "$pdir" "$budget" --grace-ms 60000
cpid=$dpid
ctarget=$target
curl=$status_url
[ "$(jget "$curl" memory.budget)" = "$budget" ] ||
    fail "C's /status budget $(jget "$curl" memory.budget), expected $budget"
pyc preload "$ctarget"
$py "$pyc" snapshot "$curl" "$work/idle.json" || die "no idle snapshot of C"
n_py=$((n_jobs / 2))
n_js=$((n_jobs - 1 - n_py))
# alternate NAME N ODD EVEN: N job specs, a line each: NAME-i:ODD for odd
# i and NAME-i:EVEN for even i
alternate() {
    local i
    for i in $(seq "$2"); do
        if [ $((i % 2)) = 1 ]; then echo "$1-$i:$3"; else echo "$1-$i:$4"; fi
    done
}
mapfile -t py_specs < <(alternate load-py "$n_py" "$sealed:7:wrap" "$synth:9:raw")
mapfile -t js_specs < <(alternate load-js "$n_js" "$synth:9:wrap" "$sealed:7:raw")
crit=(load-critical:"$sealed":7:wrap:critical)
step "C: $((n_py + n_js)) NORMAL jobs ($n_py Prove from Python, $n_js SubmitProof+AwaitProof from Node), then one CRITICAL"
s0=$(jget "$curl" jobs.submitted)
$py "$pyc" watch "$curl" "$work/watch.stop" "$part" >"$work/watch.out" 2>&1 &
wpid=$!
pids+=("$wpid")
t_load=$(date +%s)
# Node first: it counts the jobs its SubmitProof calls made
node "$jsc" submit-await "$ctarget" "$work/proofs" "${js_specs[@]}" >"$work/load-js.out" 2>&1 &
jpid=$!
pids+=("$jpid")
wait_line submitted "$work/load-js.out" "$jpid" 1200 ||
    die "the Node client did not submit its jobs: $(cat "$work/load-js.out")"
$py "$pyc" prove "$ctarget" "$work/proofs" "${py_specs[@]}" >"$work/load-py.out" 2>&1 &
ppid=$!
pids+=("$ppid")
for _ in $(seq 1200); do
    [ "$(jget "$curl" jobs.submitted)" -ge $((s0 + n_py + n_js)) ] && break
    sleep 0.1
done
[ "$(jget "$curl" jobs.submitted)" -ge $((s0 + n_py + n_js)) ] ||
    fail "the NORMAL jobs were not all submitted within 120 s"
step "C: $(jget "$curl" jobs.queued) jobs queued, $(jget "$curl" jobs.running) running; the CRITICAL one now"
$py "$pyc" prove "$ctarget" "$work/proofs" "${crit[@]}" >"$work/load-crit.out" 2>&1 &
kpid=$!
pids+=("$kpid")
for p in "$ppid:Python" "$jpid:Node" "$kpid:Python (CRITICAL)"; do
    rc=0
    wait "${p%%:*}" || rc=$?
    [ $rc = 0 ] || fail "the ${p#*:} client of the load exited $rc"
done
dt=$(($(date +%s) - t_load))
cat "$work/load-py.out" "$work/load-js.out" "$work/load-crit.out"
step "C: $n_jobs proofs in $dt s ($(awk -v t="$dt" -v n="$n_jobs" 'BEGIN { printf "%.1f", t / n }') s/proof)"
touch "$work/watch.stop"
rc=0
wait "$wpid" || rc=$?
cat "$work/watch.out"
[ $rc = 0 ] || fail "the budget checks (porep_client.py watch, exit $rc)"
verify_specs "$work/proofs" "${py_specs[@]}" "${js_specs[@]}" "${crit[@]}"
done_n=$(jget "$curl" jobs.completed)
if [ "$done_n" = "$n_jobs" ]; then
    pass "C: $n_jobs jobs completed"
else
    fail "C: $done_n jobs completed, expected $n_jobs"
fi

# the CRITICAL job: after it was submitted, no NORMAL job started before it
# (the log names each job by its handle and, in brackets, its request id)
read -r first overtook queued_before < <(awk '
    / job [^ ]+ \[[^]]+\] submitted: .*priority / {
        id = $0; sub(/.* job [^ ]+ \[/, "", id); sub(/\] submitted:.*/, "", id)
        if (id == "load-critical") csub = 1
        else if (!csub) earlier[id] = 1
    }
    / job [^ ]+ \[[^]]+\] started after / {
        id = $0; sub(/.* job [^ ]+ \[/, "", id); sub(/\] started after.*/, "", id)
        if (csub && first == "") first = id
        if (id == "load-critical") cstart = 1
        else if (cstart && (id in earlier)) overtook++
        if (!csub) started[id] = 1
    }
    END {
        n = 0; for (id in earlier) if (!(id in started)) n++
        print (first == "" ? "none" : first), overtook + 0, n
    }' "$work/c.err")
if [ "$first" = load-critical ] && [ "$overtook" -ge 1 ] && [ "$overtook" = "$queued_before" ]; then
    pass "the CRITICAL job started first after it was submitted, before the $overtook NORMAL jobs still queued"
else
    fail "priorities: the first job started after the CRITICAL was submitted is $first (expected load-critical); it started before $overtook of the $queued_before NORMAL jobs queued before it (expected all, at least 1)"
    grep -E ' job .* (submitted|started)' "$work/c.err" | sed 's/^/  | /' >&2
fi

step "C: idle again"
pyc idle "$curl" "$work/idle.json" "after the $n_jobs jobs"
pyc evict "$ctarget" "$curl"
stop_daemon C "$cpid" 60

# what the machine spent (the daemons and clients, all waited for): on an
# idle machine the wall time is about this over the cores
times >"$work/times"
step "CPU time of its processes (user, system): $(tail -1 "$work/times")"
finish
