#!/usr/bin/python3
"""Peer driver for scripts/query-vs-peers.sh: lxml (Debian's python3-lxml, libxml2 underneath)
parses an XML file, then answers each XPath expression of a file (one a line) with a compiled
etree.XPath on the parsed document, as `relative-view query --repeat` answers on its loaded
tree (a CSS selector arrives translated by cssselect, as lxml.cssselect does). Each expression
is evaluated until it has run REPEAT times or for about a second (at least once); the parse
and the compile are not timed. Prints {"loaded": ELEMENTS} once the document is loaded, then
one JSON object a line per expression: best and median
nanoseconds, the number of nodes, and the file OUTDIR/N.txt where it wrote each selected
element's number in document order among all the elements (the root element is 0).

Usage: /usr/bin/python3 scripts/peers/lxml-query.py FILE QUERIES OUTDIR [REPEAT]
"""
import json
import os
import sys
import time

from lxml import etree

path, queries, outdir = sys.argv[1], sys.argv[2], sys.argv[3]
repeat = int(sys.argv[4]) if len(sys.argv) > 4 else 5
tree = etree.parse(path, etree.XMLParser(huge_tree=True))
# Each element's number in document order; the dict keeps every element's proxy alive, so
# the proxies a query returns are the same objects.
preorder = {element: n for n, element in enumerate(tree.getroot().iter(etree.Element))}
print(json.dumps({"loaded": len(preorder)}), flush=True)
with open(queries, encoding="utf-8") as f:
    lines = f.read().split("\n")
for n, line in enumerate(lines):
    if not line:
        continue
    try:
        query = etree.XPath(line)
    except etree.XPathError as error:
        print(json.dumps({"query": n, "error": str(error)}), flush=True)
        continue
    times, total = [], 0.0
    while len(times) < repeat and (not times or total < 1.0):
        start = time.perf_counter_ns()
        nodes = query(tree)
        elapsed = time.perf_counter_ns() - start
        times.append(elapsed)
        total += elapsed / 1e9
    times.sort()
    numbers = sorted(preorder.get(node, -1) if isinstance(node, etree._Element) else -1 for node in nodes)
    out = os.path.join(outdir, "%d.txt" % n)
    with open(out, "w") as f:
        f.write("".join("%d\n" % number for number in numbers))
    print(json.dumps({"query": n, "best_ns": times[0], "median_ns": times[len(times) // 2], "runs": len(times),
                      "matches": len(nodes), "file": out}), flush=True)
