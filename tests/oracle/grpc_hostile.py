#!/usr/bin/python3
"""cuzk-daemon against a hostile client (Debian's python3-grpcio, and
python3-h2 for raw HTTP/2): each check is an attack from issue 16's list
(or issue 42's, on the transport) and the answer a daemon must give.  Run by
tests/oracle/run_hostile.sh, which starts the daemons.

  grpc_hostile.py main TARGET STATUS_PORT PID [--rss] [--build TYPE]
      against a daemon with daemon.synthetic on, max_queued_jobs 40,
      max_queued_partitions 300 and circuit "mul" (tests/data/zkey/mul.zkey):
      1 ids, 2 reused ids (Curio's), 3 unsatisfied witnesses, 4 amplification,
      7 bounds (threads, queues, departed clients, floods; --rss: idle
      untracked RSS after the floods under 64 MiB), 8 trickling status
      clients, 9 Curio's fields, the smaller items, 42a a request over the
      message limit refused from its gRPC prefix (a raw HTTP/2 stream
      claiming 1.5 GB, grpcio sending 300 MB) with the daemon's peak RSS
      growing under 16 MiB, 42b GetStatus while eight 250 MB SubmitProofs
      arrive on their own connections (its median under 25 ms and its max
      under 250 ms when TYPE is Release, the default, 1 s otherwise: the
      stall the issue saw was 7 s, and a 2-core machine shared with
      builds has shown 106 ms), the daemon's peak RSS growing
      by less than its request pool and 64 MiB (not checked when TYPE is
      Tsan)
  grpc_hostile.py burst TARGET STATUS_PORT PID TYPE
      42b alone
  grpc_hostile.py status-loop TARGET
      42b's GetStatus loop (a process of its own): until stdin closes
  grpc_hostile.py submit TARGET N LOG_ROWS PARTS
      N jobs by SubmitProof, nobody awaiting them (prints their ids)
  grpc_hostile.py flood TARGET STATUS_PORT N ROUNDS
      ROUNDS floods of N concurrent SubmitProofs; the idle untracked RSS
      after each (the benchmark of BENCHMARKS.md)
  grpc_hostile.py off TARGET
      the synthetic kind is off: SUBMIT and PreloadSRS answer UNIMPLEMENTED

TARGET: host:port or unix:///path.  Exit status 0 when every check held;
each failure is printed as "grpc_hostile.py: FAIL: ...".
"""
import concurrent.futures
import os
import re
import select
import socket
import struct
import subprocess
import sys
import threading
import time
import urllib.parse

import grpc
import h2.config
import h2.connection
import h2.events
import h2.exceptions

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import grpc_client as gc  # noqa: E402  (stubs generated from our proto)
from pbwire import field  # noqa: E402

pb, pbg = gc.pb, gc.pbg
ME = gc.ME = "grpc_hostile.py"
ROOT = gc.ROOT
SERVICE = "/cuzk.v1.ProvingEngine/"
C = grpc.StatusCode
failures = gc.failures
check = gc.check


def step(what):
    print("%s: %s" % (ME, what), flush=True)


def err_of(fn, req, timeout=60):
    """(code, details) of a call that must fail; (None, None) if it did not."""
    try:
        fn(req, timeout=timeout)
    except grpc.RpcError as e:
        return e.code(), e.details() or ""
    return None, None


def raw(ch, method):
    return ch.unary_unary(SERVICE + method, request_serializer=None, response_deserializer=None)


def synthetic(log_rows, partitions=1, seed=1, request_id="", priority=0):
    return pb.SubmitProofRequest(request_id=request_id, proof_kind=pb.SYNTHETIC,
                                 synthetic_log_rows=log_rows, partitions=partitions,
                                 synthetic_seed=seed, priority=priority)


def proc_status(pid, key):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1])
    return None


def http_get(port, path, src="127.0.0.1", timeout=10):
    """GET path from the status endpoint on 127.0.0.1:port, from source
    address src: the whole answer (the server closes after it)."""
    s = socket.socket()
    s.settimeout(timeout)
    s.bind((src, 0))
    s.connect(("127.0.0.1", port))
    s.sendall(b"GET " + path.encode() + b" HTTP/1.0\r\n\r\n")
    data = b""
    while True:
        b = s.recv(65536)
        if not b:
            break
        data += b
    s.close()
    return data


def metrics(status_port):
    text = http_get(status_port, "/metrics").split(b"\r\n\r\n", 1)[1].decode()
    out = {}
    for m in re.finditer(r"^([a-z_]+)(?:\{[^}]*\})? ([0-9.e+]+)$", text, re.M):
        out.setdefault(m.group(1), float(m.group(2)))
    return out


def uniq():
    return "%d-%d" % (os.getpid(), int(time.time() * 1e6))


def wtns_values(path):
    """The witness of a snarkjs .wtns file: 32-byte little-endian values."""
    d = open(path, "rb").read()
    assert d[:4] == b"wtns"
    n_sections = int.from_bytes(d[8:12], "little")
    at, n8, values = 12, None, None
    for _ in range(n_sections):
        kind = int.from_bytes(d[at:at + 4], "little")
        size = int.from_bytes(d[at + 4:at + 12], "little")
        body = d[at + 12:at + 12 + size]
        if kind == 1:
            n8 = int.from_bytes(body[:4], "little")
        elif kind == 2:
            values = body
        at += 12 + size
    assert n8 == 32 and values is not None
    return [values[i:i + 32] for i in range(0, len(values), 32)]


# ----------------------------------------------------------------- items ---

def item1_ids(st):
    step("1: client ids cannot take the daemon's ids; every job gets its own proofs")
    code, det = err_of(st.SubmitProof, synthetic(10, 3, request_id="job-%d" % 1))
    check(code == C.INVALID_ARGUMENT and "job-" in det,
          "1: request_id job-1 accepted (%s %s)" % (code, det))
    # the collision of c8d8321: a client id equal to the next generated id
    sub = gc.metric(st, "cuzk_jobs_submitted_total")
    code, det = err_of(st.SubmitProof, synthetic(10, 3, request_id="job-%d" % (sub + 2)))
    check(code == C.INVALID_ARGUMENT, "1: request_id job-%d accepted (%s)" % (sub + 2, code))
    u = uniq()
    jobs = []
    for i in range(12):
        rid = "c1-%s-%d" % (u, i) if i % 2 else ""
        r = st.SubmitProof(synthetic(10, 1 + i % 3, seed=100 + i, request_id=rid), timeout=30)
        jobs.append((r.job_id, 1 + i % 3))
    ids = [j for j, _ in jobs]
    check(len(set(ids)) == len(ids), "1: job ids repeat: %r" % ids)
    for j, parts in jobs:
        a = st.AwaitProof(pb.AwaitProofRequest(job_id=j), timeout=120)
        check(a.status == pb.AwaitProofResponse.COMPLETED and len(a.proof) == 192 * parts,
              "1: job %s: %s with %d proof bytes, want %d" %
              (j, pb.AwaitProofResponse.Status.Name(a.status), len(a.proof), 192 * parts))


def item2_reuse(st):
    step("2: a request_id reused as Curio reuses it: each request its own job and proof")
    # Curio's WindowPoSt id: Go's %v of the randomness' first 8 bytes
    rid = "wdpost-1000-0-[%s]" % " ".join(str(b) for b in os.urandom(8))
    sub0 = gc.metric(st, "cuzk_jobs_submitted_total")
    r1 = st.SubmitProof(synthetic(10, 2, seed=7, request_id=rid), timeout=30)
    check(r1.job_id.startswith("job-"), "2: SubmitProof answers a handle, not %r" % r1.job_id)
    # a retry of the same request (a lost reply) joins its job
    r2 = st.SubmitProof(synthetic(10, 2, seed=7, request_id=rid, priority=pb.HIGH), timeout=30)
    check(r1.job_id == r2.job_id, "2: the same request, handles %s %s" % (r1.job_id, r2.job_id))
    # other requests under the id at once (a deadline's partitions): each
    # proved, each caller answered with its own proofs
    others = [synthetic(10, 3, seed=7, request_id=rid), synthetic(10, 1, seed=8, request_id=rid),
              synthetic(11, 4, seed=7, request_id=rid)]
    futs = [st.Prove.future(pb.ProveRequest(submit=o), timeout=300) for o in others]
    res = [f.result().result for f in futs]
    for o, a in zip(others, res):
        check(a.status == pb.AwaitProofResponse.COMPLETED and len(a.proof) == 192 * o.partitions
              and a.job_id.startswith("job-"),
              "2: Prove of another request under the id: %s, %d bytes for %d partitions" %
              (pb.AwaitProofResponse.Status.Name(a.status), len(a.proof), o.partitions))
    handles = {r1.job_id} | {a.job_id for a in res}
    check(len(handles) == 4, "2: four requests, handles %r" % sorted(handles))
    check(gc.metric(st, "cuzk_jobs_submitted_total") == sub0 + 4,
          "2: four jobs submitted for five calls")
    # the id names several of the four jobs now (a job that had finished
    # when another request under the id came leaves it: how many are left
    # depends on the timing): refused where the daemon would have to choose,
    # naming the jobs
    for name, fn, req in (("AwaitProof", st.AwaitProof, pb.AwaitProofRequest(job_id=rid)),
                          ("CancelProof", st.CancelProof, pb.CancelProofRequest(job_id=rid))):
        code, det = err_of(fn, req)
        m = re.search(r"names (\d+) jobs \(([^)]*)\)", det or "")
        named = re.findall(r"job-\d+", m.group(2)) if m else []
        check(code == C.FAILED_PRECONDITION and m and int(m.group(1)) >= 2 and
              len(named) == int(m.group(1)) and set(named) <= handles,
              "2: %s of an id naming several jobs: %s %s" % (name, code, det))
    a = st.AwaitProof(pb.AwaitProofRequest(job_id=r1.job_id), timeout=120)
    check(a.status == pb.AwaitProofResponse.COMPLETED and len(a.proof) == 384 and
          a.job_id == r1.job_id, "2: the first job by its handle: %s, %d bytes" %
          (pb.AwaitProofResponse.Status.Name(a.status), len(a.proof)))
    # a retry of a finished request: its proof again, proved once
    sub1 = gc.metric(st, "cuzk_jobs_submitted_total")
    b = st.Prove(pb.ProveRequest(submit=others[1]), timeout=120).result
    check(b.job_id == res[1].job_id and b.proof == res[1].proof,
          "2: a retry of a finished request: job %s (want %s), proof %s" %
          (b.job_id, res[1].job_id, "equal" if b.proof == res[1].proof else "different"))
    check(gc.metric(st, "cuzk_jobs_submitted_total") == sub1, "2: the retry submitted a job")
    # the id then names that job alone; a new request makes it name the new one
    a = st.AwaitProof(pb.AwaitProofRequest(job_id=rid), timeout=120)
    check(a.job_id == res[1].job_id and a.proof == res[1].proof,
          "2: AwaitProof of the id after the retry: job %s" % a.job_id)
    r3 = st.SubmitProof(synthetic(10, 1, seed=9, request_id=rid), timeout=30)
    a = st.AwaitProof(pb.AwaitProofRequest(job_id=rid), timeout=120)
    check(a.job_id == r3.job_id and a.status == pb.AwaitProofResponse.COMPLETED and
          len(a.proof) == 192, "2: AwaitProof of the id after a new request: job %s (want %s)" %
          (a.job_id, r3.job_id))


def item3_unsatisfied(st):
    step("3: a generic witness that does not satisfy its circuit comes back FAILED")
    w = wtns_values(os.path.join(ROOT, "tests/data/circom/mul.wtns"))
    ok = pb.SubmitProofRequest(proof_kind=pb.GROTH16_GENERIC, circuit_id="mul",
                               witness=b"".join(w))
    p = st.Prove(pb.ProveRequest(submit=ok), timeout=120).result
    check(p.status == pb.AwaitProofResponse.COMPLETED and len(p.proof) == 192,
          "3: the valid mul witness: %s %s" % (pb.AwaitProofResponse.Status.Name(p.status),
                                               p.error_message))
    bad = list(w)
    v = int.from_bytes(bad[-1], "little") + 1
    bad[-1] = v.to_bytes(32, "little")
    p = st.Prove(pb.ProveRequest(submit=pb.SubmitProofRequest(
        proof_kind=pb.GROTH16_GENERIC, circuit_id="mul", witness=b"".join(bad))),
        timeout=120).result
    check(p.status == pb.AwaitProofResponse.FAILED and len(p.proof) == 0 and
          "does not satisfy" in p.error_message,
          "3: tampered witness: %s, %d proof bytes, %r" %
          (pb.AwaitProofResponse.Status.Name(p.status), len(p.proof), p.error_message))
    r = (1 << 255).to_bytes(32, "little")
    code, det = err_of(st.SubmitProof, pb.SubmitProofRequest(
        proof_kind=pb.GROTH16_GENERIC, circuit_id="mul", witness=b"".join(w[:-1]) + r))
    check(code == C.INVALID_ARGUMENT and "modulus" in det, "3: value >= r: %s %s" % (code, det))


def item4_amplification(ch, st, pid):
    step("4: a request is sized before it is decoded; unknown fields cannot amplify memory")
    with open("/proc/%d/clear_refs" % pid, "w") as f:
        f.write("5")  # resets the peak RSS (VmHWM) to the RSS now
    hwm0 = proc_status(pid, "VmHWM")
    junk = field(15, 0, 0) * (16 << 20)  # 32 MiB of two-byte unknown fields
    code, det = err_of(raw(ch, "SubmitProof"), junk, timeout=120)
    hwm1 = proc_status(pid, "VmHWM")
    check(code == C.INVALID_ARGUMENT and "does not know" in det,
          "4: 32 MiB of unknown fields: %s %s" % (code, det))
    grew = (hwm1 - hwm0) / 1024
    step("4: peak RSS grew by %.0f MiB for 32 MiB of unknown fields" % grew)
    check(grew < 200, "4: peak RSS grew by %.0f MiB (c8d8321: ~1000)" % grew)
    code, det = err_of(raw(ch, "SubmitProof"), field(11, 2, b"") * 70000)
    check(code == C.INVALID_ARGUMENT and "more than 65536 fields" in det,
          "4: 70000 fields: %s %s" % (code, det))
    # a 40 MiB field decoded in the request pool (class "input"), then freed
    s0 = st.GetStatus(pb.GetStatusRequest(), timeout=30)
    code, det = err_of(st.SubmitProof, pb.SubmitProofRequest(
        proof_kind=pb.SYNTHETIC, synthetic_log_rows=10, vanilla_proof=b"\x5a" * (40 << 20)))
    check(code == C.INVALID_ARGUMENT and "vanilla_proof (10)" in det,
          "4: 40 MiB vanilla_proof on SYNTHETIC: %s %s" % (code, det))
    s1 = st.GetStatus(pb.GetStatusRequest(), timeout=30)
    cls0 = {b.name: b for b in s0.buffer_classes}
    cls1 = {b.name: b for b in s1.buffer_classes}
    check(cls1["input"].total_allocs > cls0["input"].total_allocs and
          cls1["input"].high_water_bytes >= 40 << 20 and cls1["input"].live_bytes == 0,
          "4: the 40 MiB request was not decoded in the request pool: %s" % cls1["input"])


def item7_bounds(ch, st, target, pid, status_port, rss):
    step("7: bounded threads and queues; a departed Prove cancels its job; floods")
    u = uniq()
    # waiting calls cost no thread
    long_id = "long-" + u
    st.SubmitProof(synthetic(14, 40, seed=3, request_id=long_id), timeout=30)
    th0 = proc_status(pid, "Threads")
    n = 1500  # over three connections (1024 streams at most on each)
    chans = [gc.channel(target, private=True) for _ in range(3)]
    stubs = [pbg.ProvingEngineStub(c) for c in chans]
    futs = [stubs[i % 3].AwaitProof.future(pb.AwaitProofRequest(job_id=long_id), timeout=300)
            for i in range(n)]
    t0 = time.time()
    while metrics(status_port).get("cuzk_watches", 0) < n and time.time() - t0 < 60:
        time.sleep(0.2)
    th1 = proc_status(pid, "Threads")
    step("7: %d AwaitProof calls pending: %d threads (%d before)" % (n, th1, th0))
    check(metrics(status_port).get("cuzk_watches", 0) >= n, "7: the awaits are not all pending")
    check(th1 <= th0 + 4, "7: %d awaits took the daemon from %d to %d threads" % (n, th0, th1))
    st.CancelProof(pb.CancelProofRequest(job_id=long_id), timeout=30)
    done = [f.result() for f in futs]
    check(all(d.status == pb.AwaitProofResponse.CANCELLED for d in done),
          "7: not every await answered CANCELLED")
    for c in chans:
        c.close()
    # queue limits (max_queued_jobs 40, max_queued_partitions 300)
    ids = []
    for i in range(40):
        ids.append(st.SubmitProof(synthetic(12, 5, seed=i, request_id="q-%s-%d" % (u, i)),
                                  timeout=30).job_id)
    code, det = err_of(st.SubmitProof, synthetic(10, 1, request_id="q-%s-x" % u))
    check(code == C.RESOURCE_EXHAUSTED and "40 jobs are unfinished" in det,
          "7: job 41: %s %s" % (code, det))
    for j in ids:
        st.CancelProof(pb.CancelProofRequest(job_id=j), timeout=30)
    for j in ids:
        st.AwaitProof(pb.AwaitProofRequest(job_id=j), timeout=120)
    code, det = err_of(st.SubmitProof, synthetic(10, 301))
    check(code == C.RESOURCE_EXHAUSTED and "partitions" in det and "300" in det,
          "7: 301 partitions: %s %s" % (code, det))
    # a Prove whose client goes away cancels its job ...
    gone = "gone-" + u
    code, _ = err_of(st.Prove, pb.ProveRequest(submit=synthetic(14, 40, seed=4, request_id=gone)),
                     timeout=1.5)
    check(code == C.DEADLINE_EXCEEDED, "7: the short Prove: %s" % code)
    a = st.AwaitProof(pb.AwaitProofRequest(job_id=gone, timeout_ms=30000), timeout=60)
    check(a.status == pb.AwaitProofResponse.CANCELLED and "went away" in a.error_message,
          "7: the departed Prove's job: %s %r" % (pb.AwaitProofResponse.Status.Name(a.status),
                                                 a.error_message))
    # ... unless another call awaits it
    kept = "kept-" + u
    fut = st.Prove.future(pb.ProveRequest(submit=synthetic(14, 8, seed=5, request_id=kept)),
                          timeout=300)
    t0 = time.time()
    while err_of(st.AwaitProof, pb.AwaitProofRequest(job_id=kept, timeout_ms=1))[0] is not None:
        if not check(time.time() - t0 < 30, "7: the Prove's job never appeared"):
            return
        time.sleep(0.05)
    w0 = metrics(status_port).get("cuzk_watches", 0)
    other = st.AwaitProof.future(pb.AwaitProofRequest(job_id=kept), timeout=300)
    while metrics(status_port).get("cuzk_watches", 0) < w0 + 1 and time.time() - t0 < 30:
        time.sleep(0.05)
    fut.cancel()
    r = other.result()
    check(r.status == pb.AwaitProofResponse.COMPLETED and len(r.proof) == 8 * 192,
          "7: a job awaited by another call was not kept: %s %s" %
          (pb.AwaitProofResponse.Status.Name(r.status), r.error_message))
    # floods: refused beyond the limits, memory back to its baseline
    flood = 2000
    for k in range(5):
        t0 = time.time()
        futs = [st.SubmitProof.future(synthetic(10, 1, seed=k * flood + i), timeout=60)
                for i in range(flood)]
        res = {"ok": 0, "limit": 0, "other": 0}
        for f in futs:
            try:
                f.result()
                res["ok"] += 1
            except grpc.RpcError as e:
                res["limit" if e.code() == C.RESOURCE_EXHAUSTED else "other"] += 1
        step("7: flood %d: %d accepted, %d refused at a limit in %.1f s" %
             (k + 1, res["ok"], res["limit"], time.time() - t0))
        check(res["other"] == 0 and res["limit"] > 0, "7: flood %d answered %r" % (k + 1, res))
        t0 = time.time()
        while time.time() - t0 < 120:
            s = st.GetStatus(pb.GetStatusRequest(), timeout=30)
            if sum(q.pending + q.in_progress for q in s.queues) == 0:
                break
            time.sleep(0.2)
    time.sleep(2.5)  # the sampler and the idle trim
    m = metrics(status_port)
    un = m.get("cuzk_untracked_rss_bytes", 0) / 2**20
    step("7: after 5 floods of %d: untracked RSS %.1f MiB, RSS %.1f MiB" %
         (flood, un, m.get("cuzk_rss_bytes", 0) / 2**20))
    if rss:
        check(un < 64, "7: untracked RSS %.1f MiB after the floods (target: under 64)" % un)


def item8_trickle(status_port):
    step("8: trickling status clients cannot take /status down")
    socks = []
    for a in range(4):
        for _ in range(32 if a == 0 else 22):
            s = socket.socket()
            s.bind(("127.0.0.%d" % (1 + a), 0))
            s.connect(("127.0.0.1", status_port))
            s.send(b"G")
            socks.append(s)
    stop = threading.Event()

    def trickle():
        while not stop.is_set():
            for s in socks:
                try:
                    s.send(b"E")
                except OSError:
                    pass
            time.sleep(0.3)

    t = threading.Thread(target=trickle)
    t.start()
    try:
        for src in ("127.0.0.1", "127.0.0.9"):
            t0 = time.time()
            data = http_get(status_port, "/status", src=src, timeout=5)
            dt = time.time() - t0
            check(data.startswith(b"HTTP/1.") and b" 200 " in data.split(b"\r\n")[0] and
                  dt < 2, "8: /status from %s beside %d tricklers: %r after %.1f s" %
                  (src, len(socks), data[:40], dt))
    finally:
        stop.set()
        t.join()
        for s in socks:
            s.close()


def item9_curio_fields(st):
    step("9: Curio's fields are known: vanilla_proofs and comm_* are decoded, never dropped")
    code, det = err_of(st.SubmitProof, pb.SubmitProofRequest(
        proof_kind=pb.SYNTHETIC, synthetic_log_rows=10, vanilla_proofs=[b"v0", b"v1"]))
    check(code == C.INVALID_ARGUMENT and "vanilla_proofs (11)" in det,
          "9: vanilla_proofs on SYNTHETIC: %s %s" % (code, det))
    code, det = err_of(st.SubmitProof, pb.SubmitProofRequest(
        proof_kind=pb.SYNTHETIC, synthetic_log_rows=10, comm_r_old=b"\x11" * 32))
    check(code == C.INVALID_ARGUMENT and "comm_r_old (30)" in det,
          "9: comm_r_old on SYNTHETIC: %s %s" % (code, det))
    code, det = err_of(st.SubmitProof, pb.SubmitProofRequest(
        proof_kind=pb.WINDOW_POST_PARTITION, registered_proof=10, vanilla_proofs=[b"v"],
        randomness=b"r" * 31 + b"\x01"))
    check(code == C.INVALID_ARGUMENT and "vanilla_proofs[0]: 1 bytes" in det,
          "9: WindowPoSt's blob decoded and its size refused: %s %s" % (code, det))


def smaller(ch, st):
    step("smaller items: priorities, NUL and UTF-8 in ids, canonical synthetic ids")
    for p in (5, 99, -1):
        msg = field(2, 0, 101) + field(5, 0, p & 0xFFFFFFFFFFFFFFFF) + field(103, 0, 10)
        code, det = err_of(raw(ch, "SubmitProof"), msg)
        check(code == C.INVALID_ARGUMENT and "priority" in det,
              "priority %d: %s %s" % (p, code, det))
    code, det = err_of(raw(ch, "SubmitProof"), field(1, 2, b"ab\0cd") + field(2, 0, 101) +
                       field(103, 0, 10))
    check(code == C.INVALID_ARGUMENT and "NUL" in det, "NUL in request_id: %s %s" % (code, det))
    code, det = err_of(raw(ch, "SubmitProof"), field(1, 2, b"a\xff\xfeb") + field(2, 0, 101) +
                       field(103, 0, 10))
    check(code == C.INVALID_ARGUMENT and "UTF-8" in det and "\ufffd" not in det,
          "invalid UTF-8 in request_id: %s %r" % (code, det))
    code, det = err_of(raw(ch, "AwaitProof"), field(1, 2, b"a\xc0\x80"))
    check(code == C.INVALID_ARGUMENT and "UTF-8" in det, "invalid UTF-8 job_id: %s" % code)
    code, det = err_of(st.SubmitProof, synthetic(10, request_id="a\nb"))
    check(code == C.INVALID_ARGUMENT and "control character" in det,
          "newline in request_id: %s %s" % (code, det))
    for alias in ("synthetic-010-0", "synthetic-10-00", "synthetic-+10-0"):
        code, _ = err_of(st.PreloadSRS, pb.PreloadSrsRequest(circuit_id=alias))
        check(code == C.NOT_FOUND, "PreloadSRS %s: %s" % (alias, code))


# ------------------------------------------------- the HTTP/2 transport ---

def h2_connect(target):
    if target.startswith("unix:"):
        s = socket.socket(socket.AF_UNIX)
        s.connect(target[7:] if target.startswith("unix://") else target[5:])
    else:
        host, port = target.rsplit(":", 1)
        s = socket.create_connection((host.strip("[]"), int(port)))
    s.settimeout(60)
    return s


def h2_claim(target, method, claim, cap):
    """A raw HTTP/2 client (python3-h2, no gRPC library): a stream of method
    whose gRPC prefix claims claim bytes, then zeros as fast as the windows
    allow, until the stream is answered or cap bytes are sent.  Returns
    (grpc-status, grpc-message, bytes sent, RST_STREAM code or None); the
    status None when no answer came."""
    s = h2_connect(target)
    conn = h2.connection.H2Connection(h2.config.H2Configuration(client_side=True,
                                                                header_encoding="utf-8"))
    conn.initiate_connection()
    sid = conn.get_next_available_stream_id()
    conn.send_headers(sid, [(":method", "POST"), (":scheme", "http"), (":path", SERVICE + method),
                            (":authority", "cuzk"), ("content-type", "application/grpc"),
                            ("te", "trailers")])
    s.sendall(conn.data_to_send())
    head, sent, ended, reset = {}, 0, False, None
    zeros = bytes(1 << 14)
    body = struct.pack(">BI", 0, claim)  # what is left of the first frame
    while not ended:
        window = 0
        if sent < cap and reset is None:
            try:
                window = min(conn.local_flow_control_window(sid), conn.max_outbound_frame_size,
                             cap - sent)
            except h2.exceptions.StreamClosedError:
                window = 0
        if window > 0:
            data = (body + zeros)[:window]
            body = b""
            conn.send_data(sid, data)
            sent += len(data)
            s.sendall(conn.data_to_send())
        r, _, _ = select.select([s], [], [], 0 if window > 0 else 30)
        if not r:
            if window > 0:
                continue
            break  # nothing for 30 s with nothing left to send
        b = s.recv(1 << 16)
        if not b:
            break
        for ev in conn.receive_data(b):
            if isinstance(ev, (h2.events.ResponseReceived, h2.events.TrailersReceived)):
                head.update(dict(ev.headers))
            elif isinstance(ev, h2.events.DataReceived):
                conn.acknowledge_received_data(ev.flow_controlled_length, ev.stream_id)
            elif isinstance(ev, h2.events.StreamEnded) and ev.stream_id == sid:
                ended = True
            elif isinstance(ev, h2.events.StreamReset) and ev.stream_id == sid:
                reset = ev.error_code
        s.sendall(conn.data_to_send())
    s.close()
    code = head.get("grpc-status")
    return (int(code) if code is not None else None,
            urllib.parse.unquote(head.get("grpc-message", "")), sent, reset)


def peak_rss_reset(pid):
    with open("/proc/%d/clear_refs" % pid, "w") as f:
        f.write("5")  # resets the peak RSS (VmHWM) to the RSS now
    return proc_status(pid, "VmHWM")


def item42a_oversized(ch, target, pid):
    step("42a: a request over the message limit is refused from its prefix, never buffered")
    limit = 256 << 20
    hwm0 = peak_rss_reset(pid)
    code, det, sent, reset = h2_claim(target, "SubmitProof", 1610612736, 64 << 20)
    grew = (proc_status(pid, "VmHWM") - hwm0) / 1024
    step("42a: a prefix claiming 1610612736 bytes: status %s after %d KiB sent (RST_STREAM %s), "
         "peak RSS grew by %.1f MiB: %s" % (code, sent >> 10, reset, grew, det))
    check(code == 8 and "1610612736" in det and str(limit) in det,
          "42a: a 1.5 GB prefix: status %s %r (want 8 naming 1610612736 and %d)" % (code, det, limit))
    check(sent < 16 << 20, "42a: the client could send %.1f MiB before the answer" % (sent / 2**20))
    check(grew < 16, "42a: peak RSS grew by %.1f MiB for a refused 1.5 GB request" % grew)
    big = bytes(300 * 10**6)
    hwm0 = peak_rss_reset(pid)
    t0 = time.time()
    code, det = err_of(raw(ch, "SubmitProof"), big, timeout=120)
    grew = (proc_status(pid, "VmHWM") - hwm0) / 1024
    step("42a: grpcio sending 300 MB: %s in %.2f s, peak RSS grew by %.1f MiB: %s" %
         (code, time.time() - t0, grew, det))
    check(code == C.RESOURCE_EXHAUSTED and "300000000" in det and str(limit) in det,
          "42a: a 300 MB message from grpcio: %s %r" % (code, det))
    check(grew < 16, "42a: peak RSS grew by %.1f MiB for a refused 300 MB message" % grew)


def item42b_burst(target, status_port, pid, build):
    step("42b: GetStatus stays fast while eight 250 MB SubmitProofs are received and decoded; "
         "they take no memory beyond the request pool")
    bound = 0.25 if build == "Release" else 1.0
    size = 250 * 10**6
    big = pb.SubmitProofRequest(proof_kind=pb.SYNTHETIC, synthetic_log_rows=10,
                                vanilla_proof=b"\x5a" * size).SerializeToString()
    chans = [gc.channel(target, private=True) for _ in range(8)]
    for c in chans:  # connected before the burst
        pbg.ProvingEngineStub(c).GetStatus(pb.GetStatusRequest(), timeout=30)
    pool = metrics(status_port).get("cuzk_request_pool_bytes", 0)
    # the GetStatus loop in a process of its own: this one's GIL is held
    # for long stretches while grpcio copies the 250 MB messages
    loop = subprocess.Popen([sys.executable, os.path.abspath(__file__), "status-loop", target],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    check(loop.stdout.readline().strip() == "ready", "42b: the GetStatus loop did not start")
    hwm0 = peak_rss_reset(pid)
    t0 = time.time()
    futs = [raw(c, "SubmitProof").future(big, timeout=300) for c in chans]
    res = []
    for f in futs:
        try:
            f.result()
            res.append((None, ""))
        except grpc.RpcError as e:
            res.append((e.code(), e.details() or ""))
    t1 = time.time()
    grew = (proc_status(pid, "VmHWM") - hwm0) / 1024
    out, _ = loop.communicate("")
    for c in chans:
        c.close()
    calls = [line.split() for line in out.splitlines() if line[:1].isdigit()]
    lat = sorted(float(ms) for at, ms in calls if t0 <= float(at) <= t1)
    named = sum(1 for c, d in res if c == C.INVALID_ARGUMENT and "vanilla_proof (10)" in d)
    short = sum(1 for c, d in res if c == C.RESOURCE_EXHAUSTED and "request pool" in d)
    if not check(lat, "42b: no GetStatus call during the burst"):
        return
    step("42b: 8 x %d bytes in %.2f s (request pool %.0f MiB): %d decoded and refused by name, "
         "%d refused for the pool; peak RSS grew by %.0f MiB; GetStatus during the burst: %d "
         "calls, p50 %.1f ms, max %.1f ms" % (size, t1 - t0, pool / 2**20, named, short, grew,
                                              len(lat), lat[len(lat) // 2], lat[-1]))
    check(named + short == 8, "42b: the burst's answers: %r" % [(c, d[:80]) for c, d in res])
    if build != "Tsan":  # ThreadSanitizer's shadow of written memory is counted in RSS
        check(grew < pool / 2**20 + 64, "42b: peak RSS grew by %.0f MiB, the request pool is "
              "%.0f MiB" % (grew, pool / 2**20))
    if build == "Release":
        check(lat[len(lat) // 2] < 25, "42b: GetStatus's median was %.1f ms during the burst "
              "(bound 25 ms)" % lat[len(lat) // 2])
    check(lat[-1] < 1e3 * bound, "42b: GetStatus took %.1f ms during the burst (bound %.0f ms)" %
          (lat[-1], 1e3 * bound))


def status_loop(target):
    """GetStatus in a loop (5 ms apart) until stdin closes; then each call's
    start time and milliseconds, a line each."""
    st = pbg.ProvingEngineStub(gc.channel(target, private=True))
    st.GetStatus(pb.GetStatusRequest(), timeout=30)
    print("ready", flush=True)
    lat = []
    while not select.select([sys.stdin], [], [], 0)[0]:
        at, t0 = time.time(), time.perf_counter()
        st.GetStatus(pb.GetStatusRequest(), timeout=30)
        lat.append((at, 1e3 * (time.perf_counter() - t0)))
        time.sleep(0.005)
    for at, ms in lat:
        print("%.4f %.2f" % (at, ms))

def main_suite(target, status_port, pid, rss, build):
    ch = gc.channel(target)
    st = pbg.ProvingEngineStub(ch)
    for name, fn in (("ids", lambda: item1_ids(st)), ("reuse", lambda: item2_reuse(st)),
                     ("unsatisfied", lambda: item3_unsatisfied(st)),
                     ("amplification", lambda: item4_amplification(ch, st, pid)),
                     ("bounds", lambda: item7_bounds(ch, st, target, pid, status_port, rss)),
                     ("trickle", lambda: item8_trickle(status_port)),
                     ("curio fields", lambda: item9_curio_fields(st)),
                     ("smaller", lambda: smaller(ch, st)),
                     ("oversized", lambda: item42a_oversized(ch, target, pid)),
                     ("burst", lambda: item42b_burst(target, status_port, pid, build))):
        try:
            fn()
        except grpc.RpcError as e:
            check(False, "%s: unexpected RPC error %s: %s" % (name, e.code(), e.details()))
        except (AttributeError, KeyError, ValueError, OSError) as e:  # an older daemon's answers
            check(False, "%s: %s: %s" % (name, type(e).__name__, e))
    check(st.GetStatus(pb.GetStatusRequest(), timeout=30).memory_budget_bytes > 0,
          "the daemon stopped serving")


def flood(target, status_port, n, rounds):
    """Rounds of n concurrent SubmitProofs of tiny synthetic jobs; after each
    (its accepted jobs done, 2.5 s idle) the untracked RSS (a benchmark:
    BENCHMARKS.md)."""
    st = pbg.ProvingEngineStub(gc.channel(target))
    print("round  accepted  refused  seconds  untracked_MiB  rss_MiB", flush=True)
    for k in range(rounds):
        t0 = time.time()
        futs = [st.SubmitProof.future(synthetic(10, 1, seed=k * n + i), timeout=300)
                for i in range(n)]
        ok = bad = 0
        for f in futs:
            try:
                f.result()
                ok += 1
            except grpc.RpcError:
                bad += 1
        dt = time.time() - t0
        while True:
            s = st.GetStatus(pb.GetStatusRequest(), timeout=30)
            if sum(q.pending + q.in_progress for q in s.queues) == 0:
                break
            time.sleep(0.2)
        time.sleep(2.5)
        m = metrics(status_port)
        print("%5d  %8d  %7d  %7.1f  %13.1f  %7.1f" %
              (k + 1, ok, bad, dt, m["cuzk_untracked_rss_bytes"] / 2**20,
               m["cuzk_rss_bytes"] / 2**20), flush=True)


def submit_n(target, n, log_rows, parts):
    st = pbg.ProvingEngineStub(gc.channel(target))
    for i in range(n):
        r = st.SubmitProof(synthetic(log_rows, parts, seed=900 + i), timeout=30)
        print(r.job_id, flush=True)


def synthetic_off(target):
    st = pbg.ProvingEngineStub(gc.channel(target))
    code, det = err_of(st.SubmitProof, synthetic(10))
    check(code == C.UNIMPLEMENTED and "synthetic" in det, "SYNTHETIC when off: %s %s" % (code, det))
    code, _ = err_of(st.PreloadSRS, pb.PreloadSrsRequest(circuit_id="synthetic-10-0"))
    check(code == C.UNIMPLEMENTED, "PreloadSRS synthetic-10-0 when off: %s" % code)


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    cmd = argv[1]
    if cmd == "main" and len(argv) >= 5:
        opts = argv[5:]
        build = opts[opts.index("--build") + 1] if "--build" in opts[:-1] else "Release"
        main_suite(argv[2], int(argv[3]), int(argv[4]), "--rss" in opts, build)
    elif cmd == "burst" and len(argv) == 6:
        item42b_burst(argv[2], int(argv[3]), int(argv[4]), argv[5])
    elif cmd == "status-loop":
        status_loop(argv[2])
    elif cmd == "submit" and len(argv) == 6:
        submit_n(argv[2], int(argv[3]), int(argv[4]), int(argv[5]))
    elif cmd == "flood" and len(argv) == 6:
        flood(argv[2], int(argv[3]), int(argv[4]), int(argv[5]))
    elif cmd == "off":
        synthetic_off(argv[2])
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return gc.verdict(cmd)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
