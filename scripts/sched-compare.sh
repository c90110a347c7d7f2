#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# sched-compare.sh - the schedules of two versions of the portable core
# (sm-emu/), event for event: for a change to the engine or to a policy
# that must not change any schedule (a cheaper kick, a faster pick).
#
# Usage: scripts/sched-compare.sh OLD-TREE [NEW-TREE] [INPUTS]
#
# Builds tests/fuzz/fuzz_sched.c of this checkout with -DFZ_COMPARE (each
# input file's digest of block events, picks, predictions and bounded
# runs; see its header) once against OLD-TREE's sm-emu/*.c and once against
# NEW-TREE's (default: this checkout), for devices of up to 4, 64, 300 and
# 1,024 SMs, and runs both on INPUTS random inputs (default 4000, fixed
# seeds, 32 to 1,024 bytes) and tests/fuzz/regress/sched/*.  Prints every
# difference and a last line "sched-compare: N identical, M differ"; exits
# 1 if any differ.  OLD-TREE is a checkout, e.g.
# `git worktree add /tmp/base main`.
set -u

old=${1:?usage: sched-compare.sh OLD-TREE [NEW-TREE] [INPUTS]}
top=$(cd "$(dirname "$0")/.." && pwd)
new=${2:-$top}
inputs=${3:-4000}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sched-compare.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT

mkdir "$tmp/in"
python3 - "$tmp/in" "$inputs" <<'EOF'
import random, sys
for i in range(int(sys.argv[2])):
    r = random.Random(i)
    n = r.choice([32, 64, 128, 256, 512, 1024])
    with open("%s/r%05d" % (sys.argv[1], i), "wb") as f:
        f.write(bytes(r.getrandbits(8) for _ in range(n)))
EOF
cp "$top"/tests/fuzz/regress/sched/* "$tmp/in/" 2>/dev/null

# A core without tools/include/gtbs_rbtree_user.h (a copy of the kernel's
# rbtree, until 2026-11-28) links the kernel's tools/lib/rbtree.c and
# includes its <linux/rbtree.h> as the Makefile does (tools/lib/rbtree.mk).
san="-O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all"
rb=$top/${BUILD:-build}
case ${BUILD:-build} in /*) rb=$BUILD ;; esac
rb=$rb/linux-source-6.12
rbtree() {
	[ -f "$1/tools/include/gtbs_rbtree_user.h" ] && return
	# shellcheck disable=SC2086 # $san: flags, split
	[ -f "$tmp/rbtree.o" ] || {
		make -s -C "$top" rbtree-src &&
			${CC:-gcc} $san -std=gnu11 -I"$rb/linux-source-6.12/tools/include" \
				-c -o "$tmp/rbtree.o" "$rb/linux-source-6.12/tools/lib/rbtree.c"
	} >&2 || exit 2
	echo "-I$rb/include $tmp/rbtree.o"
}

same=0
differ=0
for sms in 4 64 300 1024; do
	for side in old new; do
		if [ "$side" = old ]; then tree=$old; else tree=$new; fi
		# shellcheck disable=SC2046,SC2086 # flags and files, split
		${CC:-gcc} $san -std=gnu11 -D_GNU_SOURCE \
			-DFZ_COMPARE -DFZ_NSMS="$sms" -I"$tree/uapi" \
			-I"$tree/sm-emu" -o "$tmp/$side" \
			"$top/tests/fuzz/fuzz_sched.c" "$tree"/sm-emu/*.c \
			$(rbtree "$tree") || exit 2
		(cd "$tmp/in" && timeout "${SCHED_COMPARE_TIMEOUT:-900}" \
			"$tmp/$side" *) >"$tmp/$side.txt" || {
			echo "sched-compare: $side core failed (or ran past ${SCHED_COMPARE_TIMEOUT:-900} s) at $sms SMs" >&2
			exit 1
		}
	done
	d=$(diff "$tmp/old.txt" "$tmp/new.txt" | grep -c '^<')
	n=$(wc -l <"$tmp/new.txt")
	diff "$tmp/old.txt" "$tmp/new.txt" | sed -n "s/^> /up to $sms SMs: differs: /p"
	same=$((same + n - d))
	differ=$((differ + d))
done
echo "sched-compare: $same identical, $differ differ"
[ "$differ" = 0 ]
