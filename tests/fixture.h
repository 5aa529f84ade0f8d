/* Test helpers for file fixtures (tests/data/<dir>/<name>) and for
 * corrupting binary files in place. */
#ifndef CZ_TEST_FIXTURE_H
#define CZ_TEST_FIXTURE_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/ec.h"

typedef struct {
    uint8_t *p;
    size_t n;
} tf_blob;

/* Path of tests/data/<dir>/<name>, or $CZ_TEST_DATA/<dir>/<name>. */
void tf_fixture_path(char *out, size_t n, const char *dir, const char *name);

/* The whole fixture on the heap, NUL-terminated after its n bytes (JSON reads
 * as a string).  A failed read is a failed check and an empty blob. */
tf_blob tf_fixture(const char *dir, const char *name);
/* The same for any file. */
tf_blob tf_read_file(const char *path);

/* Writes n bytes at p to dir/name (a fuzz seed); 0, or 1 when that failed
 * (said on stderr). */
int tf_write_file(const char *dir, const char *name, const void *p, size_t n);

/* An exact-size heap copy of the first n bytes of b, zero-filled past b.n,
 * so ASan sees any read past its end. */
tf_blob tf_blob_prefix(tf_blob b, size_t n);

uint32_t tf_rd32le(const uint8_t *p);
uint64_t tf_rd64le(const uint8_t *p);
void tf_wr32le(uint8_t *p, uint32_t v);
void tf_wr64le(uint8_t *p, uint64_t v);

/* Offset of the (type u32, size u64) table entry of the first section of the
 * given type in a well-formed iden3 binfile (.r1cs, .wtns, .zkey); the
 * section's data starts 12 bytes later.  0 if absent. */
size_t tf_binfile_entry(tf_blob b, uint32_t type);

/* k times the generator for a random k from tf_rng (the keys and parameter
 * files of the tests); with zero_one_in > 0 a second draw makes k zero (the
 * point at infinity) one time in zero_one_in. */
void tf_rand_g1(cz_g1_affine *r, unsigned zero_one_in);
void tf_rand_g2(cz_g2_affine *r, unsigned zero_one_in);

#endif
