/* The cuzk.v1 API (proto/cuzk/v1/proving.proto, as compiled by protoc-c)
 * against Curio's: every service method, message field (name, number, type,
 * label) and enum value of filecoin-project/curio
 * extern/cuzk/cuzk-proto/proto/cuzk/v1/proving.proto at main e0294b0f,
 * written down below as a table from that file, must be in ours exactly;
 * and everything ours adds must sit in its own number range (fields
 * 100..199, enum values >= 100), so that no field Curio adds later can
 * collide with one of ours. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cuzk/v1/proving.pb-c.h"
#include "tf.h"

/* ---------------------------------------------------- Curio's proto --- */

typedef struct {
    const char *message; /* short name, in package cuzk.v1 */
    const char *field;
    unsigned number;
    const char *type; /* "uint64", "bytes", ..., "enum X", "message X" (X short) */
    int repeated;
} curio_field;

static const curio_field CURIO_FIELDS[] = {
    {"SubmitProofRequest", "request_id", 1, "string", 0},
    {"SubmitProofRequest", "proof_kind", 2, "enum ProofKind", 0},
    {"SubmitProofRequest", "sector_size", 3, "uint64", 0},
    {"SubmitProofRequest", "registered_proof", 4, "uint64", 0},
    {"SubmitProofRequest", "priority", 5, "enum Priority", 0},
    {"SubmitProofRequest", "vanilla_proof", 10, "bytes", 0},
    {"SubmitProofRequest", "vanilla_proofs", 11, "bytes", 1},
    {"SubmitProofRequest", "sector_number", 20, "uint64", 0},
    {"SubmitProofRequest", "miner_id", 21, "uint64", 0},
    {"SubmitProofRequest", "randomness", 22, "bytes", 0},
    {"SubmitProofRequest", "partition_index", 23, "uint32", 0},
    {"SubmitProofRequest", "comm_r_old", 30, "bytes", 0},
    {"SubmitProofRequest", "comm_r_new", 31, "bytes", 0},
    {"SubmitProofRequest", "comm_d_new", 32, "bytes", 0},
    {"SubmitProofResponse", "job_id", 1, "string", 0},
    {"SubmitProofResponse", "queue_position", 2, "uint32", 0},
    {"SubmitProofResponse", "assigned_gpu", 3, "string", 0},
    {"AwaitProofRequest", "job_id", 1, "string", 0},
    {"AwaitProofRequest", "timeout_ms", 2, "uint64", 0},
    {"AwaitProofResponse", "job_id", 1, "string", 0},
    {"AwaitProofResponse", "status", 2, "enum AwaitProofResponse.Status", 0},
    {"AwaitProofResponse", "proof", 3, "bytes", 0},
    {"AwaitProofResponse", "error_message", 4, "string", 0},
    {"AwaitProofResponse", "queue_wait_ms", 10, "uint64", 0},
    {"AwaitProofResponse", "srs_load_ms", 11, "uint64", 0},
    {"AwaitProofResponse", "synthesis_ms", 12, "uint64", 0},
    {"AwaitProofResponse", "gpu_compute_ms", 13, "uint64", 0},
    {"AwaitProofResponse", "total_ms", 14, "uint64", 0},
    {"ProveRequest", "submit", 1, "message SubmitProofRequest", 0},
    {"ProveResponse", "result", 1, "message AwaitProofResponse", 0},
    {"CancelProofRequest", "job_id", 1, "string", 0},
    {"CancelProofResponse", "was_running", 1, "bool", 0},
    {"GetStatusResponse", "gpus", 1, "message GPUStatus", 1},
    {"GetStatusResponse", "loaded_srs", 2, "message SRSStatus", 1},
    {"GetStatusResponse", "queues", 3, "message QueueStatus", 1},
    {"GetStatusResponse", "total_proofs_completed", 4, "uint64", 0},
    {"GetStatusResponse", "total_proofs_failed", 5, "uint64", 0},
    {"GetStatusResponse", "uptime_seconds", 6, "uint64", 0},
    {"GetStatusResponse", "pinned_memory_bytes", 7, "uint64", 0},
    {"GetStatusResponse", "pinned_memory_limit_bytes", 8, "uint64", 0},
    {"GPUStatus", "ordinal", 1, "uint32", 0},
    {"GPUStatus", "name", 2, "string", 0},
    {"GPUStatus", "vram_total_bytes", 3, "uint64", 0},
    {"GPUStatus", "vram_free_bytes", 4, "uint64", 0},
    {"GPUStatus", "current_job_id", 5, "string", 0},
    {"GPUStatus", "current_proof_kind", 6, "string", 0},
    {"SRSStatus", "circuit_id", 1, "string", 0},
    {"SRSStatus", "tier", 2, "enum SRSStatus.Tier", 0},
    {"SRSStatus", "size_bytes", 3, "uint64", 0},
    {"SRSStatus", "ref_count", 4, "uint32", 0},
    {"QueueStatus", "proof_kind", 1, "string", 0},
    {"QueueStatus", "pending", 2, "uint32", 0},
    {"QueueStatus", "in_progress", 3, "uint32", 0},
    {"PreloadSrsRequest", "circuit_id", 1, "string", 0},
    {"PreloadSrsResponse", "already_loaded", 1, "bool", 0},
    {"PreloadSrsResponse", "load_time_ms", 2, "uint64", 0},
    {"EvictSrsRequest", "circuit_id", 1, "string", 0},
    {"EvictSrsResponse", "was_loaded", 1, "bool", 0},
    {"EvictSrsResponse", "freed_bytes", 2, "uint64", 0},
    {"GetMetricsResponse", "prometheus_text", 1, "string", 0},
};

/* Curio's messages, the field-less ones included. */
static const char *const CURIO_MESSAGES[] = {
    "SubmitProofRequest", "SubmitProofResponse", "AwaitProofRequest", "AwaitProofResponse",
    "ProveRequest",       "ProveResponse",       "CancelProofRequest", "CancelProofResponse",
    "GetStatusRequest",   "GetStatusResponse",   "GPUStatus",          "SRSStatus",
    "QueueStatus",        "PreloadSrsRequest",   "PreloadSrsResponse", "EvictSrsRequest",
    "EvictSrsResponse",   "GetMetricsRequest",   "GetMetricsResponse",
};

typedef struct {
    const char *enumeration; /* short name */
    const char *name;
    int value;
} curio_value;

static const curio_value CURIO_VALUES[] = {
    {"ProofKind", "PROOF_KIND_UNSPECIFIED", 0},
    {"ProofKind", "POREP_SEAL_COMMIT", 1},
    {"ProofKind", "SNAP_DEALS_UPDATE", 2},
    {"ProofKind", "WINDOW_POST_PARTITION", 3},
    {"ProofKind", "WINNING_POST", 4},
    {"Priority", "PRIORITY_UNSPECIFIED", 0},
    {"Priority", "LOW", 1},
    {"Priority", "NORMAL", 2},
    {"Priority", "HIGH", 3},
    {"Priority", "CRITICAL", 4},
    {"AwaitProofResponse.Status", "UNKNOWN", 0},
    {"AwaitProofResponse.Status", "COMPLETED", 1},
    {"AwaitProofResponse.Status", "FAILED", 2},
    {"AwaitProofResponse.Status", "CANCELLED", 3},
    {"AwaitProofResponse.Status", "TIMEOUT", 4},
    {"SRSStatus.Tier", "HOT", 0},
    {"SRSStatus.Tier", "WARM", 1},
    {"SRSStatus.Tier", "COLD", 2},
};

static const struct {
    const char *name, *input, *output;
} CURIO_METHODS[] = {
    {"SubmitProof", "SubmitProofRequest", "SubmitProofResponse"},
    {"AwaitProof", "AwaitProofRequest", "AwaitProofResponse"},
    {"Prove", "ProveRequest", "ProveResponse"},
    {"CancelProof", "CancelProofRequest", "CancelProofResponse"},
    {"GetStatus", "GetStatusRequest", "GetStatusResponse"},
    {"GetMetrics", "GetMetricsRequest", "GetMetricsResponse"},
    {"PreloadSRS", "PreloadSrsRequest", "PreloadSrsResponse"},
    {"EvictSRS", "EvictSrsRequest", "EvictSrsResponse"},
};

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* ---------------------------------------------------------------- ours --- */

static const ProtobufCMessageDescriptor *const OURS[] = {
    &cuzk__v1__submit_proof_request__descriptor, &cuzk__v1__submit_proof_response__descriptor,
    &cuzk__v1__await_proof_request__descriptor,  &cuzk__v1__await_proof_response__descriptor,
    &cuzk__v1__prove_request__descriptor,        &cuzk__v1__prove_response__descriptor,
    &cuzk__v1__cancel_proof_request__descriptor, &cuzk__v1__cancel_proof_response__descriptor,
    &cuzk__v1__get_status_request__descriptor,   &cuzk__v1__get_status_response__descriptor,
    &cuzk__v1__gpustatus__descriptor,            &cuzk__v1__srsstatus__descriptor,
    &cuzk__v1__queue_status__descriptor,         &cuzk__v1__buffer_class_status__descriptor,
    &cuzk__v1__preload_srs_request__descriptor,  &cuzk__v1__preload_srs_response__descriptor,
    &cuzk__v1__evict_srs_request__descriptor,    &cuzk__v1__evict_srs_response__descriptor,
    &cuzk__v1__get_metrics_request__descriptor,  &cuzk__v1__get_metrics_response__descriptor,
    &cuzk__v1__device_plan__descriptor,
};

static const ProtobufCEnumDescriptor *const OUR_ENUMS[] = {
    &cuzk__v1__proof_kind__descriptor,
    &cuzk__v1__priority__descriptor,
    &cuzk__v1__await_proof_response__status__descriptor,
    &cuzk__v1__srsstatus__tier__descriptor,
};

/* "cuzk.v1.X" -> "X" */
static const char *short_name(const char *full)
{
    return strncmp(full, "cuzk.v1.", 8) == 0 ? full + 8 : full;
}

static const ProtobufCMessageDescriptor *our_message(const char *name)
{
    for (size_t i = 0; i < N(OURS); i++)
        if (!strcmp(short_name(OURS[i]->name), name))
            return OURS[i];
    return NULL;
}

static const char *scalar_name(ProtobufCType t)
{
    switch (t) {
    case PROTOBUF_C_TYPE_INT32:
        return "int32";
    case PROTOBUF_C_TYPE_SINT32:
        return "sint32";
    case PROTOBUF_C_TYPE_SFIXED32:
        return "sfixed32";
    case PROTOBUF_C_TYPE_INT64:
        return "int64";
    case PROTOBUF_C_TYPE_SINT64:
        return "sint64";
    case PROTOBUF_C_TYPE_SFIXED64:
        return "sfixed64";
    case PROTOBUF_C_TYPE_UINT32:
        return "uint32";
    case PROTOBUF_C_TYPE_FIXED32:
        return "fixed32";
    case PROTOBUF_C_TYPE_UINT64:
        return "uint64";
    case PROTOBUF_C_TYPE_FIXED64:
        return "fixed64";
    case PROTOBUF_C_TYPE_FLOAT:
        return "float";
    case PROTOBUF_C_TYPE_DOUBLE:
        return "double";
    case PROTOBUF_C_TYPE_BOOL:
        return "bool";
    case PROTOBUF_C_TYPE_STRING:
        return "string";
    case PROTOBUF_C_TYPE_BYTES:
        return "bytes";
    default:
        return NULL;
    }
}

/* The field's type written as the table writes it. */
static void type_of(const ProtobufCFieldDescriptor *f, char *out, size_t n)
{
    if (f->type == PROTOBUF_C_TYPE_ENUM)
        snprintf(out, n, "enum %s",
                 short_name(((const ProtobufCEnumDescriptor *)f->descriptor)->name));
    else if (f->type == PROTOBUF_C_TYPE_MESSAGE)
        snprintf(out, n, "message %s",
                 short_name(((const ProtobufCMessageDescriptor *)f->descriptor)->name));
    else
        snprintf(out, n, "%s", scalar_name(f->type) ? scalar_name(f->type) : "?");
}

static const curio_field *curio_field_of(const char *message, const char *field)
{
    for (size_t i = 0; i < N(CURIO_FIELDS); i++)
        if (!strcmp(CURIO_FIELDS[i].message, message) && !strcmp(CURIO_FIELDS[i].field, field))
            return &CURIO_FIELDS[i];
    return NULL;
}

static void test_curio_fields(void)
{
    for (size_t i = 0; i < N(CURIO_MESSAGES); i++)
        TF_CHECK_MSG(our_message(CURIO_MESSAGES[i]) != NULL, "message %s is missing",
                     CURIO_MESSAGES[i]);
    for (size_t i = 0; i < N(CURIO_FIELDS); i++) {
        const curio_field *c = &CURIO_FIELDS[i];
        const ProtobufCMessageDescriptor *m = our_message(c->message);
        if (m == NULL)
            continue;
        const ProtobufCFieldDescriptor *f = protobuf_c_message_descriptor_get_field_by_name(m, c->field);
        if (f == NULL) {
            TF_CHECK_MSG(0, "%s.%s (%u) is missing", c->message, c->field, c->number);
            continue;
        }
        char t[128];
        type_of(f, t, sizeof t);
        TF_CHECK_MSG(f->id == c->number, "%s.%s: number %u, Curio's %u", c->message, c->field,
                     f->id, c->number);
        TF_CHECK_MSG(!strcmp(t, c->type), "%s.%s: type %s, Curio's %s", c->message, c->field, t,
                     c->type);
        int rep = f->label == PROTOBUF_C_LABEL_REPEATED;
        TF_CHECK_MSG(rep == c->repeated, "%s.%s: %s, Curio's %s", c->message, c->field,
                     rep ? "repeated" : "singular", c->repeated ? "repeated" : "singular");
        TF_CHECK_MSG(f->label != PROTOBUF_C_LABEL_REQUIRED, "%s.%s is required", c->message,
                     c->field);
    }
}

static bool curio_message(const char *name)
{
    for (size_t i = 0; i < N(CURIO_MESSAGES); i++)
        if (!strcmp(CURIO_MESSAGES[i], name))
            return true;
    return false;
}

/* Fields that Curio's messages do not have: numbers 100..199, no number of
 * Curio's.  (Messages of our own, such as BufferClassStatus, number their
 * fields freely: only our range refers to them.) */
static void test_additions(void)
{
    unsigned added = 0;
    for (size_t i = 0; i < N(OURS); i++) {
        const ProtobufCMessageDescriptor *m = OURS[i];
        const char *mn = short_name(m->name);
        if (!curio_message(mn))
            continue;
        for (unsigned k = 0; k < m->n_fields; k++) {
            const ProtobufCFieldDescriptor *f = &m->fields[k];
            if (curio_field_of(mn, f->name) != NULL)
                continue;
            added++;
            TF_CHECK_MSG(f->id >= 100 && f->id <= 199,
                         "%s.%s (%u) is ours but outside our range 100..199", mn, f->name, f->id);
            for (size_t j = 0; j < N(CURIO_FIELDS); j++)
                TF_CHECK_MSG(strcmp(CURIO_FIELDS[j].message, mn) || CURIO_FIELDS[j].number != f->id,
                             "%s.%s takes Curio's number %u", mn, f->name, f->id);
        }
    }
    TF_CHECK_MSG(added >= 13, "only %u fields of our own found (the generic, synthetic and memory "
                              "fields are expected)", added);
}

static void test_enums(void)
{
    for (size_t i = 0; i < N(CURIO_VALUES); i++) {
        const curio_value *c = &CURIO_VALUES[i];
        const ProtobufCEnumDescriptor *d = NULL;
        for (size_t k = 0; k < N(OUR_ENUMS); k++)
            if (!strcmp(short_name(OUR_ENUMS[k]->name), c->enumeration))
                d = OUR_ENUMS[k];
        if (d == NULL) {
            TF_CHECK_MSG(0, "enum %s is missing", c->enumeration);
            continue;
        }
        const ProtobufCEnumValue *v = protobuf_c_enum_descriptor_get_value_by_name(d, c->name);
        TF_CHECK_MSG(v != NULL && v->value == c->value, "%s.%s: %s, Curio's %d", c->enumeration,
                     c->name, v ? "another value" : "missing", c->value);
    }
    /* our values: >= 100 */
    for (size_t k = 0; k < N(OUR_ENUMS); k++) {
        const ProtobufCEnumDescriptor *d = OUR_ENUMS[k];
        for (unsigned j = 0; j < d->n_values; j++) {
            bool curio = false;
            for (size_t i = 0; i < N(CURIO_VALUES); i++)
                curio |= !strcmp(CURIO_VALUES[i].enumeration, short_name(d->name)) &&
                         !strcmp(CURIO_VALUES[i].name, d->values[j].name);
            TF_CHECK_MSG(curio || d->values[j].value >= 100, "%s.%s = %d is ours but below 100",
                         short_name(d->name), d->values[j].name, d->values[j].value);
        }
    }
}

static void test_service(void)
{
    const ProtobufCServiceDescriptor *s = &cuzk__v1__proving_engine__descriptor;
    TF_CHECK(!strcmp(s->name, "cuzk.v1.ProvingEngine"));
    TF_CHECK_MSG(s->n_methods == N(CURIO_METHODS), "%u methods, Curio has %zu", s->n_methods,
                 N(CURIO_METHODS));
    for (size_t i = 0; i < N(CURIO_METHODS); i++) {
        const ProtobufCMethodDescriptor *m =
            protobuf_c_service_descriptor_get_method_by_name(s, CURIO_METHODS[i].name);
        if (m == NULL) {
            TF_CHECK_MSG(0, "method %s is missing", CURIO_METHODS[i].name);
            continue;
        }
        TF_CHECK_MSG(!strcmp(short_name(m->input->name), CURIO_METHODS[i].input) &&
                         !strcmp(short_name(m->output->name), CURIO_METHODS[i].output),
                     "%s(%s) returns %s", m->name, m->input->name, m->output->name);
    }
}

/* A SubmitProofRequest as Curio's Go client encodes one for WindowPoSt
 * (vanilla_proofs, randomness, partition_index), hand-assembled on the
 * wire, decodes into the same fields here. */
static void test_wire(void)
{
    static const uint8_t wire[] = {
        0x0a, 0x03, 'w', 'd', '1',       /* request_id = "wd1" */
        0x10, 0x03,                      /* proof_kind = WINDOW_POST_PARTITION */
        0x28, 0x03,                      /* priority = HIGH */
        0x5a, 0x02, 0xaa, 0xbb,          /* vanilla_proofs[0] */
        0x5a, 0x01, 0xcc,                /* vanilla_proofs[1] */
        0xa8, 0x01, 0x07,                /* miner_id = 7 (field 21) */
        0xb2, 0x01, 0x02, 0x01, 0x02,    /* randomness = 01 02 (field 22) */
        0xb8, 0x01, 0x05,                /* partition_index = 5 (field 23) */
        0xf2, 0x01, 0x01, 0x11,          /* comm_r_old = 11 (field 30) */
        0xa2, 0x06, 0x01, 'c',           /* circuit_id = "c" (field 100) */
    };
    Cuzk__V1__SubmitProofRequest *r =
        cuzk__v1__submit_proof_request__unpack(NULL, sizeof wire, wire);
    TF_CHECK(r != NULL);
    if (r == NULL)
        return;
    TF_CHECK(!strcmp(r->request_id, "wd1"));
    TF_CHECK(r->proof_kind == CUZK__V1__PROOF_KIND__WINDOW_POST_PARTITION);
    TF_CHECK(r->priority == CUZK__V1__PRIORITY__HIGH);
    TF_CHECK(r->n_vanilla_proofs == 2 && r->vanilla_proofs[0].len == 2 &&
             r->vanilla_proofs[0].data[1] == 0xbb && r->vanilla_proofs[1].len == 1);
    TF_CHECK(r->miner_id == 7 && r->partition_index == 5);
    TF_CHECK(r->randomness.len == 2 && r->randomness.data[1] == 2);
    TF_CHECK(r->comm_r_old.len == 1 && r->comm_r_old.data[0] == 0x11);
    TF_CHECK(!strcmp(r->circuit_id, "c"));
    TF_CHECK(r->base.n_unknown_fields == 0);
    cuzk__v1__submit_proof_request__free_unpacked(r, NULL);
}

TF_MAIN(TF_TEST(test_curio_fields), TF_TEST(test_additions), TF_TEST(test_enums),
        TF_TEST(test_service), TF_TEST(test_wire))
