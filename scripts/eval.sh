#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/eval.sh - the paper's evaluation in the kernel, run by `make eval`.
#
# 1. On the host, the simulator's sweep (gputbs-sim eval) with the module's
#    SJF key, Equation 1 of the work model (--sjf-key model; by default
#    the simulator's oracle knows each grid's measured alone runtime,
#    which the module cannot be told): $BUILD/eval/sim.json.
# 2. In the QEMU guest, the same sweep on the module (gputbs eval): every
#    program alone, then the 56 ERCBench pairs x 3 offsets x 5 policies,
#    each pair as two processes whose first grids arrive at exactly their
#    cycles.  The module runs at 1 ns per cycle (time_scale_ps=1000): the
#    emulated runs take milliseconds of wall time, most of it in the
#    module's event processing under TCG.  Progress is shown on the
#    console; the JSON comes back gzip'ed and base64'ed between two
#    markers: $BUILD/eval/kernel.json.
# 3. On the host, the module's tables rendered by gputbs-sim report (the
#    simulator's own output code): $BUILD/eval/kernel.txt, its figures in
#    $BUILD/eval/plots/, and the comparison of every geomean with the
#    simulator's (scripts/eval-compare.py): $BUILD/eval/compare.txt.
#
# Exit status non-zero if a step fails or a geomean STP or ANTT of the
# module differs from the simulator's by more than 5%.
#
# Environment: BUILD (default build); GPUTBS_EVAL_VM_ARGS, more options for
# tools/vm/gputbs-vm (e.g. --kvm); GPUTBS_EVAL_ARGS, more options for both
# sweeps (e.g. "--offsets 0 --policies fifo,srtf" for a short run).
set -euo pipefail

cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
out=$BUILD/eval
sim=$BUILD/bin/gputbs-sim
timeline=RayTracing+JPEG-d@0
begin='===GPUTBS-EVAL-JSON-BEGIN==='
end='===GPUTBS-EVAL-JSON-END==='
# shellcheck disable=SC2206 # word splitting wanted
vm_args=(${GPUTBS_EVAL_VM_ARGS:-})
# shellcheck disable=SC2206
eval_args=(${GPUTBS_EVAL_ARGS:-})

say() { printf 'eval: %s\n' "$*"; }
t0=$(date +%s)
mkdir -p "$out"
rm -f "$out"/{sim,kernel}.json "$out"/{kernel,compare}.txt
rm -rf "$out/plots"

say "the simulator: gputbs-sim eval --sjf-key model ${eval_args[*]} (host)"
"$sim" eval --format json --sjf-key model --timeline "$timeline" \
	${eval_args[@]+"${eval_args[@]}"} >"$out/sim.json"

say "the module: gputbs eval ${eval_args[*]} (QEMU guest, 1 ns per cycle)"
guest="gputbs eval --format json --timeline $timeline ${eval_args[*]} >/tmp/kernel.json
rc=\$?
if [ \$rc = 0 ]; then
	dmesg -n 1
	echo $begin
	gzip -c /tmp/kernel.json | base64
	echo $end
fi
exit \$rc"
# mawk reads pipes in big blocks unless told otherwise; gawk needs no flag
awk_stream=(awk)
if awk -W version 2>/dev/null | head -n 1 | grep -qi mawk; then
	awk_stream=(awk -W interactive)
fi
# the console without the base64 of the JSON, which the log keeps
# shellcheck disable=SC2016 # awk programs
tools/vm/gputbs-vm --quiet-boot --timeout 1200 \
	--modparam gputbs.time_scale_ps=1000 --log "$out/vm.log" \
	${vm_args[@]+"${vm_args[@]}"} -- "$guest" |
	"${awk_stream[@]}" -v b="$begin" -v e="$end" '
		$0 == b { hide = 1; n = 0; next }
		$0 == e { hide = 0; printf "(the JSON: %d lines of gzip and base64)\n", n; next }
		hide { n++; next }
		{ print; fflush() }'
awk -v b="$begin" -v e="$end" '
	{ sub(/\r+$/, "") }
	$0 == e { on = 0 }
	on { print }
	$0 == b { on = 1 }' "$out/vm.log" | base64 -d | gunzip >"$out/kernel.json"

"$sim" report --results "$out/kernel.json" --plot "$out/plots" >"$out/kernel.txt"
echo
say "the module's geomeans ($out/kernel.txt; figures in $out/plots/):"
sed -n '/^geomeans over/,$p' "$out/kernel.txt"
echo
rc=0
python3 scripts/eval-compare.py "$out/kernel.json" "$out/sim.json" |
	tee "$out/compare.txt" || rc=$?
t=$(($(date +%s) - t0))
say "$(printf 'done in %d:%02d' $((t / 60)) $((t % 60))); $out/: sim.json, kernel.json, kernel.txt, compare.txt, plots/, vm.log"
exit "$rc"
