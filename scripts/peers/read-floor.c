// Peer driver for scripts/snapshot-vs-peers.sh: the least a validated load of a file can
// cost, as a floor to compare loads with. It brings the file in as a load does (mapped
// with MAP_POPULATE, or read into fresh memory) and reads every byte of it once (a sum of
// its 8-byte words in four lanes, so that the loop runs at memory speed), and does nothing
// else: no check, no tree. Prints one JSON object: seconds, bytes, peak resident bytes.
// Usage: read-floor mapped|read FILE
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static uint64_t sum(const unsigned char *p, size_t n) {
    uint64_t a = 0, b = 0, c = 0, d = 0;
    size_t i = 0;
    for (; i + 32 <= n; i += 32) {
        uint64_t w[4];
        memcpy(w, p + i, 32);
        a += w[0]; b += w[1]; c += w[2]; d += w[3];
    }
    for (; i < n; i++) a += p[i];
    return a ^ b ^ c ^ d;
}

int main(int argc, char **argv) {
    if (argc != 3 || (strcmp(argv[1], "mapped") && strcmp(argv[1], "read"))) {
        fprintf(stderr, "usage: read-floor mapped|read FILE\n");
        return 64;
    }
    double start = now();
    int fd = open(argv[2], O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) { perror(argv[2]); return 1; }
    size_t n = (size_t)st.st_size;
    uint64_t s;
    if (!strcmp(argv[1], "mapped")) {
        unsigned char *p = mmap(NULL, n, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
        if (p == MAP_FAILED) { perror("mmap"); return 1; }
        s = sum(p, n);
        munmap(p, n);
    } else {
        unsigned char *p = malloc(n);
        size_t got = 0;
        while (got < n) {
            ssize_t k = read(fd, p + got, n - got);
            if (k <= 0) { perror("read"); return 1; }
            got += (size_t)k;
        }
        s = sum(p, n);
        free(p);
    }
    double seconds = now() - start;
    close(fd);
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    printf("{\"seconds\": %.6f, \"bytes\": %zu, \"peakResidentBytes\": %ld, \"sum\": %llu}\n",
           seconds, n, u.ru_maxrss * 1024L, (unsigned long long)s);
    return 0;
}
