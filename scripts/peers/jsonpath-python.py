#!/usr/bin/python3
"""Peer driver for scripts/query-vs-peers.sh: python-jsonpath (from PyPI; its RFC 9535 mode,
JSONPathEnvironment(strict=True)) answers each JSONPath query of a file (one a line) on a
JSON document it has loaded with Python's json module, as `relative-view query --repeat`
answers on its loaded tree. Each query is compiled once (not timed) and evaluated with
findall until it has run REPEAT times or for about a second (at least once). Prints
{"loaded": SECONDS} once the document is loaded, then one JSON object a line per query: best
and median nanoseconds, the number of nodes, and the file OUTDIR/N.json where it wrote the
nodelist's values as one JSON array.

Usage: /usr/bin/python3 scripts/peers/jsonpath-python.py FILE QUERIES OUTDIR [REPEAT]
"""
import json
import os
import sys
import time

import jsonpath

path, queries, outdir = sys.argv[1], sys.argv[2], sys.argv[3]
repeat = int(sys.argv[4]) if len(sys.argv) > 4 else 5
start = time.perf_counter()
with open(path, encoding="utf-8") as f:
    document = json.load(f)
print(json.dumps({"loaded": time.perf_counter() - start}), flush=True)
environment = jsonpath.JSONPathEnvironment(strict=True)
with open(queries, encoding="utf-8") as f:
    lines = f.read().split("\n")
for n, line in enumerate(lines):
    if not line:
        continue
    try:
        query = environment.compile(line)
    except Exception as error:  # the library's own error types
        print(json.dumps({"query": n, "error": str(error)}), flush=True)
        continue
    times, total = [], 0.0
    while len(times) < repeat and (not times or total < 1.0):
        start = time.perf_counter_ns()
        values = query.findall(document)
        elapsed = time.perf_counter_ns() - start
        times.append(elapsed)
        total += elapsed / 1e9
    times.sort()
    out = os.path.join(outdir, "%d.json" % n)
    with open(out, "w", encoding="utf-8") as f:
        json.dump(values, f, ensure_ascii=False)
    print(json.dumps({"query": n, "best_ns": times[0], "median_ns": times[len(times) // 2], "runs": len(times),
                      "matches": len(values), "file": out}), flush=True)
