// The peak resident set of this process (VmHWM in /proc/self/status), in bytes: what
// relative-view-bench reports for itself, so that the peers' drivers report the same.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <cstring>

static long peak_resident_bytes() {
    FILE *f = std::fopen("/proc/self/status", "r");
    char line[256];
    long kb = 0;
    while (f && std::fgets(line, sizeof line, f))
        if (std::strncmp(line, "VmHWM:", 6) == 0) kb = std::atol(line + 6);
    if (f) std::fclose(f);
    return kb * 1024;
}
