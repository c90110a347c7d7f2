#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# gputbs-trace-test - in the guest: record a block trace of the module with
# `gputbs run --trace` and check that `gputbs predict` replays it into the
# predictions of Equation 2 worked out by hand.
#
# Workload /workloads/tests/staircase.gtbs on the default 15 SMs: R = 2,
# 4 blocks of t = 1000 cycles per SM in two waves, so Total_Blocks = 4 and
# on every SM (Active_Kernel_Cycles = the cycles since the grid started):
#   first wave ends (1000):  1000 + (4 - 1) * 1000 / 2 = 2500
#                            1000 + (4 - 2) * 1000 / 2 = 2000
#   second wave ends (2000): 2000 + (4 - 3) * 1000 / 2 = 2500
#                            2000 + (4 - 4) * 1000 / 2 = 2000
# 60 predictions in all, and the final one, 2000, equals the runtime.
#
# Prints "trace: N passed, M failed".
set -u
work=${TMPDIR:-/tmp}/gputbs-trace-test.$$
mkdir -p "$work"
. "$(dirname "$0")/gputbs-test-lib.sh"

trace=$work/stair.trace
csv=$work/stair.csv
check "gputbs run --trace writes a trace" \
	gputbs run --trace "$trace" /workloads/tests/staircase.gtbs
check "the trace declares the grid with R = 2" \
	grep -q '^grid 0 blocks=60 residency=2' "$trace"
check "the trace has 60 block lines" \
	test "$(grep -c '^block ' "$trace")" -eq 60
check "gputbs predict replays it" \
	sh -c "gputbs predict --trace '$trace' --sms 15 >'$csv'"

# type,grid,label,sm,cycle,pred_cycles,t,done_blocks,resident_blocks,actual,ratio
check "every prediction is Equation 2 by hand" awk -F, '
	$1 == "pred" {
		n++
		want = ($8 % 2) ? 2500 : 2000
		if ($6 != want || $7 != 1000 || $9 != 2) {
			print "bad prediction: " $0; bad++
		}
	}
	END { if (n != 60) { print n " predictions, want 60"; bad++ } exit bad != 0 }' "$csv"
check "the final prediction is the runtime" awk -F, '
	$1 == "final" { found = 1; if ($6 != 2000 || $10 != 2000 || $11 != "1.000000") { print; exit 1 } }
	END { exit !found }' "$csv"

rm -rf "$work"
echo "trace: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
