// SPDX-License-Identifier: GPL-2.0
/*
 * preempt.c - preempting resident thread blocks: drain, context switch and
 * flush.
 *
 * Copyright (C) 2026 The gputbs developers
 */

/**
 * DOC: Preempting running blocks
 *
 * The paper's scheduler never interrupts a running block: a grid of a
 * higher class waits for resident blocks to *drain*, and its Section
 * "System Throughput" names that as the major limiter.  gputbs adds the
 * two other mechanisms of Chimera (Park et al., ASPLOS 2015), per SM and
 * per block, selected by the device's &gtbs_dev.preempt_mode:
 *
 * - **context switch**: the block stops running at once (it leaves its
 *   rate group and the SM's load) and its context, its grid's registers
 *   (4 bytes each, as allocated) and shared memory per block, is saved at
 *   the SM's bandwidth &gtbs_dev.switch_bytes_per_cycle; the SM's
 *   transfers go one at a time (&gtbs_sm.xfer_until).  The block keeps its
 *   slot and resources until the save ends, as a GPU's SM keeps them until
 *   the context is out.  Then it waits on its grid's &gtbs_grid.saved
 *   list with its remaining work, and the grid issues it before any new
 *   block: restoring takes as long as saving, with the resources held,
 *   and then it runs on from where it stopped.  Its work is conserved
 *   exactly.
 * - **flush**: only for grids whose submitter declared them idempotent
 *   (&gtbs_grid_desc.idempotent): the block is dropped at once, its slot
 *   free, and runs again later from its start; the work it did is lost
 *   (&gtbs_dev.lost_cycles).  A non-idempotent block is switched instead.
 * - **auto**: per block, with the costs Chimera estimates (latency:
 *   draining takes the block's remaining time at the SM's current rate,
 *   switching its save time after the transfers queued on the SM, flushing
 *   none; overhead: none, save plus restore, the cycles of work lost), the
 *   mechanism with the least overhead whose latency meets the budget of
 *   the preempting grid's class (&gtbs_dev.preempt_budget); if none does,
 *   the one with the least latency.
 *
 * Who preempts whom: when the grid a policy picks for an SM (always one of
 * the highest effective class with blocks to issue) does not fit, the SM
 * preempts resident running blocks of effective classes lower than the
 * grid's *own* class (a class lent by the starvation guard lets a grid
 * issue first, never evict: two starved grids would evict each other
 * forever; a grid whose preempted block waits again starts a new wait for
 * the guard; and a block counts at least at the class its grid had when
 * it was issued, &gtbs_slot.issue_class, so what a lent class issued runs
 * to its end: otherwise a grid lent the preemptor's class would take back
 * every slot freed for it and see the block evicted again the moment its
 * restore ended, and neither grid would ever end a block, fuzz_sched's
 * livelock, unit test preempt_guard_no_livelock): the
 * lowest class first, and within it the block that started its current
 * run last (the least work at stake), until the block fits, counting the
 * resources of blocks already being saved as free.  If even all of them
 * would not make room, or the owner's pool of records
 * (&gtbs_dev.saved_pool) is short, the SM drains.  Within a class the
 * policy decides (&gtbs_policy_ops.may_preempt): SRTF, SRTF/Adaptive,
 * srtf-oracle, sjf and ljf preempt a block of a grid they rank after the
 * one they picked (see each policy's DOC); without the op a class never
 * preempts its own blocks, and with the device in drain mode no policy is
 * asked.  A block that started at the current cycle is not preempted
 * within its class: a flushed block issued again at once could otherwise
 * be flushed again at the same cycle, forever, while the picked grid
 * waits for saves to end (fuzz_sched found it under auto).
 * A block may be preempted any number of times; it is never lost, run to
 * completion twice or counted twice (Done_Blocks, &gtbs_grid.blocks_done
 * and the block_end callback happen once, at its real end).
 *
 * The predictor (the paper is silent here): a block that stops running
 * leaves the SM for Algorithm 1 (gtbs_pred_on_block_preempt(): no longer
 * resident for Active_Kernel_Cycles, Done_Blocks and t unchanged); when
 * it runs again its Block_Start is set back by the cycles it ran before
 * (gtbs_pred_on_block_resume()), so t stays the block's running time.  A
 * flushed block starts afresh.  Save and restore time is neither the
 * block's running time nor the kernel's active time on the SM.
 *
 * ::
 *
 *   RUN --switch--> SAVE --save end--> gtbs_grid.saved --issue--> RESTORE
 *    ^                                      ^                        |
 *    +------------- restore end ------------|------------------------+
 *   RUN --flush (idempotent)----------------+   (then runs from start)
 */
#include "preempt.h"
#include "gtbs_names.h"

/**
 * gtbs_dev_set_saved_pool() - give the device its records for preempted
 * blocks
 * @dev: the device, with no preempted block (at init, or idle).
 * @pool: @n records the owner allocated, or NULL.
 * @n: entries at @pool.
 *
 * Without records every SM drains whatever &gtbs_dev.preempt_mode says.
 * An owner sizes the pool for the blocks that may wait preempted at once;
 * a preemption that would need more waits (the SM drains).
 *
 * Context: device lock held, or before the device is shared.
 */
void gtbs_dev_set_saved_pool(struct gtbs_dev *dev, struct gtbs_saved *pool,
			     u32 n)
{
	u32 i;

	gtbs_lockdep_assert_held(dev);
	INIT_LIST_HEAD(&dev->saved_free);
	dev->saved_pool = pool;
	dev->saved_cap = pool ? n : 0;
	dev->saved_nr_free = dev->saved_cap;
	for (i = 0; i < dev->saved_cap; i++)
		list_add_tail(&pool[i].node, &dev->saved_free);
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_dev_set_saved_pool);

/**
 * gtbs_dev_set_preempt() - choose how SMs preempt resident blocks
 * @dev: the device.
 * @mode: an &enum gtbs_preempt_mode.
 * @now: the emulated cycle of the change, which the device has been run
 *	to: every SM re-evaluates at once.
 *
 * Blocks being saved or restored finish their transfers; the mode applies
 * to preemptions from now on.
 *
 * Context: device lock held.
 * Return: 0, or -EINVAL (nothing changed) for an unknown @mode.
 */
int gtbs_dev_set_preempt(struct gtbs_dev *dev, u32 mode, u64 now)
{
	gtbs_lockdep_assert_held(dev);
	if (mode >= GTBS_NR_PREEMPT_MODES)
		return -EINVAL;
	dev->preempt_mode = mode;
	gtbs_dev_kick(dev, now);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_dev_set_preempt);

/**
 * gtbs_preempt_mode_name() - name of an &enum gtbs_preempt_mode
 * @mode: the mode.
 *
 * Context: any.
 * Return: "drain", "switch", "flush", "auto", or NULL.
 */
const char *gtbs_preempt_mode_name(u32 mode)
{
	static const char * const names[GTBS_NR_PREEMPT_MODES] = {
		[GTBS_PREEMPT_DRAIN] = "drain",
		[GTBS_PREEMPT_SWITCH] = "switch",
		[GTBS_PREEMPT_FLUSH] = "flush",
		[GTBS_PREEMPT_AUTO] = "auto",
	};

	return mode < GTBS_NR_PREEMPT_MODES ? names[mode] : NULL;
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_preempt_mode_name);

/**
 * gtbs_preempt_mech_name() - name of an &enum gtbs_preempt_mech
 * @mech: the mechanism.
 *
 * Context: any.
 * Return: "drain", "switch", "flush", or "?".
 */
const char *gtbs_preempt_mech_name(u32 mech)
{
	static const char * const names[GTBS_NR_MECHS] = {
		GTBS_PREEMPT_MECH_NAMES(GTBS_MECH_)
	};

	return mech < GTBS_NR_MECHS ? names[mech] : "?";
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_preempt_mech_name);

/**
 * gtbs_context_cycles() - cycles to save (or restore) one block's context
 * @dev: the device (&gtbs_dev.switch_bytes_per_cycle).
 * @grid: the block's grid.
 *
 * The context is the block's registers, 4 bytes each, and its shared
 * memory, as allocated (&gtbs_grid.occ).
 *
 * Context: any.
 * Return: cycles, at least 1.
 */
u64 gtbs_context_cycles(const struct gtbs_dev *dev,
			const struct gtbs_grid *grid)
{
	u64 bytes = (u64)grid->occ.regs * 4 + grid->occ.shmem;
	u32 bw = max(dev->switch_bytes_per_cycle, 1U);

	return max(DIV_ROUND_UP(bytes, bw), 1ULL);
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_context_cycles);

/*
 * @grid has a block to issue again (a saved block, or its throttle lifted,
 * throttle.c): back on the pending list, in order; a throttled grid stays
 * off it.  Lock held.
 */
void gtbs_pending_readd(struct gtbs_dev *dev, struct gtbs_grid *grid, u64 now)
{
	struct gtbs_grid *pos;

	if (!list_empty(&grid->pending_node) || !gtbs_grid_has_blocks(grid))
		return;
	/* &gtbs_dev.pending is in arrival order: after the last earlier one */
	list_for_each_entry_reverse(pos, &dev->pending, pending_node)
		if (pos->id < grid->id)
			break;
	gtbs_pending_add(dev, grid, &pos->pending_node);
	gtbs_dev_kick(dev, now);
}

/*
 * Link @grid into the pending list after @prev (an entry of it, or its
 * head) and tell the policy; the caller keeps the arrival order and kicks
 * the SMs.  Lock held.
 */
void gtbs_pending_add(struct gtbs_dev *dev, struct gtbs_grid *grid,
		      struct list_head *prev)
{
	list_add(&grid->pending_node, prev);
	dev->nr_pending[grid->desc.prio_class]++;
	dev->pending_gen++;
	if (dev->policy->grid_update)
		dev->policy->grid_update(dev, NULL, grid);
}

static struct gtbs_saved *gtbs_saved_get(struct gtbs_dev *dev)
{
	struct gtbs_saved *rec;

	rec = list_first_entry(&dev->saved_free, struct gtbs_saved, node);
	list_del(&rec->node);
	dev->saved_nr_free--;
	return rec;
}

static void gtbs_saved_put(struct gtbs_dev *dev, struct gtbs_saved *rec)
{
	list_add(&rec->node, &dev->saved_free);
	dev->saved_nr_free++;
}

/* A preempted block joins its grid's waiting blocks.  Lock held. */
static void gtbs_saved_add(struct gtbs_dev *dev, struct gtbs_grid *grid,
			   struct gtbs_saved *rec, u64 now)
{
	list_add_tail(&rec->node, &grid->saved);
	grid->nr_saved++;
	/*
	 * The starvation guard measures its new wait from here: promoted at
	 * once, it would take back at every save's end the slot it lost
	 */
	grid->last_issue_cycle = now;
	gtbs_pending_readd(dev, grid, now);
}

/* Cycles and costs of one mechanism for one block (see the DOC). */
struct gtbs_mech_cost {
	u64 latency;
	u64 overhead;
};

/* The mechanism for the block in @slot, preempted for @class. */
static u32 gtbs_preempt_mech(struct gtbs_dev *dev, struct gtbs_sm *sm,
			     struct gtbs_slot *slot, u32 class)
{
	const struct gtbs_grid *grid = slot->grid;
	struct gtbs_mech_cost cost[GTBS_NR_MECHS];
	struct gtbs_rate_group *g;
	u64 sw, budget = dev->preempt_budget[class];
	u32 m, best = GTBS_NR_MECHS;

	if (dev->preempt_mode == GTBS_PREEMPT_SWITCH)
		return GTBS_MECH_SWITCH;
	if (dev->preempt_mode == GTBS_PREEMPT_FLUSH)
		return grid->desc.idempotent ? GTBS_MECH_FLUSH :
					       GTBS_MECH_SWITCH;
	g = &sm->groups[slot->group];
	sw = gtbs_context_cycles(dev, grid);
	cost[GTBS_MECH_DRAIN].latency =
		gtbs_group_cycles_to(sm, g, slot->progress_end - g->progress);
	cost[GTBS_MECH_DRAIN].overhead = 0;
	cost[GTBS_MECH_SWITCH].latency = max(sm->xfer_until, sm->now) -
					 sm->now + sw;
	cost[GTBS_MECH_SWITCH].overhead = 2 * sw;
	cost[GTBS_MECH_FLUSH].latency = 0;
	cost[GTBS_MECH_FLUSH].overhead = slot->ran + sm->now -
					 slot->start_cycle;
	for (m = 0; m < GTBS_NR_MECHS; m++) {
		if (m == GTBS_MECH_FLUSH && !grid->desc.idempotent)
			continue;
		if (cost[m].latency > budget)
			continue;
		if (best == GTBS_NR_MECHS ||
		    cost[m].overhead < cost[best].overhead)
			best = m;
	}
	if (best != GTBS_NR_MECHS)
		return best;
	for (m = 0; m < GTBS_NR_MECHS; m++) {
		if (m == GTBS_MECH_FLUSH && !grid->desc.idempotent)
			continue;
		if (best == GTBS_NR_MECHS ||
		    cost[m].latency < cost[best].latency ||
		    (cost[m].latency == cost[best].latency &&
		     cost[m].overhead < cost[best].overhead))
			best = m;
	}
	return best;
}

/* Switch the running block in @slot out: its save starts.  Lock held. */
static void gtbs_preempt_switch(struct gtbs_dev *dev, struct gtbs_sm *sm,
				struct gtbs_slot *slot)
{
	struct gtbs_grid *grid = slot->grid;
	struct gtbs_rate_group *g = &sm->groups[slot->group];
	u32 index = slot - sm->slots;
	struct gtbs_saved *rec = gtbs_saved_get(dev);
	u64 cycles = gtbs_context_cycles(dev, grid);

	rec->block = slot->block;
	rec->remaining = slot->progress_end - g->progress;
	rec->ran = slot->ran + sm->now - slot->start_cycle;
	rec->restore_cycles = cycles;
	rec->preempts = slot->preempts + 1;
	gtbs_pred_on_block_preempt(&gtbs_grid_sm(grid, sm->id)->pred, index,
				   sm->now);
	if (dev->policy->grid_update)
		dev->policy->grid_update(dev, sm, grid);
	gtbs_sm_load(sm, grid, -1);
	gtbs_group_put(dev, sm, slot->group);
	slot->rec = rec;
	slot->phase = GTBS_SLOT_SAVE;
	slot->phase_end = max(sm->now, sm->xfer_until) + cycles;
	sm->xfer_until = slot->phase_end;
	dev->preempts[GTBS_MECH_SWITCH]++;
	dev->xfer_cycles += cycles;
	if (dev->backend && dev->backend->block_preempt)
		dev->backend->block_preempt(dev, sm, grid, index, slot->block,
					    GTBS_MECH_SWITCH,
					    slot->phase_end - sm->now);
}

/* Flush the running block in @slot: it starts again later.  Lock held. */
static void gtbs_preempt_flush(struct gtbs_dev *dev, struct gtbs_sm *sm,
			       struct gtbs_slot *slot)
{
	struct gtbs_grid *grid = slot->grid;
	u32 index = slot - sm->slots, block = slot->block;
	struct gtbs_saved *rec = gtbs_saved_get(dev);

	rec->block = block;
	rec->remaining = gtbs_block_progress(gtbs_grid_block_work(dev, grid,
								  block),
					     grid->full_div);
	rec->ran = 0;
	rec->restore_cycles = 0;
	rec->preempts = slot->preempts;
	dev->lost_cycles += slot->ran + sm->now - slot->start_cycle;
	dev->preempts[GTBS_MECH_FLUSH]++;
	gtbs_pred_on_block_preempt(&gtbs_grid_sm(grid, sm->id)->pred, index,
				   sm->now);
	if (dev->policy->grid_update)
		dev->policy->grid_update(dev, sm, grid);
	if (dev->backend && dev->backend->block_preempt)
		dev->backend->block_preempt(dev, sm, grid, index, block,
					    GTBS_MECH_FLUSH, 0);
	gtbs_sm_release(dev, sm, slot);
	gtbs_saved_add(dev, grid, rec, sm->now);
}

/* Whether @used plus one block of @grid is within the SM's resources. */
static bool gtbs_room_for(const struct gtbs_dev *dev,
			  const struct gtbs_footprint *used,
			  const struct gtbs_grid *grid)
{
	const struct gtbs_dev_config *cfg = &dev->cfg;
	const struct gtbs_occupancy *occ = &grid->occ;

	return used->blocks < cfg->max_blocks_per_sm &&
	       used->warps + occ->warps <= cfg->max_warps_per_sm &&
	       used->threads + occ->threads <= cfg->max_threads_per_sm &&
	       used->regs + occ->regs <= cfg->max_regs_per_sm &&
	       used->shmem + occ->shmem <= cfg->max_shmem_per_sm;
}

static void gtbs_footprint_sub(struct gtbs_footprint *fp,
			       const struct gtbs_occupancy *occ)
{
	fp->blocks--;
	fp->warps -= occ->warps;
	fp->threads -= occ->threads;
	fp->regs -= occ->regs;
	fp->shmem -= occ->shmem;
}

/* Whether the running block in @slot, of effective class @c, may go for
 * @grid, of own class @class: a lower class always, the same class if the
 * policy asks (&gtbs_policy_ops.may_preempt) and the block did not start
 * at this very cycle, never the grid itself.
 */
static bool gtbs_preemptible(const struct gtbs_dev *dev,
			     const struct gtbs_sm *sm,
			     const struct gtbs_grid *grid, u32 class,
			     const struct gtbs_slot *slot, u32 c)
{
	const struct gtbs_grid *victim = slot->grid;

	if (c < class)
		return true;
	return c == class && victim != grid &&
	       slot->start_cycle < sm->now && dev->policy->may_preempt &&
	       dev->policy->may_preempt(dev, sm, grid, victim);
}

/*
 * The next victim for a block of @grid, of class @class: a running block
 * that gtbs_preemptible() allows, the lowest class first, then the latest
 * started.
 */
static struct gtbs_slot *gtbs_preempt_victim(struct gtbs_dev *dev,
					     struct gtbs_sm *sm,
					     const struct gtbs_grid *grid,
					     u32 class, u64 chosen)
{
	struct gtbs_slot *best = NULL;
	u32 i, c, best_class = 0;

	for (i = 0; i < dev->cfg.max_blocks_per_sm; i++) {
		struct gtbs_slot *slot = &sm->slots[i];

		if (!slot->grid || slot->phase != GTBS_SLOT_RUN ||
		    (chosen & BIT_ULL(i)))
			continue;
		c = max(gtbs_grid_class(dev, slot->grid, sm->now),
			slot->issue_class);
		if (!gtbs_preemptible(dev, sm, grid, class, slot, c))
			continue;
		if (!best || c < best_class ||
		    (c == best_class &&
		     slot->start_cycle > best->start_cycle)) {
			best = slot;
			best_class = c;
		}
	}
	return best;
}

/**
 * gtbs_preempt_make_room() - preempt lower classes for a block that does
 * not fit
 * @dev: the device, &gtbs_dev.preempt_mode not %GTBS_PREEMPT_DRAIN.
 * @sm: the SM, at &gtbs_sm.now, inside its dispatch.
 * @grid: the grid the policy picked (of &gtbs_dev.top_class), whose next
 *	block does not fit on @sm.
 *
 * Chooses victims as the DOC says and switches or flushes each by the
 * mode; the SM then waits for its next event (a save's end, or a block's)
 * as it does when draining.
 *
 * Context: device lock held.
 */
void gtbs_preempt_make_room(struct gtbs_dev *dev, struct gtbs_sm *sm,
			    struct gtbs_grid *grid)
{
	struct gtbs_footprint used = {
		.blocks = sm->nr_resident, .warps = sm->used_warps,
		.threads = sm->used_threads, .regs = sm->used_regs,
		.shmem = sm->used_shmem,
	};
	/*
	 * The grid's own class, not one the starvation guard lent it: a
	 * promotion lets a grid issue first, not evict others (two starved
	 * grids would evict each other forever).
	 */
	u32 class = grid->desc.prio_class, i, n = 0;
	struct gtbs_slot *slot;
	u64 chosen = 0;

	gtbs_lockdep_assert_held(dev);
	if (!dev->saved_pool)
		return;
	/* blocks being saved leave: their resources count as free */
	for (i = 0; i < dev->cfg.max_blocks_per_sm; i++)
		if (sm->slots[i].grid && sm->slots[i].phase == GTBS_SLOT_SAVE)
			gtbs_footprint_sub(&used, &sm->slots[i].grid->occ);
	while (!gtbs_room_for(dev, &used, grid)) {
		slot = gtbs_preempt_victim(dev, sm, grid, class, chosen);
		if (!slot)
			return;		/* no room even so: drain */
		chosen |= BIT_ULL(slot - sm->slots);
		gtbs_footprint_sub(&used, &slot->grid->occ);
		n++;
	}
	if (n > dev->saved_nr_free)
		return;			/* no records: drain */
	for (i = 0; i < dev->cfg.max_blocks_per_sm; i++) {
		if (!(chosen & BIT_ULL(i)))
			continue;
		slot = &sm->slots[i];
		switch (gtbs_preempt_mech(dev, sm, slot, class)) {
		case GTBS_MECH_SWITCH:
			gtbs_preempt_switch(dev, sm, slot);
			break;
		case GTBS_MECH_FLUSH:
			gtbs_preempt_flush(dev, sm, slot);
			break;
		default:
			dev->preempts[GTBS_MECH_DRAIN]++;
			break;
		}
	}
}

/**
 * gtbs_slot_phase_done() - a slot's save or restore ended
 * @dev: the device.
 * @sm: the SM, at &gtbs_sm.now >= the slot's &gtbs_slot.phase_end.
 * @slot: a slot in %GTBS_SLOT_SAVE or %GTBS_SLOT_RESTORE.
 *
 * A saved block frees its slot and waits on its grid's list; a restored
 * block runs on (gtbs_slot_run()).
 *
 * Context: device lock held.
 */
void gtbs_slot_phase_done(struct gtbs_dev *dev, struct gtbs_sm *sm,
			  struct gtbs_slot *slot)
{
	struct gtbs_grid *grid = slot->grid;
	struct gtbs_saved *rec = slot->rec;

	gtbs_lockdep_assert_held(dev);
	if (slot->phase == GTBS_SLOT_SAVE) {
		slot->rec = NULL;
		gtbs_sm_give(dev, sm, slot);
		gtbs_saved_add(dev, grid, rec, sm->now);
		return;
	}
	dev->restores++;
	gtbs_slot_run(dev, sm, slot, slot->remaining, true);
}

/**
 * gtbs_issue_saved() - issue a grid's oldest preempted block
 * @dev: the device.
 * @sm: the SM, at &gtbs_sm.now, where the block fits.
 * @grid: a grid with &gtbs_grid.nr_saved > 0.
 * @slot: a free slot of @sm.
 *
 * A switched-out block starts its restore (the SM's resources held at
 * once, the transfer after those queued on the SM); a flushed block runs
 * from its start.
 *
 * Context: device lock held.
 */
void gtbs_issue_saved(struct gtbs_dev *dev, struct gtbs_sm *sm,
		      struct gtbs_grid *grid, struct gtbs_slot *slot)
{
	struct gtbs_saved *rec;
	u64 cycles;

	gtbs_lockdep_assert_held(dev);
	rec = list_first_entry(&grid->saved, struct gtbs_saved, node);
	list_del(&rec->node);
	grid->nr_saved--;
	slot->grid = grid;
	slot->block = rec->block;
	slot->ran = rec->ran;
	slot->preempts = rec->preempts;
	slot->rec = NULL;
	/* what it holds the slot for: its restore, then its work left */
	cycles = gtbs_progress_cycles(rec->remaining, grid->full_div);
	if (rec->restore_cycles)
		cycles += max(sm->now, sm->xfer_until) - sm->now +
			  rec->restore_cycles;
	gtbs_sm_take(dev, sm, slot, cycles);
	gtbs_sm_grid_enter(sm, slot, grid);	/* the dispatch made the pair */
	if (rec->restore_cycles) {
		slot->phase = GTBS_SLOT_RESTORE;
		slot->remaining = rec->remaining;
		slot->phase_end = max(sm->now, sm->xfer_until) +
				  rec->restore_cycles;
		sm->xfer_until = slot->phase_end;
		dev->xfer_cycles += rec->restore_cycles;
		/* the owner sees the block back from its issue on */
		if (dev->backend && dev->backend->block_start)
			dev->backend->block_start(dev, sm, grid,
						  slot - sm->slots,
						  slot->block, sm->now);
	} else {
		gtbs_slot_run(dev, sm, slot, rec->remaining, false);
	}
	gtbs_saved_put(dev, rec);
}

/**
 * gtbs_grid_drop_saved() - a grid leaves: its waiting blocks are dropped
 * @dev: the device.
 * @grid: a grid being cancelled or timed out, none of its blocks on an SM
 *	any more.
 *
 * Context: device lock held.
 */
void gtbs_grid_drop_saved(struct gtbs_dev *dev, struct gtbs_grid *grid)
{
	struct gtbs_saved *rec, *tmp;

	gtbs_lockdep_assert_held(dev);
	list_for_each_entry_safe(rec, tmp, &grid->saved, node) {
		list_del(&rec->node);
		gtbs_saved_put(dev, rec);
	}
	grid->nr_saved = 0;
}

/**
 * gtbs_slot_free() - free a slot whatever its block is doing
 * @dev: the device.
 * @sm: the SM.
 * @slot: a held slot (its grid is leaving: cancel, timeout).
 *
 * A block being saved gives its record back as well.
 *
 * Context: device lock held.
 */
void gtbs_slot_free(struct gtbs_dev *dev, struct gtbs_sm *sm,
		    struct gtbs_slot *slot)
{
	gtbs_lockdep_assert_held(dev);
	if (slot->rec) {
		gtbs_saved_put(dev, slot->rec);
		slot->rec = NULL;
	}
	gtbs_sm_release(dev, sm, slot);
}
