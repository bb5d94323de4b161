#define _GNU_SOURCE
#include "CColumnMemory.h"
#include <sys/mman.h>

void *rv_remap(void *p, size_t old_bytes, size_t new_bytes) {
#if defined(__linux__)
    void *q = mremap(p, old_bytes, new_bytes, MREMAP_MAYMOVE);
    return q == MAP_FAILED ? NULL : q;
#else
    (void)p; (void)old_bytes; (void)new_bytes;
    return NULL;
#endif
}
