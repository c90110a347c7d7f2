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
 *   &gtbs_dev.share_residency (3 by default, "one less than half of the
 *   resources") and B given the rest, R_B' = the blocks of B that fit
 *   beside L blocks of A: TS1 = n_A t_A / L ("simply the runtime for A");
 *   NB1 = TS1 R_B' / t_B, the blocks of B run meanwhile (Equation 1 solved
 *   for N); NB2 = n_B - NB1; TS2 = NB2 t_B / R_B.  A's slowdown is
 *   TS1 / T1, B's (TS1 + TS2) / T2; if NB1 >= n_B, B ends while sharing,
 *   after n_B t_B / R_B', and that over T2 is its slowdown.
 * - The SM shares when the exclusive difference exceeds
 *   &gtbs_dev.share_threshold (0.5 by default, the paper's) and sharing
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
 */
#include "policy_srtf.h"

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
	const struct gtbs_pred_sm *pred = &grid->sm[sm].pred;

	if (grid->state != GTBS_GRID_RUNNING || !pred->predicted || !pred->t)
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
	if (excl_diff <= dev->share_threshold)
		return false;
	limit = min(dev->share_residency, ea->r);
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
	if (share != sm->sharing) {
		sm->sharing = share;
		dev->sharing_switches++;
	}
}

static struct gtbs_grid *gtbs_adaptive_pick_grid(struct gtbs_dev *dev,
						 struct gtbs_sm *sm)
{
	struct gtbs_srtf_choice c;

	gtbs_srtf_choose(dev, sm, &c);
	if (c.sampled)
		return c.sampled;
	gtbs_adaptive_decide(dev, sm, &c);
	if (!sm->sharing ||
	    c.first->sm[sm->id].resident <
	    min(dev->share_residency, c.first->occ.residency))
		return c.first;
	return c.second;
}

/* Selected: SRTF's state, and every SM starts exclusive. */
static void gtbs_adaptive_attach(struct gtbs_dev *dev)
{
	u32 i;

	gtbs_srtf_attach(dev);
	for (i = 0; i < dev->cfg.nr_sms; i++)
		dev->sms[i]->sharing = false;
}

/* SRTF/Adaptive policy ops (paper Section "SRTF/Adaptive"). */
const struct gtbs_policy_ops gtbs_policy_srtf_adaptive = {
	.name = "srtf-adaptive",
	.pick_grid = gtbs_adaptive_pick_grid,
	.attach = gtbs_adaptive_attach,
	.grid_end = gtbs_srtf_grid_end,
	.predict = gtbs_srtf_predict,
};
EXPORT_SYMBOL_IF_KUNIT(gtbs_policy_srtf_adaptive);
