/* The C1 (SealCommitPhase1Output) in memory and its reader (see
 * cuzk/filecoin/porep.h; the format and where each fact comes from are in
 * docs/filecoin.md, "C1 format").
 *
 * The reader is recursive descent over util/json_read.h's pull reader: each
 * function reads one type of the Rust model and validates it as it goes,
 * into arrays sized by the shape before a value of them is read, so a
 * hostile count is refused at the first element past the shape's and
 * nothing is allocated from a count in the input.
 *
 * What it accepts, from serde's derived Deserialize and serde_json: the
 * members of an object in any order, each at most once, the unknown ones
 * read and ignored, none missing; an enum as {"Variant": value}; a
 * PhantomData (Column's _h) as null.  What it refuses although serde_json
 * takes it: a struct written as an array of its fields, a unit variant
 * written {"Name": null} (no serializer writes either), and every value the
 * shape does not allow (see cz_fc_c1_read). */
#include <stdio.h>
#include <string.h>

#include "cuzk/err.h"
#include "cuzk/filecoin/porep.h"
#include "util/base64.h"
#include "util/json_read.h"

/* ----------------------------------------------------------- memory --- */

struct cz_fc_chunk {
    struct cz_fc_chunk *next;
    size_t size, used; /* of the bytes after the header */
};

#define CHUNK_HDR ((sizeof(struct cz_fc_chunk) + 15) & ~(size_t)15)
#define CHUNK_MIN ((size_t)16 << 10)
#define CHUNK_MAX ((size_t)4 << 20)

static const cz_allocator *c1_allocator(const cz_fc_c1 *c1)
{
    return c1->alloc ? c1->alloc : &cz_allocator_default;
}

/* A chunk of `size` usable bytes, linked behind the head (so the head
 * keeps serving small requests) or as the head. */
static struct cz_fc_chunk *chunk_new(cz_fc_c1 *c1, size_t size, int as_head)
{
    if (size > SIZE_MAX - CHUNK_HDR)
        return NULL;
    struct cz_fc_chunk *ch = cz_alloc(c1_allocator(c1), CZ_BUF_INPUT, CHUNK_HDR + size);
    if (!ch)
        return NULL;
    ch->size = size;
    ch->used = 0;
    if (as_head || !c1->chunks) {
        ch->next = c1->chunks;
        c1->chunks = ch;
    } else {
        ch->next = c1->chunks->next;
        c1->chunks->next = ch;
    }
    c1->mem_bytes += CHUNK_HDR + size;
    return ch;
}

/* Bump allocation, 16-byte aligned.  A new chunk is half the memory taken
 * so far (16 KiB to 4 MiB), so at most a third of it is ever unused; a
 * request of a quarter chunk or more gets a chunk of its own. */
void *cz_fc_c1_alloc(cz_fc_c1 *c1, size_t bytes)
{
    if (bytes > SIZE_MAX - 15)
        return NULL;
    bytes = bytes ? (bytes + 15) & ~(size_t)15 : 16;
    struct cz_fc_chunk *ch = c1->chunks;
    if (!ch || ch->size - ch->used < bytes) {
        size_t want = c1->mem_bytes / 2;
        want = want < CHUNK_MIN ? CHUNK_MIN : want > CHUNK_MAX ? CHUNK_MAX : want;
        if (bytes >= want / 4) {
            ch = chunk_new(c1, bytes, 0);
        } else {
            ch = chunk_new(c1, want, 1);
        }
        if (!ch)
            return NULL;
    }
    uint8_t *p = (uint8_t *)ch + CHUNK_HDR + ch->used;
    ch->used += bytes;
    memset(p, 0, bytes);
    return p;
}

void cz_fc_c1_free(cz_fc_c1 *c1)
{
    if (!c1)
        return;
    const cz_allocator *a = c1_allocator(c1);
    for (struct cz_fc_chunk *ch = c1->chunks, *next; ch; ch = next) {
        next = ch->next;
        cz_free(a, ch, CHUNK_HDR + ch->size);
    }
    memset(c1, 0, sizeof *c1);
}

/* ----------------------------------------------------------- reader --- */

typedef enum {
    D_ANY, /* seed, ticket */
    D_FR,  /* a canonical Fr: comm_r, comm_d, replica_id, rows, labels, TreeR/TreeC */
    D_SHA  /* TreeD: SHA-256 truncated to 254 bits (byte 31 < 0x40) */
} d_kind;

typedef enum { ROLE_D, ROLE_R, ROLE_C } tree_role; /* TreeD, TreeR (comm_r_last), TreeC (comm_c) */

typedef struct {
    cz_jr r;
    cz_fc_c1 *c1;
    const cz_fc_shape *shape;     /* from vanilla_proofs' variant */
    const cz_fc_proof_type *type; /* from registered_proof */
    uint64_t nodes;
    bool have_root[3];
    cz_fc_d root[3]; /* the first comm_c and comm_r_last seen ([ROLE_R], [ROLE_C]) */
    char root_at[3][160];
} rd;

#define NOMEM(d) cz_jr_fail(&(d)->r, CZ_ERR_NOMEM, "out of memory")

static int read_d(rd *d, d_kind k, cz_fc_d *out)
{
    if (cz_jr_d32(&d->r, out->b))
        return d->r.rc;
    if (k == D_FR) {
        cz_fr f;
        if (cz_fr_from_bytes_le(&f, out->b) != CZ_OK)
            return cz_jr_fail(&d->r, CZ_ERR_NOT_CANONICAL,
                              "not a canonical field element (it is >= r)");
    } else if (k == D_SHA && out->b[31] >= 0x40) {
        return cz_jr_fail(&d->r, CZ_ERR_NOT_CANONICAL,
                          "byte 31 is %u: a TreeD value is SHA-256 truncated to 254 bits "
                          "(byte 31 < 64)",
                          out->b[31]);
    }
    return CZ_OK;
}

/* A field's value: CZ_OK after the value, with its frame popped. */
#define FIELD_END(d)                                                                               \
    do {                                                                                           \
        if ((d)->r.rc)                                                                             \
            return (d)->r.rc;                                                                      \
        cz_jr_pop(&(d)->r);                                                                        \
    } while (0)

/* Walks the members of an object: `f` is each known member's index. */
#define FOR_FIELDS(d, o, names, f)                                                                 \
    for (int f; ((f) = cz_jr_obj_next(&(d)->r, &(o), (names),                                      \
                                      (unsigned)(sizeof(names) / sizeof(names)[0]))) >= 0;)

#define FIELDS_DONE(d, o, names)                                                                   \
    ((d)->r.rc ? (d)->r.rc                                                                         \
               : cz_jr_obj_require(&(d)->r, &(o), (names), 0,                                      \
                                   (unsigned)(sizeof(names) / sizeof(names)[0])))

/* ---- merkle proofs (storage-proofs-core merkle/proof.rs) ---- */

static const char *const EL_FIELDS[] = {"hashes", "index"};
static const char *const PATH_FIELDS[] = {"path"};
static const char *const MP_FIELDS[] = {"data"};
static const char *const FORMS[] = {"Single", "Sub", "Top"};
static const char *const SINGLE_FIELDS[] = {"root", "leaf", "path"};
static const char *const SUB_FIELDS[] = {"base_proof", "sub_proof", "root", "leaf"};
static const char *const TOP_FIELDS[] = {"base_proof", "sub_proof", "top_proof", "root", "leaf"};

static const char *const TREE_NAME[] = {"TreeD", "TreeR", "TreeC"};

/* PathElement {"hashes": [D; arity - 1], "index": usize < arity}. */
static int read_el(rd *d, cz_fc_path_el *el, d_kind k)
{
    cz_jr_obj o;
    if (cz_jr_obj_begin(&d->r, &o))
        return d->r.rc;
    FOR_FIELDS(d, o, EL_FIELDS, f)
    {
        if (f == 0) {
            cz_jr_arr a;
            if (cz_jr_arr_begin(&d->r, &a))
                return d->r.rc;
            while (cz_jr_arr_next(&d->r, &a, el->arity - 1u, "hashes") == 1) {
                read_d(d, k, &el->hashes[a.n - 1]);
                FIELD_END(d);
            }
            cz_jr_arr_count(&d->r, &a, el->arity - 1u, "hashes");
        } else {
            uint64_t v = 0;
            if (cz_jr_uint(&d->r, UINT64_MAX, "usize", &v) == CZ_OK && v >= el->arity)
                cz_jr_fail(&d->r, CZ_ERR_BAD_FORMAT, "index %llu is not below the arity %u",
                           (unsigned long long)v, el->arity);
            el->index = (uint8_t)v;
        }
        FIELD_END(d);
    }
    return FIELDS_DONE(d, o, EL_FIELDS);
}

/* InclusionPath {"path": [PathElement; n]} into lv[0..n). */
static int read_path(rd *d, cz_fc_path_el *lv, unsigned n, d_kind k)
{
    cz_jr_obj o;
    if (cz_jr_obj_begin(&d->r, &o))
        return d->r.rc;
    FOR_FIELDS(d, o, PATH_FIELDS, f)
    {
        cz_jr_arr a;
        if (cz_jr_arr_begin(&d->r, &a))
            return d->r.rc;
        while (cz_jr_arr_next(&d->r, &a, n, "levels") == 1) {
            read_el(d, &lv[a.n - 1], k);
            FIELD_END(d);
        }
        cz_jr_arr_count(&d->r, &a, n, "levels");
        FIELD_END(d);
    }
    return FIELDS_DONE(d, o, PATH_FIELDS);
}

/* A root: comm_r_last and comm_c must be one value in every proof. */
static int read_root(rd *d, tree_role role, cz_fc_d *root)
{
    if (read_d(d, role == ROLE_D ? D_SHA : D_FR, root))
        return d->r.rc;
    if (role == ROLE_D)
        return CZ_OK;
    if (!d->have_root[role]) {
        d->have_root[role] = true;
        d->root[role] = *root;
        cz_jr_path(&d->r, d->root_at[role], sizeof d->root_at[role]);
        return CZ_OK;
    }
    if (memcmp(d->root[role].b, root->b, 32) != 0)
        return cz_jr_fail(&d->r, CZ_ERR_BAD_FORMAT, "%s differs from %s's root (%s)",
                          role == ROLE_C ? "comm_c" : "comm_r_last",
                          role == ROLE_C ? "TreeC" : "TreeR", d->root_at[role]);
    return CZ_OK;
}

/* MerkleProof {"data": ProofData}, ProofData = {"Single": {root, leaf,
 * path}} | {"Sub": {base_proof, sub_proof, root, leaf}} | {"Top":
 * {base_proof, sub_proof, top_proof, root, leaf}} with the form, levels
 * and arities of the shape's tree. */
static int read_mp(rd *d, tree_role role, cz_fc_merkle_proof *mp)
{
    cz_fc_tree_kind kind = role == ROLE_D ? CZ_FC_TREE_D : CZ_FC_TREE_RC;
    d_kind k = role == ROLE_D ? D_SHA : D_FR;
    const cz_fc_shape *s = d->shape;
    unsigned n = cz_fc_tree_levels(kind, s), hashes = 0;
    for (unsigned l = 0; l < n; l++)
        hashes += cz_fc_tree_arity(kind, s, l) - 1;
    mp->form = cz_fc_tree_form(kind, s);
    mp->n_levels = n;
    mp->levels = cz_fc_c1_alloc(d->c1, n * sizeof *mp->levels);
    cz_fc_d *h = cz_fc_c1_alloc(d->c1, hashes * sizeof *h);
    if (!mp->levels || !h)
        return NOMEM(d);
    for (unsigned l = 0; l < n; l++) {
        mp->levels[l].arity = (uint8_t)cz_fc_tree_arity(kind, s, l);
        mp->levels[l].hashes = h;
        h += mp->levels[l].arity - 1;
    }
    /* the base levels, then one sub level, then one top level */
    unsigned extra = mp->form == CZ_FC_PROOF_TOP ? 2 : mp->form == CZ_FC_PROOF_SUB ? 1 : 0;
    unsigned base = n - extra;

    cz_jr_obj o;
    if (cz_jr_obj_begin(&d->r, &o))
        return d->r.rc;
    FOR_FIELDS(d, o, MP_FIELDS, f)
    {
        int form = cz_jr_variant(&d->r, FORMS, 3, "ProofData");
        if (form < 0)
            return d->r.rc;
        if ((cz_fc_proof_form)form != mp->form) {
            cz_jr_pop(&d->r);
            return cz_jr_fail(&d->r, CZ_ERR_BAD_FORMAT, "a %s proof, but the %s %s has %s ones",
                              FORMS[form], s->name, TREE_NAME[role], FORMS[mp->form]);
        }
        cz_jr_obj p;
        if (cz_jr_obj_begin(&d->r, &p))
            return d->r.rc;
        if (mp->form == CZ_FC_PROOF_SINGLE) {
            FOR_FIELDS(d, p, SINGLE_FIELDS, g)
            {
                if (g == 0)
                    read_root(d, role, &mp->root);
                else if (g == 1)
                    read_d(d, k, &mp->leaf);
                else
                    read_path(d, mp->levels, n, k);
                FIELD_END(d);
            }
            if (FIELDS_DONE(d, p, SINGLE_FIELDS))
                return d->r.rc;
        } else if (mp->form == CZ_FC_PROOF_SUB) {
            FOR_FIELDS(d, p, SUB_FIELDS, g)
            {
                if (g == 0)
                    read_path(d, mp->levels, base, k);
                else if (g == 1)
                    read_path(d, mp->levels + base, 1, k);
                else if (g == 2)
                    read_root(d, role, &mp->root);
                else
                    read_d(d, k, &mp->leaf);
                FIELD_END(d);
            }
            if (FIELDS_DONE(d, p, SUB_FIELDS))
                return d->r.rc;
        } else {
            FOR_FIELDS(d, p, TOP_FIELDS, g)
            {
                if (g <= 2)
                    read_path(d, mp->levels + (g == 0 ? 0 : base + (unsigned)g - 1),
                              g == 0 ? base : 1, k);
                else if (g == 3)
                    read_root(d, role, &mp->root);
                else
                    read_d(d, k, &mp->leaf);
                FIELD_END(d);
            }
            if (FIELDS_DONE(d, p, TOP_FIELDS))
                return d->r.rc;
        }
        FIELD_END(d); /* the variant */
        if (cz_jr_variant_end(&d->r))
            return d->r.rc;
        FIELD_END(d); /* data */
    }
    return FIELDS_DONE(d, o, MP_FIELDS);
}

/* ---- columns and labels (storage-proofs-porep stacked/vanilla) ---- */

static const char *const CP_FIELDS[] = {"column", "inclusion_proof"};
static const char *const COL_FIELDS[] = {"index", "rows", "_h"};
static const char *const LP_FIELDS[] = {"parents", "layer_index", "node"};
static const char *const RCP_FIELDS[] = {"c_x", "drg_parents", "exp_parents"};
static const char *const PROOF_FIELDS[] = {"comm_d_proofs", "comm_r_last_proof",
                                           "replica_column_proofs", "labeling_proofs",
                                           "encoding_proof"};

/* Column {"index": u32 (a node), "rows": [D; layers], "_h": null}. */
static int read_column(rd *d, cz_fc_column_proof *cp)
{
    unsigned layers = d->shape->layers;
    cp->rows = cz_fc_c1_alloc(d->c1, layers * sizeof *cp->rows);
    if (!cp->rows)
        return NOMEM(d);
    cz_jr_obj o;
    if (cz_jr_obj_begin(&d->r, &o))
        return d->r.rc;
    FOR_FIELDS(d, o, COL_FIELDS, f)
    {
        if (f == 0) {
            uint64_t v = 0;
            if (cz_jr_uint(&d->r, UINT32_MAX, "u32", &v) == CZ_OK && v >= d->nodes)
                cz_jr_fail(&d->r, CZ_ERR_BAD_FORMAT, "node %llu is past a %s sector's %llu",
                           (unsigned long long)v, d->shape->name, (unsigned long long)d->nodes);
            cp->index = (uint32_t)v;
        } else if (f == 1) {
            cz_jr_arr a;
            if (cz_jr_arr_begin(&d->r, &a))
                return d->r.rc;
            while (cz_jr_arr_next(&d->r, &a, layers, "rows") == 1) {
                read_d(d, D_FR, &cp->rows[a.n - 1]);
                FIELD_END(d);
            }
            cz_jr_arr_count(&d->r, &a, layers, "rows");
        } else {
            cz_jr_null(&d->r);
        }
        FIELD_END(d);
    }
    return FIELDS_DONE(d, o, COL_FIELDS);
}

/* ColumnProof {"column": Column, "inclusion_proof": TreeC proof}. */
static int read_cp(rd *d, cz_fc_column_proof *cp)
{
    cz_jr_obj o;
    if (cz_jr_obj_begin(&d->r, &o))
        return d->r.rc;
    FOR_FIELDS(d, o, CP_FIELDS, f)
    {
        if (f == 0)
            read_column(d, cp);
        else
            read_mp(d, ROLE_C, &cp->inclusion);
        FIELD_END(d);
    }
    return FIELDS_DONE(d, o, CP_FIELDS);
}

/* [ColumnProof; n] into cp[0..n). */
static int read_cps(rd *d, cz_fc_column_proof *cp, unsigned n, const char *what)
{
    cz_jr_arr a;
    if (cz_jr_arr_begin(&d->r, &a))
        return d->r.rc;
    while (cz_jr_arr_next(&d->r, &a, n, what) == 1) {
        read_cp(d, &cp[a.n - 1]);
        FIELD_END(d);
    }
    return cz_jr_arr_count(&d->r, &a, n, what);
}

/* ReplicaColumnProof {"c_x", "drg_parents": [6], "exp_parents": [8]}. */
static int read_rcp(rd *d, cz_fc_vanilla_proof *v)
{
    cz_jr_obj o;
    if (cz_jr_obj_begin(&d->r, &o))
        return d->r.rc;
    FOR_FIELDS(d, o, RCP_FIELDS, f)
    {
        if (f == 0)
            read_cp(d, &v->c_x);
        else if (f == 1)
            read_cps(d, v->drg, CZ_FC_DRG_DEGREE, "drg_parents");
        else
            read_cps(d, v->exp, CZ_FC_EXP_DEGREE, "exp_parents");
        FIELD_END(d);
    }
    return FIELDS_DONE(d, o, RCP_FIELDS);
}

/* LabelingProof / EncodingProof {"parents": [D; 37], "layer_index": u32
 * (= layer), "node": u64 (a node)}. */
static int read_lp(rd *d, cz_fc_labeling_proof *lp, unsigned layer)
{
    cz_jr_obj o;
    if (cz_jr_obj_begin(&d->r, &o))
        return d->r.rc;
    FOR_FIELDS(d, o, LP_FIELDS, f)
    {
        uint64_t v = 0;
        if (f == 0) {
            cz_jr_arr a;
            if (cz_jr_arr_begin(&d->r, &a))
                return d->r.rc;
            while (cz_jr_arr_next(&d->r, &a, CZ_FC_LABEL_PARENTS, "parents") == 1) {
                read_d(d, D_FR, &lp->parents[a.n - 1]);
                FIELD_END(d);
            }
            cz_jr_arr_count(&d->r, &a, CZ_FC_LABEL_PARENTS, "parents");
        } else if (f == 1) {
            if (cz_jr_uint(&d->r, UINT32_MAX, "u32", &v) == CZ_OK && v != layer)
                cz_jr_fail(&d->r, CZ_ERR_BAD_FORMAT, "layer %llu, expected %u",
                           (unsigned long long)v, layer);
            lp->layer_index = (uint32_t)v;
        } else {
            if (cz_jr_uint(&d->r, UINT64_MAX, "u64", &v) == CZ_OK && v >= d->nodes)
                cz_jr_fail(&d->r, CZ_ERR_BAD_FORMAT, "node %llu is past a %s sector's %llu",
                           (unsigned long long)v, d->shape->name, (unsigned long long)d->nodes);
            lp->node = v;
        }
        FIELD_END(d);
    }
    return FIELDS_DONE(d, o, LP_FIELDS);
}

/* Proof {comm_d_proofs, comm_r_last_proof, replica_column_proofs,
 * labeling_proofs: [layers, by layer 1..L], encoding_proof (layer L)}. */
static int read_proof(rd *d, cz_fc_vanilla_proof *v)
{
    unsigned layers = d->shape->layers;
    v->labeling = cz_fc_c1_alloc(d->c1, layers * sizeof *v->labeling);
    if (!v->labeling)
        return NOMEM(d);
    cz_jr_obj o;
    if (cz_jr_obj_begin(&d->r, &o))
        return d->r.rc;
    FOR_FIELDS(d, o, PROOF_FIELDS, f)
    {
        if (f == 0) {
            read_mp(d, ROLE_D, &v->comm_d_proof);
        } else if (f == 1) {
            read_mp(d, ROLE_R, &v->comm_r_last_proof);
        } else if (f == 2) {
            read_rcp(d, v);
        } else if (f == 3) {
            cz_jr_arr a;
            if (cz_jr_arr_begin(&d->r, &a))
                return d->r.rc;
            while (cz_jr_arr_next(&d->r, &a, layers, "labeling proofs") == 1) {
                read_lp(d, &v->labeling[a.n - 1], (unsigned)a.n);
                FIELD_END(d);
            }
            cz_jr_arr_count(&d->r, &a, layers, "labeling proofs");
        } else {
            read_lp(d, &v->encoding, layers);
        }
        FIELD_END(d);
    }
    return FIELDS_DONE(d, o, PROOF_FIELDS);
}

/* ---- the document ---- */

/* SealCommitPhase1Output's fields (rust-filecoin-proofs-api seal.rs),
 * then Curio's wrapper's (curio lib/ffi/cuzk_funcs.go). */
static const char *const TOP_KEYS[] = {"registered_proof", "vanilla_proofs", "comm_r", "comm_d",
                                       "replica_id",       "seed",           "ticket", "SectorNum",
                                       "Phase1Out",        "SectorSize"};
#define N_C1_KEYS   7
#define N_WRAP_KEYS 3

static uint64_t partitions_limit(const rd *d)
{
    if (d->type)
        return d->type->partitions;
    return d->shape->partitions > d->shape->ni_partitions ? d->shape->partitions
                                                          : d->shape->ni_partitions;
}

/* The registered proof's partitions and shape against vanilla_proofs'. */
static int check_type(rd *d)
{
    if (!d->type || !d->shape)
        return CZ_OK;
    if (d->type->shape != d->shape)
        return cz_jr_fail(&d->r, CZ_ERR_BAD_FORMAT,
                          "registered_proof %s has vanilla_proofs %s, this C1 has %s",
                          d->type->name, d->type->shape->vanilla_key, d->shape->vanilla_key);
    if (d->c1->partitions && d->c1->partitions != d->type->partitions)
        return cz_jr_fail(&d->r, CZ_ERR_BAD_FORMAT, "%u partitions, %s has %u", d->c1->partitions,
                          d->type->name, d->type->partitions);
    return CZ_OK;
}

/* VanillaSealProof {"StackedDrg<size>V1": [[Proof; challenges]; partitions]}. */
static int read_vanilla(rd *d)
{
    const char *keys[CZ_FC__SHAPES];
    for (int i = 0; i < CZ_FC__SHAPES; i++)
        keys[i] = cz_fc_shape_get((cz_fc_shape_id)i)->vanilla_key;
    int v = cz_jr_variant(&d->r, keys, CZ_FC__SHAPES, "VanillaSealProof");
    if (v < 0)
        return d->r.rc;
    d->shape = cz_fc_shape_get((cz_fc_shape_id)v);
    d->nodes = 1ull << d->shape->log_nodes;
    if (d->type && d->type->shape != d->shape) {
        cz_jr_pop(&d->r);
        return cz_jr_fail(&d->r, CZ_ERR_BAD_FORMAT, "variant %s, but registered_proof %s has %s",
                          d->shape->vanilla_key, d->type->name, d->type->shape->vanilla_key);
    }
    uint64_t limit = partitions_limit(d);
    unsigned ch = d->shape->challenges;
    cz_fc_c1 *c1 = d->c1;
    c1->challenges = ch;
    c1->proofs = cz_fc_c1_alloc(c1, (size_t)limit * ch * sizeof *c1->proofs);
    if (!c1->proofs)
        return NOMEM(d);
    cz_jr_arr a;
    if (cz_jr_arr_begin(&d->r, &a))
        return d->r.rc;
    while (cz_jr_arr_next(&d->r, &a, limit, "partitions") == 1) {
        cz_jr_arr b;
        if (cz_jr_arr_begin(&d->r, &b))
            return d->r.rc;
        while (cz_jr_arr_next(&d->r, &b, ch, "challenges") == 1) {
            read_proof(d, &c1->proofs[(a.n - 1) * ch + (b.n - 1)]);
            FIELD_END(d);
        }
        cz_jr_arr_count(&d->r, &b, ch, "challenges");
        FIELD_END(d);
    }
    if (d->r.rc)
        return d->r.rc;
    if (d->type) {
        if (cz_jr_arr_count(&d->r, &a, d->type->partitions, "partitions"))
            return d->r.rc;
    } else if (a.n != d->shape->partitions && a.n != d->shape->ni_partitions) {
        d->r.p--;
        return cz_jr_fail(
            &d->r, CZ_ERR_BAD_FORMAT, "%llu partitions, a %s C1 has %u (%u non-interactive)",
            (unsigned long long)a.n, d->shape->name, d->shape->partitions, d->shape->ni_partitions);
    }
    c1->partitions = (uint32_t)a.n;
    FIELD_END(d); /* the variant */
    return cz_jr_variant_end(&d->r);
}

static int read_registered(rd *d)
{
    const uint8_t *raw;
    size_t n;
    bool esc;
    uint8_t name[6 * 64]; /* a name of 64 characters, every one an escape */
    const uint8_t *at = d->r.p;
    if (cz_jr_str(&d->r, &raw, &n, &esc))
        return d->r.rc;
    const cz_fc_proof_type *t = NULL;
    if (n < sizeof name) {
        size_t k = esc ? cz_jr_unescape(name, raw, n) : (memcpy(name, raw, n), n);
        name[k] = 0;
        if (strlen((const char *)name) == k)
            t = cz_fc_proof_by_name((const char *)name);
    }
    if (!t) {
        char shown[49];
        size_t k = 0;
        for (; k < n && k < 48; k++)
            shown[k] = raw[k] >= 0x20 && raw[k] < 0x7f ? (char)raw[k] : '?';
        shown[k] = 0;
        d->r.p = at;
        return cz_jr_fail(&d->r, CZ_ERR_UNSUPPORTED, "unknown registered proof \"%s%s\"", shown,
                          n > 48 ? "..." : "");
    }
    d->type = t;
    d->c1->proof_type = t;
    return check_type(d);
}

/* The C1 or (wrapper) Curio's envelope; *phase1 the wrapper's Phase1Out
 * string when it is one. */
static int read_top(rd *d, bool allow_wrapper, const uint8_t **phase1, size_t *phase1_len,
                    bool *phase1_esc)
{
    cz_fc_c1 *c1 = d->c1;
    int mode = -1; /* 0: the C1, 1: the wrapper; set by the first known key */
    cz_jr_obj o;
    if (cz_jr_obj_begin(&d->r, &o))
        return d->r.rc;
    unsigned n = allow_wrapper ? N_C1_KEYS + N_WRAP_KEYS : N_C1_KEYS;
    int f;
    while ((f = cz_jr_obj_next(&d->r, &o, TOP_KEYS, n)) >= 0) {
        int kind = f >= N_C1_KEYS;
        if (mode < 0)
            mode = kind;
        if (kind != mode) {
            /* the other document's key: unknown here, ignored */
            o.seen &= ~(1ull << f);
            cz_jr_skip(&d->r);
            FIELD_END(d);
            continue;
        }
        uint64_t v = 0;
        cz_fc_d tmp;
        switch (f) {
        case 0:
            read_registered(d);
            break;
        case 1:
            read_vanilla(d);
            break;
        case 2:
            read_d(d, D_FR, &c1->comm_r);
            break;
        case 3:
            read_d(d, D_FR, &c1->comm_d);
            break;
        case 4:
            read_d(d, D_FR, &c1->replica_id);
            break;
        case 5:
            if (read_d(d, D_ANY, &tmp) == CZ_OK)
                memcpy(c1->seed, tmp.b, 32);
            break;
        case 6:
            if (read_d(d, D_ANY, &tmp) == CZ_OK)
                memcpy(c1->ticket, tmp.b, 32);
            break;
        case 7:
            if (cz_jr_uint(&d->r, UINT64_MAX, "u64", &v) == CZ_OK)
                c1->sector_num = v;
            break;
        case 8:
            cz_jr_str(&d->r, phase1, phase1_len, phase1_esc);
            break;
        default:
            if (cz_jr_uint(&d->r, UINT64_MAX, "u64", &v) == CZ_OK)
                c1->sector_size = v;
            break;
        }
        FIELD_END(d);
    }
    if (d->r.rc)
        return d->r.rc;
    if (mode == 1) {
        c1->wrapped = true;
        return cz_jr_obj_require(&d->r, &o, TOP_KEYS, N_C1_KEYS, N_WRAP_KEYS);
    }
    return cz_jr_obj_require(&d->r, &o, TOP_KEYS, 0, N_C1_KEYS);
}

static void rd_init(rd *d, cz_fc_c1 *c1, const uint8_t *json, size_t len, const char *prefix,
                    char *err, size_t errlen)
{
    memset(d, 0, sizeof *d);
    d->c1 = c1;
    cz_jr_init(&d->r, json, len, prefix, err, errlen);
}

/* The wrapper's Phase1Out: base64 (inside a JSON string) of the C1. */
static int read_phase1(cz_fc_c1 *c1, const uint8_t *raw, size_t n, bool esc, char *err,
                       size_t errlen)
{
    const cz_allocator *a = c1_allocator(c1);
    uint8_t *text = NULL, *json;
    size_t text_cap = 0, json_len;
    int rc;
    if (esc) {
        text_cap = n;
        if (!(text = cz_alloc(a, CZ_BUF_INPUT, text_cap))) {
            cz_msgf(err, errlen, "Phase1Out: out of memory");
            return CZ_ERR_NOMEM;
        }
        n = cz_jr_unescape(text, raw, n);
        raw = text;
    }
    size_t cap = cz_base64_decoded_max(n), bad = 0;
    const char *why = "";
    if (!(json = cz_alloc(a, CZ_BUF_INPUT, cap))) {
        cz_free(a, text, text_cap);
        cz_msgf(err, errlen, "Phase1Out: out of memory");
        return CZ_ERR_NOMEM;
    }
    rc = cz_base64_decode(json, &json_len, (const char *)raw, n, &bad, &why);
    cz_free(a, text, text_cap);
    if (rc) {
        cz_msgf(err, errlen, "Phase1Out: invalid base64: %s at offset %zu", why, bad);
    } else {
        rd d;
        rd_init(&d, c1, json, json_len, "Phase1Out: ", err, errlen);
        if (read_top(&d, false, NULL, NULL, NULL) == CZ_OK)
            cz_jr_finish(&d.r);
        rc = d.r.rc;
    }
    cz_free(a, json, cap);
    return rc;
}

int cz_fc_c1_read(cz_fc_c1 *c1, const uint8_t *json, size_t len, const cz_allocator *alloc,
                  char *err, size_t errlen)
{
    if (err && errlen)
        err[0] = 0;
    if (!c1 || (!json && len)) {
        cz_msgf(err, errlen, "invalid argument");
        return CZ_ERR_INVALID_ARG;
    }
    memset(c1, 0, sizeof *c1);
    c1->alloc = alloc;
    rd d;
    const uint8_t *phase1 = NULL;
    size_t phase1_len = 0;
    bool phase1_esc = false;
    rd_init(&d, c1, json ? json : (const uint8_t *)"", len, NULL, err, errlen);
    int rc = read_top(&d, true, &phase1, &phase1_len, &phase1_esc);
    if (rc == CZ_OK)
        rc = cz_jr_finish(&d.r);
    if (rc == CZ_OK && c1->wrapped) {
        uint64_t num = c1->sector_num, size = c1->sector_size;
        rc = read_phase1(c1, phase1, phase1_len, phase1_esc, err, errlen);
        c1->wrapped = true;
        c1->sector_num = num;
        c1->sector_size = size;
        if (rc == CZ_OK && size != c1->proof_type->shape->sector_size) {
            cz_msgf(err, errlen, "SectorSize: %llu is not the sector size of %s (%llu)",
                    (unsigned long long)size, c1->proof_type->name,
                    (unsigned long long)c1->proof_type->shape->sector_size);
            rc = CZ_ERR_BAD_FORMAT;
        }
    }
    if (rc != CZ_OK) {
        cz_fc_c1_free(c1);
        return rc;
    }
    return CZ_OK;
}
