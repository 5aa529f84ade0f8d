#!/usr/bin/python3
"""Writes the seed corpus of fuzz/fuzz_wire.c: cuzk.v1 requests encoded by
hand (selector byte, then the wire data), so the seeds need no protobuf
compiler.  Run from fuzz/corpus: ./make_wire.py (writes wire/*)"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../tests/oracle"))
from pbwire import field, varint  # noqa: E402


porep = (field(1, 2, b"porep-1000-42") + field(2, 0, 1) + field(3, 0, 34359738368) +
         field(4, 0, 8) + field(5, 0, 2) + field(10, 2, b'{"SectorNum":42}') +
         field(20, 0, 42) + field(21, 0, 1000))
wdpost = (field(1, 2, b"wdpost-1000-0-[1 2 3]") + field(2, 0, 3) + field(5, 0, 3) +
          b"".join(field(11, 2, bytes([i]) * 40) for i in range(5)) + field(21, 0, 1000) +
          field(22, 2, bytes(range(32))) + field(23, 0, 0))
snap = (field(2, 0, 2) + field(11, 2, b"p0") + field(30, 2, b"\x11" * 32) +
        field(31, 2, b"\x22" * 32) + field(32, 2, b"\x33" * 32))
generic = field(2, 0, 100) + field(100, 2, b"mul") + field(101, 2, bytes(96)) + field(102, 0, 1)
synthetic = field(2, 0, 101) + field(102, 0, 2) + field(103, 0, 10) + field(105, 0, 7)
unknown = synthetic + field(15, 0, 0) + field(999, 2, b"x" * 10) + varint(7 << 3 | 5) + b"\0" * 4
seeds = {
    "porep": b"\0" + porep,
    "wdpost": b"\0" + wdpost,
    "snap": b"\0" + snap,
    "generic": b"\0" + generic,
    "unknown": b"\0" + unknown,
    "prove": b"\1" + field(1, 2, synthetic),
    "prove_empty": b"\1",
    # found by fuzz_wire: field number 0 in a non-minimal tag (0x81 0x00),
    # which protobuf-c takes for an unknown field
    "field0": bytes.fromhex("00100010" "65b00602b8060681001500b806060a07783d00000000"),
}
os.makedirs("wire", exist_ok=True)
for name, data in seeds.items():
    with open(os.path.join("wire", name), "wb") as f:
        f.write(data)
