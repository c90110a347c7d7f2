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
 * a period is q = max_ppm x nr_sms x P units.  A capped tenant's budget
 * (&gtbs_tenant.budget) is charged a block's SM time when the block
 * *issues*, the emulator knowing then what the block will hold: c =
 * (its work left at its grid's full rate, plus the restore of a
 * switched-out block and the transfers queued before it) / R
 * (&gtbs_slot.charge, gtbs_tenant_hold()).  When the block gives its slot
 * back (its end, the end of its save, a flush, its grid's cancel) the
 * budget is trued up: c given back, what it held taken
 * (gtbs_tenant_unhold()), so that over a run the budget is charged
 * exactly the tenant's SM time; a flushed block's unrun part is given
 * back and charged again when it runs again, a switched-out block pays
 * its save from the true-up and its restore and its rest at its next
 * issue.  The budget is thus net of what the tenant's resident blocks
 * commit.  A tenant whose budget is not positive is *throttled*: each of
 * its grids gets %GTBS_THROTTLE_CAP (throttle.c), so it issues no block,
 * and grids that arrive meanwhile get it at once.  The check is made
 * when one of its grids is picked to issue a block (gtbs_tenant_check()),
 * so after every issue, and when one of its blocks gives its slot back;
 * a true-up that leaves a throttled tenant's budget positive (a block
 * that ran faster than its grid's full rate, a flush) lifts its throttle
 * at once.
 *
 * At a period's end the budget is refilled: a debt is paid off first,
 * b = min(b + q, limit).  The limit is one quota for a tenant with no
 * grid on the device (CFS's rule: an idle tenant banks nothing), and for
 * a busy one (1 + ceil(H / P)) quotas, H the longest a block was expected
 * to hold its slot at its issue on the device (&gtbs_dev.cap_hold_max):
 * with blocks as long as the period or longer the slots free rarely,
 * often all at once at a wave's end, and a tenant that waited for them
 * with its budget unspent through whole periods gets those periods'
 * quotas when they free, instead of losing them.  Refills run before the
 * SMs' events of their cycle (gtbs_dev_run_bounded()), so a tenant
 * refilled at a period's end may take the slots freed at it.
 *
 * The bound.  The budget goes down only at an issue, which needs it
 * positive, and at a true-up, by what a block held beyond its charge:
 * so it never falls below -(c_max + E), c_max the largest charge of a
 * block of the tenant and E what its blocks ended since its last issue
 * held beyond their charges.  Over any interval [a, b] the tenant holds
 * less than
 *
 *   budget(a) + C(a) + q x (period ends in (a, b]) + c_max + E(a, b)
 *
 * units: C(a) what its blocks resident at a were charged and had not
 * held yet (paid before a), E(a, b) what its blocks held in [a, b]
 * beyond their charges: nothing when each block runs at its grid's full
 * rate and is not preempted; a switched-out block's save; co-runners of
 * other grids on its SM that slow it (the timing model).  When the
 * tenant had no grid at a, C(a) = 0 and budget(a) is at most one quota
 * (the bank's limit while busy).  So the
 * overshoot beyond the quotas is one block's SM time in all, not one per
 * slot: each issue is checked against a budget that already counts
 * every block before it, so a wave's end that frees every slot of the
 * device at one cycle hands the tenant no more than its budget plus one
 * block.  A single period may hold up to the bank's limit plus one block
 * when the tenant waited for slots through the periods before.  The
 * device's preemption mode does not stop blocks at the cap: a block runs
 * to its end and is paid for at its issue.  Blocks that held slots when a
 * cap was set on a tenant that had none were not charged: they are taken
 * from the budget at their ends for what they held since
 * (&gtbs_tenant.cap_gen).  A cap caps even a tenant alone on an idle
 * device.
 *
 * States of a capped tenant::
 *
 *   running --budget <= 0 at a check--> throttled (grids: CAP)
 *      ^                                     |
 *      +-- a period's end, or a true-up, leaves budget > 0
 *
 * The refills of throttled tenants are device events
 * (gtbs_dev_next_refill(), run by gtbs_dev_run_bounded() before the SM
 * events, arrivals and timeouts of their cycle); a tenant that is not
 * throttled is refilled lazily, at its next sync (its issues, its
 * blocks' ends, its grids' arrivals and departures all sync it first).
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
	if (used > (u64)S64_MAX || t->budget < S64_MIN / 2 + (s64)used)
		t->budget = S64_MIN / 2;
	else
		t->budget -= (s64)used;
}

/* Give @units back to a capped tenant's budget, saturating. */
static void gtbs_tenant_give(struct gtbs_tenant *t, u64 units)
{
	if (units > (u64)S64_MAX || t->budget > S64_MAX / 2 - (s64)units)
		t->budget = S64_MAX / 2;
	else
		t->budget += (s64)units;
}

/*
 * The most a busy capped tenant's budget may hold at a period's end: one
 * quota, plus one per period that the longest block the device issued
 * spans, (1 + ceil(&gtbs_dev.cap_hold_max / P)) quotas, saturating.
 */
static s64 gtbs_tenant_bank(const struct gtbs_dev *dev, s64 quota)
{
	u64 n = div64_u64(dev->cap_hold_max + dev->cap_period - 1,
			  dev->cap_period) + 1;

	if (n > (u64)(S64_MAX / 2 / quota))
		return S64_MAX / 2;
	return quota * (s64)n;
}

/**
 * gtbs_tenant_sync() - bring a tenant's SM time and budget up to a cycle
 * @dev: the device.
 * @t: the tenant.
 * @now: emulated cycle, not before &gtbs_tenant.stamp (an earlier one
 *	adds no SM time).
 *
 * Adds what its held slots held since &gtbs_tenant.stamp to
 * &gtbs_tenant.sm_time and, if it is capped, refills its budget at each
 * period's end up to @now (at most to one quota: CFS's runtime is capped
 * at its quota too).  Its blocks' SM time is taken from the budget at
 * their issue and trued up at their ends (gtbs_tenant_hold(),
 * gtbs_tenant_unhold()), not here, so the budget is exact at @now.
 * O(periods passed while in debt).
 *
 * Context: device lock held.
 */
void gtbs_tenant_sync(struct gtbs_dev *dev, struct gtbs_tenant *t, u64 now)
{
	s64 quota, limit;

	gtbs_lockdep_assert_held(dev);
	if (now > t->stamp) {
		t->sm_time += gtbs_tenant_used(t, now - t->stamp);
		t->stamp = now;
	}
	if (!t->max_ppm)
		return;
	if (t->period_end > now)
		return;
	quota = gtbs_tenant_quota(dev, t);
	limit = t->nr_grids ? gtbs_tenant_bank(dev, quota) : quota;
	while (t->period_end <= now) {
		/* a debt is paid off first; the budget stays within limit */
		t->budget = min(t->budget + quota, limit);
		t->period_end += dev->cap_period;
		/* every later period's end refills it alike */
		if (t->budget == limit && t->period_end <= now)
			t->period_end = (now / dev->cap_period + 1) *
					dev->cap_period;
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

/* SM time a block of @grid holds in @cycles cycles, saturating. */
static u64 gtbs_block_units(const struct gtbs_grid *grid, u64 cycles)
{
	u64 rate = gtbs_block_rate(grid);

	if (rate && cycles > U64_MAX / rate)
		return U64_MAX;
	return rate * cycles;
}

/**
 * gtbs_tenant_hold() - a block takes a slot
 * @dev: the device.
 * @slot: the block's slot, &gtbs_slot.grid set.
 * @cycles: how long the block is expected to hold the slot: its work left
 *	at its grid's full rate, plus the restore of a switched-out block.
 * @now: emulated cycle.
 *
 * Its tenant's rate grows by 1/R of an SM from @now; a capped tenant's
 * budget is charged the block's expected SM time, @cycles / R, at once
 * (&gtbs_slot.charge), so that the next cap check sees what the tenant's
 * blocks already commit.  O(1).
 *
 * Context: device lock held (sm.h, gtbs_sm_take()).
 */
void gtbs_tenant_hold(struct gtbs_dev *dev, struct gtbs_slot *slot,
		      u64 cycles, u64 now)
{
	const struct gtbs_grid *grid = slot->grid;
	struct gtbs_tenant *t = grid->tenant;

	gtbs_tenant_sync(dev, t, now);
	t->rate += gtbs_block_rate(grid);
	slot->hold_cycle = now;
	slot->cap_gen = t->cap_gen;
	slot->charge = t->max_ppm ? gtbs_block_units(grid, cycles) : 0;
	gtbs_tenant_take(t, slot->charge);
	dev->cap_hold_max = max(dev->cap_hold_max, cycles);
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_tenant_hold);

/**
 * gtbs_tenant_unhold() - a block gives its slot back
 * @dev: the device.
 * @slot: the block's slot, still holding it.
 * @now: emulated cycle.
 *
 * The reverse of gtbs_tenant_hold(): a capped tenant's budget is trued
 * up to the SM time the block held, its charge given back and what it
 * held since its issue (or since the cap was set, for a block issued
 * without it) taken, so that over the run the budget is charged exactly
 * the tenant's SM time.  Then the cap is checked: a throttled tenant that
 * the true-up leaves a positive budget issues again at once.
 *
 * Context: device lock held (sm.h, gtbs_sm_give()).
 */
void gtbs_tenant_unhold(struct gtbs_dev *dev, const struct gtbs_slot *slot,
			u64 now)
{
	const struct gtbs_grid *grid = slot->grid;
	struct gtbs_tenant *t = grid->tenant;

	gtbs_tenant_sync(dev, t, now);
	t->rate -= gtbs_block_rate(grid);
	if (!t->max_ppm)
		return;
	if (slot->cap_gen == t->cap_gen) {
		gtbs_tenant_give(t, slot->charge);
		gtbs_tenant_take(t, gtbs_block_units(grid,
						     now - slot->hold_cycle));
	} else {
		gtbs_tenant_take(t, gtbs_block_units(grid, now -
						     max(slot->hold_cycle,
							 t->cap_since)));
	}
	if (t->throttled && t->budget > 0)
		gtbs_tenant_unthrottle(dev, t, now);
	else
		gtbs_tenant_check(dev, t, now);	/* synced: the cap's test */
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
		t->cap_since = now;
		t->cap_gen++;
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
	/* its periods up to now were refilled as it was (idle or busy) */
	gtbs_tenant_sync(dev, t, grid->submit_cycle);
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
 * @now: emulated cycle.
 *
 * Context: device lock held.
 */
void gtbs_grid_tenant_leave(struct gtbs_dev *dev, struct gtbs_grid *grid,
			    u64 now)
{
	struct gtbs_tenant *t = grid->tenant;

	gtbs_lockdep_assert_held(dev);
	gtbs_tenant_sync(dev, t, now);
	list_del_init(&grid->tenant_node);
	t->nr_grids--;
}
