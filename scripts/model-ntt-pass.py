#!/usr/bin/env python3
"""Executable model of the GPU NTT passes: src/cuda/ntt.cu's ntt_pass and
run_transform, transcribed line for line (index, twiddle, scaling and barrier
logic) over BLS12-381's Fr as Python ints.

Threads are generators, a `yield` is a __syncthreads(); a block's threads run
phase by phase (from one barrier to the next) in a shuffled order.  Shared
memory is sm_halves' two arrays of 16-byte words: an element is stored as its
low and high 128 bits apart.  Checked, for every launch:
  - no shared word is written in a phase by one thread and read or written
    in the same phase by another (a missing barrier), none is read before it
    is written, every thread of a block meets the same barriers;
  - each pass loads and stores every element of the array exactly once, and
    reads twiddles inside the table (e < n/2) with positions pos < 2^q;
  - the block fits the kernel's launch bounds and 48 KiB of shared memory;
and every transform against a direct DFT: DIF takes natural order to
bit-reversed (NR), DIT bit-reversed to natural (RN), forward (omega) and
inverse (omega^-1) tables, with the pre / post scalings (constant, coset
factor by natural or bit-reversed index) at the positions the kernel gives
them; k = 1..14 with run_transform's pass split, batches, and other splits
so that every t = 1..10 runs above other bits (u > 0).  Then each mutant of
the kernel below (a wrong twiddle, swapped or colliding indices, a missing
barrier, ...) must fail a check.  Also prints the shared-memory wavefronts a
warp's 16-byte access costs (8-lane quarter warps, 8 banks of 16 bytes).

    python3 scripts/model-ntt-pass.py        (plain python3, a few seconds)
"""
import inspect
import random
import sys

R = 0x73EDA753299D7D483339D80809A1D80553BDA402FFFE5BFEFFFFFFFF00000001
MASK128 = (1 << 128) - 1


def root_of_unity(k):
    """A primitive 2^k-th root of unity (7 generates Fr^*; r - 1 = 2^32 odd)."""
    w = pow(7, (R - 1) >> k, R)
    assert pow(w, 1 << k, R) == 1 and (k == 0 or pow(w, 1 << (k - 1), R) == R - 1)
    return w


def bitrev(i, k):
    return int(format(i, '0%db' % k)[::-1], 2) if k else 0


# ----------------------------------------------------- the device's memory


class ModelError(AssertionError):
    pass


def check(cond, what, *args):
    if not cond:
        raise ModelError(what % args if args else what)


class Global:
    """The array x: counts each pass's loads and stores per element."""

    def __init__(self, vals):
        self.v = list(vals)
        self.reset()

    def reset(self):
        self.loads = [0] * len(self.v)
        self.stores = [0] * len(self.v)

    def load(self, i):
        check(0 <= i < len(self.v), 'global load %d out of the array', i)
        self.loads[i] += 1
        return self.v[i]

    def store(self, i, val):
        check(0 <= i < len(self.v), 'global store %d out of the array', i)
        self.stores[i] += 1
        self.v[i] = val

    def end_pass(self):
        check(all(c == 1 for c in self.loads), 'a pass does not load every element once')
        check(all(c == 1 for c in self.stores), 'a pass does not store every element once')
        self.reset()


class Table:
    def __init__(self, vals):
        self.v = vals

    def __getitem__(self, e):
        check(0 <= e < len(self.v), 'table index %d outside [0, %d)', e, len(self.v))
        return self.v[e]


class Shared:
    """A block's dynamic shared memory in 16-byte words.  Per word, the
    phase and thread of its last write and of its reads in the current
    phase (MANY for several threads); with stats, each thread's n-th access
    of a phase is one instruction of its warp, for the bank count."""

    MANY = object()

    def __init__(self, words, stats):
        self.w = [None] * words
        self.wph, self.wth = [-1] * words, [None] * words
        self.rph, self.rth = [-1] * words, [None] * words
        self.phase = 0
        self.ops = {} if stats else None
        self.seq = {}
        self.wavefronts = self.requests = 0

    def record(self, who, word):
        n = self.seq.get(who, 0)
        self.seq[who] = n + 1
        self.ops.setdefault(n, []).append((who, word))

    def read(self, who, word):
        check(0 <= word < len(self.w), 'shared word %d outside the allocation', word)
        check(self.wph[word] != self.phase or self.wth[word] == who,
              'shared word %d read in the phase another thread writes it', word)
        if self.rph[word] != self.phase:
            self.rph[word], self.rth[word] = self.phase, who
        elif self.rth[word] != who:
            self.rth[word] = Shared.MANY
        check(self.w[word] is not None, 'shared word %d read before written', word)
        if self.ops is not None:
            self.record(who, word)
        return self.w[word]

    def write(self, who, word, val):
        check(0 <= word < len(self.w), 'shared word %d outside the allocation', word)
        check(self.wph[word] != self.phase or self.wth[word] == who,
              'shared word %d written by two threads in one phase', word)
        check(self.rph[word] != self.phase or self.rth[word] == who,
              'shared word %d written in the phase another thread reads it', word)
        self.wph[word], self.wth[word] = self.phase, who
        self.w[word] = val
        if self.ops is not None:
            self.record(who, word)

    def end_phase(self, lanes):
        self.phase += 1
        if self.ops is None:
            return
        for accesses in self.ops.values():
            quarters = {}
            for who, word in accesses:
                quarters.setdefault(lanes[who] // 8, {}).setdefault(word % 8, set()).add(word)
            self.requests += len({q // 4 for q in quarters})
            self.wavefronts += sum(max(len(s) for s in banks.values())
                                   for banks in quarters.values())
        self.ops, self.seq = {}, {}


class Dim:
    def __init__(self, x, y=1):
        self.x, self.y = x, y


class ScaleArgs:
    def __init__(self, mode=0, c=0, lo=None, hi=None, s=0):
        self.mode, self.c, self.lo, self.hi, self.s = mode, c, lo, hi, s


class PassArgs:
    def __init__(self, x, w, k, b, t, pre, post):
        self.x, self.w, self.k, self.b, self.t, self.pre, self.post = x, w, k, b, t, pre, post


# ------------------------------------------ the kernel (src/cuda/ntt.cu)

SCALE_NONE, SCALE_CONST, SCALE_NATURAL, SCALE_BITREV = range(4)
PASS_MAX_LOG = 10
PASS_THREADS = 256
assert 1 << (PASS_MAX_LOG - 2) <= PASS_THREADS


def scale(a, v, idx, k):
    if a.mode == SCALE_NONE:
        return v
    if a.mode == SCALE_CONST:
        return v * a.c % R
    idx &= (1 << k) - 1
    e = idx if a.mode == SCALE_NATURAL else bitrev(idx, k)
    f = a.lo[e & ((1 << a.s) - 1)] * a.hi[e >> a.s] % R
    return v * f % R


class SmHalves:
    """Element j of the sub-transform: low 128 bits at lo[j], high at hi[j]."""

    def __init__(self, smem, lo, hi, t, who):
        self.smem, self.lo, self.hi, self.n, self.who = smem, lo, hi, 1 << t, who

    def load(self, j):
        check(0 <= j < self.n, 'element %d outside the sub-transform', j)
        return self.smem.read(self.who, self.lo + j) | self.smem.read(self.who, self.hi + j) << 128

    def store(self, j, v):
        check(0 <= j < self.n, 'element %d outside the sub-transform', j)
        self.smem.write(self.who, self.lo + j, v & MASK128)
        self.smem.write(self.who, self.hi + j, v >> 128)


def twiddle(a, pos, q, u, lo):
    check(pos < 1 << q, 'twiddle position %d of stage %d', pos, q)
    p = q + u
    return a.w[((pos << u) + lo) << (a.k - 1 - p)]


def butterfly(DIT, x0, x1, w):
    if DIT:
        y = x1 * w % R
        return (x0 + y) % R, (x0 - y) % R
    d = (x0 - x1) % R
    return (x0 + x1) % R, d * w % R


def level_index(tid, v, m):
    check(v >= 0, 'negative level')
    return ((tid >> v) << (v + 2)) + (tid & ((1 << v) - 1)) + (m << v)


def radix4(DIT, x, a, tid, v, u, lo):
    ps = tid & ((1 << v) - 1)
    if DIT:
        w = twiddle(a, ps, v, u, lo)
        x[0], x[1] = butterfly(True, x[0], x[1], w)
        x[2], x[3] = butterfly(True, x[2], x[3], w)
    x[0], x[2] = butterfly(DIT, x[0], x[2], twiddle(a, ps, v + 1, u, lo))
    x[1], x[3] = butterfly(DIT, x[1], x[3], twiddle(a, ps + (1 << v), v + 1, u, lo))
    if not DIT:
        w = twiddle(a, ps, v, u, lo)
        x[0], x[1] = butterfly(False, x[0], x[1], w)
        x[2], x[3] = butterfly(False, x[2], x[3], w)


def ntt_pass(DIT, a, blockIdx, blockDim, threadIdx, smem):
    t, u, kk = a.t, a.b - a.t, a.k
    tid = threadIdx.x
    g = blockIdx.x * blockDim.y + threadIdx.y
    lo, hi = g & ((1 << u) - 1), g >> u
    base = (hi << a.b) + lo

    if t == 1:
        i0, i1 = base, base + (1 << u)
        x0 = scale(a.pre, a.x.load(i0), i0, kk)
        x1 = scale(a.pre, a.x.load(i1), i1, kk)
        x0, x1 = butterfly(DIT, x0, x1, twiddle(a, 0, 0, u, lo))
        a.x.store(i0, scale(a.post, x0, i0, kk))
        a.x.store(i1, scale(a.post, x1, i1, kk))
        return
    sub = threadIdx.y << (t + 1)
    sm = SmHalves(smem, sub, sub + (1 << t), t, (threadIdx.y, tid))
    v0, v1 = (0, t - 2) if DIT else (t - 2, 0)
    x = [None] * 4
    for m in range(4):
        i = base + (level_index(tid, v0, m) << u)
        x[m] = scale(a.pre, a.x.load(i), i, kk)

    def out(m):
        i = base + (level_index(tid, v1, m) << u)
        a.x.store(i, scale(a.post, x[m], i, kk))

    if not DIT:
        if t & 1:
            x[0], x[2] = butterfly(False, x[0], x[2], twiddle(a, tid, t - 1, u, lo))
            x[1], x[3] = butterfly(False, x[1], x[3], twiddle(a, tid + (1 << (t - 2)), t - 1, u, lo))
            q = t - 2
        else:
            radix4(False, x, a, tid, t - 2, u, lo)
            q = t - 3
        v = t - 2
        while q > 0:
            for m in range(4):
                sm.store(level_index(tid, v, m), x[m])
            yield  # __syncthreads()
            v = q - 1
            for m in range(4):
                x[m] = sm.load(level_index(tid, v, m))
            radix4(False, x, a, tid, v, u, lo)
            q -= 2
        for m in range(4):
            out(m)
    else:
        q = 0
        while q + 2 < t:
            radix4(True, x, a, tid, q, u, lo)
            for m in range(4):
                sm.store(level_index(tid, q, m), x[m])
            yield  # __syncthreads()
            v = q + 2 if q + 2 < t - 2 else t - 2
            for m in range(4):
                x[m] = sm.load(level_index(tid, v, m))
            q += 2
        if q + 2 == t:
            w = twiddle(a, tid, t - 2, u, lo)
            x[0], x[1] = butterfly(True, x[0], x[1], w)
            x[2], x[3] = butterfly(True, x[2], x[3], w)
        x[0], x[2] = butterfly(True, x[0], x[2], twiddle(a, tid, t - 1, u, lo))
        out(0)
        out(2)
        x[1], x[3] = butterfly(True, x[1], x[3], twiddle(a, tid + (1 << (t - 2)), t - 1, u, lo))
        out(1)
        out(3)


# ------------------------------------------------ launches (run_transform)

STATS = {}  # (DIT, t) -> [wavefronts, warp requests]


def launch(DIT, blocks, block, shmem, a, rng, stats):
    check(block.x * block.y <= PASS_THREADS, 'block above the launch bounds')
    check(shmem <= 48 << 10, 'dynamic shared memory above 48 KiB')
    for bx in range(blocks):
        smem = Shared(shmem // 16, stats)
        threads, lanes = {}, {}
        for y in range(block.y):
            for x in range(block.x):
                who = (y, x)
                lanes[who] = x + y * block.x
                threads[who] = ntt_pass(DIT, a, Dim(bx), block, Dim(x, y), smem)
        while threads:
            order = list(threads)
            rng.shuffle(order)
            done = []
            for who in order:
                try:
                    next(threads[who])
                except StopIteration:
                    done.append(who)
            check(not done or len(done) == len(threads), 'threads of a block meet different barriers')
            smem.end_phase(lanes)
            for who in done:
                del threads[who]
        if stats:
            st = STATS.setdefault((DIT, a.t), [0, 0])
            st[0] += smem.wavefronts
            st[1] += smem.requests
    a.x.end_pass()


def run_transform(k, w, x, count, dit, pre, post, rng, bits=None, stats=False):
    """run_transform's passes; bits, when given, replaces its even split."""
    passes = (k + PASS_MAX_LOG - 1) // PASS_MAX_LOG
    if bits is None:
        bits = [k // passes + (i < k % passes) for i in range(passes)]
    check(sum(bits) == k and all(1 <= t <= PASS_MAX_LOG for t in bits), 'bad split')
    b = 0 if dit else k
    for i, t in enumerate(bits):
        a = PassArgs(x, w, k, b + t if dit else b, t, pre if i == 0 else ScaleArgs(),
                     post if i + 1 == len(bits) else ScaleArgs())
        tx = 1 << (t - 2) if t >= 2 else 1
        groups = count << (k - t)
        gy = 1 if tx >= PASS_THREADS else PASS_THREADS // tx
        while groups % gy:
            gy //= 2
        blocks = groups // gy
        shmem = (gy << t) * 32
        launch(dit, blocks, Dim(tx, gy), shmem, a, rng, stats)
        b = b + t if dit else b - t


# ------------------------------------------------------------ reference


def scale_tables(k, mode, c, gamma):
    """ScaleArgs as coset_scale / const_scale build them: c gamma^e =
    lo[e mod 2^s] hi[e >> s], s = ceil(k/2)."""
    if mode == SCALE_NONE:
        return ScaleArgs()
    if mode == SCALE_CONST:
        return ScaleArgs(SCALE_CONST, c)
    s = (k + 1) // 2
    lo = [pow(gamma, e, R) for e in range(1 << s)]
    step = pow(gamma, 1 << s, R)
    hi = [c * pow(step, e, R) % R for e in range(1 << (k - s))]
    return ScaleArgs(mode, 0, Table(lo), Table(hi), s)


def factor(mode, c, gamma, idx, k):
    if mode == SCALE_NONE:
        return 1
    if mode == SCALE_CONST:
        return c
    e = idx if mode == SCALE_NATURAL else bitrev(idx, k)
    return c * pow(gamma, e, R) % R


def dft_at(coef, wj):
    acc = 0
    for cf in reversed(coef):
        acc = (acc * wj + cf) % R
    return acc


def check_transform(k, count, dit, inv, pre_mode, post_mode, rng, bits=None, stats=False,
                    samples=12):
    """One batch through the model against a direct DFT: every output up to
    2^6, else `samples` random outputs of each transform."""
    n = 1 << k
    omega = root_of_unity(k)
    if inv:
        omega = pow(omega, R - 2, R)
    w = Table([pow(omega, e, R) for e in range(n // 2)])
    c_pre, g_pre, c_post, g_post = 3, 5, 11, pow(5, R - 2, R)
    pre = scale_tables(k, pre_mode, c_pre, g_pre)
    post = scale_tables(k, post_mode, c_post, g_post)
    x0 = [rng.randrange(R) for _ in range(count * n)]
    x = Global(x0)
    run_transform(k, w, x, count, dit, pre, post, rng, bits, stats)
    for tr in range(count):
        z = [x0[tr * n + i] * factor(pre_mode, c_pre, g_pre, i, k) % R for i in range(n)]
        # coefficient i sits at i (DIF) or bitrev(i) (DIT); X_j at bitrev(j) or j
        coef = [z[bitrev(i, k)] for i in range(n)] if dit else z
        for j in range(n) if k <= 6 else rng.sample(range(n), samples):
            pos = j if dit else bitrev(j, k)
            want = dft_at(coef, pow(omega, j, R)) * factor(post_mode, c_post, g_post, pos, k) % R
            check(x.v[tr * n + pos] == want, '2^%d %s%s transform %d: output %d differs',
                  k, 'DIT' if dit else 'DIF', ' inverse' if inv else '', tr, pos)


# ---------------------------------------------------------------- runs

MODES = [(SCALE_NONE, SCALE_NONE), (SCALE_NATURAL, SCALE_CONST),
         (SCALE_CONST, SCALE_BITREV), (SCALE_BITREV, SCALE_NATURAL)]


def compositions(k):
    if k == 0:
        yield []
    for first in range(1, k + 1):
        for rest in compositions(k - first):
            yield [first] + rest


def cases():
    """(k, count, dit, inv, pre, post, bits): run_transform's split for
    k = 1..14 (13 DIT, 14 DIF) in batches, every t = 1..10 below, above and
    between other passes, every split of k = 6."""
    out = []
    for k in range(1, 15):
        for dit in (False, True):
            if k >= 13 and dit != (k == 13):
                continue
            for mi, (pre, post) in enumerate(MODES):
                if k <= 10 or mi == k % 4:
                    count = (1, 3, 2, 5)[mi] if k <= 6 else 1 + (k <= 10 and mi == 1)
                    out.append((k, count, dit, mi % 2 == 1, pre, post, None))
    for t in range(1, 11):
        for mi, bits in enumerate(([t, 2], [2, t], [1, t, 1])):
            for dit in (False, True):
                out.append((sum(bits), 2 if t <= 6 else 1, dit, t % 2 == 1, *MODES[1 + mi], bits))
    for bits in compositions(6):
        for dit in (False, True):
            out.append((6, 1, dit, dit, SCALE_NATURAL, SCALE_BITREV, bits))
    return out


def run_all(rng, selection):
    for k, count, dit, inv, pre, post, bits in selection:
        check_transform(k, count, dit, inv, pre, post, rng, bits)
    return len(selection)


MUTANTS = [
    # (what, function, text, replacement)
    ('upper-stage twiddle of (x1, x3) at ps', radix4,
     'twiddle(a, ps + (1 << v), v + 1, u, lo)', 'twiddle(a, ps, v + 1, u, lo)'),
    ('lower-stage twiddle one stage off', radix4,
     '        w = twiddle(a, ps, v, u, lo)\n        x[0], x[1] = butterfly(False',
     '        w = twiddle(a, ps, v + 1, u, lo)\n        x[0], x[1] = butterfly(False'),
    ('twiddle of local stage q, not q + u', twiddle, 'p = q + u', 'p = q'),
    ('elements 1 and 2 of a level swapped', level_index,
     '+ (m << v)', '+ ((m ^ 3 if m in (1, 2) else m) << v)'),
    ('one zero bit inserted at the level, not two', level_index,
     '<< (v + 2)', '<< (v + 1)'),
    ('DIF exchange without its barrier', ntt_pass,
     '                sm.store(level_index(tid, v, m), x[m])\n            yield  # __syncthreads()',
     '                sm.store(level_index(tid, v, m), x[m])'),
    ('DIT barriers after the first missing', ntt_pass,
     '            yield  # __syncthreads()\n            v = q + 2',
     '            if q == 0:\n                yield\n            v = q + 2'),
    ('DIT exchange without its barrier', ntt_pass,
     '                sm.store(level_index(tid, q, m), x[m])\n            yield  # __syncthreads()',
     '                sm.store(level_index(tid, q, m), x[m])'),
    ('DIT level after an exchange not clamped to t-2', ntt_pass,
     'v = q + 2 if q + 2 < t - 2 else t - 2', 'v = q + 2'),
    ('odd t: DIF top stage of (x1, x3) at tid', ntt_pass,
     "x[1], x[3] = butterfly(False, x[1], x[3], twiddle(a, tid + (1 << (t - 2)), t - 1, u, lo))",
     "x[1], x[3] = butterfly(False, x[1], x[3], twiddle(a, tid, t - 1, u, lo))"),
    ('DIT stores the upper half at level 0', ntt_pass,
     "v0, v1 = (0, t - 2) if DIT else (t - 2, 0)", "v0, v1 = (0, 0) if DIT else (t - 2, 0)"),
    ('DIT butterfly multiplies x0', butterfly,
     'y = x1 * w % R', 'y = x0 * w % R'),
    ('DIF difference reversed', butterfly,
     'd = (x0 - x1) % R', 'd = (x1 - x0) % R'),
    ('sub-transforms share shared memory', ntt_pass,
     'sub = threadIdx.y << (t + 1)', 'sub = threadIdx.y << t'),
    ('group bits above b shifted by k', ntt_pass,
     'base = (hi << a.b) + lo', 'base = (hi << a.k) + lo'),
    ('post scaling by the load index', ntt_pass,
     "i = base + (level_index(tid, v1, m) << u)", "i = base + (level_index(tid, v0, m) << u)"),
]


def run_mutants(rng):
    selection = [c for c in cases() if c[0] <= 7]
    caught = 0
    for what, fn, old, new in MUTANTS:
        src = inspect.getsource(fn)
        assert src.count(old) == 1, 'mutant text not found once: ' + what
        exec(src.replace(old, new), globals())
        try:
            run_all(rng, selection)
            result = 'NOT CAUGHT'
        except ModelError as e:
            result = 'caught: %s' % e
            caught += 1
        finally:
            globals()[fn.__name__] = fn
        print('  mutant %-50s %s' % (what, result))
    return caught


def main():
    rng = random.Random(int(sys.argv[1]) if len(sys.argv) > 1 else 1)
    cs = cases()
    run_all(rng, cs)
    print('model-ntt-pass: %d runs (k = 1..14, DIF and DIT, batches, %d other splits) equal '
          'the direct DFT; no shared-memory race, every element once a pass' %
          (len(cs), len({tuple(c[6]) for c in cs if c[6]})))
    print('  shared-memory wavefronts per warp access (ideal 4), whole blocks of 2^10:')
    for t in range(4, 11):
        line = []
        for dit in (False, True):
            check_transform(t, 1 << (10 - t), dit, False, SCALE_NONE, SCALE_NONE, rng, None, True)
            wf, req = STATS[(dit, t)]
            line.append('%s %.2f' % ('DIT' if dit else 'DIF', wf / req))
        print('    t = %2d: %s' % (t, ', '.join(line)))
    caught = run_mutants(rng)
    print('%d passed, %d failed' % (1 + caught, len(MUTANTS) - caught))
    return 0 if caught == len(MUTANTS) else 1


if __name__ == '__main__':
    sys.exit(main())
