#include "CMallocStats.h"
// <stdlib.h> defines __GLIBC__ on glibc systems; without a libc header first it is not defined.
#include <stdlib.h>
// RELATIVE_VIEW_JEMALLOC comes with the Jemalloc trait in release builds, which also link
// jemalloc (see Package.swift): no other build needs jemalloc's header or library. Debian's
// jemalloc exports the standard malloc symbols unprefixed, so linking it replaces the
// system allocator.
#if defined(RELATIVE_VIEW_JEMALLOC)
#include <jemalloc/jemalloc.h>
#include <stdint.h>
#elif defined(__GLIBC__)
#include <malloc.h>
#endif

const char *relative_view_allocator_name(void) {
#if defined(RELATIVE_VIEW_JEMALLOC)
    return "jemalloc";
#else
    return "system";
#endif
}

long long relative_view_allocated_bytes(void) {
#if defined(RELATIVE_VIEW_JEMALLOC)
    // jemalloc's statistics are a snapshot, refreshed by writing to "epoch".
    uint64_t epoch = 1, new_epoch = 1;
    size_t size = sizeof(epoch);
    mallctl("epoch", &epoch, &size, &new_epoch, sizeof(new_epoch));
    size_t allocated = 0;
    size = sizeof(allocated);
    if (mallctl("stats.allocated", &allocated, &size, NULL, 0) != 0) return -1;
    return (long long)allocated;
#elif defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
    struct mallinfo2 info = mallinfo2();
    return (long long)(info.uordblks + info.hblkhd);
#else
    return -1;
#endif
}
