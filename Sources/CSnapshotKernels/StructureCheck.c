#include "CSnapshotKernels.h"
#include "Vector.h"
#include <stdlib.h>

// See RelativeViewSnapshot's _SnapshotQuerySource: a forest in document order, read from
// its parents and the ends its spans give, checked node by node with no branch on the data.
// Per node x with parent p and end e (x plus half its span, rounded up): its type is in the
// table and usable; its span is odd and positive and e is within the slots; p is before x
// (or -1, a root); x and its subtree lie within p's (a root's "parent" ends at the slot
// count); the slot after its subtree, unless that is p's end, is p's next child (its parent
// is p); and if x has children, the slot after it is its first (its parent is x). Every
// index read is kept within the slots.

static inline __attribute__((always_inline)) int64_t end_of(uint64_t s, int64_t x) {
    int64_t d = (int64_t)(uint32_t)(s >> 32) - (int64_t)(uint32_t)s;
    return x + ((d + 1) >> 1);
}

static inline __attribute__((always_inline)) uint32_t check_body(const rv_structure_columns *c, size_t from, size_t to, uint32_t *counts) {
    const int64_t n = c->slot_count, last = n - 1;
    uint32_t bad = 0;
    for (int64_t x = (int64_t)from; x < (int64_t)to; x++) {
        uint32_t t = (uint32_t)c->type_id[x];
        uint32_t u = t < c->type_count ? t : c->type_count;
        bad |= (uint32_t)(c->type_usable[u] ^ 1);
        if (counts) counts[u]++;
        uint64_t s = c->span[x];
        int64_t d = (int64_t)(uint32_t)(s >> 32) - (int64_t)(uint32_t)s;
        int64_t e = x + ((d + 1) >> 1);
        bad |= (uint32_t)(d <= 0) | (uint32_t)((d & 1) == 0) | (uint32_t)(e > n);
        int64_t p = c->parent[x];
        int64_t root = p < 0;
        int64_t q = root ? 0 : (p < x ? p : x);
        int64_t pe = root ? n : end_of(c->span[q], q);
        bad |= (uint32_t)(root & (p != -1)) | (uint32_t)(!root & (p >= x));
        bad |= (uint32_t)(x >= pe) | (uint32_t)(e > pe);
        // Whether x is its parent's last child, and whether it has children, are coin tosses
        // to a branch predictor: both picks are masks, not branches (a compiler made each
        // ternary a branch, which took most of the loop's time).
        int64_t not_last = -(int64_t)(e < pe);
        int64_t next = x ^ ((x ^ e) & not_last);
        next = next < 0 ? 0 : (next > last ? last : next);
        bad |= (uint32_t)(c->parent[next] != p);
        int64_t has = e > x + 1;
        int64_t first = x + (has & (x < last));
        bad |= (uint32_t)(has & (c->parent[first] != x));
    }
    return bad;
}

static uint32_t check_scalar(const rv_structure_columns *c, size_t from, size_t to, uint32_t *counts) { return check_body(c, from, to, counts); }

#ifdef RV_HAVE_AVX2_PATH
// Per type number below 256, its usability as one bit of `words` (the last entry, for
// numbers out of the table, is 0), where the table is that small: 1 then, else 0 (and
// `words` zero). The vector kernels read a type's usability from these bits, not a gather.
static int usable_bit_words(const rv_structure_columns *c, uint32_t words[8]) {
    for (int k = 0; k < 8; k++) words[k] = 0;
    if (c->type_count >= 256) return 0;
    for (uint32_t t = 0; t <= c->type_count; t++) words[t >> 5] |= (uint32_t)(c->type_usable[t] & 1) << (t & 31);
    return 1;
}

// Eight slots to an iteration: the slots' own columns read as vectors, the parent's span
// and the next child's parent gathered, the first child's parent read as the parents from
// x + 1 (so the vector loop stops where x + 8 would pass the last slot; the rest one by one).
// Gathers are most of the loop's time, and cost by the element: the parent's span is
// gathered as four 64-bit spans twice (not eight enters and eight exits), and with a type
// table under 256 entries, a type's usability is a bit of one vector (no gather).
__attribute__((target("avx2"))) static uint32_t check_avx2(const rv_structure_columns *c, size_t from, size_t to) {
    const int64_t n = c->slot_count;
    size_t x0 = from;
    const __m256i lanes = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    const __m256i count = _mm256_set1_epi32((int32_t)n);
    const __m256i last = _mm256_set1_epi32((int32_t)(n - 1));
    const __m256i types = _mm256_set1_epi32((int32_t)c->type_count);
    const __m256i one = _mm256_set1_epi32(1);
    const __m256i minus_one = _mm256_set1_epi32(-1);
    const __m256i zero = _mm256_setzero_si256();
    const __m256i evens = _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7);
    const long long *span_base = (const long long *)c->span;
    uint32_t bit_words[8];
    const int small_table = usable_bit_words(c, bit_words);
    const __m256i usable_bits = _mm256_loadu_si256((const __m256i *)bit_words);
    const __m256i thirty_one = _mm256_set1_epi32(31);
    __m256i bad = zero;
    // Unsigned comparisons through the sign flip.
    const __m256i flip = _mm256_set1_epi32(INT32_MIN);
#define GTU(a, b) _mm256_cmpgt_epi32(_mm256_xor_si256((a), flip), _mm256_xor_si256((b), flip))
    for (; x0 + 8 < (size_t)n && x0 + 8 <= to; x0 += 8) {
        __m256i x = _mm256_add_epi32(_mm256_set1_epi32((int32_t)x0), lanes);
        __m256i t = _mm256_loadu_si256((const __m256i *)(c->type_id + x0));
        __m256i u = _mm256_min_epu32(t, types);
        __m256i usable;
        if (small_table) {
            __m256i word = _mm256_permutevar8x32_epi32(usable_bits, _mm256_srli_epi32(u, 5));
            usable = _mm256_and_si256(_mm256_srlv_epi32(word, _mm256_and_si256(u, thirty_one)), one);
        } else {
            usable = _mm256_i32gather_epi32(c->type_usable, u, 4);
        }
        bad = _mm256_or_si256(bad, _mm256_xor_si256(usable, one));
        __m256i lo = _mm256_permutevar8x32_epi32(_mm256_loadu_si256((const __m256i *)(c->span + x0)), evens);
        __m256i hi = _mm256_permutevar8x32_epi32(_mm256_loadu_si256((const __m256i *)(c->span + x0 + 4)), evens);
        __m256i enter = _mm256_permute2x128_si256(lo, hi, 0x20);
        __m256i exit = _mm256_permute2x128_si256(lo, hi, 0x31);
        __m256i d = _mm256_sub_epi32(exit, enter);
        __m256i half = _mm256_srli_epi32(_mm256_add_epi32(d, one), 1);
        __m256i e = _mm256_add_epi32(x, half);
        // exit above enter, the difference odd, the half at least 1, the end within the slots.
        bad = _mm256_or_si256(bad, _mm256_andnot_si256(GTU(exit, enter), minus_one));
        bad = _mm256_or_si256(bad, _mm256_cmpeq_epi32(_mm256_and_si256(d, one), zero));
        bad = _mm256_or_si256(bad, _mm256_cmpeq_epi32(half, zero));
        bad = _mm256_or_si256(bad, GTU(e, count));
        __m256i p = _mm256_loadu_si256((const __m256i *)(c->parent + x0));
        __m256i root = _mm256_cmpgt_epi32(zero, p);
        bad = _mm256_or_si256(bad, _mm256_and_si256(root, _mm256_xor_si256(_mm256_cmpeq_epi32(p, minus_one), minus_one)));
        bad = _mm256_or_si256(bad, _mm256_andnot_si256(root, _mm256_xor_si256(_mm256_cmpgt_epi32(x, p), minus_one)));
        __m256i q = _mm256_andnot_si256(root, _mm256_min_epi32(p, x));
        __m256i s_lo = _mm256_i32gather_epi64(span_base, _mm256_castsi256_si128(q), 8);
        __m256i s_hi = _mm256_i32gather_epi64(span_base, _mm256_extracti128_si256(q, 1), 8);
        // Per 64-bit span, exit less enter in its low half; the four low halves of each
        // gather side by side.
        __m256i d_lo = _mm256_permutevar8x32_epi32(_mm256_sub_epi32(_mm256_srli_epi64(s_lo, 32), s_lo), evens);
        __m256i d_hi = _mm256_permutevar8x32_epi32(_mm256_sub_epi32(_mm256_srli_epi64(s_hi, 32), s_hi), evens);
        __m256i pd = _mm256_permute2x128_si256(d_lo, d_hi, 0x20);
        __m256i pe = _mm256_add_epi32(q, _mm256_srli_epi32(_mm256_add_epi32(pd, one), 1));
        pe = _mm256_blendv_epi8(pe, count, root);
        // x and its subtree within the parent's.
        bad = _mm256_or_si256(bad, _mm256_andnot_si256(GTU(pe, x), minus_one));
        bad = _mm256_or_si256(bad, GTU(e, pe));
        // The next child's parent, where x is not the last child: for a leaf the slot after
        // it, read with the parents from x + 1; gathered only for the lanes with children
        // (for a last child, its own parent, which passes).
        __m256i not_last = GTU(pe, e);
        __m256i has = GTU(e, _mm256_add_epi32(x, one));
        __m256i after = _mm256_loadu_si256((const __m256i *)(c->parent + x0 + 1));
        __m256i up = _mm256_blendv_epi8(p, after, not_last);
        __m256i far = _mm256_and_si256(not_last, has);
        if (!_mm256_testz_si256(far, far)) up = _mm256_mask_i32gather_epi32(up, c->parent, _mm256_min_epu32(e, last), far, 4);
        bad = _mm256_or_si256(bad, _mm256_xor_si256(_mm256_cmpeq_epi32(up, p), minus_one));
        // The first child's parent, where x has children.
        bad = _mm256_or_si256(bad, _mm256_andnot_si256(_mm256_cmpeq_epi32(after, x), has));
    }
#undef GTU
    uint32_t found = (uint32_t)!_mm256_testz_si256(bad, bad);
    return found | (x0 < to ? check_body(c, x0, to, NULL) : 0);
}

// Sixteen slots to an iteration with AVX-512 (F): the AVX2 kernel's conditions, each a mask
// (unsigned comparisons direct, no sign flip; picks by mask, not blends of vectors), so a
// node costs about half the instructions. The parent's span is gathered as eight 64-bit
// spans twice; the rest as in `check_avx2`, to which the last slots are left.
__attribute__((target("avx512f,avx2"))) static uint32_t check_avx512(const rv_structure_columns *c, size_t from, size_t to) {
    const int64_t n = c->slot_count;
    size_t x0 = from;
    const __m512i lanes = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    const __m512i count = _mm512_set1_epi32((int32_t)n);
    const __m512i last = _mm512_set1_epi32((int32_t)(n - 1));
    const __m512i types = _mm512_set1_epi32((int32_t)c->type_count);
    const __m512i one = _mm512_set1_epi32(1);
    const __m512i minus_one = _mm512_set1_epi32(-1);
    const __m512i zero = _mm512_setzero_si512();
    const __m512i thirty_one = _mm512_set1_epi32(31);
    // The low (enter, or a difference) and the high (exit) halves of sixteen 64-bit lanes
    // held in two vectors.
    const __m512i evens = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
    const __m512i odds = _mm512_setr_epi32(1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31);
    const long long *span_base = (const long long *)c->span;
    uint32_t bit_words[16] = {0};
    const int small_table = usable_bit_words(c, bit_words);
    const __m512i usable_bits = _mm512_loadu_si512((const void *)bit_words);
    __mmask16 bad = 0;
    for (; x0 + 16 < (size_t)n && x0 + 16 <= to; x0 += 16) {
        __m512i x = _mm512_add_epi32(_mm512_set1_epi32((int32_t)x0), lanes);
        __m512i u = _mm512_min_epu32(_mm512_loadu_si512((const void *)(c->type_id + x0)), types);
        __mmask16 usable;
        if (small_table) {
            __m512i word = _mm512_permutexvar_epi32(_mm512_srli_epi32(u, 5), usable_bits);
            usable = _mm512_test_epi32_mask(_mm512_srlv_epi32(word, _mm512_and_si512(u, thirty_one)), one);
        } else {
            usable = _mm512_test_epi32_mask(_mm512_i32gather_epi32(u, c->type_usable, 4), one);
        }
        bad |= (__mmask16)~usable;
        __m512i s0 = _mm512_loadu_si512((const void *)(c->span + x0));
        __m512i s1 = _mm512_loadu_si512((const void *)(c->span + x0 + 8));
        __m512i enter = _mm512_permutex2var_epi32(s0, evens, s1);
        __m512i exit = _mm512_permutex2var_epi32(s0, odds, s1);
        __m512i d = _mm512_sub_epi32(exit, enter);
        __m512i half = _mm512_srli_epi32(_mm512_add_epi32(d, one), 1);
        __m512i e = _mm512_add_epi32(x, half);
        // exit above enter, the difference odd, the half at least 1, the end within the slots.
        bad |= _mm512_cmple_epu32_mask(exit, enter);
        bad |= _mm512_testn_epi32_mask(d, one);
        bad |= _mm512_cmpeq_epi32_mask(half, zero);
        bad |= _mm512_cmpgt_epu32_mask(e, count);
        __m512i p = _mm512_loadu_si512((const void *)(c->parent + x0));
        __mmask16 root = _mm512_cmplt_epi32_mask(p, zero);
        bad |= _mm512_mask_cmpneq_epi32_mask(root, p, minus_one);
        bad |= _mm512_mask_cmple_epi32_mask((__mmask16)~root, x, p);
        __m512i q = _mm512_maskz_min_epi32((__mmask16)~root, p, x);
        __m512i g0 = _mm512_i32gather_epi64(_mm512_castsi512_si256(q), span_base, 8);
        __m512i g1 = _mm512_i32gather_epi64(_mm512_extracti64x4_epi64(q, 1), span_base, 8);
        // Per 64-bit span, exit less enter in its low half; the sixteen low halves side by side.
        __m512i pd = _mm512_permutex2var_epi32(_mm512_sub_epi32(_mm512_srli_epi64(g0, 32), g0), evens,
                                               _mm512_sub_epi32(_mm512_srli_epi64(g1, 32), g1));
        __m512i pe = _mm512_add_epi32(q, _mm512_srli_epi32(_mm512_add_epi32(pd, one), 1));
        pe = _mm512_mask_blend_epi32(root, pe, count);
        // x and its subtree within the parent's.
        bad |= _mm512_cmple_epu32_mask(pe, x);
        bad |= _mm512_cmpgt_epu32_mask(e, pe);
        // The next child's parent, where x is not the last child (for a leaf the slot after
        // it, read with the parents from x + 1; gathered for the lanes with children), and the
        // first child's parent, where x has children.
        __mmask16 not_last = _mm512_cmpgt_epu32_mask(pe, e);
        __mmask16 has = _mm512_cmpgt_epu32_mask(e, _mm512_add_epi32(x, one));
        __m512i after = _mm512_loadu_si512((const void *)(c->parent + x0 + 1));
        __m512i up = _mm512_mask_blend_epi32(not_last, p, after);
        __mmask16 far = not_last & has;
        if (far) up = _mm512_mask_i32gather_epi32(up, far, _mm512_min_epu32(e, last), c->parent, 4);
        bad |= _mm512_cmpneq_epi32_mask(up, p);
        bad |= _mm512_mask_cmpneq_epi32_mask(has, after, x);
    }
    return (uint32_t)(bad != 0) | (x0 < to ? check_avx2(c, x0, to) : 0);
}
#endif

// Slots `from ..< to`'s types counted in eight tables taken in turn (a slot whose type is
// one of the last few's would otherwise wait for that count's store: a document's types
// repeat, a text every other slot): `counts` and the seven of `spare`, each of `m + 1`.
static void count_types(const int32_t *type_id, size_t from, size_t to, uint32_t m, uint32_t *counts, uint32_t *spare) {
    const size_t tables = (size_t)m + 1;
    size_t x = from;
    for (; x + 8 <= to; x += 8) {
        counts[(uint32_t)type_id[x] < m ? (uint32_t)type_id[x] : m]++;
        for (size_t k = 1; k < 8; k++) {
            uint32_t t = (uint32_t)type_id[x + k];
            spare[(k - 1) * tables + (t < m ? t : m)]++;
        }
    }
    for (; x < to; x++) {
        uint32_t t = (uint32_t)type_id[x];
        counts[t < m ? t : m]++;
    }
}

int rv_structure_check(const rv_structure_columns *c, size_t from, size_t to, int allow_vector, uint32_t *counts) {
    if (c->slot_count == 0 || from >= to) return 1;
#ifdef RV_HAVE_AVX2_PATH
    if (allow_vector && __builtin_cpu_supports("avx2")) {
        uint32_t (*check)(const rv_structure_columns *, size_t, size_t) =
            allow_vector >= 2 && __builtin_cpu_supports("avx512f") ? check_avx512 : check_avx2;
        if (!counts) return check(c, from, to) == 0;
        uint32_t *spare = calloc(7 * ((size_t)c->type_count + 1), sizeof(uint32_t));
        if (!spare) return check_scalar(c, from, to, counts) == 0;
        // A few thousand slots at a time: their types are counted while the check's read
        // left them in the cache.
        int ok = 1;
        for (size_t a = from; a < to && ok; a += 4096) {
            size_t b = to - a < 4096 ? to : a + 4096;
            ok = check(c, a, b) == 0;
            if (ok) count_types(c->type_id, a, b, c->type_count, counts, spare);
        }
        const size_t tables = (size_t)c->type_count + 1;
        for (size_t k = 0; k < 7; k++) {
            for (size_t t = 0; t < tables; t++) counts[t] += spare[k * tables + t];
        }
        free(spare);
        return ok;
    }
#endif
    (void)allow_vector;
    return check_scalar(c, from, to, counts) == 0;
}
