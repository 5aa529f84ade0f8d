# Shared by the scripts that run a Filecoin proof kind through cuzk-daemon
# (run_porep_grpc.sh, run_snap_grpc.sh, run_post_grpc.sh); sourced, not
# run, with the script's arguments
#   PATH/TO/cuzk-daemon PATH/TO/cuzk PARAMS_DIR
# as
#   . "$(dirname "$0")/kind_lib.sh"
# It sets root (the repository), me (the script's name, for messages),
# daemon, cuzk, pdir and py (exit 2 on a bad command line), has
# client_deps.sh's need_clients, and
#   need_params TEST BASE...   exit 1 unless PARAMS_DIR holds BASE.params,
#                              .vk and .pce (the ctest fixture TEST makes
#                              them)
#   start_work                 daemon_lib.sh: the work directory (kept
#                              when CZ_<ME>_KEEP is set, run_snap_grpc's
#                              CZ_SNAP_GRPC_KEEP) and the daemon helpers;
#                              steps timed from now, PASS and FAIL lines
#   kind_start [node] TEST BASE...   need_clients (with node, the Node
#                              client's too), need_params TEST BASE...,
#                              start_work
#   config NAME PARAM_CACHE BUDGET   a daemon configuration, $work/NAME.toml
#   kind_daemon NAME PARAM_CACHE BUDGET [ARG...]   a daemon of that
#                              configuration (and the daemon's ARGs) on
#                              free ports: its pid in $dpid, its gRPC
#                              target in $target, its /status URL in
#                              $status_url
#   stop_daemon NAME PID SECONDS     SIGTERM: PASS iff it exits 0 in time
#   verify_exit WANT WHAT COMMAND... a proof checked by COMMAND (cuzk's
#                              verify) must exit WANT: PASS naming its first
#                              line, else FAIL with its output
#   log_has NAME WHAT PATTERN...   PASS WHAT iff the log of daemon NAME
#                              ($work/NAME.err) has a line of each
#                              PATTERN (grep), else FAIL naming the first
#                              missing one and the log's last lines
#   daemon_b CLIENT ARG...     step 2 of the runners: daemon B on an empty
#                              param_cache ($work/empty), where `CLIENT
#                              missing TARGET ARG...` checks the refusals
#                              naming the missing files; then SIGTERM
#   daemon_a CLIENT            step 3's opening: daemon A (budget 8GiB) on
#                              PARAMS_DIR, its pid, target and /status URL
#                              in apid, atarget and aurl; CLIENT preload;
#                              its idle memory in $work/idle.json
#   daemon_a_done WHEN         step 3's end: A's memory counters back to
#                              the idle ones (WHEN says after what); A
#                              stopped; finish
#   finish                     exit 1 naming the logs if a check failed

root=$(cd "$(dirname "$0")/../.." && pwd)
me=$(basename "$0" .sh)
if [ $# -ne 3 ] || [ ! -x "$1" ] || [ ! -x "$2" ] || [ ! -d "$3" ]; then
    echo "usage: $0 PATH/TO/cuzk-daemon PATH/TO/cuzk PARAMS_DIR" >&2
    exit 2
fi
daemon=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
cuzk=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
pdir=$(cd "$3" && pwd)
py=/usr/bin/python3
# shellcheck source=tests/oracle/client_deps.sh
. "$root/tests/oracle/client_deps.sh"

need_params() {
    local test=$1 b ext
    shift
    for b in "$@"; do
        for ext in params vk pce; do
            if [ ! -s "$pdir/$b.$ext" ]; then
                echo "$me: $pdir/$b.$ext is missing: the $test test makes it" >&2
                exit 1
            fi
        done
    done
}

start_work() {
    # shellcheck source=tests/oracle/daemon_lib.sh
    . "$root/tests/oracle/daemon_lib.sh"
    t_start=$(date +%s)
    step() { echo "$me: [$(($(date +%s) - t_start)) s] $*"; }
    pass() { echo "$me: PASS: $*"; }
    fail() {
        echo "$me: FAIL: $*" >&2
        failed=1
    }
}

kind_start() {
    local clients=()
    if [ "$1" = node ]; then
        clients=(node)
        shift
    fi
    need_clients "$me" "$root" "${clients[@]}"
    need_params "$@"
    start_work
}

config() {
    printf '[srs]\nparam_cache = "%s"\n[memory]\ntotal_budget = %s\n' "$2" "$3" >"$work/$1.toml"
}

kind_daemon() {
    config "$1" "$2" "$3"
    start_daemon "$1" --config "$work/$1.toml" --listen 127.0.0.1:0 --status-listen 127.0.0.1:0 \
        "${@:4}"
    target=127.0.0.1:$(port_of "$1")
    status_url=http://127.0.0.1:$(status_port_of "$1")/status
}

log_has() {
    local name=$1 what=$2 p
    shift 2
    for p in "$@"; do
        if ! grep -q -- "$p" "$work/$name.err"; then
            fail "$what: no line '$p' in $name's log: $(tail -3 "$work/$name.err")"
            return
        fi
    done
    pass "$what"
}

daemon_b() {
    step "daemon B: param_cache an empty folder"
    mkdir "$work/empty"
    kind_daemon b "$work/empty" '"8GiB"'
    "$1" missing "$target" "${@:2}"
    stop_daemon B "$dpid" 30
}

daemon_a() {
    step "daemon A: budget 8GiB"
    kind_daemon a "$pdir" '"8GiB"'
    apid=$dpid atarget=$target aurl=$status_url
    "$1" preload "$atarget"
    $py "$root/tests/oracle/porep_client.py" snapshot "$aurl" "$work/idle.json" ||
        die "no idle snapshot of A"
}

daemon_a_done() {
    $py "$root/tests/oracle/porep_client.py" idle "$aurl" "$work/idle.json" "$1" ||
        fail "memory counters not back to idle"
    stop_daemon A "$apid" 60
    finish
}

stop_daemon() {
    local rc=0
    kill -TERM "$2"
    wait_exit "$2" "$3" || rc=$?
    if [ $rc = 0 ]; then
        pass "daemon $1: exit 0 after SIGTERM"
    else
        fail "daemon $1: exit $rc after SIGTERM"
    fi
}

verify_exit() {
    local want=$1 what=$2 rc=0 said
    shift 2
    "$@" >"$work/verify.out" 2>"$work/verify.err" || rc=$?
    said=$(head -1 "$work/verify.out")
    if [ $rc = "$want" ]; then
        pass "$what: $said (exit $rc)"
    else
        fail "$what: exit $rc ($said), expected $want"
        sed 's/^/  | /' "$work/verify.out" "$work/verify.err" >&2
    fi
}

finish() {
    if [ "$failed" != 0 ]; then
        echo "$me: FAILED; logs in $work" >&2
        exit 1
    fi
    step "all checks passed"
}
