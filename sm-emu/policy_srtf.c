// SPDX-License-Identifier: GPL-2.0
/*
 * policy_srtf.c - Shortest Remaining Time First with sampling and hand-off.
 *
 * Copyright (C) 2026 The gputbs developers
 */

/**
 * DOC: SRTF policy
 *
 * The paper's Section "Shortest Remaining Time First (SRTF)", driven by
 * the Simple Slicing predictor that the engine runs for every grid on
 * every SM it runs on (&gtbs_grid_sm.pred).
 *
 * - **Sampling.**  A grid that arrives while others run has no
 *   prediction (%GTBS_SAMPLE_NONE).  The first SM with room for one of its
 *   blocks becomes its sample SM: from then on that SM issues only the
 *   sampled grid, waiting for the other grids' resident blocks to end if
 *   the block does not fit yet (the *sampling delay*), while the other SMs
 *   go on with the running grid.  If no SM has room at the arrival cycle,
 *   the first SM to reach a block boundary after it samples; with
 *   preemption (below), the first SM to pick at the arrival cycle.  One grid is
 *   sampled at a time; waiting grids are sampled in arrival order.
 * - **Switch.**  When the sampled grid's first block ends on the sample
 *   SM, the predictor's prediction there is the *sample prediction*.  It
 *   is every other SM's initial prediction of the grid, kept once for the
 *   device (&gtbs_srtf_grid.init_remaining, read on any SM without a
 *   prediction of its own), the grid becomes %GTBS_SAMPLE_KNOWN and every
 *   SM is kicked.
 * - **Choice.**  At every block boundary, an SM issues from the grid with
 *   the shortest predicted remaining time *on that SM* among the known
 *   grids that may issue: its own prediction (Pred_Cycles minus
 *   Active_Kernel_Cycles) once it has one, else the initial prediction,
 *   else the grid's latest prediction on any SM less the cycles since;
 *   a grid never predicted is taken as infinitely long.  Ties go to the
 *   earlier arrival.  If that grid's block does not fit, the SM waits for
 *   resident blocks of other grids to end: the *hand-off delay*.  No
 *   running block is ever interrupted.  Because every SM keeps refining
 *   its predictions, an SM switches back when the order flips.
 * - A grid that arrives when no known grid has blocks to issue (an idle
 *   device, or only grids whose blocks are all out) runs without sampling:
 *   there is nothing to compare it with.  It becomes known when its first
 *   block issues.
 *
 * **Exclusive** (parameter ``single_kernel``, &enum gtbs_single_kernel).
 * Section "SRTF": "when not sampling, only a single kernel executes on
 * the GPU"; Section "SRTF/Adaptive": SRTF "does not share resources among
 * concurrently executing kernels".  Outside sampling an SM issues only
 * from the grid SRTF picked; the question is the picked grid's *tail*,
 * once it has issued every block and its last blocks run.  Three
 * readings:
 *
 * - ``exclusive`` (the first sentence as written): a grid in its tail
 *   (&gtbs_srtf.tail, gtbs_grid_in_tail()) holds back every grid behind
 *   it in SRTF's order on the SM, of its class or below, on every SM,
 *   until its last block ends (gtbs_srtf_held()); the SMs it has left
 *   stand idle, as under the serial SJF.
 * - ``sm-exclusive`` (the default; the second sentence read per SM): the
 *   same hold, but only on the SMs where blocks of the tail grid still
 *   run, so no SM's resources are shared outside sampling and an SM the
 *   tail has left issues the next grid at once.
 * - ``work-conserving`` (gputbs' first reading): an SM issues from the
 *   next grid as soon as the shortest has no block left to issue, so the
 *   next grid's first wave runs beside the shortest's last.
 *
 * In both exclusive readings a grid ahead of the tail grid (shorter on
 * that SM, or of a higher class) is not held, nor is a sample: a grid
 * that arrives during a tail that holds on the SM is sampled as if the
 * tail grid still issued, and runs at once only if it is predicted
 * shorter.  The tail grid's last block end kicks every SM.
 *
 * The default is chosen by the figures of Documentation/evaluation.rst,
 * "Only a single kernel": on the paper's 56 pairs at offset 0 SRTF's
 * geomean STP is 1.550 (sm-exclusive), 1.547 (exclusive) and 1.501
 * (work-conserving), paper 1.59, with 24, 24 and 21 of the Tables' 39
 * cells within 5%; on the serving scenarios, where grids are small and
 * many, exclusive runs one small grid at a time on the whole device
 * (SRTF's STP 1.312 where sm-exclusive keeps 1.805).  SRTF/Adaptive
 * applies it in its non-sharing mode, srtf-oracle by its fixed key.
 * Where the SRTF choice differs between SMs (each SM reads its own
 * predictions), each SM holds back the grids behind the tail grid in its
 * own order.

 * **With preemption** (the device's preempt_mode is not drain; gputbs'
 * extension, the experiment the paper's Section "System Throughput"
 * could not run), the hand-off and sampling delays need not be waited
 * out: gtbs_srtf_may_preempt() lets the grid SRTF picked preempt a
 * running block of another grid of its class on the SM when
 *
 *   R(victim) - R(grid) > 2 * C(victim)  and
 *   R(victim) >= R(grid) * preempt_ratio_pct / 100
 *
 * with R the predicted remaining time on that SM as the choice above
 * reads it and C the victim's context save time (gtbs_context_cycles()):
 * the wait saved must exceed the save and restore (Chimera's rule of
 * preempting only for a gain), and the order must hold beyond the
 * predictor's error.  The first predictions of the Simple Slicing
 * predictor run low (the paper's Figure of prediction accuracy; ours are
 * within 0.5x-2x of the runtime, Documentation/evaluation.rst) and rise
 * as blocks end, so two grids of similar length (AES-d and AES-e) would
 * take turns preempting each other at every block end and share the SM
 * in the worst way: the parameter preempt_ratio_pct (default 200, that
 * band, set a priori; 100 is the literal "shorter preempts") keeps them
 * apart.
 *
 * Grids without a prediction, two readings (parameter preempt_unknown):
 *
 * - ``predicted``, the literal "switch to a shorter grid": both grids
 *   need a prediction on the SM; a grid to be sampled waits for a slot as
 *   in the paper.  At offset 0 the second grid arrives before the first
 *   has a prediction, and behind SHA1 its sample waits 1.7 M cycles.
 * - ``sample`` (the default): a grid never predicted counts as R = 0 on
 *   its sample SM, or anywhere before its first block has started, so
 *   that its sample need not wait for a drain; a victim never predicted
 *   counts as infinitely long, as in the choice.  It bridges 59.7% of the
 *   FIFO->SJF gap on the paper's pairs at offset 0 where ``predicted``
 *   bridges 30.9% (Documentation/evaluation.rst); its cost: a grid that
 *   started just before another arrived is preempted for the newcomer's
 *   sample even if it is the shorter.
 *
 * **Cost.**  A pick does not read every pending grid.  Each SM keeps the
 * known pending grids with a prediction of their own on it that stands
 * still (no block of theirs runs there) in a red-black tree ordered by
 * class, that time and arrival (&gtbs_srtf_sm.known), refiled in O(log
 * grids) when a grid's last running block on the SM ends or is preempted
 * (&gtbs_policy_ops.grid_update).  The grids' initial predictions, the
 * same on every SM, are in one tree for the device in the same order
 * (&gtbs_srtf.init), filed once when a grid becomes known and refiled when
 * it leaves or rejoins the pending list (with the SMs' trees of the SMs it
 * ran on), so a grid needs no state on an SM it never ran on (sm-emu/grid.c,
 * "Per-(grid, SM) state").  A pick takes the two shortest of the SM's
 * tree and the two shortest of the device's that have no prediction of
 * their own on the SM, and reads live the grids running on the SM (at
 * most its slots) and the few known grids never sampled
 * (&gtbs_srtf.unsampled), whose time on an SM without a prediction of its
 * own falls with time.  The walk of the device's tree passes over the
 * grids that have their own entry on the SM: in the common case a few
 * (those that ran there and are shorter than the two taken), at worst
 * every known pending grid, O(grids) as the scan.  With the starvation
 * guard, whose classes change with time, it scans every pending grid as
 * before; the tests compare the two (gtbs_srtf_scan_ref).
 *
 * No two grids preempt each other at one cycle: that needs R(a) >= 2 R(b)
 * and R(b) >= 2 R(a) with a positive gap, and a grid counted as infinite
 * (never predicted, started) is never counted as zero, while one counted
 * as zero (being sampled, or not started) is not a victim (conformance
 * tests, fuzz_sched).  Over time the R of a running grid falls one cycle
 * per cycle and that of a preempted one stands still
 * (Active_Kernel_Cycles), so the order flips back only when a prediction
 * moves by more than the margin.
 */
#include "policy_srtf.h"

GTBS_POLICY_PRIV_CHECK(struct gtbs_srtf, GTBS_POLICY_DEV_PRIV_SIZE);
GTBS_POLICY_PRIV_CHECK(struct gtbs_srtf_grid, GTBS_POLICY_GRID_PRIV_SIZE);
GTBS_POLICY_PRIV_CHECK(struct gtbs_srtf_sm, GTBS_POLICY_SM_PRIV_SIZE);
GTBS_POLICY_PRIV_CHECK(struct gtbs_srtf_grid_sm,
		       GTBS_POLICY_GRID_SM_PRIV_SIZE);

static struct gtbs_srtf_grid *gtbs_sg(const struct gtbs_grid *grid)
{
	return gtbs_policy_priv(grid);
}

/* SRTF's area of a pair; the pair exists (gtbs_grid_sm()). */
static struct gtbs_srtf_grid_sm *gtbs_sgs(const struct gtbs_grid_sm *gs)
{
	return gtbs_policy_priv(gs);
}

/* @grid has a prediction of its own on SM @sm (no pair: none). */
static bool gtbs_srtf_own(const struct gtbs_grid *grid, u32 sm)
{
	return grid->state == GTBS_GRID_RUNNING &&
	       gtbs_grid_sm_predicted(grid, sm);
}

/* Predicted remaining cycles of @grid on SM @sm at @now (see DOC). */
static u64 gtbs_srtf_remaining(const struct gtbs_grid *grid, u32 sm, u64 now)
{
	u64 init = gtbs_sg(grid)->init_remaining;
	u64 since;

	if (gtbs_srtf_own(grid, sm))
		return gtbs_pred_remaining(gtbs_grid_sm_predicted(grid, sm),
					   now);
	if (init)
		return init - 1;
	if (!grid->nr_predictions)
		return U64_MAX;
	since = now - min(now, grid->pred_cycle);
	return grid->pred_remaining > since ? grid->pred_remaining - since : 0;
}

static struct gtbs_srtf_sm *gtbs_ss(const struct gtbs_dev *dev, u32 sm)
{
	return gtbs_policy_priv(dev->sms[sm]);
}

static bool gtbs_srtf_pending(const struct gtbs_grid *grid)
{
	return !list_empty(&grid->pending_node);
}

/*
 * Order of &gtbs_srtf_sm.known: the higher class first, then the shorter
 * predicted remaining time, then the earlier arrival (the plain scan's
 * tie-break: &gtbs_dev.pending is in arrival order).
 */
static bool gtbs_srtf_before(struct rb_node *a, const struct rb_node *b)
{
	const struct gtbs_srtf_grid_sm *x =
		rb_entry(a, struct gtbs_srtf_grid_sm, node);
	const struct gtbs_srtf_grid_sm *y =
		rb_entry(b, struct gtbs_srtf_grid_sm, node);

	if (x->grid->desc.prio_class != y->grid->desc.prio_class)
		return x->grid->desc.prio_class > y->grid->desc.prio_class;
	if (x->key != y->key)
		return x->key < y->key;
	return x->grid->id < y->grid->id;
}

/* The same order for &gtbs_srtf.init, by the initial prediction. */
static bool gtbs_srtf_init_before(struct rb_node *a, const struct rb_node *b)
{
	const struct gtbs_srtf_grid *x =
		rb_entry(a, struct gtbs_srtf_grid, init_node);
	const struct gtbs_srtf_grid *y =
		rb_entry(b, struct gtbs_srtf_grid, init_node);
	const struct gtbs_grid *gx = gtbs_priv_to_grid(x);
	const struct gtbs_grid *gy = gtbs_priv_to_grid(y);

	if (gx->desc.prio_class != gy->desc.prio_class)
		return gx->desc.prio_class > gy->desc.prio_class;
	if (x->init_remaining != y->init_remaining)
		return x->init_remaining < y->init_remaining;
	return gx->id < gy->id;
}

/*
 * Refile @grid on SM @sm's &gtbs_srtf_sm.known.  It belongs there while it
 * is known, pending and has a prediction of its own on the SM (its key on
 * other SMs is the initial one, &gtbs_srtf.init).  While a block of it
 * runs on the SM its key falls with time: it is left as it is (a pick
 * reads it live) and refiled when its last block there stops
 * (&gtbs_policy_ops.grid_update).  A grid without a pair on the SM is
 * never there.  Lock held; O(log grids).
 */
static void gtbs_srtf_index(struct gtbs_dev *dev, struct gtbs_grid *grid,
			    u32 sm)
{
	struct gtbs_grid_sm *gs = gtbs_grid_sm(grid, sm);
	struct rb_root_cached *known = &gtbs_ss(dev, sm)->known;
	struct gtbs_srtf_grid_sm *gsm;
	bool want;
	u64 key;

	if (!gs)
		return;
	gsm = gtbs_sgs(gs);
	want = gtbs_srtf_pending(grid) &&
	       gtbs_sg(grid)->sample == GTBS_SAMPLE_KNOWN &&
	       gtbs_srtf_own(grid, sm);
	if (want && gs->pred.nr_resident)
		return;
	if (!want) {
		if (gsm->queued)
			rb_erase_cached(&gsm->node, known);
		gsm->queued = 0;
		return;
	}
	key = gtbs_srtf_remaining(grid, sm, dev->sms[sm]->now);
	if (gsm->queued) {
		if (gsm->key == key)
			return;
		rb_erase_cached(&gsm->node, known);
	}
	gsm->grid = grid;
	gsm->key = key;
	gsm->queued = 1;
	rb_add_cached(&gsm->node, known, gtbs_srtf_before);
}

/*
 * Refile @grid on &gtbs_srtf.init: there while it is known, pending and
 * has an initial prediction (its key, which never changes).  Lock held;
 * O(log grids).
 */
static void gtbs_srtf_index_init(struct gtbs_dev *dev, struct gtbs_grid *grid)
{
	struct gtbs_srtf *st = gtbs_policy_priv(dev);
	struct gtbs_srtf_grid *sg = gtbs_sg(grid);
	bool want = gtbs_srtf_pending(grid) &&
		    sg->sample == GTBS_SAMPLE_KNOWN && sg->init_remaining;

	if (want == !!sg->init_queued)
		return;
	if (want)
		rb_add_cached(&sg->init_node, &st->init,
			      gtbs_srtf_init_before);
	else
		rb_erase_cached(&sg->init_node, &st->init);
	sg->init_queued = want;
}

/*
 * Refile @grid on &gtbs_srtf.init and on the order of every SM where it
 * has a pair.  Lock held; O(SMs it ran on x log grids).
 */
static void gtbs_srtf_index_all(struct gtbs_dev *dev, struct gtbs_grid *grid)
{
	struct gtbs_grid_sm *gs;

	gtbs_srtf_index_init(dev, grid);
	list_for_each_entry(gs, &grid->sms, node)
		gtbs_srtf_index(dev, grid, gs->sm);
}

/**
 * gtbs_grid_in_tail() - whether a grid is in its tail
 * @grid: a grid on &gtbs_dev.grids.
 *
 * Every block issued, none saved to run again, and not on
 * &gtbs_dev.pending: its last blocks run (or it is throttled with none to
 * issue).  The grid leaves &gtbs_dev.grids when the last one ends.
 *
 * Context: device lock held.
 * Return: true if @grid is in its tail.
 */
bool gtbs_grid_in_tail(const struct gtbs_grid *grid)
{
	return grid->next_block >= grid->desc.nr_blocks && !grid->nr_saved &&
	       list_empty(&grid->pending_node);
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_grid_in_tail);

static void gtbs_srtf_unlist(struct gtbs_grid *grid)
{
	struct gtbs_srtf_grid *sg = gtbs_sg(grid);

	if (sg->listed)
		list_del(&sg->node);
	sg->listed = 0;
}

/*
 * @grid on &gtbs_srtf.tail while it is in its tail (kept in both readings,
 * so that a change of single_kernel needs no rebuild).  Lock held; O(1).
 */
static void gtbs_srtf_tail_file(struct gtbs_dev *dev, struct gtbs_grid *grid)
{
	struct gtbs_srtf *st = gtbs_policy_priv(dev);
	struct gtbs_srtf_grid *sg = gtbs_sg(grid);
	bool want = gtbs_grid_in_tail(grid);
	bool tail = sg->listed == GTBS_SRTF_TAIL;

	if (want == tail)
		return;
	gtbs_srtf_unlist(grid);
	if (!want)
		return;
	list_add_tail(&sg->node, &st->tail);
	sg->listed = GTBS_SRTF_TAIL;
}

/* @grid is known without a sample: on &gtbs_srtf.unsampled if pending. */
static void gtbs_srtf_list_unsampled(struct gtbs_dev *dev,
				     struct gtbs_grid *grid)
{
	struct gtbs_srtf *st = gtbs_policy_priv(dev);
	struct gtbs_srtf_grid *sg = gtbs_sg(grid);

	if (gtbs_srtf_pending(grid) && !sg->listed) {
		list_add_tail(&sg->node, &st->unsampled);
		sg->listed = GTBS_SRTF_LISTED;
	} else if (!gtbs_srtf_pending(grid) &&
		   sg->listed == GTBS_SRTF_LISTED) {
		gtbs_srtf_unlist(grid);
	}
}

/* NONE -> KNOWN without a sample (it runs at once).  Lock held. */
static void gtbs_srtf_known_unsampled(struct gtbs_dev *dev,
				      struct gtbs_grid *grid)
{
	struct gtbs_srtf_grid *sg = gtbs_sg(grid);

	gtbs_srtf_unlist(grid);
	sg->sample = GTBS_SAMPLE_KNOWN;
	sg->unsampled = 1;
	gtbs_srtf_list_unsampled(dev, grid);
	gtbs_srtf_index_all(dev, grid);
}

static void gtbs_srtf_start_sample(struct gtbs_dev *dev, struct gtbs_sm *sm,
				   struct gtbs_grid *grid)
{
	struct gtbs_srtf *st = gtbs_policy_priv(dev);

	gtbs_srtf_unlist(grid);
	gtbs_sg(grid)->sample = GTBS_SAMPLE_RUNNING;
	st->sampling = grid;
	st->sample_sm = sm->id;
}

/*
 * @grid, known and eligible, with predicted remaining time @key on the SM:
 * keep the two shortest, the earlier arrival first among equals (as the
 * scan in arrival order with strict comparisons does).  A grid offered
 * twice is taken once.
 */
static void gtbs_srtf_consider(struct gtbs_srtf_choice *c,
			       struct gtbs_grid *grid, u64 key)
{
	if (grid == c->first || grid == c->second)
		return;
	if (!c->first || key < c->first_key ||
	    (key == c->first_key && grid->id < c->first->id)) {
		c->second = c->first;
		c->second_key = c->first_key;
		c->first = grid;
		c->first_key = key;
	} else if (!c->second || key < c->second_key ||
		   (key == c->second_key && grid->id < c->second->id)) {
		c->second = grid;
		c->second_key = key;
	}
}

/*
 * gtbs_srtf_scan_ref - test only: SRTF picks by the plain scan of every
 * pending grid (gtbs_srtf_scan()) instead of its per-SM order, so that
 * tests compare the two (tests/unit/test_policy.c, fuzz_sched).  false in
 * use; read under the device lock, set only by tests with no device busy.
 */
bool gtbs_srtf_scan_ref;
EXPORT_SYMBOL_IF_KUNIT(gtbs_srtf_scan_ref);

/*
 * The reference: every pending grid, in arrival order.  Fills @c->first
 * and @c->second; returns the first eligible grid to sample.  O(grids).
 */
static struct gtbs_grid *gtbs_srtf_scan(struct gtbs_dev *dev,
					struct gtbs_sm *sm,
					struct gtbs_srtf_choice *c)
{
	struct gtbs_grid *grid, *unsampled = NULL;
	u64 key;

	list_for_each_entry(grid, &dev->pending, pending_node) {
		u32 sample;

		if (!gtbs_grid_eligible(dev, grid))
			continue;
		sample = gtbs_sg(grid)->sample;
		if (sample == GTBS_SAMPLE_NONE) {
			if (!unsampled)
				unsampled = grid;
			continue;
		}
		if (sample != GTBS_SAMPLE_KNOWN)
			continue;
		key = gtbs_srtf_remaining(grid, sm->id, sm->now);
		if (!c->first || key < c->first_key) {
			c->second = c->first;
			c->second_key = c->first_key;
			c->first = grid;
			c->first_key = key;
		} else if (!c->second || key < c->second_key) {
			c->second = grid;
			c->second_key = key;
		}
	}
	return unsampled;
}

/*
 * The same from the orders: the two shortest non-running grids of
 * &gtbs_srtf_sm.known (own predictions on the SM), the two shortest of
 * &gtbs_srtf.init that have none there and no block running there, the
 * grids with a block running on the SM (keys falling with time) and
 * &gtbs_srtf.unsampled, read live.  O(blocks per SM + unsampled grids)
 * plus the walks' O(log grids), and in &gtbs_srtf.init the grids passed
 * over because they have their own prediction on the SM: at worst every
 * grid with an initial prediction (each ran on the SM), in practice the
 * few that ran there and are shorter than the two taken.
 */
static struct gtbs_grid *gtbs_srtf_indexed(struct gtbs_dev *dev,
					   struct gtbs_sm *sm,
					   struct gtbs_srtf_choice *c)
{
	struct gtbs_srtf *st = gtbs_policy_priv(dev);
	struct gtbs_srtf_grid *sg;
	struct gtbs_grid *grid;
	struct rb_node *node;
	u32 i, found = 0;

	node = rb_first_cached(&gtbs_ss(dev, sm->id)->known);
	for (; node && found < 2; node = rb_next(node)) {
		struct gtbs_srtf_grid_sm *gsm =
			rb_entry(node, struct gtbs_srtf_grid_sm, node);

		grid = gsm->grid;
		if (grid->desc.prio_class < dev->top_class)
			break;
		if (gtbs_grid_sm(grid, sm->id)->pred.nr_resident ||
		    !gtbs_grid_eligible(dev, grid))
			continue;
		gtbs_srtf_consider(c, grid, gsm->key);
		found++;
	}
	found = 0;
	node = rb_first_cached(&st->init);
	for (; node && found < 2; node = rb_next(node)) {
		const struct gtbs_grid_sm *gs;

		sg = rb_entry(node, struct gtbs_srtf_grid, init_node);
		grid = gtbs_priv_to_grid(sg);
		if (grid->desc.prio_class < dev->top_class)
			break;
		/* its own prediction here is on the SM's order */
		gs = gtbs_grid_sm(grid, sm->id);
		if ((gs && gs->pred.nr_resident) ||
		    gtbs_srtf_own(grid, sm->id) ||
		    !gtbs_grid_eligible(dev, grid))
			continue;
		gtbs_srtf_consider(c, grid, sg->init_remaining - 1);
		found++;
	}
	for (i = 0; i < dev->cfg.max_blocks_per_sm; i++) {
		grid = sm->slots[i].grid;
		if (!grid || !gtbs_grid_sm(grid, sm->id)->pred.nr_resident ||
		    !gtbs_srtf_pending(grid) ||
		    gtbs_sg(grid)->sample != GTBS_SAMPLE_KNOWN ||
		    !gtbs_grid_eligible(dev, grid))
			continue;
		gtbs_srtf_consider(c, grid,
				   gtbs_srtf_remaining(grid, sm->id, sm->now));
	}
	list_for_each_entry(sg, &st->unsampled, node) {
		const struct gtbs_grid_sm *gs;

		grid = gtbs_priv_to_grid(sg);
		gs = gtbs_grid_sm(grid, sm->id);
		if ((gs && (gs->pred.nr_resident || gtbs_sgs(gs)->queued)) ||
		    !gtbs_grid_eligible(dev, grid))
			continue;
		gtbs_srtf_consider(c, grid,
				   gtbs_srtf_remaining(grid, sm->id, sm->now));
	}
	if (dev->top_class >= GTBS_NR_PRIO_CLASSES)
		return NULL;
	list_for_each_entry(sg, &st->none[dev->top_class], node) {
		grid = gtbs_priv_to_grid(sg);
		if (gtbs_srtf_pending(grid) && gtbs_grid_eligible(dev, grid))
			return grid;
	}
	return NULL;
}

/*
 * Whether @t, a grid in its tail, holds grids back on SM @sm at all: of
 * the class that may issue or above, and under sm-exclusive with blocks
 * on @sm.
 */
static bool gtbs_srtf_tail_holds(const struct gtbs_dev *dev,
				 const struct gtbs_sm *sm,
				 const struct gtbs_grid *t)
{
	const struct gtbs_srtf *st = gtbs_policy_priv(dev);

	if (t->desc.prio_class < dev->top_class)
		return false;
	return st->single_kernel != GTBS_SINGLE_SM ||
	       gtbs_grid_sm_resident(t, sm->id);
}

/* A grid in its tail holds grids back on SM @sm (exclusive readings). */
static bool gtbs_srtf_tail_any(const struct gtbs_dev *dev,
			       const struct gtbs_sm *sm)
{
	const struct gtbs_srtf *st = gtbs_policy_priv(dev);
	const struct gtbs_srtf_grid *sg;

	if (st->single_kernel == GTBS_SINGLE_CONSERVING)
		return false;
	list_for_each_entry(sg, &st->tail, node)
		if (gtbs_srtf_tail_holds(dev, sm, gtbs_priv_to_grid(sg)))
			return true;
	return false;
}

/**
 * gtbs_srtf_held() - whether the exclusive reading holds a grid back
 * @dev: the device, inside &gtbs_policy_ops.pick_grid.
 * @sm: the SM that would issue, at &gtbs_sm.now.
 * @grid: the grid SRTF picked there (not a sample).
 *
 * Under %GTBS_SINGLE_EXCLUSIVE (DOC "Exclusive"): true if a grid in its
 * tail (&gtbs_srtf.tail) is ahead of @grid in SRTF's order on @sm: of a
 * higher class, or of @grid's class with a shorter predicted remaining
 * time there (gtbs_srtf_remaining(), ties to the earlier arrival).  The
 * grid in its tail is the single kernel; @grid issues when its last block
 * ends (which kicks every SM).  Under %GTBS_SINGLE_SM only a tail grid
 * with blocks on @sm holds (its last block there ends at an event of the
 * SM).  Tail grids below the class that may issue hold nothing.  O(grids
 * in their tail).
 *
 * Context: device lock held.
 * Return: true if @sm must not issue from @grid now.
 */
bool gtbs_srtf_held(struct gtbs_dev *dev, const struct gtbs_sm *sm,
		    const struct gtbs_grid *grid)
{
	const struct gtbs_srtf *st = gtbs_policy_priv(dev);
	const struct gtbs_srtf_grid *sg;
	u64 key = 0;
	bool keyed = false;

	gtbs_lockdep_assert_held(dev);
	if (st->single_kernel == GTBS_SINGLE_CONSERVING)
		return false;
	list_for_each_entry(sg, &st->tail, node) {
		const struct gtbs_grid *t = gtbs_priv_to_grid(sg);
		u64 kt;

		if (!gtbs_srtf_tail_holds(dev, sm, t) ||
		    t->desc.prio_class < grid->desc.prio_class)
			continue;
		if (t->desc.prio_class > grid->desc.prio_class)
			return true;
		if (!keyed) {
			key = gtbs_srtf_remaining(grid, sm->id, sm->now);
			keyed = true;
		}
		kt = gtbs_srtf_remaining(t, sm->id, sm->now);
		if (kt < key || (kt == key && t->id < grid->id))
			return true;
	}
	return false;
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_srtf_held);

/**
 * gtbs_srtf_choose() - SRTF's view of an SM that may issue a block
 * @dev: the device, inside &gtbs_policy_ops.pick_grid.
 * @sm: the SM.
 * @c: out: the sampling decision, or the two shortest known grids.
 *
 * The sampling rules and the order of the DOC above; SRTF issues from
 * @c->sampled, else from @c->first.  The two shortest come from the
 * SM's order (&gtbs_srtf_sm.known) in O(log grids) plus the grids that
 * run on the SM, or, with the starvation guard (whose classes change with
 * time) and in tests (&gtbs_srtf_scan_ref), from a scan of every pending
 * grid: the same grids either way.
 *
 * Context: device lock held, from &gtbs_policy_ops.pick_grid.
 */
void gtbs_srtf_choose(struct gtbs_dev *dev, struct gtbs_sm *sm,
		      struct gtbs_srtf_choice *c)
{
	struct gtbs_srtf *st = gtbs_policy_priv(dev);
	struct gtbs_grid *unsampled;
	struct gtbs_grid *sampling = st->sampling;

	memset(c, 0, sizeof(*c));
	if (sampling && st->sample_sm == sm->id &&
	    gtbs_grid_eligible(dev, sampling)) {
		c->sampled = sampling;
		c->sampling = true;
		return;
	}
	if (dev->starve_cycles || gtbs_srtf_scan_ref)
		unsampled = gtbs_srtf_scan(dev, sm, c);
	else
		unsampled = gtbs_srtf_indexed(dev, sm, c);
	if (!unsampled)
		return;
	if (!c->first && !gtbs_srtf_tail_any(dev, sm)) {
		/* nothing known may issue: no comparison to make */
		if (gtbs_block_fits(dev, sm, unsampled))
			gtbs_srtf_known_unsampled(dev, unsampled);
		c->sampled = unsampled;
		return;
	}
	if (!sampling && (gtbs_block_fits(dev, sm, unsampled) ||
			  sm->now > unsampled->submit_cycle ||
			  (dev->preempt_mode != GTBS_PREEMPT_DRAIN &&
			   st->preempt_unknown == GTBS_SRTF_PREEMPT_SAMPLE))) {
		gtbs_srtf_start_sample(dev, sm, unsampled);
		c->sampled = unsampled;
		c->sampling = true;
	}
}

static struct gtbs_grid *gtbs_srtf_pick_grid(struct gtbs_dev *dev,
					     struct gtbs_sm *sm, u32 *reason)
{
	struct gtbs_srtf_choice c;

	gtbs_srtf_choose(dev, sm, &c);
	*reason = c.sampling ? GTBS_PICK_SAMPLE : GTBS_PICK_SHORTER;
	if (c.sampled)
		return c.sampled;
	if (c.first && gtbs_srtf_held(dev, sm, c.first))
		return NULL;
	return c.first;
}

/**
 * gtbs_srtf_predict() - SRTF's &gtbs_policy_ops.predict
 * @dev: the device.
 * @sm: the SM that predicted.
 * @grid: the grid it predicted.
 *
 * The sample prediction: the sampled grid's first prediction on its sample
 * SM becomes the other SMs' initial prediction (kept once, for the
 * device: &gtbs_srtf_grid.init_remaining), the grid becomes known and
 * every SM re-evaluates.
 *
 * Context: device lock held, at the end of OnBlockEnd.
 */
void gtbs_srtf_predict(struct gtbs_dev *dev, struct gtbs_sm *sm,
		       struct gtbs_grid *grid)
{
	struct gtbs_srtf *st = gtbs_policy_priv(dev);
	u64 remaining;

	if (grid != st->sampling || sm->id != st->sample_sm)
		return;
	remaining = gtbs_pred_remaining(&gtbs_grid_sm(grid, sm->id)->pred,
					sm->now);
	/*
	 * 1 + the value, saturating: 0 means none.  Read only on SMs without
	 * a prediction of their own (gtbs_srtf_remaining()): the sample SM
	 * and those that predicted before keep theirs, as the paper's copy
	 * "to every other SM" leaves them.
	 */
	gtbs_sg(grid)->init_remaining = remaining + (remaining < U64_MAX);
	gtbs_sg(grid)->sample = GTBS_SAMPLE_KNOWN;
	st->sampling = NULL;
	gtbs_srtf_index_all(dev, grid);
	gtbs_dev_kick(dev, sm->now);
}

/**
 * gtbs_srtf_grid_end() - SRTF's &gtbs_policy_ops.grid_end
 * @dev: the device.
 * @grid: the grid that left; sampling stops if it was being sampled.
 *
 * Context: device lock held.
 */
void gtbs_srtf_grid_end(struct gtbs_dev *dev, struct gtbs_grid *grid)
{
	struct gtbs_srtf *st = gtbs_policy_priv(dev);
	struct gtbs_srtf_grid *sg = gtbs_sg(grid);
	struct gtbs_grid_sm *gs;

	if (st->sampling == grid)
		st->sampling = NULL;
	gtbs_srtf_unlist(grid);	/* from &gtbs_srtf.tail too */
	if (sg->init_queued)
		rb_erase_cached(&sg->init_node, &st->init);
	sg->init_queued = 0;
	list_for_each_entry(gs, &grid->sms, node) {
		struct gtbs_srtf_grid_sm *gsm = gtbs_sgs(gs);

		if (gsm->queued)
			rb_erase_cached(&gsm->node,
					&gtbs_ss(dev, gs->sm)->known);
		gsm->queued = 0;
	}
}

/**
 * gtbs_srtf_grid_arrive() - SRTF's &gtbs_policy_ops.grid_arrive
 * @dev: the device.
 * @grid: the grid that arrived, %GTBS_SAMPLE_NONE: it joins the grids
 *	waiting for a sample (&gtbs_srtf.none), in arrival order.  Also
 *	called from gtbs_srtf_grid_update() for a grid that leaves its tail
 *	before any sample (its last block, issued without one, switched out
 *	under flush or switch preemption): it rejoins the list.  O(1) for an
 *	arrival, O(grids waiting for a sample) for a rejoin.
 *
 * Context: device lock held.
 */
void gtbs_srtf_grid_arrive(struct gtbs_dev *dev, struct gtbs_grid *grid)
{
	struct gtbs_srtf *st = gtbs_policy_priv(dev);
	struct gtbs_srtf_grid *sg = gtbs_sg(grid), *pos;
	struct list_head *none = &st->none[grid->desc.prio_class];

	if (sg->listed || sg->sample != GTBS_SAMPLE_NONE)
		return;
	/*
	 * In arrival order, as the scan reads &gtbs_dev.pending: a grid
	 * arrives last, but one that rejoins (its last block, issued without
	 * a sample, was switched out of its tail) goes after the last earlier
	 * one.
	 */
	list_for_each_entry_reverse(pos, none, node)
		if (gtbs_priv_to_grid(pos)->id < grid->id)
			break;
	list_add(&sg->node, &pos->node);
	sg->listed = GTBS_SRTF_LISTED;
}

/**
 * gtbs_srtf_grid_update() - SRTF's &gtbs_policy_ops.grid_update
 * @dev: the device.
 * @sm: the SM where @grid's prediction or residency changed, or NULL:
 *	@grid left or rejoined &gtbs_dev.pending.
 * @grid: the grid.
 *
 * Refiles @grid on @sm's order (&gtbs_srtf_sm.known), O(log grids), or on
 * the device's (&gtbs_srtf.init) and those of the SMs it ran on, O(SMs it
 * ran on x log grids).
 *
 * Context: device lock held.
 */
void gtbs_srtf_grid_update(struct gtbs_dev *dev, struct gtbs_sm *sm,
			   struct gtbs_grid *grid)
{
	if (sm) {
		gtbs_srtf_index(dev, grid, sm->id);
		return;
	}
	gtbs_srtf_tail_file(dev, grid);
	if (gtbs_sg(grid)->unsampled)
		gtbs_srtf_list_unsampled(dev, grid);
	/* out of its tail (a block switched out) before any sample */
	gtbs_srtf_grid_arrive(dev, grid);
	gtbs_srtf_index_all(dev, grid);
}

/**
 * gtbs_srtf_attach() - SRTF's &gtbs_policy_ops.attach
 * @dev: the device, which may hold grids.
 *
 * Selected while grids run: grids that ran need no sample; the others
 * are sampled in arrival order.
 *
 * Context: device lock held.
 */
void gtbs_srtf_attach(struct gtbs_dev *dev)
{
	struct gtbs_srtf *st = gtbs_policy_priv(dev);
	struct gtbs_grid *grid;
	u32 i;

	for (i = 0; i < GTBS_NR_PRIO_CLASSES; i++)
		INIT_LIST_HEAD(&st->none[i]);
	INIT_LIST_HEAD(&st->unsampled);
	INIT_LIST_HEAD(&st->tail);
	st->init = RB_ROOT_CACHED;
	/* private areas are zero: no sampling, every grid NONE */
	list_for_each_entry(grid, &dev->grids, node) {
		if (grid->state == GTBS_GRID_RUNNING)
			gtbs_srtf_known_unsampled(dev, grid);
		else
			gtbs_srtf_grid_arrive(dev, grid);
		gtbs_srtf_tail_file(dev, grid);
	}
}

/**
 * gtbs_srtf_may_preempt() - &gtbs_policy_ops.may_preempt of SRTF and
 * SRTF/Adaptive
 * @dev: the device.
 * @sm: the SM, at &gtbs_sm.now.
 * @grid: the grid SRTF picked for @sm, whose block does not fit.
 * @victim: the grid of a running block of @grid's class on @sm.
 *
 * See the DOC: whether @victim's predicted remaining time on @sm exceeds
 * @grid's by more than twice @victim's context save time, in cycles, and
 * is at least &gtbs_srtf.preempt_ratio_pct percent of it.
 *
 * Context: device lock held.
 * Return: true if the block may be preempted.
 */
bool gtbs_srtf_may_preempt(const struct gtbs_dev *dev,
			   const struct gtbs_sm *sm,
			   const struct gtbs_grid *grid,
			   const struct gtbs_grid *victim)
{
	const struct gtbs_srtf *st = gtbs_policy_priv(dev);
	u64 cost = 2 * gtbs_context_cycles(dev, victim);
	u64 rv, rg;

	gtbs_lockdep_assert_held(dev);
	if (gtbs_sg(victim)->sample != GTBS_SAMPLE_KNOWN)
		return false;
	rv = gtbs_srtf_remaining(victim, sm->id, sm->now);
	rg = gtbs_srtf_remaining(grid, sm->id, sm->now);
	if (st->preempt_unknown == GTBS_SRTF_PREEMPT_PREDICTED &&
	    (rv == U64_MAX || rg == U64_MAX))
		return false;
	if (rg == U64_MAX) {
		/* never predicted: only to take its sample, or a first block */
		if ((st->sampling != grid || st->sample_sm != sm->id) &&
		    grid->state == GTBS_GRID_RUNNING)
			return false;
		rg = 0;
	}
	if (rv <= rg || rv - rg <= cost)
		return false;
	/* rv >= rg * ratio / 100, without overflow (rv may be U64_MAX) */
	return div64_u64(rv, st->preempt_ratio_pct) >= div64_u64(rg, 100);
}

const char * const gtbs_single_kernel_names[] = {
	[GTBS_SINGLE_CONSERVING] = "work-conserving",
	[GTBS_SINGLE_EXCLUSIVE] = "exclusive",
	[GTBS_SINGLE_SM] = "sm-exclusive",
};
EXPORT_SYMBOL_IF_KUNIT(gtbs_single_kernel_names);

const char * const gtbs_srtf_preempt_unknown_names[] = {
	[GTBS_SRTF_PREEMPT_PREDICTED] = "predicted",
	[GTBS_SRTF_PREEMPT_SAMPLE] = "sample",
};
EXPORT_SYMBOL_IF_KUNIT(gtbs_srtf_preempt_unknown_names);

static const struct gtbs_policy_param gtbs_srtf_params[] = {
	GTBS_SRTF_PREEMPT_PARAM,
	GTBS_SRTF_UNKNOWN_PARAM,
	GTBS_SINGLE_KERNEL_PARAM(offsetof(struct gtbs_srtf, single_kernel)),
};

/**
 * gtbs_srtf_grid_state() - SRTF's &gtbs_policy_ops.grid_state
 * @dev: the device.
 * @grid: one of its grids.
 *
 * Context: device lock held.
 * Return: "none", "sampling" or "known" (&enum gtbs_sample_state).
 */
const char *gtbs_srtf_grid_state(const struct gtbs_dev *dev,
				 const struct gtbs_grid *grid)
{
	static const char * const names[] = {
		[GTBS_SAMPLE_NONE] = "none",
		[GTBS_SAMPLE_RUNNING] = "sampling",
		[GTBS_SAMPLE_KNOWN] = "known",
	};
	u32 sample = gtbs_sg(grid)->sample;

	return sample < ARRAY_SIZE(names) ? names[sample] : "?";
}

/* SRTF policy ops (paper Section "Shortest Remaining Time First"). */
const struct gtbs_policy_ops gtbs_policy_srtf = {
	.name = "srtf",
	.owner = THIS_MODULE,
	.pick_grid = gtbs_srtf_pick_grid,
	.attach = gtbs_srtf_attach,
	.grid_arrive = gtbs_srtf_grid_arrive,
	.grid_end = gtbs_srtf_grid_end,
	.predict = gtbs_srtf_predict,
	.grid_update = gtbs_srtf_grid_update,
	.grid_state = gtbs_srtf_grid_state,
	.may_preempt = gtbs_srtf_may_preempt,
	.params = gtbs_srtf_params,
	.nr_params = ARRAY_SIZE(gtbs_srtf_params),
	.dev_priv_size = sizeof(struct gtbs_srtf),
	.sm_priv_size = sizeof(struct gtbs_srtf_sm),
	.grid_priv_size = sizeof(struct gtbs_srtf_grid),
	.grid_sm_priv_size = sizeof(struct gtbs_srtf_grid_sm),
};
EXPORT_SYMBOL_IF_KUNIT(gtbs_policy_srtf);
