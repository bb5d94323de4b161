#!/usr/bin/env python3
"""The processor a measurement ran on, one way for every script that records it.

Issue 35 asks each run to name its processor well enough to tell this project's two kinds
apart (an AMD EPYC with or without AVX-512, an Intel Xeon with it): peers pick their
kernels by it (simdjson: icelake with AVX-512, haswell without), so ratios differ between
them. The scripts import `machine()` (`sys.path.insert(0, "scripts")`, run from the
repository's root); `python3 scripts/machine.py` prints the JSON, `--line` one line.
"""
import json
import os
import platform
import sys


def machine():
    """The model name, vendor, family and model numbers, AVX2 and AVX-512, and core count."""
    info = {}
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                key, _, value = line.partition(":")
                key = key.strip()
                if key in ("model name", "vendor_id", "cpu family", "model", "flags") and key not in info:
                    info[key] = value.strip()
    except OSError:
        pass
    flags = set(info.get("flags", "").split())
    return {"cpu": info.get("model name", platform.processor()), "vendor": info.get("vendor_id"),
            "family": int(info["cpu family"]) if info.get("cpu family", "").isdigit() else None,
            "model": int(info["model"]) if info.get("model", "").isdigit() else None,
            "avx2": "avx2" in flags, "avx512f": "avx512f" in flags, "cores": os.cpu_count()}


def line(m=None):
    """One line for a report: `AMD EPYC (AuthenticAMD, family 25 model 1), AVX-512 no, 2 cores`."""
    m = m or machine()
    return (f"{m['cpu']} ({m['vendor']}, family {m['family']} model {m['model']}), "
            f"AVX-512 {'yes' if m['avx512f'] else 'no'}, {m['cores']} cores")


if __name__ == "__main__":
    print(line() if sys.argv[1:] == ["--line"] else json.dumps(machine(), indent=2))
