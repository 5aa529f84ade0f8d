/* Randomness: a seeded xoshiro256** for tests and synthetic data, and the
 * kernel CSPRNG for secrets. */
#include <errno.h>
#include <string.h>
#include <sys/random.h>

#include "cuzk/err.h"
#include "cuzk/rand.h"

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

void cz_prng_seed(cz_prng *g, uint64_t seed)
{
    for (int i = 0; i < 4; i++)
        g->s[i] = splitmix64(&seed);
}

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

/* xoshiro256** (Blackman and Vigna). */
uint64_t cz_prng_next(cz_prng *g)
{
    uint64_t *s = g->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

void cz_prng_bytes(cz_prng *g, void *buf, size_t n)
{
    uint8_t *p = buf;
    while (n > 0) {
        uint64_t v = cz_prng_next(g);
        size_t k = n < 8 ? n : 8;
        memcpy(p, &v, k);
        p += k;
        n -= k;
    }
}

int cz_os_random(void *buf, size_t n)
{
    uint8_t *p = buf;
    while (n > 0) {
        ssize_t got = getrandom(p, n, 0);
        if (got < 0) {
            if (errno == EINTR)
                continue;
            return CZ_ERR_RNG;
        }
        p += got;
        n -= (size_t)got;
    }
    return CZ_OK;
}
