/* Which devices cuzk's kernels run on (arch.h). */
#include "cuda/arch.h"

#include "cuzk/err.h"

bool cz_cuda_cc_supported(int major, int minor)
{
    return major > CZ_CUDA_MIN_MAJOR || (major == CZ_CUDA_MIN_MAJOR && minor >= CZ_CUDA_MIN_MINOR);
}

int cz_cuda_cc_check(int ordinal, const char *name, int major, int minor, char *err, size_t errlen)
{
    if (cz_cuda_cc_supported(major, minor))
        return CZ_OK;
    return cz_fail(err, errlen, CZ_ERR_UNSUPPORTED,
                   "CUDA device %d (%s) has compute capability %d.%d: cuzk needs %d.%d "
                   "(Turing) or newer",
                   ordinal, name, major, minor, CZ_CUDA_MIN_MAJOR, CZ_CUDA_MIN_MINOR);
}

int cz_cuda_image_refusal(int ordinal, const char *name, int major, int minor, const char *archs,
                          bool driver_old, char *err, size_t errlen)
{
    if (driver_old)
        return cz_fail(err, errlen, CZ_ERR_UNSUPPORTED,
                       "CUDA device %d (%s, compute capability %d.%d) cannot run this build's "
                       "kernels: its driver is older than the CUDA toolkit that compiled their "
                       "PTX (CZ_CUDA_ARCHS %s): update the driver, or build with %d%d-real in "
                       "CZ_CUDA_ARCHS",
                       ordinal, name, major, minor, archs, major, minor);
    return cz_fail(err, errlen, CZ_ERR_UNSUPPORTED,
                   "CUDA device %d (%s, compute capability %d.%d) cannot run this build's "
                   "kernels: the build holds no image for it (CZ_CUDA_ARCHS %s): build with "
                   "%d%d in CZ_CUDA_ARCHS",
                   ordinal, name, major, minor, archs, major, minor);
}
