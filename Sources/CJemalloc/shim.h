// jemalloc, linked into relative-view-bench by the Jemalloc trait. Debian's build exports
// the standard malloc symbols unprefixed, so linking it replaces the system allocator;
// mallctl() reads its statistics.
#include <jemalloc/jemalloc.h>
