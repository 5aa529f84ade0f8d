/* cuzk: rank-1 constraint systems.
 *
 * A circuit is written against a cz_cs: allocate variables (inputs and
 * auxiliaries, each with its witness value), build linear combinations and
 * enforce A * B = C.  Three modes:
 *
 *  - CZ_CS_RECORD builds the R1CS once: on cz_cs_finish it becomes a cz_r1cs
 *    holding CSR matrices A, B, C (cz_csr: general coefficients as indices
 *    into a per-matrix dictionary) over one column space
 *        [inputs | aux]   (input i is column i, aux j is column n_in + j),
 *    with bellperson's input constraints appended (one row per input i:
 *    A = x_i, B = C = empty) and bellperson's density bitmaps.  Inputs may
 *    be allocated at any point between constraints; columns are assigned
 *    at cz_cs_finish, when the input count is known.
 *  - CZ_CS_WITNESS runs only the allocations: enforce and the namespace
 *    calls are no-ops, and the result is the assignment (inputs, aux).
 *  - CZ_CS_COUNT builds every constraint as RECORD does (enforce validates
 *    the variables, sorts the terms, sums repeats, drops zero sums and
 *    classifies the coefficients exactly as the recorder) but stores
 *    neither the matrices nor the assignment: it keeps the counts, each
 *    matrix's entries and general coefficients, the three density bitmaps
 *    (the only memory that grows with the circuit: 3 bits per variable at
 *    most) and the running digest of cz_r1cs_fingerprint, which
 *    cz_cs_count_finish returns.  Namespaces are no-ops.  It fingerprints
 *    circuits whose matrices would not fit in memory.
 *
 * RECORD and WITNESS store the assignment, so a recording run with witness
 * values also yields a witness.  The same circuit code runs in every mode
 * and yields the same variable numbering.
 *
 * Errors are sticky: an allocation or enforce that fails (out of memory, a
 * variable that was never allocated, too many variables) records the first
 * error in the cs and later calls do nothing; cz_cs_error and cz_cs_finish
 * report it.  Gadgets therefore need not check every call.
 *
 * A cz_cs is used by one thread at a time.  A finished cz_r1cs is read-only
 * and may be shared by any number of threads.
 */
#ifndef CUZK_CS_H
#define CUZK_CS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/ff.h"
#include "cuzk/pool.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------ variables --- */

/* A variable: bit 29 set for auxiliaries, bits 0..28 the index among its
 * kind.  Each kind holds at most CZ_CS_MAX_VARS variables. */
typedef uint32_t cz_var;
#define CZ_VAR_AUX     ((cz_var)1 << 29)
#define CZ_CS_MAX_VARS ((uint32_t)1 << 29)
#define CZ_CS_ONE      ((cz_var)0) /* input 0, the constant 1, allocated by cz_cs_new */

static inline bool cz_var_is_aux(cz_var v) { return (v & CZ_VAR_AUX) != 0; }
static inline uint32_t cz_var_index(cz_var v) { return v & (CZ_VAR_AUX - 1); }

/* ------------------------------------------------- linear combinations --- */

typedef struct {
    cz_var var;
    cz_fr coeff; /* Montgomery form, as every cz_fr */
} cz_lc_term;

/* sum coeff_k * var_k.  Terms may repeat a variable and may have zero
 * coefficients; enforce adds repeated terms and drops zero sums. */
typedef struct {
    cz_lc_term *t;
    size_t n, cap;
    int err; /* sticky CZ_ERR_NOMEM from a failed append */
} cz_lc;

/* An empty combination (no memory yet). */
void cz_lc_init(cz_lc *lc);
/* Frees the terms; lc is then empty and may be reused. */
void cz_lc_free(cz_lc *lc);
/* Removes every term and the sticky error, keeping the memory. */
void cz_lc_clear(cz_lc *lc);
/* Appends coeff * v. */
void cz_lc_add_term(cz_lc *lc, cz_var v, const cz_fr *coeff);
/* Appends +v and -v. */
void cz_lc_add(cz_lc *lc, cz_var v);
void cz_lc_sub(cz_lc *lc, cz_var v);
/* Appends the constant c (c * ONE). */
void cz_lc_add_const(cz_lc *lc, const cz_fr *c);

/* ------------------------------------------------------------------ cs --- */

typedef struct cz_cs cz_cs;
typedef struct cz_r1cs cz_r1cs;

typedef enum {
    CZ_CS_RECORD = 0,
    CZ_CS_WITNESS = 1,
    CZ_CS_COUNT = 2,
} cz_cs_mode;

/* Creation flags (ignored outside RECORD). */
#define CZ_CS_NAMESPACES 1u /* RECORD only: keep a namespace per constraint */

/* Creates a constraint system in `mode`; input 0 (ONE, value 1) exists on
 * return.  Returns CZ_OK, CZ_ERR_INVALID_ARG (bad mode or flags) or
 * CZ_ERR_NOMEM; *out is NULL on error. */
int cz_cs_new(cz_cs **out, cz_cs_mode mode, unsigned flags);
/* A WITNESS cs that writes into the caller's arrays and numbers from
 * given positions, so that parts of one circuit can be synthesised
 * concurrently into one assignment: input i goes to in[i] for i from
 * in_first (>= 1: input 0, ONE, and the others before in_first are the
 * caller's) below in_end, aux j to aux[j] for j from aux_first below
 * aux_end.  Entries before the first ones may be read as variables of
 * this cs (gadgets reading values, e.g. Poseidon's) and are never
 * written; an allocation past the end is the sticky CZ_ERR_INVALID_ARG.
 * The arrays are neither grown nor freed.  CZ_OK, CZ_ERR_INVALID_ARG,
 * CZ_ERR_NOMEM. */
int cz_cs_new_witness_at(cz_cs **out, cz_fr *in, size_t in_first, size_t in_end, cz_fr *aux,
                         size_t aux_first, size_t aux_end);
/* Frees cs and everything it still owns.  NULL is a no-op. */
void cz_cs_free(cz_cs *cs);

cz_cs_mode cz_cs_get_mode(const cz_cs *cs);
/* True when constraints are being built (RECORD and COUNT): gadgets must
 * then build their linear combinations, and may skip them when false
 * (WITNESS), since enforce ignores them.  It does not mean that values can
 * be read back (see cz_cs_inputs). */
bool cz_cs_is_recording(const cz_cs *cs);
/* The first error recorded (CZ_OK if none). */
int cz_cs_error(const cz_cs *cs);

/* Allocates a new auxiliary / input variable with witness value *value
 * (NULL: zero, for shape-only recording; COUNT mode does not read it).
 * Returns the variable, or CZ_CS_ONE after an error (see the sticky
 * error). */
cz_var cz_cs_alloc_aux(cz_cs *cs, const cz_fr *value);
cz_var cz_cs_alloc_input(cz_cs *cs, const cz_fr *value);

/* Enforces a * b = c.  NULL stands for the empty combination.  Every
 * variable must have been allocated in this cs.  RECORD: appends one
 * constraint (repeated variables summed, zero coefficients dropped; each
 * general coefficient looked up in, or added to, its matrix's dictionary
 * by an open-addressing hash, so that recording stores 4 bytes per general
 * entry); an lc carrying a sticky error makes it the cs's error, and a
 * matrix outgrowing cz_csr (a 64-row block of more than 2^32 - 1 entries,
 * a dictionary of more than 2^32 - 1 coefficients) is the sticky
 * CZ_ERR_TOO_BIG.  COUNT: the same checks
 * and the same row, counted and hashed instead of stored (no allocation
 * once the cs's scratch has grown to the longest combination).  WITNESS:
 * no-op. */
void cz_cs_enforce(cz_cs *cs, const cz_lc *a, const cz_lc *b, const cz_lc *c);

/* Namespaces (RECORD with CZ_CS_NAMESPACES; otherwise no-ops): constraints
 * enforced until the matching pop are labelled with the path of names
 * pushed, e.g. "challenge_3/label/sha256". Equal paths share one table
 * entry.  Popping the root is an error (CZ_ERR_INVALID_ARG). */
void cz_cs_push_ns(cz_cs *cs, const char *name);
void cz_cs_pop_ns(cz_cs *cs);

/* Counts so far (inputs include ONE; constraints exclude the input
 * constraints cz_cs_finish and cz_cs_count_finish append; 0 in WITNESS
 * mode). */
size_t cz_cs_num_inputs(const cz_cs *cs);
size_t cz_cs_num_aux(const cz_cs *cs);
size_t cz_cs_num_constraints(const cz_cs *cs);

/* The assignment: pointers to num_inputs / num_aux values, valid until the
 * next allocation or cz_cs_free (also after cz_cs_finish).  NULL in COUNT
 * mode, which stores no values: a gadget that reads values back from the
 * cs cannot run in COUNT mode. */
const cz_fr *cz_cs_inputs(const cz_cs *cs);
const cz_fr *cz_cs_aux(const cz_cs *cs);
/* Writes the full assignment w = [inputs | aux] (num_inputs + num_aux
 * values) to w.  RECORD and WITNESS only: COUNT mode has no assignment,
 * and writes nothing. */
void cz_cs_write_assignment(const cz_cs *cs, cz_fr *w);

/* A point in a recording: the counts so far (cz_cs_mark_here). */
typedef struct {
    size_t n_in, n_aux, n_rows;
    uint64_t nnz[3], ngen[3];
} cz_cs_mark;

void cz_cs_mark_here(const cz_cs *cs, cz_cs_mark *mark);

/* Appends `times` copies of the block recorded since mark: the result is
 * that of running the block's code `times` more times, each run
 * allocating as many inputs and aux as the block did, with the block's
 * values, and enforcing the block's rows, copy k's own variables numbered
 * k block-lengths after the block's and the variables from before the
 * mark (ONE, a circuit's header) used as they are.  That is exact when
 * each run of the code would use the same earlier variables and compute
 * the same values: the sectors of a blank PoSt circuit
 * (cz_post_synthesize) and the challenges of a blank PoRep partition
 * (cz_fc_porep_synthesize), whose recordings then cost one sector or
 * challenge plus a copy.  Returns CZ_OK; CZ_ERR_UNSUPPORTED, with cs
 * untouched, outside RECORD mode or with CZ_CS_NAMESPACES (each copy
 * would need its own names): the caller runs the code instead.
 * Otherwise, as sticky errors: CZ_ERR_INVALID_ARG (a mark that is not a
 * point of this recording, counts that would pass CZ_CS_MAX_VARS or
 * 2^32 - 1 rows), CZ_ERR_TOO_BIG (as enforce), CZ_ERR_NOMEM, the cs's
 * earlier error. */
int cz_cs_repeat(cz_cs *cs, const cz_cs_mark *mark, size_t times);

/* ---------------------------------------- witnesses of alike parts --- */

/* A circuit whose shape does not depend on its values, made of a header
 * and n alike parts (a PoRep or SnapDeals challenge, a PoSt sector), each
 * part the same sequence of segments (PoRep: a challenge's prefix, its
 * labels, its suffix), has an assignment w = [inputs | aux] of fixed
 * slices: the inputs ONE, the header's, then part 0's segments in order,
 * part 1's ...; the auxiliaries the same way.  So its witness can be
 * synthesized in pieces at once, each in a witness-only cs over its own
 * slices (cz_cs_new_witness_at), the values landing in place: the header
 * on the calling thread, then every (part, segment) on a pool, phase by
 * phase (a segment may read what its part's segments of earlier phases
 * wrote, by value).  src/cs/parts.c; used by the Filecoin witnesses. */
#define CZ_CS_PARTS_MAX_SEGS 17 /* PoRep: the prefix, 15 labels, the suffix */

typedef struct {
    /* the header into cs (NULL: none, ONE alone), its state kept in ctx */
    int (*header)(void *ctx, cz_cs *cs);
    /* segment seg of part `part` into cs; scratch holds `scratch` bytes of
     * the calling thread's own (uninitialised) */
    int (*segment)(void *ctx, cz_cs *cs, size_t part, unsigned seg, void *scratch);
    size_t scratch;
    unsigned n_seg;                            /* 1 .. CZ_CS_PARTS_MAX_SEGS */
    unsigned char phase[CZ_CS_PARTS_MAX_SEGS]; /* each segment's, 0 first */
    const char *what;                          /* in messages: "PoRep witness" */
    const char *part;                          /* a part, in messages: "challenge" */
} cz_cs_parts;

/* Inputs and auxiliaries: the header's (ONE included) and each segment's. */
typedef struct {
    size_t in, aux;
} cz_cs_count;

typedef struct {
    cz_cs_count hdr, seg[CZ_CS_PARTS_MAX_SEGS];
} cz_cs_parts_counts;

/* Counts by shape, measured once per process (16 shapes; more are
 * measured each time).  A static one: CZ_CS_PARTS_CACHE_INIT. */
#define CZ_CS_PARTS_KEY 8
typedef struct {
    pthread_mutex_t mu;
    unsigned n;
    struct {
        uint64_t key[CZ_CS_PARTS_KEY];
        cz_cs_parts_counts c;
    } e[16];
} cz_cs_parts_cache;
#define CZ_CS_PARTS_CACHE_INIT {.mu = PTHREAD_MUTEX_INITIALIZER}

/* The counts of p's circuit of shape key (a caller's encoding, zero
 * padded): cached, or measured by a blank run (p's header, then part 0's
 * segments in order on one witness-only cs, ctx the blank circuit's) and
 * cached.  Thread-safe.  CZ_OK, CZ_ERR_NOMEM, or a segment's error. */
int cz_cs_parts_counts_get(cz_cs_parts_cache *cache, const uint64_t key[CZ_CS_PARTS_KEY],
                           const cz_cs_parts *p, void *ctx, cz_cs_parts_counts *out);

/* The circuit's inputs (ONE included) and auxiliaries with n parts. */
void cz_cs_parts_size(const cz_cs_parts *p, const cz_cs_parts_counts *c, size_t n, size_t *n_in,
                      size_t *n_aux);

/* Where a run failed: part CZ_CS_PARTS_HEADER, or a part and segment. */
#define CZ_CS_PARTS_HEADER SIZE_MAX
typedef struct {
    size_t part;
    unsigned seg;
} cz_cs_parts_at;

/* The witness of the circuit of n parts into w (w_len values, the size
 * cz_cs_parts_size gives): w[0] = 1, the header on this thread, then each
 * phase's (part, segment) pieces on pool (NULL: this thread), every piece
 * checked to fill exactly its slices.  CZ_OK; or the error of the first
 * piece that failed (the header, then by phase, segment and part), *at
 * (may be NULL) naming it and err "<what>: the header: ..." or "<what>:
 * <part> <i>[, segment <s>]: ..."; CZ_ERR_INVALID_ARG for w_len,
 * CZ_ERR_NOMEM, with err set. */
int cz_cs_parts_run(const cz_cs_parts *p, const cz_cs_parts_counts *c, size_t n, void *ctx,
                    cz_fr *w, size_t w_len, cz_pool *pool, cz_cs_parts_at *at, char *err,
                    size_t errlen);

/* RECORD mode: appends the input constraints, assigns the columns, computes
 * the densities and moves the R1CS into *out (the cs keeps its assignment,
 * but accepts no further allocations or constraints).  Returns the sticky
 * error if any, CZ_ERR_INVALID_ARG in another mode or when called twice,
 * CZ_ERR_TOO_BIG (as enforce) or CZ_ERR_NOMEM; *out is NULL on error. */
int cz_cs_finish(cz_cs *cs, cz_r1cs **out);

/* ------------------------------------------------------- fingerprints --- */

/* What identifies an R1CS, computable while it is being built (COUNT mode)
 * and from a finished one; both give the same bytes for the same circuit.
 *
 * digest = SHA-256( u64 LE n_inputs, n_aux, n_constraints,
 *                   hash(A), hash(B), hash(C) )          (24 + 96 bytes)
 * hash(M) = BLAKE2b-256 (unkeyed; RFC 7693, 32-byte output) over the rows
 *   of M in order, the n_inputs input constraints last (A: that input with
 *   coefficient 1; B, C: empty), each row as
 *     u32 LE  number of entries (after summing repeats, zero sums dropped)
 *     per entry, by increasing variable (inputs first, then aux, each by
 *     index, as the recorded columns):
 *       u32 LE    code = aux << 31 | kind << 29 | index, where aux is 1
 *                 for an auxiliary and 0 for an input, index (< 2^29) the
 *                 variable's index among its kind (cz_var_index: not the
 *                 column, so the stream does not depend on inputs
 *                 allocated later), kind the coefficient's CSR kind:
 *                 0 (CZ_CSR_GEN) general, 1 (CZ_CSR_ONE) 1, 2 (CZ_CSR_NEG) -1
 *       32 bytes  kind 0 only: the coefficient, canonical little-endian
 *                 (cz_fr_to_bytes_le).
 * BLAKE2b rather than SHA-256 (cuzk/sha256.h) for the streams, which
 * carry 4 bytes per row and 4 or 36 per entry: the portable BLAKE2b hashes
 * 406 MiB/s against SHA-256's 80, and `cuzk-bench circuit-info --count
 * synthetic-20` takes 0.55 s with it against 1.37 s with SHA-256
 * (synthetic-22: 2.4 s against 5.5 s; 2-core x86-64, gcc -O2). */
typedef struct {
    uint64_t n_inputs; /* ONE included */
    uint64_t n_aux;
    uint64_t n_constraints;   /* circuit rows, without the input constraints */
    uint64_t n_rows;          /* with: n_constraints + n_inputs */
    uint64_t nnz[3], ngen[3]; /* indexed by CZ_MAT_*, input constraints included */
    uint64_t density[3];      /* popcounts, indexed by cz_density */
    uint8_t digest[32];
} cz_r1cs_fingerprint;

/* COUNT mode: appends the input constraints (as cz_cs_finish does: one row
 * per input, A = that input with coefficient 1, B = C = empty) and writes
 * the fingerprint to *fp; the cs then accepts no further allocations or
 * constraints.  Returns the sticky error if any, CZ_ERR_INVALID_ARG (fp
 * NULL, another mode, called twice); *fp is zeroed on error. */
int cz_cs_count_finish(cz_cs *cs, cz_r1cs_fingerprint *fp);

/* The fingerprint of a recorded or loaded (cz_pce_load) r1cs: column c is
 * input c for c < n_inputs, else aux c - n_inputs.  Equal, field by field,
 * to what cz_cs_count_finish gives for the same circuit. */
void cz_r1cs_fingerprint_of(const cz_r1cs *r, cz_r1cs_fingerprint *fp);

/* ---------------------------------------------------------------- r1cs --- */

/* One matrix in CSR form, compacted for memory: u32 row offsets within
 * blocks of CZ_CSR_BLOCK rows, and general coefficients as u32 indices into
 * a dictionary of the matrix's distinct ones.
 *
 * Rows: row r (r = 0 .. rows - 1) holds entries
 *     cz_csr_row_begin(m, r) .. cz_csr_row_end(m, r) - 1,
 *     begin(r) = row_blk[r / 64] + row_off[r],   end(r) = begin(r + 1),
 * where row_blk[k] is the first entry of rows 64k .. 64k + 63 (so
 * row_off[64k] = 0) and row_off[rows] ends the last row: begin(rows) = nnz.
 * begin(r) never decreases with r.
 * Entries: entry e is col[e], bits 0..29 the column, bits 30..31 the kind:
 *   CZ_CSR_GEN  a general coefficient (not 0, 1 or -1),
 *   CZ_CSR_ONE  coefficient 1,   CZ_CSR_NEG  coefficient -1.
 * Columns are strictly increasing within a row.
 * General coefficients: the general entries are numbered g = 0 .. ngen - 1
 * in entry order; the g-th has coefficient dict[gidx[g]]
 * (cz_csr_gen_coef), and the first of rows 64k on is number coef_blk[k]
 * (k = 0 .. rows / 64; coef_blk[rows / 64] counts those before that
 * block).  dict holds each distinct general coefficient of the matrix
 * exactly once, in order of first use (gidx[g] is at most 1 + the largest
 * index before it), Montgomery form as every cz_fr.
 *
 * Bytes: 8 (rows / 64 + 1) twice, 4 (rows + 1), 4 nnz, 4 ngen, 32 ndict. */
#define CZ_CSR_GEN      0u
#define CZ_CSR_ONE      1u
#define CZ_CSR_NEG      2u
#define CZ_CSR_COL_MASK ((1u << 30) - 1)
#define CZ_CSR_KIND(e)  ((e) >> 30)
#define CZ_CSR_BLOCK    64

typedef struct {
    const uint64_t *row_blk;  /* rows / 64 + 1: first entry of each 64-row block */
    const uint32_t *row_off;  /* rows + 1: first entry of each row, minus its block's */
    const uint64_t *coef_blk; /* rows / 64 + 1: first general entry of each block */
    const uint32_t *col;      /* nnz: kind << 30 | column */
    const uint32_t *gidx;     /* ngen: dictionary index of each general entry */
    const cz_fr *dict;        /* ndict: the distinct general coefficients */
    uint64_t nnz, ngen, ndict;
} cz_csr;

/* The first entry of row r (0 <= r <= rows; r = rows gives nnz). */
static inline uint64_t cz_csr_row_begin(const cz_csr *m, uint64_t r)
{
    return m->row_blk[r / CZ_CSR_BLOCK] + m->row_off[r];
}

/* One past the last entry of row r (0 <= r < rows). */
static inline uint64_t cz_csr_row_end(const cz_csr *m, uint64_t r)
{
    return cz_csr_row_begin(m, r + 1);
}

/* The coefficient of general entry number g (0 <= g < ngen). */
static inline const cz_fr *cz_csr_gen_coef(const cz_csr *m, uint64_t g)
{
    return &m->dict[m->gidx[g]];
}

enum { CZ_MAT_A = 0, CZ_MAT_B = 1, CZ_MAT_C = 2 };

/* Densities as bellperson computes them (bit i of word i/64). */
typedef enum {
    CZ_DENSITY_A_AUX = 0, /* aux with a non-zero A coefficient (n_aux bits) */
    CZ_DENSITY_B_INPUT,   /* inputs with a non-zero B coefficient (n_in bits) */
    CZ_DENSITY_B_AUX,     /* aux with a non-zero B coefficient (n_aux bits) */
} cz_density;

void cz_r1cs_free(cz_r1cs *r); /* NULL is a no-op; unmaps a loaded file */

/* A pre-compiled R1CS mapped from its file (cz_pce_load): lets the
 * kernel drop the file's pages from memory (madvise MADV_DONTNEED) for a
 * caller whose proofs read r's matrices elsewhere (the CUDA back end's
 * device copies); r stays valid, and a later read brings the pages back
 * from the file.  Returns the mapping's bytes, 0 for another storage. */
size_t cz_r1cs_release_pages(const cz_r1cs *r);

/* A function cz_r1cs_free calls with r before freeing anything: how a
 * layer that keeps copies of r's matrices elsewhere (the CUDA back end's
 * device copies, keyed by r) learns that they are stale.  One hook per
 * r1cs: set once, from any thread; true when fn is now r's hook (set by
 * this call or before), false when another function holds the slot. */
typedef void (*cz_r1cs_free_hook)(const void *r);
bool cz_r1cs_set_free_hook(const cz_r1cs *r, cz_r1cs_free_hook fn);

size_t cz_r1cs_num_inputs(const cz_r1cs *r);
size_t cz_r1cs_num_aux(const cz_r1cs *r);
/* Rows, including the num_inputs input constraints at the end. */
size_t cz_r1cs_num_constraints(const cz_r1cs *r);
/* Rows written by the circuit (num_constraints - num_inputs). */
size_t cz_r1cs_num_circuit_constraints(const cz_r1cs *r);
/* Matrix m (CZ_MAT_A/B/C), pointers valid while r lives. */
const cz_csr *cz_r1cs_matrix(const cz_r1cs *r, int m);
/* Bitmap of density d and its number of set bits in *count (may be NULL).
 * (The A query walks every input: there is no input bitmap for A.) */
const uint64_t *cz_r1cs_density(const cz_r1cs *r, cz_density d, size_t *count);
/* Bytes of memory the matrices, densities and namespace table occupy
 * (mapped file pages included). */
size_t cz_r1cs_mem_bytes(const cz_r1cs *r);

/* a = A w, b = B w, c = C w over the full assignment w (num_inputs +
 * num_aux values; w_len must match).  Each output holds num_constraints
 * values; any of a, b, c may be NULL to skip it.  Rows are split over pool
 * (NULL: the calling thread).  Results do not depend on the pool.  General
 * entries whose w value is 0 or 1 take no multiplication, so the time
 * depends on w (public to the prover, as in msm.h); the results do not.
 * Returns CZ_OK or CZ_ERR_INVALID_ARG. */
int cz_r1cs_spmv(const cz_r1cs *r, const cz_fr *w, size_t w_len, cz_fr *a, cz_fr *b, cz_fr *c,
                 cz_pool *pool);

/* Checks (A w)_i * (B w)_i == (C w)_i for every row (the three products
 * in one pass over the rows, as cz_r1cs_spmv computes them; the product
 * skipped when a side is 0 or 1).  Returns CZ_OK, or
 * CZ_ERR_UNSATISFIED with the first failing row in *row (may be NULL) and,
 * in msg (msg_len bytes, may be 0), "constraint <i> (<namespace path>) is
 * not satisfied"; CZ_ERR_INVALID_ARG for a wrong w_len, CZ_ERR_NOMEM. */
int cz_r1cs_check(const cz_r1cs *r, const cz_fr *w, size_t w_len, cz_pool *pool, size_t *row,
                  char *msg, size_t msg_len);

/* The namespace path of row i ("" when not recorded or out of range),
 * written to buf (always NUL-terminated when buf_len > 0, truncated if
 * needed).  Returns buf. */
const char *cz_r1cs_ns_path(const cz_r1cs *r, size_t row, char *buf, size_t buf_len);

/* ------------------------------------------------ pre-compiled R1CS file --- */

/* File layout (little-endian; docs in src/cs/pce.c):
 *   header, 192 bytes: "CZPCE\0\0\0", u32 version (2), u32 flags (0),
 *     u64 n_inputs, n_aux, n_constraints, n_circuit_constraints,
 *     per matrix u64 nnz, ngen, ndict, then u64 body length, reserved
 *     zeros and a 64-bit checksum of everything else in the file;
 *   per matrix A, B, C: row_blk, row_off, coef_blk, col, gidx, dict (the
 *     arrays of cz_csr), each starting on a 64-byte boundary, zero padding
 *     between.
 * Namespaces are not saved.  Version 1 (u64 row pointers, 32 bytes per
 * general entry) is refused: such files must be regenerated. */
#define CZ_PCE_VERSION 2u

/* Writes r to path (created or truncated).  CZ_OK, CZ_ERR_IO. */
int cz_pce_save(const cz_r1cs *r, const char *path);

/* Load flag: skip the checksum (fuzzing, trusted files); every structural
 * check still runs, so a loaded file is always safe to use. */
#define CZ_PCE_NO_CHECKSUM 1u

/* Maps path and validates it; the matrices are used in place from the
 * mapping.  Returns CZ_OK or: CZ_ERR_IO (open/stat/mmap), CZ_ERR_TRUNCATED
 * (shorter than the header or than its counts imply), CZ_ERR_BAD_LENGTH
 * (longer), CZ_ERR_BAD_FORMAT (magic, flags, counts, row offsets, columns,
 * kinds, coefficient blocks, dictionary indices, a repeated dictionary
 * entry, padding, input constraints), CZ_ERR_UNSUPPORTED (another version,
 * version 1 included), CZ_ERR_BAD_CHECKSUM, CZ_ERR_NOT_CANONICAL (a
 * dictionary entry >= r, or 0, 1, -1), CZ_ERR_NOMEM, CZ_ERR_INVALID_ARG
 * (NULL arguments, unknown flags).
 * When msg_len > 0, msg receives a sentence naming what is wrong. *out is
 * NULL on error. */
int cz_pce_load(cz_r1cs **out, const char *path, unsigned flags, char *msg, size_t msg_len);

/* As cz_pce_load over buf[0..len), which must be 8-byte aligned
 * (CZ_ERR_INVALID_ARG otherwise) and outlive *out: used in place. */
int cz_pce_load_mem(cz_r1cs **out, const void *buf, size_t len, unsigned flags, char *msg,
                    size_t msg_len);

#ifdef __cplusplus
}
#endif
#endif /* CUZK_CS_H */
