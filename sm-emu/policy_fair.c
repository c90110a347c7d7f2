// SPDX-License-Identifier: GPL-2.0
/*
 * policy_fair.c - fair: tenants share SM time in proportion to their
 * weights, least weighted virtual SM time first.
 *
 * Copyright (C) 2026 The gputbs developers
 */

/**
 * DOC: fair policy
 *
 * The DRM scheduler's FAIR ordering (drivers/gpu/drm/scheduler/, merged
 * April 2026: entities by the virtual GPU time they consumed, least first;
 * an entity that becomes runnable is placed at the run queue's minimum)
 * and CFS's (kernel/sched/fair.c: vruntime grows by the time run times
 * NICE_0_LOAD / weight), over *tenants* (tenant.c) instead of grids.  Not
 * in the paper that gputbs implements.
 *
 * - **Virtual SM time.**  A tenant's virtual time grows by the SM time its
 *   blocks hold (&gtbs_tenant.sm_time: a block holds 1/R of an SM while it
 *   holds its slot) times %GTBS_TENANT_WEIGHT_DEFAULT / its weight: a
 *   tenant of weight 100 advances at its SM time, one of weight 10 ten
 *   times as fast.  The SM time counts as it is held, block by block, so a
 *   tenant's long blocks count while they run, not when they end.
 * - **Choice.**  At every block boundary an SM issues from the tenant with
 *   the least virtual time among those with a grid that may issue
 *   (gtbs_grid_eligible(): the priority classes stay strict above the
 *   tenants), the earlier first grid among equals; within a tenant, its
 *   grids in arrival order.  Two tenants that keep the device busy thus
 *   hold SM time in the proportion of their weights, to within the SM time
 *   of the blocks issued at one boundary.
 * - **Placement.**  A tenant that gets a grid while it had none is placed
 *   at the least virtual time of the tenants with grids if its own is
 *   lower (CFS's place_entity() without lag, the DRM scheduler's "newly
 *   active entities at the minimum"), so an idle tenant cannot bank time
 *   and then monopolise the device; one that ran more keeps its own.
 * - A weight change (gtbs_tenant_set()) rebases the tenant: its virtual
 *   time so far stands, the new weight scales what comes after.
 *
 * Caps (&gtbs_tenant.max_ppm) are the core's, for every policy: a tenant
 * over its cap has no grid that may issue.
 *
 * Cost: a pick reads every tenant with grids and, for each, its grids up
 * to the first that may issue: O(tenants) when each tenant's first grid
 * may issue, as in the workloads of tenants it is meant for; the tenants
 * are few (cgroups, runs) beside the grids.
 */
#include "gtbs.h"

/**
 * struct gtbs_fair_tenant - fair's state of a tenant
 *	(&gtbs_tenant.policy_priv)
 * @vbase: its virtual time at @sbase, weighted SM time units.
 * @sbase: its &gtbs_tenant.sm_time when @vbase was set.
 * @weight: the weight that scales what it holds after @sbase; 0: never
 *	placed since the tenant was made or fair attached.
 *
 * Protected by the device lock.
 */
struct gtbs_fair_tenant {
	u64 vbase;
	u64 sbase;
	u32 weight;
};

GTBS_POLICY_PRIV_CHECK(struct gtbs_fair_tenant, GTBS_POLICY_TENANT_PRIV_SIZE);

static struct gtbs_fair_tenant *gtbs_ft(struct gtbs_tenant *t)
{
	return gtbs_policy_priv(t);
}

/*
 * @held x %GTBS_TENANT_WEIGHT_DEFAULT / @weight, rounded down, modulo
 * 2^64: without the product, which overflows once @held passes 2^64 / 100
 * units (1.8 x 10^11 SM-cycles, 23 minutes of a busy 132-SM device at
 * 1 us per cycle).
 */
static u64 gtbs_fair_scale(u64 held, u32 weight)
{
	u64 q = div_u64(held, weight);
	u32 r = held - q * weight;

	return q * GTBS_TENANT_WEIGHT_DEFAULT +
	       r * GTBS_TENANT_WEIGHT_DEFAULT / weight;
}

/*
 * Whether virtual time @a is before @b.  Virtual times count modulo 2^64
 * (a tenant of weight 1 passes 2^64 after 1.8 x 10^11 SM-cycles): compared
 * by their difference, as CFS compares vruntimes, right while the tenants
 * with grids are within 2^63 of each other, which the placement at the
 * least keeps them.
 */
static bool gtbs_fair_before(u64 a, u64 b)
{
	return (s64)(a - b) < 0;
}

/* @t's virtual time at @now. */
static u64 gtbs_fair_vtime(struct gtbs_tenant *t, u64 now)
{
	struct gtbs_fair_tenant *ft = gtbs_ft(t);

	if (!ft->weight)
		return 0;
	return ft->vbase + gtbs_fair_scale(gtbs_tenant_sm_time(t, now) -
					   ft->sbase, ft->weight);
}

/* Set @t's virtual time to @v at @now, with its current weight. */
static void gtbs_fair_place(struct gtbs_tenant *t, u64 v, u64 now)
{
	struct gtbs_fair_tenant *ft = gtbs_ft(t);

	ft->vbase = v;
	ft->sbase = gtbs_tenant_sm_time(t, now);
	ft->weight = t->weight;
}

/* @t's first grid in arrival order that may issue now, or NULL. */
static struct gtbs_grid *gtbs_fair_first(const struct gtbs_dev *dev,
					 struct gtbs_tenant *t)
{
	struct gtbs_grid *grid;

	list_for_each_entry(grid, &t->grids, tenant_node)
		if (gtbs_grid_eligible(dev, grid))
			return grid;
	return NULL;
}

static struct gtbs_grid *gtbs_fair_pick_grid(struct gtbs_dev *dev,
					     struct gtbs_sm *sm, u32 *reason)
{
	struct gtbs_grid *best = NULL, *grid;
	struct gtbs_tenant *t;
	u64 best_v = 0, v;

	list_for_each_entry(t, &dev->tenants, node) {
		if (!t->nr_grids)
			continue;
		grid = gtbs_fair_first(dev, t);
		if (!grid)
			continue;
		v = gtbs_fair_vtime(t, sm->now);
		if (!best || gtbs_fair_before(v, best_v) ||
		    (v == best_v && grid->id < best->id)) {
			best = grid;
			best_v = v;
		}
	}
	*reason = GTBS_PICK_POLICY;
	return best;
}

/* A tenant that had no grid gets one: placed at the tenants' minimum. */
static void gtbs_fair_grid_arrive(struct gtbs_dev *dev, struct gtbs_grid *grid)
{
	struct gtbs_tenant *t = grid->tenant, *o;
	u64 now = grid->submit_cycle, v, ov, min_v = 0;
	bool others = false;

	if (t->nr_grids > 1)
		return;
	list_for_each_entry(o, &dev->tenants, node) {
		if (o == t || !o->nr_grids || !gtbs_ft(o)->weight)
			continue;
		ov = gtbs_fair_vtime(o, now);
		if (!others || gtbs_fair_before(ov, min_v))
			min_v = ov;
		others = true;
	}
	v = gtbs_fair_vtime(t, now);
	/* never placed: at the least, whatever the times' wrap */
	if (others && (!gtbs_ft(t)->weight || gtbs_fair_before(v, min_v)))
		v = min_v;
	gtbs_fair_place(t, v, now);
}

/* A weight changed: what the tenant held so far keeps its old weight. */
static void gtbs_fair_tenant_update(struct gtbs_dev *dev,
				    struct gtbs_tenant *t, u32 old_weight,
				    u64 now)
{
	if (gtbs_ft(t)->weight)
		gtbs_fair_place(t, gtbs_fair_vtime(t, now), now);
}

/* Selected: every tenant starts at virtual time 0 from now. */
static void gtbs_fair_attach(struct gtbs_dev *dev)
{
	struct gtbs_tenant *t;

	list_for_each_entry(t, &dev->tenants, node)
		gtbs_fair_place(t, 0, dev->clock);
}

/* fair policy ops (see the DOC above; not in the paper). */
const struct gtbs_policy_ops gtbs_policy_fair = {
	.name = "fair",
	.owner = THIS_MODULE,
	.pick_grid = gtbs_fair_pick_grid,
	.attach = gtbs_fair_attach,
	.grid_arrive = gtbs_fair_grid_arrive,
	.tenant_update = gtbs_fair_tenant_update,
	.tenant_priv_size = sizeof(struct gtbs_fair_tenant),
	.flags = GTBS_POLICY_TENANTS,
};
EXPORT_SYMBOL_IF_KUNIT(gtbs_policy_fair);
