#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The module's evaluation sweep against the simulator's (make eval).

Usage: eval-compare.py KERNEL.json SIM.json [TOLERANCE_PCT]

KERNEL.json is the JSON of "gputbs eval" (the sweep on the module in the
guest), SIM.json that of "gputbs-sim eval" with the same options and the
module's SJF key (--sjf-key model).  Prints, per offset and policy, the
geomean STP, ANTT and StrictF of both and their relative difference
(kernel - simulator) / simulator in percent, flagged with "!" above the
tolerance (default 5%), then how many pairs have exactly the simulator's
cycles.  Exit status 1 if a geomean STP or ANTT differs by more than the
tolerance (StrictF is reported, not judged), 2 if the two sweeps are not
comparable (other programs, pairs, offsets, policies, seeds or SJF key).
"""
import json
import sys


def load(path):
    with open(path) as f:
        return json.load(f)


def same_setup(k, s):
    """Why the sweeps are not comparable, or None."""
    for key in ("nr_sms", "seed", "sjf_key", "offset0_cycles", "policies",
                "offsets_pct"):
        if k.get(key) != s.get(key):
            return "%s: kernel %r, simulator %r" % (key, k.get(key),
                                                    s.get(key))
    kp = [a["program"] for a in k["alone"]]
    sp = [a["program"] for a in s["alone"]]
    if kp != sp:
        return "programs: kernel %r, simulator %r" % (kp, sp)
    return None


def cycles(pair):
    return [(p["arrive_cycle"], p["shared_cycles"],
             [(g["submit_cycle"], g["start_cycle"], g["end_cycle"])
              for g in p["grids"]]) for p in pair["programs"]]


def main():
    if len(sys.argv) not in (3, 4):
        sys.stderr.write(__doc__)
        return 2
    k, s = load(sys.argv[1]), load(sys.argv[2])
    tol = float(sys.argv[3]) if len(sys.argv) == 4 else 5.0
    why = same_setup(k, s)
    if why:
        print("eval-compare: the sweeps are not comparable: " + why)
        return 2
    metrics = ("stp", "antt", "strictf")
    names = {"stp": "STP", "antt": "ANTT", "strictf": "StrictF"}
    npairs = len(k["offsets"][0]["policies"][0]["pairs"])
    print("module (gputbs eval, %s ps per cycle) against the simulator "
          "(gputbs-sim eval --sjf-key %s):" % (k.get("time_scale_ps"),
                                               s["sjf_key"]))
    print("geomeans over %d pairs; diff = (module - simulator) / simulator; "
          "\"!\": above %g%%" % (npairs, tol))
    head1 = "  %-6s  %-14s" % ("", "")
    head2 = "  %-6s  %-14s" % ("offset", "policy")
    for m in metrics:
        head1 += "  | %-23s" % names[m]
        head2 += "  | %6s %6s %9s" % ("module", "sim", "diff")
    print(head1.rstrip())
    print(head2)
    bad = []
    worst = {m: 0.0 for m in metrics}
    exact = total = 0
    for ko, so in zip(k["offsets"], s["offsets"]):
        off = "%d%%" % ko["offset_pct"] if ko["offset_pct"] else "0"
        for kp, sp in zip(ko["policies"], so["policies"]):
            line = "  %-6s  %-14s" % (off, kp["policy"])
            for m in metrics:
                kv, sv = kp["geomean"][m], sp["geomean"][m]
                d = 100.0 * (kv - sv) / sv
                worst[m] = max(worst[m], abs(d))
                flag = "!" if abs(d) > tol else " "
                line += "  | %6.3f %6.3f %+7.2f%%%s" % (kv, sv, d, flag)
                if abs(d) > tol and m != "strictf":
                    bad.append("%s %s %s %+.2f%%" % (off, kp["policy"],
                                                    names[m], d))
            print(line.rstrip())
            for kq, sq in zip(kp["pairs"], sp["pairs"]):
                total += 1
                exact += kq["pair"] == sq["pair"] and cycles(kq) == cycles(sq)
    print("largest difference: STP %.2f%%, ANTT %.2f%%, StrictF %.2f%%"
          % (worst["stp"], worst["antt"], worst["strictf"]))
    print("pair runs with exactly the simulator's cycles (arrival, start "
          "and end of every grid): %d of %d" % (exact, total))
    if bad:
        print("eval-compare: FAIL: geomeans more than %g%% from the "
              "simulator's: %s" % (tol, "; ".join(bad)))
        return 1
    print("eval-compare: OK: every geomean STP and ANTT within %g%% of the "
          "simulator's" % tol)
    return 0


if __name__ == "__main__":
    sys.exit(main())
