// Only a header: CFuzzerDriver declares libFuzzer's LLVMFuzzerRunDriver for Swift.
#include "CFuzzerDriver.h"
