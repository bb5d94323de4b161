#ifndef CMALLOCSTATS_H
#define CMALLOCSTATS_H
#include <stddef.h>

/// Bytes currently allocated through malloc (heap in use plus mmapped blocks), from glibc's
/// mallinfo2(); -1 where that is not available.
long long relative_view_allocated_bytes(void);

#endif
