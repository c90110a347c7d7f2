# SPDX-License-Identifier: GPL-2.0
#
# reliability.mk - the in-guest reliability programs (Documentation/
# reliability.rst), included by userlib/userland.mk before its userland
# target, so that they join USERLAND_BINS and the initramfs.
#
#   $(BUILD)/bin/gputbs-hygiene-test  input hygiene, limits, isolation,
#                                     lifetimes (Check)
#   $(BUILD)/bin/gputbs-stress        many processes, thousands of grids,
#                                     policies switching, invariants
#   $(BUILD)/bin/gputbs-failnth       fail-nth fault injection on every path
#   $(BUILD)/bin/gputbs-fuzz          ioctl fuzzer over several processes
#   $(BUILD)/bin/gputbs-reliability   the guest driver of all of them
#
# Targets (top level):
#   stress       gputbs-stress in the debug kernel guest, longer than in
#                make check: STRESS_GRIDS (default 20000), STRESS_PROCS
#                (default 64), STRESS_KILL (victims SIGKILLed mid-grid,
#                default 16), STRESS_TIMEOUT (VM seconds, default 1800);
#                the campaign of Documentation/reliability.rst:
#                make stress STRESS_GRIDS=100000 STRESS_PROCS=32 \
#                STRESS_KILL=1000 STRESS_TIMEOUT=3600
#   fuzz-guest   gputbs-fuzz in the debug kernel guest for FUZZ_TIME
#                seconds (default 600; make fuzz runs it after the host
#                targets), FUZZ_PROCS processes (default 8)

RELIABILITY_BINS := $(UL_BIN)/gputbs-hygiene-test $(UL_BIN)/gputbs-stress \
	$(UL_BIN)/gputbs-failnth $(UL_BIN)/gputbs-fuzz \
	$(UL_BIN)/gputbs-reliability
USERLAND_BINS += $(RELIABILITY_BINS)

$(UL_OBJ)/tests/guest/gputbs-hygiene-test.o: USERLAND_CFLAGS += $(CHECK_CFLAGS)

$(UL_BIN)/gputbs-hygiene-test: $(UL_OBJ)/tests/guest/gputbs-hygiene-test.o
	@mkdir -p $(dir $@)
	$(CC) -static -pthread $(LDFLAGS) -o $@ $^ $(CHECK_LIBS)

$(UL_BIN)/gputbs-stress: $(UL_OBJ)/tests/stress/gputbs-stress.o
	@mkdir -p $(dir $@)
	$(CC) -static $(LDFLAGS) -o $@ $^

$(UL_BIN)/gputbs-failnth: $(UL_OBJ)/tests/guest/gputbs-failnth.o
	@mkdir -p $(dir $@)
	$(CC) -static $(LDFLAGS) -o $@ $^

$(UL_BIN)/gputbs-fuzz: $(UL_OBJ)/tests/guest/gputbs-fuzz.o
	@mkdir -p $(dir $@)
	$(CC) -static $(LDFLAGS) -o $@ $^

$(UL_BIN)/gputbs-reliability: tests/guest/gputbs-reliability.sh
	@mkdir -p $(dir $@)
	install -m 755 $< $@

STRESS_GRIDS ?= 20000
STRESS_PROCS ?= 64
STRESS_TIMEOUT ?= 1800
STRESS_KILL ?= 16
FUZZ_TIME ?= 600
FUZZ_PROCS ?= 8

.PHONY: stress fuzz-guest

stress: module-debug userland
	tools/vm/gputbs-vm --debug-kernel --quiet-boot --timeout $(STRESS_TIMEOUT) \
		--modparam gputbs.time_scale_ps=1000 -- \
		gputbs-stress --grids $(STRESS_GRIDS) --procs $(STRESS_PROCS) \
		--kill $(STRESS_KILL)

fuzz-guest: module-debug userland
	tools/vm/gputbs-vm --debug-kernel --quiet-boot \
		--timeout $$(( $(FUZZ_TIME) + 900 )) -- \
		gputbs-reliability fuzz $(FUZZ_TIME) $(FUZZ_PROCS)
