#!/usr/bin/env python3
"""Checks fp_sqr (src/cuda/fp.cuh with docs/pending/fp-sqr.patch applied)
without a GPU: the PTX of its carry chains is read from the source and
executed instruction by instruction (mad.lo.cc, madc.lo.cc, madc.hi.cc,
madc.hi, addc with the carry flag), the rest of the function (the shift,
fp_mac6 / fp_addw reduction rows, fp_merge, the final add and conditional
subtraction) is transcribed, and every result is compared with
a^2 / 2^384 mod p computed with Python integers, for a < 2p.  It also
asserts that no chain drops a carry out of its last word.

    python3 docs/pending/check_fp_sqr.py [path/to/fp.cuh] [trials]
"""
import random
import re
import sys

P = 0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab
W = 2 ** 32
N0 = (-pow(P, -1, W)) % W
PL = [(P >> (32 * i)) % W for i in range(12)]


def parse(src):
    chains = {}
    for m in re.finditer(
            r"void fp_chain(\d)\(uint32_t \(&t\)\[24\], ([^)]*)\)\s*\{\s*asm\((.*?)\n\s*: (.*?)\n\s*: (.*?)\);",
            src, re.S):
        k = int(m.group(1))
        params = [p.split()[-1] for p in m.group(2).split(",")]
        text = "".join(re.findall(r'"((?:[^"\\]|\\.)*)"', m.group(3))).replace("\\n", "\n").replace("\\t", "")
        outs = re.findall(r'"\+r"\(t\[P \+ (\d+)\]\)', m.group(4))
        ins = re.findall(r'"r"\((\w+)\)', m.group(5))
        chains[k] = (params, text, [int(o) for o in outs], ins)
    body = src[src.index("fp_t fp_sqr(const fp_t &a)"):]
    body = body[:body.index("\n}\n")]
    # the parts transcribed below, not executed from the source: they must read as transcribed
    for line in ["t[j] = __funnelshift_l(t[j - 1], t[j], 1);", "t[0] <<= 1;", "acc[j] = t[j];",
                 "acc[12] = 0;", "uint32_t m = acc[0] * FP_N0;",
                 "fp_mac6(acc, FP_P0, FP_P2, FP_P4, FP_P6, FP_P8, FP_P10, m);",
                 "fp_mac6(odd, FP_P1, FP_P3, FP_P5, FP_P7, FP_P9, FP_P11, m);",
                 "fp_addw(odd, acc[1]);", "acc[j] = odd[j];", "odd[j] = s[j + 2];",
                 "odd[11] = odd[12] = 0;", "fp_t r = fp_merge(acc, odd), h;", "h.l[j] = t[12 + j];",
                 "return fp_reduce_once(fp_add_lazy(r, h));"]:
        assert line in body, "fp_sqr no longer reads as this check transcribes it: " + line
    calls = [(int(k), int(pos), [x.strip() for x in args.split(",")])
             for k, pos, args in re.findall(r"fp_chain(\d)<(\d+)>\(t, ([^;]*)\);", body)]
    dm = re.search(r'asm\(("mad\.lo.*?)\n\s*: (.*?)\n\s*: (.*?)\);', body, re.S)
    dtext = "".join(re.findall(r'"((?:[^"\\]|\\.)*)"', dm.group(1))).replace("\\n", "\n").replace("\\t", "")
    douts = [int(x) for x in re.findall(r'"\+r"\(t\[(\d+)\]\)', dm.group(2))]
    dins = [int(x) for x in re.findall(r'"r"\(a\.l\[(\d+)\]\)', dm.group(3))]
    return chains, calls, (dtext, douts, dins)


def run_ptx(text, regs):
    """regs: operand index -> value (mutated); returns the final carry
    flag of the last instruction that set one."""
    cf = 0
    for line in text.strip().split("\n"):
        line = line.strip().rstrip(";")
        if not line:
            continue
        op, rest = line.split(None, 1)
        ops = [o.strip() for o in rest.split(",")]
        val = lambda o: int(o) if not o.startswith("%") else regs[int(o[1:])]
        d = int(ops[0][1:])
        if op.startswith("mad"):
            prod = val(ops[1]) * val(ops[2])
            part = prod % W if ".lo" in op else prod // W
            s = part + val(ops[3]) + (cf if op.startswith("madc") else 0)
        elif op.startswith("addc"):
            s = val(ops[1]) + val(ops[2]) + cf
        else:
            raise ValueError("unknown instruction " + op)
        regs[d] = s % W
        if ".cc" in op:
            cf = s // W
        else:
            assert s < W, "carry out of %s dropped" % line
    return cf


def fp_sqr(a, chains, calls, diag):
    t = [0] * 24
    al = {"a.l[%d]" % i: a[i] for i in range(12)}
    for k, pos, args in calls:
        params, text, outs, ins = chains[k]
        env = dict(zip(params, [al[x] for x in args]))
        regs = {}
        for j, o in enumerate(outs):
            regs[j] = t[pos + o]
        for j, name in enumerate(ins):
            regs[len(outs) + j] = env[name]
        run_ptx(text, regs)
        for j, o in enumerate(outs):
            t[pos + o] = regs[j]
    # t[j] = funnelshift_l(t[j - 1], t[j], 1); t[0] <<= 1
    t = [(t[0] << 1) % W] + [((t[j] << 1) | (t[j - 1] >> 31)) % W for j in range(1, 24)]
    dtext, douts, dins = diag
    regs = {j: t[o] for j, o in enumerate(douts)}
    for j, i in enumerate(dins):
        regs[len(douts) + j] = a[i]
    run_ptx(dtext, regs)
    for j, o in enumerate(douts):
        t[o] = regs[j]
    assert sum(x << (32 * j) for j, x in enumerate(t)) == sum(x << (32 * j) for j, x in enumerate(a)) ** 2
    # reduction rows (fp_mac6, fp_addw, the renaming), as fp_mul's
    val = lambda w: sum(x << (32 * j) for j, x in enumerate(w))
    words = lambda v, n: [(v >> (32 * j)) % W for j in range(n)]
    acc, odd = t[:12] + [0], [0] * 13
    for _ in range(12):
        m = acc[0] * N0 % W
        v = val(acc) + sum(x * m << (64 * k) for k, x in enumerate(PL[0::2]))
        assert v < 2 ** 416
        acc = words(v, 13)
        v = val(odd) + sum(x * m << (64 * k) for k, x in enumerate(PL[1::2]))
        assert v < 2 ** 416
        odd = words(v, 13)
        v = val(odd) + acc[1]
        assert v < 2 ** 416
        odd = words(v, 13)
        acc, odd = odd, acc[2:13] + [0, 0]
    r = val(acc) + (val(odd) << 32)
    assert r < 2 ** 384
    s = r + val(t[12:])
    assert s < 2 * P and s < 2 ** 384
    return s - P if s >= P else s


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else "src/cuda/fp.cuh"
    trials = int(sys.argv[2]) if len(sys.argv) > 2 else 20000
    chains, calls, diag = parse(open(path).read())
    assert sorted(chains) == [1, 2, 3, 4, 5, 6] and len(calls) == 21, "fp_sqr not found"
    nprod = sum(k for k, _, _ in calls)
    assert nprod == 66, "cross products: %d" % nprod
    seed = random.randrange(2 ** 32)
    rng = random.Random(seed)
    edge = [0, 1, P - 1, P, P + 1, 2 * P - 1, (1 << 381) - 1, sum(0xffffffff << (32 * i) for i in range(11))]
    R = 2 ** 384
    for n in range(trials):
        x = edge[n] if n < len(edge) else rng.randrange(2 * P)
        a = [(x >> (32 * i)) % W for i in range(12)]
        got = fp_sqr(a, chains, calls, diag)
        want = x * x * pow(R, -1, P) % P
        assert got == want, "a = %#x: got %#x, want %#x (seed %d)" % (x, got, want, seed)
    print("check_fp_sqr: %d squarings equal a^2 / 2^384 mod p (seed %d), no carry lost" % (trials, seed))


main()
