#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# dask-test.sh - scripts/sweep-dask.py, a gputbs-sim sweep as tasks on a
# dask.distributed cluster, against the sweep run in one piece
# (Documentation/evaluation.rst, "Sweeps on a cluster").
#
# Usage: dask-test.sh PATH-TO-gputbs-sim     (make check-dask)
#
#   local      a LocalCluster of 2 workers, 3 shards: the serial sweep's
#              JSON byte for byte; --keep keeps shard-I.json, each "I/3";
#              as many shards as workers, merged to text: the serial text
#   cluster    a dask-scheduler and a dask-worker of 2 processes started
#              here (127.0.0.1, a free port, a scheduler file), reached
#              with --scheduler: the serial sweep's JSON byte for byte
#   errors     a shard that fails: status 1 and the shard named; usage
#              errors: status 2
#
# Every process it started is stopped on exit.  The sweep is short (8
# points, about 2 s of CPU).  The last line is "dask: N passed, M failed".
set -eu

sim=${1:?usage: dask-test.sh PATH-TO-gputbs-sim}
root=$(cd "$(dirname "$0")/../.." && pwd)
case $sim in /*) ;; *) sim=$PWD/$sim ;; esac
cd "$root"
unset SLURM_ARRAY_TASK_ID SLURM_ARRAY_TASK_MIN SLURM_ARRAY_TASK_COUNT

tmp=
pids=()
out=/dev/null
# shellcheck source=tests/userland/lib.sh
. "$root/tests/userland/lib.sh"

cleanup() {
	local rc=$? i p f
	trap '' PIPE HUP INT TERM
	trap - EXIT
	# the workers, then the scheduler
	for ((i = ${#pids[@]} - 1; i >= 0; i--)); do
		p=${pids[i]}
		kill -TERM "$p" 2>/dev/null || continue
		for _ in $(seq 50); do
			kill -0 "$p" 2>/dev/null || break
			sleep 0.2
		done
		kill -KILL "$p" 2>/dev/null || true
		wait "$p" 2>/dev/null || true
	done
	if [ -n "$tmp" ] && { [ "$failed" -ne 0 ] || [ "$rc" -ne 0 ]; }; then
		for f in "$tmp"/*.log; do
			[ -s "$f" ] || continue
			echo "--- $f (last 30 lines)"
			tail -n 30 "$f"
		done
	fi
	[ -z "$tmp" ] || rm -rf "$tmp"
	exit "$rc"
}
trap cleanup EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 141' PIPE
trap 'exit 143' TERM

# lib.sh's expect, in a list: a command it expects to fail must not end
# the test (set -e)
check_fails() { expect "$@" || true; }

abort() {
	fail "$*"
	summary dask || true
	exit 1
}

# a python3 with dask.distributed: the first on PATH, or Debian's
py=
for p in python3 /usr/bin/python3; do
	if "$p" -c 'import distributed' 2>/dev/null; then
		py=$(command -v "$p")
		break
	fi
done
[ -n "$py" ] || abort "no python3 with dask.distributed: install python3-distributed (make deps-check)"
[ -x "$sim" ] || abort "$sim: not an executable"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gputbs-dask-test.XXXXXX")
out=$tmp/out
dask=("$py" scripts/sweep-dask.py --sim "$sim")

# --- the sweep in one piece --------------------------------------------------
scen=workloads/scenarios/resnet50-infer+train.gtbs
# shellcheck disable=SC2054 # the commas are the options' own
sweep=(--policies fifo,srtf --load 0.2,0.6,1.0,1.4 --duration 5ms "$scen")
"$sim" sweep "${sweep[@]}" --format json -o "$tmp/serial.json" ||
	abort "the serial sweep failed"
"$sim" sweep "${sweep[@]}" -o "$tmp/serial.txt" ||
	abort "the serial sweep (text) failed"

# --- a LocalCluster -------------------------------------------------------------
if "${dask[@]}" --workers 2 --shards 3 --keep "$tmp/keep" --format json \
	-o "$tmp/local.json" -- "${sweep[@]}" >"$out" 2>&1 &&
	cmp "$tmp/serial.json" "$tmp/local.json"; then
	ok
else
	sed 's/^/  | /' "$out"
	fail "LocalCluster, 3 shards: not the serial sweep's JSON"
fi
got=$(cd "$tmp/keep" 2>/dev/null && for i in 1 2 3; do
	grep -o '"shard": "[0-9/]*"' "shard-$i.json" || echo "shard-$i.json: none"
done | tr '\n' ' ')
if [ "$got" = '"shard": "1/3" "shard": "2/3" "shard": "3/3" ' ]; then ok; else
	fail "--keep: shards '$got'"
fi
if "${dask[@]}" --workers 2 -- "${sweep[@]}" >"$tmp/local.txt" 2>"$out" &&
	cmp "$tmp/serial.txt" "$tmp/local.txt"; then
	ok
else
	sed 's/^/  | /' "$out"
	fail "LocalCluster, a shard per worker: not the serial sweep's text"
fi

# --- a scheduler and workers of their own, as on a cluster ------------------------
sched=$tmp/scheduler.json
"$py" -m distributed.cli.dask_scheduler --host 127.0.0.1 --port 0 \
	--no-dashboard --scheduler-file "$sched" >"$tmp/scheduler.log" 2>&1 &
pids+=($!)
for _ in $(seq 100); do
	[ -s "$sched" ] && break
	sleep 0.2
done
[ -s "$sched" ] || abort "dask-scheduler wrote no $sched in 20 s"
"$py" -m distributed.cli.dask_worker --scheduler-file "$sched" --nworkers 2 \
	--nthreads 1 --no-dashboard --host 127.0.0.1 >"$tmp/worker.log" 2>&1 &
pids+=($!)
# the workers in, or sweep-dask.py would cut the sweep into fewer shards
if ! "$py" - "$sched" >"$out" 2>&1 <<'EOF'; then
import sys
from dask.distributed import Client
with Client(scheduler_file=sys.argv[1], timeout=30) as c:
    c.wait_for_workers(2, timeout=60)
EOF
	sed 's/^/  | /' "$out"
	abort "the dask-worker's 2 processes did not join the scheduler"
fi
if "${dask[@]}" --scheduler "$sched" --format json -o "$tmp/cluster.json" \
	-- "${sweep[@]}" >"$out" 2>&1 && cmp "$tmp/serial.json" "$tmp/cluster.json"; then
	ok
else
	sed 's/^/  | /' "$out"
	fail "dask-scheduler and dask-worker: not the serial sweep's JSON"
fi
# a shard that fails: the task's error, with the shard, and status 1
check_fails 1 "shard 1/2: " "${dask[@]}" --scheduler "$sched" --shards 2 -- \
	"${sweep[@]}" "$tmp/no-such.gtbs"

# --- usage ---------------------------------------------------------------------
check_fails 2 "no sweep after '--'" "${dask[@]}" --workers 1
check_fails 2 "this script sets it" "${dask[@]}" --workers 1 -- --shard 1/2 "$scen"
check_fails 2 "--scheduler and --workers" "${dask[@]}" --workers 1 --scheduler x -- "$scen"

summary dask
