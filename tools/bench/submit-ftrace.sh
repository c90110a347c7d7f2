#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# tools/bench/submit-ftrace.sh - where GPUTBS_IOCTL_SUBMIT's time goes, in
# the guest (Documentation/performance.rst, item 1): the function_graph
# tracer on gputbs_ioctl_submit() during a short `gputbs-bench abi`, in
# passes that each trace only a few functions (set_ftrace_filter), so
# that the tracer's cost (about 0.9 us per traced call under TCG) stays
# small next to what it measures.  Pass 0 traces the handler alone.
# Writes OUTDIR/pass-N.txt; tools/bench/submit-ftrace.py summarises them.
#
#   tools/vm/gputbs-vm --out DIR --host-file "$PWD/tools/bench/submit-ftrace.sh=/opt/submit-ftrace.sh" \
#	-- "/opt/submit-ftrace.sh /out"
set -e
out=${1:?usage: submit-ftrace.sh OUTDIR}
T=/sys/kernel/tracing
[ -e $T/trace ] || mount -t tracefs nodev $T
R=gputbs_ioctl_submit

pass() {	# pass N [FUNCTION...]
	n=$1
	shift
	echo 0 >$T/tracing_on
	echo nop >$T/current_tracer
	echo >$T/trace
	echo $R >$T/set_ftrace_filter
	for f in "$@"; do
		echo "$f" >>$T/set_ftrace_filter
	done
	echo $R >$T/set_graph_function
	echo function_graph >$T/current_tracer
	echo 1 >$T/tracing_on
	# SUBMIT calls in trace order: 1, then 128 in batches (idle device,
	# 2^40-cycle blocks), 128 in a stream, 20 + WAIT, 20 + poll()
	gputbs-bench abi --reps 1 --iters 128 --chunks 2 --slow-iters 20 \
		>/dev/null
	echo 0 >$T/tracing_on
	cat $T/trace >"$out/pass-$n.txt"
}

echo 16384 >$T/buffer_size_kb
pass 0
pass 1 gputbs_grid_charge gputbs_grid_create gputbs_dev_advance \
	gputbs_dev_sync gtbs_grid_submit gputbs_obs_grid_submit
pass 2 __kvmalloc_node_noprof gtbs_grid_init_err __kmalloc_noprof
pass 3 gtbs_dev_run_bounded gtbs_grid_arrive hrtimer_start_range_ns
pass 4 gtbs_sm_dispatch
echo nop >$T/current_tracer
