#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# tests/userland/vm-test.sh - tools/vm/gputbs-vm as a user meets it, in one
# boot of the stock kernel guest:
#  - --out DIR: a JSON report the guest writes to /out is a file on the
#    host that parses; a timeline rendered in the guest by gnuplot
#    (--host-bin gnuplot) comes home as a PNG, and gnuplot met no
#    fontconfig error (so the plot has its text);
#  - no terminal on the host: the guest's TERM is dumb and gputbs top
#    prints frames without screen-control bytes;
#  - a workload left running in the background when COMMAND ends (gputbs
#    top over a busy device, the README's live view) does not keep the
#    module from unloading: gputbs-vm exits 0, not 95;
#  - the boot log is hidden by default;
#  - a program of two grids runs in stream order (GPUTBS_SUBMIT_AFTER):
#    exact, wall_clock_dependent false (JSON) and no "wall-clock
#    dependent" note (text); one-grid programs false too.
# Ends with "vm: N passed, M failed".
set -uo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 1
t=$(mktemp -d "${TMPDIR:-/tmp}/gputbs-vm-test.XXXXXX")
trap 'rm -rf "$t"' EXIT
pass=0
fail=0
check() {	# check DESCRIPTION COMMAND...
	local d=$1
	shift
	if "$@"; then
		pass=$((pass + 1))
		echo "ok - $d"
	else
		fail=$((fail + 1))
		echo "not ok - $d"
	fi
}

gp=()
if command -v gnuplot >/dev/null 2>&1; then
	gp=(--host-bin gnuplot --host-bin trace-cmd)
fi
# shellcheck disable=SC2016 # guest script
script='set -e
echo "TERM=$TERM"
gputbs run --format json /workloads/ercbench/pairs/SAD+AES-e.gtbs >/out/r.json
printf "program A\ngrid a1 blocks=30 threads=64 cycles=2000\ngrid a2 blocks=30 threads=64 cycles=2000\nprogram B\ngrid b blocks=30 threads=64 cycles=3000\nworkload AB\nrun A\nrun B\n" >/tmp/m.gtbs
gputbs run /tmp/m.gtbs >/out/m.txt
gputbs run --format json /tmp/m.gtbs >/out/m.json
if command -v gnuplot >/dev/null; then
	trace-cmd record -q -e gputbs -o /tmp/t.dat \
		gputbs run /workloads/ercbench/pairs/SAD+AES-e.gtbs >/dev/null
	gputbs timeline -o /out/tl /tmp/t.dat >/dev/null 2>/out/tl.err
fi
gputbs run /workloads/tests/busy.gtbs >/dev/null &
sleep 3
gputbs top --iterations 2 --delay 0.5 >/out/top.txt
cat /out/top.txt'
# stdin from /dev/null: no terminal, as in make check
tools/vm/gputbs-vm --timeout 900 --out "$t/out" "${gp[@]}" -- "$script" \
	</dev/null >"$t/console.txt" 2>&1
rc=$?
sed 's/^/  | /' "$t/console.txt" | tail -n 40
check "gputbs-vm exits 0 with a workload left running (not 95: module unload failed)" \
	test "$rc" = 0
check "the report's JSON written to /out parses on the host" \
	python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert d["workloads"]' \
	"$t/out/r.json"
check "one-grid programs: wall_clock_dependent false" \
	python3 -c 'import json, sys; assert json.load(open(sys.argv[1]))["wall_clock_dependent"] is False' \
	"$t/out/r.json"
check "a program of two grids in stream order: wall_clock_dependent false" \
	python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert d["wall_clock_dependent"] is False and "wall_clock_program" not in d' \
	"$t/out/m.json"
check "a program of two grids in stream order: no wall-clock note in the text" \
	bash -c '! grep -q "wall-clock dependent" "$1" && grep -q "STP" "$1"' _ "$t/out/m.txt"
check "no terminal on the host: the guest's TERM is dumb" \
	grep -qx 'TERM=dumb' "$t/console.txt"
check "gputbs top printed two frames" \
	test "$(grep -c '^gputbs top - cycle' "$t/out/top.txt")" = 2
check "the device was busy: a running grid in gputbs top" \
	grep -qE ' running +[0-9]' "$t/out/top.txt"
check "gputbs top printed no screen-control bytes" \
	bash -c '! grep -q $'"'"'\033'"'"' "$1"' _ "$t/out/top.txt"
check "the boot log is hidden by default" \
	bash -c '! grep -q "Linux version" "$1"' _ "$t/console.txt"
if [ ${#gp[@]} -gt 0 ]; then
	check "a timeline rendered in the guest came home as a PNG" \
		bash -c 'file "$1" | grep -q "PNG image"' _ "$t/out/tl/timeline.png"
	check "gnuplot in the guest met no fontconfig error (the plot has text)" \
		bash -c 'test -f "$1" && ! grep -qi fontconfig "$1"' _ "$t/out/tl.err"
fi
# on a terminal (a pty of script(1)), the guest gets the host's TERM and
# the terminal's size, so full-screen tools draw (a second boot)
if command -v script >/dev/null 2>&1; then
	# shellcheck disable=SC2016 # expanded in the guest
	script -qec 'stty rows 33 cols 101; TERM=xterm tools/vm/gputbs-vm --timeout 300 -- '"'"'echo "TERM=$TERM"; stty size'"'" \
		/dev/null </dev/null >"$t/tty.txt" 2>&1
	check "on a terminal: the guest's TERM is the host's" grep -q 'TERM=xterm' "$t/tty.txt"
	check "on a terminal: the guest's console has the terminal's size" \
		grep -q '^33 101' "$t/tty.txt"
fi
echo "vm: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
