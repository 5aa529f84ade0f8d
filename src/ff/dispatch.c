/* Run-time choice of the Montgomery multiply and square.
 *
 * cz_fp_mul, cz_fp_sqr, cz_fr_mul and cz_fr_sqr are GNU indirect functions:
 * the dynamic loader (or the static start-up code) calls the resolver once
 * and binds the symbol to the MULX/ADCX/ADOX version when CPUID reports BMI2
 * and ADX, else to the portable one.  Calls then cost a plain indirect jump
 * through the PLT/GOT, no per-call test. */
#include "cuzk/ff.h"

#if defined(__x86_64__)
#include <cpuid.h>

/* Resolvers run before the sanitizer runtimes are initialised: keep them
 * uninstrumented. */
#if defined(__clang__)
#define CZ_RESOLVER __attribute__((used, disable_sanitizer_instrumentation))
#else
#define CZ_RESOLVER __attribute__((used, no_sanitize("thread", "address", "undefined")))
#endif

CZ_RESOLVER static int cpu_has_mulx_adx(void)
{
    unsigned a, b, c, d;
    if (__get_cpuid_max(0, NULL) < 7)
        return 0;
    __cpuid_count(7, 0, a, b, c, d);
    return (b & (1u << 8)) && (b & (1u << 19)); /* BMI2 and ADX */
}

typedef void fp_mul_fn(cz_fp *, const cz_fp *, const cz_fp *);
typedef void fp_sqr_fn(cz_fp *, const cz_fp *);
typedef void fr_mul_fn(cz_fr *, const cz_fr *, const cz_fr *);
typedef void fr_sqr_fn(cz_fr *, const cz_fr *);

CZ_RESOLVER static fp_mul_fn *resolve_fp_mul(void)
{
    return cpu_has_mulx_adx() ? cz_fp_mul_mulx : cz_fp_mul_portable;
}
CZ_RESOLVER static fp_sqr_fn *resolve_fp_sqr(void)
{
    return cpu_has_mulx_adx() ? cz_fp_sqr_mulx : cz_fp_sqr_portable;
}
CZ_RESOLVER static fr_mul_fn *resolve_fr_mul(void)
{
    return cpu_has_mulx_adx() ? cz_fr_mul_mulx : cz_fr_mul_portable;
}
CZ_RESOLVER static fr_sqr_fn *resolve_fr_sqr(void)
{
    return cpu_has_mulx_adx() ? cz_fr_sqr_mulx : cz_fr_sqr_portable;
}

void cz_fp_mul(cz_fp *r, const cz_fp *a, const cz_fp *b) __attribute__((ifunc("resolve_fp_mul")));
void cz_fp_sqr(cz_fp *r, const cz_fp *a) __attribute__((ifunc("resolve_fp_sqr")));
void cz_fr_mul(cz_fr *r, const cz_fr *a, const cz_fr *b) __attribute__((ifunc("resolve_fr_mul")));
void cz_fr_sqr(cz_fr *r, const cz_fr *a) __attribute__((ifunc("resolve_fr_sqr")));

bool cz_ff_have_mulx(void) { return cpu_has_mulx_adx(); }

#else /* no x86-64: the portable code is the only implementation */

void cz_fp_mul(cz_fp *r, const cz_fp *a, const cz_fp *b) { cz_fp_mul_portable(r, a, b); }
void cz_fp_sqr(cz_fp *r, const cz_fp *a) { cz_fp_sqr_portable(r, a); }
void cz_fr_mul(cz_fr *r, const cz_fr *a, const cz_fr *b) { cz_fr_mul_portable(r, a, b); }
void cz_fr_sqr(cz_fr *r, const cz_fr *a) { cz_fr_sqr_portable(r, a); }
void cz_fp_mul_mulx(cz_fp *r, const cz_fp *a, const cz_fp *b) { cz_fp_mul_portable(r, a, b); }
void cz_fp_sqr_mulx(cz_fp *r, const cz_fp *a) { cz_fp_sqr_portable(r, a); }
void cz_fr_mul_mulx(cz_fr *r, const cz_fr *a, const cz_fr *b) { cz_fr_mul_portable(r, a, b); }
void cz_fr_sqr_mulx(cz_fr *r, const cz_fr *a) { cz_fr_sqr_portable(r, a); }
bool cz_ff_have_mulx(void) { return false; }

#endif

const char *cz_ff_impl_name(void) { return cz_ff_have_mulx() ? "mulx-adx" : "portable"; }
