# SPDX-License-Identifier: GPL-2.0
#
# userlib/userland.mk - userland part of gputbs: libgputbs, the gputbs CLI
# and the in-guest test suite.  Included from the top-level Makefile and
# run from the top of the tree.
#
# Targets:
#   userland          everything below
#   $(BUILD)/lib/libgputbs.a, $(BUILD)/lib/libgputbs.so.0.1 (+ .so.0, .so)
#   $(BUILD)/lib/pkgconfig/libgputbs.pc
#   $(BUILD)/bin/gputbs        CLI, static (runs in a busybox initramfs)
#   $(BUILD)/bin/gputbs-test   in-guest Check suite, static
#   $(BUILD)/bin/gputbs-trace-test  in-guest trace/predict check (sh)
#   $(BUILD)/bin/gputbs-sim    virtual-time simulator, static (tools/sim/)
#   check-abi-lib     the shared library exports exactly the API
#   check-userland    host tests: workload parser, CLI error paths, the
#                     predictor replay and the simulator
#   sim-eval          the simulator's evaluation sweep with its figures, in
#                     $(BUILD)/sim-eval/
#   install-userland  into $(DESTDIR)$(PREFIX)
#   clean-userland
#
# USERLAND_BINS lists the binaries for the initramfs.  Extra flags may be
# given in CFLAGS and LDFLAGS.

ifeq ($(origin CC),default)
CC := gcc
endif
CC ?= gcc
AR ?= ar
BUILD ?= build
PKG_CONFIG ?= pkg-config
PREFIX ?= /usr/local

LIBGPUTBS_VERSION := 0.1
LIBGPUTBS_SOVERSION := 0

# -Iuapi first: <linux/gputbs.h> is uapi/linux/gputbs.h, never a system copy.
USERLAND_CFLAGS := -O2 -g -Wall -Wextra -Werror -std=gnu11 -D_GNU_SOURCE \
	-Iuapi -Iuserlib -Ism-emu -MMD -MP \
	-DGPUTBS_VERSION='"$(LIBGPUTBS_VERSION)"'

UL_OBJ := $(BUILD)/userland
UL_LIB := $(BUILD)/lib
UL_BIN := $(BUILD)/bin

LIBGPUTBS_A := $(UL_LIB)/libgputbs.a
LIBGPUTBS_SO := $(UL_LIB)/libgputbs.so.$(LIBGPUTBS_VERSION)
LIBGPUTBS_SO_LINKS := $(UL_LIB)/libgputbs.so.$(LIBGPUTBS_SOVERSION) \
	$(UL_LIB)/libgputbs.so
LIBGPUTBS_PC := $(UL_LIB)/pkgconfig/libgputbs.pc

GPUTBS_CLI_OBJS := $(addprefix $(UL_OBJ)/, tools/gputbs.o tools/cmd_run.o \
	tools/run.o tools/report.o tools/json.o tools/workload.o \
	tools/predict.o sm-emu/metrics.o sm-emu/predictor.o)
GPUTBS_TEST_OBJS := $(UL_OBJ)/tests/guest/gputbs-test.o
# The simulator links the whole portable core, as the module does.
SIM_CORE_OBJS := $(patsubst %.c,$(UL_OBJ)/%.o,$(wildcard sm-emu/*.c))
GPUTBS_SIM_OBJS := $(addprefix $(UL_OBJ)/, tools/sim/main.o \
	tools/sim/simulate.o tools/sim/eval.o tools/sim/output.o \
	tools/sim/plot.o tools/workload.o tools/json.o tools/report.o) \
	$(SIM_CORE_OBJS)

CHECK_CFLAGS := $(shell $(PKG_CONFIG) --cflags check 2>/dev/null)
CHECK_LIBS := $(shell $(PKG_CONFIG) --libs --static check 2>/dev/null)

USERLAND_BINS := $(UL_BIN)/gputbs $(UL_BIN)/gputbs-test \
	$(UL_BIN)/gputbs-trace-test

.PHONY: userland check-abi-lib check-userland install-userland clean-userland \
	sim-eval

userland: $(LIBGPUTBS_A) $(LIBGPUTBS_SO) $(LIBGPUTBS_SO_LINKS) \
	$(LIBGPUTBS_PC) $(USERLAND_BINS) $(UL_BIN)/gputbs-sim

$(UL_OBJ)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(USERLAND_CFLAGS) $(CFLAGS) -c -o $@ $<

$(UL_OBJ)/%.pic.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(USERLAND_CFLAGS) $(CFLAGS) -fPIC -fvisibility=hidden \
		-c -o $@ $<

$(GPUTBS_TEST_OBJS): USERLAND_CFLAGS += $(CHECK_CFLAGS)
# the core's ops keep the kernel's signatures (unused arguments included)
$(UL_OBJ)/sm-emu/%.o: USERLAND_CFLAGS += -Wno-unused-parameter

$(LIBGPUTBS_A): $(UL_OBJ)/userlib/libgputbs.pic.o
	@mkdir -p $(dir $@)
	rm -f $@
	$(AR) rcs $@ $^

$(LIBGPUTBS_SO): $(UL_OBJ)/userlib/libgputbs.pic.o userlib/libgputbs.map
	@mkdir -p $(dir $@)
	$(CC) -shared -Wl,-soname,libgputbs.so.$(LIBGPUTBS_SOVERSION) \
		-Wl,--version-script=userlib/libgputbs.map -Wl,-z,defs \
		$(LDFLAGS) -o $@ $<

$(UL_LIB)/libgputbs.so.$(LIBGPUTBS_SOVERSION): $(LIBGPUTBS_SO)
	ln -sf $(notdir $<) $@

$(UL_LIB)/libgputbs.so: $(UL_LIB)/libgputbs.so.$(LIBGPUTBS_SOVERSION)
	ln -sf $(notdir $<) $@

$(LIBGPUTBS_PC): userlib/libgputbs.pc.in
	@mkdir -p $(dir $@)
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$${prefix}/lib|' \
		-e 's|@INCLUDEDIR@|$${prefix}/include|' \
		-e 's|@VERSION@|$(LIBGPUTBS_VERSION)|' $< > $@

$(UL_BIN)/gputbs: $(GPUTBS_CLI_OBJS) $(LIBGPUTBS_A)
	@mkdir -p $(dir $@)
	$(CC) -static $(LDFLAGS) -o $@ $^ -lm

$(UL_BIN)/gputbs-test: $(GPUTBS_TEST_OBJS) $(LIBGPUTBS_A)
	@mkdir -p $(dir $@)
	$(CC) -static -pthread $(LDFLAGS) -o $@ $^ $(CHECK_LIBS)

$(UL_BIN)/gputbs-sim: $(GPUTBS_SIM_OBJS)
	@mkdir -p $(dir $@)
	$(CC) -static -pthread $(LDFLAGS) -o $@ $^ -lm

$(UL_BIN)/gputbs-trace-test: tests/guest/gputbs-trace-test.sh
	@mkdir -p $(dir $@)
	install -m 755 $< $@

# Exported dynamic symbols == GPUTBS_API declarations == version script,
# all in node LIBGPUTBS_0.1, and the soname is libgputbs.so.0.
check-abi-lib: $(LIBGPUTBS_SO)
	@set -e; t=$(UL_OBJ)/abi; mkdir -p $$t; \
	nm -D --defined-only $< | awk '$$3 != "LIBGPUTBS_0.1" {print $$3}' \
		| sort > $$t/exported; \
	sed 's/@@LIBGPUTBS_0.1$$//' $$t/exported > $$t/exported.names; \
	sed -n 's/^GPUTBS_API .*[ *]\(gputbs_[a-z_]*\)(.*/\1/p' \
		userlib/gputbs.h | sort > $$t/header; \
	sed -n 's/^[[:space:]]*\(gputbs_[a-z_]*\);$$/\1/p' \
		userlib/libgputbs.map | sort > $$t/map; \
	diff -u $$t/header $$t/exported.names; \
	diff -u $$t/header $$t/map; \
	! grep -v '@@LIBGPUTBS_0.1$$' $$t/exported; \
	readelf -d $< | grep -q 'SONAME.*\[libgputbs\.so\.$(LIBGPUTBS_SOVERSION)\]'; \
	echo "check-abi-lib: OK ($$(wc -l < $$t/header) symbols)"

check-userland: $(UL_BIN)/gputbs $(UL_BIN)/gputbs-sim
	tests/userland/cli-test.sh $(UL_BIN)/gputbs
	tests/userland/predict-test.sh $(UL_BIN)/gputbs
	tests/userland/sim-test.sh $(UL_BIN)/gputbs-sim $(UL_BIN)/gputbs

# The paper's sweep in virtual time: text, JSON and figures.
sim-eval: $(UL_BIN)/gputbs-sim
	@mkdir -p $(BUILD)/sim-eval
	$(UL_BIN)/gputbs-sim eval --plot $(BUILD)/sim-eval/plots \
		> $(BUILD)/sim-eval/eval.txt
	$(UL_BIN)/gputbs-sim eval --format json > $(BUILD)/sim-eval/eval.json
	@sed -n '/^geomeans over/,$$p' $(BUILD)/sim-eval/eval.txt

install-userland: userland
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib/pkgconfig \
		$(DESTDIR)$(PREFIX)/include/linux
	install -m 755 $(UL_BIN)/gputbs $(DESTDIR)$(PREFIX)/bin/
	install -m 644 $(LIBGPUTBS_A) $(DESTDIR)$(PREFIX)/lib/
	install -m 755 $(LIBGPUTBS_SO) $(DESTDIR)$(PREFIX)/lib/
	cp -P $(LIBGPUTBS_SO_LINKS) $(DESTDIR)$(PREFIX)/lib/
	install -m 644 $(LIBGPUTBS_PC) $(DESTDIR)$(PREFIX)/lib/pkgconfig/
	install -m 644 userlib/gputbs.h $(DESTDIR)$(PREFIX)/include/
	install -m 644 uapi/linux/gputbs.h $(DESTDIR)$(PREFIX)/include/linux/

clean-userland:
	rm -rf $(UL_OBJ) $(LIBGPUTBS_A) $(LIBGPUTBS_SO) $(LIBGPUTBS_SO_LINKS) \
		$(LIBGPUTBS_PC) $(USERLAND_BINS) $(UL_BIN)/gputbs-sim

-include $(shell find $(UL_OBJ) -name '*.d' 2>/dev/null)
