/* Between the PoRep circuit (porep_circuit.c) and its witness-only,
 * challenge-parallel synthesis (porep_witness.c). */
#ifndef CZ_POREP_CIRCUIT_H
#define CZ_POREP_CIRCUIT_H

#include <stdbool.h>

#include "cuzk/filecoin.h"
#include "cuzk/gadgets.h"

#define CZ_POREP_MAX_LAYERS 15
/* The label's SHA-256 message: replica id, layer and node (2 x 256 bits),
 * then the 37 parents of 256 bits each. */
#define CZ_POREP_SCRATCH_BITS ((2 + CZ_FC_LABEL_PARENTS) * 256)

/* What every challenge uses from the header. */
typedef struct {
    cz_bool replica_bits[256]; /* replica_id's to_bits_le reversed per byte */
    cz_num comm_d, comm_c, comm_r_last;
} cz_porep_header;

bool cz_fc_porep_dims_equal(const cz_fc_porep_dims *a, const cz_fc_porep_dims *b);
/* The shape is supported and, with c1, c1 is of it and has partition k.
 * CZ_OK or CZ_ERR_INVALID_ARG with err set. */
int cz_porep_check_c1(const cz_fc_porep_dims *d, const cz_fc_c1 *c1, unsigned k, char *err,
                      size_t errlen);
/* The header (c1 NULL: blank).  CZ_OK or the cs's error. */
int cz_porep_header_synth(cz_cs *cs, const cz_fc_c1 *c1, cz_porep_header *h);
/* One challenge (p NULL: blank); scratch holds CZ_POREP_SCRATCH_BITS
 * bits.  CZ_OK, CZ_ERR_INVALID_ARG (a path of another shape), or an error
 * of a gadget. */
int cz_porep_challenge(cz_cs *cs, const cz_fc_porep_dims *d, const cz_porep_header *h,
                       const cz_fc_vanilla_proof *p, cz_bool *scratch);

#endif
