/* Internal to src/cuda: the device properties that launch shapes and
 * shared-memory sizes follow, read once per device and kept (devprops.cu,
 * which also holds cz_cuda_device_check). */
#ifndef CZ_CUDA_DEVPROPS_CUH
#define CZ_CUDA_DEVPROPS_CUH

#include <stddef.h>

typedef struct {
    int major, minor;  /* compute capability */
    int sms;           /* multiprocessors */
    size_t smem_optin; /* the most shared memory a block may opt in to
                          (sharedMemPerBlockOptin: 64 KiB on sm_75, 99 KiB
                          on sm_86 / 89 / 120, 163 KiB on sm_80, 227 KiB on
                          sm_90 / 100) */
    char name[256];
} cz_devprops;

/* The current device's properties (cudaGetDeviceProperties on its first
 * use, kept until exit; *out stays valid).  CZ_OK, or cuda_err's code
 * (CZ_ERR_UNSUPPORTED for a device ordinal past 15). */
int cz_devprops_get(const cz_devprops **out);

#endif /* CZ_CUDA_DEVPROPS_CUH */
