# SPDX-License-Identifier: GPL-2.0
#
# tools/lib/libbpf.mk - libbpf and bpftool of the stock 6.12 kernel, built
# from the linux-source-6.12 package at build time, never copied into the
# tree (as tools/lib/rbtree.mk does for rbtree.c).  Debian 12's own libbpf
# (1.1) predates struct_ops types defined in modules, which gputbs's BPF
# policies (Documentation/bpf.rst) are; the 6.12 tree carries libbpf 1.5.
# Included at the end of the top-level Makefile: it adds to the CLI's link.
#
#   $(LIBBPF_STAMP)  extracts, once, tools/lib/bpf, tools/bpf/bpftool and
#                    what their builds read from $(LINUX_SRC_TAR) into
#                    $(LIBBPF_DIR)/
#   $(LIBBPF_A)      libbpf.a (static only) and its headers under
#                    $(LIBBPF_INC)/bpf/: the gputbs CLI links it for
#                    "gputbs policy load"
#   $(BPFTOOL)       bpftool, for make bpf-samples (samples/bpf/bpf.mk)
#
# libbpf needs libelf and zlib (libelf-dev, zlib1g-dev: scripts/deps.sh);
# bpftool also LLVM's or libbfd's disassembler, which it finds by itself.

LIBBPF_TOP := linux-source-6.12
LIBBPF_DIR := $(BUILD)/bpf-src
LIBBPF_SRC := $(LIBBPF_DIR)/$(LIBBPF_TOP)
LIBBPF_STAMP := $(LIBBPF_DIR)/.extracted
LIBBPF_MEMBERS := tools/lib/bpf tools/bpf/bpftool tools/include \
	tools/scripts tools/build tools/arch/x86/include tools/lib/subcmd \
	kernel/bpf/disasm.c kernel/bpf/disasm.h scripts/bpf_doc.py
LIBBPF_OUT := $(abspath $(BUILD))/bpf
LIBBPF_A := $(LIBBPF_OUT)/libbpf/libbpf.a
LIBBPF_INC := $(LIBBPF_OUT)/include
BPFTOOL := $(LIBBPF_OUT)/bpftool/bpftool
# libbpf.a needs libelf, and libelf zlib, after it
GPUTBS_BPF_LIBS := -lelf -lz

$(LIBBPF_STAMP): $(wildcard $(LINUX_SRC_TAR))
	@test -f $(LINUX_SRC_TAR) || { echo "tools/lib/libbpf.mk:" \
		"linux-source-6.12 is not installed ($(LINUX_SRC_TAR) is" \
		"missing): run scripts/deps.sh demo" >&2; exit 1; }
	rm -rf $(LIBBPF_DIR)
	mkdir -p $(LIBBPF_DIR)
	tar -xJf $(LINUX_SRC_TAR) -C $(LIBBPF_DIR) \
		$(addprefix $(LIBBPF_TOP)/,$(LIBBPF_MEMBERS))
	touch $@

# the kernel's tools build is quiet with V= unset; -j from our make
$(LIBBPF_A): $(LIBBPF_STAMP)
	@mkdir -p $(LIBBPF_OUT)/libbpf
	+$(MAKE) -s -C $(LIBBPF_SRC)/tools/lib/bpf BUILD_STATIC_ONLY=1 \
		OUTPUT=$(LIBBPF_OUT)/libbpf/ DESTDIR=$(LIBBPF_OUT) prefix= \
		INCLUDEDIR=/include LIBDIR=/lib CC="$(CC)" EXTRA_CFLAGS=-g \
		$(LIBBPF_A) install_headers

$(BPFTOOL): $(LIBBPF_STAMP)
	@mkdir -p $(LIBBPF_OUT)/bpftool
	+$(MAKE) -s -C $(LIBBPF_SRC)/tools/bpf/bpftool \
		OUTPUT=$(LIBBPF_OUT)/bpftool/ CC="$(CC)" HOSTCC="$(CC)"

# the CLI's "policy" command (tools/gputbs/cmd_policy.c) includes
# <bpf/libbpf.h> from here and links libbpf.a; its ASan build too
USERLAND_CFLAGS += -I$(LIBBPF_INC)
$(GPUTBS_CLI_OBJS) $(GPUTBS_ASAN_OBJS): | $(LIBBPF_A)
$(UL_BIN)/gputbs $(ASAN_OBJ)/gputbs: $(LIBBPF_A)

.PHONY: libbpf bpftool
libbpf: $(LIBBPF_A)
bpftool: $(BPFTOOL)
