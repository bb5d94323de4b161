#!/usr/bin/env bash
# The soak: random mutation-and-query sequences against the naive core, core and facade,
# seed after seed, for about SECONDS (each seed runs 20,000 steps per layer to the end).
# Usage: scripts/soak.sh SECONDS [FIRST_SEED]
# Prints the seeds, the steps run and the mismatches; exits non-zero on any mismatch.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -lt 1 ] || ! [[ "$1" =~ ^[0-9]+$ ]] || { [ $# -ge 2 ] && ! [[ "$2" =~ ^[0-9]+$ ]]; }; then
    echo "usage: scripts/soak.sh SECONDS [FIRST_SEED]" >&2
    exit 64
fi
# Debug build: the index's full invariant check runs after every core mutation.
RELATIVE_VIEW_SOAK_SECONDS=$1 RELATIVE_VIEW_SOAK_FIRST_SEED=${2:-1000} \
    swift test --filter SoakTests 2>&1 | grep -E "^soak:|^✘|Test run with|error:"
