/* The FallbackPoSt circuit (cuzk/filecoin/post.h), constraint for constraint with
 * storage-proofs-post @87348a7 fallback/circuit.rs (FallbackPoStCircuit::
 * synthesize_default, `impl Circuit for &Sector`) and storage-proofs-core
 * gadgets/por.rs PoRCircuit::synthesize (cz_fc_por_circuit), in the
 * source's allocation order (docs/post.md 1.2).  Per sector:
 *
 *   comm_r_last, comm_c, comm_r               aux
 *   comm_r inputized                          1 input, 1 constraint
 *   Poseidon-2(comm_c, comm_r_last)           311 constraints
 *   comm_r * 1 = hash                         1
 *   per challenge, PoRCircuit (private, Root::Val leaf, Root::Var root
 *   comm_r_last): the leaf; per level its index bits, siblings, insert and
 *   Poseidon (octary 530 constraints, binary 314, quad 387); the bits
 *   packed into 1 input; computed root * 1 = comm_r_last.
 *
 * Nothing but ONE is shared between sectors, so each sector's variables
 * are a fixed slice of the witness (witness.c runs them in
 * parallel), and a blank recording records the first sector and copies
 * it (cz_cs_repeat). */
#include <stdio.h>
#include <stdlib.h>

#include "cuzk/err.h"
#include "cuzk/filecoin/post.h"
#include "filecoin/porep/circuit.h"
#include "filecoin/post/circuit.h"

void cz_post_tree_dims(cz_fc_porep_dims *d, const cz_post_shape *s)
{
    *d = (cz_fc_porep_dims){.log_nodes = s->tree.log_nodes,
                            .base_arity = 8,
                            .base_levels = s->tree.base_levels,
                            .sub_arity = s->tree.sub_arity,
                            .top_arity = s->tree.top_arity};
}

static cz_num alloc_d(cz_cs *cs, const char *name, const cz_fc_d *x)
{
    cz_fr v = CZ_FR_ZERO;
    if (x)
        (void)cz_fc_d_to_fr(&v, x); /* the reader checked them canonical */
    cz_cs_push_ns(cs, name);
    cz_num n = cz_num_alloc(cs, &v);
    cz_cs_pop_ns(cs);
    return n;
}

int cz_post_sector_synth(cz_cs *cs, const cz_post_shape *s, const cz_post_circuit_sector *sec,
                         unsigned i, cz_fr *roots)
{
    cz_fc_porep_dims d;
    cz_post_tree_dims(&d, s);
    char name[40];
    snprintf(name, sizeof name, "sector_%u", i);
    cz_cs_push_ns(cs, name);
    cz_num comm_r_last = alloc_d(cs, "comm_r_last", sec ? &sec->comm_r_last : NULL);
    cz_num comm_c = alloc_d(cs, "comm_c", sec ? &sec->comm_c : NULL);
    cz_num comm_r = alloc_d(cs, "comm_r", sec ? &sec->comm_r : NULL);
    cz_cs_push_ns(cs, "comm_r_input");
    cz_num_inputize(cs, &comm_r);
    cz_cs_pop_ns(cs);
    cz_num pair[2] = {comm_c, comm_r_last}, hash;
    cz_cs_push_ns(cs, "H_comm_c_comm_r_last");
    int rc = cz_fc_poseidon_num(cs, pair, 2, &hash);
    cz_cs_pop_ns(cs);
    if (rc == CZ_OK) {
        cz_cs_push_ns(cs, "enforce_comm_c_comm_r_last_hash_comm_r");
        cz_num_enforce_equal(cs, &comm_r, &hash);
        cz_cs_pop_ns(cs);
    }
    for (unsigned c = 0; c < s->challenge_count && rc == CZ_OK; c++) {
        snprintf(name, sizeof name, "challenge_inclusion_%u", c);
        rc = cz_fc_por_circuit(cs, &d, false, sec ? &sec->inclusion[c] : NULL, NULL, &comm_r_last,
                               name, roots ? &roots[c] : NULL);
    }
    cz_cs_pop_ns(cs);
    return rc == CZ_OK ? cz_cs_error(cs) : rc;
}

static unsigned log2u(unsigned a)
{
    unsigned k = 0;
    while ((1u << k) < a)
        k++;
    return k;
}

int cz_post_shape_check(const cz_post_shape *s, char *err, size_t errlen)
{
    /* the index bits of a path are the leaf's: 3 per octary level, then
     * the sub and top levels' (at most 40, cz_fc_por_circuit packs them) */
    unsigned bits = s ? 3 * s->tree.base_levels + log2u(s->tree.sub_arity ? s->tree.sub_arity : 1) +
                            log2u(s->tree.top_arity ? s->tree.top_arity : 1)
                      : 0;
    if (s == NULL || s->sector_count == 0 || s->challenge_count == 0 || s->tree.log_nodes == 0 ||
        s->tree.log_nodes > 40 || bits != s->tree.log_nodes) {
        cz_msgf(err, errlen, "PoSt circuit: unsupported shape");
        return CZ_ERR_INVALID_ARG;
    }
    return CZ_OK;
}

int cz_post_synthesize(cz_cs *cs, const cz_post_shape *s, const cz_post_circuit_sector *sec,
                       char *err, size_t errlen)
{
    if (cs == NULL) {
        cz_msgf(err, errlen, "PoSt circuit: NULL argument");
        return CZ_ERR_INVALID_ARG;
    }
    int rc = cz_post_shape_check(s, err, errlen);
    /* blank sectors are alike: after the first a recording copies it
     * (cz_cs_repeat; unsupported in the other modes and with namespaces,
     * where the loop goes on) */
    cz_cs_mark mark;
    cz_cs_mark_here(cs, &mark);
    for (unsigned i = 0; rc == CZ_OK && i < s->sector_count; i++) {
        if ((rc = cz_post_sector_synth(cs, s, sec ? &sec[i] : NULL, i, NULL)) != CZ_OK) {
            cz_msgf(err, errlen, "PoSt circuit: sector %u: %s%s", i, cz_strerror(rc),
                    rc == CZ_ERR_INVALID_ARG ? " (an inclusion path not of the tree's shape)" : "");
        } else if (i == 0 && sec == NULL) {
            int copy = cz_cs_repeat(cs, &mark, s->sector_count - 1);
            if (copy == CZ_OK)
                break;
            if (copy != CZ_ERR_UNSUPPORTED)
                cz_msgf(err, errlen, "PoSt circuit: copying sector 0: %s", cz_strerror(rc = copy));
        }
    }
    return rc;
}
