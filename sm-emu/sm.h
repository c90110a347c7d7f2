/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sm.h - an SM's resource accounting and rate groups, for the engine.
 *
 * Internal to the portable core (engine.c, sm.c): every function needs the
 * device lock, and none is exported.  Inline, because the event loop runs
 * them at every block issue and end.
 *
 * Copyright (C) 2026 The gputbs developers
 */
#ifndef _GTBS_SM_H
#define _GTBS_SM_H

#include "gtbs.h"

/* gtbs_block_fits(), inline for the engine's dispatch loop.  Lock held. */
static inline bool gtbs_sm_fits(const struct gtbs_dev *dev,
				const struct gtbs_sm *sm,
				const struct gtbs_grid *grid)
{
	const struct gtbs_dev_config *cfg = &dev->cfg;
	const struct gtbs_occupancy *occ = &grid->occ;

	return sm->nr_resident < cfg->max_blocks_per_sm &&
	       sm->used_warps + occ->warps <= cfg->max_warps_per_sm &&
	       sm->used_threads + occ->threads <= cfg->max_threads_per_sm &&
	       sm->used_regs + occ->regs <= cfg->max_regs_per_sm &&
	       sm->used_shmem + occ->shmem <= cfg->max_shmem_per_sm;
}

/*
 * The rate divisor K + L_eff of rate group @g at the SM's current load,
 * recomputed after a load change (&gtbs_sm.load_gen), when the group's
 * carry, in units of the old divisor, is dropped as the SM-wide carry was
 * before rates were per group.  Lock held.
 */
static inline u32 gtbs_group_div(struct gtbs_sm *sm, struct gtbs_rate_group *g)
{
	if (g->div_gen != sm->load_gen) {
		g->div_gen = sm->load_gen;
		g->div = gtbs_load_div(g->knee, g->mem_ppm, sm->load_issue,
				       sm->load_mem);
		g->progress_carry = 0;
	}
	return g->div;
}

/*
 * Bring every rate group of the SM (&gtbs_sm.groups, one progress clock
 * per (knee, phi) resident) and the SM's clock to @now.  Device lock held.
 */
static inline void gtbs_sm_sync(struct gtbs_dev *dev, struct gtbs_sm *sm,
				u64 now)
{
	u32 i;

	if (now <= sm->now)
		return;
	for (i = 0; i < sm->nr_groups; i++) {
		struct gtbs_rate_group *g = &sm->groups[i];
		u32 div = gtbs_group_div(sm, g), rem;
		u64 carry;

		/* exact: the remainder of this division carries to the next */
		g->progress += gtbs_progress_advance_rem(now - sm->now, div,
							 &rem);
		carry = (u64)g->progress_carry + rem;
		g->progress += carry / div;
		g->progress_carry = carry % div;
	}
	if (sm->nr_resident)
		sm->busy_cycles += now - sm->now;
	sm->now = now;
}

/*
 * The rate group of @grid's blocks on @sm: the group of the same knee and
 * phi, or a new one starting at progress 0.  O(groups).  Lock held.
 */
static inline u32 gtbs_group_get(struct gtbs_sm *sm,
				 const struct gtbs_grid *grid)
{
	struct gtbs_rate_group *g;
	u32 i;

	for (i = 0; i < sm->nr_groups; i++)
		if (sm->groups[i].knee == grid->knee &&
		    sm->groups[i].mem_ppm == grid->mem_ppm)
			return i;
	g = &sm->groups[sm->nr_groups];
	memset(g, 0, sizeof(*g));
	g->knee = grid->knee;
	g->mem_ppm = grid->mem_ppm;
	g->div_gen = sm->load_gen - 1;	/* computed at first use */
	return sm->nr_groups++;
}

/*
 * A block of group @i left: free the group with its last block, moving
 * the last group into its place (and its blocks' slots).  Lock held.
 */
static inline void gtbs_group_put(const struct gtbs_dev *dev,
				  struct gtbs_sm *sm, u32 i)
{
	u32 last = sm->nr_groups - 1, s;

	if (--sm->groups[i].blocks)
		return;
	if (i != last) {
		sm->groups[i] = sm->groups[last];
		for (s = 0; s < dev->cfg.max_blocks_per_sm; s++)
			if (sm->slots[s].grid && sm->slots[s].group == last)
				sm->slots[s].group = i;
	}
	sm->nr_groups--;
}

/*
 * A running block of @grid adds its warps to @sm's loads (@sign 1) or
 * takes them away (@sign -1): the timing model's L.  Lock held.
 */
static inline void gtbs_sm_load(struct gtbs_sm *sm,
				const struct gtbs_grid *grid, int sign)
{
	u64 issue = (u64)grid->occ.warps * (GTBS_PPM - grid->mem_ppm);
	u64 mem = (u64)grid->occ.warps * grid->mem_ppm;

	sm->load_gen++;
	sm->load_issue += sign > 0 ? issue : -issue;
	sm->load_mem += sign > 0 ? mem : -mem;
}

/*
 * Keep @sm's bit of &gtbs_dev.sm_full: whether every block slot is held
 * (gtbs_dev_kick() leaves such an SM alone).  Lock held.
 */
static inline void gtbs_sm_full_update(struct gtbs_dev *dev,
				       const struct gtbs_sm *sm)
{
	__assign_bit(sm->id, dev->sm_full,
		     sm->nr_resident >= dev->cfg.max_blocks_per_sm);
}

/*
 * The block of @slot (&gtbs_slot.grid set) takes @sm's resources (the
 * slot, warps, ...); it is expected to hold them @cycles cycles, which
 * its tenant's cap budget is charged (tenant.c).  Lock held.
 */
static inline void gtbs_sm_take(struct gtbs_dev *dev, struct gtbs_sm *sm,
				struct gtbs_slot *slot, u64 cycles)
{
	const struct gtbs_occupancy *occ = &slot->grid->occ;

	gtbs_tenant_hold(dev, slot, cycles, sm->now);
	sm->nr_resident++;
	gtbs_sm_full_update(dev, sm);
	sm->used_warps += occ->warps;
	sm->used_threads += occ->threads;
	sm->used_regs += occ->regs;
	sm->used_shmem += occ->shmem;
}

/*
 * A block of @grid was issued into @slot of @sm: one more of the grid's
 * blocks on the SM, whose residency the SM compares at the end of its
 * dispatch (&gtbs_sm.res_changed), unless the predictor's literal mode
 * ignores residency for the grid (its pair's mode is that of its launch,
 * which may follow this first issue and leaves an extra mark at most).
 * Lock held.
 */
static inline void gtbs_sm_grid_enter(struct gtbs_sm *sm,
				      struct gtbs_slot *slot,
				      struct gtbs_grid *grid)
{
	struct gtbs_grid_sm *gs = gtbs_grid_sm(grid, sm->id);

	grid->resident++;
	gs->resident++;
	if (!gs->pred.literal)
		__set_bit(slot - sm->slots, sm->res_changed);
}

/*
 * The block in @slot of @sm left: one less of its grid's blocks on the SM.
 * If others remain, one slot that holds one is marked for the residency
 * check (any will do: the check reads the grid's pair); with none left
 * there is nothing to compare (a count of 0 changes nothing), nor in the
 * literal mode.  Lock held.
 */
static inline void gtbs_sm_grid_leave(const struct gtbs_dev *dev,
				      struct gtbs_sm *sm,
				      struct gtbs_slot *slot)
{
	struct gtbs_grid *grid = slot->grid;
	struct gtbs_grid_sm *gs = gtbs_grid_sm(grid, sm->id);
	u32 i;

	grid->resident--;
	if (!--gs->resident || gs->pred.literal)
		return;
	for (i = 0; i < dev->cfg.max_blocks_per_sm; i++) {
		if (sm->slots[i].grid == grid && &sm->slots[i] != slot) {
			__set_bit(i, sm->res_changed);
			return;
		}
	}
}

/* The block in @slot gives @sm's resources back; the slot is free. */
static inline void gtbs_sm_give(struct gtbs_dev *dev, struct gtbs_sm *sm,
				struct gtbs_slot *slot)
{
	const struct gtbs_occupancy *occ = &slot->grid->occ;

	gtbs_tenant_unhold(dev, slot, sm->now);
	sm->nr_resident--;
	gtbs_sm_full_update(dev, sm);
	sm->used_warps -= occ->warps;
	sm->used_threads -= occ->threads;
	sm->used_regs -= occ->regs;
	sm->used_shmem -= occ->shmem;
	gtbs_sm_grid_leave(dev, sm, slot);
	slot->grid = NULL;
}

/*
 * The block in @slot of @sm left: its resources go, and, if it was
 * running, its load and its place in its rate group.  Lock held.
 */
static inline void gtbs_sm_release(struct gtbs_dev *dev, struct gtbs_sm *sm,
				   struct gtbs_slot *slot)
{
	bool running = slot->phase == GTBS_SLOT_RUN;

	if (running)
		gtbs_sm_load(sm, slot->grid, -1);
	gtbs_sm_give(dev, sm, slot);
	if (running)
		gtbs_group_put(dev, sm, slot->group);
}

/* Cycles until rate group @g, with its carry, gains @left units. */
static inline u64 gtbs_group_cycles_to(struct gtbs_sm *sm,
				       struct gtbs_rate_group *g, u64 left)
{
	u32 div = gtbs_group_div(sm, g), rem;
	u64 cycles = gtbs_progress_cycles(left, div);
	u64 earlier;

	/* the carry is less than one unit: it saves at most one cycle */
	if (!g->progress_carry || !cycles)
		return cycles;
	earlier = gtbs_progress_advance_rem(cycles - 1, div, &rem);
	earlier += ((u64)rem + g->progress_carry) / div;
	return earlier >= left ? cycles - 1 : cycles;
}
#endif /* _GTBS_SM_H */
