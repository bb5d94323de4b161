#!/usr/bin/env bash
# Times CSS selectors and XPath 1.0 expressions on one XMark-shaped document, ours
# (`relative-view query --repeat`) against pugixml's XPath (xpath_query::evaluate_node_set,
# Debian's libpugixml-dev) and lxml (compiled etree.XPath; a CSS selector translated by
# cssselect, as lxml.cssselect does; Debian's python3-lxml and python3-cssselect), each on the
# document it has loaded (the load is not timed), and checks that each query selects the same
# elements in all three. Also times `div div ... div span` with k = 2 ... 10 descendant steps
# on deeply nested towers of div, and writes what it measured as JSON (default
# docs/data/query-vs-peers.json).
# Usage: scripts/query-vs-peers.sh [OUTPUT.json] [RUNS]
#   Environment: WORK (default .build-peers/): documents and the peers' drivers;
#   XMARK_BYTES (100,000,000): the XMark-shaped document's size (make-documents.py
#   --xmark-bytes); NESTED_TOWERS (2,000) and NESTED_DEPTH (40): the nested document
#   (make-documents.py --nested-towers); SEED (1); REPEAT (5): evaluations of a query in one
#   process (fewer when they pass a second), of which the best is kept; CHAIN_TIMEOUT (20):
#   the seconds a peer's process gets for one query of the chain (lxml's merge of node sets
#   is quadratic there); from the first it does not finish, the longer ones are not tried;
#   QUERY_TIMEOUT (60): the same for one XMark query (its process is killed and a new one
#   loads the document again for the next; it is not asked again in later runs);
#   MOVES (10,000): the random subtree moves after which each query is timed again (ours,
#   against the same document loaded afresh: `relative-view query --moves`).
# Ours is also timed on one thread and on two (--threads) on the queries that read every
# element, and cold: a process that maps a snapshot of the document and answers one query,
# against pugixml's load_file and the same query.
# RUNS (default 3) runs alternate between the three programs, so that a busy moment of this
# shared machine falls on all of them; a query's time is its best over the runs, and its
# ratio's spread is the ratio of each run.
set -euo pipefail
cd "$(dirname "$0")/.."
output=${1:-docs/data/query-vs-peers.json}
runs=${2:-3}
work=${WORK:-.build-peers}
mkdir -p "$work"

# shellcheck source=need-debs.sh
source scripts/need-debs.sh
need_debs libpugixml-dev g++ python3-lxml python3-cssselect

echo "== building the peer's driver and relative-view (release)" >&2
g++ -O2 -std=c++17 -o "$work/pugixml-query" scripts/peers/pugixml-query.cpp -lpugixml
swift build -c release --product relative-view 2>&1 | grep -E "error|warning:" >&2 || true
tool=$(swift build -c release --show-bin-path)/relative-view

echo "== writing the documents" >&2
python3 scripts/make-documents.py "$work" --xml-elements 0 --json-values 0 --seed "${SEED:-1}" \
    --xmark-bytes "${XMARK_BYTES:-100000000}" --nested-towers "${NESTED_TOWERS:-2000}" \
    --nested-depth "${NESTED_DEPTH:-40}" >&2

/usr/bin/python3 - "$work" "$tool" "$runs" "$output" "${REPEAT:-5}" "${CHAIN_TIMEOUT:-20}" \
    "${QUERY_TIMEOUT:-60}" "${MOVES:-10000}" <<'PY'
import json, math, os, platform, select, statistics, subprocess, sys, time
from cssselect import GenericTranslator

work, tool, runs, output, repeat = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], int(sys.argv[5])
chain_timeout, query_timeout, moves = int(sys.argv[6]), int(sys.argv[7]), int(sys.argv[8])
xmark, nested = os.path.join(work, "xmark.xml"), os.path.join(work, "nested.xml")

# The questions: XMark's paths (Schmidt et al., VLDB 2002) and what a scraper asks, each an
# element set. (kind, text).
QUERIES = [
    ("xpath", "/site/regions/*/item"),
    ("xpath", "//item"),
    ("xpath", "/site/people/person[@id='person0']/name"),
    ("xpath", "//person[@id='person100']"),
    ("xpath", "/site/open_auctions/open_auction/bidder[1]/increase"),
    ("xpath", "//open_auction/bidder[last()]"),
    ("xpath", "//closed_auction[price >= 500]/price"),
    ("xpath", "//item[contains(name, 'gold')]"),
    ("xpath", "//keyword"),
    ("xpath", "//description//keyword"),
    ("xpath", "/site/regions//item//keyword"),
    ("xpath", "//listitem//keyword"),
    ("xpath", "//parlist/listitem/parlist"),
    ("xpath", "//person[profile/@income > 50000]"),
    ("xpath", "//person[not(homepage)]"),
    ("xpath", "//person[address/country = 'Japan']/name"),
    ("xpath", "//open_auction[count(bidder) > 5]"),
    ("xpath", "//item[@featured and incategory]"),
    ("xpath", "//closed_auction[annotation/description//keyword]"),
    ("xpath", "//text/emph/keyword"),
    ("xpath", "//*[@category]"),
    ("xpath", "//keyword/ancestor::item"),
    ("xpath", "//emph/parent::*"),
    ("xpath", "//mail/following-sibling::mail"),
    ("xpath", "//bidder/preceding-sibling::bidder"),
    ("xpath", "//person[position() mod 100 = 0]"),
    ("xpath", "(//item)[100]"),
    ("xpath", "//category[name]/description"),
    ("xpath", "//open_auction[reserve]/seller"),
    ("xpath", "//item[quantity > 1]/location"),
    ("xpath", "//item[starts-with(@id, 'item1')]"),
    ("xpath", "//regions/africa/item | //regions/asia/item"),
    ("xpath", "//annotation/descendant-or-self::bold"),
    ("xpath", "//item[string-length(name) > 20]"),
    ("xpath", "//person[watches/watch]/emailaddress"),
    ("xpath", "//listitem[not(.//keyword)]"),
    ("xpath", "//bold[ancestor::parlist]"),
    ("css", "item"),
    ("css", "site > regions > * > item"),
    ("css", "#person0"),
    ("css", "item[id^='item1']"),
    ("css", "description keyword"),
    ("css", "text > keyword"),
    ("css", "open_auction > bidder:first-of-type increase"),
    ("css", "listitem:nth-child(2n+1)"),
    ("css", "mail + mail"),
    ("css", "mail ~ mail"),
    ("css", "keyword, emph"),
    ("css", "parlist parlist listitem"),
    ("css", "[category]"),
    ("css", "profile[income] > interest"),
    ("css", "category > name"),
    ("css", "closed_auction annotation keyword"),
    ("css", "regions item description parlist listitem text keyword"),
    ("css", ":root > people > person"),
    ("css", "person:nth-of-type(100n)"),
    ("css", "edge[from='category0']"),
    ("css", "interest:not([category='category1'])"),
    ("css", "text bold, text emph"),
    ("css", "person:has(homepage) > name"),
    ("css", "bidder:last-child"),
    ("css", "watches:empty"),
]
# Cold queries: one answered in a process that maps a snapshot.
COLD = [("xpath", "//person[@id='person100']"), ("css", "open_auction > bidder:first-of-type increase"), ("xpath", "(//item)[100]")]
# Queries that read every element of the document (no name to narrow them): ours on one
# thread and on two.
WHOLE_DOCUMENT = [("css", "[category]"), ("css", "#person0"), ("xpath", "//*[@category]"), ("xpath", "//*[@featured]"),
                  ("css", "*[id$='7']"), ("xpath", "//*[@id = 'item100']")]
# div div ... div span, k = 2 ... 10 descendant steps, on the nested towers.
CHAIN = [("css", " ".join(["div"] * k + ["span"])) for k in range(2, 11)]

translator = GenericTranslator()

def peer_xpath(kind, text):
    return translator.css_to_xpath(text) if kind == "css" else text

def ours(path, kind, text):
    """A query's best and median over `repeat` evaluations in one process, and its elements."""
    done = subprocess.run([tool, "query", path, "--" + kind, text, "--repeat", str(repeat)], check=True,
                          capture_output=True, text=True)
    last = done.stderr.strip().split("\n")[-1]
    figures = dict(part.split("=") for part in last.split())
    numbers = sorted(int(line) for line in done.stdout.split())
    return {"best_ns": int(figures["best_ns"]), "median_ns": int(figures["median_ns"]), "matches": int(figures["matches"])}, numbers

def peer(command, path, queries, name, timeout, skip=(), growing=False):
    """Every query answered by a peer process on one load, each answer read as it comes:
    a query that takes longer than `timeout` seconds is answered None, its process killed,
    and a new one (a new load) goes on with the next query. Queries in `skip` (known to take
    longer) are answered None unasked; with `growing` (each query costs more than the one
    before), so are all the queries after one that took too long."""
    outdir = os.path.join(work, "answers-" + name)
    os.makedirs(outdir, exist_ok=True)
    results = [None] * len(queries)
    i = 0
    while i < len(queries):
        if i in skip:
            i += 1
            continue
        batch = [j for j in range(i, len(queries)) if j not in skip]
        listing = os.path.join(work, "queries-%s.txt" % name)
        with open(listing, "w", encoding="utf-8") as f:
            f.write("".join(peer_xpath(*queries[j]) + "\n" for j in batch))
        process = subprocess.Popen(command + [path, listing, outdir, str(repeat)], stdout=subprocess.PIPE, text=True)
        # The load gets ten minutes; each query, from the load's end or the answer before.
        deadline = time.monotonic() + 600
        answered = 0
        while answered < len(batch):
            ready, _, _ = select.select([process.stdout], [], [], max(0, deadline - time.monotonic()))
            if not ready:
                break
            line = process.stdout.readline()
            if not line:
                break
            row = json.loads(line)
            deadline = time.monotonic() + timeout
            if "loaded" in row:
                continue
            j = batch[row["query"]]
            if "error" in row:
                sys.exit("%s cannot evaluate %r: %s" % (name, queries[j][1], row["error"]))
            with open(row["file"]) as f:
                results[j] = (row, [int(x) for x in f.read().split()])
            answered += 1
        if answered < len(batch):
            process.kill()
            process.wait()
            late = batch[answered]
            print("   %s: %r took longer than %d s" % (name, queries[late][1], timeout), file=sys.stderr)
            if growing:
                break  # the queries after it cost more still
            skip = set(skip) | {late}
            i = late + 1
        else:
            process.wait()
            if process.returncode != 0:
                sys.exit("%s exited with status %d" % (name, process.returncode))
            break
    return results

PEERS = [("pugixml", [os.path.join(work, "pugixml-query")]),
         ("lxml", ["/usr/bin/python3", "scripts/peers/lxml-query.py"])]

def measure(path, queries, label, timeout, chain=False):
    """Each query's best time by each program, over the runs; every answer checked against
    ours. A peer's query that takes longer than `timeout` seconds is recorded as such, and
    not asked again in later runs (nor, in the `chain`, the longer ones)."""
    samples = {name: [[] for _ in queries] for name in ["relative-view"] + [p for p, _ in PEERS]}
    mismatches = []
    too_long = {name: set() for name, _ in PEERS}
    for run in range(runs):
        for name, command in PEERS:
            print("== run %d/%d: %s, %d queries with %s" % (run + 1, runs, label, len(queries), name), file=sys.stderr)
            for i, answer in enumerate(peer(command, path, queries, name, timeout, too_long[name], growing=chain)):
                if answer is not None:
                    samples[name][i].append(answer)
                else:
                    too_long[name].add(i)
            if chain:
                # The chain grows in cost with k: past the first query too long, the rest are.
                first = min(too_long[name], default=len(queries))
                too_long[name] |= set(range(first, len(queries)))
        print("== run %d/%d: %s, %d queries with relative-view" % (run + 1, runs, label, len(queries)), file=sys.stderr)
        for i, (kind, text) in enumerate(queries):
            samples["relative-view"][i].append(ours(path, kind, text))
    rows = []
    for i, (kind, text) in enumerate(queries):
        expected = samples["relative-view"][i][0][1]
        row = {"kind": kind, "query": text, "matches": len(expected), "programs": {}}
        if kind == "css":
            row["peersEvaluate"] = peer_xpath(kind, text)
        for name in samples:
            each = samples[name][i]
            if not each:
                row["programs"][name] = {"timedOut": True, "moreThanNanoseconds": int(timeout * 1e9)}
                continue
            for _, numbers in each:
                if numbers != expected:
                    mismatches.append((name, kind, text, len(numbers), len(expected)))
            row["programs"][name] = {"bestNanoseconds": min(r["best_ns"] for r, _ in each),
                                     "bestNanosecondsOfEachRun": [r["best_ns"] for r, _ in each]}
        best = row["programs"]["relative-view"]
        for name, _ in PEERS:
            other = row["programs"][name]
            if "bestNanoseconds" not in other:
                row[name + "RatioAtLeast"] = other["moreThanNanoseconds"] / best["bestNanoseconds"]
                continue
            row[name + "Ratio"] = other["bestNanoseconds"] / best["bestNanoseconds"]
            each = [b / a for a, b in zip(best["bestNanosecondsOfEachRun"], other["bestNanosecondsOfEachRun"])]
            row[name + "RatioSpread"] = [min(each), max(each)]
        rows.append(row)
    for name, kind, text, got, want in mismatches:
        print("MISMATCH: %s selects %d elements for %s %r, relative-view %d" % (name, got, kind, text, want), file=sys.stderr)
    if mismatches:
        sys.exit("%d answers differ" % len(mismatches))
    return rows

def geomean(values):
    return math.exp(sum(math.log(v) for v in values) / len(values))

xmark_rows = measure(xmark, QUERIES, "xmark.xml", query_timeout)
chain_rows = measure(nested, CHAIN, "nested.xml", chain_timeout, chain=True)

# After moves: each query on the document after 10^4 random subtree moves, against the
# same document loaded afresh (its slots in document order), both in one process.
move_rows = []
print("== each query after %d random subtree moves, against the same document loaded afresh" % moves, file=sys.stderr)
for kind, text in QUERIES:
    done = subprocess.run([tool, "query", xmark, "--" + kind, text, "--repeat", str(repeat), "--moves", str(moves),
                           "--print", "count"], check=True, capture_output=True, text=True)
    lines = done.stderr.strip().split("\n")
    moved = dict(part.split("=") for part in lines[-1].split())
    fresh = dict(part.split("=") for part in lines[-2].split())
    move_rows.append({"kind": kind, "query": text, "movedBestNanoseconds": int(moved["best_ns"]),
                      "pristineBestNanoseconds": int(fresh["pristine_best_ns"]),
                      "ratio": int(moved["best_ns"]) / int(fresh["pristine_best_ns"])})

# Cold: a snapshot of the document mapped (and checked) and one query answered, the whole
# process of `relative-view query SNAPSHOT`, against pugixml's load_file of the XML and the
# same query (its driver's own times for the two: no process start counted for it).
snapshot = os.path.join(work, "xmark.rvtree")
subprocess.run([tool, "convert", xmark, snapshot, "--quiet"], check=True)
cold_rows = []
for kind, text in COLD:
    ours_wall, theirs = [], []
    for run in range(runs):
        start = time.monotonic()
        subprocess.run([tool, "query", snapshot, "--" + kind, text, "--print", "count"], check=True, capture_output=True)
        ours_wall.append(time.monotonic() - start)
        listing = os.path.join(work, "queries-cold.txt")
        with open(listing, "w", encoding="utf-8") as f:
            f.write(peer_xpath(kind, text) + "\n")
        lines = subprocess.run([os.path.join(work, "pugixml-query"), xmark, listing, os.path.join(work, "answers-pugixml"), "1"],
                               check=True, capture_output=True, text=True).stdout.strip().split("\n")
        loaded, answered = json.loads(lines[0]), json.loads(lines[1])
        theirs.append(loaded["seconds"] + answered["best_ns"] / 1e9)
    cold_rows.append({"kind": kind, "query": text, "oursProcessSeconds": min(ours_wall), "pugixmlLoadAndQuerySeconds": min(theirs),
                      "fractionOfPugixml": min(ours_wall) / min(theirs)})

# Two threads against one, on the queries that scan the whole document (every element),
# alternating, best of the runs each.
thread_rows = []
for kind, text in WHOLE_DOCUMENT:
    best = {1: [], 2: []}
    for run in range(runs):
        for threads in (1, 2):
            done = subprocess.run([tool, "query", xmark, "--" + kind, text, "--repeat", str(repeat), "--threads", str(threads),
                                   "--print", "count"], check=True, capture_output=True, text=True)
            best[threads].append(int(dict(p.split("=") for p in done.stderr.strip().split("\n")[-1].split())["best_ns"]))
    thread_rows.append({"kind": kind, "query": text, "oneThreadBestNanoseconds": min(best[1]),
                        "twoThreadsBestNanoseconds": min(best[2]), "speedup": min(best[1]) / min(best[2]),
                        "speedupOfEachRun": [a / b for a, b in zip(best[1], best[2])]})
summary = {}
for name, _ in PEERS:
    # A query the peer did not finish in time counts at its time limit: a lower bound.
    ratios = [r.get(name + "Ratio", r.get(name + "RatioAtLeast")) for r in xmark_rows]
    summary[name] = {"geometricMeanRatio": geomean(ratios), "lowestRatio": min(ratios),
                     "lowestRatioQuery": xmark_rows[ratios.index(min(ratios))]["query"],
                     "queriesNotFinishedInTime": sum(1 for r in xmark_rows if name + "RatioAtLeast" in r),
                     "queriesSlowerThanPeer": sum(1 for x in ratios if x < 1)}
report = {
    "tool": "scripts/query-vs-peers.sh", "date": time.strftime("%Y-%m-%d"), "runs": runs, "repeat": repeat,
    "best": "fastest evaluation over the runs (each run: up to `repeat` evaluations in one process)",
    "ratio": "peer's best time / relative-view's best time (above 1: ours is faster)",
    "machine": {"cpu": next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), platform.processor()),
                "cores": os.cpu_count()},
    "documents": {"xmark": {"bytes": os.path.getsize(xmark), "seed": int(os.environ.get("SEED", "1"))},
                  "nested": {"bytes": os.path.getsize(nested), "towers": int(os.environ.get("NESTED_TOWERS", "2000")),
                             "depth": int(os.environ.get("NESTED_DEPTH", "40"))}},
    "chainTimeoutSeconds": chain_timeout,
    "summary": summary,
    "queries": xmark_rows,
    "descendantChain": chain_rows,
    "descendantChainGrowth": {name: (r[-1]["programs"][name]["bestNanoseconds"] / r[0]["programs"][name]["bestNanoseconds"]
                                     if "bestNanoseconds" in r[-1]["programs"][name] else None)
                              for r in [chain_rows] for name in r[0]["programs"]},
    "descendantChainGrowthNote": "time at k = 10 over time at k = 2 (linear in k: at most 5)",
    "afterMoves": {"moves": moves, "worstRatio": max(r["ratio"] for r in move_rows),
                   "worstQuery": max(move_rows, key=lambda r: r["ratio"])["query"], "queries": move_rows},
    "twoThreads": {"lowestSpeedup": min(r["speedup"] for r in thread_rows), "queries": thread_rows},
    "cold": {"snapshotBytes": os.path.getsize(snapshot), "worstFraction": max(r["fractionOfPugixml"] for r in cold_rows),
             "note": "whole process of relative-view query on the snapshot / pugixml's load_file plus the query (target: at most 1/20)",
             "queries": cold_rows},
}
with open(output, "w") as f:
    json.dump(report, f, indent=1)
    f.write("\n")
for name, s in summary.items():
    print("%s: geometric mean %.2fx, lowest %.2fx (%s), %d queries slower" % (
        name, s["geometricMeanRatio"], s["lowestRatio"], s["lowestRatioQuery"], s["queriesSlowerThanPeer"]), file=sys.stderr)
print("after %d moves: worst %.2fx of the pristine time (%s)" % (moves, report["afterMoves"]["worstRatio"], report["afterMoves"]["worstQuery"]),
      file=sys.stderr)
print("two threads: lowest speedup %.2fx" % report["twoThreads"]["lowestSpeedup"], file=sys.stderr)
print("cold: the snapshot mapped and one query answered in %.2f of pugixml's load and query (worst)" % report["cold"]["worstFraction"],
      file=sys.stderr)
print("div ... span, k = 10 over k = 2: %s" % report["descendantChainGrowth"], file=sys.stderr)
print("wrote %s" % output, file=sys.stderr)
PY
