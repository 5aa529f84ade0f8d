#!/usr/bin/env node
// Cross-check vectors for cuzk's BLS12-381 arithmetic, computed by an
// independent implementation: @noble/curves (bls12_381), pinned in
// package.json.  tests/oracle/test_noble.c reads the file and checks every
// line with the C API; tests/oracle/run_noble.sh runs both on a fresh seed.
//
// Usage: node tests/oracle/noble_vectors.mjs --seed S --out FILE
//                            [--count N] [--pairing-count M] [--jobs J]
//   S: u64 seed, decimal or 0x-hex.  The inputs are a function of S alone (per
//      op family an xoshiro256** stream seeded by splitmix64 from S and the
//      family name), so a seed replays exactly with the same package versions.
//   N: cases per op family (default 1000).
//   M: cases for pairing and multi_pairing (default N): noble takes about
//      25 ms for a pairing and 70 ms for a 4-pair product, so these two
//      families are most of the run time; lower M for quick local runs.
//   J: worker threads (default: 2, or 1 on a single core); the output does
//      not depend on J.
//
// File format: text, one case per line, tokens separated by one space:
//   <op> <input tokens...> <output tokens...>
// Lines starting with '#' are comments (the header records seed and versions).
// Token encodings (hex is lower case, fixed width, no 0x):
//   fp    96 hex digits, the canonical value big-endian (< p)
//   fr    64 hex digits, the canonical value big-endian (< r)
//   fp2   two fp tokens: c0 then c1 (element c0 + c1 u)
//   fp12  twelve fp tokens in tower order c0.c0.c0, c0.c0.c1, c0.c1.c0, ...,
//         c1.c2.c1 (Fp12 = Fp6[w]/(w^2 - v), Fp6 = Fp2[v]/(v^3 - (u+1)),
//         Fp2 = Fp[u]/(u^2 + 1): the tower of include/cuzk/ff.h and of noble)
//   g1u / g1c / g2u / g2c
//         the zcash encoding (as in include/cuzk/ec.h; noble's bls12_381
//         points use it too): uncompressed 96 / 192 bytes or compressed
//         48 / 96 bytes, flags in the top 3 bits of byte 0, G2 coordinates
//         written c1 then c0.  Infinity is 0x40 0... / 0xc0 0...
//   bytes any hex string (even length >= 2)
//   int   a decimal integer
//   '-'   "no result": noble threw (no square root, invalid encoding); one
//         token, whatever the output's type (an fp2_sqrt line then has 3)
// Ops (inputs -> outputs):
//   fp_add       fp fp -> fp          fr_add    fr fr -> fr
//   fp_sub       fp fp -> fp          fr_mul    fr fr -> fr
//   fp_mul       fp fp -> fp          fr_inv    fr -> fr (0 -> 0, by contract)
//   fp_sqr       fp -> fp             fr_sqrt   fr -> fr | -
//   fp_inv       fp -> fp (0 -> 0: ff.h's contract; noble throws on 0)
//   fp_sqrt      fp -> fp | -  (noble's root; any root r with r = +-e passes)
//   fp_legendre  fp -> int (0, 1, -1: a^((p-1)/2) computed with noble's pow)
//   fp2_mul fp2 fp2 -> fp2   fp2_sqr fp2 -> fp2   fp2_inv fp2 -> fp2 (0 -> 0)
//   fp2_sqrt     fp2 -> fp2 | -
//   fp12_mul     fp12 fp12 -> fp12    fp12_inv  fp12 -> fp12
//   fp12_frob    int(k, 1..11) fp12 -> fp12   (a^(p^k))
//   g1_add       g1u g1u -> g1u g1c   (cases include P = Q, P = -Q, infinity)
//   g1_dbl       g1u -> g1u g1c
//   g1_mul       g1u fr -> g1u g1c    (k * P; for P = a G noble computes
//                                      (k a mod r) G, see groupOps)
//   g1_encode    fr -> g1u g1c        (k * G1 generator, k = 0 sometimes)
//   g1_decode    bytes -> g1u | -     (noble's decoding of mostly invalid
//                encodings: random bytes, flipped flags, x or y >= p, x not
//                on the curve, points outside the subgroup, bad infinity,
//                wrong lengths; plus some valid ones)
//   g2_add, g2_dbl, g2_mul, g2_encode, g2_decode: as g1 with g2u / g2c
//   pairing      g1u g2u -> fp12      (e(aG1, bG2), random a, b >= 1)
//   multi_pairing  g1u g2u g1u g2u g1u g2u g1u g2u -> fp12  (4 pairs)
// Random field elements are uniform with probability 7/8 and one of the edge
// values 0, 1, 2, m-1, (m-1)/2, (m+1)/2 otherwise.

import { writeFileSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { bls12_381 as bls } from '@noble/curves/bls12-381.js';

const { Fp, Fp2, Fp12, Fr } = bls.fields;
const G1 = bls.G1.Point;
const G2 = bls.G2.Point;
const P = Fp.ORDER;
const R = Fr.ORDER;
const M64 = (1n << 64n) - 1n;

// ------------------------------------------------------------------ args ---
function parseArgs(argv) {
    const a = { seed: null, count: 1000, pairingCount: null, out: null,
        jobs: Math.min(2, availableParallelism()) };
    for (let i = 0; i < argv.length; i++) {
        const k = argv[i], v = argv[i + 1];
        if (k === '--seed' && v !== undefined) { a.seed = BigInt(v) & M64; i++; }
        else if (k === '--count' && v !== undefined) { a.count = Number(v); i++; }
        else if (k === '--pairing-count' && v !== undefined) { a.pairingCount = Number(v); i++; }
        else if (k === '--out' && v !== undefined) { a.out = v; i++; }
        else if (k === '--jobs' && v !== undefined) { a.jobs = Number(v); i++; }
        else usage(`unknown argument ${k}`);
    }
    if (a.seed === null || a.out === null) usage('--seed and --out are required');
    if (!(a.count >= 1)) usage('--count must be >= 1');
    if (!(a.jobs >= 1)) usage('--jobs must be >= 1');
    if (a.pairingCount === null) a.pairingCount = a.count;
    return a;
}
function usage(msg) {
    process.stderr.write(`noble_vectors: ${msg}\n` +
        'usage: node noble_vectors.mjs --seed S --out FILE [--count N] [--pairing-count M] [--jobs J]\n');
    process.exit(2);
}

// ------------------------------------------------------------------ PRNG ---
// splitmix64 expands the seed; xoshiro256** draws.  BigInt keeps it exact.
function splitmix64(state) {
    let s = state.v = (state.v + 0x9e3779b97f4a7c15n) & M64;
    s = ((s ^ (s >> 30n)) * 0xbf58476d1ce4e5b9n) & M64;
    s = ((s ^ (s >> 27n)) * 0x94d049bb133111ebn) & M64;
    return s ^ (s >> 31n);
}
const rotl = (x, k) => ((x << k) | (x >> (64n - k))) & M64;
class Rng {
    constructor(seed, name) {
        // The family name is folded in (FNV-1a) so each op family has its own
        // stream: changing one family's count leaves the others unchanged.
        let h = 0xcbf29ce484222325n;
        for (const c of Buffer.from(name)) h = ((h ^ BigInt(c)) * 0x100000001b3n) & M64;
        const st = { v: seed ^ h };
        this.s = [splitmix64(st), splitmix64(st), splitmix64(st), splitmix64(st)];
    }
    u64() {
        const s = this.s;
        const r = (rotl((s[1] * 5n) & M64, 7n) * 9n) & M64;
        const t = (s[1] << 17n) & M64;
        s[2] ^= s[0]; s[3] ^= s[1]; s[1] ^= s[2]; s[0] ^= s[3];
        s[2] ^= t; s[3] = rotl(s[3], 45n);
        return r;
    }
    below(n) { return Number(this.u64() % BigInt(n)); } // small n: bias < 2^-50
    bits(n) { // uniform in [0, 2^n)
        let v = 0n;
        for (let i = 0; i < n; i += 64) v = (v << 64n) | this.u64();
        return v & ((1n << BigInt(n)) - 1n);
    }
    mod(m) { // uniform in [0, m) by rejection
        const n = m.toString(2).length;
        for (;;) { const v = this.bits(n); if (v < m) return v; }
    }
    bytes(n) { const b = new Uint8Array(n); for (let i = 0; i < n; i++) b[i] = this.below(256); return b; }
}
function edgeOr(rng, m) {
    if (rng.below(8) !== 0) return rng.mod(m);
    return [0n, 1n, 2n, m - 1n, (m - 1n) / 2n, (m + 1n) / 2n][rng.below(6)];
}

// -------------------------------------------------------------- encoding ---
const hexN = (v, digits) => v.toString(16).padStart(digits, '0');
const fpHex = (v) => hexN(v, 96);
const frHex = (v) => hexN(v, 64);
const fp2Hex = (a) => `${fpHex(a.c0)} ${fpHex(a.c1)}`;
const fp12Hex = (a) => [a.c0, a.c1].flatMap((f6) => [f6.c0, f6.c1, f6.c2])
    .map(fp2Hex).join(' ');
const bytesHex = (b) => Buffer.from(b).toString('hex');
const fromHex = (h) => Uint8Array.from(Buffer.from(h, 'hex'));
const tryOr = (f, dflt) => { try { return f(); } catch { return dflt; } };

// The zcash point encoding, written out here from the affine coordinates.
// noble's own Point.toBytes() re-proves subgroup membership on every call (as
// slow as a scalar multiplication), so the families use this encoder and the
// g1_encode / g2_encode families check it against toBytes() on every case.
const HALF_P = (P - 1n) / 2n;
const coordHex = (v) => (typeof v === 'bigint' ? hexN(v, 96) : hexN(v.c1, 96) + hexN(v.c0, 96));
const ySign = (y) => (typeof y === 'bigint' ? y > HALF_P : y.c1 !== 0n ? y.c1 > HALF_P : y.c0 > HALF_P);
function encodePoint(pt, compressed) {
    const W = coordHex(pt.constructor.BASE.x).length / 2;
    if (pt.is0()) {
        const b = new Uint8Array(compressed ? W : 2 * W);
        b[0] = compressed ? 0xc0 : 0x40;
        return bytesHex(b);
    }
    const { x, y } = pt.toAffine();
    if (!compressed) return coordHex(x) + coordHex(y);
    const b = fromHex(coordHex(x));
    b[0] |= 0x80 | (ySign(y) ? 0x20 : 0);
    return bytesHex(b);
}
const ptU = (pt) => encodePoint(pt, false);
const ptHex = (pt) => `${encodePoint(pt, false)} ${encodePoint(pt, true)}`;

const randFp2 = (rng) => Fp2.create({ c0: edgeOr(rng, P), c1: edgeOr(rng, P) });
const randFp12 = (rng) => {
    const t = [];
    for (let i = 0; i < 12; i++) t.push(rng.below(16) ? rng.mod(P) : rng.below(2) ? 0n : 1n);
    return Fp12.fromBigTwelve(t);
};
const randScalar = (rng) => rng.mod(R);
const randNonzeroScalar = (rng) => 1n + rng.mod(R - 1n);

// k*G for the generator G, with noble's fixed-base windows (built on first
// use, 0.2 s for G1 and 0.5 s for G2).
const precomputed = new Set();
function mulBase(Pt, k) {
    if (!precomputed.has(Pt)) {
        Pt.BASE.precompute(8, false);
        precomputed.add(Pt);
    }
    return k === 0n ? Pt.ZERO : Pt.BASE.multiply(k);
}

// A random group element k*G with its discrete log k; infinity (k = 0) with
// probability 1/16 when allowInf.
function randPointLog(rng, Pt, allowInf) {
    const k = allowInf && rng.below(16) === 0 ? 0n : randNonzeroScalar(rng);
    return { pt: mulBase(Pt, k), k };
}
const randPoint = (rng, Pt, allowInf) => randPointLog(rng, Pt, allowInf).pt;

// A point on the curve y^2 = x^3 + b that is (with overwhelming probability)
// outside the order-r subgroup: a random x with x^3 + b square.
function offSubgroupPoint(rng, F, b, randElem) {
    for (;;) {
        const x = randElem(rng);
        const y = tryOr(() => F.sqrt(F.add(F.pow(x, 3n), b)), null);
        if (y !== null) return { x, y };
    }
}

// ------------------------------------------------------------ op families ---
const fieldOps = {
    fp_add: (rng) => { const a = edgeOr(rng, P), b = edgeOr(rng, P); return [fpHex(a), fpHex(b), fpHex(Fp.add(a, b))]; },
    fp_sub: (rng) => { const a = edgeOr(rng, P), b = edgeOr(rng, P); return [fpHex(a), fpHex(b), fpHex(Fp.sub(a, b))]; },
    fp_mul: (rng) => { const a = edgeOr(rng, P), b = edgeOr(rng, P); return [fpHex(a), fpHex(b), fpHex(Fp.mul(a, b))]; },
    fp_sqr: (rng) => { const a = edgeOr(rng, P); return [fpHex(a), fpHex(Fp.sqr(a))]; },
    fp_inv: (rng) => { const a = edgeOr(rng, P); return [fpHex(a), fpHex(Fp.is0(a) ? 0n : Fp.inv(a))]; },
    fp_sqrt: (rng) => {
        // Half squares (so both branches are exercised evenly), half uniform.
        let a = edgeOr(rng, P);
        if (rng.below(2)) a = Fp.sqr(a);
        return [fpHex(a), tryOr(() => fpHex(Fp.sqrt(a)), '-')];
    },
    fp_legendre: (rng) => {
        let a = edgeOr(rng, P);
        if (rng.below(2)) a = Fp.sqr(a);
        const e = Fp.pow(a, (P - 1n) / 2n);
        return [fpHex(a), Fp.is0(e) ? '0' : Fp.eql(e, Fp.ONE) ? '1' : '-1'];
    },
    fr_add: (rng) => { const a = edgeOr(rng, R), b = edgeOr(rng, R); return [frHex(a), frHex(b), frHex(Fr.add(a, b))]; },
    fr_mul: (rng) => { const a = edgeOr(rng, R), b = edgeOr(rng, R); return [frHex(a), frHex(b), frHex(Fr.mul(a, b))]; },
    fr_inv: (rng) => { const a = edgeOr(rng, R); return [frHex(a), frHex(Fr.is0(a) ? 0n : Fr.inv(a))]; },
    fr_sqrt: (rng) => {
        let a = edgeOr(rng, R);
        if (rng.below(2)) a = Fr.sqr(a);
        return [frHex(a), tryOr(() => frHex(Fr.sqrt(a)), '-')];
    },
    fp2_mul: (rng) => { const a = randFp2(rng), b = randFp2(rng); return [fp2Hex(a), fp2Hex(b), fp2Hex(Fp2.mul(a, b))]; },
    fp2_sqr: (rng) => { const a = randFp2(rng); return [fp2Hex(a), fp2Hex(Fp2.sqr(a))]; },
    fp2_inv: (rng) => { const a = randFp2(rng); return [fp2Hex(a), fp2Hex(Fp2.is0(a) ? Fp2.ZERO : Fp2.inv(a))]; },
    fp2_sqrt: (rng) => {
        let a = randFp2(rng);
        if (rng.below(2)) a = Fp2.sqr(a);
        return [fp2Hex(a), tryOr(() => fp2Hex(Fp2.sqrt(a)), '-')];
    },
    fp12_mul: (rng) => { const a = randFp12(rng), b = randFp12(rng); return [fp12Hex(a), fp12Hex(b), fp12Hex(Fp12.mul(a, b))]; },
    fp12_inv: (rng) => {
        let a = randFp12(rng);
        if (Fp12.is0(a)) a = Fp12.ONE;
        return [fp12Hex(a), fp12Hex(Fp12.inv(a))];
    },
    fp12_frob: (rng) => {
        const k = 1 + rng.below(11), a = randFp12(rng);
        return [String(k), fp12Hex(a), fp12Hex(Fp12.frobeniusMap(a, k))];
    },
};

// Group families, written once for G1 and G2.
function groupOps(name, Pt, F, b, randElem) {
    const W = F.BYTES; // bytes of one coordinate: 48 for G1, 96 for G2
    const expectDecode = (bytes) => tryOr(() => ptU(Pt.fromBytes(bytes)), '-');
    const withFlags = (hex, mask) => {
        const bytes = fromHex(hex);
        bytes[0] |= mask;
        return bytes;
    };
    const decodeCase = (rng) => {
        const kind = rng.below(11);
        const compressed = rng.below(2) === 1;
        const len = compressed ? W : 2 * W;
        let bytes;
        switch (kind) {
        case 0: // random bytes, random flags
            bytes = rng.bytes(len);
            break;
        case 1: // a valid encoding with random flag bits flipped
            bytes = fromHex(encodePoint(randPoint(rng, Pt, true), compressed));
            bytes[0] ^= (1 + rng.below(7)) << 5;
            break;
        case 2: // compressed random x: no y (half the time) or off-subgroup
            bytes = withFlags(coordHex(randElem(rng)), 0x80 | (rng.below(2) << 5));
            break;
        case 3: // uncompressed random (x, y): not on the curve
            bytes = fromHex(coordHex(randElem(rng)) + coordHex(randElem(rng)));
            break;
        case 4: { // on the curve, outside the subgroup, either form
            const { x, y } = offSubgroupPoint(rng, F, b, randElem);
            bytes = compressed ? withFlags(coordHex(x), 0x80 | (rng.below(2) << 5))
                : fromHex(coordHex(x) + coordHex(y));
            break;
        }
        case 5: { // one 48-byte coordinate word v replaced by v + p (>= p)
            bytes = fromHex(encodePoint(randPoint(rng, Pt, false), compressed));
            const off = 48 * rng.below(len / 48);
            const flags = bytes[off] & 0xe0;
            const v = BigInt('0x' + bytesHex(bytes.subarray(off, off + 48))) & ((1n << 381n) - 1n);
            const big = v + P < 1n << 381n ? v + P : P + BigInt(rng.below(1000));
            bytes.set(fromHex(hexN(big, 96)), off);
            bytes[off] |= off === 0 ? flags : 0;
            break;
        }
        case 6: { // infinity flag with a stray bit set
            bytes = new Uint8Array(len);
            bytes[0] = compressed ? 0xc0 : 0x40;
            const i = rng.below(len);
            bytes[i] |= 1 << (i === 0 ? rng.below(5) : rng.below(8));
            break;
        }
        case 7: { // wrong length, or the other form's length with this form's flag
            const enc = fromHex(encodePoint(randPoint(rng, Pt, true), compressed));
            const c = rng.below(3);
            if (c === 0) bytes = enc.subarray(0, enc.length - 1 - rng.below(3));
            else if (c === 1) bytes = Uint8Array.from([...enc, ...rng.bytes(1 + rng.below(3))]);
            else {
                bytes = new Uint8Array(compressed ? 2 * W : W);
                bytes.set(enc.subarray(0, Math.min(enc.length, bytes.length)));
            }
            break;
        }
        case 8: // uncompressed (0, 0) without the infinity flag
            bytes = new Uint8Array(2 * W);
            break;
        case 9: // compressed x >= p (x - p small: often a valid x mod p)
            bytes = withFlags(hexN(P + BigInt(rng.below(1 << 20)), 96) + '0'.repeat(2 * W - 96), 0x80);
            break;
        default: // valid encodings, infinity included (noble must accept)
            bytes = fromHex(encodePoint(randPoint(rng, Pt, true), compressed));
            break;
        }
        return [bytesHex(bytes), expectDecode(bytes)];
    };
    return {
        [`${name}_add`]: (rng) => {
            const a = randPoint(rng, Pt, true);
            const c = rng.below(16);
            const q = c === 0 ? a : c === 1 ? a.negate() : randPoint(rng, Pt, true);
            return [ptU(a), ptU(q), ptHex(a.add(q))];
        },
        [`${name}_dbl`]: (rng) => { const a = randPoint(rng, Pt, true); return [ptU(a), ptHex(a.double())]; },
        // k * (a G) is computed as (k a mod r) G: noble's variable-base
        // multiplication costs 2-9 ms a case, the fixed-base one a tenth.
        [`${name}_mul`]: (rng) => {
            const { pt, k: a } = randPointLog(rng, Pt, true);
            const k = edgeOr(rng, R);
            return [ptU(pt), frHex(k), ptHex(mulBase(Pt, Fr.mul(k, a)))];
        },
        [`${name}_encode`]: (rng) => {
            const k = rng.below(16) === 0 ? 0n : randScalar(rng);
            const pt = mulBase(Pt, k);
            const u = bytesHex(pt.toBytes(false)), c = bytesHex(pt.toBytes(true));
            if (u !== encodePoint(pt, false) || c !== encodePoint(pt, true))
                throw new Error(`noble_vectors: local encoder disagrees with noble for ${name} ${k}`);
            return [frHex(k), u, c];
        },
        [`${name}_decode`]: decodeCase,
    };
}


const pairingOps = {
    pairing: (rng) => {
        const p = mulBase(G1, randNonzeroScalar(rng));
        const q = mulBase(G2, randNonzeroScalar(rng));
        return [ptU(p), ptU(q), fp12Hex(bls.pairing(p, q))];
    },
    multi_pairing: (rng) => {
        const pairs = [];
        for (let i = 0; i < 4; i++)
            pairs.push({ g1: mulBase(G1, randNonzeroScalar(rng)),
                g2: mulBase(G2, randNonzeroScalar(rng)) });
        return [...pairs.flatMap((x) => [ptU(x.g1), ptU(x.g2)]), fp12Hex(bls.pairingBatch(pairs))];
    },
};

// ------------------------------------------------------------------ main ---
const families = {
    ...fieldOps,
    ...groupOps('g1', G1, Fp, Fp.create(4n), (rng) => edgeOr(rng, P)),
    ...groupOps('g2', G2, Fp2, Fp2.create({ c0: 4n, c1: 4n }), randFp2),
    ...pairingOps,
};
// Measured milliseconds a case (node 20, one core), to balance the workers.
const COST = {
    fp2_sqrt: 0.6, fp12_mul: 0.3, fp12_inv: 0.2, g1_add: 1, g1_dbl: 0.8, g1_mul: 1.3,
    g1_encode: 2, g1_decode: 0.8, g2_add: 4.1, g2_dbl: 2.3, g2_mul: 4.1, g2_encode: 3,
    g2_decode: 1, pairing: 23, multi_pairing: 70,
};
const casesOf = (name, a) => (name.endsWith('pairing') ? a.pairingCount : a.count);

// The lines of the named families, in order.
function generate(names, a) {
    const out = {};
    for (const name of names) {
        const rng = new Rng(a.seed, name);
        const gen = families[name];
        const lines = [];
        const t = Date.now();
        for (let i = 0, n = casesOf(name, a); i < n; i++) lines.push(`${name} ${gen(rng).join(' ')}`);
        out[name] = lines.join('\n');
        if (process.env.NOBLE_VECTORS_VERBOSE)
            process.stderr.write(`  ${name}: ${lines.length} cases, ${Date.now() - t} ms\n`);
    }
    return out;
}

if (!isMainThread) {
    parentPort.postMessage(generate(workerData.names, workerData.args));
} else {
    const args = parseArgs(process.argv.slice(2));
    const t0 = Date.now();
    // Longest job first onto the least loaded worker.
    const names = Object.keys(families);
    const jobs = Array.from({ length: Math.min(args.jobs, names.length) }, () => ({ load: 0, names: [] }));
    for (const name of [...names].sort((x, y) => (COST[y] ?? 0.1) * casesOf(y, args) - (COST[x] ?? 0.1) * casesOf(x, args))) {
        const j = jobs.reduce((m, w) => (w.load < m.load ? w : m));
        j.load += (COST[name] ?? 0.1) * casesOf(name, args);
        j.names.push(name);
    }
    const parts = await Promise.all(jobs.map((j) => new Promise((resolve, reject) => {
        const w = new Worker(new URL(import.meta.url), { workerData: { names: j.names, args } });
        w.once('message', resolve);
        w.once('error', reject);
        w.once('exit', (code) => code && reject(new Error(`worker exited with ${code}`)));
    })));
    const byName = Object.assign({}, ...parts);
    const nobleVersion = JSON.parse(readFileSync(
        new URL('package.json', import.meta.resolve('@noble/curves/bls12-381.js')), 'utf8')).version;
    const header = `# cuzk cross-check vectors from @noble/curves ${nobleVersion}, node ${process.version}\n` +
        `# seed ${args.seed} count ${args.count} pairing-count ${args.pairingCount}\n`;
    writeFileSync(args.out, header + names.map((n) => byName[n]).join('\n') + '\n');
    const total = names.reduce((s, n) => s + casesOf(n, args), 0);
    process.stderr.write(`noble_vectors: ${total} cases in ${names.length} families (${args.count} each, ` +
        `${args.pairingCount} per pairing family) in ${((Date.now() - t0) / 1000).toFixed(1)} s ` +
        `with ${jobs.length} threads -> ${args.out}\n`);
}
