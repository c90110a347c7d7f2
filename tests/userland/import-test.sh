#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# import-test.sh - host tests of "gputbs import nsys" (Documentation/
# workloads.rst, "Importing a profile") on the hand-made reports of
# tests/userland/import/.
#
# Usage: import-test.sh PATH-TO-gputbs [PATH-TO-gputbs-sim]
#
#   exact     good/nsys2023.csv gives good/nsys2023.expected byte for byte
#   layouts   every good/*.csv (units in the headers, (MB), (B), (byte),
#             GreenCtx or not, Strm/Ctx/Device or not, columns reordered,
#             notices and blank lines before the header, CRLF, quoted
#             names with commas) imports with status 0, and the workload
#             file runs in gputbs-sim run (with PATH-TO-gputbs-sim)
#   errors    every bad/*.csv fails with status 2 and exactly its line of
#             bad/expected-errors ("gputbs: FILE:LINE: reason")
#   usage     bad options: status 2
#
# The last line is "import: N passed, M failed".
set -u

gputbs=${1:?usage: import-test.sh PATH-TO-gputbs [PATH-TO-gputbs-sim]}
sim=${2:-}
case $gputbs in /*) ;; *) gputbs=$(pwd)/$gputbs ;; esac
case $sim in /* | '') ;; *) sim=$(pwd)/$sim ;; esac
here=$(cd "$(dirname "$0")/import" && pwd)
tmp=${TMPDIR:-/tmp}/gputbs-import-test.$$

trap 'rm -rf "$tmp" "$tmp.d"' EXIT
mkdir -p "$tmp.d" || exit 1
out=$tmp
# shellcheck source=tests/userland/lib.sh
. "$(dirname "$0")/lib.sh"
cd "$here" || exit 1

# --- exact: the generated workload text ----------------------------------
if ! "$gputbs" import nsys -o "$tmp.d/nsys2023.gtbs" good/nsys2023.csv \
	2>"$tmp.d/summary"; then
	fail "import nsys good/nsys2023.csv exited non-zero"
	sed 's/^/  | /' "$tmp.d/summary"
elif ! cmp -s good/nsys2023.expected "$tmp.d/nsys2023.gtbs"; then
	fail "good/nsys2023.csv: not good/nsys2023.expected"
	diff -u good/nsys2023.expected "$tmp.d/nsys2023.gtbs" | sed 's/^/  | /'
else
	ok
fi
# the summary: counts and assumptions
expect 0 "gputbs import: 3 kernels imported into standard output; skipped 2 memcpy and 1 memset rows" \
	"$gputbs" import nsys good/nsys2023.csv
expect 0 "assumed: profiled clock 1401000 kHz; emulated device 15 SMs" \
	"$gputbs" import nsys good/nsys2023.csv
# --device-clock-khz and --program: 2800 ns at 1 GHz = 2800 cycles / 3 waves
expect 0 "grid transpose blocks=256 threads=256 regs=20 shmem=3024 cycles=933 expect=2800" \
	"$gputbs" import nsys --device-clock-khz 1000000 good/nsys2023.csv
expect 0 "program resnet" \
	"$gputbs" import nsys --program resnet good/nsys2023.csv

# --- layouts: each imports, and the result runs ---------------------------
for f in good/*.csv; do
	if ! "$gputbs" import nsys -o "$tmp.d/g.gtbs" "$f" >"$out" 2>&1; then
		fail "import nsys $f exited non-zero"
		sed 's/^/  | /' "$out"
	elif [ -n "$sim" ] && ! "$sim" run "$tmp.d/g.gtbs" >"$out" 2>&1; then
		fail "gputbs-sim run on the import of $f exited non-zero"
		sed 's/^/  | /' "$out"
	else
		ok
	fi
done
# the layouts' own numbers: (B) units in us, columns reordered, Name first
expect 0 "grid gemm_kernel blocks=64 threads=128 regs=40 shmem=12288 cycles=10858 expect=21716" \
	"$gputbs" import nsys good/bytes-reordered.csv
# CRLF, Start(ns) without a space, (byte), a quoted comma in a name
expect 0 "grid k_2 blocks=1 threads=32 regs=8 shmem=256 cycles=3926 expect=3926" \
	"$gputbs" import nsys good/byte-crlf.csv
expect 0 "skipped 1 memcpy and 0 memset rows" \
	"$gputbs" import nsys good/greenctx.csv

# --- errors: exact FILE:LINE: reason, status 2, nothing written -----------
for f in bad/*.csv; do
	want=$(grep -F "gputbs: $f:" bad/expected-errors)
	rm -f "$tmp.d/bad.gtbs"
	"$gputbs" import nsys -o "$tmp.d/bad.gtbs" "$f" >"$out" 2>&1
	rc=$?
	if [ -z "$want" ]; then
		fail "$f: no line in bad/expected-errors"
	elif [ "$rc" -ne 2 ]; then
		fail "import nsys $f exited $rc, not 2"
		sed 's/^/  | /' "$out"
	elif [ "$(cat "$out")" != "$want" ]; then
		fail "import nsys $f: not '$want'"
		sed 's/^/  | /' "$out"
	elif [ -e "$tmp.d/bad.gtbs" ]; then
		fail "import nsys $f: wrote its output"
	else
		ok
	fi
done
[ "$(ls bad/*.csv | wc -l)" -eq "$(wc -l <bad/expected-errors)" ] && ok ||
	fail "bad/expected-errors: not one line per bad/*.csv"
not_regular "$tmp.d" "$gputbs" import nsys

# --- usage -----------------------------------------------------------------
expect 2 "unknown format 'ncu' (nsys)" "$gputbs" import ncu good/nsys2023.csv
expect 2 "missing format (nsys)" "$gputbs" import
expect 2 "expected one FILE.csv" "$gputbs" import nsys
expect 2 "--device-clock-khz: '0' is not 1..100000000" \
	"$gputbs" import nsys --device-clock-khz 0 good/nsys2023.csv
expect 2 "--program: 'a b' is not 1 to 63 printable characters" \
	"$gputbs" import nsys --program 'a b' good/nsys2023.csv
expect 2 "gputbs: nonexistent.csv: No such file or directory" \
	"$gputbs" import nsys nonexistent.csv

summary import
