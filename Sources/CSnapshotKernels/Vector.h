// The kernels' AVX2 paths: built on x86-64 (with a compiler that takes per-function target
// attributes), taken only where the processor has AVX2 (`__builtin_cpu_supports`).
#ifndef RV_VECTOR_H
#define RV_VECTOR_H
#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#include <immintrin.h>
#define RV_HAVE_AVX2_PATH 1
#endif
#endif
