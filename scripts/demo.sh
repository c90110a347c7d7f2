#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/demo.sh - the main job, run by `make demo`.
#
# Boots Debian's stock 6.12 kernel in QEMU (TCG), loads gputbs.ko (the
# paper's 15-SM GTX 480 device), prints the device, then runs the ERCBench
# pairs of workloads/ercbench/demo.list: each program alone, then each
# pair concurrently as two processes under FIFO (the hardware's order),
# SRTF (the paper's Shortest Remaining Time First with the Simple Slicing
# predictor) and SJF (an oracle that knows alone runtimes), with per-grid
# turnaround and slowdown, per-pair STP, ANTT and StrictF, and the three
# policies side by side.
set -euo pipefail

cd "$(dirname "$0")/.."
exec tools/vm/gputbs-vm --quiet-boot --timeout 1500 -- \
	sh -c 'gputbs info && echo && gputbs run --policy fifo,srtf,sjf --list /workloads/ercbench/demo.list'
