/* Between the gRPC server's calls (rpc_server.c: calls, handler pools,
 * over the transport of h2.c) and its methods (rpc_methods.c). */
#ifndef CZ_DAEMON_RPC_INTERNAL_H
#define CZ_DAEMON_RPC_INTERNAL_H

#include <stdatomic.h>
#include <stdbool.h>

#include <protobuf-c/protobuf-c.h>

#include "cuzk/engine.h"
#include "daemon/rpc.h"

typedef struct rpc_call rpc_call;

/* One method: its path, request message and handler.  The handler runs on
 * a pool thread with the decoded request (freed when it returns: copy what
 * must outlive it) and answers the call with cz_rpc_reply* (at once, or
 * later from an engine watch that holds a reference). */
typedef struct {
    const char *path;
    const char *name;
    const ProtobufCMessageDescriptor *request;
    void (*fn)(rpc_call *c, const ProtobufCMessage *req);
    bool slow; /* on the slow pool (PreloadSRS) */
} cz_rpc_method;

/* rpc_methods.c: the table, in rpc_server.c's lookup order. */
extern const cz_rpc_method cz_rpc_methods[];
extern const size_t cz_rpc_n_methods;

/* rpc_server.c, for the methods */
const cz_rpc_ctx *cz_rpc_call_ctx(const rpc_call *c);
/* CZ_RPC_SCRATCH bytes of the call's own, aligned, for a method's state
 * that must live as long as the call (an await's job id). */
#define CZ_RPC_SCRATCH 192
void *cz_rpc_call_scratch(rpc_call *c);
/* Answers c with status code and details (one answer per call; later ones
 * are dropped).  Logged at debug level. */
void cz_rpc_reply_status(rpc_call *c, int code, const char *details);
/* Answers c with message m and OK (packing failures answer INTERNAL). */
void cz_rpc_reply_msg(rpc_call *c, const ProtobufCMessage *m);
void cz_rpc_call_ref(rpc_call *c);
void cz_rpc_call_unref(rpc_call *c);

/* An engine watch for the call (AwaitProof, Prove): fn fires as the
 * engine's watch does; if the client goes away first the watch is taken
 * back (client_gone: see cz_job_request.cancel_unwatched) and fn never
 * runs.  Holds a reference on c while the watch is pending.  Returns the
 * engine's code (CZ_OK: fn will run or the client went away). */
int cz_rpc_watch(rpc_call *c, const char *job_id, int64_t timeout_ms, cz_job_watch_fn *fn);

#endif
