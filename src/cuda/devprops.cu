/* Device properties, read once per device (devprops.cuh), and whether
 * cuzk's kernels run on a device (include/cuzk/cuda.h:
 * cz_cuda_device_check): its compute capability (arch.h's floor), then a
 * probe kernel built like every other for CZ_CUDA_ARCHS, so its launch
 * finds an image exactly when theirs do.  A launch without SASS for the
 * device compiles the PTX first, per source file (lazy module loading):
 * the probe pays for its own, the others on their first kernels. */
#include <cuda_runtime.h>
#include <pthread.h>
#include <string.h>

#include "cuda/arch.h"
#include "cuda/cuda_err.cuh"
#include "cuda/devprops.cuh"
#include "cuzk/cuda.h"
#include "cuzk/err.h"

#ifndef CZ_CUDA_ARCHS
#error "CMakeLists.txt defines CZ_CUDA_ARCHS, the build's architectures, for this file"
#endif

#define MAX_DEVICES 16

namespace
{

struct entry {
    bool read;    /* p holds the properties */
    bool checked; /* rc and msg hold the check's outcome */
    cz_devprops p;
    int rc;
    char msg[512];
};

pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
entry devs[MAX_DEVICES];

__global__ void probe(void) {}

/* Device dev's entry with its properties read (dev current); under mu. */
int props(int dev, entry **out)
{
    if (dev < 0 || dev >= MAX_DEVICES)
        return CZ_ERR_UNSUPPORTED;
    entry *e = &devs[dev];
    if (!e->read) {
        cudaDeviceProp d;
        int rc = cuda_err(cudaGetDeviceProperties(&d, dev));
        if (rc)
            return rc;
        e->p.major = d.major;
        e->p.minor = d.minor;
        e->p.sms = d.multiProcessorCount;
        e->p.smem_optin = d.sharedMemPerBlockOptin;
        static_assert(sizeof e->p.name == sizeof d.name, "the runtime's name fits");
        memcpy(e->p.name, d.name, sizeof e->p.name);
        e->p.name[sizeof e->p.name - 1] = 0;
        e->read = true;
    }
    *out = e;
    return CZ_OK;
}

/* The capability, then the probe on its own stream, on device dev (the
 * current one); the outcome in e. */
void check(int dev, entry *e)
{
    const cz_devprops &p = e->p;
    e->rc = cz_cuda_cc_check(dev, p.name, p.major, p.minor, e->msg, sizeof e->msg);
    if (e->rc)
        return;
    cudaStream_t st = NULL;
    cudaError_t ce = cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking);
    if (ce == cudaSuccess) {
        probe<<<1, 1, 0, st>>>();
        ce = cudaGetLastError();
        if (ce == cudaSuccess)
            ce = cudaStreamSynchronize(st);
        cudaStreamDestroy(st);
    }
    e->rc = cuda_err(ce);
    if (ce == cudaErrorNoKernelImageForDevice || ce == cudaErrorUnsupportedPtxVersion)
        e->rc = cz_cuda_image_refusal(dev, p.name, p.major, p.minor, CZ_CUDA_ARCHS,
                                      ce == cudaErrorUnsupportedPtxVersion, e->msg, sizeof e->msg);
    else if (e->rc)
        cz_msgf(e->msg, sizeof e->msg, "CUDA device %d (%s): the probe kernel failed: %s", dev,
                p.name, cudaGetErrorString(ce));
}

} /* namespace */

int cz_devprops_get(const cz_devprops **out)
{
    int dev;
    int rc = cuda_err(cudaGetDevice(&dev));
    if (rc)
        return rc;
    pthread_mutex_lock(&mu);
    entry *e = NULL;
    rc = props(dev, &e);
    pthread_mutex_unlock(&mu);
    if (!rc)
        *out = &e->p;
    return rc;
}

extern "C" int cz_cuda_device_check(int ordinal, char *err, size_t errlen)
{
    int count = cz_cuda_device_count(), cur = 0;
    if (!count)
        return cz_fail(err, errlen, CZ_ERR_UNSUPPORTED, "no CUDA device");
    int rc = cuda_err(cudaGetDevice(&cur));
    if (rc)
        return cz_fail(err, errlen, rc, "CUDA: %s", cz_strerror(rc));
    if (ordinal < 0)
        ordinal = cur;
    if (ordinal >= count || ordinal >= MAX_DEVICES)
        return cz_fail(err, errlen, CZ_ERR_INVALID_ARG, "CUDA device %d is not there (%d found)",
                       ordinal, count);
    pthread_mutex_lock(&mu);
    entry *e = &devs[ordinal];
    if (!e->checked) {
        rc = ordinal == cur ? CZ_OK : cuda_err(cudaSetDevice(ordinal));
        if (!rc)
            rc = props(ordinal, &e);
        if (!rc) {
            check(ordinal, e);
            /* a device too old or without an image stays so: kept; other
             * failures are tried again on the next call */
            e->checked = e->rc == CZ_OK || e->rc == CZ_ERR_UNSUPPORTED;
            rc = e->rc;
            cz_msgf(err, errlen, "%s", e->msg);
        } else {
            cz_msgf(err, errlen, "CUDA device %d: %s", ordinal, cz_strerror(rc));
        }
        if (ordinal != cur)
            cudaSetDevice(cur);
    } else {
        rc = e->rc;
        cz_msgf(err, errlen, "%s", e->msg);
    }
    pthread_mutex_unlock(&mu);
    return rc;
}
