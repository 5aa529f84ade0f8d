/* A Filecoin circuit from the param cache: <param_cache>/<base>.params,
 * .vk and .pce, <base> Filecoin's name of the circuit's parameters
 * (the PoRep and SnapDeals kinds; engine_internal.h).
 *
 *   present  the three files exist (regular files), else the first
 *            missing one named, with the command that makes a .pce;
 *   load     the whole load reserved in one request (the decoded
 *            parameters and the mapped .pce), the .params and .vk
 *            accepted by digest (cz_fc_params_check: Filecoin's
 *            parameters.json, or the cache's list of generated INSECURE
 *            files, logged as such), the .vk equal to the .params' own,
 *            the counts equal to the circuit's.
 *
 * The parameters' query points get the curve check, not the subgroup
 * check: the digest stands for them (rust-fil-proofs reads them unchecked
 * too), and every proof is verified before it leaves. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cuzk/err.h"
#include "cuzk/filecoin.h"
#include "engine/engine_internal.h"

/* cuzk's size names in circuit ids ("porep-32g"), in cz_fc_shape_id order */
static const char *const SIZE_ID[CZ_FC__SHAPES] = {"2k", "8m", "512m", "32g", "64g"};

void cz_eng_fc_circuit_id(char out[CZ_JOB_ID_MAX], const char *prefix, const cz_fc_shape *s)
{
    snprintf(out, CZ_JOB_ID_MAX, "%s%s", prefix, SIZE_ID[s->id]);
}

int cz_eng_fc_shape_of_id(const cz_fc_shape **s, const char *id, const char *prefix,
                          const char *what, char *err, size_t errlen)
{
    *s = NULL;
    for (int i = 0; i < CZ_FC__SHAPES; i++)
        if (!strcmp(id + strlen(prefix), SIZE_ID[i]))
            *s = cz_fc_shape_get((cz_fc_shape_id)i);
    if (*s != NULL)
        return CZ_OK;
    cz_msgf(err, errlen, "%s is not a %s circuit id (%s2k, -8m, -512m, -32g, -64g)", id, what,
            prefix);
    return CZ_ERR_NOT_FOUND;
}

static void file_path(char *out, size_t n, const char *dir, const char *base, const char *ext)
{
    snprintf(out, n, "%s/%s%s", dir, base, ext);
}

int cz_eng_param_files_present(const cz_engine *e, const char *base, const char *what,
                               const char *pce_cmd, char *err, size_t errlen)
{
    static const char *const EXT[] = {".params", ".vk", ".pce"};
    for (int i = 0; i < 3; i++) {
        char path[4096];
        struct stat st;
        file_path(path, sizeof path, e->param_cache, base, EXT[i]);
        if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) {
            cz_msgf(err, errlen, "the %s parameters are missing: %s (%s)%s%s%s", what, path,
                    strerror(errno ? errno : ENOENT), i == 2 ? "; `" : "", i == 2 ? pce_cmd : "",
                    i == 2 ? "` writes the pre-compiled circuit" : "");
            return CZ_ERR_NOT_FOUND;
        }
    }
    return CZ_OK;
}

/* Bytes the .params file decodes to (its layout walked over a mapping,
 * no point read). */
static int decoded_size(const char *path, size_t *bytes, char *msg, size_t msglen)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        cz_msgf(msg, msglen, "%s: %s", path, strerror(errno));
        if (fd >= 0)
            close(fd);
        return CZ_ERR_IO;
    }
    void *m = st.st_size > 0 ? mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0)
                             : MAP_FAILED;
    close(fd);
    if (m == MAP_FAILED) {
        cz_msgf(msg, msglen, "%s: cannot map it (%llu bytes)", path,
                (unsigned long long)st.st_size);
        return CZ_ERR_IO;
    }
    char why[200];
    int rc = cz_groth16_params_decoded_size(bytes, m, (size_t)st.st_size, 0, why, sizeof why);
    munmap(m, (size_t)st.st_size);
    if (rc != CZ_OK)
        cz_msgf(msg, msglen, "%s: %s", path, why);
    return rc;
}

static bool vk_equal(const cz_groth16_vk *a, const cz_groth16_vk *b)
{
    return a->n_ic == b->n_ic && !memcmp(&a->alpha_g1, &b->alpha_g1, sizeof a->alpha_g1) &&
           !memcmp(&a->beta_g1, &b->beta_g1, sizeof a->beta_g1) &&
           !memcmp(&a->beta_g2, &b->beta_g2, sizeof a->beta_g2) &&
           !memcmp(&a->gamma_g2, &b->gamma_g2, sizeof a->gamma_g2) &&
           !memcmp(&a->delta_g1, &b->delta_g1, sizeof a->delta_g1) &&
           !memcmp(&a->delta_g2, &b->delta_g2, sizeof a->delta_g2) &&
           !memcmp(a->ic, b->ic, a->n_ic * sizeof *a->ic);
}

/* Checks a file's digest (a .params' computed while it was read). */
static int digest_ok(cz_engine *e, circuit *c, const char *path, const uint8_t b2[64])
{
    const char *name = strrchr(path, '/') + 1;
    bool insecure;
    char why[600];
    int rc = cz_fc_params_check(e->param_cache, name, b2, &insecure, why, sizeof why);
    if (rc != CZ_OK) {
        cz_msgf(c->load_msg, sizeof c->load_msg, "loading %s: %s", c->id, why);
        return rc;
    }
    if (insecure) {
        fprintf(e->log,
                "cuzk: %s: %s is an INSECURE generated file (listed in %s): for tests and "
                "benchmarks only\n",
                c->id, name, CZ_FC_GENERATED_DIGESTS);
        fflush(e->log);
    }
    return CZ_OK;
}

int cz_eng_param_files_load(cz_engine *e, circuit *c, const job *j, const char *base,
                            const char *what, size_t n_in, size_t n_aux)
{
    char pp[4096], vp[4096], cp[4096];
    file_path(pp, sizeof pp, e->param_cache, base, ".params");
    file_path(vp, sizeof vp, e->param_cache, base, ".vk");
    file_path(cp, sizeof cp, e->param_cache, base, ".pce");
    size_t block;
    struct stat st;
    int rc = decoded_size(pp, &block, c->load_msg, sizeof c->load_msg);
    if (rc != CZ_OK)
        return rc;
    if (stat(cp, &st) != 0) {
        cz_msgf(c->load_msg, sizeof c->load_msg, "%s: %s", cp, strerror(errno));
        return CZ_ERR_IO;
    }
    /* the decoded parameters, and the mapped pre-compiled circuit */
    uint64_t total = cz_mem_charge(block) + cz_mem_charge((size_t)st.st_size);
    uint64_t room = cz_budget_total(e->budget) - cz_resv_size(e->request_pool);
    if (total > room) {
        cz_msgf(c->load_msg, sizeof c->load_msg,
                "loading %s needs %llu bytes (parameters %zu, pre-compiled circuit %llu), but the "
                "memory budget less the request pool is %llu bytes",
                c->id, (unsigned long long)total, block, (unsigned long long)st.st_size,
                (unsigned long long)room);
        return CZ_ERR_TOO_BIG;
    }
    cz_wait_key key = {(int)j->prio, j->seq, 0};
    rc = cz_eng_reserve(e, total, &key, &j->cancel, NULL, &c->resv, c->load_msg,
                        sizeof c->load_msg);
    if (rc != CZ_OK)
        return rc;
    cz_resv_allocator_init(&c->ra, c->resv, &cz_eng_params_tag);
    uint8_t b2[64];
    char why[300];
    cz_params_read_opts o = {
        .flags = CZ_DECODE_SKIP_SUBGROUP, .pool = e->pool, .alloc = &c->ra.a, .blake2b = b2};
    rc = cz_groth16_params_read_file_ex(&c->own_params, pp, &o, why, sizeof why);
    if (rc != CZ_OK) {
        cz_msgf(c->load_msg, sizeof c->load_msg, "loading %s: %s: %s", c->id, pp, why);
        return rc;
    }
    c->params = &c->own_params;
    if ((rc = digest_ok(e, c, pp, b2)) != CZ_OK)
        return rc;
    cz_groth16_vk vk;
    rc = cz_fc_file_blake2b(vp, b2, why, sizeof why);
    if (rc == CZ_OK && (rc = digest_ok(e, c, vp, b2)) != CZ_OK)
        return rc;
    if (rc == CZ_OK)
        rc = cz_groth16_vk_read_file(&vk, vp, why, sizeof why);
    if (rc != CZ_OK) {
        cz_msgf(c->load_msg, sizeof c->load_msg, "loading %s: %s: %s", c->id, vp, why);
        return rc;
    }
    bool same = vk_equal(&vk, &c->own_params.vk);
    cz_groth16_vk_free(&vk);
    if (!same) {
        cz_msgf(c->load_msg, sizeof c->load_msg,
                "loading %s: %s is not the verifying key of %s", c->id, vp, pp);
        return CZ_ERR_BAD_FORMAT;
    }
    rc = cz_pce_load(&c->own_r1cs, cp, 0, why, sizeof why);
    if (rc != CZ_OK) {
        cz_msgf(c->load_msg, sizeof c->load_msg, "loading %s: %s: %s", c->id, cp, why);
        return rc;
    }
    c->r1cs = c->own_r1cs;
    if (cz_r1cs_num_inputs(c->r1cs) != n_in || cz_r1cs_num_aux(c->r1cs) != n_aux ||
        c->params->vk.n_ic != n_in || c->params->n_l != n_aux) {
        cz_msgf(c->load_msg, sizeof c->load_msg,
                "loading %s: the files are not of the %s circuit (%zu inputs, %zu aux): "
                "the .pce has %zu and %zu, the .params %zu IC and %zu L points",
                c->id, what, n_in, n_aux, cz_r1cs_num_inputs(c->r1cs),
                cz_r1cs_num_aux(c->r1cs), c->params->vk.n_ic, c->params->n_l);
        return CZ_ERR_BAD_FORMAT;
    }
    return CZ_OK;
}
