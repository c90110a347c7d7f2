# SPDX-License-Identifier: GPL-2.0
#
# fuzz.mk - libFuzzer targets for the portable core and the parsers, on
# the host, under ASan and UBSan (clang).  Included by the top Makefile.
#
#   fuzz-build        build/fuzz/fuzz_{workload,trace,timeline,sched,import}
#                     (fuzz_timeline links libtracecmd, its .dat reader;
#                     it fuzzes the text input)
#   fuzz-host         each target for a bounded number of runs from its
#                     seed corpus (make check); FUZZ_RUNS=N to change;
#                     reproducible: libFuzzer's seed is FUZZ_SEED (1)
#   fuzz              each target for FUZZ_TIME seconds (default 600),
#                     then the in-guest ioctl fuzzer for as long
#                     (fuzz-guest, tests/stress/reliability.mk)

FUZZ_DIR := $(BUILD)/fuzz
FUZZ_CC ?= clang
FUZZ_CFLAGS := -g -O1 -fsanitize=fuzzer,address,undefined \
	-fno-sanitize-recover=all -Wall -Wextra -Werror -Wno-unused-parameter \
	-std=gnu11 -D_GNU_SOURCE -Iuapi -Iuserlib -Ism-emu -Itools/gputbs -Itools/lib \
	-DGPUTBS_VERSION='"fuzz"'
# json.c writes through json-c (the system's library, not instrumented)
FUZZ_JSONC := $(shell pkg-config --libs json-c 2>/dev/null || echo -ljson-c)
FUZZ_RUNS ?= 20000
FUZZ_SEED ?= 1
FUZZ_TIME ?= 600
FUZZ_TARGETS := $(addprefix $(FUZZ_DIR)/,fuzz_workload fuzz_trace \
	fuzz_timeline fuzz_sched fuzz_import)
FUZZ_CORE := $(wildcard sm-emu/*.c)
FUZZ_HDRS := $(wildcard sm-emu/*.h tools/gputbs/*.h tools/lib/*.h tools/include/*.h uapi/linux/*.h) \
	tests/fuzz/fuzz.h

.PHONY: fuzz-build fuzz-host fuzz

$(FUZZ_DIR)/fuzz_workload: tests/fuzz/fuzz_workload.c tests/fuzz/fuzz_cli.c \
		tools/lib/workload.c tools/lib/input.c $(FUZZ_HDRS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ tests/fuzz/fuzz_workload.c \
		tests/fuzz/fuzz_cli.c tools/lib/workload.c tools/lib/input.c

$(FUZZ_DIR)/fuzz_trace: tests/fuzz/fuzz_trace.c tests/fuzz/fuzz_cli.c \
		tools/gputbs/predict.c tools/lib/json.c tools/lib/input.c sm-emu/predictor.c \
		sm-emu/metrics.c $(FUZZ_HDRS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ tests/fuzz/fuzz_trace.c \
		tests/fuzz/fuzz_cli.c tools/gputbs/predict.c tools/lib/json.c tools/lib/input.c \
		sm-emu/predictor.c sm-emu/metrics.c $(FUZZ_JSONC)

$(FUZZ_DIR)/fuzz_timeline: tests/fuzz/fuzz_timeline.c tests/fuzz/fuzz_cli.c \
		tools/gputbs/timeline.c tools/lib/input.c $(FUZZ_HDRS) $(wildcard tools/lib/eval/*.h)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(TRACECMD_CFLAGS) -o $@ \
		tests/fuzz/fuzz_timeline.c tests/fuzz/fuzz_cli.c \
		tools/gputbs/timeline.c tools/lib/input.c $(TRACECMD_LIBS)

$(FUZZ_DIR)/fuzz_sched: tests/fuzz/fuzz_sched.c $(FUZZ_CORE) $(FUZZ_HDRS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ tests/fuzz/fuzz_sched.c $(FUZZ_CORE)

FUZZ_IMPORT_SRCS := $(wildcard tools/gputbs/import/*.c)
$(FUZZ_DIR)/fuzz_import: tests/fuzz/fuzz_import.c tests/fuzz/fuzz_cli.c \
		$(FUZZ_IMPORT_SRCS) tools/lib/input.c sm-emu/config.c \
		sm-emu/occupancy.c $(FUZZ_HDRS) tools/gputbs/import/import.h
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ tests/fuzz/fuzz_import.c \
		tests/fuzz/fuzz_cli.c $(FUZZ_IMPORT_SRCS) tools/lib/input.c \
		sm-emu/config.c sm-emu/occupancy.c -lcsv

fuzz-build: $(FUZZ_TARGETS)

# Seed corpora: the committed good and bad inputs of the CLI tests.
fuzz-host: fuzz-build
	tests/fuzz/run-fuzz.sh "$(FUZZ_DIR)" -runs=$(FUZZ_RUNS) $(FUZZ_SEED)

fuzz: fuzz-build
	tests/fuzz/run-fuzz.sh "$(FUZZ_DIR)" -max_total_time=$(FUZZ_TIME)
	$(MAKE) fuzz-guest
