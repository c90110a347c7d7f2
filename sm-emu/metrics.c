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

/**
 * gtbs_slowdown() - slowdown of one program
 * @shared: turnaround time when sharing the device, any unit.
 * @alone: runtime alone, same unit, > 0.
 *
 * Context: any.
 * Return: @shared / @alone in GTBS_FP_ONE units (normalised turnaround
 * time, paper Section "Evaluation"); 0 if @alone is 0.  @shared is bounded
 * by 2^44 so the product cannot overflow.
 */
u64 gtbs_slowdown(u64 shared, u64 alone)
{
	if (!alone)
		return 0;
	shared = min(shared, 1ULL << 44);
	return div64_u64(shared * GTBS_FP_ONE + alone / 2, alone);
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
	u64 sum_sd = 0, stp = 0;
	u32 i;

	if (!n || n > 1024)
		return -EINVAL;
	memset(m, 0, sizeof(*m));
	m->min_slowdown = U64_MAX;
	for (i = 0; i < n; i++) {
		u64 sd;

		if (!alone[i] || !shared[i])
			return -EINVAL;
		sd = gtbs_slowdown(shared[i], alone[i]);
		stp += gtbs_slowdown(alone[i], shared[i]);
		sum_sd += sd;
		m->min_slowdown = min(m->min_slowdown, sd);
		m->max_slowdown = max(m->max_slowdown, sd);
	}
	m->stp = stp;
	m->antt = div_u64(sum_sd + n / 2, n);
	if (m->min_slowdown <= U64_MAX / GTBS_FP_ONE)
		m->strictf = div64_u64(m->min_slowdown * GTBS_FP_ONE +
				       m->max_slowdown / 2, m->max_slowdown);
	else
		m->strictf = div64_u64(m->min_slowdown,
				       div64_u64(m->max_slowdown, GTBS_FP_ONE));
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_metrics_calc);
