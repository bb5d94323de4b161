// The two calls the columns need that Swift cannot make: mremap(2) is variadic in glibc's
// header, and Swift does not import variadic C functions; and a prefetch, which Swift has
// no spelling for.
#ifndef C_COLUMN_MEMORY_H
#define C_COLUMN_MEMORY_H
#include <stddef.h>

/// Grows the anonymous mapping of `old_bytes` at `p` to `new_bytes`, in place or moved
/// (MREMAP_MAYMOVE): the pages move, the bytes are not copied. Returns the mapping's
/// address, or NULL when the kernel refuses (the old mapping is then unchanged).
void *rv_remap(void *p, size_t old_bytes, size_t new_bytes);

/// Asks for the cache line that holds `p` to be loaded, without waiting for it (a hint: no
/// fault, no effect on what any read returns). A loop over many nodes asks for the lines a
/// later node will read, so that their misses overlap with the work on this one.
static inline void rv_prefetch(const void *p) { __builtin_prefetch(p, 0, 3); }

#endif
