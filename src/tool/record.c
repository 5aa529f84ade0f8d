/* The circuits cuzk records: a PoRep partition (or the blank circuit), the
 * blank EmptySectorUpdate circuit, the blank FallbackPoSt circuit
 * (tool.h). */
#include "cuzk/cs.h"
#include "cuzk/err.h"
#include "tool/tool.h"

int cz_tool_record(cz_r1cs **r, const cz_tool_circuit *c, unsigned flags, char *err, size_t errlen)
{
    cz_cs *cs = NULL;
    *r = NULL;
    err[0] = 0;
    int rc = cz_cs_new(&cs, CZ_CS_RECORD, flags);
    if (rc == CZ_OK)
        rc = c->snap   ? cz_fc_snap_synthesize(cs, c->snap, NULL, NULL, err, errlen)
             : c->post ? cz_post_synthesize(cs, c->post, NULL, err, errlen)
                       : cz_fc_porep_synthesize(cs, c->porep, c->c1, c->k, err, errlen);
    if (rc == CZ_OK)
        rc = cz_cs_finish(cs, r);
    if (rc != CZ_OK && err[0] == 0)
        cz_msgf(err, errlen, "recording the %scircuit: %s",
                c->snap   ? "update "
                : c->post ? "PoSt "
                          : "",
                cz_strerror(rc));
    cz_cs_free(cs);
    return rc;
}
