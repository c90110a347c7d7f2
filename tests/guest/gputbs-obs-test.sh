#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# gputbs-obs-test - in the guest, as root, with trace-cmd in the guest
# (tools/vm/gputbs-vm --host-bin trace-cmd): run a workload under
# SRTF/Adaptive and FIFO with `trace-cmd record -e gputbs`, and meanwhile
# read every sysfs
# file of the device, every debugfs file and the fdinfo of every process
# that has /dev/gputbs open, checking their formats; then check that the
# recorded events add up (every block_start has its block_end, each grid
# as many as its blocks, grid_submit and grid_end pair up) and that they
# agree with the sysfs counters and the debugfs histogram, and that
# `gputbs timeline --check` accepts the recording, its trace-cmd report
# and the .dat itself (read with libtracecmd), with the same summary.
# After the workload: every range file (<tunable>_range,
# policy_params/<param>_range) reads MIN..MAX (or a choice's names), a
# write of MAX and MIN is taken, one of MAX + 1 or MIN - 1 fails with
# ERANGE.
#
# Prints "obs: N passed, M failed".
set -u
SYS=/sys/class/misc/gputbs
DBG=/sys/kernel/debug/gputbs
work=${TMPDIR:-/tmp}/gputbs-obs-test.$$
mkdir -p "$work"
. "$(dirname "$0")/gputbs-test-lib.sh"

counters="grids_submitted grids_completed grids_cancelled blocks_dispatched predictions promotions policy_switches sharing_switches preemptions blocks_switched blocks_flushed blocks_restored switch_cycles flushed_cycles"
config="nr_sms threads_per_sm regs_per_sm shmem_per_sm blocks_per_sm warps_per_sm warp_size load_knee_warps timing_model block_times time_scale_ps"

snapshot() {	# snapshot FILE: "name value" per counter
	for c in $counters; do
		echo "$c $(cat "$SYS/$c")"
	done >"$1"
}

delta() {	# delta NAME: the counter's change over the recording
	awk -v n="$1" '$1 == n { v[FILENAME] = $2 }
		END { print v[ARGV[2]] - v[ARGV[1]] }' "$work/before" "$work/after"
}

nr_sms=$(cat "$SYS/nr_sms")
bps=$(cat "$SYS/blocks_per_sm")

# --- formats, read while the workload runs ------------------------------
# Each check_* appends a line to $work/bad per problem.

check_sysfs() {
	for f in $counters $config starve_ns switch_bytes_per_cycle \
		preempt_budget_low preempt_budget_normal preempt_budget_high \
		preempt_budget_realtime; do
		v=$(cat "$SYS/$f") || { echo "sysfs $f: unreadable"; continue; }
		case "$v" in
		'' | *[!0-9]*) echo "sysfs $f: '$v' is not a number" ;;
		esac
	done
	for f in policy predictor preempt_mode; do
		grep -qE '^([a-z-]+ )*\[[a-z-]+\]( [a-z-]+)*$' "$SYS/$f" ||
			echo "sysfs $f: '$(cat "$SYS/$f")'"
	done
	# policy_params/: srtf-adaptive's files, srtf's, or none (fifo); a policy
	# switch of the workload may rebuild it under the reader
	for f in "$SYS"/*_range; do
		v=$(cat "$f") || { echo "sysfs ${f##*/}: unreadable"; continue; }
		case "$v" in
		[0-9]*..[0-9]*) ;;
		*) echo "sysfs ${f##*/}: '$v' is not MIN..MAX" ;;
		esac
	done
	for f in "$SYS"/policy_params/*; do
		[ -e "$f" ] || continue
		name=${f##*/}
		v=$(cat "$f" 2>/dev/null) || continue	# removed meanwhile
		case "$name=$v" in
		*_range=[0-9]*..[0-9]*) ;;
		share_mode_range="device sm") ;;
		preempt_unknown_range="predicted sample") ;;
		single_kernel_range="work-conserving exclusive sm-exclusive") ;;
		share_threshold_ppm=[0-9]* | share_residency=[0-9]*) ;;
		preempt_ratio_pct=[0-9]*) ;;
		preempt_unknown=predicted | preempt_unknown=sample) ;;
		share_mode=device | share_mode=sm) ;;
		single_kernel=work-conserving | single_kernel=exclusive) ;;
		single_kernel=sm-exclusive) ;;
		*) echo "sysfs policy_params/$name: '$v'" ;;
		esac
	done
}

# policy_params/ as each policy has it: exactly srtf-adaptive's six
# files at their defaults, each with its _range, none for fifo
check_params_layout() {
	echo srtf-adaptive >"$SYS/policy" || echo "selecting srtf-adaptive"
	l=$(cd "$SYS/policy_params" && echo *)
	[ "$l" = "preempt_ratio_pct preempt_ratio_pct_range preempt_unknown preempt_unknown_range share_mode share_mode_range share_residency share_residency_range share_threshold_ppm share_threshold_ppm_range single_kernel single_kernel_range" ] ||
		echo "policy_params/ of srtf-adaptive: '$l'"
	v="$(cat "$SYS/policy_params/share_threshold_ppm") $(cat "$SYS/policy_params/share_residency") $(cat "$SYS/policy_params/share_mode") $(cat "$SYS/policy_params/preempt_ratio_pct") $(cat "$SYS/policy_params/preempt_unknown") $(cat "$SYS/policy_params/single_kernel")"
	[ "$v" = "500000 3 device 200 sample sm-exclusive" ] || echo "policy_params/ defaults: '$v'"
	echo fifo >"$SYS/policy" || echo "selecting fifo"
	[ -d "$SYS/policy_params" ] || echo "policy_params/ of fifo: absent"
	l=$(cd "$SYS/policy_params" && ls)
	[ -z "$l" ] || echo "policy_params/ of fifo: '$l'"
}

check_sms() {
	awk -v sms="$nr_sms" -v bps="$bps" '
	/^#/ { next }
	/^sm=/ {
		n++
		if (NF != 11) { print "sms: fields: " $0; next }
		for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
		if (v["free_slots"] + v["resident"] != bps)
			print "sms: slots do not add up: " $0
		if (v["sharing"] != 0 && v["sharing"] != 1) print "sms: sharing: " $0
		next
	}
	/^  grid client=[0-9]+ handle=[0-9]+ resident=[0-9]+ blocks=[0-9@,]+$/ { next }
	{ print "sms: unexpected line: " $0 }
	END { if (n != sms) print "sms: " n " SMs, want " sms }' "$1"
}

check_grids() {
	awk -v sms="$nr_sms" '
	NR == 1 { if ($0 !~ /^# [0-9]+ grids at cycle [0-9]+, [0-9]+ shown;/) print "grids: header: " $0; next }
	/^grid client=[0-9]+ handle=[0-9]+ id=[0-9]+ state=(arriving|queued|running) class=[a-z]+ eff_class=[a-z]+ blocks=/ {
		# the word of the policy for the grid: SRTF sampling state, or -
		if ($0 !~ / policy_state=(-|none|sampling|known) /) print "grids: policy_state: " $0
		if (rows && rows != sms) print "grids: " rows " predictor rows, want " sms
		rows = 0; g++; next
	}
	/^  sm now resident Active_Kernel_Cycles Done_Blocks Total_Blocks Resident_Blocks t Pred_Cycles Reslice predicted remaining$/ { next }
	/^  [0-9]+ / { if (NF != 12) print "grids: predictor row: " $0; rows++; next }
	{ print "grids: unexpected line: " $0 }
	END { if (rows && rows != sms) print "grids: " rows " predictor rows, want " sms }' "$1"
}

check_accuracy() {
	awk '
	/^#/ { next }
	{
		if (NF < 15) { print "accuracy: fields: " $0; next }
		for (i = 1; i <= 14; i++) if ($i !~ /^[0-9]+$/ && i != 4) print "accuracy: field " i ": " $0
		if ($9 != $8 - $7) print "accuracy: actual != end - start: " $0
		if ($11 && $9 && int($11 * 1000000 / $9) != $13 && int($11 * 1000000 / $9) + 1 != $13 && int($11 * 1000000 / $9) != $13 + 1)
			print "accuracy: first_ppm: " $0
	}' "$1"
}

# the totals, then per class and mechanism (all twelve) a latencies= line
# and its buckets: each adds up, and the twelve add up to the totals
check_latency() {
	awk '
	/^# preemptions [0-9]+$/ { p = $3; next }
	/^# switches( [a-z]+=[0-9]+){7}$/ { next }
	/^# latencies [0-9]+ sum [0-9]+ max [0-9]+ / { l = $3; ls = $5; next }
	/^# from to count/ { next }
	/^# by class / { next }
	/^[0-9]+ ([0-9]+|inf) [0-9]+$/ { sum += $3; next }
	/^(low|normal|high|realtime) (drain|switch|flush) latencies=[0-9]+ sum=[0-9]+ max=[0-9]+$/ {
		k = $1 " " $2
		if (k in n) print "preempt_latency: " k " twice"
		n[k] = substr($3, 11); rows++
		cl += n[k]; cs += substr($4, 5)
		next
	}
	/^(low|normal|high|realtime) (drain|switch|flush) [0-9]+ ([0-9]+|inf) [1-9][0-9]*$/ {
		b[$1 " " $2] += $5; next
	}
	{ print "preempt_latency: unexpected line: " $0 }
	END {
		if (sum != l) print "preempt_latency: buckets " sum ", latencies " l
		if (rows != 12) print "preempt_latency: " rows " class/mech rows"
		if (cl != l || cs != ls) print "preempt_latency: class/mech rows " cl " sum " cs ", totals " l " sum " ls
		for (k in n) if (b[k] + 0 != n[k]) print "preempt_latency: " k ": buckets " b[k] + 0 ", latencies " n[k]
	}' "$1"
}

check_fdinfo() {	# check_fdinfo FILE: one fdinfo of /dev/gputbs
	awk -v sms="$nr_sms" '
	/^drm-/ {
		n++
		if ($0 !~ /^drm-[a-z-]+:\t/) print "fdinfo: line: " $0
		k = substr($1, 1, length($1) - 1); v[k] = $2; u[k] = $3
	}
	END {
		if (n != 18) print "fdinfo: " n " drm- keys"
		if (v["drm-gputbs-tenant"] !~ /^(device|cgroup|file)$/ || u["drm-gputbs-tenant"] !~ /^[0-9]+$/) print "fdinfo: drm-gputbs-tenant " v["drm-gputbs-tenant"] " " u["drm-gputbs-tenant"]
		split("weight max-ppm sm-cycles throttled-cycles throttles", tk, " ")
		for (i = 1; i <= 5; i++) if (v["drm-gputbs-tenant-" tk[i]] !~ /^[0-9]+$/) print "fdinfo: drm-gputbs-tenant-" tk[i] ": " v["drm-gputbs-tenant-" tk[i]]
		for (k in v) if (k ~ /^drm-gputbs-(blocks-preempted|save-cycles|restore-cycles)$/ && v[k] !~ /^[0-9]+$/) print "fdinfo: " k ": " v[k]
		split("blocks-preempted save-cycles restore-cycles", pk, " ")
		for (i = 1; i <= 3; i++) if (!(("drm-gputbs-" pk[i]) in v)) print "fdinfo: no drm-gputbs-" pk[i]
		if (v["drm-driver"] != "gputbs") print "fdinfo: drm-driver " v["drm-driver"]
		if (v["drm-client-id"] !~ /^[1-9][0-9]*$/) print "fdinfo: drm-client-id"
		if (v["drm-engine-sm"] !~ /^[0-9]+$/ || u["drm-engine-sm"] != "ns") print "fdinfo: drm-engine-sm"
		if (v["drm-engine-capacity-sm"] != sms) print "fdinfo: capacity " v["drm-engine-capacity-sm"]
		if (v["drm-gputbs-grids-completed"] > v["drm-gputbs-grids-submitted"]) print "fdinfo: completed > submitted"
		if (v["drm-cycles-sm"] > v["drm-total-cycles-sm"] * sms) print "fdinfo: busy cycles above capacity"
	}' "$1"
}

# The fdinfo of every open /dev/gputbs, with shell builtins only (forks
# are slow in the guest, and the clients come and go).
read_fdinfos() {	# read_fdinfos TAG
	for fd in /proc/[0-9]*/fd/*; do
		# shellcheck disable=SC3013 # busybox ash has -ef
		[ "$fd" -ef /dev/gputbs ] 2>/dev/null || continue
		out=$work/fdinfo.$1
		driver=
		grids=0
		while IFS= read -r l; do
			case "$l" in
			drm-driver:*) driver=1 ;;
			drm-gputbs-grids-submitted:*) grids=${l##*[!0-9]} ;;
			esac
			printf '%s\n' "$l"
		# 2>/dev/null first: a client gone meanwhile is no message
		done 2>/dev/null <"${fd%/fd/*}/fdinfo/${fd##*/}" >"$out" || continue
		[ -n "$driver" ] || continue	# closed since, number reused
		if [ "$grids" != 0 ]; then
			echo fdinfo >>"$work/fdinfos"
		elif [ "$1" = watch ]; then
			continue	# the main pass checks the others
		fi
		check_fdinfo "$out"
	done
}

# --- ranges: every <tunable>_range is what a write accepts ----------------
# ranged: the writable files with a range file, at the top and in
# policy_params/ (srtf-adaptive selected)
ranged="starve_ns timeout_ns max_lag_ns cap_period switch_bytes_per_cycle preempt_budget_low preempt_budget_normal preempt_budget_high preempt_budget_realtime"

range_ok() {	# range_ok FILE: MIN..MAX; a write of MAX is taken, MAX+1 ERANGE
	f=$1
	r=$(cat "${f}_range") || { echo "${f##*/}_range: unreadable"; return; }
	case "$r" in
	*[!0-9.]* | .* | *. | *...*) echo "${f##*/}_range: '$r'"; return ;;
	*..*) ;;
	*) echo "${f##*/}_range: '$r'"; return ;;
	esac
	lo=${r%..*}
	hi=${r#*..}
	old=$(cat "$f")
	[ "$old" -ge "$lo" ] && [ "$old" -le "$hi" ] ||
		echo "${f##*/}: $old outside its range $r"
	err=$( (echo "$((hi + 1))" >"$f") 2>&1)
	case "$err" in
	*"out of range"*) ;;
	*) echo "${f##*/}: writing $((hi + 1)) (above $r): '$err'" ;;
	esac
	if [ "$lo" -gt 0 ]; then
		err=$( (echo "$((lo - 1))" >"$f") 2>&1)
		case "$err" in
		*"out of range"*) ;;
		*) echo "${f##*/}: writing $((lo - 1)) (below $r): '$err'" ;;
		esac
	fi
	for v in "$hi" "$lo"; do
		echo "$v" >"$f" 2>/dev/null || echo "${f##*/}: writing $v (in $r) failed"
		[ "$(cat "$f")" = "$v" ] || echo "${f##*/}: wrote $v, reads '$(cat "$f")'"
	done
	echo "$old" >"$f" || echo "${f##*/}: restoring $old failed"
	echo "range ${f##*/} $r" >>"$work/ranges"
}

check_ranges() {
	for t in $ranged; do
		range_ok "$SYS/$t"
	done
	echo srtf-adaptive >"$SYS/policy" || echo "selecting srtf-adaptive"
	for f in "$SYS"/policy_params/*_range; do
		p=${f%_range}
		r=$(cat "$f")
		case "$r" in
		*..*) range_ok "$p" ;;
		*)	# a choice: its names, each accepted and read back
			old=$(cat "$p")
			for v in $r; do
				echo "$v" >"$p" 2>/dev/null &&
					[ "$(cat "$p")" = "$v" ] ||
					echo "${p##*/}: value name $v of '$r' refused"
			done
			echo "$old" >"$p"
			echo "range ${p##*/} $r" >>"$work/ranges"
			;;
		esac
	done
	echo fifo >"$SYS/policy" || echo "selecting fifo"
}

read_everything() {	# one pass over every file; problems to $work/bad
	read_fdinfos main
	check_sysfs
	for f in sms grids accuracy preempt_latency; do
		cat "$DBG/$f" >"$work/$f" || echo "debugfs $f: unreadable"
	done
	check_sms "$work/sms"
	check_grids "$work/grids"
	check_accuracy "$work/accuracy"
	check_latency "$work/preempt_latency"
}

# --- the workload: a long grid, a shorter one and a high-class one, and a
# low-class grid of 3 s (at the default time scale) that keeps its file
# open long enough to be seen by the readers ------------------------------
cat >"$work/w.gtbs" <<'EOF'
program long
grid crunch blocks=600 threads=128 cycles=3000 rsd=20 seed=3
program short
grid quick blocks=120 threads=64 cycles=800 rsd=10 seed=4
program urgent
grid frame blocks=30 threads=64 cycles=500 seed=5 class=high
program bg
grid hold blocks=15 threads=32 cycles=3000000 seed=6 class=low
workload W
run long
run short at=2000
run urgent at=6000
run bg
EOF

: >"$work/bad"
: >"$work/bad.watch"
: >"$work/fdinfos"
exec 3</dev/gputbs
snapshot "$work/before"
trace-cmd record -q -b 8192 -e gputbs -o "$work/t.dat" sh -c \
	"gputbs run --policy srtf-adaptive,fifo '$work/w.gtbs'; echo \$? >'$work/run.rc'" \
	>"$work/run.txt" 2>&1 &
tpid=$!
# the clients come and go: a second reader only looks at their fdinfo
(
	while kill -0 "$tpid" 2>/dev/null; do
		read_fdinfos watch
		sleep 0.2
	done
) >>"$work/bad.watch" &
wpid=$!
passes=0
while kill -0 "$tpid" 2>/dev/null; do
	read_everything >>"$work/bad"
	passes=$((passes + 1))
done
wait "$tpid"
rc=$?
wait "$wpid"
cat "$work/bad.watch" >>"$work/bad"
read_everything >>"$work/bad"
# our own client, without grids
cat "/proc/$$/fdinfo/3" >"$work/fdinfo.own"
check_fdinfo "$work/fdinfo.own" >>"$work/bad"
exec 3<&-
snapshot "$work/after"
check "trace-cmd record exited 0" test "$rc" -eq 0
# the workload as asked: every program arrived at its exact cycle (on a
# loaded debug kernel a child may submit too late: gputbs run fails then)
check "gputbs run of the workload exited 0" test "$(cat "$work/run.rc")" = 0
grep -v '^CPU[0-9]\|bytes in size' "$work/run.txt"
echo "read every file $passes times under load; $(wc -l <"$work/fdinfos") fdinfo reads of clients with grids"
check "every file read at least once while the workload ran" test "$passes" -ge 1
check "the fdinfo of a client with grids was read" test -s "$work/fdinfos"
check "sysfs, debugfs and fdinfo formats" test ! -s "$work/bad"
sort "$work/bad" | uniq -c | head -n 20
check_params_layout >"$work/bad.params"
check "policy_params/: srtf-adaptive's six files at their defaults, fifo's none" \
	test ! -s "$work/bad.params"
cat "$work/bad.params"
: >"$work/ranges"
check_ranges >"$work/bad.ranges" 2>&1
cat "$work/ranges"
check "every _range file: MIN and MAX written, one past them ERANGE ($(wc -l <"$work/ranges") ranges)" \
	test ! -s "$work/bad.ranges" -a "$(wc -l <"$work/ranges")" -ge 15
cat "$work/bad.ranges"
check "after the run: preempt_latency's preemptions = sysfs preemptions" \
	test "$(sed -n 's/^# preemptions //p' "$DBG/preempt_latency")" = "$(cat "$SYS/preemptions")"

# --- the recording adds up ----------------------------------------------
trace-cmd report -i "$work/t.dat" >"$work/report.txt" 2>/dev/null
check "trace-cmd report reads the recording" test -s "$work/report.txt"

# name=value of field $2 of the line, for awk: field(line, key)
awk '
function field(key,   i, kv) {
	for (i = 1; i <= NF; i++) if (index($i, key "=") == 1) return substr($i, length(key) + 2)
	return ""
}
{
	for (i = 1; i <= NF; i++) if ($i ~ /^(grid_submit|grid_start|block_start|block_end|grid_end|preempt|predict|policy_switch|sharing_mode):$/) { ev = substr($i, 1, length($i) - 1); break }
	if (i > NF) next
	n[ev]++
	g = field("client") ":" field("handle")
	if (ev == "grid_submit") { sub_blocks[g] = field("blocks"); subs[g]++ }
	if (ev == "grid_end") { ends[g]++; if (field("state") == "done") done++; else cancelled++ }
	if (ev == "block_start") {
		k = g " " field("block")
		if (k in started) dup++
		started[k] = field("sm") " " field("slot") " " field("cycle"); bs[g]++
	}
	if (ev == "block_end") {
		k = g " " field("block")
		if (!(k in started) || started[k] != field("sm") " " field("slot") " " field("start")) unmatched++
		if (k in ended) dup++
		ended[k] = 1; be[g]++
	}
	if (ev == "preempt") { r[field("reason")]++ }
}
END {
	for (g in subs) {
		if (bs[g] != sub_blocks[g] || be[g] != sub_blocks[g]) badgrid++
		if (ends[g] != 1) badend++
	}
	for (k in started) if (!(k in ended)) open++
	printf "grid_submit %d\ngrid_start %d\nblock_start %d\nblock_end %d\ngrid_end %d\ndone %d\ncancelled %d\npreempt %d\npredict %d\npolicy_switch %d\nsharing_mode %d\n", n["grid_submit"], n["grid_start"], n["block_start"], n["block_end"], n["grid_end"], done, cancelled, n["preempt"], n["predict"], n["policy_switch"], n["sharing_mode"]
	printf "preemptions %d\nsample %d\nunmatched %d\nopen %d\ndup %d\nbadgrid %d\nbadend %d\n", r["class"] + r["starve"] + r["shorter"], r["sample"], unmatched, open, dup, badgrid, badend
}' "$work/report.txt" >"$work/counts"
cat "$work/counts"
ev() { sed -n "s/^$1 //p" "$work/counts"; }
for c in $counters; do echo "delta $c $(delta "$c")"; done

check "events were recorded" test "$(ev block_start)" -gt 0
check "every block_start has its block_end (same grid, block, SM, slot, start)" \
	test "$(ev unmatched)" -eq 0 -a "$(ev open)" -eq 0 -a "$(ev dup)" -eq 0
check "block_start = block_end" test "$(ev block_start)" -eq "$(ev block_end)"
check "per grid: block_start = block_end = the grid's blocks" test "$(ev badgrid)" -eq 0
check "every grid_submit has one grid_end" test "$(ev badend)" -eq 0 -a \
	"$(ev grid_submit)" -eq "$(ev grid_end)"
check "grid_start = grid_submit (every grid ran)" test "$(ev grid_start)" -eq "$(ev grid_submit)"
check "grid_submit = sysfs grids_submitted" test "$(ev grid_submit)" -eq "$(delta grids_submitted)"
check "grid_end done = sysfs grids_completed" test "$(ev "done")" -eq "$(delta grids_completed)"
check "block_start = sysfs blocks_dispatched" test "$(ev block_start)" -eq "$(delta blocks_dispatched)"
check "predict = sysfs predictions" test "$(ev predict)" -eq "$(delta predictions)"
check "preempt class+starve+shorter = sysfs preemptions" test "$(ev preemptions)" -eq "$(delta preemptions)"
check "SRTF preempted: shorter or class preemptions, and a sample" \
	test "$(ev preemptions)" -gt 0 -a "$(ev sample)" -gt 0
check "policy_switch = sysfs policy_switches" test "$(ev policy_switch)" -eq "$(delta policy_switches)"
# a policy switch that resets sharing mode emits sharing_mode uncounted
check "sysfs sharing_switches <= sharing_mode <= that + SMs x policy switches" \
	test "$(ev sharing_mode)" -ge "$(delta sharing_switches)" -a \
	"$(ev sharing_mode)" -le $(($(delta sharing_switches) + nr_sms * $(ev policy_switch)))
check "gputbs timeline --check accepts the report" \
	sh -c "gputbs timeline --check --summary '$work/report.txt' >'$work/tl.txt'"
check "gputbs timeline --check reads the .dat with libtracecmd" \
	sh -c "gputbs timeline --check --summary '$work/t.dat' >'$work/tl2.txt'"
check "both readings agree" cmp -s "$work/tl.txt" "$work/tl2.txt"
grep -E '^(events|check):' "$work/tl.txt"

rm -rf "$work"
echo "obs: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
