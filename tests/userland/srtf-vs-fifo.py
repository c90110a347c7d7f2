#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""srtf-vs-fifo.py RUN.json - the paper's claim on the module's own numbers.

Reads the JSON of `gputbs run --format json --policy fifo,srtf,...` over
several ERCBench pairs and checks that SRTF's geomean STP is above FIFO's
and its geomean ANTT below (paper Table "Geomean STP, ANTT and Fairness").
Prints one line per check and "srtf: N passed, M failed".
"""
import json
import sys


def main():
    with open(sys.argv[1]) as f:
        run = json.load(f)
    geo = {p["policy"]: p["geomean"] for p in run["policies"]}
    checks = [
        ("SRTF geomean STP above FIFO's",
         geo["srtf"]["stp"] > geo["fifo"]["stp"]),
        ("SRTF geomean ANTT below FIFO's",
         geo["srtf"]["antt"] < geo["fifo"]["antt"]),
    ]
    for name in sorted(geo):
        print("%-5s geomean STP %.3f ANTT %.3f StrictF %.3f" %
              (name, geo[name]["stp"], geo[name]["antt"],
               geo[name]["strictf"]))
    failed = 0
    for name, ok in checks:
        print("%s: %s" % ("ok" if ok else "FAIL", name))
        failed += not ok
    print("srtf: %d passed, %d failed" % (len(checks) - failed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
