#!/usr/bin/env bash
# The scaling report: runs relative-view-bench (release) on the four tree shapes at
# 10^3 to 10^6 nodes and writes docs/benchmarks.md with its tables and docs/plots/*.png
# (ns/op against nodes, log-log, arena vs naive core), with the machine and date.
#
#   scripts/bench-report.sh            # the full report (about 45 minutes on 2 cores)
#   scripts/bench-report.sh --quick    # 10^3 and 10^4 nodes only, to try the script
#
# The chain and the wide tree stop at 10^5 nodes: the naive core builds a chain in O(n²)
# (its addSubview walks the superview chain, as the original's cycle check does), and groups
# the root's 10^6 children copying a group on every append; hours at 10^6 either way.
# NAIVE_BUDGET (seconds, default 60) bounds each naive whole-tree grouping.
# Installs matplotlib with pip when it is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

big="100000,1000000"; chain_big="100000"
if [ "${1:-}" = "--quick" ]; then big=""; chain_big=""; fi
sizes="1000,10000${big:+,$big}"
chain_sizes="1000,10000${chain_big:+,$chain_big}"

python3 -c "import matplotlib" 2>/dev/null || python3 -m pip install -q matplotlib

swift build -c release --product relative-view-bench
bin="$(swift build -c release --show-bin-path)/relative-view-bench"

data=docs/data
mkdir -p "$data" docs/plots
{
    echo "Machine: $(python3 scripts/machine.py --line), $(free -g | awk '/^Mem:/ {print $2}') GiB;"
    echo "$(swift --version 2>&1 | head -1); $(uname -sr); commit $(git rev-parse --short HEAD); $(date -u '+%Y-%m-%d %H:%M UTC')."
} > "$data/machine.txt"

# Every operation on the random and balanced trees. The wide tree and the chain skip churn:
# the naive core moves a node to the back of a list of 10^5 siblings (or walks a chain
# of 10^5 superviews) on each of its steps, which takes hours.
all_ops=""
for shape in random balanced wide chain; do
    s=$sizes
    # The wide tree and the chain stop at 10^5 nodes (see the header of docs/benchmarks.md).
    case "$shape" in wide|chain) s=$chain_sizes ;; esac
    ops=()
    case "$shape" in wide|chain) ops=(--ops "$(echo "$all_ops" | tr ',' '\n' | grep -vx churn | paste -sd, -)") ;; esac
    echo "== $shape: $s nodes" >&2
    # Exit status 2 means an answer differed from the naive core's: stop, the report would be false.
    "$bin" --shape "$shape" --sizes "$s" --naive-budget "${NAIVE_BUDGET:-60}" "${ops[@]}" --format json > "$data/$shape.json"
    if [ -z "$all_ops" ]; then
        all_ops=$(python3 -c 'import json, sys
rows = next(v for v in json.load(open(sys.argv[1])).values() if isinstance(v, list) and v and isinstance(v[0], dict) and "op" in v[0])
print(",".join(dict.fromkeys(r["op"] for r in rows)))' "$data/$shape.json")
    fi
done

NAIVE_BUDGET="${NAIVE_BUDGET:-60}" python3 scripts/bench-report.py docs "$data/machine.txt" "$data"/random.json "$data"/balanced.json "$data"/wide.json "$data"/chain.json
