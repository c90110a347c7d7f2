#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# predict-test.sh - host tests of "gputbs predict" (the Simple Slicing
# predictor replayed over block traces, Documentation/trace-format.rst).
#
# Usage: predict-test.sh PATH-TO-gputbs
#
# Every tests/userland/predict/*.trace may carry, in comments:
#   "# args: OPTIONS"   extra options for gputbs predict
#   "# csv: LINE"       good trace: the CSV output must be exactly these
#                       lines, in order (values worked out by hand in the
#                       trace's comments)
#   "# error: WHERE"    bad trace (bad-*.trace): the command must exit with
#                       status 2 and print "gputbs: FILE:WHERE"
# plus command line errors, hostile input files (Documentation/
# reliability.rst) and the JSON output.  The last line is
# "predict: N passed, M failed".
set -u

gputbs=${1:?usage: predict-test.sh PATH-TO-gputbs}
here=$(dirname "$0")/predict
tmp=${TMPDIR:-/tmp}/gputbs-predict-test.$$

trap 'rm -rf "$tmp" "$tmp.want" "$tmp.d"' EXIT

out=$tmp
# shellcheck source=tests/userland/lib.sh
. "$(dirname "$0")/lib.sh"

ntraces=0
for trace in "$here"/*.trace; do
	[ -e "$trace" ] || continue
	ntraces=$((ntraces + 1))
	args=$(sed -n 's/^# args: //p' "$trace")
	where=$(sed -n 's/^# error: //p' "$trace")
	# shellcheck disable=SC2086	# OPTIONS are words
	if [ -n "$where" ]; then
		expect 2 "gputbs: $trace:$where" \
			"$gputbs" predict --trace "$trace" $args
		continue
	fi
	sed -n 's/^# csv: //p' "$trace" >"$tmp.want"
	if [ ! -s "$tmp.want" ]; then
		fail "$trace: no '# csv:' or '# error:' lines"
		continue
	fi
	"$gputbs" predict --trace "$trace" $args >"$tmp" 2>&1
	rc=$?
	if [ "$rc" -ne 0 ]; then
		fail "$trace: exited $rc"
		sed 's/^/  | /' "$tmp"
	elif ! diff -u "$tmp.want" "$tmp" >/dev/null; then
		fail "$trace: output differs from its '# csv:' lines"
		diff -u "$tmp.want" "$tmp" | sed 's/^/  | /'
	else
		ok
	fi
done
[ "$ntraces" -gt 0 ] || fail "no traces in $here"

# command line
expect 0 "Usage: gputbs predict" "$gputbs" predict --help
expect 0 "predict    replay a block trace" "$gputbs" --help
expect 2 "no trace given (--trace)" "$gputbs" predict
# --summary: the first and final prediction of each grid, nothing else
expect 0 "final,0,x,0,30,30,10,3,1,30,1.000000" \
	"$gputbs" predict --summary --trace "$here/clamp.trace"
if "$gputbs" predict --summary --trace "$here/clamp.trace" | grep -q '^pred,'; then
	fail "predict --summary printed every prediction"
else
	ok
fi
if "$gputbs" predict --summary --format json --trace "$here/clamp.trace" |
	grep -q '"predictions": \[\|^  "predictions"'; then
	fail "predict --summary --format json printed every prediction"
else
	ok
fi
expect 2 "unknown format 'text'" \
	"$gputbs" predict --format text --trace "$here/staircase.trace"
expect 2 "bad SM count '0' (1..1024)" \
	"$gputbs" predict --sms 0 --trace "$here/staircase.trace"
expect 2 "bad SM count '1025' (1..1024)" \
	"$gputbs" predict --sms 1025 --trace "$here/staircase.trace"
expect 2 "bad SM count '-1' (1..1024)" \
	"$gputbs" predict --sms -1 --trace "$here/staircase.trace"
expect 2 "unexpected argument 'extra'" \
	"$gputbs" predict --trace "$here/staircase.trace" extra
expect 2 "gputbs: $here/missing.trace: No such file or directory" \
	"$gputbs" predict --trace "$here/missing.trace"
# N_SM changes Total_Blocks: 8 blocks on 4 SMs is 2 per SM, so the first
# prediction is 100 + (2 - 1) * 100 / 2 = 150
expect 0 "pred,0,stair,0,100,150,100,1,2,200,0.750000" \
	"$gputbs" predict --sms 4 --trace "$here/staircase.trace"

# hostile input: each is an error naming the file (and line), at once
d=$tmp.d
mkdir -p "$d"

# many grids at once on few SMs (tools/bench/replay-trace.py's shape): 448
# grids of 2 blocks, grid g on SM g mod 7 in slot g div 7, blocks g..g+449
# and g+449..g+898, so 64 states per SM are live at once and the states
# are found, added and removed in every order.  Total_Blocks is
# ceil(2 / 7) = 1: the first prediction is Active_Kernel_Cycles = 449, the
# final one 898, the grid's actual runtime.  A state lost or mixed up with
# another grid's makes a different number or an internal error.
awk 'BEGIN { n = 448; s = 7
	for (g = 0; g < n; g++) print "grid " g " blocks=2 residency=1"
	for (g = 0; g < n; g++) {
		sm = g % s; slot = int(g / s) % 64
		print "block " g " " sm " " slot " " g " " g + n + 1
		print "block " g " " sm " " slot " " g + n + 1 " " g + 2 * n + 2
	} }' >"$d/many-grids.trace"
"$gputbs" predict --summary --trace "$d/many-grids.trace" >"$tmp" 2>&1
rc=$?
if [ "$rc" -ne 0 ] ||
	[ "$(grep -c '^first,[0-9]*,,[0-6],[0-9]*,449,449,1,1,898,0.500000$' "$tmp")" -ne 448 ] ||
	[ "$(grep -c '^final,[0-9]*,,[0-6],[0-9]*,898,449,2,1,898,1.000000$' "$tmp")" -ne 448 ]; then
	fail "448 grids on 7 SMs: not every grid's first 449 and final 898 (status $rc)"
	sed -n '1,12s/^/  | /p' "$tmp"
else
	ok
fi
printf 'grid 0 blocks=1 residency=1\nblock 0 0 0 0 10\0 7 20\n' >"$d/nul.trace"
expect 2 "gputbs: $d/nul.trace:2: NUL byte in line" \
	"$gputbs" predict --trace "$d/nul.trace"
printf 'grid 0 blocks=1 residency=1 col\033[31mour=1\n' >"$d/esc.trace"
expect 2 "gputbs: $d/esc.trace:1: unknown key 'col\\x1b[31mour'" \
	"$gputbs" predict --trace "$d/esc.trace"
no_raw "control bytes of a trace line"
expect 2 "gputbs: $d/a\\x1bb: No such file or directory" \
	"$gputbs" predict --trace "$d/$(printf 'a\033b')"
no_raw "control bytes of a file name"
head -c 70000 /dev/zero | tr '\0' a >"$d/long.trace"
expect 2 "gputbs: $d/long.trace:1: line longer than 65536 bytes" \
	"$gputbs" predict --trace "$d/long.trace"
not_regular "$d" "$gputbs" predict --trace

# every bad line of a trace in one run, in order, then status 2; the
# blocks of a grid whose line failed are not reported again (issue 17)
cat >"$d/several.trace" <<'EOF'
grid 1 blocks=2 residency=1 label=a
grid 2 blocks=x residency=1
block 1 0 0 0 100
block 2 0 1 0 100
block 1 0 0 200 100
frob 1
block 9 0 0 0 10
block 1 0 0 100 200
EOF
cat >"$tmp.want" <<EOF
gputbs: $d/several.trace:2: blocks: bad number 'x'
gputbs: $d/several.trace:5: block ends at 100, not after its start 200
gputbs: $d/several.trace:6: unknown keyword 'frob'
gputbs: $d/several.trace:7: block of undeclared grid 9
EOF
"$gputbs" predict --trace "$d/several.trace" >"$tmp" 2>&1
rc=$?
if [ "$rc" -ne 2 ]; then
	fail "several errors: exited $rc, not 2"
	sed 's/^/  | /' "$tmp"
elif ! diff -u "$tmp.want" "$tmp" >/dev/null; then
	fail "several errors: not each bad line, in order"
	diff -u "$tmp.want" "$tmp" | sed 's/^/  | /'
else
	ok
fi
# at most 20, then where it stopped
i=0
while [ $i -lt 25 ]; do echo "frob $i"; i=$((i + 1)); done >"$d/many.trace"
"$gputbs" predict --trace "$d/many.trace" >"$tmp" 2>&1
rc=$?
if [ "$rc" -ne 2 ] ||
	[ "$(grep -c "^gputbs: $d/many.trace:[0-9]*: unknown keyword" "$tmp")" -ne 20 ] ||
	[ "$(tail -n 1 "$tmp")" != "gputbs: $d/many.trace: stopped after 20 errors" ]; then
	fail "25 bad lines: not 20 errors, then 'stopped after 20 errors' (status $rc)"
	sed 's/^/  | /' "$tmp"
else
	ok
fi

# JSON: the same numbers as corunner.trace's (the extended mode), and
# well-formed if python3 is there
expect 0 '"mode": "slice-unaware"' \
	"$gputbs" predict --format json --slice-unaware \
	--trace "$here/corunner.trace"
"$gputbs" predict --format json --predictor extended \
	--trace "$here/corunner.trace" >"$tmp" 2>&1
if [ $? -ne 0 ]; then
	fail "json: exited non-zero"
elif command -v python3 >/dev/null 2>&1; then
	if python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
a, b = d["grids"]
assert d["mode"] == "slice-aware" and d["sms"] == 1, d
assert d["predictor"] == "extended", d
assert (a["grid"], a["label"], a["actual_cycles"]) == (1, "A", 350), a
assert a["first"]["pred_cycles"] == 350 and a["first"]["t"] == 100, a
assert a["final"]["pred_cycles"] == 350 and a["final"]["t"] == 130, a
assert (b["start"], b["end"], b["predictions"]) == (150, 420, 2), b
assert len(d["predictions"]) == 8, d
p = d["predictions"][2]
assert (p["grid"], p["cycle"], p["pred_cycles"], p["t"]) == (1, 210, 375, 110), p
assert abs(p["ratio"] - 1.071429) < 1e-9, p
' "$tmp"; then
		ok
	else
		fail "json: unexpected document"
		sed 's/^/  | /' "$tmp"
	fi
elif grep -q '"pred_cycles": 375' "$tmp"; then
	ok
else
	fail "json: no prediction 375"
fi

# --predictor: the default is literal, the module's and gputbs-sim's mode
# (GTBS_PRED_MODE_DEFAULT): the same bytes as --predictor literal, in CSV
# and JSON, and other predictions than --predictor extended's on the traces
# where a residency change starts a slice (their '# csv:' lines are the
# extended mode's, residency-literal.trace's the default's); the JSON of
# two modes differs anyway, in "predictor"
expect 0 '"predictor": "literal",' \
	"$gputbs" predict --format json --trace "$here/residency.trace"
expect 0 '"predictor": "extended",' \
	"$gputbs" predict --format json --predictor extended \
	--trace "$here/residency.trace"
expect 2 "--predictor: unknown mode 'paper' (literal or extended)" \
	"$gputbs" predict --predictor paper --trace "$here/residency.trace"
for t in residency corunner; do
	for f in csv json; do
		"$gputbs" predict --format $f --trace "$here/$t.trace" \
			>"$tmp" 2>&1
		"$gputbs" predict --format $f --predictor literal \
			--trace "$here/$t.trace" >"$tmp.want" 2>&1
		if cmp -s "$tmp" "$tmp.want"; then
			ok
		else
			fail "$t.trace --format $f: the default is not --predictor literal"
			diff -u "$tmp.want" "$tmp" | sed 's/^/  | /'
		fi
	done
	"$gputbs" predict --trace "$here/$t.trace" >"$tmp" 2>&1
	"$gputbs" predict --predictor extended --trace "$here/$t.trace" \
		>"$tmp.want" 2>&1
	if cmp -s "$tmp" "$tmp.want"; then
		fail "$t.trace: the default replays as --predictor extended"
	else
		ok
	fi
done

summary predict
