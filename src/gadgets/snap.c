/* storage-proofs-update's gadgets (SnapDeals, gadgets.rs): the binary
 * decomposition of the challenge digests, the selection of a challenge's
 * high bits and the new replica label. */
#include "cuzk/err.h"
#include "gadgets/gadgets_internal.h"

/* 255 allocs, least significant first, then (sum 2^i b_i) * 1 = n. */
void cz_snap_num_to_bits(cz_cs *cs, const cz_num *n, cz_abit out[CZ_FR_NUM_BITS])
{
    cz_g_num_abits(cs, n, out);
    if (!cz_cs_is_recording(cs))
        return;
    cz_g_abc e;
    cz_g_abc_init(&e);
    cz_g_lc_add_packed(&e.a, out, CZ_FR_NUM_BITS);
    cz_lc_add(&e.b, CZ_CS_ONE);
    cz_lc_add(&e.c, n->var);
    cz_g_abc_enforce(cs, &e);
}

/* Per k: c_high = pack_bits(top hs[k] bits), z_k = c_high * sel_k
 * allocated with c_high * sel_k = z_k; then sum z_k allocated with
 * (sum z_k) * 1 = selected. */
int cz_snap_challenge_high_bits(cz_cs *cs, const cz_abit *c_bits, size_t bit_len,
                                const cz_abit *h_select, const size_t *hs, size_t n_hs, cz_num *out)
{
    if (!cs || !c_bits || !h_select || !hs || !out || n_hs == 0 || n_hs > 64)
        return CZ_ERR_INVALID_ARG;
    for (size_t k = 0; k < n_hs; k++)
        if (hs[k] == 0 || hs[k] > bit_len || hs[k] > 64)
            return CZ_ERR_INVALID_ARG;
    bool rec = cz_cs_is_recording(cs);
    cz_g_abc last;
    cz_g_abc_init(&last);
    cz_fr total = CZ_FR_ZERO;
    for (size_t k = 0; k < n_hs; k++) {
        cz_bool top[64];
        for (size_t i = 0; i < hs[k]; i++)
            top[i] = cz_bool_is(c_bits[bit_len - hs[k] + i]);
        cz_num c_high = cz_pack_bits(cs, top, hs[k]);
        cz_num z = cz_num_alloc(cs, h_select[k].value ? &c_high.value : &CZ_FR_ZERO);
        cz_fr_add(&total, &total, &z.value);
        if (rec) {
            cz_g_abc e;
            cz_g_abc_init(&e);
            cz_lc_add(&e.a, c_high.var);
            cz_lc_add(&e.b, h_select[k].var);
            cz_lc_add(&e.c, z.var);
            cz_g_abc_enforce(cs, &e);
            cz_lc_add(&last.a, z.var);
        }
    }
    *out = cz_num_alloc(cs, &total);
    if (rec) {
        cz_lc_add(&last.b, CZ_CS_ONE);
        cz_lc_add(&last.c, out->var);
        cz_g_abc_enforce(cs, &last);
    } else {
        cz_lc_free(&last.a);
    }
    return CZ_OK;
}

/* label_d_new * rho = p, then label_r_new = label_r_old + p with
 * (label_r_old + p) * 1 = label_r_new: constraint::add's rows. */
cz_num cz_snap_label_r_new(cz_cs *cs, const cz_num *label_r_old, const cz_num *label_d_new,
                           const cz_num *rho)
{
    cz_num p = cz_num_mul(cs, label_d_new, rho);
    return cz_constraint_add(cs, label_r_old, &p);
}

void cz_snap_label_r_new_native(cz_fr *out, const cz_fr *label_r_old, const cz_fr *label_d_new,
                                const cz_fr *rho)
{
    cz_fr p;
    cz_fr_mul(&p, label_d_new, rho);
    cz_fr_add(out, label_r_old, &p);
}
