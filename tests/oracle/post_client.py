#!/usr/bin/python3
"""WindowPoSt and WinningPoSt through cuzk-daemon, as Curio sends them.

Debian's python3-grpcio with the stubs grpc_client.py generates at run time
(imported from it, with its channel and metric helpers).  The request is
Curio's (lib/ffi/cuzk_funcs.go WindowPoStCuzk / WinningPoStCuzk; docs/post.md
section 7.1): proof_kind WINDOW_POST_PARTITION or WINNING_POST,
registered_proof (RegisteredPoStProof), sector_size, priority HIGH (Window)
or CRITICAL (Winning), vanilla_proofs (one bincode FallbackPoStSectorProof
per sector, ascending: `cuzk post vanilla` writes them as
DIR/vanilla-I.bin), miner_id, randomness (32 bytes) and, for Window,
partition_index.  Run by tests/oracle/run_post_grpc.sh:

  post_client.py prove TARGET DIR OUT PART
      one Prove with Curio's request id (wdpost-<miner>-PART-<randomness[:8]>,
      winpost-<miner>-<randomness[:8]>): COMPLETED with 192 bytes, to OUT
  post_client.py unset TARGET STATUS_URL DIR OUT
      priority unset (0): COMPLETED (proof to OUT), and /status live_jobs
      shows the job at its kind's default (Window high, Winning critical)
  post_client.py idem TARGET DIR PROOF PART
      the request prove made, again: the same job and proof (PROOF), no new
      job
  post_client.py deadline TARGET seq|all OUT_PREFIX DIR...
      a deadline's partitions under Curio's one id, one after the other or
      at once: a job and proof each (OUT_PREFIX-I.bin), a retry of the
      first answered with its proof without a new job
  post_client.py refusals TARGET WINDOW2 WINDOW1 WINNING V1
      bad requests refused INVALID_ARGUMENT naming what is wrong (tampered
      path indices, truncated, reordered, duplicated or miscounted blobs,
      randomness, registered proofs, sizes, fields the kind does not use, a
      Window V1 partition sent as another partition); the daemon serves on
      and counts none of them as a job; a flipped sibling (a path that does
      not hash up to its root) is accepted and FAILED at synthesis, naming
      the blob and inclusion proof, without proving
  post_client.py missing TARGET WINDOW2 WINNING WPOST_PARAMS WINNING_PARAMS
      a daemon without the parameter files: NOT_FOUND naming the .params,
      for SubmitProof, Prove and PreloadSRS "wpost-2k" / "winning-2k"
  post_client.py preload TARGET
      PreloadSRS "wpost-2k" and "winning-2k" load them, GetStatus lists them
      and has the queues window-post and winning-post

DIR: post-vanilla's output (post.json, vanilla-0.bin ...).  Every check
prints "PASS: ..." or "FAIL: ...: expected ..., got ..."; exit status 0
when all passed.
"""
import json
import os
import sys
import time

import kind_client as kc
from kind_client import edit, invalid, not_found, ok, served_on, status_json, status_name, stub

ME = kc.ME = "post_client.py"
MINER = 1000
WINDOW_V1_1 = 10  # RegisteredPoStProof StackedDrgWindow2KiBV1_1
WINNING_2K = 0  # StackedDrgWinning2KiBV1
CIRCUITS = {"window": "wpost-2k", "winning": "winning-2k"}


class Post:
    """post-vanilla's DIR: post.json and the blobs."""

    def __init__(self, d):
        with open(os.path.join(d, "post.json")) as f:
            p = json.load(f)
        self.dir = d
        self.proof = p["registered_proof"]
        self.size = p["sector_size"]
        self.randomness = bytes.fromhex(p["randomness"])
        self.partition = p["partition_index"]
        self.sectors = [s["id"] for s in p["sectors"]]
        self.winning = self.proof < 5
        self.blobs = []
        for i in range(len(self.sectors)):
            with open(os.path.join(d, "vanilla-%d.bin" % i), "rb") as f:
                self.blobs.append(f.read())
        self.kind = "winning" if self.winning else "window"

    def curio_id(self, part):
        """Curio's request ids (lib/ffi/cuzk_funcs.go): Go's %x of the
        randomness' first 8 bytes for Winning, its %v (decimal bytes in
        brackets) for Window."""
        if self.winning:
            return "winpost-%d-%s" % (MINER, self.randomness[:8].hex())
        return "wdpost-%d-%d-[%s]" % (MINER, part, " ".join(str(b) for b in self.randomness[:8]))

    def request(self, request_id="", priority=None, **kw):
        """Curio's fields: Winning leaves partition_index unset."""
        if priority is None:
            priority = kc.pb.CRITICAL if self.winning else kc.pb.HIGH
        f = dict(request_id=request_id,
                 proof_kind=kc.pb.WINNING_POST if self.winning else kc.pb.WINDOW_POST_PARTITION,
                 registered_proof=self.proof, sector_size=self.size, priority=priority,
                 vanilla_proofs=self.blobs, miner_id=MINER, randomness=self.randomness)
        if not self.winning:
            f["partition_index"] = self.partition
        f.update(kw)
        return kc.pb.SubmitProofRequest(**f)


def completed(a, what):
    good = kc.completed(a, what)
    if good:
        print("%s: %s: queue %d ms, srs %d ms, synthesis %d ms, proving %d ms, total %d ms"
              % (ME, a.job_id, a.queue_wait_ms, a.srs_load_ms, a.synthesis_ms,
                 a.gpu_compute_ms, a.total_ms), flush=True)
    return good


def describe(p):
    return "%s (registered proof %d, %d sector%s, partition %d)" % (
        "WinningPoSt" if p.winning else "WindowPoSt", p.proof, len(p.sectors),
        "" if len(p.sectors) == 1 else "s", p.partition)


def prove(target, d, out, part):
    st = stub(target)
    p = Post(d)
    rid = p.curio_id(int(part))
    sub0 = kc.g.metric(st, "cuzk_jobs_submitted_total")
    try:
        a = st.Prove(kc.pb.ProveRequest(submit=p.request(rid)), timeout=600).result
    except kc.grpc.RpcError as e:
        ok(False, "Prove %s, %s" % (rid, describe(p)), "COMPLETED",
           "%s %r" % (e.code(), e.details()))
        return
    if completed(a, "Prove %s, %s" % (rid, describe(p))):
        with open(out, "wb") as f:
            f.write(a.proof)
    ok(a.job_id.startswith("job-"), "the answer names the job by its handle", "job-N", a.job_id)
    sub1 = kc.g.metric(st, "cuzk_jobs_submitted_total")
    ok(sub1 == sub0 + 1, "one job submitted", sub0 + 1, sub1)


def live_priority(url, job_id, deadline):
    """The priority /status lists for job_id while it is live (None if it
    never was seen)."""
    while time.time() < deadline:
        for j in status_json(url)["live_jobs"]["jobs"]:
            if j["id"] == job_id:
                return j["priority"]
        time.sleep(0.002)
    return None


def unset(target, url, d, out):
    st = stub(target)
    p = Post(d)
    rid = "unset-%s-%d" % (p.kind, os.getpid())
    want = "critical" if p.winning else "high"
    j = st.SubmitProof(p.request(rid, priority=kc.pb.PRIORITY_UNSPECIFIED), timeout=120).job_id
    # the job lives for its proof (seconds on the CPU), /status answers in
    # a millisecond
    seen = live_priority(url, j, time.time() + 5)
    ok(seen == want, "priority unset, %s: /status lists the job at %s" % (describe(p), want),
       want, seen)
    a = st.AwaitProof(kc.pb.AwaitProofRequest(job_id=j), timeout=600)
    if completed(a, "priority unset, %s" % describe(p)):
        with open(out, "wb") as f:
            f.write(a.proof)


def idem(target, d, proof_path, part):
    st = stub(target)
    p = Post(d)
    rid = p.curio_id(int(part))
    with open(proof_path, "rb") as f:
        first = f.read()
    handle = st.AwaitProof(kc.pb.AwaitProofRequest(job_id=rid), timeout=60).job_id
    sub0 = kc.g.metric(st, "cuzk_jobs_submitted_total")
    req = p.request(rid)
    b = st.Prove(kc.pb.ProveRequest(submit=req), timeout=120).result
    ok(b.job_id == handle and b.proof == first,
       "%s: the same id and request again: the same job and proof" % p.kind,
       "job %s and its proof" % handle,
       "job %s, proof %s" % (b.job_id, "equal" if b.proof == first else "different"))
    j = st.SubmitProof(req, timeout=60).job_id
    ok(j == handle, "%s: SubmitProof of the same id and request: the same job" % p.kind, handle, j)
    sub1 = kc.g.metric(st, "cuzk_jobs_submitted_total")
    ok(sub1 == sub0, "%s: no job submitted for the two calls" % p.kind, sub0, sub1)


def deadline(target, mode, out_prefix, *dirs):
    """A deadline's partitions as Curio sends them: every one under the id
    wdpost-<miner>-0-<randomness[:8]> at partition_index 0, one after the
    other (seq) or all at once (all): each a job of its own, each caller
    answered with its own proof (OUT_PREFIX-I.bin); then a retry of the
    first partition answered with its proof, proved once."""
    st = stub(target)
    ps = [Post(d) for d in dirs]
    assert len({p.randomness for p in ps}) == 1 and not any(p.winning for p in ps)
    rid = ps[0].curio_id(0)
    reqs = [p.request(rid) for p in ps]
    sub0 = kc.g.metric(st, "cuzk_jobs_submitted_total")
    if mode == "seq":
        res = [st.Prove(kc.pb.ProveRequest(submit=r), timeout=600).result for r in reqs]
    else:
        futs = [st.Prove.future(kc.pb.ProveRequest(submit=r), timeout=600) for r in reqs]
        res = [f.result().result for f in futs]
    what = "one after the other" if mode == "seq" else "at once"
    for i, (p, a) in enumerate(zip(ps, res)):
        if completed(a, "%s, %d partitions %s: partition of sectors %s"
                     % (rid, len(ps), what, p.sectors)):
            with open("%s-%d.bin" % (out_prefix, i), "wb") as f:
                f.write(a.proof)
    handles = [a.job_id for a in res]
    ok(len(set(handles)) == len(ps), "%s: %d partitions %s: %d jobs" % (rid, len(ps), what, len(ps)),
       "%d handles" % len(ps), handles)
    sub1 = kc.g.metric(st, "cuzk_jobs_submitted_total")
    ok(sub1 == sub0 + len(ps), "%s: %d jobs submitted" % (rid, len(ps)), sub0 + len(ps), sub1)
    b = st.Prove(kc.pb.ProveRequest(submit=reqs[0]), timeout=120).result
    ok(b.job_id == res[0].job_id and b.proof == res[0].proof,
       "%s: a retry of the first partition: its job and proof" % rid,
       "job %s" % res[0].job_id, "job %s, proof %s" %
       (b.job_id, "equal" if b.proof == res[0].proof else "different"))
    sub2 = kc.g.metric(st, "cuzk_jobs_submitted_total")
    ok(sub2 == sub1, "%s: the retry submitted no job" % rid, sub1, sub2)


# a 2KiB blob (docs/post.md 4.1): sector_id u64 | comm_r 32 | u64 1 | u64
# challenges | challenges x MerkleProof (556 bytes: u32 variant | root 32 |
# leaf 32 | u64 2 | 2 x (u64 7 | 7 siblings x 32 | u64 index)) | comm_c 32 |
# comm_r_last 32
PROOF0 = 56
MERKLE = 556
SIBLING0 = 4 + 32 + 32 + 8 + 8  # in a MerkleProof: the first level's first sibling
INDEX0 = SIBLING0 + 7 * 32  # the first level's index


def edited(blob, at, fn):
    b = bytearray(blob)
    b[at] = fn(b[at])
    return bytes(b)


def refusals(target, d2, d1, dwin, dv1):
    st = stub(target)
    w2, w1, win, v1 = Post(d2), Post(d1), Post(dwin), Post(dv1)
    sub0 = kc.g.metric(st, "cuzk_jobs_submitted_total")
    b0, b1 = w2.blobs
    wb = win.blobs[0]
    nwin = (len(wb) - PROOF0 - 64) // MERKLE
    idx = b0[PROOF0 + INDEX0]
    assert idx < 8 and len(b0) == PROOF0 + 10 * MERKLE + 64 and nwin == 66, "not 2KiB blobs"
    other = bytes([w2.randomness[0] ^ 1]) + w2.randomness[1:]
    flip = lambda x: x ^ 1
    # a path that does not hash up to its root: accepted at submit (the
    # checks there leave the paths' hashes to the witness), then FAILED at
    # synthesis naming the blob and the inclusion proof, never proven
    bad_paths = [
        (w2, "a sibling hash flipped in blob 0",
         dict(vanilla_proofs=[edited(b0, PROOF0 + SIBLING0, flip), b1]),
         "vanilla_proofs[0] (sector %d): the sector proof does not verify: inclusion proof 0 "
         "does not hash up to comm_r_last" % w2.sectors[0]),
        (w2, "a sibling hash flipped in blob 1's last inclusion proof",
         dict(vanilla_proofs=[b0, edited(b1, PROOF0 + 9 * MERKLE + SIBLING0 + 5, flip)]),
         "vanilla_proofs[1] (sector %d): the sector proof does not verify: inclusion proof 9 "
         "does not hash up to comm_r_last" % w2.sectors[1]),
        (win, "a sibling hash flipped in the 66th inclusion proof",
         dict(vanilla_proofs=[edited(wb, PROOF0 + 65 * MERKLE + SIBLING0, flip)]),
         "vanilla_proofs[0] (sector %d): the sector proof does not verify: inclusion proof 65 "
         "does not hash up to comm_r_last" % win.sectors[0]),
    ]
    cases = [
        (w2, "a truncated blob", dict(vanilla_proofs=[b0, b1[:-1]]),
         "vanilla_proofs[1]: %d bytes" % (len(b1) - 1)),
        (win, "a truncated blob", dict(vanilla_proofs=[wb[:-1]]),
         "vanilla_proofs[0]: %d bytes" % (len(wb) - 1)),
        (w2, "a path index byte changed (%d to %d)" % (idx, (idx + 1) % 8),
         dict(vanilla_proofs=[edited(b0, PROOF0 + INDEX0, lambda x: (x + 1) % 8), b1]),
         "vanilla_proofs[0] (sector %d): the sector proof does not verify" % w2.sectors[0]),
        (w2, "the two sectors out of order", dict(vanilla_proofs=[b1, b0]),
         "vanilla_proofs[1]: sector %d after sector %d: the sectors must be in ascending order"
         % (w2.sectors[0], w2.sectors[1])),
        (w2, "a sector twice", dict(vanilla_proofs=[b0, b0]),
         "vanilla_proofs[1]: sector %d after sector %d" % (w2.sectors[0], w2.sectors[0])),
        (w2, "3 blobs (a 2KiB partition has 2 sectors)", dict(vanilla_proofs=[b0, b1, b1]),
         "vanilla_proofs: 3 given; a 2KiB WindowPoSt partition takes 1 to 2"),
        (win, "2 blobs", dict(vanilla_proofs=[wb, wb]),
         "vanilla_proofs: 2 given; a WinningPoSt takes exactly one"),
        (w2, "no blobs", dict(vanilla_proofs=[]), "vanilla_proofs: 0 given"),
        (win, "no blobs", dict(vanilla_proofs=[]), "vanilla_proofs: 0 given"),
        (w2, "randomness of 31 bytes", dict(randomness=w2.randomness[:31]),
         "randomness: 31 bytes"),
        (win, "randomness of 31 bytes", dict(randomness=win.randomness[:31]),
         "randomness: 31 bytes"),
        (w2, "no randomness", dict(randomness=b""), "randomness: 0 bytes"),
        (w2, "randomness all 0xff (not a field element)", dict(randomness=b"\xff" * 32),
         "randomness: not a field element"),
        (win, "randomness all 0xff (not a field element)", dict(randomness=b"\xff" * 32),
         "randomness: not a field element"),
        (w2, "registered_proof 0 (a WinningPoSt's)", dict(registered_proof=WINNING_2K),
         "registered_proof 0 is StackedDrgWinning2KiBV1 (WinningPoSt): a WindowPoSt needs"),
        (win, "registered_proof 10 (a WindowPoSt's)", dict(registered_proof=WINDOW_V1_1),
         "registered_proof 10 is StackedDrgWindow2KiBV1_1 (WindowPoSt): a WinningPoSt needs"),
        (w2, "registered_proof 15", dict(registered_proof=15),
         "registered_proof 15 is not a RegisteredPoStProof"),
        (win, "registered_proof 15", dict(registered_proof=15),
         "registered_proof 15 is not a RegisteredPoStProof"),
        (w2, "sector_size 4096", dict(sector_size=4096), "sector_size 4096 is not the sector size"),
        (win, "sector_size of 32GiB", dict(sector_size=32 << 30),
         "sector_size %d is not the sector size" % (32 << 30)),
        (w2, "other randomness (the blobs were made for another)", dict(randomness=other),
         "vanilla_proofs[0] (sector %d): the sector proof does not verify for this randomness"
         % w2.sectors[0]),
        (win, "other randomness (the blob was made for another)", dict(randomness=other),
         "vanilla_proofs[0] (sector %d): the sector proof does not verify for this randomness"
         % win.sectors[0]),
        (w1, "other randomness (a short partition)", dict(randomness=other),
         "does not verify for this randomness"),
        (win, "partition_index 1", dict(partition_index=1), "partition_index"),
        (w2, "partition_index 2^32 - 1 (V1_1: the index is in no input)",
         dict(partition_index=2**32 - 1),
         "partition_index 4294967295: a WindowPoSt proof covers partitions of one deadline, "
         "which has at most 3000"),
        (w2, "partition_index 1 for sectors %d and %d" % tuple(w2.sectors),
         dict(partition_index=1),
         "vanilla_proofs[0]: sector %d cannot be at position 2 of the proven sectors"
         % w2.sectors[0]),
        (w2, "a vanilla_proof (the PoRep field)", dict(vanilla_proof=b"{}"),
         "field vanilla_proof (10) is not used by WINDOW_POST_PARTITION"),
        (win, "a vanilla_proof (the PoRep field)", dict(vanilla_proof=b"{}"),
         "field vanilla_proof (10) is not used by WINNING_POST"),
        (w2, "a sector_number (not a PoSt field)", dict(sector_number=1),
         "field sector_number (20) is not used by WINDOW_POST_PARTITION"),
        (win, "a comm_r_new (not a PoSt field)", dict(comm_r_new=b"\1" * 32),
         "field comm_r_new (31) is not used by WINNING_POST"),
        (v1, "V1 (API 1.0) blobs of partition 1 sent as partition 0", dict(partition_index=0),
         "vanilla_proofs[0] (sector %d): the sector proof does not verify for this randomness "
         "and partition_index" % v1.sectors[0]),
        (v1, "V1 (API 1.0) blobs of partition 1 sent as partition 2", dict(partition_index=2),
         "does not verify for this randomness and partition_index"),
        (w2, "priority 5 (not a Priority)", dict(priority=5), "priority 5"),
    ]
    for p, what, fields, needle in cases:
        invalid(st, edit(p.request(), fields), "%s, %s" % (p.kind, what), needle)
    sub1 = served_on(st, sub0)
    failed = kc.pb.AwaitProofResponse.FAILED
    for p, what, fields, needle in bad_paths:
        r = edit(p.request(), fields)
        j = st.SubmitProof(r, timeout=120).job_id
        a = st.AwaitProof(kc.pb.AwaitProofRequest(job_id=j), timeout=600)
        ok(a.status == failed and needle in a.error_message and not a.proof
           and a.gpu_compute_ms == 0,
           "SubmitProof, %s, %s: accepted, FAILED at synthesis naming it, not proven"
           % (p.kind, what), "FAILED with %r, no proving" % needle,
           "%s %r, %d proof bytes, proving %d ms"
           % (status_name(a), a.error_message, len(a.proof), a.gpu_compute_ms))
        b = st.Prove(kc.pb.ProveRequest(submit=r), timeout=600).result
        ok(b.status == failed and needle in b.error_message and not b.proof,
           "Prove, %s, %s: FAILED naming it" % (p.kind, what), "FAILED with %r" % needle,
           "%s %r" % (status_name(b), b.error_message))
        if a.status == failed:
            print("%s:   (%s)" % (ME, a.error_message), flush=True)
    sub2 = kc.g.metric(st, "cuzk_jobs_submitted_total")
    ok(sub2 == sub1 + 2 * len(bad_paths), "each bad path's request a job",
       "%d jobs submitted" % (sub1 + 2 * len(bad_paths)), "%s" % sub2)


def missing(target, d2, dwin, wpost_params, winning_params):
    st = stub(target)
    for p, path in ((Post(d2), wpost_params), (Post(dwin), winning_params)):
        not_found(st, p.request(), CIRCUITS[p.kind], path, ", " + p.kind)
    s = st.GetStatus(kc.pb.GetStatusRequest(), timeout=30)
    sub = kc.g.metric(st, "cuzk_jobs_submitted_total")
    ok(sub == 0 and s.total_proofs_failed == 0 and not s.loaded_srs,
       "no job submitted or failed and nothing loaded", "0 submitted, 0 failed, no SRS",
       "%s submitted, %d failed, SRS %r" % (sub, s.total_proofs_failed,
                                           [x.circuit_id for x in s.loaded_srs]))


def preload(target):
    st = stub(target)
    s = st.GetStatus(kc.pb.GetStatusRequest(), timeout=30)
    q = [x.proof_kind for x in s.queues]
    ok("window-post" in q and "winning-post" in q and len(set(q)) == len(q),
       "GetStatus has the queues window-post and winning-post, each once",
       "window-post, winning-post", q)
    for circuit in CIRCUITS.values():
        t0 = time.time()
        try:
            p = st.PreloadSRS(kc.pb.PreloadSrsRequest(circuit_id=circuit), timeout=300)
        except kc.grpc.RpcError as e:
            ok(False, "PreloadSRS %s" % circuit, "loaded", "%s %r" % (e.code(), e.details()))
            continue
        ok(not p.already_loaded, "PreloadSRS %s: loaded (%d ms, %.1f s here)"
           % (circuit, p.load_time_ms, time.time() - t0), "already_loaded false",
           p.already_loaded)
        p = st.PreloadSRS(kc.pb.PreloadSrsRequest(circuit_id=circuit), timeout=60)
        ok(p.already_loaded, "PreloadSRS %s again: already loaded" % circuit,
           "already_loaded true", p.already_loaded)
    s = st.GetStatus(kc.pb.GetStatusRequest(), timeout=30)
    srs = {x.circuit_id: x.size_bytes for x in s.loaded_srs}
    for circuit in CIRCUITS.values():
        # the 2KiB .params: 11 MiB (Window), 45 MiB (Winning)
        ok(srs.get(circuit, 0) > 8 << 20, "GetStatus lists %s (%d bytes)"
           % (circuit, srs.get(circuit, 0)), "%s over 8 MiB" % circuit, srs)


def main(argv):
    cmds = {"prove": (prove, 4), "unset": (unset, 4), "idem": (idem, 4),
            "deadline": (deadline, -4), "refusals": (refusals, 5), "missing": (missing, 5),
            "preload": (preload, 1)}
    return kc.run(__doc__, argv, cmds)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
