#!/usr/bin/python3
"""Plots the JSONPath section of what scripts/query-vs-peers.sh measured.

Usage: /usr/bin/python3 scripts/plot-jsonpath-vs-peers.py [REPORT.json] [PLOT.png]
  (default docs/data/query-vs-peers.json and docs/plots/jsonpath-vs-peers.png)

Left (warm): each query's time by python-jsonpath on its loaded document over ours on our
loaded tree. Right (cold): jq's whole process (the JSON loaded, the query answered) over
ours (a snapshot mapped and checked, the query answered). Log scales; above 1, ours is
faster; the dashed line is the issue's target (50x). Needs matplotlib (Debian's
python3-matplotlib).
"""
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

report = json.load(open(sys.argv[1] if len(sys.argv) > 1 else "docs/data/query-vs-peers.json"))["jsonpath"]
output = sys.argv[2] if len(sys.argv) > 2 else "docs/plots/jsonpath-vs-peers.png"
queries = report["queries"]
labels = [q["query"] for q in queries]

fig, (warm, cold) = plt.subplots(1, 2, figsize=(15, 9), sharey=True)
ys = range(len(queries))
ratios = [q.get("warmRatio", q.get("warmRatioAtLeast")) for q in queries]
bars = warm.barh(ys, ratios, color="tab:green",
                 label="python-jsonpath / ours (geometric mean %.0fx)" % report["warm"]["geometricMeanRatio"])
for bar, q in zip(bars, queries):
    if "warmRatio" not in q:
        bar.set_hatch("//")
cold.barh(ys, [q["coldRatio"] for q in queries], color="tab:purple",
          label="jq's process / ours (geometric mean %.1fx)" % report["cold"]["geometricMeanRatio"])
for ax, title in ((warm, "warm: on the loaded document"), (cold, "cold: load (or map) and answer, whole process")):
    ax.set_xscale("log")
    ax.axvline(1, color="black", linewidth=0.8)
    ax.axvline(50, color="black", linewidth=0.8, linestyle="--")
    ax.set_title(title)
    ax.set_xlabel("their time / ours (log)")
    ax.legend(loc="lower right", fontsize=8)
warm.set_yticks(list(ys))
warm.set_yticklabels(labels, fontsize=7)
warm.invert_yaxis()
fig.suptitle("JSONPath on a %.0f MB JSON document (%s)" % (report["document"]["bytes"] / 1e6, report["machine"]["cpu"]))
fig.tight_layout()
fig.savefig(output, dpi=90)
print("wrote %s" % output)
