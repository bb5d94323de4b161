// Peer driver for scripts/query-vs-peers.sh: pugixml (Debian's libpugixml-dev) loads an XML
// file, then answers each XPath expression of a file (one a line) with
// xpath_query::evaluate_node_set on the loaded document, as `relative-view query --repeat`
// answers on its loaded tree. Each expression is compiled once and evaluated until it has
// run REPEAT times or for about a second (at least once); the load and the compile are not
// timed with it. Prints {"loaded": ELEMENTS, "seconds": LOAD_FILE_SECONDS} once loaded,
// then one JSON object a line per expression: best and median nanoseconds, the number of
// nodes, and the file OUTDIR/N.txt where it wrote each selected element's number in
// document order among all the elements (the root element is 0), one a line.
// With OUTDIR "-" it numbers no element and writes no file (a cold process: the load, the
// query and its count; "loaded" is then -1).
// Usage: pugixml-query FILE QUERIES OUTDIR [REPEAT]
#include <pugixml.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>
#include <unordered_map>
#include <vector>

int main(int argc, char **argv) {
    if (argc != 4 && argc != 5) { std::fprintf(stderr, "usage: pugixml-query FILE QUERIES OUTDIR [REPEAT]\n"); return 64; }
    int repeat = argc == 5 ? std::atoi(argv[4]) : 5;
    pugi::xml_document doc;
    auto loadStart = std::chrono::steady_clock::now();
    pugi::xml_parse_result result = doc.load_file(argv[1]);
    double loadSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - loadStart).count();
    if (!result) { std::fprintf(stderr, "%s: %s at offset %td\n", argv[1], result.description(), result.offset); return 1; }
    // Each element's number in document order, to name what a query selected.
    std::unordered_map<pugi::xml_node_struct *, long> preorder;
    struct Numbering : pugi::xml_tree_walker {
        std::unordered_map<pugi::xml_node_struct *, long> *numbers;
        long next = 0;
        bool for_each(pugi::xml_node &node) override {
            if (node.type() == pugi::node_element) (*numbers)[node.internal_object()] = next++;
            return true;
        }
    } numbering;
    numbering.numbers = &preorder;
    const bool answers = std::string(argv[3]) != "-";
    if (answers) doc.traverse(numbering);
    std::printf("{\"loaded\": %ld, \"seconds\": %.6f}\n", answers ? numbering.next : -1L, loadSeconds);
    std::fflush(stdout);
    std::ifstream queries(argv[2]);
    std::string line;
    for (int n = 0; std::getline(queries, line); n++) {
        pugi::xpath_query query(line.c_str());
        if (!query) {
            std::printf("{\"query\": %d, \"error\": \"%s at %td\"}\n", n, query.result().description(), query.result().offset);
            std::fflush(stdout);
            continue;
        }
        std::vector<double> times;
        pugi::xpath_node_set nodes;
        double total = 0;
        while ((int)times.size() < repeat && (times.empty() || total < 1.0)) {
            auto start = std::chrono::steady_clock::now();
            nodes = query.evaluate_node_set(doc);
            double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            times.push_back(seconds);
            total += seconds;
        }
        std::sort(times.begin(), times.end());
        if (!answers) {
            std::printf("{\"query\": %d, \"best_ns\": %.0f, \"median_ns\": %.0f, \"runs\": %zu, \"matches\": %zu}\n", n,
                        times.front() * 1e9, times[times.size() / 2] * 1e9, times.size(), nodes.size());
            std::fflush(stdout);
            continue;
        }
        std::vector<long> numbers;
        for (const pugi::xpath_node &node : nodes) {
            auto found = preorder.find(node.node().internal_object());
            numbers.push_back(node.attribute() || found == preorder.end() ? -1 : found->second);
        }
        std::sort(numbers.begin(), numbers.end());
        std::string path = std::string(argv[3]) + "/" + std::to_string(n) + ".txt";
        FILE *out = std::fopen(path.c_str(), "w");
        for (long number : numbers) std::fprintf(out, "%ld\n", number);
        std::fclose(out);
        std::printf("{\"query\": %d, \"best_ns\": %.0f, \"median_ns\": %.0f, \"runs\": %zu, \"matches\": %zu, \"file\": \"%s\"}\n", n,
                    times.front() * 1e9, times[times.size() / 2] * 1e9, times.size(), nodes.size(), path.c_str());
        std::fflush(stdout);
    }
}
