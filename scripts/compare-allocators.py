#!/usr/bin/env python3
"""Prints two relative-view-bench JSON reports (system allocator, jemalloc) side by side.

Usage: scripts/compare-allocators.py SYSTEM.json JEMALLOC.json
"""
import json
import sys


def load(path):
    report = json.load(open(path))
    rows = {(r["op"], r["layer"], r["nodes"]): r for r in report["results"]}
    return report, rows


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__.strip())
    (system, srows), (jemalloc, jrows) = load(sys.argv[1]), load(sys.argv[2])
    if (system["allocator"], jemalloc["allocator"]) != ("system", "jemalloc"):
        sys.exit(f"expected a system and a jemalloc report, got {system['allocator']} and {jemalloc['allocator']}")
    tree = system["tree"]
    print(f"relative-view-bench {system['version']}: {tree['source']} tree, {tree['nodes']:,} nodes, seed {tree['seed']}")
    print()
    header = ["op", "layer", "nodes", "system arena ns", "system naive ns", "system speed-up",
              "jemalloc arena ns", "jemalloc naive ns", "jemalloc speed-up", "agree"]
    table = []
    # The system run's order, then anything only the jemalloc run has.
    for key in list(srows) + [k for k in jrows if k not in srows]:
        s, j = srows.get(key), jrows.get(key)
        def cells(r):
            if r is None:
                return ["-", "-", "-"]
            if r["naiveNsPerOp"] is None:
                return [f"{r['arenaNsPerOp']:.1f}", r["status"], "-"]
            bound = ">" if r["status"] == "lowerBound" else ""
            return [f"{r['arenaNsPerOp']:.1f}", f"{bound}{r['naiveNsPerOp']:.1f}", f"{bound}{r['speedup']:.1f}x"]
        agree = all(r is None or r["agree"] is True for r in (s, j))
        table.append([key[0], key[1], f"{key[2]:,}"] + cells(s) + cells(j) + ["yes" if agree else "NO"])
    widths = [max(len(header[c]), *(len(row[c]) for row in table)) for c in range(len(header))]
    def line(cells):
        return "  ".join(cell.ljust(widths[c]) if c < 2 else cell.rjust(widths[c]) for c, cell in enumerate(cells))
    print(line(header))
    print(line(["-" * w for w in widths]))
    for row in table:
        print(line(row))
    print()
    for name, report in (("system", system), ("jemalloc", jemalloc)):
        m = report["memory"]
        print(f"memory per node ({name}): arena core {m['arenaBytesPerNode']:.1f} B, naive core {m['naiveBytesPerNode']:.1f} B")


if __name__ == "__main__":
    main()
