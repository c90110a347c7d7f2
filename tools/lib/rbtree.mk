# SPDX-License-Identifier: GPL-2.0
#
# tools/lib/rbtree.mk - the kernel's red-black trees for the userland build
# of the portable core, taken from the linux-source-6.12 package at build
# time, never copied into the tree (Documentation/design.rst, "The core in
# userland").  Included at the end of the top-level Makefile: it adds to
# the programs of the makefiles before it.
#
#   $(RBTREE_STAMP)  extracts, once, tools/lib/rbtree.c and the headers it
#                    includes from $(LINUX_SRC_TAR) into $(RBTREE_DIR)/, and
#                    tools/include/linux/rbtree.h alone into $(RBTREE_INC)/
#
# The core's files see only $(RBTREE_INC) (-I): <linux/rbtree.h> on top of
# tools/include/gtbs_shim_user.h (sm-emu/gtbs_shim.h).  The rest of the
# kernel's tools/include (its own u64, list_head, container_of) is seen by
# rbtree.c alone, compiled once per flavour of the programs that link the
# core: plain (gputbs, gputbs-sim, the benchmarks), ASan (the CLI of
# check-userland-asan), the unit tests' compiler and the fuzzers' (clang).
# The kernel's code is built with the project's warnings but not -Werror.

LINUX_SRC_TAR ?= /usr/src/linux-source-6.12.tar.xz
RBTREE_TOP := linux-source-6.12
RBTREE_DIR := $(BUILD)/$(RBTREE_TOP)
RBTREE_SRC := $(RBTREE_DIR)/$(RBTREE_TOP)/tools
RBTREE_INC := $(RBTREE_DIR)/include
RBTREE_STAMP := $(RBTREE_DIR)/.extracted
# rbtree.c and what it includes, found with gcc -H and clang -H
RBTREE_MEMBERS := lib/rbtree.c \
	$(addprefix include/linux/, rbtree.h rbtree_augmented.h export.h \
		compiler.h compiler_types.h compiler-gcc.h types.h kernel.h \
		build_bug.h math.h panic.h) \
	include/asm-generic/bitsperlong.h \
	include/uapi/asm-generic/bitsperlong.h
RBTREE_C := $(RBTREE_SRC)/lib/rbtree.c
RBTREE_CFLAGS := -std=gnu11 -Wall -Wextra -Wno-unused-parameter \
	-I$(RBTREE_SRC)/include

RBTREE_OBJ := $(UL_OBJ)/$(RBTREE_TOP)/rbtree.o
RBTREE_ASAN_OBJ := $(ASAN_OBJ)/$(RBTREE_TOP)/rbtree.o
RBTREE_UNIT_OBJ := $(BUILD)/unit/rbtree.o
RBTREE_FUZZ_OBJ := $(FUZZ_DIR)/rbtree.o

# A package upgrade extracts again; a missing tarball stops the build here.
$(RBTREE_STAMP): $(wildcard $(LINUX_SRC_TAR))
	@test -f $(LINUX_SRC_TAR) || { echo "tools/lib/rbtree.mk:" \
		"linux-source-6.12 is not installed ($(LINUX_SRC_TAR) is" \
		"missing): run scripts/deps.sh demo" >&2; exit 1; }
	rm -rf $(RBTREE_DIR)
	mkdir -p $(RBTREE_INC)/linux
	tar -xJf $(LINUX_SRC_TAR) -C $(RBTREE_DIR) \
		$(addprefix $(RBTREE_TOP)/tools/,$(RBTREE_MEMBERS))
	cp $(RBTREE_SRC)/include/linux/rbtree.h $(RBTREE_INC)/linux/
	touch $@

$(RBTREE_OBJ): $(RBTREE_STAMP)
	@mkdir -p $(dir $@)
	$(CC) -O2 -g $(RBTREE_CFLAGS) $(CFLAGS) -c -o $@ $(RBTREE_C)

$(RBTREE_ASAN_OBJ): $(RBTREE_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(ASAN_CFLAGS) $(RBTREE_CFLAGS) $(CFLAGS) -c -o $@ $(RBTREE_C)

$(RBTREE_UNIT_OBJ): $(RBTREE_STAMP)
	@mkdir -p $(dir $@)
	$(UNIT_CC) $(ASAN_CFLAGS) $(RBTREE_CFLAGS) -c -o $@ $(RBTREE_C)

$(RBTREE_FUZZ_OBJ): $(RBTREE_STAMP)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) -g -O1 -fsanitize=fuzzer-no-link,address,undefined \
		-fno-sanitize-recover=all $(RBTREE_CFLAGS) -c -o $@ $(RBTREE_C)

# Every file that includes sm-emu/gtbs_shim.h finds <linux/rbtree.h> ...
USERLAND_CFLAGS += -I$(RBTREE_INC)
SAMPLES_SO_CFLAGS += -I$(RBTREE_INC)
UNIT_CFLAGS += -I$(RBTREE_INC)
FUZZ_CFLAGS += -I$(RBTREE_INC)
$(GPUTBS_CLI_OBJS) $(GPUTBS_SIM_OBJS) $(GPUTBS_ASAN_OBJS) \
	$(BENCH_SCHED_OBJS) $(BENCH_PREEMPT_OBJS) $(SAMPLES_SO) \
	$(SAMPLES_TEST_SO) $(FUZZ_TARGETS): | $(RBTREE_STAMP)

# ... and every program that links the core links rbtree.c.
$(UL_BIN)/gputbs $(UL_BIN)/gputbs-sim $(BENCH_SCHED) $(BENCH_PREEMPT): \
	$(RBTREE_OBJ)
$(ASAN_OBJ)/gputbs: $(RBTREE_ASAN_OBJ)
$(BUILD)/unit/gputbs-unit: $(RBTREE_UNIT_OBJ)
UNIT_LDLIBS := $(RBTREE_UNIT_OBJ) $(UNIT_LDLIBS)
$(FUZZ_DIR)/fuzz_sched: $(RBTREE_FUZZ_OBJ)
FUZZ_CORE += $(RBTREE_FUZZ_OBJ)

# the extraction alone (scripts/sched-compare.sh)
.PHONY: rbtree-src
rbtree-src: $(RBTREE_STAMP)
