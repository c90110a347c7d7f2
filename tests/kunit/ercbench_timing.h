/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ercbench_timing.h - the timing of the ERCBench kernels of
 * workloads/ercbench/kernels.gtbs, shared by the host unit tests
 * (tests/unit/harness.c, which checks it against the file) and KUnit
 * (tests/kunit/gputbs_kunit.c, here): per kernel, in the file's order (AES-d,
 * AES-e, NLM2, JPEG-d, JPEG-e, RayTracing, SAD, SHA1), block_dist,
 * block_dist_param (dist=, dist-param=), startup_ppm, startup_blocks
 * (startup=) and the timing model's mem_ppm and knee_mwarps (mem=,
 * knee=).  Include after gtbs.h.
 *
 * Copyright (C) 2026 The gputbs developers
 */
#ifndef _GTBS_ERCBENCH_TIMING_H
#define _GTBS_ERCBENCH_TIMING_H

#define GTBS_ERC_NR_TIMING	6

#define GTBS_ERC_TIMING {						\
	{ GTBS_DIST_PEAKED, 100000, 0, 0, 50000, 0 },		/* AES-d */ \
	{ GTBS_DIST_PEAKED, 100000, 0, 0, 50000, 0 },		/* AES-e */ \
	{ GTBS_DIST_NORMAL, 0, 0, 0, 265000, 0 },		/* NLM2 */ \
	{ GTBS_DIST_PEAKED, 400000, 150000, 60, 300000, 0 },	/* JPEG-d */ \
	{ GTBS_DIST_PEAKED, 500000, 0, 0, 300000, 0 },		/* JPEG-e */ \
	{ GTBS_DIST_SKEWED, 110000, 0, 0, 50000, 0 },		/* render */ \
	{ GTBS_DIST_NORMAL, 0, 150000, 60, 0, 11720 },	/* SAD */ \
	{ GTBS_DIST_NORMAL, 0, 150000, 60, 0, 0 },		/* SHA1 */ \
}

#endif /* _GTBS_ERCBENCH_TIMING_H */
