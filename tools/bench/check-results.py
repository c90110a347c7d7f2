#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""tools/bench/check-results.py RESULTS.JSON - is a results.json of
`make bench` complete and well-formed?  Used by make check on the smoke
run; asserts nothing about the numbers (benchmarks are not tests)."""

import json
import sys

d = json.load(open(sys.argv[1]))
for key in ("version", "smoke", "date", "host", "guest", "figures",
            "sched_matrix", "preempt", "raw"):
    assert key in d, "missing %s" % key
ids = {}
for f in d["figures"]:
    for key in ("id", "item", "name", "unit", "median", "min", "max", "runs",
                "values", "target", "met", "missed_by"):
        assert key in f, "figure %s: missing %s" % (f.get("id"), key)
    assert f["runs"] >= 1 and len(f["values"]) == f["runs"], f["id"]
    assert f["min"] <= f["median"] <= f["max"], f["id"]
    assert (f["target"] is None) == (f["met"] is None), f["id"]
    assert f["met"] is not False or f["missed_by"], f["id"]
    ids[f["id"]] = f
need = ["abi.getpid", "abi.info", "abi.submit", "abi.submit_wait",
        "abi.poll_wakeup", "sched.fifo.ratio", "sched.srtf.ratio",
        "sched.allocs", "sched.core_alloc_syms", "fidelity.1x.makespan",
        "fidelity.1x.error_p99", "fidelity.10x.makespan",
        "fidelity.100x.makespan", "timer.50us.p50", "sim.events",
        "sim.sweep", "sim.requests", "mem.grid.15", "mem.grid.132", "mem.sm",
        "mem.sim_rss", "bpf.fifo", "bpf.bpf_fifo", "bpf.ratio"]
for mode in ("drain", "switch", "flush", "auto"):
    need += ["preempt.%s.%s" % (mode, k) for k in
             ("latency", "latency_p99", "latency_max", "sm_latency", "sms",
              "rt_slowdown", "rt_slowdown_p99", "be_slowdown")]
missing = [n for n in need if n not in ids]
assert not missing, "missing figures: %s" % ", ".join(missing)
assert {1, 2, 3, 4, 5, 6} <= {f["item"] for f in d["figures"]}
assert d["sched_matrix"], "empty scheduler matrix"
# the target: switch starts the realtime grid on every SM in budget
assert ids["preempt.switch.latency_max"]["target"], "no switch target"
assert [r["mode"] for r in d["preempt"]] == \
    ["drain", "switch", "flush", "auto"], "preempt: mechanisms"
for r in d["preempt"]:
    for k in ("latency", "sm_latency", "rt_slowdown", "be_slowdown"):
        st = r[k]
        assert st["n"] >= 1 and st["p50"] <= st["p99"] <= st["max"], \
            "preempt %s: %s" % (r["mode"], k)
assert not d.get("missing"), "missing guest results: %s" % d["missing"]
print("results: %d figures, %d with targets (%d met); well-formed" %
      (len(ids), sum(f["met"] is not None for f in ids.values()),
       sum(f["met"] is True for f in ids.values())))
