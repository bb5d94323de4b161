#ifndef C_FUZZER_DRIVER_H
#define C_FUZZER_DRIVER_H

#include <stddef.h>
#include <stdint.h>

// libFuzzer's entry for programs that keep their own main (LLVM 11 and later): it parses
// the fuzzer's flags from argv and calls `callback` with each input. Linked by
// `-sanitize=fuzzer`.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
