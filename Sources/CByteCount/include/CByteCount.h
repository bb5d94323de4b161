// Byte counting at memory speed, for the importers' first pass (an upper bound on a
// document's nodes, so that a builder allocates the tree's columns once): AVX2 vectors on
// an x86-64 processor that has them, else plain loops that the C compiler vectorizes.
#ifndef C_BYTE_COUNT_H
#define C_BYTE_COUNT_H
#include <stddef.h>
#include <stdint.h>

/// How many of the `n` bytes at `p` equal `a`, `b` or `c`.
size_t rv_count_bytes3(const uint8_t *p, size_t n, uint8_t a, uint8_t b, uint8_t c);

/// How many of the `n` bytes at `p` are a `<` not followed by `/` (the last byte's
/// follower is taken to be `next`, the first byte of the next chunk, or 0).
size_t rv_count_open_tags(const uint8_t *p, size_t n, uint8_t next);

/// `rv_count_open_tags` plus the bytes equal to `<`, in one pass: twice the `<` bytes,
/// less those followed by `/` (the last byte's follower is `next`, as above).
size_t rv_count_markup_nodes(const uint8_t *p, size_t n, uint8_t next);

/// The plain loops of `rv_count_bytes3` and `rv_count_markup_nodes`, whatever the
/// processor: what the tests compare the vector paths with.
size_t rv_count_bytes3_reference(const uint8_t *p, size_t n, uint8_t a, uint8_t b, uint8_t c);
size_t rv_count_markup_nodes_reference(const uint8_t *p, size_t n, uint8_t next);

/// The 8 (4) bytes at `p`, at any alignment, in the machine's order: one load once inlined.
/// The scanners read words through these because in their large main loops the Swift
/// compiler called the standard library's `loadUnaligned` out of line; a C function of a
/// header is inlined by LLVM, whatever the size of its Swift caller.
static inline __attribute__((always_inline)) uint64_t rv_load64(const void *p) {
    uint64_t v;
    __builtin_memcpy(&v, p, 8);
    return v;
}
static inline __attribute__((always_inline)) uint32_t rv_load32(const void *p) {
    uint32_t v;
    __builtin_memcpy(&v, p, 4);
    return v;
}

/// How many of the 16 bytes at `p` (any alignment; all 16 readable) are spaces before the
/// first that is not: 0 to 16. One SSE2 compare where the processor has it (every x86-64
/// processor does), inlined by LLVM: the JSON scanner's indentation skip.
#if defined(__SSE2__)
#include <emmintrin.h>
static inline __attribute__((always_inline)) uint32_t rv_leading_spaces16(const void *p) {
    __m128i v = _mm_loadu_si128((const __m128i *)p);
    uint32_t spaces = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(' ')));
    return (uint32_t)__builtin_ctz(~spaces);  /* bits 16 to 31 of ~spaces are set */
}
/// A bit for each of the 16 bytes at `p` (any alignment; all 16 readable) that does not
/// stand for itself in a JSON string: `"`, `\`, a control byte (below 0x20) or a byte from
/// 0x80 (UTF-8 to check). Bit k is byte k. One signed compare catches both the control
/// bytes and those from 0x80 (negative as signed bytes).
static inline __attribute__((always_inline)) uint32_t rv_string_stops16(const void *p) {
    __m128i v = _mm_loadu_si128((const __m128i *)p);
    __m128i stops = _mm_or_si128(_mm_cmplt_epi8(v, _mm_set1_epi8(0x20)),
                                 _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'))));
    return (uint32_t)_mm_movemask_epi8(stops);
}
/// A bit for each of the 16 bytes at `p` (any alignment; all 16 readable) that XML text can
/// hold only after a closer look: `<`, `&`, `]`, a control byte (below 0x20: tab, newline
/// and the zero sentinel among them) or a byte from 0x80 (UTF-8 to check). Bit k is byte k.
static inline __attribute__((always_inline)) uint32_t rv_text_stops16(const void *p) {
    __m128i v = _mm_loadu_si128((const __m128i *)p);
    __m128i stops = _mm_or_si128(_mm_cmplt_epi8(v, _mm_set1_epi8(0x20)),
                                 _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('<')),
                                              _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('&')), _mm_cmpeq_epi8(v, _mm_set1_epi8(']')))));
    return (uint32_t)_mm_movemask_epi8(stops);
}
/// A bit for each of the 16 bytes at `p` (any alignment; all 16 readable) that the XML
/// writer must look at: `&`, `<`, `>`, EF (the first byte of U+FFFE and U+FFFF, which XML
/// cannot hold) and the control bytes XML escapes or cannot hold: in text every byte below
/// 0x20 but tab and newline, in an attribute value (`attribute` nonzero) every one, and `"`.
/// Bit k is byte k; exact.
static inline __attribute__((always_inline)) uint32_t rv_xml_escape_stops16(const void *p, int attribute) {
    __m128i v = _mm_loadu_si128((const __m128i *)p);
    __m128i controls = _mm_cmpeq_epi8(_mm_min_epu8(v, _mm_set1_epi8(0x1F)), v);
    __m128i stops = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('&')), _mm_cmpeq_epi8(v, _mm_set1_epi8('<'))),
                                 _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('>')), _mm_cmpeq_epi8(v, _mm_set1_epi8((char)0xEF))));
    if (attribute) {
        stops = _mm_or_si128(stops, _mm_or_si128(controls, _mm_cmpeq_epi8(v, _mm_set1_epi8('"'))));
    } else {
        __m128i passed = _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('\t')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\n')));
        stops = _mm_or_si128(stops, _mm_andnot_si128(passed, controls));
    }
    return (uint32_t)_mm_movemask_epi8(stops);
}
#else
static inline __attribute__((always_inline)) uint32_t rv_xml_escape_stops16(const void *p, int attribute) {
    const uint8_t *b = (const uint8_t *)p;
    uint32_t stops = 0;
    for (uint32_t k = 0; k < 16; k++) {
        uint8_t c = b[k];
        int control = c < 0x20 && (attribute || (c != '\t' && c != '\n'));
        if (control || c == '&' || c == '<' || c == '>' || c == 0xEF || (attribute && c == '"')) stops |= 1u << k;
    }
    return stops;
}
static inline __attribute__((always_inline)) uint32_t rv_text_stops16(const void *p) {
    const uint8_t *b = (const uint8_t *)p;
    uint32_t stops = 0;
    for (uint32_t k = 0; k < 16; k++)
        if (b[k] < 0x20 || b[k] == '<' || b[k] == '&' || b[k] == ']' || b[k] >= 0x80) stops |= 1u << k;
    return stops;
}
static inline __attribute__((always_inline)) uint32_t rv_leading_spaces16(const void *p) {
    const uint8_t *b = (const uint8_t *)p;
    uint32_t n = 0;
    while (n < 16 && b[n] == ' ') n++;
    return n;
}
static inline __attribute__((always_inline)) uint32_t rv_string_stops16(const void *p) {
    const uint8_t *b = (const uint8_t *)p;
    uint32_t stops = 0;
    for (uint32_t k = 0; k < 16; k++)
        if (b[k] < 0x20 || b[k] == '"' || b[k] == '\\' || b[k] >= 0x80) stops |= 1u << k;
    return stops;
}
#endif

#endif
