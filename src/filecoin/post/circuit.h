/* Between the FallbackPoSt circuit (circuit.c) and its witness-only,
 * sector-parallel synthesis (witness.c). */
#ifndef CZ_POST_CIRCUIT_H
#define CZ_POST_CIRCUIT_H

#include "cuzk/filecoin/post.h"
#include "filecoin/porep/circuit.h"

/* The TreeR dims of s for cz_fc_por_circuit (base arity 8). */
void cz_post_tree_dims(cz_fc_porep_dims *d, const cz_post_shape *s);
/* s is a shape the circuit supports: CZ_OK or CZ_ERR_INVALID_ARG, err set. */
int cz_post_shape_check(const cz_post_shape *s, char *err, size_t errlen);
/* Circuit sector i ("sector_<i>"; sec NULL: blank): 1 + challenge_count
 * inputs and the same number of auxiliaries for every sector.  roots, when
 * not NULL, receives the challenge_count roots the inclusion paths hash up
 * to (cz_fc_por_circuit's computed).  CZ_OK, CZ_ERR_INVALID_ARG (a path
 * not of the shape) or the cs's error. */
int cz_post_sector_synth(cz_cs *cs, const cz_post_shape *s, const cz_post_circuit_sector *sec,
                         unsigned i, cz_fr *roots);

#endif
