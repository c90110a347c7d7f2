#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# tests/userland/man-test.sh GPUTBS GPUTBS-SIM - every command has a man
# page (Documentation/man/), each page formats without warnings, and
# every command and long option that --help lists is in its page:
# gputbs(1) for gputbs and its subcommands, gputbs-sim(1) for gputbs-sim
# and its subcommands, gputbs-vm(1) for tools/vm/gputbs-vm.
# Ends with "man: N passed, M failed".
set -uo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
gputbs=${1:-$root/build/bin/gputbs}
sim=${2:-$root/build/bin/gputbs-sim}
man=$root/Documentation/man
pass=0
fail=0
ok() { pass=$((pass + 1)); }
not_ok() {
	fail=$((fail + 1))
	echo "FAIL: $*"
}

for page in gputbs.1 gputbs-sim.1 gputbs-vm.1 libgputbs.3; do
	if [ ! -f "$man/$page" ]; then
		not_ok "no man page $page"
	elif groff -man -ww -z "$man/$page" 2>&1 | grep .; then
		not_ok "$page: groff warnings"
	else
		ok
	fi
done

# the page's text as man(1) shows it, hyphens plain
page_text() { groff -man -Tutf8 -rLL=2000n -rHY=0 -P -cbou "$man/$1" 2>/dev/null | sed 's/\xe2\x80\x90/-/g'; }

# has PAGE-TEXT-FILE WHAT WORD: WORD is in the page
has() {
	if grep -qF -- "$3" "$1"; then ok; else not_ok "$2: '$3' is not in its man page"; fi
}
# commands of a --help ("  name   text" lines after "Commands:")
commands() { sed -n '/^Commands:/,/^$/p' | awk 'NR > 1 && /^  [a-z]/ { print $1 }'; }
long_opts() { grep -oE -- '--[a-z][a-z0-9-]+' | sort -u; }

check_tool() {	# check_tool PAGE PROG
	local page=$1 prog=$2 txt c o
	txt=$(mktemp)
	page_text "$page" >"$txt"
	for c in $("$prog" --help | commands); do
		has "$txt" "$prog" "$c"
		for o in $("$prog" "$c" --help 2>&1 | long_opts); do
			has "$txt" "${prog##*/} $c" "$o"
		done
	done
	rm -f "$txt"
}
check_tool gputbs.1 "$gputbs"
check_tool gputbs-sim.1 "$sim"
txt=$(mktemp)
page_text gputbs-vm.1 >"$txt"
for o in $("$root/tools/vm/gputbs-vm" --help | long_opts); do
	has "$txt" gputbs-vm "$o"
done
for e in $("$root/tools/vm/gputbs-vm" --help | grep -oE '^  GPUTBS_[A-Z_]+'); do
	has "$txt" gputbs-vm "$e"
done
rm -f "$txt"
echo "man: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
