#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# gputbs-preempt-test - in the guest, as root: preempting resident blocks
# (Documentation/scheduling.rst, "Preempting running blocks").
#
# A HIGH grid of 120 blocks of 500 cycles (8 per SM on the 15 SMs) arrives
# at cycle 50000 while SHA1-like blocks of 1,700,000 cycles fill every
# block slot.  The module must schedule exactly as gputbs-sim does
# (gputbs-sim run --policy fifo --preempt MODE on the same file):
#
#   drain:  the HIGH grid waits for SHA1's blocks: 1650500 cycles;
#   switch: saves of 6656-byte contexts (1664 registers) at 8 bytes per
#           cycle, 832 cycles each, one at a time per SM, make room:
#           the HIGH grid takes 2999 cycles, SHA1 1702118 (+0.1%); 60
#           blocks are switched out (4 per SM) and every one restored;
#   flush:  with SHA1 declared idempotent its blocks are dropped at once:
#           the HIGH grid takes 500 cycles (as alone), SHA1 1750500 (the
#           50000 cycles its blocks had run are lost).
#
# Every figure is in emulated cycles, so none depends on the guest's
# timers.  Observability (Documentation/tracing.rst): debugfs
# preempt_latency counts the HIGH grid's wait on each SM under its class
# and the mechanism (15 high switch latencies within the budget, 15 high
# flush of 0 cycles); gputbs top (netlink dev-get) shows the mode and the
# counters of sysfs.
# Prints "preempt: N passed, M failed".
set -u
SYS=/sys/class/misc/gputbs
work=${TMPDIR:-/tmp}/gputbs-preempt-test.$$
mkdir -p "$work"
. "$(dirname "$0")/gputbs-test-lib.sh"

workload() {	# workload FILE IDEMPOTENT(0|1)
	cat >"$1" <<EOF2
program SHA1
grid sha1 blocks=120 threads=64 regs=26 shmem=0 cycles=1700000 rsd=0 seed=17 idempotent=$2
program rt
grid frame blocks=120 threads=64 regs=26 shmem=0 cycles=500 seed=5 class=high
workload W
run SHA1
run rt at=50000
EOF2
}

# shared REPORT PROGRAM: its shared runtime, cycles: the column before the
# slowdown in the workload table's row of PROGRAM (the last row that names
# it and does not end in a percentage, whatever columns come before, such
# as the class column of a workload that gives classes)
shared() {
	awk -v p="$2" '$1 == p && $NF !~ /%$/ { v = $(NF - 1) } END { print v }' "$1"
}

counter() {
	cat "$SYS/$1"
}

DBG=/sys/kernel/debug/gputbs
# the VM mounts debugfs (tools/vm/gputbs-vm)

# lat CLASS MECH FIELD: a field of preempt_latency's CLASS MECH row
lat() {
	awk -v k="$1 $2" -v f="$3" '$1 " " $2 == k && $3 ~ /^latencies=/ {
		for (i = 3; i <= NF; i++) if (index($i, f "=") == 1) print substr($i, length(f) + 2)
	}' "$DBG/preempt_latency"
}

check "preempt_mode lists the modes, drain selected" \
	test "$(cat "$SYS/preempt_mode")" = "[drain] switch flush auto"
check "features name preempt" sh -c 'gputbs info | grep -q "^features .* preempt"'
workload "$work/w0.gtbs" 0
workload "$work/w1.gtbs" 1

# mode  file  rt shared  SHA1 shared
for c in "drain w0 1650500 1700000" "switch w0 2999 1702118" \
	 "flush w1 500 1750500"; do
	set -- $c
	mode=$1 file=$work/$2.gtbs want_rt=$3 want_sha=$4
	echo "$mode" >"$SYS/preempt_mode"
	check "$mode: selected" grep -q "\[$mode\]" "$SYS/preempt_mode"
	sw0=$(counter blocks_switched)
	re0=$(counter blocks_restored)
	fl0=$(counter blocks_flushed)
	hs0=$(lat high switch latencies)
	hf0=$(lat high flush latencies)
	hd0=$(lat high drain latencies)
	gputbs run --policy fifo "$file" >"$work/$mode.txt" 2>&1
	check "$mode: gputbs run exit 0" test $? = 0
	rt=$(shared "$work/$mode.txt" rt)
	sha=$(shared "$work/$mode.txt" SHA1)
	echo "$mode: HIGH grid $rt cycles (simulator $want_rt), SHA1 $sha (simulator $want_sha)"
	check "$mode: HIGH grid's runtime equals the simulator's" \
		test "$rt" = "$want_rt"
	check "$mode: SHA1's runtime equals the simulator's" \
		test "$sha" = "$want_sha"
	sw=$(($(counter blocks_switched) - sw0))
	re=$(($(counter blocks_restored) - re0))
	fl=$(($(counter blocks_flushed) - fl0))
	echo "$mode: $sw switched, $re restored, $fl flushed"
	check "$mode: every block switched out was restored" test "$sw" = "$re"
	# debugfs: the HIGH grid's waits by class and mechanism
	hs=$(($(lat high switch latencies) - hs0))
	hf=$(($(lat high flush latencies) - hf0))
	hd=$(($(lat high drain latencies) - hd0))
	echo "$mode: preempt_latency high: $hs switch, $hf flush, $hd drain"
	# netlink dev-get through gputbs top: the mode and sysfs' counters
	gputbs top --iterations 1 --batch >"$work/top.txt" 2>&1
	want="preemption: mode $mode; blocks $(counter blocks_switched) switched, $(counter blocks_flushed) flushed, $(counter blocks_restored) restored; $(counter switch_cycles) switch cycles, $(counter flushed_cycles) flushed cycles"
	check "$mode: gputbs top (netlink dev-get) shows the mode and sysfs' counters" \
		grep -qxF "$want" "$work/top.txt"
	case $mode in
	drain)
		check "drain: nothing preempted" test "$sw" = 0 -a "$fl" = 0
		check "drain: no switch or flush latency" \
			test "$hs" = 0 -a "$hf" = 0 ;;
	switch)
		check "switch: within Chimera's 21000-cycle budget" \
			test "$rt" -le 21000
		# 4 per SM: a HIGH block (500 cycles) ends before the next
		# save (832 cycles each, one at a time) and its slot takes
		# the next HIGH block, so 4 saves give the grid its 8 blocks
		check "switch: 60 blocks switched out, 4 per SM" \
			test "$sw" = 60
		check "switch: debugfs: 15 high switch latencies, one per SM" \
			test "$hs" = 15 -a "$hf" = 0 -a "$hd" = 0
		check "switch: debugfs: high switch max within the budget" \
			test "$(lat high switch max)" -le 21000
		check "switch: debugfs: a high switch bucket row" \
			grep -Eq '^high switch [0-9]+ [0-9]+ [1-9]' "$DBG/preempt_latency" ;;
	flush)
		check "flush: within the budget" test "$rt" -le 21000
		check "flush: flushed, none switched" \
			test "$fl" = 120 -a "$sw" = 0
		check "flush: debugfs: 15 high flush latencies, one per SM" \
			test "$hf" = 15 -a "$hs" = 0 -a "$hd" = 0 ;;
	esac
done
echo drain >"$SYS/preempt_mode"
rm -rf "$work"
echo "preempt: $passed passed, $failed failed"
[ "$failed" = 0 ]
