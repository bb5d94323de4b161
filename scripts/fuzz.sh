#!/usr/bin/env bash
# Runs one libFuzzer harness of Fuzz/ for a bounded time.
# Usage: scripts/fuzz.sh TARGET SECONDS [libFuzzer flags...]
#   TARGET: json, xml, html, names (the importers and the directory walker's name handling)
#           tree (ViewTree mutations and queries checked against the naive core)
#           snapshot (the snapshot loader, on bytes as they come and with their checksum repaired)
#           or query (JSONPath, XPath and CSS compiled and evaluated).
# Builds Fuzz/ with -sanitize=fuzzer,address (debug, so the index's invariant checks run),
# starts from the committed seeds (Fuzz/corpus/TARGET) plus what earlier runs found
# (Fuzz/.work/TARGET, not committed), and keeps any crashing input in
# Fuzz/.work/TARGET-crashes. Prints libFuzzer's final stats; exits non-zero on a crash.
set -euo pipefail
cd "$(dirname "$0")/.."
targets="json xml html names tree snapshot query"
if [ $# -lt 2 ] || ! [[ " $targets " == *" $1 "* ]] || ! [[ "$2" =~ ^[0-9]+$ ]]; then
    echo "usage: scripts/fuzz.sh TARGET SECONDS [libFuzzer flags...]  (TARGET: ${targets// /, })" >&2
    exit 64
fi
target=$1
seconds=$2
shift 2
# lld: the system's gold linker stops with an internal error on the instrumented objects.
swift build --package-path Fuzz -c debug -Xswiftc -sanitize=fuzzer,address -Xswiftc -use-ld=lld \
    --product "fuzz-$target" 2>&1 | grep -vE "^\[[0-9]+/[0-9]+\]" || true
bin="$(swift build --package-path Fuzz -c debug -Xswiftc -sanitize=fuzzer,address -Xswiftc -use-ld=lld --show-bin-path)/fuzz-$target"
[ -x "$bin" ] || { echo "error: fuzz-$target did not build" >&2; exit 1; }
work=Fuzz/.work/$target
crashes=Fuzz/.work/$target-crashes
mkdir -p "$work" "$crashes"
echo "== fuzz-$target for $seconds s (seeds: Fuzz/corpus/$target, corpus: $work)"
# -timeout: an input that runs 10 s is a hang; -rss_limit_mb: 2 GB is a leak or a blowup.
# Swift's backtracer is off: on a crash under ASan it can wait indefinitely; libFuzzer and
# ASan print the stack and keep the input.
SWIFT_BACKTRACE=enable=no "$bin" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$crashes/" "$@" "$work" "Fuzz/corpus/$target"
