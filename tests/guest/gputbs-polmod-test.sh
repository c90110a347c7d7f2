#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# gputbs-polmod-test - in the guest, as root, with the sample policy
# modules loaded after gputbs (tools/vm/gputbs-vm --module
# build/samples-debug/gtbs_wfair.ko --module ...; make check passes every
# build/samples-debug/gtbs_*.ko): the registration API as a policy
# module's user sees it (Documentation/scheduling.rst, "Writing a policy").
#
#   gputbs-polmod-test MODULE[:POLICY]...
#
# For each MODULE (gtbs_wfair gtbs_paella gtbs_las ...), whose policy is
# POLICY, or without :POLICY the name the selector loses when MODULE is
# unloaded (it is loaded again at once):
#  1. the policy selector lists POLICY; its policy_params/ appear when it
#     is selected;
#  2. switched to under load (gputbs run of two programs of 0.1 to 0.2 s
#     blocks: each alone, then together, under whatever policy is
#     selected; the switch once a grid is in flight), the workload
#     completes with every grid it submitted;
#  3. while selected, the module holds a reference (/sys/module/M/refcnt
#     1) and rmmod fails, leaving it listed;
#  4. switched away (to fifo) the reference is dropped, rmmod succeeds and
#     the selector no longer lists POLICY; selecting it fails with EINVAL;
#  5. insmod again registers it again (gputbs-vm unloads it at the end);
#  6. with GPUTBS_SIM (gputbs-sim, tools/vm/gputbs-vm --host-bin) and
#     PLUGINS (a directory with MODULE.so, make samples-so, --host-file):
#     gputbs run --policy POLICY of the same two programs gives, program
#     by program, the alone and shared cycles of gputbs-sim run
#     --policy-plugin PLUGINS/MODULE.so --policy POLICY, to the cycle.
#
# Prints "polmod: N passed, M failed".
set -u
SYS=/sys/class/misc/gputbs
MODDIR=/lib/gputbs-vm/modules
work=${TMPDIR:-/tmp}/gputbs-polmod-test.$$
mkdir -p "$work"
. "$(dirname "$0")/gputbs-test-lib.sh"

policies() {	# the selector's names, one a line, sorted
	tr ' []' '\n\n\n' <"$SYS/policy" | grep . | sort
}

policy_of() {	# policy_of MODULE: the name its rmmod takes away
	policies >"$work/before"
	rmmod "$1" || return 1
	policies >"$work/after"
	insmod "$MODDIR/$1.ko" || return 1
	grep -vxF -f "$work/after" "$work/before"
}

cycles() {	# cycles JSON: the alone and shared cycles, in order
	grep -o '"\(alone\|shared\)_cycles": [0-9]*' "$1" | tr '\n' ' '
}

cat >"$work/w.gtbs" <<'EOF2'
program long
grid crunch blocks=240 threads=128 cycles=3000 rsd=20 seed=3
program short
grid quick blocks=120 threads=64 cycles=800 rsd=10 seed=4
workload W
run long
run short at=2000
EOF2
# the same shape, blocks of 10^5 and 2 x 10^5 cycles (0.1 and 0.2 s at
# the default 1 us per cycle), so that grids are in flight long enough
# for the guest's shell to see them and switch
sed 's/cycles=3000/cycles=200000/; s/cycles=800/cycles=100000/' \
	"$work/w.gtbs" >"$work/load.gtbs"

for mp in "$@"; do
	mod=${mp%%:*}
	pol=${mp#*:}
	if [ "$pol" = "$mp" ]; then
		pol=$(policy_of "$mod")
		check "$mod: registers one policy ('$pol')" \
			test -n "$pol" -a "$(echo "$pol" | wc -l)" = 1
	fi
	check "$pol: listed by the selector" listed "$pol"
	before=$(cat "$SYS/grids_completed")
	submitted=$(cat "$SYS/grids_submitted")
	# no --policy: the run neither selects nor restores a policy, so
	# the switch below is the only one
	gputbs run "$work/load.gtbs" >"$work/run.txt" 2>&1 &
	rpid=$!
	check "$pol: a grid in flight before the switch" wait_in_flight 20
	check "$pol: selected under load" sh -c "echo $pol >$SYS/policy"
	check "$pol: shown selected" selected "$pol"
	check "$pol: policy_params/ exists" test -d "$SYS/policy_params"
	ls "$SYS/policy_params" >"$work/params"
	echo "$pol parameters: $(tr '\n' ' ' <"$work/params")"
	check "$pol: module referenced once" \
		test "$(cat "/sys/module/$mod/refcnt")" = 1
	check "$pol: rmmod refused while selected" sh -c "! rmmod $mod 2>/dev/null"
	check "$pol: still listed after the refused rmmod" listed "$pol"
	wait "$rpid"
	rc=$?
	# gputbs run fails a run whose process submitted after T0's margin
	# (a slow guest: the debug kernel under TCG, the switch's sysfs write
	# at the same moment): a measurement gputbs run refuses, not a grid
	# lost, which the next check counts
	if [ "$rc" != 0 ] && grep -q 'its process submitted too late' \
		"$work/run.txt" && [ "$(grep -c '^gputbs: ' "$work/run.txt")" = \
		"$(grep -c 'its process submitted too late' "$work/run.txt")" ]; then
		echo "$pol: gputbs run refused a late submission (slow guest):"
		sed 's/^/  | /' "$work/run.txt" | grep 'too late'
		rc=0
	fi
	if ! check "$pol: the workload ran to completion" test "$rc" = 0; then
		sed 's/^/  | /' "$work/run.txt"
	fi
	after=$(cat "$SYS/grids_completed")
	submitted=$(($(cat "$SYS/grids_submitted") - submitted))
	echo "$pol: $submitted grids submitted, $((after - before)) completed"
	# the alone runs and the shared run: every grid submitted completed
	check "$pol: every grid submitted completed" \
		test "$((after - before))" = "$submitted" -a "$submitted" -ge 2
	check "$pol: switch away to fifo" sh -c "echo fifo >$SYS/policy"
	check "$pol: reference dropped" \
		test "$(cat "/sys/module/$mod/refcnt")" = 0
	check "$pol: rmmod after the switch" rmmod "$mod"
	check "$pol: no longer listed" sh -c "! grep -qw $pol $SYS/policy"
	check "$pol: selecting it now fails" \
		sh -c "! echo $pol >$SYS/policy 2>/dev/null"
	check "$pol: insmod registers it again" insmod "$MODDIR/$mod.ko"
	check "$pol: listed again" listed "$pol"
	if [ -n "${GPUTBS_SIM:-}" ] && [ -f "${PLUGINS:-}/$mod.so" ]; then
		# up to 3 tries: a late submission voids a run (above)
		for try in 1 2 3; do
			gputbs run --format json --policy "$pol" \
				"$work/w.gtbs" >"$work/mod.json" 2>&1 && break
			grep -q 'submitted too late' "$work/mod.json" || break
			echo "$pol: try $try: a late submission, again"
		done
		"$GPUTBS_SIM" run --format json --policy-plugin \
			"$PLUGINS/$mod.so" --policy "$pol" "$work/w.gtbs" \
			>"$work/sim.json" 2>&1
		echo "$pol module:    $(cycles "$work/mod.json")"
		echo "$pol simulator: $(cycles "$work/sim.json")"
		check "$pol: the module's cycles are the simulator's" \
			test -n "$(cycles "$work/sim.json")" -a \
			"$(cycles "$work/mod.json")" = "$(cycles "$work/sim.json")"
	fi
done
rm -rf "$work"
echo "polmod: $passed passed, $failed failed"
[ "$failed" = 0 ]
