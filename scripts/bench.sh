#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/bench.sh - the benchmarks of gputbs, run by `make bench`
# (Documentation/performance.rst).
#
#   scripts/bench.sh [--smoke] [--out DIR]
#
# In order, never two at once (the host has few cores, and the guest's
# timers are what is measured):
#   1. host: the scheduler's CPU cost per block event on the portable core
#      ($BUILD/bench/gputbs-bench-sched: 15, 80, 132 SMs x 1, 8, 32, 128
#      grids in flight x every policy, the samples/policies plug-ins
#      included, and 1,024 SMs x 1 and 1,024 grids),
#      with allocations counted; the trace replay of `gputbs predict` with
#      4,000 and 65,536 grids running at once on 1,024 SMs
#      (tools/bench/replay-trace.py; wall time and peak RSS, stopped after
#      600 s); then,
#      in emulated cycles, a realtime grid arriving while SHA1 fills the
#      device, under each preemption mechanism
#      ($BUILD/bench/gputbs-bench-preempt: 100 arrivals, 10 with --smoke);
#   2. guest (tools/vm/gputbs-vm, stock kernel, one boot): the guest's own
#      timer lateness, ABI costs against getpid(), emulation fidelity at
#      1x, 10x and 100x time scales, kernel memory per grid and per SM
#      (module reloaded with nr_sms=15, 80 and 132), and the CPU per block
#      event of the BPF policy bpf_fifo (samples/bpf/fifo.bpf.c, make
#      bpf-samples) against the built-in fifo at 132 SMs and 128 grids
#      (gputbs-bench policy; Documentation/bpf.rst);
#   3. host: the simulator's block events per second (--jobs 1), the wall
#      time and peak RSS of the default `gputbs-sim eval` sweep, and the
#      wall time of a 10,000-request open loop (tools/bench/open10k.gtbs)
#      on one core;
# then tools/bench/bench.py prints the table and writes results.json and
# results.md (and results.rst for the documentation) into DIR (default
# $BUILD/bench; $BUILD/bench/smoke with --smoke).
#
# --smoke: a tiny version of everything (make check runs it to keep the
# benchmarks working; it asserts no timing).
#
# Before each phase a full run waits (at most BENCH_WAIT seconds, default
# 180) for the host's 1-minute load average to fall to BENCH_MAX_LOAD
# (default: the number of CPUs): the guest's timers and the wall-clock
# figures measure the host as much as gputbs.  The load at each phase is
# recorded in the results.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
BUILD=${BUILD:-build}
smoke=0
out=""
while [ $# -gt 0 ]; do
	case "$1" in
	--smoke) smoke=1 ;;
	--out)
		[ $# -ge 2 ] || { echo "bench: --out needs a directory" >&2; exit 2; }
		out=$2
		shift
		;;
	-h | --help)
		sed -n '3,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'
		exit 0
		;;
	*)
		echo "bench: unknown argument: $1" >&2
		exit 2
		;;
	esac
	shift
done
if [ -z "$out" ]; then
	out=$BUILD/bench
	[ "$smoke" = 0 ] || out=$BUILD/bench/smoke
fi
mkdir -p "$out"
rm -f "$out/results.json" "$out/results.md" "$out/results.rst"

note() { printf 'bench: %s\n' "$*" >&2; }

t_start=$(date +%s.%N)
# everything the guest and the host need
make -s all "$BUILD/bench/gputbs-bench-sched" \
	"$BUILD/bench/gputbs-bench-preempt"
# bpf_fifo for the guest (samples/bpf/bpf.mk)
make -s bpf-samples
# the sample policies too, as plug-ins (samples/policies)
make -s samples-so
plugins=()
for so in "$BUILD"/samples/gtbs_*.so; do
	if [ -f "$so" ]; then
		plugins+=(--policy-plugin "$so")
	fi
done

if [ "$smoke" = 1 ]; then
	sched_args=(--sms 15,132 --grids 1,8 --blocks 5000 --reps 1)
	sched_big_args=(--sms 1024 --grids 1,8 --blocks 2000 --reps 1)
	replay_grids="100 200"
	replay_limit=60
	preempt_args=(--arrivals 10)
	abi="--reps 2 --iters 40 --chunks 4 --slow-iters 4"
	fid="--reps 1 --blocks 100"
	fid_fast="--reps 1 --blocks 100"
	mem="--grids 300 --reps 1"
	timer="--reps 1 --iters 10"
	bpf="--reps 1 --blocks 10"
	loads=1
	vm_mem=2048
	sim_reps=1
else
	sched_args=(--reps 5)
	sched_big_args=(--sms 1024 --grids 1,1024 --reps 3)
	replay_grids="4000 65536"
	replay_limit=600
	preempt_args=(--arrivals 100)
	abi="--reps 11 --iters 2000 --chunks 20 --slow-iters 100"
	fid="--reps 11 --blocks 1000"
	fid_fast="--reps 11 --blocks 1000"
	mem="--grids 10000 --reps 3"
	timer="--reps 11 --iters 100"
	bpf="--reps 7 --blocks 100"
	loads=3
	vm_mem=4096
	sim_reps=5
fi
loadavg() { cut -d' ' -f1-3 /proc/loadavg; }
wait_quiet() {	# wait_quiet PHASE
	local max=${BENCH_MAX_LOAD:-$(nproc)} limit=${BENCH_WAIT:-180} waited=0

	[ "$smoke" = 0 ] || return 0
	while awk -v m="$max" '{ exit !($1 > m) }' /proc/loadavg; do
		if [ "$waited" -ge "$limit" ]; then
			note "host still busy after ${limit} s (load $(loadavg)); measuring $1 anyway"
			return 0
		fi
		[ "$waited" -gt 0 ] ||
			note "waiting for a quiet host before $1 (load $(loadavg) > $max) ..."
		sleep 10
		waited=$((waited + 10))
	done
}

# 1. the scheduler on the host
wait_quiet "the scheduler bench"
note "scheduler cost per block event (host) ..."
load_sched=$(loadavg)
"$BUILD/bench/gputbs-bench-sched" "${plugins[@]}" "${sched_args[@]}" \
	>"$out/sched.json"
# the core must not reference any allocator
nm -u "$BUILD"/userland/sm-emu/*.o >"$out/core-undefined.txt"
# a device of 1,024 SMs with 1,024 grids in flight, every policy
note "scheduler cost at 1,024 SMs (host) ..."
"$BUILD/bench/gputbs-bench-sched" "${plugins[@]}" "${sched_big_args[@]}" \
	>"$out/sched-1024.json"
# the predictor's replay (gputbs predict) of N grids running at once on
# 1,024 SMs: wall time and peak RSS, stopped after replay_limit seconds
note "trace replay at 1,024 SMs (host) ..."
: >"$out/replay.txt"
for n in $replay_grids; do
	python3 tools/bench/replay-trace.py --grids "$n" --sms 1024 \
		>"$out/replay-$n.trace"
	rc=0
	/usr/bin/time -f "%e %M" -o "$out/replay-$n.time" \
		timeout "$replay_limit" "$BUILD/bin/gputbs" predict \
		--trace "$out/replay-$n.trace" --sms 1024 --summary \
		>/dev/null || rc=$?
	# grids, status (124: stopped at the limit), seconds, peak RSS KiB
	echo "$n $rc $(tail -n 1 "$out/replay-$n.time")" >>"$out/replay.txt"
	rm -f "$out/replay-$n.trace"
done
# emulated cycles only, deterministic: no quiet host needed
note "priority preemption, emulated cycles (host) ..."
"$BUILD/bench/gputbs-bench-preempt" "${preempt_args[@]}" >"$out/preempt.json"

# 2. the module in the guest: one boot, the module reloaded per setting.
# At 132 SMs the 10,000 grids of the memory run arrive far in the future
# (allocated as queued ones): cancelling 10,000 grids queued behind 1056
# running ones takes the current core minutes under TCG (performance.rst).
mod=/lib/gputbs-vm/modules/gputbs.ko
guest_script="set -x
gputbs info | sed -n '1,3p'
gputbs-bench timer $timer --period-us 5000
gputbs-bench timer $timer --period-us 50
gputbs-bench abi $abi
gputbs-bench fidelity $fid
gputbs-bench fidelity $fid --no-trace
gputbs-bench mem $mem
rmmod gputbs
i=0
while [ \$i -lt $loads ]; do
	gputbs-bench memsnap unloaded-a
	insmod $mod nr_sms=15
	gputbs-bench memsnap loaded-15
	rmmod gputbs
	gputbs-bench memsnap unloaded-b
	insmod $mod nr_sms=132
	gputbs-bench memsnap loaded-132
	rmmod gputbs
	i=\$((i + 1))
done
insmod $mod nr_sms=80
gputbs-bench mem $mem --arriving
rmmod gputbs
insmod $mod nr_sms=132
gputbs-bench mem $mem --arriving
rmmod gputbs
insmod $mod time_scale_ps=100000
gputbs-bench fidelity $fid_fast
rmmod gputbs
insmod $mod time_scale_ps=10000
gputbs-bench fidelity $fid_fast
rmmod gputbs
insmod $mod nr_sms=132
gputbs policy load /bpf/fifo.bpf.o
gputbs-bench policy --policies fifo,bpf_fifo --grids 128 $bpf
echo fifo >/sys/class/misc/gputbs/policy
gputbs policy unload bpf_fifo
# the link's programs are freed after an RCU grace period (bpf.rst)
i=0
while ! rmmod gputbs 2>/dev/null && [ \$i -lt 100 ]; do
	sleep 0.1
	i=\$((i + 1))
done
insmod $mod
echo GPUTBS-BENCH-GUEST-DONE"
wait_quiet "the guest"
note "module in the guest (QEMU) ..."
load_guest=$(loadavg)
vm_rc=0
tools/vm/gputbs-vm --quiet-boot --mem "$vm_mem" --timeout 1800 \
	--host-file "$(realpath "$BUILD/bpf/fifo.bpf.o")=/bpf/fifo.bpf.o" \
	--log "$out/guest-vm.log" -- "$guest_script" >"$out/guest.log" 2>&1 ||
	vm_rc=$?
if [ "$vm_rc" -ne 0 ] || ! grep -q '^GPUTBS-BENCH-GUEST-DONE' "$out/guest.log"; then
	tail -n 40 "$out/guest.log" >&2
	note "the guest run failed (status $vm_rc); see $out/guest.log"
	exit 1
fi

# 3. the simulator on the host, then the report
wait_quiet "the simulator bench"
note "simulator (host) ..."
load_sim=$(loadavg)
python3 tools/bench/bench.py --out "$out" --sched "$out/sched.json" \
	--sched-big "$out/sched-1024.json" --replay "$out/replay.txt" \
	--replay-limit "$replay_limit" \
	--guest "$out/guest.log" --core-undefined "$out/core-undefined.txt" \
	--preempt "$out/preempt.json" \
	--sim "$BUILD/bin/gputbs-sim" --sim-reps "$sim_reps" \
	--vm-mem "$vm_mem" --load "sched=$load_sched" --load "guest=$load_guest" \
	--load "sim=$load_sim" --started "$t_start" \
	$([ "$smoke" = 0 ] || echo --smoke)
