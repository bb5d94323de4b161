#!/usr/bin/env python3
"""Checks that every public symbol of the library modules has a doc comment with a
`- Complexity:` line (types and enum cases need only a doc comment).

Reads the symbol graphs written by `swift package dump-symbol-graph`; prints the symbols
that fall short and exits 1 if there are any.
Usage: scripts/check-doc-comments.py [SYMBOLGRAPH_DIR]
"""
import glob
import json
import os
import sys

MODULES = ["RelativeViewCore", "RelativeView", "RelativeLayout", "RelativeViewNaive", "RelativeViewImport", "RelativeViewFixtures", "RelativeViewQuery"]
# Kinds that are declarations of types or cases: a doc comment is enough.
TYPE_KINDS = {"swift.struct", "swift.class", "swift.enum", "swift.protocol", "swift.typealias", "swift.enum.case", "swift.extension"}

root = sys.argv[1] if len(sys.argv) > 1 else glob.glob(".build/*/symbolgraph")[0]
missing = []
count = 0
for module in MODULES:
    path = os.path.join(root, f"{module}.symbols.json")
    graph = json.load(open(path))
    for symbol in graph["symbols"]:
        if symbol.get("accessLevel") not in ("public", "open"):
            continue
        name = ".".join(symbol["pathComponents"])
        # Underscored names are implementation details that must be public for @inlinable code.
        if any(part.startswith("_") for part in symbol["pathComponents"]):
            continue
        # Members synthesized or inherited from protocols (==, hash(into:), description of
        # Equatable/Hashable/... conformances declared elsewhere) carry no location in this module.
        if "location" not in symbol:
            continue
        count += 1
        doc = "\n".join(line["text"] for line in symbol.get("docComment", {}).get("lines", []))
        kind = symbol["kind"]["identifier"]
        if not doc.strip():
            missing.append(f"{module}: {name} ({kind}): no doc comment")
        elif kind not in TYPE_KINDS and "- Complexity:" not in doc:
            missing.append(f"{module}: {name} ({kind}): no '- Complexity:' line")
for line in missing:
    print(line)
print(f"{count} public symbols checked, {len(missing)} without the required documentation")
sys.exit(1 if missing else 0)
