#!/usr/bin/env python3
"""Independent reference for Poseidon over BLS12-381 Fr, written from the
Poseidon paper (Grassi et al., eprint 2019/458, appendix F and section 2.3),
for tests/test_poseidon.c.

  poseidon_ref.py rc T RF RP         the (RF+RP)*T round constants, one hex
                                     value a line, from the Grain LFSR
  poseidon_ref.py hash T RF RP x...  the textbook permutation of
                                     [2^(T-1) - 1, x...] (x as hex, T-1 of
                                     them) with the Cauchy MDS matrix
                                     1/(i + T + j); prints element 1 in hex
"""
import sys

P = 0x73EDA753299D7D483339D80809A1D80553BDA402FFFE5BFEFFFFFFFF00000001
NBITS = 255


def lfsr_bits(t, rf, rp):
    """Self-shrinking Grain LFSR output bits (paper, appendix F)."""
    fields = [(1, 2), (1, 4), (NBITS, 12), (t, 12), (rf, 10), (rp, 10),
              ((1 << 30) - 1, 30)]
    b = []
    for value, width in fields:
        b.extend((value >> k) & 1 for k in range(width - 1, -1, -1))
    assert len(b) == 80
    pos = 0

    def step():
        nonlocal pos
        nb = b[pos + 62] ^ b[pos + 51] ^ b[pos + 38] ^ b[pos + 23] ^ b[pos + 13] ^ b[pos]
        b.append(nb)
        pos += 1
        return nb

    for _ in range(160):
        step()
    while True:
        first, second = step(), step()
        if first:
            yield second


def round_constants(t, rf, rp):
    gen = lfsr_bits(t, rf, rp)
    out = []
    while len(out) < (rf + rp) * t:
        v = 0
        for _ in range(NBITS):
            v = (v << 1) | next(gen)
        if v < P:
            out.append(v)
    return out


def textbook_hash(t, rf, rp, xs):
    rc = round_constants(t, rf, rp)
    mds = [[pow(i + t + j, P - 2, P) for j in range(t)] for i in range(t)]
    s = [(1 << (t - 1)) - 1] + xs
    for r in range(rf + rp):
        s = [(v + rc[r * t + i]) % P for i, v in enumerate(s)]
        full = r < rf // 2 or r >= rf // 2 + rp
        s = [pow(v, 5, P) if (full or i == 0) else v for i, v in enumerate(s)]
        s = [sum(mds[i][j] * s[j] for j in range(t)) % P for i in range(t)]
    return s[1]


def main(argv):
    mode, t, rf, rp = argv[1], int(argv[2]), int(argv[3]), int(argv[4])
    if mode == "rc":
        sys.stdout.write("".join("%064x\n" % c for c in round_constants(t, rf, rp)))
    elif mode == "hash":
        xs = [int(x, 16) for x in argv[5:]]
        assert len(xs) == t - 1
        print("%064x" % textbook_hash(t, rf, rp, xs))
    else:
        raise SystemExit("unknown mode " + mode)


if __name__ == "__main__":
    main(sys.argv)
