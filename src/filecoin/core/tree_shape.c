/* The form, level count and arities of a sector's trees (see
 * cuzk/filecoin/core.h): TreeD is binary SHA-256 over every node, a Single
 * proof of log_nodes levels; TreeR and TreeC are Poseidon trees of
 * shape->base_levels 8-ary levels, then (sub_arity 8) one 8-ary level
 * joining 8 such base trees (a Sub proof), then (top_arity 2) one binary
 * level joining 2 sub trees (a Top proof): filecoin-proofs constants.rs's
 * SectorShape types, LCTree<Poseidon, U8, sub, top>. */
#include "cuzk/filecoin/core.h"

cz_fc_proof_form cz_fc_tree_form(cz_fc_tree_kind k, const cz_fc_shape *s)
{
    if (k == CZ_FC_TREE_D)
        return CZ_FC_PROOF_SINGLE;
    if (s->top_arity)
        return CZ_FC_PROOF_TOP;
    return s->sub_arity ? CZ_FC_PROOF_SUB : CZ_FC_PROOF_SINGLE;
}

unsigned cz_fc_tree_levels(cz_fc_tree_kind k, const cz_fc_shape *s)
{
    if (k == CZ_FC_TREE_D)
        return s->log_nodes;
    return s->base_levels + (s->sub_arity ? 1u : 0u) + (s->top_arity ? 1u : 0u);
}

unsigned cz_fc_tree_arity(cz_fc_tree_kind k, const cz_fc_shape *s, unsigned level)
{
    if (level >= cz_fc_tree_levels(k, s))
        return 0;
    if (k == CZ_FC_TREE_D)
        return 2;
    if (level < s->base_levels)
        return 8;
    if (level == s->base_levels && s->sub_arity)
        return s->sub_arity;
    return s->top_arity;
}
