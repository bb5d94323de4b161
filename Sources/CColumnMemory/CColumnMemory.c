#define _GNU_SOURCE
#include "CColumnMemory.h"
#include <sys/mman.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

void *rv_remap(void *p, size_t old_bytes, size_t new_bytes) {
#if defined(__linux__)
    void *q = mremap(p, old_bytes, new_bytes, MREMAP_MAYMOVE);
    return q == MAP_FAILED ? NULL : q;
#else
    (void)p; (void)old_bytes; (void)new_bytes;
    return NULL;
#endif
}

int rv_usable_processors_of(long cpus, const char *cpu_max) {
    int usable = cpus > 0 ? (int)cpus : 1;
    // cgroup v2's cpu.max: "max PERIOD" (no quota) or "QUOTA PERIOD", in microseconds.
    char quota[32];
    long period = 0;
    if (cpu_max && sscanf(cpu_max, "%31s %ld", quota, &period) == 2 && period > 0 && quota[0] != 'm') {
        long q = atol(quota);
        if (q > 0) {
            long quota_cpus = (q + period - 1) / period;
            if (quota_cpus < usable) usable = (int)quota_cpus;
        }
    }
    return usable < 1 ? 1 : usable;
}

int rv_usable_processors(void) {
#if defined(__linux__)
    // The kernel gives the mask of the CPUs both allowed and active: no need to ask how
    // many are online (which glibc reads from a file).
    cpu_set_t set;
    CPU_ZERO(&set);
    long cpus = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : sysconf(_SC_NPROCESSORS_ONLN);
    if (cpus <= 1) return 1;
    // The process's own cgroup is the root of the namespace a container sees.
    char line[64] = {0};
    const char *cpu_max = NULL;
    FILE *f = fopen("/sys/fs/cgroup/cpu.max", "r");
    if (f) {
        if (fgets(line, sizeof line, f)) cpu_max = line;
        fclose(f);
    }
    return rv_usable_processors_of(cpus, cpu_max);
#else
    return rv_usable_processors_of(sysconf(_SC_NPROCESSORS_ONLN), NULL);
#endif
}
