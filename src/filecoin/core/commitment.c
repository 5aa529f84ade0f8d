/* Commitments as Curio sends them (cuzk/filecoin/core.h cz_fc_commitment_read):
 * 32 raw bytes, or the binary CID of go-fil-commcid:
 *
 *   0x01 | varint codec | varint multihash | varint 32 | 32 bytes
 *
 * with the codec and multihash of the commitment's kind (unsigned LEB128
 * varints, minimal: the multiformats rule). */
#include <string.h>

#include "cuzk/err.h"
#include "cuzk/filecoin/core.h"

#define CID_V1            0x01
#define FIL_SEALED        0xf102 /* fil-commitment-sealed */
#define FIL_UNSEALED      0xf101 /* fil-commitment-unsealed */
#define MH_POSEIDON       0xb401 /* poseidon-bls12_381-a2-fc1 */
#define MH_SHA256_TRUNC   0x1012 /* sha2-256-trunc254-padded */

/* A minimal unsigned varint of at most 9 bytes at b[*at..len): CZ_OK and
 * *v, or CZ_ERR_BAD_FORMAT. */
static int varint(const uint8_t *b, size_t len, size_t *at, uint64_t *v)
{
    *v = 0;
    for (unsigned i = 0; i < 9 && *at < len; i++) {
        uint8_t c = b[(*at)++];
        *v |= (uint64_t)(c & 0x7f) << (7 * i);
        if (!(c & 0x80))
            return c == 0 && i > 0 ? CZ_ERR_BAD_FORMAT : CZ_OK; /* not minimal */
    }
    return CZ_ERR_BAD_FORMAT;
}

int cz_fc_commitment_read(cz_fc_d *out, cz_fc_comm_kind kind, const uint8_t *b, size_t len,
                          char *err, size_t errlen)
{
    const uint64_t want_codec = kind == CZ_FC_COMM_R ? FIL_SEALED : FIL_UNSEALED;
    const uint64_t want_mh = kind == CZ_FC_COMM_R ? MH_POSEIDON : MH_SHA256_TRUNC;
    const char *what = kind == CZ_FC_COMM_R ? "a replica commitment (CommR)"
                                            : "a data commitment (CommD)";
    memset(out, 0, sizeof *out);
    if (len == 32) {
        memcpy(out->b, b, 32);
    } else if (len > 32 && b[0] == CID_V1) {
        size_t at = 1;
        uint64_t codec, mh, n;
        if (varint(b, len, &at, &codec) != CZ_OK || varint(b, len, &at, &mh) != CZ_OK ||
            varint(b, len, &at, &n) != CZ_OK) {
            cz_msgf(err, errlen, "%zu bytes are neither 32 raw bytes nor a CID: a varint of the "
                                 "CID header is malformed", len);
            return CZ_ERR_BAD_FORMAT;
        }
        if (codec != want_codec || mh != want_mh) {
            cz_msgf(err, errlen, "a CID of codec 0x%llx and multihash 0x%llx is not %s (codec "
                                 "0x%llx, multihash 0x%llx)",
                    (unsigned long long)codec, (unsigned long long)mh, what,
                    (unsigned long long)want_codec, (unsigned long long)want_mh);
            return CZ_ERR_BAD_FORMAT;
        }
        if (n != 32 || len - at != 32) {
            cz_msgf(err, errlen, "the CID's digest is %llu bytes long with %zu following, not 32",
                    (unsigned long long)n, len - at);
            return CZ_ERR_BAD_LENGTH;
        }
        memcpy(out->b, b + at, 32);
    } else {
        cz_msgf(err, errlen, "%zu bytes: %s is 32 bytes or its binary CID", len, what);
        return CZ_ERR_BAD_LENGTH;
    }
    cz_fr v;
    if (cz_fc_d_to_fr(&v, out) != CZ_OK) {
        cz_msgf(err, errlen, "its 32 bytes are not a field element (not below r, little endian)");
        memset(out, 0, sizeof *out);
        return CZ_ERR_NOT_CANONICAL;
    }
    return CZ_OK;
}
