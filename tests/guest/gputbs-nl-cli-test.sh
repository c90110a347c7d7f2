#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# gputbs-nl-cli-test - the netlink commands of the gputbs CLI on the
# module, in the guest (busybox sh): the family in libnl's genl-ctrl-list
# (when the guest has it: tools/vm/gputbs-vm --host-bin genl-ctrl-list, from
# the Debian package libnl-utils) or else through libgputbs' own
# resolution, "gputbs top" while a pair of grids runs, "gputbs monitor
# --format json" while a workload runs, and "gputbs param": parameters of
# the policy set over netlink (param-set) and read back through sysfs
# policy_params/, and the reverse; "gputbs preempt": the preempt mode, switch
# bandwidth and class budgets set over netlink (preempt-set), read back
# through sysfs, an invalid mode refused.  The JSON lines are printed between
# ===MONITOR-JSON-BEGIN=== and ===MONITOR-JSON-END=== for the host to
# validate.  Ends with "nlcli: N passed, M failed".
set -u

pass=0
fail=0
ok() {
	pass=$((pass + 1))
	echo "ok - $*"
}
not_ok() {
	fail=$((fail + 1))
	echo "not ok - $*"
}
check() {	# check DESCRIPTION COMMAND...
	d=$1
	shift
	if "$@"; then ok "$d"; else not_ok "$d"; fi
}

tmp=$(mktemp -d)
cd "$tmp" || exit 1

# --- the family ---------------------------------------------------------------
if command -v genl-ctrl-list >/dev/null 2>&1; then
	genl-ctrl-list >ctrl.txt 2>&1
	cat ctrl.txt
	check "genl-ctrl-list shows the family gputbs" grep -q ' gputbs version 1' ctrl.txt
	genl-ctrl-list -d >ctrl-d.txt 2>&1
	sed -n '/ gputbs version/,/^0x[0-9a-f]* [^g]/p' ctrl-d.txt >family.txt
	cat family.txt
	check "genl-ctrl-list -d shows its events group" grep -q 'grp events' family.txt
	check "policy-set (0x04) needs admin permission" \
		grep -q 'op .*(0x04) <.*admin_perm' family.txt
else
	echo "# genl-ctrl-list is not in the guest: libgputbs resolves the family"
	check "the family resolves through libgputbs (gputbs top)" \
		gputbs top --iterations 1 --batch >/dev/null
fi

# --- gputbs top while a pair runs --------------------------------------------
# two programs of one-wave grids: every SM holds blocks of both at once
cat >pair.gtbs <<'GTBS'
program P
grid nltop-p blocks=15 threads=64 cycles=4000000
program Q
grid nltop-q blocks=15 threads=64 cycles=4000000
workload PQ
run P
run Q at=0
GTBS
gputbs run pair.gtbs >run.txt 2>&1 &
runpid=$!
# wait for the pair: both grids running at once (after the alone runs)
i=0
while [ $i -lt 200 ]; do
	gputbs top --iterations 1 --batch >probe.txt 2>&1
	if grep -q 'running.*nltop-p' probe.txt &&
		grep -q 'running.*nltop-q' probe.txt; then
		break
	fi
	sleep 0.2
	i=$((i + 1))
done
gputbs top --iterations 2 --delay 0.3 --batch >top.txt 2>top.err
rc=$?
cat top.txt
check "gputbs top --iterations 2 exits 0" test "$rc" -eq 0
check "it prints two frames" test "$(grep -c '^gputbs top - cycle' top.txt)" -eq 2
check "it shows the policy" grep -q 'policy fifo' top.txt
check "it shows 15 SM rows per frame" \
	test "$(grep -cE '^ +[0-9]+  [A-Za-z.]+ ' top.txt)" -eq 30
check "both grids of the pair are running" \
	sh -c "grep -q 'running.*nltop-p' top.txt && grep -q 'running.*nltop-q' top.txt"
# FIFO fills the SMs in order: grid A's blocks, then grid B's
check "the SM slots show blocks of both grids" \
	sh -c "grep -E '^ +[0-9]+  [A-Za-z.]{8} ' top.txt | grep -q A &&
	       grep -E '^ +[0-9]+  [A-Za-z.]{8} ' top.txt | grep -q B"
check "an SM holds blocks of both at once" \
	grep -qE '^ +[0-9]+  A+B+\.* ' top.txt
check "the queue is shown" grep -q '^queue: ' top.txt
check "predictions column" grep -q 'pred remain' top.txt
wait "$runpid"
rc=$?
check "gputbs run of the pair succeeded" test "$rc" -eq 0
[ "$rc" -eq 0 ] || cat run.txt

# --- gputbs monitor --format json --------------------------------------------
printf 'program M\ngrid nlmon blocks=30 threads=64 cycles=20000\nworkload W\nrun M\n' >mon.gtbs
gputbs monitor --format json --count 6 --timeout 60 >mon.json 2>mon.err &
monpid=$!
sleep 2
gputbs run mon.gtbs >mrun.txt 2>&1
rc=$?
check "gputbs run under the monitor" test "$rc" -eq 0
[ "$rc" -eq 0 ] || cat mrun.txt
wait "$monpid"
check "gputbs monitor --count 6 exits 0" test $? -eq 0
cat mon.err
echo "===MONITOR-JSON-BEGIN==="
cat mon.json
echo "===MONITOR-JSON-END==="
check "six lines" test "$(wc -l <mon.json)" -eq 6
check "each line is one object" sh -c "! grep -qv '^{.*}\$' mon.json"
check "submitted, started, completed twice" \
	test "$(grep -o '"event":"[a-z-]*"' mon.json | tr '\n' ' ')" = \
	'"event":"grid-submitted" "event":"grid-started" "event":"grid-completed" "event":"grid-submitted" "event":"grid-started" "event":"grid-completed" '
check "the label" test "$(grep -c '"label":"nlmon"' mon.json)" -eq 6
check "gputbs monitor --timeout returns" gputbs monitor --timeout 0.5
check "usage error: status 2" sh -c 'gputbs monitor --count x 2>/dev/null; test $? -eq 2'
check "usage error of top: status 2" sh -c 'gputbs top --delay 0 2>/dev/null; test $? -eq 2'

# --- gputbs param: param-set over netlink, read back through sysfs ----------
SYS=/sys/class/misc/gputbs
if command -v genl-ctrl-list >/dev/null 2>&1; then
	check "param-set (0x0d) needs admin permission" \
		grep -q 'op .*(0x0d) <.*admin_perm' family.txt
fi
echo fifo >"$SYS/policy"
gputbs param >param.txt 2>&1
cat param.txt
check "fifo: params: none" grep -qx 'params: none' param.txt
echo srtf-adaptive >"$SYS/policy"
gputbs param >param.txt 2>&1
cat param.txt
check "srtf-adaptive: its parameters at their defaults, with units" \
	grep -qx 'params: share_threshold_ppm=500000 ppm share_residency=3 blocks share_mode=device preempt_ratio_pct=200 % preempt_unknown=sample single_kernel=sm-exclusive' param.txt
check "each with its default and range" \
	grep -qE '^share_residency +3 blocks  \(default 3, 1\.\.64\)$' param.txt
gputbs param share_threshold_ppm=250000 share_residency=5 share_mode=sm >param.txt 2>&1
rc=$?
cat param.txt
check "gputbs param NAME=VALUE... exits 0" test "$rc" -eq 0
check "it prints the new values" \
	grep -qx 'params: share_threshold_ppm=250000 ppm share_residency=5 blocks share_mode=sm preempt_ratio_pct=200 % preempt_unknown=sample single_kernel=sm-exclusive' param.txt
check "sysfs reads what netlink set" test \
	"$(cat "$SYS/policy_params/share_threshold_ppm") $(cat "$SYS/policy_params/share_residency") $(cat "$SYS/policy_params/share_mode")" = "250000 5 sm"
gputbs param share_mode=0 >/dev/null 2>&1
check "a choice set by number" test "$(cat "$SYS/policy_params/share_mode")" = device
echo 7 >"$SYS/policy_params/share_residency"
check "gputbs top shows what sysfs set" sh -c \
	"gputbs top --iterations 1 --batch | grep -qx 'params: share_threshold_ppm=250000 ppm share_residency=7 blocks share_mode=device preempt_ratio_pct=200 % preempt_unknown=sample single_kernel=sm-exclusive'"
gputbs param share_residency=65 >param.txt 2>&1
rc=$?
cat param.txt
check "out of range: exit 1, ERANGE and the extack message" sh -c \
	"test $rc -eq 1 && grep -q 'share_residency=65: .*range.*minimum..maximum' param.txt"
check "nothing changed" test "$(cat "$SYS/policy_params/share_residency")" = 7
gputbs param no_such_param=1 >param.txt 2>&1
rc=$?
cat param.txt
check "unknown parameter: exit 1 and the extack message" sh -c \
	"test $rc -eq 1 && grep -q 'no such parameter of the current policy' param.txt"
gputbs param share_mode=both >param.txt 2>&1
rc=$?
cat param.txt
check "bad value name: exit 1 and the extack message" sh -c \
	"test $rc -eq 1 && grep -q 'not a value name' param.txt"
if su nobody -s /bin/sh -c "gputbs param share_residency=4" >param.txt 2>&1; then
	not_ok "nobody set a parameter"
else
	cat param.txt
	check "nobody may not set a parameter" grep -q 'not permitted' param.txt
fi
check "still 7" test "$(cat "$SYS/policy_params/share_residency")" = 7
echo fifo >"$SYS/policy"
check "fifo: the parameter is gone for param-set too" sh -c \
	"! gputbs param share_residency=3 >/dev/null 2>&1"
echo srtf-adaptive >"$SYS/policy"
check "srtf-adaptive again: defaults" test \
	"$(cat "$SYS/policy_params/share_residency") $(cat "$SYS/policy_params/share_mode")" = "3 device"
echo fifo >"$SYS/policy"
check "usage error of param: status 2" sh -c 'gputbs param share_mode 2>/dev/null; test $? -eq 2'

# --- gputbs preempt: preempt-set over netlink, read back through sysfs ------
if command -v genl-ctrl-list >/dev/null 2>&1; then
	check "preempt-set (0x0e) needs admin permission" \
		grep -q 'op .*(0x0e) <.*admin_perm' family.txt
fi
bw0=$(cat "$SYS/switch_bytes_per_cycle")
high0=$(cat "$SYS/preempt_budget_high")
low0=$(cat "$SYS/preempt_budget_low")
rt0=$(cat "$SYS/preempt_budget_realtime")
gputbs preempt switch --switch-bw 16 --budget high=30000 --budget realtime=21000 >preempt.txt 2>&1
rc=$?
cat preempt.txt
check "gputbs preempt MODE --switch-bw --budget exits 0" test "$rc" -eq 0
check "it prints the mode (dev-get)" grep -q '^preemption: mode switch; ' preempt.txt
check "sysfs reads the mode netlink set" \
	test "$(cat "$SYS/preempt_mode")" = "drain [switch] flush auto"
check "sysfs reads the bandwidth and budgets netlink set" test \
	"$(cat "$SYS/switch_bytes_per_cycle") $(cat "$SYS/preempt_budget_high") $(cat "$SYS/preempt_budget_realtime") $(cat "$SYS/preempt_budget_low")" = "16 30000 21000 $low0"
gputbs preempt 9 >preempt.txt 2>&1
rc=$?
cat preempt.txt
check "an invalid mode: exit 1, EINVAL and an extack message" sh -c \
	"test $rc -eq 1 && grep -q '^gputbs: preempt-set: Invalid argument: unknown preempt mode' preempt.txt"
gputbs preempt auto --switch-bw 70000 >preempt.txt 2>&1
rc=$?
cat preempt.txt
check "bandwidth out of range: exit 1, ERANGE and the extack message" sh -c \
	"test $rc -eq 1 && grep -q 'range: switch bytes per cycle outside 1..65536' preempt.txt"
check "nothing changed" test "$(cat "$SYS/preempt_mode") $(cat "$SYS/switch_bytes_per_cycle")" = "drain [switch] flush auto 16"
if su nobody -s /bin/sh -c "gputbs preempt flush" >preempt.txt 2>&1; then
	not_ok "nobody set the preempt mode"
else
	cat preempt.txt
	check "nobody may not set the preempt mode" grep -q 'not permitted' preempt.txt
fi
check "usage error of preempt: status 2" sh -c 'gputbs preempt sometimes 2>/dev/null; test $? -eq 2'
check "--budget needs CLASS=CYCLES: status 2" sh -c 'gputbs preempt switch --budget urgent=5 2>/dev/null; test $? -eq 2'
gputbs preempt drain --switch-bw "$bw0" --budget "high=$high0" \
	--budget "realtime=$rt0" >/dev/null 2>&1
check "back to drain, the bandwidth and budgets found" test \
	"$(cat "$SYS/preempt_mode") $(cat "$SYS/switch_bytes_per_cycle") $(cat "$SYS/preempt_budget_high") $(cat "$SYS/preempt_budget_realtime")" = "[drain] switch flush auto $bw0 $high0 $rt0"

# device presets (issue 16): the selector, a switch while no file is open,
# -EBUSY while one is, and back to the paper's GTX 480
check "device lists the presets, gtx480 current" \
	test "$(cat "$SYS/device")" = "[gtx480] v100 a100 h100"
echo h100 >"$SYS/device" 2>/dev/null
check "device h100: 132 SMs, 2048 threads per SM" \
	test "$(cat "$SYS/device") $(cat "$SYS/nr_sms") $(cat "$SYS/threads_per_sm")" = "gtx480 v100 a100 [h100] 132 2048"
check "gputbs info reports the preset's SMs" sh -c 'gputbs info | grep -q "132"'
exec 3</dev/gputbs
check "device cannot change while a file is open (EBUSY)" \
	sh -c "! echo v100 >$SYS/device 2>/dev/null"
exec 3<&-
echo gtx480 >"$SYS/device" 2>/dev/null
check "back to gtx480: 15 SMs" \
	test "$(cat "$SYS/device") $(cat "$SYS/nr_sms")" = "[gtx480] v100 a100 h100 15"
# a grid within the parser's ranges (the largest preset's) but beyond the
# device's: refused at its line before anything runs, run on h100
cat >regs.gtbs <<'GTBS'
program R
grid big-regs blocks=4 threads=256 regs=100 cycles=10
workload W
run R
GTBS
gputbs run regs.gtbs >regs.txt 2>&1
rc=$?
check "regs=100 on gtx480: status 2 at its line" sh -c \
	"[ $rc -eq 2 ] && grep -qx 'gputbs: regs.gtbs:2: regs=100: the device allows at most 63 registers per thread' regs.txt"
echo h100 >"$SYS/device" 2>/dev/null
check "regs=100 on h100: runs" sh -c 'gputbs run regs.gtbs >/dev/null 2>&1'
echo gtx480 >"$SYS/device" 2>/dev/null

# SIGTERM to gputbs run takes its per-program workers with it: nothing is
# left with /dev/gputbs open, and the module can be unloaded at once
cat >long.gtbs <<'GTBS'
program L
grid sigterm-l blocks=15 threads=64 cycles=6000000
program M
grid sigterm-m blocks=15 threads=64 cycles=6000000
workload LM
run L at=0
run M at=0
GTBS
nr_gputbs() {	# processes named gputbs
	# shellcheck disable=SC2046 # one word per pid
	set -- $(pidof gputbs)
	echo "$#"
}
gputbs run long.gtbs >sigterm.txt 2>&1 &
runner=$!
n=0
while [ "$n" -lt 600 ] && [ "$(nr_gputbs)" -lt 3 ]; do
	sleep 0.05
	n=$((n + 1))
done
check "gputbs run has forked its two workers" test "$(nr_gputbs)" -ge 3 ||
	cat sigterm.txt
kill -TERM "$runner"
wait "$runner" 2>/dev/null
n=0
while [ "$n" -lt 15 ] && [ "$(nr_gputbs)" -gt 0 ]; do
	sleep 0.1
	n=$((n + 1))
done
check "after SIGTERM no gputbs process is left" test "$(nr_gputbs)" -eq 0

cd / && rm -rf "$tmp"
echo "nlcli: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
