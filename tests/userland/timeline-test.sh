#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# timeline-test.sh - host tests of "gputbs timeline" on recordings of the
# gputbs tracepoints made in the guest (tests/userland/timeline/: the
# workload class.gtbs on 4 SMs under srtf; class.report is the text of
# trace-cmd report, class.trace the raw text of /sys/kernel/tracing/trace),
# and on preempt.report, a hand-written recording of preempted blocks.
# class-switch.dat is a trace-cmd .dat file of class.gtbs under srtf with
# preempt_mode switch (/proc/kallsyms hidden from trace-cmd in the guest,
# to keep the file small) and class-switch.report its trace-cmd report;
# class-switch-nostart.dat is that .dat with block_end's field start
# renamed (trace-cmd convert to version 6, the format edited, converted
# back), and sched.dat a recording of sched:sched_process_exec only.
# class.report's grid_submit lines of the shared run carry the program's
# name as their process (long-158, urgent-159), as gputbs run records
# them since it names each worker after its program (rewritten in the
# recording); the alone runs (gputbs-157) and class.trace, recorded
# before, have "gputbs" there (the fallback legend).
#
# Usage: timeline-test.sh PATH-TO-gputbs
#
# Every error path of the input is run here, so that make
# check-userland-asan, which runs this on gputbs built with ASan, UBSan and
# LeakSanitizer, finds a leak or undefined behaviour on any of them.  The
# last line is "timeline: N passed, M failed".
set -u

gputbs=${1:?usage: timeline-test.sh PATH-TO-gputbs}
case "$gputbs" in
*/*) gputbs=$(cd "$(dirname "$gputbs")" && pwd)/$(basename "$gputbs") ;;
esac
here=$(cd "$(dirname "$0")/timeline" && pwd)
tmp=${TMPDIR:-/tmp}/gputbs-timeline-test.$$
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT

out=$tmp/out
# shellcheck source=tests/userland/lib.sh
. "$(dirname "$0")/lib.sh"

# data lines of gnuplot data file $1 (no comments, no blank lines)
data_lines() { grep -cv -e '^#' -e '^$' "$1"; }

for t in report trace; do
	f=$here/class.$t
	d=$tmp/$t
	expect 0 "check: ok (0 problems)" "$gputbs" timeline --check -o "$d" "$f"
	expect 0 "block_start=144 block_end=144 grid_end=4 preempt=4 predict=144" \
		"$gputbs" timeline --summary "$f"
	expect 0 "sms: 4 slots: 8 grids: 4 preempts: 4" \
		"$gputbs" timeline --summary "$f"
	expect 0 "class=realtime blocks=8 block_start=8 block_end=8" \
		"$gputbs" timeline --summary "$f"
	for x in timeline.dat timeline-preempt.dat timeline.gp timeline.svg \
		timeline.png; do
		if [ -s "$d/$x" ]; then ok; else fail "$t: no $x"; fi
	done
	if grep -q '<svg' "$d/timeline.svg"; then ok; else fail "$t: not an SVG"; fi
	# every block in one data block per grid, every preemption once
	n=$(data_lines "$d/timeline.dat")
	if [ "$n" -eq 144 ]; then ok; else fail "$t: $n blocks in timeline.dat"; fi
	n=$(grep -c '^# grid ' "$d/timeline.dat")
	if [ "$n" -eq 4 ]; then ok; else fail "$t: $n grids in timeline.dat"; fi
	n=$(grep -c ' class$' "$d/timeline-preempt.dat")
	if [ "$n" -eq 4 ]; then ok; else fail "$t: $n preemptions"; fi
done
expect 0 "policy_switch=2" "$gputbs" timeline --summary "$here/class.trace"

# a trace-cmd .dat file, read with libtracecmd: what its trace-cmd report
# gives, byte for byte but the file name
f=$here/class-switch.dat
expect 0 "block_start=155 block_end=144 grid_end=4 preempt=4 predict=144 policy_switch=2 sharing_mode=0 block_preempt=11 block_restore=11" \
	"$gputbs" timeline --check --summary "$f"
"$gputbs" timeline --check --summary "$f" >"$tmp/dat.sum" 2>&1
"$gputbs" timeline --check --summary "$here/class-switch.report" \
	>"$tmp/report.sum" 2>&1
if cmp -s "$tmp/dat.sum" "$tmp/report.sum"; then
	ok
else
	fail ".dat: its summary is not its report's"
	diff -u "$tmp/report.sum" "$tmp/dat.sum" | sed 's/^/  | /'
fi
expect 0 "check: ok" "$gputbs" timeline --no-plot -t T -o "$tmp/dat" "$f"
expect 0 "check: ok" "$gputbs" timeline --no-plot -t T -o "$tmp/rep" \
	"$here/class-switch.report"
for x in timeline.dat timeline-preempt.dat timeline-xfer.dat timeline.gp; do
	# the first line names the file
	tail -n +2 "$tmp/dat/$x" >"$tmp/dat.tail" 2>/dev/null
	tail -n +2 "$tmp/rep/$x" >"$tmp/rep.tail" 2>/dev/null
	if [ -s "$tmp/dat.tail" ] && cmp -s "$tmp/dat.tail" "$tmp/rep.tail"; then
		ok
	else
		fail ".dat: $x differs from its report's"
	fi
done
# the grid_submit's process from the recording's command lines
if grep -qF "title 'urgent: frame'" "$tmp/dat/timeline.gp"; then
	ok
else
	fail ".dat: no 'urgent: frame' in timeline.gp"
fi
# an event without a field it needs is an error naming its number
expect 2 "class-switch-nostart.dat: event 36: block_end needs start= <= end=" \
	"$gputbs" timeline --summary "$here/class-switch-nostart.dat"
expect 2 "class-switch-nostart.dat: stopped after 20 errors" \
	"$gputbs" timeline --summary "$here/class-switch-nostart.dat"
expect 2 "sched.dat: no gputbs events" \
	"$gputbs" timeline --summary "$here/sched.dat"
# a .dat file cut short, or only its magic
head -c 2000 "$f" >"$tmp/cut.dat"
expect 2 "cut.dat: not a trace-cmd .dat file that libtracecmd reads" \
	"$gputbs" timeline --summary "$tmp/cut.dat"
printf '\027\010\104tracing' >"$tmp/magic.dat"
expect 2 "magic.dat: not a trace-cmd .dat file that libtracecmd reads" \
	"$gputbs" timeline --summary "$tmp/magic.dat"
# one byte changed (found by random changes) that tracecmd_init_data()
# refuses: an error, not libtracecmd 3.1's crash in tracecmd_close()
cp "$f" "$tmp/init.dat"
printf '\271' | dd of="$tmp/init.dat" bs=1 seek=11592 conv=notrunc 2>/dev/null
expect 2 "init.dat: not a trace-cmd .dat file that libtracecmd reads" \
	"$gputbs" timeline --summary "$tmp/init.dat"

# the window keeps the shared run only: crunch (client 4, handle 1) and
# frame (client 5, handle 1), named by their programs (the comm of their
# grid_submit lines, which gputbs run sets to the program's name)
expect 0 "check: ok" "$gputbs" timeline --no-plot -w 3715000: \
	-o "$tmp/w" "$here/class.report"
n=$(data_lines "$tmp/w/timeline.dat")
if [ "$n" -eq 72 ]; then ok; else fail "window: $n blocks, want 72"; fi
if [ "$(grep -c "title 'urgent: frame'" "$tmp/w/timeline.gp")" -eq 1 ] &&
	[ "$(grep -c "title 'long: crunch'" "$tmp/w/timeline.gp")" -eq 1 ]; then
	ok
else
	fail "window: wrong grids in timeline.gp"
fi
# the x axis: absolute cycles, in M with the decimals its ticks need
if grep -qxF 'set format x "%.4fM"' "$tmp/w/timeline.gp" &&
	grep -qxF 'set xrange [3.7149999999999999:*]' "$tmp/w/timeline.gp" &&
	grep -qF 'emulated cycle (k = 10^3, M = 10^6' "$tmp/w/timeline.gp"; then
	ok
else
	fail "window: x axis not absolute cycles in M"
	grep 'x' "$tmp/w/timeline.gp" | sed 's/^/  | /'
fi
# the alone runs: no program name
if grep -qF "title 'crunch (client 2, handle 1)'" "$tmp/report/timeline.gp"; then
	ok
else
	fail "class.report: no 'crunch (client 2, handle 1)' in timeline.gp"
fi
# a recording without program names (class.trace: an older gputbs run)
# keeps the client and handle
expect 0 "check: ok" "$gputbs" timeline --no-plot -o "$tmp/old" \
	"$here/class.trace"
if grep -qF "title 'frame (client 8, handle 1)'" "$tmp/old/timeline.gp"; then
	ok
else
	fail "class.trace: no 'frame (client 8, handle 1)' in timeline.gp"
fi
if [ ! -e "$tmp/w/timeline.svg" ]; then ok; else fail "--no-plot ran gnuplot"; fi

# preempted blocks (preempt.report, hand-written): bulk's block 0 switched
# out at 1000 (saved to 1200), restored at 1500 (to 1700), run on to 2500;
# its block 1 flushed at 1000 and run again.  Each interval is drawn: the
# runs in timeline.dat, the save, the restore and the lost run hatched
# from timeline-xfer.dat, and nothing of block 0 while it is switched out.
f=$here/preempt.report
d=$tmp/preempt
expect 0 "check: ok (0 problems)" "$gputbs" timeline --check -o "$d" "$f"
expect 0 "block_preempt=2 block_restore=1" "$gputbs" timeline --summary "$f"
n=$(data_lines "$d/timeline.dat")
if [ "$n" -eq 6 ]; then ok; else fail "preempt: $n runs in timeline.dat, want 6"; fi
for row in "0 0 0 1000 1200 save 1:1" "0 1 0 1500 1700 restore 1:1" \
	"0 1 1 0 1000 flush 1:1"; do
	if grep -qxF "$row" "$d/timeline-xfer.dat"; then ok; else fail "preempt: no '$row'"; fi
done
for row in "0 0 0 0 1000" "0 1 0 1700 2500"; do
	if grep -qxF "$row" "$d/timeline.dat"; then ok; else fail "preempt: no run '$row'"; fi
done
# the switched-out gap: no run of bulk's block 0 overlaps [1200, 1500)
n=$(awk '/^# grid client=1 handle=1 / { g = 1; next } /^# grid / { g = 0 }
	g && $3 == 0 && $4 < 1500 && $5 > 1200' "$d/timeline.dat" | wc -l)
if [ "$n" -eq 0 ]; then ok; else fail "preempt: block 0 drawn while switched out"; fi
# the flushed run is not a run of timeline.dat (its work was lost)
if ! grep -qxF "0 1 1 0 1000" "$d/timeline.dat"; then ok; else fail "preempt: the flushed run drawn as a run"; fi
for k in save restore flush; do
	if grep -q "strcol(6) eq \"$k\" .* fs pattern" "$d/timeline.gp"; then
		ok
	else
		fail "preempt: timeline.gp does not draw the $k intervals"
	fi
done
if [ -s "$d/timeline.svg" ] && grep -q 'save (switched out)' "$d/timeline.svg"; then
	ok
else
	fail "preempt: no save in timeline.svg"
fi
# the recordings without preemption draw no hatched interval
if ! grep -q 'timeline-xfer.dat' "$tmp/report/timeline.gp"; then ok; else fail "class: xfer drawn"; fi
# a restore without its block_start, a preemption of a block not running
grep -v 'block_start:.*client=1 handle=1 sm=0 slot=1 block=0 ' "$f" >"$tmp/nostart.report"
expect 1 "block 0: block_restore without its block_start" \
	"$gputbs" timeline --check --summary "$tmp/nostart.report"
grep -v 'block_start:.*client=1 handle=1 sm=0 slot=0 block=0 cycle=0' "$f" >"$tmp/norun.report"
expect 1 "block 0: block_preempt of a block not running" \
	"$gputbs" timeline --check --summary "$tmp/norun.report"

# standard input, and --summary writes nothing
(cd "$tmp" && "$gputbs" timeline --summary - <"$here/class.trace") >"$out" 2>&1
if grep -q "check: ok" "$out" && [ ! -e "$tmp/timeline" ]; then
	ok
else
	fail "stdin / --summary"
fi

# a recording cut short does not add up: --check fails, the plot is made
grep -v 'block_end:.*client=5 handle=1 .*block=3 ' "$here/class.report" >"$tmp/cut.report"
expect 1 "check: FAILED" "$gputbs" timeline --check -o "$tmp/cut" "$tmp/cut.report"
expect 1 "grid 5:1: 8 block_start, 7 block_end" \
	"$gputbs" timeline --check --summary "$tmp/cut.report"
expect 0 "check: FAILED" "$gputbs" timeline --summary "$tmp/cut.report"
grep -v 'grid_end:.*client=2 ' "$here/class.report" >"$tmp/noend.report"
expect 1 "grid 2:1: a grid_submit, 0 grid_end" \
	"$gputbs" timeline --check --summary "$tmp/noend.report"

# errors
printf 'nothing here\n' >"$tmp/empty"
expect 2 "no gputbs events" "$gputbs" timeline --summary "$tmp/empty"
printf 'x-1 [000] 1.0: block_end: client=1 handle=1 slot=0 block=0 start=1 end=2\n' >"$tmp/bad"
expect 2 "$tmp/bad:1: a block event needs sm=, slot= and block=" \
	"$gputbs" timeline --summary "$tmp/bad"
printf 'x-1 [000] 1.0: block_end: client=1 handle=1 sm=0 slot=0 block=0 start=5 end=2\n' >"$tmp/bad"
expect 2 "$tmp/bad:1: block_end needs start= <= end=" \
	"$gputbs" timeline --summary "$tmp/bad"
expect 2 "No such file or directory" "$gputbs" timeline "$tmp/missing"
expect 2 "missing TRACE" "$gputbs" timeline
expect 2 "one TRACE only" "$gputbs" timeline a b
expect 2 "bad --window" "$gputbs" timeline -w 5:1 "$here/class.trace"
expect 2 "bad --window" "$gputbs" timeline -w x: "$here/class.trace"
expect 0 "Usage: gputbs timeline" "$gputbs" timeline --help
ev='x-1 [000] 1.0:'
for e in "grid_submit: client=1 handle=1 blocks=1|grid_submit needs blocks= and arrival=" \
	"grid_start: client=1 handle=1|grid_start needs cycle=" \
	"grid_end: client=1 handle=1 blocks=1|grid_end needs blocks= and end=" \
	"block_start: client=1 handle=1 sm=0 slot=0 block=0|block_start needs cycle=" \
	"block_end: client=1 handle=1 sm=0 slot=99 block=0 start=1 end=2|a block event needs sm=, slot= and block=" \
	"predict: client=1 handle=1|no cycle= field" \
	"preempt: sm=0|preempt needs sm= and cycle=" \
	"block_preempt: client=1 handle=1 sm=0 slot=0 block=0 mech=switch cycle=5|block_preempt needs cycle= and save_cycles=" \
	"block_preempt: client=1 handle=1 sm=0 slot=0 block=0 mech=drain save_cycles=0 cycle=5|block_preempt needs mech=switch, or mech=flush with save_cycles=0" \
	"block_restore: client=1 handle=1 sm=0 slot=0 block=0 cycle=5|block_restore needs cycle= and restore_cycles=" \
	"grid_start: handle=1 cycle=5|no client= and handle= fields"; do
	# after a first event, so that there is something to free
	printf '%s grid_submit: client=1 handle=1 blocks=1 arrival=1\n%s %s\n' \
		"$ev" "$ev" "${e%%|*}" >"$tmp/bad"
	expect 2 "$tmp/bad:2: ${e#*|}" "$gputbs" timeline --summary "$tmp/bad"
done
# every bad event in one run, in order, then status 2; at most 20 (issue 17)
printf '%s grid_submit: client=1 handle=1 blocks=1\n%s grid_start: client=1 handle=1\n%s grid_submit: client=1 handle=2 blocks=1 arrival=1\n%s preempt: sm=0\n' \
	"$ev" "$ev" "$ev" "$ev" >"$tmp/several"
printf 'gputbs: %s\n' "$tmp/several:1: grid_submit needs blocks= and arrival=" \
	"$tmp/several:2: grid_start needs cycle=" \
	"$tmp/several:4: preempt needs sm= and cycle=" >"$tmp/several.want"
"$gputbs" timeline --summary "$tmp/several" >"$tmp/several.out" 2>&1
rc=$?
if [ "$rc" -eq 2 ] && diff -u "$tmp/several.want" "$tmp/several.out" >/dev/null; then
	ok
else
	fail "several bad events: not each one, in order, status 2 (status $rc)"
	diff -u "$tmp/several.want" "$tmp/several.out" | sed 's/^/  | /'
fi
i=0
while [ $i -lt 25 ]; do printf '%s preempt: sm=%d\n' "$ev" $i; i=$((i + 1)); done >"$tmp/many"
"$gputbs" timeline --summary "$tmp/many" >"$tmp/many.out" 2>&1
rc=$?
if [ "$rc" -eq 2 ] && [ "$(grep -c "^gputbs: $tmp/many:[0-9]*: preempt needs" "$tmp/many.out")" -eq 20 ] &&
	[ "$(tail -n 1 "$tmp/many.out")" = "gputbs: $tmp/many: stopped after 20 errors" ]; then
	ok
else
	fail "25 bad events: not 20 errors, then 'stopped after 20 errors' (status $rc)"
	sed 's/^/  | /' "$tmp/many.out"
fi
# a grid without block events (qsort() of no blocks), with --check
printf '%s grid_submit: client=1 handle=1 blocks=1 arrival=1 label=lone\n' \
	"$ev" >"$tmp/lone"
expect 1 "grid 1:1: a grid_submit, 0 grid_end" \
	"$gputbs" timeline --check --summary "$tmp/lone"

# a label (anyone's grid) or a title cannot run a command through the
# gnuplot script: in double quotes, gnuplot runs `backquoted` text
sed 's/label=frame$/label=it'"'"'s`touch${IFS}pwned`/' "$here/class.report" \
	>"$tmp/evil.report"
expect 0 "label=it's\`touch\${IFS}pwned\`" \
	"$gputbs" timeline -o "$tmp/evil" -t "a \"\`touch pwned\`\" '\`touch pwned\`'" \
	"$tmp/evil.report"
if [ -s "$tmp/evil/timeline.svg" ] && [ ! -e "$tmp/evil/pwned" ]; then
	ok
else
	fail "a label or title ran a command in gnuplot (or no plot)"
fi

# hostile input: each is an error naming the file (and line), at once
printf '%s grid_submit: client=1 handle=1 blocks=1 arrival=1\n%s grid_start:\0 client=1 handle=1 cycle=2\n' \
	"$ev" "$ev" >"$tmp/nul"
expect 2 "$tmp/nul:2: NUL byte in line" "$gputbs" timeline --summary "$tmp/nul"
printf '%s grid_submit: client=1 handle=1 blocks=1 arrival=1 class=\033[5m label=a\033]0;b\007c\n' \
	"$ev" >"$tmp/esc"
expect 0 'class=\x1b[5m blocks=1' "$gputbs" timeline --summary "$tmp/esc"
no_raw "control bytes of a trace line"
expect 2 "gputbs: $tmp/a\\x1bb: No such file or directory" \
	"$gputbs" timeline --summary "$tmp/$(printf 'a\033b')"
no_raw "control bytes of a file name"
not_regular "$tmp" "$gputbs" timeline --summary
# standard input may be anything, and a read error names the reason
expect 1 "gputbs: -: read error: Is a directory" \
	sh -c '"$1" timeline --summary - <"$2"' sh "$gputbs" "$tmp"
expect 2 "gputbs: -:1: NUL byte in line" \
	sh -c 'head -c 4096 /dev/zero | "$1" timeline --summary -' sh "$gputbs"

summary timeline
