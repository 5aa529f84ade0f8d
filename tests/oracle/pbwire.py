"""Protocol buffer wire data by hand (varints and fields), for messages no
protobuf library would write: unknown fields, invalid strings, repeats.
Shared by tests/oracle/grpc_hostile.py and fuzz/corpus/make_wire.py."""


def varint(v):
    out = b""
    while True:
        b = v & 0x7F
        v >>= 7
        out += bytes([b | (0x80 if v else 0)])
        if not v:
            return out


def field(num, wt, payload):
    """Field num of wire type wt: 0 takes an integer, 2 bytes."""
    tag = varint(num << 3 | wt)
    return tag + (varint(payload) if wt == 0 else varint(len(payload)) + payload)
