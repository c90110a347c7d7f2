#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The paper's claim about preemption, measured: `make eval-preempt`.

The paper's Section "System Throughput" ends on a claim it could not
test: that the inability to preempt running thread blocks is the major
limiter of SRTF's throughput.  This script runs the simulator's sweep
(gputbs-sim eval: the 56 ERCBench pairs at each offset) once with the
paper's scheduler (every SM drains) and then with each preemption
mechanism of sm-emu/preempt.c, with the context-switch bandwidth swept,
and prints, per offset, policy, mechanism and bandwidth:

- the geomean STP and ANTT over the 56 pairs;
- the share of the FIFO->SJF STP gap it bridges,
  (STP - STP_FIFO) / (STP_SJF - STP_FIFO), FIFO and SJF being the paper's
  (drain; sjf is the clairvoyant serial SJF), beside the paper's 49% for
  SRTF (Sections "Introduction" and "Conclusion");
- the worst ANTT of a pair and which pair, beside the paper's 37.77
  (SRTF) and 30.95 (SRTF/Adaptive), Section "Fairness".

"switch (predicted)" is SRTF's literal reading (--param
preempt_unknown=predicted: only grids with predictions preempt or are
preempted), the other rows gputbs' default (preempt_unknown=sample).

Flush and auto run with every grid declared idempotent (--idempotent):
ERCBench kernels write outputs that do not feed their inputs, so a
block may run again from its start.

Output: the tables as reStructuredText on stdout (what
Documentation/evaluation.rst shows), and every sweep's JSON under
--out.  Exit status 1 if a run fails.
"""
import argparse
import json
import os
import subprocess
import sys

# bytes per cycle per SM: the per-SM share of DRAM bandwidth of a Fermi
# GTX 480 (177.4 GB/s / 1.401 GHz / 15 SMs = 8.4), an A100 (1555 GB/s /
# 1.41 GHz / 108 = 10.2), an H100 SXM (3350 GB/s / 1.755 GHz / 132 =
# 14.5); 4 is half Fermi's share, and 126 one Fermi SM given the whole
# device's bandwidth (177.4 / 1.401).
BANDWIDTHS = [4, 8, 15, 32, 126]
DEFAULT_BW = 8
POLICIES = ["srtf", "srtf-adaptive", "srtf-oracle"]
PAPER_GAP = {"srtf": "49%"}
PAPER_WORST = {"srtf": "37.77", "srtf-adaptive": "30.95"}


def sweep(sim, out, name, args):
    """Run gputbs-sim eval with @args; return its JSON."""
    path = os.path.join(out, name + ".json")
    cmd = [sim, "eval", "--format", "json"] + args
    with open(path, "w") as f:
        r = subprocess.run(cmd, stdout=f, stderr=subprocess.PIPE, text=True)
    if r.returncode:
        sys.stderr.write("eval-preempt: %s failed (%d): %s\n" %
                         (" ".join(cmd), r.returncode, r.stderr.strip()))
        sys.exit(1)
    with open(path) as f:
        return json.load(f)


def results(d):
    """{(offset, policy): (geomean stp, antt, worst antt, worst pair)}"""
    res = {}
    for o in d["offsets"]:
        for p in o["policies"]:
            worst = max(p["pairs"], key=lambda q: q["antt"])
            res[(o["offset_pct"], p["policy"])] = (
                p["geomean"]["stp"], p["geomean"]["antt"], worst["antt"],
                worst["pair"])
    return res


def gap(stp, fifo, sjf):
    """Percent of the FIFO->SJF STP gap that @stp bridges."""
    return (stp - fifo) / (sjf - fifo) * 100


def table(hdr, rows):
    """Print a reStructuredText simple table."""
    widths = [max(len(str(r[i])) for r in rows + [hdr])
              for i in range(len(hdr))]
    sep = "  ".join("=" * w for w in widths)
    print(sep)
    print("  ".join(h.ljust(w) for h, w in zip(hdr, widths)).rstrip())
    print(sep)
    for r in rows:
        print("  ".join(str(c).ljust(w) for c, w in zip(r, widths)).rstrip())
    print(sep)


def offset_name(o):
    return "0" if o == 0 else "%d%%" % o


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sim", default="build/bin/gputbs-sim")
    ap.add_argument("--out", default="build/eval/preempt")
    ap.add_argument("--offsets", default="0,25,50")
    ap.add_argument("--jobs", default=None)
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    common = ["--offsets", a.offsets]
    if a.jobs:
        common += ["--jobs", a.jobs]
    pols = ",".join(["fifo"] + POLICIES + ["sjf"])
    base = results(sweep(a.sim, a.out, "drain",
                         common + ["--policies", pols]))
    runs = [("drain", None, base)]
    for mech in ("switch", "flush", "auto"):
        extra = ["--idempotent"] if mech != "switch" else []
        bws = BANDWIDTHS if mech != "flush" else [None]
        for bw in bws:
            args = common + ["--policies", ",".join(POLICIES),
                             "--preempt", mech] + extra
            name = mech
            if bw is not None:
                args += ["--switch-bw", str(bw)]
                name += "-bw%d" % bw
            runs.append((mech, bw, results(sweep(a.sim, a.out, name, args))))
    # SRTF's literal reading: only grids with predictions take part
    args = common + ["--policies", "srtf,srtf-adaptive", "--preempt",
                     "switch", "--switch-bw", str(DEFAULT_BW), "--param",
                     "preempt_unknown=predicted"]
    runs.append(("switch (predicted)", DEFAULT_BW,
                 results(sweep(a.sim, a.out, "switch-predicted", args))))

    offsets = [int(x) for x in a.offsets.split(",")]
    by = {(m, b): r for m, b, r in runs}
    print(".. tables generated by scripts/eval-preempt.py (make eval-preempt)")
    print()
    print("Gap bridged and worst ANTT at %d bytes per cycle per SM:" %
          DEFAULT_BW)
    print()
    hdr = ("offset", "policy", "preemption", "STP", "ANTT", "gap bridged",
           "paper", "worst ANTT", "worst pair", "paper")
    rows = []
    for o in offsets:
        fifo = base[(o, "fifo")]
        sjf = base[(o, "sjf")]
        first = o == 0
        rows.append((offset_name(o), "fifo", "drain", "%.3f" % fifo[0],
                     "%.3f" % fifo[1], "0%", "", "%.2f" % fifo[2], fifo[3],
                     "425.45" if first else ""))
        rows.append((offset_name(o), "sjf", "drain", "%.3f" % sjf[0],
                     "%.3f" % sjf[1], "100%", "", "%.2f" % sjf[2], sjf[3],
                     ""))
        for pol in POLICIES:
            for mech in ("drain", "switch (predicted)", "switch", "flush",
                         "auto"):
                bw = None if mech in ("drain", "flush") else DEFAULT_BW
                if (o, pol) not in by[(mech, bw)]:
                    continue
                stp, antt, worst, pair = by[(mech, bw)][(o, pol)]
                paper = first and mech == "drain"
                rows.append((offset_name(o), pol, mech, "%.3f" % stp,
                             "%.3f" % antt,
                             "%.1f%%" % gap(stp, fifo[0], sjf[0]),
                             PAPER_GAP.get(pol, "") if paper else "",
                             "%.2f" % worst, pair,
                             PAPER_WORST.get(pol, "") if paper else ""))
    table(hdr, rows)
    print()
    print("Gap bridged by context switching against its bandwidth "
          "(bytes per cycle per SM):")
    print()
    hdr = ("offset", "policy") + tuple(str(b) for b in BANDWIDTHS)
    rows = []
    for o in offsets:
        fifo = base[(o, "fifo")][0]
        sjf = base[(o, "sjf")][0]
        for pol in POLICIES:
            rows.append((offset_name(o), pol) + tuple(
                "%.1f%%" % gap(by[("switch", b)][(o, pol)][0], fifo, sjf)
                for b in BANDWIDTHS))
    table(hdr, rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
