#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# run-fuzz.sh DIR LIBFUZZER-OPTION [SEED] - run each host fuzz target of DIR
# from a seed corpus (the committed workload files, traces and recordings),
# with one libFuzzer option bounding it (-runs=N or -max_total_time=S).
# With SEED (make check's fuzz-host: FUZZ_SEED) the run is reproducible:
# libFuzzer's -seed and the scheduler's seed programs come from SEED, so a
# check that passed passes again; without it (make fuzz) both are random,
# to explore.  Prints one line per target and "fuzz: N passed, M failed";
# a crash leaves its input in DIR/TARGET-crash-* and fails the target.
set -u
dir=$1
bound=$2
seed=${3:-}
root=$(cd "$(dirname "$0")/../.." && pwd)
passed=0
failed=0

corpus() {	# corpus NAME FILES... : a fresh working corpus of the seeds
	c=$dir/corpus-$1
	rm -rf "$c"
	mkdir -p "$c"
	shift
	for f in "$@"; do
		[ -f "$f" ] && cp "$f" "$c/$(echo "$f" | tr / _)"
	done
	echo "$c"
}

run() {	# run TARGET CORPUS
	t=$1
	log=$dir/$t.log
	if "$dir/$t" "$2" "$bound" ${seed:+-seed=$seed} -close_fd_mask=3 \
		-artifact_prefix="$dir/$t-" >"$log" 2>&1; then
		passed=$((passed + 1))
		echo "ok: $t ($(grep -o 'Done [0-9]* runs' "$log" | tail -n 1))"
	else
		failed=$((failed + 1))
		echo "FAIL: $t"
		tail -n 30 "$log"
	fi
}

cd "$root" || exit 1
run fuzz_workload "$(corpus workload tests/userland/good/* \
	tests/userland/bad/* workloads/ercbench/kernels.gtbs \
	workloads/ercbench/pairs/AES-d+JPEG-d.gtbs)"
run fuzz_trace "$(corpus trace tests/userland/predict/*.trace)"
run fuzz_timeline "$(corpus timeline tests/userland/timeline/class.report \
	tests/userland/timeline/class.trace)"
# import: a mode byte (see fuzz_import.c) before each report
c=$(corpus import)
for f in tests/userland/import/good/*.csv tests/userland/import/bad/*.csv \
	tests/userland/import/bad-ncu/*.csv; do
	case $f in */ncu-* | */bad-ncu/*) m='\000' ;; *) m='\003' ;; esac
	{ printf '%b' "$m"; cat "$f"; } >"$c/$(echo "$f" | tr / _)"
done
{ printf '\001'; cat tests/userland/import/good/ncu-details.csv; } >"$c/both"
run fuzz_import "$c"
# the scheduler's input is a byte program: start from a few random seeds
# and the inputs of the crashes fixed so far (tests/fuzz/regress/sched/)
c=$(corpus sched tests/fuzz/regress/sched/*)
for i in 1 2 3 4 5 6 7 8; do
	if [ -n "$seed" ]; then
		LC_ALL=C awk -v s=$((seed * 8 + i)) 'BEGIN { srand(s)
			for (j = 0; j < 256; j++) printf "%c", int(rand() * 256) }' \
			</dev/null | LC_ALL=C head -c 256 >"$c/seed$i"
	else
		head -c 256 /dev/urandom >"$c/seed$i"
	fi
done
run fuzz_sched "$c"
echo "fuzz: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
