/* Internals shared by the constraint system (cs.c), the matrix products
 * (spmv.c) and the pre-compiled file (pce.c).  Not part of the public API. */
#ifndef CZ_CS_INTERNAL_H
#define CZ_CS_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

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
};

/* Allocates and fills r's three density bitmaps from its matrices.
 * CZ_OK or CZ_ERR_NOMEM. */
int cz_r1cs_build_densities(cz_r1cs *r);

#endif /* CZ_CS_INTERNAL_H */
