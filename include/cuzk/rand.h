/* cuzk: randomness.
 *
 * Two sources, never to be confused:
 *  - cz_prng: xoshiro256**, seeded, reproducible, NOT cryptographic.  For
 *    tests, benchmarks and synthetic data only.
 *  - cz_os_random: the kernel CSPRNG (getrandom).  For every secret (Groth16
 *    r and s, setup toxic waste). */
#ifndef CUZK_RAND_H
#define CUZK_RAND_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    uint64_t s[4];
} cz_prng;

/* Seeds g from a 64-bit seed (expanded with splitmix64); any seed is valid. */
void cz_prng_seed(cz_prng *g, uint64_t seed);

/* Returns the next 64 uniformly distributed bits. */
uint64_t cz_prng_next(cz_prng *g);

/* Fills buf with n bytes from the generator. */
void cz_prng_bytes(cz_prng *g, void *buf, size_t n);

/* Fills buf with n bytes from the OS CSPRNG.  Returns CZ_OK or CZ_ERR_RNG. */
int cz_os_random(void *buf, size_t n);

#ifdef __cplusplus
}
#endif
#endif /* CUZK_RAND_H */
