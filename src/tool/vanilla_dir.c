/* The folders `cuzk snap encode` and `cuzk post vanilla` write, read back
 * as daemon requests (tool.h): a JSON file of the command's own (flat, no
 * spaces) and one vanilla proof blob per partition or sector. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool/tool.h"

/* The value of "key" in the commands' own JSON files: a number, or a hex
 * string of 32 bytes.  0 or -1. */
static int json_u64(const char *j, const char *key, uint64_t *v)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\":", key);
    const char *at = strstr(j, pat);
    return at && sscanf(at + strlen(pat), "%" SCNu64, v) == 1 ? 0 : -1;
}

static int json_hex32(const char *j, const char *key, uint8_t out[32])
{
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\":\"", key);
    const char *at = strstr(j, pat);
    if (at == NULL)
        return -1;
    at += strlen(pat);
    for (int i = 0; i < 32; i++) {
        unsigned b;
        if (sscanf(at + 2 * i, "%2x", &b) != 1)
            return -1;
        out[i] = (uint8_t)b;
    }
    return at[64] == '"' ? 0 : -1;
}

/* dir/name whole and NUL-terminated (malloc'd), path its path; NULL after
 * a message naming cmd. */
static char *read_text(char path[4200], const char *dir, const char *name, const char *cmd)
{
    snprintf(path, 4200, "%s/%s", dir, name);
    size_t len;
    uint8_t *j = cz_cli_read_file(path, &len, cmd);
    char *text = j ? realloc(j, len + 1) : NULL;
    if (text == NULL) {
        free(j);
        return NULL;
    }
    text[len] = 0;
    return text;
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
    char *text = read_text(path, dir, "update.json", cmd);
    if (text == NULL)
        return -1;
    uint64_t size, parts;
    int bad = json_u64(text, "sector_size", &size) || json_u64(text, "partitions", &parts) ||
              json_hex32(text, "comm_r_old", u->comm[0]) ||
              json_hex32(text, "comm_d_new", u->comm[1]) ||
              json_hex32(text, "comm_r_new", u->comm[2]) || parts == 0 || parts > 64;
    free(text);
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
    char *text = read_text(path, dir, "post.json", cmd);
    if (text == NULL)
        return -1;
    uint64_t pid, size, k;
    int bad = json_u64(text, "registered_proof", &pid) || json_u64(text, "sector_size", &size) ||
              json_u64(text, "partition_index", &k) ||
              json_hex32(text, "randomness", p->randomness) || k > UINT32_MAX;
    const cz_post_proof_type *pt = bad ? NULL : cz_post_proof_by_id(pid);
    size_t n = 0;
    for (const char *at = strstr(text, "\"id\":"); at; at = strstr(at + 1, "\"id\":"))
        n++;
    if (pt == NULL || cz_fc_shape_get(pt->size)->sector_size != size || n == 0) {
        fprintf(stderr, "%s %s: %s is not post vanilla's post.json\n", cz_cli_prog(), cmd, path);
        free(text);
        return -1;
    }
    p->type = pt;
    p->sectors = calloc(n, sizeof *p->sectors);
    const char *at = text;
    for (size_t i = 0; p->sectors && i < n && !bad; i++) {
        at = strstr(at, "{\"id\":");
        bad = at == NULL || json_u64(at, "id", &p->sectors[i].sector_id) ||
              json_hex32(at, "comm_r", p->sectors[i].comm_r.b);
        if (at)
            at++;
    }
    free(text);
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
