// The cost of reading a random cache line of a region of memory on this machine, by the
// region's size: the floor under any query that must touch random objects or column
// entries (a facade query touches its views, 64 MB of them at 10^6 nodes; a core query
// touches columns of 4 to 8 MB). Each region is a random cycle of 64-byte lines; a chain
// follows it, each load's address coming from the one before. Reported per region:
//   dependent: ns per load of one chain (each load waits for the last: the latency);
//   chains2: ns per step of two chains walked together (a query reading two views);
//   chains8: ns per load of eight chains walked together (independent queries back to
//            back, whose loads the processor overlaps: the throughput).
// Each figure is the least of three timings (the L3 cache is shared with other tenants:
// a busy moment only ever makes a timing longer).
// Prints one JSON array. Usage: memory-latency [MB ...] (default 4 8 16 32 64 128).
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e9 + t.tv_nsec;
}

enum { line = 64, chains = 8 };

int main(int argc, char **argv) {
    static const size_t defaults[] = {4, 8, 16, 32, 64, 128};
    size_t count = argc > 1 ? (size_t)(argc - 1) : sizeof defaults / sizeof defaults[0];
    printf("[");
    for (size_t r = 0; r < count; r++) {
        size_t mb = argc > 1 ? strtoull(argv[r + 1], 0, 10) : defaults[r];
        size_t bytes = mb << 20, n = bytes / line;
        if (n < 2 * chains) { fprintf(stderr, "region of %zu MB too small\n", mb); return 1; }
        char *m = aligned_alloc(4096, bytes);
        size_t *order = malloc(n * sizeof *order);
        if (!m || !order) { fprintf(stderr, "out of memory\n"); return 1; }
        for (size_t i = 0; i < n; i++) order[i] = i;
        uint64_t s = 88172645463325252ull;
        for (size_t i = n - 1; i > 0; i--) {
            s ^= s << 13; s ^= s >> 7; s ^= s << 17;
            size_t j = s % (i + 1), t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        for (size_t i = 0; i < n; i++) *(char **)(m + order[i] * line) = m + order[(i + 1) % n] * line;
        const size_t steps = 4000000;
        char *p = m;
        for (size_t i = 0; i < n; i++) p = *(char **)p; // warm the pages and TLB once
        char *a = m + order[0] * line, *b = m + order[n / 2] * line;
        char *c[chains];
        for (int k = 0; k < chains; k++) c[k] = m + order[k * (n / chains)] * line;
        double dependent = 1e30, two = 1e30, eight = 1e30;
        for (int round = 0; round < 3; round++) {
            // One chain.
            double t0 = now();
            for (size_t i = 0; i < steps; i++) p = *(char **)p;
            double t = (now() - t0) / steps;
            if (t < dependent) dependent = t;
            // Two chains, from opposite points of the cycle.
            t0 = now();
            for (size_t i = 0; i < steps; i++) { a = *(char **)a; b = *(char **)b; }
            t = (now() - t0) / steps;
            if (t < two) two = t;
            // Eight chains.
            t0 = now();
            for (size_t i = 0; i < steps / chains; i++)
                for (int k = 0; k < chains; k++) c[k] = *(char **)c[k];
            t = (now() - t0) / steps;
            if (t < eight) eight = t;
        }
        uintptr_t keep = (uintptr_t)p ^ (uintptr_t)a ^ (uintptr_t)b;
        for (int k = 0; k < chains; k++) keep ^= (uintptr_t)c[k];
        printf("%s\n  {\"regionMB\": %zu, \"dependentNs\": %.1f, \"chains2NsPerStep\": %.1f, \"chains8NsPerLoad\": %.1f, \"keep\": %u}",
               r ? "," : "", mb, dependent, two, eight, (unsigned)(keep & 1));
        free(order);
        free(m);
    }
    printf("\n]\n");
    return 0;
}
