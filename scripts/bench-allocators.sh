#!/usr/bin/env bash
# Runs relative-view-bench under the system allocator and under jemalloc (the Jemalloc
# trait) and prints the two tables side by side. Arguments go to both runs, e.g.
#   scripts/bench-allocators.sh --nodes 100000
# With none, the default suite (1,000,000 nodes, every operation) runs under each.
# Installs libjemalloc-dev with apt-get when pkg-config cannot find jemalloc.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! pkg-config --exists jemalloc 2>/dev/null; then
    echo "installing libjemalloc-dev (apt-get)" >&2
    if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
    $sudo apt-get update -qq >&2
    $sudo apt-get install -y -qq libjemalloc-dev >&2
fi

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

echo "== building (system allocator, then jemalloc in .build-jemalloc)" >&2
swift build -c release --product relative-view-bench >&2
swift build -c release --product relative-view-bench --traits Jemalloc --scratch-path .build-jemalloc >&2

echo "== system allocator" >&2
"$(swift build -c release --show-bin-path)/relative-view-bench" --format json "$@" > "$out/system.json" || [ $? -eq 2 ]
echo "== jemalloc" >&2
"$(swift build -c release --scratch-path .build-jemalloc --show-bin-path)/relative-view-bench" --format json "$@" > "$out/jemalloc.json" || [ $? -eq 2 ]

python3 scripts/compare-allocators.py "$out/system.json" "$out/jemalloc.json"
