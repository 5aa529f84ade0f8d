/* A blocking cuzk.v1 client on gRPC's core C API (see rpc_client.h). */
#include <grpc/byte_buffer.h>
#include <grpc/byte_buffer_reader.h>
#include <grpc/grpc.h>
#include <grpc/grpc_security.h>
#include <grpc/slice.h>
#include <grpc/support/alloc.h>
#include <grpc/support/time.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/err.h"
#include "daemon/rpc.h"
#include "daemon/rpc_client.h"

struct cz_rpc_client {
    grpc_channel *ch;
};

int cz_rpc_client_new(cz_rpc_client **out, const char *target)
{
    *out = NULL;
    cz_rpc_client *c = calloc(1, sizeof *c);
    if (c == NULL)
        return CZ_ERR_NOMEM;
    grpc_init();
    grpc_arg args[2];
    memset(args, 0, sizeof args);
    args[0].type = GRPC_ARG_INTEGER;
    args[0].key = GRPC_ARG_MAX_RECEIVE_MESSAGE_LENGTH;
    args[0].value.integer = (int)CZ_RPC_MAX_MESSAGE;
    args[1].type = GRPC_ARG_INTEGER;
    args[1].key = GRPC_ARG_MAX_SEND_MESSAGE_LENGTH;
    args[1].value.integer = (int)CZ_RPC_MAX_MESSAGE;
    grpc_channel_args ca = {2, args};
    grpc_channel_credentials *cr = grpc_insecure_credentials_create();
    c->ch = grpc_channel_create(target, cr, &ca);
    grpc_channel_credentials_release(cr);
    if (c->ch == NULL) {
        grpc_shutdown();
        free(c);
        return CZ_ERR_IO;
    }
    *out = c;
    return CZ_OK;
}

void cz_rpc_client_free(cz_rpc_client *c)
{
    if (c == NULL)
        return;
    grpc_channel_destroy(c->ch);
    grpc_shutdown();
    free(c);
}

/* One unary exchange: sends the len bytes at buf (taken over: freed by
 * gRPC), waits for the reply; *recv gets the response message (NULL when
 * none; the caller destroys it). */
static int exchange(cz_rpc_client *c, const char *method, uint8_t *buf, size_t len,
                    int64_t timeout_ms, grpc_byte_buffer **recv, int *status, char *details,
                    size_t details_len)
{
    *recv = NULL;
    *status = CZ_RPC_INTERNAL;
    if (details && details_len)
        details[0] = 0;
    grpc_slice sl = grpc_slice_new(buf, len, free);
    grpc_byte_buffer *send = grpc_raw_byte_buffer_create(&sl, 1);
    grpc_slice_unref(sl);
    grpc_completion_queue *cq = grpc_completion_queue_create_for_pluck(NULL);
    gpr_timespec dl = timeout_ms < 0 ? gpr_inf_future(GPR_CLOCK_REALTIME)
                                     : gpr_time_add(gpr_now(GPR_CLOCK_REALTIME),
                                                    gpr_time_from_millis(timeout_ms, GPR_TIMESPAN));
    grpc_slice m = grpc_slice_from_static_string(method);
    grpc_call *call =
        grpc_channel_create_call(c->ch, NULL, GRPC_PROPAGATE_DEFAULTS, cq, m, NULL, dl, NULL);
    grpc_metadata_array init_md, trail_md;
    grpc_metadata_array_init(&init_md);
    grpc_metadata_array_init(&trail_md);
    grpc_status_code st = GRPC_STATUS_UNKNOWN;
    grpc_slice st_details;
    grpc_op ops[6];
    memset(ops, 0, sizeof ops);
    ops[0].op = GRPC_OP_SEND_INITIAL_METADATA;
    ops[1].op = GRPC_OP_SEND_MESSAGE;
    ops[1].data.send_message.send_message = send;
    ops[2].op = GRPC_OP_SEND_CLOSE_FROM_CLIENT;
    ops[3].op = GRPC_OP_RECV_INITIAL_METADATA;
    ops[3].data.recv_initial_metadata.recv_initial_metadata = &init_md;
    ops[4].op = GRPC_OP_RECV_MESSAGE;
    ops[4].data.recv_message.recv_message = recv;
    ops[5].op = GRPC_OP_RECV_STATUS_ON_CLIENT;
    ops[5].data.recv_status_on_client.trailing_metadata = &trail_md;
    ops[5].data.recv_status_on_client.status = &st;
    ops[5].data.recv_status_on_client.status_details = &st_details;
    int rc = CZ_OK, tag = 0;
    if (grpc_call_start_batch(call, ops, 6, &tag, NULL) != GRPC_CALL_OK) {
        rc = CZ_ERR_IO;
    } else {
        grpc_completion_queue_pluck(cq, &tag, gpr_inf_future(GPR_CLOCK_REALTIME), NULL);
        *status = (int)st;
        if (details && details_len) {
            char *d = grpc_slice_to_c_string(st_details);
            snprintf(details, details_len, "%s", d);
            gpr_free(d);
        }
        grpc_slice_unref(st_details);
    }
    grpc_byte_buffer_destroy(send);
    grpc_metadata_array_destroy(&init_md);
    grpc_metadata_array_destroy(&trail_md);
    grpc_call_unref(call);
    grpc_completion_queue_shutdown(cq);
    while (grpc_completion_queue_pluck(cq, NULL, gpr_inf_future(GPR_CLOCK_REALTIME), NULL).type !=
           GRPC_QUEUE_SHUTDOWN)
        ;
    grpc_completion_queue_destroy(cq);
    return rc;
}

int cz_rpc_call(cz_rpc_client *c, const char *method, const ProtobufCMessage *req,
                const ProtobufCMessageDescriptor *resp_desc, ProtobufCMessage **resp,
                int64_t timeout_ms, int *status, char *details, size_t details_len)
{
    *resp = NULL;
    *status = CZ_RPC_INTERNAL;
    size_t len = protobuf_c_message_get_packed_size(req);
    uint8_t *buf = malloc(len ? len : 1);
    if (buf == NULL)
        return CZ_ERR_NOMEM;
    protobuf_c_message_pack(req, buf);
    grpc_byte_buffer *recv;
    int rc = exchange(c, method, buf, len, timeout_ms, &recv, status, details, details_len);
    if (rc == CZ_OK && *status == CZ_RPC_OK) {
        grpc_byte_buffer_reader rd;
        if (recv && grpc_byte_buffer_reader_init(&rd, recv)) {
            grpc_slice all = grpc_byte_buffer_reader_readall(&rd);
            grpc_byte_buffer_reader_destroy(&rd);
            *resp = protobuf_c_message_unpack(resp_desc, NULL, GRPC_SLICE_LENGTH(all),
                                              GRPC_SLICE_START_PTR(all));
            grpc_slice_unref(all);
        }
        if (*resp == NULL) {
            *status = CZ_RPC_INTERNAL;
            if (details && details_len)
                snprintf(details, details_len, "malformed response");
        }
    }
    if (recv)
        grpc_byte_buffer_destroy(recv);
    return rc;
}

int cz_rpc_call_raw(cz_rpc_client *c, const char *method, const uint8_t *req, size_t len,
                    int *status, char *details, size_t details_len)
{
    uint8_t *buf = malloc(len ? len : 1);
    if (buf == NULL)
        return CZ_ERR_NOMEM;
    memcpy(buf, req, len);
    grpc_byte_buffer *recv;
    int rc = exchange(c, method, buf, len, -1, &recv, status, details, details_len);
    if (recv)
        grpc_byte_buffer_destroy(recv);
    return rc;
}
