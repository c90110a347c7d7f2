# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# tests/userland/lib.sh - the small harness the host CLI tests share.
#
# Source it after setting $out (a scratch file).  It defines ok, fail,
# expect STATUS PATTERN CMD... (exit status and a line of stdout+stderr),
# no_raw NAME (the last output holds no control byte but tab and newline),
# not_regular DIR CMD... (CMD FILE refuses a directory, /dev/zero and a FIFO),
# and summary NAME, which prints "NAME: N passed, M failed" and returns
# non-zero if anything failed.

: "${out:?set out to a scratch file before sourcing lib.sh}"
passed=0
failed=0

ok() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "FAIL: $*"; }

expect() {
	status=$1 pattern=$2
	shift 2
	"$@" >"$out" 2>&1
	rc=$?
	if [ "$rc" -ne "$status" ]; then
		fail "$* exited $rc, not $status"
		sed 's/^/  | /' "$out"
	elif ! grep -qF -- "$pattern" "$out"; then
		fail "$*: no line with '$pattern'"
		sed 's/^/  | /' "$out"
	else
		ok
	fi
}

no_raw() {
	if tr -d '\001-\010\013-\037\177' <"$out" | cmp -s - "$out"; then
		ok
	else
		fail "$1: raw control bytes in the output"
		od -c "$out" | sed 's/^/  | /'
	fi
}

# CMD with DIR, /dev/zero and DIR/fifo (made here) as its last argument:
# "gputbs: FILE: not a regular file" and status 2, at once (a hang is
# killed after 10 s and fails)
not_regular() {
	nr_dir=$1
	shift
	[ -p "$nr_dir/fifo" ] || mkfifo "$nr_dir/fifo"
	for nr_file in "$nr_dir" /dev/zero "$nr_dir/fifo"; do
		expect 2 "gputbs: $nr_file: not a regular file" \
			timeout 10 "$@" "$nr_file"
	done
}

summary() {
	echo "$1: $passed passed, $failed failed"
	[ "$failed" -eq 0 ]
}
