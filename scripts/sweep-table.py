#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""sweep-table.py - the ranking table of gputbs-sim sweep results, as RST.

Usage: scripts/sweep-table.py SWEEP.json...

Reads the JSON of whole (or merged) sweeps and prints one table: a row
per policy and preemption mode, a column per workload, each cell
"goodput / throughput kept", the highest load at which every run with an
SLO meets it at p99 (and at every lower load), and the closed loops'
throughput_vs_alone there ("-" without a closed loop; "none" when the
lowest load already misses an SLO).  The JSON's "goodput" list is the
source; nothing is recomputed (Documentation/evaluation.rst, "Serving at
load").
"""
import json
import sys


def main(paths):
    if not paths:
        sys.exit(__doc__.split("\n\n")[1])
    cells, workloads, rows = {}, [], []
    for path in paths:
        with open(path) as f:
            d = json.load(f)
        if "goodput" not in d:
            sys.exit(f"{path}: no \"goodput\" (a shard? merge first)")
        for g in d["goodput"]:
            if g["workload"] not in workloads:
                workloads.append(g["workload"])
            row = (g["policy"], g["preempt"])
            if row not in rows:
                rows.append(row)
            if not g["meets_at_lowest_load"]:
                text = "none"
            else:
                kept = g.get("throughput_vs_alone")
                text = "%.1f / %s" % (g["goodput"], "-" if kept is None
                                      else "%.2f" % kept)
            cells[(row, g["workload"])] = text
    rows.sort(key=lambda r: (r[1] != "drain", r[1]))
    head = ["policy", "preempt"] + workloads
    table = [[p, m] + [cells.get(((p, m), w), "") for w in workloads]
             for p, m in rows]
    width = [max(len(str(x)) for x in col) for col in zip(head, *table)]
    rule = "  ".join("=" * w for w in width)
    print(rule)
    print("  ".join(h.ljust(w) for h, w in zip(head, width)).rstrip())
    print(rule)
    for line in table:
        print("  ".join(c.ljust(w) for c, w in zip(line, width)).rstrip())
    print(rule)


if __name__ == "__main__":
    main(sys.argv[1:])
