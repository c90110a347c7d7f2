# SPDX-License-Identifier: GPL-2.0
#
# gputbs top-level Makefile.
#
#   make, make all  build the module (against the stock 6.12 headers) and
#                 all userland into build/ (make -jN works)
#   make module   the module only, build/kmod/gputbs.ko; module-6.1 against
#                 the 6.1 headers, module-sparse with sparse (C=1),
#                 module-debug against the debug kernel (debug-kernel
#                 builds that kernel once, cached)
#   make userland libgputbs, the gputbs CLI, gputbs-sim and the in-guest
#                 tests into build/ (userlib/userland.mk)
#   make demo     install what is needed, boot the stock 6.12 kernel in
#                 QEMU, run ERCBench pairs under FIFO and print the tables
#   make check    install what is needed, build the debug kernel (cached),
#                 run every test; ends with "N passed, N failed"
#   make unit-test  host unit tests (ASan/UBSan); check-userland: the host
#                 CLI, simulator, report and man page tests; check-userland-asan:
#                 the CLI's error paths under ASan; check-abi-lib: the
#                 library's exported symbols
#   make check-slurm  as root: a gputbs-sim sweep as Slurm job arrays on a
#                 single-node Slurm the test starts and stops, merged,
#                 against the serial sweep (tests/cluster/slurm-test.sh;
#                 needs slurm-wlm and munge, which deps-check installs);
#                 check-dask: the same sweep on a local dask.distributed
#                 cluster (scripts/sweep-dask.py; python3-distributed)
#   make install  libgputbs, headers, pkg-config file, gputbs, gputbs-sim,
#                 man pages, and the module when KDIR has a kernel build
#                 tree (else it says it skipped it); DESTDIR, PREFIX
#                 (install.mk): install-userland, install-man and
#                 install-module one part each; dkms-src, install-dkms
#                 for DKMS (dkms.conf)
#   make samples  the sample policies (samples/policies/) as modules,
#                 build/samples/*.ko, and as simulator plug-ins,
#                 build/samples/*.so; samples-so, samples-ko, samples-6.1
#                 and samples-debug build one kind (samples.mk)
#   make bpf-samples  the BPF policies (samples/bpf/*.bpf.c) against the
#                 module's BTF, build/bpf/*.bpf.o, with libbpf and bpftool
#                 built from linux-source-6.12 (tools/lib/libbpf.mk) and the
#                 CLI that loads them (gputbs policy load; Documentation/bpf.rst)
#   make eval     the paper's evaluation sweep on the module in QEMU against
#                 the simulator's: tables, figures, geomeans within 5%
#   make eval-preempt  the simulator's sweep with each preemption mechanism
#                 and context-switch bandwidth: the share of the FIFO->SJF
#                 gap bridged (scripts/eval-preempt.py; evaluation.rst)
#   make bench    benchmarks (module in QEMU, simulator on the host): a table,
#                 build/bench/results.json and .md; BENCH_SMOKE=1: tiny run
#   make bench-tenants  host only (make bench runs it too): tenants' SM
#                 shares against weights and caps (evaluation.rst)
#   make stress   the stress test in the debug kernel guest, longer than in
#                 make check (STRESS_GRIDS, STRESS_PROCS; reliability.rst)
#   make fuzz     the host fuzzers, then the in-guest ioctl fuzzer
#                 (make fuzz-guest), each for FUZZ_TIME seconds; fuzz-build
#                 builds them, fuzz-host runs the host ones
#   make sim-eval the simulator's sweep with figures, build/sim-eval/
#   make cuda-trace  the CUDA block tracer's example (tools/cuda/),
#                 build/cuda/; skipped with a message without nvcc
#   make bench-sched, bench-preempt  build one benchmark program
#   make deps-demo, deps-check  install the Debian packages demo or check
#                 needs (scripts/deps.sh)
#   make rbtree-src  extract the kernel's rbtree (tools/lib/rbtree.c and
#                 its headers) from linux-source-6.12 into build/, which
#                 every userland build of the core does first
#                 (tools/lib/rbtree.mk)
#   make clean    remove build/ (clean-userland: the userland part only)
#   make help     this text
#   make fit-timing  refit the timing model's class constants to the
#                 paper's offset-0 Table and check workloads/ercbench
#                 (scripts/fit-timing-model.py; FIT_WRITE=1 updates it)
#
# Kbuild (the module's object list) is read by the kernel's build system;
# this file only drives it.

BUILD ?= build
SHELL := /bin/bash
export BUILD

# Kernel locations, resolved only when a target needs them.
kpath = $(shell bash -c '. scripts/kernel-paths.sh && echo $$$(1)')
STOCK_KDIR = $(call kpath,STOCK_KDIR)
KDIR_61 = $(call kpath,KDIR_61)
DEBUG_KERNEL_DIR = $(call kpath,DEBUG_KERNEL_DIR)

KMOD_SRCS := Kbuild $(wildcard kmod/*.[ch] sm-emu/*.[ch] uapi/linux/*.h tests/kunit/*.h \
			       tests/kunit/*.c)

.PHONY: all module module-6.1 module-sparse module-debug userland demo check eval deps-demo \
	deps-check debug-kernel clean help fit-timing eval-preempt check-slurm check-dask

all: module userland

help:
	@sed -n '3,/^# Kbuild/{/^# Kbuild/d;s/^# \{0,1\}//;p}' Makefile

-include userlib/userland.mk
-include install.mk
-include tools/bench/bench.mk
-include tests/unit/unit.mk
-include tests/fuzz/fuzz.mk
-include samples/policies/samples.mk
# the kernel's rbtree for the core's userland programs: after the above
include tools/lib/rbtree.mk
# libbpf and bpftool of linux-source-6.12 (the CLI's policy load, bpf-samples)
include tools/lib/libbpf.mk
-include samples/bpf/bpf.mk

module: $(BUILD)/kmod/gputbs.ko

$(BUILD)/kmod/gputbs.ko: $(KMOD_SRCS)
	+scripts/build-module.sh "$(STOCK_KDIR)" $(BUILD)/kmod

module-6.1: $(KMOD_SRCS)
	+scripts/build-module.sh "$(KDIR_61)" $(BUILD)/kmod-6.1

# sparse (C=1) on every file of the module, 6.12 headers
module-sparse: $(KMOD_SRCS)
	+scripts/build-module.sh "$(STOCK_KDIR)" $(BUILD)/kmod-sparse C=1

debug-kernel:
	+scripts/build-debug-kernel.sh

module-debug: debug-kernel $(KMOD_SRCS)
	+scripts/build-module.sh "$(DEBUG_KERNEL_DIR)" $(BUILD)/kmod-debug

deps-demo:
	scripts/deps.sh demo

deps-check:
	scripts/deps.sh check

demo: deps-demo
	$(MAKE) all
	scripts/demo.sh

# check builds in parallel (-j2) so that parallel builds stay working
check: deps-check
	$(MAKE) -j2 all
	scripts/check.sh

# make check's Slurm step alone (Documentation/evaluation.rst, "Sweeps on
# a cluster")
check-slurm: $(BUILD)/bin/gputbs-sim
	tests/cluster/slurm-test.sh $(BUILD)/bin/gputbs-sim

# and its Dask step
check-dask: $(BUILD)/bin/gputbs-sim
	tests/cluster/dask-test.sh $(BUILD)/bin/gputbs-sim

# the evaluation sweep on the module against the simulator: build/eval/
eval: deps-demo
	$(MAKE) all
	scripts/eval.sh

# the paper's claim about preemption, in the simulator: build/eval/preempt/
eval-preempt: userland
	@mkdir -p $(BUILD)/eval/preempt
	scripts/eval-preempt.py --sim $(BUILD)/bin/gputbs-sim \
		--out $(BUILD)/eval/preempt | tee $(BUILD)/eval/preempt/tables.rst

fit-timing: userland
	scripts/fit-timing-model.py $(if $(filter 1,$(FIT_WRITE)),--write)

clean:
	rm -rf $(BUILD)
