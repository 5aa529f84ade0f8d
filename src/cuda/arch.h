/* Internal to src/cuda: which devices cuzk's kernels run on, and the
 * messages that refuse the others.  Plain C with no CUDA call, so that CI
 * tests it without a GPU (tests/test_cuda_arch.c); src/cuda/devprops.cu
 * feeds it the device's properties.
 *
 * The floor is compute capability 7.5 (Turing): the MSM's warp-aggregated
 * atomics use __match_any_sync (7.0), and nvcc 13, the toolkit cuzk is
 * built with, generates nothing older than sm_75, so an older card would
 * find no image in the fatbin anyway.  CMakeLists.txt refuses such entries
 * in CZ_CUDA_ARCHS. */
#ifndef CZ_CUDA_ARCH_H
#define CZ_CUDA_ARCH_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CZ_CUDA_MIN_MAJOR 7
#define CZ_CUDA_MIN_MINOR 5

/* Whether compute capability major.minor is at least CZ_CUDA_MIN_MAJOR.
 * CZ_CUDA_MIN_MINOR. */
bool cz_cuda_cc_supported(int major, int minor);

/* CZ_OK when device `ordinal`, called name, of compute capability
 * major.minor is new enough; else CZ_ERR_UNSUPPORTED with a message in
 * err (errlen bytes, cz_msgf) naming the device, its capability and the
 * minimum. */
int cz_cuda_cc_check(int ordinal, const char *name, int major, int minor, char *err, size_t errlen);

/* The refusal of a supported device on which this build's kernels do not
 * load: archs is the build's CZ_CUDA_ARCHS (comma-separated); driver_old:
 * the fatbin's PTX would serve the device but its driver is older than
 * the toolkit that wrote it (cudaErrorUnsupportedPtxVersion), else the
 * fatbin holds neither SASS nor PTX for it (cudaErrorNoKernelImageForDevice).
 * The message names the device, its capability, the architectures and
 * what to do; returns CZ_ERR_UNSUPPORTED. */
int cz_cuda_image_refusal(int ordinal, const char *name, int major, int minor, const char *archs,
                          bool driver_old, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif /* CZ_CUDA_ARCH_H */
