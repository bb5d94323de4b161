// A snapshot load's hot loops, and a cold query's checks of what it reads of a snapshot
// (the structure, StructureCheck.c; the named attributes' runs, RunsCheck.c), each with an
// AVX2 path where the processor has it.
//
// The position-local check of a saved Euler tour (RelativeViewCore's _TourCheck): each
// position on its own, with no branch on the data, so that it runs in pieces on several
// threads and, with AVX2, eight positions to an instruction.
//
// The first check of an attribute column's texts: every start none or a one-byte
// length whose text ends within the bytes, with no branch on whether a slot has a text.
//
// The lanes of a version 3 checksum block (RelativeViewSnapshot's SnapshotLayout): eight
// 64-bit lanes over 8-byte words, each step an add and a rotate.
#ifndef C_SNAPSHOT_KERNELS_H
#define C_SNAPSHOT_KERNELS_H
#include <stddef.h>
#include <stdint.h>

/// The columns a check reads, none of them written. `type_usable` has `type_count + 1`
/// entries: 1 for a type number a node may have, 0 for one it may not, and 0 last (for
/// every number out of range). `slot_count` is at least 1.
typedef struct {
    const int32_t *token;
    const int32_t *parent;
    const uint64_t *span;
    const int32_t *narrow_tag;
    const int32_t *type_id;
    const int32_t *tour_tag;
    const int32_t *tour_type;
    const int32_t *type_usable;
    uint32_t type_count;
    uint32_t slot_count;
} rv_tour_columns;

/// What a run of positions found: `bad` is 0 if every position passed; and the number of
/// enter tokens, of roots (enters whose parent is -1) and of wide tags (enters whose narrow
/// tag is INT32_MIN) among them. `ordered` counts the AVX2 path's runs of eight positions
/// whose entered slots were consecutive (read without gathers; see TourCheck.c).
/// `first_enter` is the slot the run's first enter token enters (-1 if it has none), and
/// `out_of_order` is 0 if each enter token enters `first_enter` plus the number of enter
/// tokens before it in the run: a run of a tour that enters its slots in slot order.
typedef struct {
    uint32_t bad;
    int64_t enters;
    int64_t roots;
    int64_t wide;
    int64_t ordered;
    int64_t first_enter;
    uint32_t out_of_order;
} rv_tour_tally;

/// Checks positions `from ..< to` (within the tour's 2 × live): with AVX2 if the processor
/// has it and `allow_vector` is nonzero, else one position at a time.
rv_tour_tally rv_tour_check(const rv_tour_columns *c, size_t from, size_t to, int allow_vector);

/// Whether ``rv_tour_check`` can take the AVX2 path on this processor.
int rv_tour_check_has_vector(void);

/// Runs the `count` 64-byte chunks at `bytes` through the eight `lanes`: word k of each
/// chunk (little-endian) into lane k, `lane = rotl(lane + word, 29)`: with AVX2 if the
/// processor has it and `allow_vector` is nonzero. Little-endian machines only.
void rv_checksum_lanes(const uint8_t *bytes, size_t count, uint64_t lanes[8], int allow_vector);

/// Whether each of the `count` starts is -1 or the position in the `n` `bytes` of a
/// one-byte length (under 128) whose text ends within them: 1 if so, 0 if some start is
/// not (out of range, a text past the end, or a longer length, which the check that names
/// flaws then reads). With AVX2 if the processor has it and `allow_vector` is nonzero.
int rv_texts_sound(const int64_t *starts, size_t count, const uint8_t *bytes, size_t n, int allow_vector);

/// ``rv_texts_sound`` for narrow starts (a version 4 snapshot's): 0xFFFFFFFF for none, eight
/// at a time with AVX2.
int rv_texts_sound32(const uint32_t *starts, size_t count, const uint8_t *bytes, size_t n, int allow_vector);

/// The columns of a forest in document order that a query reads (RelativeViewSnapshot's
/// _SnapshotQuerySource): per slot its parent, its span (enter in the low 32 bits, exit in
/// the high) and its type; `type_usable` as in ``rv_tour_columns``.
typedef struct {
    const int32_t *parent;
    const uint64_t *span;
    const int32_t *type_id;
    const int32_t *type_usable;
    uint32_t type_count;
    uint32_t slot_count;
} rv_structure_columns;

/// Whether slots `from ..< to` of the `slot_count` hold usable types, and parents and spans
/// of a forest in document order (see StructureCheck.c): 1 if so. With AVX2 if the processor
/// has it and `allow_vector` is nonzero, with AVX-512 (F) if it has that too and
/// `allow_vector` is 2 or more. `counts`, if not NULL, has `type_count + 1`
/// entries, to which each slot's type is added (the last for a number out of the table).
int rv_structure_check(const rv_structure_columns *c, size_t from, size_t to, int allow_vector, uint32_t *counts);

/// The named attributes of a snapshot whose runs a check reads: per slot the first entry of
/// its run (-1 for none), per entry its name (the type table's number, the top bit set on a
/// run's last entry) and the start of its value's length in the `byte_count` `bytes`.
typedef struct {
    const int32_t *first;
    const uint32_t *names;
    const uint32_t *values;
    const uint8_t *bytes;
    size_t byte_count;
    size_t entry_count;
    uint32_t type_count;
} rv_runs_columns;

/// What a range of slots' runs gave: `slot` the first slot with a run (-1 for none) and
/// `start` the entry it says its run starts at; `end` the entry after the range's last run;
/// `bad` 1 if a run does not start where the one before it ends, an entry past the entries,
/// a name out of the table, or a value whose length is not one or two bytes with the text
/// within the bytes (the check that names flaws reads any length). A first start outside
/// the entries is left to the caller's chaining, with `end` 0 and `bad` 0.
typedef struct {
    int64_t slot;
    int64_t start;
    int64_t end;
    uint32_t bad;
} rv_runs_piece;

/// The runs of slots `from ..< to` checked (see ``rv_runs_piece``): with AVX2 if the
/// processor has it and `allow_vector` is nonzero, which skips eight slots without a run
/// at a time.
rv_runs_piece rv_runs_check(const rv_runs_columns *c, size_t from, size_t to, int allow_vector);

#endif
