/* The tools' files: inputs read whole, verifying keys, outputs written
 * under a temporary name (cli.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cuzk/err.h"

uint8_t *cz_cli_read_file(const char *path, size_t *len, const char *cmd)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        fprintf(stderr, "%s %s: cannot open %s\n", cz_cli_prog(), cmd, path);
        return NULL;
    }
    size_t cap = 1 << 20, n = 0;
    uint8_t *buf = malloc(cap);
    for (;;) {
        if (buf && n == cap) {
            uint8_t *nb = realloc(buf, cap * 2);
            if (nb == NULL) {
                free(buf);
                buf = NULL;
            } else {
                buf = nb, cap *= 2;
            }
        }
        if (buf == NULL)
            break;
        size_t r = fread(buf + n, 1, cap - n, f);
        n += r;
        if (r == 0)
            break;
    }
    int bad = ferror(f);
    fclose(f);
    if (buf == NULL || bad) {
        fprintf(stderr, "%s %s: cannot read %s\n", cz_cli_prog(), cmd, path);
        free(buf);
        return NULL;
    }
    *len = n;
    return buf;
}

int cz_cli_read_vk_proof(cz_groth16_pvk *pvk, uint8_t **proof, size_t *len, const char *vk_path,
                         const char *proof_path, const char *cmd)
{
    cz_groth16_vk vk;
    char err[512];
    if (cz_groth16_vk_read_file(&vk, vk_path, err, sizeof err) != CZ_OK) {
        fprintf(stderr, "%s %s: --vk %s: %s\n", cz_cli_prog(), cmd, vk_path, err);
        return -1;
    }
    int rc = cz_groth16_pvk_prepare(pvk, &vk);
    cz_groth16_vk_free(&vk);
    if (rc != CZ_OK) {
        fprintf(stderr, "%s %s: --vk %s: %s\n", cz_cli_prog(), cmd, vk_path, cz_strerror(rc));
        return -1;
    }
    if ((*proof = cz_cli_read_file(proof_path, len, cmd)) == NULL) {
        cz_groth16_pvk_free(pvk);
        return -1;
    }
    return 0;
}

int cz_cli_verify_done(cz_groth16_pvk *pvk, uint8_t *proof, int rc, const char *err,
                       const char *cmd)
{
    free(proof);
    cz_groth16_pvk_free(pvk);
    if (rc == CZ_OK)
        return 0;
    fprintf(stderr, "cuzk %s: %s\n", cmd, err);
    return 2;
}

int cz_cli_write_file(const char *path, const void *b, size_t n, const char *cmd)
{
    FILE *f = fopen(path, "wb");
    int bad = f == NULL || fwrite(b, 1, n, f) != n;
    if (f && fclose(f) != 0)
        bad = 1;
    if (bad)
        fprintf(stderr, "%s %s: cannot write %s: %s\n", cz_cli_prog(), cmd, path, strerror(errno));
    return bad ? -1 : 0;
}

int cz_cli_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

int cz_cli_write_renamed(const char *final, cz_cli_write_fn *wr, const void *obj, const char *cmd)
{
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp-%ld", final, (long)getpid());
    int rc = wr(tmp, obj);
    if (rc == CZ_OK && rename(tmp, final) != 0)
        rc = CZ_ERR_IO;
    if (rc != CZ_OK) {
        fprintf(stderr, "%s %s: cannot write %s: %s (%s)\n", cz_cli_prog(), cmd, final,
                cz_strerror(rc), strerror(errno));
        unlink(tmp);
        return -1;
    }
    return 0;
}
