#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/demo.sh - the main job, run by `make demo`.
#
# Boots Debian's stock 6.12 kernel in QEMU (TCG), loads gputbs.ko (the
# paper's 15-SM GTX 480 device, FIFO policy), prints the device, then runs
# the ERCBench pairs of workloads/ercbench/demo.list: each program alone,
# then each pair concurrently as two processes, with per-grid turnaround
# and slowdown and per-pair STP, ANTT and StrictF.
set -euo pipefail

cd "$(dirname "$0")/.."
exec tools/gputbs-vm --quiet-boot --timeout 900 -- \
	sh -c 'gputbs info && echo && gputbs run --list /workloads/ercbench/demo.list'
