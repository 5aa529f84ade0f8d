/* The cross-checks of one group, included by test_noble.c once for G1 and
 * once for G2 (no include guard).  The includer defines:
 *   G_(name)        the library's name: G_(add) is cz_g1_add
 *   C_(name)        this file's name:   C_(add) is c_g1_add
 *   AFF, JAC, XYZZ  the point types
 *   UBYTES, CBYTES  uncompressed and compressed encoding lengths
 *   GEN             the generator (affine)
 * Token formats are those of noble_vectors.mjs. */

/* An uncompressed point token, decoded by us (it must be valid). */
static bool C_(get)(AFF *r, const char *t)
{
    uint8_t b[UBYTES];
    int rc;
    if (!hex_exact(t, b, UBYTES)) {
        mismatch("bad point token '%.100s'", t);
        return false;
    }
    if ((rc = G_(decode)(r, b, UBYTES, CZ_DECODE_DEFAULT)) != CZ_OK) {
        mismatch("decoding noble's valid point '%.100s...': %s", t, cz_strerror(rc));
        return false;
    }
    return true;
}

/* Both encodings of our point p equal noble's u and c tokens. */
static void C_(expect)(const char *what, const JAC *p, const char *u, const char *c)
{
    AFF a;
    uint8_t bu[UBYTES], bc[CBYTES];
    char w[96];
    G_(to_affine)(&a, p);
    G_(to_uncompressed)(bu, &a);
    G_(to_compressed)(bc, &a);
    snprintf(w, sizeof w, "%s, uncompressed", what);
    expect_bytes(w, bu, u, UBYTES);
    snprintf(w, sizeof w, "%s, compressed", what);
    expect_bytes(w, bc, c, CBYTES);
}

/* P Q -> P + Q, by every addition the API has. */
static void C_(add)(char *const *t)
{
    AFF p, q;
    JAC a, b, r;
    XYZZ x, y;
    if (!C_(get)(&p, t[0]) || !C_(get)(&q, t[1]))
        return;
    G_(from_affine)(&a, &p);
    G_(from_affine)(&b, &q);
    G_(add)(&r, &a, &b);
    C_(expect)("P + Q (Jacobian)", &r, t[2], t[3]);
    G_(add_affine)(&r, &a, &q);
    C_(expect)("P + Q (mixed)", &r, t[2], t[3]);
    G_(xyzz_from_affine)(&x, &p);
    G_(xyzz_add_affine)(&x, &x, &q);
    G_(xyzz_to_jacobian)(&r, &x);
    C_(expect)("P + Q (XYZZ mixed)", &r, t[2], t[3]);
    G_(xyzz_from_affine)(&x, &p);
    G_(xyzz_from_affine)(&y, &q);
    G_(xyzz_add)(&x, &x, &y);
    G_(xyzz_to_jacobian)(&r, &x);
    C_(expect)("P + Q (XYZZ)", &r, t[2], t[3]);
    G_(add)(&a, &a, &b);
    C_(expect)("P += Q (Jacobian)", &a, t[2], t[3]);
}

static void C_(dbl)(char *const *t)
{
    AFF p;
    JAC a, r;
    XYZZ x;
    if (!C_(get)(&p, t[0]))
        return;
    G_(from_affine)(&a, &p);
    G_(dbl)(&r, &a);
    C_(expect)("2P (Jacobian)", &r, t[1], t[2]);
    G_(xyzz_from_affine)(&x, &p);
    G_(xyzz_dbl)(&x, &x);
    G_(xyzz_to_jacobian)(&r, &x);
    C_(expect)("2P (XYZZ)", &r, t[1], t[2]);
}

static void C_(mul)(char *const *t)
{
    AFF p;
    JAC a, r;
    cz_fr k;
    if (!C_(get)(&p, t[0]) || !get_fr(&k, t[1]))
        return;
    G_(from_affine)(&a, &p);
    G_(mul)(&r, &a, &k);
    C_(expect)("k P (constant time)", &r, t[2], t[3]);
    G_(mul_var)(&r, &a, &k);
    C_(expect)("k P (variable time)", &r, t[2], t[3]);
}

/* k -> kG in both forms: decoding noble's bytes and re-encoding them gives
 * the same bytes, both forms decode to one point, and our own kG encodes to
 * noble's bytes. */
static void C_(encode)(char *const *t)
{
    cz_fr k;
    AFF pu, pc;
    JAC g, r;
    uint8_t in_u[UBYTES], in_c[CBYTES], out[UBYTES];
    int rc;
    if (!get_fr(&k, t[0]) || !hex_exact(t[1], in_u, UBYTES) || !hex_exact(t[2], in_c, CBYTES)) {
        mismatch("bad tokens");
        return;
    }
    if ((rc = G_(decode)(&pu, in_u, UBYTES, CZ_DECODE_DEFAULT)) != CZ_OK) {
        mismatch("decoding noble's uncompressed kG: %s", cz_strerror(rc));
        return;
    }
    if ((rc = G_(decode)(&pc, in_c, CBYTES, CZ_DECODE_DEFAULT)) != CZ_OK) {
        mismatch("decoding noble's compressed kG: %s", cz_strerror(rc));
        return;
    }
    G_(to_uncompressed)(out, &pu);
    expect_bytes("re-encoding (uncompressed)", out, t[1], UBYTES);
    G_(to_compressed)(out, &pc);
    expect_bytes("re-encoding (compressed)", out, t[2], CBYTES);
    if (!G_(affine_equal)(&pu, &pc))
        mismatch("the two forms decode to different points");
    G_(from_affine)(&g, &GEN);
    G_(mul)(&r, &g, &k);
    C_(expect)("our kG", &r, t[1], t[2]);
}

/* bytes -> noble's decoding or '-'.  We must agree on acceptance and on the
 * point; on rejection *r stays untouched and the code is a real error; an
 * accepted encoding is canonical (re-encodes to the same bytes). */
static void C_(decode)(char *const *t)
{
    uint8_t in[UBYTES + 8], out[UBYTES];
    AFF r, sentinel;
    long len = hex_any(t[0], in, sizeof in);
    if (len < 0) {
        mismatch("bad bytes token");
        return;
    }
    memset(&sentinel, 0xa5, sizeof sentinel);
    r = sentinel;
    int rc = G_(decode)(&r, in, (size_t)len, CZ_DECODE_DEFAULT);
    if (is_none(t[1])) {
        if (rc == CZ_OK) {
            G_(to_uncompressed)(out, &r);
            char g[2 * UBYTES + 1];
            print_hex(g, out, UBYTES);
            mismatch("noble rejects, we accept as %s", g);
        } else if (rc < 0 || rc >= CZ_ERR__COUNT) {
            mismatch("rejected with an unknown code %d", rc);
        } else if (memcmp(&r, &sentinel, sizeof r)) {
            mismatch("rejected (%s) but wrote the output", cz_strerror(rc));
        }
        return;
    }
    if (rc != CZ_OK) {
        mismatch("noble accepts, we reject: %s", cz_strerror(rc));
        return;
    }
    G_(to_uncompressed)(out, &r);
    expect_bytes("decoded point", out, t[1], UBYTES);
    if ((size_t)len == CBYTES)
        G_(to_compressed)(out, &r);
    if (memcmp(out, in, (size_t)len))
        mismatch("re-encoding an accepted input changes its bytes");
    AFF s = sentinel;
    if ((rc = G_(decode)(&s, in, (size_t)len, CZ_DECODE_SKIP_SUBGROUP)) != CZ_OK ||
        !G_(affine_equal)(&s, &r))
        mismatch("CZ_DECODE_SKIP_SUBGROUP rejects or changes a valid point (%s)", cz_strerror(rc));
    s = sentinel;
    rc = G_(decode)(&s, in, (size_t)len, CZ_DECODE_REJECT_INFINITY);
    if (rc != (G_(affine_is_inf)(&r) ? CZ_ERR_IS_INFINITY : CZ_OK))
        mismatch("CZ_DECODE_REJECT_INFINITY: got %s", cz_strerror(rc));
}
