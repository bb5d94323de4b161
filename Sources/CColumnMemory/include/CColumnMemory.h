// The calls the columns need that Swift cannot make, or makes slowly: mremap(2) is
// variadic in glibc's header, and Swift does not import variadic C functions; a prefetch,
// which Swift has no spelling for; a scan of a type column with AVX2; and the CPUs this
// process may run on (CPU_COUNT is a macro, which Swift does not import).
#ifndef C_COLUMN_MEMORY_H
#define C_COLUMN_MEMORY_H
#include <stddef.h>
#include <stdint.h>

/// Grows the anonymous mapping of `old_bytes` at `p` to `new_bytes`, in place or moved
/// (MREMAP_MAYMOVE): the pages move, the bytes are not copied. Returns the mapping's
/// address, or NULL when the kernel refuses (the old mapping is then unchanged).
void *rv_remap(void *p, size_t old_bytes, size_t new_bytes);

/// How many CPUs this process may keep busy at once: those of its affinity mask that are
/// active (sched_getaffinity: `taskset`, a container's cpuset; the CPUs online where the
/// mask cannot be read), fewer if the CPU quota of a container's cgroup (cgroup v2's
/// `/sys/fs/cgroup/cpu.max`, as `docker --cpus` sets it) is smaller, rounded up; at least
/// 1. A second thread is worth starting only when this is above 1: on one CPU it takes
/// turns with the first. A few microseconds (a system call, a file that may not exist).
int rv_usable_processors(void);

/// What `rv_usable_processors` makes of what it reads: `cpus` (the active CPUs of the
/// affinity mask, or those online) and the text of `cpu.max` (NULL: none). For the tests.
int rv_usable_processors_of(long cpus, const char *cpu_max);

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
