#include "CSnapshotKernels.h"
#include "Vector.h"
#include <string.h>

static inline uint64_t rotl29(uint64_t x) { return x << 29 | x >> 35; }

static void lanes_scalar(const uint8_t *bytes, size_t count, uint64_t lanes[8]) {
    uint64_t l[8];
    memcpy(l, lanes, sizeof l);
    for (size_t i = 0; i < count; i++) {
        uint64_t w[8];
        memcpy(w, bytes + 64 * i, sizeof w);  // little-endian machines only (x86-64, arm64)
        for (int k = 0; k < 8; k++) l[k] = rotl29(l[k] + w[k]);
    }
    memcpy(lanes, l, sizeof l);
}

#ifdef RV_HAVE_AVX2_PATH
__attribute__((target("avx2")))
static void lanes_avx2(const uint8_t *bytes, size_t count, uint64_t lanes[8]) {
    __m256i a = _mm256_loadu_si256((const __m256i *)lanes);
    __m256i b = _mm256_loadu_si256((const __m256i *)(lanes + 4));
    for (size_t i = 0; i < count; i++) {
        __m256i x = _mm256_add_epi64(a, _mm256_loadu_si256((const __m256i *)(bytes + 64 * i)));
        __m256i y = _mm256_add_epi64(b, _mm256_loadu_si256((const __m256i *)(bytes + 64 * i + 32)));
        a = _mm256_or_si256(_mm256_slli_epi64(x, 29), _mm256_srli_epi64(x, 35));
        b = _mm256_or_si256(_mm256_slli_epi64(y, 29), _mm256_srli_epi64(y, 35));
    }
    _mm256_storeu_si256((__m256i *)lanes, a);
    _mm256_storeu_si256((__m256i *)(lanes + 4), b);
}
#endif

void rv_checksum_lanes(const uint8_t *bytes, size_t count, uint64_t lanes[8], int allow_vector) {
#ifdef RV_HAVE_AVX2_PATH
    if (allow_vector && __builtin_cpu_supports("avx2")) { lanes_avx2(bytes, count, lanes); return; }
#endif
    lanes_scalar(bytes, count, lanes);
}
