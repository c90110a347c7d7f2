// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_sched.c - libFuzzer target: the scheduler (sm-emu/) under arbitrary
 * event sequences, with its invariants checked after every step.
 *
 * The input is a program for a small device (1 to 4 SMs; its first policy
 * and the predictor's mode, literal or extended, from one byte): submit a grid
 * (any shape, class and work model, now or at a later cycle), advance
 * time (also in bounded slices of a few events, as the module does), cancel
 * a grid, switch the policy (fair included), set the starvation guard, the
 * SRTF/Adaptive tunables or the device's job timeout; grids may have their
 * own timeout.  Three tenants are made at the start besides the device's
 * own; each grid gets one of them or none, and operations set a tenant's
 * weight and cap at the device's clock, at any cycle (caps raised to a
 * quota of 100 SM-cycles per SM and period, so that refills stay few), and
 * the cap period while no tenant is capped (as the module's sysfs setter
 * does).  After every operation:
 *
 * - no SM holds more than its resources, and its counters equal the sum
 *   over its slots;
 * - every grid's resident count equals the sum of its per-SM counts, and
 *   blocks done <= blocks issued <= blocks;
 * - the block callbacks match: every started block ends once, no block
 *   starts twice;
 * - every SM whose next event changed since the last check is in
 *   &gtbs_dev.next_moved (what the module re-arms its timers from);
 * - in the predictor's extended mode, a resident grid with none of its
 *   slots in &gtbs_sm.res_changed has Resident_Blocks equal to its block
 *   count on the SM (the residency check reads only marked slots);
 * - each tenant's rate equals the sum over the slots its blocks hold
 *   (running, saving or restoring) of GTBS_SM_TIME_SCALE / R, and its
 *   grid count its grid list (every grid on it its own);
 * - a throttled tenant has a cap and all its grids carry
 *   GTBS_THROTTLE_CAP; no grid of an unthrottled tenant does;
 *   &gtbs_dev.nr_tenants_throttled counts the throttled ones;
 * - while one is throttled the next refill is not before the device's
 *   clock, nor after the end of any throttled tenant's period.
 *
 * At the end the device is drained: every grid not cancelled or timed out
 * is DONE with all its blocks, the SMs are empty, the device is idle and
 * every tenant's rate and grid count are 0.  Each step of the drain must
 * advance the clock, and an input may take FZ_MAX_EVENTS events in all:
 * a device that does not advance (a refill left in the past) fails the
 * input instead of hanging it.
 *
 * Every input runs twice: SRTF and SRTF/Adaptive pick from their per-SM
 * order, SJF and LJF from their trees of queued grids, the first time, and
 * by the plain scans the second (gtbs_srtf_scan_ref,
 * gtbs_serial_scan_ref); the two runs' block events (start, end,
 * preemption: SM, grid, block, cycle) must be the same.
 *
 * Built with -DFZ_COMPARE (scripts/sched-compare.sh) it is instead a
 * program that prints each input file's digest, for comparing the
 * schedules of two versions of the core: FZ_NSMS SMs at most (default 4),
 * the picks, predictions, each bounded run's budget and clock and the next
 * event folded into the digest too, and three more operations (an owner's
 * gtbs_dev_kick() at or ahead of the device's clock, &gtbs_dev.spare_only
 * with a low mark, pairs added to the reserve); the tenants' invariants
 * are not checked then, but their operations run (both cores need
 * tenants, gtbs_tenant_set()).
 *
 * Copyright (C) 2026 The gputbs developers
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gtbs.h"
#include "policy_srtf.h"
#include "../../tools/include/gtbs_pair_alloc_user.h"

#ifndef FZ_NSMS
#define FZ_NSMS		4
#endif
#ifdef FZ_COMPARE
#define FZ_NR_OPS	15
#else
#define FZ_NR_OPS	12
#endif
#define FZ_MAX_GRIDS	24
#define FZ_MAX_BLOCKS	48
/* the built-in policies, fair included (gtbs_policy_register_builtins()) */
#define FZ_NR_POLICIES	8
/* tenants made at the start, besides the device's own */
#define FZ_NR_TENANTS	3
/*
 * The smallest quota of a period per SM, max_ppm x cap_period: 100
 * SM-cycles (1e8 units), so that a throttled tenant needs at most one
 * refill per 100 SM-cycles of its work and every input runs in bounded
 * time: a cap is raised to it (1,000 ppm at the default period; 1 ppm
 * from 10^8 cycles on); periods are 100 .. 2^33 cycles.
 */
#define FZ_MIN_QUOTA	100000000ULL
#define FZ_MIN_PERIOD	100ULL
#define FZ_MAX_PERIOD	BIT_ULL(33)
/*
 * Events (gtbs_dev_run_bounded()) an input may take in all, far above
 * what its work and its caps' refills need: past it the device is taken
 * to be stuck (a refill or kick that never advances) and the input fails
 * rather than hanging.
 */
#define FZ_MAX_EVENTS	BIT_ULL(23)

struct fz {
	struct gtbs_dev dev;
	struct gtbs_saved pool[64];
	struct gtbs_sm *sms[FZ_NSMS];
	struct gtbs_grid *grids[FZ_MAX_GRIDS];
	/* tenants: &dev.tenant0, then FZ_NR_TENANTS of the fuzzer's */
	struct gtbs_tenant *tenants[FZ_NR_TENANTS + 1];
	struct gtbs_tenant own[FZ_NR_TENANTS];
	u64 durations[FZ_MAX_GRIDS][FZ_MAX_BLOCKS];
	u8 started[FZ_MAX_GRIDS][FZ_MAX_BLOCKS];
	/* on an SM now: started and neither preempted nor ended since */
	u8 running[FZ_MAX_GRIDS][FZ_MAX_BLOCKS];
	u8 ended[FZ_MAX_GRIDS][FZ_MAX_BLOCKS];
	/* the SMs (bits, modulo 64) a block of the grid was issued on */
	u64 touched[FZ_MAX_GRIDS];
	/* stream order: grid + 1 of the predecessor a grid waited for, 0 */
	unsigned int after[FZ_MAX_GRIDS];
	u64 gap[FZ_MAX_GRIDS];
	unsigned int nr_grids;
	u64 now;
	const u8 *p, *end;
	u64 digest;	/* of the block events, in order */
	/* each SM's next event when its bit of next_moved was last cleared */
	u64 armed[FZ_NSMS];
	u64 events;	/* processed by fz_run_until() */
};

/* Fold one block event into &fz.digest (FNV-1a over 64-bit words). */
static void fz_digest(struct fz *f, u64 a, u64 b, u64 c, u64 d)
{
	const u64 w[4] = { a, b, c, d };
	unsigned int i;

	for (i = 0; i < 4; i++)
		f->digest = (f->digest ^ w[i]) * 0x100000001b3ULL;
}

#define fz_assert(c) do { if (!(c)) __builtin_trap(); } while (0)

static u32 fz_byte(struct fz *f)
{
	return f->p < f->end ? *f->p++ : 0;
}

static u32 fz_u16(struct fz *f)
{
	return fz_byte(f) | fz_byte(f) << 8;
}

static unsigned int fz_index(struct fz *f, struct gtbs_grid *grid)
{
	unsigned int i;

	for (i = 0; i < f->nr_grids; i++)
		if (f->grids[i] == grid)
			return i;
	__builtin_trap();
}

static void fz_block_start(struct gtbs_dev *dev, struct gtbs_sm *sm,
			   struct gtbs_grid *grid, u32 slot, u32 block,
			   u64 cycle)
{
	struct fz *f = dev->priv;
	unsigned int g = fz_index(f, grid);

	fz_assert(block < grid->desc.nr_blocks);
	/* again only after a preemption, never after its end */
	fz_assert(!f->running[g][block] && !f->ended[g][block]);
	f->started[g][block] = 1;
	f->running[g][block] = 1;
	f->touched[g] |= 1ULL << sm->id % 64;
	fz_assert(sm->slots[slot].grid == grid);
	fz_digest(f, 1 | (u64)sm->id << 8, g, block, cycle);
}

static void fz_block_preempt(struct gtbs_dev *dev, struct gtbs_sm *sm,
			     struct gtbs_grid *grid, u32 slot, u32 block,
			     u32 mech, u64 cycles)
{
	struct fz *f = dev->priv;
	unsigned int g = fz_index(f, grid);

	fz_assert(f->running[g][block]-- == 1);
	fz_assert(mech == GTBS_MECH_SWITCH || mech == GTBS_MECH_FLUSH);
	fz_assert(mech != GTBS_MECH_FLUSH || grid->desc.idempotent);
	fz_digest(f, 2 | (u64)sm->id << 8 | (u64)mech << 32, g, block,
		  sm->now);
}

static void fz_block_end(struct gtbs_dev *dev, struct gtbs_sm *sm,
			 struct gtbs_grid *grid, u32 slot, u32 block,
			 u64 start, u64 end)
{
	struct fz *f = dev->priv;
	unsigned int g = fz_index(f, grid);

	fz_assert(f->running[g][block]-- == 1 && !f->ended[g][block]++);
	fz_assert(end >= start);
	fz_digest(f, 3 | (u64)sm->id << 8, g, block, end);
}

#ifdef FZ_COMPARE
static void fz_pick(struct gtbs_dev *dev, struct gtbs_sm *sm,
		    struct gtbs_grid *grid, u32 reason)
{
	struct fz *f = dev->priv;

	fz_digest(f, 4 | (u64)sm->id << 8 | (u64)reason << 32,
		  grid ? fz_index(f, grid) : FZ_MAX_GRIDS, sm->now,
		  dev->top_class);
}

static void fz_predict(struct gtbs_dev *dev, struct gtbs_sm *sm,
		       struct gtbs_grid *grid)
{
	struct fz *f = dev->priv;

	fz_digest(f, 5 | (u64)sm->id << 8, fz_index(f, grid), sm->now,
		  grid->pred_remaining);
}
#endif

static const struct gtbs_backend_ops fz_backend = {
#ifdef FZ_COMPARE
	.pick = fz_pick,
	.predict = fz_predict,
#endif
	.block_start = fz_block_start,
	.block_end = fz_block_end,
	.block_preempt = fz_block_preempt,
};

/*
 * gtbs_dev_run_until() in slices of events, counted: an input that takes
 * more than FZ_MAX_EVENTS in all fails instead of hanging.
 */
static void fz_run_until(struct fz *f, u64 until)
{
	u32 budget;
	bool done;

	do {
		budget = 4096;
		done = gtbs_dev_run_bounded(&f->dev, until, &budget);
		f->events += 4096 - budget;
		fz_assert(f->events < FZ_MAX_EVENTS);
	} while (!done && !f->dev.spare_short);
}

#ifndef FZ_COMPARE	/* an older core may have no res_changed */
/*
 * The residency check reads only marked slots (gtbs_sm.res_changed): a
 * resident grid of the extended mode with no slot marked on @sm must
 * already have Resident_Blocks equal to its count there.
 */
static void fz_check_residency(struct fz *f, const struct gtbs_sm *sm)
{
	unsigned int j, k;

	for (j = 0; j < f->dev.cfg.max_blocks_per_sm; j++) {
		const struct gtbs_grid *grid = sm->slots[j].grid;
		const struct gtbs_grid_sm *gs;
		bool marked = false;

		if (!grid)
			continue;
		gs = gtbs_grid_sm(grid, sm->id);
		if (gs->pred.literal)
			continue;
		for (k = 0; k < f->dev.cfg.max_blocks_per_sm; k++)
			if (sm->slots[k].grid == grid &&
			    test_bit(k, sm->res_changed))
				marked = true;
		if (!marked)
			fz_assert(gs->pred.resident_blocks == gs->resident);
	}
}
#endif

#ifndef FZ_COMPARE	/* an older core may have no refill events */
/* The index of @t in &fz.tenants. */
static unsigned int fz_tenant_index(const struct fz *f,
				    const struct gtbs_tenant *t)
{
	unsigned int i;

	for (i = 0; i <= FZ_NR_TENANTS; i++)
		if (f->tenants[i] == t)
			return i;
	__builtin_trap();
}

/*
 * Tenants: each one's rate is the sum over the slots its blocks hold
 * (running, saving or restoring) of SCALE / R; its grid list and count
 * agree; it is throttled only with a cap, and then every grid of its
 * carries GTBS_THROTTLE_CAP and no grid of an unthrottled one does; the
 * device counts the throttled ones, and its next refill is not in its
 * past and comes no later than the end of any throttled tenant's period.
 */
static void fz_check_tenants(struct fz *f)
{
	const struct gtbs_dev *dev = &f->dev;
	u64 rate[FZ_NR_TENANTS + 1] = { 0 };
	unsigned int i, j, throttled = 0;

	for (i = 0; i < dev->cfg.nr_sms; i++) {
		for (j = 0; j < dev->cfg.max_blocks_per_sm; j++) {
			const struct gtbs_grid *grid = f->sms[i]->slots[j].grid;

			if (grid)
				rate[fz_tenant_index(f, grid->tenant)] +=
					GTBS_SM_TIME_SCALE /
					max(grid->occ.residency, 1U);
		}
	}
	for (i = 0; i <= FZ_NR_TENANTS; i++) {
		const struct gtbs_tenant *t = f->tenants[i];
		const struct gtbs_grid *grid;
		u32 n = 0;

		fz_assert(t->rate == rate[i]);
		list_for_each_entry(grid, &t->grids, tenant_node) {
			n++;
			fz_assert(grid->tenant == t);
			fz_assert(!!(grid->throttle & GTBS_THROTTLE_CAP) ==
				  t->throttled);
		}
		fz_assert(n == t->nr_grids);
		if (!t->throttled)
			continue;
		throttled++;
		fz_assert(t->max_ppm);
		fz_assert(dev->refill_cycle <= t->period_end);
	}
	fz_assert(throttled == dev->nr_tenants_throttled);
	if (throttled)
		fz_assert(gtbs_dev_next_refill(dev) >= dev->clock);
}
#endif

static void fz_check(struct fz *f)
{
	const struct gtbs_dev_config *cfg = &f->dev.cfg;
	unsigned int i, j, g;

	for (i = 0; i < cfg->nr_sms; i++) {
		const struct gtbs_sm *sm = f->sms[i];
		u32 n = 0, warps = 0, threads = 0, regs = 0, shmem = 0;

		for (j = 0; j < cfg->max_blocks_per_sm; j++) {
			const struct gtbs_grid *grid = sm->slots[j].grid;

			if (!grid)
				continue;
			n++;
			warps += grid->occ.warps;
			threads += grid->occ.threads;
			regs += grid->occ.regs;
			shmem += grid->occ.shmem;
		}
		fz_assert(n == sm->nr_resident && warps == sm->used_warps);
		fz_assert(threads == sm->used_threads && regs == sm->used_regs);
		fz_assert(shmem == sm->used_shmem);
		fz_assert(warps <= cfg->max_warps_per_sm);
		fz_assert(threads <= cfg->max_threads_per_sm);
		fz_assert(regs <= cfg->max_regs_per_sm);
		fz_assert(shmem <= cfg->max_shmem_per_sm);
#ifndef FZ_COMPARE	/* an older core may have no next_moved */
		/*
		 * an SM whose next event moved is in next_moved: the module
		 * re-arms only those (gtbs_dev_next_moved())
		 */
		if (!test_bit(i, f->dev.next_moved))
			fz_assert(gtbs_sm_next_event(&f->dev, sm) == f->armed[i]);
		__clear_bit(i, f->dev.next_moved);
		f->armed[i] = gtbs_sm_next_event(&f->dev, sm);
		fz_check_residency(f, sm);
#endif
	}
	for (g = 0; g < f->nr_grids; g++) {
		const struct gtbs_grid *grid = f->grids[g];
		const struct gtbs_grid_sm *gs;
		u32 sum = 0;

		for (i = 0; i < cfg->nr_sms; i++)
			sum += gtbs_grid_sm_resident(grid, i);
		fz_assert(sum == grid->resident);
		/* per-SM state only where it issued a block */
		list_for_each_entry(gs, &grid->sms, node) {
			fz_assert(gs->sm < cfg->nr_sms);
			fz_assert(grid->sm[gs->sm] == gs);
			fz_assert(f->touched[g] & 1ULL << gs->sm % 64);
		}
		for (i = 0; i < cfg->nr_sms; i++)
			fz_assert(!grid->sm[i] || grid->sm[i]->sm == i);
		fz_assert(grid->blocks_done <= grid->next_block);
		fz_assert(grid->next_block <= grid->desc.nr_blocks);
	}
#ifndef FZ_COMPARE	/* an older core may have no refill events */
	fz_check_tenants(f);
#endif
}

static void fz_submit(struct fz *f)
{
	struct gtbs_grid_desc d = { 0 };
	struct gtbs_grid *grid;
	unsigned int g = f->nr_grids, i;
	const char *why;
	u64 at;

	if (g == FZ_MAX_GRIDS)
		return;
	d.nr_blocks = fz_byte(f) % FZ_MAX_BLOCKS + 1;
	d.threads_per_block = fz_u16(f) % 1100 + 1;
	d.regs_per_thread = fz_byte(f) % 70;
	d.shmem_per_block = fz_u16(f) % 52000;
	d.prio_class = fz_byte(f) % (GTBS_NR_PRIO_CLASSES + 1);
	d.seed = fz_byte(f);
	d.idempotent = fz_byte(f) & 1;
	if (fz_byte(f) & 1) {
		for (i = 0; i < d.nr_blocks; i++)
			f->durations[g][i] = fz_u16(f) % 3000 + 1;
		d.durations = f->durations[g];
	} else {
		d.block_cycles = fz_u16(f) % 5000 + 1;
		d.block_rsd_ppm = fz_byte(f) * 4000;
		/* the shapes and the start-up effect, in and out of range */
		d.block_dist = fz_byte(f) % (GTBS_NR_BLOCK_DISTS + 1);
		if (d.block_dist)
			d.block_dist_param = fz_u16(f) * 16;
		if (fz_byte(f) % 4 == 0) {
			d.startup_ppm = fz_u16(f) * 256;
			d.startup_blocks = fz_byte(f) % (d.nr_blocks + 2);
		}
	}
	if (fz_byte(f) % 4 == 0)
		d.timeout_cycles = fz_u16(f) % 8000 + 1;
	at = f->now + (fz_byte(f) & 1 ? fz_u16(f) % 3000 : 0);
	/* a tenant of the fuzzer's, the device's own, or none (the same) */
	i = fz_byte(f) % (FZ_NR_TENANTS + 2);
	grid = calloc(1, gtbs_grid_size(&f->dev.cfg));
	if (!grid)
		return;
	if (gtbs_grid_init(&f->dev, grid, &d, &why)) {
		fz_assert(why);	/* every rejection says why */
		free(grid);
		return;
	}
	f->grids[f->nr_grids++] = grid;
	grid->tenant = i ? f->tenants[i - 1] : NULL;
	if (g && fz_byte(f) % 3 == 0) {
		/* stream order after an earlier grid, in whatever state */
		unsigned int p = fz_byte(f) % g;

		f->gap[g] = fz_byte(f) & 1 ? fz_u16(f) % 3000 : 0;
		gtbs_grid_submit_after(&f->dev, grid, f->now, f->grids[p],
				       f->gap[g]);
		if (grid->state == GTBS_GRID_WAITING)
			f->after[g] = p + 1;
		return;
	}
	gtbs_grid_submit_at(&f->dev, grid, f->now, at);
}

/*
 * A tenant's weight and cap, at the device's clock (run to &fz.now first
 * or not): weight 1..10000, max_ppm 0 or 1..10^6 raised to FZ_MIN_QUOTA.
 */
static void fz_tenant_set(struct fz *f)
{
	struct gtbs_tenant *t = f->tenants[fz_byte(f) % (FZ_NR_TENANTS + 1)];
	u32 weight = fz_u16(f) % GTBS_TENANT_WEIGHT_MAX + 1;
	u32 ppm = 0;

	if (fz_byte(f) % 4) {
		ppm = (fz_u16(f) | fz_byte(f) << 16) % GTBS_PPM + 1;
		/* cap_period >= FZ_MIN_PERIOD: at most GTBS_PPM */
		ppm = max_t(u64, ppm, DIV_ROUND_UP(FZ_MIN_QUOTA,
						   f->dev.cap_period));
	}
	if (fz_byte(f) & 1)
		fz_run_until(f, f->now);
	fz_assert(!gtbs_tenant_set(&f->dev, t, weight, ppm, f->dev.clock));
	fz_assert(t->weight == weight && t->max_ppm == ppm);
	fz_assert(!t->throttled || ppm);
}

/*
 * The device's cap period, as the module's sysfs setter does it
 * (gputbs_set_cap_period()): refused while a tenant is capped, and every
 * tenant's period then ends at the next multiple of it.
 */
static void fz_cap_period(struct fz *f)
{
	u64 period = (u64)fz_u16(f) << fz_byte(f) % 20;
	unsigned int i;

	period = clamp(period, FZ_MIN_PERIOD, FZ_MAX_PERIOD);
	for (i = 0; i <= FZ_NR_TENANTS; i++)
		if (f->tenants[i]->max_ppm)
			return;
	fz_run_until(f, f->now);
	f->dev.cap_period = period;
	for (i = 0; i <= FZ_NR_TENANTS; i++)
		f->tenants[i]->period_end = (f->dev.clock / period + 1) *
					    period;
}

static void fz_step(struct fz *f)
{
	static const u64 limits[] = { 0, 100, 1000 };
	unsigned int g;
	u32 budget;

	switch (fz_byte(f) % FZ_NR_OPS) {
#ifdef FZ_COMPARE
	case 12:
		/* an owner's kick, at the device's clock or ahead of it */
		gtbs_dev_kick(&f->dev, fz_byte(f) & 1 ? f->dev.clock :
			      f->now + fz_byte(f) % 64);
		break;
	case 13:
		f->dev.spare_only = fz_byte(f) & 1;
		f->dev.spare_low = fz_byte(f) % 4;
		break;
	case 14: {
		u32 n = fz_byte(f) % 4;

		while (n--)
			gtbs_dev_spare_add(&f->dev,
				calloc(1, gtbs_grid_sm_size(&f->dev.cfg)));
		break;
	}
#endif
	case 0:
		fz_submit(f);
		break;
	case 1:
		f->now += fz_u16(f);
		fz_run_until(f, f->now);
		break;
	case 2:
		if (f->nr_grids) {
			g = fz_byte(f) % f->nr_grids;
			gtbs_grid_cancel(&f->dev, f->grids[g], f->now);
		}
		break;
	case 3:
		gtbs_dev_set_policy(&f->dev,
				    gtbs_policy_at(fz_byte(f) % FZ_NR_POLICIES),
				    f->now);
		break;
	case 4:
		f->dev.starve_cycles = limits[fz_byte(f) % 3];
		break;
	case 5:
		/* a parameter of the current policy, any value: out of range
		 * is refused and changes nothing
		 */
		if (f->dev.policy->nr_params) {
			u32 i = fz_byte(f) % f->dev.policy->nr_params;
			const struct gtbs_policy_param *p =
				&f->dev.policy->params[i];
			u64 before = gtbs_policy_param_get(&f->dev, i);
			u64 v = fz_u16(f) * (u64)fz_u16(f);

			if (gtbs_policy_param_set(&f->dev, i, v, f->now))
				fz_assert(gtbs_policy_param_get(&f->dev, i) ==
					  before && (v < p->min || v > p->max));
		}
		break;
	case 6:
		/* a slice: the device may stay behind f->now */
		budget = fz_byte(f) % 8;
		f->now += fz_u16(f);
		fz_assert(gtbs_dev_run_bounded(&f->dev, f->now, &budget) ||
			  !budget || f->dev.spare_short);
		f->events += 8;	/* at most */
		fz_assert(f->dev.clock <= f->now);
#ifdef FZ_COMPARE
		fz_digest(f, 9, budget, f->dev.clock,
			  gtbs_dev_next_event(&f->dev));
#endif
		break;
	case 10:
		fz_tenant_set(f);
		break;
	case 11:
		fz_cap_period(f);
		break;
	case 7:
		gtbs_dev_set_timeout(&f->dev, limits[fz_byte(f) % 3] * 5,
				     f->now);
		break;
	case 8:
		/* preemption: a mode (or a bad one), a bandwidth, a budget */
		fz_run_until(f, f->now);
		gtbs_dev_set_preempt(&f->dev, fz_byte(f) % (GTBS_NR_PREEMPT_MODES + 1),
				     f->now);
		f->dev.switch_bytes_per_cycle = fz_byte(f) % 64 + 1;
		f->dev.preempt_budget[fz_byte(f) % GTBS_NR_PRIO_CLASSES] =
			fz_u16(f);
		break;
	default:
		fz_run_until(f, f->now);
		break;
	}
	fz_check(f);
#ifdef FZ_COMPARE
	fz_digest(f, 8, gtbs_dev_next_event(&f->dev), f->dev.clock, 0);
#endif
}

/* Run one input; the digest of its block events. */
static u64 fz_run(const uint8_t *data, size_t size)
{
	struct gtbs_dev_config cfg;
	struct fz *f = calloc(1, sizeof(*f));
	unsigned int i, g, op, steps = 0;
	u64 next, digest;

	if (!f)
		return 0;
	f->digest = 0xcbf29ce484222325ULL;
	f->p = data;
	f->end = data + size;
	gtbs_config_default(&cfg);
	cfg.nr_sms = fz_byte(f) % FZ_NSMS + 1;
	for (i = 0; i < cfg.nr_sms; i++) {
		f->sms[i] = calloc(1, gtbs_sm_size(&cfg));
		fz_assert(f->sms[i]);
		gtbs_sm_init(&cfg, f->sms[i], i);
		f->armed[i] = U64_MAX;
	}
	/* the first policy, and the predictor's mode for every launch */
	op = fz_byte(f);
	gtbs_dev_init(&f->dev, &cfg, gtbs_policy_at(op % FZ_NR_POLICIES),
		      f->sms);
	gtbs_dev_set_pred_mode(&f->dev,
			       op / FZ_NR_POLICIES % GTBS_NR_PRED_MODES);
	f->dev.pair_alloc = &gtbs_pair_alloc_libc;
	f->dev.backend = &fz_backend;
	f->dev.priv = f;
	gtbs_dev_set_saved_pool(&f->dev, f->pool, ARRAY_SIZE(f->pool));
	f->tenants[0] = &f->dev.tenant0;
	for (i = 0; i < FZ_NR_TENANTS; i++) {
		f->tenants[i + 1] = &f->own[i];
		gtbs_tenant_init(&f->dev, &f->own[i], i + 1, 0);
	}
	while (f->p < f->end)
		fz_step(f);
	f->dev.spare_only = false;
	/*
	 * drain: every grid not cancelled completes, exactly once per block;
	 * each step advances the clock (a refill or kick left in the past
	 * would not) and the events are bounded (fz_run_until())
	 */
	while ((next = gtbs_dev_next_event(&f->dev)) != U64_MAX) {
		fz_assert(++steps < 1000000);
		fz_assert(steps == 1 || next > f->dev.clock);
		fz_run_until(f, next);
		fz_check(f);
	}
	for (i = 0; i <= FZ_NR_TENANTS; i++)
		fz_assert(!f->tenants[i]->rate && !f->tenants[i]->nr_grids);
	fz_assert(gtbs_dev_idle(&f->dev));
	fz_assert(list_empty(&f->dev.waiting));
	/* stream order: released by the predecessor, at its end + gap */
	for (g = 0; g < f->nr_grids; g++)
		if (f->after[g] && f->grids[g]->state != GTBS_GRID_CANCELLED)
			fz_assert(f->grids[g]->submit_cycle ==
				  f->grids[f->after[g] - 1]->leave_cycle +
				  f->gap[g]);
	for (g = 0; g < f->nr_grids; g++) {
		struct gtbs_grid *grid = f->grids[g];

		if (grid->state == GTBS_GRID_TIMED_OUT) {
			/* stopped while running: some block never ended */
			fz_assert(grid->blocks_done < grid->desc.nr_blocks);
			fz_assert(grid->end_cycle > grid->start_cycle);
		} else if (grid->state != GTBS_GRID_CANCELLED) {
			fz_assert(grid->state == GTBS_GRID_DONE);
			fz_assert(grid->blocks_done == grid->desc.nr_blocks);
			for (i = 0; i < grid->desc.nr_blocks; i++)
				fz_assert(f->started[g][i] && f->ended[g][i]);
		}
		gtbs_grid_release(&f->dev, grid);
		free(grid);
	}
	gtbs_dev_spare_free(&f->dev);
	for (i = 0; i < cfg.nr_sms; i++) {
		fz_assert(!f->sms[i]->nr_resident && !f->sms[i]->used_warps);
		free(f->sms[i]);
	}
	digest = f->digest;
	free(f);
	return digest;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static bool registered;
	u64 indexed;

	if (!registered)
		registered = !gtbs_policy_register_builtins();
	indexed = fz_run(data, size);
	gtbs_srtf_scan_ref = true;
	gtbs_serial_scan_ref = true;
	fz_assert(fz_run(data, size) == indexed);
	gtbs_srtf_scan_ref = false;
	gtbs_serial_scan_ref = false;
	return 0;
}

#ifdef FZ_COMPARE
#include <stdio.h>

/* Each file's digest, indexed and by scans: "FILE DIGEST DIGEST". */
int main(int argc, char **argv)
{
	static uint8_t buf[1 << 16];
	int i;

	if (gtbs_policy_register_builtins())
		return 2;
	for (i = 1; i < argc; i++) {
		FILE *fp = fopen(argv[i], "rb");
		size_t n;
		u64 a, b;

		if (!fp)
			return 2;
		n = fread(buf, 1, sizeof(buf), fp);
		fclose(fp);
		a = fz_run(buf, n);
		gtbs_srtf_scan_ref = true;
		gtbs_serial_scan_ref = true;
		b = fz_run(buf, n);
		gtbs_srtf_scan_ref = false;
		gtbs_serial_scan_ref = false;
		printf("%s %016llx %016llx\n", argv[i], a, b);
	}
	return 0;
}
#endif
