#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# cuda-trace-test.sh - the host side of the CUDA block tracer
# (tools/cuda/gputbs_trace_writer.h) without a GPU: the C test
# cuda-trace-test.c, built with the host compiler, writes a trace of
# synthetic records; it must be the one worked by hand below, and
# gputbs predict must accept it.
#
# Usage: cuda-trace-test.sh PATH-TO-gputbs [CC]
#
# The last line is "cuda-trace: N passed, M failed".
set -u

gputbs=${1:?usage: cuda-trace-test.sh PATH-TO-gputbs [CC]}
cc=${2:-${CC:-cc}}
here=$(cd "$(dirname "$0")" && pwd)
tmp=${TMPDIR:-/tmp}/gputbs-cuda-trace-test.$$
trap 'rm -rf "$tmp" "$tmp.d"' EXIT
mkdir -p "$tmp.d" || exit 1
out=$tmp
# shellcheck source=tests/userland/lib.sh
. "$here/lib.sh"

if ! "$cc" -std=c11 -Wall -Wextra -Werror -o "$tmp.d/t" \
	"$here/cuda-trace-test.c" >"$out" 2>&1; then
	fail "cuda-trace-test.c does not build"
	sed 's/^/  | /' "$out"
	summary cuda-trace
	exit
fi
ok

# The records, in ns from 1000 (t0): grid 0 (R=2) on SM 0: [0,100] and
# [0,150] in slots 0 and 1 (sorted by end), [100,200] refills slot 0 at
# 100; on SM 1: [10,10] bumped to [10,11].  Grid 1 on SM 0: [120,300]
# while slots 0 and 1 are busy: slot 2; on SM 1: [50,400], slot 0 free
# since 11.  Labels: the space and the quote-free "<16>" as the format
# allows ("vec add" -> vec_add).
cat >"$tmp.d/want" <<'END'
# gputbs block trace, recorded by tools/cuda/gputbs_trace.cuh
# synthetic records of tests/userland/cuda-trace-test.c
# times: ns after the earliest start (globaltimer 1000 ns)
grid 0 blocks=4 residency=2 label=vec_add
block 0 0 0 0 100
block 0 0 1 0 150
block 0 0 0 100 200
block 0 1 0 10 11
grid 1 blocks=2 residency=1 label=mm<16>
block 1 0 2 120 300
block 1 1 0 50 400
END
if ! "$tmp.d/t" 0 >"$tmp.d/ns.trace" 2>"$out"; then
	fail "cuda-trace-test 0 failed"
	sed 's/^/  | /' "$out"
elif ! cmp -s "$tmp.d/want" "$tmp.d/ns.trace"; then
	fail "the trace in ns is not the one worked by hand"
	diff -u "$tmp.d/want" "$tmp.d/ns.trace" | sed 's/^/  | /'
else
	ok
fi
# gputbs predict takes it: grid 1's actual runtime is 400 - 50 = 350
expect 0 "final,1,mm<16>," "$gputbs" predict --trace "$tmp.d/ns.trace"
expect 0 ",350," "$gputbs" predict --trace "$tmp.d/ns.trace"

# at 2 GHz every time doubles: [10,10] ns is [20,20], bumped to [20,21]
"$tmp.d/t" 2000000 >"$tmp.d/cyc.trace" 2>"$out" && ok ||
	{ fail "cuda-trace-test 2000000 failed"; sed 's/^/  | /' "$out"; }
for line in "# clock: 2000000 kHz" "block 0 1 0 20 21" "block 1 1 0 100 800" \
	"block 1 0 2 240 600"; do
	if grep -qxF "$line" "$tmp.d/cyc.trace"; then
		ok
	else
		fail "2 GHz trace: no line '$line'"
		sed 's/^/  | /' "$tmp.d/cyc.trace"
	fi
done
expect 0 "final,0,vec_add," "$gputbs" predict --trace "$tmp.d/cyc.trace"

summary cuda-trace
