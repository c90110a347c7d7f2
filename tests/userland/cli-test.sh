#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# cli-test.sh - host tests of the gputbs CLI that need no device: usage
# errors, and every workload file error of Documentation/workloads.rst.
#
# Usage: cli-test.sh PATH-TO-gputbs
#
# Each tests/userland/bad/*.gtbs starts with "# expect: WHERE: MESSAGE";
# WHERE is a line of that file, or FILE:LINE of a file next to it.  The
# CLI must exit with status 2 and print "gputbs: FILE:LINE: MESSAGE...".
# The files in good/ must parse: the CLI then fails to open the (missing)
# device with status 1.  The last line is "cli: N passed, M failed".
set -u

gputbs=${1:?usage: cli-test.sh PATH-TO-gputbs}
here=$(dirname "$0")
nodev=/nonexistent/gputbs
out=${TMPDIR:-/tmp}/gputbs-cli-test.$$

trap 'rm -f "$out"' EXIT

# shellcheck source=tests/userland/lib.sh
. "$(dirname "$0")/lib.sh"

expect 2 "missing command" "$gputbs"
expect 2 "unknown command 'frob'" "$gputbs" frob
expect 0 "Usage: gputbs [--help]" "$gputbs" --help
expect 0 "Usage: gputbs info" "$gputbs" info --help
expect 0 "Usage: gputbs run" "$gputbs" run --help
expect 0 "Usage: gputbs calibrate" "$gputbs" calibrate --help
expect 2 "no workload file given" "$gputbs" run
expect 2 "unrecognized option '--frob'" "$gputbs" run --frob x.gtbs
expect 2 "unknown format 'xml'" "$gputbs" info --format xml
expect 2 "bad timeout 'soon'" "$gputbs" run --timeout soon x.gtbs
expect 2 "bad tolerance '0'" "$gputbs" calibrate --tolerance 0 x.gtbs
expect 2 "unexpected argument 'extra'" "$gputbs" info extra
expect 0 "--policy LIST" "$gputbs" run --help
expect 0 "--trace FILE" "$gputbs" run --help
one=$here/../../workloads/ercbench/pairs/AES-d+JPEG-d.gtbs
for list in "" "," "fifo," ",fifo" "fifo,,sjf" "fifo,fifo" "FIFO" \
	"fi fo" "fifo;sjf" "a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p,q" \
	"a-very-long-policy-name-of-32-chr"; do
	expect 2 "bad policy list '$list'" \
		"$gputbs" run --device $nodev --policy "$list" "$one"
done
expect 2 "unrecognized option '--policy'" \
	"$gputbs" calibrate --device $nodev --policy fifo "$one"
expect 2 "unrecognized option '--trace'" \
	"$gputbs" calibrate --device $nodev --trace x.trace "$one"
expect 2 "bad trace file ''" "$gputbs" run --device $nodev --trace "" "$one"
expect 2 "--trace records one workload under one policy, not 3 workloads under 1 policy" \
	"$gputbs" run --device $nodev --trace x.trace "$here/good/all.gtbs"
expect 2 "--trace records one workload under one policy, not 1 workload under 2 policies" \
	"$gputbs" run --device $nodev --trace x.trace --policy fifo,srtf "$one"
expect 2 "--trace records one workload under one policy, not 2 workloads under 3 policies" \
	"$gputbs" run --device $nodev -T x.trace -P fifo,srtf,sjf "$one" \
	"$here/../../workloads/ercbench/pairs/SAD+AES-e.gtbs"
expect 1 "(is the module loaded?)" \
	"$gputbs" run --device $nodev --trace x.trace --policy sjf "$one"
expect 1 "(is the module loaded?)" \
	"$gputbs" run --device $nodev --policy fifo,srtf,sjf \
	--list "$here/../../workloads/ercbench/demo.list"
expect 2 "missing.gtbs: No such file or directory" \
	"$gputbs" run --device $nodev "$here/missing.gtbs"
expect 1 "gputbs: $nodev: No such file or directory (is the module loaded?)" \
	"$gputbs" info --device $nodev

for f in "$here"/bad/*.gtbs; do
	where=$(sed -n '1s/^# expect: //p' "$f")
	case $where in
	[0-9]*) want="gputbs: $f:$where" ;;
	*) want="gputbs: $(dirname "$f")/$where" ;;
	esac
	expect 2 "$want" "$gputbs" run --device $nodev "$f"
done

for f in "$here"/good/*.gtbs; do
	expect 1 "(is the module loaded?)" "$gputbs" run --device $nodev "$f"
done
expect 1 "(is the module loaded?)" "$gputbs" run --device $nodev \
	"$here"/../../workloads/ercbench/pairs/*.gtbs
expect 1 "(is the module loaded?)" "$gputbs" run --device $nodev \
	--list "$here/../../workloads/ercbench/demo.list"
expect 1 "(is the module loaded?)" "$gputbs" calibrate --device $nodev \
	"$here/../../workloads/ercbench/kernels.gtbs"
kernels=$here/../../workloads/ercbench/kernels.gtbs
expect 2 "kernels.gtbs:$(wc -l < "$kernels"): no workload defined" \
	"$gputbs" run --device $nodev "$kernels"

summary cli
