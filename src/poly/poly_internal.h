/* Internals of the NTT module shared by ntt.c and h.c.  Not public API. */
#ifndef CZ_POLY_INTERNAL_H
#define CZ_POLY_INTERNAL_H

#include "cuzk/poly.h"

/* Schedule constants (see ntt.c for what they trade). */
#define NTT_LEAF_LOG     14 /* largest contiguous transform run directly */
#define NTT_TOP_LEAF_LOG 10 /* domains up to this size never use four-step */
#define NTT_COL_LOG      9  /* largest column transform of a four-step level */
#define NTT_COL_W        8  /* columns per column task (gathered together) */

/* Which coset a scaling uses: none, g, or g^-1. */
enum { NTT_NO_COSET = -1, NTT_COSET_G = 0, NTT_COSET_GINV = 1 };

struct cz_ntt_domain {
    unsigned log_n;
    unsigned kr, kc; /* top four-step split, n = 2^kr rows x 2^kc columns
                        (kr = 0: the whole transform is one leaf) */
    unsigned lo_log; /* split of the power tables below */
    size_t n;
    cz_fr omega[2]; /* omega_n, omega_n^-1 */
    cz_fr gamma[2]; /* g = 7, g^-1 */
    cz_fr n_inv;    /* 1/n */
    cz_fr z_inv;    /* 1/(g^n - 1): Z(X) = X^n - 1 on the coset g<omega> */
    cz_fr omega2n;  /* omega_2n (omega2n^2 = omega_n): snarkjs's odd coset is
                       omega2n <omega_n> */
    /* stage[s][h + i] = w_2h^i for h = 2^0 .. 2^(L-1), i < h, where w is
     * omega (s = 0) or omega^-1 (s = 1) of order 2h and L = min(log_n,
     * NTT_LEAF_LOG); entry 0 unused.  Every radix-2 stage of every leaf reads
     * its twiddles contiguously from here. */
    cz_fr *stage[2];
    /* omega_n^(+-e) = plo[s][e mod 2^lo_log] * phi[s][e >> lo_log]. */
    cz_fr *plo[2], *phi[2];
    /* Coset factors for the top split (R = 2^kr, C = 2^kc), gamma_s as
     * above: E[s][rho] = gamma_s^(C rho), F[s][kappa] = gamma_s^(R bitrev(kappa)). */
    cz_fr *E[2], *F[2];
};

/* One transform without permutation: DIF (natural -> bit-reversed) when
 * dit == 0, DIT (bit-reversed -> natural) when dit == 1; root omega^-1 when
 * inv.  The coefficient vector (the input of a forward, the output of an
 * inverse transform) is multiplied by c0 * gamma^j at coefficient j, where
 * gamma is chosen by coset (NTT_NO_COSET: 1) and c0 may be NULL (1); the
 * multiplication is folded into the transform where possible. */
void cz_ntt_exec(const cz_ntt_domain *d, cz_fr *x, int dit, int inv, const cz_fr *c0, int coset,
                 cz_pool *pool);

/* x <- bitrev(x * y - z) elementwise then permuted (y, z NULL: only the
 * permutation).  n = 2^log_n. */
void cz_ntt_bitrev_fused(cz_fr *x, const cz_fr *y, const cz_fr *z, unsigned log_n, cz_pool *pool);

#endif /* CZ_POLY_INTERNAL_H */
