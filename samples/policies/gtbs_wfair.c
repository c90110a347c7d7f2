// SPDX-License-Identifier: GPL-2.0
/*
 * gtbs_wfair.c - sample policy: weighted fair sharing by virtual SM time,
 * in the style of CFS and the DRM scheduler's fair policy.
 *
 * Copyright (C) 2026 The gputbs developers
 */

/**
 * DOC: wfair, a weighted-fair sample policy
 *
 * Sources: the Completely Fair Scheduler (kernel/sched/fair.c: a task's
 * vruntime grows by the CPU time it ran scaled by NICE_0_LOAD / its
 * weight, the task with the least vruntime runs next, a task that wakes
 * up is placed at the run queue's min_vruntime) and the DRM scheduler's
 * fair policy (Tvrtko Ursulin, "drm/sched: Add fair scheduling policy",
 * drivers/gpu/drm/scheduler/, 2026: the entity run queue is sorted by the
 * virtual GPU time its entities consumed, least first, with the GPU time
 * scaled more the lower the entity's priority).  Not in the paper that
 * gputbs implements.
 *
 * The entity is the grid: the core has no per-process key a policy could
 * use (&gtbs_grid.priv is the owner's), so two grids of one process
 * compete as two entities.
 *
 * Virtual time.  Each grid has a virtual SM time (vruntime), in 1/1024
 * SM-cycles scaled by 1024 / the weight of its priority class
 * (&gtbs_grid_desc.prio_class; parameters weight_low, weight_normal,
 * weight_high and weight_realtime, defaults those of nice 5, 0, -5 and
 * -10 in CFS's sched_prio_to_weight[]).  A block of a grid of maximum
 * residency R holds 1/R of an SM by the resource that limits R (its
 * dominant share), so a block that runs t cycles consumes t / R
 * SM-cycles.
 *
 * Charging.  A grid is charged when one of its blocks is issued, for
 * the block's expected duration alone, t = &gtbs_grid.alone_cycles /
 * waves with waves = ceil(ceil(blocks / SMs) / R) (Equation 1 read
 * backwards, so that an alone runtime the owner measured counts): the
 * charge is t / R SM-cycles, times 1024 / weight.  Charged in advance,
 * a grid is not overtaken by one whose long blocks have not ended yet
 * (the DRM scheduler charges at a job's end, when its fence signals and
 * its GPU time is known).  The policy API has no block-start op: the grid
 * wfair picked last is charged at the next op if the engine issued its
 * block (&gtbs_grid.next_block less &gtbs_grid.nr_saved grew).  A
 * preempted block is charged again when it runs again.
 *
 * Picking.  An SM issues from the eligible grid (gtbs_grid_eligible())
 * with the least vruntime, the earlier arrival among equals.  The grid
 * picked is charged before the next pick, so one fill of an SM spreads its free slots
 * over the grids in vruntime order, and over time the grids' SM shares
 * follow their weights.  With min_granularity_cycles G > 0 (CFS's
 * minimum granularity, in the unit of vruntime divided by 1024, that is
 * weighted SM-cycles), an SM keeps issuing from the grid it issued last
 * while that grid's vruntime is within G of the least: fewer switches,
 * longer exclusive runs on each SM.
 *
 * Placement.  A grid that arrives gets the device's min_vruntime, the
 * largest least vruntime of the grids with unissued blocks seen so far at
 * a pick that issued a block, before its charge (CFS's place_entity()
 * without its lag; the virtual time of start-time fair queuing, the
 * start tag of the latest block issued), so that a newcomer neither
 * monopolises the device until it catches up with grids that ran for
 * long nor waits for them.  At a policy switch (attach) every grid starts
 * at 0.
 *
 * Priority classes stay strict (the engine's): weights matter between
 * grids that compete in one class, which are of one weight unless the
 * starvation guard promoted a grid of a lower class.
 *
 * Indexing.  A grid's vruntime changes only when it is charged, so the
 * grids with blocks to issue stay sorted in a red-black tree per priority
 * class (&wfair_dev.by_vruntime: by vruntime, then arrival) and a pick
 * takes the first of the top class (&gtbs_dev.top_class), O(log grids);
 * charging, arrival, end and leaving or rejoining the grids with blocks
 * to issue (&gtbs_policy_ops.grid_update) refile one grid.  (Charging
 * blocks while they run, continuously, would make every running grid's
 * key grow at its own rate between two picks: no tree keeps such keys
 * sorted without refiling them all.)  Each SM remembers the grid it
 * issued last for the granularity, and each grid the SMs that name it,
 * so that none is left pointing at a grid that
 * ended.  With the device's starvation guard (classes change with time)
 * and with parameter ``pick`` ``scan``, a pick scans every grid,
 * O(grids): the reference the unit tests compare the tree with
 * (identical schedules).
 */
#include "gtbs_policy_module.h"

/* 1024: CFS's NICE_0_LOAD, the weight whose vruntime is SM time. */
#define WFAIR_WEIGHT_UNIT	1024ULL

/**
 * enum wfair_pick - how wfair finds its grid
 * @WFAIR_INDEXED: from &wfair_dev.by_vruntime (the DOC's "Indexing").
 * @WFAIR_SCAN: by a scan of every grid: the reference.
 * @WFAIR_NR_PICKS: number of ways.
 */
enum wfair_pick {
	WFAIR_INDEXED,
	WFAIR_SCAN,
	WFAIR_NR_PICKS,
};

/**
 * struct wfair_dev - wfair's device state
 * @by_vruntime: the grids with blocks to issue per class, by
 *	&wfair_grid.vruntime (least first) and arrival.
 * @picked: the grid wfair picked last, NULL once charged or ended.
 * @picked_issued: its &gtbs_grid.next_block - &gtbs_grid.nr_saved when
 *	picked: more at the next op if the engine issued its block.
 * @picked_least: the least vruntime when it was picked.
 * @min_vruntime: the placement of a newcomer: never decreases.
 * @weight: parameters weight_low..weight_realtime: weight of each
 *	&enum gtbs_prio_class, 1..2^20.
 * @granularity: parameter min_granularity_cycles, weighted SM-cycles.
 * @pick: parameter pick, an &enum wfair_pick.
 *
 * In &gtbs_dev.policy_priv; protected by the device lock.
 */
struct wfair_dev {
	struct rb_root_cached by_vruntime[GTBS_NR_PRIO_CLASSES];
	struct gtbs_grid *picked;
	u64 picked_issued;
	u64 picked_least;
	u64 min_vruntime;
	u64 weight[GTBS_NR_PRIO_CLASSES];
	u64 granularity;
	u64 pick;
};

GTBS_POLICY_PRIV_CHECK(struct wfair_dev, GTBS_POLICY_DEV_PRIV_SIZE);

/**
 * struct wfair_sm - wfair's state of an SM
 * @last: the grid the SM issued last, NULL: none (or it ended).
 * @node: link in @last's &wfair_grid.sms while @last is set.
 *
 * In &gtbs_sm.policy_priv; protected by the device lock.
 */
struct wfair_sm {
	struct gtbs_grid *last;
	struct list_head node;
};

GTBS_POLICY_PRIV_CHECK(struct wfair_sm, GTBS_POLICY_SM_PRIV_SIZE);

/**
 * struct wfair_grid - wfair's state of a grid
 * @node: link in &wfair_dev.by_vruntime, cleared (RB_EMPTY_NODE()) while
 *	the grid has no block to issue.
 * @vruntime: virtual SM time, 1/1024 weighted SM-cycles: the key.
 * @id: &gtbs_grid.id, the tie-break, here so that the tree's comparisons
 *	read one cache line of each grid.
 * @sms: the SMs whose &wfair_sm.last is this grid, by &wfair_sm.node.
 *
 * In &gtbs_grid.policy_priv; protected by the device lock.
 */
struct wfair_grid {
	struct rb_node node;
	u64 vruntime;
	u64 id;
	struct list_head sms;
};

GTBS_POLICY_PRIV_CHECK(struct wfair_grid, GTBS_POLICY_GRID_PRIV_SIZE);

static struct wfair_dev *wfair_of_dev(const struct gtbs_dev *dev)
{
	return gtbs_policy_priv(dev);
}

static struct wfair_grid *wfair_of_grid(const struct gtbs_grid *grid)
{
	return gtbs_policy_priv(grid);
}

static struct gtbs_grid *wfair_node_grid(const struct rb_node *node)
{
	return gtbs_priv_to_grid(rb_entry(node, struct wfair_grid, node));
}

/* Tree order: less vruntime first, then the earlier arrival. */
static bool wfair_less(struct rb_node *a, const struct rb_node *b)
{
	const struct wfair_grid *x = rb_entry(a, struct wfair_grid, node);
	const struct wfair_grid *y = rb_entry(b, struct wfair_grid, node);

	if (x->vruntime != y->vruntime)
		return x->vruntime < y->vruntime;
	return x->id < y->id;
}

/* The tree of @grid's class. */
static struct rb_root_cached *wfair_tree(struct gtbs_dev *dev,
					 const struct gtbs_grid *grid)
{
	return &wfair_of_dev(dev)->by_vruntime[grid->desc.prio_class];
}

/* Take @grid out of the tree if it is there. */
static void wfair_unfile(struct gtbs_dev *dev, struct gtbs_grid *grid)
{
	struct wfair_grid *wg = wfair_of_grid(grid);

	if (RB_EMPTY_NODE(&wg->node))
		return;
	rb_erase_cached(&wg->node, wfair_tree(dev, grid));
	RB_CLEAR_NODE(&wg->node);
}

/* Put @grid in the tree if it has blocks to issue, else out.  O(log). */
static void wfair_refile(struct gtbs_dev *dev, struct gtbs_grid *grid)
{
	struct wfair_grid *wg = wfair_of_grid(grid);

	if (!gtbs_grid_has_blocks(grid))
		wfair_unfile(dev, grid);
	else if (RB_EMPTY_NODE(&wg->node))
		rb_add_cached(&wg->node, wfair_tree(dev, grid), wfair_less);
}

/* Blocks of @grid issued so far, less those preempted since. */
static u32 wfair_issued(const struct gtbs_grid *grid)
{
	return grid->next_block - grid->nr_saved;
}

/* The charge of one block of @grid, 1/1024 weighted SM-cycles. */
static u64 wfair_block_charge(const struct gtbs_dev *dev,
			      const struct gtbs_grid *grid)
{
	u64 weight = wfair_of_dev(dev)->weight[grid->desc.prio_class];
	u32 r = max(grid->occ.residency, 1U);
	u32 per_sm = DIV_ROUND_UP(grid->desc.nr_blocks, dev->cfg.nr_sms);
	u32 waves = DIV_ROUND_UP(per_sm, r);
	u64 t = div64_u64(grid->alone_cycles, waves);

	/* t / R SM-cycles, in 1/1024, times 1024 / weight */
	return mul_u64_u64_div_u64(t, WFAIR_WEIGHT_UNIT * WFAIR_WEIGHT_UNIT,
				   r * weight);
}

/*
 * Charge the grid picked last for the block the engine issued from it
 * since, if it did, and refile it.  Called first by every op.
 */
static void wfair_charge_picked(struct gtbs_dev *dev)
{
	struct wfair_dev *wd = wfair_of_dev(dev);
	struct gtbs_grid *grid = wd->picked;
	struct wfair_grid *wg;
	u64 used;

	/* one pick, at most one block issued */
	if (!grid || wfair_issued(grid) == wd->picked_issued) {
		wd->picked = NULL;
		return;
	}
	wd->picked = NULL;
	if (wd->picked_least > wd->min_vruntime)
		wd->min_vruntime = wd->picked_least;
	wg = wfair_of_grid(grid);
	used = wfair_block_charge(dev, grid);
	wfair_unfile(dev, grid);
	wg->vruntime = used > U64_MAX - wg->vruntime ? U64_MAX :
		       wg->vruntime + used;
	wfair_refile(dev, grid);
}

/* A grid wfair has not seen yet, at @vruntime. */
static void wfair_add(struct gtbs_dev *dev, struct gtbs_grid *grid,
		      u64 vruntime)
{
	struct wfair_grid *wg = wfair_of_grid(grid);

	wg->vruntime = vruntime;
	wg->id = grid->id;
	INIT_LIST_HEAD(&wg->sms);
	RB_CLEAR_NODE(&wg->node);
	wfair_refile(dev, grid);
}

static void wfair_attach(struct gtbs_dev *dev)
{
	struct wfair_dev *wd = wfair_of_dev(dev);
	struct gtbs_grid *grid;
	u32 i;

	/* private areas are zero: min_vruntime 0, no SM's last grid */
	for (i = 0; i < GTBS_NR_PRIO_CLASSES; i++)
		wd->by_vruntime[i] = RB_ROOT_CACHED;
	list_for_each_entry(grid, &dev->grids, node)
		wfair_add(dev, grid, 0);
}

static void wfair_grid_arrive(struct gtbs_dev *dev, struct gtbs_grid *grid)
{
	wfair_charge_picked(dev);
	wfair_add(dev, grid, wfair_of_dev(dev)->min_vruntime);
}

static void wfair_grid_update(struct gtbs_dev *dev, struct gtbs_sm *sm,
			      struct gtbs_grid *grid)
{
	wfair_charge_picked(dev);
	wfair_refile(dev, grid);
}

static void wfair_grid_end(struct gtbs_dev *dev, struct gtbs_grid *grid)
{
	struct wfair_grid *wg = wfair_of_grid(grid);
	struct wfair_sm *ws, *tmp;

	wfair_charge_picked(dev);
	wfair_unfile(dev, grid);
	list_for_each_entry_safe(ws, tmp, &wg->sms, node) {
		list_del_init(&ws->node);
		ws->last = NULL;
	}
}

/* The reference: every grid in arrival order (&gtbs_dev.grids). */
static struct gtbs_grid *wfair_scan(struct gtbs_dev *dev)
{
	struct gtbs_grid *grid, *best = NULL;

	list_for_each_entry(grid, &dev->grids, node) {
		if (!gtbs_grid_eligible(dev, grid))
			continue;
		/* strictly less: the earlier arrival wins a tie */
		if (!best || wfair_of_grid(grid)->vruntime <
			     wfair_of_grid(best)->vruntime)
			best = grid;
	}
	return best;
}

/*
 * The first eligible grid of the top class's tree: its first node, as the
 * tree holds only grids with blocks to issue.
 */
static struct gtbs_grid *wfair_first(struct gtbs_dev *dev)
{
	struct wfair_dev *wd = wfair_of_dev(dev);
	struct rb_node *node;
	struct gtbs_grid *grid;

	if (dev->top_class >= GTBS_NR_PRIO_CLASSES)
		return NULL;
	node = rb_first_cached(&wd->by_vruntime[dev->top_class]);
	for (; node; node = rb_next(node)) {
		grid = wfair_node_grid(node);
		if (gtbs_grid_eligible(dev, grid))
			return grid;
	}
	return NULL;
}

static struct gtbs_grid *wfair_pick_grid(struct gtbs_dev *dev,
					 struct gtbs_sm *sm, u32 *reason)
{
	struct wfair_sm *ws = gtbs_policy_priv(sm);
	struct wfair_dev *wd = wfair_of_dev(dev);
	struct gtbs_grid *best, *last = ws->last;
	u64 least;

	wfair_charge_picked(dev);
	*reason = GTBS_PICK_POLICY;
	if (wd->pick == WFAIR_SCAN || dev->starve_cycles)
		best = wfair_scan(dev);
	else
		best = wfair_first(dev);
	if (!best)
		return NULL;
	least = wfair_of_grid(best)->vruntime;
	/* CFS's granularity: stay with the last grid if not far ahead */
	if (last && gtbs_grid_eligible(dev, last) &&
	    wfair_of_grid(last)->vruntime - least <=
	    wd->granularity * WFAIR_WEIGHT_UNIT)
		best = last;
	if (best != last) {
		if (last)
			list_del(&ws->node);
		list_add(&ws->node, &wfair_of_grid(best)->sms);
		ws->last = best;
	}
	wd->picked = best;
	wd->picked_issued = wfair_issued(best);
	wd->picked_least = least;
	return best;
}

/* wfair_params[]: the weights by class, the granularity, the pick. */
#define WFAIR_GRANULARITY	GTBS_NR_PRIO_CLASSES
#define WFAIR_PICK		(GTBS_NR_PRIO_CLASSES + 1)

/* The value names of parameter pick, &enum wfair_pick. */
static const char * const wfair_pick_names[] = {
	[WFAIR_INDEXED] = "indexed",
	[WFAIR_SCAN] = "scan",
	NULL,
};

/* The largest weight, 2^20. */
#define WFAIR_MAX_WEIGHT	BIT_ULL(20)

/* wfair's tunables: the weights of CFS's nice 5, 0, -5, -10. */
static const struct gtbs_policy_param wfair_params[] = {
	[GTBS_PRIO_LOW] = {
		.name = "weight_low",
		.unit = "",
		.doc = "weight of low-class grids (CFS: 1024 is nice 0)",
		.min = 1,
		.max = WFAIR_MAX_WEIGHT,
		.def = 335,
		.offset = offsetof(struct wfair_dev, weight[GTBS_PRIO_LOW]),
	},
	[GTBS_PRIO_NORMAL] = {
		.name = "weight_normal",
		.unit = "",
		.doc = "weight of normal-class grids (CFS: 1024 is nice 0)",
		.min = 1,
		.max = WFAIR_MAX_WEIGHT,
		.def = 1024,
		.offset = offsetof(struct wfair_dev, weight[GTBS_PRIO_NORMAL]),
	},
	[GTBS_PRIO_HIGH] = {
		.name = "weight_high",
		.unit = "",
		.doc = "weight of high-class grids (CFS: 1024 is nice 0)",
		.min = 1,
		.max = WFAIR_MAX_WEIGHT,
		.def = 3121,
		.offset = offsetof(struct wfair_dev, weight[GTBS_PRIO_HIGH]),
	},
	[GTBS_PRIO_REALTIME] = {
		.name = "weight_realtime",
		.unit = "",
		.doc = "weight of realtime-class grids (CFS: 1024 is nice 0)",
		.min = 1,
		.max = WFAIR_MAX_WEIGHT,
		.def = 9548,
		.offset = offsetof(struct wfair_dev, weight[GTBS_PRIO_REALTIME]),
	},
	[WFAIR_GRANULARITY] = {
		.name = "min_granularity_cycles",
		.unit = "cycles",
		.doc = "an SM keeps its grid while this close to the least vruntime",
		.min = 0,
		.max = GTBS_MAX_BLOCK_CYCLES,
		.def = 0,
		.offset = offsetof(struct wfair_dev, granularity),
	},
	[WFAIR_PICK] = {
		.name = "pick",
		.unit = "",
		.doc = "indexed: O(log grids) tree; scan: every grid (the reference)",
		.min = 0,
		.max = WFAIR_NR_PICKS - 1,
		.def = WFAIR_INDEXED,
		.names = wfair_pick_names,
		.offset = offsetof(struct wfair_dev, pick),
	},
};

static const struct gtbs_policy_ops wfair_ops = {
	.name = "wfair",
	.owner = THIS_MODULE,
	.pick_grid = wfair_pick_grid,
	.attach = wfair_attach,
	.grid_arrive = wfair_grid_arrive,
	.grid_end = wfair_grid_end,
	.grid_update = wfair_grid_update,
	.dev_priv_size = sizeof(struct wfair_dev),
	.sm_priv_size = sizeof(struct wfair_sm),
	.grid_priv_size = sizeof(struct wfair_grid),
	.params = wfair_params,
	.nr_params = ARRAY_SIZE(wfair_params),
};

GTBS_POLICY_MODULE(wfair_ops,
		   "gputbs sample policy: weighted fair sharing by virtual SM time (CFS, DRM sched fair)");
