# SPDX-License-Identifier: GPL-2.0
#
# userlib/userland.mk - userland part of gputbs: libgputbs, the gputbs CLI
# and the in-guest test suite.  Included from the top-level Makefile and
# run from the top of the tree.
#
# Targets:
#   userland          everything below
#   $(BUILD)/lib/libgputbs.a, $(BUILD)/lib/libgputbs.so.0.3 (+ .so.0, .so)
#   $(BUILD)/lib/pkgconfig/libgputbs.pc
#   $(BUILD)/bin/gputbs        CLI, dynamic: libtracecmd, which gputbs
#                              timeline reads .dat files with, is only a
#                              shared library (tools/vm/gputbs-vm copies
#                              its libraries into the initramfs)
#   $(BUILD)/bin/gputbs-test   in-guest Check suite, static
#   $(BUILD)/bin/gputbs-trace-test  in-guest trace/predict check (sh)
#   $(BUILD)/bin/gputbs-{hygiene-test,stress,failnth,fuzz,reliability}
#                      in-guest reliability tests (tests/stress/reliability.mk)
#   $(BUILD)/bin/gputbs-obs-test, gputbs-abi-test  in-guest checks of
#                              sysfs, debugfs, fdinfo, tracepoints, ABI (sh)
#   $(BUILD)/bin/gputbs-bench  in-guest benchmarks (make bench), static
#   $(BUILD)/bin/gputbs-sim    virtual-time simulator (tools/sim/), host only:
#                     dynamic, exporting the core's symbols to the policy
#                     plug-ins it dlopen()s (--policy-plugin)
#   check-abi-lib     the shared library exports exactly the API
#   check-userland    host tests: workload parser, CLI error paths, the
#                     nsys and ncu importer (gputbs import), the CUDA
#                     tracer's host-side writer, the scenario generator,
#                     the reports' and figures' layout, the man pages
#                     against --help,
#                     predictor replay, the simulator and its policy
#                     plug-ins (the samples, make samples-so)
#   $(BUILD)/asan/gputbs  the CLI under ASan, UBSan and LeakSanitizer
#                     (dynamic), for the host tests
#   check-userland-asan   the CLI, predict, timeline and import host tests on it:
#                     every error path free of leaks and undefined behaviour
#   cuda-trace        the CUDA block tracer's example (tools/cuda/), only
#                     with nvcc on PATH
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

LIBGPUTBS_VERSION := 0.3
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
LIBGPUTBS_OBJS := $(UL_OBJ)/userlib/libgputbs.pic.o \
	$(UL_OBJ)/userlib/submit_explain.pic.o

# The programs' folders (as Linux's tools/): tools/gputbs/ the CLI,
# tools/sim/ the simulator, tools/lib/ what both read and write (workload
# files, reports, JSON, request statistics) and tools/lib/eval/ the
# evaluation sweep both run.
TOOLS_LIB_OBJS := $(addprefix $(UL_OBJ)/tools/lib/, json.o workload.o \
	input.o report.o reqstats.o parallel.o)
GPUTBS_CLI_OBJS := $(addprefix $(UL_OBJ)/tools/gputbs/, gputbs.o cmd_run.o \
	run.o predict.o timeline.o cmd_policy.o) $(TOOLS_LIB_OBJS) \
	$(UL_OBJ)/sm-emu/metrics.o $(UL_OBJ)/sm-emu/predictor.o
# gputbs import (tools/gputbs/import/): one file per report format, the
# CSV through libcsv (libcsv-dev): its libcsv.a linked as one of the
# objects, after those that use it, into the CLI and its ASan build
# ("No rule to make target 'libcsv.a'": scripts/deps.sh installs it)
CSV_LIB_A := $(shell $(CC) -print-file-name=libcsv.a)
GPUTBS_IMPORT_OBJS := $(addprefix $(UL_OBJ)/tools/gputbs/import/, import.o \
	csv.o nsys.o ncu.o device.o label.o)
GPUTBS_CLI_OBJS += $(GPUTBS_IMPORT_OBJS) $(CSV_LIB_A)
GPUTBS_TEST_OBJS := $(UL_OBJ)/tests/guest/gputbs-test.o
# The simulator links the whole portable core, as the module does.
SIM_CORE_OBJS := $(patsubst %.c,$(UL_OBJ)/%.o,$(wildcard sm-emu/*.c))
# The evaluation sweep, its output and its command line, shared by
# gputbs-sim and "gputbs eval" (the same sweep on the module).
SIM_EVAL_OBJS := $(addprefix $(UL_OBJ)/tools/lib/eval/, eval.o reference.o \
	evalcmd.o args.o output.o paper.o plot.o)
# gputbs eval: the same sweep on the module; it needs the whole core (the
# policy registry) besides the CLI's metrics and predictor.
GPUTBS_CLI_OBJS += $(UL_OBJ)/tools/gputbs/cmd_eval.o $(SIM_EVAL_OBJS) \
	$(filter-out $(GPUTBS_CLI_OBJS),$(SIM_CORE_OBJS))
GPUTBS_SIM_OBJS := $(addprefix $(UL_OBJ)/tools/sim/, main.o simulate.o \
	results.o blocks.o plugin.o reqplot.o sweep.o devices.o) \
	$(TOOLS_LIB_OBJS) $(UL_OBJ)/userlib/submit_explain.o \
	$(SIM_EVAL_OBJS) $(SIM_CORE_OBJS)

CHECK_CFLAGS := $(shell $(PKG_CONFIG) --cflags check 2>/dev/null)
CHECK_LIBS := $(shell $(PKG_CONFIG) --libs --static check 2>/dev/null)
# JSON, written and read, through json-c (libjson-c-dev; its libjson-c.a
# for the static programs)
JSONC_CFLAGS := $(shell $(PKG_CONFIG) --cflags json-c 2>/dev/null)
JSONC_LIBS := $(shell $(PKG_CONFIG) --libs json-c 2>/dev/null || echo -ljson-c)
JSONC_STATIC_LIBS := $(shell $(PKG_CONFIG) --libs --static json-c \
	2>/dev/null || echo -ljson-c)
USERLAND_CFLAGS += $(JSONC_CFLAGS)
# gputbs timeline: trace-cmd .dat files through libtracecmd, the events'
# fields through libtraceevent (libtracecmd-dev, libtraceevent-dev)
TRACECMD_CFLAGS := $(shell $(PKG_CONFIG) --cflags libtracecmd libtraceevent \
	2>/dev/null)
TRACECMD_LIBS := $(shell $(PKG_CONFIG) --libs libtracecmd libtraceevent \
	2>/dev/null)

USERLAND_BINS := $(UL_BIN)/gputbs $(UL_BIN)/gputbs-test \
	$(UL_BIN)/gputbs-trace-test $(UL_BIN)/gputbs-bench
# in-guest checks of the observability interfaces (sh)
GUEST_OBS_TESTS := $(UL_BIN)/gputbs-obs-test $(UL_BIN)/gputbs-abi-test \
	$(UL_BIN)/gputbs-polmod-test $(UL_BIN)/gputbs-preempt-test \
	$(UL_BIN)/gputbs-tenant-test $(UL_BIN)/gputbs-load-test \
	$(UL_BIN)/gputbs-bpf-test
USERLAND_BINS += $(GUEST_OBS_TESTS) $(UL_BIN)/gputbs-test-lib.sh

# the reliability programs (stress, fault injection, fuzzing): adds to
# USERLAND_BINS, so it comes before the userland target
include tests/stress/reliability.mk
# the monitor API over libnl, gputbs top and monitor, their tests
include userlib/monitor.mk

.PHONY: userland check-abi-lib check-userland check-userland-asan cuda-trace \
	install-userland clean-userland sim-eval

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
$(UL_OBJ)/tools/gputbs/timeline.o: USERLAND_CFLAGS += $(TRACECMD_CFLAGS)
# the core's ops keep the kernel's signatures (unused arguments included)
$(UL_OBJ)/sm-emu/%.o: USERLAND_CFLAGS += -Wno-unused-parameter

$(LIBGPUTBS_A): $(LIBGPUTBS_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@
	$(AR) rcs $@ $^

$(LIBGPUTBS_SO): $(LIBGPUTBS_OBJS) userlib/libgputbs.map
	@mkdir -p $(dir $@)
	$(CC) -shared -Wl,-soname,libgputbs.so.$(LIBGPUTBS_SOVERSION) \
		-Wl,--version-script=userlib/libgputbs.map -Wl,-z,defs \
		$(LDFLAGS) -o $@ $(filter %.o,$^) $(LIBNL_LIBS)

$(UL_LIB)/libgputbs.so.$(LIBGPUTBS_SOVERSION): $(LIBGPUTBS_SO)
	ln -sf $(notdir $<) $@

$(UL_LIB)/libgputbs.so: $(UL_LIB)/libgputbs.so.$(LIBGPUTBS_SOVERSION)
	ln -sf $(notdir $<) $@

$(LIBGPUTBS_PC): userlib/libgputbs.pc.in
	@mkdir -p $(dir $@)
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$${prefix}/lib|' \
		-e 's|@INCLUDEDIR@|$${prefix}/include|' \
		-e 's|@VERSION@|$(LIBGPUTBS_VERSION)|' $< > $@

# Dynamic: Debian ships libtracecmd as a shared library only.
$(UL_BIN)/gputbs: $(GPUTBS_CLI_OBJS) $(LIBGPUTBS_A)
	@mkdir -p $(dir $@)
	$(CC) -pthread $(LDFLAGS) -o $@ $^ $(GPUTBS_BPF_LIBS) $(LIBNL_LIBS) \
		$(JSONC_LIBS) $(TRACECMD_LIBS) -lm

$(UL_BIN)/gputbs-test: $(GPUTBS_TEST_OBJS) $(LIBGPUTBS_A)
	@mkdir -p $(dir $@)
	$(CC) -static -pthread $(LDFLAGS) -o $@ $^ $(CHECK_LIBS)

# in-guest benchmarks of the module (tools/bench/, make bench)
$(UL_BIN)/gputbs-bench: $(UL_OBJ)/tools/bench/guest.o $(UL_OBJ)/tools/lib/json.o
	@mkdir -p $(dir $@)
	$(CC) -static $(LDFLAGS) -o $@ $^ $(JSONC_STATIC_LIBS) -lm

# Not in the initramfs (USERLAND_BINS), so dynamic: --export-dynamic puts
# the core's functions in its dynamic symbol table, where the policy
# plug-ins it dlopen()s find them.
$(UL_BIN)/gputbs-sim: $(GPUTBS_SIM_OBJS)
	@mkdir -p $(dir $@)
	$(CC) -pthread -Wl,--export-dynamic $(LDFLAGS) -o $@ $^ $(JSONC_LIBS) \
		-lm -ldl

$(UL_BIN)/gputbs-trace-test: tests/guest/gputbs-trace-test.sh
	@mkdir -p $(dir $@)
	install -m 755 $< $@

$(GUEST_OBS_TESTS): $(UL_BIN)/%: tests/guest/%.sh
	@mkdir -p $(dir $@)
	install -m 755 $< $@

# what the shell tests share, sourced from their directory (/usr/bin)
$(UL_BIN)/gputbs-test-lib.sh: tests/guest/gputbs-test-lib.sh
	@mkdir -p $(dir $@)
	install -m 644 $< $@

# Older versions of a symbol kept for programs linked before it changed
# (.symver in libgputbs.c; the version script lists the symbol in both
# nodes): gputbs_submit@LIBGPUTBS_0.1 took structs of at most
# GPUTBS_SUBMIT_SIZE_VER3 bytes.
LIBGPUTBS_COMPAT := gputbs_submit@LIBGPUTBS_0.1

# Exported dynamic symbols == GPUTBS_API declarations == version script,
# each symbol in the version node of the script that lists it
# (LIBGPUTBS_0.1, LIBGPUTBS_0.2, ...) and nothing unversioned, and the
# soname is libgputbs.so.0.
check-abi-lib: $(LIBGPUTBS_SO)
	@set -e; t=$(UL_OBJ)/abi; mkdir -p $$t; \
	nm -D --defined-only $< | awk '$$2 != "A" { print $$3 }' \
		| sort > $$t/exported.all; \
	for c in $(LIBGPUTBS_COMPAT); do grep -qx "$$c" $$t/exported.all; done; \
	printf '%s\n' $(LIBGPUTBS_COMPAT) | sort > $$t/compat; \
	comm -23 $$t/exported.all $$t/compat > $$t/exported; \
	sed 's/@@/ /' $$t/exported | sort > $$t/exported.nodes; \
	cut -d' ' -f1 $$t/exported.nodes | sort > $$t/exported.names; \
	sed -n 's/^GPUTBS_API .*[ *]\(gputbs_[a-z_]*\)(.*/\1/p' \
		userlib/gputbs.h | sort > $$t/header; \
	awk '/^LIBGPUTBS_[0-9.]+[[:space:]]*[{]/ { node = $$1 } \
	     /^[[:space:]]*gputbs_[a-z_]*;$$/ { sub(/;/, ""); print $$1, node }' \
		userlib/libgputbs.map | sort \
		| grep -vxF "$$(sed 's/@/ /' $$t/compat)" > $$t/map.nodes; \
	cut -d' ' -f1 $$t/map.nodes | sort > $$t/map; \
	diff -u $$t/header $$t/exported.names; \
	diff -u $$t/header $$t/map; \
	diff -u $$t/map.nodes $$t/exported.nodes; \
	! grep -v '@@LIBGPUTBS_[0-9.]*$$' $$t/exported; \
	readelf -d $< | grep -q 'SONAME.*\[libgputbs\.so\.$(LIBGPUTBS_SOVERSION)\]'; \
	echo "check-abi-lib: OK ($$(wc -l < $$t/header) symbols in" \
		"$$(cut -d' ' -f2 $$t/map.nodes | sort -u | wc -l) version nodes)"

# the request logic of gputbs run and gputbs-sim, on the host
$(UL_BIN)/gputbs-requests-test: $(UL_OBJ)/tests/userland/requests-test.o \
		$(addprefix $(UL_OBJ)/tools/lib/, reqstats.o workload.o input.o)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^

check-userland: $(UL_BIN)/gputbs $(UL_BIN)/gputbs-sim $(UL_BIN)/gputbs-requests-test
	$(UL_BIN)/gputbs-requests-test
	tests/userland/cli-test.sh $(UL_BIN)/gputbs
	tests/userland/predict-test.sh $(UL_BIN)/gputbs
	tests/userland/timeline-test.sh $(UL_BIN)/gputbs
	tests/userland/import-test.sh $(UL_BIN)/gputbs $(UL_BIN)/gputbs-sim
	workloads/scenarios/gen-scenarios.py --check >/dev/null
	tests/userland/cuda-trace-test.sh $(UL_BIN)/gputbs $(CC)
	tests/userland/sim-test.sh $(UL_BIN)/gputbs-sim $(UL_BIN)/gputbs
	tests/userland/sweep-test.sh $(UL_BIN)/gputbs-sim
	tests/userland/report-test.sh $(UL_BIN)/gputbs-sim
	tests/userland/man-test.sh $(UL_BIN)/gputbs $(UL_BIN)/gputbs-sim
	$(MAKE) -s samples-so
	tests/userland/plugin-test.sh $(UL_BIN)/gputbs-sim $(BUILD)/samples \
		$(UL_BIN)/gputbs

# The CLI built again under the sanitizers, linked dynamically (they do not
# link statically), and its host tests on it: a leak (exit 23), an ASan or
# UBSan report (exit 99) fails the test that ran it.
ASAN_OBJ := $(BUILD)/asan
ASAN_CFLAGS := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer \
	-fno-sanitize-recover=all
ASAN_ENV := ASAN_OPTIONS=detect_leaks=1:exitcode=99 \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:exitcode=99
GPUTBS_ASAN_OBJS := $(patsubst $(UL_OBJ)/%,$(ASAN_OBJ)/%,$(GPUTBS_CLI_OBJS)) \
	$(ASAN_OBJ)/userlib/libgputbs.o $(ASAN_OBJ)/userlib/monitor.o \
	$(ASAN_OBJ)/userlib/submit_explain.o

$(ASAN_OBJ)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(USERLAND_CFLAGS) $(ASAN_CFLAGS) $(CFLAGS) -c -o $@ $<

$(ASAN_OBJ)/sm-emu/%.o: USERLAND_CFLAGS += -Wno-unused-parameter
$(ASAN_OBJ)/userlib/monitor.o: USERLAND_CFLAGS += $(LIBNL_CFLAGS)
$(ASAN_OBJ)/tools/gputbs/timeline.o: USERLAND_CFLAGS += $(TRACECMD_CFLAGS)

$(ASAN_OBJ)/gputbs: $(GPUTBS_ASAN_OBJS)
	$(CC) $(ASAN_CFLAGS) -pthread $(LDFLAGS) -o $@ $^ $(GPUTBS_BPF_LIBS) \
		$(LIBNL_LIBS) $(JSONC_LIBS) $(TRACECMD_LIBS) -lm

check-userland-asan: $(ASAN_OBJ)/gputbs
	@rc=0; for t in cli predict timeline import; do \
		$(ASAN_ENV) tests/userland/$$t-test.sh $< || rc=1; \
	done; exit $$rc

# The CUDA block tracer's example (tools/cuda/, Documentation/
# trace-format.rst): built only where nvcc is on PATH.
NVCC ?= nvcc
cuda-trace:
	@if command -v $(NVCC) >/dev/null 2>&1; then \
		mkdir -p $(BUILD)/cuda && \
		$(NVCC) -O2 -std=c++14 -Xcompiler -Wall,-Wextra,-Werror \
			-o $(BUILD)/cuda/gputbs-trace-example \
			tools/cuda/example.cu && \
		echo "cuda-trace: built $(BUILD)/cuda/gputbs-trace-example"; \
	else \
		echo "cuda-trace: skipped: $(NVCC) is not on PATH (tools/cuda/ needs the CUDA toolkit)"; \
	fi

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
	install -m 755 $(UL_BIN)/gputbs $(UL_BIN)/gputbs-sim $(DESTDIR)$(PREFIX)/bin/
	install -m 644 $(LIBGPUTBS_A) $(DESTDIR)$(PREFIX)/lib/
	install -m 755 $(LIBGPUTBS_SO) $(DESTDIR)$(PREFIX)/lib/
	cp -P $(LIBGPUTBS_SO_LINKS) $(DESTDIR)$(PREFIX)/lib/
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$${prefix}/lib|' \
		-e 's|@INCLUDEDIR@|$${prefix}/include|' \
		-e 's|@VERSION@|$(LIBGPUTBS_VERSION)|' userlib/libgputbs.pc.in \
		> $(DESTDIR)$(PREFIX)/lib/pkgconfig/libgputbs.pc
	install -m 644 userlib/gputbs.h $(DESTDIR)$(PREFIX)/include/
	install -m 644 uapi/linux/gputbs.h uapi/linux/gputbs_netlink.h \
		$(DESTDIR)$(PREFIX)/include/linux/

clean-userland:
	rm -rf $(UL_OBJ) $(ASAN_OBJ) $(LIBGPUTBS_A) $(LIBGPUTBS_SO) $(LIBGPUTBS_SO_LINKS) \
		$(LIBGPUTBS_PC) $(USERLAND_BINS) $(UL_BIN)/gputbs-sim

-include $(shell find $(UL_OBJ) $(ASAN_OBJ) -name '*.d' 2>/dev/null)
