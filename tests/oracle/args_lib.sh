# The opening of the runners that take one program (run_grpc.sh,
# run_noble.sh, run_snarkjs.sh); sourced, not run:
#
#   . "$(dirname "$0")/args_lib.sh"
#   one_program PATH/TO/PROGRAM "$@"
#
# sets root (the repository) and prog (the argument as an absolute path);
# anything but one executable argument prints the usage and exits 2.
root=$(cd "$(dirname "$0")/../.." && pwd)

one_program() {
    local usage=$1
    shift
    if [ $# -ne 1 ] || [ ! -x "$1" ]; then
        echo "usage: $0 $usage" >&2
        exit 2
    fi
    prog=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
}
