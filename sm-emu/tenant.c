// SPDX-License-Identifier: GPL-2.0
/*
 * tenant.c - tenants: who a grid's SM time is charged to, their weights
 * and their caps.
 *
 * Copyright (C) 2026 The gputbs developers
 */

/**
 * DOC: Tenants
 *
 * A tenant is whoever a grid's SM time is charged to: in the module the
 * cgroup v2 of the process that submitted it, in the simulator a run of a
 * workload (or the runs that name one ``tenant=``).  Every grid has one
 * (&gtbs_grid.tenant; a grid its owner gave none belongs to the device's
 * &gtbs_dev.tenant0).  Not in the paper that gputbs implements: the
 * sharing controls users of shared GPUs ask for (Documentation/
 * scheduling.rst, "Tenants").
 *
 * **SM time.**  A block holds 1/R of an SM, R its grid's maximum residency
 * (&gtbs_occupancy.residency), for as long as it holds its slot: while it
 * runs, and while its context is saved or restored (preempt.c), so that a
 * tenant pays for its own preemptions.  A tenant's SM time is the sum over
 * its blocks of (cycles held) / R, kept in 1/%GTBS_SM_TIME_SCALE of an
 * SM-cycle: &gtbs_tenant.rate is what its held slots add per cycle, and
 * the time is brought up to a cycle (gtbs_tenant_sync()) whenever the rate
 * changes, a cap is checked or a reader asks.  The device holds
 * nr_sms x %GTBS_SM_TIME_SCALE per cycle when every slot of every SM is
 * held by blocks of full residency.
 *
 * **Weights** (&gtbs_tenant.weight, 1..%GTBS_TENANT_WEIGHT_MAX, default
 * %GTBS_TENANT_WEIGHT_DEFAULT as cgroup v2's ``cpu.weight``) are read by
 * policies: ``fair`` (policy_fair.c) shares SM time in their proportion.
 *
 * **Caps** (&gtbs_tenant.max_ppm: a share of the device's SM time, as
 * cgroup v2's ``cpu.max``; 0 for none) hold for every policy, as CFS
 * bandwidth control does, on the whole device's periods of
 * &gtbs_dev.cap_period cycles (period k is [k P, (k + 1) P)): the quota of
 * a period is max_ppm x nr_sms x P units; what the tenant's blocks hold
 * is taken from its budget, which a period's end refills to at most one
 * quota.  A tenant whose budget is spent is *throttled*: each of its grids
 * gets %GTBS_THROTTLE_CAP (throttle.c), so it issues no block, and grids
 * that arrive meanwhile get it at once; at the next period's end the
 * budget is refilled and, if positive, the grids issue again.  The check
 * is made when one of its grids is picked to issue a block
 * (gtbs_tenant_check()) and when one of its blocks ends, so a cap bites at
 * block boundaries: blocks that hold slots when the budget runs out run
 * to their ends (drain) and their SM time is taken from the next periods'
 * budgets (the budget goes negative: a debt), so over any run the tenant
 * holds at most its quota per period plus one period's overshoot, at most
 * the SM time of the blocks it held when the budget ran out.  The
 * device's preemption mode does not stop those blocks today; a cap caps
 * even a tenant alone on an idle device.
 *
 * States of a capped tenant::
 *
 *   running --budget <= 0 at a check--> throttled (grids: CAP)
 *      ^                                     |
 *      +---- a period's end refills budget > 0
 *
 * The refills of throttled tenants are device events
 * (gtbs_dev_next_refill(), run by gtbs_dev_run_bounded() after the SM
 * events, arrivals and timeouts of their cycle); a tenant that is not
 * throttled is refilled lazily, at its next sync.
 *
 * Locking: every function here runs under the device lock; a tenant is
 * the owner's memory, on &gtbs_dev.tenants from gtbs_tenant_init() to
 * gtbs_tenant_del().
 */
#include "gtbs.h"

/* Units a tenant's held slots add in @cycles cycles, saturating. */
static u64 gtbs_tenant_used(const struct gtbs_tenant *t, u64 cycles)
{
	if (t->rate && cycles > U64_MAX / t->rate)
		return U64_MAX;
	return t->rate * cycles;
}

/* The quota of one period, units: max_ppm x nr_sms x P (< 2^63). */
static s64 gtbs_tenant_quota(const struct gtbs_dev *dev,
			     const struct gtbs_tenant *t)
{
	return (s64)t->max_ppm * dev->cfg.nr_sms * (s64)dev->cap_period;
}

/* Take @used units from a capped tenant's budget, saturating. */
static void gtbs_tenant_take(struct gtbs_tenant *t, u64 used)
{
	if (used > (u64)S64_MAX || t->budget < S64_MIN + (s64)used)
		t->budget = S64_MIN / 2;
	else
		t->budget -= (s64)used;
}

/**
 * gtbs_tenant_sync() - bring a tenant's SM time and budget up to a cycle
 * @dev: the device.
 * @t: the tenant.
 * @now: emulated cycle, not before &gtbs_tenant.stamp (an earlier one is
 *	ignored).
 *
 * Adds what its held slots held since &gtbs_tenant.stamp to
 * &gtbs_tenant.sm_time and, if it is capped, takes it from its budget
 * period by period, refilling at each period's end it passes (at most
 * one quota: CFS's runtime is capped at its quota too), so that the
 * budget is exact at @now.  O(periods passed).
 *
 * Context: device lock held.
 */
void gtbs_tenant_sync(struct gtbs_dev *dev, struct gtbs_tenant *t, u64 now)
{
	gtbs_lockdep_assert_held(dev);
	if (now <= t->stamp)
		return;
	t->sm_time += gtbs_tenant_used(t, now - t->stamp);
	if (!t->max_ppm) {
		t->stamp = now;
		return;
	}
	while (t->stamp < now) {
		u64 end = min(now, t->period_end);

		gtbs_tenant_take(t, gtbs_tenant_used(t, end - t->stamp));
		t->stamp = end;
		if (end == t->period_end) {
			s64 quota = gtbs_tenant_quota(dev, t);

			t->budget = t->budget > 0 ? quota :
				    min(t->budget + quota, quota);
			t->period_end += dev->cap_period;
			/* a long idle stretch: every period refilled alike */
			if (!t->rate && t->period_end < now && t->budget == quota)
				t->period_end = (now / dev->cap_period + 1) *
						dev->cap_period;
		}
	}
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_tenant_sync);

/**
 * gtbs_tenant_sm_time() - a tenant's SM time at a cycle, without syncing
 * @t: the tenant.
 * @now: emulated cycle, not before &gtbs_tenant.stamp.
 *
 * Context: device lock held.
 * Return: &gtbs_tenant.sm_time plus what its held slots held since
 * &gtbs_tenant.stamp, 1/%GTBS_SM_TIME_SCALE SM-cycles.
 */
u64 gtbs_tenant_sm_time(const struct gtbs_tenant *t, u64 now)
{
	return t->sm_time + (now > t->stamp ?
			     gtbs_tenant_used(t, now - t->stamp) : 0);
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_tenant_sm_time);

/* A block's share of an SM, units per cycle: SCALE / R. */
static u64 gtbs_block_rate(const struct gtbs_grid *grid)
{
	return div_u64(GTBS_SM_TIME_SCALE, max(grid->occ.residency, 1U));
}

/* Throttle every grid of @t for its cap, from @now.  Lock held. */
static void gtbs_tenant_throttle(struct gtbs_dev *dev, struct gtbs_tenant *t,
				 u64 now)
{
	struct gtbs_grid *grid;

	t->throttled = true;
	t->throttled_since = now;
	t->nr_throttles++;
	/* the first throttled tenant sets the refill; later ones lower it */
	dev->refill_cycle = dev->nr_tenants_throttled++ ?
			    min(dev->refill_cycle, t->period_end) :
			    t->period_end;
	list_for_each_entry(grid, &t->grids, tenant_node)
		gtbs_grid_throttle(dev, grid, GTBS_THROTTLE_CAP, now);
}

/* Lift @t's cap throttle at @now.  Lock held. */
static void gtbs_tenant_unthrottle(struct gtbs_dev *dev,
				   struct gtbs_tenant *t, u64 now)
{
	struct gtbs_grid *grid;

	t->throttled = false;
	t->throttled_cycles += now - t->throttled_since;
	dev->nr_tenants_throttled--;
	list_for_each_entry(grid, &t->grids, tenant_node)
		gtbs_grid_unthrottle(dev, grid, GTBS_THROTTLE_CAP, now);
}

/**
 * gtbs_tenant_check() - whether a tenant's cap stops it at a cycle
 * @dev: the device.
 * @t: the tenant.
 * @now: emulated cycle.
 *
 * Syncs @t to @now; a capped tenant whose budget is spent is throttled
 * (see the DOC).  Called by the engine before it issues a block of the
 * tenant's and at its block ends.
 *
 * Context: device lock held.
 * Return: true if @t is throttled (none of its grids may issue).
 */
bool gtbs_tenant_check(struct gtbs_dev *dev, struct gtbs_tenant *t, u64 now)
{
	gtbs_tenant_sync(dev, t, now);
	if (t->max_ppm && !t->throttled && t->budget <= 0)
		gtbs_tenant_throttle(dev, t, now);
	return t->throttled;
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_tenant_check);

/**
 * gtbs_tenant_hold() - a block of a grid takes a slot
 * @dev: the device.
 * @grid: the block's grid.
 * @now: emulated cycle.
 *
 * Its tenant's rate grows by 1/R of an SM from @now.  O(1).
 *
 * Context: device lock held (sm.h, gtbs_sm_take()).
 */
void gtbs_tenant_hold(struct gtbs_dev *dev, const struct gtbs_grid *grid,
		      u64 now)
{
	struct gtbs_tenant *t = grid->tenant;

	gtbs_tenant_sync(dev, t, now);
	t->rate += gtbs_block_rate(grid);
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_tenant_hold);

/**
 * gtbs_tenant_unhold() - a block of a grid gives its slot back
 * @dev: the device.
 * @grid: the block's grid.
 * @now: emulated cycle.
 *
 * The reverse of gtbs_tenant_hold(); the tenant's cap is checked.
 *
 * Context: device lock held (sm.h, gtbs_sm_give()).
 */
void gtbs_tenant_unhold(struct gtbs_dev *dev, const struct gtbs_grid *grid,
			u64 now)
{
	struct gtbs_tenant *t = grid->tenant;

	gtbs_tenant_sync(dev, t, now);
	t->rate -= gtbs_block_rate(grid);
	gtbs_tenant_check(dev, t, now);	/* synced: only the cap's test */
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_tenant_unhold);

/**
 * gtbs_dev_next_refill() - cycle of the next refill of a throttled tenant
 * @dev: the device.
 *
 * Context: device lock held.
 * Return: the cycle, or U64_MAX when no tenant is throttled.
 */
u64 gtbs_dev_next_refill(const struct gtbs_dev *dev)
{
	return dev->nr_tenants_throttled ? dev->refill_cycle : U64_MAX;
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_dev_next_refill);

/**
 * gtbs_dev_refill() - the refill event: throttled tenants whose period
 *	ended get their quota, and issue again if it covers their debt
 * @dev: the device.
 * @now: emulated cycle, gtbs_dev_next_refill().
 *
 * O(tenants).
 *
 * Context: device lock held; from gtbs_dev_run_bounded().
 */
void gtbs_dev_refill(struct gtbs_dev *dev, u64 now)
{
	struct gtbs_tenant *t;
	u64 next = U64_MAX;

	gtbs_lockdep_assert_held(dev);
	list_for_each_entry(t, &dev->tenants, node) {
		if (!t->throttled)
			continue;
		gtbs_tenant_sync(dev, t, now);
		if (t->budget > 0)
			gtbs_tenant_unthrottle(dev, t, now);
		else
			next = min(next, t->period_end);
	}
	dev->refill_cycle = next;
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_dev_refill);

/**
 * gtbs_tenant_init() - make a tenant known to a device
 * @dev: the device.
 * @t: the owner's tenant, zeroed or not: every member is set.
 * @id: the owner's number for it (the module: the cgroup's id; the
 *	simulator: an index), for readers only.
 * @now: emulated cycle, &gtbs_dev.clock.
 *
 * Weight %GTBS_TENANT_WEIGHT_DEFAULT, no cap.  O(1).
 *
 * Context: device lock held.
 */
void gtbs_tenant_init(struct gtbs_dev *dev, struct gtbs_tenant *t, u64 id,
		      u64 now)
{
	gtbs_lockdep_assert_held(dev);
	gtbs_tenant_setup(dev, t, id, now);
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_tenant_init);

/**
 * gtbs_tenant_setup() - gtbs_tenant_init() for a device not yet shared
 * @dev: the device (gtbs_dev_init(): &gtbs_dev.tenant0).
 * @t: the tenant.
 * @id: its number.
 * @now: emulated cycle.
 *
 * Context: the caller owns @dev alone, or holds its lock.
 */
void gtbs_tenant_setup(struct gtbs_dev *dev, struct gtbs_tenant *t, u64 id,
		       u64 now)
{
	memset(t, 0, sizeof(*t));
	INIT_LIST_HEAD(&t->grids);
	t->id = id;
	t->weight = GTBS_TENANT_WEIGHT_DEFAULT;
	t->stamp = now;
	t->period_end = (now / dev->cap_period + 1) * dev->cap_period;
	list_add_tail(&t->node, &dev->tenants);
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_tenant_setup);

/**
 * gtbs_tenant_busy() - whether a tenant still has grids or held slots
 * @t: the tenant.
 *
 * Context: device lock held.
 * Return: true while gtbs_tenant_del() may not be called.
 */
bool gtbs_tenant_busy(const struct gtbs_tenant *t)
{
	return t->nr_grids || t->rate;
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_tenant_busy);

/**
 * gtbs_tenant_del() - forget a tenant
 * @dev: the device.
 * @t: a tenant of @dev that is not busy (gtbs_tenant_busy()).
 *
 * Context: device lock held.
 */
void gtbs_tenant_del(struct gtbs_dev *dev, struct gtbs_tenant *t)
{
	gtbs_lockdep_assert_held(dev);
	if (t->throttled)
		dev->nr_tenants_throttled--;
	list_del(&t->node);
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_tenant_del);

/**
 * gtbs_tenant_set() - set a tenant's weight and cap
 * @dev: the device.
 * @t: the tenant.
 * @weight: 1..%GTBS_TENANT_WEIGHT_MAX.
 * @max_ppm: 0 (no cap) or 1..%GTBS_PPM: the share of the device's SM time.
 * @now: emulated cycle, &gtbs_dev.clock.
 *
 * A new cap starts in the period of @now (an uncapped tenant's period is
 * not kept up to date) with that period's quota prorated to the cycles
 * left of it; removing the cap lifts its throttle at once.  The policy is told
 * (&gtbs_policy_ops.tenant_update).
 *
 * Context: device lock held.
 * Return: 0, or -EINVAL for a value out of range (nothing changed).
 */
int gtbs_tenant_set(struct gtbs_dev *dev, struct gtbs_tenant *t, u32 weight,
		    u32 max_ppm, u64 now)
{
	gtbs_lockdep_assert_held(dev);
	if (!weight || weight > GTBS_TENANT_WEIGHT_MAX || max_ppm > GTBS_PPM)
		return -EINVAL;
	gtbs_tenant_sync(dev, t, now);
	if (max_ppm && !t->max_ppm) {
		/* an uncapped tenant's period is stale: the current one */
		t->period_end = (now / dev->cap_period + 1) * dev->cap_period;
		t->budget = (s64)max_ppm * dev->cfg.nr_sms *
			    (s64)(t->period_end - now);
	}
	t->max_ppm = max_ppm;
	if (t->weight != weight) {
		u32 old = t->weight;

		t->weight = weight;
		if (dev->policy->tenant_update)
			dev->policy->tenant_update(dev, t, old, now);
	}
	if (t->throttled && (!max_ppm || t->budget > 0))
		gtbs_tenant_unthrottle(dev, t, now);
	else if (!t->throttled)
		gtbs_tenant_check(dev, t, now);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_tenant_set);

/**
 * gtbs_grid_tenant_join() - a grid that arrives joins its tenant
 * @dev: the device.
 * @grid: the grid, arriving; &gtbs_grid.tenant NULL for the device's
 *	&gtbs_dev.tenant0.
 *
 * A grid of a throttled tenant is throttled before it reaches the
 * pending list.  Called by the engine at arrival.
 *
 * Context: device lock held.
 */
void gtbs_grid_tenant_join(struct gtbs_dev *dev, struct gtbs_grid *grid)
{
	struct gtbs_tenant *t;

	if (!grid->tenant)
		grid->tenant = &dev->tenant0;
	t = grid->tenant;
	list_add_tail(&grid->tenant_node, &t->grids);
	t->nr_grids++;
	if (t->throttled)
		grid->throttle |= GTBS_THROTTLE_CAP;
}

/**
 * gtbs_grid_tenant_leave() - a grid that leaves the device leaves its
 *	tenant
 * @dev: the device.
 * @grid: the grid, on its tenant's list.
 *
 * Context: device lock held.
 */
void gtbs_grid_tenant_leave(struct gtbs_dev *dev, struct gtbs_grid *grid)
{
	struct gtbs_tenant *t = grid->tenant;

	gtbs_lockdep_assert_held(dev);
	list_del_init(&grid->tenant_node);
	t->nr_grids--;
}
