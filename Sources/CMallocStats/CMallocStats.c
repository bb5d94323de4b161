#include "CMallocStats.h"
// <stdlib.h> defines __GLIBC__ on glibc systems; without a libc header first it is not defined.
#include <stdlib.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

long long relative_view_allocated_bytes(void) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
    struct mallinfo2 info = mallinfo2();
    return (long long)(info.uordblks + info.hblkhd);
#else
    return -1;
#endif
}
