#!/usr/bin/env bash
# The cost of reading random cache lines on this machine, by the size of the region they
# lie in (scripts/peers/memory-latency.c): the floor under a query that must touch random
# views (64 MB of them at 10^6 nodes) or column entries (4 to 8 MB per column). Writes
# docs/data/memory-latency.json (or the path given) with the machine's CPU and the figures.
# Usage: scripts/memory-latency.sh [OUTPUT]
set -euo pipefail
cd "$(dirname "$0")/.."
output=${1:-docs/data/memory-latency.json}
work=${WORK:-.build-peers}
mkdir -p "$work"
source scripts/need-debs.sh
need_debs gcc
gcc -O2 -o "$work/memory-latency" scripts/peers/memory-latency.c
python3 - "$work/memory-latency" "$output" <<'PY'
import json, os, platform, subprocess, sys, time
binary, output = sys.argv[1], sys.argv[2]
sys.path.insert(0, "scripts")
from machine import machine
regions = json.loads(subprocess.run([binary], check=True, capture_output=True, text=True).stdout)
for r in regions:
    r.pop("keep", None)
m = machine()
report = {"date": time.strftime("%Y-%m-%d"), "cpu": m["cpu"], "cores": m["cores"], "machine": m, "regions": regions}
json.dump(report, open(output, "w"), indent=2)
print(json.dumps(report, indent=2))
PY
