# SPDX-License-Identifier: GPL-2.0
#
# tools/bench/bench.mk - benchmarks (Documentation/performance.rst).
# Included from the top-level Makefile after userlib/userland.mk, whose
# compile rules and USERLAND_CFLAGS it uses.
#
#   bench        scripts/bench.sh: host and guest benchmarks, a table, and
#                $(BUILD)/bench/results.json and results.md;
#                BENCH_SMOKE=1 runs a tiny version (make check does);
#                then bench-tenants
#   bench-tenants  host only, no VM: tools/bench/tenants.py, tenants'
#                achieved SM shares against their weights and caps under
#                fair and fifo on the gtx480 and h100 presets
#                (tools/bench/tenants-*.gtbs), per run and per 1 ms and
#                10 ms window, beside the anchors (Documentation/
#                evaluation.rst, "Tenants: shares and caps");
#                $(BUILD)/bench/tenants.json and tenants.rst;
#                BENCH_SMOKE=1: the gtx480 preset only
#   $(BUILD)/bench/gputbs-bench-sched   host: scheduler CPU cost per block
#                event on the portable core, allocations counted
#   $(BUILD)/bench/gputbs-bench-preempt host: a realtime grid's preemption
#                latency and slowdown behind SHA1 per preemption mechanism,
#                in emulated cycles on the portable core (bench-preempt)
#
# The guest program, $(BUILD)/bin/gputbs-bench, is built with the rest of
# the userland (userlib/userland.mk) so that every guest has it.

BENCH_SCHED := $(BUILD)/bench/gputbs-bench-sched
BENCH_SCHED_OBJS := $(addprefix $(UL_OBJ)/, tools/bench/sched.o \
	tools/lib/workload.o tools/lib/input.o tools/lib/json.o) $(SIM_CORE_OBJS)
# every allocation of the process goes through a counter
BENCH_WRAP := -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=free
BENCH_PREEMPT := $(BUILD)/bench/gputbs-bench-preempt
BENCH_PREEMPT_OBJS := $(addprefix $(UL_OBJ)/, tools/bench/preempt.o \
	tools/lib/workload.o tools/lib/input.o tools/lib/json.o) $(SIM_CORE_OBJS)
# its backend op has the core's signature (unused arguments included)
$(UL_OBJ)/tools/bench/preempt.o: USERLAND_CFLAGS += -Wno-unused-parameter

.PHONY: bench bench-sched bench-preempt bench-tenants

bench-sched: $(BENCH_SCHED)

bench-preempt: $(BENCH_PREEMPT)

# --export-dynamic: policy plug-ins (--policy-plugin) call the core
$(BENCH_SCHED): $(BENCH_SCHED_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) $(BENCH_WRAP) -Wl,--export-dynamic -o $@ $^ \
		$(JSONC_LIBS) -lm -ldl

$(BENCH_PREEMPT): $(BENCH_PREEMPT_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(JSONC_LIBS) -lm

bench: deps-demo
	scripts/bench.sh $(if $(filter 1,$(BENCH_SMOKE)),--smoke)
	$(MAKE) -s bench-tenants

bench-tenants: $(UL_BIN)/gputbs-sim
	python3 tools/bench/tenants.py --sim $(UL_BIN)/gputbs-sim \
		--out $(BUILD)/bench$(if $(filter 1,$(BENCH_SMOKE)),/smoke --smoke)
