/* The C1 (SealCommitPhase1Output) reader and writer (cuzk/filecoin/porep.h):
 *   - tree shapes: form, levels and arities of each shape's trees;
 *   - the serde format pinned: a hand-built 2KiB C1 written exactly as a
 *     hand-written JSON text (one PathElement, one Column, one
 *     LabelingProof, Single proofs) and 32GiB / 64GiB proofs' Sub and Top
 *     forms, with the source lines that fix each detail;
 *   - random C1s of every registered proof of the small shapes and of
 *     32GiB and 64GiB (10 x 18 proofs) written, read back, written again:
 *     the same bytes and the same fields; the read time and the memory of a
 *     32GiB C1 printed;
 *   - the same C1 read from Curio's wrapper (base64 of it) and from
 *     documents with whitespace, members in other orders, unknown members
 *     and escapes;
 *   - every kind of bad input refused with its code and the JSON path of
 *     the value at fault, checked against an independent walk of the
 *     document: truncation at any offset, wrong types, bytes out of range,
 *     non-canonical values, wrong registered proofs, every count, indexes,
 *     comm_c / comm_r_last mismatches, a million-element path (refused at
 *     once, in little memory), bad base64.
 *   - messages: an empty key, a path too long for the buffer, the
 *     wrapper's own string (what fuzz_c1 found).
 * `test_fc_c1 --write-seeds DIR` writes the fuzz seeds of fuzz/fuzz_c1.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cuzk/err.h"
#include "cuzk/ff.h"
#include "cuzk/filecoin/porep.h"
#include "cuzk/mem.h"
#include "fixture.h"
#include "tf.h"
#include "util/base64.h"

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* ------------------------------------------------------ random C1s --- */

static void rand_fr(cz_fc_d *d)
{
    cz_fr f;
    cz_fr_random(&f, &tf_rng);
    cz_fr_to_bytes_le(d->b, &f);
}

static void rand_sha(cz_fc_d *d)
{
    cz_prng_bytes(&tf_rng, d->b, 32);
    d->b[31] &= 0x3f;
}

static void *c1_mem(cz_fc_c1 *c1, size_t n)
{
    void *p = cz_fc_c1_alloc(c1, n);
    if (!p) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    return p;
}

/* A proof of tree k with random values (root: *root when given). */
static void fill_mp(cz_fc_c1 *c1, cz_fc_merkle_proof *mp, cz_fc_tree_kind k, const cz_fc_shape *s,
                    const cz_fc_d *root)
{
    void (*rnd)(cz_fc_d *) = k == CZ_FC_TREE_D ? rand_sha : rand_fr;
    mp->form = cz_fc_tree_form(k, s);
    mp->n_levels = cz_fc_tree_levels(k, s);
    mp->levels = c1_mem(c1, mp->n_levels * sizeof *mp->levels);
    for (uint32_t l = 0; l < mp->n_levels; l++) {
        cz_fc_path_el *el = &mp->levels[l];
        el->arity = (uint8_t)cz_fc_tree_arity(k, s, l);
        el->index = (uint8_t)(cz_prng_next(&tf_rng) % el->arity);
        el->hashes = c1_mem(c1, (el->arity - 1u) * sizeof(cz_fc_d));
        for (unsigned h = 0; h + 1u < el->arity; h++)
            rnd(&el->hashes[h]);
    }
    if (root)
        mp->root = *root;
    else
        rnd(&mp->root);
    rnd(&mp->leaf);
}

static void fill_cp(cz_fc_c1 *c1, cz_fc_column_proof *cp, const cz_fc_shape *s,
                    const cz_fc_d *comm_c)
{
    cp->index = (uint32_t)(cz_prng_next(&tf_rng) & ((1ull << s->log_nodes) - 1));
    cp->rows = c1_mem(c1, s->layers * sizeof *cp->rows);
    for (unsigned i = 0; i < s->layers; i++)
        rand_fr(&cp->rows[i]);
    fill_mp(c1, &cp->inclusion, CZ_FC_TREE_RC, s, comm_c);
}

static void fill_lp(cz_fc_labeling_proof *lp, unsigned layer, uint64_t node)
{
    for (int i = 0; i < CZ_FC_LABEL_PARENTS; i++)
        rand_fr(&lp->parents[i]);
    lp->layer_index = layer;
    lp->node = node;
}

/* A random C1 of type t that validates: shape-correct counts, canonical
 * values, one comm_c and one comm_r_last. */
static void make_c1(cz_fc_c1 *c1, const cz_fc_proof_type *t)
{
    const cz_fc_shape *s = t->shape;
    memset(c1, 0, sizeof *c1);
    c1->proof_type = t;
    c1->partitions = t->partitions;
    c1->challenges = s->challenges;
    size_t n = (size_t)c1->partitions * c1->challenges;
    c1->proofs = c1_mem(c1, n * sizeof *c1->proofs);
    cz_fc_d comm_c, comm_r_last;
    rand_fr(&comm_c);
    rand_fr(&comm_r_last);
    for (size_t i = 0; i < n; i++) {
        cz_fc_vanilla_proof *v = &c1->proofs[i];
        uint64_t node = cz_prng_next(&tf_rng) & ((1ull << s->log_nodes) - 1);
        fill_mp(c1, &v->comm_d_proof, CZ_FC_TREE_D, s, NULL);
        fill_mp(c1, &v->comm_r_last_proof, CZ_FC_TREE_RC, s, &comm_r_last);
        fill_cp(c1, &v->c_x, s, &comm_c);
        for (int k = 0; k < CZ_FC_DRG_DEGREE; k++)
            fill_cp(c1, &v->drg[k], s, &comm_c);
        for (int k = 0; k < CZ_FC_EXP_DEGREE; k++)
            fill_cp(c1, &v->exp[k], s, &comm_c);
        v->labeling = c1_mem(c1, s->layers * sizeof *v->labeling);
        for (unsigned l = 0; l < s->layers; l++)
            fill_lp(&v->labeling[l], l + 1, node);
        fill_lp(&v->encoding, s->layers, node);
    }
    rand_fr(&c1->comm_r);
    rand_fr(&c1->comm_d);
    rand_fr(&c1->replica_id);
    cz_prng_bytes(&tf_rng, c1->seed, 32);
    cz_prng_bytes(&tf_rng, c1->ticket, 32);
}

/* ------------------------------------------------------- equality --- */

static bool d_eq(const cz_fc_d *a, const cz_fc_d *b) { return memcmp(a->b, b->b, 32) == 0; }

static bool mp_eq(const cz_fc_merkle_proof *a, const cz_fc_merkle_proof *b)
{
    if (a->form != b->form || a->n_levels != b->n_levels || !d_eq(&a->root, &b->root) ||
        !d_eq(&a->leaf, &b->leaf))
        return false;
    for (uint32_t l = 0; l < a->n_levels; l++) {
        const cz_fc_path_el *x = &a->levels[l], *y = &b->levels[l];
        if (x->arity != y->arity || x->index != y->index ||
            memcmp(x->hashes, y->hashes, (x->arity - 1u) * sizeof(cz_fc_d)) != 0)
            return false;
    }
    return true;
}

static bool cp_eq(const cz_fc_column_proof *a, const cz_fc_column_proof *b, unsigned layers)
{
    return a->index == b->index && memcmp(a->rows, b->rows, layers * sizeof(cz_fc_d)) == 0 &&
           mp_eq(&a->inclusion, &b->inclusion);
}

static bool lp_eq(const cz_fc_labeling_proof *a, const cz_fc_labeling_proof *b)
{
    return memcmp(a->parents, b->parents, sizeof a->parents) == 0 &&
           a->layer_index == b->layer_index && a->node == b->node;
}

static bool c1_eq(const cz_fc_c1 *a, const cz_fc_c1 *b)
{
    if (a->proof_type != b->proof_type || a->partitions != b->partitions ||
        a->challenges != b->challenges || !d_eq(&a->comm_r, &b->comm_r) ||
        !d_eq(&a->comm_d, &b->comm_d) || !d_eq(&a->replica_id, &b->replica_id) ||
        memcmp(a->seed, b->seed, 32) != 0 || memcmp(a->ticket, b->ticket, 32) != 0)
        return false;
    unsigned L = a->proof_type->shape->layers;
    for (size_t i = 0; i < (size_t)a->partitions * a->challenges; i++) {
        const cz_fc_vanilla_proof *x = &a->proofs[i], *y = &b->proofs[i];
        if (!mp_eq(&x->comm_d_proof, &y->comm_d_proof) ||
            !mp_eq(&x->comm_r_last_proof, &y->comm_r_last_proof) || !cp_eq(&x->c_x, &y->c_x, L) ||
            !lp_eq(&x->encoding, &y->encoding))
            return false;
        for (int k = 0; k < CZ_FC_DRG_DEGREE; k++)
            if (!cp_eq(&x->drg[k], &y->drg[k], L))
                return false;
        for (int k = 0; k < CZ_FC_EXP_DEGREE; k++)
            if (!cp_eq(&x->exp[k], &y->exp[k], L))
                return false;
        for (unsigned l = 0; l < L; l++)
            if (!lp_eq(&x->labeling[l], &y->labeling[l]))
                return false;
    }
    return true;
}

/* The bytes the C1's arrays and records need, without the allocator's
 * rounding or chunk ends. */
static size_t mp_bytes(const cz_fc_merkle_proof *mp)
{
    size_t n = mp->n_levels * sizeof(cz_fc_path_el);
    for (uint32_t l = 0; l < mp->n_levels; l++)
        n += (mp->levels[l].arity - 1u) * sizeof(cz_fc_d);
    return n;
}

static size_t decoded_bytes(const cz_fc_c1 *c1)
{
    unsigned L = c1->proof_type->shape->layers;
    size_t n = (size_t)c1->partitions * c1->challenges * sizeof(cz_fc_vanilla_proof);
    for (size_t i = 0; i < (size_t)c1->partitions * c1->challenges; i++) {
        const cz_fc_vanilla_proof *v = &c1->proofs[i];
        n += mp_bytes(&v->comm_d_proof) + mp_bytes(&v->comm_r_last_proof) +
             L * sizeof(cz_fc_labeling_proof);
        n += 15 * (L * sizeof(cz_fc_d) + mp_bytes(&v->c_x.inclusion));
    }
    return n;
}

/* -------------------------------------- an independent walk of JSON --- */

/* Every value of a compact document (as the writer writes it) with its
 * span and path, in document order: written without the reader's code, to
 * say which path an error must name. */
typedef struct {
    size_t start, end;
    char type; /* its first byte */
    char *path;
} jv;

typedef struct {
    jv *v;
    size_t n, cap;
} jvs;

static size_t jv_push(jvs *o, size_t start, char type, const char *path)
{
    if (o->n == o->cap) {
        o->cap = o->cap ? 2 * o->cap : 1024;
        o->v = realloc(o->v, o->cap * sizeof *o->v);
        if (!o->v)
            exit(1);
    }
    o->v[o->n] = (jv){start, 0, type, strdup(path)};
    return o->n++;
}

static void walk(const char *s, size_t *i, char *path, size_t pl, jvs *o)
{
    size_t me = jv_push(o, *i, s[*i], pl ? path : "top level");
    char c = s[*i];
    if (c == '{' || c == '[') {
        (*i)++;
        for (size_t k = 0; s[*i] != (c == '{' ? '}' : ']'); k++) {
            if (k)
                (*i)++; /* ',' */
            size_t l;
            if (c == '{') {
                size_t ks = ++*i;
                while (s[*i] != '"')
                    (*i)++;
                l = pl + (size_t)snprintf(path + pl, 512 - pl, "%s%.*s", pl ? "." : "",
                                          (int)(*i - ks), s + ks);
                *i += 2; /* '"' ':' */
            } else {
                l = pl + (size_t)snprintf(path + pl, 512 - pl, "[%zu]", k);
            }
            walk(s, i, path, l, o);
            path[pl] = 0;
        }
        (*i)++;
    } else if (c == '"') {
        (*i)++;
        while (s[*i] != '"')
            (*i)++;
        (*i)++;
    } else {
        while (s[*i] && s[*i] != ',' && s[*i] != ']' && s[*i] != '}')
            (*i)++;
    }
    o->v[me].end = *i;
}

static jvs walk_doc(const char *s)
{
    jvs o = {0};
    char path[512] = {0};
    size_t i = 0;
    walk(s, &i, path, 0, &o);
    return o;
}

static void jvs_free(jvs *o)
{
    for (size_t i = 0; i < o->n; i++)
        free(o->v[i].path);
    free(o->v);
    memset(o, 0, sizeof *o);
}

static const jv *find(const jvs *o, const char *path)
{
    for (size_t i = 0; i < o->n; i++)
        if (strcmp(o->v[i].path, path) == 0)
            return &o->v[i];
    fprintf(stderr, "no value at %s\n", path);
    exit(1);
}

/* s with [a, b) replaced by rep (malloc'd, exactly *n bytes so ASan sees
 * a read past the end). */
static char *splice(const char *s, size_t len, size_t a, size_t b, const char *rep, size_t *n)
{
    size_t rl = strlen(rep);
    *n = len - (b - a) + rl;
    char *o = malloc(*n + 1);
    memcpy(o, s, a);
    memcpy(o + a, rep, rl);
    memcpy(o + a + rl, s + b, len - b);
    o[*n] = 0;
    return o;
}

/* The text of value v. */
static char *text_of(const char *s, const jv *v)
{
    char *t = malloc(v->end - v->start + 1);
    memcpy(t, s + v->start, v->end - v->start);
    t[v->end - v->start] = 0;
    return t;
}

/* ------------------------------------------------- reading and errors --- */

static char err[1024];

/* Reads json[0..n) from an allocation of exactly n bytes. */
static int read_exact(cz_fc_c1 *c1, const char *json, size_t n)
{
    uint8_t *copy = malloc(n ? n : 1);
    memcpy(copy, json, n);
    int rc = cz_fc_c1_read(c1, copy, n, NULL, err, sizeof err);
    free(copy);
    return rc;
}

/* The path an error message names (up to its first ": " after prefix). */
static void err_path(char *out, size_t cap, const char *msg, const char *prefix)
{
    size_t pl = strlen(prefix);
    if (strncmp(msg, prefix, pl) == 0)
        msg += pl;
    const char *e = strstr(msg, ": ");
    size_t n = e ? (size_t)(e - msg) : strlen(msg);
    if (n >= cap)
        n = cap - 1;
    memcpy(out, msg, n);
    out[n] = 0;
}

static int n_expect;

/* json must be refused with rc, a message naming path (after prefix) and
 * holding phrase; the C1 must hold nothing. */
static void expect_err_(const char *file, int line, const char *json, size_t n, int rc,
                        const char *prefix, const char *path, const char *phrase)
{
    cz_fc_c1 c1;
    int got = read_exact(&c1, json, n);
    char p[600];
    err_path(p, sizeof p, err, prefix);
    n_expect++;
    if (got != rc || strcmp(p, path) != 0 || (phrase && !strstr(err, phrase)) ||
        strncmp(err, prefix, strlen(prefix)) != 0 || c1.chunks || c1.mem_bytes || c1.proofs)
        tf_fail(file, line, "expected %s at %s%s (\"%s\"), got %s: %s", cz_strerror(rc), prefix,
                path, phrase ? phrase : "", cz_strerror(got), err);
    if (got == CZ_OK)
        cz_fc_c1_free(&c1);
}
#define expect_err(json, n, rc, path, phrase)                                                      \
    expect_err_(__FILE__, __LINE__, json, n, rc, "", path, phrase)

/* doc with the value at path replaced by rep must fail so at path. */
static void expect_replaced_(const char *file, int line, const char *doc, size_t len,
                             const jvs *vals, const char *path, const char *rep, int rc,
                             const char *err_at, const char *phrase)
{
    const jv *v = find(vals, path);
    size_t n;
    char *m = splice(doc, len, v->start, v->end, rep, &n);
    expect_err_(file, line, m, n, rc, "", err_at ? err_at : path, phrase);
    free(m);
}
#define expect_replaced(path, rep, rc, err_at, phrase)                                             \
    expect_replaced_(__FILE__, __LINE__, doc, len, &vals, path, rep, rc, err_at, phrase)

/* The value at path replaced by rep: the C1 still reads (what names the
 * replacement in a failure). */
static void expect_accepted_(const char *file, int line, const char *doc, size_t len,
                             const jvs *vals, const char *path, const char *rep, const char *what)
{
    const jv *v = find(vals, path);
    size_t n;
    char *m = splice(doc, len, v->start, v->end, rep, &n);
    cz_fc_c1 c1;
    if (read_exact(&c1, m, n) != CZ_OK)
        tf_fail(file, line, "%s at %s: %s", what, path, err);
    cz_fc_c1_free(&c1);
    free(m);
}
#define expect_accepted(path, rep, what)                                                           \
    expect_accepted_(__FILE__, __LINE__, doc, len, &vals, path, rep, what)

/* ------------------------------------------------------------- shapes --- */

static void test_tree_shape(void)
{
    /* shape: TreeR/TreeC form, levels; arities (from the shape table) */
    static const struct {
        cz_fc_shape_id id;
        cz_fc_proof_form form;
        unsigned levels;
        unsigned d_levels;
    } want[] = {
        {CZ_FC_2KIB, CZ_FC_PROOF_SINGLE, 2, 6},    {CZ_FC_8MIB, CZ_FC_PROOF_SINGLE, 6, 18},
        {CZ_FC_512MIB, CZ_FC_PROOF_SINGLE, 8, 24}, {CZ_FC_32GIB, CZ_FC_PROOF_SUB, 10, 30},
        {CZ_FC_64GIB, CZ_FC_PROOF_TOP, 11, 31},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        const cz_fc_shape *s = cz_fc_shape_get(want[i].id);
        TF_CHECK(cz_fc_tree_form(CZ_FC_TREE_D, s) == CZ_FC_PROOF_SINGLE);
        TF_CHECK(cz_fc_tree_levels(CZ_FC_TREE_D, s) == want[i].d_levels);
        TF_CHECK(cz_fc_tree_form(CZ_FC_TREE_RC, s) == want[i].form);
        TF_CHECK(cz_fc_tree_levels(CZ_FC_TREE_RC, s) == want[i].levels);
        uint64_t leaves = 1;
        for (unsigned l = 0; l < want[i].levels; l++) {
            unsigned a = cz_fc_tree_arity(CZ_FC_TREE_RC, s, l);
            unsigned expect = l < s->base_levels                      ? 8
                              : (l == s->base_levels && s->sub_arity) ? 8
                                                                      : 2;
            TF_CHECK_MSG(a == expect, "%s level %u: arity %u", s->name, l, a);
            leaves *= a;
        }
        /* the tree covers the sector's nodes exactly */
        TF_CHECK_MSG(leaves == 1ull << s->log_nodes, "%s: %llu leaves", s->name,
                     (unsigned long long)leaves);
        for (unsigned l = 0; l < want[i].d_levels; l++)
            TF_CHECK(cz_fc_tree_arity(CZ_FC_TREE_D, s, l) == 2);
        TF_CHECK(cz_fc_tree_arity(CZ_FC_TREE_D, s, want[i].d_levels) == 0);
        TF_CHECK(cz_fc_tree_arity(CZ_FC_TREE_RC, s, want[i].levels) == 0);
    }
}

/* -------------------------------------------------- the format pinned --- */

/* A D is serde's [u8; 32]: a tuple, written by serde_json as an array of
 * 32 decimal integers (serde_core ser/impls.rs array_impls ->
 * serialize_tuple; the hashers' PoseidonDomain(Fr::Repr) and
 * Sha256Domain([u8; 32]) are newtype structs, written as what they wrap:
 * serde_json ser.rs serialize_newtype_struct).  DV(n) is [n, 0 x 31]. */
#define Z30   "0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0"
#define DV(n) "[" #n ",0," Z30 "]"
#define Z     DV(0)
#define DSEQ                                                                                       \
    "[0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31]"
#define DFF                                                                                        \
    "[255,255,255,255,255,255,255,255,255,255,255,255,255,255,255,255,255,255,255,255,255,255,"    \
    "255,255,255,255,255,255,255,255,255,255]"
_Static_assert(sizeof Z == 66, "a zero D is 32 digits, 31 commas and 2 brackets");
#define X2(a)  a "," a
#define X6(a)  X2(a) "," X2(a) "," X2(a)
#define X7(a)  X6(a) "," a
#define X8(a)  X7(a) "," a
#define X9(a)  X8(a) "," a
#define X36(a) X6(a) "," X6(a) "," X6(a) "," X6(a) "," X6(a) "," X6(a)

/* PathElement {hashes, index}; its PhantomData _arity is #[serde(skip)]:
 * storage-proofs-core merkle/proof.rs 218-226. */
#define EL(hashes, i) "{\"hashes\":[" hashes "],\"index\":" #i "}"
/* InclusionPath {path}: proof.rs 168-174. */
#define PATH(els) "{\"path\":[" els "]}"
/* MerkleProof {data} with ProofData externally tagged ({"Single": ...}:
 * serde_json ser.rs serialize_newtype_variant); SingleProof {root, leaf,
 * path}: proof.rs 242-253, 310-331, 346-365. */
#define SINGLE(root, leaf, path)                                                                   \
    "{\"data\":{\"Single\":{\"root\":" root ",\"leaf\":" leaf ",\"path\":" path "}}}"
/* Column {index: u32, rows, _h: PhantomData} with _h NOT skipped, so
 * serde writes the unit struct PhantomData as null (serde_core ser/impls.rs
 * PhantomData -> serialize_unit_struct; serde_json ser.rs
 * serialize_unit_struct -> serialize_unit -> null): stacked/vanilla
 * column.rs 13-18.  ColumnProof {column, inclusion_proof}:
 * column_proof.rs 9-21. */
#define COLUMN(index, rows, proof)                                                                 \
    "{\"column\":{\"index\":" #index ",\"rows\":[" rows                                            \
    "],\"_h\":null},\"inclusion_proof\":" proof "}"
/* LabelingProof / EncodingProof {parents, layer_index: u32, node: u64},
 * _h #[serde(skip)]: labeling_proof.rs 9-16, encoding_proof.rs 12-19. */
#define LABEL(parents, layer, node)                                                                \
    "{\"parents\":[" parents "],\"layer_index\":" #layer ",\"node\":" #node "}"

/* The 2KiB C1 built by hand_c1, the same proof twice: its TreeD path's first level
 * hashes DSEQ (index 1), c_x is column 5 with rows DV(1), DV(2), every
 * comm_c DV(9), comm_r_last DV(8), the first labeling proof's first parent
 * DV(4); everything else 0. */
#define TREED_2K                                                                                   \
    SINGLE(DV(6), DV(7),                                                                           \
           PATH(EL(DSEQ, 1) "," EL(Z, 0) "," EL(Z, 0) "," EL(Z, 0) "," EL(Z, 0) "," EL(Z, 0)))
#define TREER_2K SINGLE(DV(8), DV(5), PATH(EL(X7(Z), 7) "," EL(X7(Z), 0)))
#define TREEC_2K SINGLE(DV(9), Z, PATH(EL(X7(Z), 3) "," EL(X7(Z), 0)))
#define COLZ_2K  COLUMN(0, Z "," Z, SINGLE(DV(9), Z, PATH(EL(X7(Z), 0) "," EL(X7(Z), 0))))
/* Proof {comm_d_proofs, comm_r_last_proof, replica_column_proofs,
 * labeling_proofs, encoding_proof}: stacked/vanilla params.rs 209-240;
 * ReplicaColumnProof {c_x, drg_parents, exp_parents}: params.rs 419-436. */
/* clang-format off */
#define PROOF_2K                                                                                   \
    "{\"comm_d_proofs\":" TREED_2K                                                                 \
    ",\"comm_r_last_proof\":" TREER_2K                                                             \
    ",\"replica_column_proofs\":{\"c_x\":" COLUMN(5, DV(1) "," DV(2), TREEC_2K)                    \
    ",\"drg_parents\":[" X6(COLZ_2K) "],\"exp_parents\":[" X8(COLZ_2K) "]},"                       \
    "\"labeling_proofs\":[" LABEL(DV(4) "," X36(Z), 1, 5) "," LABEL(Z "," X36(Z), 2, 5) "],"      \
    "\"encoding_proof\":" LABEL(Z "," X36(Z), 2, 5) "}"
/* clang-format on */
/* SealCommitPhase1Output {registered_proof, vanilla_proofs, comm_r,
 * comm_d, replica_id, seed, ticket}: rust-filecoin-proofs-api seal.rs
 * 171-180; RegisteredSealProof is a unit variant, a string (serde_json
 * ser.rs serialize_unit_variant); VanillaSealProof's variant names the
 * shape (seal.rs 182-189); Vec<Vec<Proof>> partitions of challenges. */
/* clang-format off */
#define C1_2K                                                                                      \
    "{\"registered_proof\":\"StackedDrg2KiBV1_1\",\"vanilla_proofs\":{\"StackedDrg2KiBV1\":[["     \
    PROOF_2K "," PROOF_2K "]]},"                                                                   \
    "\"comm_r\":" DV(1) ",\"comm_d\":" DV(2) ",\"replica_id\":" DV(3) ","                       \
    "\"seed\":" DFF ",\"ticket\":" DSEQ "}"
/* clang-format on */

/* A hand-built C1 of type t with one proof, all values 0 but those above. */
static void hand_c1(cz_fc_c1 *c1, const cz_fc_proof_type *t)
{
    const cz_fc_shape *s = t->shape;
    memset(c1, 0, sizeof *c1);
    c1->proof_type = t;
    c1->partitions = 1;
    c1->challenges = s->id == CZ_FC_2KIB ? 2 : 1; /* 2KiB: the two the C1 must have */
    c1->proofs = c1_mem(c1, 2 * sizeof *c1->proofs);
    cz_fc_vanilla_proof *v = c1->proofs;
    cz_fc_merkle_proof *mps[17];
    cz_fc_tree_kind kinds[17];
    mps[0] = &v->comm_d_proof, kinds[0] = CZ_FC_TREE_D;
    mps[1] = &v->comm_r_last_proof, kinds[1] = CZ_FC_TREE_RC;
    mps[2] = &v->c_x.inclusion, kinds[2] = CZ_FC_TREE_RC;
    for (int k = 0; k < 6; k++)
        mps[3 + k] = &v->drg[k].inclusion, kinds[3 + k] = CZ_FC_TREE_RC;
    for (int k = 0; k < 8; k++)
        mps[9 + k] = &v->exp[k].inclusion, kinds[9 + k] = CZ_FC_TREE_RC;
    for (int m = 0; m < 17; m++) {
        cz_fc_merkle_proof *mp = mps[m];
        mp->form = cz_fc_tree_form(kinds[m], s);
        mp->n_levels = cz_fc_tree_levels(kinds[m], s);
        mp->levels = c1_mem(c1, mp->n_levels * sizeof *mp->levels);
        for (uint32_t l = 0; l < mp->n_levels; l++) {
            mp->levels[l].arity = (uint8_t)cz_fc_tree_arity(kinds[m], s, l);
            mp->levels[l].hashes = c1_mem(c1, 7 * sizeof(cz_fc_d));
        }
        if (m >= 2)
            mp->root.b[0] = 9;
    }
    for (int k = 0; k < 32; k++)
        v->comm_d_proof.levels[0].hashes[0].b[k] = (uint8_t)k;
    v->comm_d_proof.levels[0].index = 1;
    v->comm_d_proof.root.b[0] = 6;
    v->comm_d_proof.leaf.b[0] = 7;
    v->comm_r_last_proof.root.b[0] = 8;
    v->comm_r_last_proof.leaf.b[0] = 5;
    v->comm_r_last_proof.levels[0].index = 7;
    if (s->sub_arity)
        v->comm_r_last_proof.levels[s->base_levels].index = 7;
    if (s->top_arity)
        v->comm_r_last_proof.levels[s->base_levels + 1].index = 1;
    v->c_x.index = 5;
    v->c_x.inclusion.levels[0].index = 3;
    cz_fc_column_proof *cps[15] = {&v->c_x};
    for (int k = 0; k < 6; k++)
        cps[1 + k] = &v->drg[k];
    for (int k = 0; k < 8; k++)
        cps[7 + k] = &v->exp[k];
    for (int k = 0; k < 15; k++)
        cps[k]->rows = c1_mem(c1, s->layers * sizeof(cz_fc_d));
    v->c_x.rows[0].b[0] = 1;
    v->c_x.rows[1].b[0] = 2;
    v->labeling = c1_mem(c1, s->layers * sizeof *v->labeling);
    for (unsigned l = 0; l < s->layers; l++)
        v->labeling[l].layer_index = l + 1, v->labeling[l].node = 5;
    v->labeling[0].parents[0].b[0] = 4;
    v->encoding.layer_index = s->layers;
    v->encoding.node = 5;
    c1->proofs[1] = c1->proofs[0]; /* the same values (and arrays) twice */
    c1->comm_r.b[0] = 1;
    c1->comm_d.b[0] = 2;
    c1->replica_id.b[0] = 3;
    memset(c1->seed, 255, 32);
    for (int k = 0; k < 32; k++)
        c1->ticket[k] = (uint8_t)k;
}

static void test_format_pinned(void)
{
    cz_fc_c1 c1, back;
    char *out;
    size_t len;
    hand_c1(&c1, cz_fc_proof_by_name("StackedDrg2KiBV1_1"));
    TF_CHECK(cz_fc_c1_write(&c1, &out, &len) == CZ_OK);
    TF_CHECK_MSG(len == sizeof C1_2K - 1 && strcmp(out, C1_2K) == 0,
                 "the 2KiB C1 differs from the hand-written text (%zu vs %zu bytes)", len,
                 sizeof C1_2K - 1);
    if (strcmp(out, C1_2K) != 0) {
        size_t i = 0;
        while (out[i] && out[i] == C1_2K[i])
            i++;
        fprintf(stderr, "  first difference at %zu: ...%.60s\n  expected ...%.60s\n", i,
                out + (i > 20 ? i - 20 : 0), &C1_2K[i > 20 ? i - 20 : 0]);
    }
    /* the pieces named in the brief, each once or as often as built */
    TF_CHECK(strstr(out, EL(DSEQ, 1)) != NULL);
    TF_CHECK(strstr(out, COLUMN(5, DV(1) "," DV(2), TREEC_2K)) != NULL);
    TF_CHECK(strstr(out, LABEL(DV(4) "," X36(Z), 1, 5)) != NULL);
    TF_CHECK(cz_fc_c1_read(&back, (const uint8_t *)C1_2K, sizeof C1_2K - 1, NULL, err,
                           sizeof err) == CZ_OK);
    TF_CHECK_MSG(c1_eq(&c1, &back), "the hand-written text reads as another C1 (%s)", err);
    cz_fc_c1_free(&back);
    free(out);
    cz_fc_c1_free(&c1);

    /* SubProof {base_proof, sub_proof, root, leaf} (proof.rs 374-397) and
     * TopProof {base_proof, sub_proof, top_proof, root, leaf} (418-451),
     * one element in sub_proof and top_proof (proof.rs 516-534).  A one-
     * proof 32GiB / 64GiB C1 is not a valid C1 (10 partitions of 18), but
     * the writer writes what it is given. */
    /* clang-format off */
    static const char sub[] =
        "\"comm_r_last_proof\":{\"data\":{\"Sub\":{"
        "\"base_proof\":" PATH(EL(X7(Z), 7) "," X8(EL(X7(Z), 0)))
        ",\"sub_proof\":" PATH(EL(X7(Z), 7))
        ",\"root\":" DV(8) ",\"leaf\":" DV(5) "}}}";
    static const char top[] =
        "\"comm_r_last_proof\":{\"data\":{\"Top\":{"
        "\"base_proof\":" PATH(EL(X7(Z), 7) "," X8(EL(X7(Z), 0)))
        ",\"sub_proof\":" PATH(EL(X7(Z), 7))
        ",\"top_proof\":" PATH(EL(Z, 1))
        ",\"root\":" DV(8) ",\"leaf\":" DV(5) "}}}";
    /* clang-format on */
    hand_c1(&c1, cz_fc_proof_by_name("StackedDrg32GiBV1_1"));
    TF_CHECK(cz_fc_c1_write(&c1, &out, &len) == CZ_OK);
    TF_CHECK_MSG(strstr(out, sub) != NULL, "the 32GiB comm_r_last_proof is not the Sub text");
    static const char head[] = "{\"registered_proof\":\"StackedDrg32GiBV1_1\",\"vanilla_proofs\":{"
                               "\"StackedDrg32GiBV1\":[[{\"comm_d_proofs\":{\"data\":{\"Single\":";
    TF_CHECK(strncmp(out, head, sizeof head - 1) == 0);
    free(out);
    cz_fc_c1_free(&c1);
    hand_c1(&c1, cz_fc_proof_by_name("StackedDrg64GiBV1_1"));
    TF_CHECK(cz_fc_c1_write(&c1, &out, &len) == CZ_OK);
    TF_CHECK_MSG(strstr(out, top) != NULL, "the 64GiB comm_r_last_proof is not the Top text");
    free(out);
    cz_fc_c1_free(&c1);

    /* a C1 without a proof type, or with fewer levels than its form, is
     * not written */
    memset(&c1, 0, sizeof c1);
    TF_CHECK(cz_fc_c1_write(&c1, &out, &len) == CZ_ERR_INVALID_ARG && out == NULL);
    hand_c1(&c1, cz_fc_proof_by_name("StackedDrg32GiBV1_1"));
    c1.proofs[0].comm_r_last_proof.n_levels = 0;
    TF_CHECK(cz_fc_c1_write(&c1, &out, &len) == CZ_ERR_INVALID_ARG);
    cz_fc_c1_free(&c1);
}

/* ------------------------------------------------------- round trips --- */

static char *wrap(const char *json, size_t n, uint64_t num, uint64_t size, size_t *out_n);

/* A tracked allocator (ra.a) on a reservation of half a budget of bytes:
 * what the reader's memory is measured by. */
typedef struct {
    cz_budget *b;
    cz_resv *r;
    cz_resv_allocator ra;
} tracked;

static void tracked_new(tracked *t, uint64_t bytes)
{
    cz_wait_key key = {0, 0, 0};
    if (cz_budget_new(&t->b, bytes) != CZ_OK ||
        cz_budget_reserve(t->b, bytes / 2, &key, 0, NULL, &t->r, err, sizeof err) != CZ_OK) {
        TF_CHECK_MSG(0, "no budget of %llu bytes: %s", (unsigned long long)bytes, err);
        exit(1);
    }
    cz_resv_allocator_init(&t->ra, t->r, NULL);
}

/* The class-input figures of t's budget. */
static cz_buf_class_stats tracked_input(const tracked *t)
{
    cz_mem_snapshot snap;
    cz_budget_snapshot(t->b, &snap);
    return snap.cls[CZ_BUF_INPUT];
}

static void tracked_free(tracked *t)
{
    TF_CHECK(cz_resv_release(t->r) == CZ_OK);
    TF_CHECK(cz_budget_free(t->b) == CZ_OK);
}

/* Read through a tracked allocator: the class-input peak, and the time. */
static int read_tracked(cz_fc_c1 *c1, const char *json, size_t n, uint64_t *peak, double *secs)
{
    tracked t;
    tracked_new(&t, 1ull << 32);
    double t0 = now_s();
    int rc = cz_fc_c1_read(c1, (const uint8_t *)json, n, &t.ra.a, err, sizeof err);
    *secs = now_s() - t0;
    *peak = tracked_input(&t).high_water_bytes;
    cz_fc_c1_free(c1);
    tracked_free(&t);
    return rc;
}

/* Written, read back (through a tracked allocator), written again. */
static void roundtrip(const cz_fc_proof_type *t, bool report)
{
    cz_fc_c1 c1, back;
    char *j1, *j2;
    size_t n1, n2;
    double t0 = now_s();
    make_c1(&c1, t);
    TF_CHECK(cz_fc_c1_write(&c1, &j1, &n1) == CZ_OK);
    double t1 = now_s();

    tracked tr;
    tracked_new(&tr, 1ull << 32);
    uint64_t rss0 = cz_mem_rss();
    double t2 = now_s();
    int rc = cz_fc_c1_read(&back, (const uint8_t *)j1, n1, &tr.ra.a, err, sizeof err);
    double t3 = now_s();
    uint64_t rss1 = cz_mem_rss();
    TF_CHECK_MSG(rc == CZ_OK, "%s: %s", t->name, err);
    if (rc == CZ_OK) {
        TF_CHECK_MSG(c1_eq(&c1, &back), "%s: read back differs", t->name);
        TF_CHECK(!back.wrapped && back.alloc == &tr.ra.a);
        TF_CHECK(cz_fc_c1_write(&back, &j2, &n2) == CZ_OK);
        TF_CHECK_MSG(n1 == n2 && memcmp(j1, j2, n1) == 0, "%s: written again differs", t->name);
        free(j2);
        size_t dec = decoded_bytes(&back);
        TF_CHECK_MSG(back.mem_bytes < 2 * dec, "%s: %zu bytes of memory for %zu decoded", t->name,
                     back.mem_bytes, dec);
        uint64_t peak = tracked_input(&tr).high_water_bytes;
        TF_CHECK_MSG(peak < 2 * dec, "%s: peak %llu for %zu decoded", t->name,
                     (unsigned long long)peak, dec);
        if (report)
            printf("  %s: %zu proofs, %.1f MB of JSON: read+validate %.0f ms (%.0f MB/s); "
                   "decoded %.2f MB, C1 memory %.2f MB (tracked peak %.2f MB, RSS +%.1f MB); "
                   "make+write %.0f ms\n",
                   t->name, (size_t)back.partitions * back.challenges, n1 / 1e6, (t3 - t2) * 1e3,
                   n1 / 1e6 / (t3 - t2), dec / 1e6, back.mem_bytes / 1e6, peak / 1e6,
                   ((double)rss1 - (double)rss0) / 1e6, (t1 - t0) * 1e3);
        cz_fc_c1_free(&back);
        if (report) {
            /* in Curio's wrapper: the decoded JSON is held while it is read */
            size_t wn;
            char *w = wrap(j1, n1, 1, t->shape->sector_size, &wn);
            uint64_t wpeak;
            double ws;
            TF_CHECK_MSG(read_tracked(&back, w, wn, &wpeak, &ws) == CZ_OK, "wrapped: %s", err);
            printf("  %s wrapped: %.1f MB: base64 + read + validate %.0f ms, tracked peak %.2f MB "
                   "(the decoded JSON and the C1)\n",
                   t->name, wn / 1e6, ws * 1e3, wpeak / 1e6);
            free(w);
        }
    }
    tracked_free(&tr);
    free(j1);
    cz_fc_c1_free(&c1);
}

static void test_roundtrip_small(void)
{
    /* every registered proof of 2KiB, 8MiB and 512MiB: interactive,
     * synthetic (1 or 10 partitions of 2 / 18) and NI (13 of 2) */
    for (uint64_t id = 0; id < 20; id++) {
        const cz_fc_proof_type *t = cz_fc_proof_by_id(id);
        if (t->shape->id <= CZ_FC_512MIB)
            roundtrip(t, false);
    }
}

static void test_roundtrip_32g(void)
{
    roundtrip(cz_fc_proof_by_name("StackedDrg32GiBV1_1"), true);
}

static void test_roundtrip_64g(void)
{
    roundtrip(cz_fc_proof_by_name("StackedDrg64GiBV1_1_Feat_SyntheticPoRep"), true);
}

/* ---------------------------------------- other spellings, same C1 --- */

/* doc with whitespace between every token, of the four kinds. */
static char *spaced(const char *doc, size_t len, size_t *n)
{
    static const char WS[] = " \t\r\n";
    char *o = malloc(len * 3 + 8);
    size_t k = 0;
    bool in_str = false;
    o[k++] = '\n';
    for (size_t i = 0; i < len; i++) {
        char c = doc[i];
        if (c == '"')
            in_str = !in_str;
        if (!in_str && (c == ']' || c == '}') && cz_prng_next(&tf_rng) % 2)
            o[k++] = WS[cz_prng_next(&tf_rng) % 4];
        o[k++] = c;
        if (!in_str && (c == ',' || c == ':' || c == '[' || c == '{') && cz_prng_next(&tf_rng) % 2)
            o[k++] = WS[cz_prng_next(&tf_rng) % 4];
    }
    o[k++] = ' ';
    o[k++] = '\r';
    o[k++] = '\n';
    *n = k;
    return o;
}

/* doc with the members of the object at path in reverse order. */
static char *reversed(const char *doc, size_t len, const char *path, size_t *n)
{
    jvs vals = walk_doc(doc);
    const jv *obj = find(&vals, path);
    /* the members: from each key's quote to its value's end */
    size_t starts[16], ends[16], m = 0;
    size_t pl = strcmp(path, "top level") == 0 ? 0 : strlen(path);
    for (size_t i = 0; i < vals.n && m < 16; i++) {
        const jv *v = &vals.v[i];
        if (v->start <= obj->start || v->end > obj->end)
            continue;
        const char *p = v->path;
        if (pl ? (strncmp(p, path, pl) != 0 || p[pl] != '.' || strchr(p + pl + 1, '.') ||
                  strchr(p + pl + 1, '['))
               : (strchr(p, '.') || strchr(p, '[') || strcmp(p, "top level") == 0))
            continue;
        size_t klen = strlen(p + (pl ? pl + 1 : 0));
        starts[m] = v->start - 3 - klen; /* "key": */
        ends[m++] = v->end;
    }
    char *o = malloc(len + 1);
    size_t k = 0;
    memcpy(o, doc, obj->start + 1);
    k = obj->start + 1;
    for (size_t i = m; i-- > 0;) {
        memcpy(o + k, doc + starts[i], ends[i] - starts[i]);
        k += ends[i] - starts[i];
        if (i)
            o[k++] = ',';
    }
    memcpy(o + k, doc + obj->end - 1, len - (obj->end - 1));
    k += len - (obj->end - 1);
    *n = k;
    jvs_free(&vals);
    return o;
}

static void check_same(const char *what, const char *json, size_t n, const cz_fc_c1 *want)
{
    cz_fc_c1 c1;
    int rc = read_exact(&c1, json, n);
    TF_CHECK_MSG(rc == CZ_OK, "%s: %s", what, err);
    if (rc == CZ_OK) {
        TF_CHECK_MSG(c1_eq(&c1, want), "%s: another C1", what);
        cz_fc_c1_free(&c1);
    }
}

/* Curio's wrapper around json (Go's encoding/json: SectorNum, Phase1Out,
 * SectorSize in that order, the bytes as standard base64). */
static char *wrap(const char *json, size_t n, uint64_t num, uint64_t size, size_t *out_n)
{
    size_t bl = cz_base64_encoded_len(n);
    char *o = malloc(bl + 128);
    int k = snprintf(o, 128, "{\"SectorNum\":%llu,\"Phase1Out\":\"", (unsigned long long)num);
    cz_base64_encode(o + k, (const uint8_t *)json, n);
    k += (int)bl;
    k += snprintf(o + k, 128, "\",\"SectorSize\":%llu}", (unsigned long long)size);
    *out_n = (size_t)k;
    return o;
}

static void test_spellings(void)
{
    cz_fc_c1 c1;
    char *doc, *m;
    size_t len, n;
    make_c1(&c1, cz_fc_proof_by_name("StackedDrg2KiBV1_1_Feat_SyntheticPoRep"));
    TF_CHECK(cz_fc_c1_write(&c1, &doc, &len) == CZ_OK);

    for (unsigned i = 0; i < 3 * tf_scale; i++) {
        m = spaced(doc, len, &n);
        check_same("whitespace", m, n, &c1);
        free(m);
    }
    /* members in other orders (serde's derived Deserialize matches them by
     * name): the top level, a Proof, a column, a Single proof, a path
     * element */
    static const char *const objs[] = {
        "top level",
        "vanilla_proofs.StackedDrg2KiBV1[0][1]",
        "vanilla_proofs.StackedDrg2KiBV1[0][0].replica_column_proofs.c_x.column",
        "vanilla_proofs.StackedDrg2KiBV1[0][0].comm_r_last_proof.data.Single",
        "vanilla_proofs.StackedDrg2KiBV1[0][0].comm_d_proofs.data.Single.path.path[2]",
        "vanilla_proofs.StackedDrg2KiBV1[0][0].labeling_proofs[1]",
    };
    char *cur = malloc(len);
    size_t cn = len;
    memcpy(cur, doc, len);
    for (size_t i = 0; i < sizeof objs / sizeof objs[0]; i++) {
        char *nx = reversed(cur, cn, objs[i], &n);
        free(cur);
        cur = nx;
        cn = n;
        check_same(objs[i], cur, cn, &c1);
    }
    free(cur);
    /* unknown members are read and ignored, at any depth */
    {
        jvs vals = walk_doc(doc);
        const jv *v = find(&vals, "vanilla_proofs.StackedDrg2KiBV1[0][0].replica_column_proofs");
        char *t = text_of(doc, v), *rep = malloc(strlen(t) + 128);
        sprintf(rep, "{\"zz\":{\"a\":[1,-2.5e3,{\"b\":null}],\"c\":\"\\u00e9\\ud83d\\ude00\"},%s",
                t + 1);
        m = splice(doc, len, v->start, v->end, rep, &n);
        check_same("an unknown member", m, n, &c1);
        free(m);
        free(t);
        free(rep);
        /* "registered_proof" and a key written with escapes are the same key */
        v = find(&vals, "registered_proof");
        m = splice(doc, len, v->start - 19, v->end,
                   "\"\\u0072egistered_proof\":\"StackedDrg2KiBV1_1_Feat_Synthetic\\u0050oRep\"",
                   &n);
        check_same("escapes", m, n, &c1);
        free(m);
        jvs_free(&vals);
    }

    /* the wrapper: the same C1, its numbers kept */
    char *w = wrap(doc, len, 4242, 2048, &n);
    cz_fc_c1 got;
    TF_CHECK_MSG(read_exact(&got, w, n) == CZ_OK, "wrapper: %s", err);
    TF_CHECK(c1_eq(&got, &c1) && got.wrapped && got.sector_num == 4242 && got.sector_size == 2048);
    cz_fc_c1_free(&got);
    /* with whitespace, other orders and an unknown member */
    {
        size_t bl = cz_base64_encoded_len(len);
        char *b64 = malloc(bl + 1), *o = malloc(bl * 2 + 256);
        cz_base64_encode(b64, (const uint8_t *)doc, len);
        b64[bl] = 0;
        int k = snprintf(o, 256,
                         " {\n \"SectorSize\" : 2048 ,\t\"Other\": [\"x\"], \"Phase1Out\":\r\n\"");
        for (size_t i = 0; i < bl; i++) {
            if (b64[i] == '/')
                o[k++] = '\\'; /* "\/" is "/" in JSON */
            o[k++] = b64[i];
        }
        k += snprintf(o + k, 256, "\" , \"SectorNum\" : 7 }\n");
        TF_CHECK_MSG(read_exact(&got, o, (size_t)k) == CZ_OK, "spaced wrapper: %s", err);
        TF_CHECK(c1_eq(&got, &c1) && got.sector_num == 7);
        cz_fc_c1_free(&got);
        /* the wrapper of a spaced C1 */
        m = spaced(doc, len, &n);
        char *w2 = wrap(m, n, 1, 2048, &n);
        check_same("wrapper of a spaced C1", w2, n, &c1);
        free(w2);
        free(m);
        free(b64);
        free(o);
    }
    /* a wrapper's inner error names its path after "Phase1Out: " */
    {
        jvs vals = walk_doc(doc);
        const jv *v = find(&vals, "comm_d[0]");
        char *bad = splice(doc, len, v->start, v->end, "256", &n);
        char *w2 = wrap(bad, n, 1, 2048, &n);
        expect_err_(__FILE__, __LINE__, w2, n, CZ_ERR_BAD_FORMAT, "Phase1Out: ", "comm_d[0]",
                    "256 is not a byte");
        free(w2);
        free(bad);
        /* the sector size must be the registered proof's */
        w2 = wrap(doc, len, 1, 8u << 20, &n);
        expect_err(w2, n, CZ_ERR_BAD_FORMAT, "SectorSize", "is not the sector size");
        free(w2);
        /* a wrapper with a member missing, and SectorNum negative (Rust's
         * C1OutputWrapper reads it as a u64) */
        expect_err("{\"SectorNum\":1,\"Phase1Out\":\"\"}", 30, CZ_ERR_BAD_FORMAT, "top level",
                   "missing field `SectorSize`");
        expect_err("{\"SectorNum\":-1}", 16, CZ_ERR_BAD_FORMAT, "SectorNum", "is not a u64");
        jvs_free(&vals);
    }
    free(w);
    free(doc);
    cz_fc_c1_free(&c1);
}

/* ------------------------------------------------------- bad inputs --- */

/* A 2KiB C1 to spoil, and the walk of it. */
static char *doc;
static size_t len;
static jvs vals;
static cz_fc_c1 base;

static void bad_setup(const char *type)
{
    make_c1(&base, cz_fc_proof_by_name(type));
    TF_CHECK(cz_fc_c1_write(&base, &doc, &len) == CZ_OK);
    vals = walk_doc(doc);
}

static void bad_teardown(void)
{
    jvs_free(&vals);
    free(doc);
    cz_fc_c1_free(&base);
}

/* The deepest value of which some but not all of the first k bytes are
 * present (a number's digits always make a whole number). */
static const char *cut_path(size_t k)
{
    const jv *best = NULL;
    for (size_t i = 0; i < vals.n; i++) {
        const jv *v = &vals.v[i];
        if (v->start < k && k < v->end && !(v->type >= '0' && v->type <= '9') &&
            (!best || v->start > best->start))
            best = v;
    }
    return best ? best->path : "top level";
}

static void test_truncated(void)
{
    bad_setup("StackedDrg2KiBV1_1");
    size_t ks[600], nk = 0;
    for (size_t k = 0; k < 150; k++)
        ks[nk++] = k, ks[nk++] = len - 1 - k;
    for (unsigned i = 0; i < 300 * tf_scale && nk < sizeof ks / sizeof ks[0]; i++)
        ks[nk++] = cz_prng_next(&tf_rng) % len;
    for (size_t i = 0; i < nk; i++)
        expect_err(doc, ks[i], CZ_ERR_BAD_FORMAT, cut_path(ks[i]), "unexpected end of input");
    /* and in the wrapper */
    size_t n;
    char *w = wrap(doc, len, 1, 2048, &n);
    for (size_t k = 0; k < n; k += n / 7)
        expect_err(w, k, CZ_ERR_BAD_FORMAT,
                   k < 28        ? "top level"
                   : k <= n - 20 ? "Phase1Out"
                                 : "top level",
                   "unexpected end of input");
    free(w);
    bad_teardown();
}

static void test_wrong_types(void)
{
    bad_setup("StackedDrg2KiBV1_1");
    for (unsigned i = 0; i < 400 * tf_scale; i++) {
        const jv *v = &vals.v[cz_prng_next(&tf_rng) % vals.n];
        const char *rep = v->type == '['              ? "{}"
                          : v->type == '{'            ? "[]"
                          : v->type == '"'            ? "0"
                          : v->type == 'n'            ? "\"x\""
                          : cz_prng_next(&tf_rng) % 2 ? "null"
                                                      : "[1]";
        size_t n;
        char *m = splice(doc, len, v->start, v->end, rep, &n);
        expect_err(m, n, CZ_ERR_BAD_FORMAT, v->path, "expected ");
        free(m);
    }
    bad_teardown();
}

/* r, the scalar field's modulus, little-endian (r - 1 is the largest
 * canonical value). */
static const char R_LE[] =
    "[1,0,0,0,255,255,255,255,254,91,254,255,2,164,189,83,5,216,161,9,8,216,57,51,72,125,157,41,"
    "83,167,237,115]";
static const char R_MINUS_1[] =
    "[0,0,0,0,255,255,255,255,254,91,254,255,2,164,189,83,5,216,161,9,8,216,57,51,72,125,157,41,"
    "83,167,237,115]";

#define P0 "vanilla_proofs.StackedDrg2KiBV1[0][0]"
#define P1 "vanilla_proofs.StackedDrg2KiBV1[0][1]"

static void test_bad_values(void)
{
    bad_setup("StackedDrg2KiBV1_1");
    /* bytes: 256, negative, fractions, exponents, leading zeros,
     * strings, too few and too many */
    const char *at = P1 ".comm_d_proofs.data.Single.path.path[3].hashes[0][7]";
    expect_replaced(at, "256", CZ_ERR_BAD_FORMAT, NULL, "256 is not a byte");
    expect_replaced(at, "-1", CZ_ERR_BAD_FORMAT, NULL, "-1 is not a byte");
    expect_replaced(at, "-0", CZ_ERR_BAD_FORMAT, NULL, "-0 is not a byte");
    expect_replaced(at, "1.0", CZ_ERR_BAD_FORMAT, NULL, "1.0 is not a byte");
    expect_replaced(at, "1e1", CZ_ERR_BAD_FORMAT, NULL, "1e1 is not a byte");
    expect_replaced(at, "1000", CZ_ERR_BAD_FORMAT, NULL, "1000 is not a byte");
    expect_replaced(at, "07", CZ_ERR_BAD_FORMAT, NULL, "leading zero");
    expect_replaced(at, "\"7\"", CZ_ERR_BAD_FORMAT, NULL, "expected a byte, found a string");
    for (unsigned i = 0; i < 100 * tf_scale; i++) {
        /* a random byte of a random D */
        const jv *v;
        do
            v = &vals.v[cz_prng_next(&tf_rng) % vals.n];
        while (v->type != '[' || v->end - v->start < 60 || doc[v->start + 1] < '0' ||
               doc[v->start + 1] > '9');
        char p[600];
        snprintf(p, sizeof p, "%s[%llu]", v->path,
                 (unsigned long long)(cz_prng_next(&tf_rng) % 32));
        expect_replaced(p, "256", CZ_ERR_BAD_FORMAT, NULL, "256 is not a byte");
        /* 31 and 33 bytes */
        char *t = text_of(doc, v), rep[512];
        char *comma = strrchr(t, ',');
        *comma = 0;
        snprintf(rep, sizeof rep, "%s]", t);
        expect_replaced(v->path, rep, CZ_ERR_BAD_FORMAT, NULL, "31 bytes, expected 32");
        *comma = ',';
        t[strlen(t) - 1] = 0;
        snprintf(rep, sizeof rep, "%s,0]", t);
        expect_replaced(v->path, rep, CZ_ERR_BAD_FORMAT, NULL, "more than 32 bytes");
        free(t);
    }
    /* r itself where a canonical Fr must be; r - 1 is accepted */
    static const char *const fr_at[] = {
        "comm_r",
        "comm_d",
        "replica_id",
        P0 ".comm_r_last_proof.data.Single.leaf",
        P0 ".comm_r_last_proof.data.Single.path.path[1].hashes[6]",
        P1 ".replica_column_proofs.c_x.column.rows[1]",
        P1
        ".replica_column_proofs.exp_parents[7].inclusion_proof.data.Single.path.path[0].hashes[3]",
        P1 ".replica_column_proofs.drg_parents[2].inclusion_proof.data.Single.leaf",
        P1 ".labeling_proofs[1].parents[36]",
        P0 ".encoding_proof.parents[0]",
    };
    for (size_t i = 0; i < sizeof fr_at / sizeof fr_at[0]; i++) {
        expect_replaced(fr_at[i], R_LE, CZ_ERR_NOT_CANONICAL, NULL,
                        "not a canonical field element");
        expect_accepted(fr_at[i], R_MINUS_1, "r - 1");
    }
    /* TreeD values are SHA-256 truncated to 254 bits: byte 31 < 0x40 */
    static const char *const sha_at[] = {
        P0 ".comm_d_proofs.data.Single.root",
        P0 ".comm_d_proofs.data.Single.leaf",
        P1 ".comm_d_proofs.data.Single.path.path[5].hashes[0]",
    };
    char d40[160], d3f[160];
    snprintf(d40, sizeof d40, "[" Z30 ",0,64]");
    snprintf(d3f, sizeof d3f, "[" Z30 ",0,63]");
    for (size_t i = 0; i < sizeof sha_at / sizeof sha_at[0]; i++) {
        expect_replaced(sha_at[i], d40, CZ_ERR_NOT_CANONICAL, NULL, "byte 31 is 64");
        expect_accepted(sha_at[i], d3f, "0x3f");
    }
    /* seed and ticket are any 32 bytes */
    expect_accepted("seed", R_LE, "r");
    /* indexes below their arity; u32 / u64 ranges */
    expect_replaced(P0 ".comm_d_proofs.data.Single.path.path[0].index", "2", CZ_ERR_BAD_FORMAT,
                    NULL, "index 2 is not below the arity 2");
    expect_replaced(P1 ".comm_r_last_proof.data.Single.path.path[1].index", "8", CZ_ERR_BAD_FORMAT,
                    NULL, "index 8 is not below the arity 8");
    expect_replaced(P1 ".replica_column_proofs.drg_parents[0].inclusion_proof.data.Single.path"
                       ".path[0].index",
                    "18446744073709551616", CZ_ERR_BAD_FORMAT, NULL, "is not a usize");
    expect_replaced(P0 ".replica_column_proofs.c_x.column.index", "4294967296", CZ_ERR_BAD_FORMAT,
                    NULL, "4294967296 is not a u32");
    expect_replaced(P0 ".replica_column_proofs.c_x.column.index", "64", CZ_ERR_BAD_FORMAT, NULL,
                    "node 64 is past a 2KiB sector's 64");
    expect_replaced(P0 ".labeling_proofs[0].node", "64", CZ_ERR_BAD_FORMAT, NULL, "node 64");
    expect_replaced(P0 ".labeling_proofs[1].layer_index", "1", CZ_ERR_BAD_FORMAT, NULL,
                    "layer 1, expected 2");
    expect_replaced(P0 ".encoding_proof.layer_index", "1", CZ_ERR_BAD_FORMAT, NULL,
                    "layer 1, expected 2");
    expect_replaced(P0 ".replica_column_proofs.c_x.column._h", "0", CZ_ERR_BAD_FORMAT, NULL,
                    "expected null");
    expect_replaced(P0 ".replica_column_proofs.c_x.column._h", "nul", CZ_ERR_BAD_FORMAT, NULL,
                    "invalid literal");
    /* roots: comm_c and comm_r_last one value in every proof */
    char other[160], *o = other; /* [1, 2, 3, 0 x 29] */
    o += sprintf(o, "[1,2,3");
    for (int i = 0; i < 29; i++)
        o += sprintf(o, ",0");
    sprintf(o, "]");
    expect_replaced(P1 ".replica_column_proofs.c_x.inclusion_proof.data.Single.root", other,
                    CZ_ERR_BAD_FORMAT, NULL,
                    "comm_c differs from TreeC's root (" P0
                    ".replica_column_proofs.c_x.inclusion_proof.data.Single.root)");
    expect_replaced(P0 ".replica_column_proofs.exp_parents[3].inclusion_proof.data.Single.root",
                    other, CZ_ERR_BAD_FORMAT, NULL, "comm_c differs");
    expect_replaced(P1 ".comm_r_last_proof.data.Single.root", other, CZ_ERR_BAD_FORMAT, NULL,
                    "comm_r_last differs from TreeR's root");
    bad_teardown();
}

/* The text of the value at path with element i removed (del) or doubled. */
static char *edit_array(const char *path, size_t i, bool del, size_t *n)
{
    char p[600];
    snprintf(p, sizeof p, "%s[%zu]", path, i);
    const jv *e = find(&vals, p);
    if (del) {
        /* with the comma before it, or after it for the first */
        size_t a = e->start, b = e->end;
        if (doc[a - 1] == ',')
            a--;
        else if (doc[b] == ',')
            b++;
        return splice(doc, len, a, b, "", n);
    }
    char *t = text_of(doc, e), *rep = malloc(2 * strlen(t) + 2);
    sprintf(rep, "%s,%s", t, t);
    char *m = splice(doc, len, e->start, e->end, rep, n);
    free(t);
    free(rep);
    return m;
}

/* path with one element fewer and one more: "N what, expected E" and
 * "more than E what" at path. */
static void expect_counts_(const char *file, int line, const char *path, const char *what,
                           unsigned expected)
{
    char msg[128];
    size_t n;
    char *m = edit_array(path, expected - 1, true, &n);
    snprintf(msg, sizeof msg, "%u %s, expected %u", expected - 1, what, expected);
    expect_err_(file, line, m, n, CZ_ERR_BAD_FORMAT, "", path, msg);
    free(m);
    m = edit_array(path, expected - 1, false, &n);
    snprintf(msg, sizeof msg, "more than %u %s", expected, what);
    expect_err_(file, line, m, n, CZ_ERR_BAD_FORMAT, "", path, msg);
    free(m);
}
#define expect_counts(path, what, expected) expect_counts_(__FILE__, __LINE__, path, what, expected)

static void test_bad_counts(void)
{
    bad_setup("StackedDrg2KiBV1_1");
    expect_counts("vanilla_proofs.StackedDrg2KiBV1", "partitions", 1);
    expect_counts("vanilla_proofs.StackedDrg2KiBV1[0]", "challenges", 2);
    expect_counts(P0 ".comm_d_proofs.data.Single.path.path", "levels", 6);
    expect_counts(P1 ".comm_r_last_proof.data.Single.path.path", "levels", 2);
    expect_counts(P1 ".replica_column_proofs.exp_parents[4].inclusion_proof.data.Single.path.path",
                  "levels", 2);
    expect_counts(P0 ".comm_d_proofs.data.Single.path.path[4].hashes", "hashes", 1);
    expect_counts(P0 ".comm_r_last_proof.data.Single.path.path[0].hashes", "hashes", 7);
    expect_counts(P1 ".replica_column_proofs.c_x.inclusion_proof.data.Single.path.path[1].hashes",
                  "hashes", 7);
    expect_counts(P1 ".replica_column_proofs.drg_parents[5].column.rows", "rows", 2);
    expect_counts(P1 ".labeling_proofs", "labeling proofs", 2);
    expect_counts(P0 ".labeling_proofs[0].parents", "parents", 37);
    expect_counts(P0 ".encoding_proof.parents", "parents", 37);
    expect_counts(P0 ".replica_column_proofs.drg_parents", "drg_parents", 6);
    expect_counts(P0 ".replica_column_proofs.exp_parents", "exp_parents", 8);
    expect_replaced("vanilla_proofs.StackedDrg2KiBV1", "[]", CZ_ERR_BAD_FORMAT, NULL,
                    "0 partitions, expected 1");
    /* labeling proofs in layer order */
    {
        const jv *a = find(&vals, P0 ".labeling_proofs[0]"),
                 *b = find(&vals, P0 ".labeling_proofs[1]");
        char *ta = text_of(doc, a), *tb = text_of(doc, b);
        char *rep = malloc(strlen(ta) + strlen(tb) + 4);
        sprintf(rep, "[%s,%s]", tb, ta);
        expect_replaced(P0 ".labeling_proofs", rep, CZ_ERR_BAD_FORMAT,
                        P0 ".labeling_proofs[0].layer_index", "layer 2, expected 1");
        free(ta);
        free(tb);
        free(rep);
    }
    /* a path of a million elements is refused at the seventh, at once and
     * in little memory; so are a million hashes and a million rows */
    static const char *const huge[] = {
        P0 ".comm_d_proofs.data.Single.path.path",
        P0 ".comm_d_proofs.data.Single.path.path[0].hashes",
        P0 ".replica_column_proofs.c_x.column.rows",
        "vanilla_proofs.StackedDrg2KiBV1",
    };
    for (size_t h = 0; h < sizeof huge / sizeof huge[0]; h++) {
        char p[600];
        snprintf(p, sizeof p, "%s[0]", huge[h]);
        const jv *arr = find(&vals, huge[h]), *e = find(&vals, p);
        size_t el = e->end - e->start, count = h == 3 ? 1000 : 1000000;
        size_t total = 2 + count * (el + 1);
        char *rep = malloc(total + 1), *o = rep;
        *o++ = '[';
        for (size_t i = 0; i < count; i++) {
            memcpy(o, doc + e->start, el);
            o += el;
            *o++ = i + 1 < count ? ',' : ']';
        }
        *o = 0;
        size_t n;
        char *m = splice(doc, len, arr->start, arr->end, rep, &n);
        free(rep);
        tracked tr;
        tracked_new(&tr, 1ull << 30);
        cz_fc_c1 c1;
        double t0 = now_s();
        int rc = cz_fc_c1_read(&c1, (const uint8_t *)m, n, &tr.ra.a, err, sizeof err);
        double dt = now_s() - t0;
        cz_buf_class_stats in = tracked_input(&tr);
        char ep[600];
        err_path(ep, sizeof ep, err, "");
        TF_CHECK_MSG(rc == CZ_ERR_BAD_FORMAT && strcmp(ep, huge[h]) == 0 &&
                         strstr(err, "more than"),
                     "%s: %s", huge[h], err);
        /* refused before reading the element past the limit: a 2KiB C1's
         * worth of memory, at most, and well under a millisecond a MB */
        TF_CHECK_MSG(in.high_water_bytes < (1u << 20), "%s: %llu bytes at the peak", huge[h],
                     (unsigned long long)in.high_water_bytes);
        TF_CHECK_MSG(dt < 0.5, "%s: %.3f s to refuse %zu bytes", huge[h], dt, n);
        TF_CHECK(in.live_bytes == 0);
        tracked_free(&tr);
        free(m);
    }
    bad_teardown();
}

static void test_bad_structure(void)
{
    bad_setup("StackedDrg2KiBV1_1");
    size_t n;
    char *m;
    /* registered proofs: unknown, another shape, NI partitions */
    expect_replaced("registered_proof", "\"StackedDrg2KiBV1_9\"", CZ_ERR_UNSUPPORTED, NULL,
                    "unknown registered proof \"StackedDrg2KiBV1_9\"");
    expect_replaced("registered_proof", "\"StackedDrg8MiBV1_1\"", CZ_ERR_BAD_FORMAT,
                    "vanilla_proofs",
                    "variant StackedDrg2KiBV1, but registered_proof "
                    "StackedDrg8MiBV1_1 has StackedDrg8MiBV1");
    expect_replaced("registered_proof", "\"StackedDrg2KiBV1_2_Feat_NonInteractivePoRep\"",
                    CZ_ERR_BAD_FORMAT, "vanilla_proofs.StackedDrg2KiBV1",
                    "1 partitions, expected 13");
    /* registered_proof after vanilla_proofs: the mismatch named there */
    {
        m = reversed(doc, len, "top level", &n);
        jvs rv = walk_doc(m);
        const jv *v = find(&rv, "registered_proof");
        size_t n2;
        char *m2 = splice(m, n, v->start, v->end, "\"StackedDrg512MiBV1\"", &n2);
        expect_err(m2, n2, CZ_ERR_BAD_FORMAT, "registered_proof",
                   "registered_proof StackedDrg512MiBV1 has vanilla_proofs StackedDrg512MiBV1, "
                   "this C1 has StackedDrg2KiBV1");
        free(m2);
        m2 = splice(m, n, v->start, v->end, "\"StackedDrg2KiBV1_2_Feat_NonInteractivePoRep\"", &n2);
        expect_err(m2, n2, CZ_ERR_BAD_FORMAT, "registered_proof",
                   "1 partitions, StackedDrg2KiBV1_2");
        free(m2);
        jvs_free(&rv);
        free(m);
    }
    /* variants: unknown, of another shape, a second member, none */
    {
        const jv *v = find(&vals, "vanilla_proofs");
        m = splice(doc, len, v->start + 2, v->start + 2 + 16, "StackedDrg4KiBV1", &n);
        expect_err(m, n, CZ_ERR_BAD_FORMAT, "vanilla_proofs",
                   "unknown variant `StackedDrg4KiBV1` of VanillaSealProof");
        free(m);
        m = splice(doc, len, v->start + 2, v->start + 2 + 16, "StackedDrg8MiBV1", &n);
        expect_err(m, n, CZ_ERR_BAD_FORMAT, "vanilla_proofs", "variant StackedDrg8MiBV1");
        free(m);
        m = splice(doc, len, v->end - 1, v->end, ",\"StackedDrg2KiBV1\":[]}", &n);
        expect_err(m, n, CZ_ERR_BAD_FORMAT, "vanilla_proofs", "expected '}' after the variant");
        free(m);
    }
    expect_replaced(P0 ".comm_d_proofs.data", "{}", CZ_ERR_BAD_FORMAT, NULL, "an empty object");
    expect_replaced(P0 ".comm_d_proofs.data", "{\"Double\":0}", CZ_ERR_BAD_FORMAT, NULL,
                    "unknown variant `Double` of ProofData, expected one of Single, Sub, Top");
    {
        /* a Sub proof where the shape has Single ones */
        const jv *v = find(&vals, P1 ".comm_r_last_proof.data");
        m = splice(doc, len, v->start + 2, v->start + 8, "Sub", &n);
        expect_err(m, n, CZ_ERR_BAD_FORMAT, P1 ".comm_r_last_proof.data",
                   "a Sub proof, but the 2KiB TreeR has Single ones");
        free(m);
    }
    /* members: missing, twice, unknown ignored; trailing text */
    {
        const jv *v = find(&vals, P0 ".replica_column_proofs.c_x.column._h");
        m = splice(doc, len, v->start - 6, v->end, "", &n); /* ,"_h":null */
        expect_err(m, n, CZ_ERR_BAD_FORMAT, P0 ".replica_column_proofs.c_x.column",
                   "missing field `_h`");
        free(m);
        m = splice(doc, len, v->end, v->end, ",\"_h\":null", &n);
        expect_err(m, n, CZ_ERR_BAD_FORMAT, P0 ".replica_column_proofs.c_x.column",
                   "duplicate field `_h`");
        free(m);
        m = splice(doc, len, v->end, v->end, ",\"_hh\":[{\"x\":}]", &n);
        expect_err(m, n, CZ_ERR_BAD_FORMAT, P0 ".replica_column_proofs.c_x.column._hh[0].x",
                   "expected a value");
        free(m);
        m = splice(doc, len, len, len, " x", &n);
        expect_err(m, n, CZ_ERR_BAD_FORMAT, "top level", "trailing characters");
        free(m);
        m = splice(doc, len, 0, 1, "{\"registered_proof\":\"StackedDrg2KiBV1_1\",", &n);
        expect_err(m, n, CZ_ERR_BAD_FORMAT, "top level", "duplicate field `registered_proof`");
        free(m);
    }
    /* strings: control characters, bad escapes, bad UTF-8, lone surrogates */
    static const char *const bad_str[][2] = {
        {"\"a\x01\"", "control character"},      {"\"\\x\"", "invalid escape"},
        {"\"\\u12G4\"", "invalid \\u escape"},   {"\"\xc3\x28\"", "invalid UTF-8"},
        {"\"\xed\xa0\x80\"", "invalid UTF-8"},   {"\"\\udc00\"", "lone low surrogate"},
        {"\"\\ud800x\"", "lone high surrogate"}, {"\"\\ud800\\u0041\"", "lone high surrogate"},
    };
    for (size_t i = 0; i < sizeof bad_str / sizeof bad_str[0]; i++)
        expect_replaced("registered_proof", bad_str[i][0], CZ_ERR_BAD_FORMAT, NULL, bad_str[i][1]);
    /* nesting: an ignored member 200 deep */
    {
        char deep[512];
        size_t k = 0;
        k += (size_t)sprintf(deep, ",\"deep\":");
        for (int i = 0; i < 200; i++)
            deep[k++] = '[';
        for (int i = 0; i < 200; i++)
            deep[k++] = ']';
        deep[k] = 0;
        m = splice(doc, len, len - 1, len - 1, deep, &n);
        cz_fc_c1 c1;
        TF_CHECK(read_exact(&c1, m, n) == CZ_ERR_BAD_FORMAT && strstr(err, "nested more than 128"));
        free(m);
    }
    /* not JSON at all */
    expect_err("", 0, CZ_ERR_BAD_FORMAT, "top level", "unexpected end of input");
    expect_err("[]", 2, CZ_ERR_BAD_FORMAT, "top level", "expected an object, found an array");
    expect_err("{}", 2, CZ_ERR_BAD_FORMAT, "top level", "missing field `registered_proof`");
    expect_err("\xef\xbb\xbf{}", 5, CZ_ERR_BAD_FORMAT, "top level", "expected an object");
    bad_teardown();
}

static void test_bad_base64(void)
{
    static const char *const cases[][2] = {
        {"QUJD*EVG", "a symbol outside the alphabet at offset 4"},
        {"QUJDREV", "a length that is not a multiple of 4"},
        {"QQ=A", "misplaced padding at offset 2"},
        {"Q===", "misplaced padding"},
        {"QQ==QUJD", "misplaced padding at offset 2"},
        {"QR==", "non-zero unused bits in the last symbol at offset 1"},
        {"QUF=", "non-zero unused bits in the last symbol at offset 2"},
        {"QUJD\\nREVG", "a symbol outside the alphabet at offset 4"},
        {"QUJD REVG", "a symbol outside the alphabet at offset 4"},
        {"QUJDREVG-_", "a symbol outside the alphabet at offset 8"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char w[256];
        int n = snprintf(w, sizeof w, "{\"SectorNum\":1,\"Phase1Out\":\"%s\",\"SectorSize\":2048}",
                         cases[i][0]);
        char msg[160];
        snprintf(msg, sizeof msg, "invalid base64: %s", cases[i][1]);
        expect_err_(__FILE__, __LINE__, w, (size_t)n, CZ_ERR_BAD_FORMAT,
                    "Phase1Out: ", "invalid base64", msg);
    }
    /* valid base64 of something that is not a C1 */
    expect_err_(__FILE__, __LINE__, "{\"SectorNum\":1,\"Phase1Out\":\"W10=\",\"SectorSize\":2048}",
                52, CZ_ERR_BAD_FORMAT, "Phase1Out: ", "top level", "expected an object");
    expect_err_(__FILE__, __LINE__, "{\"SectorNum\":1,\"Phase1Out\":\"\",\"SectorSize\":2048}", 48,
                CZ_ERR_BAD_FORMAT, "Phase1Out: ", "top level", "unexpected end of input");
    /* the encoder and decoder agree on every length */
    for (size_t n = 0; n < 70; n++) {
        uint8_t in[70], back[70];
        char enc[100];
        size_t got;
        cz_prng_bytes(&tf_rng, in, n);
        cz_base64_encode(enc, in, n);
        TF_CHECK(cz_base64_decode(back, &got, enc, cz_base64_encoded_len(n), NULL, NULL) == CZ_OK &&
                 got == n && memcmp(in, back, n) == 0);
    }
    /* RFC 4648's test vectors */
    static const char *const rfc[][2] = {{"", ""},
                                         {"f", "Zg=="},
                                         {"fo", "Zm8="},
                                         {"foo", "Zm9v"},
                                         {"foob", "Zm9vYg=="},
                                         {"fooba", "Zm9vYmE="},
                                         {"foobar", "Zm9vYmFy"}};
    for (size_t i = 0; i < 7; i++) {
        char enc[16] = {0};
        cz_base64_encode(enc, (const uint8_t *)rfc[i][0], strlen(rfc[i][0]));
        TF_CHECK(strcmp(enc, rfc[i][1]) == 0);
    }
}

/* ------------------------------------------------------ messages --- */

/* An unknown member nested depth deep, each key a copy of a long path,
 * cut off inside: the message must keep its end within err's size. */
static char *deep_unknown(unsigned depth, size_t *n)
{
    static const char key[] = "vanilla_proofs.StackedDrg2KiBV1[0][0].replica_column_proofs.c_x";
    char *o = malloc(depth * (sizeof key + 8) + 64);
    size_t k = (size_t)sprintf(o, "{\"SectorNum\":0,\"Phase5Out\":");
    for (unsigned i = 0; i < depth; i++)
        k += (size_t)sprintf(o + k, "{\"%s\":", key);
    k += (size_t)sprintf(o + k, "[1,");
    *n = k;
    return o;
}

/* What fuzz_c1 found: a message must name a path even for an empty key,
 * keep its end when the path is long, and "Phase1Out" is also the path of
 * the wrapper's own string. */
static void test_messages(void)
{
    char small[512];
    cz_fc_c1 c1;
    int rc = cz_fc_c1_read(&c1, (const uint8_t *)"{\"\":\x02}", 6, NULL, small, sizeof small);
    TF_CHECK_MSG(rc == CZ_ERR_BAD_FORMAT && strncmp(small, "\"\": expected a value", 20) == 0, "%s",
                 small);
    size_t n;
    char *d = deep_unknown(60, &n);
    rc = cz_fc_c1_read(&c1, (const uint8_t *)d, n, NULL, small, sizeof small);
    size_t l = strlen(small);
    TF_CHECK_MSG(rc == CZ_ERR_BAD_FORMAT && l < sizeof small && small[l - 1] == ')' &&
                     strstr(small, "...") && strstr(small, ".replica_co...: unexpected end of input"),
                 "%s", small);
    free(d);
    rc = cz_fc_c1_read(&c1, (const uint8_t *)"{\"SectorNum\":1,\"Phase1Out\":\"e\x04\"}", 31, NULL,
                       small, sizeof small);
    TF_CHECK_MSG(rc == CZ_ERR_BAD_FORMAT &&
                     strncmp(small, "Phase1Out: a control character (0x04) in a string", 49) == 0,
                 "%s", small);
    /* a message cut to a tiny buffer is still a NUL-terminated prefix */
    rc = cz_fc_c1_read(&c1, (const uint8_t *)"[]", 2, NULL, small, 8);
    TF_CHECK(rc == CZ_ERR_BAD_FORMAT && strcmp(small, "top lev") == 0);
}

/* ---------------------------------------------------- fuzz seeds --- */

/* The seeds of fuzz/fuzz_c1.c: 2KiB C1s of each feature and one wrapped,
 * from a fixed generator seed. */
static int write_seeds(const char *dir)
{
    static const char *const types[] = {"StackedDrg2KiBV1", "StackedDrg2KiBV1_1",
                                        "StackedDrg2KiBV1_1_Feat_SyntheticPoRep"};
    static const char *const names[] = {"v1_0.json", "v1_1.json", "synthetic.json"};
    int bad = 0;
    mkdir(dir, 0755);
    cz_prng_seed(&tf_rng, 1);
    for (int i = 0; i < 3; i++) {
        cz_fc_c1 c1;
        char *j;
        size_t n;
        make_c1(&c1, cz_fc_proof_by_name(types[i]));
        if (cz_fc_c1_write(&c1, &j, &n) != CZ_OK)
            return 1;
        bad |= tf_write_file(dir, names[i], j, n);
        if (i == 1) {
            size_t wn;
            char *w = wrap(j, n, 1, 2048, &wn);
            bad |= tf_write_file(dir, "wrapped.json", w, wn);
            free(w);
        }
        free(j);
        cz_fc_c1_free(&c1);
    }
    bad |= tf_write_file(dir, "empty_wrapper.json",
                         "{\"SectorNum\":0,\"Phase1Out\":\"e30=\",\"SectorSize\":2048}", 50);
    /* what the fuzzer found (test_messages) */
    bad |= tf_write_file(dir, "empty_key.json", "{\"\":\x02}", 6);
    size_t n;
    char *d = deep_unknown(60, &n);
    bad |= tf_write_file(dir, "deep_unknown.json", d, n);
    free(d);
    return bad;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "--write-seeds") == 0)
        return write_seeds(argv[2]);
    static const tf_test tests[] = {
        TF_TEST(test_tree_shape),    TF_TEST(test_format_pinned), TF_TEST(test_roundtrip_small),
        TF_TEST(test_spellings),     TF_TEST(test_truncated),     TF_TEST(test_wrong_types),
        TF_TEST(test_bad_values),    TF_TEST(test_bad_counts),    TF_TEST(test_bad_structure),
        TF_TEST(test_bad_base64),    TF_TEST(test_messages),      TF_TEST(test_roundtrip_32g),
        TF_TEST(test_roundtrip_64g),
    };
    int rc = tf_run(argc, argv, tests, sizeof tests / sizeof tests[0]);
    printf("test_fc_c1: %d error messages checked\n", n_expect);
    return rc;
}
