# SPDX-License-Identifier: GPL-2.0
#
# unit.mk - host unit tests of the portable core (sm-emu/) under ASan and
# UBSan, with the Check framework.  Included from the top-level Makefile:
#
#   make unit-test                      build and run every suite, with
#                                       the sample policies as plug-ins
#                                       (GTBS_UNIT_PLUGINS: their .so files)
#   make unit-test UNIT_FORK=yes        one process per test (isolation and
#                                       Check timeouts; ~5x slower)
#   make $(BUILD)/unit/gputbs-unit      build only
#
# Check's environment works as usual on the binary: CK_RUN_SUITE,
# CK_RUN_CASE, CK_FORK, CK_VERBOSITY.  LeakSanitizer is on: it needs no
# ptrace here, and any leak makes the run exit non-zero.

BUILD ?= build
UNIT_FORK ?= no

UNIT_DIR := tests/unit
UNIT_CC ?= $(CC)
UNIT_CFLAGS := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer \
	-fno-sanitize-recover=all -Wall -Wextra -Werror -Wno-unused-parameter \
	-std=gnu11 -Ism-emu $(shell pkg-config --cflags check)
# -rdynamic: the sample policies are loaded as plug-ins (dlopen) and link
# to the core in the binary, so that the conformance suite covers them
UNIT_LDLIBS := $(shell pkg-config --libs check) -rdynamic -ldl
UNIT_PLUGINS := $(patsubst samples/policies/%.c,$(BUILD)/samples/%.so,\
	$(wildcard samples/policies/gtbs_*.c))
UNIT_SRCS := $(addprefix $(UNIT_DIR)/,test_main.c harness.c \
	test_occupancy.c test_timing.c test_engine.c test_metrics.c \
	test_predictor.c test_policy.c test_policy_order.c test_timeout.c test_conformance.c \
	test_preempt.c test_throttle.c test_tenant.c test_parallel.c) \
	$(wildcard sm-emu/*.c) tools/lib/parallel.c
UNIT_HDRS := $(UNIT_DIR)/harness.h $(wildcard sm-emu/*.h tools/include/*.h) \
	tools/lib/parallel.h
UNIT_ENV := CK_FORK=$(UNIT_FORK) GTBS_UNIT_PLUGINS="$(UNIT_PLUGINS)" \
	ASAN_OPTIONS=detect_leaks=1:halt_on_error=1 \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

$(BUILD)/unit/gputbs-unit: $(UNIT_SRCS) $(UNIT_HDRS) $(UNIT_DIR)/unit.mk
	@mkdir -p $(dir $@)
	$(UNIT_CC) $(UNIT_CFLAGS) -o $@ $(UNIT_SRCS) $(UNIT_LDLIBS) -pthread

.PHONY: unit-test
unit-test: $(BUILD)/unit/gputbs-unit $(UNIT_PLUGINS)
	$(UNIT_ENV) $(BUILD)/unit/gputbs-unit
