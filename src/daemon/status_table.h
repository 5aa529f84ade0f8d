/* The status table: every figure of the engine's status that the daemon
 * shows, described once, with its /status key, its /metrics family and its
 * GetStatus field.  /status (status_json.c) and /metrics (metrics.c) write
 * by iterating it, GetStatus (rpc_methods.c) fills the proto's fields from
 * it where they map.  Not part of the public API.
 *
 * A section is the rows of one struct of the engine's status, in /status
 * order: the struct's figures there, a figure being a field of the struct
 * (cz_status_u64 / cz_status_f64 read it).  A family is one metric of
 * /metrics: its name, type and help; its samples are the rows that name
 * it, once per object of their section's scope.  The families are in
 * /metrics order, and one without samples (no GPU, no plan) is not
 * written. */
#ifndef CZ_DAEMON_STATUS_TABLE_H
#define CZ_DAEMON_STATUS_TABLE_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/engine.h"

typedef enum {
    CZ_ST_U64,
    CZ_ST_U32,
    CZ_ST_BOOL, /* /status true or false, /metrics 1 or 0 */
    CZ_ST_F64,  /* /status with 3 decimals (null when not finite), /metrics 6 */
    CZ_ST_SET,  /* a string (char array): /metrics 1 when not empty, else 0 */
} cz_status_type;

typedef struct {
    const char *key;   /* its /status member; NULL: not shown there */
    const char *group; /* the /status sub-object it sits in (consecutive rows
                          of a group share one); NULL: none */
    cz_status_type type;
    size_t off;             /* of the field in the section's struct */
    const char *metric;     /* its /metrics family; NULL: none */
    const char *gpu_metric; /* its family in a GPU's account (rows shared by
                               the host's and the GPUs'); NULL: none */
    const char *label;      /* the value of its family's label */
    const char *proto;      /* the GetStatus field it fills (by name, in the
                               message its section maps to); NULL: none */
} cz_status_field;

/* The objects a section's rows' samples come from in /metrics, and the
 * labels each adds before the row's own. */
typedef enum {
    CZ_SCOPE_ENGINE,     /* the cz_engine_status */
    CZ_SCOPE_MEMORY,     /* its mem (the host's account) */
    CZ_SCOPE_KIND,       /* each of its kinds: kind="NAME" */
    CZ_SCOPE_CLASS,      /* each class of its mem: class="NAME" */
    CZ_SCOPE_GPU,        /* each GPU among its devices: device="ORDINAL" */
    CZ_SCOPE_GPU_MEMORY, /* each GPU's account: device="ORDINAL" */
    CZ_SCOPE_GPU_CLASS,  /* each class of each GPU's: device="ORDINAL",class="NAME" */
    CZ_SCOPE_PLAN,       /* each cached circuit's plan on each device that made
                            one: device="ORDINAL",circuit="ID" */
} cz_metric_scope;

typedef struct {
    const cz_status_field *fields;
    size_t n;
    cz_metric_scope scope;     /* of its rows' metric samples */
    cz_metric_scope gpu_scope; /* of its rows' gpu_metric samples (if any) */
} cz_status_section;

/* The sections, by the struct they read and where /status shows it. */
extern const cz_status_section cz_status_jobs;    /* cz_engine_status: "jobs" */
extern const cz_status_section cz_status_kind;    /* cz_engine_kind_status: "kinds".NAME */
extern const cz_status_section cz_status_workers; /* cz_engine_status: "workers" */
extern const cz_status_section cz_status_queues;  /* cz_engine_status: "queues" */
extern const cz_status_section cz_status_cache;   /* cz_engine_status: the top level */
extern const cz_status_section cz_status_circuit; /* cz_engine_circuit_info: "circuits"[i] */
extern const cz_status_section cz_status_plan;    /* cz_engine_plan: "circuits"[i]."plans"[k] */
extern const cz_status_section cz_status_account; /* cz_mem_snapshot: "memory", a GPU's "memory" */
extern const cz_status_section cz_status_memory;  /* cz_engine_status: "memory" */
extern const cz_status_section cz_status_class;   /* cz_buf_class_stats: "classes".NAME */
extern const cz_status_section cz_status_device;  /* cz_engine_device_status: a GPU's */
extern const cz_status_section cz_status_vram;    /* cz_engine_device_status: a GPU's "memory" */

/* Every section (for the families' rows). */
extern const cz_status_section *const cz_status_sections[];
extern const size_t cz_status_n_sections;

/* A family's samples are the rows that name it (as metric or gpu_metric),
 * all in one section. */
typedef struct {
    const char *name;
    const char *type;  /* "counter" or "gauge" */
    const char *label; /* the name of its rows' own label; "": none */
    const char *help;
} cz_metric_family;

extern const cz_metric_family cz_metric_families[];
extern const size_t cz_metric_n_families;

/* Row f's figure in obj, a struct of f's section. */
uint64_t cz_status_u64(const cz_status_field *f, const void *obj); /* not for CZ_ST_F64 */
double cz_status_f64(const cz_status_field *f, const void *obj);   /* CZ_ST_F64 only */

#endif /* CZ_DAEMON_STATUS_TABLE_H */
