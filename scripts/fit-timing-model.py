#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Fit the few global constants of the co-running timing model.

Documentation/timing-model.rst, "Calibration".  Per-kernel evidence fixes
what it can (each fixed value is cited in workloads/ercbench/kernels.gtbs):

  * SHA1's memory share phi is 0: the paper's Section "Effect of Residency"
    says SHA1 is limited by issue and by its dependent chains, and Section
    "Effects of Co-runners" that SHA1's threads slow mb_sad_calc down more
    than any other co-runner's, which in the demand-overlap model means
    SHA1 has the lowest phi of all kernels;
  * SAD's knee: t(1) is about 16,000 cycles (Section "Effects of
    Co-runners") and t(R = 8) 32,332 (Table "Runtimes"), so
    (K + 2) / (K + 16) = 16000 / 32332: K = 11.72 warps;
  * NLM2's phi follows from SAD's: mb_sad_calc goes from about 16,000 to
    about 28,000 cycles beside seven NLM2 blocks, so NLM2's 14 warps add
    14 c(SAD, NLM2) = 0.75 (11.72 + 2) warps: c(SAD, NLM2) = 0.735.

What the kernels are known to do sorts the rest into classes that share
one phi each (the global constants fitted here):

  * compute: AES-d, AES-e (T-box lookups in shared memory and integer
    ALU work) and RayTracing's render (floating-point intersection tests),
    above SHA1's 0 so that SHA1 stays the worst co-runner of mb_sad_calc
    among kernels with as many threads;
  * JPEG: the 8x8 DCT and IDCT (global loads and stores of every block
    between shared-memory butterflies);
  * SAD: mb_sad_calc (reference-frame reads and absolute differences).

The fit runs "gputbs-sim eval --offsets 0" for every point of a grid of
(phi_compute, phi_JPEG, phi_SAD) and keeps the point with the most
geomean cells of the paper's offset-0 Table within 5%, then the most
metrics (STP, ANTT, fairness) with the paper's order of its policies at
offset 0, then the smallest sum of squared relative errors over those 15
cells.  The 25% and 50%
Tables and the paper's per-pair statements are held out: this script
never reads them.

  scripts/fit-timing-model.py [--sim build/bin/gputbs-sim] [--write]
                              [--fit-offset 0|25|50]

prints the chosen constants and whether workloads/ercbench/kernels.gtbs
has them; --write puts them there.  --fit-offset 25 (or 50) is the
generalization check of Documentation/evaluation.rst: the same search
fitted to the paper's arrival offset Table at that offset instead (its
12 cells of FIFO, MPMax, SRTF and SRTF/Adaptive), then the chosen point
scored on all 39 cells of the three Tables, so that a fit on one offset
is seen on the ones it never read.  It never writes the file.
"""
import argparse
import itertools
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KERNELS = os.path.join(ROOT, "workloads", "ercbench", "kernels.gtbs")

# The paper's Table "Geomean STP, ANTT and Fairness" (offset 0): fitted.
PAPER0 = {
    "fifo": (1.35, 3.66, 0.19),
    "mpmax": (1.37, 2.15, 0.36),
    "srtf": (1.59, 1.63, 0.52),
    "srtf-adaptive": (1.51, 1.64, 0.56),
    "sjf": (1.82, 1.13, 0.80),
}

# The paper's arrival offset Table (25% and 50%): fitted only with
# --fit-offset, never by the default fit.
PAPER_OFF = {
    25: {"fifo": (1.44, 2.74, 0.27), "mpmax": (1.45, 2.05, 0.38),
         "srtf": (1.62, 1.60, 0.53), "srtf-adaptive": (1.56, 1.65, 0.56)},
    50: {"fifo": (1.48, 2.36, 0.32), "mpmax": (1.49, 1.93, 0.40),
         "srtf": (1.63, 1.56, 0.55), "srtf-adaptive": (1.59, 1.58, 0.59)},
}

SAD_KNEE = 11.72        # warps, from t(1) / t(R)
C_SAD_NLM2 = 0.735      # 0.75 * (11.72 + 2) / 14
GRID = {
    # above SHA1's 0: SHA1 is the worst co-runner of mb_sad_calc
    "compute": [0.05, 0.1, 0.15, 0.2, 0.3],
    "jpeg": [0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6],
    "sad": [0.0, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3],
}
PROGRAM_CLASS = {
    "AES-d": "compute", "AES-e": "compute", "RayTracing": "compute",
    "JPEG-d": "jpeg", "JPEG-e": "jpeg", "SAD": "sad",
}


def nlm2_phi(s):
    """NLM2's phi with c(SAD, NLM2) = C_SAD_NLM2, clamped to 0..1."""
    a = 1.0 - s
    norm = a * a + s * s
    # c = (a (1 - n) + s n) / norm = (a + n (s - a)) / norm
    if abs(s - a) < 1e-9:
        return 1.0
    n = (C_SAD_NLM2 * norm - a) / (s - a)
    return min(1.0, max(0.0, n))


def phis(point):
    """Per program, its mem= percent, for a point of the grid."""
    v = {p: point[c] for p, c in PROGRAM_CLASS.items()}
    v["SHA1"] = 0.0
    v["NLM2"] = nlm2_phi(point["sad"])
    return v


def rewrite(text, values):
    """kernels.gtbs with each program's grid line given mem= (and SAD's knee)."""
    out, prog = [], None
    for line in text.splitlines(keepends=True):
        m = re.match(r"program\s+(\S+)", line)
        if m:
            prog = m.group(1)
        if line.startswith("grid ") and prog in values:
            line = re.sub(r" mem=\S+", "", line)
            line = re.sub(r" knee=\S+", "", line)
            extra = " mem=%.4g" % (100 * values[prog])
            if prog == "SAD":
                extra += " knee=%g" % SAD_KNEE
            line = re.sub(r"( expect=)", extra + r"\1", line, count=1)
        out.append(line)
    return "".join(out)


def evaluate(sim, text, workdir, offset=0):
    table = PAPER0 if offset == 0 else PAPER_OFF[offset]
    with open(os.path.join(workdir, "kernels.gtbs"), "w") as f:
        f.write(text)
    res = subprocess.run([sim, "eval", "--workloads", workdir, "--offsets",
                          str(offset), "--policies", ",".join(table),
                          "--format", "json"], capture_output=True,
                         text=True, check=True)
    ev = json.loads(res.stdout)
    within, sse = 0, 0.0
    orders = ev["paper_statements"]["orders_as_paper"]
    for pol in ev["offsets"][0]["policies"]:
        want = table[pol["policy"]]
        got = (pol["geomean"]["stp"], pol["geomean"]["antt"],
               pol["geomean"]["strictf"])
        for w, g in zip(want, got):
            err = (g - w) / w
            sse += err * err
            within += abs(g - w) <= 0.05 * w
    return within, orders, sse


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sim", default=os.path.join(ROOT, "build", "bin",
                                                  "gputbs-sim"))
    ap.add_argument("--write", action="store_true")
    ap.add_argument("--fit-offset", type=int, choices=(0, 25, 50), default=0)
    args = ap.parse_args()
    if args.fit_offset and args.write:
        ap.error("--fit-offset is a check: it never writes the file")
    base = open(KERNELS).read()
    work = tempfile.mkdtemp(prefix="gputbs-fit.")
    best = None
    try:
        keys = sorted(GRID)
        for combo in itertools.product(*(GRID[k] for k in keys)):
            point = dict(zip(keys, combo))
            within, orders, sse = evaluate(args.sim,
                                           rewrite(base, phis(point)), work,
                                           args.fit_offset)
            score = (-within, -orders, sse)
            if best is None or score < best[0]:
                best = (score, point, within, orders, sse)
        _, point, within, orders, sse = best
        values = phis(point)
        if args.fit_offset:
            return score_all(args, base, values, point, within, work)
    finally:
        shutil.rmtree(work)
    print("fit: %d of 15 offset-0 cells within 5%%, the paper's order in %d "
          "of 3 metrics, sum of squared relative errors %.4f" %
          (within, orders, sse))
    for k in sorted(point):
        print("  phi %-8s %.2f" % (k, point[k]))
    print("  phi SHA1     0.00 (evidence)\n  phi NLM2     %.3f (from SAD's "
          "co-runner figure)\n  knee SAD     %g warps (evidence)" %
          (values["NLM2"], SAD_KNEE))
    fitted = rewrite(base, values)
    if args.write:
        with open(KERNELS, "w") as f:
            f.write(fitted)
        print("wrote", os.path.relpath(KERNELS, ROOT))
    elif fitted != base:
        print("workloads/ercbench/kernels.gtbs differs from the fit "
              "(--write updates it)")
        return 1
    else:
        print("workloads/ercbench/kernels.gtbs has these values")
    return 0


def score_all(args, base, values, point, within, work):
    """--fit-offset: the point fitted there, scored on every Table cell."""
    with open(os.path.join(work, "kernels.gtbs"), "w") as f:
        f.write(rewrite(base, values))
    res = subprocess.run([args.sim, "eval", "--workloads", work,
                          "--format", "json"], capture_output=True,
                         text=True, check=True)
    ev = json.loads(res.stdout)
    print("fit on the %d%% Table: %d of 12 of its cells within 5%%" %
          (args.fit_offset, within))
    for k in sorted(point):
        print("  phi %-8s %.2f" % (k, point[k]))
    print("  phi NLM2     %.3f (from SAD's co-runner figure)" % values["NLM2"])
    for off in ev["offsets"]:
        n = tot = 0
        for pol in off["policies"]:
            if pol["policy"] not in PAPER0:  # the Tables' policies
                continue
            paper = pol.get("paper") or {}
            for k in ("stp", "antt", "strictf"):
                if paper.get(k) is None:
                    continue
                tot += 1
                n += abs(pol["geomean"][k] - paper[k]) <= 0.05 * paper[k]
        print("  scored at %3d%%: %2d of %2d cells within 5%%%s" %
              (off["offset_pct"], n, tot,
               " (fitted)" if off["offset_pct"] == args.fit_offset else
               " (held out)"))
    print("  all Tables: %d of 39 (gputbs-sim eval's count)" %
          ev["paper_statements"]["cells_within_5pct"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
