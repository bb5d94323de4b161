// Peer driver for scripts/import-vs-peers.sh: pugixml (Debian's libpugixml-dev) loads an
// XML file into its DOM, as relative-view-bench --import-only loads one into a ViewTree.
// Prints one JSON object: seconds (the load only), elements, peak resident bytes; given a
// second path, also saves the document there (save_file, format_raw: no indentation added,
// as relative-view-bench --export-to writes) and adds saveSeconds and savedBytes.
#include <pugixml.hpp>
#include <chrono>
#include <cstdio>
#include <cstring>
#include "peak-resident.h"

int main(int argc, char **argv) {
    if (argc != 2 && argc != 3) { std::fprintf(stderr, "usage: pugixml-load FILE [SAVE-TO]\n"); return 64; }
    auto start = std::chrono::steady_clock::now();
    pugi::xml_document doc;
    pugi::xml_parse_result result = doc.load_file(argv[1]);
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (!result) { std::fprintf(stderr, "%s: %s at offset %td\n", argv[1], result.description(), result.offset); return 1; }
    struct Counter : pugi::xml_tree_walker {
        long elements = 0;
        bool for_each(pugi::xml_node &node) override { if (node.type() == pugi::node_element) elements++; return true; }
    } counter;
    doc.traverse(counter);
    if (argc == 3) {
        auto saveStart = std::chrono::steady_clock::now();
        if (!doc.save_file(argv[2], "", pugi::format_raw)) { std::fprintf(stderr, "%s: cannot save\n", argv[2]); return 1; }
        double saveSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - saveStart).count();
        FILE *f = std::fopen(argv[2], "rb");
        std::fseek(f, 0, SEEK_END);
        long savedBytes = std::ftell(f);
        std::fclose(f);
        std::printf("{\"seconds\": %.6f, \"nodes\": %ld, \"peakResidentBytes\": %ld, \"saveSeconds\": %.6f, \"savedBytes\": %ld}\n",
                    seconds, counter.elements, peak_resident_bytes(), saveSeconds, savedBytes);
        return 0;
    }
    std::printf("{\"seconds\": %.6f, \"nodes\": %ld, \"peakResidentBytes\": %ld}\n", seconds, counter.elements, peak_resident_bytes());
}
