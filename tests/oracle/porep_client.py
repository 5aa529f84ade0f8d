#!/usr/bin/python3
"""PoRep C2 (POREP_SEAL_COMMIT) through cuzk-daemon, as Curio sends it.

Debian's python3-grpcio with the stubs grpc_client.py generates at run time
(imported from it, with its channel and error helpers).  A request carries
registered_proof, sector_size, sector_number, miner_id and vanilla_proof =
Curio's wrapper {"SectorNum": n, "Phase1Out": "<standard base64 of the C1
JSON>", "SectorSize": bytes} (lib/ffi/cuzk_funcs.go), or the raw C1 JSON.
Run by tests/oracle/run_porep_grpc.sh:

  porep_client.py prove TARGET OUTDIR SPEC...
      one Prove call per SPEC, all at once; each proof goes to OUTDIR/ID.bin
  porep_client.py idem TARGET C1 SECTOR C1_AGAIN OUT OUT_AGAIN
      Curio's request id porep-<miner>-<sector>: the same id and request
      twice is one job and one proof (written to OUT); the sector sealed
      again (C1_AGAIN: another ticket and seed) under the same id is a job
      of its own whose proof goes to OUT_AGAIN
  porep_client.py refusals TARGET C1 SECTOR OTHER_C1
      bad requests refused INVALID_ARGUMENT, naming what is wrong; the
      daemon serves on and counts none of them as a job
  porep_client.py missing TARGET C1 SECTOR PARAMS_PATH
      a daemon without the parameter files: NOT_FOUND naming PARAMS_PATH,
      for SubmitProof, Prove and PreloadSRS "porep-2k"
  porep_client.py preload TARGET
      PreloadSRS "porep-2k" loads it (then already loaded), GetStatus lists it
  porep_client.py evict TARGET STATUS_URL
      EvictSRS "porep-2k" frees the bytes /status charged to it
  porep_client.py cancel TARGET STATUS_URL C1 SECTOR
      CancelProof once the job is in synthesis: CANCELLED, and the memory
      counters back to their values before it
  porep_client.py snapshot STATUS_URL FILE / idle STATUS_URL FILE
      the memory counters of an idle daemon saved, and later compared
  porep_client.py watch STATUS_URL STOPFILE PARTITION_BYTES
      samples /status until STOPFILE exists: the budget held and bound
  porep_client.py budget STATUS_URL
      after one proof alone: prints a memory.total_budget that fits about
      two 2KiB partitions beside the circuit and the request pool
  porep_client.py hold TARGET OUTDIR SPEC...
      like prove, printing "inflight" once the daemon holds every call (for
      the SIGTERM drain test)
  porep_client.py refused TARGET C1 SECTOR
      a new PoRep call must fail UNAVAILABLE (the daemon is stopping)

SPEC: ID:C1FILE:SECTOR:wrap|raw[:PRIORITY], the miner always 1000 (MINER).
TARGET: host:port or unix:///path.  Every check prints "PASS: ..." or
"FAIL: ...: expected ..., got ..."; exit status 0 when all passed.
"""
import base64
import json
import os
import sys
import threading
import time

import kind_client as kc
from kind_client import (completed, edit, failure, invalid, not_found, ok, read, served_on,
                         status_json, status_name, stub)

ME = kc.ME = "porep_client.py"
MINER = 1000
SIZE = 2048
V1_1 = 5  # RegisteredSealProof StackedDrg2KiBV1_1
CIRCUIT = "porep-2k"


def wrap(c1, sector):
    """Curio's wrapper of a C1 JSON (bytes)."""
    return json.dumps({"SectorNum": sector, "Phase1Out": base64.b64encode(c1).decode(),
                       "SectorSize": SIZE}).encode()


def request(c1, sector, raw=False, request_id="", priority=0, **kw):
    f = dict(request_id=request_id, proof_kind=kc.pb.POREP_SEAL_COMMIT, registered_proof=V1_1,
             sector_size=SIZE, sector_number=sector, miner_id=MINER, priority=priority,
             vanilla_proof=c1 if raw else wrap(c1, sector))
    f.update(kw)
    return kc.pb.SubmitProofRequest(**f)


def parse_spec(s):
    f = s.split(":")
    if len(f) not in (4, 5) or f[3] not in ("wrap", "raw"):
        raise SystemExit("%s: bad SPEC %r (ID:C1FILE:SECTOR:wrap|raw[:PRIORITY])" % (ME, s))
    return dict(id=f[0], c1=read(f[1]), sector=int(f[2]), raw=f[3] == "raw",
                priority=kc.pb.Priority.Value(f[4].upper()) if len(f) == 5 else 0)


def prove_all(target, outdir, specs, on_inflight=None):
    """One Prove per spec, each on its own connection, all at once."""
    jobs = [parse_spec(s) for s in specs]
    st = stub(target)
    sub0 = kc.g.metric(st, "cuzk_jobs_submitted_total")
    res = [None] * len(jobs)
    t0 = time.time()

    def one(i):
        j = jobs[i]
        req = request(j["c1"], j["sector"], j["raw"], j["id"], j["priority"])
        try:
            r = stub(target, True).Prove(kc.pb.ProveRequest(submit=req), timeout=1500).result
            res[i] = (r, time.time() - t0)
        except kc.grpc.RpcError as e:
            res[i] = e

    th = [threading.Thread(target=one, args=(i,)) for i in range(len(jobs))]
    for t in th:
        t.start()
    if on_inflight:
        while kc.g.metric(st, "cuzk_jobs_submitted_total") < sub0 + len(jobs):
            if time.time() - t0 > 60 or not any(t.is_alive() for t in th):
                ok(False, "hold: all %d jobs submitted within 60 s" % len(jobs))
                break
            time.sleep(0.05)
        else:
            on_inflight()
    for t in th:
        t.join()
    for j, r in zip(jobs, res):
        what = "Prove %s (%s C1)" % (j["id"], "raw" if j["raw"] else "wrapped")
        if isinstance(r, kc.grpc.RpcError):
            ok(False, what, "COMPLETED", "%s %s" % (r.code(), r.details()))
            continue
        a, dt = r
        if completed(a, what):
            with open(os.path.join(outdir, j["id"] + ".bin"), "wb") as f:
                f.write(a.proof)
            print("%s: %s: %s in %.1f s (queue %d ms, synthesis %d ms, proving %d ms)"
                  % (ME, j["id"], a.job_id, dt, a.queue_wait_ms, a.synthesis_ms,
                     a.gpu_compute_ms), flush=True)


def idem(target, c1_path, sector, again_path, out, out_again):
    """Curio's porep-<miner>-<sector> id: the same request twice is one job
    and one proof; the sector sealed again (a new ticket and seed) under the
    same id is a job of its own with its own proof."""
    st = stub(target)
    c1, again = read(c1_path), read(again_path)
    rid = "porep-%d-%s" % (MINER, sector)
    sub0 = kc.g.metric(st, "cuzk_jobs_submitted_total")
    req = request(c1, sector, request_id=rid)
    a = st.Prove(kc.pb.ProveRequest(submit=req), timeout=900).result
    if not completed(a, "Prove %s (Curio's wrapper)" % rid):
        return
    with open(out, "wb") as f:
        f.write(a.proof)
    print("%s: %s: queue %d ms, srs %d ms, synthesis %d ms, proving %d ms" %
          (ME, a.job_id, a.queue_wait_ms, a.srs_load_ms, a.synthesis_ms, a.gpu_compute_ms))
    b = st.Prove(kc.pb.ProveRequest(submit=req), timeout=60).result
    ok(b.job_id == a.job_id and b.proof == a.proof,
       "the same id and request again: the same job and proof",
       "job %s and its proof" % a.job_id, "job %s, proof %s" %
       (b.job_id, "equal" if b.proof == a.proof else "different"))
    j = st.SubmitProof(req, timeout=60).job_id
    ok(j == a.job_id, "SubmitProof of the same id and request: the same job", a.job_id, j)
    sub1 = kc.g.metric(st, "cuzk_jobs_submitted_total")
    ok(sub1 == sub0 + 1, "one job submitted for three calls", sub0 + 1, sub1)
    c = st.Prove(kc.pb.ProveRequest(submit=request(again, sector, request_id=rid)),
                 timeout=900).result
    if completed(c, "Prove %s of the sector sealed again (another ticket and seed)" % rid):
        with open(out_again, "wb") as f:
            f.write(c.proof)
    ok(c.job_id != a.job_id and c.proof != a.proof,
       "the sector sealed again under the same id: a job and proof of its own",
       "a job other than %s" % a.job_id, c.job_id)
    sub2 = kc.g.metric(st, "cuzk_jobs_submitted_total")
    ok(sub2 == sub1 + 1, "one more job submitted", sub1 + 1, sub2)


def refusals(target, c1_path, sector, other_path):
    st = stub(target)
    c1, other = read(c1_path), read(other_path)
    sub0 = kc.g.metric(st, "cuzk_jobs_submitted_total")
    w = wrap(c1, sector)
    text = c1.decode()
    bad_seed = text.replace('"seed":[0,', '"seed":[1,', 1).encode()
    assert bad_seed != c1, "the C1's seed does not begin with 0"
    b64 = base64.b64encode(c1).decode()
    cut = len(b64) // 2
    bad_b64 = json.dumps({"SectorNum": sector, "Phase1Out": b64[:cut] + "*" + b64[cut + 1:],
                          "SectorSize": SIZE}).encode()
    cases = [
        ("a C1 with the seed's first byte edited", dict(vanilla_proof=wrap(bad_seed, sector)),
         "vanilla proofs do not verify"),
        ("corrupted base64 in Phase1Out", dict(vanilla_proof=bad_b64), "base64"),
        ("truncated C1 JSON (raw)", dict(vanilla_proof=c1[:len(c1) // 2]), "vanilla_proof"),
        ("truncated wrapper JSON", dict(vanilla_proof=w[:len(w) // 2]), "vanilla_proof"),
        ("registered_proof 0 (V1) for a V1_1 C1", dict(registered_proof=0),
         "the C1 is for StackedDrg2KiBV1_1"),
        ("registered_proof 99", dict(registered_proof=99), "registered_proof 99"),
        ("sector_size 4096 for 2KiB", dict(sector_size=4096), "sector_size 4096"),
        ("sector_size of 32GiB for 2KiB", dict(sector_size=32 << 30),
         "sector_size %d" % (32 << 30)),
        ("miner_id 1001 (the C1 is miner 1000's)", dict(miner_id=1001), "miner 1001"),
        ("sector_number off by one (the wrapper says the C1's)",
         dict(sector_number=sector + 1), "SectorNum %d is not sector_number %d"
         % (sector, sector + 1)),
        ("raw C1 with another sector_number", dict(vanilla_proof=c1, sector_number=sector + 1),
         "replica_id"),
        ("the other sector's C1 for this sector", dict(vanilla_proof=other, sector_number=sector),
         "vanilla proofs do not verify"),
        ("no vanilla_proof", dict(vanilla_proof=b""), "no C1"),
        ("a witness (not a PoRep field)", dict(witness=b"\1" * 32), "field witness"),
        ("a circuit_id (not a PoRep field)", dict(circuit_id="porep-2k"), "field circuit_id"),
        ("randomness (not a PoRep field)", dict(randomness=b"\1" * 32), "field randomness"),
    ]
    for what, fields, needle in cases:
        invalid(st, edit(request(c1, sector), fields), what, needle)
    served_on(st, sub0)


def missing(target, c1_path, sector, params_path):
    st = stub(target)
    not_found(st, request(read(c1_path), sector), CIRCUIT, params_path)
    s = st.GetStatus(kc.pb.GetStatusRequest(), timeout=30)
    ok(s.total_proofs_failed == 0 and not s.loaded_srs,
       "no job failed and nothing was loaded", "0 failed, no SRS",
       "%d failed, SRS %r" % (s.total_proofs_failed, [x.circuit_id for x in s.loaded_srs]))


def preload(target):
    st = stub(target)
    t0 = time.time()
    p = st.PreloadSRS(kc.pb.PreloadSrsRequest(circuit_id=CIRCUIT), timeout=900)
    ok(not p.already_loaded, "PreloadSRS %s: loaded (%d ms, %.1f s here)"
       % (CIRCUIT, p.load_time_ms, time.time() - t0), "already_loaded false", p.already_loaded)
    s = st.GetStatus(kc.pb.GetStatusRequest(), timeout=30)
    srs = {x.circuit_id: x.size_bytes for x in s.loaded_srs}
    ok(srs.get(CIRCUIT, 0) > 1 << 30, "GetStatus lists %s (%d bytes)" % (CIRCUIT,
                                                                         srs.get(CIRCUIT, 0)),
       "%s over 1 GiB" % CIRCUIT, srs)
    p = st.PreloadSRS(kc.pb.PreloadSrsRequest(circuit_id=CIRCUIT), timeout=60)
    ok(p.already_loaded, "PreloadSRS %s again: already loaded" % CIRCUIT, True, p.already_loaded)


def evict(target, url):
    st = stub(target)
    before = status_json(url)
    held = {c["id"]: c["bytes"] for c in before["circuits"]}.get(CIRCUIT)
    ev = st.EvictSRS(kc.pb.EvictSrsRequest(circuit_id=CIRCUIT), timeout=60)
    ok(ev.was_loaded and held and ev.freed_bytes == held,
       "EvictSRS %s frees the %s bytes /status charged to it" % (CIRCUIT, held),
       "was_loaded, %s bytes" % held, "was_loaded %s, %d bytes" % (ev.was_loaded,
                                                                  ev.freed_bytes))
    after = status_json(url)["memory"]
    want = before["memory"]["reserved"] - (held or 0)
    ok(after["reserved"] == want and after["classes"]["params"]["live_bytes"] == 0,
       "reserved memory down by as much, no params buffer left",
       "reserved %d, params 0" % want, "reserved %d, params %d" %
       (after["reserved"], after["classes"]["params"]["live_bytes"]))
    ev = st.EvictSRS(kc.pb.EvictSrsRequest(circuit_id=CIRCUIT), timeout=60)
    ok(not ev.was_loaded and ev.freed_bytes == 0, "EvictSRS again: nothing loaded",
       "false, 0", "%s, %d" % (ev.was_loaded, ev.freed_bytes))


def counters(url):
    """The memory counters that must return to their idle values."""
    m = status_json(url)["memory"]
    c = {k: (v["live_count"], v["live_bytes"]) for k, v in m["classes"].items()}
    return dict(reserved=m["reserved"], allocated=m["allocated"],
                reservations=m["reservations"], request_pool_used=m["request_pool_used"],
                classes=c)


def back_to(url, idle, what, wait_s=60):
    t0 = time.time()
    while True:
        now = counters(url)
        if now == idle or time.time() - t0 > wait_s:
            break
        time.sleep(0.2)
    diff = {k: (idle[k], now[k]) for k in idle if k != "classes" and idle[k] != now[k]}
    diff.update({"classes." + k: (idle["classes"][k], now["classes"][k])
                 for k in idle["classes"] if idle["classes"][k] != now["classes"][k]})
    ok(not diff, what + ": reserved, allocated and every buffer class back to idle",
       "the idle values (expected, got) for %s" % sorted(diff), diff)


def cancel(target, url, c1_path, sector):
    st = stub(target)
    idle = counters(url)
    cancelled0 = st.GetStatus(kc.pb.GetStatusRequest(), timeout=30).total_proofs_cancelled
    j = st.SubmitProof(request(read(c1_path), sector, request_id="cancel-%d" % os.getpid()),
                       timeout=60).job_id
    t0 = time.time()
    while time.time() - t0 < 30:
        s = status_json(url)
        if s["workers"]["synthesis"]["busy"] > 0:
            break
        time.sleep(0.005)
    c = st.CancelProof(kc.pb.CancelProofRequest(job_id=j), timeout=30)
    print("%s: cancelled %s %.3f s after it was submitted (synthesis workers busy %d, "
          "was_running %s)" % (ME, j, time.time() - t0, s["workers"]["synthesis"]["busy"],
                               c.was_running), flush=True)
    ok(c.was_running, "CancelProof in synthesis: was_running", True, c.was_running)
    a = st.AwaitProof(kc.pb.AwaitProofRequest(job_id=j), timeout=600)
    ok(a.status == kc.pb.AwaitProofResponse.CANCELLED and not a.proof,
       "the job ends CANCELLED without a proof (%.1f s after the cancel)" % (time.time() - t0),
       "CANCELLED", "%s (%d bytes) %s" % (status_name(a), len(a.proof), a.error_message))
    s = st.GetStatus(kc.pb.GetStatusRequest(), timeout=30)
    ok(s.total_proofs_cancelled == cancelled0 + 1, "total_proofs_cancelled counts it",
       cancelled0 + 1, s.total_proofs_cancelled)
    back_to(url, idle, "after the cancel")


def budget(url):
    """A budget that fits two partitions of a 2KiB PoRep at once, not three.

    After one job alone (one partition, nothing else reserved but the
    request pool and the circuit), peak_reserved - request_pool - the
    circuit's bytes is what a partition reserves at most (its witness,
    a/b/c, scratch and the synthesis extra).  The request pool is 1/8 of
    a budget under 32 GiB (src/engine/engine.c), so the budget B with room
    for 2.5 partitions beside the circuit solves B - B/8 = circuit + 2.5 P.
    """
    s = status_json(url)
    m = s["memory"]
    circ = {c["id"]: c["bytes"] for c in s["circuits"]}.get(CIRCUIT, 0)
    part = m["peak_reserved"] - m["request_pool"] - circ
    if not ok(circ > 0 and part > 0 and s["jobs"]["completed"] >= 1,
              "a partition's reservation from /status after one proof",
              "circuit and partition bytes > 0", "circuit %d, partition %d" % (circ, part)):
        return
    b = (circ + part * 5 // 2) * 8 // 7
    print("%s: circuit %d, partition %d bytes (peak_reserved %d, request pool %d)"
          % (ME, circ, part, m["peak_reserved"], m["request_pool"]), file=sys.stderr)
    print("%d %d %d" % (b, circ, part))


def snapshot(url, path):
    with open(path, "w") as f:
        json.dump(counters(url), f)
    print("%s: idle counters saved to %s" % (ME, path))


def idle(url, path, what):
    with open(path) as f:
        saved = json.load(f)
    saved["classes"] = {k: tuple(v) for k, v in saved["classes"].items()}
    back_to(url, saved, what)


def watch(url, stop, part):
    """Samples /status until the file stop appears: the budget must hold
    (reserved, and the tracker's own peak_reserved, never above it) and
    bind (partitions waited for memory; at times two held at once)."""
    n = max_res = max_wait = 0
    while not os.path.exists(stop):
        m = status_json(url)["memory"]
        n += 1
        max_res = max(max_res, m["reserved"])
        max_wait = max(max_wait, m["waiters"])
        time.sleep(0.25)
    s = status_json(url)
    m = s["memory"]
    circ = {c["id"]: c["bytes"] for c in s["circuits"]}.get(CIRCUIT, 0)
    print("%s: %d samples: reserved at most %d, waiters at most %d; peak_reserved %d, "
          "peak_allocated %d, budget %d" % (ME, n, max_res, max_wait, m["peak_reserved"],
                                            m["peak_allocated"], m["budget"]), flush=True)
    ok(max_res <= m["budget"] and m["peak_reserved"] <= m["budget"],
       "the memory budget was never exceeded (peak_reserved <= budget)",
       "<= %d" % m["budget"], "sampled %d, peak_reserved %d" % (max_res, m["peak_reserved"]))
    ok(m["peak_allocated"] <= m["peak_reserved"], "peak_allocated <= peak_reserved",
       "<= %d" % m["peak_reserved"], m["peak_allocated"])
    two = m["request_pool"] + circ + part
    ok(m["peak_reserved"] > two, "two partitions were in memory at once",
       "peak_reserved > %d (request pool, circuit and one partition)" % two, m["peak_reserved"])
    ok(max_wait > 0, "partitions waited for memory (the budget bound them)",
       "waiters > 0 in a sample", max_wait)


def refused(target, c1_path, sector):
    code, det = failure(stub(target).SubmitProof, request(read(c1_path), sector), timeout=20)
    ok(code == kc.grpc.StatusCode.UNAVAILABLE, "a new PoRep call after SIGTERM: UNAVAILABLE",
       "UNAVAILABLE", "%s %r" % (code, det))


def main(argv):
    cmds = {"prove": (lambda t, o, *specs: prove_all(t, o, specs), -3),
            "hold": (lambda t, o, *specs: prove_all(t, o, specs,
                                                     lambda: print("inflight", flush=True)), -3),
            "idem": (lambda t, c1, n, again, o, o2: idem(t, c1, int(n), again, o, o2), 6),
            "refusals": (lambda t, c1, n, other: refusals(t, c1, int(n), other), 4),
            "missing": (lambda t, c1, n, params: missing(t, c1, int(n), params), 4),
            "preload": (preload, 1), "evict": (evict, 2),
            "cancel": (lambda t, url, c1, n: cancel(t, url, c1, int(n)), 4),
            "budget": (budget, 1), "snapshot": (snapshot, 2), "idle": (idle, 3),
            "watch": (lambda url, stop, part: watch(url, stop, int(part)), 3),
            "refused": (lambda t, c1, n: refused(t, c1, int(n)), 3)}
    return kc.run(__doc__, argv, cmds, offline=("budget", "snapshot", "idle", "watch"))


if __name__ == "__main__":
    sys.exit(main(sys.argv))
