#!/usr/bin/python3
"""Plots what scripts/query-vs-peers.sh measured.

Usage: /usr/bin/python3 scripts/plot-query-vs-peers.py [REPORT.json] [PLOT.png]
  (default docs/data/query-vs-peers.json and docs/plots/query-vs-peers.png)

Left: each query's time by each peer over ours (log scale; above 1, ours is faster; a peer
that did not finish in its time limit is drawn at that limit, hatched). Right: `div div ...
div span` with k descendant steps, each program's time against k (log scale). Needs
matplotlib (Debian's python3-matplotlib).
"""
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

report = json.load(open(sys.argv[1] if len(sys.argv) > 1 else "docs/data/query-vs-peers.json"))
output = sys.argv[2] if len(sys.argv) > 2 else "docs/plots/query-vs-peers.png"
peers = [name for name in ("pugixml", "lxml")]
colors = {"pugixml": "tab:orange", "lxml": "tab:green", "relative-view": "tab:blue"}

fig, (left, right) = plt.subplots(1, 2, figsize=(15, 12), gridspec_kw={"width_ratios": [2, 1]})
queries = report["queries"]
height = 0.4
for p, name in enumerate(peers):
    ys, xs, hatched = [], [], []
    for i, q in enumerate(queries):
        ratio = q.get(name + "Ratio", q.get(name + "RatioAtLeast"))
        ys.append(i + (p - 0.5) * height)
        xs.append(ratio)
        hatched.append(name + "Ratio" not in q)
    bars = left.barh(ys, xs, height=height, color=colors[name], label="%s time / ours (geometric mean %.1fx)" % (
        name, report["summary"][name]["geometricMeanRatio"]))
    for bar, h in zip(bars, hatched):
        if h:
            bar.set_hatch("//")
left.axvline(1, color="black", linewidth=0.8)
left.set_xscale("log")
left.set_yticks(range(len(queries)))
left.set_yticklabels(["%s %s" % ("css" if q["kind"] == "css" else "xp", q["query"][:48]) for q in queries], fontsize=7)
left.invert_yaxis()
left.set_xlabel("peer's time / relative-view's time (log; right of 1: relative-view is faster)")
left.set_title("%d queries on an XMark-shaped document (%.0f MB), best of %d runs" % (
    len(queries), report["documents"]["xmark"]["bytes"] / 1e6, report["runs"]))
left.legend(loc="lower right", fontsize=8)

chain = report["descendantChain"]
ks = [q["query"].count("div") for q in chain]
for name in ["relative-view"] + peers:
    points = [(k, q["programs"][name]["bestNanoseconds"] / 1e6) for k, q in zip(ks, chain) if "bestNanoseconds" in q["programs"][name]]
    if points:
        right.plot([k for k, _ in points], [t for _, t in points], marker="o", color=colors[name], label=name)
    late = [k for k, q in zip(ks, chain) if "bestNanoseconds" not in q["programs"][name]]
    if late:
        limit = report["chainTimeoutSeconds"] * 1e3
        right.plot(late, [limit] * len(late), linestyle="none", marker="x", color=colors[name],
                   label="%s: more than %d s" % (name, report["chainTimeoutSeconds"]))
right.set_yscale("log")
right.set_xlabel("k (descendant steps: div div ... div span)")
right.set_ylabel("milliseconds (log)")
right.set_title("towers of div %d deep" % report["documents"]["nested"]["depth"])
right.legend(fontsize=8)
fig.tight_layout()
fig.savefig(output, dpi=90)
print("wrote %s" % output)
