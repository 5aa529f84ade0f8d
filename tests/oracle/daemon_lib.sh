# Shared by the scripts that test cuzk-daemon from outside (run_grpc.sh,
# run_hostile.sh, and through kind_lib.sh the proof kinds' runners);
# sourced, not run.  Before sourcing set
#   daemon  the daemon binary
# and, if not the script's name without .sh (run_grpc) and CZ_ and that
# name without run_ in capitals and _KEEP (CZ_GRPC_KEEP),
#   me      the script's name, for messages
#   keep    the environment variable that keeps the work directory
# It makes $work (a short path: unix socket paths are limited to 107
# bytes), removes it on exit unless a check failed or $keep is set, and
# kills every daemon it started.

me=${me:-$(basename "$0" .sh)}
keep=${keep:-CZ_$(tr '[:lower:]' '[:upper:]' <<<"${me#run_}")_KEEP}
work=$(mktemp -d "/tmp/cuzk-$me.XXXXXX")
failed=0
pids=()
cleanup() {
    for p in "${pids[@]}"; do
        kill -9 "$p" 2>/dev/null || true
    done
    if [ $failed = 0 ] && [ -z "${!keep:-}" ]; then
        rm -rf "$work"
    else
        echo "$me: work directory kept: $work" >&2
    fi
}
trap cleanup EXIT
fail() {
    echo "$me: FAILED: $*" >&2
    failed=1
}
step() { echo "$me: $*"; }
die() {
    fail "$@"
    exit 1
}

# start_daemon NAME ARGS...: starts the daemon in the background (pid in
# $dpid) and waits for "cuzk-daemon ready"; logs in $work/NAME.{out,err}.
start_daemon() {
    local name=$1
    shift
    "$daemon" "$@" >"$work/$name.out" 2>"$work/$name.err" &
    dpid=$!
    pids+=("$dpid")
    for _ in $(seq 300); do
        grep -q '^cuzk-daemon ready$' "$work/$name.out" && return 0
        if ! kill -0 "$dpid" 2>/dev/null; then
            cat "$work/$name.err" >&2
            die "daemon $name exited before it was ready"
        fi
        sleep 0.1
    done
    die "daemon $name not ready after 30 s"
}

# wait_line LINE FILE PID TENTHS: waits, at most TENTHS tenths of a second,
# until FILE (the output of the background client PID) has the line LINE
# or PID has exited; whether FILE has it.
wait_line() {
    local _
    for _ in $(seq "$4"); do
        grep -qx -- "$1" "$2" && return 0
        kill -0 "$3" 2>/dev/null || break
        sleep 0.1
    done
    grep -qx -- "$1" "$2"
}

# refuses SECONDS NEEDLE ARGS...: a daemon started with ARGS must exit
# non-zero within SECONDS, a line of its stderr containing NEEDLE (and
# $refusal_prefix, where set); its output in $work/refused.{out,err}.
refuses() {
    local secs=$1 what=$2
    shift 2
    local rc=0
    timeout "$secs" "$daemon" "$@" >"$work/refused.out" 2>"$work/refused.err" || rc=$?
    if [ $rc = 0 ] || [ $rc = 124 ]; then
        fail "the daemon started with $* (exit $rc)"
    elif ! grep -F -- "${refusal_prefix:-}" "$work/refused.err" | grep -qF -- "$what"; then
        fail "refusing $* (exit $rc) does not say '$what': $(cat "$work/refused.err")"
    else
        step "refused as expected (exit $rc): $(grep -F -- "${refusal_prefix:-}" \
            "$work/refused.err" | grep -F -- "$what" | head -1)"
    fi
}

# wait_exit PID SECONDS: the exit status of PID, killing it if it outlives
# SECONDS (status 137 then).
wait_exit() {
    local pid=$1 t=$(($2 * 10))
    while kill -0 "$pid" 2>/dev/null && [ $t -gt 0 ]; do
        sleep 0.1
        t=$((t - 1))
    done
    kill -9 "$pid" 2>/dev/null || true
    local rc=0
    wait "$pid" || rc=$?
    return $rc
}

# term_in_flight PID COMMAND...: runs the client COMMAND in the background
# (pid in $hpid, output in $work/hold.out), waits until it says its calls
# are in flight (the line "inflight"), then sends the daemon PID SIGTERM
# and gives it half a second to stop accepting.
term_in_flight() {
    local pid=$1
    shift
    "$@" >"$work/hold.out" 2>&1 &
    hpid=$!
    pids+=("$hpid")
    wait_line inflight "$work/hold.out" "$hpid" 600 ||
        die "the Prove calls never got in flight: $(cat "$work/hold.out")"
    kill -TERM "$pid"
    sleep 0.5
}

# The TCP port a daemon logged for --listen 127.0.0.1:0, and its status
# endpoint's port.
port_of() { sed -n "s/.*listening on 127\.0\.0\.1:0 (port \([0-9]*\)).*/\1/p" "$work/$1.err" | head -1; }
status_port_of() { sed -n 's/.*status endpoint on .* (port \([0-9]*\)).*/\1/p' "$work/$1.err" | head -1; }
