# Helpers of the CLI tests (run_fc_cli.sh, run_porep_e2e.sh), sourced after
# they set $work (a scratch directory) and fails=0.
#
# expect RC DESCRIPTION COMMAND...: the command's exit status must be RC;
# its stdout and stderr are kept in $work/out and $work/err, and its wall
# time is printed.
t_last=$(date +%s.%N)
expect() {
    local want=$1 what=$2
    shift 2
    local rc=0
    "$@" >"$work/out" 2>"$work/err" || rc=$?
    local now dt
    now=$(date +%s.%N)
    dt=$(awk -v a="$t_last" -v b="$now" 'BEGIN { printf "%.1f", b - a }')
    t_last=$now
    if [ "$rc" != "$want" ]; then
        echo "FAIL: $what: exit $rc, expected $want (${dt} s)" >&2
        sed 's/^/  | /' "$work/out" "$work/err" >&2
        fails=$((fails + 1))
    else
        echo "ok   $what (exit $rc, ${dt} s)"
    fi
}
# said TEXT [err]: the last command's stdout must contain TEXT (its stderr
# with err).
said() {
    local f=$work/out
    [ "${2:-}" = err ] && f=$work/err
    if ! grep -q -- "$1" "$f"; then
        echo "FAIL: expected '$1' in the ${2:-out}put" >&2
        sed 's/^/  | /' "$f" >&2
        fails=$((fails + 1))
    fi
}
