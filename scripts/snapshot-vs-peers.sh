#!/usr/bin/env bash
# Loads the same tree three ways, side by side, best of RUNS each (default 5): its XML
# document parsed by pugixml (the fastest XML parser we know of) and imported by
# relative-view-bench, and its snapshot loaded by relative-view-bench, mapped and read.
# Beside them, the floor of a snapshot load on this machine (scripts/peers/read-floor.c):
# the snapshot file brought in (mapped, or read into fresh memory) and each byte read once,
# with no check and no tree, which no validated load can beat.
# Writes what it measured as JSON (default docs/data/snapshot-1m.json).
# Usage: scripts/snapshot-vs-peers.sh [OUTPUT.json] [RUNS]
#   Environment: WORK (default .build-peers/), XML_ELEMENTS (1,000,000), SEED (1).
# The snapshot is written by `relative-view-bench --input doc.xml --import-only
# --save-snapshot`, so it holds exactly the tree the XML document imports to. Installs
# Debian's libpugixml-dev (and g++) and builds the pugixml driver of scripts/peers/. Each
# run of each program is its own process, and the runs alternate between programs.
set -euo pipefail
cd "$(dirname "$0")/.."
output=${1:-docs/data/snapshot-1m.json}
runs=${2:-5}
work=${WORK:-.build-peers}
mkdir -p "$work"

# shellcheck source=need-debs.sh
source scripts/need-debs.sh
need_debs libpugixml-dev g++ gcc
echo "== building the pugixml and floor drivers and relative-view-bench (release)" >&2
g++ -O2 -std=c++17 -o "$work/pugixml-load" scripts/peers/pugixml-load.cpp -lpugixml
gcc -O2 -o "$work/read-floor" scripts/peers/read-floor.c
swift build -c release --product relative-view-bench 2>&1 | grep -E "error|warning:" >&2 || true
bench=$(swift build -c release --show-bin-path)/relative-view-bench

echo "== writing the XML document and its snapshot" >&2
python3 scripts/make-documents.py "$work" --xml-elements "${XML_ELEMENTS:-1000000}" --json-values 1 --seed "${SEED:-1}" >&2
"$bench" --input "$work/doc.xml" --import-only --save-snapshot "$work/doc.rvtree" --format json > "$work/snapshot-save.json"
# A snapshot of 10 nodes: its mapped load's peak is the process's own, before any tree.
"$bench" --nodes 10 --ops build --layer core --save-snapshot "$work/tiny.rvtree" --format json > /dev/null

python3 - "$work" "$bench" "$runs" "$output" <<'PY'
import json, os, platform, subprocess, sys, time
sys.path.insert(0, "scripts")
from machine import machine
work, bench, runs, output = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
xml, snapshot, tiny = os.path.join(work, "doc.xml"), os.path.join(work, "doc.rvtree"), os.path.join(work, "tiny.rvtree")
saved = json.load(open(os.path.join(work, "snapshot-save.json")))

def ours(path, *flags):
    out = subprocess.run([bench, "--input", path, "--import-only", "--format", "json", *flags], check=True, capture_output=True, text=True).stdout
    f = json.loads(out)["import"]
    return {"seconds": f["seconds"], "nodes": f["nodes"], "peakResidentBytes": f["peakResidentBytes"], "arenaBytesPerNode": f["arenaBytesPerNode"]}

def pugixml():
    out = subprocess.run([os.path.join(work, "pugixml-load"), xml], check=True, capture_output=True, text=True).stdout
    return json.loads(out)

def floor(mode):
    out = subprocess.run([os.path.join(work, "read-floor"), mode, snapshot], check=True, capture_output=True, text=True).stdout
    return dict(json.loads(out), nodes=saved["import"]["nodes"])

programs = [
    ("pugixml: XML parse", xml, pugixml),
    ("relative-view: XML import", xml, lambda: ours(xml)),
    ("relative-view: snapshot, mapped", snapshot, lambda: ours(snapshot)),
    ("relative-view: snapshot, read", snapshot, lambda: ours(snapshot, "--snapshot-read")),
    ("floor: snapshot bytes, mapped", snapshot, lambda: floor("mapped")),
    ("floor: snapshot bytes, read", snapshot, lambda: floor("read")),
    ("baseline: 10-node snapshot, mapped", tiny, lambda: ours(tiny)),
]
samples = {name: [] for name, _, _ in programs}
for run in range(runs):
    for name, _, call in programs:
        print(f"== run {run + 1}/{runs}: {name}", file=sys.stderr)
        samples[name].append(call())

rows = []
for name, path, _ in programs:
    best = min(samples[name], key=lambda s: s["seconds"])
    size = os.path.getsize(path)
    rows.append({"program": name, "file": os.path.basename(path), "bytes": size, "nodes": best["nodes"], "seconds": best["seconds"],
                 "megabytesPerSecond": size / 1e6 / best["seconds"], "nodesPerSecond": best["nodes"] / best["seconds"],
                 "peakResidentBytes": best["peakResidentBytes"], "secondsOfEachRun": [s["seconds"] for s in samples[name]]})
seconds = {r["program"]: r["seconds"] for r in rows}
peaks = {r["program"]: r["peakResidentBytes"] for r in rows}
baseline = peaks["baseline: 10-node snapshot, mapped"]
peer = seconds["pugixml: XML parse"]
report = {
    "tool": "scripts/snapshot-vs-peers.sh", "date": time.strftime("%Y-%m-%d"), "runs": runs, "best": "fastest of the runs",
    "machine": machine(),
    "tree": {"source": "scripts/make-documents.py", "seed": int(os.environ.get("SEED", "1")), "nodes": saved["import"]["nodes"]},
    "snapshot": {"bytes": saved["snapshot"]["bytes"], "bytesPerNode": saved["snapshot"]["bytesPerNode"], "writeSeconds": saved["snapshot"]["seconds"]},
    "results": rows,
    "speedupOverPugixml": {"snapshotMapped": peer / seconds["relative-view: snapshot, mapped"],
                           "snapshotRead": peer / seconds["relative-view: snapshot, read"],
                           "xmlImport": peer / seconds["relative-view: XML import"],
                           "floorMapped": peer / seconds["floor: snapshot bytes, mapped"],
                           "floorRead": peer / seconds["floor: snapshot bytes, read"]},
    # A mapped load's peak above the process's own (the 10-node load's), against the file.
    "mappedPeakAboveBaselineOverFile": (peaks["relative-view: snapshot, mapped"] - baseline) / os.path.getsize(snapshot),
}
os.makedirs(os.path.dirname(output) or ".", exist_ok=True)
with open(output, "w") as f:
    json.dump(report, f, indent=2, sort_keys=True)
    f.write("\n")
print(f"{'program':34} {'MB':>8} {'nodes':>11} {'ms':>9} {'MB/s':>8} {'M nodes/s':>10} {'peak RSS MB':>12}")
for r in rows:
    print(f"{r['program']:34} {r['bytes'] / 1e6:8.1f} {r['nodes']:11,} {r['seconds'] * 1e3:9.2f} {r['megabytesPerSecond']:8.1f} {r['nodesPerSecond'] / 1e6:10.2f} {r['peakResidentBytes'] / 1e6:12.1f}")
s = report["speedupOverPugixml"]
print(f"snapshot: {report['snapshot']['bytesPerNode']:.1f} B/node; load vs pugixml's parse: mapped {s['snapshotMapped']:.1f}x, read {s['snapshotRead']:.1f}x (XML import {s['xmlImport']:.2f}x)")
print(f"floor (the file's bytes brought in and read once, nothing else) vs pugixml's parse: mapped {s['floorMapped']:.1f}x, read {s['floorRead']:.1f}x")
print(f"mapped load's peak above the process's own: {report['mappedPeakAboveBaselineOverFile']:.3f} of the file's size")
print(f"written to {output}")
PY
