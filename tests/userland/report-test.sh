#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# report-test.sh PATH-TO-gputbs-sim - the run report's tables
# (tools/lib/report.c, the code of 'gputbs run' and 'gputbs-sim run'):
#   - a class column where a workload gives classes, none where it does
#     not, and the grids' classes in the JSON;
#   - the side-by-side table's separators in the same column on every
#     line, whatever the lengths of the workload names;
#   - the simulator's results are exact: wall_clock_dependent false and
#     no "wall-clock dependent" note, even for a program of two grids
#     (tests/userland/vm-test.sh checks the note on the module).
# The last line is "report: N passed, M failed".
set -u

sim=${1:?usage: report-test.sh PATH-TO-gputbs-sim}
tmp=${TMPDIR:-/tmp}/gputbs-report-test.$$
trap 'rm -rf "$tmp" "$tmp.d"' EXIT
mkdir -p "$tmp.d" || exit 1
# shellcheck disable=SC2034 # used by lib.sh
out=$tmp
# shellcheck source=tests/userland/lib.sh
. "$(dirname "$0")/lib.sh"

cat >"$tmp.d/c.gtbs" <<'GTBS'
program B
grid crunch blocks=240 threads=128 cycles=2000 class=low
program I
grid frame blocks=15 threads=64 cycles=500 class=realtime
grid frame2 blocks=15 threads=64 cycles=500
workload W
run B
run I at=10%
workload a-workload-with-a-rather-long-name
run I
run B at=50%
GTBS
cat >"$tmp.d/n.gtbs" <<'GTBS'
program B
grid crunch blocks=240 threads=128 cycles=2000
program I
grid frame blocks=15 threads=64 cycles=500
workload W
run B
run I at=10%
GTBS

expect 0 "  program  grid       class      R   blocks" \
	"$sim" run --policy fifo,srtf "$tmp.d/c.gtbs"
expect 0 "  I        frame      realtime   8       15" \
	"$sim" run "$tmp.d/c.gtbs"
expect 0 "  B        crunch     low        8      240" \
	"$sim" run "$tmp.d/c.gtbs"
# no class anywhere: no class column
"$sim" run "$tmp.d/n.gtbs" >"$tmp" 2>&1
if grep -q class "$tmp"; then
	fail "a class column without classes"
	sed 's/^/  | /' "$tmp"
else
	ok
fi

# the side-by-side table: every '|' of a line where the others have theirs
"$sim" run --policy fifo,srtf,srtf-adaptive "$tmp.d/c.gtbs" >"$tmp" 2>&1
sed -n '/^policies side by side/,$p' "$tmp" | sed 1d >"$tmp.d/table"
if [ "$(wc -l <"$tmp.d/table")" -lt 4 ]; then
	fail "no side-by-side table of two workloads and a geomean"
	sed 's/^/  | /' "$tmp"
elif [ "$(awk '{ s = ""; for (i = 1; i <= length($0); i++)
		if (substr($0, i, 1) == "|") s = s " " i; print s }' \
		"$tmp.d/table" | sort -u | wc -l)" -ne 1 ]; then
	fail "the side-by-side table's separators shift"
	sed 's/^/  | /' "$tmp.d/table"
else
	ok
fi

# JSON: classes per grid, and exact results in virtual time
"$sim" run --format json "$tmp.d/c.gtbs" >"$tmp.d/c.json" 2>&1
if python3 - "$tmp.d/c.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["wall_clock_dependent"] is False, d.get("wall_clock_dependent")
classes = {g["label"]: g["class"] for a in d["alone"] for g in a["grids"]}
assert classes == {"crunch": "low", "frame": "realtime", "frame2": "normal"}, classes
PY
then ok; else fail "JSON: classes or wall_clock_dependent"; fi
"$sim" run "$tmp.d/c.gtbs" >"$tmp" 2>&1
if grep -q "wall-clock dependent" "$tmp"; then
	fail "a wall-clock note in virtual time"
else
	ok
fi

# figures: the paper's geomeans marked, the compact variant, a timeline
# for each policy of --policies (and no other) with its preemptions
here=$(cd "$(dirname "$0")" && pwd)/sim
if command -v gnuplot >/dev/null 2>&1; then
	"$sim" eval --workloads "$here" --sms 1 --offsets 0 --policies fifo,sjf \
		--plot "$tmp.d/plot" --timeline Short+Long >/dev/null 2>&1
	missing=
	for f in stp-0-paper.dat antt-0-paper.dat strictf-0-paper.dat \
		geomean-0.dat geomean-0.svg geomean-0.png timeline-fifo.png \
		timeline-sjf.png timeline-fifo-preempt.dat timeline-sjf-preempt.dat; do
		[ -s "$tmp.d/plot/$f" ] || missing="$missing $f"
	done
	if [ -n "$missing" ] || [ -e "$tmp.d/plot/timeline-srtf.dat" ]; then
		fail "--plot: missing$missing, or a timeline of srtf, not asked for"
		ls "$tmp.d/plot" | sed 's/^/  | /'
	else
		ok
	fi
	# the paper's FIFO and SJF at offset 0: STP 1.35 and 1.82, at the x of
	# their bars in the geomean group (row 2 of 2 pairs, 2 policies)
	if grep -q '^1.8333 0.1667 1.35 fifo$' "$tmp.d/plot/stp-0-paper.dat" &&
		grep -q '^2.1667 0.1667 1.82 sjf$' "$tmp.d/plot/stp-0-paper.dat" &&
		grep -q "the paper's geomean" "$tmp.d/plot/plot.gp"; then
		ok
	else
		fail "--plot: the paper's geomeans are not marked"
		sed 's/^/  | /' "$tmp.d/plot/stp-0-paper.dat"
	fi
	# a geomean row per policy with the paper's three values
	if awk '!/^#/ { n++; if (NF != 8) bad = 1 } END { exit !(n == 2 && !bad) }' \
		"$tmp.d/plot/geomean-0.dat"; then
		ok
	else
		fail "geomean-0.dat: not a row of 8 columns per policy"
		sed 's/^/  | /' "$tmp.d/plot/geomean-0.dat"
	fi
fi

summary report
