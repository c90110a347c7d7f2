#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""scripts/sweep-dask.py - a gputbs-sim sweep on a dask.distributed cluster:
one task per shard, then the merge (Documentation/evaluation.rst, "Sweeps
on a cluster"; for clusters without Slurm).

Usage: scripts/sweep-dask.py [--scheduler ADDR | --workers N] [--shards N]
           [--sim PATH] [--keep DIR] [--format text|json] [-o FILE]
           [--plot DIR] -- SWEEP-OPTIONS... SCENARIO...

Everything after "--" is gputbs-sim sweep's own command line (its
--load, --policies, --preempt, --seeds, --duration, ... and the scenario
files).  Task I of N runs "gputbs-sim sweep --shard I/N --format json"
with it, on a worker, in this directory: the workers must see the tree,
the simulator and the scenario files at the same paths (a shared file
system, as on Slurm).  The shards' JSON comes back through Dask; then
"gputbs-sim sweep --merge" joins them here and prints (or writes, -o)
what the sweep run in one piece prints, byte for byte.

  --scheduler ADDR  a running cluster: the scheduler's address
                    (tcp://host:8786) or its scheduler file (JSON)
  --workers N       without --scheduler: a LocalCluster of N worker
                    processes of one thread each (default: the CPUs)
  --shards N        shards (default: the cluster's worker threads)
  --sim PATH        the simulator (default build/bin/gputbs-sim)
  --keep DIR        keep the shards' JSON there as shard-I.json
  --format, -o, --plot   the merge's (gputbs-sim sweep --merge)

Each task's sweep runs one thread (--jobs 1) unless the sweep's options
say otherwise.  Exit status: 0, 1 if a shard or the merge failed, 2 on a
usage error.  Needs python3-distributed (Debian).
"""
import argparse
import os
import subprocess
import sys
import tempfile


def run_shard(sim, cwd, sweep_args, shard, nr_shards):
    """On a worker: shard SHARD of NR_SHARDS, its JSON as text."""
    # an explicit --shard wins over a Slurm array's variables, but a
    # worker started inside a Slurm job has no business with them anyway
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("SLURM_ARRAY_")}
    cmd = [sim, "sweep", "--jobs", "1", *sweep_args,
           "--shard", f"{shard}/{nr_shards}", "--format", "json"]
    p = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, check=False)
    if p.returncode != 0:
        raise RuntimeError(f"shard {shard}/{nr_shards}: {' '.join(cmd)} "
                           f"exited {p.returncode}: {p.stderr.strip()}")
    return p.stdout


def parse_args(argv):
    if "--" in argv:
        i = argv.index("--")
        own, sweep = argv[:i], argv[i + 1:]
    else:
        own, sweep = argv, []
    ap = argparse.ArgumentParser(
        prog="sweep-dask.py",
        usage="%(prog)s [--scheduler ADDR | --workers N] [--shards N] "
              "[--sim PATH] [--keep DIR] [--format text|json] [-o FILE] "
              "[--plot DIR] -- SWEEP-OPTIONS... SCENARIO...",
        description=__doc__.split("\n\n", 2)[2],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scheduler")
    ap.add_argument("--workers", type=int)
    ap.add_argument("--shards", type=int)
    ap.add_argument("--sim", default="build/bin/gputbs-sim")
    ap.add_argument("--keep")
    ap.add_argument("--format", choices=("text", "json"), default="text")
    ap.add_argument("-o", "--output")
    ap.add_argument("--plot")
    a = ap.parse_args(own)
    if not sweep:
        ap.error("no sweep after '--' (its options and scenario files)")
    if a.scheduler and a.workers:
        ap.error("--scheduler and --workers: one or the other")
    if a.shards is not None and a.shards < 1:
        ap.error("--shards: at least 1")
    if a.workers is not None and a.workers < 1:
        ap.error("--workers: at least 1")
    for opt in ("--shard", "--merge", "-o", "--output", "--format", "-f", "--plot"):
        if any(s == opt or s.startswith(opt + "=") for s in sweep):
            ap.error(f"{opt} after '--': this script sets it (its own "
                     "--format, -o and --plot are the merge's)")
    return a, sweep


def main():
    a, sweep = parse_args(sys.argv[1:])
    sim = os.path.abspath(a.sim)
    if not os.access(sim, os.X_OK):
        print(f"sweep-dask.py: {a.sim}: no gputbs-sim there (--sim)",
              file=sys.stderr)
        return 2
    try:
        from dask.distributed import Client, LocalCluster, wait
    except ImportError:
        # Debian's python3-distributed is /usr/bin/python3's: run there
        # if python3 on PATH is another one (a virtualenv, pyenv)
        deb = "/usr/bin/python3"
        if os.path.exists(deb) and not os.environ.get("GPUTBS_SWEEP_DASK_REEXEC") \
                and os.path.realpath(sys.executable) != os.path.realpath(deb):
            os.environ["GPUTBS_SWEEP_DASK_REEXEC"] = "1"
            os.execv(deb, [deb, os.path.abspath(__file__)] + sys.argv[1:])
        print("sweep-dask.py: no dask.distributed: install python3-distributed",
              file=sys.stderr)
        return 2

    cluster = None
    if a.scheduler:
        client = Client(scheduler_file=a.scheduler) \
            if a.scheduler.endswith(".json") else Client(a.scheduler)
    else:
        cluster = LocalCluster(n_workers=a.workers or os.cpu_count() or 1,
                               threads_per_worker=1, processes=True,
                               dashboard_address=None)
        client = Client(cluster)
    try:
        n = a.shards or max(1, sum(client.nthreads().values()))
        cwd = os.getcwd()
        futures = [client.submit(run_shard, sim, cwd, sweep, i, n,
                                 key=f"gputbs-sweep-shard-{i}-of-{n}-{os.getpid()}",
                                 pure=False)
                   for i in range(1, n + 1)]
        # every shard to its end, then each failure in shard order: the
        # report does not depend on which worker failed first
        wait(futures)
        failed = [f.exception() for f in futures if f.status == "error"]
        if failed:
            for e in failed:
                print(f"sweep-dask.py: {e}", file=sys.stderr)
            return 1
        shards = client.gather(futures)
    except RuntimeError as e:
        print(f"sweep-dask.py: {e}", file=sys.stderr)
        return 1
    finally:
        client.close()
        if cluster is not None:
            cluster.close()

    with tempfile.TemporaryDirectory(prefix="gputbs-sweep-dask.") as tmp:
        where = a.keep or tmp
        os.makedirs(where, exist_ok=True)
        files = []
        for i, text in enumerate(shards, 1):
            f = os.path.join(where, f"shard-{i}.json")
            with open(f, "w", encoding="utf-8") as fp:
                fp.write(text)
            files.append(f)
        cmd = [sim, "sweep", "--merge", "--format", a.format]
        if a.output:
            cmd += ["-o", a.output]
        if a.plot:
            cmd += ["--plot", a.plot]
        p = subprocess.run(cmd + files, check=False)
    if p.returncode != 0:
        print(f"sweep-dask.py: the merge exited {p.returncode}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
