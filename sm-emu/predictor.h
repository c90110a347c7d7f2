/* SPDX-License-Identifier: GPL-2.0 */
/*
 * predictor.h - the Simple Slicing runtime predictor (paper Section "The
 * Simple Slicing Predictor"): per-kernel, per-SM state and its event
 * handlers (Algorithm 1), Equation 2, and the slicing rules (gtbs_slice_*:
 * when slices start, applied lazily by a slice generation) shared by the
 * engine and the trace replay of gputbs predict.
 *
 * Like the rest of the portable core it never allocates, sleeps or locks:
 * the caller owns the state and serialises every call on one state.
 *
 * Copyright (C) 2026 The gputbs developers
 */
#ifndef _GTBS_PREDICTOR_H
#define _GTBS_PREDICTOR_H

#include "gtbs_shim.h"

/** GTBS_MAX_SMS - largest SM count of a device */
#define GTBS_MAX_SMS		1024
/** GTBS_MAX_BLOCKS_PER_SM - largest thread block slot count per SM */
#define GTBS_MAX_BLOCKS_PER_SM	64

/**
 * struct gtbs_pred_sm - Simple Slicing predictor state of one kernel on one SM
 * @active_kernel_cycles: Active_Kernel_Cycles up to @active_since: cycles
 *	in which the kernel had at least one block resident on the SM,
 *	summed over the intervals that have closed.  The current value is
 *	gtbs_pred_active_cycles().
 * @active_since: while @nr_resident > 0, the cycle at which @nr_resident
 *	became non-zero (start of the open interval).
 * @last_cycle: cycle of the latest block event; events must not go back.
 * @nr_resident: blocks of the kernel resident on the SM now (started and
 *	not ended), 0..%GTBS_MAX_BLOCKS_PER_SM.
 * @done_blocks: Done_Blocks: blocks of the kernel that ended on the SM.
 * @total_blocks: Total_Blocks: blocks expected on the SM,
 *	ceil(Kernel.Blocks / N_SM).
 * @resident_blocks: Resident_Blocks: residency used by Equation 2, blocks,
 *	1..%GTBS_MAX_BLOCKS_PER_SM; R at launch, then (extended mode only)
 *	the observed residency, gtbs_pred_on_residency().
 * @max_residency: R, Kernel.Residency of OnLaunch, blocks: what
 *	slice-unaware predictions divide by.
 * @slot_busy: bit i set while @block_start[i] holds a resident block.
 * @block_start: Block_Start[]: cycle at which the block resident in SM
 *	slot i (the paper's blkindex) started; @nr_slots entries owned by
 *	the caller and bound by gtbs_pred_init() (the engine sizes them by
 *	the device's &gtbs_dev_config.max_blocks_per_sm, not the largest
 *	possible slot count, so that a grid stays small).
 * @nr_slots: entries of @block_start, 1..%GTBS_MAX_BLOCKS_PER_SM.
 * @t: t: duration of the first block to end in the current slice, cycles.
 * @pred_cycles: Pred_Cycles: latest prediction of the kernel's total
 *	active cycles on this SM (Equation 2), cycles.
 * @reslice: Reslice: a new slice started; the next block end sets @t.
 * @slice_unaware: predict only once, at the first block end on the SM
 *	(the paper's slice-unaware mode); see gtbs_pred_set_slice_unaware().
 * @literal: Algorithm 1 as printed: Resident_Blocks stays R and a change
 *	of residency starts no slice; see gtbs_pred_set_literal().
 * @predicted: @pred_cycles and @t hold a prediction.
 *
 * The paper's Table "State maintained per-kernel in each SM" also lists
 * Total_Blocks_Done (blocks completed over all SMs); Equation 2 does not
 * use it, so it is not kept here.  Protected by the caller's lock (in the
 * module, the device lock).
 */
struct gtbs_pred_sm {
	u64 active_kernel_cycles;
	u64 active_since;
	u64 last_cycle;
	u32 nr_resident;
	u32 done_blocks;
	u32 total_blocks;
	u32 resident_blocks;
	u32 max_residency;
	u64 slot_busy;
	u64 *block_start;
	u32 nr_slots;
	u64 t;
	u64 pred_cycles;
	bool reslice;
	bool slice_unaware;
	bool literal;
	bool predicted;
};

u64 gtbs_pred_equation2(u64 active_cycles, u32 total_blocks, u32 done_blocks,
			u64 t, u32 resident_blocks);
int gtbs_pred_init(struct gtbs_pred_sm *s, u64 *block_start, u32 nr_slots);
int gtbs_pred_on_launch(struct gtbs_pred_sm *s, u32 nr_blocks, u32 residency,
			u32 nr_sms);
void gtbs_pred_set_slice_unaware(struct gtbs_pred_sm *s, bool on);
void gtbs_pred_reslice(struct gtbs_pred_sm *s);
void gtbs_pred_set_literal(struct gtbs_pred_sm *s, bool on);
int gtbs_pred_set_residency(struct gtbs_pred_sm *s, u32 residency);
int gtbs_pred_on_residency(struct gtbs_pred_sm *s, u32 residency);
int gtbs_pred_on_block_start(struct gtbs_pred_sm *s, u32 blkindex, u64 cycle);
int gtbs_pred_on_block_end(struct gtbs_pred_sm *s, u32 blkindex, u64 cycle);
int gtbs_pred_on_block_preempt(struct gtbs_pred_sm *s, u32 blkindex,
			       u64 cycle);
int gtbs_pred_on_block_resume(struct gtbs_pred_sm *s, u32 blkindex,
			      u64 cycle, u64 ran);
u64 gtbs_pred_active_cycles(const struct gtbs_pred_sm *s, u64 now);
u64 gtbs_pred_remaining(const struct gtbs_pred_sm *s, u64 now);

void gtbs_slice_on_kernel_launch(u64 *gen);
void gtbs_slice_on_kernel_end(u64 *gen, bool ran);
int gtbs_slice_join(struct gtbs_pred_sm *s, u64 *s_gen, u64 gen,
		    u32 nr_blocks, u32 residency, u32 nr_sms,
		    bool slice_unaware, bool literal);
void gtbs_slice_catch_up(struct gtbs_pred_sm *s, u64 *s_gen, u64 gen);
bool gtbs_slice_due(const struct gtbs_pred_sm *s, u64 s_gen, u64 gen);
int gtbs_slice_on_block_end(struct gtbs_pred_sm *s, u64 *s_gen, u64 gen,
			    u32 blkindex, u64 cycle);

#endif /* _GTBS_PREDICTOR_H */
