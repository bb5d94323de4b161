// Byte counting at memory speed, for the importers' first pass (an upper bound on a
// document's nodes, so that a builder allocates the tree's columns once): AVX2 vectors on
// an x86-64 processor that has them, else plain loops that the C compiler vectorizes.
#ifndef C_BYTE_COUNT_H
#define C_BYTE_COUNT_H
#include <stddef.h>
#include <stdint.h>

/// How many of the `n` bytes at `p` equal `a`, `b` or `c`.
size_t rv_count_bytes3(const uint8_t *p, size_t n, uint8_t a, uint8_t b, uint8_t c);

/// How many of the `n` bytes at `p` are a `<` not followed by `/` (the last byte's
/// follower is taken to be `next`, the first byte of the next chunk, or 0).
size_t rv_count_open_tags(const uint8_t *p, size_t n, uint8_t next);

/// `rv_count_open_tags` plus the bytes equal to `<`, in one pass: twice the `<` bytes,
/// less those followed by `/` (the last byte's follower is `next`, as above).
size_t rv_count_markup_nodes(const uint8_t *p, size_t n, uint8_t next);

/// The plain loops of `rv_count_bytes3` and `rv_count_markup_nodes`, whatever the
/// processor: what the tests compare the vector paths with.
size_t rv_count_bytes3_reference(const uint8_t *p, size_t n, uint8_t a, uint8_t b, uint8_t c);
size_t rv_count_markup_nodes_reference(const uint8_t *p, size_t n, uint8_t next);

#endif
