#include "CByteCount.h"
#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#include <immintrin.h>
#define RV_COUNT_AVX2 1
#endif

// Blocks of at most 255 bytes keep an 8-bit count per vector lane from overflowing, so
// the compiler can compare and add 16 (or more) bytes per instruction. On x86-64 with
// AVX2 (checked when called), the counts take 32 bytes a step with explicit vectors: the
// compiler's loops took 1 to 3 instructions a byte, the first pass about 5% of a whole XML
// import's time.
enum { BLOCK = 255 };

static size_t count_bytes3_scalar(const uint8_t *p, size_t n, uint8_t a, uint8_t b, uint8_t c) {
    size_t total = 0;
    while (n > 0) {
        size_t m = n < BLOCK ? n : BLOCK;
        uint8_t count = 0;
        for (size_t i = 0; i < m; i++) count += (uint8_t)((p[i] == a) | (p[i] == b) | (p[i] == c));
        total += count;
        p += m;
        n -= m;
    }
    return total;
}

// The bytes of `p` (n >= 1) that are `<` (`lt`) and those that are `<` not followed by `/`
// (`open`), the last byte's follower being `next`.
static void count_markup_scalar(const uint8_t *p, size_t n, uint8_t next, size_t *lt, size_t *open) {
    size_t l = 0, o = 0;
    size_t left = n - 1;  // every byte but the last has its follower in the buffer
    const uint8_t *q = p;
    while (left > 0) {
        size_t m = left < BLOCK ? left : BLOCK;
        uint8_t cl = 0, co = 0;
        for (size_t i = 0; i < m; i++) {
            uint8_t is_lt = q[i] == '<';
            cl += is_lt;
            co += (uint8_t)(is_lt & (q[i + 1] != '/'));
        }
        l += cl;
        o += co;
        q += m;
        left -= m;
    }
    l += p[n - 1] == '<';
    o += p[n - 1] == '<' && next != '/';
    *lt = l;
    *open = o;
}

#ifdef RV_COUNT_AVX2
// The sum of the 32 byte counts in `v`.
__attribute__((target("avx2")))
static size_t sum_bytes(__m256i v) {
    __m256i s = _mm256_sad_epu8(v, _mm256_setzero_si256());
    return (size_t)(_mm256_extract_epi64(s, 0) + _mm256_extract_epi64(s, 1) + _mm256_extract_epi64(s, 2) + _mm256_extract_epi64(s, 3));
}

__attribute__((target("avx2")))
static size_t count_bytes3_avx2(const uint8_t *p, size_t n, uint8_t a, uint8_t b, uint8_t c) {
    const __m256i va = _mm256_set1_epi8((char)a), vb = _mm256_set1_epi8((char)b), vc = _mm256_set1_epi8((char)c);
    size_t total = 0, i = 0;
    while (n - i >= 32) {
        // At most 255 steps before the 8-bit lanes are summed.
        size_t steps = (n - i) / 32 < BLOCK ? (n - i) / 32 : BLOCK;
        __m256i acc = _mm256_setzero_si256();
        for (size_t k = 0; k < steps; k++, i += 32) {
            __m256i v = _mm256_loadu_si256((const __m256i *)(p + i));
            __m256i hit = _mm256_or_si256(_mm256_or_si256(_mm256_cmpeq_epi8(v, va), _mm256_cmpeq_epi8(v, vb)), _mm256_cmpeq_epi8(v, vc));
            acc = _mm256_sub_epi8(acc, hit);  // a hit is -1
        }
        total += sum_bytes(acc);
    }
    return total + count_bytes3_scalar(p + i, n - i, a, b, c);
}

__attribute__((target("avx2")))
static void count_markup_avx2(const uint8_t *p, size_t n, uint8_t next, size_t *lt, size_t *open) {
    const __m256i vlt = _mm256_set1_epi8('<'), vslash = _mm256_set1_epi8('/');
    size_t l = 0, o = 0, i = 0;
    // Each step reads 33 bytes (a byte's follower): while 33 remain.
    while (n - i >= 33) {
        size_t steps = (n - i - 1) / 32 < BLOCK ? (n - i - 1) / 32 : BLOCK;
        __m256i al = _mm256_setzero_si256(), ao = _mm256_setzero_si256();
        for (size_t k = 0; k < steps; k++, i += 32) {
            __m256i v = _mm256_loadu_si256((const __m256i *)(p + i));
            __m256i w = _mm256_loadu_si256((const __m256i *)(p + i + 1));
            __m256i is_lt = _mm256_cmpeq_epi8(v, vlt);
            al = _mm256_sub_epi8(al, is_lt);
            ao = _mm256_sub_epi8(ao, _mm256_andnot_si256(_mm256_cmpeq_epi8(w, vslash), is_lt));
        }
        l += sum_bytes(al);
        o += sum_bytes(ao);
    }
    size_t tl, to;
    count_markup_scalar(p + i, n - i, next, &tl, &to);
    *lt = l + tl;
    *open = o + to;
}
#endif

size_t rv_count_bytes3(const uint8_t *p, size_t n, uint8_t a, uint8_t b, uint8_t c) {
#ifdef RV_COUNT_AVX2
    if (n >= 64 && __builtin_cpu_supports("avx2")) return count_bytes3_avx2(p, n, a, b, c);
#endif
    return count_bytes3_scalar(p, n, a, b, c);
}

static void count_markup(const uint8_t *p, size_t n, uint8_t next, size_t *lt, size_t *open) {
#ifdef RV_COUNT_AVX2
    if (n >= 64 && __builtin_cpu_supports("avx2")) { count_markup_avx2(p, n, next, lt, open); return; }
#endif
    count_markup_scalar(p, n, next, lt, open);
}

size_t rv_count_open_tags(const uint8_t *p, size_t n, uint8_t next) {
    if (n == 0) return 0;
    size_t lt, open;
    count_markup(p, n, next, &lt, &open);
    return open;
}

size_t rv_count_markup_nodes(const uint8_t *p, size_t n, uint8_t next) {
    if (n == 0) return 0;
    size_t lt, open;
    count_markup(p, n, next, &lt, &open);
    return lt + open;
}

size_t rv_count_bytes3_reference(const uint8_t *p, size_t n, uint8_t a, uint8_t b, uint8_t c) {
    return count_bytes3_scalar(p, n, a, b, c);
}

size_t rv_count_markup_nodes_reference(const uint8_t *p, size_t n, uint8_t next) {
    if (n == 0) return 0;
    size_t lt, open;
    count_markup_scalar(p, n, next, &lt, &open);
    return lt + open;
}
