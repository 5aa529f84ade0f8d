/* Operations written once for any field type F with F##_mul, F##_sqr,
 * F##_cmov, F##_is_zero and a ONE/ZERO constant.  Included by fp.c and fr.c:
 *
 *   CZ_FIELD_DEFINE_POW(cz_fp, CZ_FP_ONE)
 *   CZ_FIELD_DEFINE_BATCH_INV(cz_fp, CZ_FP_ONE, CZ_FP_ZERO)
 */
#ifndef CZ_FF_FIELD_TEMPLATE_H
#define CZ_FF_FIELD_TEMPLATE_H

/* r = a^e, e as n little-endian u64 limbs.  4-bit fixed windows, left to
 * right: every window costs 4 squarings and one multiplication by a table
 * entry read with a constant-time scan, so time depends on n only. */
#define CZ_FIELD_DEFINE_POW(T, ONE)                                          \
    void T##_pow(T *r, const T *a, const uint64_t *e, size_t n)              \
    {                                                                        \
        T tab[16], acc = ONE;                                                \
        tab[0] = ONE;                                                        \
        tab[1] = *a;                                                         \
        for (int i = 2; i < 16; i++)                                         \
            T##_mul(&tab[i], &tab[i - 1], a);                                \
        for (size_t i = n; i-- > 0;) {                                       \
            for (int shift = 60; shift >= 0; shift -= 4) {                   \
                unsigned d = (unsigned)(e[i] >> shift) & 15;                 \
                T sel = ONE;                                                 \
                for (int k = 0; k < 4; k++)                                  \
                    T##_sqr(&acc, &acc);                                     \
                for (unsigned k = 1; k < 16; k++)                            \
                    T##_cmov(&sel, &tab[k], k == d);                         \
                T##_mul(&acc, &acc, &sel);                                   \
            }                                                                \
        }                                                                    \
        *r = acc;                                                            \
    }

/* Montgomery's trick: one inversion and 3(n-1) multiplications. */
#define CZ_FIELD_DEFINE_BATCH_INV(T, ONE, ZERO)                              \
    void T##_batch_inv(T *r, const T *a, size_t n, T *scratch)               \
    {                                                                        \
        T acc = ONE, inv, t;                                                 \
        for (size_t i = 0; i < n; i++) {                                     \
            scratch[i] = acc;                                                \
            if (!T##_is_zero(&a[i]))                                         \
                T##_mul(&acc, &acc, &a[i]);                                  \
        }                                                                    \
        T##_inv(&inv, &acc);                                                 \
        for (size_t i = n; i-- > 0;) {                                       \
            if (T##_is_zero(&a[i])) {                                        \
                r[i] = ZERO;                                                 \
                continue;                                                    \
            }                                                                \
            T##_mul(&t, &inv, &scratch[i]);                                  \
            T##_mul(&inv, &inv, &a[i]);                                      \
            r[i] = t;                                                        \
        }                                                                    \
    }

#endif /* CZ_FF_FIELD_TEMPLATE_H */
