/* snarkjs .wtns reader (format in include/cuzk/circom.h). */
#include <stdlib.h>
#include <string.h>

#include "binfile.h"
#include "cuzk/circom.h"
#include "cuzk/err.h"

enum { WTNS_HEADER = 1, WTNS_DATA = 2 };

static int load(void *out, const uint8_t *data, size_t len, char *err, size_t errlen)
{
    cz_circom_wtns *w = out;
    cz_binfile bf;
    cz_binfile_cursor hdr, vals;
    uint32_t n = 0;
    int rc = cz_binfile_open(&bf, data, len, "wtns", 2, 2, err, errlen);
    if (rc != CZ_OK)
        return rc;
    rc = cz_binfile_section_get(&bf, &hdr, WTNS_HEADER, true, "header", err, errlen);
    if (rc == CZ_OK)
        rc = cz_binfile_section_get(&bf, &vals, WTNS_DATA, true, "witness", err, errlen);
    if (rc == CZ_OK)
        rc = cz_binfile_field(&hdr, err, errlen);
    if (rc == CZ_OK)
        rc = cz_binfile_u32(&hdr, &n, "nWitness", err, errlen);
    if (rc == CZ_OK)
        rc = cz_binfile_end(&hdr, err, errlen);
    /* The count is checked against the section's size before allocating. */
    if (rc == CZ_OK && vals.size != (uint64_t)n * CZ_FR_BYTES)
        rc = cz_fail(err, errlen, CZ_ERR_BAD_FORMAT,
                     "wtns: offset %llu: witness section has %llu bytes, nWitness = %u "
                     "needs %llu",
                     (unsigned long long)vals.off, (unsigned long long)vals.size, n,
                     (unsigned long long)n * CZ_FR_BYTES);
    if (rc == CZ_OK) {
        w->w = malloc((size_t)n * sizeof *w->w + 1); /* +1: never malloc(0) */
        if (w->w == NULL)
            rc = cz_fail(err, errlen, CZ_ERR_NOMEM, "wtns: out of memory for %u values", n);
    }
    for (uint32_t i = 0; rc == CZ_OK && i < n; i++)
        rc = cz_binfile_fr(&vals, &w->w[i], "a witness value", err, errlen);
    if (rc == CZ_OK)
        w->n = n;
    cz_binfile_close(&bf);
    return rc;
}

/* cz_circom_wtns_load_mem and cz_circom_wtns_load (cuzk/circom.h). */
CZ_BINFILE_LOADERS(cz_circom_wtns, "wtns", load)

void cz_circom_wtns_free(cz_circom_wtns *w)
{
    if (w == NULL)
        return;
    free(w->w);
    memset(w, 0, sizeof *w);
}
