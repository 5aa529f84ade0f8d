/* Internals shared by the constraint system (cs.c), the finished R1CS
 * (r1cs.c), the pre-compiled file (pce.c) and the fingerprint
 * (fingerprint.c).  Not part of the public API. */
#ifndef CZ_CS_INTERNAL_H
#define CZ_CS_INTERNAL_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "cuzk/blake2b.h"
#include "cuzk/cs.h"

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "cuzk's R1CS layout assumes a little-endian host"
#endif

/* Every large array of this module goes through these two functions, so
 * they can be routed to the tracked allocator later.  cz_cs_mem_realloc
 * behaves as realloc (p NULL: allocate; returns NULL on failure with p
 * untouched, or for n == 0 after freeing p); cz_cs_mem_free(NULL) is a
 * no-op. */
void *cz_cs_mem_realloc(void *p, size_t n);
void cz_cs_mem_free(void *p);

/* Where the matrices live. */
typedef enum {
    CZ_R1CS_OWNED = 0, /* arrays from cz_cs_mem_realloc, freed with r */
    CZ_R1CS_MAPPED,    /* inside a file mapping, unmapped with r */
    CZ_R1CS_BORROWED,  /* inside a caller's buffer (cz_pce_load_mem) */
} cz_r1cs_storage;

struct cz_r1cs {
    uint64_t n_in, n_aux, n_rows, n_circ;
    cz_csr m[3];
    uint64_t *dens[3]; /* indexed by cz_density */
    size_t dens_count[3];
    /* Namespaces (all NULL when not recorded): row_ns[i] for i < n_circ is
     * the entry of row i; entry e has parent ns_parent[e] (entry 0 is the
     * root) and name names + ns_name[e]. */
    uint32_t *row_ns;
    uint32_t *ns_parent, *ns_name;
    char *names;
    size_t n_ns, names_len;
    cz_r1cs_storage storage;
    void *map; /* CZ_R1CS_MAPPED */
    size_t map_len;
    _Atomic(cz_r1cs_free_hook) on_free; /* cz_r1cs_set_free_hook */
};

/* The hash of a dictionary coefficient (cs.c records, pce.c checks that
 * entries are distinct): the four limbs folded, then murmur3's 64-bit
 * finaliser, so that the low bits that pick a slot depend on every limb. */
static inline uint64_t cz_cs_coef_hash(const cz_fr *c)
{
    uint64_t h = c->l[0] ^ (c->l[1] << 16 | c->l[1] >> 48) ^ (c->l[2] << 32 | c->l[2] >> 32) ^
                 (c->l[3] << 48 | c->l[3] >> 16);
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ULL;
    return h ^ (h >> 33);
}

/* Allocates and fills r's three density bitmaps from its matrices.
 * CZ_OK or CZ_ERR_NOMEM. */
int cz_r1cs_build_densities(cz_r1cs *r);

/* One matrix's stream of the fingerprint (format in cs.h): bytes staged in
 * buf and hashed by the kilobyte, so the per-entry cost is a store.
 * fingerprint.c. */
typedef struct {
    cz_blake2b_ctx h;
    size_t fill;
    uint8_t buf[4096];
} cz_fp_stream;

void cz_fp_stream_init(cz_fp_stream *s);
/* Hashes the staged bytes. */
void cz_fp_stream_flush(cz_fp_stream *s);
/* The stream's 32-byte hash; s must be initialised again before reuse. */
void cz_fp_stream_final(cz_fp_stream *s, uint8_t out[32]);
/* fp->digest from fp's counts and the three stream hashes. */
void cz_fp_digest(cz_r1cs_fingerprint *fp, const uint8_t h[3][32]);

/* A row header: its number of entries. */
static inline void cz_fp_put_row(cz_fp_stream *s, uint32_t n)
{
    if (s->fill + 4 > sizeof s->buf)
        cz_fp_stream_flush(s);
    memcpy(s->buf + s->fill, &n, 4);
    s->fill += 4;
}

/* An entry: index among its kind of variable, aux or input, coefficient
 * kind (CZ_CSR_*) and, for CZ_CSR_GEN, the coefficient c. */
static inline void cz_fp_put_entry(cz_fp_stream *s, uint32_t index, bool aux, uint32_t kind,
                                   const cz_fr *c)
{
    if (s->fill + 36 > sizeof s->buf)
        cz_fp_stream_flush(s);
    uint32_t code = (uint32_t)aux << 31 | kind << 29 | index;
    memcpy(s->buf + s->fill, &code, 4);
    s->fill += 4;
    if (kind == CZ_CSR_GEN) {
        cz_fr_to_bytes_le(s->buf + s->fill, c);
        s->fill += 32;
    }
}

#endif /* CZ_CS_INTERNAL_H */
