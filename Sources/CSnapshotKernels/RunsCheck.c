#include "CSnapshotKernels.h"
#include "Vector.h"

// See the header: the named attributes' runs of a range of slots. Most slots have none
// (-1: every text, and most elements), so the AVX2 path looks at eight first entries at a
// time and walks only the slots among them that have a run; the entries of a run are few
// and are checked one by one. A value's length is taken as the text check's fast path
// takes it (TextCheck.c): one or two bytes, else the piece is left to the check that names
// flaws, which reads any length.

// 1 if value start `v` is not a one- or two-byte length whose text ends within the `n`
// bytes (none, 0xFFFFFFFF, is not a value here: every entry has one).
static inline uint32_t value_unsound(uint64_t v, const uint8_t *bytes, size_t n) {
    if (n == 0 || v >= n) return 1;
    uint64_t b0 = bytes[v];
    uint64_t cont = b0 >> 7;
    if (!cont) return v + 1 + b0 > n;
    if (v + 1 >= n) return 1;
    uint64_t b1 = bytes[v + 1];
    if (b1 >> 7) return 1;
    return v + 2 + ((b0 & 0x7F) | (b1 << 7)) > n;
}

// Slot x's run, at entry `*next`, checked; `*next` moved past it. 1 if a flaw.
static inline uint32_t run_unsound(const rv_runs_columns *c, size_t x, int64_t *next, rv_runs_piece *piece) {
    int64_t f = c->first[x];
    if (piece->slot < 0) {
        piece->slot = (int64_t)x;
        piece->start = f;
        if (f < 0 || (uint64_t)f > c->entry_count) return 2;  // left to the chaining check
        *next = f;
    }
    if (f != *next) return 1;
    for (;;) {
        int64_t k = *next;
        if ((uint64_t)k >= c->entry_count) return 1;
        uint32_t name = c->names[k];
        if ((name & 0x7FFFFFFFu) >= c->type_count) return 1;
        if (value_unsound(c->values[k], c->bytes, c->byte_count)) return 1;
        *next = k + 1;
        if (name >> 31) return 0;
    }
}

// Slots `from ..< to` one at a time, the runs going on from `*next` into `*piece`: 1 where
// the piece ends there (a flaw, or a first start left to the caller), else 0.
static int runs_one_by_one(const rv_runs_columns *c, size_t from, size_t to, int64_t *next, rv_runs_piece *piece) {
    for (size_t x = from; x < to; x++) {
        if (c->first[x] == -1) continue;
        uint32_t r = run_unsound(c, x, next, piece);
        if (r == 2) return 1;
        if (r) { piece->bad = 1; return 1; }
    }
    return 0;
}

static rv_runs_piece runs_scalar(const rv_runs_columns *c, size_t from, size_t to) {
    rv_runs_piece piece = {-1, 0, 0, 0};
    int64_t next = 0;
    if (runs_one_by_one(c, from, to, &next, &piece)) return piece;
    piece.end = next;
    return piece;
}

#ifdef RV_HAVE_AVX2_PATH
__attribute__((target("avx2")))
static rv_runs_piece runs_avx2(const rv_runs_columns *c, size_t from, size_t to) {
    rv_runs_piece piece = {-1, 0, 0, 0};
    int64_t next = 0;
    const __m256i none = _mm256_set1_epi32(-1);
    size_t x = from;
    for (; x + 8 <= to; x += 8) {
        __m256i f = _mm256_loadu_si256((const __m256i *)(c->first + x));
        uint32_t have = ~(uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(f, none))) & 0xFF;
        while (have) {
            size_t y = x + (size_t)__builtin_ctz(have);
            have &= have - 1;
            uint32_t r = run_unsound(c, y, &next, &piece);
            if (r == 2) return piece;
            if (r) { piece.bad = 1; return piece; }
        }
    }
    if (runs_one_by_one(c, x, to, &next, &piece)) return piece;
    piece.end = next;
    return piece;
}
#endif

rv_runs_piece rv_runs_check(const rv_runs_columns *c, size_t from, size_t to, int allow_vector) {
#ifdef RV_HAVE_AVX2_PATH
    if (allow_vector && __builtin_cpu_supports("avx2")) return runs_avx2(c, from, to);
#endif
    (void)allow_vector;
    return runs_scalar(c, from, to);
}
