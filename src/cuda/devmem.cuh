/* Internal to src/cuda: the device memory account (devmem.cu) as the
 * modules that decide residency read it. */
#ifndef CZ_CUDA_DEVMEM_CUH
#define CZ_CUDA_DEVMEM_CUH

#include <stddef.h>
#include <stdint.h>

/* Bytes cz_cuda_malloc can still give on the current device: the budget's
 * unreserved part plus the calling thread's reservation's unused part.
 * CZ_OK, or the CUDA error (room 0). */
int cz_cuda_mem_room(size_t *room);

/* The current device's budget and the bytes held outside reservations
 * (the kept copies: parameters, matrices, tables) for planning, the budget
 * first lowered to what the device can still give (ours allocated plus its
 * free memory, less the margin).  CZ_OK, or the CUDA error (both 0). */
int cz_cuda_mem_kept(uint64_t *held, uint64_t *budget);

#endif /* CZ_CUDA_DEVMEM_CUH */
