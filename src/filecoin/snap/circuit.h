/* Between the EmptySectorUpdate circuit (circuit.c) and its
 * witness-only, challenge-parallel synthesis (witness.c). */
#ifndef CZ_SNAP_CIRCUIT_H
#define CZ_SNAP_CIRCUIT_H

#include "cuzk/filecoin/snap.h"
#include "cuzk/gadgets.h"

#define CZ_SNAP_MAX_BITS 40 /* node bits: 31 at 64GiB */

/* What every challenge reads from the header: the bits of k_and_h_select
 * (partition bits, then the six h_select bits), phi, the two TreeR roots,
 * the apex leaves and every digest's 255 challenge bits.  The arrays are
 * the header's own (cz_snap_header_free). */
typedef struct {
    cz_abit khb[CZ_SNAP_MAX_BITS];
    cz_num phi, root_r_old, root_r_new;
    cz_num *apex;   /* apex_leaves */
    cz_abit *cbits; /* digests x CZ_FR_NUM_BITS */
} cz_snap_header;

/* k, h and p against u (pub and p NULL: blank).  CZ_OK or
 * CZ_ERR_INVALID_ARG with err set. */
int cz_snap_check(const cz_fc_snap_shape *u, const cz_fc_snap_public *pub,
                  const cz_fc_snap_partition_proof *p, char *err, size_t errlen);
/* Everything before the challenges, in the circuit's order (the public
 * inputs, phi, comm_c and the roots, the apex tree and partition path,
 * gen_challenge_bits); h filled.  CZ_OK, CZ_ERR_NOMEM or the cs's error;
 * h is freed by cz_snap_header_free in every case. */
int cz_snap_header_synth(cz_cs *cs, const cz_fc_snap_shape *u, const cz_fc_snap_public *pub,
                         const cz_fc_snap_partition_proof *p, cz_snap_header *h);
void cz_snap_header_free(cz_snap_header *h);
/* Challenge c (cp its proofs, NULL: blank): c_high, rho, the leaves, the
 * new label, TreeR old and new, the apex leaf and TreeD's path to it.  It
 * allocates no input, and the same variables for every c.  CZ_OK,
 * CZ_ERR_NOMEM or a gadget's error. */
int cz_snap_challenge(cz_cs *cs, const cz_fc_snap_shape *u, const cz_snap_header *h,
                      const cz_fc_snap_challenge_proof *cp, unsigned c);

#endif
