#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# gputbs-bpf-test - in the guest, as root, on a kernel with BPF policies
# (Documentation/bpf.rst): the objects of make bpf-samples in BPF_DIR
# (default /bpf: fifo.bpf.o, las.bpf.o, srtf_lite.bpf.o,
# test/bad-*.bpf.o; gputbs-vm
# --host-file), gputbs policy load/unload/list, and the fallback to fifo.
#
#  1. gputbs policy load fifo.bpf.o registers bpf_fifo (policy list: bpf;
#     the selector lists it; pinned under /sys/fs/bpf/gputbs/); loading
#     it twice fails;
#  2. gputbs run --policy fifo,bpf_fifo on the ERCBench pairs PAIRS gives
#     identical STP, ANTT and StrictF, pair by pair;
#  3. bpf_las against the sample module's las, when gtbs_las is loaded
#     (gputbs-vm --module): identical too; else it runs a pair;
#     bpf_srtf_lite (srtf_lite.bpf.o, the predictor's kfuncs) runs the
#     pairs with every grid completed;
#  4. the verifier refuses each test/bad-*.bpf.o, and no policy appears;
#  5. gputbs policy unload while grids run under bpf_fifo (once a grid is
#     in flight: submitted, not completed): the device goes back to fifo,
#     every run completes, and grids_completed grows by grids_submitted's
#     growth (none cancelled or timed out);
#  6. the same when the loader (load --foreground) is killed (SIGKILL),
#     and when it is stopped (SIGTERM);
#  7. the conformance suite's invariants (tests/unit/test_conformance.c)
#     on the BPF samples in the guest: gputbs-stress (tests/stress) with
#     bpf_las, bpf_fifo and fifo switched among under load, victims
#     SIGKILLed mid-grid and --strict-classes: every block runs once, no
#     SM's resources or slots exceeded, classes strict, the device idle at
#     the end and its counters balanced;
#  8. every map and program is freed afterwards: the module's reference
#     count returns to what it was (policy modules hold one each), so
#     that it can be unloaded.
#
# Any time scale works (make check loads gputbs with time_scale_ps=100000,
# 100 ns per cycle, for speed): the runs submit their grids for exact
# arrival cycles, so STP, ANTT and StrictF do not depend on it.
#
# Prints "bpf: N passed, M failed".
set -u
SYS=/sys/class/misc/gputbs
BPF_DIR=${BPF_DIR:-/bpf}
PAIRS=${PAIRS:-"RayTracing+JPEG-d AES-d+SHA1 JPEG-e+NLM2"}
W=/workloads/ercbench/pairs
work=${TMPDIR:-/tmp}/gputbs-bpf-test.$$
mkdir -p "$work"
. "$(dirname "$0")/gputbs-test-lib.sh"
refcnt0=$(cat /sys/module/gputbs/refcnt)

wait_gone() {	# wait_gone POLICY: up to 20 s for the selector to drop it
	i=0
	while listed "$1" && [ $i -lt 200 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	! listed "$1"
}

counter() { cat "$SYS/$1"; }

# same_rows OUT: every row of the side-by-side table has the same three
# numbers under both policies
same_rows() {
	awk -F'|' 'NF == 3 && $1 ~ /\+/ {
			n++
			if (split($2, a, " ") != 3 || split($3, b, " ") != 3)
				bad++
			for (i = 1; i <= 3; i++)
				if (a[i] != b[i])
					bad++
		}
		END { exit !(n > 0 && !bad) }' "$1"
}

# --- 1. load ------------------------------------------------------------
check "load fifo.bpf.o" gputbs policy load "$BPF_DIR/fifo.bpf.o"
check "policy list: bpf_fifo is bpf" \
	sh -c 'gputbs policy list | grep -qE "^bpf_fifo +bpf"'
check "the selector lists bpf_fifo" listed bpf_fifo
check "pinned at /sys/fs/bpf/gputbs/bpf_fifo" test -e /sys/fs/bpf/gputbs/bpf_fifo
check "loading it again fails" \
	sh -c "! gputbs policy load $BPF_DIR/fifo.bpf.o 2>$work/again"
check "... because the name is registered" grep -q "registered" "$work/again"

# --- 2. bpf_fifo = fifo -------------------------------------------------
files=
for p in $PAIRS; do
	files="$files $W/$p.gtbs"
done
# shellcheck disable=SC2086
gputbs run --policy fifo,bpf_fifo $files >"$work/fifo.out" 2>&1
check "gputbs run --policy fifo,bpf_fifo" test $? -eq 0
cat "$work/fifo.out"
check "bpf_fifo = fifo: STP, ANTT, StrictF on $PAIRS" same_rows "$work/fifo.out"

# --- 3. bpf_las -----------------------------------------------------------
check "load las.bpf.o" gputbs policy load "$BPF_DIR/las.bpf.o"
if listed las; then
	# shellcheck disable=SC2086
	gputbs run --policy las,bpf_las $files >"$work/las.out" 2>&1
	check "gputbs run --policy las,bpf_las" test $? -eq 0
	cat "$work/las.out"
	check "bpf_las = las (the sample module)" same_rows "$work/las.out"
else
	check "gputbs run --policy bpf_las" \
		gputbs run --policy bpf_las "$W/RayTracing+JPEG-d.gtbs"
fi
check "unload bpf_las" gputbs policy unload bpf_las
check "bpf_las is gone" wait_gone bpf_las

# --- 3b. bpf_srtf_lite: the predictor's kfuncs --------------------------
if [ -f "$BPF_DIR/srtf_lite.bpf.o" ]; then
	check "load srtf_lite.bpf.o" gputbs policy load "$BPF_DIR/srtf_lite.bpf.o"
	s0=$(counter grids_submitted)
	c0=$(counter grids_completed)
	check "gputbs run --policy bpf_srtf_lite on $PAIRS" \
		sh -c "gputbs run --policy bpf_srtf_lite $files >$work/srtf.out 2>&1"
	check "bpf_srtf_lite: every grid completed" \
		test $(($(counter grids_submitted) - s0)) -eq $(($(counter grids_completed) - c0))
	grep -E "STP|geomean" "$work/srtf.out"
	check "unload bpf_srtf_lite" gputbs policy unload bpf_srtf_lite
fi

# --- 4. the verifier ----------------------------------------------------
for f in "$BPF_DIR"/test/bad-*.bpf.o; do
	n=$(basename "$f" .bpf.o)
	pol=$(echo "$n" | tr - _)
	gputbs policy load "$f" >"$work/$n.log" 2>&1
	check "the verifier refuses $n" test $? -ne 0
	check "$n: the verifier's log says why" \
		grep -qiE "invalid|infinite loop|back-edge|only read|beyond|too large|not allowed|denied" \
		"$work/$n.log" || cat "$work/$n.log"
	check "$n: not registered" sh -c "! tr ' []' '\n\n\n' <$SYS/policy | grep -qx $pol"
done

# --- 5. unload while grids run -------------------------------------------
# one wave of 10^7-cycle blocks (15 SMs x 6 of 256 threads): each grid is
# in flight 1 s at 100 ns per cycle, so that the poll below sees it even
# on the debug kernel (an ERCBench grid is there for 40 ms only)
cat >"$work/long.gtbs" <<EOF
program L
grid long blocks=90 threads=256 regs=16 cycles=10000000
workload long
run L
EOF
# runs_under POLICY STOPCMD: two runs of long.gtbs under POLICY in the
# background, STOPCMD once a grid is in flight; every run completes,
# the device ends on fifo and no grid is lost
runs_under() {
	pol=$1
	stop=$2
	echo "$pol" >"$SYS/policy" || return 1
	s0=$(counter grids_submitted)
	c0=$(counter grids_completed)
	x0=$(($(counter grids_cancelled) + $(counter grids_timed_out)))
	(
		rc=0
		for i in 1 2; do
			gputbs run "$work/long.gtbs" >"$work/run$i.out" 2>&1 || rc=1
		done
		exit $rc
	) &
	runs=$!
	# stop once a grid of the first run is on the device, polled for
	# 20 s at most
	inflight=$(wait_in_flight 20)
	eval "$stop"
	wait $runs
	rc=$?
	s1=$(counter grids_submitted)
	c1=$(counter grids_completed)
	x1=$(($(counter grids_cancelled) + $(counter grids_timed_out)))
	echo "$pol: $inflight grids in flight at the stop; runs rc $rc, submitted +$((s1 - s0)), completed +$((c1 - c0)), cancelled or timed out +$((x1 - x0))"
	cat "$SYS/policy"
	[ $inflight -gt 0 ] && [ $rc -eq 0 ] && [ $((s1 - s0)) -gt 0 ] &&
		[ $((s1 - s0)) -eq $((c1 - c0)) ] && [ "$x1" -eq "$x0" ] &&
		selected fifo
}
check "unload while grids run: back to fifo, no grid lost" \
	runs_under bpf_fifo "gputbs policy unload bpf_fifo"
check "bpf_fifo is gone" wait_gone bpf_fifo
check "its pin is gone" test ! -e /sys/fs/bpf/gputbs/bpf_fifo

# --- 6. the loader killed, or stopped -------------------------------------
for sig in KILL TERM; do
	gputbs policy load --foreground "$BPF_DIR/fifo.bpf.o" >"$work/fg.out" 2>&1 &
	loader=$!
	i=0
	while ! listed bpf_fifo && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	check "load --foreground registers bpf_fifo" listed bpf_fifo
	check "policy list: bpf_fifo is bpf, unpinned" \
		sh -c 'gputbs policy list | grep -qE "^bpf_fifo +bpf"'
	check "SIG$sig to the loader while grids run: back to fifo, no grid lost" \
		runs_under bpf_fifo "kill -$sig $loader; wait $loader; true"
	check "SIG$sig: bpf_fifo is gone" wait_gone bpf_fifo
done

# --- 7. conformance --------------------------------------------------------
check "load fifo.bpf.o and las.bpf.o for the conformance run" \
	sh -c "gputbs policy load $BPF_DIR/fifo.bpf.o && gputbs policy load $BPF_DIR/las.bpf.o"
gputbs-stress --grids "${STRESS_GRIDS:-200}" --procs 8 --kill 3 \
	--max-blocks 60 --policies bpf_las,bpf_fifo,fifo --strict-classes \
	>"$work/stress.out" 2>&1
rc=$?
cat "$work/stress.out"
check "conformance of bpf_las and bpf_fifo (gputbs-stress, strict classes)" \
	test $rc -eq 0
check "... the policies were switched under load" \
	grep -qE "^stress: [1-9][0-9]* policy switches among 3 policies" \
	"$work/stress.out"
check "... and the classes checked" \
	grep -q "^stress: strict classes over .* 0 violations" "$work/stress.out"
check "unload bpf_las and bpf_fifo" \
	sh -c "echo fifo >$SYS/policy && gputbs policy unload bpf_las && gputbs policy unload bpf_fifo"

# --- 8. everything freed --------------------------------------------------
i=0
while [ "$(cat /sys/module/gputbs/refcnt)" != "$refcnt0" ] && [ $i -lt 300 ]; do
	sleep 0.1
	i=$((i + 1))
done
check "maps and programs freed: gputbs's refcnt back to $refcnt0" \
	test "$(cat /sys/module/gputbs/refcnt)" = "$refcnt0"

rm -rf "$work"
echo "bpf: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
