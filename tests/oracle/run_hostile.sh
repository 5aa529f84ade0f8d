#!/usr/bin/env bash
# cuzk-daemon against hostile clients and operators (issue 16), run by ctest
# as grpc_hostile.  Each numbered item of the issue is a check here or in
# tests/oracle/grpc_hostile.py, with the answer a daemon must give:
#   1, 2, 3, 4, 7, 8, 9 and the smaller request items: grpc_hostile.py main
#      against a daemon with the synthetic kind on, max_queued_jobs 40,
#      max_queued_partitions 300 and the circom circuit "mul"; with them
#      issue 42's transport items: 42a a request over the message limit
#      refused from its prefix (a raw HTTP/2 client claiming 1.5 GB, grpcio
#      sending 300 MB; the daemon's peak RSS must not grow), 42b GetStatus
#      latency while eight 250 MB SubmitProofs arrive (and the daemon's
#      peak RSS, which must stay within its request pool);
#   5  SIGTERM with jobs nobody awaits: the short one completes within the
#      grace period, the long ones are cancelled, the last log line counts
#      every job;
#   6  a unix listen path that exists and is not a socket is refused and
#      left alone; a missing directory is named;
#   and the start-up refusals of the smaller items: a taken status port, a
#   log file that cannot be opened, --grace-ms abc, gpus.devices on a
#   machine without a GPU, a budget or safety margin beyond the machine's
#   memory, a registered circuit with a built-in id; and a configuration
#   file without daemon.synthetic refuses the synthetic kind.
#
#   tests/oracle/run_hostile.sh PATH/TO/cuzk-daemon [BUILD_TYPE]
#   CZ_HOSTILE_KEEP=1   keep the work directory and logs (always on failure)
# BUILD_TYPE Release (or empty) also checks the idle untracked RSS after the
# floods (sanitizer builds inflate RSS) and holds 42b's GetStatus to 100 ms
# (1 s in other builds).  Needs /usr/bin/python3 with python3-grpcio,
# python3-grpc-tools and python3-h2.  Builds nothing.
set -euo pipefail

if [ $# -lt 1 ] || [ ! -x "$1" ]; then
    echo "usage: $0 PATH/TO/cuzk-daemon [BUILD_TYPE]" >&2
    exit 2
fi
daemon=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
build_type=${2:-Release}
root=$(cd "$(dirname "$0")/../.." && pwd)
py=/usr/bin/python3
hostile=$root/tests/oracle/grpc_hostile.py
# shellcheck source=tests/oracle/client_deps.sh
. "$root/tests/oracle/client_deps.sh"
need_clients run_hostile "$root" h2

# shellcheck source=tests/oracle/daemon_lib.sh
. "$root/tests/oracle/daemon_lib.sh"

# refuse WHAT ARGS...: the daemon must exit non-zero at once, stderr
# containing WHAT
refuse() { refuses 30 "$@"; }

# ------------------------------------------------------- the main daemon ---
cat >"$work/main.toml" <<EOF
[daemon]
synthetic = true
[srs]
checked_keys = "$work/keys/checked-keys"
[memory]
total_budget = "2GiB"
[scheduler]
max_queued_jobs = 40
max_queued_partitions = 300
[circuits]
mul = "$root/tests/data/zkey/mul.zkey"
EOF
step "daemon with $work/main.toml"
start_daemon main --config "$work/main.toml" --listen 127.0.0.1:0 --status-listen 127.0.0.1:0
mpid=$dpid
port=$(port_of main)
sport=$(status_port_of main)
[ -n "$port" ] && [ -n "$sport" ] || die "no ports in the daemon's log: $(cat "$work/main.err")"
# grpc_hostile.py's options: the build type (42b's bound), in Release the
# idle RSS check
rss=(--build "$build_type")
[ "$build_type" = Release ] && rss+=(--rss)
$py "$hostile" main "127.0.0.1:$port" "$sport" "$mpid" "${rss[@]}" || fail "grpc_hostile.py main"
grep -q "job job-[0-9]* \[wdpost-1000-0-.*\] submitted: synthetic synthetic-10-0, 2 partitions, priority NORMAL" \
    "$work/main.err" || fail "no per-job 'submitted' log line (handle and label)"
grep -q "job job-[0-9]* \[wdpost-1000-0-.*\] completed in .* ms (queue" "$work/main.err" ||
    fail "no per-job 'completed' log line"
grep -q "job job-[0-9]* \[gone-.*\] cancelled after .* ms: cancelled: the client that asked for it went away" \
    "$work/main.err" || fail "no log line for the departed Prove's job"
kill -TERM "$mpid"
rc=0
wait_exit "$mpid" 60 || rc=$?
[ $rc = 0 ] || fail "main daemon: exit $rc after SIGTERM"

step "srs.checked_keys: the key checked at the first start is skipped at the next"
grep -q "circuit mul: key checked, remembered in $work/keys/checked-keys" "$work/main.err" ||
    fail "the first start did not remember mul's key: $(grep 'circuit mul' "$work/main.err")"
start_daemon again --config "$work/main.toml" --listen 127.0.0.1:0
apid=$dpid
grep -q "circuit mul: key found in $work/keys/checked-keys: subgroup checks skipped" \
    "$work/again.err" || fail "the second start checked mul's key again: $(cat "$work/again.err")"
kill -TERM "$apid"
wait_exit "$apid" 30 || fail "second daemon: exit after SIGTERM"
echo junk >"$work/keys/checked-keys"
refuse "srs.checked_keys: checked keys: $work/keys/checked-keys, line 1" --config "$work/main.toml" \
    --listen 127.0.0.1:0

# ------------------------------------------------------------- 5 SIGTERM ---
step "5: SIGTERM with three jobs nobody awaits (grace 4 s)"
start_daemon term --listen 127.0.0.1:0 --grace-ms 4000
tpid=$dpid
tport=$(port_of term)
$py "$hostile" submit "127.0.0.1:$tport" 1 10 1 >"$work/short.out" || fail "submit short"
$py "$hostile" submit "127.0.0.1:$tport" 2 15 64 >"$work/long.out" || fail "submit long"
grep '^job-' "$work/short.out" >"$work/short.ids" || true
grep '^job-' "$work/long.out" >"$work/long.ids" || true
sleep 0.5
kill -TERM "$tpid"
rc=0
wait_exit "$tpid" 120 || rc=$?
[ $rc = 0 ] || fail "daemon: exit $rc after SIGTERM"
tail -3 "$work/term.err"
last=$(tail -1 "$work/term.err")
echo "$last" | grep -q "stopped: 3 jobs submitted: 1 completed, 0 failed, 2 cancelled (2 of them unfinished at the end of the grace period)" ||
    fail "the last log line does not count every job: $last"
short=$(cat "$work/short.ids")
grep -q "job $short completed" "$work/term.err" || fail "the short job did not complete"
for id in $(cat "$work/long.ids"); do
    grep -q "job $id cancelled" "$work/term.err" || fail "no log line for cancelled job $id"
done

# ------------------------------------------------------ 6 the unix path ---
step "6: a unix listen path that is not a socket"
echo "precious" >"$work/notasocket"
refuse "exists and is not a socket" --listen "unix://$work/notasocket"
[ "$(cat "$work/notasocket")" = precious ] || fail "the regular file was changed or removed"
mkdir "$work/adir"
refuse "exists and is not a socket" --listen "unix://$work/adir"
[ -d "$work/adir" ] || fail "the directory was removed"
refuse "does not exist" --listen "unix://$work/no/such/dir/s.sock"

# ---------------------------------------------- refusals at start-up ---
step "start-up refusals"
start_daemon holder --listen 127.0.0.1:0 --status-listen 127.0.0.1:0
hpid=$dpid
hsport=$(status_port_of holder)
refuse "in use" --listen 127.0.0.1:0 --status-listen "127.0.0.1:$hsport"
kill -TERM "$hpid"
wait_exit "$hpid" 30 || true
refuse "cannot open the log file $work/no/such/dir/log" --listen 127.0.0.1:0 \
    --log-file "$work/no/such/dir/log"
refuse "--grace-ms abc is not a number" --listen 127.0.0.1:0 --grace-ms abc
refuse "--grace-ms -5 is not a number" --listen 127.0.0.1:0 --grace-ms -5
if ! command -v nvidia-smi >/dev/null 2>&1; then
    printf '[gpus]\ndevices = [999]\n' >"$work/gpu.toml"
    refuse "gpus.devices lists 1 device, but this" --config "$work/gpu.toml" --listen 127.0.0.1:0
fi
printf '[memory]\ntotal_budget = "99999TiB"\n' >"$work/budget.toml"
refuse "exceeds this machine's memory" --config "$work/budget.toml" --listen 127.0.0.1:0
printf '[memory]\nsafety_margin = "99999TiB"\n' >"$work/margin.toml"
refuse "safety margin" --config "$work/margin.toml" --listen 127.0.0.1:0
printf '[circuits]\nsynthetic-10-0 = "%s"\n' "$root/tests/data/zkey/mul.zkey" >"$work/shadow.toml"
refuse "belong to the built-in synthetic kind" --config "$work/shadow.toml" --listen 127.0.0.1:0

# --------------------------------- a configuration without synthetic ---
step "a configuration file without daemon.synthetic refuses the synthetic kind"
printf '[memory]\ntotal_budget = "1GiB"\n' >"$work/prod.toml"
start_daemon prod --config "$work/prod.toml" --listen 127.0.0.1:0
ppid_=$dpid
$py "$hostile" off "127.0.0.1:$(port_of prod)" || fail "the synthetic kind is served by default"
kill -TERM "$ppid_"
wait_exit "$ppid_" 30 || fail "prod daemon: exit after SIGTERM"

if [ $failed != 0 ]; then
    echo "run_hostile: daemon logs in $work" >&2
    exit 1
fi
step "all checks passed"
