#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# sim-test.sh - host tests of gputbs-sim, the virtual-time simulator
# (Documentation/evaluation.rst).
#
# Usage: sim-test.sh PATH-TO-gputbs-sim [PATH-TO-gputbs]
#
#   determinism   the default sweep with --jobs 1 and --jobs 2: the same
#                 text and the same JSON, byte for byte; its paper's
#                 statements recounted from its JSON's pairs
#   hand-worked   tests/userland/sim/: every turnaround and metric of two
#                 programs on one SM under fifo, srtf, srtf-oracle, sjf
#                 and ljf, worked out
#                 below, compared exactly (cycles and six-decimal fixed
#                 point); the motivation section's pair by the program
#                 names and by paper=, and its serial FIFO
#   usage         bad options and files: status 2 and a message
#   plot          --plot writes every figure as SVG and PNG, with data
#   run           gputbs-sim run, and its --trace replayed by gputbs
#                 predict (with PATH-TO-gputbs)
#   report        gputbs-sim report: a sweep's JSON read back gives the
#                 sweep's text and JSON byte for byte, and its figures;
#                 --sjf-key; bad JSON files (status 2)
#   presets       --device's presets as gputbs-sim devices lists them; a
#                 switched block's save follows its registers and
#                 shared memory
#   gputbs eval   the same sweep on the module (with PATH-TO-gputbs): its
#                 options and usage errors, without a device
#
# Nothing here measures time.  The last line is "sim: N passed, M failed".
set -u

sim=${1:?usage: sim-test.sh PATH-TO-gputbs-sim [PATH-TO-gputbs]}
gputbs=${2:-}
root=$(cd "$(dirname "$0")/../.." && pwd)
here=$root/tests/userland/sim
erc=$root/workloads/ercbench
tmp=${TMPDIR:-/tmp}/gputbs-sim-test.$$

trap 'rm -rf "$tmp" "$tmp.d"' EXIT
mkdir -p "$tmp.d" || exit 1

out=$tmp
# shellcheck source=tests/userland/lib.sh
. "$(dirname "$0")/lib.sh"

# --- determinism: same options, same output, whatever --jobs -------------
for fmt in text json; do
	if ! "$sim" eval --workloads "$erc" --format $fmt --jobs 1 \
		>"$tmp.d/j1.$fmt" 2>&1; then
		fail "eval --format $fmt --jobs 1 exited non-zero"
		sed 's/^/  | /' "$tmp.d/j1.$fmt" | tail -n 5
	elif ! "$sim" eval --workloads "$erc" --format $fmt --jobs 2 \
		>"$tmp.d/j2.$fmt" 2>&1; then
		fail "eval --format $fmt --jobs 2 exited non-zero"
	elif ! cmp -s "$tmp.d/j1.$fmt" "$tmp.d/j2.$fmt"; then
		fail "eval --format $fmt: --jobs 1 and --jobs 2 differ"
		diff "$tmp.d/j1.$fmt" "$tmp.d/j2.$fmt" | head -n 10 |
			sed 's/^/  | /'
	else
		ok
	fi
done
# every registered policy at the three offsets, and the orders reported
n=$("$sim" eval --help | sed -n 's/.*registry.s order: \([a-z0-9_,-]*\)).*/\1/p' |
	tr ',' '\n' | grep -c .)
if [ "$n" -lt 4 ]; then
	fail "eval --help lists $n policies"
elif [ "$(sed -n '/^geomeans over/,/^policies from best/p' "$tmp.d/j1.text" |
	grep -c '^  \(0 \|25%\|50%\)  ')" -ne $((3 * n)) ]; then
	fail "eval: not $n policies x 3 offsets in the geomean table"
	sed -n '/^geomeans over/,$p' "$tmp.d/j1.text" | sed 's/^/  | /'
elif [ "$(grep -c '  \(ours\|paper\): ' "$tmp.d/j1.text")" -ne 18 ]; then
	fail "eval: no policy order by STP, ANTT and StrictF at every offset"
else
	ok
fi
# the paper's statements (tools/lib/eval/paper.c) in the default sweep: every
# new one in the text and the JSON, and each recounted from the JSON's own
# pairs and geomeans (ANTT in integer micro-units, as the core compares)
paper_statements() {
	python3 - "$1" "$2" <<'PY'
import json, math, re, sys

d = json.load(open(sys.argv[1]))
text = open(sys.argv[2]).read()
ps = d["paper_statements"]
offs = {o["offset_pct"]: {p["policy"]: p for p in o["policies"]}
        for o in d["offsets"]}
errs = []

def fp(v):
    return int(round(v * 1000000))

def check(what, ok):
    if not ok:
        errs.append(what)

# SRTF or SRTF/Adaptive has the lowest ANTT of fifo, mpmax, srtf, srtf-adaptive
low = ps["srtf_lowest_antt"]
check("srtf_lowest_antt: not one per offset",
      [x["offset_pct"] for x in low] == d["offsets_pct"])
for x in low:
    o = x["offset_pct"]
    pr = {p: offs[o][p]["pairs"] for p in ("fifo", "mpmax", "srtf", "srtf-adaptive")}
    n = t = near = 0
    for i in range(len(pr["fifo"])):
        a = min(fp(pr["srtf"][i]["antt"]), fp(pr["srtf-adaptive"][i]["antt"]))
        b = min(fp(pr["fifo"][i]["antt"]), fp(pr["mpmax"][i]["antt"]))
        n += a <= b
        t += a == b
        near += a <= b + 10000
    check("srtf_lowest_antt %d: %r, recounted %d %d %d" % (o, x, n, t, near),
          x["of"] == len(pr["fifo"]) == 56 and 0 <= x["ties"] <= x["pairs"] <=
          x["within_0_01"] <= x["of"] and (x["pairs"], x["ties"], x["within_0_01"]) == (n, t, near))
    check("srtf_lowest_antt %d: paper %r" % (o, x["paper"]),
          x["paper"] == (54 if o == 0 else None))
    row = "  %-4s ours %d of 56 (%d tied; %d within 0.01)  paper " % \
          ("%d%s" % (o, "%" if o else ""), n, t, near)
    check("text: no row '%s'" % row, row in text)

# the wait behind SHA1 under srtf at offset 0
w = ps["sha1_first_wait"]
delay, first = [], []
for p in offs[0]["srtf"]["pairs"]:
    if p["pair"].startswith("SHA1+"):
        b = p["programs"][1]
        delay.append(b["shared_cycles"] - b["alone_cycles"])
        first.append(b["grids"][0]["start_cycle"] - b["grids"][0]["submit_cycle"])
for key, v in (("delay_cycles", sorted(delay)), ("first_block_wait_cycles", sorted(first))):
    check("sha1_first_wait %s: %r, recounted %r" % (key, w[key], v),
          len(v) == w["pairs"] == 7 and
          [w[key]["min"], w[key]["median"], w[key]["max"]] == [v[0], v[3], v[6]])
check("sha1_first_wait: paper %r" % w["paper_delay_cycles"],
      w["paper_delay_cycles"] == 1700000 and w["policy"] == "srtf")
check("text: no SHA1 delay row",
      "its delay: shared minus alone turnaround  ours min %d  median %d  max %d  paper 1.7M"
      % (w["delay_cycles"]["min"], w["delay_cycles"]["median"], w["delay_cycles"]["max"]) in text)

# the FIFO-to-SJF gap SRTF bridges, both of the paper's figures
pst = {p: offs[0][p]["paper"]["stp"] for p in ("fifo", "srtf", "sjf")}
gst = {p: offs[0][p]["geomean"]["stp"] for p in ("fifo", "srtf", "sjf")}
check("gap_bridged_paper_table %r" % ps["gap_bridged_paper_table"],
      abs(ps["gap_bridged_paper_table"] - (pst["srtf"] - pst["fifo"]) /
          (pst["sjf"] - pst["fifo"])) < 1e-6 and
      abs(ps["gap_bridged_paper_table"] - 0.510638) < 1e-6)
check("gap_bridged_paper_text %r" % ps["gap_bridged_paper_text"],
      ps["gap_bridged_paper_text"] == 0.49)
check("gap_bridged %r" % ps["gap_bridged"],
      abs(ps["gap_bridged"] - (gst["srtf"] - gst["fifo"]) /
          (gst["sjf"] - gst["fifo"])) < 1e-4)
check("text: no gap line with both of the paper's figures",
      re.search(r"FIFO-to-SJF STP gap SRTF bridges +ours +[0-9.]+%  paper  49% \(its text\), 51\.1% \(its Table\)", text))

# the gaps between the arrival offset Table's policies at 25% and 50%
gaps = ps["offset_gaps"]
check("offset_gaps: not stp, antt, strictf",
      [g["metric"] for g in gaps] == ["stp", "antt", "strictf"])
for g in gaps:
    m = g["metric"]
    for o in (25, 50):
        ours = [offs[o][p]["geomean"][m] for p in ("fifo", "mpmax", "srtf", "srtf-adaptive")]
        paper = [offs[o][p]["paper"][m] for p in ("fifo", "mpmax", "srtf", "srtf-adaptive")]
        check("offset_gaps %s %d: %r" % (m, o, g),
              abs(g["ours_%d" % o] - (max(ours) - min(ours))) < 2e-6 and
              abs(g["paper_%d" % o] - (max(paper) - min(paper))) < 1e-6)
    check("offset_gaps %s: shrinks %r" % (m, g),
          g["ours_shrinks"] == (g["ours_50"] < g["ours_25"]) and
          g["paper_shrinks"] == (g["paper_50"] < g["paper_25"] - 0.005) and
          g["paper_shrinks"])

# the zero-sampling SRTF's ANTT and its counterfactuals
z = ps["zero_sampling_antt"]
zs, sj = offs[0]["srtf-oracle"]["pairs"], offs[0]["sjf"]["pairs"]
shorter = [p["programs"][0]["alone_cycles"] < p["programs"][1]["alone_cycles"] for p in zs]
def gm(v):
    return math.exp(sum(math.log(x) for x in v) / len(v))
cf1 = gm([sj[i]["antt"] if s else zs[i]["antt"] for i, s in enumerate(shorter)])
cf2 = gm([zs[i]["antt"] if s else sj[i]["antt"] for i, s in enumerate(shorter)])
check("zero_sampling_antt %r, recounted %d %f %f" % (z, sum(shorter), cf1, cf2),
      z["shorter_first_pairs"] == sum(shorter) and
      abs(z["counterfactual_shorter_first_as_sjf"] - cf1) < 2e-6 and
      abs(z["counterfactual_shorter_second_as_sjf"] - cf2) < 2e-6 and
      z["ours"] == offs[0]["srtf-oracle"]["geomean"]["antt"] and
      z["sjf"] == offs[0]["sjf"]["geomean"]["antt"] and z["paper"] == 1.33)
check("text: no counterfactual rows",
      text.count("counterfactual, not a run: srtf-oracle") == 2)

for e in errs:
    print(e)
sys.exit(1 if errs else 0)
PY
}
if paper_statements "$tmp.d/j1.json" "$tmp.d/j1.text" >"$tmp.d/ps" 2>&1; then
	ok
else
	fail "eval: the paper's statements do not follow from the sweep's pairs"
	sed 's/^/  | /' "$tmp.d/ps"
fi
# --seed: the same seed twice, the same output; another seed, other blocks
"$sim" eval --workloads "$erc" --policies fifo --offsets 0 --seed 7 \
	>"$tmp.d/s7a" 2>&1
"$sim" eval --workloads "$erc" --policies fifo --offsets 0 --seed 7 \
	>"$tmp.d/s7b" 2>&1
"$sim" eval --workloads "$erc" --policies fifo --offsets 0 \
	>"$tmp.d/s0" 2>&1
if cmp -s "$tmp.d/s7a" "$tmp.d/s7b" && ! cmp -s "$tmp.d/s7a" "$tmp.d/s0"; then
	ok
else
	fail "eval --seed 7: not repeatable, or the same as seed 0"
fi

# --- worked out by hand -------------------------------------------------
# One SM; Long: 4 blocks of 1000 cycles (alone 4000), Short: 2 blocks of
# 500 (alone 1000); each block fills the SM (R = 1) and lasts exactly its
# cycles.  Offset 0: the second program arrives at 50; 10%: at 10% of the
# first one's alone runtime (Long+Short: 400, Short+Long: 100).
#
# Long+Short, fifo: Long 0-1000-2000-3000-4000; Short waits until every
#   Long block is out and the last one ends: 4000-4500-5000.  Long 4000
#   (1.0), Short 5000-50 = 4950 (4.95): STP 1 + 1000/4950 = 1.202020,
#   ANTT (1 + 4.95) / 2 = 2.975, StrictF 1 / 4.95 = 0.202020.  At 10%:
#   Short 5000-400 = 4600: STP 1.217391, ANTT 2.8, StrictF 0.217391.
# Long+Short, srtf-oracle (1000 < 4000): the SM takes Short at Long's first
#   block end: Short 1000-1500-2000, Long 2000-3000-4000-5000.  Long 5000
#   (1.25), Short 1950 (1.95): STP 0.8 + 1000/1950 = 1.312821, ANTT 1.6,
#   StrictF 1.25 / 1.95 = 0.641026.  At 10%: Short 1600: STP 1.425,
#   ANTT 1.425, StrictF 0.78125.
# Long+Short, srtf: Long ran alone (known); Short arrives with the SM full
#   and is sampled at 1000: 1000-1500; its sample prediction there is
#   500 + (2 - 1) * 500 / 1 = 1000, remaining 500 < Long's 4000 - 1000,
#   so Short goes on: 1500-2000, then Long: the same as srtf-oracle.
# Short+Long, fifo and srtf-oracle: Short 0-500-1000, Long 1000-5000: Short 1000
#   (1.0), Long 4950 (1.2375): STP 1 + 4000/4950 = 1.808081, ANTT
#   1.11875, StrictF 1 / 1.2375 = 0.808081.  At 10% Long arrives at 100:
#   4900 (1.225): STP 1.816327, ANTT 1.1125, StrictF 0.816327.
# Short+Long, srtf: Long arrives while Short runs, so at Short's first
#   block end (500) the SM samples Long: 500-1500 (the sampling cost);
#   Long's prediction 1000 + 3 * 1000 = 4000 leaves 3000, Short's 500:
#   Short 1500-2000, Long 2000-5000.  Short 2000 (2.0), Long 4950: STP
#   0.5 + 0.808081 = 1.308081, ANTT 1.61875, StrictF 1.2375 / 2 =
#   0.61875.  At 10%: Long 4900: STP 1.316327, ANTT 1.6125, StrictF
#   0.6125.
# Long+Short, sjf (serial, sm-emu/policy_sjf.c): at 0 Short is d = 50
#   away and (4000 - 50) * 4000 > (50 + 1000) * 1000: the SM idles for it.
#   Short 50-1050 (1.0), Long 1050-5050 (1.2625): STP 1 + 4000/5050 =
#   1.792079, ANTT 1.13125, StrictF 0.792079.  At 10% (d = 400): Short
#   400-1400, Long 1400-5400 (1.35): STP 1.740741, ANTT 1.175, StrictF
#   0.740741.
# Short+Long, sjf; Long+Short, ljf: nothing better to wait for: the same
#   as fifo.
# Short+Long, ljf: Long arrives d = 50 < 1000 cycles later: the SM idles
#   for it.  Long 50-4050 (1.0), Short 4050-5050 (5.05): STP 1 + 1/5.05 =
#   1.198020, ANTT 3.025, StrictF 0.198020.  At 10% (Long at 100): Short
#   4100-5100 (5.1): STP 1.196078, ANTT 3.05, StrictF 0.196078.
#
# offset policy pair: first (start end) second (start end), STP ANTT StrictF
cat >"$tmp.d/want" <<'EOF'
0 fifo Long+Short 0 4000 4000 5000 1.202020 2.975000 0.202020
0 fifo Short+Long 0 1000 1000 5000 1.808081 1.118750 0.808081
0 srtf Long+Short 0 5000 1000 2000 1.312821 1.600000 0.641026
0 srtf Short+Long 0 2000 500 5000 1.308081 1.618750 0.618750
0 srtf-oracle Long+Short 0 5000 1000 2000 1.312821 1.600000 0.641026
0 srtf-oracle Short+Long 0 1000 1000 5000 1.808081 1.118750 0.808081
0 sjf Long+Short 1050 5050 50 1050 1.792079 1.131250 0.792079
0 sjf Short+Long 0 1000 1000 5000 1.808081 1.118750 0.808081
0 ljf Long+Short 0 4000 4000 5000 1.202020 2.975000 0.202020
0 ljf Short+Long 4050 5050 50 4050 1.198020 3.025000 0.198020
10 fifo Long+Short 0 4000 4000 5000 1.217391 2.800000 0.217391
10 fifo Short+Long 0 1000 1000 5000 1.816327 1.112500 0.816327
10 srtf Long+Short 0 5000 1000 2000 1.425000 1.425000 0.781250
10 srtf Short+Long 0 2000 500 5000 1.316327 1.612500 0.612500
10 srtf-oracle Long+Short 0 5000 1000 2000 1.425000 1.425000 0.781250
10 srtf-oracle Short+Long 0 1000 1000 5000 1.816327 1.112500 0.816327
10 sjf Long+Short 1400 5400 400 1400 1.740741 1.175000 0.740741
10 sjf Short+Long 0 1000 1000 5000 1.816327 1.112500 0.816327
10 ljf Long+Short 0 4000 4000 5000 1.217391 2.800000 0.217391
10 ljf Short+Long 4100 5100 100 4100 1.196078 3.050000 0.196078
EOF
"$sim" eval --workloads "$here" --sms 1 --offsets 0,10 \
	--policies fifo,srtf,srtf-oracle,sjf,ljf --format json >"$tmp.d/hand.json" \
	2>"$tmp.d/hand.err"
# selecting sjf says once on stderr that it changed meaning
if [ "$(grep -c "note: sjf is now the paper's serial SJF" "$tmp.d/hand.err")" = 1 ]; then
	ok
else
	fail "sjf's deprecation note: not exactly once on stderr"
fi
# the JSON's fixed-point values keep their six decimals: compare as text
sed -n -e '/"paper_statements"/q' \
	-e 's/^ *"offset_pct": \([0-9]*\),*$/offset \1/p' \
	-e 's/^ *"policy": "\([a-z-]*\)",*$/policy \1/p' \
	-e 's/^ *"pair": "\(.*\)",*$/pair \1/p' \
	-e 's/^ *"\(stp\|antt\|strictf\)": \([0-9.]*\),*$/\1 \2/p' \
	-e 's/^ *"\(start_cycle\|end_cycle\)": \([0-9]*\),*$/\1 \2/p' \
	"$tmp.d/hand.json" | awk '
	function flush() { if (line != "") print line m; line = ""; m = "" }
	$1 == "offset" { flush(); off = $2 }
	$1 == "policy" { flush(); pol = $2 }
	$1 == "pair" { flush(); line = off " " pol " " $2 }
	$1 == "stp" || $1 == "antt" || $1 == "strictf" { if (line != "") m = m " " $2 }
	$1 == "start_cycle" || $1 == "end_cycle" { if (line != "") line = line " " $2 }
	END { flush() }' >"$tmp.d/got"
if cmp -s "$tmp.d/want" "$tmp.d/got"; then
	ok
else
	fail "hand-worked pairs: gputbs-sim differs from the worked-out values"
	diff -u "$tmp.d/want" "$tmp.d/got" | sed 's/^/  | /'
fi
# the text shows the same numbers
expect 0 "  Short+Long  Short    short                0         1000         2000     2.000" \
	"$sim" eval --workloads "$here" --sms 1 --offsets 0 --policies srtf

# The motivation section over the same two programs, offset 0: the one pair
# A+B with A before B by the paper's names.  By the program names that is
# Long+Short: SJF 1.792 (above), FIFO 1.202, the serial FIFO from the alone
# runtimes (Long 0-4000, Short 4000-5000: 1 + 1000/4950) 1.202, LJF 1.202;
# FIFO's STP is LJF's.  With paper=A-short on Short the pair is Short+Long:
# SJF = FIFO = serial (Short 0-1000, Long 1000-5000: 1 + 4000/4950) =
# 1.808, LJF 1.198; FIFO's STP is SJF's.
mkdir -p "$tmp.d/paper"
sed 's/^program Short$/program Short paper=A-short/' "$here/kernels.gtbs" \
	>"$tmp.d/paper/kernels.gtbs"
expect 0 "  Long+Short                 1.792   1.202   1.202   1.202" \
	"$sim" eval --workloads "$here" --sms 1 --offsets 0 \
	--policies fifo,sjf,ljf
expect 0 "  serial FIFO from the workload file's expect= runtimes: 1.202" \
	"$sim" eval --workloads "$here" --sms 1 --offsets 0 \
	--policies fifo,sjf,ljf
expect 0 "  FIFO (serial)                  0       1        0       1" \
	"$sim" eval --workloads "$here" --sms 1 --offsets 0 \
	--policies fifo,sjf,ljf
expect 0 "  Short+Long                 1.808   1.808   1.808   1.198" \
	"$sim" eval --workloads "$tmp.d/paper" --sms 1 --offsets 0 \
	--policies fifo,sjf,ljf
expect 0 '"fifo_serial_same_as_sjf": 1,' \
	"$sim" eval --workloads "$tmp.d/paper" --sms 1 --offsets 0 \
	--policies fifo,sjf,ljf --format json

# --- device presets (sm-emu/config.c, design.rst "Device presets") -------
stair=$root/workloads/tests/staircase.gtbs
expect 0 '"nr_sms": 132,' "$sim" run --device h100 --format json "$stair"
expect 0 '"preset": "h100",' "$sim" run --device h100 --format json "$stair"
expect 0 '"clock_khz": 1980000' "$sim" run --preset h100 --format json "$stair"
# --sms overrides the preset's SM count, before or after it
expect 0 '"nr_sms": 4,' "$sim" run --sms 4 --device a100 --format json "$stair"
expect 0 '"nr_sms": 4,' "$sim" run --device a100 --sms 4 --format json "$stair"
expect 0 '"preset": "gtx480",' "$sim" run --format json "$stair"
# 256 threads, 24 KiB of shared memory: R = 49152 / 24576 = 2 on the
# GTX 480, 98304 / 24576 = 4 on the V100, and on the H100 64 / 8 warps = 8
# (its 233472 bytes would hold 9)
expect 0 "  stair    stair       2       60" "$sim" run "$stair"
expect 0 "  stair    stair       4       60" "$sim" run --device v100 "$stair"
expect 0 "  stair    stair       8       60" "$sim" run --device h100 "$stair"
expect 0 "132 SMs, virtual time, device h100" \
	"$sim" eval --workloads "$here" --device h100 --offsets 0 --policies fifo
expect 0 '"preset": "a100",' \
	"$sim" eval --workloads "$here" --preset a100 --offsets 0 \
	--policies fifo --format json
"$sim" eval --workloads "$here" --device h100 --sms 7 --offsets 0 \
	--policies fifo --format json >"$tmp.d/h100.json" 2>&1
expect 0 "7 SMs, virtual time, device h100" \
	"$sim" report --results "$tmp.d/h100.json"
expect 2 "unknown device preset 'k80' (gtx480, v100, a100, h100)" \
	"$sim" run --device k80 "$stair"
expect 2 "unknown device preset 'H100'" \
	"$sim" eval --workloads "$here" --device H100
# gputbs-sim devices lists the presets that --device runs (sweep-test.sh
# checks its save times): the same SMs and clock, and the bytes per cycle
# per SM its effective bandwidth is at that clock
"$sim" devices --format json >"$tmp.d/devices.json"
for dev in gtx480 v100 a100 h100; do
	"$sim" run --device "$dev" --format json "$stair" >"$tmp.d/dev-$dev.json"
	got=$(python3 -c "import json, sys
d = {x['name']: x for x in json.load(open(sys.argv[1]))['devices']}[sys.argv[3]]
r = json.load(open(sys.argv[2]))['device']
print(d['sms'] == r['nr_sms'] and d['clock_khz'] == r['clock_khz'] and
      abs(d['switch_bytes_per_cycle'] - d['save_bw_mbs'] * 1e3 / d['clock_khz'] / d['sms']) < 1e-5 and
      d['context_bytes_full'] == d['sms'] * (4 * d['max_regs_per_sm'] + d['max_shmem_per_sm']))" \
		"$tmp.d/devices.json" "$tmp.d/dev-$dev.json" "$dev")
	if [ "$got" = True ]; then ok; else fail "devices: $dev is not --device $dev's"; fi
done
# A switched block saves what it holds, its registers (4 bytes each) and
# shared memory, not a constant per SM (design.rst, "Preemption cost"):
# Long's block of 256 threads x 32 registers (32 KiB) and 40 KiB of shared
# memory saves 73728 bytes at 8 bytes per cycle in 9216 cycles, 50..9266;
# Short runs 9266..10266 (turnaround 10216); Long restores 10266..19482,
# ends its block's 950 cycles at 20432 and its three others at 23432.  At
# 16 bytes per cycle the save takes 4608: Short 5608, Long 14216.
sed -e 's/regs=0 shmem=49152 cycles=1000/regs=32 shmem=40960 cycles=1000/' \
	"$here/kernels.gtbs" >"$tmp.d/held-kernels.gtbs"
printf 'include held-kernels.gtbs\n\nworkload Long+Short\nrun Long at=0\nrun Short at=50\n' \
	>"$tmp.d/held.gtbs"
expect 0 "  Short    short       1        2           50         1000        10216    10.216" \
	"$sim" run --sms 1 --policy srtf-oracle --preempt switch "$tmp.d/held.gtbs"
expect 0 "  Long     long        1        4            0         4000        23432     5.858" \
	"$sim" run --sms 1 --policy srtf-oracle --preempt switch "$tmp.d/held.gtbs"
expect 0 "  Short    short       1        2           50         1000         5608     5.608" \
	"$sim" run --sms 1 --policy srtf-oracle --preempt switch --switch-bw 16 \
	"$tmp.d/held.gtbs"

# --- usage errors --------------------------------------------------------
# a grid the core rejects: the reason in libgputbs's words
# (gputbs_submit_explain(), userlib/submit_explain.c), as 'gputbs run'
# prints the module's
printf 'program Big\ngrid huge blocks=4 threads=1024 regs=63 cycles=1000\n\nworkload W\nrun Big\n' \
	>"$tmp.d/big.gtbs"
expect 2 "Big: -EINVAL: grid too big: 1024 threads x 63 registers need 65536 registers, an SM has 32768" \
	"$sim" run "$tmp.d/big.gtbs"
printf 'program Wide\ngrid wide blocks=4 threads=1024 regs=8 cycles=1000\n\nworkload W\nrun Wide\n' \
	>"$tmp.d/wide.gtbs"
expect 0 "Wide" "$sim" run "$tmp.d/wide.gtbs"

expect 0 "Usage: gputbs-sim eval" "$sim" eval --help
expect 0 "Usage: gputbs-sim run" "$sim" run --help
expect 0 "eval   the paper's evaluation" "$sim" --help
expect 2 "missing command" "$sim"
expect 2 "unknown command 'evaluate'" "$sim" evaluate
expect 2 "--policies: unknown policy 'lifo' (registered: fifo" \
	"$sim" eval --workloads "$here" --policies fifo,lifo
expect 2 "--policies: policy 'srtf' given twice" \
	"$sim" eval --workloads "$here" --policies srtf,srtf-oracle,srtf
expect 2 "--policies: bad policy list 'fifo,'" \
	"$sim" eval --workloads "$here" --policies fifo,
for bad in 0,abc 1001 -5 0,0 0,,25 '' 2.5; do
	expect 2 "--offsets: bad offset list '$bad'" \
		"$sim" eval --workloads "$here" --offsets "$bad"
done
expect 2 "--workloads: $tmp.d/missing: No such file or directory" \
	"$sim" eval --workloads "$tmp.d/missing"
expect 2 "$root/tests/userland/kernels.gtbs: No such file or directory" \
	"$sim" eval --workloads "$root/tests/userland"
expect 2 "--workloads: $here/kernels.gtbs: Not a directory" \
	"$sim" eval --workloads "$here/kernels.gtbs"
expect 2 "bad job count '0' (1..256)" "$sim" eval --workloads "$here" --jobs 0
expect 2 "bad SM count '1025' (1..1024)" "$sim" eval --workloads "$here" --sms 1025
expect 2 "unknown format 'xml' (text or json)" \
	"$sim" eval --workloads "$here" --format xml
expect 2 "--timeline is drawn by --plot DIR" \
	"$sim" eval --workloads "$here" --timeline Long+Short
expect 2 "--timeline: no pair 'Long+Long' in" \
	"$sim" eval --workloads "$here" --plot "$tmp.d/p" --timeline Long+Long
expect 2 "unexpected argument 'more'" "$sim" eval --workloads "$here" more
expect 2 "no workload file given" "$sim" run
expect 2 "--policy: unknown policy 'rr'" \
	"$sim" run --policy rr "$root/workloads/tests/staircase.gtbs"
expect 2 "--trace records one workload under one policy" \
	"$sim" run --policy fifo,srtf --trace "$tmp.d/t" \
	"$root/workloads/tests/staircase.gtbs"
expect 2 "$tmp.d/none.gtbs: No such file or directory" \
	"$sim" run "$tmp.d/none.gtbs"

# --- plot -----------------------------------------------------------------
expect 0 "geomeans over 2 pairs" "$sim" eval --workloads "$here" --sms 1 \
	--offsets 0,10 --plot "$tmp.d/plot" --timeline Short+Long
missing=
for f in plot.gp timeline-srtf.dat timeline-srtf-first.dat \
	timeline-fifo.dat timeline-fifo-first.dat; do
	[ -s "$tmp.d/plot/$f" ] || missing="$missing $f"
done
for base in stp-0 antt-0 strictf-0 stp-10 antt-10 strictf-10 motivation \
	timeline-srtf timeline-fifo; do
	case $base in timeline-*) ;; *) [ -s "$tmp.d/plot/$base.dat" ] ||
		missing="$missing $base.dat" ;; esac
	if ! head -n 3 "$tmp.d/plot/$base.svg" 2>/dev/null | grep -q '^<svg'; then
		missing="$missing $base.svg"
	fi
	magic=$(head -c 8 "$tmp.d/plot/$base.png" 2>/dev/null | od -An -tx1 | tr -d ' \n')
	[ "$magic" = 89504e470d0a1a0a ] || missing="$missing $base.png"
done
if [ -z "$missing" ]; then
	ok
else
	fail "--plot: missing, empty or not SVG/PNG:$missing"
fi
# the timeline's second program (Long) starts on SM 0 at 500 under srtf
if grep -qx '0 500' "$tmp.d/plot/timeline-srtf-first.dat"; then
	ok
else
	fail "--plot: timeline-srtf-first.dat has no '0 500'"
	sed 's/^/  | /' "$tmp.d/plot/timeline-srtf-first.dat"
fi

# names and labels (printable ASCII from a workload file) cannot run a
# command through plot.gp: in double quotes, gnuplot runs `backquoted` text
mkdir -p "$tmp.d/evil"
cat >"$tmp.d/evil/kernels.gtbs" <<'EOF'
program L`touch${IFS}pwned`
grid l'`touch${IFS}pwned`' blocks=4 threads=256 shmem=49152 cycles=1000 expect=4000
program Short
grid short blocks=2 threads=256 shmem=49152 cycles=500 expect=1000
EOF
expect 0 "geomeans over 2 pairs" "$sim" eval --workloads "$tmp.d/evil" \
	--sms 1 --offsets 0 --plot "$tmp.d/evil/plot" \
	--timeline 'Short+L`touch${IFS}pwned`'
if [ -s "$tmp.d/evil/plot/timeline-srtf.svg" ] &&
	[ ! -e "$tmp.d/evil/plot/pwned" ]; then
	ok
else
	fail "--plot: a program name or label ran a command in gnuplot"
fi

# --- run ------------------------------------------------------------------
expect 0 "STP 1.308  ANTT 1.619  StrictF 0.619" \
	"$sim" run --sms 1 --policy srtf "$here/pair.gtbs"
expect 0 "  Short+Long  |  1.808   1.119    0.808  |  1.308   1.619    0.619  |  1.808   1.119    0.808" \
	"$sim" run --sms 1 --policy fifo,srtf,sjf "$here/pair.gtbs"
# preempt.gtbs (its header works it out): the same class preempted on
# the policy's request, switched and flushed, and drained without
expect 0 "  Long     long        1        4            0         4000        17288     4.322" \
	"$sim" run --sms 1 --policy srtf-oracle --preempt switch "$here/preempt.gtbs"
expect 0 "  Short    short       1        2           50         1000         7144     7.144" \
	"$sim" run --sms 1 --policy srtf-oracle --preempt switch "$here/preempt.gtbs"
expect 0 "  Long     long        1        4            0         4000         5050     1.262" \
	"$sim" run --sms 1 --policy srtf-oracle --preempt flush --idempotent \
	"$here/preempt.gtbs"
# not idempotent: switched, not flushed
expect 0 "  Short    short       1        2           50         1000         7144     7.144" \
	"$sim" run --sms 1 --policy srtf-oracle --preempt flush "$here/preempt.gtbs"
# fifo does not ask: Short waits for Long's four blocks
expect 0 "  Short    short       1        2           50         1000         4950     4.950" \
	"$sim" run --sms 1 --policy fifo --preempt switch "$here/preempt.gtbs"
# the settings travel in eval's JSON and back through report
"$sim" eval --workloads "$here" --sms 1 --offsets 0 --policies srtf \
	--preempt flush --idempotent --switch-bw 16 --format json \
	>"$tmp.d/pre.json" 2>&1
expect 0 '"preempt_mode": "flush",' cat "$tmp.d/pre.json"
expect 0 '"idempotent": true,' cat "$tmp.d/pre.json"
expect 0 "preemption: flush at 16 bytes per cycle per SM, every grid idempotent" \
	"$sim" report --results "$tmp.d/pre.json"
if "$sim" report --results "$tmp.d/pre.json" --format json |
	cmp -s - "$tmp.d/pre.json"; then
	ok
else
	fail "report --format json: a preempting eval's JSON read back differs"
fi
if [ -n "$gputbs" ]; then
	# staircase.gtbs: 60 blocks of 1000 cycles, R = 2, 15 SMs: two waves
	expect 0 "final,0,stair,0,2000,2000,1000,4,2,2000,1.000000" sh -c \
		"'$sim' run --trace '$tmp.d/stair.trace' '$root/workloads/tests/staircase.gtbs' >/dev/null &&
		 '$gputbs' predict --sms 15 --trace '$tmp.d/stair.trace'"
fi

# a workload name shorter than "workload": the columns stay aligned
cp "$here/kernels.gtbs" "$tmp.d/kernels.gtbs"
sed 's/^workload Short+Long$/workload ab/' "$here/pair.gtbs" >"$tmp.d/short.gtbs"
"$sim" run --sms 1 --policy fifo,srtf "$tmp.d/short.gtbs" >"$tmp.d/short.txt" 2>&1
if awk '/^  workload +\|/ { h = index($0, "|") } /^  ab +\|/ { r = index($0, "|") }
	END { exit !(h && h == r) }' "$tmp.d/short.txt"; then
	ok
else
	fail "side-by-side table: a short workload name shifts the separators"
	sed 's/^/  | /' "$tmp.d/short.txt" | tail -n 4
fi

# --- requests, gaps, long programs (workloads.rst "Requests") -------------
rq=$root/tests/userland/requests
# open loop, hand-worked in open10.gtbs: latencies, percentiles, SLO
"$sim" run --sms 1 "$rq/open10.gtbs" >"$tmp.d/open10" 2>&1
if grep -q '^  P              10         3000         5000         5500         5500         3250   1401000.0   1401000.0   50.00%$' \
	"$tmp.d/open10"; then
	ok
else
	fail "run open10.gtbs: not p50 3000, p90 5000, p99 5500, max 5500, mean 3250, 1401000 req/s, SLO 50%"
	sed 's/^/  | /' "$tmp.d/open10"
fi
# the JSON: per request, of the first policy's workloads
reqs() {
	python3 -c 'import json, sys
for r in json.load(open(sys.argv[1]))["workloads"][0]["runs"]:
    print(" ".join(sys.argv[2] % x for x in r["requests"]["list"]))' "$@"
}
"$sim" run --sms 1 --format json "$rq/open10.gtbs" >"$tmp.d/open10.json" 2>&1
lat=$(reqs "$tmp.d/open10.json" '%(latency_cycles)d')
if [ "$lat" = "1000 1500 2000 2500 3000 3500 4000 4500 5000 5500" ] &&
	grep -q '"p99_cycles": *5500' "$tmp.d/open10.json" &&
	grep -q '"slo_met": *5' "$tmp.d/open10.json"; then
	ok
else
	fail "run open10.gtbs --format json: latencies '$lat'"
fi
# closed loop with gap= and think=, hand-worked in closed.gtbs
"$sim" run --sms 1 --format json "$rq/closed.gtbs" >"$tmp.d/closed.json" 2>&1
got=$(reqs "$tmp.d/closed.json" '%(arrive_cycles)d-%(end_cycles)d')
if [ "$got" = "0-3001 0-4651 3051-6052" ] &&
	grep -q '"runtime_cycles": *3001' "$tmp.d/closed.json"; then
	ok
else
	fail "run closed.gtbs: requests '$got', not 0-3001 0-4651 3051-6052 (or alone not 3001)"
fi
# two requests of a closed loop that end at one cycle, one request left
"$sim" run --sms 2 --format json "$rq/together.gtbs" >"$tmp.d/together.json" 2>&1
got=$(reqs "$tmp.d/together.json" '%(arrive_cycles)d-%(end_cycles)d')
if [ "$got" = "0-1000 0-1000 1000-2000" ]; then
	ok
else
	fail "run together.gtbs: requests '$got', not 0-1000 0-1000 1000-2000"
fi
# TTFT and TPOT, hand-worked in tokens.gtbs
"$sim" run --sms 1 "$rq/tokens.gtbs" >"$tmp.d/tokens" 2>&1
if grep -q '^  LLM             2       3         1000         2000          600          950         2000          900   50.00%$' \
	"$tmp.d/tokens"; then
	ok
else
	fail "run tokens.gtbs: not TTFT 1000/2000, TPOT 600/950, 1 of 2 within slo-ttft and slo-tpot"
	sed 's/^/  | /' "$tmp.d/tokens"
fi
"$sim" run --sms 1 --format json "$rq/tokens.gtbs" >"$tmp.d/tokens.json" 2>&1
got=$(python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))["workloads"][0]["runs"][0]["requests"]
print(r["tokens"], r["ttft_p50_cycles"], r["ttft_p99_cycles"],
      r["tpot_p50_cycles"], r["tpot_p99_cycles"], r["tokens_met"],
      r["tokens_attainment"], "%.6f" % r["ttft_p99_ms"])' "$tmp.d/tokens.json")
if [ "$got" = "3 1000 2000 600 950 1 0.5 0.001428" ]; then
	ok
else
	fail "run tokens.gtbs --format json: '$got'"
fi
# a run's class= is its grids' class=, under policies that read classes
sed 's/ class=[a-z]*$//' "$rq/run-class.gtbs" >"$tmp.d/noclass.gtbs"
for f in "$rq/run-class.gtbs" "$rq/run-class-grids.gtbs" "$tmp.d/noclass.gtbs"; do
	"$sim" run -P fifo,srtf,fair "$f" 2>&1 |
		sed -n '/^  requests/,/^  I /p' >"$tmp.d/$(basename "$f").req"
done
if [ -s "$tmp.d/run-class.gtbs.req" ] &&
	cmp -s "$tmp.d/run-class.gtbs.req" "$tmp.d/run-class-grids.gtbs.req" &&
	! cmp -s "$tmp.d/run-class.gtbs.req" "$tmp.d/noclass.gtbs.req"; then
	ok
else
	fail "run-class.gtbs: a run's class= does not run as its grids' class="
fi
# Poisson arrivals: the same seed, the same output; another seed, another
sed 's/seed=7/seed=8/' "$root/tests/userland/good/requests.gtbs" >"$tmp.d/seed8.gtbs"
"$sim" run "$root/tests/userland/good/requests.gtbs" >"$tmp.d/p1" 2>&1
"$sim" run "$root/tests/userland/good/requests.gtbs" >"$tmp.d/p2" 2>&1
"$sim" run "$tmp.d/seed8.gtbs" >"$tmp.d/p3" 2>&1
if cmp -s "$tmp.d/p1" "$tmp.d/p2" && ! cmp -s "$tmp.d/p1" "$tmp.d/p3"; then
	ok
else
	fail "run requests.gtbs: Poisson arrivals not reproducible by their seed"
fi
# --plot: a latency CDF and a throughput figure per run with requests
expect 0 "2 figures (SVG, PNG)" "$sim" run --sms 1 --policy fifo,srtf \
	--plot "$tmp.d/rqplot" "$rq/open10.gtbs"
missing=
for base in w0-r0-latency w0-r0-throughput; do
	head -n 3 "$tmp.d/rqplot/$base.svg" 2>/dev/null | grep -q '^<svg' ||
		missing="$missing $base.svg"
	magic=$(head -c 8 "$tmp.d/rqplot/$base.png" 2>/dev/null | od -An -tx1 | tr -d ' \n')
	[ "$magic" = 89504e470d0a1a0a ] || missing="$missing $base.png"
done
# open10's CDF under fifo: the 10 latencies, a tenth each
[ "$(tr '\n' ' ' <"$tmp.d/rqplot/w0-r0-latency-0.dat" 2>/dev/null)" = \
	"# latency(cycles) fraction of requests <= it 1000 0.100000 1500 0.200000 2000 0.300000 2500 0.400000 3000 0.500000 3500 0.600000 4000 0.700000 4500 0.800000 5000 0.900000 5500 1.000000 " ] ||
	missing="$missing w0-r0-latency-0.dat"
if [ -z "$missing" ]; then
	ok
else
	fail "run --plot: missing, empty or wrong:$missing"
fi
expect 2 "--plot: no run with requests" "$sim" run --plot "$tmp.d/none" \
	"$root/tests/userland/good/all.gtbs"

# --- tenants (workloads.rst "Tenants") --------------------------------------
# tenants.gtbs: fair's weighted shares, 10:90 within 0.5 percentage points
# and 1:99 within 0.2; max=30 holds 30% within 0.5 alone and beside an
# uncapped run, under every policy tried; no share without a common
# interval.  The SM shares are the JSON's.
"$sim" run --policy fair,fifo,srtf --format json "$here/tenants.gtbs" \
	>"$tmp.d/tenants.json" 2>&1
if python3 - "$tmp.d/tenants.json" >"$tmp.d/tenants.out" 2>&1 <<'PY'
import json, sys

d = json.load(open(sys.argv[1]))
errs = []


def near(what, got, want, tol):
    if got is None or abs(got - want) > tol:
        errs.append("%s: sm_share %r, not %.4f within %.4f" %
                    (what, got, want, tol))


for p in d["policies"]:
    wls = {w["name"]: w for w in p["workloads"]}
    pol = p["policy"]
    for name, runs in wls.items():
        for r in runs["runs"]:
            if "sm_share" not in r or "weight" not in r or "tenant" not in r:
                errs.append("%s %s: no tenant, weight or sm_share" % (pol, name))
    if pol == "fair":
        for name, (wa, wb), tol in (("fair-10-90", (0.10, 0.90), 0.005),
                                    ("fair-1-99", (0.01, 0.99), 0.002)):
            a, b = wls[name]["runs"]
            near("%s %s a" % (pol, name), a["sm_share"], wa, tol)
            near("%s %s b" % (pol, name), b["sm_share"], wb, tol)
            if (a["tenant"], b["tenant"]) != ("a", "b") or "max" in a:
                errs.append("%s %s: tenants %r" % (pol, name, (a, b)))
    c = wls["cap-alone"]["runs"][0]
    near("%s cap-alone" % pol, c["sm_share"], 0.30, 0.005)
    if c["max"] != 30 or c["weight"] != 100:
        errs.append("%s cap-alone: max %r weight %r" % (pol, c["max"], c["weight"]))
    c, u = wls["cap-beside"]["runs"]
    near("%s cap-beside capped" % pol, c["sm_share"], 0.30, 0.005)
    near("%s cap-beside uncapped" % pol, u["sm_share"], 0.70, 0.005)
    w = wls["apart"]
    if [r["sm_share"] for r in w["runs"]] != [None, None] or \
            w["share_from_cycles"] != 10000 or w["share_to_cycles"] != 4000:
        errs.append("%s apart: %r" % (pol, w))
# the alone runs: K, and K with its cap (too short to be throttled)
alone = [(a["program"], a.get("max"), a["sm_share"]) for a in d["alone"]]
if alone != [("K", None, 1.0), ("K", 30, 1.0)]:
    errs.append("alone: %r" % alone)
for e in errs:
    print(e)
sys.exit(1 if errs else 0)
PY
then
	ok
else
	fail "run tenants.gtbs: SM shares"
	sed 's/^/  | /' "$tmp.d/tenants.out"
fi
# the text: the alone table names the cap, each workload its tenants
expect 0 "  K (max 30%)  k           8      240      2000         4000         4000     +0.0%" \
	"$sim" run --policy fair "$here/tenants.gtbs"
expect 0 "  K            a            1          -  " \
	"$sim" run --policy fair "$here/tenants.gtbs"
expect 0 "  K            c          100        30%  " \
	"$sim" run --policy fifo "$here/tenants.gtbs"
# --share-window: fair-10-90's interval, 0..3334000, is ten windows of
# 333400 cycles exactly, so their mean is sm_share (to the JSON's 6
# decimals); and every window holds 10% and 90% within 0.6 points: at
# most one wave of the device's 120 slots handed to one tenant (120 blocks
# of 2000 cycles at R = 8: 30,000 SM-cycles of the window's 15 x 333,400 =
# 5,001,000; measured at most 0.34 points off).  1ms is 1,401,000 cycles
# on the default GTX 480: two whole windows, the last partial one dropped.
"$sim" run --policy fair --format json --share-window 333400,1ms \
	"$here/tenants.gtbs" >"$tmp.d/windows.json" 2>&1
if python3 - "$tmp.d/windows.json" >"$tmp.d/windows.out" 2>&1 <<'PY'
import json, sys

d = json.load(open(sys.argv[1]))
wls = {w["name"]: w for w in d["policies"][0]["workloads"]}
errs = []
a, b = wls["fair-10-90"]["runs"]
for r, want in ((a, 0.10), (b, 0.90)):
    sw = r["share_windows"]
    if [(x["window_cycles"], x["n"], len(x["shares"])) for x in sw] != \
            [(333400, 10, 10), (1401000, 2, 2)]:
        errs.append("windows %r" % [(x["window_cycles"], x["n"]) for x in sw])
        continue
    w = sw[0]
    if abs(sum(w["shares"]) / 10 - r["sm_share"]) > 2e-6 or \
            abs(w["mean"] - r["sm_share"]) > 2e-6:
        errs.append("mean %r of %r, sm_share %r" %
                    (w["mean"], w["shares"], r["sm_share"]))
    if min(w["shares"]) != w["min"] or max(w["shares"]) != w["max"]:
        errs.append("min/max %r %r of %r" % (w["min"], w["max"], w["shares"]))
    if any(abs(x - want) > 0.006 for x in w["shares"]):
        errs.append("a window %.6f from %.2f: %r" %
                    (max(abs(x - want) for x in w["shares"]), want,
                     w["shares"]))
# the two runs hold the whole device in each window
for x, y in zip(a["share_windows"][0]["shares"], b["share_windows"][0]["shares"]):
    if abs(x + y - 1) > 2e-6:
        errs.append("a window's shares add up to %.6f" % (x + y))
# no interval, no window
for r in wls["apart"]["runs"]:
    if [(x["n"], x["shares"], x["mean"]) for x in r["share_windows"]] != \
            [(0, [], None), (0, [], None)]:
        errs.append("apart: %r" % r["share_windows"])
for e in errs:
    print(e)
sys.exit(1 if errs else 0)
PY
then
	ok
else
	fail "run --share-window tenants.gtbs"
	sed 's/^/  | /' "$tmp.d/windows.out"
fi
# --cap-period: cap-alone (max=30) with windows of 100,000 cycles holds
# 30% in every window at the default period of 100,000 cycles, and with
# a period of 1,000,000 spends each period's quota on the whole device in
# its first 300,000 cycles: windows of 100% and of 0%
for period in 100000 1000000; do
	"$sim" run --policy fifo --format json --cap-period $period \
		--share-window 100000 "$here/tenants.gtbs" \
		>"$tmp.d/period$period.json" 2>&1
done
if python3 - "$tmp.d/period100000.json" "$tmp.d/period1000000.json" \
	>"$tmp.d/period.out" 2>&1 <<'PY'
import json, sys

def cap_alone(path):
    d = json.load(open(path))
    wl = [w for w in d["policies"][0]["workloads"] if w["name"] == "cap-alone"]
    return wl[0]["runs"][0]["share_windows"][0]

short, long_ = cap_alone(sys.argv[1]), cap_alone(sys.argv[2])
errs = []
if not (short["n"] > 20 and 0.295 <= short["min"] and short["max"] <= 0.305):
    errs.append("period 100000: windows %d, %.4f..%.4f" %
                (short["n"], short["min"], short["max"]))
if not (long_["n"] > 20 and long_["min"] == 0 and long_["max"] > 0.99):
    errs.append("period 1000000: windows %d, %.4f..%.4f" %
                (long_["n"], long_["min"], long_["max"]))
for e in errs:
    print(e)
sys.exit(1 if errs else 0)
PY
then
	ok
else
	fail "run --cap-period tenants.gtbs"
	sed 's/^/  | /' "$tmp.d/period.out"
fi
expect 2 "--cap-period: '0' is not 1..8589934592 cycles" \
	"$sim" run --cap-period 0 "$here/tenants.gtbs"
expect 2 "--cap-period: '8589934593' is not 1..8589934592 cycles" \
	"$sim" run --cap-period 8589934593 "$here/tenants.gtbs"
expect 2 "--share-window: unknown unit 'min'" \
	"$sim" run --share-window 1ms,2min "$here/tenants.gtbs"
expect 2 "--share-window: '0' out of range" \
	"$sim" run --share-window 0 "$here/tenants.gtbs"
expect 2 "--share-window: more than 4 lengths" \
	"$sim" run --share-window 1,2,3 --share-window 4,5 "$here/tenants.gtbs"
# preempt.gtbs on one SM under srtf-oracle: from Short's arrival (50) to
# its end (7194), Long holds the SM while its block's context is saved
# (50..6194), Short for its two blocks (6194..7194): 6144 / 7144 and
# 1000 / 7144; flushed, Long gives the SM up at 50: 0 and 1
share() {
	python3 -c 'import json, sys
w = json.load(open(sys.argv[1]))["workloads"][0]
print(w["share_from_cycles"], w["share_to_cycles"],
      " ".join("%.6f" % r["sm_share"] for r in w["runs"]))' "$1"
}
"$sim" run --sms 1 --policy srtf-oracle --preempt switch --format json \
	"$here/preempt.gtbs" >"$tmp.d/psw.json" 2>&1
got=$(share "$tmp.d/psw.json" 2>&1)
if [ "$got" = "50 7194 0.860022 0.139978" ]; then
	ok
else
	fail "run preempt.gtbs --preempt switch: SM shares '$got'"
fi
"$sim" run --sms 1 --policy srtf-oracle --preempt flush --idempotent \
	--format json "$here/preempt.gtbs" >"$tmp.d/pfl.json" 2>&1
got=$(share "$tmp.d/pfl.json" 2>&1)
if [ "$got" = "50 1050 0.000000 1.000000" ]; then
	ok
else
	fail "run preempt.gtbs --preempt flush: SM shares '$got'"
fi
# without tenant keys the text has no tenants' table
if "$sim" run --sms 1 --policy srtf-oracle "$here/preempt.gtbs" |
	grep -q "SM share"; then
	fail "run preempt.gtbs: a tenants' table without tenant keys"
else
	ok
fi

# --- eval --scenario: the summary of request streams under every policy ----
sc=$root/tests/userland/scenario
# tiny.gtbs, hand-worked: p50 3 ms, p99 5.5 ms, SLO 50%, 1000 req/s,
# STP 0.308, ANTT 3.25, alike under every policy (one request at a time)
"$sim" eval --sms 1 --scenario "$sc/tiny.gtbs" >"$tmp.d/tiny" 2>&1
rows=$(grep -c '^  [a-z-]* *0\.308   3\.250  |    3\.000     5\.500    50\.0%   1000\.0$' \
	"$tmp.d/tiny")
# one row per registered policy (eval --help lists them)
npol=$("$sim" eval --help | sed -n 's/.*registry.s order: \([a-z0-9_,-]*\)).*/\1/p' |
	tr ',' '\n' | grep -c .)
if [ "$rows" = "$npol" ] && grep -q '^scenarios on h100 (1 SMs, 1980 MHz)' "$tmp.d/tiny" &&
	grep -q '| P, SLO 3 ms$' "$tmp.d/tiny"; then
	ok
else
	fail "eval --scenario tiny.gtbs: not $npol rows (h100 policies) of STP 0.308, ANTT 3.25, p50 3 ms, p99 5.5 ms, SLO 50%, 1000 req/s"
	sed 's/^/  | /' "$tmp.d/tiny"
fi
"$sim" eval --sms 1 --scenario "$sc/tiny.gtbs" --policies fifo,sjf \
	--format json >"$tmp.d/tiny.json" 2>/dev/null
got=$(python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(d["device"]["preset"], " ".join("%s:%.3f/%.3f/%.3f/%.3f/%.3f/%d/%.1f" % (p["policy"], p["stp"], p["antt"],
      r["p50_ms"], r["p99_ms"], r["slo_attainment"], r["slo_met"], r["requests_per_s"])
      for s in d["scenarios"] for p in s["policies"] for r in p["runs"]))' \
	"$tmp.d/tiny.json" 2>&1)
if [ "$got" = "h100 fifo:0.308/3.250/3.000/5.500/0.500/5/1000.0 sjf:0.308/3.250/3.000/5.500/0.500/5/1000.0" ]; then
	ok
else
	fail "eval --scenario --format json tiny.gtbs: '$got'"
fi
# a directory: its *.gtbs but models.gtbs, by name: tiny.gtbs (1
# workload), two.gtbs (2); one row per policy per workload, and no
# request columns for two.gtbs's run without requests
"$sim" eval --sms 1 --scenario "$sc" --policies fifo,srtf,ljf >"$tmp.d/dir" 2>&1
got=$(awk '/^[a-z+-]+ \(/ { w = $1 } /^  (fifo|srtf|ljf) / { print w ":" $1 ":" NF }' \
	"$tmp.d/dir" | tr '\n' ' ')
if [ "$got" = "stream:fifo:8 stream:srtf:8 stream:ljf:8 stream+batch:fifo:8 stream+batch:srtf:8 stream+batch:ljf:8 closed:fifo:8 closed:srtf:8 closed:ljf:8 " ]; then
	ok
else
	fail "eval --scenario DIR: rows '$got'"
	sed 's/^/  | /' "$tmp.d/dir"
fi
# the same files given one by one, the second after the options
"$sim" eval --scenario "$sc/tiny.gtbs" --sms 1 --policies fifo,srtf,ljf \
	"$sc/two.gtbs" >"$tmp.d/dir2" 2>&1
if cmp -s "$tmp.d/dir" "$tmp.d/dir2"; then
	ok
else
	fail "eval --scenario FILE ... FILE: not the directory's output"
fi
# --jobs: the workloads under the policies on 1 and 3 threads, byte for
# byte the same (the default, online CPUs, made $tmp.d/dir)
for j in 1 3; do
	"$sim" eval --scenario "$sc" --sms 1 --policies fifo,srtf,ljf \
		--jobs $j >"$tmp.d/dir.j$j" 2>&1
	if cmp -s "$tmp.d/dir" "$tmp.d/dir.j$j"; then
		ok
	else
		fail "eval --scenario --jobs $j: not the default's output"
	fi
done
"$sim" run --device h100 --format json --policy fifo,srtf,sjf,ljf --jobs 1 \
	"$here/pair.gtbs" "$sc/two.gtbs" >"$tmp.d/run.j1" 2>&1
"$sim" run --device h100 --format json --policy fifo,srtf,sjf,ljf --jobs 4 \
	"$here/pair.gtbs" "$sc/two.gtbs" >"$tmp.d/run.j4" 2>&1
if cmp -s "$tmp.d/run.j1" "$tmp.d/run.j4" &&
	grep -q '"shared_cycles"' "$tmp.d/run.j1"; then
	ok
else
	fail "run --jobs 1 and --jobs 4 differ, or no result"
	diff "$tmp.d/run.j1" "$tmp.d/run.j4" | head -5
fi
expect 2 "gputbs-sim: bad job count '0' (1..256)" \
	"$sim" run --jobs 0 "$here/pair.gtbs"
expect 2 "gputbs-sim: bad job count '257' (1..256)" \
	"$sim" eval --scenario "$sc/tiny.gtbs" --jobs 257
expect 2 "gputbs-sim: --scenario $tmp.d/none.gtbs: $tmp.d/none.gtbs: No such file or directory" \
	"$sim" eval --scenario "$tmp.d/none.gtbs"
expect 2 "gputbs-sim: $here/pair.gtbs:6: workload Short+Long has no run with requests (requests= above 1 or slo=)" \
	"$sim" eval --scenario "$here/pair.gtbs"
expect 2 "gputbs-sim: $sc/models.gtbs:6: no workload defined" \
	"$sim" eval --scenario "$sc/models.gtbs"
mkdir -p "$tmp.d/empty"
expect 2 "gputbs-sim: --scenario $tmp.d/empty: no workload file (*.gtbs but models.gtbs) in $tmp.d/empty" \
	"$sim" eval --scenario "$tmp.d/empty"
expect 2 "gputbs-sim: --offsets is an option of the pairwise sweep, not of --scenario" \
	"$sim" eval --scenario "$sc/tiny.gtbs" --offsets 0
expect 2 "gputbs-sim: --policies: unknown policy 'lifo'" \
	"$sim" eval --scenario "$sc/tiny.gtbs" --policies lifo
expect 0 "--scenario FILE|DIR|all" "$sim" eval --help

# --- run --load: the scenarios rescaled (issue 31) ---------------------------
# resnet50-infer+train: the inference stream saturates the h100 at one
# request per 140304 cycles (its 50 requests at once under fifo), so load
# 0.3 is 0.3 * 1980000000 / 140304 = 4233.664 per second; in the file's
# span (50 / 156 s = 634615384 cycles) ceil(1356.5) = 1357 requests
# arrive; training steps of 13911757 cycles cover them in 46 (worked out
# in requests-test.c); the same point as gputbs-sim sweep's at load 0.3
scn=$root/workloads/scenarios
"$sim" run --device h100 --load 0.3 "$scn/resnet50-infer+train.gtbs" \
	>"$tmp.d/load.txt" 2>&1
if grep -q '^  resnet50-infer  rate 4233\.664/s (load 0\.3), 1357 requests (service interval alone under fifo 140304 cyc)$' "$tmp.d/load.txt" &&
	grep -q '^  resnet50-train  46 requests (load 0\.3), 1 outstanding (alone under fifo 13911757 cyc)$' "$tmp.d/load.txt" &&
	grep -q '^  resnet50-train *46 ' "$tmp.d/load.txt"; then
	ok
else
	fail "run --load 0.3 resnet50-infer+train: not rate 4233.664/s, 1357 requests and 46 training steps"
	grep -v '^  resnet50-train  [a-z]' "$tmp.d/load.txt" | tail -n 12 | sed 's/^/  | /'
fi
"$sim" run --device h100 --load 0.3 --format json \
	"$scn/resnet50-infer+train.gtbs" >"$tmp.d/load.json" 2>&1
"$sim" sweep --policies fifo --load 0.3 --format json \
	"$scn/resnet50-infer+train.gtbs" >"$tmp.d/sweep.json" 2>&1
got=$(python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
w = d["workloads"][0]
print(w["load"], " ".join("%s:%s:%d:%d:%d:%d:%d" % (r["program"], r.get("rate_per_s", "-"),
      r["nr_requests"], r["requests"]["n"], r["load_alone_cycles"],
      r["requests"]["p50_cycles"], r["requests"]["p99_cycles"]) for r in w["runs"]))
# the sweep point: the first stats object of each run
def stats(o, acc):
    if isinstance(o, dict):
        if "p99_cycles" in o and "requests" in o:
            acc.append("%d:%d:%d" % (o["requests"], o["p50_cycles"], o["p99_cycles"]))
            return
        for v in o.values():
            stats(v, acc)
    elif isinstance(o, list):
        for v in o:
            stats(v, acc)
acc = []
stats(json.load(open(sys.argv[2])), acc)
print(acc[0], acc[2])' "$tmp.d/load.json" "$tmp.d/sweep.json" 2>&1)
if [ "$got" = "0.3 resnet50-infer:4233.664:1357:1357:140304:4378985:5617102 resnet50-train:-:46:46:13911757:15466790:16073468
1357:4378985:5617102 46:15466790:16073468" ]; then
	ok
else
	fail "run --load 0.3 --format json, and sweep --load 0.3's point: '$got'"
fi
# whatever the policy: the load's unit is fifo's, so srtf's workload is
# fifo's
"$sim" run --device h100 --load 0.3 -P srtf "$scn/resnet50-infer+train.gtbs" \
	>"$tmp.d/load-srtf.txt" 2>&1
if grep -q 'rate 4233\.664/s (load 0\.3), 1357 requests' "$tmp.d/load-srtf.txt" &&
	grep -q '^  resnet50-train  46 requests (load 0\.3)' "$tmp.d/load-srtf.txt"; then
	ok
else
	fail "run --load 0.3 -P srtf: not fifo's scaling"
fi
# load 0.6: twice the rate, 2714 requests in the same span, still 46
# steps; without --load the file's 50 requests and 46 steps
expect 0 "resnet50-infer  rate 8467.328/s (load 0.6), 2714 requests" \
	"$sim" run --device h100 --load 0.6 "$scn/resnet50-infer+train.gtbs"
"$sim" run --device h100 "$scn/resnet50-infer+train.gtbs" >"$tmp.d/noload.txt" 2>&1
if grep -q '^  resnet50-train *46 ' "$tmp.d/noload.txt" &&
	grep -q '^  resnet50-infer *50 ' "$tmp.d/noload.txt" &&
	! grep -q '(load ' "$tmp.d/noload.txt"; then
	ok
else
	fail "run without --load: not the file's 50 requests and 46 steps, or a load line"
fi
# --duration 10ms: 19800000 cycles at 8467.328 per second, ceil(84.67) =
# 85 requests; they span 19876400 cycles: 2 training steps
expect 0 "resnet50-infer  rate 8467.328/s (load 0.6), 85 requests" \
	"$sim" run --device h100 --load 0.6 --duration 10ms "$scn/resnet50-infer+train.gtbs"
expect 0 "resnet50-train  2 requests (load 0.6)" \
	"$sim" run --device h100 --load 0.6 --duration 19800000 "$scn/resnet50-infer+train.gtbs"
expect 2 "gputbs-sim: --duration needs --load" \
	"$sim" run --duration 10ms "$scn/resnet50-infer+train.gtbs"
for dur in 0 10x -1 1.5ms ""; do
	expect 2 "gputbs-sim: --duration: '$dur' is not a time (1..2^40 cycles, or ns, us, ms or s)" \
		"$sim" run --load 0.6 --duration "$dur" "$scn/resnet50-infer+train.gtbs"
done
for load in "" 0 0.0 -1 1e-1 0.0000001 100.000001 0.3,0.6 x; do
	expect 2 "gputbs-sim: bad load '$load' (a decimal number of 0.000001..100, at most 6 decimals)" \
		"$sim" run --load "$load" "$scn/resnet50-infer+train.gtbs"
done
expect 2 "option '--load' requires an argument" "$sim" run --load
expect 0 "--load LOAD" "$sim" run --help

# several workload files, as gputbs run: both workloads and their geomean;
# a program defined differently in two files is an error
expect 0 "geomean over 2 workloads" "$sim" run "$rq/open10.gtbs" \
	"$root/tests/userland/good/classes.gtbs"
printf 'program P\ngrid g blocks=2 threads=32 cycles=5\nworkload Z\nrun P\n' \
	>"$tmp.d/other-p.gtbs"
expect 2 "gputbs-sim: $tmp.d/other-p.gtbs:1: program 'P' differs from its definition at $rq/open10.gtbs:8" \
	"$sim" run "$rq/open10.gtbs" "$tmp.d/other-p.gtbs"

# a program of 10,000 kernels (no limit of grids per program): each grid
# of 30 blocks fits one wave alone, so the program's runtime is the sum
awk 'BEGIN { print "program Long"
	for (i = 1; i <= 10000; i++)
		printf "grid k%d blocks=30 threads=256 regs=20 cycles=%d\n", i, 100 + i % 7
	print "workload L"; print "run Long" }' >"$tmp.d/long.gtbs"
want=$(awk 'BEGIN { for (i = 1; i <= 10000; i++) s += 100 + i % 7; print s }')
"$sim" run --format json "$tmp.d/long.gtbs" >"$tmp.d/long.json" 2>&1
if grep -q "\"runtime_cycles\": *$want," "$tmp.d/long.json" &&
	[ "$(grep -c '"label": *"k' "$tmp.d/long.json")" -eq 30000 ]; then
	ok
else
	fail "run of a 10,000-kernel program: no alone runtime of $want cycles, or not 3 x 10,000 grids (alone, workload, policy)"
	head -c 600 "$tmp.d/long.json" | sed 's/^/  | /'
fi

# --- report: the JSON read back ------------------------------------------
if ! "$sim" report --results "$tmp.d/j1.json" >"$tmp.d/r.text" 2>&1; then
	fail "report --results of eval's JSON exited non-zero"
	sed 's/^/  | /' "$tmp.d/r.text" | tail -n 5
elif ! cmp -s "$tmp.d/j1.text" "$tmp.d/r.text"; then
	fail "report: the text of eval's JSON read back differs from eval's text"
	diff "$tmp.d/j1.text" "$tmp.d/r.text" | head -n 10 | sed 's/^/  | /'
elif ! "$sim" report --results - --format json <"$tmp.d/j1.json" |
	cmp -s - "$tmp.d/j1.json"; then
	fail "report --format json: eval's JSON read back differs"
else
	ok
fi
# the timeline's blocks travel in the JSON: the same figures' data
"$sim" eval --workloads "$here" --sms 1 --offsets 0,10 --format json \
	--timeline Short+Long >"$tmp.d/tl.json" 2>&1
if "$sim" report --results "$tmp.d/tl.json" --plot "$tmp.d/rplot" \
	>/dev/null 2>&1 &&
	cmp -s "$tmp.d/plot/timeline-srtf.dat" "$tmp.d/rplot/timeline-srtf.dat" &&
	cmp -s "$tmp.d/plot/stp-10.dat" "$tmp.d/rplot/stp-10.dat" &&
	cmp -s "$tmp.d/plot/motivation.dat" "$tmp.d/rplot/motivation.dat" &&
	[ -s "$tmp.d/rplot/timeline-fifo.png" ]; then
	ok
else
	fail "report --plot: not the figures of eval --plot"
fi
# --sjf-key model: the module's key, said in the text and the JSON
expect 0 "sjf key: model" "$sim" eval --workloads "$here" --sms 1 \
	--offsets 0 --policies sjf --sjf-key model
expect 0 '"sjf_key": "model"' "$sim" eval --workloads "$here" --sms 1 \
	--offsets 0 --policies sjf --sjf-key model --format json
expect 0 "sjf key: measured" "$sim" eval --workloads "$here" --sms 1 \
	--offsets 0 --policies sjf
expect 2 "--sjf-key: unknown key 'oracle' (model or measured)" \
	"$sim" eval --workloads "$here" --sjf-key oracle
expect 0 "Usage: gputbs-sim report" "$sim" report --help
expect 2 "no --results FILE given" "$sim" report
expect 2 "--results: $tmp.d/none.json: No such file or directory" \
	"$sim" report --results "$tmp.d/none.json"
printf '{"tool": "x",\n "seed": [1, 2}\n' >"$tmp.d/bad.json"
expect 2 "$tmp.d/bad.json: line 2, column 15: array value separator ',' expected at '}'" \
	"$sim" report --results "$tmp.d/bad.json"
printf '{"tool": "x",\n "seed": [1,' >"$tmp.d/cut.json"
expect 2 "$tmp.d/cut.json: line 2, column 13: unexpected end of input" \
	"$sim" report --results "$tmp.d/cut.json"
printf '{"tool": "x"} {}\n' >"$tmp.d/two.json"
expect 2 "$tmp.d/two.json: line 1, column 15: unexpected character at '{'" \
	"$sim" report --results "$tmp.d/two.json"
sed 's/"pair": "Short+Long"/"pair": "Long+Long"/' "$tmp.d/hand.json" \
	>"$tmp.d/bad2.json"
expect 2 "pair 'Long+Long', not 'Short+Long' (pairs out of order)" \
	"$sim" report --results "$tmp.d/bad2.json"
sed '0,/"shared_cycles": 4950/s//"shared_cycles": 4951/' "$tmp.d/hand.json" \
	>"$tmp.d/bad3.json"
expect 2 "STP, ANTT or StrictF do not follow from the runtimes" \
	"$sim" report --results "$tmp.d/bad3.json"

# --- gputbs eval: the sweep's command line on the module --------------------
if [ -n "$gputbs" ]; then
	expect 0 "Usage: gputbs eval" "$gputbs" eval --help
	expect 0 "eval       the paper's evaluation sweep" "$gputbs" --help
	expect 2 "gputbs: unrecognized option '--jobs'" \
		"$gputbs" eval --jobs 2
	expect 2 "gputbs: unrecognized option '--sjf-key'" \
		"$gputbs" eval --sjf-key model
	expect 2 "gputbs: --offsets: bad offset list '0,,25'" \
		"$gputbs" eval --offsets 0,,25
	expect 2 "gputbs: --policies: unknown policy 'lifo'" \
		"$gputbs" eval --policies lifo
	expect 2 "gputbs: --timeline is drawn by --plot DIR" \
		"$gputbs" eval --workloads "$here" --timeline Short+Long
	expect 1 "gputbs: /nonexistent/gputbs: No such file or directory (is the module loaded?)" \
		"$gputbs" eval --device /nonexistent/gputbs --workloads "$here"
fi

summary sim
