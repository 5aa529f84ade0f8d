/* The StackedDRG PoRep circuit (see cuzk/filecoin/porep.h), as
 * storage-proofs-porep stacked/circuit/proof.rs StackedCircuit::synthesize
 * and params.rs Proof::synthesize build it, through storage-proofs-core's
 * por.rs (inclusion paths), filecoin-hashers (SHA-256 and Poseidon
 * hashes in circuit), hash.rs (column hashes), create_label.rs (labels)
 * and encode.rs.  Every allocation and constraint is made in the order
 * the source makes it; docs/filecoin.md "The PoRep circuit" lists them.
 *
 * Header (namespace root):
 *   replica_id: alloc, inputize, to_bits_le (255 bits + unpacking), bits
 *     reversed per byte (256);
 *   comm_d, comm_r: alloc, inputize; comm_r_last, comm_c: alloc;
 *   comm_r = Poseidon-2(comm_c, comm_r_last): the hash, then equal.
 * Per challenge ("challenge_i"):
 *   data_leaf alloc; TreeD inclusion of it under comm_d;
 *   per DRG parent (6) then expander parent (8): the column's L rows
 *     allocated, their Poseidon-L hash, its TreeC inclusion under comm_c;
 *   the challenge as UInt64 (64 bits) and its one input;
 *   per layer l = 1..L ("labeling_l"): to_bits_le of the DRG parents' row
 *     l and (l > 1) the expander parents' row l - 1, reversed per byte,
 *     repeated to 37; the label: SHA-256 of replica_id bits || l (u32 BE,
 *     constant) || node (u64 BE) || zeros to 512 bits || the 37 parents,
 *     its bits reversed per byte, the first 254 packed;
 *   encode(last label, data_leaf) and its TreeR inclusion under
 *     comm_r_last; the Poseidon-L hash of the L labels and its TreeC
 *     inclusion under comm_c.
 * An inclusion path (por.rs PoRCircuit, private): per level the index
 * bits (AllocatedBit, least significant first), the arity - 1 siblings
 * allocated, insert, the level hash (TreeD: SHA-256 of the two children's
 * to_bits_le, each padded to 256 bits and reversed per byte, result bits
 * reversed per byte and the first 254 packed; TreeR / TreeC: Poseidon of
 * the arity); then every index bit packed into one input, and the
 * computed root equal to the commitment. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/err.h"
#include "cuzk/filecoin/porep.h"
#include "cuzk/gadgets.h"
#include "cuzk/poseidon.h"
#include "filecoin/porep/circuit.h"

/* ---------------------------------------------------------------- dims --- */

void cz_fc_porep_dims_of(cz_fc_porep_dims *d, const cz_fc_shape *s)
{
    d->log_nodes = s->log_nodes;
    d->layers = s->layers;
    d->challenges = s->challenges;
    d->base_arity = 8;
    d->base_levels = s->base_levels;
    d->sub_arity = s->sub_arity;
    d->top_arity = s->top_arity;
}

int cz_fc_porep_dims_by_name(cz_fc_porep_dims *d, const char *name)
{
    static const struct {
        const char *name;
        cz_fc_porep_dims d;
    } tests[] = {
        {"test-base-2", {3, 2, 1, 2, 3, 0, 0}},
        {"test-base-8", {3, 2, 1, 8, 1, 0, 0}},
        {"test-sub-8-4", {5, 2, 1, 8, 1, 4, 0}},
        {"test-top-8-4-2", {6, 2, 1, 8, 1, 4, 2}},
    };
    for (size_t i = 0; i < sizeof tests / sizeof tests[0]; i++)
        if (!strcmp(name, tests[i].name)) {
            *d = tests[i].d;
            return CZ_OK;
        }
    const cz_fc_shape *s = cz_fc_shape_by_name(name);
    if (s == NULL)
        return CZ_ERR_INVALID_ARG;
    cz_fc_porep_dims_of(d, s);
    return CZ_OK;
}

bool cz_fc_porep_dims_equal(const cz_fc_porep_dims *a, const cz_fc_porep_dims *b)
{
    return a->log_nodes == b->log_nodes && a->layers == b->layers &&
           a->challenges == b->challenges && a->base_arity == b->base_arity &&
           a->base_levels == b->base_levels && a->sub_arity == b->sub_arity &&
           a->top_arity == b->top_arity;
}

/* Arity of level l of TreeR / TreeC (0 past the last). */
static unsigned rc_arity(const cz_fc_porep_dims *d, unsigned l)
{
    if (l < d->base_levels)
        return d->base_arity;
    l -= d->base_levels;
    if (d->sub_arity && l == 0)
        return d->sub_arity;
    if (d->sub_arity)
        l--;
    return d->top_arity && l == 0 ? d->top_arity : 0;
}

static unsigned rc_levels(const cz_fc_porep_dims *d)
{
    return d->base_levels + (d->sub_arity != 0) + (d->top_arity != 0);
}

static unsigned log2u(unsigned a)
{
    unsigned k = 0;
    while ((1u << k) < a)
        k++;
    return k;
}

/* --------------------------------------------------------------- values --- */

static cz_fr d_fr(const cz_fc_d *x)
{
    cz_fr r = CZ_FR_ZERO;
    if (x)
        (void)cz_fc_d_to_fr(&r, x); /* canonical: the C1 reader checked it */
    return r;
}

/* ---------------------------------------------------------------- hashes --- */

/* to_bits_le of n, padded to 256 and reversed per byte, into out[256]. */
static void num_bits_rev(cz_cs *cs, const cz_num *n, cz_bool out[256])
{
    cz_bool le[CZ_FR_NUM_BITS];
    cz_num_to_bits_le(cs, n, le);
    cz_reverse_bit_numbering(le, CZ_FR_NUM_BITS, out);
}

/* SHA-256 of bits[0..n) (bellpepper sha256), result bits reversed per
 * byte, the first 254 packed (filecoin-hashers Sha256Function::
 * hash_circuit, create_label_circuit's result). */
static int sha256_packed(cz_cs *cs, const cz_bool *bits, size_t n, cz_num *out)
{
    cz_bool be[256], le[256];
    int rc = cz_sha256_gadget(cs, bits, n, be);
    if (rc != CZ_OK)
        return rc;
    cz_reverse_bit_numbering(be, 256, le);
    cz_cs_push_ns(cs, "pack_le");
    *out = cz_pack_bits(cs, le, CZ_FR_CAPACITY);
    cz_cs_pop_ns(cs);
    return CZ_OK;
}

int cz_fc_sha256_hash2_num(cz_cs *cs, const cz_num *a, const cz_num *b, cz_num *out)
{
    cz_bool pre[512];
    num_bits_rev(cs, a, pre);
    num_bits_rev(cs, b, pre + 256);
    return sha256_packed(cs, pre, 512, out);
}

int cz_fc_poseidon_num(cz_cs *cs, const cz_num *in, unsigned arity, cz_num *out)
{
    cz_var v[CZ_POSEIDON_MAX_ARITY], r;
    cz_fr x[CZ_POSEIDON_MAX_ARITY];
    for (unsigned i = 0; i < arity; i++) {
        v[i] = in[i].var;
        x[i] = in[i].value;
    }
    int rc = cz_poseidon_circuit(cs, v, arity, &r);
    if (rc != CZ_OK)
        return rc;
    out->var = r;
    /* The gadget allocated the hash with its value: read it back where
     * the cs keeps values (computing it again doubled the witness's
     * Poseidon work); COUNT mode keeps none. */
    const cz_fr *aux = cz_cs_aux(cs);
    if (aux != NULL && cz_var_is_aux(r)) {
        out->value = aux[cz_var_index(r)];
        return CZ_OK;
    }
    return cz_poseidon_hash(&out->value, x, arity);
}

/* ------------------------------------------------------------ inclusion --- */

int cz_fc_por_circuit(cz_cs *cs, const cz_fc_porep_dims *d, bool sha, const cz_fc_merkle_proof *p,
                      const cz_num *leaf, const cz_num *root, const char *ns, cz_fr *computed)
{
    unsigned levels = sha ? d->log_nodes : rc_levels(d);
    if (p && p->n_levels != levels)
        return CZ_ERR_INVALID_ARG;
    cz_bool path_bits[64];
    unsigned n_bits = 0;
    char name[48];
    int rc = CZ_OK;
    cz_cs_push_ns(cs, ns);
    cz_num cur;
    if (leaf) {
        cur = *leaf;
    } else { /* Root::Val: the leaf allocated here */
        cz_fr v = d_fr(p ? &p->leaf : NULL);
        cz_cs_push_ns(cs, "value");
        cur = cz_num_alloc(cs, &v);
        cz_cs_pop_ns(cs);
    }
    for (unsigned l = 0; l < levels && rc == CZ_OK; l++) {
        unsigned arity = sha ? 2 : rc_arity(d, l), nb = log2u(arity);
        const cz_fc_path_el *el = p ? &p->levels[l] : NULL;
        if (el && (el->arity != arity || el->index >= arity)) {
            rc = CZ_ERR_INVALID_ARG;
            break;
        }
        if (n_bits + nb > 64 || arity > 16) {
            rc = CZ_ERR_INVALID_ARG;
            break;
        }
        snprintf(name, sizeof name, "merkle tree hash %u", l);
        cz_cs_push_ns(cs, name);
        unsigned index = el ? el->index : 0;
        cz_bool *bits = path_bits + n_bits;
        for (unsigned b = 0; b < nb; b++)
            bits[b] = cz_bool_is(cz_abit_alloc(cs, (index >> b) & 1));
        n_bits += nb;
        cz_num sib[15], ins[16];
        for (unsigned j = 0; j + 1 < arity; j++) {
            cz_fr v = d_fr(el ? &el->hashes[j] : NULL);
            sib[j] = cz_num_alloc(cs, &v);
        }
        rc = cz_insert(cs, &cur, bits, nb, sib, ins);
        if (rc == CZ_OK) {
            cz_cs_push_ns(cs, "computation of commitment hash");
            if (sha) {
                rc = cz_fc_sha256_hash2_num(cs, &ins[0], &ins[1], &cur);
            } else {
                rc = cz_fc_poseidon_num(cs, ins, arity, &cur);
            }
            cz_cs_pop_ns(cs);
        }
        cz_cs_pop_ns(cs);
    }
    if (rc == CZ_OK) {
        cz_cs_push_ns(cs, "path");
        cz_pack_into_inputs(cs, path_bits, n_bits);
        cz_cs_pop_ns(cs);
        cz_cs_push_ns(cs, "enforce root is correct");
        cz_num_enforce_equal(cs, &cur, root);
        cz_cs_pop_ns(cs);
        if (computed)
            *computed = cur.value;
    }
    cz_cs_pop_ns(cs);
    return rc;
}

/* ------------------------------------------------------------ challenge --- */

/* A parent column: its rows allocated, hashed, included in TreeC. */
static int column(cz_cs *cs, const cz_fc_porep_dims *d, const cz_fc_column_proof *cp,
                  const cz_num *comm_c, const char *kind, unsigned i, cz_num *rows)
{
    char name[48];
    snprintf(name, sizeof name, "%s_parent_%u_num", kind, i);
    cz_cs_push_ns(cs, name);
    for (unsigned l = 0; l < d->layers; l++) {
        cz_fr v = d_fr(cp ? &cp->rows[l] : NULL);
        rows[l] = cz_num_alloc(cs, &v);
    }
    cz_cs_pop_ns(cs);
    snprintf(name, sizeof name, "%s_parent_%u_constraint", kind, i);
    cz_cs_push_ns(cs, name);
    cz_num h;
    int rc = cz_fc_poseidon_num(cs, rows, d->layers, &h);
    cz_cs_pop_ns(cs);
    if (rc != CZ_OK)
        return rc;
    snprintf(name, sizeof name, "%s_parent_%u_inclusion", kind, i);
    return cz_fc_por_circuit(cs, d, false, cp ? &cp->inclusion : NULL, &h, comm_c, name, NULL);
}

/* create_label_circuit for layer (1-based) of the challenge. */
static int label(cz_cs *cs, const cz_porep_header *h, unsigned layer, const cz_u64 *node,
                 const cz_num *drg_rows[CZ_FC_DRG_DEGREE], const cz_num *exp_rows[CZ_FC_EXP_DEGREE],
                 cz_bool *msg, cz_num *out)
{
    /* msg: 39 x 256 bits */
    char name[48];
    cz_bool *parents = msg + 512;
    unsigned n = 0;
    for (unsigned j = 0; j < CZ_FC_DRG_DEGREE; j++, n++) {
        snprintf(name, sizeof name, "drg_parent_%u_bits", n);
        cz_cs_push_ns(cs, name);
        num_bits_rev(cs, &drg_rows[j][layer - 1], parents + 256 * n);
        cz_cs_pop_ns(cs);
    }
    if (layer > 1)
        for (unsigned j = 0; j < CZ_FC_EXP_DEGREE; j++, n++) {
            snprintf(name, sizeof name, "exp_parent_%u_bits", n);
            cz_cs_push_ns(cs, name);
            num_bits_rev(cs, &exp_rows[j][layer - 2], parents + 256 * n);
            cz_cs_pop_ns(cs);
        }
    for (unsigned j = n; j < CZ_FC_LABEL_PARENTS; j++)
        memcpy(parents + 256 * j, parents + 256 * (j % n), 256 * sizeof *parents);
    memcpy(msg, h->replica_bits, 256 * sizeof *msg);
    cz_u32 l = cz_u32_const(layer);
    cz_u32_to_bits_be(&l, msg + 256);
    cz_u64_to_bits_be(node, msg + 288);
    for (unsigned b = 352; b < 512; b++)
        msg[b] = cz_bool_const(false);
    cz_cs_push_ns(cs, "create_label");
    int rc = sha256_packed(cs, msg, (2 + CZ_FC_LABEL_PARENTS) * 256, out);
    cz_cs_pop_ns(cs);
    return rc;
}

int cz_porep_chal_prefix(cz_cs *cs, const cz_fc_porep_dims *d, const cz_porep_header *h,
                         const cz_fc_vanilla_proof *p, cz_porep_chal *st)
{
    if (p && (p->comm_d_proof.n_levels != d->log_nodes || !p->labeling))
        return CZ_ERR_INVALID_ARG;
    cz_fr v = d_fr(p ? &p->comm_d_proof.leaf : NULL);
    cz_cs_push_ns(cs, "data_leaf");
    st->data_leaf = cz_num_alloc(cs, &v);
    cz_cs_pop_ns(cs);
    int rc = cz_fc_por_circuit(cs, d, true, p ? &p->comm_d_proof : NULL, &st->data_leaf, &h->comm_d,
                               "comm_d_inclusion", NULL);
    for (unsigned j = 0; j < CZ_FC_DRG_DEGREE && rc == CZ_OK; j++)
        rc = column(cs, d, p ? &p->drg[j] : NULL, &h->comm_c, "drg", j, st->drg[j]);
    for (unsigned j = 0; j < CZ_FC_EXP_DEGREE && rc == CZ_OK; j++)
        rc = column(cs, d, p ? &p->exp[j] : NULL, &h->comm_c, "exp", j, st->exp[j]);
    if (rc != CZ_OK)
        return rc;
    cz_cs_push_ns(cs, "challenge");
    st->node = cz_u64_alloc(cs, p ? p->labeling[0].node : 0);
    cz_cs_pop_ns(cs);
    cz_cs_push_ns(cs, "challenge input");
    cz_u64_pack_into_input(cs, &st->node);
    cz_cs_pop_ns(cs);
    return CZ_OK;
}

void cz_porep_chal_from_proof(cz_porep_chal *st, const cz_fc_porep_dims *d,
                              const cz_fc_vanilla_proof *p)
{
    st->data_leaf.var = CZ_CS_ONE;
    st->data_leaf.value = d_fr(&p->comm_d_proof.leaf);
    for (unsigned l = 0; l < d->layers; l++) {
        for (unsigned j = 0; j < CZ_FC_DRG_DEGREE; j++)
            st->drg[j][l] = (cz_num){CZ_CS_ONE, d_fr(&p->drg[j].rows[l])};
        for (unsigned j = 0; j < CZ_FC_EXP_DEGREE; j++)
            st->exp[j][l] = (cz_num){CZ_CS_ONE, d_fr(&p->exp[j].rows[l])};
    }
    /* allocated bits (the label's SHA-256 folds constants, not these) */
    st->node.value = p->labeling[0].node;
    for (unsigned b = 0; b < 64; b++)
        st->node.bits[b] = cz_bool_is((cz_abit){CZ_CS_ONE, (st->node.value >> b) & 1});
}

int cz_porep_chal_label(cz_cs *cs, const cz_porep_header *h, unsigned layer, cz_porep_chal *st,
                        cz_bool *scratch)
{
    const cz_num *drg_rows[CZ_FC_DRG_DEGREE], *exp_rows[CZ_FC_EXP_DEGREE];
    for (unsigned j = 0; j < CZ_FC_DRG_DEGREE; j++)
        drg_rows[j] = st->drg[j];
    for (unsigned j = 0; j < CZ_FC_EXP_DEGREE; j++)
        exp_rows[j] = st->exp[j];
    char name[32];
    snprintf(name, sizeof name, "labeling_%u", layer);
    cz_cs_push_ns(cs, name);
    int rc = label(cs, h, layer, &st->node, drg_rows, exp_rows, scratch, &st->labels[layer - 1]);
    cz_cs_pop_ns(cs);
    return rc;
}

int cz_porep_chal_suffix(cz_cs *cs, const cz_fc_porep_dims *d, const cz_porep_header *h,
                         const cz_fc_vanilla_proof *p, cz_porep_chal *st)
{
    cz_cs_push_ns(cs, "encode_node");
    cz_num enc = cz_encode(cs, &st->labels[d->layers - 1], &st->data_leaf);
    cz_cs_pop_ns(cs);
    int rc = cz_fc_por_circuit(cs, d, false, p ? &p->comm_r_last_proof : NULL, &enc,
                               &h->comm_r_last, "comm_r_last_data_inclusion", NULL);
    if (rc != CZ_OK)
        return rc;
    cz_num ch;
    cz_cs_push_ns(cs, "c_x_column_hash");
    rc = cz_fc_poseidon_num(cs, st->labels, d->layers, &ch);
    cz_cs_pop_ns(cs);
    if (rc != CZ_OK)
        return rc;
    return cz_fc_por_circuit(cs, d, false, p ? &p->c_x.inclusion : NULL, &ch, &h->comm_c,
                             "c_x_inclusion", NULL);
}

int cz_porep_challenge(cz_cs *cs, const cz_fc_porep_dims *d, const cz_porep_header *h,
                       const cz_fc_vanilla_proof *p, cz_porep_chal *st, cz_bool *scratch)
{
    int rc = cz_porep_chal_prefix(cs, d, h, p, st);
    for (unsigned l = 1; l <= d->layers && rc == CZ_OK; l++)
        rc = cz_porep_chal_label(cs, h, l, st, scratch);
    return rc == CZ_OK ? cz_porep_chal_suffix(cs, d, h, p, st) : rc;
}

/* --------------------------------------------------------------- header --- */

static cz_num alloc_named(cz_cs *cs, const char *name, const cz_fr *v)
{
    cz_cs_push_ns(cs, name);
    cz_num n = cz_num_alloc(cs, v);
    cz_cs_pop_ns(cs);
    return n;
}

static void inputize_named(cz_cs *cs, const char *name, const cz_num *n)
{
    cz_cs_push_ns(cs, name);
    cz_num_inputize(cs, n);
    cz_cs_pop_ns(cs);
}

int cz_porep_header_synth(cz_cs *cs, const cz_fc_c1 *c1, cz_porep_header *h)
{
    cz_fr v = d_fr(c1 ? &c1->replica_id : NULL);
    cz_num rid = alloc_named(cs, "replica_id", &v);
    inputize_named(cs, "replica_id_input", &rid);
    cz_bool le[CZ_FR_NUM_BITS];
    cz_cs_push_ns(cs, "replica_id_bits");
    cz_num_to_bits_le(cs, &rid, le);
    cz_cs_pop_ns(cs);
    cz_reverse_bit_numbering(le, CZ_FR_NUM_BITS, h->replica_bits);
    v = d_fr(c1 ? &c1->comm_d : NULL);
    h->comm_d = alloc_named(cs, "comm_d", &v);
    inputize_named(cs, "comm_d_input", &h->comm_d);
    v = d_fr(c1 ? &c1->comm_r : NULL);
    cz_num comm_r = alloc_named(cs, "comm_r", &v);
    inputize_named(cs, "comm_r_input", &comm_r);
    /* comm_r_last and comm_c: every proof shares them (the reader checked) */
    const cz_fc_vanilla_proof *p0 = c1 ? &c1->proofs[0] : NULL;
    v = d_fr(p0 ? &p0->comm_r_last_proof.root : NULL);
    h->comm_r_last = alloc_named(cs, "comm_r_last", &v);
    v = d_fr(p0 ? &p0->c_x.inclusion.root : NULL);
    h->comm_c = alloc_named(cs, "comm_c", &v);
    cz_num pair[2] = {h->comm_c, h->comm_r_last}, hash;
    cz_cs_push_ns(cs, "H_comm_c_comm_r_last");
    int rc = cz_fc_poseidon_num(cs, pair, 2, &hash);
    cz_cs_pop_ns(cs);
    if (rc != CZ_OK)
        return rc;
    cz_cs_push_ns(cs, "enforce comm_r = H(comm_c || comm_r_last)");
    cz_num_enforce_equal(cs, &comm_r, &hash);
    cz_cs_pop_ns(cs);
    return cz_cs_error(cs);
}

/* ---------------------------------------------------------------- whole --- */

int cz_porep_check_c1(const cz_fc_porep_dims *d, const cz_fc_c1 *c1, unsigned k, char *err,
                      size_t errlen)
{
    if (d->layers == 0 || d->layers > CZ_POREP_MAX_LAYERS || d->challenges == 0 ||
        d->log_nodes == 0 || d->log_nodes > 40) {
        cz_msgf(err, errlen, "PoRep circuit: unsupported shape (%u layers, %u challenges)",
                d->layers, d->challenges);
        return CZ_ERR_INVALID_ARG;
    }
    if (c1 == NULL)
        return CZ_OK;
    cz_fc_porep_dims cd;
    if (!c1->proof_type || !c1->proofs) {
        cz_msgf(err, errlen, "PoRep circuit: the C1 has no proofs");
        return CZ_ERR_INVALID_ARG;
    }
    cz_fc_porep_dims_of(&cd, c1->proof_type->shape);
    if (!cz_fc_porep_dims_equal(&cd, d) || c1->challenges != d->challenges) {
        cz_msgf(err, errlen, "PoRep circuit: the C1 is a %s sector's, not of this circuit",
                c1->proof_type->shape->name);
        return CZ_ERR_INVALID_ARG;
    }
    if (k >= c1->partitions) {
        cz_msgf(err, errlen, "PoRep circuit: partition %u of %u", k, c1->partitions);
        return CZ_ERR_INVALID_ARG;
    }
    return CZ_OK;
}

int cz_fc_porep_synthesize(cz_cs *cs, const cz_fc_porep_dims *d, const cz_fc_c1 *c1, unsigned k,
                           char *err, size_t errlen)
{
    int rc = cz_porep_check_c1(d, c1, k, err, errlen);
    if (rc != CZ_OK)
        return rc;
    cz_bool *scratch = malloc(CZ_POREP_SCRATCH_BITS * sizeof *scratch);
    cz_porep_chal *st = malloc(sizeof *st);
    if (scratch == NULL || st == NULL) {
        free(scratch);
        free(st);
        cz_msgf(err, errlen, "PoRep circuit: out of memory");
        return CZ_ERR_NOMEM;
    }
    cz_porep_header h;
    rc = cz_porep_header_synth(cs, c1, &h);
    char name[32];
    /* blank challenges are alike, using the same header: after the first
     * a recording copies it (cz_cs_repeat; unsupported in the other modes
     * and with namespaces, where the loop goes on) */
    cz_cs_mark mark;
    cz_cs_mark_here(cs, &mark);
    for (unsigned i = 0; i < d->challenges && rc == CZ_OK; i++) {
        snprintf(name, sizeof name, "challenge_%u", i);
        cz_cs_push_ns(cs, name);
        rc = cz_porep_challenge(cs, d, &h, c1 ? &c1->proofs[(size_t)k * c1->challenges + i] : NULL,
                                st, scratch);
        cz_cs_pop_ns(cs);
        if (rc == CZ_OK)
            rc = cz_cs_error(cs);
        if (rc != CZ_OK)
            cz_msgf(err, errlen, "PoRep circuit: challenge %u: %s", i, cz_strerror(rc));
        else if (i == 0 && c1 == NULL) {
            int r = cz_cs_repeat(cs, &mark, d->challenges - 1);
            if (r == CZ_OK)
                break;
            if (r != CZ_ERR_UNSUPPORTED)
                cz_msgf(err, errlen, "PoRep circuit: copying challenge 0: %s", cz_strerror(rc = r));
        }
    }
    if (rc == CZ_OK && (rc = cz_cs_error(cs)) != CZ_OK)
        cz_msgf(err, errlen, "PoRep circuit: %s", cz_strerror(rc));
    free(scratch);
    free(st);
    return rc;
}
