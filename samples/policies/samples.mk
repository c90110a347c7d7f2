# SPDX-License-Identifier: GPL-2.0
#
# samples/policies/samples.mk - the sample policies, each one C file built
# two ways (sm-emu/gtbs_policy_module.h).  Included from the top-level
# Makefile after userlib/userland.mk, run from the top of the tree.
#
# Targets:
#   samples           both of the next two: build/samples/*.ko and *.so
#   samples-so        $(BUILD)/samples/gtbs_*.so, simulator plug-ins
#                     (gputbs-sim --policy-plugin FILE.so), and the
#                     simulator that loads them, $(BUILD)/bin/gputbs-sim
#   samples-ko        $(BUILD)/samples/gtbs_*.ko against the stock 6.12
#                     headers and build/kmod/Module.symvers, W=1 clean
#   samples-6.1       $(BUILD)/samples-6.1/*.ko against the 6.1 headers
#   samples-debug     $(BUILD)/samples-debug/*.ko against the debug kernel,
#                     for its guest (make check)
#   $(BUILD)/samples/test/*.so  plug-ins the host tests load: broken ones
#
# Every samples/policies/gtbs_*.c is a sample, found by wildcard here, in
# Kbuild, in the unit tests (unit.mk), in tests/userland/plugin-test.sh
# and in make check's guest step: a new one needs no other file edited.

SAMPLES_DIR := samples/policies
SAMPLES_SRCS := $(wildcard $(SAMPLES_DIR)/gtbs_*.c)
SAMPLES_SO := $(patsubst $(SAMPLES_DIR)/%.c,$(BUILD)/samples/%.so,$(SAMPLES_SRCS))
# the kernel build's inputs: the sources, Kbuild and the core's headers
SAMPLES_KO_SRCS := $(SAMPLES_DIR)/Kbuild $(SAMPLES_SRCS) $(wildcard sm-emu/*.h)
# test plug-ins for tests/userland/plugin-test.sh
SAMPLES_TEST_SO := $(patsubst tests/userland/plugins/%.c,$(BUILD)/samples/test/%.so,\
	$(wildcard tests/userland/plugins/*.c))

# A plug-in exports one symbol (GTBS_POLICY_MODULE()): hidden by default.
# Its ops keep the kernel's signatures, unused arguments included.
SAMPLES_SO_CFLAGS := $(USERLAND_CFLAGS) -Wno-unused-parameter -fPIC \
	-fvisibility=hidden

.PHONY: samples samples-so samples-ko samples-6.1 samples-debug

samples: samples-ko samples-so

# the documented use is gputbs-sim --policy-plugin: the simulator too.
# A plug-in whose source is gone (a checkout, a removed sample) goes, so
# that what tests find by wildcard in $(BUILD)/samples is the tree's.
samples-so: $(SAMPLES_SO) $(SAMPLES_TEST_SO) $(UL_BIN)/gputbs-sim
	@rm -f $(filter-out $(SAMPLES_SO),$(wildcard $(BUILD)/samples/gtbs_*.so)) \
		$(patsubst %.so,%.d,$(filter-out $(SAMPLES_SO),\
		$(wildcard $(BUILD)/samples/gtbs_*.so)))

$(BUILD)/samples/%.so: $(SAMPLES_DIR)/%.c
	@mkdir -p $(dir $@)
	$(CC) $(SAMPLES_SO_CFLAGS) $(CFLAGS) -shared $(LDFLAGS) -o $@ $<

$(BUILD)/samples/test/%.so: tests/userland/plugins/%.c
	@mkdir -p $(dir $@)
	$(CC) $(SAMPLES_SO_CFLAGS) $(CFLAGS) -shared $(LDFLAGS) -o $@ $<

samples-ko: $(BUILD)/kmod/gputbs.ko $(SAMPLES_KO_SRCS)
	+scripts/build-samples.sh "$(STOCK_KDIR)" $(BUILD)/kmod $(BUILD)/samples

samples-6.1: module-6.1 $(SAMPLES_KO_SRCS)
	+scripts/build-samples.sh "$(KDIR_61)" $(BUILD)/kmod-6.1 $(BUILD)/samples-6.1

samples-debug: module-debug $(SAMPLES_KO_SRCS)
	+scripts/build-samples.sh "$(DEBUG_KERNEL_DIR)" $(BUILD)/kmod-debug \
		$(BUILD)/samples-debug

-include $(wildcard $(BUILD)/samples/*.d $(BUILD)/samples/test/*.d)
