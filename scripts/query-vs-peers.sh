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
# ratio's spread is the ratio of each run. The rows that compare ours with ours (after moves,
# two threads against one) are shorter and swing more on this machine: they take more
# evaluations and runs (MOVES_REPEAT 20 and MOVES_RUNS 3: each run a process that times
# a query on the pristine tree and on the moved one in turns of five evaluations; THREAD_REPEAT 40
# and THREAD_RUNS 5).
# SECTIONS (default "markup jsonpath") picks what runs: markup is its five parts, peers (the
# XMark queries against pugixml and lxml), chain, moves, cold and threads, each of which may
# also be named alone; a part not run keeps its figures from the OUTPUT written before, and
# each part records the commit and date it was measured at. jsonpath: JSONMARK_BYTES
# (160,000,000), JSON_RUNS (2), PYTHON_TIMEOUT (120 s), COLD_PROCESSES (3): in each run the
# cold row takes jq's one process against the best of that many of ours, and COLD_THREADS
# (2): the threads ours answers on there (its load checks on two; the warm rows take one).
set -euo pipefail
cd "$(dirname "$0")/.."
output=${1:-docs/data/query-vs-peers.json}
runs=${2:-3}
work=${WORK:-.build-peers}
mkdir -p "$work"

# shellcheck source=need-debs.sh
source scripts/need-debs.sh
sections=" ${SECTIONS:-markup jsonpath} "
swift build -c release --product relative-view 2>&1 | grep -E "error|warning:" >&2 || true
tool=$(swift build -c release --show-bin-path)/relative-view
# The cold rows time whole processes: there the tool is built as one ships a command-line
# tool for Linux, with the Swift runtime and Foundation linked in (--static-swift-stdlib, in
# a build directory of its own), which starts some 3 ms sooner than one that loads them
# (COLD_STATIC=0: the tool above).
cold_tool=$tool
if [[ ${COLD_STATIC:-1} == 1 && ( $sections == *" markup "* || $sections == *" cold "* || $sections == *" jsonpath "* ) ]]; then
    swift build -c release --static-swift-stdlib --product relative-view --build-path .build-static 2>&1 | grep -E "error:" >&2 || true
    cold_tool=$(swift build -c release --static-swift-stdlib --build-path .build-static --show-bin-path)/relative-view
fi
export COLD_TOOL=$cold_tool COLD_STATIC=${COLD_STATIC:-1}

parts=""
for part in peers chain moves cold threads; do
    if [[ $sections == *" markup "* || $sections == *" $part "* ]]; then parts+="$part "; fi
done
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
git diff --quiet HEAD -- Sources Package.swift 2>/dev/null || commit+="+changes"

if [[ -n $parts ]]; then
need_debs libpugixml-dev g++ python3-lxml python3-cssselect

echo "== building the peer's driver" >&2
g++ -O2 -std=c++17 -o "$work/pugixml-query" scripts/peers/pugixml-query.cpp -lpugixml

echo "== writing the documents" >&2
python3 scripts/make-documents.py "$work" --xml-elements 0 --json-values 0 --seed "${SEED:-1}" \
    --xmark-bytes "${XMARK_BYTES:-100000000}" --nested-towers "${NESTED_TOWERS:-2000}" \
    --nested-depth "${NESTED_DEPTH:-40}" >&2

/usr/bin/python3 - "$work" "$tool" "$runs" "$output" "${REPEAT:-5}" "${CHAIN_TIMEOUT:-20}" \
    "${QUERY_TIMEOUT:-60}" "${MOVES:-10000}" "$parts" "$commit" "${MOVES_REPEAT:-20}" "${MOVES_RUNS:-3}" \
    "${THREAD_REPEAT:-40}" "${THREAD_RUNS:-5}" <<'PY'
import json, math, os, platform, select, statistics, subprocess, sys, time
sys.path.insert(0, "scripts")
from machine import machine
from cssselect import GenericTranslator

work, tool, runs, output, repeat = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], int(sys.argv[5])
chain_timeout, query_timeout, moves = int(sys.argv[6]), int(sys.argv[7]), int(sys.argv[8])
parts, commit = sys.argv[9].split(), sys.argv[10]
moves_repeat, moves_runs, thread_repeat, thread_runs = (int(x) for x in sys.argv[11:15])
# Each part records the commit, date and processor it was measured at (the top-level
# "machine" is the last run's: the parts may come from different machines).
measured = {"commit": commit, "date": time.strftime("%Y-%m-%d"), "machine": machine()}
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

# The report: the parts run now, over those of the report written before (if any).
report = {}
if os.path.exists(output):
    with open(output) as f:
        report = json.load(f)
report.update({
    "tool": "scripts/query-vs-peers.sh",
    "machine": machine(),
    "documents": {"xmark": {"bytes": os.path.getsize(xmark), "seed": int(os.environ.get("SEED", "1"))},
                  "nested": {"bytes": os.path.getsize(nested), "towers": int(os.environ.get("NESTED_TOWERS", "2000")),
                             "depth": int(os.environ.get("NESTED_DEPTH", "40"))}},
})
if "peers" in parts or "chain" in parts:
    # What the peers' and the chain's rows were measured with (the other parts record
    # their own runs and evaluations).
    report.update({"date": measured["date"], "runs": runs, "repeat": repeat,
                   "best": "fastest evaluation over the runs (each run: up to `repeat` evaluations in one process)",
                   "ratio": "peer's best time / relative-view's best time (above 1: ours is faster)",
                   "chainTimeoutSeconds": chain_timeout})
report.setdefault("parts", {})

def record_part(part):
    """Records `part` as measured now and writes the report: a later part that fails
    loses nothing of the parts before."""
    report["parts"][part] = measured
    with open(output, "w") as f:
        json.dump(report, f, indent=1)
        f.write("\n")

if "peers" in parts:
    xmark_rows = measure(xmark, QUERIES, "xmark.xml", query_timeout)
    summary = {}
    for name, _ in PEERS:
        # A query the peer did not finish in time counts at its time limit: a lower bound.
        ratios = [r.get(name + "Ratio", r.get(name + "RatioAtLeast")) for r in xmark_rows]
        summary[name] = {"geometricMeanRatio": geomean(ratios), "lowestRatio": min(ratios),
                         "lowestRatioQuery": xmark_rows[ratios.index(min(ratios))]["query"],
                         "queriesNotFinishedInTime": sum(1 for r in xmark_rows if name + "RatioAtLeast" in r),
                         "queriesSlowerThanPeer": sum(1 for x in ratios if x < 1)}
    report["summary"], report["queries"] = summary, xmark_rows
    for name, s in summary.items():
        print("%s: geometric mean %.2fx, lowest %.2fx (%s), %d queries slower" % (
            name, s["geometricMeanRatio"], s["lowestRatio"], s["lowestRatioQuery"], s["queriesSlowerThanPeer"]), file=sys.stderr)
    record_part("peers")

if "chain" in parts:
    chain_rows = measure(nested, CHAIN, "nested.xml", chain_timeout, chain=True)
    report["descendantChain"] = chain_rows
    report["descendantChainGrowth"] = {name: (chain_rows[-1]["programs"][name]["bestNanoseconds"] / chain_rows[0]["programs"][name]["bestNanoseconds"]
                                              if "bestNanoseconds" in chain_rows[-1]["programs"][name] else None)
                                       for name in chain_rows[0]["programs"]}
    report["descendantChainGrowthNote"] = "time at k = 10 over time at k = 2 (linear in k: at most 5)"
    print("div ... span, k = 10 over k = 2: %s" % report["descendantChainGrowth"], file=sys.stderr)
    record_part("chain")

if "moves" in parts:
    # After moves: each query on the document after 10^4 random subtree moves, against the
    # same document loaded afresh (its slots in document order), both in one process, in
    # each of the runs; the best of each over the runs.
    move_rows = []
    print("== each query after %d random subtree moves, against the same document loaded afresh (%d runs of %d evaluations)"
          % (moves, moves_runs, moves_repeat), file=sys.stderr)
    for kind, text in QUERIES:
        moved_each, fresh_each = [], []
        for run in range(moves_runs):
            done = subprocess.run([tool, "query", xmark, "--" + kind, text, "--repeat", str(moves_repeat), "--moves", str(moves),
                                   "--print", "count"], check=True, capture_output=True, text=True)
            lines = done.stderr.strip().split("\n")
            moved_each.append(int(dict(part.split("=") for part in lines[-1].split())["best_ns"]))
            fresh_each.append(int(dict(part.split("=") for part in lines[-2].split())["pristine_best_ns"]))
        move_rows.append({"kind": kind, "query": text, "movedBestNanoseconds": min(moved_each),
                          "pristineBestNanoseconds": min(fresh_each), "ratio": min(moved_each) / min(fresh_each),
                          "ratioOfEachRun": [m / f for m, f in zip(moved_each, fresh_each)]})
    report["afterMoves"] = {"moves": moves, "runs": moves_runs, "repeat": moves_repeat,
                            "worstRatio": max(r["ratio"] for r in move_rows),
                            "worstQuery": max(move_rows, key=lambda r: r["ratio"])["query"], "queries": move_rows}
    print("after %d moves: worst %.2fx of the pristine time (%s)" % (moves, report["afterMoves"]["worstRatio"], report["afterMoves"]["worstQuery"]),
          file=sys.stderr)
    record_part("moves")

if "cold" in parts:
    # Cold: a snapshot of the document mapped and one query answered, the whole process of
    # `relative-view query SNAPSHOT` (which checks the sections the query reads: their blocks
    # against their digests, and their structure), against pugixml's load_file of the XML and
    # the same query (its driver's own times for the two: no process start counted for it).
    snapshot = os.path.join(work, "xmark.rvtree")
    subprocess.run([tool, "convert", xmark, snapshot, "--quiet"], check=True)
    cold_rows = []
    for kind, text in COLD:
        ours_wall, ours_within, theirs, theirs_wall = [], [], [], []
        for run in range(runs):
            start = time.monotonic()
            done = subprocess.run([os.environ["COLD_TOOL"], "query", snapshot, "--" + kind, text, "--print", "count", "--timings"],
                                  check=True, capture_output=True, text=True)
            ours_wall.append(time.monotonic() - start)
            # Within the process, as pugixml's driver times its load and query: the snapshot
            # mapped and checked, and the first evaluation (`--timings`).
            timed = dict(f.split("=") for f in done.stderr.strip().split("\n")[-1].split())
            ours_within.append((int(timed["load_ns"]) + int(timed["first_ns"])) / 1e9)
            listing = os.path.join(work, "queries-cold.txt")
            with open(listing, "w", encoding="utf-8") as f:
                f.write(peer_xpath(kind, text) + "\n")
            start = time.monotonic()
            # ("-": no answers written, no element numbered: the load, the query, its count.)
            lines = subprocess.run([os.path.join(work, "pugixml-query"), xmark, listing, "-", "1"],
                                   check=True, capture_output=True, text=True).stdout.strip().split("\n")
            # pugixml's whole process too (its start, the load, the query, its answer written
            # and its exit, the document freed), as ours is timed above.
            theirs_wall.append(time.monotonic() - start)
            loaded, answered = json.loads(lines[0]), json.loads(lines[1])
            theirs.append(loaded["seconds"] + answered["best_ns"] / 1e9)
        cold_rows.append({"kind": kind, "query": text, "oursProcessSeconds": min(ours_wall), "pugixmlLoadAndQuerySeconds": min(theirs),
                          "fractionOfPugixml": min(ours_wall) / min(theirs),
                          "oursWithinProcessSeconds": min(ours_within), "fractionWithinProcess": min(ours_within) / min(theirs),
                          "pugixmlProcessSeconds": min(theirs_wall), "fractionOfWholeProcesses": min(ours_wall) / min(theirs_wall),
                          "pugixmlProcessSecondsOfEachRun": theirs_wall,
                          "fractionOfWholeProcessesOfEachRun": [a / b for a, b in zip(ours_wall, theirs_wall)],
                          "oursProcessSecondsOfEachRun": ours_wall, "oursWithinProcessSecondsOfEachRun": ours_within,
                          "pugixmlSecondsOfEachRun": theirs,
                          "fractionOfEachRun": [a / b for a, b in zip(ours_wall, theirs)],
                          "fractionWithinProcessOfEachRun": [a / b for a, b in zip(ours_within, theirs)]})
    report["cold"] = {"snapshotBytes": os.path.getsize(snapshot), "worstFraction": max(r["fractionOfPugixml"] for r in cold_rows),
                      "worstFractionWithinProcess": max(r["fractionWithinProcess"] for r in cold_rows),
                      "worstFractionOfWholeProcesses": max(r["fractionOfWholeProcesses"] for r in cold_rows),
                      "note": "fractionOfPugixml: the whole process of relative-view query on the snapshot (its start, argument parsing and exit too; "
                              "the sections the query reads mapped and checked) / pugixml's load_file plus the query, timed by its driver within its process "
                              "(target: at most 1/20). fractionWithinProcess: ours timed as pugixml's is, within the process (--timings: load_ns, "
                              "the snapshot mapped and checked, plus first_ns, the evaluation) / the same pugixml time. fractionOfWholeProcesses: "
                              "our whole process / pugixml's whole process (its driver started, load_file, the query, its count printed, exit)",
                      "staticSwiftStdlib": os.environ.get("COLD_STATIC") == "1",
                      "queries": cold_rows}
    print("cold: the snapshot mapped and one query answered in %.3f of pugixml's load and query (worst; our whole process), %.3f within the process, "
          "%.3f of pugixml's whole process"
          % (report["cold"]["worstFraction"], report["cold"]["worstFractionWithinProcess"], report["cold"]["worstFractionOfWholeProcesses"]), file=sys.stderr)
    record_part("cold")

if "threads" in parts:
    # Two threads against one, on the queries that scan the whole document (every element),
    # alternating, best of the runs each.
    thread_rows = []
    for kind, text in WHOLE_DOCUMENT:
        best = {1: [], 2: []}
        for run in range(thread_runs):
            for threads in (1, 2):
                done = subprocess.run([tool, "query", xmark, "--" + kind, text, "--repeat", str(thread_repeat), "--threads", str(threads),
                                       "--print", "count"], check=True, capture_output=True, text=True)
                best[threads].append(int(dict(p.split("=") for p in done.stderr.strip().split("\n")[-1].split())["best_ns"]))
        thread_rows.append({"kind": kind, "query": text, "oneThreadBestNanoseconds": min(best[1]),
                            "twoThreadsBestNanoseconds": min(best[2]), "speedup": min(best[1]) / min(best[2]),
                            "speedupOfEachRun": [a / b for a, b in zip(best[1], best[2])]})
    report["twoThreads"] = {"runs": thread_runs, "repeat": thread_repeat,
                            "lowestSpeedup": min(r["speedup"] for r in thread_rows), "queries": thread_rows}
    print("two threads: lowest speedup %.2fx" % report["twoThreads"]["lowestSpeedup"], file=sys.stderr)
    record_part("threads")

print("wrote %s" % output, file=sys.stderr)
PY
fi

if [[ $sections == *" jsonpath "* ]]; then
need_debs jq python3-pip
/usr/bin/python3 -c "import jsonpath" 2>/dev/null \
    || /usr/bin/python3 -m pip install -q --break-system-packages "python-jsonpath==2.2.2" >&2

echo "== writing the JSON document and its snapshot" >&2
python3 scripts/make-documents.py "$work" --xml-elements 0 --json-values 0 --seed "${SEED:-1}" \
    --jsonmark-bytes "${JSONMARK_BYTES:-160000000}" >&2
"$tool" convert "$work/jsonmark.json" "$work/jsonmark.rvtree" --quiet

/usr/bin/python3 - "$work" "$tool" "${JSON_RUNS:-2}" "$output" "${REPEAT:-5}" "${PYTHON_TIMEOUT:-120}" "$commit" <<'PY'
import json, math, os, platform, select, subprocess, sys, time
sys.path.insert(0, "scripts")
from machine import machine

work, tool, runs, output, repeat, python_timeout = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], int(sys.argv[5]), int(sys.argv[6])
commit = sys.argv[7]
cold_processes = int(os.environ.get("COLD_PROCESSES", "3"))
cold_threads = int(os.environ.get("COLD_THREADS", "2"))
document, snapshot = os.path.join(work, "jsonmark.json"), os.path.join(work, "jsonmark.rvtree")

# jq has no JSONPath: each query comes with the jq program that gives the same values in the
# same order (RFC 9535's: a descendant segment visits nodes in document order, each before
# its descendants; a missing member is Nothing, which no comparison but != holds for).
JQ_DEFS = ('def kids: if type == "object" or type == "array" then .[] else empty end; '
           'def member($k): if type == "object" and has($k) then .[$k] else empty end; ')
QUERIES = [
    ("$.site.people[*].name", '.site.people[] | .name'),
    ("$..email", '.. | member("email")'),
    ("$.site.open_auctions[*].bidders[*].increase", '.site.open_auctions[].bidders[].increase'),
    ("$..bidders[-1].personref", '.. | member("bidders") | select(type == "array" and length > 0) | .[-1] | member("personref")'),
    ("$.site.regions.*[?@.featured == true].id", '.site.regions[] | .[] | select(any(member("featured"); . == true)) | member("id")'),
    ("$..[?@.price > 900].id", '.. | kids | select(any(member("price"); type == "number" and . > 900)) | member("id")'),
    ("$..keywords[0]", '.. | member("keywords") | select(type == "array" and length > 0) | .[0]'),
    ("$.site.people[?@.address.country == 'Germany'].name",
     '.site.people[] | select(any(member("address") | member("country"); . == "Germany")) | member("name")'),
    ("$.site.people[?@.profile.income >= 80000 && @.profile.business == true].id",
     '.site.people[] | select(any(member("profile") | member("income"); type == "number" and . >= 80000) and '
     'any(member("profile") | member("business"); . == true)) | member("id")'),
    ("$..[?@.phone].name", '.. | kids | select(type == "object" and has("phone")) | member("name")'),
    ("$.site.open_auctions[?!@.reserve && @.current > 500].id",
     '.site.open_auctions[] | select((type == "object" and has("reserve") | not) and any(member("current"); type == "number" and . > 500)) | member("id")'),
    ("$..[?length(@.bidders) > 8].id",
     '.. | kids | select(any(member("bidders"); (type == "array" or type == "object" or type == "string") and length > 8)) | member("id")'),
    ("$..[?count(@.mailbox[*]) >= 3].id", '.. | kids | select([member("mailbox") | kids] | length >= 3) | member("id")'),
    ("$.site.people[?match(@.name, 'A[a-z]+ B[a-z]+')].id",
     '.site.people[] | select(any(member("name"); type == "string" and test("\\\\A(?:A[a-z]+ B[a-z]+)\\\\z"))) | member("id")'),
    (r"$.site.people[?search(@.email, 'post[0-4]\\.com')].name",
     '.site.people[] | select(any(member("email"); type == "string" and test("post[0-4]\\\\.com"))) | member("name")'),
    ("$..date", '.. | member("date")'),
    ("$.site.closed_auctions[?@.annotation.happiness > 8].price",
     '.site.closed_auctions[] | select(any(member("annotation") | member("happiness"); type == "number" and . > 8)) | member("price")'),
    ("$..bidders[?@.increase > 40].personref",
     '.. | member("bidders") | kids | select(any(member("increase"); type == "number" and . > 40)) | member("personref")'),
    ("$.site.categories[0,10,100].name", '.site.categories | (.[0], .[10], .[100]) | select(. != null) | member("name")'),
    ("$..description.keywords[*]", '.. | member("description") | member("keywords") | kids'),
    ("$.site.open_auctions[?value(@.bidders[*].increase) > 30].id",
     '.site.open_auctions[] | select([member("bidders") | kids | member("increase")] | length == 1 and (.[0] | type == "number" and . > 30)) | member("id")'),
    ("$.site.regions[*][100:110].name", '.site.regions[] | select(type == "array") | .[100:110][] | member("name")'),
    ("$.site.people[-1:-10:-3].id", '.site.people | (.[-1], .[-4], .[-7]) | member("id")'),
    ("$..[?@.type == 'Featured' && @.quantity > 2].itemref",
     '.. | kids | select(any(member("type"); . == "Featured") and any(member("quantity"); type == "number" and . > 2)) | member("itemref")'),
]

def figures(stderr):
    return dict(part.split("=") for part in stderr.strip().split("\n")[-1].split())

ours_values = []
for query, _ in QUERIES:
    done = subprocess.run([tool, "query", snapshot, "--jsonpath", query], check=True, capture_output=True, text=True)
    ours_values.append(json.loads(done.stdout))

def python_peer(outdir):
    """Every query answered by python-jsonpath on one load; a query that takes longer than
    the timeout is answered None, its process killed, and a new one goes on with the next."""
    os.makedirs(outdir, exist_ok=True)
    results = [None] * len(QUERIES)
    first = 0
    while first < len(QUERIES):
        listing = os.path.join(work, "queries-jsonpath.txt")
        with open(listing, "w", encoding="utf-8") as f:
            f.write("".join(q + "\n" for q, _ in QUERIES[first:]))
        process = subprocess.Popen(["/usr/bin/python3", "scripts/peers/jsonpath-python.py", document, listing, outdir, str(repeat)],
                                   stdout=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 600
        answered = 0
        while first + answered < len(QUERIES):
            ready, _, _ = select.select([process.stdout], [], [], max(0, deadline - time.monotonic()))
            line = process.stdout.readline() if ready else ""
            if not line:
                break
            row = json.loads(line)
            deadline = time.monotonic() + python_timeout
            if "loaded" in row:
                continue
            if "error" in row:
                sys.exit("python-jsonpath cannot evaluate %r: %s" % (QUERIES[first + row["query"]][0], row["error"]))
            with open(row["file"], encoding="utf-8") as f:
                results[first + row["query"]] = (row, json.load(f))
            answered += 1
        if first + answered < len(QUERIES):
            process.kill()
            process.wait()
            print("   python-jsonpath: %r took longer than %d s" % (QUERIES[first + answered][0], python_timeout), file=sys.stderr)
            first += answered + 1
        else:
            process.wait()
            break
    return results

rows = [{"query": q, "jq": j, "matches": len(ours_values[i]), "ours": [], "python": [], "oursCold": [], "jq_s": []}
        for i, (q, j) in enumerate(QUERIES)]
for run in range(runs):
    print("== JSONPath run %d of %d" % (run + 1, runs), file=sys.stderr)
    for i, (query, program) in enumerate(QUERIES):
        done = subprocess.run([tool, "query", snapshot, "--jsonpath", query, "--repeat", str(repeat), "--print", "count"],
                              check=True, capture_output=True, text=True)
        rows[i]["ours"].append(int(figures(done.stderr)["best_ns"]))
        # Cold: the whole process, a snapshot mapped and checked and the query answered,
        # against jq's whole process, the JSON loaded and the query answered. Ours is the
        # best of COLD_PROCESSES (3) processes in each run: a busy moment of this machine
        # can double a process of 60 ms, where jq's of 3 to 26 s average such moments out.
        # Ours answers on COLD_THREADS (2) threads, as its load checks the snapshot on two.
        best = None
        for _ in range(cold_processes):
            start = time.monotonic()
            subprocess.run([os.environ["COLD_TOOL"], "query", snapshot, "--jsonpath", query, "--print", "count", "--threads", str(cold_threads)],
                           check=True, capture_output=True)
            took = time.monotonic() - start
            best = took if best is None else min(best, took)
        rows[i]["oursCold"].append(best)
        start = time.monotonic()
        answer = subprocess.run(["jq", "-c", JQ_DEFS + program, document], check=True, capture_output=True, text=True)
        rows[i]["jq_s"].append(time.monotonic() - start)
        values = [json.loads(line) for line in answer.stdout.split("\n") if line]
        if values != ours_values[i]:
            sys.exit("jq's values differ from ours for %r (%d against %d)" % (query, len(values), len(ours_values[i])))
    for i, answer in enumerate(python_peer(os.path.join(work, "answers-jsonpath"))):
        if answer is None:
            rows[i]["python"].append(None)
            continue
        row, values = answer
        if values != ours_values[i]:
            sys.exit("python-jsonpath's values differ from ours for %r (%d against %d)" % (QUERIES[i][0], len(values), len(ours_values[i])))
        rows[i]["python"].append(row["best_ns"])

def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs))

out_rows = []
for r in rows:
    ours_best = min(r["ours"])
    finished = [x for x in r["python"] if x is not None]
    row = {"query": r["query"], "jqProgram": r["jq"], "matches": r["matches"], "oursBestNanoseconds": ours_best,
           "oursColdProcessSeconds": min(r["oursCold"]), "jqProcessSeconds": min(r["jq_s"]),
           "coldRatio": min(r["jq_s"]) / min(r["oursCold"]),
           "coldRatioOfEachRun": [a / b for a, b in zip(r["jq_s"], r["oursCold"])]}
    if finished:
        row["pythonBestNanoseconds"] = min(finished)
        row["warmRatio"] = min(finished) / ours_best
        row["warmRatioOfEachRun"] = [p / o for p, o in zip(r["python"], r["ours"]) if p is not None]
    else:
        row["pythonBestNanoseconds"] = None
        row["warmRatioAtLeast"] = python_timeout * 1e9 / ours_best
    out_rows.append(row)
warm = [r.get("warmRatio", r.get("warmRatioAtLeast")) for r in out_rows]
cold = [r["coldRatio"] for r in out_rows]
section = {
    "date": time.strftime("%Y-%m-%d"), "commit": commit, "runs": runs, "repeat": repeat,
    "machine": machine(),
    "document": {"bytes": os.path.getsize(document), "snapshotBytes": os.path.getsize(snapshot), "seed": int(os.environ.get("SEED", "1"))},
    "peers": {"python": "python-jsonpath %s, JSONPathEnvironment(strict=True), findall on the document json.load gave" %
              subprocess.run(["/usr/bin/python3", "-c", "import importlib.metadata as m; print(m.version('python-jsonpath'))"],
                             capture_output=True, text=True).stdout.strip(),
              "jq": subprocess.run(["jq", "--version"], capture_output=True, text=True).stdout.strip()},
    "warm": {"note": "python-jsonpath's best findall / our best evaluation, each on its loaded document (target: geometric mean at least 50)",
             "geometricMeanRatio": geomean(warm), "lowestRatio": min(warm), "lowestRatioQuery": out_rows[warm.index(min(warm))]["query"],
             "queriesNotFinishedInTime": sum(1 for r in out_rows if "warmRatioAtLeast" in r)},
    "cold": {"note": "jq's whole process (load the JSON, answer) / ours (map and check the snapshot, answer) (target: at least 50); "
                     "each run: jq once, ours the best of processesPerRun, answering on threads",
             "processesPerRun": cold_processes, "threads": cold_threads, "staticSwiftStdlib": os.environ.get("COLD_STATIC") == "1",
             "geometricMeanRatio": geomean(cold), "lowestRatio": min(cold), "lowestRatioQuery": out_rows[cold.index(min(cold))]["query"]},
    "queries": out_rows,
}
report = {}
if os.path.exists(output):
    with open(output) as f:
        report = json.load(f)
report.setdefault("tool", "scripts/query-vs-peers.sh")
report["jsonpath"] = section
with open(output, "w") as f:
    json.dump(report, f, indent=1)
    f.write("\n")
print("JSONPath warm: geometric mean %.1fx python-jsonpath, lowest %.1fx (%s)" % (
    section["warm"]["geometricMeanRatio"], section["warm"]["lowestRatio"], section["warm"]["lowestRatioQuery"]), file=sys.stderr)
print("JSONPath cold: geometric mean %.1fx jq, lowest %.1fx (%s)" % (
    section["cold"]["geometricMeanRatio"], section["cold"]["lowestRatio"], section["cold"]["lowestRatioQuery"]), file=sys.stderr)
print("wrote %s" % output, file=sys.stderr)
PY
fi
