/* The R1CS fingerprint (format in cuzk/cs.h): the per-matrix streams that
 * COUNT mode feeds while the circuit runs, the final digest, and the same
 * fingerprint read off a finished r1cs. */
#include "cs/cs_internal.h"
#include "cuzk/sha256.h"

void cz_fp_stream_init(cz_fp_stream *s)
{
    (void)cz_blake2b_init(&s->h, 32, NULL, 0); /* a valid length, no key: cannot fail */
    s->fill = 0;
}

void cz_fp_stream_flush(cz_fp_stream *s)
{
    cz_blake2b_update(&s->h, s->buf, s->fill);
    s->fill = 0;
}

void cz_fp_stream_final(cz_fp_stream *s, uint8_t out[32])
{
    cz_fp_stream_flush(s);
    cz_blake2b_final(&s->h, out);
}

void cz_fp_digest(cz_r1cs_fingerprint *fp, const uint8_t h[3][32])
{
    cz_sha256_ctx c;
    cz_sha256_init(&c);
    cz_sha256_update_u64(&c, fp->n_inputs);
    cz_sha256_update_u64(&c, fp->n_aux);
    cz_sha256_update_u64(&c, fp->n_constraints);
    for (int k = 0; k < 3; k++)
        cz_sha256_update(&c, h[k], 32);
    cz_sha256_final(&c, fp->digest);
}

void cz_r1cs_fingerprint_of(const cz_r1cs *r, cz_r1cs_fingerprint *fp)
{
    memset(fp, 0, sizeof *fp);
    fp->n_inputs = r->n_in;
    fp->n_aux = r->n_aux;
    fp->n_constraints = r->n_circ;
    fp->n_rows = r->n_rows;
    uint8_t h[3][32];
    cz_fp_stream s;
    for (int k = 0; k < 3; k++) {
        const cz_csr *m = &r->m[k];
        uint64_t g = 0; /* general entries are numbered in entry order */
        cz_fp_stream_init(&s);
        for (uint64_t row = 0; row < r->n_rows; row++) {
            uint64_t e = cz_csr_row_begin(m, row), end = cz_csr_row_end(m, row);
            cz_fp_put_row(&s, (uint32_t)(end - e));
            for (; e < end; e++) {
                uint32_t x = m->col[e], col = x & CZ_CSR_COL_MASK, kind = CZ_CSR_KIND(x);
                bool aux = col >= r->n_in;
                cz_fp_put_entry(&s, aux ? col - (uint32_t)r->n_in : col, aux, kind,
                                kind == CZ_CSR_GEN ? cz_csr_gen_coef(m, g++) : NULL);
            }
        }
        cz_fp_stream_final(&s, h[k]);
        fp->nnz[k] = m->nnz;
        fp->ngen[k] = m->ngen;
    }
    for (int d = 0; d < 3; d++)
        fp->density[d] = r->dens_count[d];
    cz_fp_digest(fp, h);
}
