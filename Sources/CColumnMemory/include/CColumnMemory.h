// The calls the columns need that Swift cannot make, or makes slowly: mremap(2) is
// variadic in glibc's header, and Swift does not import variadic C functions; a prefetch,
// which Swift has no spelling for; and a scan of a type column with AVX2.
#ifndef C_COLUMN_MEMORY_H
#define C_COLUMN_MEMORY_H
#include <stddef.h>
#include <stdint.h>

/// Grows the anonymous mapping of `old_bytes` at `p` to `new_bytes`, in place or moved
/// (MREMAP_MAYMOVE): the pages move, the bytes are not copied. Returns the mapping's
/// address, or NULL when the kernel refuses (the old mapping is then unchanged).
void *rv_remap(void *p, size_t old_bytes, size_t new_bytes);

/// Asks for the cache line that holds `p` to be loaded, without waiting for it (a hint: no
/// fault, no effect on what any read returns). A loop over many nodes asks for the lines a
/// later node will read, so that their misses overlap with the work on this one.
static inline void rv_prefetch(const void *p) { __builtin_prefetch(p, 0, 3); }

/// Writes to `out` (room for `capacity`) `first_rank + i` for each `i` below `count` where
/// `types[i]` is `type`, in order, and returns how many there are (more than `capacity`
/// if `out` was too small: those past it are counted, not written). Eight at a time with
/// AVX2 where the processor has it.
size_t rv_collect_type(const int32_t *types, size_t count, int32_t type, int32_t first_rank, int32_t *out, size_t capacity);

#endif
