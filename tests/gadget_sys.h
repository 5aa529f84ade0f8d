/* Helpers shared by the gadget tests: a finished constraint system with its
 * assignment, satisfiability checks and the column of a variable. */
#ifndef CZ_TESTS_GADGET_SYS_H
#define CZ_TESTS_GADGET_SYS_H

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/cs.h"
#include "cuzk/err.h"
#include "tf.h"

/* A finished system with its assignment w (inputs then aux). */
typedef struct {
    cz_cs *cs;
    cz_r1cs *r;
    cz_fr *w;
    size_t n, n_in;
} sys;

static inline bool sys_finish(sys *s, cz_cs *cs)
{
    memset(s, 0, sizeof *s);
    s->cs = cs;
    int rc = cz_cs_finish(cs, &s->r);
    TF_CHECK_MSG(rc == CZ_OK, "cz_cs_finish: %d", rc);
    if (rc != CZ_OK)
        return false;
    s->n_in = cz_cs_num_inputs(cs);
    s->n = s->n_in + cz_cs_num_aux(cs);
    s->w = malloc(s->n * sizeof *s->w + 1);
    cz_cs_write_assignment(cs, s->w);
    return true;
}

/* CZ_OK or CZ_ERR_UNSATISFIED, with the first failing row in *row. */
static inline int sys_check_row(const sys *s, size_t *row)
{
    return cz_r1cs_check(s->r, s->w, s->n, NULL, row, NULL, 0);
}

static inline int sys_check(const sys *s) { return sys_check_row(s, NULL); }

/* Column of v in w. */
static inline size_t col(const sys *s, cz_var v)
{
    return cz_var_is_aux(v) ? s->n_in + cz_var_index(v) : cz_var_index(v);
}

static inline void sys_free(sys *s)
{
    free(s->w);
    cz_r1cs_free(s->r);
    cz_cs_free(s->cs);
}

#endif /* CZ_TESTS_GADGET_SYS_H */
