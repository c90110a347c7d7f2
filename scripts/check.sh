#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/check.sh - every test of gputbs, run by `make check`.
#
# Each step is either one named check (counted as one test) or a suite
# whose own test counts are added up.  A failing step does not stop the
# others.  The last line is "N passed, N failed"; the exit status is
# non-zero if anything failed.
#
# Steps: W=1 module builds against Debian's 6.12 and 6.1 headers; sparse;
# the host
# unit tests of the portable core under ASan/UBSan; the CLI's usage and
# workload-file errors; the simulator (determinism, hand-worked pairs,
# usage errors, plots); libgputbs' exported symbols; the debug kernel
# (cached); the KUnit suites loaded as a module in the debug kernel and
# parsed by the kernel's own kunit.py; the userland suite in the debug
# kernel guest; the CLI on the module (policies, traces, classes, exact
# arrival offsets); and the calibration of every ERCBench kernel alone.
set -uo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 1
BUILD=${BUILD:-build}
logs=$BUILD/check
mkdir -p "$logs"
# shellcheck source=scripts/kernel-paths.sh
. scripts/kernel-paths.sh

passed=0
failed=0
failures=()

note() { printf 'check: %s\n' "$*"; }

count() {	# count NAME PASSED FAILED
	passed=$((passed + $2))
	failed=$((failed + $3))
	if [ "$3" -ne 0 ]; then
		failures+=("$1")
	fi
	note "$1: $2 passed, $3 failed"
}

# step NAME COMMAND... : one named check
step() {
	local name=$1 log
	shift
	log=$logs/$(echo "$name" | tr -c 'A-Za-z0-9._-' '_').log
	note "$name ..."
	if "$@" >"$log" 2>&1; then
		count "$name" 1 0
	else
		tail -n 40 "$log"
		count "$name" 0 1
	fi
}

# suite NAME PARSER COMMAND... : a suite whose log PARSER turns into counts
suite() {
	local name=$1 parser=$2 log rc p f
	shift 2
	log=$logs/$(echo "$name" | tr -c 'A-Za-z0-9._-' '_').log
	note "$name ..."
	"$@" >"$log" 2>&1
	rc=$?
	read -r p f < <("$parser" "$log")
	p=${p:-0}
	f=${f:-0}
	if { [ "$rc" -ne 0 ] || [ "$p" -eq 0 ]; } && [ "$f" -eq 0 ]; then
		# the suite failed, or ran nothing, without a failing test:
		# count the run itself as one failure
		f=1
	fi
	if [ "$f" -ne 0 ] || [ "$rc" -ne 0 ]; then
		tail -n 60 "$log"
	fi
	count "$name" "$p" "$f"
}

parse_unit() {	# "unit: N passed, M failed"
	sed -n 's/^unit: \([0-9]*\) passed, \([0-9]*\) failed.*/\1 \2/p' "$1" | tail -n 1
}

parse_cli() {	# "cli: N passed, M failed"
	sed -n 's/^cli: \([0-9]*\) passed, \([0-9]*\) failed.*/\1 \2/p' "$1" | tail -n 1
}

parse_predict() {	# "predict: N passed, M failed"
	sed -n 's/^predict: \([0-9]*\) passed, \([0-9]*\) failed.*/\1 \2/p' "$1" | tail -n 1
}

parse_sim() {	# "sim: N passed, M failed"
	sed -n 's/^sim: \([0-9]*\) passed, \([0-9]*\) failed.*/\1 \2/p' "$1" | tail -n 1
}

parse_guest() {	# Check's "100%: Checks: N, Failures: F, Errors: E"
	awk -F'[:,] *' '/Checks: [0-9]+, Failures: [0-9]+, Errors: [0-9]+/ {
		for (i = 1; i <= NF; i++) {
			if ($i == "Checks") n = $(i + 1)
			if ($i == "Failures") f = $(i + 1)
			if ($i == "Errors") e = $(i + 1)
		}
		tn += n; tf += f + e
	} END { if (tn) print tn - tf, tf }' "$1"
}

parse_kunit() {	# kunit.py parse's "Testing complete. Ran N tests: passed: P, failed: F"
	local ktap=${1%.log}.ktap
	# the guest's full log, with the module's KTAP, from `gputbs-vm --log`
	scripts/ktap-extract.sh "$kunit_guest" >"$ktap" 2>/dev/null
	python3 "$SRC_TREE/tools/testing/kunit/kunit.py" parse "$(realpath "$ktap")" \
		>"${1%.log}.parsed" 2>&1
	sed 's/\x1b\[[0-9;]*m//g' "${1%.log}.parsed" | awk '
		/Testing complete\./ {
			p = 0; f = 0
			if (match($0, /passed: [0-9]+/)) p = substr($0, RSTART + 8, RLENGTH - 8)
			if (match($0, /failed: [0-9]+/)) f = substr($0, RSTART + 8, RLENGTH - 8)
			if (match($0, /crashed: [0-9]+/)) f += substr($0, RSTART + 9, RLENGTH - 9)
			print p, f
		}'
}

parse_trace() {	# "trace: N passed, M failed"
	sed -n 's/^trace: \([0-9]*\) passed, \([0-9]*\) failed.*/\1 \2/p' "$1" | tail -n 1
}

parse_srtf() {	# "srtf: N passed, M failed"
	sed -n 's/^srtf: \([0-9]*\) passed, \([0-9]*\) failed.*/\1 \2/p' "$1" | tail -n 1
}

# The demo pairs under FIFO and SRTF on the module, then the comparison.
srtf_vs_fifo() {
	local json=$logs/srtf-vs-fifo.json
	vm -- sh -c 'cd /workloads/ercbench &&
		gputbs run --format json --policy fifo,srtf \
		$(sed -e "/^#/d" demo.list)' >"$json.raw" || return 1
	sed -n '/^{/,/^}/p' "$json.raw" >"$json"
	python3 tests/userland/srtf-vs-fifo.py "$json"
}

# A pair at 1 ns per cycle (process jitter is then a million cycles): the
# second program arrives exactly 50 cycles after the first, at its offset.
exact_arrivals() {
	local json=$logs/arrivals-1ns.json
	vm --modparam gputbs.time_scale_ps=1000 -- \
		gputbs run --format json /workloads/ercbench/pairs/JPEG-d+JPEG-e.gtbs \
		>"$json.raw" || return 1
	sed -n '/^{/,/^}/p' "$json.raw" >"$json"
	python3 - "$json" <<'EOF'
import json, sys
w = json.load(open(sys.argv[1]))["workloads"][0]
runs = [(r["program"], r["at_cycles"], r["arrive_cycles"],
	 r["grids"][0]["submit_cycle"]) for r in w["runs"]]
print("t0_cycle", w["t0_cycle"], "runs (program, at, arrive, submit_cycle):", runs)
assert w["exact_arrivals"] is True, "arrivals not exact"
assert [r[2] for r in runs] == [0, 50], "arrive_cycles are not 0 and 50"
assert runs[1][3] - runs[0][3] == 50, "submit cycles not 50 apart"
EOF
}

parse_calibration() {	# "calibration: N within 5%, M outside"
	sed -n 's/^calibration: \([0-9]*\) within.*, \([0-9]*\) outside.*/\1 \2/p' "$1" | tail -n 1
}

vm() { tools/gputbs-vm --quiet-boot "$@"; }
kunit_guest=$logs/kunit-guest.log
rm -f "$kunit_guest"

step "module W=1 build, Linux 6.12 headers" make -s module
step "module W=1 build, Linux 6.1 headers" make -s module-6.1
step "module sparse (C=1), Linux 6.12 headers" make -s module-sparse
suite "unit tests (host, ASan/UBSan)" parse_unit make -s unit-test
suite "CLI and workload files (host)" parse_cli \
	tests/userland/cli-test.sh "$BUILD/bin/gputbs"
suite "predictor replay, gputbs predict (host)" parse_predict \
	tests/userland/predict-test.sh "$BUILD/bin/gputbs"
suite "simulator gputbs-sim: determinism, hand-worked pairs, plots (host)" \
	parse_sim tests/userland/sim-test.sh "$BUILD/bin/gputbs-sim" \
	"$BUILD/bin/gputbs"
step "libgputbs exports only its API" make -s check-abi-lib
step "debug kernel (cached in $DEBUG_KERNEL_DIR)" scripts/build-debug-kernel.sh
step "module W=1 build, debug kernel" make -s module-debug
kfiles=(kmod/*.[ch] sm-emu/*.[ch] uapi/linux/gputbs.h tests/kunit/*.c)
step "checkpatch --strict (kmod, sm-emu, uapi, KUnit)" \
	perl "$SRC_TREE/scripts/checkpatch.pl" --no-tree --strict --quiet \
	--show-types -f "${kfiles[@]}"
step "kernel-doc -Werror (kmod, sm-emu, uapi)" \
	perl "$SRC_TREE/scripts/kernel-doc" -none -Werror \
	kmod/*.[ch] sm-emu/*.[ch] uapi/linux/gputbs.h
step "uapi header alone, -std=c90 -pedantic" \
	gcc -std=c90 -pedantic -Wall -Wextra -Werror -fsyntax-only -Iuapi \
	-x c uapi/linux/gputbs.h
suite "KUnit suites (debug kernel)" parse_kunit \
	vm --debug-kernel --log "$kunit_guest" \
	--module "$BUILD/kmod-debug/gputbs_kunit.ko" -- true
suite "userland suite (debug kernel)" parse_guest \
	vm --debug-kernel -- gputbs-test
# The CLI on the module: policies compared and restored, a recorded trace
# that gputbs predict accepts, classes, and what a user may not do.
cli_vm_script='set -e
cd /workloads/ercbench
pair=pairs/JPEG-d+JPEG-e.gtbs
gputbs run --policy fifo,srtf,sjf $pair >/tmp/run.txt
cat /tmp/run.txt
grep -q "policies side by side" /tmp/run.txt
grep -qxF "[fifo] mpmax srtf srtf-adaptive sjf" /sys/class/misc/gputbs/policy
echo srtf >/sys/class/misc/gputbs/policy
gputbs run --format json --policy sjf,fifo $pair >/tmp/run.json
grep -q "\"policies\": \[" /tmp/run.json
grep -qxF "fifo mpmax [srtf] srtf-adaptive sjf" /sys/class/misc/gputbs/policy
echo fifo >/sys/class/misc/gputbs/policy
gputbs run --trace /tmp/t.trace $pair >/dev/null
test "$(grep -c "^grid " /tmp/t.trace)" -eq 2
test "$(grep -c "^block " /tmp/t.trace)" -eq 1024
gputbs predict --sms 15 --trace /tmp/t.trace >/tmp/p.csv
test "$(grep -c "^final," /tmp/p.csv)" -eq 2
printf "program B\ngrid crunch blocks=240 threads=128 cycles=2000 class=low\nprogram I\ngrid frame blocks=15 threads=64 cycles=500 class=realtime\nworkload W\nrun B\nrun I at=10%%\n" >/tmp/c.gtbs
gputbs run /tmp/c.gtbs
chmod 644 /tmp/c.gtbs
if su nobody -s /bin/sh -c "gputbs run /tmp/c.gtbs" 2>/tmp/err; then exit 1; fi
grep -q "Operation not permitted" /tmp/err
if su nobody -s /bin/sh -c "gputbs run --policy srtf $pair" 2>/tmp/err; then exit 1; fi
grep -q "needs root" /tmp/err
grep -qxF "[fifo] mpmax srtf srtf-adaptive sjf" /sys/class/misc/gputbs/policy
echo CLI-VM-OK'
step "CLI on the module: --policy, --trace, classes (stock kernel)" \
	vm -- "$cli_vm_script"
step "gputbs run: a pair arrives at exactly 0 and 50 cycles at 1 ns per cycle (stock kernel)" \
	exact_arrivals
suite "gputbs run --trace replayed by gputbs predict = Equation 2 (stock kernel)" \
	parse_trace vm -- gputbs-trace-test
suite "SRTF above FIFO on the demo pairs, STP and ANTT (stock kernel)" \
	parse_srtf srtf_vs_fifo
suite "ERCBench calibration (stock kernel)" parse_calibration \
	vm -- gputbs calibrate /workloads/ercbench/kernels.gtbs
# emulated results do not depend on the time scale: 666x faster, same cycles
suite "ERCBench calibration at 1.5 ns per cycle (stock kernel)" \
	parse_calibration vm --modparam gputbs.time_scale_ps=1500 -- \
	gputbs calibrate /workloads/ercbench/kernels.gtbs

if [ ${#failures[@]} -ne 0 ]; then
	note "failed: ${failures[*]}"
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
