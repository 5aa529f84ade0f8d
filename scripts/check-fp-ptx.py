#!/usr/bin/env python3
"""Checks the Fp and Fp2 products of src/cuda/fp.cuh that are written as
PTX carry chains, without a GPU: fp_mul_wide (a whole 768-bit product),
fp_wide_merge, fp_wide_sub, fp_wide_add_p2, fp_redc_wide and fp2_mul
(Karatsuba with one reduction less).  The PTX text of every chain
is read from the source and executed instruction by instruction against
Python integers (mad.lo/hi with and without carry, add/sub with carry),
asserting that no chain drops its last carry or borrow, that every
fp_chain6 call starts at an even word of its ACC or ODD array (aligned
register pairs: docs/gpu-kernels.md item 6) and stays inside it; what is
plain C (fp_redc_wide's reduction rows, the order of fp2_mul's steps) is
transcribed here, and the source must still read as transcribed.  Results
are compared with the Fp2 product (u^2 = -1) / 2^384 mod p on edge values and random ones (the seed
is printed; pass it back to replay).

    python3 scripts/check-fp-ptx.py [path/to/fp.cuh] [trials] [seed]
"""
import random
import re
import sys

P = 0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab
W = 2 ** 32
N0 = (-pow(P, -1, W)) % W
PL = [(P >> (32 * i)) % W for i in range(12)]
RINV = pow(2 ** 384, -1, P)


def val(w):
    return sum(x << (32 * j) for j, x in enumerate(w))


def words(v, n):
    return [(v >> (32 * j)) % W for j in range(n)]


def ptx_text(asm_strings):
    return "".join(re.findall(r'"((?:[^"\\]|\\.)*)"', asm_strings)).replace("\\n", "\n").replace("\\t", "")


def run_ptx(text, regs):
    """Executes PTX text on regs (operand index -> 32-bit value)."""
    cf = 0
    for line in text.strip().split("\n"):
        line = line.strip().rstrip(";")
        if not line:
            continue
        op, rest = line.split(None, 1)
        ops = [o.strip() for o in rest.split(",")]
        v = lambda o: regs[int(o[1:])] if o.startswith("%") else int(o, 0)
        d = int(ops[0][1:])
        if op.startswith("mad"):
            prod = v(ops[1]) * v(ops[2])
            part = prod % W if ".lo" in op else prod // W
            s = part + v(ops[3]) + (cf if op.startswith("madc") else 0)
        elif op.startswith("add"):
            s = v(ops[1]) + v(ops[2]) + (cf if op.startswith("addc") else 0)
        elif op.startswith("sub"):
            s = v(ops[1]) - v(ops[2]) - (cf if op.startswith("subc") else 0)
        else:
            raise ValueError("unknown instruction " + op)
        regs[d] = s % W
        if ".cc" in op:
            cf = 1 if (s >= W or s < 0) else 0
        else:
            assert 0 <= s < W, "carry or borrow out of '%s' dropped" % line
    return regs


def function_body(src, signature):
    i = src.index(signature)
    return src[i:src.index("\n}\n", i)]


def asm_block(body):
    """(text, outputs, inputs) of the single asm statement in body; the
    operands are kept as their C expressions."""
    m = re.search(r'asm\((".*?)\n\s*: (.*?)(?:\n\s*: (.*?))?\);', body, re.S)
    outs = re.findall(r'"[+=]r"\(([^)]*\]?)\)', m.group(2))
    ins = re.findall(r'"r"\(([^)]*\]?)\)', m.group(3) or "")
    return ptx_text(m.group(1)), outs, ins


def exec_asm(block, env):
    """Runs an asm block whose operands are C expressions looked up (and
    written back) in env."""
    text, outs, ins = block
    regs = {j: env.get(o, 0) for j, o in enumerate(outs)}  # "=r" outputs start unset
    for j, name in enumerate(ins):
        regs[len(outs) + j] = env[name]
    run_ptx(text, regs)
    for j, o in enumerate(outs):
        env[o] = regs[j]


class Source:
    def __init__(self, src):
        self.chains = {}
        for m in re.finditer(r"void fp_chain(\d)\(uint32_t \(&t\)\[N\],\s*([^)]*)\)\s*\{(.*?)\n\}", src, re.S):
            params = [p.split()[-1] for p in m.group(2).split(",")]
            text, outs, ins = asm_block(m.group(3))
            offs = [int(re.fullmatch(r"t\[P \+ (\d+)\]", o).group(1)) for o in outs]
            self.chains[int(m.group(1))] = (params, text, offs, ins)
        assert sorted(self.chains) == [6], "fp_chain6 not found (or others beside it)"
        row = function_body(src, "void fp_redc_row(uint32_t (&acc)[13], uint32_t (&odd)[13])")
        for line in ["uint32_t m = acc[0] * FP_N0;",
                     "fp_chain6<0>(acc, FP_P0, FP_P2, FP_P4, FP_P6, FP_P8, FP_P10, m);",
                     "fp_chain6<0>(odd, FP_P1, FP_P3, FP_P5, FP_P7, FP_P9, FP_P11, m);",
                     "fp_addw(odd, acc[1]);", "t[j] = acc[j];", "acc[j] = odd[j];", "odd[j] = t[j + 2];",
                     "odd[11] = odd[12] = 0;"]:
            assert line in row, "fp_redc_row no longer reads as transcribed: " + line
        redc = function_body(src, "fp_t fp_redc_wide(const uint32_t (&t)[24])")
        for line in ["acc[j] = t[j];", "acc[12] = 0;", "odd[j] = 0;", "fp_redc_row(acc, odd);",
                     "fp_t r = fp_merge(acc, odd), h;", "h.l[j] = t[12 + j];",
                     "return fp_reduce_once(fp_add_lazy(r, h));"]:
            assert line in redc, "fp_redc_wide no longer reads as transcribed: " + line
        merge = function_body(src, "void fp_wide_merge(uint32_t (&t)[24], const uint32_t (&acc)[25],")
        assert "t[0] = acc[0];" in merge, "fp_wide_merge no longer reads as transcribed"
        self.merge = asm_block(merge)
        wide = function_body(src, "void fp_mul_wide(uint32_t (&t)[24], const fp_t &a, const fp_t &b)")
        self.wide_calls = self.calls(wide)
        for line in ["acc[j] = odd[j] = 0;", "fp_wide_merge(t, acc, odd);"]:
            assert line in wide, "fp_mul_wide no longer reads as transcribed: " + line
        self.sub = asm_block(function_body(src, "void fp_wide_sub(uint32_t (&t)[24], const uint32_t (&u)[24])"))
        self.add_p2 = asm_block(function_body(src, "void fp_wide_add_p2(uint32_t (&t)[24])"))
        m2 = function_body(src, "fp2_t fp2_mul(const fp2_t &a, const fp2_t &b)")
        steps = re.findall(r"^\s*(fp_mul_wide\(.*?\);|fp_wide_\w+\(.*?\);|return .*?;)$", m2, re.M)
        assert steps == ["fp_mul_wide(t0, a.c0, b.c0);", "fp_mul_wide(t1, a.c1, b.c1);",
                         "fp_mul_wide(s, fp_add_lazy(a.c0, a.c1), fp_add_lazy(b.c0, b.c1));",
                         "fp_wide_sub(s, t0);", "fp_wide_sub(s, t1);", "fp_wide_add_p2(t0);",
                         "fp_wide_sub(t0, t1);", "return fp2_t{fp_redc_wide(t0), fp_redc_wide(s)};"], \
            "fp2_mul no longer reads as transcribed: %r" % steps

    @staticmethod
    def calls(body):
        return [(int(k), int(pos), arr, [x.strip() for x in args.split(",")])
                for k, pos, arr, args in re.findall(r"fp_chain(\d)<(\d+)>\((acc|odd), ([^;]*)\);", body)]

    def run_calls(self, calls, arrays, env):
        """Runs chain calls on arrays {"acc": [25 words], "odd": [...]},
        asserting each chain stays inside its array."""
        for k, pos, arr, args in calls:
            params, text, offs, ins = self.chains[k]
            t = arrays[arr]
            assert pos % 2 == 0, "a chain at odd word %d (unaligned pairs)" % pos
            assert pos + max(offs) < len(t), "a chain past the end of %s" % arr
            local = dict(zip(params, [env[x] for x in args]))
            regs = {j: t[pos + o] for j, o in enumerate(offs)}
            for j, name in enumerate(ins):
                regs[len(offs) + j] = local[name]
            run_ptx(text, regs)
            for j, o in enumerate(offs):
                t[pos + o] = regs[j]

    def redc_wide(self, t):
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
        assert s < 2 * P and s < 2 ** 384, "fp_redc_wide: R + H >= 2p"
        return s - P if s >= P else s

    def merged(self, arrays):
        acc, odd = arrays["acc"], arrays["odd"]
        assert acc[24] == 0 and odd[23] == 0 and odd[24] == 0, "fp_wide_merge drops a non-zero word"
        env = {"acc[%d]" % j: acc[j] for j in range(25)}
        env.update({"odd[%d]" % j: odd[j] for j in range(25)})
        exec_asm(self.merge, env)
        t = [acc[0]] + [env["t[%d]" % j] for j in range(1, 24)]
        assert val(t) == val(acc) + (val(odd) << 32), "fp_wide_merge: wrong sum"
        return t

    def mul_wide(self, a, b):
        arrays = {"acc": [0] * 25, "odd": [0] * 25}
        env = {"a.l[%d]" % i: a[i] for i in range(12)}
        env.update({"b.l[%d]" % i: b[i] for i in range(12)})
        self.run_calls(self.wide_calls, arrays, env)
        t = self.merged(arrays)
        assert val(t) == val(a) * val(b), "fp_mul_wide: the product is wrong"
        return t

    def wide_op(self, block, t, u=None):
        env = {"t[%d]" % j: t[j] for j in range(24)}
        if u is not None:
            env.update({"u[%d]" % j: u[j] for j in range(24)})
        exec_asm(block, env)
        return [env["t[%d]" % j] for j in range(24)]

    def fp2_mul(self, a0, a1, b0, b1):
        wa = lambda x: words(x, 12)
        t0 = self.mul_wide(wa(a0), wa(b0))
        t1 = self.mul_wide(wa(a1), wa(b1))
        s = self.mul_wide(wa(a0 + a1), wa(b0 + b1))
        s = self.wide_op(self.sub, s, t0)
        s = self.wide_op(self.sub, s, t1)
        t0 = self.wide_op(self.add_p2, t0)
        t0 = self.wide_op(self.sub, t0, t1)
        return self.redc_wide(t0), self.redc_wide(s)


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else "src/cuda/fp.cuh"
    trials = int(sys.argv[2]) if len(sys.argv) > 2 else 4000
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else random.randrange(2 ** 32)
    src = Source(open(path).read())
    assert sum(k for k, _, _, _ in src.wide_calls) == 144, "fp_mul_wide's chains: not 24 of 6"
    rng = random.Random(seed)
    print("check-fp-ptx: seed %d" % seed)
    edge = [0, 1, 2, P - 1, P - 2, (P - 1) // 2]
    for n in range(trials):
        if n < len(edge) ** 2:
            a0, a1 = edge[n % len(edge)], edge[n // len(edge)]
            b0, b1 = edge[(n * 7) % len(edge)], edge[(n * 5 + 1) % len(edge)]
        else:
            a0, a1, b0, b1 = (rng.randrange(P) for _ in range(4))
        c0, c1 = src.fp2_mul(a0, a1, b0, b1)
        w0 = (a0 * b0 - a1 * b1) * RINV % P
        w1 = (a0 * b1 + a1 * b0) * RINV % P
        assert (c0, c1) == (w0, w1), "fp2_mul(%#x + %#x u, %#x + %#x u) wrong (seed %d)" % (a0, a1, b0, b1, seed)
    print("check-fp-ptx: %d Fp2 products as (a b) / 2^384 mod p; no chain lost a carry or borrow" % trials)


main()
