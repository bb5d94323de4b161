#!/usr/bin/env python3
"""Plots the step latency of `relative-view-bench --unprepared-churn` over the run.

Usage: plot-unprepared-churn.py TRACE.csv PLOT.png [WINDOW]

TRACE.csv is the `--latency-trace` file of an unprepared churn (implementation, run, step,
mutation, subtree, queryNs, stepNs, mutationCPUNs). Per window of WINDOW steps (default
1,000) and per run: the slowest step and the median step, log scale, with the 1 ms target;
the slowest step of the whole trace is marked with its kind and subtree size. Needs
matplotlib (`python3 -m pip install matplotlib`).
"""

import csv
import statistics
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def read(path):
    """Per run: a list of (step, kind, subtree, step ns) in step order."""
    runs = {}
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            runs.setdefault(int(r["run"]), []).append(
                (int(r["step"]), r["mutation"], int(r["subtree"]), int(r["stepNs"])))
    if not runs:
        sys.exit(f"{path}: no steps")
    for steps in runs.values():
        steps.sort()
    return runs


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    trace_path, plot_path = sys.argv[1:3]
    width = int(sys.argv[3]) if len(sys.argv) == 4 else 1000
    runs = read(trace_path)
    fig, ax = plt.subplots(figsize=(10, 5))
    worst = None
    for run, steps in sorted(runs.items()):
        xs, slowest, median = [], [], []
        for start in range(0, len(steps), width):
            chunk = [ns for _, _, _, ns in steps[start:start + width]]
            xs.append(start)
            slowest.append(max(chunk) / 1e3)
            median.append(statistics.median(chunk) / 1e3)
        ax.plot(xs, slowest, linewidth=0.8, label=f"run {run + 1}: slowest step per {width:,}")
        ax.plot(xs, median, linewidth=0.8, linestyle=":", label=f"run {run + 1}: median step")
        top = max(steps, key=lambda s: s[3])
        if worst is None or top[3] > worst[1][3]:
            worst = (run, top)
    ax.axhline(1000, color="red", linewidth=1, label="1 ms")
    run, (step, kind, subtree, ns) = worst
    ax.annotate(f"{kind} of {subtree:,} nodes: {ns / 1e3:.0f} µs (run {run + 1})",
                xy=(step, ns / 1e3), xytext=(0.35, 0.9), textcoords="axes fraction",
                arrowprops={"arrowstyle": "->"})
    ax.set_yscale("log")
    ax.set_xlabel("step")
    ax.set_ylabel("step latency (µs, mutation and query)")
    ax.set_title("Unprepared churn at 10^6 nodes: step latency over the run")
    ax.legend(fontsize=7, loc="lower right")
    fig.tight_layout()
    fig.savefig(plot_path, dpi=110)


if __name__ == "__main__":
    main()
