#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# gputbs-load-test - in the guest, as root: every scenario of
# /workloads/scenarios (each *.gtbs but models.gtbs, the programs) at one
# load point on the module, equal to the simulator (issue 31, "The module
# side"; Documentation/evaluation.rst, "Modern scenarios").
#
# The module is switched to the h100 preset (sysfs device, as the
# scenarios are written for it) at TIME_SCALE_PS picoseconds per cycle
# (default 1000000, the module's default), both restored at the end.
# The module's clock follows wall time: a grid that its process submits
# after its arrival cycle arrives late, and the run then depends on
# wall-clock time.  On the debug kernel under TCG the module emulates
# about 13,700 blocks per second, and a training step is 53,358 blocks in
# 13.9 million cycles: at 1 us per cycle the clock leaves the emulation
# 3.6 times the time it needs; at 1 ns per cycle it runs 280 times
# ahead, the processes fall behind their arrival cycles, and the
# latencies are wall-clock time (measured: bert-infer p50 9.7e9 cycles
# against the simulator's 7.9e6).  With the scenario files F... that are
# not skipped (MAX_CYCLES below), all in one command each, so that every
# program runs alone once:
#
#   gputbs run --load $LOAD --duration $DURATION -P $POLICY $EXTRA \
#	--format json F...
#   $GPUTBS_SIM run --device h100 --load $LOAD --duration $DURATION \
#	-P $POLICY $EXTRA --format json F...
#
# (GPUTBS_SIM: the simulator, carried in with tools/vm/gputbs-vm --host-bin;
# SIM_DIR: a directory of each file's F.sim.json, the simulator's run of
# each file alone made beforehand on the host, as scripts/check.sh does,
# which decides the skips without running the simulator under TCG)
# and per run of each workload these must be equal:
# the scaled stream (rate_per_s of an open loop, nr_requests), the load's
# unit that scaled it under fifo (load_alone_cycles: an open loop's alone
# service interval, a closed loop's alone latency), and of its requests n,
# p50_cycles, p99_cycles, slo_met and slo_attainment.
# Also checked: the module's run exited 0, its arrivals were exact and no
# run depended on wall-clock time (else the comparison cannot hold).
#
# FILES (default: every file): the scenarios to run, by name without
# .gtbs, comma-separated.
#
# LOAD defaults to 0.6, POLICY to srtf (not fifo, so that the fifo alone
# runs that give the load's unit are runs of their own, the policy
# switched for them and back).  EXTRA: more options for both commands (none by
# default).
#
# DURATION (default 5ms) is the reduction that keeps the guest's time
# small: at 1 us per cycle a scenario takes its emulated time in wall
# time, and the files' own spans are 0.3 to 3.7 s of it.  The open-loop
# streams run for DURATION at the load (--duration, as gputbs-sim sweep's),
# the training loops as many steps as cover them (1 for the ResNet-50 and
# BERT scenarios).  The load's unit needs each open-loop run's requests at
# once on one file: boot the module with max_grids_per_fd of at least 50 x
# 60 + 1 = 3001; gputbs run then streams that far ahead in every run, so
# max_grids_per_user and max_grids_per_device must hold three such files
# (scripts/check.sh: 4096, 16384 and 16384; at 4096 grids per device the
# second inference stream of resnet50-bert-infer+train failed with
# -ENOSPC).
#
# MAX_CYCLES (default 200000000; 0: no limit): a file whose workload the
# simulator ends after more cycles than that at this point is reported
# "SKIP" with its length and not run on the module (at 1 us per cycle
# that many cycles are as many microseconds of guest time, besides its
# alone runs): llama3.1-8b-serve's one request of 670,624 blocks takes
# 184 ms alone and its training loop covers the 272 ms its rate spaces
# one request by, 39 steps, whatever DURATION.
#
# gputbs-load-test --compare MODULE.json SIM.json compares two reports
# (exit 1 on a difference), e.g. on the host to see each check fail on a
# perturbed copy.
#
# Prints "load: N passed, M failed, K skipped".
set -u
SYS=/sys/class/misc/gputbs
LOAD=${LOAD:-0.6}
POLICY=${POLICY:-srtf}
EXTRA=${EXTRA:-}
TIME_SCALE_PS=${TIME_SCALE_PS:-1000000}
DURATION=${DURATION:-5ms}
MAX_CYCLES=${MAX_CYCLES:-200000000}
GPUTBS_SIM=${GPUTBS_SIM:-gputbs-sim}
SCENARIOS=${SCENARIOS:-/workloads/scenarios}
work=${TMPDIR:-/tmp}/gputbs-load-test.$$
. "$(dirname "$0")/gputbs-test-lib.sh"
skipped=0

# runs JSON: per run of the first policy's workloads, one line
# "WORKLOAD PROGRAM rate=R nr_requests=N load_alone_cycles=A n=N
# p50_cycles=P p99_cycles=Q slo_met=S slo_attainment=T" (rate=- for a closed loop,
# slo_met and slo_attainment - without slo=; n, p50 and p99 - for one
# request without slo=)
runs() {
	awk '
	function flush() {
		if (prog != "")
			printf "%s %s rate=%s nr_requests=%s load_alone_cycles=%s n=%s p50_cycles=%s p99_cycles=%s slo_met=%s slo_attainment=%s\n",
				wl, prog, v["rate_per_s"], v["nr_requests"],
				v["load_alone_cycles"], v["n"], v["p50_cycles"],
				v["p99_cycles"], v["slo_met"], v["slo_attainment"]
		prog = ""
		split("", v)
		v["rate_per_s"] = v["slo_met"] = v["slo_attainment"] = "-"
		v["n"] = v["p50_cycles"] = v["p99_cycles"] = "-"
	}
	/"workloads":/ { w++ }
	/"policies":/ { flush(); w = 2 }
	w != 1 { next }
	{ key = $1; gsub(/[":]/, "", key); val = $2; gsub(/[",]/, "", val) }
	key == "name" { flush(); wl = val }
	key == "program" { flush(); prog = val }
	prog != "" && (key == "rate_per_s" || key == "nr_requests" ||
		       key == "load_alone_cycles" || key == "n" ||
		       key == "p50_cycles" || key == "p99_cycles" ||
		       key == "slo_met" || key == "slo_attainment") { v[key] = val }
	END { flush() }' "$1"
}

# compare MODULE.json SIM.json: one check per compared value per run
compare() {
	runs "$1" >"$work/m.txt"
	runs "$2" >"$work/s.txt"
	check "$3: the module and the simulator ran the same runs" \
		test "$(cut -d' ' -f1,2 "$work/m.txt")" = \
		"$(cut -d' ' -f1,2 "$work/s.txt")"
	# a one-request loop (a training loop of one step) has no request
	# metrics: n, p50 and p99 "-"
	check "$3: every run has a scaled stream, and its requests metrics" \
		test -s "$work/s.txt" -a -z "$(awk '!/ nr_requests=[0-9]+ load_alone_cycles=[0-9]+ / ||
			(!/ nr_requests=1 / && !/ n=[0-9]+ p50_cycles=[0-9]+ p99_cycles=[0-9]+ /)' "$work/s.txt")"
	while read -r wl prog rest; do
		mline=$(awk -v w="$wl" -v p="$prog" '$1 == w && $2 == p' \
			"$work/m.txt")
		for kv in $rest; do
			k=${kv%%=*}
			sv=${kv#*=}
			mv=$(echo "$mline" | tr ' ' '\n' | sed -n "s/^$k=//p")
			check "$3: $wl $prog $k: module $mv, simulator $sv" \
				test "$mv" = "$sv"
		done
	done <"$work/s.txt"
}

mkdir -p "$work"
if [ "${1:-}" = --compare ]; then
	compare "$2" "$3" compare
	echo "load: $passed passed, $failed failed"
	rm -rf "$work"
	[ "$failed" = 0 ]
	exit
fi

old_device=$(sed 's/.*\[\(.*\)\].*/\1/' "$SYS/device")
old_scale=$(cat "$SYS/time_scale_ps")
old_policy=$(sed 's/.*\[\(.*\)\].*/\1/' "$SYS/policy")
echo h100 >"$SYS/device"
check "the module on the h100 preset" grep -q '\[h100\]' "$SYS/device"
echo "$TIME_SCALE_PS" >"$SYS/time_scale_ps"
check "time_scale_ps $TIME_SCALE_PS" test "$(cat "$SYS/time_scale_ps")" = \
	"$TIME_SCALE_PS"

keep=
for f in "$SCENARIOS"/*.gtbs; do
	b=$(basename "$f" .gtbs)
	[ "$b" = models ] && continue
	# FILES: the names (without .gtbs) to run, all when empty
	case ",${FILES:-$b}," in *",$b,"*) ;; *) continue ;; esac
	if [ -n "${SIM_DIR:-}" ]; then
		# made on the host by the same command (scripts/check.sh):
		# the simulator under TCG takes minutes for the LLM files
		cp "$SIM_DIR/$b.sim.json" "$work/$b.sim.json" || exit 1
	else
		# shellcheck disable=SC2086
		"$GPUTBS_SIM" run --device h100 --load "$LOAD" \
			--duration "$DURATION" -P "$POLICY" $EXTRA \
			--format json "$f" >"$work/$b.sim.json"
	fi
	end=$(awk '/"workloads":/ { w++ } w == 1 && /"end_cycles":/ {
		v = $2; gsub(/,/, "", v); if (v + 0 > m) m = v + 0 }
		END { printf "%.0f\n", m }' "$work/$b.sim.json")
	if [ "$MAX_CYCLES" != 0 ] && [ "$end" -gt "$MAX_CYCLES" ]; then
		skipped=$((skipped + 1))
		echo "SKIP: $b: its workload ends at cycle $end in the simulator, above MAX_CYCLES=$MAX_CYCLES (MAX_CYCLES=0 runs it)"
		continue
	fi
	echo "$b: its workload ends at cycle $end in the simulator"
	keep="$keep $f"
done
check "a scenario file to run" test -n "$keep"

# all files in one command: each program runs alone once
t0=$(date +%s)
# shellcheck disable=SC2086
gputbs run --load "$LOAD" --duration "$DURATION" -P "$POLICY" $EXTRA \
	--format json $keep >"$work/run.json" 2>"$work/run.err"
rc=$?
echo "gputbs run --load $LOAD --duration $DURATION -P $POLICY $EXTRA: $(($(date +%s) - t0)) s"
cat "$work/run.err"
check "gputbs run --load $LOAD -P $POLICY: exit 0" test "$rc" = 0
check "exact arrivals in every workload" sh -c \
	"! grep -q '\"exact_arrivals\": false' '$work/run.json' && grep -q '\"exact_arrivals\": true' '$work/run.json'"
check "no run depends on wall-clock time" \
	grep -q '"wall_clock_dependent": false' "$work/run.json"
# shellcheck disable=SC2086
"$GPUTBS_SIM" run --device h100 --load "$LOAD" --duration "$DURATION" \
	-P "$POLICY" $EXTRA --format json $keep >"$work/sim.json"
check "the simulator's report" test -s "$work/sim.json"
compare "$work/run.json" "$work/sim.json" "load $LOAD"
if [ -d /out ]; then
	cp "$work/run.json" /out/run.json
	cp "$work/sim.json" /out/sim.json
fi

echo "$old_device" >"$SYS/device"
echo "$old_scale" >"$SYS/time_scale_ps"
check "the device's preset and time scale restored" sh -c \
	"grep -q '\[$old_device\]' $SYS/device && test \$(cat $SYS/time_scale_ps) = $old_scale"
check "the policy restored ($old_policy)" grep -q "\[$old_policy\]" \
	"$SYS/policy"
rm -rf "$work"
echo "load: $passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ]
