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
#   is quadratic there); from the first it does not finish, the longer ones are not tried.
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

/usr/bin/python3 - "$work" "$tool" "$runs" "$output" "${REPEAT:-5}" "${CHAIN_TIMEOUT:-20}" <<'PY'
import json, math, os, platform, statistics, subprocess, sys, time
from cssselect import GenericTranslator

work, tool, runs, output, repeat = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], int(sys.argv[5])
chain_timeout = int(sys.argv[6])
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

def peer(command, path, queries, name, timeout=None):
    """Every query answered by one peer process on one load; with `timeout`, each query in a
    process of its own, and from the first that takes longer than `timeout` seconds on, None
    (the queries of the chain grow in cost: the next would take longer still)."""
    outdir = os.path.join(work, "answers-" + name)
    os.makedirs(outdir, exist_ok=True)
    batches = [queries] if timeout is None else [[q] for q in queries]
    results = []
    for batch in batches:
        if timeout is not None and results and results[-1] is None:
            results.append(None)
            continue
        listing = os.path.join(work, "queries-%s.txt" % name)
        with open(listing, "w", encoding="utf-8") as f:
            f.write("".join(peer_xpath(kind, text) + "\n" for kind, text in batch))
        try:
            done = subprocess.run(command + [path, listing, outdir, str(repeat)], check=True, capture_output=True, text=True,
                                  timeout=timeout)
        except subprocess.TimeoutExpired:
            print("   %s: %r took longer than %d s" % (name, batch[0][1], timeout), file=sys.stderr)
            results.append(None)
            continue
        for line in done.stdout.strip().split("\n"):
            row = json.loads(line)
            if "error" in row:
                sys.exit("%s cannot evaluate %r: %s" % (name, batch[row["query"]][1], row["error"]))
            with open(row["file"]) as f:
                results.append((row, [int(x) for x in f.read().split()]))
    return results

PEERS = [("pugixml", [os.path.join(work, "pugixml-query")]),
         ("lxml", ["/usr/bin/python3", "scripts/peers/lxml-query.py"])]

def measure(path, queries, label, timeout=None):
    """Each query's best time by each program, over the runs; every answer checked against
    ours. With `timeout` (seconds), a peer's query that takes longer is recorded as such."""
    samples = {name: [[] for _ in queries] for name in ["relative-view"] + [p for p, _ in PEERS]}
    mismatches = []
    for run in range(runs):
        for name, command in PEERS:
            print("== run %d/%d: %s, %d queries with %s" % (run + 1, runs, label, len(queries), name), file=sys.stderr)
            for i, answer in enumerate(peer(command, path, queries, name, timeout)):
                if answer is not None:
                    samples[name][i].append(answer)
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

xmark_rows = measure(xmark, QUERIES, "xmark.xml")
chain_rows = measure(nested, CHAIN, "nested.xml", timeout=chain_timeout)
summary = {}
for name, _ in PEERS:
    ratios = [r[name + "Ratio"] for r in xmark_rows]
    summary[name] = {"geometricMeanRatio": geomean(ratios), "lowestRatio": min(ratios),
                     "lowestRatioQuery": min(xmark_rows, key=lambda r: r[name + "Ratio"])["query"],
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
}
with open(output, "w") as f:
    json.dump(report, f, indent=1)
    f.write("\n")
for name, s in summary.items():
    print("%s: geometric mean %.2fx, lowest %.2fx (%s), %d queries slower" % (
        name, s["geometricMeanRatio"], s["lowestRatio"], s["lowestRatioQuery"], s["queriesSlowerThanPeer"]), file=sys.stderr)
print("wrote %s" % output, file=sys.stderr)
PY
