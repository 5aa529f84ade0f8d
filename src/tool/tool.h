/* cuzk, the operator's tool (src/tool): its commands (cz_tool's table in
 * cuzk.c), and what cuzk-bench reads of their outputs.  Internal to the
 * two tools. */
#ifndef CZ_TOOL_H
#define CZ_TOOL_H

#include <stddef.h>
#include <stdint.h>

#include "cli/cli.h"
#include "cuzk/cs.h"
#include "cuzk/engine.h"
#include "cuzk/filecoin/porep.h"
#include "cuzk/filecoin/post.h"
#include "cuzk/filecoin/snap.h"

/* The tool's command table (cuzk.c). */
extern const cz_cli_tool cz_tool;

/* The commands, in the table's order: params.c; porep.c but porep_prove.c's
 * prove; snap.c; post.c; daemon.c but daemon_prove.c's prove. */
cz_cli_run cz_tool_params, cz_tool_porep_seal, cz_tool_porep_c1_synth, cz_tool_porep_c1_verify,
    cz_tool_porep_prove, cz_tool_porep_verify, cz_tool_snap_encode, cz_tool_snap_verify,
    cz_tool_post_vanilla, cz_tool_post_verify;
#ifdef CZ_HAVE_DAEMON
cz_cli_run cz_tool_daemon_status, cz_tool_daemon_metrics, cz_tool_daemon_preload,
    cz_tool_daemon_evict, cz_tool_daemon_cancel, cz_tool_daemon_prove;
#endif

/* A circuit to record (record.c): snap's EmptySectorUpdate circuit, else
 * post's FallbackPoSt circuit, else PoRep's partition k of c1 (c1 NULL:
 * the blank circuit of porep). */
typedef struct {
    const cz_fc_porep_dims *porep;
    const cz_fc_c1 *c1;
    unsigned k;
    const cz_fc_snap_shape *snap;
    const cz_post_shape *post;
} cz_tool_circuit;
/* c recorded into *r with cz_cs_new's flags: CZ_OK, or an error code with
 * err saying what failed. */
int cz_tool_record(cz_r1cs **r, const cz_tool_circuit *c, unsigned flags, char *err, size_t errlen);

/* The folders `cuzk snap encode` and `cuzk post vanilla` write (vanilla_dir.c),
 * read back as daemon requests.
 *
 * snap encode's (update.json, vanilla-K.bin) as a SnapDeals request
 * (registered proof of its sector size, raw commitments), its buffers in
 * *u until cz_tool_snap_dir_free.  0, or -1 after a message naming cmd. */
typedef struct {
    cz_job_snap req;
    uint8_t comm[3][32];
    uint8_t **blobs;
    size_t *lens;
} cz_tool_snap_dir;
int cz_tool_snap_dir_load(cz_tool_snap_dir *u, const char *dir, const char *cmd);
void cz_tool_snap_dir_free(cz_tool_snap_dir *u);
/* post vanilla's (post.json, vanilla-I.bin) as a PoSt request (kind,
 * registered proof, randomness, partition, the blobs; miner 1000) and the
 * public sectors post.json lists, its buffers in *p until
 * cz_tool_post_dir_free.  0, or -1 after a message naming cmd. */
typedef struct {
    cz_job_kind kind; /* CZ_KIND_WINDOW_POST or CZ_KIND_WINNING_POST */
    cz_job_post req;
    const cz_post_proof_type *type;
    uint8_t randomness[32];
    uint8_t **blobs;
    size_t *lens;
    cz_post_public_sector *sectors; /* req.n_vanilla */
} cz_tool_post_dir;
int cz_tool_post_dir_load(cz_tool_post_dir *p, const char *dir, const char *cmd);
void cz_tool_post_dir_free(cz_tool_post_dir *p);

#ifdef CZ_HAVE_DAEMON
#include "daemon/rpc_client.h"
/* --priority's names, Priority 1 .. 4 (daemon_prove.c). */
extern const char *const cz_tool_priorities[4];
/* One unary call of the daemon's method ("/cuzk.v1.ProvingEngine/" and its
 * name): 0 with *resp, else the gRPC status (-1: none) after a message
 * naming the method (daemon.c). */
int cz_tool_daemon_call(cz_rpc_client *c, const char *method, const ProtobufCMessage *req,
                        const ProtobufCMessageDescriptor *d, ProtobufCMessage **resp);
#endif

#endif
