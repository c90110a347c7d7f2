# SPDX-License-Identifier: GPL-2.0
#
# gputbs-test-lib.sh - what the guest's shell tests share, sourced (not
# run) from the directory of the test, in the guest /usr/bin:
#
#   . "$(dirname "$0")/gputbs-test-lib.sh"
#
# The test counts with $passed and $failed (this sets both to 0) and ends
# with a line "NAME: $passed passed, $failed failed" that scripts/check.sh
# reads.

passed=0
failed=0
SYS=${SYS:-/sys/class/misc/gputbs}

# check NAME COMMAND...: run COMMAND, count it and print "ok: NAME" or
# "FAIL: NAME"; returns COMMAND's success, so that a test can stop early
check() {
	name=$1
	shift
	if "$@"; then
		passed=$((passed + 1))
		echo "ok: $name"
	else
		failed=$((failed + 1))
		echo "FAIL: $name"
		return 1
	fi
}

# listed POLICY: the policy selector ($SYS/policy) names it
listed() {
	tr ' []' '\n\n\n' <"$SYS/policy" | grep -qx "$1"
}

# selected POLICY: it is the device's policy
selected() {
	grep -q "\[$1\]" "$SYS/policy"
}

# wait_in_flight [SECONDS]: poll every 10 ms, for SECONDS (20) at most,
# until a grid is in flight on the device (submitted, not yet completed,
# cancelled or timed out); prints the number then in flight (0: none came)
# and succeeds when it is above 0.  The ends are read before the
# submissions, so a grid ending meanwhile counts as in flight, never
# below 0.
wait_in_flight() {
	t_end=$(($(date +%s) + ${1:-20}))
	while :; do
		# shellcheck disable=SC2046
		set -- $(cat "$SYS/grids_completed" "$SYS/grids_cancelled" \
			"$SYS/grids_timed_out" "$SYS/grids_submitted")
		in_flight=$(($4 - $1 - $2 - $3))
		[ $in_flight -le 0 ] && [ "$(date +%s)" -lt $t_end ] ||
			break
		sleep 0.01
	done
	echo $in_flight
	[ $in_flight -gt 0 ]
}
