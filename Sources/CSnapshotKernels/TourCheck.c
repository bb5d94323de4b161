#include "CSnapshotKernels.h"
#include "Vector.h"

// See RelativeViewCore's _TourCheck for the rule and why it is the stack check. Per
// position p with token t: the slot it names is in range; an enter's parent is the node
// open before p (an exit closes it); the slot's span names p (as enter or exit); the tag
// and type copies are the slot's (the exit marks, on an exit); an entered slot's type is
// one a node may have. The node open before p + 1 is t if t enters, else t's parent.

static const int32_t exit_tag = INT32_MIN;
static const int32_t exit_type = -1;
static const int32_t wide_sentinel = INT32_MIN;

// The node open before position `p` (none, -1, before position 0).
static inline int32_t open_before(const rv_tour_columns *c, size_t p) {
    if (p == 0) return -1;
    int32_t before = c->token[p - 1];
    if (before >= 0) return before;
    uint32_t x = (uint32_t)~before;
    uint32_t last = c->slot_count - 1;
    return c->parent[x < last ? x : last];
}

static rv_tour_tally check_scalar(const rv_tour_columns *c, size_t from, size_t to, int32_t open, rv_tour_tally tally) {
    const uint32_t last = c->slot_count - 1;
    uint32_t bad = 0;
    int64_t enters = 0, roots = 0, wide = 0;
    // Whether each enter enters the run's first entered slot plus its rank among the run's
    // enters (the vector loop's enters before `from` counted in `tally.enters`).
    int64_t first = tally.first_enter;
    uint32_t out_of_order = 0;
    for (size_t p = from; p < to; p++) {
        int32_t t = c->token[p];
        uint32_t enter = (uint32_t)(~t) >> 31;
        uint32_t slot = (uint32_t)(t ^ (t >> 31));
        if (enter) {
            int64_t rank = tally.enters + enters;
            if (first < 0) first = (int64_t)slot - rank;
            out_of_order |= (int64_t)slot != first + rank;
        }
        bad |= slot > last;
        uint32_t x = slot < last ? slot : last;
        int32_t up = c->parent[x];
        bad |= (uint32_t)(open ^ (enter ? up : (int32_t)slot));
        bad |= (uint32_t)(c->span[x] >> ((enter ^ 1) << 5)) ^ (uint32_t)p;
        int32_t tag = c->narrow_tag[x];
        bad |= (uint32_t)(c->tour_tag[p] ^ (enter ? tag : exit_tag));
        int32_t type = c->type_id[x];
        bad |= (uint32_t)(c->tour_type[p] ^ (enter ? type : exit_type));
        uint32_t u = (uint32_t)type < c->type_count ? (uint32_t)type : c->type_count;
        bad |= (uint32_t)(c->type_usable[u] ^ 1) & enter;
        enters += enter;
        roots += enter & (up == -1);
        wide += enter & (tag == wide_sentinel);
        open = enter ? t : up;
    }
    tally.bad |= bad;
    tally.enters += enters;
    tally.roots += roots;
    tally.wide += wide;
    tally.first_enter = first;
    tally.out_of_order |= out_of_order;
    return tally;
}

#ifdef RV_HAVE_AVX2_PATH
// For each 8-bit mask of enter lanes, each lane's rank among them (the enter lanes before
// it): where an enter lane's slot is, when the slots entered are consecutive.
static const uint8_t enter_rank[256][8] = {
#define R(m, i) (uint8_t)__builtin_popcount((unsigned)(m) & ((1u << (i)) - 1))
#define ROW(m) {R(m, 0), R(m, 1), R(m, 2), R(m, 3), R(m, 4), R(m, 5), R(m, 6), R(m, 7)}
#define ROW4(m) ROW(m), ROW(m + 1), ROW(m + 2), ROW(m + 3)
#define ROW16(m) ROW4(m), ROW4(m + 4), ROW4(m + 8), ROW4(m + 12)
#define ROW64(m) ROW16(m), ROW16(m + 16), ROW16(m + 32), ROW16(m + 48)
    ROW64(0), ROW64(64), ROW64(128), ROW64(192)
#undef ROW64
#undef ROW16
#undef ROW4
#undef ROW
#undef R
};

__attribute__((target("avx2")))
static rv_tour_tally check_avx2(const rv_tour_columns *c, size_t from, size_t to, rv_tour_tally tally) {
    const __m256i last = _mm256_set1_epi32((int32_t)(c->slot_count - 1));
    const __m256i types = _mm256_set1_epi32((int32_t)c->type_count);
    const __m256i one = _mm256_set1_epi32(1);
    const __m256i minus_one = _mm256_set1_epi32(-1);
    const __m256i exit_tags = _mm256_set1_epi32(exit_tag);
    const __m256i exit_types = _mm256_set1_epi32(exit_type);
    const __m256i sentinel = _mm256_set1_epi32(wide_sentinel);
    const __m256i lanes = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    // Each lane's open node is the lane before's next open (lane 0's, the carry).
    const __m256i shift = _mm256_setr_epi32(7, 0, 1, 2, 3, 4, 5, 6);
    const __m256i top = _mm256_set1_epi32(7);
    __m256i bad = _mm256_setzero_si256();
    __m256i enters = _mm256_setzero_si256(), roots = _mm256_setzero_si256(), wide = _mm256_setzero_si256();
    __m256i carry = _mm256_set1_epi32(open_before(c, from));
    const int few_types = c->type_count < 32;
    uint32_t bits = 0;
    for (uint32_t k = 0; few_types && k < c->type_count; k++) bits |= (uint32_t)(c->type_usable[k] == 1) << k;
    const __m256i usable_bits = _mm256_set1_epi32((int32_t)bits);
    const __m256i three = _mm256_set1_epi32(3);
    int64_t ordered = 0;
    // The slot order's check (see check_scalar): the run's first entered slot less the
    // enters before it, and the enters so far.
    int64_t first_enter = tally.first_enter, seen = tally.enters;
    uint32_t out_of_order = 0;
    size_t p = from;
    for (; p + 8 <= to; p += 8) {
        __m256i t = _mm256_loadu_si256((const __m256i *)(c->token + p));
        __m256i enter = _mm256_cmpgt_epi32(t, minus_one);
        __m256i slot = _mm256_xor_si256(t, _mm256_srai_epi32(t, 31));
        bad = _mm256_or_si256(bad, _mm256_cmpgt_epi32(slot, last));
        __m256i x = _mm256_min_epu32(slot, last);
        // The slots entered here, if they are consecutive (a tree whose slots are in
        // pre-order: a built or imported one): an enter lane of rank r (r enter lanes before
        // it) has the first's slot plus r, and its parent, span, tag and type come from eight
        // consecutive entries from that slot, permuted, rather than gathered; the exit lanes
        // alone gather their parent and span. Slots in any other order take the gathers,
        // lane by lane.
        uint32_t mask = (uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(enter));
        __m256i rank = _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)enter_rank[mask]));
        uint32_t first = mask ? (uint32_t)c->token[p + (uint32_t)__builtin_ctz(mask)] : 0;
        int consecutive = 0;
        if (mask) {
            __m256i expected = _mm256_add_epi32(_mm256_set1_epi32((int32_t)first), rank);
            __m256i off = _mm256_andnot_si256(_mm256_cmpeq_epi32(expected, slot), enter);
            int in_a_row = _mm256_testz_si256(off, off);
            // In slot order: these enters in a row, from the run's first plus those before.
            if (first_enter < 0) first_enter = (int64_t)first - seen;
            out_of_order |= !in_a_row || (int64_t)first != first_enter + seen;
            seen += __builtin_popcount(mask);
            consecutive = in_a_row && first + 8 <= c->slot_count;
        }
        __m256i up, at, tag, type;
        // The span's enter half (the low word) for an enter, its exit half for an exit.
        __m256i half = _mm256_add_epi32(_mm256_add_epi32(x, x), _mm256_andnot_si256(enter, one));
        if (consecutive) {
            ordered++;
            __m256i exits = _mm256_xor_si256(enter, minus_one);
            up = _mm256_permutevar8x32_epi32(_mm256_loadu_si256((const __m256i *)(c->parent + first)), rank);
            up = _mm256_mask_i32gather_epi32(up, c->parent, x, exits, 4);
            // Eight spans are sixteen words, enter and exit halves in turn: an enter lane's
            // is word 2r, of the first eight if r < 4, else of the next (the permute reads the
            // low three bits of its index).
            const int32_t *spans = (const int32_t *)(c->span + first);
            __m256i word = _mm256_add_epi32(rank, rank);
            __m256i low = _mm256_permutevar8x32_epi32(_mm256_loadu_si256((const __m256i *)spans), word);
            __m256i high = _mm256_permutevar8x32_epi32(_mm256_loadu_si256((const __m256i *)(spans + 8)), word);
            at = _mm256_blendv_epi8(low, high, _mm256_cmpgt_epi32(rank, three));
            at = _mm256_mask_i32gather_epi32(at, (const int *)c->span, half, exits, 4);
            tag = _mm256_permutevar8x32_epi32(_mm256_loadu_si256((const __m256i *)(c->narrow_tag + first)), rank);
            type = _mm256_permutevar8x32_epi32(_mm256_loadu_si256((const __m256i *)(c->type_id + first)), rank);
        } else {
            up = _mm256_i32gather_epi32(c->parent, x, 4);
            at = _mm256_i32gather_epi32((const int *)c->span, half, 4);
            tag = _mm256_i32gather_epi32(c->narrow_tag, x, 4);
            type = _mm256_i32gather_epi32(c->type_id, x, 4);
        }
        __m256i next = _mm256_blendv_epi8(up, t, enter);
        __m256i open = _mm256_blend_epi32(_mm256_permutevar8x32_epi32(next, shift), carry, 1);
        carry = _mm256_permutevar8x32_epi32(next, top);
        bad = _mm256_or_si256(bad, _mm256_xor_si256(open, _mm256_blendv_epi8(slot, up, enter)));
        bad = _mm256_or_si256(bad, _mm256_xor_si256(at, _mm256_add_epi32(_mm256_set1_epi32((int32_t)p), lanes)));
        __m256i tour_tag = _mm256_loadu_si256((const __m256i *)(c->tour_tag + p));
        bad = _mm256_or_si256(bad, _mm256_xor_si256(tour_tag, _mm256_blendv_epi8(exit_tags, tag, enter)));
        __m256i tour_type = _mm256_loadu_si256((const __m256i *)(c->tour_type + p));
        bad = _mm256_or_si256(bad, _mm256_xor_si256(tour_type, _mm256_blendv_epi8(exit_types, type, enter)));
        __m256i usable;
        if (few_types) {
            // Under 32 types: the usable ones as bits of one word, shifted by type (a shift of
            // 32 or more, a type out of range, gives 0).
            usable = _mm256_and_si256(_mm256_srlv_epi32(usable_bits, type), one);
        } else {
            usable = _mm256_i32gather_epi32(c->type_usable, _mm256_min_epu32(type, types), 4);
        }
        bad = _mm256_or_si256(bad, _mm256_and_si256(enter, _mm256_xor_si256(usable, one)));
        // Masks are -1: subtracting counts.
        enters = _mm256_sub_epi32(enters, enter);
        roots = _mm256_sub_epi32(roots, _mm256_and_si256(enter, _mm256_cmpeq_epi32(up, minus_one)));
        wide = _mm256_sub_epi32(wide, _mm256_and_si256(enter, _mm256_cmpeq_epi32(tag, sentinel)));
    }
    int32_t counts[3][8];
    _mm256_storeu_si256((__m256i *)counts[0], enters);
    _mm256_storeu_si256((__m256i *)counts[1], roots);
    _mm256_storeu_si256((__m256i *)counts[2], wide);
    for (int k = 0; k < 8; k++) {
        tally.enters += (uint32_t)counts[0][k];
        tally.roots += (uint32_t)counts[1][k];
        tally.wide += (uint32_t)counts[2][k];
    }
    tally.bad |= !_mm256_testz_si256(bad, bad);
    tally.ordered += ordered;
    tally.first_enter = first_enter;
    tally.out_of_order |= out_of_order;
    // The rest, one at a time, from the node the vector loop left open.
    return check_scalar(c, p, to, _mm256_extract_epi32(carry, 0), tally);
}
#endif

int rv_tour_check_has_vector(void) {
#ifdef RV_HAVE_AVX2_PATH
    return __builtin_cpu_supports("avx2");
#else
    return 0;
#endif
}

rv_tour_tally rv_tour_check(const rv_tour_columns *c, size_t from, size_t to, int allow_vector) {
    rv_tour_tally tally = {0, 0, 0, 0, 0, -1, 0};
    if (from >= to) return tally;
#ifdef RV_HAVE_AVX2_PATH
    // The vector loop's 32-bit counts and gather indices (twice a slot, for the span's
    // halves) must not overflow.
    if (allow_vector && to - from < ((size_t)1 << 31) && c->slot_count <= ((uint32_t)1 << 30) && __builtin_cpu_supports("avx2"))
        return check_avx2(c, from, to, tally);
#endif
    return check_scalar(c, from, to, open_before(c, from), tally);
}
