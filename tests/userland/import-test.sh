#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# import-test.sh - host tests of "gputbs import nsys" and "gputbs import
# ncu" (Documentation/workloads.rst, "Importing a profile") on the
# hand-made reports of tests/userland/import/.
#
# Usage: import-test.sh PATH-TO-gputbs [PATH-TO-gputbs-sim]
#
#   exact     good/nsys2023.csv (--device gtx480) gives
#             good/nsys2023.expected byte for byte
#   layouts   every good/*.csv (units in the headers, (MB), (B), (byte),
#             GreenCtx or not, Strm/Ctx/Device or not, columns reordered,
#             notices and blank lines before the header, CRLF, quoted
#             names with commas, quotes and line breaks) imports with
#             status 0, and the workload
#             file runs in gputbs-sim run (with PATH-TO-gputbs-sim)
#   device    the preset from the Device column (good/h100-torch.csv, an
#             H100 profile: h100 without --device; nsys2023.csv's A100:
#             a100), --device overriding it, the limit error naming the
#             GPU's preset, an unknown GPU and two GPUs (errors at their
#             lines), ncu's device__attribute_display_name column
#   gaps      good/h100-torch.csv's gap= per kernel as worked by hand,
#             an overlap, no Strm column, ncu alone
#   labels    distinct kernel names get distinct labels (h100-torch.csv's
#             at::native:: kernels; every good/*.csv), numbered and cut
#   errors    every bad/*.csv fails with status 2 and exactly its line of
#             bad/expected-errors ("gputbs: FILE:LINE: reason")
#   ncu       good/nsys2023.csv with --ncu good/ncu-details.csv gives
#             good/nsys2023-ncu.expected and good/ncu-raw.csv alone
#             good/ncu-raw.expected byte for byte (mem= and knee= worked by
#             hand in Documentation/workloads.rst); every good/ncu-*.csv
#             (details page of 2023 and 2020 with CRLF, raw page with and
#             without a units row, notices, "1,234") imports alone and with nsys and
#             runs (gputbs-sim run --device of the import); the notices of defaulted fields; every bad-ncu/*.csv
#             fails with exactly its line of bad-ncu/expected-errors
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
exact() { # EXPECTED ARGS...: the workload text of "gputbs import ARGS"
	exact_want=$1
	shift
	if ! "$gputbs" import "$@" -o "$tmp.d/x.gtbs" 2>"$tmp.d/summary"; then
		fail "import $*: exited non-zero"
		sed 's/^/  | /' "$tmp.d/summary"
	elif ! cmp -s "$exact_want" "$tmp.d/x.gtbs"; then
		fail "import $*: not $exact_want"
		diff -u "$exact_want" "$tmp.d/x.gtbs" | sed 's/^/  | /'
	else
		ok
	fi
}
# (nsys2023.csv is an A100 profile: on the GTX 480 with --device)
if ! "$gputbs" import nsys --device gtx480 -o "$tmp.d/nsys2023.gtbs" \
	good/nsys2023.csv 2>"$tmp.d/summary"; then
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
expect 0 "assumed: profiled clock 1401000 kHz; emulated device gtx480, 15 SMs" \
	"$gputbs" import nsys --device gtx480 good/nsys2023.csv
# --device-clock-khz and --program: 2800 ns at 1 GHz = 2800 cycles / 3 waves
expect 0 "grid transpose blocks=256 threads=256 regs=20 shmem=3024 cycles=933 expect=2800" \
	"$gputbs" import nsys --device gtx480 --device-clock-khz 1000000 \
	good/nsys2023.csv
expect 0 "program resnet" \
	"$gputbs" import nsys --program resnet good/nsys2023.csv

# --- layouts: each imports, and the result runs ---------------------------
# on the device it was imported for: the header's "gputbs-sim --device D"
sim_device() {
	sed -n 's/.*(gputbs-sim --device \([a-z0-9]*\)).*/\1/p' "$tmp.d/g.gtbs"
}
for f in good/*.csv; do
	case $f in good/ncu-*) continue ;; esac
	if ! "$gputbs" import nsys -o "$tmp.d/g.gtbs" "$f" >"$out" 2>&1; then
		fail "import nsys $f exited non-zero"
		sed 's/^/  | /' "$out"
	elif [ -n "$sim" ] && ! "$sim" run --device "$(sim_device)" \
		"$tmp.d/g.gtbs" >"$out" 2>&1; then
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
# libcsv: quoted fields over lines (CRLF), "" in a name, and the physical
# line of each row after them (rows start on lines 2, 5, 6 and 7)
expect 0 "# line 5: k,\"2\"" "$gputbs" import nsys good/embedded-newline.csv
expect 0 "# line 6: k2" "$gputbs" import nsys good/embedded-newline.csv
expect 0 "# line 7: k<?,?>" "$gputbs" import nsys good/embedded-newline.csv

# --- device: the preset of the GPU the Device column names ----------------
h100=good/h100-torch.csv
expect 0 "assumed: profiled clock 1980000 kHz; emulated device h100, 132 SMs" \
	"$gputbs" import nsys "$h100"
expect 0 "emulated device h100, from the Device column of $h100:5 (\"NVIDIA H100 80GB HBM3\"); --device overrides" \
	"$gputbs" import nsys "$h100"
expect 0 "emulated device a100, 108 SMs" "$gputbs" import nsys good/nsys2023.csv
expect 0 "emulated device gtx480, 15 SMs" "$gputbs" import nsys good/byte-crlf.csv
expect 0 "emulated device h100, 132 SMs" "$gputbs" import nsys good/greenctx.csv
# --device overrides it, and the summary names the GPU's preset
expect 0 "emulated device a100, 108 SMs (gputbs-sim --device a100)" \
	"$gputbs" import nsys --device a100 "$h100"
expect 0 "emulated device a100 (--device); the Device column of $h100:5 names \"NVIDIA H100 80GB HBM3\" (h100)" \
	"$gputbs" import nsys --device a100 "$h100"
# a kernel that does not fit the --device preset: the limit, and the GPU's
expect 2 "gputbs: $h100:7: 128 registers per thread: the emulated device allows at most 63 (--device gtx480); the Device column names \"NVIDIA H100 80GB HBM3\": give --device h100" \
	"$gputbs" import nsys --device gtx480 "$h100"
# a GPU without a preset, at the line that names it; --device imports it
sed 's/NVIDIA H100 80GB HBM3 (0)/NVIDIA GeForce RTX 4090 (0)/' "$h100" \
	>"$tmp.d/rtx.csv"
expect 2 "gputbs: $tmp.d/rtx.csv:5: unknown GPU \"NVIDIA GeForce RTX 4090\" in the Device column; known: gtx480 (GTX 480), v100 (V100), a100 (A100), h100 (H100), or give --device NAME" \
	"$gputbs" import nsys "$tmp.d/rtx.csv"
expect 0 "emulated device h100 (--device); the Device column of $tmp.d/rtx.csv:5 names \"NVIDIA GeForce RTX 4090\" (no preset)" \
	"$gputbs" import nsys --device h100 "$tmp.d/rtx.csv"
# A1000 is not an A100; two GPUs in one report need --device
sed 's/NVIDIA H100 80GB HBM3 (0)/NVIDIA RTX A1000 (0)/' "$h100" >"$tmp.d/a1000.csv"
expect 2 "unknown GPU \"NVIDIA RTX A1000\"" "$gputbs" import nsys "$tmp.d/a1000.csv"
sed '9s/NVIDIA H100 80GB HBM3 (0)/NVIDIA A100-SXM4-40GB (1)/' "$h100" >"$tmp.d/two.csv"
expect 2 "gputbs: $tmp.d/two.csv:9: GPU \"NVIDIA A100-SXM4-40GB\", but line 5 has \"NVIDIA H100 80GB HBM3\": a workload runs on one device; give --device NAME" \
	"$gputbs" import nsys "$tmp.d/two.csv"
expect 0 "emulated device a100, 108 SMs" \
	"$gputbs" import nsys --device a100 "$tmp.d/two.csv"
# ncu: a device__attribute_display_name column (raw page) names the GPU; a
# Device column of indices ("0") does not
sed -e '3s/$/,"device__attribute_display_name"/' -e '4s/$/,""/' \
	-e '5,$s/$/,"NVIDIA H100 80GB HBM3"/' good/ncu-raw.csv >"$tmp.d/ncu-h100.csv"
expect 0 "emulated device h100, from the device__attribute_display_name column of $tmp.d/ncu-h100.csv:5" \
	"$gputbs" import ncu "$tmp.d/ncu-h100.csv"
expect 0 "emulated device gtx480, 15 SMs" "$gputbs" import ncu good/ncu-raw.csv

# --- gaps: per stream, memcpy and memset time part of them ----------------
# good/h100-torch.csv, by hand: stream 7 has its HtoD memcpy at 1000000 ns
# (line 5), a memset, kernels at 1070000 (line 7, 12000 ns), 1090000
# (line 8, 8000 ns), a DtoD memcpy at 1100000, kernels at 1105000 (line
# 10, 20000 ns) and 1130000 (line 12); stream 13 kernels at 1110000 (line
# 11, 5000 ns, its first row), a memset at 1140000, kernels at 1150000
# (line 14, 6000 ns) and 1160000 (line 15).  Gaps, ns: line 7 1070000 -
# 1000000 = 70000 (from its stream's first row), line 8 1090000 - 1082000
# = 8000, line 10 1105000 - 1098000 = 7000 (the DtoD memcpy inside it),
# line 11 none, line 12 1130000 - 1125000 = 5000, line 14 1150000 -
# 1115000 = 35000 (the memset inside it), line 15 1160000 - 1156000 =
# 4000; in cycles at the H100's 1980000 kHz, x 1.98:
exact good/h100-torch.expected nsys good/h100-torch.csv
gaps() { # FILE: "LINE:GAP" per grid, 0 without gap=
	awk '/^# line / { l = $3; sub(":", "", l) }
	     /^grid / { g = 0; for (i = 3; i <= NF; i++) if ($i ~ /^gap=/) {
			g = substr($i, 5) }; printf "%s:%s ", l, g }' "$1"
}
"$gputbs" import nsys -o "$tmp.d/h.gtbs" "$h100" 2>/dev/null
want="7:138600 8:15840 10:13860 11:0 12:9900 14:69300 15:7920 "
[ "$(gaps "$tmp.d/h.gtbs")" = "$want" ] && ok ||
	fail "$h100: gaps '$(gaps "$tmp.d/h.gtbs")', not '$want'"
expect 0 "#   gap 7000 ns = 13860 cycles after the end of line 8, the previous kernel of stream 7" \
	"$gputbs" import nsys "$h100"
expect 0 "#   gap 70000 ns = 138600 cycles after the start of line 5, the first row of stream 7" \
	"$gputbs" import nsys "$h100"
expect 0 "gap= kept for 6 kernels: each the time from the end of the previous kernel of its stream" \
	"$gputbs" import nsys "$h100"
expect 0 "kernels of several streams serialised in start order, each gap= of its own stream" \
	"$gputbs" import nsys "$h100"
# the same gaps in ns at another profiled clock: 70000 ns at 1 GHz
expect 0 "#   gap 70000 ns = 70000 cycles after the start of line 5" \
	"$gputbs" import nsys --device-clock-khz 1000000 "$h100"
# an overlap in a stream: line 12 at 1120000, before line 10's end
sed '12s/^1130000,/1120000,/' "$h100" >"$tmp.d/overlap.csv"
expect 0 "#   starts 5000 ns before the end of line 10, the previous kernel of stream 7: gap 0" \
	"$gputbs" import nsys "$tmp.d/overlap.csv"
expect 0 "1 kernel starts before the previous kernel of its stream ends: gap 0" \
	"$gputbs" import nsys "$tmp.d/overlap.csv"
"$gputbs" import nsys -o "$tmp.d/o.gtbs" "$tmp.d/overlap.csv" 2>/dev/null
want="7:138600 8:15840 10:13860 11:0 12:0 14:69300 15:7920 "
[ "$(gaps "$tmp.d/o.gtbs")" = "$want" ] && ok ||
	fail "overlap: gaps '$(gaps "$tmp.d/o.gtbs")', not '$want'"
# no Strm column: one stream (a memcpy at 0.5 us, the kernel at 2.25 us:
# 1750 ns at 1401000 kHz = 2452 cycles)
expect 0 "grid gemm_kernel blocks=64 threads=128 regs=40 shmem=12288 cycles=10858 expect=21716 gap=2452" \
	"$gputbs" import nsys good/bytes-reordered.csv
# ncu alone: ncu serialises the launches, no gaps
"$gputbs" import ncu -o "$tmp.d/n.gtbs" good/ncu-raw.csv 2>/dev/null
! grep -q 'gap' "$tmp.d/n.gtbs" && ok || fail "import ncu: a gap"

# the same report with CRLF line ends: the same workload (its first line
# names the file)
mkdir -p "$tmp.d/crlf" && sed 's/$/\r/' "$h100" >"$tmp.d/crlf/h100-torch.csv"
"$gputbs" import nsys -o "$tmp.d/c.gtbs" "$tmp.d/crlf/h100-torch.csv" 2>/dev/null
if [ "$(tail -n +2 "$tmp.d/c.gtbs")" = "$(tail -n +2 good/h100-torch.expected)" ]; then
	ok
else
	fail "$h100 with CRLF: not good/h100-torch.expected"
	diff good/h100-torch.expected "$tmp.d/c.gtbs" | sed 's/^/  | /'
fi

# --- labels: distinct kernel names, distinct labels -----------------------
# good/h100-torch.csv: four at::native:: functions, two of them with two
# instantiations, one launched twice (lines 7 and 12)
labels() { # FILE: "LABEL " per grid
	awk '/^grid / { printf "%s ", $2 }' "$1"
}
want="vectorized_elementwise_kernel vectorized_elementwise_kernel-2 distribution_elementwise_grid_s at::native::reduce_kernel vectorized_elementwise_kernel native::softmax_warp_forward at::native::reduce_kernel-2 "
[ "$(labels "$tmp.d/h.gtbs")" = "$want" ] && ok ||
	fail "$h100: labels '$(labels "$tmp.d/h.gtbs")', not '$want'"
# in any report: one label per name, one name per label
onelabel() { # FILE
	awk '/^# line / { sub(/^# line [0-9]*: /, ""); n = $0 }
	     /^grid / { if ((n in l) && l[n] != $2) bad = 1; l[n] = $2
			if (($2 in m) && m[$2] != n) bad = 1; m[$2] = n }
	     END { exit bad }' "$1"
}
for f in good/*.csv; do
	case $f in good/ncu-*) set -- ncu "$f" ;; *) set -- nsys "$f" ;; esac
	"$gputbs" import "$@" -o "$tmp.d/l.gtbs" 2>/dev/null &&
		onelabel "$tmp.d/l.gtbs" && ok ||
		fail "import $*: two names share a label, or a name has two"
done
# numbered in start order, around a label taken by another name, and cut
# to make room: 40 characters keep 31, 29 with "-2"
long=abcdefghijabcdefghijabcdefghijabcdefghij
{
	echo 'Start (ns),Duration (ns),GrdX,GrdY,GrdZ,BlkX,BlkY,BlkZ,Reg/Trd,StcSMem (B),DymSMem (B),Name'
	echo '100,1000,1,1,1,32,1,1,8,0,0,k-2'
	echo '200,1000,1,1,1,32,1,1,8,0,0,"void k<1>(int)"'
	echo '300,1000,1,1,1,32,1,1,8,0,0,"void k<2>(int)"'
	echo "400,1000,1,1,1,32,1,1,8,0,0,\"void $long<1>()\""
	echo "500,1000,1,1,1,32,1,1,8,0,0,\"void $long<2>()\""
	echo '600,1000,1,1,1,32,1,1,8,0,0,"void k<1>(int)"'
} >"$tmp.d/labels.csv"
"$gputbs" import nsys -o "$tmp.d/l.gtbs" "$tmp.d/labels.csv" 2>/dev/null
want="k-2 k k-3 abcdefghijabcdefghijabcdefghija abcdefghijabcdefghijabcdefghi-2 k "
[ "$(labels "$tmp.d/l.gtbs")" = "$want" ] && ok ||
	fail "labels.csv: labels '$(labels "$tmp.d/l.gtbs")', not '$want'"

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

# --- ncu: speed of light to mem= and knee= ---------------------------------
exact good/nsys2023-ncu.expected nsys --device gtx480 --ncu good/ncu-details.csv \
	good/nsys2023.csv
exact good/ncu-raw.expected ncu good/ncu-raw.csv
for f in good/ncu-*.csv; do
	for mode in "ncu $f" "nsys --ncu $f good/nsys2023.csv"; do
		# shellcheck disable=SC2086
		if ! "$gputbs" import $mode -o "$tmp.d/g.gtbs" >"$out" 2>&1; then
			fail "import $mode exited non-zero"
			sed 's/^/  | /' "$out"
		elif [ -n "$sim" ] && ! "$sim" run --device "$(sim_device)" \
			"$tmp.d/g.gtbs" >"$out" 2>&1; then
			fail "gputbs-sim run on import $mode exited non-zero"
			sed 's/^/  | /' "$out"
		else
			ok
		fi
	done
done
# transpose: SM 40%, DRAM 60%: mem = 60/(40+60); 36 warps at u = 60%:
# knee = 36 * 0.4 / 0.6 = 24.  The 2020 layout: "SM [%]", names without
# parameters, Achieved Occupancy 75% of the device's 48 warps = 36 warps,
# sizes in Kbyte (2.00 + 1.02 Kbyte = 3020 bytes)
expect 0 "grid transpose blocks=256 threads=256 regs=20 shmem=3020 cycles=1308 expect=3923 mem=60.0000 knee=24.000" \
	"$gputbs" import ncu good/ncu-2020-crlf.csv
# the raw page without its units row: ns, bytes and %
expect 0 "grid transpose blocks=256 threads=256 regs=20 shmem=3024 cycles=1308 expect=3923 mem=60.0000 knee=24.000" \
	"$gputbs" import ncu good/ncu-raw-nounits.csv
# the same occupancy on the h100 preset is 48 of its 64 warps: knee 32
expect 0 "mem=60.0000 knee=32.000" \
	"$gputbs" import ncu --device h100 good/ncu-2020-crlf.csv
# notices: nothing from ncu, some launches of ncu, a raw page without occupancy
expect 0 "no ncu report (--ncu): mem defaulted to 0 (all demand on the issue pipe) for all 3 kernels" \
	"$gputbs" import nsys good/nsys2023.csv
expect 0 "no ncu report (--ncu): knee defaulted to the device's 8 warps for all 3 kernels" \
	"$gputbs" import nsys --device gtx480 good/nsys2023.csv
expect 0 "ncu: 2 of 3 kernels matched to a launch by name and order (0 to the last launch of their name); 0 launches unused" \
	"$gputbs" import nsys --ncu good/ncu-2020-crlf.csv good/nsys2023.csv
expect 0 "mem defaulted to 0 for 1 kernel (no ncu launch" \
	"$gputbs" import nsys --ncu good/ncu-2020-crlf.csv good/nsys2023.csv
expect 0 "knee defaulted to the device's 8 warps for 1 kernel (no ncu launch" \
	"$gputbs" import ncu good/ncu-raw.csv
expect 0 "ncu: 3 of 3 kernels matched to a launch by name and order (0 to the last launch of their name); 1 launches unused" \
	"$gputbs" import nsys --ncu good/ncu-raw.csv good/nsys2023.csv
# two launches of one name in nsys, one in ncu: the second takes the last
sed -n '1,6p;7p;7s/^1200000/1250000/p' good/nsys2023.csv >"$tmp.d/twice.csv"
expect 0 "ncu: 2 of 2 kernels matched to a launch by name and order (1 to the last launch of their name); 1 launches unused" \
	"$gputbs" import nsys --ncu good/ncu-2020-crlf.csv "$tmp.d/twice.csv"
# names across the tools: ncu's "softmax_warp_forward" is nsys's
# "at::native::(anonymous namespace)::softmax_warp_forward<...>(...)", and
# the anonymous namespace does not make two functions one
{
	echo '"ID","Process ID","Process Name","Host Name","Kernel Name","Context","Stream","launch__grid_size","launch__block_size","launch__registers_per_thread","launch__shared_mem_per_block_static","launch__shared_mem_per_block_dynamic","gpu__time_duration.sum","sm__throughput.avg.pct_of_peak_sustained_elapsed","dram__throughput.avg.pct_of_peak_sustained_elapsed","sm__warps_active.avg.per_cycle_active"'
	echo '"0","51","app","h","softmax_warp_forward","1","13","1024","128","48","0","0","6,000","40.00","60.00","36"'
	echo '"1","51","app","h","void at::native::(anonymous namespace)::distribution_elementwise_grid_stride_kernel<float, 4>(long)","1","7","528","256","40","0","0","20,000","50.00","50.00","30"'
} >"$tmp.d/ncu-anon.csv"
expect 0 "ncu: 2 of 7 kernels matched to a launch by name and order (0 to the last launch of their name); 0 launches unused" \
	"$gputbs" import nsys --ncu "$tmp.d/ncu-anon.csv" "$h100"
for f in bad-ncu/*.csv; do
	want=$(grep -F "gputbs: $f:" bad-ncu/expected-errors)
	rm -f "$tmp.d/bad.gtbs"
	case $f in
	bad-ncu/match-*) set -- nsys --ncu "$f" good/nsys2023.csv ;;
	*) set -- ncu "$f" ;;
	esac
	"$gputbs" import -o "$tmp.d/bad.gtbs" "$@" >"$out" 2>&1
	rc=$?
	if [ -z "$want" ]; then
		fail "$f: no line in bad-ncu/expected-errors"
	elif [ "$rc" -ne 2 ] || [ "$(cat "$out")" != "$want" ]; then
		fail "import $*: status $rc, not 2 and '$want'"
		sed 's/^/  | /' "$out"
	elif [ -e "$tmp.d/bad.gtbs" ]; then
		fail "import $*: wrote its output"
	else
		ok
	fi
done
[ "$(ls bad-ncu/*.csv | wc -l)" -eq "$(wc -l <bad-ncu/expected-errors)" ] && ok ||
	fail "bad-ncu/expected-errors: not one line per bad-ncu/*.csv"
not_regular "$tmp.d" "$gputbs" import ncu

# --- usage -----------------------------------------------------------------
expect 2 "unknown format 'nvprof' (nsys or ncu)" "$gputbs" import nvprof good/nsys2023.csv
expect 2 "missing format (nsys or ncu)" "$gputbs" import
expect 2 "--device: unknown device preset 'k80'" \
	"$gputbs" import nsys --device k80 good/nsys2023.csv
expect 2 "--ncu is for an nsys report" \
	"$gputbs" import ncu --ncu good/ncu-raw.csv good/ncu-raw.csv
expect 2 "expected one FILE.csv" "$gputbs" import nsys
expect 2 "--device-clock-khz: '0' is not 1..100000000" \
	"$gputbs" import nsys --device-clock-khz 0 good/nsys2023.csv
expect 2 "--program: 'a b' is not 1 to 63 printable characters" \
	"$gputbs" import nsys --program 'a b' good/nsys2023.csv
expect 2 "gputbs: nonexistent.csv: No such file or directory" \
	"$gputbs" import nsys nonexistent.csv

summary import
