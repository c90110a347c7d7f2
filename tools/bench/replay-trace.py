#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""A block trace (Documentation/trace-format.rst) of N grids all running at
once on a device of S SMs, for the replay bench of `make bench`
(scripts/bench.sh): grid g has two blocks, one after the other, on SM
g mod S in slot (g div S) mod 64, the first starting at cycle g, so every
grid has started before any ends and every launch and end reslices every
other grid.  At most 64 x S grids (one slot each).

  tools/bench/replay-trace.py --grids N --sms S > FILE
"""
import argparse
import sys


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--grids", type=int, required=True)
    ap.add_argument("--sms", type=int, default=1024)
    args = ap.parse_args()
    if not 1 <= args.sms <= 1024 or not 1 <= args.grids <= min(65536,
                                                               64 * args.sms):
        ap.error("--grids 1..min(65536, 64 x --sms), --sms 1..1024")
    n, s = args.grids, args.sms
    out = sys.stdout
    out.write("# %d grids running at once on %d SMs (replay-trace.py)\n" %
              (n, s))
    for g in range(n):
        out.write("grid %d blocks=2 residency=1\n" % g)
    for g in range(n):
        sm, slot = g % s, (g // s) % 64
        out.write("block %d %d %d %d %d\n" % (g, sm, slot, g, g + n + 1))
        out.write("block %d %d %d %d %d\n" %
                  (g, sm, slot, g + n + 1, g + 2 * n + 2))


if __name__ == "__main__":
    main()
