// SPDX-License-Identifier: GPL-2.0
/*
 * config.c - the emulated device's resources.
 *
 * Copyright (C) 2026 The gputbs developers
 */
#include "gtbs.h"

/**
 * gtbs_config_default() - the paper's device
 * @cfg: out: configuration.
 *
 * The paper's Table "Simulator Configuration" (the GPGPU-Sim GTX 480
 * configuration): 15 SMs; per SM 1536 threads, 32768 registers, 48 KiB
 * shared memory, at most 8 thread blocks and 48 warps; 32 threads per
 * warp.  Allocation granularities are those of compute capability 2.0 in
 * the NVIDIA occupancy calculator: registers per warp in units of 64,
 * shared memory in units of 128 bytes; at most 63 registers per thread and
 * 1024 threads per block.  The nominal clock is the GTX 480 shader clock,
 * 1401 MHz.
 *
 * Context: any.
 */
void gtbs_config_default(struct gtbs_dev_config *cfg)
{
	*cfg = (struct gtbs_dev_config) {
		.nr_sms = 15,
		.warp_size = 32,
		.max_threads_per_sm = 1536,
		.max_regs_per_sm = 32768,
		.max_shmem_per_sm = 48 * 1024,
		.max_blocks_per_sm = 8,
		.max_warps_per_sm = 48,
		.max_threads_per_block = 1024,
		.max_regs_per_thread = 63,
		.reg_alloc_unit = 64,
		.shmem_alloc_unit = 128,
		.max_blocks_per_grid = 1U << 20,
		.load_knee_warps = 8,
		.clock_khz = 1401000,
	};
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_config_default);

/**
 * gtbs_config_check() - validate a device configuration
 * @cfg: configuration.
 * @why: out: reason for a rejection, a static string.
 *
 * Context: any.
 * Return: 0 or -EINVAL.
 */
int gtbs_config_check(const struct gtbs_dev_config *cfg, const char **why)
{
	*why = NULL;
	if (!cfg->nr_sms || cfg->nr_sms > GTBS_MAX_SMS)
		*why = "nr_sms must be 1..1024";
	else if (!cfg->warp_size || cfg->warp_size > 1024)
		*why = "warp_size must be 1..1024";
	else if (!cfg->max_blocks_per_sm ||
		 cfg->max_blocks_per_sm > GTBS_MAX_BLOCKS_PER_SM)
		*why = "max_blocks_per_sm must be 1..64";
	else if (!cfg->max_warps_per_sm || !cfg->max_threads_per_sm ||
		 !cfg->max_regs_per_sm || !cfg->max_threads_per_block)
		*why = "SM resources must be non-zero";
	else if (cfg->max_threads_per_sm > (1U << 20) ||
		 cfg->max_regs_per_sm > (1U << 24) ||
		 cfg->max_shmem_per_sm > (1U << 24) ||
		 cfg->max_warps_per_sm > (1U << 15))
		*why = "SM resources too large";
	else if (!cfg->reg_alloc_unit || !cfg->shmem_alloc_unit)
		*why = "allocation units must be non-zero";
	else if (!cfg->max_blocks_per_grid ||
		 cfg->max_blocks_per_grid > (1U << 24))
		*why = "max_blocks_per_grid must be 1..16777216";
	else if (!cfg->load_knee_warps || cfg->load_knee_warps > (1U << 15))
		*why = "load_knee_warps must be 1..32768";
	else if (cfg->max_regs_per_thread > 255)
		*why = "max_regs_per_thread must be 0..255";
	else if (cfg->timing_model >= GTBS_NR_TIMING_MODELS)
		*why = "timing_model must be 0 (overlap) or 1 (uniform)";
	return *why ? -EINVAL : 0;
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_config_check);
