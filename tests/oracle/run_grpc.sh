#!/usr/bin/env bash
# cuzk-daemon against two independent gRPC clients, run by ctest as
# grpc_clients:
#   1. one daemon listening on TCP (a free port) and a unix socket at once;
#   2. tests/oracle/grpc_client.py (Debian's python3-grpcio, stubs generated
#      by grpc_tools at run time) and tests/oracle/grpc_client.mjs
#      (@grpc/grpc-js + @grpc/proto-loader) call every RPC, and the error
#      paths, over both transports;
#   3. a second daemon on the same unix socket, and one on the same TCP port,
#      must refuse to start, naming the address, while the first serves on;
#      a stale socket file (nobody listening) is taken over;
#   4. SIGTERM while Prove calls are in flight (--grace-ms 60000): new calls
#      are refused, every call in flight still gets its COMPLETED proof, the
#      daemon exits 0 and removes its socket.
#
#   tests/oracle/run_grpc.sh PATH/TO/cuzk-daemon
#   CZ_GRPC_KEEP=1   keep the work directory and logs (always kept on failure)
# Needs /usr/bin/python3 with python3-grpcio and python3-grpc-tools, node and
# `npm ci` (for @grpc/grpc-js and @grpc/proto-loader).  Builds nothing.
set -euo pipefail

# shellcheck source=tests/oracle/args_lib.sh
. "$(dirname "$0")/args_lib.sh"
one_program PATH/TO/cuzk-daemon "$@"
daemon=$prog
py=/usr/bin/python3
pyclient=$root/tests/oracle/grpc_client.py
jsclient=$root/tests/oracle/grpc_client.mjs
# shellcheck source=tests/oracle/client_deps.sh
. "$root/tests/oracle/client_deps.sh"
need_clients run_grpc "$root" node

# shellcheck source=tests/oracle/daemon_lib.sh
. "$root/tests/oracle/daemon_lib.sh"

# a daemon that must refuse to start names the address on its error line
refusal_prefix='error gRPC: '

sock=$work/a.sock
step "daemon on 127.0.0.1:0 and unix://$sock"
start_daemon a --listen 127.0.0.1:0 --listen "unix://$sock" --status-listen 127.0.0.1:0 \
    --grace-ms 60000
apid=$dpid
port=$(port_of a)
[ -n "$port" ] || die "no TCP port in the daemon's log: $(cat "$work/a.err")"
tcp=127.0.0.1:$port
unix=unix://$sock

step "python client (grpcio $($py -c 'import grpc; print(grpc.__version__)')) on $tcp and $unix"
$py "$pyclient" suite "$tcp" "$unix" || fail "python client"
step "node client (@grpc/grpc-js) on $tcp and $unix"
node "$jsclient" "$tcp" "$unix" || fail "node client"

step "a second daemon on the same unix socket"
refuses 20 "$sock" --listen "$unix"
[ -S "$sock" ] || fail "the refused daemon removed $sock"
$py "$pyclient" status "$unix" || fail "the first daemon stopped serving on $unix"
step "a second daemon on the same TCP port"
refuses 20 "127.0.0.1:$port" --listen "$tcp"
$py "$pyclient" status "$tcp" || fail "the first daemon stopped serving on $tcp"

step "a stale socket file (nobody listening) is taken over"
stale=$work/stale.sock
$py -c 'import socket, sys; s = socket.socket(socket.AF_UNIX); s.bind(sys.argv[1]); s.close()' \
    "$stale"
start_daemon stale --listen "unix://$stale"
$py "$pyclient" status "unix://$stale" || fail "no service on the taken-over $stale"
kill -TERM "$dpid"
rc=0
wait_exit "$dpid" 30 || rc=$?
[ $rc = 0 ] || fail "daemon on $stale: exit $rc after SIGTERM"

step "SIGTERM with 4 Prove calls (log_rows 14, 2 partitions) in flight"
term_in_flight "$apid" $py "$pyclient" hold "$unix" 4
$py "$pyclient" refused "$tcp" || fail "a new call was accepted after SIGTERM"
hrc=0
wait_exit "$hpid" 120 || hrc=$?
cat "$work/hold.out"
[ $hrc = 0 ] || fail "calls in flight at SIGTERM did not all complete (client exit $hrc)"
arc=0
wait_exit "$apid" 90 || arc=$?
[ $arc = 0 ] || fail "daemon exit $arc after SIGTERM"
grep -q 'SIGTERM: stopping' "$work/a.err" || fail "no 'SIGTERM: stopping' in the daemon's log"
tail -1 "$work/a.err"
[ ! -e "$sock" ] || fail "$sock left behind after the daemon exited"

if [ $failed != 0 ]; then
    echo "run_grpc: daemon log: $work/a.err" >&2
    exit 1
fi
step "all checks passed"
