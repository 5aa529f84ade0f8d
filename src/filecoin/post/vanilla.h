/* Between the PoSt vanilla proof's reader and writer (vanilla.c) and
 * its verifier and provers (verify.c, prove.c). */
#ifndef CZ_POST_VANILLA_H
#define CZ_POST_VANILLA_H

#include <stdbool.h>

#include "cuzk/filecoin/post.h"

/* A blob of s can be laid out: at least one challenge, and a TreeR of 1
 * to 40 levels (core/merkle.c's bound) of arities 2 to 8 whose product is the
 * 2^log_nodes leaves. */
bool cz_post_vanilla_shape_ok(const cz_post_shape *s);
/* v has shape s: cz_post_blob_challenges(s) inclusion proofs, each of
 * TreeR's form, level count and arities (cz_fc_tree_*(CZ_FC_TREE_RC,
 * &s->tree)) with every index below its arity: what the reader
 * guarantees, and what the writer, the verifier and the provers
 * require. */
bool cz_post_vanilla_shaped(const cz_post_vanilla *v, const cz_post_shape *s);

#endif
