#!/usr/bin/env python3
"""Plots churn's per-step latency before and after the live index.

Usage: plot-churn-latency.py OLD.csv NEW.csv SUMMARY.csv PLOT.png [WINDOW]

OLD.csv and NEW.csv are `relative-view-bench --latency-trace` files (implementation, step,
mutation, queryNs, stepNs; only the `core` lines are used). Writes SUMMARY.csv (per window
of WINDOW steps, default 300, and per index: the median and the largest query latency and
the slowest step) and PLOT.png (those over the steps, log scale). Needs matplotlib
(`python3 -m pip install matplotlib`).
"""

import csv
import statistics
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def read(path):
    """The core's (query ns, step ns) per step, in step order."""
    rows = []
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            if r["implementation"] == "core":
                rows.append((int(r["step"]), int(r["queryNs"]), int(r["stepNs"])))
    rows.sort()
    if not rows or [s for s, _, _ in rows] != list(range(len(rows))):
        sys.exit(f"{path}: no core trace, or steps missing")
    return [(q, s) for _, q, s in rows]


def windows(trace, width):
    """Per window: first step, median query, largest query, slowest step."""
    out = []
    for start in range(0, len(trace), width):
        chunk = trace[start:start + width]
        queries = [q for q, _ in chunk]
        out.append((start, statistics.median(queries), max(queries), max(s for _, s in chunk)))
    return out


def main():
    if len(sys.argv) not in (5, 6):
        sys.exit(__doc__)
    old_path, new_path, summary_path, plot_path = sys.argv[1:5]
    width = int(sys.argv[5]) if len(sys.argv) == 6 else 300
    series = {"old": windows(read(old_path), width), "live": windows(read(new_path), width)}
    with open(summary_path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["index", "firstStep", "steps", "queryP50Ns", "queryMaxNs", "stepMaxNs"])
        for name, rows in series.items():
            for start, p50, qmax, smax in rows:
                w.writerow([name, start, width, round(p50), qmax, smax])
    fig, ax = plt.subplots(figsize=(10, 4.8))
    styles = {"old": ("tab:red", "stale index, rebuilt at debt n (before issue 11)"),
              "live": ("tab:blue", "live index (blocked Euler tour)")}
    for name, rows in series.items():
        color, label = styles[name]
        steps = [r[0] for r in rows]
        ax.plot(steps, [max(r[3], 1) for r in rows], color=color, linewidth=1.0, label=f"{label}: slowest step per {width}")
        ax.plot(steps, [max(r[1], 1) for r in rows], color=color, linewidth=0.8, linestyle="--", label=f"{label}: median query per {width}")
    ax.axhline(1e6, color="gray", linewidth=0.8, linestyle=":")
    ax.text(0, 1.15e6, "1 ms", color="gray", fontsize=8)
    ax.set_yscale("log")
    ax.set_xlabel("churn step")
    ax.set_ylabel("latency (ns, log scale)")
    ax.set_title("churn at 10^6 nodes, core: one UI-like mutation then one timed query per step")
    ax.legend(fontsize=7, loc="upper left")
    fig.tight_layout()
    fig.savefig(plot_path, dpi=110)


if __name__ == "__main__":
    main()
