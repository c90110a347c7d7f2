#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# predict-compare.sh - "gputbs predict" of two builds on the same traces,
# byte for byte: for a change to the replay or to the slicing rules
# (sm-emu/predictor.c) that must not change any prediction.
#
# Usage: scripts/predict-compare.sh OLD-gputbs NEW-gputbs [gputbs-sim]
#
# Traces: every tests/userland/predict/*.trace (errors included), the
# block traces of gputbs-sim run --trace (default build/bin/gputbs-sim) of
# the demo pairs and workloads/tests/*.gtbs under fifo, mpmax, srtf,
# srtf-adaptive and sjf, 12 random traces (fixed seeds; overlapping grids,
# back-to-back blocks, up to 4 SMs) and tools/bench/replay-trace.py shapes;
# each with 8 option sets.  Every option set names its --predictor mode,
# so that builds on either side of a change of the default mode (extended
# until issue 29, literal since) compare.  Prints every difference and a
# last line "predict-compare: N identical, M differ"; exits 1 if any
# differ.
set -u

old=${1:?usage: predict-compare.sh OLD-gputbs NEW-gputbs [gputbs-sim]}
new=${2:?usage: predict-compare.sh OLD-gputbs NEW-gputbs [gputbs-sim]}
sim=${3:-build/bin/gputbs-sim}
top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/predict-compare.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT

cp "$top"/tests/userland/predict/*.trace "$tmp/"
for p in fifo mpmax srtf srtf-adaptive sjf; do
	for w in $(sed -e '/^#/d' "$top/workloads/ercbench/demo.list") \
		../tests/busy.gtbs ../tests/staircase.gtbs; do
		"$sim" run -P "$p" -r extended \
			-T "$tmp/sim-$p-$(basename "$w" .gtbs).trace" \
			"$top/workloads/ercbench/$w" >/dev/null 2>&1 ||
			echo "gputbs-sim run -P $p $w failed" >&2
	done
done
python3 - "$tmp" <<'EOF'
import random, sys
for seed in range(1, 13):
    rng = random.Random(seed)
    sms, grids, free, lines, t0 = seed % 4 + 1, 3 * seed, {}, [], 0
    out = []
    for g in range(grids):
        nb = rng.randint(1, 12)
        out.append("grid %d blocks=%d residency=%d label=g%d" %
                   (3 * g + 1, nb, rng.randint(1, 4), g))
        t0 += rng.randint(0, 60)
        for _ in range(nb):
            key = (rng.randrange(sms), rng.randrange(4))
            st = max(free.get(key, 0), t0 + rng.randint(0, 80))
            if rng.random() < 0.3:
                st = free.get(key, 0)
            dur = rng.choice([rng.randint(1, 200), 50, 100])
            free[key] = st + dur
            lines.append("block %d %d %d %d %d" %
                         (3 * g + 1, key[0], key[1], st, st + dur))
    rng.shuffle(lines)
    with open("%s/random-%d.trace" % (sys.argv[1], seed), "w") as f:
        f.write("\n".join(out + lines) + "\n")
EOF
python3 "$top/tools/bench/replay-trace.py" --grids 300 --sms 16 \
	>"$tmp/replay-300.trace"
python3 "$top/tools/bench/replay-trace.py" --grids 448 --sms 7 \
	>"$tmp/replay-448.trace"

same=0
differ=0
for t in "$tmp"/*.trace; do
	for args in "-r extended" "-u -r extended" "-r literal" \
		"-f json -r extended" "-S -r extended" "-u -r literal -f json" \
		"-r literal -S -f json" "--sms 1024 -r extended"; do
		# shellcheck disable=SC2086	# OPTIONS are words
		"$old" predict --trace "$t" $args >"$tmp/old" 2>&1
		echo "status $?" >>"$tmp/old"
		# shellcheck disable=SC2086
		"$new" predict --trace "$t" $args >"$tmp/new" 2>&1
		echo "status $?" >>"$tmp/new"
		if cmp -s "$tmp/old" "$tmp/new"; then
			same=$((same + 1))
		else
			differ=$((differ + 1))
			echo "differ: $(basename "$t") $args"
			diff "$tmp/old" "$tmp/new" | head -n 6 | sed 's/^/  | /'
		fi
	done
done
echo "predict-compare: $same identical, $differ differ"
[ "$differ" -eq 0 ]
