#ifndef CMALLOCSTATS_H
#define CMALLOCSTATS_H
#include <stddef.h>

/// The allocator this binary runs on: "jemalloc" with the package's Jemalloc trait, else "system".
const char *relative_view_allocator_name(void);

/// Bytes currently allocated through malloc: jemalloc's stats.allocated with the Jemalloc
/// trait, else glibc's mallinfo2() (heap in use plus mmapped blocks); -1 where neither answers.
long long relative_view_allocated_bytes(void);

#endif
