// Peer driver for scripts/import-vs-peers.sh: simdjson (Debian's libsimdjson-dev) parses a
// JSON file into its DOM, as relative-view-bench --import-only loads one into a ViewTree.
// Prints one JSON object: seconds (the load and parse only), values, peak resident bytes,
// and the kernel simdjson chose for this CPU.
#include <simdjson.h>
#include <chrono>
#include <cstdio>
#include <cstring>
#include "peak-resident.h"
#include <vector>

int main(int argc, char **argv) {
    if (argc != 2) { std::fprintf(stderr, "usage: simdjson-load FILE\n"); return 64; }
    auto start = std::chrono::steady_clock::now();
    simdjson::dom::parser parser;
    simdjson::dom::element root;
    auto error = parser.load(argv[1]).get(root);
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (error) { std::fprintf(stderr, "%s: %s\n", argv[1], simdjson::error_message(error)); return 1; }
    long values = 0;
    std::vector<simdjson::dom::element> stack{root};
    while (!stack.empty()) {
        auto e = stack.back();
        stack.pop_back();
        values++;
        if (e.is_array()) for (auto child : simdjson::dom::array(e)) stack.push_back(child);
        else if (e.is_object()) for (auto field : simdjson::dom::object(e)) stack.push_back(field.value);
    }
    std::printf("{\"seconds\": %.6f, \"nodes\": %ld, \"peakResidentBytes\": %ld, \"kernel\": \"%s\"}\n",
                seconds, values, peak_resident_bytes(), simdjson::get_active_implementation()->name().c_str());
}
