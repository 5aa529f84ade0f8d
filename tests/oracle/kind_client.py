"""What the clients of the Filecoin proof kinds share (porep_client.py,
snap_client.py, post_client.py): the checks and their tally, grpcio and the
stubs grpc_client.py generates, the refusals of a daemon without parameter
files, and the command table that runs one command.

A client sets ME to its name first; grpc and the stubs are imported by
run(), and only for the commands that call the daemon (the ones reading
/status alone run without grpcio).
"""
import json
import os
import sys
import urllib.request

ME = "kind_client.py"
grpc = g = pb = pbg = None
failures = []


def load_grpc():
    """grpcio and the stubs (grpc_client.py generates them when imported),
    grpc_client's messages under ME."""
    global grpc, g, pb, pbg
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import grpc as grpc_mod
    import grpc_client
    grpc, g, pb, pbg = grpc_mod, grpc_client, grpc_client.pb, grpc_client.pbg
    g.ME = ME


def ok(cond, what, expected=None, got=None):
    if cond:
        print("%s: PASS: %s" % (ME, what), flush=True)
    else:
        failures.append(what)
        extra = "" if expected is None else ": expected %s, got %s" % (expected, got)
        print("%s: FAIL: %s%s" % (ME, what, extra), flush=True)
    return cond


def stub(target, private=False):
    return pbg.ProvingEngineStub(g.channel(target, private))


def read(path):
    with open(path, "rb") as f:
        return f.read()


def status_json(url):
    with urllib.request.urlopen(url, timeout=30) as r:
        return json.load(r)


def failure(fn, req, timeout=120):
    """(code, details) of a call that must fail; (None, "") if it succeeded."""
    try:
        fn(req, timeout=timeout)
    except grpc.RpcError as e:
        return e.code(), e.details() or ""
    return None, ""


def status_name(a):
    return pb.AwaitProofResponse.Status.Name(a.status)


def completed(a, what, n=None):
    """a COMPLETED with one proof (n None) or with n partitions' proofs."""
    want = 192 * (n or 1)
    return ok(a.status == pb.AwaitProofResponse.COMPLETED and len(a.proof) == want,
              what + (": COMPLETED with one 192-byte proof" if n is None else
                      ": COMPLETED with %d x 192 bytes" % n),
              "COMPLETED, %d bytes" % want,
              "%s, %d bytes (%s)" % (status_name(a), len(a.proof), a.error_message))


def not_found(st, r, circuit, params_path, label=""):
    """A daemon without the parameter files: SubmitProof and Prove of r and
    PreloadSRS circuit fail NOT_FOUND naming params_path."""
    nf = grpc.StatusCode.NOT_FOUND
    for name, fn, arg in (("SubmitProof", st.SubmitProof, r),
                          ("Prove", st.Prove, pb.ProveRequest(submit=r)),
                          ("PreloadSRS %s" % circuit, st.PreloadSRS,
                           pb.PreloadSrsRequest(circuit_id=circuit))):
        code, det = failure(fn, arg)
        ok(code == nf and params_path in det,
           "%s%s without parameter files: NOT_FOUND naming the .params" % (name, label),
           "NOT_FOUND naming %s" % params_path, "%s %r" % (code, det))


def edit(r, fields):
    """r with fields set (vanilla_proofs replaced whole); returns r."""
    for k, val in fields.items():
        if k == "vanilla_proofs":
            del r.vanilla_proofs[:]
            r.vanilla_proofs.extend(val)
        else:
            setattr(r, k, val)
    return r


def invalid(st, r, what, needle):
    """SubmitProof and Prove of r refused INVALID_ARGUMENT with needle in
    the message (SubmitProof's message printed)."""
    ia = grpc.StatusCode.INVALID_ARGUMENT
    for name, fn, arg in (("SubmitProof", st.SubmitProof, r),
                          ("Prove", st.Prove, pb.ProveRequest(submit=r))):
        code, det = failure(fn, arg)
        ok(code == ia and needle in det, "%s, %s: INVALID_ARGUMENT naming it" % (name, what),
           "INVALID_ARGUMENT with %r" % needle, "%s %r" % (code, det))
        if name == "SubmitProof" and code == ia:
            print("%s:   (%s)" % (ME, det), flush=True)


def served_on(st, sub0):
    """After refusals: the daemon answers GetStatus, and its count of jobs
    submitted is still sub0; returns that count."""
    s = st.GetStatus(pb.GetStatusRequest(), timeout=30)
    sub1 = g.metric(st, "cuzk_jobs_submitted_total")
    ok(s.memory_budget_bytes > 0 and sub1 == sub0,
       "the daemon serves on and counted no refused request as a job",
       "%s jobs submitted" % sub0, "%s" % sub1)
    return sub1


def run(doc, argv, cmds, offline=()):
    """Runs argv's command: cmds maps its name to (function, count), the
    function called with the arguments as strings, exactly count of them
    (or at least -count where count < 0).  The commands in offline run
    without grpcio.  Prints doc on a bad command line (exit status 2); 1
    when a check failed (here or in grpc_client), else 0."""
    cmd = argv[1] if len(argv) > 1 else None
    fn, count = cmds.get(cmd, (None, 0))
    a = argv[2:]
    if fn is None or (count >= 0 and len(a) != count) or len(a) < -count:
        print(doc, file=sys.stderr)
        return 2
    if cmd not in offline:
        load_grpc()
    try:
        fn(*a)
    except Exception as e:  # noqa: BLE001
        if grpc is None or not isinstance(e, grpc.RpcError):
            raise
        ok(False, "%s: an unexpected RPC error" % cmd, "no error",
           "%s %r" % (e.code(), e.details()))
    n = len(failures) + (len(g.failures) if g else 0)
    if n:
        print("%s: %s: %d check(s) failed: %s" % (ME, cmd, n, "; ".join(failures)),
              file=sys.stderr)
        return 1
    return 0
