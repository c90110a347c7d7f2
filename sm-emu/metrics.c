// SPDX-License-Identifier: GPL-2.0
/*
 * metrics.c - multiprogram metrics of the paper's Section "Evaluation".
 *
 * STP and ANTT follow Eyerman and Eeckhout (IEEE Micro 2008); StrictF is
 * the ratio of the smallest to the largest slowdown (Vandierendonck and
 * Seznec 2011).  All values are fixed point with GTBS_FP_ONE = 1.0, so the
 * same code runs in the kernel, which has no floating point.
 *
 * Copyright (C) 2026 The gputbs developers
 */
#include "gtbs.h"

/* @a / @b in GTBS_FP_ONE units, rounded to nearest, saturated.  @b > 0. */
static u64 gtbs_ratio_fp(u64 a, u64 b)
{
	u64 q = div64_u64(a, b), r = a - q * b;
	u64 frac;

	if (q > (U64_MAX - GTBS_FP_ONE) / GTBS_FP_ONE)
		return U64_MAX;
	/* r < b: r * 10^6 / b without overflowing r * 10^6 */
	frac = mul_u64_u64_div_u64(r, GTBS_FP_ONE, b);
	if (mul_u64_u64_div_u64(r, 2 * GTBS_FP_ONE, b) - 2 * frac >= 1)
		frac++;	/* round half up */
	return q * GTBS_FP_ONE + frac;
}

static u64 gtbs_add_sat(u64 a, u64 b)
{
	return a > U64_MAX - b ? U64_MAX : a + b;
}

/**
 * gtbs_slowdown() - slowdown of one program
 * @shared: turnaround time when sharing the device, any unit.
 * @alone: runtime alone, same unit, > 0.
 *
 * Context: any.
 * Return: @shared / @alone in GTBS_FP_ONE units, rounded to nearest
 * (normalised turnaround time, paper Section "Evaluation"); 0 if @alone is
 * 0; U64_MAX if the ratio does not fit.
 */
u64 gtbs_slowdown(u64 shared, u64 alone)
{
	if (!alone)
		return 0;
	return gtbs_ratio_fp(shared, alone);
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_slowdown);

/**
 * gtbs_metrics_calc() - STP, ANTT and StrictF of one workload
 * @alone: runtime of each program alone, n entries, > 0.
 * @shared: turnaround of each program in the multiprogram run, n entries.
 * @n: programs, 1..1024.
 * @m: out: the metrics.
 *
 * STP = sum(alone_i / shared_i); ANTT = (1/n) sum(shared_i / alone_i);
 * StrictF = min_i(slowdown_i) / max_i(slowdown_i) with slowdown_i =
 * shared_i / alone_i.  Paper Section "Evaluation".
 *
 * Context: any.
 * Return: 0, or -EINVAL if @n is out of range or a runtime is zero.
 */
int gtbs_metrics_calc(const u64 *alone, const u64 *shared, u32 n,
		      struct gtbs_metrics *m)
{
	u64 mean_q = 0, mean_r = 0, stp = 0;
	u32 i;

	if (!n || n > 1024)
		return -EINVAL;
	memset(m, 0, sizeof(*m));
	m->min_slowdown = U64_MAX;
	for (i = 0; i < n; i++) {
		u64 sd;

		if (!alone[i] || !shared[i])
			return -EINVAL;
		sd = gtbs_ratio_fp(shared[i], alone[i]);
		stp = gtbs_add_sat(stp, gtbs_ratio_fp(alone[i], shared[i]));
		/* ANTT = sum(sd / n) + sum(sd % n) / n: no intermediate wraps */
		mean_q = gtbs_add_sat(mean_q, div_u64(sd, n));
		mean_r += sd % n;
		m->min_slowdown = min(m->min_slowdown, sd);
		m->max_slowdown = max(m->max_slowdown, sd);
	}
	m->stp = stp;
	m->antt = gtbs_add_sat(mean_q, div_u64(mean_r + n / 2, n));
	m->strictf = m->max_slowdown ?
		gtbs_ratio_fp(m->min_slowdown, m->max_slowdown) : GTBS_FP_ONE;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_metrics_calc);

/**
 * gtbs_grid_pred_final() - a grid's latest runtime prediction
 * @cfg: device configuration (unused: the SMs without a pair never
 *	predicted).
 * @grid: a grid that has run (its per-SM predictor states are kept after
 *	it completes).
 *
 * The grid ends with its slowest SM, so its prediction is the largest,
 * over the SMs that predicted, of their latest Pred_Cycles (paper Section
 * "Predictor Accuracy"; the same rule as ``gputbs predict``).  Together
 * with &gtbs_grid.first_pred it gives the predictor's accuracy:
 * prediction / actual runtime, gtbs_slowdown(pred, end - start).
 *
 * Context: any; the caller serialises access to @grid.
 * Return: cycles, or 0 if no SM predicted.
 */
u64 gtbs_grid_pred_final(const struct gtbs_dev_config *cfg,
			 const struct gtbs_grid *grid)
{
	const struct gtbs_grid_sm *gs;
	u64 pred = 0;

	/* the SMs without a pair never predicted */
	list_for_each_entry(gs, &grid->sms, node)
		if (gs->pred.predicted)
			pred = max(pred, gs->pred.pred_cycles);
	return pred;
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_grid_pred_final);
