#!/usr/bin/env bash
# scripts/ktap-extract.sh LOG - extract module KUnit results (KTAP) from a
# guest log so that kunit.py can parse them.
#
# Typical use (debug kernel, KUnit module loaded after gputbs.ko):
#   tools/vm/gputbs-vm --debug-kernel --module build/kmod-debug/gputbs_kunit.ko -- true
#   scripts/ktap-extract.sh build/vm/last.log > build/vm/kunit.ktap
#   . scripts/kernel-paths.sh
#   python3 "$SRC_TREE/tools/testing/kunit/kunit.py" parse "$PWD/build/vm/kunit.ktap"
# (kunit.py chdirs into the kernel tree: give it an absolute path.)
#
# LOG is a tools/vm/gputbs-vm log (build/vm/last.log) or any dmesg/console
# capture; "-" reads stdin.  If the log contains the final dmesg section
# printed by the guest's /init, only that section is used (the console copy
# of the same lines is ignored), otherwise the whole log.
#
# What it does:
#  - strips printk timestamps ("[    5.123456] ", also "[  T123]" caller ids)
#    and carriage returns;
#  - skips empty KTAP documents, i.e. the "KTAP version 1" / "1..0" plan the
#    kernel prints at boot when KUnit is built in without built-in suites;
#  - keeps each non-empty document (one per loaded KUnit module) from its
#    "KTAP version 1" header until its plan's last top-level result, dropping
#    unrelated (unindented, non-KTAP) kernel messages interleaved with it;
#  - if several modules ran, merges their documents into one KTAP document
#    (plan = sum of the plans, top-level results renumbered).
# Output: KTAP on stdout.  Exit status 0 if at least one document was found,
# 1 if none (message on stderr), 2 on usage errors.
set -euo pipefail

if [ $# -ne 1 ] || [ "$1" = -h ] || [ "$1" = --help ]; then
	sed -n '2,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//' >&2
	exit 2
fi
log=$1
if [ "$log" != - ] && [ ! -r "$log" ]; then
	echo "ktap-extract: cannot read '$log'" >&2
	exit 2
fi

file=$log
[ "$log" != - ] || file=/dev/stdin

awk '
function strip(s) {
	sub(/\r+$/, "", s)
	gsub(/\r/, "", s)
	# printk time stamp and optional caller id, e.g. "[    5.123456][  T123] "
	if (s ~ /^\[ *[0-9]+\.[0-9]+\]/) {
		sub(/^\[ *[0-9]+\.[0-9]+\]/, "", s)
		sub(/^\[ *[CT][0-9]+\]/, "", s)
		sub(/^ /, "", s)
	}
	return s
}
{
	raw[NR] = $0
	if (index($0, "===GPUTBS-DMESG-BEGIN===")) b = NR
	if (index($0, "===GPUTBS-DMESG-END===") && b) e = NR
}
END {
	if (b && e > b) { first = b + 1; last = e - 1 } else { first = 1; last = NR }
	ndocs = 0; total = 0; nout = 0
	state = 0	# 0: looking for a header, 1: header seen, want plan, 2: in a document
	for (i = first; i <= last; i++) {
		s = strip(raw[i])
		if (s ~ /^(K?TAP version [0-9]+)[ \t]*$/) {
			if (state == 2) finish()
			state = 1
			continue
		}
		if (state == 1) {
			if (s ~ /^1\.\.[0-9]+/) {
				n = s; sub(/^1\.\./, "", n); n = n + 0
				if (n == 0) { state = 0; continue }
				state = 2; plan = n; seen = 0; ndocs++; total += n
				continue
			}
			if (s ~ /^[ \t]/ || s ~ /^#/) { state = 0; continue }	# not a plan: ignore header
			continue	# unrelated kernel message between header and plan
		}
		if (state != 2) continue
		if (s ~ /^(not )?ok [0-9]+/) {
			seen++
			num = s; sub(/^(not )?ok /, "", num); sub(/[^0-9].*$/, "", num)
			rest = substr(s, index(s, "ok " num) + length("ok " num))
			pre = (s ~ /^not /) ? "not ok " : "ok "
			out[++nout] = pre (renum + seen) rest
			if (seen >= plan) finish()
			continue
		}
		if (s ~ /^[ \t]/ || s ~ /^# /) {
			out[++nout] = s
			continue
		}
		if (s ~ /^(Kernel panic|BUG:|Oops|general protection fault)/) {
			# the kernel died under the tests: keep the evidence, stop here
			out[++nout] = "# " s
			finish()
			continue
		}
		# anything else: an unrelated kernel message, drop it
	}
	if (state == 2) finish()
	if (ndocs == 0) {
		print "ktap-extract: no KUnit results (non-empty KTAP document) in the log" > "/dev/stderr"
		exit 1
	}
	print "KTAP version 1"
	print "1.." total
	for (i = 1; i <= nout; i++) print out[i]
}
function finish() {
	renum += plan
	state = 0
}
' "$file"
