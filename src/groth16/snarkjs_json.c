/* snarkjs JSON files for Groth16 (format and contracts in
 * include/cuzk/snarkjs.h): a writer that reproduces bfj's layout, and
 * readers on the strict JSON tree of util/json_tree.h. */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/err.h"
#include "cuzk/snarkjs.h"
#include "util/file_map.h"
#include "util/json_tree.h"
#include "util/json_write.h"

#define MAX_DEPTH 16
#define FP_LIMBS  6
#define FR_LIMBS  4
/* p < 10^116 and r < 10^78: longer digit strings (no leading zero) are
 * >= the modulus. */
#define FP_MAX_DIGITS 116
#define FR_MAX_DIGITS 78

/* ------------------------------------------------------------- writer --- */

/* snarkjs writes its files with bfj's streamify, space = 1: the indented
 * layout of json_write.h.  Field elements are decimal strings of their
 * canonical values. */

static void fp_val(cz_jw *w, const cz_fp *a)
{
    uint64_t l[FP_LIMBS];
    cz_fp_to_canonical(l, a);
    cz_jw_dec(w, NULL, l, FP_LIMBS);
}

static void fp2_val(cz_jw *w, const cz_fp2 *a)
{
    cz_jw_array(w, NULL);
    fp_val(w, &a->c0);
    fp_val(w, &a->c1);
    cz_jw_end(w);
}

/* ffjavascript's toObject: affine with z = 1, infinity as (0, 1, 0). */
static void g1_val(cz_jw *w, const char *key, const cz_g1_affine *p)
{
    cz_jw_array(w, key);
    if (cz_g1_affine_is_inf(p)) {
        cz_jw_str(w, NULL, "0");
        cz_jw_str(w, NULL, "1");
        cz_jw_str(w, NULL, "0");
    } else {
        fp_val(w, &p->x);
        fp_val(w, &p->y);
        cz_jw_str(w, NULL, "1");
    }
    cz_jw_end(w);
}

static void pair(cz_jw *w, const char *c0, const char *c1)
{
    cz_jw_array(w, NULL);
    cz_jw_str(w, NULL, c0);
    cz_jw_str(w, NULL, c1);
    cz_jw_end(w);
}

/* The same over Fp2: infinity as ([0, 0], [1, 0], [0, 0]). */
static void g2_val(cz_jw *w, const char *key, const cz_g2_affine *p)
{
    bool inf = cz_g2_affine_is_inf(p);
    cz_jw_array(w, key);
    if (inf) {
        pair(w, "0", "0");
        pair(w, "1", "0");
    } else {
        fp2_val(w, &p->x);
        fp2_val(w, &p->y);
    }
    pair(w, inf ? "0" : "1", "0");
    cz_jw_end(w);
}

static void start(cz_strbuf *b, cz_jw *w)
{
    cz_strbuf_init(b);
    cz_jw_init_indented(w, b, 1);
}

static int finish(cz_strbuf *b, char **out, size_t *out_len)
{
    size_t len;
    *out = cz_strbuf_take(b, &len);
    if (*out == NULL)
        return CZ_ERR_NOMEM;
    if (out_len != NULL)
        *out_len = len;
    return CZ_OK;
}

static void header(cz_jw *w)
{
    cz_jw_str(w, "protocol", "groth16");
    cz_jw_str(w, "curve", "bls12381");
}

int cz_snarkjs_proof_to_json(char **out, size_t *out_len, const cz_groth16_proof *proof)
{
    cz_strbuf b;
    cz_jw w;
    if (out == NULL)
        return CZ_ERR_INVALID_ARG;
    *out = NULL;
    if (proof == NULL)
        return CZ_ERR_INVALID_ARG;
    start(&b, &w);
    cz_jw_object(&w, NULL);
    g1_val(&w, "pi_a", &proof->a);
    g2_val(&w, "pi_b", &proof->b);
    g1_val(&w, "pi_c", &proof->c);
    header(&w);
    cz_jw_end(&w);
    return finish(&b, out, out_len);
}

int cz_snarkjs_public_to_json(char **out, size_t *out_len, const cz_fr *pub, size_t n)
{
    cz_strbuf b;
    cz_jw w;
    if (out == NULL)
        return CZ_ERR_INVALID_ARG;
    *out = NULL;
    if (pub == NULL && n > 0)
        return CZ_ERR_INVALID_ARG;
    start(&b, &w);
    cz_jw_array(&w, NULL);
    for (size_t i = 0; i < n && !b.failed; i++) {
        uint64_t l[FR_LIMBS];
        cz_fr_to_canonical(l, &pub[i]);
        cz_jw_dec(&w, NULL, l, FR_LIMBS);
    }
    cz_jw_end(&w);
    return finish(&b, out, out_len);
}

int cz_snarkjs_vk_to_json(char **out, size_t *out_len, const cz_groth16_vk *vk)
{
    cz_strbuf b;
    cz_jw w;
    cz_fp12 ab;
    if (out == NULL)
        return CZ_ERR_INVALID_ARG;
    *out = NULL;
    if (vk == NULL || vk->n_ic == 0 || vk->ic == NULL)
        return CZ_ERR_INVALID_ARG;
    cz_pairing(&ab, &vk->alpha_g1, &vk->beta_g2);
    start(&b, &w);
    cz_jw_object(&w, NULL);
    header(&w);
    cz_jw_u64(&w, "nPublic", vk->n_ic - 1);
    g1_val(&w, "vk_alpha_1", &vk->alpha_g1);
    g2_val(&w, "vk_beta_2", &vk->beta_g2);
    g2_val(&w, "vk_gamma_2", &vk->gamma_g2);
    g2_val(&w, "vk_delta_2", &vk->delta_g2);
    cz_jw_array(&w, "vk_alphabeta_12");
    for (int i = 0; i < 2; i++) {
        const cz_fp6 *h = i == 0 ? &ab.c0 : &ab.c1;
        cz_jw_array(&w, NULL);
        fp2_val(&w, &h->c0);
        fp2_val(&w, &h->c1);
        fp2_val(&w, &h->c2);
        cz_jw_end(&w);
    }
    cz_jw_end(&w);
    cz_jw_array(&w, "IC");
    for (size_t i = 0; i < vk->n_ic && !b.failed; i++)
        g1_val(&w, NULL, &vk->ic[i]);
    cz_jw_end(&w);
    cz_jw_end(&w);
    return finish(&b, out, out_len);
}

static int write_text(const char *path, char *text, size_t len)
{
    FILE *f = fopen(path, "wb");
    bool ok = f != NULL && fwrite(text, 1, len, f) == len;
    if (f != NULL && fclose(f) != 0)
        ok = false;
    free(text);
    return ok ? CZ_OK : CZ_ERR_IO;
}

int cz_snarkjs_proof_write_file(const char *path, const cz_groth16_proof *proof)
{
    char *text = NULL;
    size_t len = 0;
    if (path == NULL)
        return CZ_ERR_INVALID_ARG;
    int rc = cz_snarkjs_proof_to_json(&text, &len, proof);
    return rc != CZ_OK ? rc : write_text(path, text, len);
}

int cz_snarkjs_public_write_file(const char *path, const cz_fr *pub, size_t n)
{
    char *text = NULL;
    size_t len = 0;
    if (path == NULL)
        return CZ_ERR_INVALID_ARG;
    int rc = cz_snarkjs_public_to_json(&text, &len, pub, n);
    return rc != CZ_OK ? rc : write_text(path, text, len);
}

int cz_snarkjs_vk_write_file(const char *path, const cz_groth16_vk *vk)
{
    char *text = NULL;
    size_t len = 0;
    if (path == NULL)
        return CZ_ERR_INVALID_ARG;
    int rc = cz_snarkjs_vk_to_json(&text, &len, vk);
    return rc != CZ_OK ? rc : write_text(path, text, len);
}

/* ------------------------------------------------------------- reader --- */

typedef struct {
    const char *file; /* "proof.json", ... for messages */
    char *err;
    size_t errlen;
} ctx;

static int bad(const ctx *c, int code, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* "file: path: message" into the caller's buffer; returns code. */
static int bad(const ctx *c, int code, const char *path, const char *fmt, ...)
{
    if (c->err != NULL && c->errlen > 0) {
        int k = snprintf(c->err, c->errlen, "%s: %s: ", c->file, path);
        if (k >= 0 && (size_t)k < c->errlen) {
            va_list ap;
            va_start(ap, fmt);
            vsnprintf(c->err + k, c->errlen - (size_t)k, fmt, ap);
            va_end(ap);
        }
    }
    return code;
}

/* A path for messages: parent[i]. */
typedef struct {
    char s[128];
} path_buf;

static path_buf sub(const char *parent, size_t i)
{
    path_buf p;
    snprintf(p.s, sizeof p.s, "%.100s[%zu]", parent, i);
    return p;
}

/* A decimal string into the 8 nl bytes b, little-endian: BAD_FORMAT
 * unless it is digits only without a leading zero; NOT_CANONICAL when
 * longer than max_digits or at least 2^(64 nl) (nl <= FP_LIMBS). */
static int rd_dec(const ctx *c, uint8_t *b, size_t nl, size_t max_digits, const cz_json_value *v,
                  const char *path, const char *mod)
{
    uint64_t l[FP_LIMBS + 1] = {0}; /* one limb more, which must stay zero */
    if (v->type != CZ_JSON_STRING)
        return bad(c, CZ_ERR_BAD_FORMAT, path, "expected a decimal string");
    if (v->len == 0 || (v->len > 1 && v->str[0] == '0'))
        return bad(c, CZ_ERR_BAD_FORMAT, path, "not a canonical decimal (empty or leading zero)");
    for (size_t i = 0; i < v->len; i++)
        if (v->str[i] < '0' || v->str[i] > '9')
            return bad(c, CZ_ERR_BAD_FORMAT, path, "not a string of decimal digits");
    if (v->len > max_digits)
        return bad(c, CZ_ERR_NOT_CANONICAL, path, "value >= %s", mod);
    for (size_t i = 0; i < v->len; i++) {
        unsigned __int128 carry = (unsigned)(v->str[i] - '0');
        for (size_t k = 0; k <= nl; k++) {
            carry += (unsigned __int128)l[k] * 10;
            l[k] = (uint64_t)carry;
            carry >>= 64;
        }
    }
    if (l[nl] != 0)
        return bad(c, CZ_ERR_NOT_CANONICAL, path, "value >= %s", mod);
    for (size_t i = 0; i < 8 * nl; i++)
        b[i] = (uint8_t)(l[i / 8] >> 8 * (i % 8));
    return CZ_OK;
}

/* Field elements: canonical decimals below the modulus. */
static int rd_fp(const ctx *c, cz_fp *r, const cz_json_value *v, const char *path)
{
    uint8_t b[CZ_FP_BYTES];
    int rc = rd_dec(c, b, FP_LIMBS, FP_MAX_DIGITS, v, path, "p");
    return rc == CZ_OK && cz_fp_from_bytes_le(r, b) != CZ_OK
               ? bad(c, CZ_ERR_NOT_CANONICAL, path, "value >= p")
               : rc;
}

static int rd_fr(const ctx *c, cz_fr *r, const cz_json_value *v, const char *path)
{
    uint8_t b[CZ_FR_BYTES];
    int rc = rd_dec(c, b, FR_LIMBS, FR_MAX_DIGITS, v, path, "r");
    return rc == CZ_OK && cz_fr_from_bytes_le(r, b) != CZ_OK
               ? bad(c, CZ_ERR_NOT_CANONICAL, path, "value >= r")
               : rc;
}

static int want_array(const ctx *c, const cz_json_value *v, size_t n, const char *path,
                      const char *what)
{
    if (v->type != CZ_JSON_ARRAY || v->n != n)
        return bad(c, CZ_ERR_BAD_FORMAT, path, "expected %s", what);
    return CZ_OK;
}

static int rd_fp2(const ctx *c, cz_fp2 *r, const cz_json_value *v, const char *path)
{
    int rc = want_array(c, v, 2, path, "an array of 2 decimal strings (c0, c1)");
    if (rc != CZ_OK)
        return rc;
    const cz_json_value *e = cz_json_first(v);
    if ((rc = rd_fp(c, &r->c0, e, sub(path, 0).s)) != CZ_OK)
        return rc;
    return rd_fp(c, &r->c1, cz_json_next(e), sub(path, 1).s);
}

static const char *const point_why[] = {
    [CZ_ERR_NOT_ON_CURVE] = "point not on the curve",
    [CZ_ERR_NOT_IN_SUBGROUP] = "point not in the order-r subgroup",
};

/* rd_g1 and rd_g2: snarkjs's projective [x, y, z] over F (shape for
 * messages): z = 1 for an affine point, which must be on the curve and in
 * the subgroup, or z = 0 for the point at infinity (inf_rule: x = 0, y = 1),
 * read as all zeros where allow_inf. */
#define RD_POINT(G, F, shape, inf_rule, not_affine)                                                  \
    static int rd_##G(const ctx *c, cz_##G##_affine *r, const cz_json_value *v, const char *path,    \
                      bool allow_inf)                                                                \
    {                                                                                                \
        cz_##F f[3];                                                                                 \
        int rc = want_array(c, v, 3, path, shape);                                                   \
        const cz_json_value *e = cz_json_first(v);                                                   \
        for (size_t i = 0; i < 3 && rc == CZ_OK; i++, e = cz_json_next(e))                           \
            rc = rd_##F(c, &f[i], e, sub(path, i).s);                                                \
        if (rc != CZ_OK)                                                                             \
            return rc;                                                                               \
        if (cz_##F##_is_zero(&f[2])) {                                                               \
            if (!cz_##F##_is_zero(&f[0]) || !cz_##F##_is_one(&f[1]))                                 \
                return bad(c, CZ_ERR_BAD_INFINITY, path, inf_rule);                                  \
            if (!allow_inf)                                                                          \
                return bad(c, CZ_ERR_IS_INFINITY, path,                                              \
                           "the point at infinity is not allowed here");                             \
            memset(r, 0, sizeof *r);                                                                 \
            return CZ_OK;                                                                            \
        }                                                                                            \
        if (!cz_##F##_is_one(&f[2]))                                                                 \
            return bad(c, CZ_ERR_BAD_FORMAT, path, not_affine);                                      \
        cz_##G##_affine p = {f[0], f[1]};                                                            \
        rc = cz_##G##_affine_is_inf(&p) || !cz_##G##_affine_is_on_curve(&p) ? CZ_ERR_NOT_ON_CURVE    \
             : !cz_##G##_affine_in_subgroup(&p)                             ? CZ_ERR_NOT_IN_SUBGROUP \
                                                                            : CZ_OK;                                             \
        if (rc != CZ_OK)                                                                             \
            return bad(c, rc, path, "%s", point_why[rc]);                                            \
        *r = p;                                                                                      \
        return CZ_OK;                                                                                \
    }

RD_POINT(g1, fp, "[x, y, z]: an array of 3 decimal strings",
         "z = 0 (the point at infinity) needs x = 0, y = 1",
         "z is neither 1 nor 0 (affine points only)")
RD_POINT(g2, fp2, "[x, y, z]: an array of 3 pairs of decimal strings",
         "z = [0, 0] (the point at infinity) needs x = [0, 0], y = [1, 0]",
         "z is neither [1, 0] nor [0, 0] (affine points only)")

/* [[c0.c0, c0.c1, c0.c2], [c1.c0, c1.c1, c1.c2]], each an Fp2 pair. */
static int rd_fp12(const ctx *c, cz_fp12 *r, const cz_json_value *v, const char *path)
{
    int rc = want_array(c, v, 2, path, "an array of 2 Fp6 elements");
    const cz_json_value *h = cz_json_first(v);
    for (size_t i = 0; i < 2 && rc == CZ_OK; i++, h = cz_json_next(h)) {
        cz_fp6 *six = i == 0 ? &r->c0 : &r->c1;
        cz_fp2 *two[3] = {&six->c0, &six->c1, &six->c2};
        path_buf hp = sub(path, i);
        rc = want_array(c, h, 3, hp.s, "an array of 3 Fp2 elements");
        const cz_json_value *e = cz_json_first(h);
        for (size_t j = 0; j < 3 && rc == CZ_OK; j++, e = cz_json_next(e))
            rc = rd_fp2(c, two[j], e, sub(hp.s, j).s);
    }
    return rc;
}

typedef struct {
    const char *name;
    bool optional;
    const cz_json_value *v;
} field;

/* Matches the members of the object v to fields[0..n): every member must be
 * one of them and appear once; every required one must appear. */
static int members(const ctx *c, const cz_json_value *v, field *fields, size_t n)
{
    if (v->type != CZ_JSON_OBJECT)
        return bad(c, CZ_ERR_BAD_FORMAT, "top level", "expected an object");
    const cz_json_value *m = cz_json_first(v);
    for (size_t i = 0; i < v->n; i++, m = cz_json_next(m)) {
        size_t k = 0;
        while (k < n && !(strlen(fields[k].name) == m->key_len &&
                          memcmp(fields[k].name, m->key, m->key_len) == 0))
            k++;
        if (k == n)
            return bad(c, CZ_ERR_BAD_FORMAT, "top level", "unknown key \"%.40s\"", m->key);
        if (fields[k].v != NULL)
            return bad(c, CZ_ERR_BAD_FORMAT, fields[k].name, "duplicate key");
        fields[k].v = m;
    }
    for (size_t k = 0; k < n; k++)
        if (fields[k].v == NULL && !fields[k].optional)
            return bad(c, CZ_ERR_BAD_FORMAT, fields[k].name, "missing key");
    return CZ_OK;
}

/* fields[0] is "protocol", fields[1] "curve". */
static int protocol_curve(const ctx *c, const field *fields)
{
    const cz_json_value *p = fields[0].v, *cv = fields[1].v;
    if (p->type != CZ_JSON_STRING || cv->type != CZ_JSON_STRING)
        return bad(c, CZ_ERR_BAD_FORMAT, p->type != CZ_JSON_STRING ? "protocol" : "curve",
                   "expected a string");
    if (strcmp(p->str, "groth16") != 0 || p->len != 7)
        return bad(c, CZ_ERR_UNSUPPORTED, "protocol", "\"%.40s\" is not groth16", p->str);
    if (strcmp(cv->str, "bls12381") != 0 || cv->len != 8)
        return bad(c, CZ_ERR_WRONG_CURVE, "curve", "\"%.40s\" is not bls12381", cv->str);
    return CZ_OK;
}

static int parse(const ctx *c, cz_json_doc *doc, const char *text, size_t len)
{
    char msg[160] = "";
    int rc = cz_json_parse(doc, text, len, MAX_DEPTH, msg, sizeof msg);
    if (rc != CZ_OK)
        return bad(c, rc, "json", "%s", msg);
    return CZ_OK;
}

int cz_snarkjs_proof_read_mem(cz_groth16_proof *proof, const char *text, size_t len, char *err,
                              size_t errlen)
{
    const ctx c = {"proof.json", err, errlen};
    field f[] = {{"protocol", false, NULL},
                 {"curve", false, NULL},
                 {"pi_a", false, NULL},
                 {"pi_b", false, NULL},
                 {"pi_c", false, NULL}};
    cz_json_doc doc;
    cz_groth16_proof p;
    if (proof == NULL || (text == NULL && len > 0))
        return CZ_ERR_INVALID_ARG;
    memset(proof, 0, sizeof *proof);
    int rc = parse(&c, &doc, text, len);
    if (rc != CZ_OK)
        return rc;
    if ((rc = members(&c, doc.nodes, f, 5)) == CZ_OK && (rc = protocol_curve(&c, f)) == CZ_OK &&
        (rc = rd_g1(&c, &p.a, f[2].v, "pi_a", false)) == CZ_OK &&
        (rc = rd_g2(&c, &p.b, f[3].v, "pi_b", false)) == CZ_OK &&
        (rc = rd_g1(&c, &p.c, f[4].v, "pi_c", false)) == CZ_OK)
        *proof = p;
    cz_json_free(&doc);
    return rc;
}

int cz_snarkjs_public_read_mem(cz_fr **pub, size_t *n, const char *text, size_t len, char *err,
                               size_t errlen)
{
    const ctx c = {"public.json", err, errlen};
    cz_json_doc doc;
    cz_fr *out = NULL;
    if (pub == NULL || n == NULL || (text == NULL && len > 0))
        return CZ_ERR_INVALID_ARG;
    *pub = NULL;
    *n = 0;
    int rc = parse(&c, &doc, text, len);
    if (rc != CZ_OK)
        return rc;
    const cz_json_value *root = doc.nodes;
    if (root->type != CZ_JSON_ARRAY) {
        rc = bad(&c, CZ_ERR_BAD_FORMAT, "top level", "expected an array of decimal strings");
    } else if (root->n > 0 && (out = malloc(root->n * sizeof *out)) == NULL) {
        rc = bad(&c, CZ_ERR_NOMEM, "top level", "cannot allocate %zu signals", root->n);
    } else {
        const cz_json_value *e = cz_json_first(root);
        for (size_t i = 0; i < root->n && rc == CZ_OK; i++, e = cz_json_next(e))
            rc = rd_fr(&c, &out[i], e, sub("", i).s);
    }
    if (rc == CZ_OK) {
        *pub = out;
        *n = root->n;
    } else {
        free(out);
    }
    cz_json_free(&doc);
    return rc;
}

/* nPublic: a JSON integer in [0, 2^32). */
static int rd_npublic(const ctx *c, size_t *n, const cz_json_value *v)
{
    uint64_t x = 0;
    if (v->type != CZ_JSON_NUMBER || v->len > 10)
        return bad(c, CZ_ERR_BAD_FORMAT, "nPublic", "expected an integer below 2^32");
    for (size_t i = 0; i < v->len; i++) {
        if (v->str[i] < '0' || v->str[i] > '9')
            return bad(c, CZ_ERR_BAD_FORMAT, "nPublic", "expected an integer below 2^32");
        x = 10 * x + (uint64_t)(v->str[i] - '0');
    }
    if (x > UINT32_MAX)
        return bad(c, CZ_ERR_BAD_FORMAT, "nPublic", "expected an integer below 2^32");
    *n = (size_t)x;
    return CZ_OK;
}

static int rd_vk(const ctx *c, cz_groth16_vk *vk, const field *f)
{
    size_t n_public = 0;
    cz_fp12 want, got;
    int rc = rd_npublic(c, &n_public, f[2].v);
    if (rc == CZ_OK)
        rc = rd_g1(c, &vk->alpha_g1, f[3].v, "vk_alpha_1", true);
    if (rc == CZ_OK)
        rc = rd_g2(c, &vk->beta_g2, f[4].v, "vk_beta_2", true);
    if (rc == CZ_OK)
        rc = rd_g2(c, &vk->gamma_g2, f[5].v, "vk_gamma_2", true);
    if (rc == CZ_OK)
        rc = rd_g2(c, &vk->delta_g2, f[6].v, "vk_delta_2", true);
    if (rc == CZ_OK && f[7].v != NULL) {
        if ((rc = rd_fp12(c, &want, f[7].v, "vk_alphabeta_12")) != CZ_OK)
            return rc;
        cz_pairing(&got, &vk->alpha_g1, &vk->beta_g2);
        if (!cz_fp12_equal(&want, &got))
            return bad(c, CZ_ERR_BAD_FORMAT, "vk_alphabeta_12",
                       "not the pairing of vk_alpha_1 and vk_beta_2");
    }
    if (rc != CZ_OK)
        return rc;
    const cz_json_value *ic = f[8].v;
    if (ic->type != CZ_JSON_ARRAY || ic->n != n_public + 1)
        return bad(c, CZ_ERR_BAD_FORMAT, "IC", "expected an array of nPublic + 1 = %zu points",
                   n_public + 1);
    vk->ic = malloc(ic->n * sizeof *vk->ic);
    if (vk->ic == NULL)
        return bad(c, CZ_ERR_NOMEM, "IC", "cannot allocate %zu points", ic->n);
    vk->n_ic = ic->n;
    const cz_json_value *e = cz_json_first(ic);
    for (size_t i = 0; i < ic->n && rc == CZ_OK; i++, e = cz_json_next(e))
        rc = rd_g1(c, &vk->ic[i], e, sub("IC", i).s, false);
    return rc;
}

int cz_snarkjs_vk_read_mem(cz_groth16_vk *vk, const char *text, size_t len, char *err,
                           size_t errlen)
{
    const ctx c = {"verification_key.json", err, errlen};
    field f[] = {
        {"protocol", false, NULL},   {"curve", false, NULL},          {"nPublic", false, NULL},
        {"vk_alpha_1", false, NULL}, {"vk_beta_2", false, NULL},      {"vk_gamma_2", false, NULL},
        {"vk_delta_2", false, NULL}, {"vk_alphabeta_12", true, NULL}, {"IC", false, NULL}};
    cz_json_doc doc;
    if (vk == NULL || (text == NULL && len > 0))
        return CZ_ERR_INVALID_ARG;
    memset(vk, 0, sizeof *vk);
    int rc = parse(&c, &doc, text, len);
    if (rc != CZ_OK)
        return rc;
    if ((rc = members(&c, doc.nodes, f, 9)) == CZ_OK && (rc = protocol_curve(&c, f)) == CZ_OK)
        rc = rd_vk(&c, vk, f);
    if (rc != CZ_OK)
        cz_groth16_vk_free(vk);
    cz_json_free(&doc);
    return rc;
}

static int proof_mem(void *out, const uint8_t *text, size_t len, char *err, size_t errlen)
{
    return cz_snarkjs_proof_read_mem(out, (const char *)text, len, err, errlen);
}

int cz_snarkjs_proof_read_file(cz_groth16_proof *proof, const char *path, char *err, size_t errlen)
{
    if (proof != NULL)
        memset(proof, 0, sizeof *proof);
    return cz_file_read_mapped(path, proof_mem, proof, err, errlen);
}

typedef struct {
    cz_fr **pub;
    size_t *n;
} public_out;

static int public_mem(void *out, const uint8_t *text, size_t len, char *err, size_t errlen)
{
    public_out *o = out;
    return cz_snarkjs_public_read_mem(o->pub, o->n, (const char *)text, len, err, errlen);
}

int cz_snarkjs_public_read_file(cz_fr **pub, size_t *n, const char *path, char *err, size_t errlen)
{
    public_out o = {pub, n};
    if (pub != NULL && n != NULL)
        *pub = NULL, *n = 0;
    return cz_file_read_mapped(path, public_mem, &o, err, errlen);
}

static int vk_mem(void *out, const uint8_t *text, size_t len, char *err, size_t errlen)
{
    return cz_snarkjs_vk_read_mem(out, (const char *)text, len, err, errlen);
}

int cz_snarkjs_vk_read_file(cz_groth16_vk *vk, const char *path, char *err, size_t errlen)
{
    if (vk != NULL)
        memset(vk, 0, sizeof *vk);
    return cz_file_read_mapped(path, vk_mem, vk, err, errlen);
}
