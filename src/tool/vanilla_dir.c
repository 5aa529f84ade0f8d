/* The folders `cuzk snap encode` and `cuzk post vanilla` write, read back
 * as daemon requests (tool.h): a JSON file of the command's own (read
 * with util/json_tree) and one vanilla proof blob per partition or sector. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/err.h"
#include "tool/tool.h"
#include "util/json_tree.h"

/* Member key of v, or NULL when v is no object or has none. */
static const cz_json_value *member(const cz_json_value *v, const char *key)
{
    if (v->type != CZ_JSON_OBJECT)
        return NULL;
    const cz_json_value *m = cz_json_first(v);
    for (size_t i = 0; i < v->n; i++, m = cz_json_next(m))
        if (strcmp(m->key, key) == 0)
            return m;
    return NULL;
}

/* Member key of object v: a number that fits u64, or a string of 64 hex
 * digits (32 bytes in order).  0 or -1. */
static int json_u64(const cz_json_value *v, const char *key, uint64_t *out)
{
    const cz_json_value *m = member(v, key);
    if (m == NULL || m->type != CZ_JSON_NUMBER || m->len == 0 || m->len > 20)
        return -1;
    uint64_t x = 0;
    for (size_t i = 0; i < m->len; i++) {
        unsigned d = (unsigned)(m->str[i] - '0');
        if (d > 9 || x > (UINT64_MAX - d) / 10)
            return -1;
        x = x * 10 + d;
    }
    *out = x;
    return 0;
}

static int json_hex32(const cz_json_value *v, const char *key, uint8_t out[32])
{
    const cz_json_value *m = member(v, key);
    if (m == NULL || m->type != CZ_JSON_STRING || m->len != 64)
        return -1;
    for (int i = 0; i < 32; i++) {
        unsigned b;
        char two[3] = {m->str[2 * i], m->str[2 * i + 1], 0};
        if (!isxdigit((unsigned char)two[0]) || !isxdigit((unsigned char)two[1]) ||
            sscanf(two, "%2x", &b) != 1)
            return -1;
        out[i] = (uint8_t)b;
    }
    return 0;
}

/* dir/name parsed into *doc, path its path; -1 after a message naming
 * cmd. */
static int read_doc(cz_json_doc *doc, char path[4200], const char *dir, const char *name,
                    const char *cmd)
{
    snprintf(path, 4200, "%s/%s", dir, name);
    size_t len;
    uint8_t *j = cz_cli_read_file(path, &len, cmd);
    if (j == NULL)
        return -1;
    char err[256];
    int rc = cz_json_parse(doc, (const char *)j, len, 4, err, sizeof err);
    free(j);
    if (rc != CZ_OK) {
        fprintf(stderr, "%s %s: %s: %s\n", cz_cli_prog(), cmd, path, err);
        return -1;
    }
    return 0;
}


/* dir/vanilla-0.bin .. vanilla-(n-1).bin into (*blobs)[i], (*lens)[i]
 * (arrays of n made here), *got counting those read: 0, or -1 after a
 * message naming cmd (what was read stays for free_blobs). */
static int read_blobs(uint8_t ***blobs, size_t **lens, size_t *got, size_t n, const char *dir,
                      const char *cmd)
{
    *blobs = calloc(n, sizeof **blobs);
    *lens = calloc(n, sizeof **lens);
    if (*blobs == NULL || *lens == NULL) {
        fprintf(stderr, "%s %s: out of memory\n", cz_cli_prog(), cmd);
        return -1;
    }
    for (*got = 0; *got < n; ++*got) {
        char path[4200];
        snprintf(path, sizeof path, "%s/vanilla-%zu.bin", dir, *got);
        if (((*blobs)[*got] = cz_cli_read_file(path, &(*lens)[*got], cmd)) == NULL)
            return -1;
    }
    return 0;
}

static void free_blobs(uint8_t **blobs, size_t *lens, size_t n)
{
    for (size_t i = 0; blobs && i < n; i++)
        free(blobs[i]);
    free(blobs);
    free(lens);
}

void cz_tool_snap_dir_free(cz_tool_snap_dir *u)
{
    free_blobs(u->blobs, u->lens, u->req.n_vanilla);
    memset(u, 0, sizeof *u);
}

int cz_tool_snap_dir_load(cz_tool_snap_dir *u, const char *dir, const char *cmd)
{
    memset(u, 0, sizeof *u);
    char path[4200];
    cz_json_doc doc;
    if (read_doc(&doc, path, dir, "update.json", cmd) != 0)
        return -1;
    const cz_json_value *top = doc.nodes;
    uint64_t size, parts;
    int bad = json_u64(top, "sector_size", &size) || json_u64(top, "partitions", &parts) ||
              json_hex32(top, "comm_r_old", u->comm[0]) ||
              json_hex32(top, "comm_d_new", u->comm[1]) ||
              json_hex32(top, "comm_r_new", u->comm[2]) || parts == 0 || parts > 64;
    cz_json_free(&doc);
    const cz_fc_shape *shape = bad ? NULL : cz_fc_shape_by_size(size);
    if (shape == NULL) {
        fprintf(stderr, "%s %s: %s is not snap encode's update.json\n", cz_cli_prog(), cmd, path);
        return -1;
    }
    if (read_blobs(&u->blobs, &u->lens, &u->req.n_vanilla, parts, dir, cmd) != 0) {
        cz_tool_snap_dir_free(u);
        return -1;
    }
    u->req.registered_proof = (uint64_t)shape->id; /* RegisteredUpdateProof: shape order */
    u->req.sector_size = size;
    u->req.vanilla = (const uint8_t *const *)u->blobs;
    u->req.vanilla_len = u->lens;
    u->req.comm_r_old = u->comm[0], u->req.comm_r_old_len = 32;
    u->req.comm_d_new = u->comm[1], u->req.comm_d_new_len = 32;
    u->req.comm_r_new = u->comm[2], u->req.comm_r_new_len = 32;
    return 0;
}

void cz_tool_post_dir_free(cz_tool_post_dir *p)
{
    free_blobs(p->blobs, p->lens, p->req.n_vanilla);
    free(p->sectors);
    memset(p, 0, sizeof *p);
}

int cz_tool_post_dir_load(cz_tool_post_dir *p, const char *dir, const char *cmd)
{
    memset(p, 0, sizeof *p);
    char path[4200];
    cz_json_doc doc;
    if (read_doc(&doc, path, dir, "post.json", cmd) != 0)
        return -1;
    const cz_json_value *top = doc.nodes, *list = member(top, "sectors");
    uint64_t pid, size, k;
    int bad = json_u64(top, "registered_proof", &pid) || json_u64(top, "sector_size", &size) ||
              json_u64(top, "partition_index", &k) ||
              json_hex32(top, "randomness", p->randomness) || k > UINT32_MAX;
    const cz_post_proof_type *pt = bad ? NULL : cz_post_proof_by_id(pid);
    size_t n = list && list->type == CZ_JSON_ARRAY ? list->n : 0;
    if (pt == NULL || cz_fc_shape_get(pt->size)->sector_size != size || n == 0) {
        fprintf(stderr, "%s %s: %s is not post vanilla's post.json\n", cz_cli_prog(), cmd, path);
        cz_json_free(&doc);
        return -1;
    }
    p->type = pt;
    p->sectors = calloc(n, sizeof *p->sectors);
    const cz_json_value *e = cz_json_first(list);
    for (size_t i = 0; p->sectors && i < n && !bad; i++, e = cz_json_next(e))
        bad = json_u64(e, "id", &p->sectors[i].sector_id) ||
              json_hex32(e, "comm_r", p->sectors[i].comm_r.b);
    cz_json_free(&doc);
    if (p->sectors == NULL || bad) {
        fprintf(stderr, "%s %s: %s: cannot read its sectors\n", cz_cli_prog(), cmd, path);
        cz_tool_post_dir_free(p);
        return -1;
    }
    if (read_blobs(&p->blobs, &p->lens, &p->req.n_vanilla, n, dir, cmd) != 0) {
        cz_tool_post_dir_free(p);
        return -1;
    }
    p->kind = pt->kind == CZ_POST_WINNING ? CZ_KIND_WINNING_POST : CZ_KIND_WINDOW_POST;
    p->req.registered_proof = pid;
    p->req.sector_size = size;
    p->req.miner_id = 1000;
    p->req.randomness = p->randomness;
    p->req.randomness_len = 32;
    p->req.partition_index = (uint32_t)k;
    p->req.vanilla = (const uint8_t *const *)p->blobs;
    p->req.vanilla_len = p->lens;
    return 0;
}
