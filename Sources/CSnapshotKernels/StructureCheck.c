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
    // Per type number below 256, its usability as one bit (the last entry, for numbers out
    // of the table, is 0).
    const int small_table = c->type_count < 256;
    uint32_t bit_words[8] = {0};
    if (small_table) {
        for (uint32_t t = 0; t <= c->type_count; t++) bit_words[t >> 5] |= (uint32_t)(c->type_usable[t] & 1) << (t & 31);
    }
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
        if (!counts) return check_avx2(c, from, to) == 0;
        uint32_t *spare = calloc(7 * ((size_t)c->type_count + 1), sizeof(uint32_t));
        if (!spare) return check_scalar(c, from, to, counts) == 0;
        // A few thousand slots at a time: their types are counted while the check's read
        // left them in the cache.
        int ok = 1;
        for (size_t a = from; a < to && ok; a += 4096) {
            size_t b = to - a < 4096 ? to : a + 4096;
            ok = check_avx2(c, a, b) == 0;
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
