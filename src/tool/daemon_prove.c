/* cuzk daemon prove: PoRep Commit Phase 2 through cuzk-daemon, as Curio
 * sends it (lib/ffi/cuzk_funcs.go): SubmitProofRequest with proof_kind
 * POREP_SEAL_COMMIT, registered_proof, sector_number, miner_id, sector_size
 * and vanilla_proof = {"SectorNum": n, "Phase1Out": "<base64 of the C1
 * JSON>", "SectorSize": bytes}, sent with Prove.
 *
 *   cuzk daemon prove [--addr A] --c1 FILE --sector-number N --miner-id N
 *       [--registered-proof N] [--raw] [--id ID] [--priority P] [--out FILE]
 *       [-c COUNT] [-j CONC]
 *
 * The C1 is read here first (cz_fc_c1_read) for its registered proof and
 * sector size (--registered-proof overrides the number sent, for tests of
 * the daemon's refusals); --raw sends the C1 JSON without the wrapper.
 * COUNT proofs (default 1) are asked for with CONC (default 1) calls in
 * flight, each with its own request id (ID-<i>, or the daemon's own); the
 * first one's proofs (partitions x 192 bytes) go to --out.  Prints each
 * proof's timings and then "s/proof" over the wall time.  Exit status: 0
 * every proof completed, 1 a call failed or a proof did not complete
 * (the daemon's status and message printed), 2 usage. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/err.h"
#include "cuzk/filecoin/porep.h"
#include "cuzk/v1/proving.pb-c.h"
#include "tool/tool.h"
#include "util/base64.h"

const char *const cz_tool_priorities[4] = {"low", "normal", "high", "critical"};

typedef struct {
    cz_rpc_client *c;
    const cz_cli_opts *o;
    Cuzk__V1__SubmitProofRequest base;
    unsigned count;
    atomic_uint next, ok;
    uint8_t *first; /* the first proof's bytes */
    size_t first_len;
    pthread_mutex_t mu;
} run;

static void *worker(void *arg)
{
    run *r = arg;
    for (;;) {
        unsigned i = atomic_fetch_add(&r->next, 1);
        if (i >= r->count)
            break;
        Cuzk__V1__SubmitProofRequest s = r->base;
        char id[160];
        if (r->o->id) {
            snprintf(id, sizeof id, r->count > 1 ? "%s-%u" : "%s", r->o->id, i);
            s.request_id = id;
        }
        Cuzk__V1__ProveRequest pr = CUZK__V1__PROVE_REQUEST__INIT;
        pr.submit = &s;
        Cuzk__V1__ProveResponse *resp = NULL;
        int st;
        char det[1024];
        double t0 = cz_cli_now();
        int rc = cz_rpc_call(r->c, "/cuzk.v1.ProvingEngine/Prove", &pr.base,
                             &cuzk__v1__prove_response__descriptor, (ProtobufCMessage **)&resp, -1,
                             &st, det, sizeof det);
        double dt = cz_cli_now() - t0;
        if (rc != CZ_OK || st != 0) {
            fprintf(stderr, "daemon prove: proof %u: gRPC status %d: %s\n", i, st, det);
            continue;
        }
        const Cuzk__V1__AwaitProofResponse *a = resp->result;
        if (a && a->status == CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__COMPLETED) {
            printf("proof %u: %s, %zu bytes in %.2f s (queue %llu ms, synthesis %llu ms, "
                   "proving %llu ms)\n",
                   i, a->job_id, a->proof.len, dt, (unsigned long long)a->queue_wait_ms,
                   (unsigned long long)a->synthesis_ms, (unsigned long long)a->gpu_compute_ms);
            pthread_mutex_lock(&r->mu);
            if (r->first == NULL && (r->first = malloc(a->proof.len ? a->proof.len : 1))) {
                memcpy(r->first, a->proof.data, a->proof.len);
                r->first_len = a->proof.len;
            }
            pthread_mutex_unlock(&r->mu);
            atomic_fetch_add(&r->ok, 1);
        } else {
            fprintf(stderr, "daemon prove: proof %u: status %d: %s\n", i, a ? (int)a->status : -1,
                    a && a->error_message ? a->error_message : "no result");
        }
        fflush(stdout);
        protobuf_c_message_free_unpacked(&resp->base, NULL);
    }
    return NULL;
}

/* Curio's wrapper of a C1 JSON; malloc'd, *len its bytes. */
static char *wrap(const uint8_t *c1, size_t n, uint64_t sector, uint64_t size, size_t *len)
{
    size_t b = cz_base64_encoded_len(n);
    char *w = malloc(b + 128);
    if (w == NULL)
        return NULL;
    int h = snprintf(w, 128, "{\"SectorNum\":%llu,\"Phase1Out\":\"", (unsigned long long)sector);
    cz_base64_encode(w + h, c1, n);
    *len = (size_t)h + b;
    *len += (size_t)snprintf(w + *len, 128, "\",\"SectorSize\":%llu}", (unsigned long long)size);
    return w;
}

int cz_tool_daemon_prove(const cz_cli_cmd *self, int argc, char **argv)
{
    const char *c = "daemon prove";
    cz_cli_opts o = {.addr = "127.0.0.1:9820"};
    if (cz_cli_parse(self, argc, argv, &o) < 0)
        return 2;
    uint64_t sector, miner, proof = 0, count = 1, conc = 1;
    if (!cz_cli_need(c, o.c1, "--c1") || !cz_cli_need(c, o.sector_number, "--sector-number") ||
        !cz_cli_need(c, o.miner_id, "--miner-id") ||
        cz_cli_u64(&sector, o.sector_number, c, "--sector-number") ||
        cz_cli_u64(&miner, o.miner_id, c, "--miner-id") ||
        (o.registered_proof && cz_cli_u64(&proof, o.registered_proof, c, "--registered-proof")) ||
        (o.count && cz_cli_u64(&count, o.count, c, "-c")) ||
        (o.conc && cz_cli_u64(&conc, o.conc, c, "-j")))
        return 2;
    Cuzk__V1__Priority prio = CUZK__V1__PRIORITY__NORMAL;
    if (o.priority) {
        int k = cz_cli_choice(o.priority, cz_tool_priorities, 4, c, "--priority");
        if (k < 0)
            return 2;
        prio = (Cuzk__V1__Priority)(k + 1);
    }
    if (count < 1 || count > 100000 || conc < 1 || conc > 256) {
        fprintf(stderr, "cuzk %s: -c 1..100000 and -j 1..256\n", c);
        return 2;
    }
    size_t n;
    uint8_t *json = cz_cli_read_file(o.c1, &n, c);
    if (json == NULL)
        return 2;
    cz_fc_c1 c1;
    char err[512];
    if (cz_fc_c1_read(&c1, json, n, NULL, err, sizeof err) != CZ_OK) {
        fprintf(stderr, "cuzk %s: %s: %s\n", c, o.c1, err);
        free(json);
        return 2;
    }
    uint64_t size = c1.proof_type->shape->sector_size;
    if (!o.registered_proof)
        proof = c1.proof_type->id;
    bool wrapped = c1.wrapped;
    cz_fc_c1_free(&c1);
    size_t vlen = n;
    char *v = (char *)json;
    if (!o.raw && !wrapped) {
        v = wrap(json, n, sector, size, &vlen);
        free(json);
        if (v == NULL) {
            fprintf(stderr, "cuzk %s: out of memory\n", c);
            return 2;
        }
    }
    run r = {.o = &o, .count = (unsigned)count};
    pthread_mutex_init(&r.mu, NULL);
    cuzk__v1__submit_proof_request__init(&r.base);
    r.base.proof_kind = CUZK__V1__PROOF_KIND__POREP_SEAL_COMMIT;
    r.base.priority = prio;
    r.base.registered_proof = proof;
    r.base.sector_size = size;
    r.base.sector_number = sector;
    r.base.miner_id = miner;
    r.base.vanilla_proof.data = (uint8_t *)v;
    r.base.vanilla_proof.len = vlen;
    int ret = 1;
    if (cz_rpc_client_new(&r.c, o.addr) != CZ_OK) {
        fprintf(stderr, "cuzk %s: cannot make a client for %s\n", c, o.addr);
        free(v);
        return 2;
    }
    printf(
        "daemon prove: %zu-byte vanilla_proof (%s), registered proof %llu, %llu proof%s, %llu at "
        "once, to %s\n",
        vlen, o.raw || wrapped ? "as read" : "Curio's wrapper", (unsigned long long)proof,
        (unsigned long long)count, count == 1 ? "" : "s", (unsigned long long)conc, o.addr);
    fflush(stdout);
    pthread_t th[256];
    unsigned started = 0;
    double t0 = cz_cli_now();
    for (; started < conc; started++)
        if (pthread_create(&th[started], NULL, worker, &r) != 0)
            break;
    if (started == 0)
        worker(&r);
    for (unsigned i = 0; i < started; i++)
        pthread_join(th[i], NULL);
    double wall = cz_cli_now() - t0;
    unsigned ok = atomic_load(&r.ok);
    printf("daemon prove: %u of %llu proofs completed in %.2f s: %.2f s/proof\n", ok,
           (unsigned long long)count, wall, ok ? wall / ok : 0.0);
    if (ok == count) {
        ret = 0;
        if (o.out) {
            if (cz_cli_write_file(o.out, r.first, r.first_len, c) != 0) {
                ret = 1;
            } else {
                printf("daemon prove: wrote %zu bytes (%zu partition proofs) to %s\n", r.first_len,
                       r.first_len / 192, o.out);
            }
        }
    }
    free(r.first);
    free(v);
    cz_rpc_client_free(r.c);
    pthread_mutex_destroy(&r.mu);
    return ret;
}
