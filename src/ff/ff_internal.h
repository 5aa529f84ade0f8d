/* Internal constants and helpers of the field module, shared with the tower,
 * curve and pairing code.  Not part of the public API. */
#ifndef CZ_FF_INTERNAL_H
#define CZ_FF_INTERNAL_H

#include "cuzk/ff.h"

/* Moduli (canonical limbs) and Montgomery constants. */
extern const uint64_t cz_p_limbs[6];  /* p */
extern const uint64_t cz_r_limbs[4];  /* r, the group order */
#define CZ_P_N0 0x89f3fffcfffcfffdULL /* -p^-1 mod 2^64 */
#define CZ_R_N0 0xfffffffeffffffffULL /* -r^-1 mod 2^64 */
extern const cz_fp cz_fp_r2;          /* 2^768 mod p (Montgomery of 2^384) */
extern const cz_fr cz_fr_r2;          /* 2^512 mod r */

#endif /* CZ_FF_INTERNAL_H */
