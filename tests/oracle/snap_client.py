#!/usr/bin/python3
"""SnapDeals (SNAP_DEALS_UPDATE) through cuzk-daemon, as Curio sends it.

Debian's python3-grpcio with the stubs grpc_client.py generates at run time
(imported from it, with its channel and metric helpers).  A request carries
registered_proof (RegisteredUpdateProof: 0 for 2KiB), sector_size,
sector_number, miner_id, vanilla_proofs (one bincode PartitionProof per
partition: `cuzk snap encode` writes them as DIR/vanilla-K.bin) and
comm_r_old / comm_r_new / comm_d_new: 32 raw bytes (Curio's proof-share
path, tasks/proofshare) or the commitments' binary CIDs (its UpdateProve
task passes cid.Bytes()).  Run by tests/oracle/run_snap_grpc.sh:

  snap_client.py prove TARGET DIR OTHER_DIR OUT_RAW OUT_CID OUT_OTHER
      Prove with raw commitments and with CIDs (proofs to OUT_RAW, OUT_CID);
      the same id and request again is the same job and proof; the update
      tried again with new data (OTHER_DIR) under Curio's same id
      snap-<miner>-<sector> is a job of its own (proof to OUT_OTHER)
  snap_client.py refusals TARGET DIR
      bad requests refused INVALID_ARGUMENT naming what is wrong (tampered
      vanilla proofs, wrong commitments, counts, sizes, CIDs of the other
      kind, fields SnapDeals does not use); the daemon serves on and counts
      none of them as a job
  snap_client.py missing TARGET DIR PARAMS_PATH
      a daemon without the parameter files: NOT_FOUND naming PARAMS_PATH,
      for SubmitProof, Prove and PreloadSRS "snap-2k"
  snap_client.py preload TARGET
      PreloadSRS "snap-2k" loads it, GetStatus lists it

DIR: snap-encode's output (update.json, vanilla-0.bin ...).  Every check
prints "PASS: ..." or "FAIL: ...: expected ..., got ..."; exit status 0
when all passed.
"""
import json
import os
import sys

import kind_client as kc
from kind_client import completed, edit, invalid, not_found, ok, served_on, stub

ME = kc.ME = "snap_client.py"
MINER = 1000
SECTOR = 7
UPDATE_2K = 0  # RegisteredUpdateProof StackedDrg2KiBV1
CIRCUIT = "snap-2k"


def uvarint(v):
    out = bytearray()
    while True:
        b = v & 0x7F
        v >>= 7
        out.append(b | (0x80 if v else 0))
        if not v:
            return bytes(out)


def cid(digest, sealed):
    """go-fil-commcid: CIDv1, fil-commitment-sealed + poseidon-bls12_381-a2-fc1
    (CommR) or fil-commitment-unsealed + sha2-256-trunc254-padded (CommD)."""
    codec, mh = (0xF102, 0xB401) if sealed else (0xF101, 0x1012)
    return b"\x01" + uvarint(codec) + uvarint(mh) + uvarint(len(digest)) + digest


class Update:
    def __init__(self, d):
        with open(os.path.join(d, "update.json")) as f:
            u = json.load(f)
        self.size = u["sector_size"]
        self.comm = {k: bytes.fromhex(u[k]) for k in ("comm_r_old", "comm_d_new", "comm_r_new")}
        self.vanilla = []
        for k in range(u["partitions"]):
            with open(os.path.join(d, "vanilla-%d.bin" % k), "rb") as f:
                self.vanilla.append(f.read())

    def request(self, request_id="", cids=False, **kw):
        c = self.comm
        f = dict(request_id=request_id, proof_kind=kc.pb.SNAP_DEALS_UPDATE,
                 registered_proof=UPDATE_2K, sector_size=self.size, sector_number=SECTOR,
                 miner_id=MINER, vanilla_proofs=self.vanilla,
                 comm_r_old=cid(c["comm_r_old"], True) if cids else c["comm_r_old"],
                 comm_r_new=cid(c["comm_r_new"], True) if cids else c["comm_r_new"],
                 comm_d_new=cid(c["comm_d_new"], False) if cids else c["comm_d_new"])
        f.update(kw)
        return kc.pb.SubmitProofRequest(**f)


def prove(target, d, d_other, out_raw, out_cid, out_other):
    st = stub(target)
    u, v = Update(d), Update(d_other)
    n = len(u.vanilla)
    sub0 = kc.g.metric(st, "cuzk_jobs_submitted_total")
    rid = "snap-%d-%d" % (MINER, SECTOR)  # Curio's id for UpdateProve
    handles = {}
    for out, cids, name in ((out_raw, False, "raw commitments"), (out_cid, True, "CIDs")):
        req = u.request(rid + ("-cid" if cids else ""), cids)
        a = st.Prove(kc.pb.ProveRequest(submit=req), timeout=1500).result
        handles[name] = a.job_id
        if completed(a, "Prove, %s" % name, n):
            with open(out, "wb") as f:
                f.write(a.proof)
            print("%s: %s: queue %d ms, srs %d ms, synthesis %d ms, proving %d ms"
                  % (ME, a.job_id, a.queue_wait_ms, a.srs_load_ms, a.synthesis_ms,
                     a.gpu_compute_ms), flush=True)
    req = u.request(rid)
    b = st.Prove(kc.pb.ProveRequest(submit=req), timeout=60).result
    with open(out_raw, "rb") as f:
        first = f.read()
    ok(b.job_id == handles["raw commitments"] and b.proof == first,
       "the same id and request again: the same job and proof", handles["raw commitments"],
       b.job_id)
    sub1 = kc.g.metric(st, "cuzk_jobs_submitted_total")
    ok(sub1 == sub0 + 2, "two jobs submitted for three calls", sub0 + 2, sub1)
    # the update tried again with new data under Curio's same id: a job of
    # its own, its proof for the new commitments
    c = st.Prove(kc.pb.ProveRequest(submit=v.request(rid)), timeout=1500).result
    if completed(c, "Prove of the update with new data under the same id", len(v.vanilla)):
        with open(out_other, "wb") as f:
            f.write(c.proof)
    ok(c.job_id not in handles.values(), "the update with new data: a job of its own",
       "a job other than %s" % sorted(handles.values()), c.job_id)
    sub2 = kc.g.metric(st, "cuzk_jobs_submitted_total")
    ok(sub2 == sub1 + 1, "one more job submitted", sub1 + 1, sub2)
    q = {x.proof_kind: x for x in st.GetStatus(kc.pb.GetStatusRequest(), timeout=30).queues}
    ok("snap-update" in q, "GetStatus has a snap-update queue", "snap-update", sorted(q))


def refusals(target, d):
    st = stub(target)
    u = Update(d)
    sub0 = kc.g.metric(st, "cuzk_jobs_submitted_total")
    v = u.vanilla[0]
    # bincode: comm_c[32] | u64 apex count | apex leaves ... | challenge proofs
    leaf = bytearray(v)
    leaf[len(v) - 9] ^= 1  # inside the last challenge's last proof (its leaf or root)
    apex = bytearray(v)
    apex[32 + 8 + 5] ^= 1  # the first apex leaf
    count = bytearray(v)
    count[32] ^= 1  # the apex leaf count
    flip = lambda b: bytes([b[0] ^ 1]) + b[1:]
    noncanon = b"\xff" * 32
    cases = [
        ("a vanilla proof with a leaf edited", dict(vanilla_proofs=[bytes(leaf)]),
         "vanilla_proofs[0]"),
        ("a vanilla proof with an apex leaf edited", dict(vanilla_proofs=[bytes(apex)]),
         "does not verify"),
        ("a vanilla proof whose apex count is wrong", dict(vanilla_proofs=[bytes(count)]),
         "apex_leafs"),
        ("a truncated vanilla proof", dict(vanilla_proofs=[v[:-1]]), "bytes"),
        ("two vanilla proofs for one partition", dict(vanilla_proofs=[v, v]),
         "vanilla_proofs: 2 given"),
        ("no vanilla proofs", dict(vanilla_proofs=[]), "vanilla_proofs: 0 given"),
        ("comm_r_new edited", dict(comm_r_new=flip(u.comm["comm_r_new"])), "does not verify"),
        ("comm_r_old edited", dict(comm_r_old=flip(u.comm["comm_r_old"])), "does not verify"),
        ("comm_d_new edited", dict(comm_d_new=flip(u.comm["comm_d_new"])), "does not verify"),
        ("comm_d_new as a CommR CID", dict(comm_d_new=cid(u.comm["comm_d_new"], True)),
         "comm_d_new: a CID of codec 0xf102"),
        ("comm_r_old as a CommD CID", dict(comm_r_old=cid(u.comm["comm_r_old"], False)),
         "comm_r_old: a CID of codec 0xf101"),
        ("comm_r_new of 31 bytes", dict(comm_r_new=u.comm["comm_r_new"][:31]),
         "comm_r_new: 31 bytes"),
        ("comm_r_new not a field element", dict(comm_r_new=noncanon),
         "comm_r_new: its 32 bytes are not a field element"),
        ("no comm_r_old", dict(comm_r_old=b""), "comm_r_old: missing"),
        ("registered_proof 5", dict(registered_proof=5), "registered_proof 5"),
        ("registered_proof 1 (8MiB) for a 2KiB update", dict(registered_proof=1, sector_size=0),
         "vanilla_proofs: 1 given; a 8MiB update has 4 partitions"),
        ("sector_size 4096", dict(sector_size=4096), "sector_size 4096"),
        ("a vanilla_proof (the PoRep field)", dict(vanilla_proof=b"{}"), "field vanilla_proof"),
        ("randomness (not a SnapDeals field)", dict(randomness=b"\1" * 32), "field randomness"),
    ]
    for what, fields, needle in cases:
        invalid(st, edit(u.request(), fields), what, needle)
    served_on(st, sub0)


def missing(target, d, params_path):
    not_found(stub(target), Update(d).request(), CIRCUIT, params_path)


def preload(target):
    st = stub(target)
    p = st.PreloadSRS(kc.pb.PreloadSrsRequest(circuit_id=CIRCUIT), timeout=900)
    ok(not p.already_loaded, "PreloadSRS %s: loaded (%d ms)" % (CIRCUIT, p.load_time_ms),
       "already_loaded false", p.already_loaded)
    s = st.GetStatus(kc.pb.GetStatusRequest(), timeout=30)
    srs = {x.circuit_id: x.size_bytes for x in s.loaded_srs}
    ok(srs.get(CIRCUIT, 0) > 1 << 28, "GetStatus lists %s (%d bytes)" % (CIRCUIT,
                                                                         srs.get(CIRCUIT, 0)),
       "%s over 256 MiB" % CIRCUIT, srs)


def main(argv):
    cmds = {"prove": (prove, 6), "refusals": (refusals, 2), "missing": (missing, 3),
            "preload": (preload, 1)}
    return kc.run(__doc__, argv, cmds)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
