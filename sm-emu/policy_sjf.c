// SPDX-License-Identifier: GPL-2.0
/*
 * policy_sjf.c - the paper's clairvoyant serial SJF and its mirror LJF:
 * evaluation baselines.
 *
 * Copyright (C) 2026 The gputbs developers
 */

/**
 * DOC: SJF and LJF policies
 *
 * The paper's SJF (Section "Motivation", and the SJF row of Table "Geomean
 * STP, ANTT and Fairness": STP 1.82, ANTT 1.13, StrictF 0.80) is not an
 * online block scheduler but the clairvoyant *serial* schedule of a
 * two-program workload: the shorter program runs first, alone on the
 * whole GPU, then the longer; "it schedules kernels even before they
 * run".  LJF, its mirror, runs the longer first (Section "Motivation":
 * geomean STP 1.16, FIFO 1.58, SJF 1.82).  Both are yardsticks that read
 * each grid's alone runtime, &gtbs_grid.alone_cycles (Equation 1 of the
 * staircase model in the module, the measured alone runtime in
 * ``gputbs-sim eval``), which no real GPU driver could know.  SRTF given
 * the same key is ``srtf-oracle``, the paper's zero-sampling SRTF.
 *
 * The rules, within the class that may issue (gtbs_grid_eligible(),
 * &gtbs_dev.top_class):
 *
 * 1. *One grid at a time.*  A grid that has started (RUNNING) and has
 *    unissued blocks issues on every SM with room.  While a started grid
 *    of the top class or above has no block left to issue but blocks
 *    still resident, no SM starts another grid: the next grid's first
 *    block starts only once that grid's last block has *ended*, and its
 *    end kicks every SM (gtbs_dev_kick()).  Blocks are never interrupted.
 * 2. *Shortest (longest) first.*  When no grid runs, the queued grid Q
 *    with the smallest (ljf: largest) key starts; ties go to the earlier
 *    arrival.
 * 3. *Idle hold for a grid about to arrive.*  The policy also sees the
 *    grids submitted for a later cycle (GTBS_GRID_ARRIVING on
 *    &gtbs_dev.arrivals, GPUTBS_SUBMIT_AT_CYCLE).  Let q be Q's key, A a
 *    grid of the top class arriving d >= 0 cycles from now with a key a
 *    better than q (sjf: a < q, ljf: a > q).  Starting Q now and running A
 *    after it, or idling d cycles to run A first and Q after it, gives
 *    the two grids slowdowns whose sums differ by
 *    (d + a) / q - max(q - d, 0) / a (A first minus Q first).  A is
 *    *about to arrive*, and every SM stays idle for it, when
 *
 *    - sjf: (q - d) * q > (d + a) * a, i.e. waiting gives the smaller sum
 *      of slowdowns (exact 128-bit integer products);
 *    - ljf: d < q, i.e. A arrives before Q would end alone.  For a longer
 *      A that is exactly when waiting gives the *larger* sum: the mirror.
 *
 *    Both need d < q, so a grid arriving at or after the end of Q's alone
 *    run is never waited for.  With the evaluation's arrivals 50 cycles
 *    apart (offset 0) sjf waits for the shorter grid unless the two keys
 *    differ by about 50 cycles or less, and ljf always waits for the
 *    longer.  The held SMs wake at the arrival, which kicks them.
 *
 * A grid of a higher class (or one promoted by the starvation guard)
 * preempts at block boundaries as under every policy: it issues as the
 * lower class's blocks end, and the lower-class grid, started, resumes
 * first once the higher class has nothing to issue.  With several started
 * grids (only after such preemptions) the best key among them issues.
 *
 * *Preemptive SJF and LJF* (gputbs' extension, only while the device's
 * preempt_mode is not drain): rule 1 yields to a queued grid Q of the top
 * class whose key is strictly better than every started grid's of that
 * class, unless rule 3 holds Q: Q starts at once and
 * gtbs_serial_may_preempt() lets it preempt the started grids' running
 * blocks (&gtbs_policy_ops.may_preempt: a strictly better key); the
 * preempted grid resumes, first among the started ones, when Q is done.
 * The keys are fixed, so no two grids preempt each other.  In drain mode
 * the policy is exactly the paper's serial baseline above, which the
 * evaluation's gap figures are measured against.
 *
 * Cost: the queued grids are kept per class in a red-black tree by key
 * and arrival (&struct gtbs_serial), the started ones on a list; a pick
 * reads the started grids (one at a time, but for preempted ones and
 * those of other classes) and the first queued grid of the class that may
 * issue, O(log grids), plus the arrivals due within q cycles.  A grid
 * leaves its tree lazily: the grid a pick starts is the first of its
 * tree, and every pick and arrival first moves the started grids at the
 * front of the trees to the list.  With the starvation guard, whose
 * classes change with time, a pick scans &gtbs_dev.grids, O(grids), as
 * before, and may start a grid anywhere in its tree: the first pick from
 * the trees after the guard is turned off moves every started grid to the
 * list (once, O(grids); fuzz_sched found the grid left behind).  A
 * throttled grid (throttle.c: its owner's or its tenant's cap) is passed
 * over, as by the scan: a pick that returns a grid behind throttled ones
 * at the front of its tree leaves the same tidy-up for the next pick
 * (fuzz_sched found the device idle behind a capped tenant's grid).  The
 * unit test serial_matches_scan compares the two, the guard on, off and
 * turned off midway; throttle_serial_skips_throttled_front a throttled
 * front.  attach
 * rebuilds the state from the grids, so a switch to it at any time is
 * exact.
 */
#include "gtbs.h"

/*
 * struct gtbs_serial - SJF's and LJF's device state (&gtbs_dev.policy_priv):
 * @queued: per &enum gtbs_prio_class, the QUEUED grids by key (sjf: alone
 * runtime ascending, ljf: descending), then arrival; @running: the grids
 * taken off @queued (started), in no particular order; @scanned: a pick
 * took the plain scan since the trees were last tidied in full, so a grid
 * it started may sit anywhere in its tree, not only at its front.
 * Protected by the device lock.
 */
struct gtbs_serial {
	struct rb_root_cached queued[GTBS_NR_PRIO_CLASSES];
	struct list_head running;
	bool scanned;
};

/*
 * struct gtbs_serial_grid - SJF's and LJF's state of a grid
 * (&gtbs_grid.policy_priv): @node on &gtbs_serial.queued, @run_node on
 * &gtbs_serial.running, @where which (0: neither, 1: queued, 2: running).
 */
struct gtbs_serial_grid {
	struct rb_node node;
	struct list_head run_node;
	u32 where;
};

GTBS_POLICY_PRIV_CHECK(struct gtbs_serial, GTBS_POLICY_DEV_PRIV_SIZE);
GTBS_POLICY_PRIV_CHECK(struct gtbs_serial_grid, GTBS_POLICY_GRID_PRIV_SIZE);

/*
 * gtbs_serial_scan_ref - test only: SJF and LJF pick by the plain scan of
 * &gtbs_dev.grids, as with the starvation guard, so that the unit tests
 * compare the two.  false in use.
 */
bool gtbs_serial_scan_ref;
EXPORT_SYMBOL_IF_KUNIT(gtbs_serial_scan_ref);

static struct gtbs_serial_grid *gtbs_sjg(const struct gtbs_grid *grid)
{
	return gtbs_policy_priv(grid);
}

static struct gtbs_grid *gtbs_sj_grid(struct rb_node *node)
{
	return gtbs_priv_to_grid(rb_entry(node, struct gtbs_serial_grid,
					  node));
}

/* (*hi, *lo) = a * b, the full 128-bit product. */
static void gtbs_mul128(u64 a, u64 b, u64 *hi, u64 *lo)
{
	u64 al = (u32)a, ah = a >> 32, bl = (u32)b, bh = b >> 32;
	u64 ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
	u64 mid = (ll >> 32) + (u32)lh + (u32)hl;

	*lo = (mid << 32) | (u32)ll;
	*hi = hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
}

/* a * b > c * d, exact. */
static bool gtbs_mul_gt(u64 a, u64 b, u64 c, u64 d)
{
	u64 h1, l1, h2, l2;

	gtbs_mul128(a, b, &h1, &l1);
	gtbs_mul128(c, d, &h2, &l2);
	return h1 > h2 || (h1 == h2 && l1 > l2);
}

/* Whether @a goes strictly before @b by key (sjf: shorter, ljf: longer). */
static bool gtbs_serial_before(const struct gtbs_grid *a,
			       const struct gtbs_grid *b, bool longest)
{
	return longest ? a->alone_cycles > b->alone_cycles :
			 a->alone_cycles < b->alone_cycles;
}

/* Whether every SM should stay idle for an arriving grid rather than start
 * @q now (rule 3 of the DOC above).
 */
static bool gtbs_serial_hold(const struct gtbs_dev *dev,
			     const struct gtbs_grid *q, bool longest)
{
	u64 now = dev->pick_cycle, qlen = q->alone_cycles;
	const struct gtbs_grid *a;

	/* &gtbs_dev.arrivals is in arrival order: stop at d >= q */
	list_for_each_entry(a, &dev->arrivals, node) {
		u64 d, alen = a->alone_cycles;

		if (a->submit_cycle < now)
			continue;
		d = a->submit_cycle - now;
		if (d >= qlen)
			break;
		if (a->desc.prio_class != dev->top_class ||
		    !gtbs_serial_before(a, q, longest))
			continue;
		if (longest)
			return true;
		if (gtbs_mul_gt(qlen - d, qlen,
				alen > U64_MAX - d ? U64_MAX : d + alen, alen))
			return true;
	}
	return false;
}

/* Whether queued grid @q may start now by preempting the started grids,
 * the best of which is @run, or draining @drain (see the DOC).
 */
static bool gtbs_serial_jump(const struct gtbs_dev *dev,
			     const struct gtbs_grid *q,
			     const struct gtbs_grid *run,
			     const struct gtbs_grid *drain, bool longest)
{
	const struct gtbs_grid *cur = run ? run : drain;

	if (dev->preempt_mode == GTBS_PREEMPT_DRAIN || !q || !cur)
		return false;
	if (run && drain && gtbs_serial_before(drain, run, longest))
		cur = drain;
	return gtbs_serial_before(q, cur, longest) &&
	       !gtbs_serial_hold(dev, q, longest);
}

static struct gtbs_grid *gtbs_serial_pick_scan(struct gtbs_dev *dev,
					       bool longest);

/* Tree orders: sjf by alone runtime ascending, ljf descending; then id. */
static bool gtbs_sjf_less(struct rb_node *a, const struct rb_node *b)
{
	const struct gtbs_grid *x = gtbs_sj_grid(a);
	const struct gtbs_grid *y = gtbs_sj_grid((struct rb_node *)b);

	if (x->alone_cycles != y->alone_cycles)
		return x->alone_cycles < y->alone_cycles;
	return x->id < y->id;
}

static bool gtbs_ljf_less(struct rb_node *a, const struct rb_node *b)
{
	const struct gtbs_grid *x = gtbs_sj_grid(a);
	const struct gtbs_grid *y = gtbs_sj_grid((struct rb_node *)b);

	if (x->alone_cycles != y->alone_cycles)
		return x->alone_cycles > y->alone_cycles;
	return x->id < y->id;
}

static bool gtbs_serial_longest(const struct gtbs_dev *dev)
{
	return dev->policy == &gtbs_policy_ljf;
}

/* After plain scans: every started grid in the trees to the list. */
static void gtbs_serial_tidy_all(struct gtbs_serial *st)
{
	struct rb_node *node, *next;
	u32 c;

	for (c = 0; c < GTBS_NR_PRIO_CLASSES; c++) {
		for (node = rb_first_cached(&st->queued[c]); node;
		     node = next) {
			struct gtbs_grid *grid = gtbs_sj_grid(node);
			struct gtbs_serial_grid *sg = gtbs_sjg(grid);

			next = rb_next(node);
			if (grid->state == GTBS_GRID_QUEUED)
				continue;
			rb_erase_cached(node, &st->queued[c]);
			list_add_tail(&sg->run_node, &st->running);
			sg->where = 2;
		}
	}
	st->scanned = false;
}

/*
 * Move the started grids at the front of the trees to the list: a fast
 * pick starts only the first grid of a tree.  After plain scans (the
 * starvation guard), which start any, all of them (O(grids), once).
 */
static void gtbs_serial_tidy(struct gtbs_dev *dev)
{
	struct gtbs_serial *st = gtbs_policy_priv(dev);
	struct rb_node *node;
	u32 c;

	if (st->scanned) {
		gtbs_serial_tidy_all(st);
		return;
	}
	for (c = 0; c < GTBS_NR_PRIO_CLASSES; c++) {
		while ((node = rb_first_cached(&st->queued[c]))) {
			struct gtbs_grid *grid = gtbs_sj_grid(node);
			struct gtbs_serial_grid *sg = gtbs_sjg(grid);

			if (grid->state == GTBS_GRID_QUEUED)
				break;
			rb_erase_cached(node, &st->queued[c]);
			list_add_tail(&sg->run_node, &st->running);
			sg->where = 2;
		}
	}
}

static void gtbs_serial_file(struct gtbs_dev *dev, struct gtbs_grid *grid)
{
	struct gtbs_serial *st = gtbs_policy_priv(dev);
	struct gtbs_serial_grid *sg = gtbs_sjg(grid);

	if (grid->state == GTBS_GRID_QUEUED) {
		rb_add_cached(&sg->node, &st->queued[grid->desc.prio_class],
			      gtbs_serial_longest(dev) ? gtbs_ljf_less :
							 gtbs_sjf_less);
		sg->where = 1;
	} else {
		list_add_tail(&sg->run_node, &st->running);
		sg->where = 2;
	}
}

/* &gtbs_policy_ops.attach: every grid the device holds. */
static void gtbs_serial_attach(struct gtbs_dev *dev)
{
	struct gtbs_serial *st = gtbs_policy_priv(dev);
	struct gtbs_grid *grid;

	INIT_LIST_HEAD(&st->running);
	st->scanned = false;
	list_for_each_entry(grid, &dev->grids, node)
		gtbs_serial_file(dev, grid);
}

/* &gtbs_policy_ops.grid_arrive: a QUEUED grid joins its class's tree. */
static void gtbs_serial_grid_arrive(struct gtbs_dev *dev,
				    struct gtbs_grid *grid)
{
	gtbs_serial_tidy(dev);
	gtbs_serial_file(dev, grid);
}

/* &gtbs_policy_ops.grid_end: it leaves the tree or the list. */
static void gtbs_serial_grid_end(struct gtbs_dev *dev, struct gtbs_grid *grid)
{
	struct gtbs_serial *st = gtbs_policy_priv(dev);
	struct gtbs_serial_grid *sg = gtbs_sjg(grid);

	if (sg->where == 1)
		rb_erase_cached(&sg->node, &st->queued[grid->desc.prio_class]);
	else if (sg->where == 2)
		list_del(&sg->run_node);
	sg->where = 0;
}

/*
 * Whether @a goes before @b among the started grids: the better key, the
 * earlier arrival among equals (the scan's order of &gtbs_dev.grids).
 */
static bool gtbs_serial_first(const struct gtbs_grid *a,
			      const struct gtbs_grid *b, bool longest)
{
	return gtbs_serial_before(a, b, longest) ||
	       (a->alone_cycles == b->alone_cycles && a->id < b->id);
}

/* The pick of gtbs_serial_pick_scan() from the trees and the list. */
static struct gtbs_grid *gtbs_serial_pick_fast(struct gtbs_dev *dev,
					       bool longest)
{
	struct gtbs_serial *st = gtbs_policy_priv(dev);
	struct gtbs_grid *run = NULL, *queued = NULL, *drain = NULL;
	struct gtbs_serial_grid *sg;
	struct rb_node *node;
	bool busy = false, above = false;
	u32 top = dev->top_class;

	gtbs_serial_tidy(dev);
	node = top < GTBS_NR_PRIO_CLASSES ?
	       rb_first_cached(&st->queued[top]) : NULL;
	/*
	 * the first queued grid that is not throttled (throttle.c), as the
	 * scan's; one behind the front that starts leaves a started grid
	 * inside the tree: the next tidy moves them all, as after scans
	 */
	while (node && gtbs_sj_grid(node)->throttle)
		node = rb_next(node);
	if (node) {
		queued = gtbs_sj_grid(node);
		if (node != rb_first_cached(&st->queued[top]))
			st->scanned = true;
	}
	list_for_each_entry(sg, &st->running, run_node) {
		struct gtbs_grid *grid = gtbs_priv_to_grid(sg);
		u32 c = grid->desc.prio_class;

		if (grid->state != GTBS_GRID_RUNNING)
			continue;
		if (gtbs_grid_eligible(dev, grid)) {
			if (!run || gtbs_serial_first(grid, run, longest))
				run = grid;
			continue;
		}
		if (c < top)
			continue;
		busy = true;
		if (c > top)
			above = true;
		else if (!drain || gtbs_serial_first(grid, drain, longest))
			drain = grid;
	}
	if (above)
		return run;	/* a higher class drains: never jump it */
	if (gtbs_serial_jump(dev, queued, run, drain, longest))
		return queued;
	if (run)
		return run;
	if (busy || !queued || gtbs_serial_hold(dev, queued, longest))
		return NULL;
	return queued;
}

static struct gtbs_grid *gtbs_serial_pick(struct gtbs_dev *dev, bool longest)
{
	if (dev->starve_cycles || gtbs_serial_scan_ref) {
		struct gtbs_serial *st = gtbs_policy_priv(dev);

		st->scanned = true;
		return gtbs_serial_pick_scan(dev, longest);
	}
	return gtbs_serial_pick_fast(dev, longest);
}

static struct gtbs_grid *gtbs_serial_pick_scan(struct gtbs_dev *dev,
					       bool longest)
{
	struct gtbs_grid *grid, *run = NULL, *queued = NULL, *drain = NULL;
	bool busy = false;
	u32 c;

	list_for_each_entry(grid, &dev->grids, node) {
		if (gtbs_grid_eligible(dev, grid)) {
			struct gtbs_grid **best = grid->state ==
				GTBS_GRID_RUNNING ? &run : &queued;

			if (!*best || gtbs_serial_before(grid, *best, longest))
				*best = grid;
			continue;
		}
		if (grid->state != GTBS_GRID_RUNNING)
			continue;
		c = gtbs_grid_class(dev, grid, dev->pick_cycle);
		if (c >= dev->top_class) {
			busy = true;	/* draining: its last block has not ended */
			/* only the top class's own may be preempted for Q */
			if (c > dev->top_class)
				drain = grid;
			else if (!drain ||
				 (gtbs_grid_class(dev, drain, dev->pick_cycle) ==
				  c && gtbs_serial_before(grid, drain, longest)))
				drain = grid;
		}
	}
	if (drain && gtbs_grid_class(dev, drain, dev->pick_cycle) >
	    dev->top_class)
		return run;	/* a higher class drains: never jump it */
	if (gtbs_serial_jump(dev, queued, run, drain, longest))
		return queued;
	if (run)
		return run;
	if (busy || !queued || gtbs_serial_hold(dev, queued, longest))
		return NULL;
	return queued;
}

/* &gtbs_policy_ops.may_preempt: a strictly better key (see the DOC). */
static bool gtbs_sjf_may_preempt(const struct gtbs_dev *dev,
				 const struct gtbs_sm *sm,
				 const struct gtbs_grid *grid,
				 const struct gtbs_grid *victim)
{
	return gtbs_serial_before(grid, victim, false);
}

static bool gtbs_ljf_may_preempt(const struct gtbs_dev *dev,
				 const struct gtbs_sm *sm,
				 const struct gtbs_grid *grid,
				 const struct gtbs_grid *victim)
{
	return gtbs_serial_before(grid, victim, true);
}

static struct gtbs_grid *gtbs_sjf_pick_grid(struct gtbs_dev *dev,
					    struct gtbs_sm *sm, u32 *reason)
{
	return gtbs_serial_pick(dev, false);
}

static struct gtbs_grid *gtbs_ljf_pick_grid(struct gtbs_dev *dev,
					    struct gtbs_sm *sm, u32 *reason)
{
	return gtbs_serial_pick(dev, true);
}

/* Serial SJF policy ops (paper Section "Motivation", see DOC above). */
const struct gtbs_policy_ops gtbs_policy_sjf = {
	.name = "sjf",
	.owner = THIS_MODULE,
	.pick_grid = gtbs_sjf_pick_grid,
	.may_preempt = gtbs_sjf_may_preempt,
	.attach = gtbs_serial_attach,
	.grid_arrive = gtbs_serial_grid_arrive,
	.grid_end = gtbs_serial_grid_end,
	.dev_priv_size = sizeof(struct gtbs_serial),
	.grid_priv_size = sizeof(struct gtbs_serial_grid),
};
EXPORT_SYMBOL_IF_KUNIT(gtbs_policy_sjf);

/* Serial LJF policy ops, SJF's mirror (paper Section "Motivation"). */
const struct gtbs_policy_ops gtbs_policy_ljf = {
	.name = "ljf",
	.owner = THIS_MODULE,
	.pick_grid = gtbs_ljf_pick_grid,
	.may_preempt = gtbs_ljf_may_preempt,
	.attach = gtbs_serial_attach,
	.grid_arrive = gtbs_serial_grid_arrive,
	.grid_end = gtbs_serial_grid_end,
	.dev_priv_size = sizeof(struct gtbs_serial),
	.grid_priv_size = sizeof(struct gtbs_serial_grid),
};
EXPORT_SYMBOL_IF_KUNIT(gtbs_policy_ljf);
