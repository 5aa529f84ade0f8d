/* A blocking cuzk.v1 client (cuzk, cuzk-bench, tests): one channel, unary calls. */
#ifndef CZ_DAEMON_RPC_CLIENT_H
#define CZ_DAEMON_RPC_CLIENT_H

#include <protobuf-c/protobuf-c.h>
#include <stddef.h>
#include <stdint.h>

typedef struct cz_rpc_client cz_rpc_client;

/* target: "unix:///path", "unix:/path" or "host:port".  The channel
 * connects lazily (the first call fails UNAVAILABLE if nobody listens). */
int cz_rpc_client_new(cz_rpc_client **out, const char *target);
void cz_rpc_client_free(cz_rpc_client *c);

/* Calls method ("/cuzk.v1.ProvingEngine/GetStatus") with req; on status OK
 * *resp holds the decoded reply (free with protobuf_c_message_free_unpacked
 * (*resp, NULL)).  *status is the gRPC status code, details its message.
 * timeout_ms < 0: no deadline.  Returns CZ_OK when the call ran (whatever
 * its status), CZ_ERR_NOMEM or CZ_ERR_IO. */
int cz_rpc_call(cz_rpc_client *c, const char *method, const ProtobufCMessage *req,
                const ProtobufCMessageDescriptor *resp_desc, ProtobufCMessage **resp,
                int64_t timeout_ms, int *status, char *details, size_t details_len);

/* Sends len raw bytes as the request message (malformed-input tests). */
int cz_rpc_call_raw(cz_rpc_client *c, const char *method, const uint8_t *req, size_t len,
                    int *status, char *details, size_t details_len);

#endif
