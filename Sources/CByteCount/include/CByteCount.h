// Byte counting at memory speed, for the importers' first pass (an upper bound on a
// document's nodes, so that a builder allocates the tree's columns once): plain loops
// that the C compiler vectorizes, which Swift's SIMD types do not match today.
#ifndef C_BYTE_COUNT_H
#define C_BYTE_COUNT_H
#include <stddef.h>
#include <stdint.h>

/// How many of the `n` bytes at `p` equal `a`, `b` or `c`.
size_t rv_count_bytes3(const uint8_t *p, size_t n, uint8_t a, uint8_t b, uint8_t c);

/// How many of the `n` bytes at `p` are a `<` not followed by `/` (the last byte's
/// follower is taken to be `next`, the first byte of the next chunk, or 0).
size_t rv_count_open_tags(const uint8_t *p, size_t n, uint8_t next);

#endif
