// SPDX-License-Identifier: GPL-2.0
/*
 * predictor.c - the Simple Slicing runtime predictor.
 *
 * Copyright (C) 2026 The gputbs developers
 */

/**
 * DOC: Simple Slicing predictor
 *
 * The paper's Section "The Simple Slicing Predictor" predicts, per kernel
 * and per SM, the kernel's total runtime on that SM from the duration t of
 * one of its thread blocks.  &struct gtbs_pred_sm is the state of the
 * paper's Table "State maintained per-kernel in each SM"; the handlers are
 * its Algorithm 1:
 *
 * - OnLaunch, gtbs_pred_on_launch(): every counter zero,
 *   Resident_Blocks = R, Total_Blocks = ceil(Kernel.Blocks / N_SM),
 *   Reslice = true.
 * - OnKernelEnd of another kernel or the launch of another kernel:
 *   gtbs_pred_reslice().  A change of this kernel's residency on the SM:
 *   gtbs_pred_on_residency(), which in the extended mode (below) sets
 *   Resident_Blocks and starts a slice.  When launches and ends start
 *   slices is the slicing rules' business (DOC "Slices" below:
 *   gtbs_slice_*()), shared by the engine and the trace replay.
 * - OnBlockStart, gtbs_pred_on_block_start(): Block_Start[blkindex] =
 *   clock().
 * - OnBlockEnd, gtbs_pred_on_block_end(): Done_Blocks++; if Reslice,
 *   t = clock() - Block_Start[blkindex]; then, "at the end of the handler
 *   of OnBlockEnd" (Section "Predictor State"), the prediction of
 *   Equation 2::
 *
 *     Pred_Cycles = Active_Kernel_Cycles
 *                   + (Total_Blocks - Done_Blocks) * t / Resident_Blocks
 *
 *   and Reslice = false "after every prediction".  So every block end
 *   predicts, and t is the duration of the first block to end in the
 *   current slice.
 *
 * Active_Kernel_Cycles is "incremented on every cycle that it has a warp
 * running on an SM": here, the cycles during which at least one block of
 * the kernel is resident on the SM, kept as closed intervals plus the open
 * one (&gtbs_pred_sm.active_since).  Equation 2 is evaluated in integers:
 * the quotient is rounded down; Total_Blocks - Done_Blocks is taken as 0
 * when more blocks than expected ran on the SM (Total_Blocks is only an
 * estimate with a dynamic block scheduler, as the paper notes); results
 * saturate at U64_MAX instead of wrapping.
 *
 * Slice-unaware mode (Section "Predictor Accuracy": "the prediction is only
 * made once, at the beginning of the kernel"): the earliest moment
 * Equation 2 can be evaluated on an SM is the kernel's first block end
 * there, so that end sets t and Pred_Cycles; later block ends update
 * Done_Blocks and the book-keeping but neither t nor Pred_Cycles, and
 * reslices have no effect.  One prediction per kernel per SM.  It divides
 * by R (&gtbs_pred_sm.max_residency), whatever residency was observed: the
 * paper says "Resident_Blocks is initialized to R, the maximum number of
 * blocks that can reside at a time on an SM when running alone" (Section
 * "Predictor State"), and a prediction made "only once, at the beginning
 * of the kernel" (Section "Predictor Accuracy") is made before any slice
 * could change it.
 *
 * Literal and extended modes.  Algorithm 1 as printed sets
 * Resident_Blocks only in OnLaunch, and only launches and ends of kernels
 * start slices (Section "The Simple Slicing Predictor": "kernel launches
 * and kernel endings mark the boundaries of slices").  That is the
 * literal mode (gtbs_pred_set_literal()), the engine's default
 * (%GTBS_PRED_MODE_DEFAULT: the module's and gputbs-sim's) and gputbs
 * predict's.  The extended mode, which a state starts in at
 * gtbs_pred_on_launch(), also treats a change of the kernel's own
 * residency on the SM as a slice boundary with Resident_Blocks the
 * observed count (the paper's Section "Systematic Variations in Duration
 * per Thread Block" names residency as a cause of changes in t, but
 * Algorithm 1 does not act on it): gtbs_pred_on_residency() does that
 * only in the extended mode.
 */
#include "predictor.h"

static u64 gtbs_pred_add_sat(u64 a, u64 b)
{
	return a > U64_MAX - b ? U64_MAX : a + b;
}

/**
 * gtbs_pred_equation2() - the Simple Slicing prediction, Equation 2
 * @active_cycles: Active_Kernel_Cycles, cycles.
 * @total_blocks: Total_Blocks, blocks expected on the SM.
 * @done_blocks: Done_Blocks, blocks ended on the SM.
 * @t: duration per thread block, cycles.
 * @resident_blocks: Resident_Blocks, blocks, >= 1 (0 is taken as 1).
 *
 * Computes Active_Kernel_Cycles + (Total_Blocks - Done_Blocks) * t /
 * Resident_Blocks (paper Section "Predictor State", Equation 2) exactly,
 * without a 128-bit product: with t = q * Resident_Blocks + r, the
 * quotient is remaining * q + remaining * r / Resident_Blocks.  Exact for
 * every result below 2^64, so for all cycles up to 2^40 and blocks up to
 * 2^24.
 *
 * Context: any.
 * Return: the predicted total active cycles of the kernel on the SM,
 * cycles, with the quotient rounded down and the remaining block count
 * Total_Blocks - Done_Blocks clamped at 0 when Done_Blocks exceeds
 * Total_Blocks; U64_MAX if the result does not fit in 64 bits.
 */
u64 gtbs_pred_equation2(u64 active_cycles, u32 total_blocks, u32 done_blocks,
			u64 t, u32 resident_blocks)
{
	u64 remaining = done_blocks < total_blocks ?
			total_blocks - done_blocks : 0;
	u32 r_blocks = max(resident_blocks, 1U);
	u64 q = div_u64(t, r_blocks);
	u64 r = t - q * r_blocks;

	if (remaining && q > div64_u64(U64_MAX, remaining))
		return U64_MAX;
	/* remaining < 2^32 and r < 2^32: the product fits */
	return gtbs_pred_add_sat(active_cycles,
				 gtbs_pred_add_sat(remaining * q,
						   div_u64(remaining * r,
							   r_blocks)));
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_pred_equation2);

/**
 * gtbs_pred_init() - bind a predictor state to its Block_Start[] storage
 * @s: the kernel's state on this SM; any content.
 * @block_start: @nr_slots cycles owned by the caller, for Block_Start[].
 * @nr_slots: thread block slots of the SM, 1..%GTBS_MAX_BLOCKS_PER_SM:
 *	the range of blkindex.
 *
 * Once per state, before gtbs_pred_on_launch(), which keeps the binding.
 * The state is then as after a launch of one block with residency 1.
 *
 * Context: any; the caller serialises calls on @s.
 * Return: 0, or -EINVAL (and @s unchanged) if @nr_slots is out of range
 * or @block_start is NULL.
 */
int gtbs_pred_init(struct gtbs_pred_sm *s, u64 *block_start, u32 nr_slots)
{
	if (!block_start || !nr_slots || nr_slots > GTBS_MAX_BLOCKS_PER_SM)
		return -EINVAL;
	s->block_start = block_start;
	s->nr_slots = nr_slots;
	return gtbs_pred_on_launch(s, 1, 1, 1);
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_pred_init);

/**
 * gtbs_pred_on_launch() - OnLaunch: a kernel was launched onto the SM
 * @s: the kernel's state on this SM, bound by gtbs_pred_init().
 * @nr_blocks: Kernel.Blocks, thread blocks in the grid, >= 1.
 * @residency: Kernel.Residency, maximum residency R alone, blocks,
 *	1..%GTBS_MAX_BLOCKS_PER_SM.
 * @nr_sms: N_SM, SMs of the device, >= 1.
 *
 * Algorithm 1, OnLaunch: every counter zero, Resident_Blocks = R,
 * Total_Blocks = ceil(@nr_blocks / @nr_sms) (uniform distribution of the
 * blocks over the SMs, as the paper assumes), Reslice = true, no
 * prediction, no resident block (the binding of gtbs_pred_init() is
 * kept).  The modes are reset to slice-aware and extended; call
 * gtbs_pred_set_slice_unaware() and gtbs_pred_set_literal() after this
 * for the others.
 *
 * Context: any; the caller serialises calls on @s.
 * Return: 0, or -EINVAL (and @s unchanged) if an argument is out of range.
 */
int gtbs_pred_on_launch(struct gtbs_pred_sm *s, u32 nr_blocks, u32 residency,
			u32 nr_sms)
{
	u64 *block_start = s->block_start;
	u32 nr_slots = s->nr_slots;

	if (!nr_blocks || !nr_sms || !residency ||
	    residency > GTBS_MAX_BLOCKS_PER_SM)
		return -EINVAL;
	memset(s, 0, sizeof(*s));
	s->block_start = block_start;
	s->nr_slots = nr_slots;
	/* ceil without overflowing nr_blocks + nr_sms - 1 */
	s->total_blocks = (nr_blocks - 1) / nr_sms + 1;
	s->resident_blocks = residency;
	s->max_residency = residency;
	s->reslice = true;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_pred_on_launch);

/**
 * gtbs_pred_set_slice_unaware() - choose the prediction mode
 * @s: the kernel's state on this SM, after gtbs_pred_on_launch().
 * @on: true: slice-unaware (one prediction, at the first block end);
 *	false: slice-aware, the paper's "/SS" (a prediction at every block
 *	end, t re-measured at the first block end of every slice).
 *
 * Meant to be called before the first block end; switching later applies
 * to the following block ends.
 *
 * Context: any; the caller serialises calls on @s.
 */
void gtbs_pred_set_slice_unaware(struct gtbs_pred_sm *s, bool on)
{
	s->slice_unaware = on;
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_pred_set_slice_unaware);

/**
 * gtbs_pred_set_literal() - choose Algorithm 1 as printed or the extension
 * @s: the kernel's state on this SM, after gtbs_pred_on_launch().
 * @on: true: literal (paper Algorithm 1, lines 1-5: Resident_Blocks is set
 *	to R in OnLaunch and never again; gtbs_pred_on_residency() does
 *	nothing); false: extended (a residency change on the SM sets
 *	Resident_Blocks and starts a slice).
 *
 * Meant to be called right after gtbs_pred_on_launch(): the engine fixes a
 * kernel's mode for its whole run.  Switching later keeps the current
 * Resident_Blocks and applies to the following residency changes.
 *
 * Context: any; the caller serialises calls on @s.
 */
void gtbs_pred_set_literal(struct gtbs_pred_sm *s, bool on)
{
	s->literal = on;
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_pred_set_literal);

/**
 * gtbs_pred_reslice() - a new slice starts for the kernel on this SM
 * @s: the kernel's state on this SM.
 *
 * Algorithm 1, OnKernelEnd (of any other kernel), and equally the launch
 * of another kernel (and, in the extended mode, a change of this kernel's
 * residency on the SM, through gtbs_pred_on_residency()): the slice
 * boundaries of Section "The Simple Slicing Predictor".  Sets
 * Reslice, so that the next block end takes its duration as t.  No effect
 * on predictions in slice-unaware mode.
 *
 * Context: any; the caller serialises calls on @s.
 */
void gtbs_pred_reslice(struct gtbs_pred_sm *s)
{
	s->reslice = true;
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_pred_reslice);

/**
 * gtbs_pred_set_residency() - the kernel's residency on the SM changed
 * @s: the kernel's state on this SM.
 * @residency: new Resident_Blocks, blocks, 1..%GTBS_MAX_BLOCKS_PER_SM.
 *
 * Sets Resident_Blocks for the following slice-aware predictions, in
 * either mode; gtbs_pred_on_residency() is the event handler that applies
 * the mode's rule.
 *
 * Context: any; the caller serialises calls on @s.
 * Return: 0, or -EINVAL (and @s unchanged) if @residency is out of range.
 */
int gtbs_pred_set_residency(struct gtbs_pred_sm *s, u32 residency)
{
	if (!residency || residency > GTBS_MAX_BLOCKS_PER_SM)
		return -EINVAL;
	s->resident_blocks = residency;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_pred_set_residency);

/**
 * gtbs_pred_on_residency() - the kernel's resident block count on the SM
 * @s: the kernel's state on this SM.
 * @residency: blocks of the kernel resident on the SM now, after the SM
 *	issued the blocks it could at this cycle; 0 (none resident) changes
 *	nothing.
 *
 * The extended mode's slice boundary: if @residency differs from
 * Resident_Blocks, Resident_Blocks = @residency and Reslice = true.  In
 * the literal mode (paper Algorithm 1 as printed, which sets
 * Resident_Blocks only in OnLaunch) nothing changes.
 *
 * Context: any; the caller serialises calls on @s.
 * Return: 1 if a slice started, 0 if not; -EINVAL (and @s unchanged) if
 * @residency is above %GTBS_MAX_BLOCKS_PER_SM.
 */
int gtbs_pred_on_residency(struct gtbs_pred_sm *s, u32 residency)
{
	if (residency > GTBS_MAX_BLOCKS_PER_SM)
		return -EINVAL;
	if (s->literal || !residency || residency == s->resident_blocks)
		return 0;
	s->resident_blocks = residency;
	s->reslice = true;
	return 1;
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_pred_on_residency);

/**
 * gtbs_pred_on_block_start() - OnBlockStart: a block of the kernel started
 * @s: the kernel's state on this SM.
 * @blkindex: SM slot of the block, 0..&gtbs_pred_sm.nr_slots-1.
 * @cycle: clock(), cycles; not before the previous event on @s.
 *
 * Algorithm 1, OnBlockStart: Block_Start[@blkindex] = @cycle.  Also opens
 * an Active_Kernel_Cycles interval if no block of the kernel was resident.
 *
 * Context: any; the caller serialises calls on @s.
 * Return: 0; -EINVAL if @blkindex is out of range or @cycle is before the
 * previous event; -EBUSY if slot @blkindex already holds a block.  On
 * error @s is unchanged.
 */
int gtbs_pred_on_block_start(struct gtbs_pred_sm *s, u32 blkindex, u64 cycle)
{
	if (blkindex >= s->nr_slots || cycle < s->last_cycle)
		return -EINVAL;
	if (s->slot_busy & BIT_ULL(blkindex))
		return -EBUSY;
	s->slot_busy |= BIT_ULL(blkindex);
	s->block_start[blkindex] = cycle;
	s->last_cycle = cycle;
	if (!s->nr_resident++)
		s->active_since = cycle;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_pred_on_block_start);

/**
 * gtbs_pred_active_cycles() - Active_Kernel_Cycles at a given cycle
 * @s: the kernel's state on this SM.
 * @now: current cycle, not before the latest event on @s.
 *
 * Context: any; the caller serialises calls on @s.
 * Return: cycles up to @now during which at least one block of the kernel
 * was resident on the SM.
 */
u64 gtbs_pred_active_cycles(const struct gtbs_pred_sm *s, u64 now)
{
	u64 open = 0;

	if (s->nr_resident && now > s->active_since)
		open = now - s->active_since;
	return gtbs_pred_add_sat(s->active_kernel_cycles, open);
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_pred_active_cycles);

/**
 * gtbs_pred_on_block_end() - OnBlockEnd: a block of the kernel ended
 * @s: the kernel's state on this SM.
 * @blkindex: SM slot of the block, 0..&gtbs_pred_sm.nr_slots-1.
 * @cycle: clock(), cycles; not before the previous event on @s.
 *
 * Algorithm 1, OnBlockEnd: Done_Blocks++; if Reslice, t = @cycle -
 * Block_Start[@blkindex].  Then the prediction (Equation 2, see
 * gtbs_pred_equation2()) with Active_Kernel_Cycles at @cycle, and Reslice
 * = false.  In slice-unaware mode only the first block end on the SM sets
 * t and predicts, with Resident_Blocks = R (see the DOC).  Frees slot
 * @blkindex and closes the Active_Kernel_Cycles interval if it was the
 * kernel's last resident block.  Done_Blocks saturates at U32_MAX.
 *
 * Context: any; the caller serialises calls on @s.
 * Return: 1 if a new prediction was made (&gtbs_pred_sm.pred_cycles and
 * &gtbs_pred_sm.t are current), 0 if not (slice-unaware mode after the
 * first prediction); -EINVAL if @blkindex is out of range or @cycle is
 * before the previous event; -ENOENT if slot @blkindex holds no block.  On
 * error @s is unchanged.
 */
int gtbs_pred_on_block_end(struct gtbs_pred_sm *s, u32 blkindex, u64 cycle)
{
	int predicted = 0;

	if (blkindex >= s->nr_slots || cycle < s->last_cycle)
		return -EINVAL;
	if (!(s->slot_busy & BIT_ULL(blkindex)))
		return -ENOENT;
	s->last_cycle = cycle;
	if (s->done_blocks < U32_MAX)
		s->done_blocks++;
	if (!s->slice_unaware || !s->predicted) {
		/* slice-unaware: the first block end, whatever Reslice says */
		if (s->reslice || s->slice_unaware)
			s->t = cycle - s->block_start[blkindex];
		s->pred_cycles =
			gtbs_pred_equation2(gtbs_pred_active_cycles(s, cycle),
					    s->total_blocks, s->done_blocks,
					    s->t, s->slice_unaware ?
					    s->max_residency :
					    s->resident_blocks);
		s->reslice = false;
		s->predicted = true;
		predicted = 1;
	}
	s->slot_busy &= ~BIT_ULL(blkindex);
	if (s->nr_resident == 1)
		s->active_kernel_cycles = gtbs_pred_active_cycles(s, cycle);
	s->nr_resident--;
	return predicted;
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_pred_on_block_end);

/**
 * gtbs_pred_on_block_preempt() - a block of the kernel left the SM unended
 * @s: the kernel's state on this SM.
 * @blkindex: SM slot of the block.
 * @cycle: the cycle it stopped running (context save started, or flushed);
 *	not before the previous event on @s.
 *
 * The paper's predictor has no preemption; gputbs extends it
 * (Documentation/scheduling.rst, "Preempting running blocks"): a block
 * that stops running is no longer resident for Active_Kernel_Cycles (the
 * kernel's SM time excludes its time switched out), Done_Blocks and t do
 * not change and no prediction is made; the slot is free.
 *
 * Context: any; the caller serialises calls on @s.
 * Return: 0; -EINVAL if @blkindex is out of range or @cycle is before the
 * previous event; -ENOENT if slot @blkindex holds no block.
 */
int gtbs_pred_on_block_preempt(struct gtbs_pred_sm *s, u32 blkindex,
			       u64 cycle)
{
	if (blkindex >= s->nr_slots || cycle < s->last_cycle)
		return -EINVAL;
	if (!(s->slot_busy & BIT_ULL(blkindex)))
		return -ENOENT;
	s->last_cycle = cycle;
	s->slot_busy &= ~BIT_ULL(blkindex);
	if (s->nr_resident == 1)
		s->active_kernel_cycles = gtbs_pred_active_cycles(s, cycle);
	s->nr_resident--;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_pred_on_block_preempt);

/**
 * gtbs_pred_on_block_resume() - OnBlockStart of a block that ran before
 * @s: the kernel's state on this SM.
 * @blkindex: SM slot it runs in now.
 * @cycle: the cycle it runs again (its context restored); not before the
 *	previous event on @s.
 * @ran: cycles it ran before it was switched out, <= @cycle.
 *
 * As OnBlockStart, with Block_Start[@blkindex] = @cycle - @ran, so that t
 * measured at its end is its running time, without the time it was
 * switched out (the gputbs extension described at
 * gtbs_pred_on_block_preempt()).
 *
 * Context: any; the caller serialises calls on @s.
 * Return: as gtbs_pred_on_block_start(); -EINVAL also if @ran > @cycle.
 */
int gtbs_pred_on_block_resume(struct gtbs_pred_sm *s, u32 blkindex,
			      u64 cycle, u64 ran)
{
	int ret;

	if (ran > cycle)
		return -EINVAL;
	ret = gtbs_pred_on_block_start(s, blkindex, cycle);
	if (!ret)
		s->block_start[blkindex] = cycle - ran;
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_pred_on_block_resume);

/**
 * gtbs_pred_remaining() - predicted remaining runtime of the kernel on the SM
 * @s: the kernel's state on this SM.
 * @now: current cycle, not before the latest event on @s.
 *
 * Context: any; the caller serialises calls on @s.
 * Return: max(Pred_Cycles - Active_Kernel_Cycles(@now), 0), cycles; or
 * U64_MAX ("unknown") while no prediction exists (before the kernel's
 * first block end on the SM).
 */
u64 gtbs_pred_remaining(const struct gtbs_pred_sm *s, u64 now)
{
	u64 active;

	if (!s->predicted)
		return U64_MAX;
	active = gtbs_pred_active_cycles(s, now);
	return s->pred_cycles > active ? s->pred_cycles - active : 0;
}
EXPORT_SYMBOL_GPL(gtbs_pred_remaining);

/**
 * DOC: Slices
 *
 * Section "The Simple Slicing Predictor": "kernel launches and kernel
 * endings mark the boundaries of slices for all running kernels", and
 * Algorithm 1's OnKernelEnd sets Reslice for every running kernel (the
 * launch of another kernel likewise).  Setting Reslice in every (kernel,
 * SM) state at every launch and end costs O(running kernels x SMs) per
 * event.  The gtbs_slice_*() functions apply it lazily instead, the one
 * implementation used by the engine (sm-emu/engine.c) and by the trace
 * replay of gputbs predict (tools/gputbs/predict.c):
 *
 * - The caller keeps one slice generation, a u64 counter, for the device
 *   (the engine's &gtbs_dev.slice_gen; the replay keeps one per trace),
 *   and one per (kernel, SM) state: the generation that state has caught
 *   up with (&gtbs_grid_sm.slice_gen).
 * - A kernel launch, gtbs_slice_on_kernel_launch(), and the end of a
 *   kernel that ran a block, gtbs_slice_on_kernel_end(), move the
 *   device's generation on: O(1).
 * - A (kernel, SM) state starts with gtbs_slice_join() (OnLaunch, the
 *   modes, the current generation), at the kernel's launch or lazily at
 *   its first block on the SM: OnLaunch sets Reslice, so slices started in
 *   between change nothing.
 * - Reslice is read only at a block end, so a state catches up there,
 *   gtbs_slice_on_block_end(): if the device's generation moved since the
 *   state last caught up, a slice started (gtbs_pred_reslice()).
 *   gtbs_slice_due() is the effective Reslice flag between block ends.
 *
 * A change of the kernel's own residency on one SM (extended mode) is a
 * slice of that state alone, gtbs_pred_on_residency(); the caller decides
 * when residency is compared (after the SM issued its blocks at a cycle).
 */

/**
 * gtbs_slice_on_kernel_launch() - a kernel launched: a new slice for all
 * @gen: the device's slice generation, moved on.
 *
 * Section "The Simple Slicing Predictor": a kernel launch is a slice
 * boundary for every running kernel on every SM.  Applied lazily (see the
 * DOC "Slices"): O(1).  The launched kernel's own states then join at the
 * new generation, gtbs_slice_join(), its slice started by OnLaunch.
 *
 * Context: any; the caller serialises calls on @gen (the device lock).
 */
void gtbs_slice_on_kernel_launch(u64 *gen)
{
	(*gen)++;
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_slice_on_kernel_launch);

/**
 * gtbs_slice_on_kernel_end() - OnKernelEnd: a new slice for the others
 * @gen: the device's slice generation.
 * @ran: the kernel had at least one block issued; one that never ran (a
 *	grid cancelled while queued) shared no SM and starts no slice, so
 *	cancelling many queued grids stays linear.
 *
 * Algorithm 1, OnKernelEnd: Reslice = true for all running kernels, on
 * every SM, applied lazily (see the DOC "Slices"): O(1).
 *
 * Context: any; the caller serialises calls on @gen (the device lock).
 */
void gtbs_slice_on_kernel_end(u64 *gen, bool ran)
{
	if (ran)
		(*gen)++;
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_slice_on_kernel_end);

/**
 * gtbs_slice_join() - OnLaunch of a kernel on one SM, in the slicing rules
 * @s: the kernel's state on this SM, bound by gtbs_pred_init().
 * @s_gen: the state's slice generation, set to @gen.
 * @gen: the device's slice generation now.
 * @nr_blocks: Kernel.Blocks, thread blocks in the grid, >= 1.
 * @residency: Kernel.Residency, R, blocks, 1..%GTBS_MAX_BLOCKS_PER_SM.
 * @nr_sms: N_SM, SMs of the device, >= 1.
 * @slice_unaware: the paper's slice-unaware mode (Section "Predictor
 *	Accuracy"), gtbs_pred_set_slice_unaware().
 * @literal: Algorithm 1 as printed, gtbs_pred_set_literal().
 *
 * Algorithm 1, OnLaunch (gtbs_pred_on_launch(): Reslice = true), the
 * kernel's modes, and the state caught up with @gen.  Call it at the
 * kernel's launch, after gtbs_slice_on_kernel_launch(), or at the
 * kernel's first block on the SM: until that block ends Reslice is set
 * anyway, so the slices started in between change nothing.
 *
 * Context: any; the caller serialises calls on @s and @gen.
 * Return: 0, or -EINVAL (and @s, @s_gen unchanged) if an argument is out
 * of range.
 */
int gtbs_slice_join(struct gtbs_pred_sm *s, u64 *s_gen, u64 gen,
		    u32 nr_blocks, u32 residency, u32 nr_sms,
		    bool slice_unaware, bool literal)
{
	int ret = gtbs_pred_on_launch(s, nr_blocks, residency, nr_sms);

	if (ret)
		return ret;
	gtbs_pred_set_slice_unaware(s, slice_unaware);
	gtbs_pred_set_literal(s, literal);
	*s_gen = gen;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_slice_join);

/**
 * gtbs_slice_catch_up() - apply the slices started since a state last saw
 * @s: the kernel's state on this SM.
 * @s_gen: the state's slice generation, set to @gen.
 * @gen: the device's slice generation now.
 *
 * If the device's generation moved since @s last caught up, a kernel
 * launched or ended meanwhile: Reslice = true (gtbs_pred_reslice()).
 * gtbs_slice_on_block_end() calls it; calling it earlier changes nothing
 * (Reslice stays set until the next block end).
 *
 * Context: any; the caller serialises calls on @s and @gen.
 */
void gtbs_slice_catch_up(struct gtbs_pred_sm *s, u64 *s_gen, u64 gen)
{
	if (*s_gen == gen)
		return;
	*s_gen = gen;
	gtbs_pred_reslice(s);
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_slice_catch_up);

/**
 * gtbs_slice_due() - the effective Reslice flag of a state
 * @s: the kernel's state on this SM.
 * @s_gen: the state's slice generation.
 * @gen: the device's slice generation now.
 *
 * Reslice of Algorithm 1, including the slices started by other kernels'
 * launches and ends that @s has not caught up with: whether the next block
 * end of the kernel on this SM takes its duration as t.
 *
 * Context: any; the caller serialises calls on @s and @gen.
 * Return: true if a slice started since the state's latest prediction.
 */
bool gtbs_slice_due(const struct gtbs_pred_sm *s, u64 s_gen, u64 gen)
{
	return s->reslice || s_gen != gen;
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_slice_due);

/**
 * gtbs_slice_on_block_end() - OnBlockEnd, after the slices it missed
 * @s: the kernel's state on this SM.
 * @s_gen: the state's slice generation, set to @gen.
 * @gen: the device's slice generation now.
 * @blkindex: SM slot of the block, 0..&gtbs_pred_sm.nr_slots-1.
 * @cycle: clock(), cycles; not before the previous event on @s.
 *
 * gtbs_slice_catch_up(), then Algorithm 1's OnBlockEnd with its
 * prediction (gtbs_pred_on_block_end()): the first block end of a slice
 * sets t.
 *
 * Context: any; the caller serialises calls on @s and @gen.
 * Return: as gtbs_pred_on_block_end(): 1 if a new prediction was made, 0
 * if not, a negative errno (and @s unchanged but for the catch-up) on bad
 * input.
 */
int gtbs_slice_on_block_end(struct gtbs_pred_sm *s, u64 *s_gen, u64 gen,
			    u32 blkindex, u64 cycle)
{
	gtbs_slice_catch_up(s, s_gen, gen);
	return gtbs_pred_on_block_end(s, blkindex, cycle);
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_slice_on_block_end);
