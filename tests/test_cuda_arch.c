/* Which devices the kernels run on (src/cuda/arch.h), without a GPU: the
 * compute capability floor over every (major, minor) a card reports, the
 * refusals' messages (the device, its capability, the minimum or the
 * build's architectures), and cz_cuda_device_check's answer when no
 * device is there. */
#include <stdio.h>
#include <string.h>

#include "cuda/arch.h"
#include "cuzk/cuda.h"
#include "cuzk/err.h"
#include "tf.h"

/* Every capability from 0.0 to 15.9: supported exactly from 7.5 on, and
 * the named cards where storage providers prove. */
static void test_floor(void)
{
    for (int major = 0; major < 16; major++)
        for (int minor = 0; minor < 10; minor++)
            TF_CHECK_MSG(cz_cuda_cc_supported(major, minor) == (major * 10 + minor >= 75),
                         "capability %d.%d", major, minor);
    static const struct {
        int major, minor;
        bool ok;
    } cards[] = {
        {5, 2, false}, /* Maxwell: GTX 980 */
        {6, 1, false}, /* Pascal: GTX 1080, P4000 */
        {7, 0, false}, /* Volta: V100 */
        {7, 2, false}, /* Xavier */
        {7, 5, true},  /* Turing: T4, RTX 2080 */
        {8, 0, true},  /* A100 */
        {8, 6, true},  /* RTX 3090 */
        {8, 9, true},  /* RTX 4090, L40S */
        {9, 0, true},  /* H100, H200 */
        {10, 0, true}, /* B200 */
        {12, 0, true}, /* RTX 5090 */
    };
    for (size_t i = 0; i < sizeof cards / sizeof cards[0]; i++)
        TF_CHECK(cz_cuda_cc_supported(cards[i].major, cards[i].minor) == cards[i].ok);
    TF_CHECK(!cz_cuda_cc_supported(-1, 9));
}

static void test_cc_refusal(void)
{
    char err[256] = "untouched";
    TF_CHECK(cz_cuda_cc_check(0, "NVIDIA GeForce RTX 3090", 8, 6, err, sizeof err) == CZ_OK);
    TF_CHECK(!strcmp(err, "untouched"));
    TF_CHECK(cz_cuda_cc_check(2, "Quadro P4000", 6, 1, err, sizeof err) == CZ_ERR_UNSUPPORTED);
    TF_CHECK_MSG(strstr(err, "CUDA device 2 (Quadro P4000)") && strstr(err, " 6.1") &&
                     strstr(err, " 7.5"),
                 "%s", err);
    TF_CHECK(cz_cuda_cc_check(1, "Tesla V100-SXM2-16GB", 7, 0, err, sizeof err) ==
             CZ_ERR_UNSUPPORTED);
    TF_CHECK_MSG(strstr(err, "Tesla V100") && strstr(err, " 7.0"), "%s", err);
    /* a short buffer is cut, never overrun */
    char small[12];
    memset(small, 'x', sizeof small);
    TF_CHECK(cz_cuda_cc_check(0, "Quadro P4000", 6, 1, small, sizeof small) == CZ_ERR_UNSUPPORTED);
    TF_CHECK(strlen(small) == sizeof small - 1);
    TF_CHECK(cz_cuda_cc_check(0, "Quadro P4000", 6, 1, NULL, 0) == CZ_ERR_UNSUPPORTED);
}

static void test_image_refusal(void)
{
    const char *archs = "75-real,80-real,86-real,89-real,90-real,100-real,120";
    char err[512];
    TF_CHECK(cz_cuda_image_refusal(1, "NVIDIA Thor", 11, 0, archs, false, err, sizeof err) ==
             CZ_ERR_UNSUPPORTED);
    TF_CHECK_MSG(strstr(err, "CUDA device 1 (NVIDIA Thor, compute capability 11.0)") &&
                     strstr(err, archs) && strstr(err, "110 in CZ_CUDA_ARCHS") &&
                     !strstr(err, "driver"),
                 "%s", err);
    TF_CHECK(cz_cuda_image_refusal(0, "NVIDIA H100 80GB HBM3", 9, 0, "75-virtual", true, err,
                                   sizeof err) == CZ_ERR_UNSUPPORTED);
    TF_CHECK_MSG(strstr(err, "NVIDIA H100 80GB HBM3, compute capability 9.0") &&
                     strstr(err, "75-virtual") && strstr(err, "update the driver") &&
                     strstr(err, "90-real"),
                 "%s", err);
}

/* With no device (CI), the check refuses and says why; with one, every
 * device the tests run on passes (test_cuda checks each ordinal). */
static void test_device_check(void)
{
    char err[512] = "";
    int rc = cz_cuda_device_check(-1, err, sizeof err);
    if (cz_cuda_device_count() == 0) {
        TF_CHECK(rc == CZ_ERR_UNSUPPORTED && err[0]);
        TF_CHECK(cz_cuda_device_check(0, err, sizeof err) == CZ_ERR_UNSUPPORTED);
    } else {
        TF_CHECK_MSG(rc == CZ_OK, "%s", err);
        printf("test_cuda_arch: the current device runs the kernels\n");
    }
}

TF_MAIN(TF_TEST(test_floor), TF_TEST(test_cc_refusal), TF_TEST(test_image_refusal),
        TF_TEST(test_device_check))
