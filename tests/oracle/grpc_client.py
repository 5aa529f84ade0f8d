#!/usr/bin/python3
"""Independent gRPC client for cuzk-daemon (Debian's python3-grpcio).

Stubs are generated from proto/cuzk/v1/proving.proto at run time (grpc_tools
protoc into a temporary directory), so this client shares no code with the
daemon.  Run by tests/oracle/run_grpc.sh:

  grpc_client.py suite TARGET...   every RPC and error path, on each target
  grpc_client.py hold TARGET N     N slow Prove calls in flight; prints
                                   "inflight" once the daemon holds all N,
                                   then exits 0 when every one COMPLETED
  grpc_client.py status TARGET     one GetStatus (the daemon still serves)
  grpc_client.py refused TARGET    a new call must fail UNAVAILABLE

TARGET: host:port or unix:///path.  Exit status 0 when every check passed;
each failure is printed as "grpc_client.py: FAIL: ...".
"""
import atexit
import concurrent.futures
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time

import grpc

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ME = "grpc_client.py"
SERVICE = "/cuzk.v1.ProvingEngine/"
# the memory tracker's buffer classes, in order (include/cuzk/mem.h)
BUFFER_CLASSES = ["params", "r1cs", "witness", "abc", "density", "pending", "scratch", "staging",
                  "input", "other"]
# GetStatus queue names: the Rust cuzk's for its kinds, the engine's for ours
QUEUE_KINDS = ["synthetic", "groth16", "porep-c2", "snap-update", "window-post", "winning-post"]
METHODS = ["SubmitProof", "AwaitProof", "Prove", "CancelProof", "GetStatus", "GetMetrics",
           "PreloadSRS", "EvictSRS"]


def load_stubs():
    # CZ_PROTO_DIR: another proto tree (an older daemon's, to run these
    # clients against it)
    proto = os.environ.get("CZ_PROTO_DIR") or os.path.join(ROOT, "proto")
    out = tempfile.mkdtemp(prefix="cuzk-pystubs-")
    atexit.register(shutil.rmtree, out, True)
    subprocess.run([sys.executable, "-m", "grpc_tools.protoc", "-I", proto,
                    "--python_out=" + out, "--grpc_python_out=" + out,
                    os.path.join(proto, "cuzk/v1/proving.proto")], check=True)
    sys.path.insert(0, out)
    from cuzk.v1 import proving_pb2, proving_pb2_grpc  # noqa: E402
    return proving_pb2, proving_pb2_grpc


pb, pbg = load_stubs()
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("%s: FAIL: %s" % (ME, what), flush=True)
    return cond


def verdict(cmd):
    """The exit status after cmd: 1, saying how many checks failed, or 0."""
    if failures:
        print("%s: %d check(s) failed" % (ME, len(failures)), flush=True)
        return 1
    print("%s: %s passed" % (ME, cmd), flush=True)
    return 0


def channel(target, private=False):
    opts = [("grpc.max_receive_message_length", 64 << 20)]
    if private:  # a connection of its own (a separate client)
        opts.append(("grpc.use_local_subchannel_pool", 1))
    return grpc.insecure_channel(target, options=opts)


def rpc_error(fn, req, **kw):
    """The status code of a call that must fail (None if it succeeded)."""
    try:
        fn(req, timeout=60, **kw)
    except grpc.RpcError as e:
        return e.code()
    return None


def synthetic(log_rows, partitions=1, public=0, seed=1, request_id=""):
    return pb.SubmitProofRequest(request_id=request_id, proof_kind=pb.SYNTHETIC,
                                 synthetic_log_rows=log_rows, partitions=partitions,
                                 synthetic_public=public, synthetic_seed=seed)


def metric(stub, name):
    text = stub.GetMetrics(pb.GetMetricsRequest(), timeout=30).prometheus_text
    m = re.search(r"^%s(?:\{\})? (\d+)$" % re.escape(name), text, re.M)
    return int(m.group(1)) if m else None


def done(a, partitions, what):
    ok = check(a.status == pb.AwaitProofResponse.COMPLETED,
               "%s: status %s (%s)" % (what, pb.AwaitProofResponse.Status.Name(a.status),
                                       a.error_message))
    ok = check(len(a.proof) == 192 * partitions,
               "%s: %d proof bytes, want %d" % (what, len(a.proof), 192 * partitions)) and ok
    chunks = {a.proof[i:i + 192] for i in range(0, len(a.proof), 192)}
    return check(len(chunks) == partitions and bytes(192) not in chunks,
                 "%s: proof partitions are zero or repeated" % what) and ok


def suite(target):
    tag = "[%s] " % target
    print("%s: suite on %s" % (ME, target), flush=True)
    ch = channel(target)
    st = pbg.ProvingEngineStub(ch)
    uniq = "%d-%d" % (os.getpid(), int(time.time() * 1e6))

    # GetStatus
    s = st.GetStatus(pb.GetStatusRequest(), timeout=30)
    present = {f.name for f, _ in s.ListFields()}
    for f in ("memory_budget_bytes", "rss_bytes", "buffer_classes", "queues"):
        check(f in present, tag + "GetStatus: field %s missing" % f)
    check(s.memory_budget_bytes > 0, tag + "GetStatus: memory_budget_bytes is 0")
    names = [b.name for b in s.buffer_classes]
    check(names == BUFFER_CLASSES, tag + "GetStatus: buffer classes %r" % names)
    check(len(s.queues) >= 1, tag + "GetStatus: no queue entry")
    # gpus: one entry per GPU of the back end, each with its memory and,
    # when idle, no job (the CI daemons prove on the CPU: none there)
    for g in s.gpus:
        check(g.name and g.vram_total_bytes > 0 and g.vram_free_bytes <= g.vram_total_bytes,
              tag + "GetStatus: GPU entry %r" % g)
    gpu_rows = [ln for ln in st.GetMetrics(pb.GetMetricsRequest(), timeout=30)
                .prometheus_text.splitlines() if ln.startswith("cuzk_gpu_memory_total_bytes{")]
    check(len(gpu_rows) == len(s.gpus),
          tag + "GetStatus: %d GPUs, /metrics %d" % (len(s.gpus), len(gpu_rows)))
    # one queue per kind served, named as the Rust cuzk names them (its
    # ProofKind's Display: porep-c2), none twice: Curio adds pending and
    # in_progress up over every entry for its backpressure
    kinds = [q.proof_kind for q in s.queues]
    check(len(set(kinds)) == len(kinds) and set(kinds) <= set(QUEUE_KINDS) and
          {"synthetic", "groth16"} <= set(kinds), tag + "GetStatus: queues %r" % kinds)

    # GetMetrics
    text = st.GetMetrics(pb.GetMetricsRequest(), timeout=30).prometheus_text
    check("# TYPE cuzk_" in text and metric(st, "cuzk_jobs_submitted_total") is not None,
          tag + "GetMetrics: no cuzk_ metrics in %r" % text[:200])
    bad = [ln for ln in text.splitlines() if ln and not ln.startswith("#") and
           not re.match(r"^[a-zA-Z_:][a-zA-Z0-9_:]*(\{[^}]*\})? [-+0-9.eEInfNa]+$", ln)]
    check(not bad, tag + "GetMetrics: not Prometheus text: %r" % bad[:3])

    # SubmitProof + AwaitProof
    done0 = s.total_proofs_completed
    r = st.SubmitProof(synthetic(10, 2, 2, seed=11), timeout=30)
    check(r.job_id != "", tag + "SubmitProof: empty job_id")
    a = st.AwaitProof(pb.AwaitProofRequest(job_id=r.job_id), timeout=120)
    check(a.job_id == r.job_id, tag + "AwaitProof: job_id %r != %r" % (a.job_id, r.job_id))
    done(a, 2, tag + "SubmitProof/AwaitProof")

    # a job in flight is in exactly one place: its kind's queue (pending or
    # in_progress) or the completed total, in one GetStatus (one snapshot)
    def busy(s):
        return {q.proof_kind: q.pending + q.in_progress for q in s.queues}

    s0 = st.GetStatus(pb.GetStatusRequest(), timeout=30)
    check(sum(busy(s0).values()) == 0, tag + "GetStatus idle: queues %r" % busy(s0))
    kc = 'cuzk_kind_jobs_total{kind="synthetic",outcome="completed"}'
    kc0 = metric(st, kc)
    r = st.SubmitProof(synthetic(14, 2, 1, seed=13), timeout=30)
    s1 = st.GetStatus(pb.GetStatusRequest(), timeout=30)
    b1 = busy(s1)
    ended = s1.total_proofs_completed - s0.total_proofs_completed
    check(b1.get("synthetic", 0) + ended == 1 and sum(b1.values()) == b1.get("synthetic", 0),
          tag + "GetStatus with a synthetic job in flight: queues %r, %d completed since" %
          (b1, ended))
    a = st.AwaitProof(pb.AwaitProofRequest(job_id=r.job_id), timeout=120)
    done(a, 2, tag + "SubmitProof/AwaitProof log_rows 14")
    s2 = st.GetStatus(pb.GetStatusRequest(), timeout=30)
    check(sum(busy(s2).values()) == 0, tag + "GetStatus after the job: queues %r" % busy(s2))
    srs = {x.circuit_id: x for x in s2.loaded_srs}
    x = srs.get("synthetic-14-1")
    check(x is not None and x.size_bytes > 0 and x.ref_count == 0 and
          x.tier == pb.SRSStatus.HOT,
          tag + "GetStatus: loaded_srs synthetic-14-1 %r" % (x,))
    check(kc0 is not None and metric(st, kc) == kc0 + 1,
          tag + "GetMetrics: %s %r, was %r" % (kc, metric(st, kc), kc0))
    ev = st.EvictSRS(pb.EvictSrsRequest(circuit_id="synthetic-14-1"), timeout=30)
    check(ev.was_loaded, tag + "EvictSRS synthetic-14-1: was_loaded false")

    # Prove
    p = st.Prove(pb.ProveRequest(submit=synthetic(10, 1, 2, seed=12)), timeout=120)
    done(p.result, 1, tag + "Prove")
    s = st.GetStatus(pb.GetStatusRequest(), timeout=30)
    check(s.total_proofs_completed >= done0 + 2,
          tag + "GetStatus: total_proofs_completed %d after 2 more proofs (was %d)"
          % (s.total_proofs_completed, done0))

    # idempotency, TIMEOUT, CancelProof, CANCELLED on one slow job
    sub0 = metric(st, "cuzk_jobs_submitted_total")
    cancelled0 = s.total_proofs_cancelled
    rid = "py-idem-" + uniq
    big = synthetic(14, 4, 0, seed=13, request_id=rid)
    j1 = st.SubmitProof(big, timeout=30).job_id
    j2 = st.SubmitProof(big, timeout=30).job_id
    check(j1 == j2 and j1 != "", tag + "idempotency: job ids %r and %r" % (j1, j2))
    sub1 = metric(st, "cuzk_jobs_submitted_total")
    check(sub1 == sub0 + 1, tag + "idempotency: submitted %s -> %s, want +1" % (sub0, sub1))
    a = st.AwaitProof(pb.AwaitProofRequest(job_id=j1, timeout_ms=1), timeout=30)
    check(a.status == pb.AwaitProofResponse.TIMEOUT,
          tag + "AwaitProof timeout_ms 1: %s" % pb.AwaitProofResponse.Status.Name(a.status))
    check(len(a.proof) == 0, tag + "AwaitProof TIMEOUT carries a proof")
    st.CancelProof(pb.CancelProofRequest(job_id=j1), timeout=30)
    a = st.AwaitProof(pb.AwaitProofRequest(job_id=j1), timeout=60)
    check(a.status == pb.AwaitProofResponse.CANCELLED,
          tag + "AwaitProof after cancel: %s" % pb.AwaitProofResponse.Status.Name(a.status))
    s = st.GetStatus(pb.GetStatusRequest(), timeout=30)
    check(s.total_proofs_cancelled == cancelled0 + 1,
          tag + "total_proofs_cancelled %d -> %d" % (cancelled0, s.total_proofs_cancelled))

    # unknown ids, empty ids
    nf = grpc.StatusCode.NOT_FOUND
    ia = grpc.StatusCode.INVALID_ARGUMENT
    c = rpc_error(st.CancelProof, pb.CancelProofRequest(job_id="no-such-job-" + uniq))
    check(c == nf, tag + "CancelProof unknown id: %s" % c)
    c = rpc_error(st.AwaitProof, pb.AwaitProofRequest(job_id="no-such-job-" + uniq))
    check(c == nf, tag + "AwaitProof unknown id: %s" % c)
    c = rpc_error(st.AwaitProof, pb.AwaitProofRequest(job_id=""))
    check(c == ia, tag + "AwaitProof empty id: %s" % c)

    # PreloadSRS / EvictSRS
    pr = st.PreloadSRS(pb.PreloadSrsRequest(circuit_id="synthetic-10-2"), timeout=60)
    check(pr.already_loaded, tag + "PreloadSRS synthetic-10-2: already_loaded false")
    pr = st.PreloadSRS(pb.PreloadSrsRequest(circuit_id="synthetic-11-0"), timeout=120)
    check(not pr.already_loaded, tag + "PreloadSRS synthetic-11-0: already_loaded true")
    s = st.GetStatus(pb.GetStatusRequest(), timeout=30)
    srs = {x.circuit_id: x for x in s.loaded_srs}
    check("synthetic-11-0" in srs and srs["synthetic-11-0"].size_bytes > 0,
          tag + "GetStatus: loaded_srs %r lacks synthetic-11-0" % sorted(srs))
    pr = st.PreloadSRS(pb.PreloadSrsRequest(circuit_id="synthetic-11-0"), timeout=60)
    check(pr.already_loaded, tag + "PreloadSRS synthetic-11-0 twice: already_loaded false")
    ev = st.EvictSRS(pb.EvictSrsRequest(circuit_id="synthetic-11-0"), timeout=30)
    check(ev.was_loaded and ev.freed_bytes > 0,
          tag + "EvictSRS synthetic-11-0: was_loaded %s freed %d" % (ev.was_loaded, ev.freed_bytes))
    ev = st.EvictSRS(pb.EvictSrsRequest(circuit_id="synthetic-11-0"), timeout=30)
    check(not ev.was_loaded and ev.freed_bytes == 0,
          tag + "EvictSRS again: was_loaded %s freed %d" % (ev.was_loaded, ev.freed_bytes))
    s = st.GetStatus(pb.GetStatusRequest(), timeout=30)
    check("synthetic-11-0" not in {x.circuit_id for x in s.loaded_srs},
          tag + "GetStatus: synthetic-11-0 still listed after eviction")
    c = rpc_error(st.PreloadSRS, pb.PreloadSrsRequest(circuit_id="no-such-circuit"))
    check(c == nf, tag + "PreloadSRS unknown circuit: %s" % c)
    c = rpc_error(st.PreloadSRS, pb.PreloadSrsRequest(circuit_id=""))
    check(c == ia, tag + "PreloadSRS empty id: %s" % c)

    # proof kinds
    try:
        st.SubmitProof(pb.SubmitProofRequest(proof_kind=77), timeout=30)
        check(False, tag + "SubmitProof kind 77: success")
    except grpc.RpcError as e:
        check(e.code() == ia and "77" in e.details(),
              tag + "SubmitProof kind 77: %s %s" % (e.code(), e.details()))
    c = rpc_error(st.Prove, pb.ProveRequest(submit=pb.SubmitProofRequest(proof_kind=77)))
    check(c == ia, tag + "Prove kind 77: %s" % c)
    # an empty WindowPoSt request: refused, naming what is missing
    c = rpc_error(st.SubmitProof, pb.SubmitProofRequest(proof_kind=pb.WINDOW_POST_PARTITION))
    check(c == grpc.StatusCode.INVALID_ARGUMENT, tag + "SubmitProof WINDOW_POST_PARTITION: %s" % c)
    c = rpc_error(st.SubmitProof, pb.SubmitProofRequest(proof_kind=pb.POREP_SEAL_COMMIT))
    check(c == ia, tag + "SubmitProof POREP_SEAL_COMMIT without a C1: %s" % c)
    c = rpc_error(st.Prove, pb.ProveRequest())
    check(c == ia, tag + "Prove without submit: %s" % c)
    c = rpc_error(st.SubmitProof, pb.SubmitProofRequest(
        proof_kind=pb.GROTH16_GENERIC, circuit_id="x", witness=b"\0" * 33))
    check(c == ia, tag + "GROTH16_GENERIC 33-byte witness: %s" % c)
    c = rpc_error(st.SubmitProof, synthetic(9))
    check(c == ia, tag + "SYNTHETIC log_rows 9: %s" % c)

    # malformed protobuf on every method, an unknown method; still serving
    for m in METHODS:
        raw = ch.unary_unary(SERVICE + m, request_serializer=None, response_deserializer=None)
        c = rpc_error(raw, b"\xff\xff\xff")
        check(c == ia, tag + "%s with malformed bytes: %s" % (m, c))
    raw = ch.unary_unary(SERVICE + "NoSuchMethod", request_serializer=None,
                         response_deserializer=None)
    c = rpc_error(raw, b"")
    check(c == grpc.StatusCode.UNIMPLEMENTED, tag + "unknown method: %s" % c)
    check(st.GetStatus(pb.GetStatusRequest(), timeout=30).memory_budget_bytes > 0,
          tag + "GetStatus after malformed requests")

    # a 64 MiB message goes through (answered by the method: vanilla_proof is
    # not a WindowPoSt field; not size-rejected)
    c = rpc_error(st.SubmitProof, pb.SubmitProofRequest(
        proof_kind=pb.WINDOW_POST_PARTITION, vanilla_proof=b"\x5a" * (64 << 20)))
    check(c == grpc.StatusCode.INVALID_ARGUMENT, tag + "64 MiB SubmitProof: %s" % c)

    # 64 concurrent clients, each on its own connection
    def one(i):
        with channel(target, private=True) as cc:
            r = pbg.ProvingEngineStub(cc).Prove(
                pb.ProveRequest(submit=synthetic(10, 1, 0, seed=1000 + i)), timeout=170)
            return r.result

    with concurrent.futures.ThreadPoolExecutor(64) as ex:
        res = list(ex.map(one, range(64)))
    ok = sum(1 for x in res if x.status == pb.AwaitProofResponse.COMPLETED and
             len(x.proof) == 192)
    check(ok == 64, tag + "64 concurrent Prove: %d COMPLETED" % ok)
    ch.close()


def hold(target, n):
    """n Prove calls of log_rows 14 in flight, for the SIGTERM drain test."""
    ch = channel(target)
    st = pbg.ProvingEngineStub(ch)
    sub0 = metric(st, "cuzk_jobs_submitted_total")
    res = [None] * n

    def one(i):
        try:
            res[i] = st.Prove(pb.ProveRequest(submit=synthetic(14, 2, 1, seed=500 + i)),
                              timeout=170).result
        except grpc.RpcError as e:
            res[i] = e

    th = [threading.Thread(target=one, args=(i,)) for i in range(n)]
    for t in th:
        t.start()
    # every Prove has submitted its job: the daemon holds all n calls
    t0 = time.time()
    while metric(st, "cuzk_jobs_submitted_total") < sub0 + n:
        if time.time() - t0 > 30:
            check(False, "hold: the jobs were not all submitted within 30 s")
            return
        time.sleep(0.02)
    print("inflight", flush=True)
    for t in th:
        t.join()
    for i, r in enumerate(res):
        if isinstance(r, grpc.RpcError):
            check(False, "hold: Prove %d failed: %s %s" % (i, r.code(), r.details()))
        else:
            done(r, 2, "hold: Prove %d" % i)


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    cmd, targets = argv[1], argv[2:]
    if cmd == "suite":
        for t in targets:
            try:
                suite(t)
            except grpc.RpcError as e:
                check(False, "[%s] unexpected RPC error %s: %s" % (t, e.code(), e.details()))
    elif cmd == "hold" and len(targets) == 2:
        hold(targets[0], int(targets[1]))
    elif cmd == "status":
        try:
            s = pbg.ProvingEngineStub(channel(targets[0])).GetStatus(pb.GetStatusRequest(),
                                                                   timeout=10)
            check(s.memory_budget_bytes > 0, "status: memory_budget_bytes 0")
        except grpc.RpcError as e:
            check(False, "status on %s: %s %s" % (targets[0], e.code(), e.details()))
    elif cmd == "refused":
        c = rpc_error(pbg.ProvingEngineStub(channel(targets[0])).GetStatus,
                      pb.GetStatusRequest())
        check(c == grpc.StatusCode.UNAVAILABLE, "refused: a new call got %s" % c)
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return verdict(cmd)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
