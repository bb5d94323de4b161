#!/usr/bin/env python3
"""Turns relative-view-bench scaling runs (JSON, one per shape) into docs/benchmarks.md and
log-log plots of ns/op against nodes, arena (core, facade) against the naive core.

Usage: scripts/bench-report.py OUT_DIR MACHINE_FILE RUN.json [RUN.json ...]
Writes OUT_DIR/benchmarks.md and OUT_DIR/plots/SHAPE.png.
"""
import csv
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

def ops_of(rows):
    """The operations in the order the CLI runs them (the order of its rows): the CLI's op
    table decides, so a new operation needs no change here."""
    ops = []
    for r in rows:
        if r["op"] not in ops:
            ops.append(r["op"])
    return ops


def fmt_ns(x):
    if x >= 1e9:
        return f"{x / 1e9:.2f} s"
    if x >= 1e6:
        return f"{x / 1e6:.2f} ms"
    if x >= 1e3:
        return f"{x / 1e3:.2f} µs"
    return f"{x:.1f} ns"


def fmt_bytes(x):
    return "not measured" if x is None else f"{x:.1f} B"


def unchecked(row):
    # The report marks a naive figure stopped by its time budget as a lower bound ("status").
    return row.get("status") == "lowerBound"


def naive_cell(row, bound):
    if row["naiveNsPerOp"] is None:
        return {"naiveFailed": "failed", "naiveNotBuilt": "not built"}.get(row.get("status"), "-"), "-"
    if row["speedup"] is None:
        # Both measured and agreed, but the query found nothing (status noMatch): no speed-up.
        return fmt_ns(row["naiveNsPerOp"]), "no match" if row.get("status") == "noMatch" else "-"
    return f"{bound}{fmt_ns(row['naiveNsPerOp'])}", f"{bound}{row['speedup']:,.1f}x"


def plot(shape, rows, path):
    ops = ops_of(rows)
    columns = 4
    lines = (len(ops) + columns - 1) // columns
    fig, axes = plt.subplots(lines, columns, figsize=(16, 11 * lines / 3))
    for ax, op in zip(axes.flat, ops):
        mine = [r for r in rows if r["op"] == op]
        for layer, style in (("core", "o-"), ("facade", "s--")):
            points = sorted((r["nodes"], r["arenaNsPerOp"]) for r in mine if r["layer"] == layer)
            if points:
                ax.plot(*zip(*points), style, label=f"arena ({layer})")
        # The naive core is measured once per size and compared with each layer.
        naive = sorted({r["nodes"]: (r["naiveNsPerOp"], unchecked(r)) for r in mine if r["naiveNsPerOp"] is not None}.items())
        if naive:
            ax.plot([n for n, _ in naive], [v for _, (v, _) in naive], "^:", color="tab:red", label="naive core")
            bounds = [(n, v) for n, (v, bound) in naive if bound]
            if bounds:
                ax.plot(*zip(*bounds), "^", color="white", markeredgecolor="tab:red", label="naive (lower bound)")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_title(op, fontsize=10)
        ax.set_xlabel("nodes")
        ax.set_ylabel("ns per op")
        ax.grid(True, which="major", alpha=0.3)
    axes.flat[0].legend(fontsize=8)
    for ax in list(axes.flat)[len(ops):]:
        ax.axis("off")
    fig.suptitle(f"relative-view-bench, {shape} trees: ns/op against nodes (log-log), arena vs naive core")
    fig.tight_layout()
    fig.savefig(path, dpi=80)
    plt.close(fig)


def churn_section(out):
    """The churn latency plot and its figures, from OUT_DIR/data/churn-latency-1m.csv (made by
    scripts/plot-churn-latency.py), if it is there."""
    path = os.path.join(out, "data", "churn-latency-1m.csv")
    if not os.path.exists(path):
        return []
    rows = list(csv.DictReader(open(path)))
    lines = [
        "## Churn latency: the old index's pauses beside the live index",
        "",
        "Not part of the scaling runs above (which are older than the live index, issue 11):",
        "300,000 steps of `churn` on the default random tree of 10^6 nodes (seed 1), core only,",
        "each step one UI-like mutation (append 30%, insert 20%, remove a leaf 25%, move a small",
        "subtree 15%, exchange two siblings 10%) then one timed query. The old index is commit",
        "37bd0c1 (stale after a mutation, queries walk links, rebuilt once the debt reaches n)",
        "with [a patch](data/churn-trace-before-live-index.patch) that writes the same trace;",
        "the live index is `relative-view-bench --ops churn --layer core --queries 300000",
        "--latency-trace FILE` (its naive replay left out, for time). The plot shows, per window",
        "of 300 steps, the slowest step and the median query; the figures per window are in",
        "[data/churn-latency-1m.csv](data/churn-latency-1m.csv) (`scripts/plot-churn-latency.py`",
        "makes both from the two traces).",
        "",
        "![churn latency](plots/churn-latency.png)",
        "",
        "| index | windows | median of the window medians (query) | slowest step | windows with a step over 1 ms |",
        "| --- | ---: | ---: | ---: | ---: |",
    ]
    for name in ("old", "live"):
        mine = [r for r in rows if r["index"] == name]
        if not mine:
            continue
        medians = sorted(float(r["queryP50Ns"]) for r in mine)
        worst = max(int(r["stepMaxNs"]) for r in mine)
        over = sum(1 for r in mine if int(r["stepMaxNs"]) > 1_000_000)
        lines.append(f"| {name} | {len(mine):,} | {fmt_ns(medians[len(medians) // 2])} | {fmt_ns(worst)} | {over} |")
    lines.append("")
    return lines


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__.strip())
    out, machine_file, runs = sys.argv[1], sys.argv[2], sys.argv[3:]
    os.makedirs(os.path.join(out, "plots"), exist_ok=True)
    machine = open(machine_file).read().strip()
    lines = [
        "# Benchmarks",
        "",
        "Generated by `scripts/bench-report.sh` from one run of `relative-view-bench` per tree",
        "shape (release build, `--format json`); every figure below is from that run.",
        "",
        machine,
        "",
        "Each row is one operation on one tree size: nanoseconds per operation for the arena",
        "(`core`: `ViewTree`/`NodeID`; `facade`: `View`) and for the naive core (the original's",
        "algorithms), measured in one process on the same questions, and the speed-up",
        "(naive / arena). `agree` says whether both gave the same answers. `>` marks a naive",
        "whole-tree grouping stopped at its time budget (`NAIVE_BUDGET`): its time is a lower",
        "bound, and the arena's answer was checked against a linear-time walk of the naive tree.",
        "For `build` the figure is per node. The chain and the wide tree stop at 10^5 nodes:",
        "the naive core builds a chain in O(n²) (its `addSubview` walks the superview chain, as",
        "the original's cycle check does), and on the wide tree it groups the root's 10^6",
        "children (siblings and children by types and by closure) copying a group of 10^5 views",
        "on every append; either would take hours at 10^6. `churn` runs on the random and",
        "balanced trees only: on the wide tree and the chain, each of the naive core's steps",
        "moves a node within a list of 10^5 siblings or walks a chain of 10^5 superviews.",
        "",
    ]
    for path in runs:
        report = json.load(open(path))
        rows = report["results"]
        shape = report["tree"]["source"]
        sizes = sorted({r["nodes"] for r in rows})
        plot_path = os.path.join(out, "plots", f"{shape}.png")
        plot(shape, rows, plot_path)
        lines += [
            f"## {shape} trees",
            "",
            f"Sizes {', '.join(f'{n:,}' for n in sizes)}; seed {report['tree']['seed']}; allocator "
            f"{report['allocator']}; memory per node at {report['tree']['nodes']:,} nodes: arena core "
            f"{fmt_bytes(report['memory']['arenaBytesPerNode'])}, naive core {fmt_bytes(report['memory']['naiveBytesPerNode'])}.",
            "",
            f"![{shape}](plots/{shape}.png)",
            "",
            "| op | layer | nodes | queries | arena ns/op | naive ns/op | speed-up | agree |",
            "| --- | --- | ---: | ---: | ---: | ---: | ---: | --- |",
        ]
        ops = ops_of(rows)
        for r in sorted(rows, key=lambda r: (ops.index(r["op"]), r["layer"], r["nodes"])):
            bound = "> " if unchecked(r) else ""
            agree = {True: "yes", False: "NO", None: "unchecked"}[r["agree"]]
            naive, speedup = naive_cell(r, bound)
            lines.append(
                f"| {r['op']} | {r['layer']} | {r['nodes']:,} | {r['queries']:,} | {fmt_ns(r['arenaNsPerOp'])} | "
                f"{naive} | {speedup} | {agree} |")
        lines.append("")
    lines += churn_section(out)
    with open(os.path.join(out, "benchmarks.md"), "w") as f:
        f.write("\n".join(lines))
    print(f"wrote {os.path.join(out, 'benchmarks.md')} and {len(runs)} plot(s) in {os.path.join(out, 'plots')}")


if __name__ == "__main__":
    main()
