# SPDX-License-Identifier: GPL-2.0
#
# samples/bpf/bpf.mk - gputbs policies as BPF programs (Documentation/bpf.rst).
# Included from the top-level Makefile after tools/lib/libbpf.mk.
#
# Targets:
#   bpf-samples       $(BUILD)/bpf/*.bpf.o from samples/bpf/*.bpf.c, and the
#                     CLI that loads them (gputbs policy load)
#   $(BPF_TYPES_H)    the kernel's and the module's types as C, from the
#                     BTF of build/kmod/gputbs.ko on the stock kernel's
#                     (bpftool btf dump ... format c): what the programs
#                     are compiled against
#
# clang -target bpf, with libbpf's headers and bpftool from
# tools/lib/libbpf.mk.  The module's BTF is based on the vmlinux the
# stock headers ship (/usr/src/linux-headers-*/vmlinux, BPF_BASE_BTF),
# the BTF of the stock kernel itself; without it, the running kernel's
# (/sys/kernel/btf/vmlinux), which must then be the stock kernel.

BPF_DIR := samples/bpf
BPF_SRCS := $(wildcard $(BPF_DIR)/*.bpf.c)
BPF_OBJS := $(patsubst $(BPF_DIR)/%.bpf.c,$(BUILD)/bpf/%.bpf.o,$(BPF_SRCS))
BPF_TYPES_H := $(BUILD)/bpf/gputbs.h
BPF_BASE_BTF ?= $(firstword $(wildcard $(STOCK_KDIR)/vmlinux) \
	/sys/kernel/btf/vmlinux)
BPF_CLANG ?= clang
BPF_CFLAGS := -g -O2 -target bpf -D__TARGET_ARCH_x86 -Wall -Werror \
	-I$(BUILD)/bpf -I$(LIBBPF_INC) -I$(BPF_DIR)

.PHONY: bpf-samples
bpf-samples: $(BPF_OBJS) $(UL_BIN)/gputbs

$(BPF_TYPES_H): $(BUILD)/kmod/gputbs.ko | $(BPFTOOL)
	@mkdir -p $(dir $@)
	$(BPFTOOL) btf dump file $< -B $(BPF_BASE_BTF) format c > $@.tmp
	mv $@.tmp $@

$(BUILD)/bpf/%.bpf.o: $(BPF_DIR)/%.bpf.c $(BPF_DIR)/gtbs_bpf.h $(BPF_TYPES_H) \
		| $(LIBBPF_A)
	$(BPF_CLANG) $(BPF_CFLAGS) -c -o $@ $<

# programs the verifier must refuse (tests/guest/gputbs-bpf-test.sh)
BPF_TEST_OBJS := $(patsubst tests/bpf/%.bpf.c,$(BUILD)/bpf/test/%.bpf.o,\
	$(wildcard tests/bpf/*.bpf.c))
bpf-samples: $(BPF_TEST_OBJS)

$(BUILD)/bpf/test/%.bpf.o: tests/bpf/%.bpf.c $(BPF_DIR)/gtbs_bpf.h \
		$(BPF_TYPES_H) | $(LIBBPF_A)
	@mkdir -p $(dir $@)
	$(BPF_CLANG) $(BPF_CFLAGS) -c -o $@ $<
