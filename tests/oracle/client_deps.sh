# Shared by the scripts that drive cuzk-daemon with the Python and Node gRPC
# clients (run_grpc.sh, run_hostile.sh, run_porep_grpc.sh); sourced, not run.
#   need_clients ME ROOT [node] [h2]
# exits 1 with the command that installs them when /usr/bin/python3 lacks
# grpcio and grpc_tools (or, with h2, the h2 module of raw HTTP/2 clients),
# or (with node) ROOT's node_modules lacks @grpc/grpc-js and
# @grpc/proto-loader.
need_clients() {
    local me=$1 root=$2 extra
    shift 2
    if ! /usr/bin/python3 -c 'import grpc, grpc_tools' 2>/dev/null; then
        echo "$me: /usr/bin/python3 lacks grpc or grpc_tools: apt-get install python3-grpcio python3-grpc-tools" >&2
        exit 1
    fi
    for extra in "$@"; do
        if [ "$extra" = h2 ] && ! /usr/bin/python3 -c 'import h2' 2>/dev/null; then
            echo "$me: /usr/bin/python3 lacks h2: apt-get install python3-h2" >&2
            exit 1
        fi
        [ "$extra" = node ] || continue
        local m
        for m in grpc-js proto-loader; do
            if [ ! -d "$root/node_modules/@grpc/$m" ]; then
                echo "$me: $root/node_modules/@grpc/$m is missing: run npm ci in $root" >&2
                exit 1
            fi
        done
    done
}
