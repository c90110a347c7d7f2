#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# cli-test.sh - host tests of the gputbs CLI that need no device: usage
# errors, and every workload file error of Documentation/workloads.rst.
#
# Usage: cli-test.sh PATH-TO-gputbs
#
# Each tests/userland/bad/*.gtbs starts with "# expect: WHERE: MESSAGE";
# WHERE is a line of that file, or FILE:LINE of a file next to it.  The
# CLI must exit with status 2 and print "gputbs: FILE:LINE: MESSAGE...".
# The files in good/ must parse: the CLI then fails to open the (missing)
# device with status 1.  Hostile input files (NUL bytes, control bytes,
# FIFOs, devices, directories; Documentation/reliability.rst) are made
# here.  The last line is "cli: N passed, M failed".
set -u

gputbs=${1:?usage: cli-test.sh PATH-TO-gputbs}
here=$(dirname "$0")
nodev=/nonexistent/gputbs
out=${TMPDIR:-/tmp}/gputbs-cli-test.$$

d=${TMPDIR:-/tmp}/gputbs-cli-test.d.$$

trap 'rm -rf "$out" "$d"' EXIT

# shellcheck source=tests/userland/lib.sh
. "$(dirname "$0")/lib.sh"

expect 2 "missing command" "$gputbs"
expect 2 "unknown command 'frob'" "$gputbs" frob
expect 0 "Usage: gputbs [--help]" "$gputbs" --help
expect 0 "Usage: gputbs info" "$gputbs" info --help
expect 0 "Usage: gputbs run" "$gputbs" run --help
expect 0 "Usage: gputbs calibrate" "$gputbs" calibrate --help
expect 2 "no workload file given" "$gputbs" run
expect 2 "unrecognized option '--frob'" "$gputbs" run --frob x.gtbs
expect 2 "unknown format 'xml'" "$gputbs" info --format xml
expect 2 "bad timeout 'soon'" "$gputbs" run --timeout soon x.gtbs
expect 2 "bad tolerance '0'" "$gputbs" calibrate --tolerance 0 x.gtbs
expect 2 "unexpected argument 'extra'" "$gputbs" info extra
expect 0 "--policy LIST" "$gputbs" run --help
expect 0 "--trace FILE" "$gputbs" run --help
one=$here/../../workloads/ercbench/pairs/AES-d+JPEG-d.gtbs
for list in "" "," "fifo," ",fifo" "fifo,,sjf" "fifo,fifo" "FIFO" \
	"fi fo" "fifo;sjf" "a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p,q" \
	"a-very-long-policy-name-of-32-chr"; do
	expect 2 "bad policy list '$list'" \
		"$gputbs" run --device $nodev --policy "$list" "$one"
done
# --load: one decimal of 0.000001..100, at most 6 decimals (issue 31)
for load in "" 0 0.0 -0.5 1e-1 0.0000001 100.000001 101 0.6,0.7 60% x; do
	expect 2 "bad load '$load' (a decimal number of 0.000001..100, at most 6 decimals)" \
		"$gputbs" run --device $nodev --load "$load" "$one"
done
expect 2 "unrecognized option '--load'" \
	"$gputbs" calibrate --device $nodev --load 0.5 "$one"
for load in 0.6 100 0.000001; do
	expect 1 "(is the module loaded?)" \
		"$gputbs" run --device $nodev --load $load "$one"
done
expect 0 "--load LOAD" "$gputbs" run --help
expect 2 "gputbs: --duration needs --load" \
	"$gputbs" run --device $nodev --duration 10ms "$one"
for dur in 0 10x -1 1.5ms ""; do
	expect 2 "--duration: '$dur' is not a time (1..2^40 cycles, or ns, us, ms or s)" \
		"$gputbs" run --device $nodev --load 0.6 --duration "$dur" "$one"
done
expect 1 "(is the module loaded?)" \
	"$gputbs" run --device $nodev --load 0.6 --duration 10ms "$one"
expect 2 "unrecognized option '--policy'" \
	"$gputbs" calibrate --device $nodev --policy fifo "$one"
expect 2 "unrecognized option '--trace'" \
	"$gputbs" calibrate --device $nodev --trace x.trace "$one"
expect 2 "bad trace file ''" "$gputbs" run --device $nodev --trace "" "$one"
expect 2 "--trace records one workload under one policy, not 3 workloads under 1 policy" \
	"$gputbs" run --device $nodev --trace x.trace "$here/good/all.gtbs"
expect 2 "--trace records one workload under one policy, not 1 workload under 2 policies" \
	"$gputbs" run --device $nodev --trace x.trace --policy fifo,srtf "$one"
expect 2 "--trace records one workload under one policy, not 2 workloads under 3 policies" \
	"$gputbs" run --device $nodev -T x.trace -P fifo,srtf,sjf "$one" \
	"$here/../../workloads/ercbench/pairs/SAD+AES-e.gtbs"
expect 1 "(is the module loaded?)" \
	"$gputbs" run --device $nodev --trace x.trace --policy sjf "$one"
expect 1 "(is the module loaded?)" \
	"$gputbs" run --device $nodev --policy fifo,srtf,sjf \
	--list "$here/../../workloads/ercbench/demo.list"
expect 2 "missing.gtbs: No such file or directory" \
	"$gputbs" run --device $nodev "$here/missing.gtbs"
expect 1 "gputbs: $nodev: No such file or directory (is the module loaded?)" \
	"$gputbs" info --device $nodev

# gputbs tenant: the errors before talking to the module
expect 0 "Usage: gputbs tenant" "$gputbs" tenant --help
expect 0 "--cgroup-id ID" "$gputbs" tenant set --help
expect 2 "unexpected argument 'frob'" "$gputbs" tenant frob
expect 2 "unrecognized option '--weight'" "$gputbs" tenant list --weight 5
expect 2 "set needs exactly one of --cgroup, --cgroup-id and --client" \
	"$gputbs" tenant set --weight 5
expect 2 "set needs exactly one of --cgroup, --cgroup-id and --client" \
	"$gputbs" tenant set --cgroup-id 7 --client 3 --weight 5
expect 2 "set needs --weight or --max" "$gputbs" tenant set --client 3
for w in 0 10001 -1 1.5 x ""; do
	expect 2 "bad --weight '$w' (1..10000)" \
		"$gputbs" tenant set --client 3 --weight "$w"
done
for m in 0 0.0000% 100.0001 101; do
	expect 2 "out of range 0.0001..100 (percent)" \
		"$gputbs" tenant set --client 3 --max "$m"
done
for m in 1.23456 x 5%% "" ..5 -1; do
	expect 2 "bad --max '$m' (a percentage with at most 4 decimals, or none)" \
		"$gputbs" tenant set --client 3 --max "$m"
done
expect 2 "bad --cgroup-id '0'" "$gputbs" tenant set --cgroup-id 0 --weight 5
expect 2 "bad --client 'x'" "$gputbs" tenant set --client x --weight 5
expect 2 "--cgroup /nonexistent/cg: No such file or directory" \
	"$gputbs" tenant set --cgroup /nonexistent/cg --weight 5
expect 2 "--cgroup $here: not a directory of a cgroup v2 file system" \
	"$gputbs" tenant set --cgroup "$here" --max none
expect 2 "--cgroup $0: Not a directory" \
	"$gputbs" tenant set --cgroup "$0" --max 30

for f in "$here"/bad/*.gtbs; do
	where=$(sed -n '1s/^# expect: //p' "$f")
	case $where in
	[0-9]*) want="gputbs: $f:$where" ;;
	*) want="gputbs: $(dirname "$f")/$where" ;;
	esac
	expect 2 "$want" "$gputbs" run --device $nodev "$f"
done

for f in "$here"/good/*.gtbs; do
	[ "${f##*/}" = tenants.gtbs ] && continue
	expect 1 "(is the module loaded?)" "$gputbs" run --device $nodev "$f"
done
# tenant keys need root and cgroup2 at /sys/fs/cgroup (each tenant a
# cgroup), said at the first key's line before the device is opened
ten=$here/good/tenants.gtbs
if [ "$(id -u)" != 0 ]; then
	expect 1 "gputbs: $ten:8: tenant keys need root and cgroup v2 at /sys/fs/cgroup: not root" \
		"$gputbs" run --device $nodev "$ten"
elif [ "$(stat -f -c %T /sys/fs/cgroup 2>/dev/null)" != cgroup2fs ]; then
	expect 1 "gputbs: $ten:8: tenant keys need root and cgroup v2 at /sys/fs/cgroup: /sys/fs/cgroup is not a cgroup2 file system" \
		"$gputbs" run --device $nodev "$ten"
else
	expect 1 "(is the module loaded?)" "$gputbs" run --device $nodev "$ten"
	if ls -d /sys/fs/cgroup/gputbs-run.* >/dev/null 2>&1; then
		fail "gputbs run left /sys/fs/cgroup/gputbs-run.* behind"
	else
		ok
	fi
fi
# calibrate runs programs only: no tenants
expect 1 "(is the module loaded?)" "$gputbs" calibrate --device $nodev "$ten"
expect 1 "(is the module loaded?)" "$gputbs" run --device $nodev \
	"$here"/../../workloads/ercbench/pairs/*.gtbs
expect 1 "(is the module loaded?)" "$gputbs" run --device $nodev \
	--list "$here/../../workloads/ercbench/demo.list"
expect 1 "(is the module loaded?)" "$gputbs" calibrate --device $nodev \
	"$here/../../workloads/ercbench/kernels.gtbs"
kernels=$here/../../workloads/ercbench/kernels.gtbs
expect 2 "kernels.gtbs:$(wc -l < "$kernels"): no workload defined" \
	"$gputbs" run --device $nodev "$kernels"

# Hostile input: each is an error naming the file (and line), at once.
mkdir -p "$d"
prog='program P\ngrid g threads=32 cycles=100 blocks=2\n'
wl='workload W\nrun P\n'
printf "${prog}workload W\0 X\nrun P\n" >"$d/nul.gtbs"
expect 2 "gputbs: $d/nul.gtbs:3: NUL byte in line" \
	"$gputbs" run --device $nodev "$d/nul.gtbs"
printf '# shared\nprogram Q\0\n' >"$d/nul.inc"
printf "include nul.inc\n$prog$wl" >"$d/inc-nul.gtbs"
expect 2 "gputbs: $d/nul.inc:2: NUL byte in line" \
	"$gputbs" run --device $nodev "$d/inc-nul.gtbs"
printf '100\n200\0 300\n' >"$d/nul.dur"
printf "program P\ngrid g threads=32 durations=nul.dur\n$wl" >"$d/dur-nul.gtbs"
expect 2 "gputbs: $d/nul.dur:2: NUL byte in line" \
	"$gputbs" run --device $nodev "$d/dur-nul.gtbs"
printf 'program P\ngrid g threads=32 cycles=100 blocks=2 c\033]0;x\007=1\n' \
	>"$d/esc.gtbs"
expect 2 "gputbs: $d/esc.gtbs:2: unknown key 'c\\x1b]0;x\\x07'" \
	"$gputbs" run --device $nodev "$d/esc.gtbs"
no_raw "control bytes of a workload file"
expect 2 "unknown command 'frob\\x1b[2J'" "$gputbs" "$(printf 'frob\033[2J')"
no_raw "control bytes of an argument"
not_regular "$d" "$gputbs" run --device $nodev
printf "include fifo\n$prog$wl" >"$d/inc-fifo.gtbs"
expect 2 "gputbs: $d/inc-fifo.gtbs:1: cannot include $d/fifo: not a regular file" \
	timeout 10 "$gputbs" run --device $nodev "$d/inc-fifo.gtbs"
printf "program P\ngrid g threads=32 durations=fifo\n$wl" >"$d/dur-fifo.gtbs"
expect 2 "gputbs: $d/dur-fifo.gtbs:2: durations file $d/fifo: not a regular file" \
	timeout 10 "$gputbs" run --device $nodev "$d/dur-fifo.gtbs"
printf "program P\ngrid g threads=32 durations=/dev/zero\n$wl" >"$d/dur-zero.gtbs"
expect 2 "gputbs: $d/dur-zero.gtbs:2: durations file /dev/zero: not a regular file" \
	timeout 10 "$gputbs" run --device $nodev "$d/dur-zero.gtbs"
# more durations than blocks: bad/durations-more.gtbs; and without blocks=,
# at most 2^20: a file of 2^20 + 1 stops at its last line
seq 1 1048577 >"$d/many.dur"
printf "program P\ngrid g threads=32 durations=many.dur\n$wl" >"$d/dur-many.gtbs"
expect 2 "gputbs: $d/many.dur:1048577: more than 1048576 durations (the most blocks a grid may have)" \
	"$gputbs" run --device $nodev "$d/dur-many.gtbs"
expect 2 "gputbs: $d/fifo: not a regular file" \
	timeout 10 "$gputbs" run --device $nodev --list "$d/fifo"

# every bad line of a file, up to 20 (issue 17); the lines of a program
# whose line failed are skipped, not reported again
printf 'program P\ngrid g blocks=0 threads=32 cycles=1\ngrid h threads=32 cycles=1 blocks=1 gap=3min\nprogram P\ngrid x blocks=1 threads=32 cycles=1 frob=1\nworkload W\nrun P requests=0\nbogus line\n' >"$d/multi.gtbs"
"$gputbs" run --device $nodev "$d/multi.gtbs" >"$out" 2>&1
rc=$?
want="gputbs: $d/multi.gtbs:2: blocks=0 out of range 1..1048576
gputbs: $d/multi.gtbs:3: gap: unknown unit 'min' (ns, us, ms or s; no unit: cycles)
gputbs: $d/multi.gtbs:4: duplicate program 'P' (first defined at $d/multi.gtbs:1)
gputbs: $d/multi.gtbs:7: requests=0 out of range 1..1000000
gputbs: $d/multi.gtbs:8: unknown keyword 'bogus'"
if [ "$rc" -eq 2 ] && [ "$(cat "$out")" = "$want" ]; then
	ok
else
	fail "multi.gtbs: status $rc, not every error once"
	sed 's/^/  | /' "$out"
fi
awk 'BEGIN { print "program P"; for (i = 0; i < 30; i++) print "grid g blocks=0 threads=32 cycles=1" }' >"$d/many.gtbs"
"$gputbs" run --device $nodev "$d/many.gtbs" >"$out" 2>&1
if [ "$(grep -c 'blocks=0 out of range' "$out")" -eq 20 ] &&
	[ "$(tail -n 1 "$out")" = "gputbs: $d/many.gtbs: stopped after 20 errors" ]; then
	ok
else
	fail "many.gtbs: not 20 errors and a stop"
	tail -n 3 "$out" | sed 's/^/  | /'
fi

summary cli
