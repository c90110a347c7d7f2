// SPDX-License-Identifier: GPL-2.0
/*
 * config.c - the emulated device's resources.
 *
 * Copyright (C) 2026 The gputbs developers
 */
#include "gtbs.h"

/*
 * The presets.  Per-SM limits, per-block and per-thread limits are the
 * NVIDIA CUDA C++ Programming Guide, "Compute Capabilities", Table
 * "Technical Specifications per Compute Capability", for compute
 * capability 2.0 (GTX 480), 7.0 (V100), 8.0 (A100) and 9.0 (H100).
 * Shared memory per SM is the largest amount a block may be configured to
 * use (the carveout's maximum), not the unified L1/shared capacity.
 * Allocation units are those of the NVIDIA CUDA Occupancy Calculator's
 * "GPU Data" (registers per warp: 64 on cc 2.0, 256 from cc 3.0 on;
 * shared memory: 128 bytes on cc 2.0, 256 on cc 7.0, 128 on cc 8.0 and
 * 9.0).  SM counts and clocks are the product's: the paper's GTX 480
 * (GPGPU-Sim configuration, shader clock 1401 MHz); "NVIDIA Tesla V100
 * GPU Architecture" whitepaper (2017), Table 1: V100 SXM2, 80 SMs, GPU
 * boost clock 1530 MHz; "NVIDIA A100 Tensor Core GPU Architecture"
 * whitepaper (2020), Table 3: A100 SXM4, 108 SMs, boost clock 1410 MHz;
 * "NVIDIA H100 Tensor Core GPU Architecture" whitepaper (2022), Table 3:
 * H100 SXM5, 132 SMs; its clock here is the H100 SXM5's maximum boost
 * clock, 1980 MHz (the H100 PCIe's is 1755 MHz).  The clock is
 * informational: emulated time is in cycles.
 *
 * The timing model's knee K (timing-model.rst) was fitted for the GTX 480
 * only (8 warps of 48).  The other presets scale it with the warp contexts
 * per SM, 8 * 64 / 48 = 10.7, rounded to 11: an assumption, not a
 * measurement.
 *
 * Memory bandwidth (&gtbs_dev_preset.mem_bw_mbs): GeForce GTX 480
 * specifications, 177.4 GB/s; the V100 whitepaper, Table 1, 900 GB/s; the
 * A100 whitepaper, Table 3, A100 SXM4 40 GB, 1555 GB/s; the H100
 * datasheet, H100 SXM, 3.35 TB/s.  Context saves
 * (&gtbs_dev_preset.save_bw_mbs): GPreempt (Fan et al., USENIX ATC 2025)
 * measures a context switch of an A100 under 40 us, about 44 MB (44 MiB:
 * 108 SMs x 420 KiB) saved at an effective 1.1 TB/s.  Which A100 it ran
 * on is assumed to be a 40 GB one (1555 GB/s, SXM4 or PCIe), so 1.1 TB/s
 * is 70.7% of the peak; the other presets are given the same fraction of
 * theirs, rounded to 100 MB/s (peak x 1100000 / 1555000), an assumption,
 * not a measurement.
 *
 * Not modelled: the 1 KiB of shared memory that cc 8.0 and later reserve
 * per block, and the per-block shared memory limit below the per-SM one
 * (V100 96 KiB = per SM, A100 163 KiB, H100 227 KiB).
 */
static const struct gtbs_dev_preset gtbs_presets[] = {
	{
		.name = "gtx480",
		.desc = "GeForce GTX 480 (Fermi, cc 2.0), the paper's device",
		.cfg = {
			.nr_sms = 15,
			.warp_size = 32,
			.max_threads_per_block = 1024,
			.max_blocks_per_grid = 1U << 20,
			.clock_khz = 1401000,
			.max_threads_per_sm = 1536,
			.max_regs_per_sm = 32768,
			.max_shmem_per_sm = 48 * 1024,
			.max_blocks_per_sm = 8,
			.max_warps_per_sm = 48,
			.max_regs_per_thread = 63,
			.reg_alloc_unit = 64,
			.shmem_alloc_unit = 128,
			.load_knee_warps = 8,
		},
		.mem_bw_mbs = 177400,
		.save_bw_mbs = 125500,
	},
	{
		.name = "v100",
		.desc = "Tesla V100 SXM2 (Volta, cc 7.0)",
		.cfg = {
			.nr_sms = 80,
			.warp_size = 32,
			.max_threads_per_block = 1024,
			.max_blocks_per_grid = 1U << 20,
			.clock_khz = 1530000,
			.max_threads_per_sm = 2048,
			.max_regs_per_sm = 65536,
			.max_shmem_per_sm = 96 * 1024,
			.max_blocks_per_sm = 32,
			.max_warps_per_sm = 64,
			.max_regs_per_thread = 255,
			.reg_alloc_unit = 256,
			.shmem_alloc_unit = 256,
			.load_knee_warps = 11,
		},
		.mem_bw_mbs = 900000,
		.save_bw_mbs = 636700,
	},
	{
		.name = "a100",
		.desc = "A100 SXM4 (Ampere, cc 8.0)",
		.cfg = {
			.nr_sms = 108,
			.warp_size = 32,
			.max_threads_per_block = 1024,
			.max_blocks_per_grid = 1U << 20,
			.clock_khz = 1410000,
			.max_threads_per_sm = 2048,
			.max_regs_per_sm = 65536,
			.max_shmem_per_sm = 164 * 1024,
			.max_blocks_per_sm = 32,
			.max_warps_per_sm = 64,
			.max_regs_per_thread = 255,
			.reg_alloc_unit = 256,
			.shmem_alloc_unit = 128,
			.load_knee_warps = 11,
		},
		.mem_bw_mbs = 1555000,
		.save_bw_mbs = 1100000,
	},
	{
		.name = "h100",
		.desc = "H100 SXM5 (Hopper, cc 9.0)",
		.cfg = {
			.nr_sms = 132,
			.warp_size = 32,
			.max_threads_per_block = 1024,
			.max_blocks_per_grid = 1U << 20,
			.clock_khz = 1980000,
			.max_threads_per_sm = 2048,
			.max_regs_per_sm = 65536,
			.max_shmem_per_sm = 228 * 1024,
			.max_blocks_per_sm = 32,
			.max_warps_per_sm = 64,
			.max_regs_per_thread = 255,
			.reg_alloc_unit = 256,
			.shmem_alloc_unit = 128,
			.load_knee_warps = 11,
		},
		.mem_bw_mbs = 3350000,
		.save_bw_mbs = 2369800,
	},
};

/**
 * gtbs_config_preset_at() - a device preset by index
 * @i: index, 0 first; 0 is the default (gtx480).
 *
 * The presets are, in this order: "gtx480" (15 SMs, per SM 1536 threads,
 * 48 warps, 8 blocks, 32768 registers, 48 KiB shared memory), "v100"
 * (80 SMs), "a100" (108 SMs) and "h100" (132 SMs), the last three with per
 * SM 2048 threads, 64 warps, 32 blocks, 65536 registers and 96, 164 and
 * 228 KiB of shared memory.  The sources of every figure are in the
 * comment above the table and in Documentation/design.rst, "Device
 * presets".
 *
 * Context: any.
 * Return: the preset, or NULL when @i is past the last one.
 */
const struct gtbs_dev_preset *gtbs_config_preset_at(unsigned int i)
{
	return i < ARRAY_SIZE(gtbs_presets) ? &gtbs_presets[i] : NULL;
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_config_preset_at);

/**
 * gtbs_config_preset() - a device preset by name
 * @name: "gtx480", "v100", "a100" or "h100", exactly.
 *
 * Context: any.
 * Return: the preset, or NULL when no preset has that name.
 */
const struct gtbs_dev_preset *gtbs_config_preset(const char *name)
{
	const struct gtbs_dev_preset *p;
	unsigned int i;

	for (i = 0; (p = gtbs_config_preset_at(i)); i++)
		if (!strcmp(p->name, name))
			return p;
	return NULL;
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_config_preset);

/**
 * gtbs_config_context_bytes() - the contexts of a fully occupied device
 * @cfg: the device.
 *
 * Every SM's register file (&gtbs_dev_config.max_regs_per_sm registers of
 * 4 bytes) and its shared memory (&gtbs_dev_config.max_shmem_per_sm):
 * the most that the resident blocks of a device can hold, and so what a
 * context switch of every SM saves at most.  A block's own save is what
 * it holds, its grid's registers and shared memory as allocated
 * (preempt.c, "Preempting running blocks").
 *
 * Context: any.
 * Return: bytes.
 */
u64 gtbs_config_context_bytes(const struct gtbs_dev_config *cfg)
{
	return (u64)cfg->nr_sms * ((u64)cfg->max_regs_per_sm * 4 +
				   cfg->max_shmem_per_sm);
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_config_context_bytes);

/**
 * gtbs_config_default() - the paper's device
 * @cfg: out: configuration.
 *
 * The "gtx480" preset: the paper's Table "Simulator Configuration" (the
 * GPGPU-Sim GTX 480 configuration): 15 SMs; per SM 1536 threads, 32768
 * registers, 48 KiB shared memory, at most 8 thread blocks and 48 warps;
 * 32 threads per warp.  Allocation granularities are those of compute
 * capability 2.0 in the NVIDIA occupancy calculator: registers per warp in
 * units of 64, shared memory in units of 128 bytes; at most 63 registers
 * per thread and 1024 threads per block.  The nominal clock is the GTX 480
 * shader clock, 1401 MHz.
 *
 * Context: any.
 */
void gtbs_config_default(struct gtbs_dev_config *cfg)
{
	*cfg = gtbs_presets[0].cfg;
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
	else if (cfg->block_times >= GTBS_NR_BLOCK_TIMES)
		*why = "block_times must be 0 (wave) or 1 (independent)";
	return *why ? -EINVAL : 0;
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_config_check);
