#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# plugin-test.sh - host tests of policy plug-ins in gputbs-sim: the sample
# policies (samples/policies/, make samples-so) loaded with
# --policy-plugin, --param, and the errors of both
# (Documentation/scheduling.rst, "Writing a policy").
#
# Usage: plugin-test.sh PATH-TO-gputbs-sim SAMPLES-DIR [PATH-TO-gputbs]
#
#   SAMPLES-DIR holds gtbs_*.so, one per samples/policies/gtbs_*.c (at
#   least gtbs_wfair.so and gtbs_paella.so), and test/*.so (the broken
#   plug-ins of tests/userland/plugins/), as make samples-so builds them
#   in build/samples.
#
#   every sample  each gtbs_*.so found (a new sample is tested without
#                editing this file): it loads and registers one policy,
#                whose name the simulator reports; it runs an ERCBench
#                pair and the one-SM workload below to completion with
#                sane metrics; its ERCBench sweep (JSON) covers the 56
#                pairs, the same with --jobs 1 and 2; --trace records
#                every block under it
#   hand-worked  one SM, Long (4 blocks of 1000 cycles) then Short (2 of
#                500) 50 cycles later, one block at a time: every
#                turnaround under wfair and paella, with and without
#                their parameters, worked out below
#   run, eval    both plug-ins on an ERCBench pair and the whole ERCBench
#                sweep: they complete, every registered policy is swept,
#                metrics are sane, --jobs does not change the output,
#                option order does not matter
#   pick         pick=scan (the plain scan) and the default trees give
#                the same eval JSON
#   --param      accepted, applied, and refused (unknown name, value out
#                of range, unknown value name, not NAME=VALUE, a
#                plug-in's parameter without the plug-in)
#   errors       FILE: reason and status 2 for a file that is missing,
#                not ELF, has no gtbs_plugin_policy, has ops the core
#                refuses, needs a symbol the simulator does not export,
#                or a name already registered (a built-in's, the same
#                plug-in twice)
#
# The last line is "plugin: N passed, M failed".
set -u

usage="usage: plugin-test.sh PATH-TO-gputbs-sim SAMPLES-DIR [PATH-TO-gputbs]"
sim=$(realpath "${1:?$usage}") || exit 1
samples=$(realpath "${2:?$usage}") || exit 1
gputbs=${3:-}
root=$(cd "$(dirname "$0")/../.." && pwd)
erc=$root/workloads/ercbench
pair=$erc/pairs/JPEG-d+JPEG-e.gtbs
tmp=${TMPDIR:-/tmp}/gputbs-plugin-test.$$
wfair=$samples/gtbs_wfair.so
paella=$samples/gtbs_paella.so
both="--policy-plugin $wfair --policy-plugin $paella"

trap 'rm -rf "$tmp" "$tmp.d"' EXIT
mkdir -p "$tmp.d" || exit 1

out=$tmp
# shellcheck source=tests/userland/lib.sh
. "$(dirname "$0")/lib.sh"

for f in "$wfair" "$paella" "$samples/test/bad_ops.so" \
	"$samples/test/dup_fifo.so" "$samples/test/no_symbol.so" \
	"$samples/test/undefined.so"; do
	if [ ! -f "$f" ]; then
		fail "$f missing (make samples-so)"
		summary plugin
		exit 1
	fi
done

# --- hand-worked: one SM, one block at a time --------------------------------
# Long: 4 blocks of 1000 cycles from cycle 0; Short: 2 blocks of 500 from
# cycle 50; 48 KiB of shared memory each, so one block fits on the SM.
# Alone: Long 4000, Short 1000.  Long's first block runs 0..1000, then:
#
#   fifo      Long to 4000, Short 4000..5000:         Long 4000, Short 4950
#   paella    SRPT at 1000: Short (1000 left) before Long (3000 left):
#             Short 1000..2000, Long to 5000:          Long 5000, Short 1950
#   paella, deficit_threshold_cycles=100: the longest wait first:
#             1000 Long (waited 1000 > Short's 950), 2000 Short (1950 >
#             1000), 2500 Long (1500 > 500), 3500 Short (1500 > 1000),
#             4000 Long:                               Long 5000, Short 3950
#   wfair     Short placed at vruntime 0 (min_vruntime); at 1000 Long has
#             run 1000 SM-cycles: Short twice, to 2000: Long 5000, Short 1950
#   wfair, min_granularity_cycles=1000: at 1000 Long (1000 ahead) is
#             within the granularity and keeps the SM, at 2000 (2000
#             ahead) it is not: Short 2000..3000:      Long 5000, Short 2950
#   wfair, weight_normal=1..2^20: the same (both grids normal)
sed -n '/^program/,$p' "$root/tests/userland/sim/kernels.gtbs" \
	>"$tmp.d/kernels.gtbs"
cat >"$tmp.d/lf.gtbs" <<EOF
include kernels.gtbs
workload Long+Short
run Long at=0
run Short at=50
EOF

# turnarounds POLICY [OPTIONS]: "LONG SHORT" shared cycles
turnarounds() {
	tp=$1
	shift
	"$sim" run --sms 1 --format json "$@" --policy "$tp" "$tmp.d/lf.gtbs" \
		>"$tmp.d/lf.json" 2>"$tmp.d/lf.err" || { cat "$tmp.d/lf.err"; return; }
	python3 - "$tmp.d/lf.json" <<'EOF'
import json, sys
w = json.load(open(sys.argv[1]))["workloads"][0]
print(" ".join(str(r["shared_cycles"]) for r in w["runs"]))
EOF
}

# hand POLICY "LONG SHORT" [OPTIONS]
hand() {
	hp=$1 want=$2
	shift 2
	got=$(turnarounds "$hp" "$@")
	if [ "$got" = "$want" ]; then
		ok
	else
		fail "run $hp $*: turnarounds (Long Short) '$got', not '$want'"
	fi
}

hand fifo "4000 4950" $both
# las (gtbs_las.c): at 1000 Long has attained 1000 block-cycles, Short
# none: Short 1000..1500, then still less than Long's: 1500..2000; Long
# to 5000.  The same counting plain cycles (one block per SM: R = 1).
if [ -f "$samples/gtbs_las.so" ]; then
	hand las "5000 1950" --policy-plugin "$samples/gtbs_las.so"
	hand las "5000 1950" --policy-plugin "$samples/gtbs_las.so" \
		--param service=block_cycles
fi
hand paella "5000 1950" $both
hand paella "5000 1950" $both --param deficit_threshold_cycles=0
hand paella "5000 3950" $both --param deficit_threshold_cycles=100
hand paella "5000 1950" $both --param estimate=predict
hand wfair "5000 1950" $both
hand wfair "5000 2950" $both --param min_granularity_cycles=1000
hand wfair "5000 1950" $both --param weight_normal=1
hand wfair "5000 1950" $both --param weight_normal=1048576

# an eval's JSON: policies exactly $2 (comma-separated), each with all 56
# pairs and sane metrics
sane_eval() {
	python3 - "$1" "$2" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["policies"] == sys.argv[2].split(","), d["policies"]
for o in d["offsets"]:
    for p in o["policies"]:
        assert len(p["pairs"]) == 56, (p["policy"], len(p["pairs"]))
        for pr in p["pairs"]:
            m = pr["metrics"] if "metrics" in pr else pr
            assert 0 < m["stp"] <= 2.000001 and m["antt"] >= 0.99 and \
                0 < m["strictf"] <= 1, pr
EOF
}

# the JSON of every workload: sane metrics, every block done
sane_run() {
	python3 - "$1" "$2" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
want = sys.argv[2].split(",")
pols = [p["policy"] for p in d["policies"]]
assert pols == want, "policies %s, not %s" % (pols, want)
for w in (w for p in d["policies"] for w in p["workloads"]):
    assert 0 < w["stp"] <= len(w["runs"]) + 1e-6, w
    assert w["antt"] >= 0.99, w
    assert 0 < w["strictf"] <= 1, w
    for r in w["runs"]:
        assert r["shared_cycles"] >= r["alone_cycles"] * 0.9, r
        for g in r["grids"]:
            assert g["blocks_done"] == g["blocks"], g
EOF
}

# --- every sample: found by wildcard ------------------------------------------
# the policy a plug-in registers: the last name the simulator lists
plugin_policy() {
	"$sim" run --policy-plugin "$1" --policy '?' "$pair" 2>&1 |
		sed -n 's/.*(registered: \(.*\))$/\1/p' | awk '{ print $NF }'
}

nsamples=0
for so in "$samples"/gtbs_*.so; do
	[ -f "$so" ] || continue
	nsamples=$((nsamples + 1))
	name=$(basename "$so")
	pol=$(plugin_policy "$so")
	if [ -z "$pol" ] || [ "$pol" = ljf ] || [ "$pol" = fair ]; then
		fail "$name: registers no policy of its own ('$pol')"
		continue
	fi
	ok
	if "$sim" run --format json --policy-plugin "$so" --policy "$pol,fifo" \
		"$pair" >"$tmp.d/s.json" 2>"$tmp.d/s.err" &&
		sane_run "$tmp.d/s.json" "$pol,fifo" >"$tmp.d/sane" 2>&1; then
		ok
	else
		fail "$name: run --policy $pol,fifo $pair"
		cat "$tmp.d/s.err" "$tmp.d/sane" | sed 's/^/  | /'
	fi
	# one SM, one block at a time: both programs complete
	got=$(turnarounds "$pol" --policy-plugin "$so")
	case $got in
	[0-9]*" "[0-9]*) ok ;;
	*) fail "$name: run --sms 1 $tmp.d/lf.gtbs: '$got'" ;;
	esac
	if "$sim" eval --format json --offsets 0 --policies "$pol" --jobs 1 \
		--policy-plugin "$so" >"$tmp.d/s1.json" 2>"$tmp.d/s.err" &&
		"$sim" eval --format json --offsets 0 --policies "$pol" \
		--jobs 2 --policy-plugin "$so" >"$tmp.d/s2.json" 2>&1 &&
		cmp -s "$tmp.d/s1.json" "$tmp.d/s2.json" &&
		sane_eval "$tmp.d/s1.json" "$pol"
	then
		ok
	else
		fail "$name: eval --policies $pol (JSON, --jobs 1 and 2)"
		sed 's/^/  | /' "$tmp.d/s.err" | tail -n 5
	fi
	"$sim" run --policy-plugin "$so" --policy "$pol" \
		--trace "$tmp.d/s.trace" "$pair" >/dev/null 2>&1
	if [ "$(grep -c '^block ' "$tmp.d/s.trace" 2>/dev/null)" = 1024 ]; then
		ok
	else
		fail "$name: run --trace under $pol: not 1024 blocks"
	fi
	echo "plugin: $name registers $pol"
done
if [ "$nsamples" -lt 3 ]; then
	fail "$samples: $nsamples gtbs_*.so, not at least 3 (make samples-so)"
fi

# --- run: both plug-ins on an ERCBench pair ---------------------------------

if "$sim" run --format json $both --policy wfair,paella,fifo "$pair" \
	>"$tmp.d/pair.json" 2>"$tmp.d/pair.err" &&
	sane_run "$tmp.d/pair.json" wfair,paella,fifo >"$tmp.d/sane" 2>&1; then
	ok
else
	fail "run --policy wfair,paella,fifo $pair"
	cat "$tmp.d/pair.err" "$tmp.d/sane" | sed 's/^/  | /'
fi
# option order: --policy before --policy-plugin, --param before both
if "$sim" run --policy paella,wfair --param estimate=predict $both \
	--param min_granularity_cycles=5000 "$pair" >"$tmp.d/order" 2>&1 &&
	grep -q "policy paella," "$tmp.d/order" &&
	grep -q "policy wfair," "$tmp.d/order"; then
	ok
else
	fail "run: --policy and --param before --policy-plugin"
	sed 's/^/  | /' "$tmp.d/order"
fi
# wfair shares the SMs between two equal grids: fairer than fifo
if python3 - "$tmp.d/pair.json" <<'EOF'
import json, sys
w = {p["policy"]: p["workloads"][0]
     for p in json.load(open(sys.argv[1]))["policies"]}
assert w["wfair"]["strictf"] > 0.9, w["wfair"]["strictf"]
assert w["wfair"]["strictf"] > w["fifo"]["strictf"] + 0.2
EOF
then
	ok
else
	fail "run: wfair is not fairer than fifo on $pair"
fi
# --trace records a plug-in's schedule like a built-in's
expect 0 "policy wfair" "$sim" run $both --policy wfair \
	--trace "$tmp.d/t.trace" "$pair"
if [ "$(grep -c '^block ' "$tmp.d/t.trace" 2>/dev/null)" = 1024 ]; then
	ok
else
	fail "run --trace under wfair: not 1024 blocks"
fi

# pick=scan, the plain scan the trees replaced (samples/policies/README):
# the same schedules, so the same JSON, with paella's deficit threshold
# low enough to matter and a wfair granularity
for extra in "" "--param deficit_threshold_cycles=20000 --param min_granularity_cycles=5000"; do
	# shellcheck disable=SC2086
	if "$sim" eval --format json --policies paella,wfair --offsets 0,25 \
		--jobs 1 $both $extra >"$tmp.d/idx.json" 2>&1 &&
		"$sim" eval --format json --policies paella,wfair --offsets 0,25 \
		--jobs 1 $both $extra --param pick=scan >"$tmp.d/scan.json" 2>&1 &&
		cmp -s "$tmp.d/idx.json" "$tmp.d/scan.json"; then
		ok
	else
		fail "eval $extra: pick=indexed and pick=scan differ"
	fi
done

# --- eval: the whole sweep with both plug-ins ---------------------------------
# without --policies, every registered policy: the built-ins, then the
# plug-ins, in the geomean table at each offset
nb=$("$sim" eval --help | sed -n 's/.*registry.s order: \([a-z0-9_,-]*\)).*/\1/p' |
	tr ',' '\n' | grep -c .)
if ! "$sim" eval --workloads "$erc" --offsets 0,25 --jobs 1 $both \
	>"$tmp.d/e1" 2>&1; then
	fail "eval with both plug-ins exited non-zero"
	tail -n 5 "$tmp.d/e1" | sed 's/^/  | /'
elif [ "$nb" -lt 7 ]; then
	fail "eval --help lists $nb built-ins"
elif [ "$(sed -n '/^geomeans over/,/^policies from best/p' "$tmp.d/e1" |
	grep -c '^  \(0 \|25%\)  ')" -ne $((2 * (nb + 2))) ]; then
	fail "eval: not $nb built-ins + wfair + paella at 2 offsets"
	sed -n '/^geomeans over/,/^policies/p' "$tmp.d/e1" | sed 's/^/  | /'
elif ! sed -n '/^geomeans over/,/^policies from best/p' "$tmp.d/e1" |
	tail -n 3 | grep -q '^  25%     paella '; then
	fail "eval: the plug-ins are not swept after the built-ins"
	sed -n '/^geomeans over/,/^policies/p' "$tmp.d/e1" | sed 's/^/  | /'
else
	ok
fi
# the same with --jobs 2, byte for byte
"$sim" eval --workloads "$erc" --offsets 0,25 --jobs 2 $both >"$tmp.d/e2" 2>&1
if cmp -s "$tmp.d/e1" "$tmp.d/e2"; then
	ok
else
	fail "eval with plug-ins: --jobs 1 and --jobs 2 differ"
fi
# JSON: every pair of every policy, metrics sane; plug-ins named
if "$sim" eval --workloads "$erc" --offsets 0 --format json \
	--policies wfair,fifo,paella $both >"$tmp.d/e.json" 2>"$tmp.d/e.err" &&
	sane_eval "$tmp.d/e.json" wfair,fifo,paella
then
	ok
else
	fail "eval --format json with the plug-ins"
	sed 's/^/  | /' "$tmp.d/e.err" | tail -n 5
fi
# option order in eval: --policies and --param before the plug-ins
expect 0 "paella" "$sim" eval --workloads "$erc" --offsets 0 \
	--policies wfair,paella --param deficit_threshold_cycles=0 \
	--policy-plugin "$paella" --policy-plugin "$wfair"
# eval --scenario: the plug-ins join every policy of the sweep (all but
# fair, which --policies must name), one row each
"$sim" eval --sms 1 --scenario "$root/tests/userland/scenario/tiny.gtbs" \
	--policy-plugin "$wfair" --policy-plugin "$paella" >"$tmp.d/scn" 2>&1
got=$(awk '/^  [a-z]/ && $2 ~ /^[0-9]/ { print $1 }' "$tmp.d/scn" | tr '\n' ' ')
if [ "$got" = "fifo mpmax srtf srtf-adaptive srtf-oracle sjf ljf wfair paella " ]; then
	ok
else
	fail "eval --scenario with the plug-ins: rows '$got'"
	sed 's/^/  | /' "$tmp.d/scn"
fi

# --- --param: applied, accepted, refused --------------------------------------
# paella's threshold changes its schedule of the ERCBench pairs
"$sim" eval --workloads "$erc" --offsets 0 --policies paella \
	--policy-plugin "$paella" >"$tmp.d/p0" 2>&1
"$sim" eval --workloads "$erc" --offsets 0 --policies paella \
	--policy-plugin "$paella" --param deficit_threshold_cycles=20000 \
	>"$tmp.d/p1" 2>&1
if grep -q '^  0       paella ' "$tmp.d/p0" && ! cmp -s "$tmp.d/p0" "$tmp.d/p1"; then
	ok
else
	fail "eval --param deficit_threshold_cycles=20000 changed nothing"
fi
# a built-in's parameter with the plug-ins loaded, and by value name
expect 0 "policy srtf-adaptive" "$sim" run $both --param share_mode=sm \
	--policy srtf-adaptive,wfair "$pair"
for cmd in run eval; do
	if [ $cmd = run ]; then last=$pair; else last="--offsets 0"; fi
	# shellcheck disable=SC2086
	expect 2 "--param: no registered policy has a parameter 'nosuch'" \
		"$sim" $cmd $both --param nosuch=1 $last
	# shellcheck disable=SC2086
	expect 2 "--param weight_normal: '0' is not valid for wfair (1..1048576)" \
		"$sim" $cmd $both --param weight_normal=0 $last
	# shellcheck disable=SC2086
	expect 2 "--param estimate: 'bogus' is not valid for paella (0..1, or a name)" \
		"$sim" $cmd $both --param estimate=bogus $last
	# shellcheck disable=SC2086
	expect 2 "--param: 'estimate' is not NAME=VALUE" \
		"$sim" $cmd $both --param estimate $last
	# a plug-in's parameter, the plug-in not loaded
	# shellcheck disable=SC2086
	expect 2 "--param: no registered policy has a parameter 'estimate'" \
		"$sim" $cmd --policy-plugin "$wfair" --param estimate=predict $last
	# a plug-in's policy, the plug-in not loaded
	if [ $cmd = run ]; then po=--policy; else po=--policies; fi
	# shellcheck disable=SC2086
	expect 2 "$po: unknown policy 'paella'" \
		"$sim" $cmd --policy-plugin "$wfair" $po wfair,paella $last

	# --- errors: FILE: reason, status 2 -----------------------------------
	printf 'not a shared object\n' >"$tmp.d/text.so"
	# shellcheck disable=SC2086
	expect 2 "gputbs-sim: $tmp.d/text.so: " \
		"$sim" $cmd --policy-plugin "$tmp.d/text.so" $last
	# shellcheck disable=SC2086
	expect 2 "gputbs-sim: $tmp.d/none.so: cannot open shared object file" \
		"$sim" $cmd --policy-plugin "$tmp.d/none.so" $last
	# shellcheck disable=SC2086
	expect 2 "gputbs-sim: $samples/test/no_symbol.so: no gtbs_plugin_policy symbol" \
		"$sim" $cmd --policy-plugin "$samples/test/no_symbol.so" $last
	# shellcheck disable=SC2086
	expect 2 "gputbs-sim: $samples/test/bad_ops.so: policy 'bad-ops' refused: pick_grid is required" \
		"$sim" $cmd --policy-plugin "$samples/test/bad_ops.so" $last
	# shellcheck disable=SC2086
	expect 2 "gputbs-sim: $samples/test/undefined.so: undefined symbol: gtbs_no_such_function" \
		"$sim" $cmd --policy-plugin "$samples/test/undefined.so" $last
	# shellcheck disable=SC2086
	expect 2 "gputbs-sim: $samples/test/dup_fifo.so: policy 'fifo' refused: a policy of that name is registered" \
		"$sim" $cmd --policy-plugin "$samples/test/dup_fifo.so" $last
	# the same plug-in twice, by the same file and by a copy
	cp "$wfair" "$tmp.d/copy.so"
	# shellcheck disable=SC2086
	expect 2 "gputbs-sim: $wfair: policy 'wfair' refused: a policy of that name is registered" \
		"$sim" $cmd --policy-plugin "$wfair" --policy-plugin "$wfair" $last
	# shellcheck disable=SC2086
	expect 2 "gputbs-sim: $tmp.d/copy.so: policy 'wfair' refused: a policy of that name is registered" \
		"$sim" $cmd --policy-plugin "$wfair" --policy-plugin "$tmp.d/copy.so" $last
	# shellcheck disable=SC2086
	expect 2 "--policy-plugin: empty file name" \
		"$sim" $cmd --policy-plugin "" $last
done
# a file in the current directory by its bare name
if (cd "$tmp.d" && "$sim" run --policy-plugin copy.so --policy wfair "$pair") \
	>"$tmp.d/bare" 2>&1 && grep -q "policy wfair," "$tmp.d/bare"; then
	ok
else
	fail "run --policy-plugin copy.so (a bare name in the current directory)"
	sed 's/^/  | /' "$tmp.d/bare"
fi
# gputbs eval (the module's sweep) takes neither option
if [ -n "$gputbs" ]; then
	expect 2 "unrecognized option '--policy-plugin' (the module's policies are modules" \
		"$gputbs" eval --policy-plugin "$wfair"
	expect 2 "unrecognized option '--param' (the module's policies are modules" \
		"$gputbs" eval --param estimate=predict
fi

summary plugin
