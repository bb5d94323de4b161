#include "CColumnMemory.h"
#include <stdint.h>

// See the header. Eight types compared at a time with AVX2 (where the processor has it):
// most runs of eight hold no node of the type asked for, and are passed with one compare
// and one mask; the slots of a match are read from the mask's set bits.

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#include <immintrin.h>
__attribute__((target("avx2")))
static size_t collect_avx2(const int32_t *types, size_t count, int32_t type, int32_t first_rank, int32_t *out, size_t capacity) {
    const __m256i wanted = _mm256_set1_epi32(type);
    size_t found = 0, i = 0;
    for (; i + 8 <= count; i += 8) {
        __m256i t = _mm256_loadu_si256((const __m256i *)(types + i));
        uint32_t mask = (uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(t, wanted)));
        while (mask) {
            size_t k = i + (size_t)__builtin_ctz(mask);
            mask &= mask - 1;
            if (found < capacity) out[found] = first_rank + (int32_t)k;
            found++;
        }
    }
    for (; i < count; i++) {
        if (types[i] != type) continue;
        if (found < capacity) out[found] = first_rank + (int32_t)i;
        found++;
    }
    return found;
}
#define RV_COLLECT_AVX2 1
#endif

size_t rv_collect_type(const int32_t *types, size_t count, int32_t type, int32_t first_rank, int32_t *out, size_t capacity) {
#ifdef RV_COLLECT_AVX2
    if (__builtin_cpu_supports("avx2")) return collect_avx2(types, count, type, first_rank, out, capacity);
#endif
    size_t found = 0;
    for (size_t i = 0; i < count; i++) {
        if (types[i] != type) continue;
        if (found < capacity) out[found] = first_rank + (int32_t)i;
        found++;
    }
    return found;
}
