#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""tools/bench/bench.py - the report of `make bench` (scripts/bench.sh).

Reads what scripts/bench.sh measured (the scheduler and priority benches'
JSON, the guest's "GPUTBS-BENCH-JSON" lines), measures the simulator
itself, and
writes results.json, results.md and results.rst into --out; prints the
table.  Every figure is the median of repeated runs with its spread
(min..max) and the number of runs; a ratio is formed per run from two
measurements of that run.  Targets are those of Documentation/performance.rst;
a missed target says by how much.
"""

import argparse
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import time


def med(v):
    return statistics.median(v) if v else None


class Figures:
    def __init__(self):
        self.items = []

    def add(self, fid, item, name, values, unit, target=None, cmp=None,
            limit=None, note=None, fmt="{:.2f}"):
        """values: one per run.  cmp '<=' or '>=' against limit."""
        values = [v for v in values if v is not None]
        f = {
            "id": fid, "item": item, "name": name, "unit": unit,
            "median": med(values),
            "min": min(values) if values else None,
            "max": max(values) if values else None,
            "runs": len(values), "values": values,
            "target": target, "met": None, "missed_by": None,
            "note": note, "fmt": fmt,
        }
        if cmp and values:
            m = f["median"]
            ok = m <= limit if cmp == "<=" else m >= limit
            f["met"] = ok
            if not ok:
                if cmp == "<=":
                    f["missed_by"] = "%.2fx the limit (%s %s)" % (
                        m / limit if limit else float("inf"),
                        fmt.format(m), unit)
                else:
                    f["missed_by"] = "%.0f%% short (%s of %s %s)" % (
                        100 * (1 - m / limit), fmt.format(m),
                        fmt.format(limit), unit)
        self.items.append(f)
        return f


def guest_results(path):
    out = []
    with open(path, errors="replace") as f:
        for line in f:
            i = line.find("GPUTBS-BENCH-JSON ")
            if i < 0:
                continue
            try:
                out.append(json.loads(line[i + len("GPUTBS-BENCH-JSON "):]))
            except json.JSONDecodeError as e:
                sys.exit("bench: unreadable guest result (%s): %s" %
                         (e, line.strip()[:200]))
    return out


def run_sim(cmd, reps):
    """Wall times (s) and rusage of @reps runs of @cmd; stdout of the last."""
    walls, rss, user, last = [], [], [], None
    for _ in range(reps):
        t0 = time.perf_counter()
        p = subprocess.Popen(cmd, stdout=subprocess.PIPE)
        data = p.stdout.read()
        _, status, ru = os.wait4(p.pid, 0)
        walls.append(time.perf_counter() - t0)
        if os.waitstatus_to_exitcode(status) != 0:
            sys.exit("bench: %s failed" % " ".join(cmd))
        rss.append(ru.ru_maxrss)        # KiB
        user.append(ru.ru_utime + ru.ru_stime)
        last = data
    return walls, rss, user, last


def sim_blocks(ev):
    """Block events of a gputbs-sim eval sweep from its JSON."""
    blocks = {}
    total = 0
    for a in ev["alone"]:
        n = sum(g["blocks"] for g in a["grids"])
        blocks[a["program"]] = n
        total += n
    for o in ev["offsets"]:
        for p in o["policies"]:
            for pair in p["pairs"]:
                for prog in pair["programs"]:
                    total += blocks[prog["program"]]
    return total


def kb(snap, field):
    return snap[field]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--sched", required=True)
    ap.add_argument("--sched-big")
    ap.add_argument("--replay")
    ap.add_argument("--replay-limit", type=float, default=600)
    ap.add_argument("--guest", required=True)
    ap.add_argument("--core-undefined", required=True)
    ap.add_argument("--preempt", required=True)
    ap.add_argument("--sim", required=True)
    ap.add_argument("--sim-reps", type=int, default=5)
    ap.add_argument("--vm-mem", type=int, default=2048)
    ap.add_argument("--load", action="append", default=[])
    ap.add_argument("--started", type=float)
    ap.add_argument("--smoke", action="store_true")
    args = ap.parse_args()

    F = Figures()
    raw = {}

    # ---- 1. ABI overhead (guest) --------------------------------------
    guest = guest_results(args.guest)
    abi = [g for g in guest if g["bench"] == "abi"]
    if not abi:
        sys.exit("bench: no ABI result in %s" % args.guest)
    abi = abi[0]
    raw["abi"] = abi
    gp = abi["getpid_ns"]

    def ratio(key):
        return [x / g for x, g in zip(abi[key], gp)]

    F.add("abi.getpid", 1, "getpid() (the yardstick)", gp, "ns", fmt="{:.0f}")
    F.add("abi.info", 1, "GPUTBS_IOCTL_INFO / getpid()", ratio("info_ns"), "x",
          "<= 1.5", "<=", 1.5)
    if "ioctl_enotty_ns" in abi:
        F.add("abi.enotty", 1,
              "  floor: an unknown ioctl (-ENOTTY) / getpid()",
              ratio("ioctl_enotty_ns"), "x")
    F.add("abi.submit", 1, "SUBMIT (1 block, idle device) / getpid()",
          ratio("submit_ns"), "x", "<= 5", "<=", 5)
    F.add("abi.submit_stream", 1,
          "SUBMIT in a stream of 1-cycle grids / getpid()",
          ratio("submit_stream_ns"), "x")
    F.add("abi.submit_wait", 1,
          "SUBMIT + WAIT, 1 block of 1 cycle / getpid()",
          ratio("submit_wait_ns"), "x", "<= 20", "<=", 20)  # issue 18
    F.add("abi.poll_ready", 1, "poll() on a ready fd / getpid()",
          ratio("poll_ready_ns"), "x")
    F.add("abi.poll_wakeup", 1,
          "poll() wake-up: grid's end -> poll() returns / getpid()",
          ratio("poll_wakeup_end_to_return_ns"), "x", fmt="{:.0f}")
    F.add("abi.info_ns", 1, "GPUTBS_IOCTL_INFO", abi["info_ns"], "ns",
          fmt="{:.0f}")
    F.add("abi.submit_ns", 1, "SUBMIT (1 block, idle device)",
          abi["submit_ns"], "ns", fmt="{:.0f}")
    F.add("abi.submit_stream_ns", 1, "SUBMIT in a stream of 1-cycle grids",
          abi["submit_stream_ns"], "ns", fmt="{:.0f}")
    F.add("abi.submit_wait_ns", 1, "SUBMIT + WAIT", abi["submit_wait_ns"],
          "ns", fmt="{:.0f}")
    F.add("abi.sw_submit_part", 1, "  of which SUBMIT returns",
          abi["submit_wait_submit_part_ns"], "ns", fmt="{:.0f}")
    F.add("abi.sw_end_to_return", 1, "  of which grid's end -> WAIT returns",
          abi["submit_wait_end_to_return_ns"], "ns", fmt="{:.0f}")
    F.add("abi.poll_wakeup_ns", 1, "poll() wake-up (end -> return)",
          abi["poll_wakeup_end_to_return_ns"], "ns", fmt="{:.0f}")

    # ---- 2. scheduler cost at scale (host) ----------------------------
    with open(args.sched) as f:
        sched = json.load(f)
    raw["sched"] = sched
    runs = {}
    for r in sched["runs"]:
        runs[(r["sms"], r["grids"], r["policy"])] = r
    sms_list = sorted({k[0] for k in runs})
    grid_list = sorted({k[1] for k in runs})
    policies = []
    for r in sched["runs"]:
        if r["policy"] not in policies:
            policies.append(r["policy"])
    big_sms = max(sms_list)
    lo_g, hi_g = min(grid_list), max(grid_list)
    allocs = sum(r["allocs_in_loop"] for r in sched["runs"])
    for p in policies:
        one = runs.get((big_sms, lo_g, p))
        many = runs.get((big_sms, hi_g, p))
        F.add("sched.%s.%d" % (p, lo_g), 2,
              "%s, %d SMs, %d grid%s: CPU per block event" %
              (p, big_sms, lo_g, "" if lo_g == 1 else "s"),
              [v / 1000 for v in one["ps_per_event"]], "ns", fmt="{:.0f}")
        F.add("sched.%s.%d" % (p, hi_g), 2,
              "%s, %d SMs, %d grids: CPU per block event" % (p, big_sms, hi_g),
              [v / 1000 for v in many["ps_per_event"]], "ns", fmt="{:.0f}")
        F.add("sched.%s.ratio" % p, 2,
              "%s, %d SMs: %d grids / %d grid" % (p, big_sms, hi_g, lo_g),
              [m / o for m, o in zip(many["ps_per_event"],
                                     one["ps_per_event"])],
              "x", "<= 1.5", "<=", 1.5)
    # a device of 1,024 SMs with 1,024 grids in flight (issue 18)
    if args.sched_big:
        with open(args.sched_big) as f:
            big = json.load(f)
        raw["sched_big"] = big
        bruns = {(r["grids"], r["policy"]): r for r in big["runs"]}
        bsms = big["runs"][0]["sms"]
        bg = sorted({k[0] for k in bruns})
        for p in policies:
            one = bruns.get((bg[0], p))
            many = bruns.get((bg[-1], p))
            if not one or not many:
                continue
            F.add("sched%d.%s.%d" % (bsms, p, bg[-1]), 2,
                  "%s, %d SMs, %d grids: CPU per block event" %
                  (p, bsms, bg[-1]),
                  [v / 1000 for v in many["ps_per_event"]], "ns",
                  fmt="{:.0f}")
            F.add("sched%d.%s.ratio" % (bsms, p), 2,
                  "%s, %d SMs: %d grids / %d grid" % (p, bsms, bg[-1],
                                                       bg[0]),
                  [m / o for m, o in zip(many["ps_per_event"],
                                         one["ps_per_event"])],
                  "x", "<= 2", "<=", 2)
    # gputbs predict: N grids running at once on 1,024 SMs
    if args.replay:
        with open(args.replay) as f:
            for line in f:
                w = line.split()
                if len(w) < 4:
                    continue
                n, rc, secs, rss = int(w[0]), int(w[1]), float(w[2]), \
                    int(w[3])
                stopped = rc == 124
                last = n == 65536
                F.add("replay.%d.s" % n, 2,
                      "gputbs predict, %d grids at once on 1,024 SMs: wall "
                      "time" % n, [secs], "s",
                      "< 60" if last else None, "<=" if last else None, 60,
                      fmt="{:.1f}",
                      note=("stopped at the %.0f s limit" % args.replay_limit)
                      if stopped else (None if rc == 0 else
                                       "exit status %d" % rc))
                F.add("replay.%d.rss" % n, 2, "  peak RSS", [rss / 1024],
                      "MiB", fmt="{:.0f}")
    F.add("sched.allocs", 2,
          "allocations in the measured loops (all configurations)",
          [allocs], "calls", "= 0", "<=", 0, fmt="{:.0f}")
    alloc_syms = []
    with open(args.core_undefined) as f:
        for line in f:
            sym = line.split()[-1] if line.split() else ""
            if re.fullmatch(r"(malloc|calloc|realloc|free|.*alloc.*|"
                            r"posix_memalign|aligned_alloc|mmap|sbrk)", sym):
                alloc_syms.append(sym)
    F.add("sched.core_alloc_syms", 2,
          "allocator symbols referenced by sm-emu/*.o", [len(alloc_syms)],
          "symbols", "= 0", "<=", 0, fmt="{:.0f}",
          note=", ".join(sorted(set(alloc_syms))) or None)

    # BPF policies (guest, Documentation/bpf.rst): bpf_fifo against the
    # built-in fifo it copies, the policies taking turns in each repetition
    pol = [g for g in guest if g["bench"] == "policy"]
    if pol:
        pol = pol[0]
        raw["policy"] = pol
        pe = pol["ps_per_event"]
        for p in pe:
            F.add("bpf.%s" % p, 2,
                  "guest, %s, %d SMs, %d grids: CPU per block event" %
                  (p, pol["nr_sms"], pol["grids"]),
                  [v / 1000 for v in pe[p]], "ns", fmt="{:.0f}")
        if "fifo" in pe and "bpf_fifo" in pe:
            F.add("bpf.ratio", 2, "  bpf_fifo / fifo (per repetition)",
                  [b / f for b, f in zip(pe["bpf_fifo"], pe["fifo"])], "x")

    # ---- 3. emulation fidelity (guest) --------------------------------
    fid = [g for g in guest if g["bench"] == "fidelity"]
    raw["fidelity"] = fid
    default_scale = 1000000
    for g in fid:
        scale = g["time_scale_ps"]
        x = default_scale / scale
        traced = g["kprobe"]
        tag = "%gx" % x
        model = g["makespan_model_ns"]
        over_user = [u / m - 1 for u, m in zip(g["makespan_user_ns"], model)]
        is_default = scale == default_scale
        label = "%s (%d ps/cycle)" % (tag, scale)
        if not traced:
            F.add("fidelity.%s.makespan_notrace" % tag, 3,
                  label + ": the same without the kprobe",
                  [100 * v for v in over_user], "%")
            continue
        tgt = is_default
        F.add("fidelity.%s.makespan" % tag, 3,
              label + ": makespan overhead, SUBMIT -> WAIT returns",
              [100 * v for v in over_user], "%",
              "<= 2" if tgt else None, "<=" if tgt else None, 2)
        F.add("fidelity.%s.makespan_emul" % tag, 3,
              "  makespan overhead to the last block end processed",
              [100 * (e / m - 1) for e, m in zip(g["makespan_emul_ns"],
                                                  model)], "%")
        F.add("fidelity.%s.ratio_p50" % tag, 3,
              "  block duration actual/modelled, p50", g["ratio_p50"], "x",
              fmt="{:.3f}")
        F.add("fidelity.%s.ratio_p99" % tag, 3,
              "  block duration actual/modelled, p99", g["ratio_p99"], "x",
              fmt="{:.3f}")
        F.add("fidelity.%s.error_p99" % tag, 3,
              "  block duration error |actual/modelled - 1|, p99",
              [100 * v for v in g["error_p99"]], "%",
              "<= 10" if tgt else None, "<=" if tgt else None, 10)
        F.add("fidelity.%s.lateness_p50" % tag, 3,
              "  block end lateness (processed - due), p50",
              [v / 1000 for v in g["lateness_p50_ns"]], "us", fmt="{:.0f}")
        F.add("fidelity.%s.lateness_p99" % tag, 3,
              "  block end lateness (processed - due), p99",
              [v / 1000 for v in g["lateness_p99_ns"]], "us", fmt="{:.0f}")
        F.add("fidelity.%s.demand" % tag, 3,
              "  block ends due per second (model)",
              [g["blocks"] / m * 1e6 for m in model], "k/s", fmt="{:.1f}")
        F.add("fidelity.%s.processed" % tag, 3,
              "  block ends processed per second",
              [g["blocks"] / e * 1e6 for e in g["makespan_emul_ns"] if e],
              "k/s", fmt="{:.1f}")

    timers = [g for g in guest if g["bench"] == "timer"]
    raw["timer"] = timers
    for g in timers:
        F.add("timer.%dus.p50" % g["period_us"], 3,
              "guest's own timer: clock_nanosleep() every %d us, lateness p50"
              % g["period_us"], [v / 1000 for v in g["lateness_p50_ns"]],
              "us", fmt="{:.0f}")
        F.add("timer.%dus.p99" % g["period_us"], 3,
              "  lateness p99", [v / 1000 for v in g["lateness_p99_ns"]],
              "us", fmt="{:.0f}")

    # ---- 5. kernel memory (guest) ---------------------------------------
    mems = [g for g in guest if g["bench"] == "mem"]
    raw["mem"] = mems
    for nr_sms in sorted({g["nr_sms"] for g in mems}):
        ms = [g for g in mems if g["nr_sms"] == nr_sms]
        n = ms[0]["grids"]
        free = [(g["before_kb"]["MemFree"] - g["after_kb"]["MemFree"]) *
                1024 / g["grids"] for g in ms]
        slab = [(g["after_kb"]["Slab"] - g["before_kb"]["Slab"]) * 1024 /
                g["grids"] for g in ms]
        vm = [(g["after_kb"]["VmallocUsed"] - g["before_kb"]["VmallocUsed"]) *
              1024 / g["grids"] for g in ms]
        back = [(g["before_kb"]["MemFree"] - g["closed_kb"]["MemFree"]) * 1024
                for g in ms]
        slab_back = [(g["closed_kb"]["Slab"] - g["before_kb"]["Slab"]) * 1024
                     for g in ms]
        caches = {}
        for g in ms:
            for c in g["slab_delta"]:
                caches.setdefault(c["cache"], []).append(
                    c["total_bytes"] / g["grids"])
        top = sorted(((med(v), k) for k, v in caches.items()), reverse=True)
        note = ", ".join("%s %.0f B" % (k, v) for v, k in top[:4] if v > 0)
        how = "arriving" if ms[0].get("arriving") else "queued"
        F.add("mem.grid.%d" % nr_sms, 5,
              "kernel memory per grid, %d SMs (MemFree, %d %s grids)" %
              (nr_sms, n, how), free, "B",
              "< 8 KiB" if nr_sms == 132 else None,
              "<=" if nr_sms == 132 else None, 8192, fmt="{:.0f}")
        F.add("mem.grid_slab.%d" % nr_sms, 5,
              "  of which Slab (kmalloc, large kmalloc pages)", slab, "B",
              fmt="{:.0f}", note=("slabinfo: " + note) if note else None)
        F.add("mem.grid_vmalloc.%d" % nr_sms, 5, "  of which vmalloc", vm,
              "B", fmt="{:.0f}")
        if "submit_all_ns" in ms[0]:
            F.add("mem.submit.%d" % nr_sms, 5,
                  "  SUBMIT of the %d grids, per grid" % n,
                  [g["submit_all_ns"] / g["grids"] / 1000 for g in ms], "us",
                  fmt="{:.0f}")
            F.add("mem.close.%d" % nr_sms, 5,
                  "  closing their files (cancelling them), per grid",
                  [g["close_all_ns"] / g["grids"] / 1000 for g in ms], "us",
                  fmt="{:.0f}")
        F.add("mem.grid_leak.%d" % nr_sms, 5,
              "  Slab still held after closing the files (all grids)",
              [b / 1024 for b in slab_back], "KiB", fmt="{:.0f}",
              note="MemFree after closing minus before: %.0f KiB "
              "(page allocator noise)" % (-med(back) / 1024))
    snaps = [g for g in guest if g["bench"] == "memsnap"]
    raw["memsnap"] = snaps
    per_sm, stack_sm, slab_sm, acct_sm = [], [], [], []
    acct = ("Slab", "KernelStack", "PageTables", "Percpu")
    for i in range(0, len(snaps) - 3, 4):
        s = snaps[i:i + 4]
        if [x["label"] for x in s] != ["unloaded-a", "loaded-15", "unloaded-b",
                                      "loaded-132"]:
            continue
        d15 = s[0]["kb"]["MemFree"] - s[1]["kb"]["MemFree"]
        d132 = s[2]["kb"]["MemFree"] - s[3]["kb"]["MemFree"]
        per_sm.append((d132 - d15) * 1024 / (132 - 15))
        k15 = s[1]["kb"]["KernelStack"] - s[0]["kb"]["KernelStack"]
        k132 = s[3]["kb"]["KernelStack"] - s[2]["kb"]["KernelStack"]
        stack_sm.append((k132 - k15) * 1024 / (132 - 15))
        s15 = s[1]["kb"]["Slab"] - s[0]["kb"]["Slab"]
        s132 = s[3]["kb"]["Slab"] - s[2]["kb"]["Slab"]
        slab_sm.append((s132 - s15) * 1024 / (132 - 15))
        a15 = sum(s[1]["kb"][k] - s[0]["kb"][k] for k in acct)
        a132 = sum(s[3]["kb"][k] - s[2]["kb"][k] for k in acct)
        acct_sm.append((a132 - a15) * 1024 / (132 - 15))
    F.add("mem.sm", 5,
          "kernel memory per SM (132 vs 15 SMs; Slab + KernelStack + "
          "PageTables + Percpu)", acct_sm, "B",
          fmt="{:.0f}")
    F.add("mem.sm_memfree", 5, "  the same from MemFree (page allocator "
          "noise of +-MiB)", per_sm, "B", fmt="{:.0f}")
    F.add("mem.sm_stack", 5, "  kthread stacks (KernelStack)",
          stack_sm, "B", fmt="{:.0f}")
    F.add("mem.sm_slab", 5, "  Slab (task_struct, SM state, ...)",
          slab_sm, "B", fmt="{:.0f}")

    # ---- 4. simulator speed (host), peak RSS ----------------------------
    sim = args.sim
    walls1, rss1, cpu1, js = run_sim([sim, "eval", "--jobs", "1", "--format",
                                      "json"], args.sim_reps)
    ev = json.loads(js)
    nblocks = sim_blocks(ev)
    F.add("sim.events", 4,
          "gputbs-sim eval --jobs 1: block events per second (%d events)" %
          nblocks, [nblocks / w / 1e6 for w in walls1], "M/s", ">= 5", ">=", 5)
    F.add("sim.events_cpu", 4, "  per CPU second (user + system)",
          [nblocks / c / 1e6 for c in cpu1], "M/s")
    walls, rss, cpu, _ = run_sim([sim, "eval"], args.sim_reps)
    F.add("sim.sweep", 4,
          "gputbs-sim eval (default sweep, %d jobs): wall time" %
          (os.cpu_count() or 1), walls, "s", "<= 2", "<=", 2, fmt="{:.3f}")
    F.add("mem.sim_rss", 5, "gputbs-sim eval (default sweep): peak RSS",
          [r / 1024 for r in rss], "MiB", fmt="{:.1f}")
    raw["sim"] = {"blocks": nblocks, "walls_jobs1": walls1,
                  "walls": walls, "rss_kib": rss}
    # 10,000 requests in an open loop, one core (issue 16)
    cmd = [sim, "run", "tools/bench/open10k.gtbs"]
    if shutil.which("taskset"):
        cmd = ["taskset", "-c", "0"] + cmd
    walls_rq, rss_rq, _, _ = run_sim(cmd, args.sim_reps)
    F.add("sim.requests", 4,
          "gputbs-sim run: 10,000-request open loop, one core "
          "(tools/bench/open10k.gtbs): wall time", walls_rq, "s", "<= 10",
          "<=", 10, fmt="{:.3f}")
    raw["sim"]["requests_walls"] = walls_rq
    raw["sim"]["requests_rss_kib"] = rss_rq

    # ---- 6. priority preemption (host, emulated cycles) -----------------
    with open(args.preempt) as f:
        pre = json.load(f)
    raw["preempt"] = pre
    budget = pre["budget_cycles"]
    be, rt = pre["best_effort"], pre["realtime"]
    nr = pre["arrivals"]
    labels = {"drain": "drain", "switch": "switch",
              "flush": "flush (%s idempotent)" % be["program"],
              "auto": "auto (%s idempotent, budget %d)" %
                      (be["program"], budget)}
    preempt_rows = []
    for m in pre["modes"]:
        mode = m["mode"]
        ls, ss = m["latency_stats"], m["sm_latency_stats"]
        rs, bs = m["rt_slowdown_stats"], m["be_slowdown_stats"]
        tgt = mode == "switch"
        F.add("preempt.%s.latency" % mode, 6,
              "%s: %s's preemption latency (last SM), %d arrivals" %
              (labels.get(mode, mode), rt["program"], nr),
              m["latency"], "cycles", fmt="{:.0f}")
        F.add("preempt.%s.latency_p99" % mode, 6, "  p99 (nearest rank)",
              [ls["p99"]], "cycles", fmt="{:.0f}")
        F.add("preempt.%s.latency_max" % mode, 6,
              "  max" + (" (issue 15: Chimera's 15 us at ~1.4 GHz)"
                         if tgt else ""),
              [ls["max"]], "cycles", "<= %d" % budget if tgt else None,
              "<=" if tgt else None, budget, fmt="{:.0f}")
        F.add("preempt.%s.sm_latency" % mode, 6,
              "  per SM: its first block's start after the arrival "
              "(%d SM-arrivals)" % ss["n"], m["sm_latency"], "cycles",
              fmt="{:.0f}")
        F.add("preempt.%s.sms" % mode, 6,
              "  SMs that admitted a %s block (of %d)" %
              (rt["program"], pre["sms"]), m["sms_admitted"], "SMs",
              fmt="{:.0f}")
        F.add("preempt.%s.rt_slowdown" % mode, 6,
              "  %s's slowdown (turnaround / %d cycles alone)" %
              (rt["program"], rt["alone_cycles"]), m["rt_slowdown"], "x",
              fmt="{:.3f}")
        F.add("preempt.%s.rt_slowdown_p99" % mode, 6, "  p99 (nearest rank)",
              [rs["p99"]], "x", fmt="{:.3f}")
        F.add("preempt.%s.be_slowdown" % mode, 6,
              "  %s's slowdown (turnaround / %d cycles alone)" %
              (be["program"], be["alone_cycles"]), m["be_slowdown"], "x",
              fmt="{:.4f}")
        t = m["totals"]
        preempt_rows.append({
            "mode": mode, "best_effort_idempotent":
            m["best_effort_idempotent"], "arrivals": nr,
            "latency": ls, "sm_latency": ss,
            "sms_admitted": m["sms_admitted_stats"],
            "rt_slowdown": rs, "be_slowdown": bs,
            "per_arrival": {k: t[k] / nr for k in
                            ("drain", "switch", "flush", "restores",
                             "xfer_cycles", "lost_cycles")},
        })

    # ---- the report ----------------------------------------------------
    F.items.sort(key=lambda f: f["item"])   # stable: order within an item
    host = {
        "cpus": os.cpu_count(),
        "cpu": platform.processor() or platform.machine(),
        "kernel": platform.release(),
        "loadavg": dict(x.split("=", 1) for x in args.load),
    }
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    host["cpu"] = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    elapsed = time.time() - args.started if args.started else None
    result = {
        "version": 1,
        "smoke": args.smoke,
        "date": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "host": host,
        "guest": {"accel": "kvm" if os.environ.get("GPUTBS_KVM") == "1"
                  else "tcg", "cpus": 2, "mem_mib": args.vm_mem},
        "wall_s": elapsed,
        "figures": [{k: v for k, v in f.items() if k != "fmt"}
                    for f in F.items],
        "sched_matrix": [
            {"sms": r["sms"], "grids": r["grids"], "policy": r["policy"],
             "median_ns": med(r["ps_per_event"]) / 1000,
             "min_ns": min(r["ps_per_event"]) / 1000,
             "max_ns": max(r["ps_per_event"]) / 1000,
             "runs": len(r["ps_per_event"])} for r in sched["runs"]],
        "preempt": preempt_rows,
        "raw": raw,
    }
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "results.json"), "w") as f:
        json.dump(result, f, indent=1)
        f.write("\n")

    rows = []
    for f in F.items:
        fmt = f["fmt"]
        m = "-" if f["median"] is None else fmt.format(f["median"])
        spread = "-" if f["median"] is None else "%s..%s" % (
            fmt.format(f["min"]), fmt.format(f["max"]))
        status = ("" if f["met"] is None else
                  "met" if f["met"] else "MISSED: " + f["missed_by"])
        rows.append((str(f["item"]), f["name"], "%s %s" % (m, f["unit"]),
                     spread, str(f["runs"]), f["target"] or "", status))
    hdr = ("#", "figure", "median", "spread (min..max)", "runs", "target",
           "status")

    # the scheduler matrix: ns per block event, median
    mhdr = ("SMs", "grids") + tuple(policies)
    mrows = []
    for s in sms_list:
        for g in grid_list:
            row = [str(s), str(g)]
            for p in policies:
                r = runs.get((s, g, p))
                row.append("%.0f" % (med(r["ps_per_event"]) / 1000)
                           if r else "")
            mrows.append(tuple(row))

    # the priority bench: nearest-rank percentiles per mechanism
    phdr = ("mechanism", "latency p50/p99/max", "per SM p50/p99/max",
            "SMs min", "%s slowdown p50/p99/max" % rt["program"],
            "%s slowdown p50/max" % be["program"],
            "per arrival: switched/flushed/drained by auto")
    prows = []
    for r in preempt_rows:
        ls, ss, rs, bs = (r["latency"], r["sm_latency"], r["rt_slowdown"],
                          r["be_slowdown"])
        pa = r["per_arrival"]
        prows.append((
            labels.get(r["mode"], r["mode"]),
            "%d / %d / %d" % (ls["p50"], ls["p99"], ls["max"]),
            "%d / %d / %d" % (ss["p50"], ss["p99"], ss["max"]),
            "%d" % r["sms_admitted"]["min"],
            "%.3f / %.3f / %.3f" % (rs["p50"], rs["p99"], rs["max"]),
            "%.4f / %.4f" % (bs["p50"], bs["max"]),
            "%.1f / %.1f / %.1f" % (pa["switch"], pa["flush"],
                                    pa["drain"])))
    ptitle = ("Priority preemption (item 6), emulated cycles: %s (%d blocks "
              "of %d cycles, class realtime, %d cycles alone) arriving at "
              "%d offsets in [%d, %d) while %s (%d cycles alone) fills %d "
              "SMs; policy %s, %d bytes/cycle per SM:" %
              (rt["program"], rt["blocks"], rt["block_cycles"],
               rt["alone_cycles"], nr, pre["from"],
               pre["from"] + pre["span"], be["program"],
               be["alone_cycles"], pre["sms"], pre["policy"],
               pre["switch_bytes_per_cycle"]))

    def text_table(h, rs):
        w = [max(len(h[i]), *(len(r[i]) for r in rs)) for i in range(len(h))]
        line = "  ".join("%-*s" % (w[i], h[i]) for i in range(len(h)))
        out = [line, "  ".join("-" * x for x in w)]
        for r in rs:
            out.append("  ".join("%-*s" % (w[i], r[i])
                                 for i in range(len(h))).rstrip())
        return "\n".join(out)

    def md_table(h, rs):
        out = ["| " + " | ".join(h) + " |",
               "|" + "|".join("---" for _ in h) + "|"]
        for r in rs:
            out.append("| " + " | ".join(x.replace("|", "\\|") for x in r) +
                       " |")
        return "\n".join(out)

    def rst_table(h, rs):
        w = [max(len(h[i]), *(len(r[i]) for r in rs)) for i in range(len(h))]
        sep = "  ".join("=" * x for x in w)
        out = [sep, "  ".join("%-*s" % (w[i], h[i]) for i in range(len(h))),
               sep]
        for r in rs:
            out.append("  ".join("%-*s" % (w[i], r[i] or "..")
                                 for i in range(len(h))).rstrip())
        out.append(sep)
        return "\n".join(out)

    # every measurement scripts/bench.sh asks the guest for
    kinds = [g["bench"] for g in guest]
    missing = []
    for kind, n in (("abi", 1), ("timer", 2), ("fidelity", 4), ("mem", 2),
                    ("memsnap", 4)):
        if kinds.count(kind) < n:
            missing.append("%s (%d of %d)" % (kind, kinds.count(kind), n))
    if len({g["nr_sms"] for g in guest if g["bench"] == "mem"}) < 2:
        missing.append("mem at 15 and 132 SMs")
    result["missing"] = missing
    with open(os.path.join(args.out, "results.json"), "w") as f:
        json.dump(result, f, indent=1)
        f.write("\n")

    met = sum(1 for f in F.items if f["met"] is True)
    missed = [f for f in F.items if f["met"] is False]
    head = ("gputbs benchmarks%s, %s; host: %s, %d CPUs, load %s; guest: "
            "QEMU %s, 2 vCPUs, %d MiB" %
            (" (SMOKE: tiny runs, numbers meaningless)" if args.smoke else "",
             result["date"], host["cpu"], host["cpus"] or 0,
             " / ".join("%s %s" % kv for kv in host["loadavg"].items()),
             result["guest"]["accel"].upper(), args.vm_mem))
    summary = "targets: %d met, %d missed%s" % (
        met, len(missed),
        (" (" + ", ".join(f["id"] for f in missed) + ")") if missed else "")
    if elapsed is not None:
        summary += "; make bench took %.0f s" % elapsed
    if missing:
        summary += "\nMISSING guest results (see guest.log): " + \
            ", ".join(missing)
    notes = ["%s: %s" % (f["id"], f["note"]) for f in F.items if f["note"]]

    text = "\n".join([head, "", text_table(hdr, rows), "",
                      "CPU ns per block event (median of %d runs; item 2):" %
                      sched["reps"], "", text_table(mhdr, mrows), "",
                      ptitle, "", text_table(phdr, prows), ""] +
                     notes + ["", summary])
    print(text)
    with open(os.path.join(args.out, "results.md"), "w") as f:
        f.write("# gputbs benchmarks\n\n%s\n\n%s\n\n"
                "CPU ns per block event (median of %d runs):\n\n%s\n\n"
                "%s\n\n%s\n\n%s\n\n"
                "%s\n" % (head, md_table(hdr, rows), sched["reps"],
                          md_table(mhdr, mrows), ptitle,
                          md_table(phdr, prows),
                          "\n".join("* " + n for n in notes), summary))
    with open(os.path.join(args.out, "results.rst"), "w") as f:
        f.write("%s\n\n%s\n\n%s\n\n%s\n\n%s\n\n%s\n" % (
            head, rst_table(hdr, rows), rst_table(mhdr, mrows), ptitle,
            rst_table(phdr, prows), summary))
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
