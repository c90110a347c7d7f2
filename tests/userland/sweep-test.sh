#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# sweep-test.sh - host tests of gputbs-sim sweep (Documentation/
# evaluation.rst, "Serving at load").
#
# Usage: sweep-test.sh PATH-TO-gputbs-sim
#
#   hand-worked  tests/userland/sweep/one-sm.gtbs on one SM: every
#                point's requests, p99, SLO attainment, p99_vs_alone and
#                throughput_vs_alone worked out below, and the goodput
#   tokens       tests/userland/sweep/tokens.gtbs: TTFT and TPOT per point
#                and the goodput by slo-ttft= and slo-tpot=, by hand
#   shards       --shard I/N merged with --merge gives the unsharded JSON
#                and text byte for byte, in any order; a Slurm array
#                task's SLURM_ARRAY_TASK_* pick its shard; bad merges
#   scenario     the issue's command on resnet50-infer+train (shortened
#                with --duration): goodput, p99_vs_alone,
#                throughput_vs_alone, per load
#   usage        bad options: status 2 and a message
#   plot         --plot writes the figures (skipped without gnuplot)
#
# Nothing here measures time.  The last line is "sweep: N passed, M failed".
set -u

sim=${1:?usage: sweep-test.sh PATH-TO-gputbs-sim}
root=$(cd "$(dirname "$0")/../.." && pwd)
here=$root/tests/userland/sweep
tmp=${TMPDIR:-/tmp}/gputbs-sweep-test.$$

trap 'rm -rf "$tmp" "$tmp.d"' EXIT
mkdir -p "$tmp.d" || exit 1

out=$tmp
# shellcheck source=tests/userland/lib.sh
. "$(dirname "$0")/lib.sh"

# JSON query: python3 EXPR over the document d; prints the result
jq_py() {
	python3 -c "import json, sys
d = json.load(open(sys.argv[1]))
print($2)" "$1"
}

# --- hand-worked: one SM, requests one at a time ------------------------
# The stream's service interval alone is 1000 cycles (service_cycles).
# At load L requests arrive every 1000 / L cycles, ceil(8000 x L / 1000)
# of them in --duration 8000; request k ends at max(arrival, end of k-1)
# + 1000.
#   L 0.5:  4 requests, every 2000: latency 1000 each; p99 1000.
#   L 1.0:  8, every 1000: 1000 each.
#   L 1.25: 10, every 800: 1000 + 200 k, p99 (10th of 10) 2800, SLO met.
#   L 2.0:  16, every 500: 1000 + 500 k, p99 8500; within 3000: k <= 4,
#           5 of 16.
# Alone at the same load is the same (it is alone): p99_vs_alone 1.
# goodput: 1.25, the highest load with p99 <= 3000 at it and below it.
#
# stream+training under fifo at load 0.5: req arrives at 0, 2000, 4000,
# 6000; the training loop covers their span, 4 / rate = 8000 cycles, at
# 4000 a step: 2 steps, the first arriving at 0 with req 0.
#   req0 0-1000; step0 1000-5000; req1 (arrived 2000) 5000-6000;
#   req2 (4000) 6000-7000; req3 (6000) 7000-8000; step1 (arrived 5000,
#   after the three in FIFO order) 8000-12000.
#   req latencies 1000 4000 3000 2000: p99 4000, 3 of 4 in the SLO,
#   p99_vs_alone 4.0; steps 5000 and 7000: p99 7000 over 4000 alone, 1.75;
#   2 steps in 12000 cycles against 8000 alone: throughput_vs_alone 2/3.
# The SLO is missed at the lowest load: no goodput.
"$sim" sweep --device gtx480 --sms 1 --duration 8000 -P fifo \
	--load 2,0.5,1.25,1.0 --format json "$here/one-sm.gtbs" \
	>"$tmp.d/hand.json" 2>"$tmp.d/hand.err"
rc=$?
if [ $rc -ne 0 ]; then
	fail "sweep one-sm.gtbs exited $rc"
	sed 's/^/  | /' "$tmp.d/hand.err"
fi
got=$(jq_py "$tmp.d/hand.json" '" ".join("%s:%d:%d:%d" % (p["load"], r["shared"]["requests"], r["shared"]["p99_cycles"], r["shared"]["slo_met"]) for p in d["points"] if p["workload"] == "alone-stream" for r in p["runs"])')
want="0.5:4:1000:4 1.0:8:1000:8 1.25:10:2800:10 2.0:16:8500:5"
if [ "$got" = "$want" ]; then ok; else
	fail "one-sm alone-stream: got '$got', want '$want'"
fi
got=$(jq_py "$tmp.d/hand.json" '" ".join("%s" % r["p99_vs_alone"] for p in d["points"] if p["workload"] == "alone-stream" for r in p["runs"])')
if [ "$got" = "1.0 1.0 1.0 1.0" ]; then ok; else
	fail "one-sm alone-stream p99_vs_alone: got '$got'"
fi
got=$(jq_py "$tmp.d/hand.json" '[r["service_cycles"] for w in d["workloads"] for r in w["runs"]]')
if [ "$got" = "[1000, 1000, 4000]" ]; then ok; else
	fail "one-sm service_cycles: got '$got', want [1000, 1000, 4000]"
fi
got=$(jq_py "$tmp.d/hand.json" '" ".join("%s/%s/%s/%s" % (g["workload"], g["goodput"], g["meets_at_lowest_load"], g.get("throughput_vs_alone")) for g in d["goodput"])')
want="alone-stream/1.25/True/None stream+training/0.0/False/None"
if [ "$got" = "$want" ]; then ok; else
	fail "one-sm goodput: got '$got', want '$want'"
fi
got=$(jq_py "$tmp.d/hand.json" '" ".join("%d:%d:%d:%d:%d" % (r["requests"], r["shared"]["p99_cycles"], r["shared"]["slo_met"], r["alone"]["p99_cycles"], r["shared"]["last_end_cycles"]) for p in d["points"] if p["workload"] == "stream+training" and p["load"] == 0.5 for r in p["runs"])')
want="4:4000:3:1000:8000 2:7000:0:4000:12000"
if [ "$got" = "$want" ]; then ok; else
	fail "one-sm stream+training at 0.5: got '$got', want '$want'"
fi
got=$(jq_py "$tmp.d/hand.json" '" ".join("%.6f/%.6f/%s" % (r["p99_vs_alone"], r["throughput_vs_alone"], r.get("meets_slo")) for p in d["points"] if p["workload"] == "stream+training" and p["load"] == 0.5 for r in p["runs"])')
want="4.000000/0.875000/False 1.750000/0.666667/None"
if [ "$got" = "$want" ]; then ok; else
	fail "one-sm stream+training ratios at 0.5: got '$got', want '$want'"
fi
# the text says the same
"$sim" sweep --device gtx480 --sms 1 --duration 8000 -P fifo \
	--load 2,0.5,1.25,1.0 "$here/one-sm.gtbs" >"$tmp.d/hand.txt" 2>&1
if grep -q '^  fifo           1.25$' "$tmp.d/hand.txt" &&
	grep -q '^  fifo           none (an SLO missed at load 0.50)$' \
		"$tmp.d/hand.txt"; then ok; else
	fail "one-sm text: no goodput lines"
	sed 's/^/  | /' "$tmp.d/hand.txt"
fi

# --- tokens: TTFT and TPOT by hand ---------------------------------------------
# tokens.gtbs: a request is 1000 + 500 + 500 cycles, each grid a token,
# one request at a time: service interval 2000.  At load 0.5, 2 requests
# (every 4000), at 1.0, 4 (every 2000): none waits.  TTFT 1000, TPOT
# (2000 - 1000) / 2 = 500.  "meets" (TTFT <= 1000, TPOT <= 500) meets at
# both loads: goodput 1.0; "tpot-missed" (TPOT <= 499) at none.
"$sim" sweep --device gtx480 --sms 1 --duration 8000 -P fifo \
	--load 0.5,1 --format json "$here/tokens.gtbs" >"$tmp.d/tok.json"
got=$(jq_py "$tmp.d/tok.json" '" ".join("%s:%d:%d:%d:%d:%s" % (p["load"], r["shared"]["requests"], r["shared"]["ttft_p99_cycles"], r["shared"]["tpot_p99_cycles"], r["shared"]["tokens_met"], r["meets_slo"]) for p in d["points"] for r in p["runs"])')
want="0.5:2:1000:500:2:True 1.0:4:1000:500:4:True 0.5:2:1000:500:0:False 1.0:4:1000:500:0:False"
if [ "$got" = "$want" ]; then ok; else
	fail "tokens.gtbs: got '$got', want '$want'"
fi
got=$(jq_py "$tmp.d/tok.json" '" ".join("%s/%s" % (g["workload"], g["goodput"]) for g in d["goodput"])')
if [ "$got" = "meets/1.0 tpot-missed/0.0" ]; then ok; else
	fail "tokens.gtbs goodput: got '$got'"
fi
for i in 1 2; do
	"$sim" sweep --device gtx480 --sms 1 --duration 8000 -P fifo \
		--load 0.5,1 --shard $i/2 "$here/tokens.gtbs" >"$tmp.d/tok$i.json"
done
if "$sim" sweep --merge --format json "$tmp.d/tok1.json" "$tmp.d/tok2.json" |
	cmp -s - "$tmp.d/tok.json"; then ok; else
	fail "tokens.gtbs: the merged shards differ from the sweep"
fi

# --- shards and merge ------------------------------------------------------
set -- "$here/one-sm.gtbs" --device gtx480 --sms 1 --duration 8000 \
	-P fifo,srtf,srtf-oracle --load 0.5,1,2 --seeds 0,7
"$sim" sweep "$@" --format json -o "$tmp.d/full.json" &&
	"$sim" sweep "$@" -o "$tmp.d/full.txt"
for i in 1 2 3; do
	"$sim" sweep "$@" --shard $i/3 -o "$tmp.d/s$i.json" ||
		fail "sweep --shard $i/3 exited non-zero"
done
if "$sim" sweep --merge --format json "$tmp.d/s3.json" "$tmp.d/s1.json" \
	"$tmp.d/s2.json" | cmp -s - "$tmp.d/full.json"; then ok; else
	fail "merge of shards 3 1 2 differs from the unsharded JSON"
fi
if "$sim" sweep --merge "$tmp.d/s1.json" "$tmp.d/s2.json" \
	"$tmp.d/s3.json" | cmp -s - "$tmp.d/full.txt"; then ok; else
	fail "merge of the shards differs from the unsharded text"
fi
# a shard holds its points only, and no goodput
got=$(jq_py "$tmp.d/s2.json" '(d["shard"], sorted(set(p["index"] % 3 for p in d["points"])), "goodput" in d, len(d["points"]))')
if [ "$got" = "('2/3', [1], False, 12)" ]; then ok; else
	fail "shard 2/3: got '$got'"
fi
# a Slurm array task (--array=4-6: MIN 4) runs shard ID - MIN + 1 of COUNT
SLURM_ARRAY_TASK_ID=5 SLURM_ARRAY_TASK_MIN=4 SLURM_ARRAY_TASK_COUNT=3 \
	"$sim" sweep "$@" >"$tmp.d/env.json"
if cmp -s "$tmp.d/env.json" "$tmp.d/s2.json"; then ok; else
	fail "SLURM_ARRAY_TASK_ID=5 MIN=4 COUNT=3 is not --shard 2/3"
fi
# --shard wins over the environment
SLURM_ARRAY_TASK_ID=5 SLURM_ARRAY_TASK_MIN=4 SLURM_ARRAY_TASK_COUNT=3 \
	"$sim" sweep "$@" --shard 1/3 >"$tmp.d/env1.json"
if cmp -s "$tmp.d/env1.json" "$tmp.d/s1.json"; then ok; else
	fail "--shard 1/3 in an array task is not shard 1/3"
fi
expect 2 "not a task of the array" env SLURM_ARRAY_TASK_ID=9 \
	SLURM_ARRAY_TASK_MIN=4 SLURM_ARRAY_TASK_COUNT=3 "$sim" sweep "$@"
expect 2 "shard 3/3 is missing" "$sim" sweep --merge "$tmp.d/s1.json" \
	"$tmp.d/s2.json"
expect 2 "shard 1/3 given twice" "$sim" sweep --merge "$tmp.d/s1.json" \
	"$tmp.d/s1.json" "$tmp.d/s2.json" "$tmp.d/s3.json"
expect 2 "no \"shard\"" "$sim" sweep --merge "$tmp.d/full.json"
"$sim" sweep "$here/one-sm.gtbs" --device gtx480 --sms 1 --duration 8000 \
	-P fifo,srtf,srtf-oracle --load 0.5,1,2 --seeds 0,8 --shard 3/3 \
	>"$tmp.d/other.json"
expect 2 "a shard of another sweep" "$sim" sweep --merge \
	"$tmp.d/s1.json" "$tmp.d/s2.json" "$tmp.d/other.json"
echo '{"tool": "gputbs-sim eval"}' >"$tmp.d/eval.json"
expect 2 "not the JSON of a gputbs-sim sweep" "$sim" sweep --merge \
	"$tmp.d/eval.json"
head -c 300 "$tmp.d/s1.json" >"$tmp.d/cut.json"
expect 2 "cut.json" "$sim" sweep --merge "$tmp.d/cut.json"
python3 -c "import json, sys
d = json.load(open(sys.argv[1])); d['points'].pop()
json.dump(d, open(sys.argv[2], 'w'))" "$tmp.d/s3.json" "$tmp.d/short.json"
expect 2 "the shard is incomplete" "$sim" sweep --merge \
	"$tmp.d/s1.json" "$tmp.d/s2.json" "$tmp.d/short.json"
expect 2 "--merge takes the shards' sweep as it ran" "$sim" sweep --merge \
	-P fifo "$tmp.d/s1.json"

# --- the issue's scenario, shortened -----------------------------------------
scen=$root/workloads/scenarios/resnet50-infer+train.gtbs
"$sim" sweep "$scen" --policies fifo,srtf --load 0.2,0.6,1.0,1.4 \
	--duration 5ms --format json >"$tmp.d/scen.json"
got=$(jq_py "$tmp.d/scen.json" '(len(d["points"]), sorted(g["policy"] for g in d["goodput"]), all("p99_vs_alone" in r and "throughput_vs_alone" in r for p in d["points"] for r in p["runs"]))')
if [ "$got" = "(8, ['fifo', 'srtf'], True)" ]; then ok; else
	fail "resnet50-infer+train sweep: got '$got'"
fi
# the goodput recounted from the points: the highest load with every SLO
# met at it and at every lower load
got=$(jq_py "$tmp.d/scen.json" '" ".join("%s=%s" % (g["policy"], g["goodput"] == max([0.0] + [l for l in d["loads"] if all(r["shared"]["p99_cycles"] <= w["slo_cycles"] for p in d["points"] if p["policy"] == g["policy"] and p["load"] <= l for r, w in zip(p["runs"], d["workloads"][0]["runs"]) if w["slo_cycles"])])) for g in d["goodput"])')
if [ "$got" = "fifo=True srtf=True" ]; then ok; else
	fail "goodput is not the points' highest passing load: $got"
fi
# the load scales the stream's rate: load x alone service rate
got=$(jq_py "$tmp.d/scen.json" '" ".join("%d" % round(p["runs"][0]["rate_e4"] * d["workloads"][0]["runs"][0]["service_cycles"] / (d["clock_khz"] * 10.0) / (p["load"] * 1e6) * 100) for p in d["points"] if p["policy"] == "fifo")')
if [ "$got" = "100 100 100 100" ]; then ok; else
	fail "rate is not load x service rate: $got (percent)"
fi

# --- usage -----------------------------------------------------------------
expect 2 "no scenario file given" "$sim" sweep
expect 2 "--load: '0' is not a load" "$sim" sweep --load 0 "$scen"
expect 2 "--load: '1.0000001' is not a load" "$sim" sweep --load 1.0000001 "$scen"
expect 2 "--load: a load given twice" "$sim" sweep --load 1,1.0 "$scen"
expect 2 "--load: bad list" "$sim" sweep --load 1, "$scen"
expect 2 "--preempt: unknown mode 'stop'" "$sim" sweep --preempt drain,stop "$scen"
expect 2 "--preempt: 'drain' given twice" "$sim" sweep --preempt drain,drain "$scen"
expect 2 "--shard: '3/2' is not I/N" "$sim" sweep --shard 3/2 "$scen"
expect 2 "--shard: '0/2' is not I/N" "$sim" sweep --shard 0/2 "$scen"
expect 2 "--seeds: 'x' is not a seed" "$sim" sweep --seeds 1,x "$scen"
expect 2 "--duration: '5min' is not a time" "$sim" sweep --duration 5min "$scen"
expect 2 "unknown policy 'nope'" "$sim" sweep -P fifo,nope "$scen"
expect 2 "has no open-loop run (rate=)" "$sim" sweep \
	"$root/tests/userland/sim/pair.gtbs"
expect 2 "missing.gtbs" "$sim" sweep "$tmp.d/missing.gtbs"

# --- plot -------------------------------------------------------------------
if command -v gnuplot >/dev/null 2>&1; then
	if "$sim" sweep --merge --plot "$tmp.d/plot" "$tmp.d/s1.json" \
		"$tmp.d/s2.json" "$tmp.d/s3.json" >/dev/null &&
		[ -s "$tmp.d/plot/w0-drain-r0-p99.svg" ] &&
		[ -s "$tmp.d/plot/w1-drain-throughput.svg" ] &&
		[ -s "$tmp.d/plot/w1-drain-r0-p99-2.dat" ]; then ok; else
		fail "--plot: missing figures"
		ls "$tmp.d/plot" 2>&1 | sed 's/^/  | /'
	fi
	expect 2 "a shard has no figures" "$sim" sweep --plot "$tmp.d/p2" \
		"$@" --shard 1/3
fi

summary sweep
