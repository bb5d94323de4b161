#include "CSnapshotKernels.h"
#include "Vector.h"

// A start is -1 (no text) or the position in `bytes` of a text's LEB128 length; a narrow
// start (a version 4 snapshot's) is 0xFFFFFFFF for none. The fast check passes a start
// whose length takes one or two bytes (a text under 16,384 bytes) and whose text ends
// within the bytes; a longer length, or anything out of range, is left to the check that
// names flaws. What it passes, that check passes too (it reads a length byte by byte, a
// two-byte one as `(b0 & 0x7F) | b1 << 7`, and wants `start + length bytes + count <= n`).

// 1 if the start `s` of a text (read unsigned: a negative one is past any bytes) is not a
// one- or two-byte length whose text ends within the `n` (at least one) `bytes`; with no
// branch. At the last byte, a length that goes on (`cont`) is past the end whatever `b1`.
static inline uint64_t start_unsound(uint64_t s, const uint8_t *bytes, size_t n) {
    uint64_t at = s < n - 1 ? s : n - 1;
    uint64_t b0 = bytes[at];
    uint64_t b1 = bytes[at + 1 < n ? at + 1 : at];
    uint64_t cont = b0 >> 7;
    uint64_t length = (b0 & 0x7F) | ((b1 << 7) & (0 - cont));
    return (s >= n) | (cont & (b1 >> 7)) | (at + cont + length > n - 1);
}

static int sound_scalar(const int64_t *starts, size_t count, const uint8_t *bytes, size_t n) {
    uint64_t bad = 0;
    for (size_t i = 0; i < count; i++) bad |= (uint64_t)(starts[i] != -1) & start_unsound((uint64_t)starts[i], bytes, n);
    return bad == 0;
}

#ifdef RV_HAVE_AVX2_PATH
__attribute__((target("avx2")))
static int sound_avx2(const int64_t *starts, size_t count, const uint8_t *bytes, size_t n) {
    const __m256i none = _mm256_set1_epi64x(-1);
    const __m256i zero = _mm256_setzero_si256();
    const __m256i last = _mm256_set1_epi64x((int64_t)(n - 1));
    const __m256i last_word = _mm256_set1_epi64x((int64_t)(n - 4));
    const __m256i byte = _mm256_set1_epi64x(0xFF);
    const __m256i one_byte_max = _mm256_set1_epi64x(0x7F);
    __m256i bad = zero;
    size_t i = 0;
    for (; i + 4 <= count; i += 4) {
        __m256i s = _mm256_loadu_si256((const __m256i *)(starts + i));
        __m256i present = _mm256_xor_si256(_mm256_cmpeq_epi64(s, none), none);
        // Out of range: below 0 or past the last byte.
        __m256i below = _mm256_cmpgt_epi64(zero, s);
        __m256i past = _mm256_cmpgt_epi64(s, last);
        __m256i at = _mm256_blendv_epi8(_mm256_blendv_epi8(s, zero, below), last, past);
        // The length byte, from the 4-byte word that holds it and lies within the bytes.
        __m256i word_at = _mm256_blendv_epi8(at, last_word, _mm256_cmpgt_epi64(at, last_word));
        __m128i words = _mm256_i64gather_epi32((const int *)bytes, word_at, 1);
        __m256i shift = _mm256_slli_epi64(_mm256_sub_epi64(at, word_at), 3);
        __m256i w = _mm256_srlv_epi64(_mm256_cvtepu32_epi64(words), shift);
        __m256i b0 = _mm256_and_si256(w, byte);
        __m256i b1 = _mm256_and_si256(_mm256_srli_epi64(w, 8), byte);
        // A two-byte length: its second byte counts 128s. Three bytes or more are left to the
        // other check, as is a text past the end (at + length bytes + count > n).
        __m256i more = _mm256_cmpgt_epi64(b0, one_byte_max);
        __m256i length = _mm256_or_si256(_mm256_and_si256(b0, one_byte_max), _mm256_and_si256(_mm256_slli_epi64(b1, 7), more));
        __m256i flaw = _mm256_or_si256(_mm256_or_si256(below, past), _mm256_and_si256(more, _mm256_cmpgt_epi64(b1, one_byte_max)));
        __m256i through = _mm256_add_epi64(_mm256_add_epi64(at, length), _mm256_srli_epi64(b0, 7));
        flaw = _mm256_or_si256(flaw, _mm256_cmpgt_epi64(through, last));
        bad = _mm256_or_si256(bad, _mm256_and_si256(present, flaw));
    }
    return _mm256_testz_si256(bad, bad) && sound_scalar(starts + i, count - i, bytes, n);
}
#endif

static int sound_scalar32(const uint32_t *starts, size_t count, const uint8_t *bytes, size_t n) {
    uint64_t bad = 0;
    for (size_t i = 0; i < count; i++) bad |= (uint64_t)(starts[i] != UINT32_MAX) & start_unsound(starts[i], bytes, n);
    return bad == 0;
}

#ifdef RV_HAVE_AVX2_PATH
// Eight starts at a time; the bytes are fewer than 2^31 - 2^15 (the gather's offsets and the
// comparisons are signed, and a start plus a two-byte length stays below 2^31).
__attribute__((target("avx2")))
static int sound_avx2_32(const uint32_t *starts, size_t count, const uint8_t *bytes, size_t n) {
    const __m256i none = _mm256_set1_epi32(-1);
    const __m256i zero = _mm256_setzero_si256();
    const __m256i last = _mm256_set1_epi32((int32_t)(n - 1));
    const __m256i last_word = _mm256_set1_epi32((int32_t)(n - 4));
    const __m256i byte = _mm256_set1_epi32(0xFF);
    const __m256i one_byte_max = _mm256_set1_epi32(0x7F);
    __m256i bad = zero;
    size_t i = 0;
    for (; i + 8 <= count; i += 8) {
        __m256i s = _mm256_loadu_si256((const __m256i *)(starts + i));
        __m256i present = _mm256_xor_si256(_mm256_cmpeq_epi32(s, none), none);
        // Past the last byte (unsigned: a start of 2^31 or more is past it too).
        __m256i at = _mm256_min_epu32(s, last);
        __m256i past = _mm256_xor_si256(_mm256_cmpeq_epi32(at, s), none);
        // The length byte, from the 4-byte word that holds it and lies within the bytes.
        __m256i word_at = _mm256_min_epi32(at, last_word);
        __m256i words = _mm256_i32gather_epi32((const int *)bytes, word_at, 1);
        __m256i shift = _mm256_slli_epi32(_mm256_sub_epi32(at, word_at), 3);
        __m256i w = _mm256_srlv_epi32(words, shift);
        __m256i b0 = _mm256_and_si256(w, byte);
        __m256i b1 = _mm256_and_si256(_mm256_srli_epi32(w, 8), byte);
        // As in `sound_avx2`: one- and two-byte lengths; the sums stay below 2^31 + 2^14.
        __m256i more = _mm256_cmpgt_epi32(b0, one_byte_max);
        __m256i length = _mm256_or_si256(_mm256_and_si256(b0, one_byte_max), _mm256_and_si256(_mm256_slli_epi32(b1, 7), more));
        __m256i flaw = _mm256_or_si256(past, _mm256_and_si256(more, _mm256_cmpgt_epi32(b1, one_byte_max)));
        __m256i through = _mm256_add_epi32(_mm256_add_epi32(at, length), _mm256_srli_epi32(b0, 7));
        flaw = _mm256_or_si256(flaw, _mm256_cmpgt_epi32(through, last));
        bad = _mm256_or_si256(bad, _mm256_and_si256(present, flaw));
    }
    return _mm256_testz_si256(bad, bad) && sound_scalar32(starts + i, count - i, bytes, n);
}
#endif

int rv_texts_sound32(const uint32_t *starts, size_t count, const uint8_t *bytes, size_t n, int allow_vector) {
    if (n == 0) {
        for (size_t i = 0; i < count; i++) if (starts[i] != UINT32_MAX) return 0;
        return 1;
    }
#ifdef RV_HAVE_AVX2_PATH
    if (allow_vector && n >= 4 && n < ((size_t)1 << 31) - (1 << 15) && __builtin_cpu_supports("avx2")) return sound_avx2_32(starts, count, bytes, n);
#endif
    return sound_scalar32(starts, count, bytes, n);
}

int rv_texts_sound(const int64_t *starts, size_t count, const uint8_t *bytes, size_t n, int allow_vector) {
    if (n == 0) {
        for (size_t i = 0; i < count; i++) if (starts[i] != -1) return 0;
        return 1;
    }
#ifdef RV_HAVE_AVX2_PATH
    if (allow_vector && n >= 4 && n < ((size_t)1 << 62) && __builtin_cpu_supports("avx2")) return sound_avx2(starts, count, bytes, n);
#endif
    return sound_scalar(starts, count, bytes, n);
}
