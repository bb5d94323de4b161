#include "CByteCount.h"

// Blocks of at most 255 bytes keep an 8-bit count per vector lane from overflowing, so
// the compiler can compare and add 16 (or more) bytes per instruction.
enum { BLOCK = 255 };

size_t rv_count_bytes3(const uint8_t *p, size_t n, uint8_t a, uint8_t b, uint8_t c) {
    size_t total = 0;
    while (n > 0) {
        size_t m = n < BLOCK ? n : BLOCK;
        uint8_t count = 0;
        for (size_t i = 0; i < m; i++) count += (uint8_t)((p[i] == a) | (p[i] == b) | (p[i] == c));
        total += count;
        p += m;
        n -= m;
    }
    return total;
}

size_t rv_count_open_tags(const uint8_t *p, size_t n, uint8_t next) {
    if (n == 0) return 0;
    size_t total = 0;
    size_t left = n - 1;  // every byte but the last has its follower in the buffer
    const uint8_t *q = p;
    while (left > 0) {
        size_t m = left < BLOCK ? left : BLOCK;
        uint8_t count = 0;
        for (size_t i = 0; i < m; i++) count += (uint8_t)((q[i] == '<') & (q[i + 1] != '/'));
        total += count;
        q += m;
        left -= m;
    }
    return total + (p[n - 1] == '<' && next != '/');
}
