#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# gputbs-tenant-test - in the guest, as root: the module's tenants, cgroups
# v2 with weights and caps (Documentation/scheduling.rst, "Tenants";
# Documentation/workloads.rst, "Tenants").
#
# One kernel K: 120 blocks of 20000 cycles at R = 8, one wave of the 15
# SMs' 120 slots (gtx480, the module's and gputbs-sim's default device);
# each run a closed loop of 4 requests in flight, so it always has blocks
# to issue.  At the default 1 us per cycle a workload takes about 2 s.
#
#  a. gputbs run --policy fair on fair-10-90 and cap-beside: one cgroup per
#     tenant, weights and caps set by gputbs run; every run's sm_share
#     (from the block records) within SHARE_TOL points of gputbs-sim's
#     (GPUTBS_SIM, when the host passed the simulator in; else its numbers
#     below: gputbs-sim run --policy fair gives exactly 10/90 and 30/70
#     over cycles 0..2000000).
#  b. two hand-made cgroups ta and tb, weights 10 and 90 set with gputbs
#     tenant set, one saturating gputbs run in each (no tenant keys): their
#     shares between two gputbs tenant list --json readings 2 s apart
#     within PAIR_TOL points of 10% and 90%.
#  c. nobody inside ta may lower ta's weight (10 -> 5) but not raise it
#     (-> 50), nor set tb's cap: EPERM with the module's message.
#
# Tolerances: (a) compares two exact computations of one schedule: the
# module's cycles equal the simulator's when every process keeps its
# grids linked ahead (stream order), the runs' first requests queue in
# run order and T0 starts a cap period (gputbs run), so the shares agree
# to the block (measured: equal to the 4th decimal, every request's
# arrival and end cycles the simulator's);
# SHARE_TOL (0.5 points) leaves one block of 20000 cycles per SM
# (20000 / 2000000 / 8 = 0.125 points) of slack, times the few that a
# late process may shift.  (b) reads two instants of a running schedule:
# fair hands out the device in blocks of 20000 cycles, so over 2 million
# cycles a tenant's share can be off by about a block per SM slot at each
# end, 2 x 20000 / 2000000 = 2 points at worst; PAIR_TOL is 2 points.
#
# Prints "tenant: N passed, M failed".
set -u
SYS=/sys/class/misc/gputbs
CG=/sys/fs/cgroup
SHARE_TOL=${SHARE_TOL:-0.5}
PAIR_TOL=${PAIR_TOL:-2}
work=${TMPDIR:-/tmp}/gputbs-tenant-test.$$
mkdir -p "$work"
. "$(dirname "$0")/gputbs-test-lib.sh"

# near A B TOL: |A - B| <= TOL (decimal numbers)
near() {
	awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(a != "" && b != "" && d <= t) }'
}

# shares JSON: "TENANT PERCENT" per run of each workload, in order (the
# report's first listing of the workloads)
shares() {
	awk '/"workloads":/ { w++ } w == 1 && /"tenant":/ { t = $2 }
	     w == 1 && /"sm_share":/ && t != "" {
		gsub(/[",]/, "", t); v = $2; gsub(/,/, "", v)
		printf "%s %.4f\n", t, 100 * v; t = "" }' "$1"
}

if ! grep -q cgroup2 /proc/mounts; then
	mount -t cgroup2 none "$CG" || { echo "cannot mount cgroup2"; exit 1; }
fi
check "cgroup2 at $CG" sh -c "awk '\$2 == \"$CG\" && \$3 == \"cgroup2\" { f = 1 } END { exit !f }' /proc/mounts"
check "the module offers fair" grep -qw fair "$SYS/policy"
old_policy=$(sed 's/.*\[\(.*\)\].*/\1/' "$SYS/policy")

cat >"$work/t.gtbs" <<EOF
program K
grid k blocks=120 threads=64 regs=16 cycles=20000
workload fair-10-90
run K tenant=a weight=10 requests=20 outstanding=4
run K tenant=b weight=90 requests=90 outstanding=4
workload cap-beside
run K tenant=c max=30 requests=40 outstanding=4
run K tenant=u requests=70 outstanding=4
EOF

# --- a. gputbs run applies the workload's tenants ---------------------------
if [ -n "${GPUTBS_SIM:-}" ] && "$GPUTBS_SIM" run --policy fair --format json \
	"$work/t.gtbs" >"$work/sim.json" 2>/dev/null; then
	shares "$work/sim.json" >"$work/sim.txt"
else
	printf 'a 10.0000\nb 90.0000\nc 30.0000\nu 70.0000\n' >"$work/sim.txt"
fi
gputbs run --policy fair --format json "$work/t.gtbs" >"$work/run.json" \
	2>"$work/run.err"
check "gputbs run --policy fair on tenants: exit 0" test $? = 0
cat "$work/run.err"
shares "$work/run.json" >"$work/run.txt"
paste "$work/sim.txt" "$work/run.txt" | while read -r st sv mt mv; do
	echo "tenant $st: simulator $sv%, module $mv%"
done
n=0
while read -r t v; do
	n=$((n + 1))
	m=$(sed -n "${n}p" "$work/run.txt")
	check "run: tenant $t's sm_share within $SHARE_TOL points of the simulator's ($v%)" \
		near "${m#* }" "$v" "$SHARE_TOL"
done <"$work/sim.txt"
check "run: a tenants' table in the text report" sh -c \
	"gputbs run --policy fair '$work/t.gtbs' 2>&1 | grep -q 'SM share over cycles'"
check "run: its cgroups are gone" sh -c "! ls -d $CG/gputbs-run.* 2>/dev/null"
# cap-beside capped a tenant: gputbs run removed the cap with the cgroup,
# so cap_period may change again (it refuses writes while a tenant is capped)
cp=$(cat "$SYS/cap_period")
check "run: its caps are gone, cap_period may be written" \
	sh -c "echo $((cp * 2)) >'$SYS/cap_period' && echo $cp >'$SYS/cap_period'"
check "fair restored to the previous policy" grep -q "\[$old_policy\]" "$SYS/policy"

# --- b. two hand-made cgroups at 10:90 ----------------------------------------
cat >"$work/busy.gtbs" <<EOF
program K
grid k blocks=120 threads=64 regs=16 cycles=20000
workload busy
run K requests=100000 outstanding=4
EOF
echo fair >"$SYS/policy"
mkdir -p "$CG/ta" "$CG/tb"
gputbs tenant set --cgroup "$CG/ta" --weight 10
check "root sets ta's weight to 10" test $? = 0
gputbs tenant set --cgroup "$CG/tb" --weight 90
check "root sets tb's weight to 90" test $? = 0
sh -c "echo \$\$ >$CG/ta/cgroup.procs; exec gputbs run '$work/busy.gtbs'" \
	>"$work/ta.out" 2>&1 &
pa=$!
sh -c "echo \$\$ >$CG/tb/cgroup.procs; exec gputbs run '$work/busy.gtbs'" \
	>"$work/tb.out" 2>&1 &
pb=$!
# the alone runs, T0's margin: both busy after a second or two
sleep 3
gputbs tenant list --json >"$work/l1.json"
sleep 2
gputbs tenant list --json >"$work/l2.json"
gputbs tenant list
# a frame whose grid dump the busy device kept interrupting fails (EAGAIN,
# the dump's NLM_F_DUMP_INTR): try again, spaced out, as a user would (five
# tries back to back once all failed on a loaded TCG guest)
for try in 1 2 3 4 5 6 7 8 9 10; do
	gputbs top --iterations 2 --delay 0.5 --batch >"$work/top.txt" 2>&1 &&
		break
	sleep 0.3
done
check "top: a tenants panel" grep -q '^  tenant .*share' "$work/top.txt" ||
	tail -40 "$work/top.txt"
sed -n '/^  tenant /,/^$/p' "$work/top.txt"

# field FILE PATH KEY: KEY of the tenant whose path is PATH
field() {
	awk -v p="\"$2\"" -v k="\"$3\":" '
		/"path":/ { gsub(/,/, "", $2); cur = $2 }
		/^ *}/ { cur = "" }
		cur == p && $1 == k { v = $2; gsub(/,/, "", v); print v; exit }' "$1"
}
nr_sms=$(awk '/"nr_sms":/ { v = $2; gsub(/,/, "", v); print v; exit }' "$work/l1.json")
for t in ta tb; do
	s1=$(field "$work/l1.json" "$CG/$t" sm_time)
	s2=$(field "$work/l2.json" "$CG/$t" sm_time)
	c1=$(field "$work/l1.json" "$CG/$t" now_cycle)
	c2=$(field "$work/l2.json" "$CG/$t" now_cycle)
	g2=$(field "$work/l2.json" "$CG/$t" grids)
	share=$(awk -v a="$s1" -v b="$s2" -v c="$c1" -v d="$c2" -v n="$nr_sms" \
		'BEGIN { if (d > c && n > 0) printf "%.4f", 100 * (b - a) / (n * 1e6 * (d - c)) }')
	eval "share_$t=\$share"
	echo "$t: sm_time $s1 -> $s2, cycles $c1 -> $c2, $g2 grids: $share%"
	check "$t still busy at the second reading" test "${g2:-0}" -gt 0
done
check "ta's share within $PAIR_TOL points of 10%" near "$share_ta" 10 "$PAIR_TOL"
check "tb's share within $PAIR_TOL points of 90%" near "$share_tb" 90 "$PAIR_TOL"
kill "$pa" "$pb" 2>/dev/null
wait "$pa" "$pb" 2>/dev/null
echo "$old_policy" >"$SYS/policy"

# --- c. what nobody may do ------------------------------------------------------
# root moves the shell into ta; su's nobody inherits its cgroup
as_nobody_in_ta() {
	sh -c "echo \$\$ >$CG/ta/cgroup.procs; exec su nobody -s /bin/sh -c '$*'"
}
as_nobody_in_ta "gputbs tenant set --cgroup $CG/ta --weight 50" \
	>"$work/c1.txt" 2>&1
check "nobody in ta cannot raise ta's weight (exit 1)" test $? = 1
cat "$work/c1.txt"
check "... EPERM, with the module's message" \
	grep -q 'tenant-set: Operation not permitted: .*CAP_SYS_ADMIN' "$work/c1.txt"
as_nobody_in_ta "gputbs tenant set --cgroup $CG/ta --weight 5" \
	>"$work/c2.txt" 2>&1
check "nobody in ta lowers ta's weight to 5" test $? = 0
cat "$work/c2.txt"
as_nobody_in_ta "gputbs tenant set --cgroup $CG/tb --max 50" \
	>"$work/c3.txt" 2>&1
check "nobody in ta cannot cap tb (exit 1)" test $? = 1
cat "$work/c3.txt"
check "... EPERM" grep -q 'Operation not permitted' "$work/c3.txt"
gputbs tenant list --json >"$work/l3.json"
check "ta's weight is 5 now" test "$(field "$work/l3.json" "$CG/ta" weight)" = 5
check "tb has no cap" test -z "$(field "$work/l3.json" "$CG/tb" max)"
gputbs tenant set --cgroup "$CG/tb" --max 30
check "root caps tb at 30%" test $? = 0
gputbs tenant list --json >"$work/l4.json"
check "tb's max is 30" sh -c "test \"\$(printf '%.0f' '$(field "$work/l4.json" "$CG/tb" max)')\" = 30"
gputbs tenant set --cgroup "$CG/tb" --max none
check "root removes tb's cap" test $? = 0

# the cgroups go once their tasks are gone
i=0
while ! rmdir "$CG/ta" "$CG/tb" 2>/dev/null && [ $i -lt 50 ]; do
	sleep 0.1
	i=$((i + 1))
done
check "ta and tb removed" sh -c "! test -d $CG/ta && ! test -d $CG/tb"
rm -rf "$work"
echo "tenant: $passed passed, $failed failed"
[ "$failed" = 0 ]
