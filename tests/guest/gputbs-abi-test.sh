#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# gputbs-abi-test - in the guest, with perl: the kernel's own
# scripts/get_abi.pl checks the module's sysfs files against their
# documentation, on the live /sys.
#
#   gputbs-abi-test GET_ABI_PL KERNEL_ABI_DIR GPUTBS_ABI_DIR
#
# GET_ABI_PL and KERNEL_ABI_DIR come from the kernel source tree
# (scripts/get_abi.pl, Documentation/ABI), GPUTBS_ABI_DIR is gputbs'
# Documentation/ABI; tools/vm/gputbs-vm copies them and perl into the guest
# (--host-bin perl --host-file ...; scripts/check.sh does it).
#
# 1. "get_abi.pl undefined" over the kernel's ABI plus gputbs' finds no
#    undocumented file under /sys whose path contains /gputbs (the misc
#    device's attributes, /sys/module/gputbs).
# 2. The same without gputbs' files reports every attribute of the
#    device: the search did see them (a control for 1).
# 3. Every What: of sysfs-class-misc-gputbs exists on the running module
#    (a What: with a <placeholder> matches at least one file).
#
# It runs with the srtf-adaptive policy selected, so that policy_params/
# holds files (that policy's parameters), and puts the policy back.
#
# Prints "abi: N passed, M failed".
set -u
getabi=${1:?usage: gputbs-abi-test GET_ABI_PL KERNEL_ABI_DIR GPUTBS_ABI_DIR}
kabi=${2:?usage: gputbs-abi-test GET_ABI_PL KERNEL_ABI_DIR GPUTBS_ABI_DIR}
ours=${3:?usage: gputbs-abi-test GET_ABI_PL KERNEL_ABI_DIR GPUTBS_ABI_DIR}
work=${TMPDIR:-/tmp}/gputbs-abi-test.$$
. "$(dirname "$0")/gputbs-test-lib.sh"

SYS=/sys/class/misc/gputbs
policy=$(sed -n 's/.*\[\([a-z-]*\)\].*/\1/p' "$SYS/policy")
echo srtf-adaptive >"$SYS/policy"
check "srtf-adaptive selected: policy_params/ has files" \
	test -n "$(ls "$SYS/policy_params")"

mkdir -p "$work/abi"
cp -R "$kabi/." "$work/abi/"
cp "$ours"/testing/* "$work/abi/testing/"

perl "$getabi" --dir "$work/abi" --search-string /gputbs undefined \
	>"$work/undefined" 2>"$work/err"
rc=$?
check "get_abi.pl undefined runs" test "$rc" -eq 0
[ "$rc" -eq 0 ] || tail -n 5 "$work/err"
check "get_abi.pl: every sysfs file of gputbs is documented" \
	test ! -s "$work/undefined"
cat "$work/undefined"

perl "$getabi" --dir "$kabi" --search-string /gputbs undefined \
	>"$work/control" 2>/dev/null
n=0
missed=
for f in "$SYS"/* "$SYS"/policy_params/*; do
	name=${f#"$SYS"/}
	[ -f "$f" ] || continue
	case "$name" in dev | uevent) continue ;; esac	# the kernel's
	n=$((n + 1))
	grep -q "/gputbs/$name not found" "$work/control" || missed="$missed $name"
done
check "control: without gputbs' ABI file, get_abi.pl reports all $n attributes" \
	test "$n" -gt 0 -a -z "$missed"
[ -z "$missed" ] || echo "not reported:$missed"

missing=
while read -r w; do
	# a <placeholder> is any name: at least one file matches
	g=$(printf '%s\n' "$w" | sed 's/<[^>]*>/*/g')
	# shellcheck disable=SC2086 # the glob is meant
	set -- $g
	[ -e "$1" ] || missing="$missing $w"
done <<EOF
$(sed -n 's/^What:[[:space:]]*//p' "$ours/testing/sysfs-class-misc-gputbs")
EOF
check "every documented file exists" test -z "$missing"
[ -z "$missing" ] || echo "missing:$missing"

echo "$policy" >"$SYS/policy"
rm -rf "$work"
echo "abi: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
