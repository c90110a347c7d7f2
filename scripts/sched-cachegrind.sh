#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# sched-cachegrind.sh - the scheduler's cost per block event in counts
# that do not depend on the host's load: instructions and simulated cache
# misses (valgrind's cachegrind) of the measured blocks of
# gputbs-bench-sched, for one or more trees, so that two versions of the
# portable core (sm-emu/) can be compared where wall-clock CPU time is
# too noisy (Documentation/performance.rst, section 2).
#
# Usage: scripts/sched-cachegrind.sh [-s SMS] [-g GRIDS] [-P POLICIES]
#            [-b BLOCKS] [-W WARMUP] [TREE ...]
#
#   -s SMS       SM counts, comma-separated (default 132)
#   -g GRIDS     grid counts kept in flight (default 1,128)
#   -P POLICIES  policies (default fifo,srtf-adaptive,paella,wfair); the
#                samples paella and wfair are loaded from each tree's
#                build/samples/*.so
#   -b BLOCKS    measured blocks B (default 50000)
#   -W WARMUP    --warmup-max of both runs (default 300000)
#   TREE         checkouts with build/bench/gputbs-bench-sched and
#                build/samples/*.so built (`make bench-sched samples-so`);
#                default: this checkout
#
# Each configuration runs twice under cachegrind (D1 32 KiB 8-way, LL 4
# MiB 16-way, 64-byte lines: fixed, so that runs on different hosts
# agree), with B and 2B measured blocks and the same warm-up; the
# difference of the two, divided by B, is the cost of B measured block
# events alone, without the set-up and warm-up.  Prints one line per
# configuration: tree, policy, SMs, grids, then per block event the
# instructions (Ir), D1 read and write misses and LL read and write
# misses.  Deterministic for a given binary: the bench runs in virtual
# time.  Exits 2 if valgrind is missing or a run fails.
set -eu

sms=132
grids=1,128
policies=fifo,srtf-adaptive,paella,wfair
blocks=50000
warmup=300000
while getopts s:g:P:b:W:h opt; do
	case $opt in
	s) sms=$OPTARG ;;
	g) grids=$OPTARG ;;
	P) policies=$OPTARG ;;
	b) blocks=$OPTARG ;;
	W) warmup=$OPTARG ;;
	*)
		sed -n '4,/^set -eu/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'
		[ "$opt" = h ] && exit 0
		exit 2
		;;
	esac
done
shift $((OPTIND - 1))
[ $# -gt 0 ] || set -- "$(cd "$(dirname "$0")/.." && pwd)"
command -v valgrind >/dev/null 2>&1 || {
	echo "sched-cachegrind: valgrind not found (apt-get install valgrind)" >&2
	exit 2
}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sched-cachegrind.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT

# The summary line of a cachegrind output file: its events' totals.
summary() {
	sed -n 's/^summary: //p' "$1"
}

printf '%-20s %-14s %5s %6s %8s %8s %8s %8s %8s\n' tree policy sms grids \
	Ir D1mr D1mw DLmr DLmw
for tree in "$@"; do
	tree=$(cd "$tree" && pwd)
	bench=$tree/build/bench/gputbs-bench-sched
	[ -x "$bench" ] || {
		echo "sched-cachegrind: $bench not built (make bench-sched samples-so)" >&2
		exit 2
	}
	plugins=""
	for so in "$tree"/build/samples/*.so; do
		[ -e "$so" ] && plugins="$plugins -p $so"
	done
	for policy in $(echo "$policies" | tr , ' '); do
		for s in $(echo "$sms" | tr , ' '); do
			for g in $(echo "$grids" | tr , ' '); do
				for b in "$blocks" $((2 * blocks)); do
					# the workload path is relative to the tree
					# shellcheck disable=SC2086
					(cd "$tree" && valgrind --tool=cachegrind \
						--cache-sim=yes --D1=32768,8,64 \
						--LL=4194304,16,64 \
						--cachegrind-out-file="$tmp/cg.$b" \
						"$bench" $plugins -P "$policy" \
						--sms "$s" --grids "$g" --reps 1 \
						--blocks "$b" --warmup-max "$warmup") \
						>/dev/null 2>"$tmp/err" || {
						echo "sched-cachegrind: $policy at $s SMs, $g grids failed in $tree:" >&2
						tail -5 "$tmp/err" >&2
						exit 2
					}
				done
				python3 - "$(summary "$tmp/cg.$blocks")" \
					"$(summary "$tmp/cg.$((2 * blocks))")" \
					"$blocks" "$(basename "$tree")" "$policy" "$s" "$g" <<'EOF'
import sys
a = [int(x) for x in sys.argv[1].split()]
b = [int(x) for x in sys.argv[2].split()]
n = int(sys.argv[3])
# events of --cache-sim=yes: Ir I1mr ILmr Dr D1mr DLmr Dw D1mw DLmw
d = [(y - x) / n for x, y in zip(a, b)]
print("%-20s %-14s %5s %6s %8.0f %8.2f %8.2f %8.3f %8.3f"
      % (sys.argv[4][:20], sys.argv[5], sys.argv[6], sys.argv[7],
         d[0], d[4], d[7], d[5], d[8]))
EOF
			done
		done
	done
done
