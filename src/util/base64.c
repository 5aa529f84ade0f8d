/* Standard base64 with canonical padding (see util/base64.h). */
#include "util/base64.h"

#include "cuzk/err.h"

static const char ENC[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

size_t cz_base64_encoded_len(size_t n) { return (n + 2) / 3 * 4; }

size_t cz_base64_decoded_max(size_t len) { return len / 4 * 3; }

void cz_base64_encode(char *out, const uint8_t *in, size_t n)
{
    size_t i = 0;
    for (; i + 3 <= n; i += 3) {
        uint32_t v = (uint32_t)in[i] << 16 | (uint32_t)in[i + 1] << 8 | in[i + 2];
        *out++ = ENC[v >> 18];
        *out++ = ENC[(v >> 12) & 63];
        *out++ = ENC[(v >> 6) & 63];
        *out++ = ENC[v & 63];
    }
    if (n - i == 1) {
        uint32_t v = (uint32_t)in[i] << 16;
        *out++ = ENC[v >> 18];
        *out++ = ENC[(v >> 12) & 63];
        *out++ = '=';
        *out++ = '=';
    } else if (n - i == 2) {
        uint32_t v = (uint32_t)in[i] << 16 | (uint32_t)in[i + 1] << 8;
        *out++ = ENC[v >> 18];
        *out++ = ENC[(v >> 12) & 63];
        *out++ = ENC[(v >> 6) & 63];
        *out++ = '=';
    }
}

/* The 6-bit value of each symbol, 64 for '=', 255 outside the alphabet. */
/* clang-format off */
static const uint8_t DEC[256] = {
    255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
    255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
    255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,  62, 255, 255, 255,  63,
     52,  53,  54,  55,  56,  57,  58,  59,  60,  61, 255, 255, 255,  64, 255, 255,
    255,   0,   1,   2,   3,   4,   5,   6,   7,   8,   9,  10,  11,  12,  13,  14,
     15,  16,  17,  18,  19,  20,  21,  22,  23,  24,  25, 255, 255, 255, 255, 255,
    255,  26,  27,  28,  29,  30,  31,  32,  33,  34,  35,  36,  37,  38,  39,  40,
     41,  42,  43,  44,  45,  46,  47,  48,  49,  50,  51, 255, 255, 255, 255, 255,
    255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
    255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
    255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
    255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
    255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
    255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
    255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
    255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
};
/* clang-format on */

static int bad_at(size_t *bad, const char **why, size_t at, const char *what)
{
    if (bad)
        *bad = at;
    if (why)
        *why = what;
    return CZ_ERR_BAD_FORMAT;
}

int cz_base64_decode(uint8_t *out, size_t *out_len, const char *in, size_t len, size_t *bad,
                     const char **why)
{
    const uint8_t *s = (const uint8_t *)in;
    size_t o = 0;
    *out_len = 0;
    /* whole groups without padding: the fast path */
    size_t i = 0;
    for (; i + 4 < len; i += 4) {
        uint8_t a = DEC[s[i]], b = DEC[s[i + 1]], c = DEC[s[i + 2]], d = DEC[s[i + 3]];
        if ((a | b | c | d) >= 64)
            break;
        uint32_t w = (uint32_t)a << 18 | (uint32_t)b << 12 | (uint32_t)c << 6 | d;
        out[o++] = (uint8_t)(w >> 16);
        out[o++] = (uint8_t)(w >> 8);
        out[o++] = (uint8_t)w;
    }
    for (; i < len; i += 4) {
        uint8_t v[4];
        size_t have = len - i < 4 ? len - i : 4;
        for (size_t k = 0; k < have; k++) {
            v[k] = DEC[s[i + k]];
            if (v[k] == 255)
                return bad_at(bad, why, i + k, "a symbol outside the alphabet");
        }
        if (have < 4) {
            /* a short last group: a padding or alphabet error first */
            for (size_t k = 0; k < have; k++)
                if (v[k] == 64)
                    return bad_at(bad, why, i + k, "misplaced padding");
            return bad_at(bad, why, len, "a length that is not a multiple of 4");
        }
        /* '=' only as the last one or two symbols of the last group */
        unsigned pad = v[3] == 64 ? (v[2] == 64 ? 2u : 1u) : 0u;
        for (size_t k = 0; k < 4 - pad; k++)
            if (v[k] == 64)
                return bad_at(bad, why, i + k, "misplaced padding");
        if (pad && i + 4 != len)
            return bad_at(bad, why, i + 4 - pad, "misplaced padding");
        uint32_t w = (uint32_t)v[0] << 18 | (uint32_t)v[1] << 12;
        if (pad == 2) {
            if (v[1] & 15)
                return bad_at(bad, why, i + 1, "non-zero unused bits in the last symbol");
            out[o++] = (uint8_t)(w >> 16);
        } else if (pad == 1) {
            w |= (uint32_t)v[2] << 6;
            if (v[2] & 3)
                return bad_at(bad, why, i + 2, "non-zero unused bits in the last symbol");
            out[o++] = (uint8_t)(w >> 16);
            out[o++] = (uint8_t)(w >> 8);
        } else {
            w |= (uint32_t)v[2] << 6 | v[3];
            out[o++] = (uint8_t)(w >> 16);
            out[o++] = (uint8_t)(w >> 8);
            out[o++] = (uint8_t)w;
        }
    }
    *out_len = o;
    return CZ_OK;
}
