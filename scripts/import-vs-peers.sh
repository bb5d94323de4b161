#!/usr/bin/env bash
# Imports the same seeded XML and JSON documents with `relative-view info --json` (ours: the
# tool's process imports no Foundation, so it starts about as small as the peers' drivers)
# and with the best parsers of each format, side by side, best of RUNS each (default 3), and
# writes what it measured as JSON (default docs/data/import-vs-peers.json).
# Usage: scripts/import-vs-peers.sh [OUTPUT.json] [RUNS]
#   Environment: WORK (default .build-peers/): documents and the peers' drivers;
#   XML_ELEMENTS (1,000,000), JSON_VALUES (23,300,000), SEED (1);
#   SHAPE_BYTES (40,000,000; 0 for none): the size of each document of another shape
#   (make-documents.py --shape-bytes: mixed content, attribute-heavy and namespaced XML;
#   pretty-printed, float, string-heavy and deep JSON), each imported whole by ours and by
#   the format's peer, best of RUNS, with its ratio ("shapes" in the JSON).
# Installs Debian's libpugixml-dev and libsimdjson-dev (and g++), builds the two drivers in
# scripts/peers/ against them, builds relative-view-bench in release. Each run of each
# program is its own process; the runs alternate between programs, so that a busy moment
# of this shared machine falls on all of them. Also reports, for our side only, the XML
# document read as HTML (libxml2's lenient parser) and /usr as a directory tree against
# `find /usr | wc -l`, and ours again on one CPU (`taskset -c 0`, "oneCPURatio" in "shapes").
# Besides each program's own time for the load (wall clock), it records
# the CPU time of each program's whole process (all threads: our builder maps the arena's
# pages on a second thread). Ours imports each document twice: keeping the whole content
# (text, comments, every attribute, JSON values: "relative-view", what the peers keep) and
# its skeleton ("relative-view (skeleton)": names, id, class, tag, member names). The whole
# XML import is also written back out (--export-to), against pugixml's save_file.
set -euo pipefail
cd "$(dirname "$0")/.."
output=${1:-docs/data/import-vs-peers.json}
runs=${2:-3}
work=${WORK:-.build-peers}
mkdir -p "$work"

# shellcheck source=need-debs.sh
source scripts/need-debs.sh
need_debs libpugixml-dev libsimdjson-dev g++

echo "== building the peers' drivers" >&2
g++ -O2 -std=c++17 -o "$work/pugixml-load" scripts/peers/pugixml-load.cpp -lpugixml
g++ -O2 -std=c++17 -o "$work/simdjson-load" scripts/peers/simdjson-load.cpp -lsimdjson
echo "== building relative-view-bench and relative-view (release)" >&2
swift build -c release --product relative-view-bench 2>&1 | grep -E "error|warning:" >&2 || true
swift build -c release --product relative-view 2>&1 | grep -E "error|warning:" >&2 || true
bench=$(swift build -c release --show-bin-path)/relative-view-bench
tool=$(swift build -c release --show-bin-path)/relative-view

echo "== writing the documents" >&2
python3 scripts/make-documents.py "$work" --xml-elements "${XML_ELEMENTS:-1000000}" \
    --json-values "${JSON_VALUES:-23300000}" --seed "${SEED:-1}" --shape-bytes "${SHAPE_BYTES:-40000000}" >&2

python3 - "$work" "$bench" "$runs" "$output" "${SHAPE_BYTES:-40000000}" "$tool" <<'PY'
import json, os, platform, resource, subprocess, sys, time
sys.path.insert(0, "scripts")
from machine import machine, line as machine_line
work, bench, runs, output, shape_bytes, tool = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], int(sys.argv[5]), sys.argv[6]
xml, js = os.path.join(work, "doc.xml"), os.path.join(work, "doc.json")
shapes = [name for name in ("shape-mixed.xml", "shape-attributes.xml", "shape-namespaces.xml", "shape-pretty.json",
                            "shape-floats.json", "shape-strings.json", "shape-deep.json") if shape_bytes > 0]

def timed(cmd):
    """Runs cmd; its output, and the CPU time (user + system, every thread) of its whole process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return out, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)

def ours(path, fmt=None, content="whole", export=None, one_cpu=False):
    """A document's import by `relative-view info --json` (a process with no Foundation,
    as lean as the peers' drivers; its peak is the import's, not a benchmark harness's),
    and with `export`, the write back out by relative-view-bench --export-to (its own run;
    its process's peak is kept apart, as benchPeakResidentBytes). A directory tree: the bench."""
    if fmt != "directory":
        # On one CPU (taskset -c 0): no second thread to scan or warm pages on.
        out, cpu = timed((["taskset", "-c", "0"] if one_cpu else []) + [tool, "info", "--json", "--quiet", "--content", content, path]
                         + (["--from", fmt] if fmt else []))
        figures = json.loads(out)
        result = {"seconds": figures["seconds"], "nodes": figures["nodes"], "peakResidentBytes": figures["peakResidentBytes"],
                  "arenaBytesPerNode": figures["treeBytes"] / max(1, figures["nodes"]), "processCPUSeconds": cpu}
        if export:
            report = json.loads(timed([bench, "--input", path, "--import-only", "--format", "json", "--import-content", content,
                                       "--export-to", export])[0])
            result["saveSeconds"] = report["export"]["seconds"]
            result["savedBytes"] = report["export"]["bytes"]
            result["benchPeakResidentBytes"] = report["import"]["peakResidentBytes"]
        return result
    cmd = [bench, "--input", path, "--import-only", "--format", "json"] + (["--input-format", fmt] if fmt else [])
    if fmt != "directory":
        cmd += ["--import-content", content]
    if export:
        cmd += ["--export-to", export]
    out, cpu = timed(cmd)
    report = json.loads(out)
    figures = report["import"]
    result = {"seconds": figures["seconds"], "nodes": figures["nodes"], "peakResidentBytes": figures["peakResidentBytes"],
              "arenaBytesPerNode": figures["arenaBytesPerNode"], "processCPUSeconds": cpu}
    if export:
        result["saveSeconds"] = report["export"]["seconds"]
        result["savedBytes"] = report["export"]["bytes"]
    return result

def peer(driver, path, save=None):
    out, cpu = timed([os.path.join(work, driver), path] + ([save] if save else []))
    return dict(json.loads(out), processCPUSeconds=cpu)

saved = {"pugixml": os.path.join(work, "saved-by-pugixml.xml"), "relative-view": os.path.join(work, "saved-by-relative-view.xml")}
programs = [
    ("xml", "pugixml", lambda: peer("pugixml-load", xml, saved["pugixml"]), xml),
    ("xml", "relative-view", lambda: ours(xml, export=saved["relative-view"]), xml),
    ("xml", "relative-view (skeleton)", lambda: ours(xml, content="skeleton"), xml),
    ("json", "simdjson", lambda: peer("simdjson-load", js), js),
    ("json", "relative-view", lambda: ours(js), js),
    ("json", "relative-view (skeleton)", lambda: ours(js, content="skeleton"), js),
    ("html", "relative-view", lambda: ours(xml, "html"), xml),
]
# The documents of other shapes: each imported whole by ours and by its format's peer.
for shape in shapes:
    path = os.path.join(work, shape)
    if shape.endswith(".xml"):
        programs.append(("xml", "pugixml", lambda path=path: peer("pugixml-load", path), path))
    else:
        programs.append(("json", "simdjson", lambda path=path: peer("simdjson-load", path), path))
    programs.append((shape.rsplit(".", 1)[1], "relative-view", lambda path=path: ours(path), path))
# Every document imported whole: the project's own two and the other shapes, each with its format.
whole_documents = [(path, "xml" if path.endswith(".xml") else "json") for path in [xml, js] + [os.path.join(work, s) for s in shapes]]
# Ours again on one CPU, every document imported whole: the peers parse on one thread, while
# our XML import scans on a second one where it may (a pipelined scan), so the lead on two
# CPUs is not the lead on one.
for path, fmt in whole_documents:
    programs.append((fmt, "relative-view (one CPU)", lambda path=path: ours(path, one_cpu=True), path))
samples = {(f, p, name): [] for f, name, _, p in programs}
for run in range(runs):
    for fmt, name, call, path in programs:
        print(f"== run {run + 1}/{runs}: {os.path.basename(path)} ({fmt}) with {name}", file=sys.stderr)
        samples[(fmt, path, name)].append(call())

rows = []
for fmt, name, _, path in programs:
    runs_of = samples[(fmt, path, name)]
    best = min(runs_of, key=lambda s: s["seconds"])
    size = os.path.getsize(path)
    row = {"format": fmt, "document": os.path.basename(path), "program": name, "bytes": size, "nodes": best["nodes"], "seconds": best["seconds"],
           "megabytesPerSecond": size / 1e6 / best["seconds"], "nodesPerSecond": best["nodes"] / best["seconds"],
           "peakResidentBytes": best["peakResidentBytes"], "secondsOfEachRun": [s["seconds"] for s in runs_of],
           # The whole process of the fastest run (start, read, parse, tear down), all threads.
           "processCPUSeconds": best["processCPUSeconds"]}
    for key in ("arenaBytesPerNode", "kernel", "benchPeakResidentBytes"):
        if key in best: row[key] = best[key]
    if "saveSeconds" in best:
        # The write back out, best of the runs on its own.
        save = min(s["saveSeconds"] for s in runs_of)
        row["save"] = {"seconds": save, "bytes": best["savedBytes"], "megabytesPerSecond": best["savedBytes"] / 1e6 / save,
                       "secondsOfEachRun": [s["saveSeconds"] for s in runs_of]}
    rows.append(row)

# Directory trees: /usr, ours against find(1), each best of the same number of runs.
dir_rows = []
find_best = ours_best = None
for run in range(runs):
    start = time.monotonic()
    entries = int(subprocess.run("find /usr | wc -l", shell=True, check=True, capture_output=True, text=True).stdout)
    elapsed = time.monotonic() - start
    find_best = min(find_best or (elapsed, entries), (elapsed, entries))
    o = ours("/usr", "directory")
    ours_best = min(ours_best or (o["seconds"], o["nodes"]), (o["seconds"], o["nodes"]))
for name, (seconds, entries) in (("find /usr | wc -l", find_best), ("relative-view", ours_best)):
    dir_rows.append({"format": "directory", "program": name, "path": "/usr", "nodes": entries, "seconds": seconds,
                     "nodesPerSecond": entries / seconds})

main_document = {"xml": xml, "json": js, "html": xml}

def row_of(fmt, name, path=None):
    document = os.path.basename(path or main_document[fmt])
    return next(r for r in rows if r["format"] == fmt and r["program"] == name and r["document"] == document)

def ratio(fmt, peer_name, ours_name="relative-view", path=None):
    return row_of(fmt, ours_name, path)["megabytesPerSecond"] / row_of(fmt, peer_name, path)["megabytesPerSecond"]

def spread(fmt, peer_name, ours_name="relative-view", path=None):
    """The ratio of each run (ours against the peer's run beside it), lowest and highest."""
    path = path or main_document[fmt]
    o, p = samples[(fmt, path, ours_name)], samples[(fmt, path, peer_name)]
    each = [b["seconds"] / a["seconds"] for a, b in zip(o, p)]
    return [min(each), max(each)]

# Every document imported whole, ours against its format's peer: the project's own two and
# the other shapes.
shape_rows = []
for path, fmt in whole_documents:
    peer_name = "pugixml" if fmt == "xml" else "simdjson"
    shape_rows.append({"document": os.path.basename(path), "format": fmt, "peer": peer_name, "bytes": os.path.getsize(path),
                       "ratio": ratio(fmt, peer_name, path=path), "spreadOfEachRun": spread(fmt, peer_name, path=path),
                       "oneCPURatio": ratio(fmt, peer_name, "relative-view (one CPU)", path=path),
                       "oneCPUSpreadOfEachRun": spread(fmt, peer_name, "relative-view (one CPU)", path=path),
                       "peakMemoryRatio": row_of(fmt, "relative-view", path)["peakResidentBytes"] / row_of(fmt, peer_name, path)["peakResidentBytes"]})

def save_ratio():
    o, p = row_of("xml", "relative-view")["save"], row_of("xml", "pugixml")["save"]
    # Bytes per second: the two documents written differ a little (ours keeps whitespace text).
    return o["megabytesPerSecond"] / p["megabytesPerSecond"]

report = {
    "tool": "scripts/import-vs-peers.sh", "date": time.strftime("%Y-%m-%d"), "runs": runs, "best": "fastest of the runs",
    "machine": machine(),
    "documents": {"seed": int(os.environ.get("SEED", "1")), "xml": os.path.getsize(xml), "json": os.path.getsize(js), "shapeBytes": shape_bytes},
    "shapes": shape_rows,
    "results": rows + dir_rows,
    "ratios": {"xmlVsPugixml": ratio("xml", "pugixml"), "jsonVsSimdjson": ratio("json", "simdjson"),
               "xmlSkeletonVsPugixml": ratio("xml", "pugixml", "relative-view (skeleton)"),
               "jsonSkeletonVsSimdjson": ratio("json", "simdjson", "relative-view (skeleton)"),
               "xmlExportVsPugixmlSave": save_ratio(),
               "xmlPeakMemoryVsPugixml": row_of("xml", "relative-view")["peakResidentBytes"] / row_of("xml", "pugixml")["peakResidentBytes"],
               "jsonPeakMemoryVsSimdjson": row_of("json", "relative-view")["peakResidentBytes"] / row_of("json", "simdjson")["peakResidentBytes"]},
    "spreadOfEachRun": {"xmlVsPugixml": spread("xml", "pugixml"), "jsonVsSimdjson": spread("json", "simdjson")},
    "content": "relative-view keeps the whole content; relative-view (skeleton) names, id, class, tag and member names only",
}
os.makedirs(os.path.dirname(output) or ".", exist_ok=True)
with open(output, "w") as f:
    json.dump(report, f, indent=2, sort_keys=True)
    f.write("\n")

print(f"{'document':21} {'format':9} {'program':26} {'MB':>8} {'nodes':>12} {'s':>8} {'MB/s':>8} {'M nodes/s':>10} {'peak RSS MB':>12} {'process CPU s':>14}")
for r in rows + dir_rows:
    mb = f"{r['bytes'] / 1e6:8.1f}" if "bytes" in r else f"{'':8}"
    mbs = f"{r['megabytesPerSecond']:8.1f}" if "megabytesPerSecond" in r else f"{'':8}"
    rss = f"{r['peakResidentBytes'] / 1e6:12.1f}" if "peakResidentBytes" in r else f"{'':12}"
    cpu = f"{r['processCPUSeconds']:14.3f}" if "processCPUSeconds" in r else ""
    print(f"{r.get('document', r.get('path', '')):21} {r['format']:9} {r['program']:26} {mb} {r['nodes']:12,} {r['seconds']:8.3f} {mbs} {r['nodesPerSecond'] / 1e6:10.2f} {rss} {cpu}")
r = report["ratios"]
print(f"whole content: ours / pugixml (XML) {r['xmlVsPugixml']:.2f}x, ours / simdjson (JSON) {r['jsonVsSimdjson']:.2f}x; "
      f"skeleton: {r['xmlSkeletonVsPugixml']:.2f}x, {r['jsonSkeletonVsSimdjson']:.2f}x")
print(f"export (XML, MB/s): ours / pugixml save_file {r['xmlExportVsPugixmlSave']:.2f}x; "
      f"peak memory: ours / pugixml {r['xmlPeakMemoryVsPugixml']:.2f}x, ours / simdjson {r['jsonPeakMemoryVsSimdjson']:.2f}x")
print("every document imported whole, ours / its peer (MB/s; the spread of each run's ratio; peak memory):")
for r in shape_rows:
    print(f"  {r['document']:21} vs {r['peer']:9} {r['ratio']:.2f}x ({r['spreadOfEachRun'][0]:.2f}x to {r['spreadOfEachRun'][1]:.2f}x), "
          f"peak memory {r['peakMemoryRatio']:.2f}x")
m = report["machine"]
kernels = sorted({r["kernel"] for r in rows if r.get("kernel")})
print(f"processor: {machine_line(m)}; "
      f"simdjson's kernel: {', '.join(kernels) or 'not reported'}")
print(f"written to {output}")
PY
