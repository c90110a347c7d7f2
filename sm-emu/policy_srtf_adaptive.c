// SPDX-License-Identifier: GPL-2.0
/*
 * policy_srtf_adaptive.c - SRTF that shares the SM when SRTF is unfair.
 *
 * Copyright (C) 2026 The gputbs developers
 */

/**
 * DOC: SRTF/Adaptive policy
 *
 * The paper's Section "SRTF/Adaptive": SRTF (policy_srtf.c: sampling,
 * hand-off, shortest predicted remaining time first) with a *sharing mode*
 * entered when SRTF's schedule is unfair.  Each SM decides for itself, at
 * every block boundary, from its own Simple Slicing predictions of the two
 * shortest known grids A (first in SRTF order) and B, as in the paper's
 * Figure "SRTF versus SRTF/Adaptive":
 *
 * - Per grid, from the predictor state on the SM: n = Total_Blocks -
 *   Done_Blocks blocks left, t the block duration of the current slice,
 *   R the grid's maximum residency.  Its exclusive remaining time is
 *   Equation 1's T = n t / R (T1 for A, T2 for B).
 * - Exclusive (SRTF) slowdowns: A 1, B (T1 + T2) / T2; their difference
 *   is T1 / T2.
 * - Shared slowdowns, with A's residency limited to L =
 *   &gtbs_adaptive.residency (parameter share_residency) (3 by default, "one less than half of the
 *   resources") and B given the rest, R_B' = the blocks of B that fit
 *   beside L blocks of A: TS1 = n_A t_A / L ("simply the runtime for A");
 *   NB1 = TS1 R_B' / t_B, the blocks of B run meanwhile (Equation 1 solved
 *   for N); NB2 = n_B - NB1; TS2 = NB2 t_B / R_B.  A's slowdown is
 *   TS1 / T1, B's (TS1 + TS2) / T2; if NB1 >= n_B, B ends while sharing,
 *   after n_B t_B / R_B', and that over T2 is its slowdown.
 * - The SM shares when the exclusive difference exceeds
 *   &gtbs_adaptive.threshold (parameter share_threshold_ppm; 0.5 by
 *   default, the paper's) and sharing
 *   would be fairer (a smaller difference); otherwise, and as soon as SRTF
 *   is fair again, it returns to exclusive mode.  Switches are counted in
 *   &gtbs_dev.sharing_switches.
 *
 * In sharing mode the SM issues A's blocks up to L resident, then B's;
 * sampling of newcomers goes on as in SRTF.  The exclusive runtimes T1 and
 * T2 are always the current predictions rescaled to full residency, so
 * they stay comparable while a grid runs at a limited residency (the
 * paper: "if there was no exclusive part, current predictions of runtime
 * are used instead").  With more than two grids, only the two shortest
 * share; the rest wait as under SRTF.  The paper's alternative of
 * redistributing resources dynamically was "too slow" there and is not
 * implemented either.
 *
 * The above is the per-SM reading (parameter share_mode ``sm``, %GTBS_SHARE_SM).
 * The device reading (%GTBS_SHARE_DEVICE) follows the paper's text
 * literally, once for the whole device, at every block boundary of any
 * SM:
 *
 * - Of the two grids SRTF considers (the SM's two shortest known grids),
 *   A is the one with the smaller total predicted runtime and B the
 *   other.  A grid's total predicted runtime is the largest Pred_Cycles
 *   (Equation 2) of its Simple Slicing states over the SMs that predicted
 *   it: the SM that finishes it last.  T1 is A's, T2 is B's.  While the
 *   device shares, T1 and T2 stay those of the moment sharing began ("the
 *   exclusive runtime (i.e. T1 or T2) is the prediction from the
 *   exclusive part of a run").
 * - Non-sharing slowdowns: A 1, B (T1 + T2) / T2.  When their difference,
 *   T1 / T2, exceeds &gtbs_adaptive.threshold ("we use 0.5"), the device
 *   enters sharing mode: on every SM A's residency is limited to
 *   &gtbs_adaptive.residency (3) and B takes the rest.
 * - In sharing mode it "continues to monitor slowdowns": TS1 is A's
 *   current total predicted runtime ("simply the runtime for A"); NB1 =
 *   TS1 R' / t_B, with R' the blocks of B that fit beside A's limited
 *   residency and t_B B's block duration (Equation 1 solved for N); NB2 =
 *   N - NB1 with N B's Total_Blocks; TS2 = NB2 t_B / R_B.  The shared
 *   slowdowns are TS1 / T1 and (TS1 + TS2) / T2 (if NB1 >= N, B ends while
 *   sharing, after N t_B / R').  The device returns to exclusive mode
 *   when their difference exceeds both the threshold and the non-sharing
 *   difference (sharing became the unfair schedule; the pair is then not
 *   shared again, so the mode cannot flip at every block boundary), when
 *   A or B ends, or when SRTF's two shortest grids are no longer A and B.
 *   The paper says that it monitors, not what it does with the result:
 *   this exit rule is ours.
 *
 * Every SM's &gtbs_sm.sharing follows the device's mode (each SM sees the
 * change at its next block boundary; nothing is kicked), so the debugfs
 * state and the gputbs:sharing_mode events look the same in both
 * readings; &gtbs_dev.sharing_switches counts the device's switches.
 */
#include "policy_srtf.h"

GTBS_POLICY_PRIV_CHECK(struct gtbs_adaptive, GTBS_POLICY_DEV_PRIV_SIZE);

/* Indices in gtbs_adaptive_params[]. */
enum {
	GTBS_ADAPTIVE_THRESHOLD,
	GTBS_ADAPTIVE_RESIDENCY,
	GTBS_ADAPTIVE_SHARE_MODE,
	GTBS_ADAPTIVE_PREEMPT_RATIO,
	GTBS_ADAPTIVE_PREEMPT_UNKNOWN,
	GTBS_ADAPTIVE_SINGLE_KERNEL,
};

GTBS_POLICY_PRIV_CHECK(struct gtbs_adaptive_sm, GTBS_POLICY_SM_PRIV_SIZE);

static struct gtbs_adaptive *gtbs_ad(const struct gtbs_dev *dev)
{
	return gtbs_policy_priv(dev);
}

static struct gtbs_adaptive_sm *gtbs_ads(const struct gtbs_sm *sm)
{
	return gtbs_policy_priv(sm);
}

/* What the decision needs of one grid on one SM, in cycles and blocks. */
struct gtbs_adaptive_est {
	u64 n;	/* blocks left on the SM: Total_Blocks - Done_Blocks */
	u64 t;	/* block duration of the current slice */
	u32 r;	/* maximum residency R */
	u64 excl;	/* exclusive remaining time, n t / R */
};

static bool gtbs_adaptive_est(const struct gtbs_grid *grid, u32 sm,
			      struct gtbs_adaptive_est *e)
{
	const struct gtbs_pred_sm *pred = gtbs_grid_sm_predicted(grid, sm);

	if (grid->state != GTBS_GRID_RUNNING || !pred || !pred->t)
		return false;
	e->n = pred->total_blocks > pred->done_blocks ?
	       pred->total_blocks - pred->done_blocks : 0;
	e->t = pred->t;
	e->r = grid->occ.residency;
	e->excl = div_u64(e->n * e->t, e->r);
	return e->excl > 0;
}

static u64 gtbs_adaptive_diff(u64 a, u64 b)
{
	return a > b ? a - b : b - a;
}

/*
 * Whether the SM should share between @a (SRTF's first) and @b, with
 * their estimates @ea and @eb.  See the DOC above.
 */
static bool gtbs_adaptive_unfair(const struct gtbs_dev *dev,
				 const struct gtbs_grid *a,
				 const struct gtbs_adaptive_est *ea,
				 const struct gtbs_grid *b,
				 const struct gtbs_adaptive_est *eb)
{
	struct gtbs_footprint used = { 0 };
	u64 excl_diff, ts1, nb1, b_time, sa, sb;
	u32 limit, rb_shared;

	/* exclusive slowdowns 1 and (T1 + T2) / T2 differ by T1 / T2 */
	excl_diff = gtbs_slowdown(ea->excl, eb->excl);
	if (excl_diff <= gtbs_ad(dev)->threshold)
		return false;
	limit = min_t(u64, gtbs_ad(dev)->residency, ea->r);
	gtbs_footprint_add(&used, &a->occ, limit);
	rb_shared = gtbs_footprint_room(&dev->cfg, &b->occ, &used);
	if (!limit || !rb_shared)
		return false;
	ts1 = div_u64(ea->n * ea->t, limit);
	nb1 = mul_u64_u64_div_u64(ts1, rb_shared, eb->t);
	if (nb1 >= eb->n)	/* B ends while sharing */
		b_time = div_u64(eb->n * eb->t, rb_shared);
	else			/* TS1 + TS2 */
		b_time = ts1 + div_u64((eb->n - nb1) * eb->t, eb->r);
	sa = gtbs_slowdown(ts1, ea->excl);
	sb = gtbs_slowdown(b_time, eb->excl);
	return gtbs_adaptive_diff(sa, sb) < excl_diff;
}

/* Decide the SM's mode from SRTF's two shortest grids.  Lock held. */
static void gtbs_adaptive_decide(struct gtbs_dev *dev, struct gtbs_sm *sm,
				 const struct gtbs_srtf_choice *c)
{
	struct gtbs_adaptive_est ea, eb;
	bool share = false;

	if (c->first && c->second) {
		if (!gtbs_adaptive_est(c->first, sm->id, &ea) ||
		    !gtbs_adaptive_est(c->second, sm->id, &eb))
			return;	/* not known here yet: keep the mode */
		share = gtbs_adaptive_unfair(dev, c->first, &ea, c->second,
					     &eb);
	}
	if (share != gtbs_ads(sm)->sharing) {
		gtbs_ads(sm)->sharing = share;
		dev->sharing_switches++;
	}
}

/*
 * struct gtbs_adaptive_grid - SRTF/Adaptive's state of a grid
 * (&gtbs_grid.policy_priv): SRTF's, then the grid's total predicted
 * runtime (gtbs_adaptive_total()) kept as the SMs predict, so that a
 * decision does not read every SM.  @max: the reading; @max_sm: the SM it
 * comes from (the first of the largest), U32_MAX for none yet; @max_valid:
 * @max and @max_sm hold (0: recompute, after the SM holding the largest
 * lowered it, and after an attach).  Protected by the device lock.
 */
struct gtbs_adaptive_grid {
	struct gtbs_srtf_grid srtf;
	struct gtbs_adaptive_total max;
	u32 max_sm;
	u32 max_valid;
};

GTBS_POLICY_PRIV_CHECK(struct gtbs_adaptive_grid, GTBS_POLICY_GRID_PRIV_SIZE);

static struct gtbs_adaptive_grid *gtbs_adg(const struct gtbs_grid *grid)
{
	return gtbs_policy_priv(grid);
}

/* The reading of gtbs_adaptive_total() over every SM: O(SMs). */
static bool gtbs_adaptive_total_scan(const struct gtbs_dev *dev,
				     const struct gtbs_grid *grid,
				     struct gtbs_adaptive_total *e, u32 *sm)
{
	bool found = false;
	u32 i;

	*sm = U32_MAX;
	for (i = 0; i < dev->cfg.nr_sms; i++) {
		const struct gtbs_pred_sm *pred = gtbs_grid_sm_predicted(grid, i);

		if (!pred || !pred->t ||
		    (found && pred->pred_cycles <= e->total))
			continue;
		e->total = pred->pred_cycles;
		e->t = pred->t;
		e->n = pred->total_blocks;
		*sm = i;
		found = true;
	}
	return found;
}

/*
 * A block of @grid ended or was preempted on SM @sm: keep its largest
 * prediction (&gtbs_adaptive_grid.max) as gtbs_adaptive_total_scan()
 * would find it, in O(1), or mark it for a recompute when the SM that held
 * it lowered it.  Lock held.
 */
static void gtbs_adaptive_max_update(struct gtbs_grid *grid, u32 sm)
{
	struct gtbs_adaptive_grid *ag = gtbs_adg(grid);
	const struct gtbs_pred_sm *pred = gtbs_grid_sm_predicted(grid, sm);
	bool have = pred && pred->t;

	if (!ag->max_valid)
		return;
	if (ag->max_sm == sm) {
		if (!have || pred->pred_cycles < ag->max.total) {
			ag->max_valid = 0;
			return;
		}
	} else if (!have || (ag->max_sm != U32_MAX &&
			     (pred->pred_cycles < ag->max.total ||
			      (pred->pred_cycles == ag->max.total &&
			       sm > ag->max_sm)))) {
		return;
	}
	ag->max.total = pred->pred_cycles;
	ag->max.t = pred->t;
	ag->max.n = pred->total_blocks;
	ag->max_sm = sm;
}

static bool gtbs_adaptive_total(const struct gtbs_dev *dev,
				const struct gtbs_grid *grid,
				struct gtbs_adaptive_total *e)
{
	struct gtbs_adaptive_grid *ag = gtbs_adg(grid);
	u32 sm;

	if (grid->state != GTBS_GRID_RUNNING)
		return false;
	if (gtbs_srtf_scan_ref)	/* tests: the reference */
		return gtbs_adaptive_total_scan(dev, grid, e, &sm) &&
		       e->total;
	if (!ag->max_valid) {
		memset(&ag->max, 0, sizeof(ag->max));
		gtbs_adaptive_total_scan(dev, grid, &ag->max, &ag->max_sm);
		ag->max_valid = 1;
	}
	if (ag->max_sm == U32_MAX)
		return false;
	*e = ag->max;
	return e->total;
}

/* &gtbs_policy_ops.grid_update: SRTF's, then the grid's largest prediction. */
static void gtbs_adaptive_grid_update(struct gtbs_dev *dev, struct gtbs_sm *sm,
				      struct gtbs_grid *grid)
{
	gtbs_srtf_grid_update(dev, sm, grid);
	if (sm)
		gtbs_adaptive_max_update(grid, sm->id);
}

/**
 * gtbs_adaptive_dev_unfair() - the device reading's sharing decision
 * @dev: the device, SRTF/Adaptive attached (&gtbs_adaptive.threshold and
 *	&gtbs_adaptive.residency).
 * @a: grid A, the faster one.
 * @b: grid B.
 * @t1: A's exclusive total runtime T1, cycles, >= 1.
 * @t2: B's, T2, cycles, >= 1.
 * @sharing: the device is in sharing mode with A and B.
 * @ts1: A's current total predicted runtime, cycles (used if @sharing).
 * @eb: B's block duration and Total_Blocks (used if @sharing).
 *
 * Paper Section "SRTF/Adaptive" (see the DOC above).  Not sharing: share
 * when T1 / T2, the difference between B's slowdown (T1 + T2) / T2 and
 * A's 1, exceeds the threshold.  Sharing: stay unless the shared slowdowns
 * TS1 / T1 and (TS1 + TS2) / T2 differ by more than the threshold and by
 * more than the non-sharing ones.  Slowdowns in GTBS_FP_ONE fixed point.
 *
 * Context: device lock held.
 * Return: true if the device should be (or stay) in sharing mode.
 */
bool gtbs_adaptive_dev_unfair(const struct gtbs_dev *dev,
			      const struct gtbs_grid *a,
			      const struct gtbs_grid *b, u64 t1, u64 t2,
			      bool sharing, u64 ts1,
			      const struct gtbs_adaptive_total *eb)
{
	struct gtbs_footprint used = { 0 };
	u64 excl_diff, shared_diff, nb1, b_time;
	u32 limit, rb_shared;

	/* B's (T1 + T2) / T2 minus A's 1 */
	excl_diff = gtbs_slowdown(t1, t2);
	if (!sharing)
		return excl_diff > gtbs_ad(dev)->threshold;
	limit = min_t(u64, gtbs_ad(dev)->residency, a->occ.residency);
	gtbs_footprint_add(&used, &a->occ, limit);
	rb_shared = gtbs_footprint_room(&dev->cfg, &b->occ, &used);
	if (!limit || !rb_shared || !eb->t)
		return false;
	nb1 = mul_u64_u64_div_u64(ts1, rb_shared, eb->t);
	if (nb1 >= eb->n)	/* B ends while sharing */
		b_time = div_u64(eb->n * eb->t, rb_shared);
	else			/* TS1 + TS2 */
		b_time = ts1 + div_u64((eb->n - nb1) * eb->t,
				       b->occ.residency);
	shared_diff = gtbs_adaptive_diff(gtbs_slowdown(ts1, t1),
					 gtbs_slowdown(b_time, t2));
	return shared_diff <= gtbs_ad(dev)->threshold ||
	       shared_diff <= excl_diff;
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_adaptive_dev_unfair);

/*
 * Set the device's mode for the pair @a, @b (NULL: no pair); every SM
 * follows.  A pair that left sharing mode stays remembered, with @share
 * false, so that it is not shared again.  Lock held.
 */
static void gtbs_adaptive_dev_mode(struct gtbs_dev *dev, struct gtbs_grid *a,
				   struct gtbs_grid *b, u64 t1, u64 t2,
				   bool share)
{
	struct gtbs_adaptive *ad = gtbs_ad(dev);
	u32 i;

	ad->a = a;
	ad->b = b;
	ad->t1 = t1;
	ad->t2 = t2;
	if (gtbs_ads(dev->sms[0])->sharing == share)
		return;
	for (i = 0; i < dev->cfg.nr_sms; i++)
		gtbs_ads(dev->sms[i])->sharing = share;
	dev->sharing_switches++;
}

/* Decide the device's mode from SRTF's two shortest grids.  Lock held. */
static void gtbs_adaptive_decide_dev(struct gtbs_dev *dev,
				     const struct gtbs_srtf_choice *c)
{
	struct gtbs_adaptive_total e1, e2, *ea = &e1, *eb = &e2;
	struct gtbs_adaptive *ad = gtbs_ad(dev);
	struct gtbs_grid *a = c->first, *b = c->second;
	bool same, sharing = gtbs_ads(dev->sms[0])->sharing;
	u64 t1, t2;

	same = a && b && ((ad->a == a && ad->b == b) ||
			  (ad->a == b && ad->b == a));
	if (same && !sharing)
		return;		/* this pair left sharing mode: not again */
	if (!a || !b || !gtbs_adaptive_total(dev, a, &e1) ||
	    !gtbs_adaptive_total(dev, b, &e2)) {
		/* no pair, or not known yet: keep the mode only for the pair */
		if (!same)
			gtbs_adaptive_dev_mode(dev, NULL, NULL, 0, 0, false);
		return;
	}
	/* same pair: A and B keep their roles and exclusive runtimes */
	if (same ? ad->a != a : e2.total < e1.total) {
		a = c->second;
		b = c->first;
		ea = &e2;
		eb = &e1;
	}
	t1 = same ? ad->t1 : ea->total;
	t2 = same ? ad->t2 : eb->total;
	if (gtbs_adaptive_dev_unfair(dev, a, b, t1, t2, same, ea->total, eb))
		gtbs_adaptive_dev_mode(dev, a, b, t1, t2, true);
	else if (same)
		gtbs_adaptive_dev_mode(dev, a, b, t1, t2, false);
	else
		gtbs_adaptive_dev_mode(dev, NULL, NULL, 0, 0, false);
}

static struct gtbs_grid *gtbs_adaptive_pick_grid(struct gtbs_dev *dev,
						 struct gtbs_sm *sm,
						 u32 *reason)
{
	struct gtbs_adaptive *ad = gtbs_ad(dev);
	bool *sharing = &gtbs_ads(sm)->sharing;
	struct gtbs_srtf_choice c;
	struct gtbs_grid *a;

	gtbs_srtf_choose(dev, sm, &c);
	if (c.sampled) {
		*reason = c.sampling ? GTBS_PICK_SAMPLE :
		  *sharing ? GTBS_PICK_SHARE : GTBS_PICK_SHORTER;
		return c.sampled;
	}
	if (ad->share_mode == GTBS_SHARE_DEVICE) {
		gtbs_adaptive_decide_dev(dev, &c);
		*reason = *sharing ? GTBS_PICK_SHARE : GTBS_PICK_SHORTER;
		a = ad->a;
		if (!a || !*sharing)
			return c.first && !gtbs_srtf_held(dev, sm, c.first) ?
			       c.first : NULL;
		return gtbs_grid_sm_resident(a, sm->id) <
		       min_t(u64, ad->residency, a->occ.residency) ?
		       a : ad->b;
	}
	gtbs_adaptive_decide(dev, sm, &c);
	*reason = *sharing ? GTBS_PICK_SHARE : GTBS_PICK_SHORTER;
	if (!*sharing)
		return c.first && !gtbs_srtf_held(dev, sm, c.first) ?
		       c.first : NULL;
	if (gtbs_grid_sm_resident(c.first, sm->id) <
	    min_t(u64, ad->residency, c.first->occ.residency))
		return c.first;
	return c.second;
}

/* Every SM and the device exclusive; no switch counted.  Lock held. */
static void gtbs_adaptive_reset(struct gtbs_dev *dev)
{
	struct gtbs_adaptive *ad = gtbs_ad(dev);
	u32 i;

	ad->a = NULL;
	ad->b = NULL;
	ad->t1 = 0;
	ad->t2 = 0;
	for (i = 0; i < dev->cfg.nr_sms; i++)
		gtbs_ads(dev->sms[i])->sharing = false;
}

/* A grid left: the device stops sharing if it was A or B. */
static void gtbs_adaptive_grid_end(struct gtbs_dev *dev,
				   struct gtbs_grid *grid)
{
	struct gtbs_adaptive *ad = gtbs_ad(dev);

	gtbs_srtf_grid_end(dev, grid);
	if (ad->a == grid || ad->b == grid)
		gtbs_adaptive_dev_mode(dev, NULL, NULL, 0, 0, false);
}

static bool gtbs_adaptive_sm_sharing(const struct gtbs_dev *dev,
				     const struct gtbs_sm *sm)
{
	return gtbs_ads(sm)->sharing;
}

/* The value names of share_mode, &enum gtbs_share_mode. */
static const char * const gtbs_share_mode_names[] = {
	[GTBS_SHARE_DEVICE] = "device",
	[GTBS_SHARE_SM] = "sm",
	NULL,
};

/* A parameter changed: share_mode restarts the decision from exclusive. */
static void gtbs_adaptive_param_set(struct gtbs_dev *dev, u32 index, u64 now)
{
	if (index != GTBS_ADAPTIVE_SHARE_MODE)
		return;
	gtbs_adaptive_reset(dev);
	gtbs_dev_kick(dev, now);
}

/**
 * gtbs_share_mode_name() - the name of an SRTF/Adaptive reading
 * @mode: an &enum gtbs_share_mode.
 *
 * Context: any.
 * Return: "device" or "sm" (the value names of the parameter
 * ``share_mode``), NULL for an unknown @mode.
 */
const char *gtbs_share_mode_name(u32 mode)
{
	return mode < GTBS_NR_SHARE_MODES ? gtbs_share_mode_names[mode] : NULL;
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_share_mode_name);

/*
 * SRTF/Adaptive's parameters (paper Section "SRTF/Adaptive": "a threshold
 * of 0.5" and "one less than half of the resources", 3 blocks).
 */
static const struct gtbs_policy_param gtbs_adaptive_params[] = {
	[GTBS_ADAPTIVE_THRESHOLD] = {
		.name = "share_threshold_ppm",
		.unit = "ppm",
		.doc = "largest fair difference of the two grids' slowdowns (paper: 0.5)",
		.min = 0,
		.max = 100 * GTBS_FP_ONE,
		.def = GTBS_FP_ONE / 2,
		.offset = offsetof(struct gtbs_adaptive, threshold),
	},
	[GTBS_ADAPTIVE_RESIDENCY] = {
		.name = "share_residency",
		.unit = "blocks",
		.doc = "residency limit of the fastest grid while sharing (paper: 3)",
		.min = 1,
		.max = GTBS_MAX_BLOCKS_PER_SM,
		.def = 3,
		.offset = offsetof(struct gtbs_adaptive, residency),
	},
	[GTBS_ADAPTIVE_SHARE_MODE] = {
		.name = "share_mode",
		.unit = "",
		.doc = "device: one decision (the paper's text); sm: each SM decides",
		.min = 0,
		.max = GTBS_NR_SHARE_MODES - 1,
		.def = GTBS_SHARE_MODE_DEFAULT,
		.names = gtbs_share_mode_names,
		.offset = offsetof(struct gtbs_adaptive, share_mode),
	},
	[GTBS_ADAPTIVE_PREEMPT_RATIO] = GTBS_SRTF_PREEMPT_PARAM,
	[GTBS_ADAPTIVE_PREEMPT_UNKNOWN] = GTBS_SRTF_UNKNOWN_PARAM,
	[GTBS_ADAPTIVE_SINGLE_KERNEL] =
		GTBS_SINGLE_KERNEL_PARAM(offsetof(struct gtbs_srtf,
						  single_kernel)),
};

/* SRTF/Adaptive policy ops (paper Section "SRTF/Adaptive"). */
const struct gtbs_policy_ops gtbs_policy_srtf_adaptive = {
	.name = "srtf-adaptive",
	.owner = THIS_MODULE,
	.pick_grid = gtbs_adaptive_pick_grid,
	.attach = gtbs_srtf_attach,
	.grid_arrive = gtbs_srtf_grid_arrive,
	.grid_end = gtbs_adaptive_grid_end,
	.predict = gtbs_srtf_predict,
	.grid_update = gtbs_adaptive_grid_update,
	.param_set = gtbs_adaptive_param_set,
	.sm_sharing = gtbs_adaptive_sm_sharing,
	.grid_state = gtbs_srtf_grid_state,
	.may_preempt = gtbs_srtf_may_preempt,
	.dev_priv_size = sizeof(struct gtbs_adaptive),
	.sm_priv_size = sizeof(struct gtbs_adaptive_sm),
	.grid_priv_size = sizeof(struct gtbs_adaptive_grid),
	.grid_sm_priv_size = sizeof(struct gtbs_srtf_grid_sm),
	.params = gtbs_adaptive_params,
	.nr_params = ARRAY_SIZE(gtbs_adaptive_params),
};
EXPORT_SYMBOL_IF_KUNIT(gtbs_policy_srtf_adaptive);
