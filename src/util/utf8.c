/* UTF-8 validation (see cuzk/utf8.h): the well-formed byte sequences of
 * RFC 3629, table 3-7 of the Unicode standard. */
#include "cuzk/utf8.h"

bool cz_utf8_valid(const uint8_t *s, size_t n, size_t *bad)
{
    size_t i = 0;
    while (i < n) {
        uint8_t c = s[i];
        size_t len;
        uint8_t lo = 0x80, hi = 0xbf; /* range of the second byte */
        if (c < 0x80) {
            i++;
            continue;
        } else if (c >= 0xc2 && c <= 0xdf) {
            len = 2;
        } else if (c >= 0xe0 && c <= 0xef) {
            len = 3;
            if (c == 0xe0)
                lo = 0xa0; /* no overlong forms */
            else if (c == 0xed)
                hi = 0x9f; /* no surrogates */
        } else if (c >= 0xf0 && c <= 0xf4) {
            len = 4;
            if (c == 0xf0)
                lo = 0x90;
            else if (c == 0xf4)
                hi = 0x8f; /* nothing above U+10FFFF */
        } else {
            break;
        }
        if (n - i < len || s[i + 1] < lo || s[i + 1] > hi)
            break;
        size_t k = 2;
        while (k < len && s[i + k] >= 0x80 && s[i + k] <= 0xbf)
            k++;
        if (k < len)
            break;
        i += len;
    }
    if (i < n && bad)
        *bad = i;
    return i == n;
}
