// SPDX-License-Identifier: GPL-2.0
/*
 * reference.c - the paper's numbers and the results derived from the sweep
 * that every printer shares: the geomeans of the paper's Tables
 * (sim_paper_value()), Section "Motivation"'s experiment (sim_motiv_calc())
 * and the fixed-point conversion (sim_fp()).  output.c, paper.c and plot.c
 * read them; none of them is read here, so results flow one way: eval.c
 * and this file, then the printers.
 *
 * The paper's numbers are those of its Tables "Geomean STP, ANTT and
 * Fairness" (offset 0) and "... when second kernel arrives at 25% and 50%
 * of first kernel's runtime"; srtf-oracle's are those of the
 * zero-sampling experiment (Section "System Throughput": STP 1.64, ANTT
 * 1.33, no fairness given) and LJF's STP that of Section "Motivation"
 * (1.16, the serial LJF schedule).  A value the paper does not give is NAN.
 *
 * Copyright (C) 2026 The gputbs developers
 */
#include <math.h>
#include <string.h>

#include "eval.h"

static const struct {
	const char *policy;	/* our name */
	const char *paper;	/* the paper's */
	unsigned int offset;
	struct sim_paper v;
} sim_paper_table[] = {
	{ "fifo", "FIFO", 0, { 1.35, 3.66, 0.19 } },
	{ "mpmax", "MPMax", 0, { 1.37, 2.15, 0.36 } },
	{ "srtf", "SRTF", 0, { 1.59, 1.63, 0.52 } },
	{ "srtf-adaptive", "SRTF/Adaptive", 0, { 1.51, 1.64, 0.56 } },
	{ "srtf-oracle", "SRTF/ZeroSamp", 0, { 1.64, 1.33, NAN } },
	{ "sjf", "SJF", 0, { 1.82, 1.13, 0.80 } },
	{ "ljf", "LJF", 0, { 1.16, NAN, NAN } },
	{ "fifo", "FIFO", 25, { 1.44, 2.74, 0.27 } },
	{ "mpmax", "MPMax", 25, { 1.45, 2.05, 0.38 } },
	{ "srtf", "SRTF", 25, { 1.62, 1.60, 0.53 } },
	{ "srtf-adaptive", "SRTF/Adaptive", 25, { 1.56, 1.65, 0.56 } },
	{ "fifo", "FIFO", 50, { 1.48, 2.36, 0.32 } },
	{ "mpmax", "MPMax", 50, { 1.49, 1.93, 0.40 } },
	{ "srtf", "SRTF", 50, { 1.63, 1.56, 0.55 } },
	{ "srtf-adaptive", "SRTF/Adaptive", 50, { 1.59, 1.58, 0.59 } },
};

/**
 * sim_paper_value() - the paper's geomeans of a policy at an offset
 * @policy: our policy name.
 * @offset: 0, 25 or 50 (percent).
 *
 * Return: the values, or NULL where the paper has none.
 */
const struct sim_paper *sim_paper_value(const char *policy,
					unsigned int offset)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sim_paper_table); i++)
		if (sim_paper_table[i].offset == offset &&
		    !strcmp(sim_paper_table[i].policy, policy))
			return &sim_paper_table[i].v;
	return NULL;
}

/**
 * sim_paper_name() - the paper's name of a policy
 * @policy: our name.
 *
 * Return: e.g. "SRTF/Adaptive" for "srtf-adaptive", or @policy itself.
 */
const char *sim_paper_name(const char *policy)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sim_paper_table); i++)
		if (!strcmp(sim_paper_table[i].policy, policy))
			return sim_paper_table[i].paper;
	return policy;
}

/**
 * sim_fp() - a GTBS_FP_ONE fixed-point value as a double
 * @fp: the value.
 *
 * Return: @fp / GTBS_FP_ONE.
 */
double sim_fp(u64 fp)
{
	return (double)fp / GTBS_FP_ONE;
}

const char * const sim_motiv_keys[SIM_MOTIV_COLS] = {
	"sjf", "fifo", "fifo_serial", "ljf",
};

/* The paper's geomeans: its FIFO is serial ("the same as either of SJF or
 * LJF depending on the order of arrival"), so it heads both FIFO columns.
 */
const double sim_motiv_paper[SIM_MOTIV_COLS] = {
	1.82, 1.58, 1.58, 1.16,
};

static const char * const sim_motiv_names[] = { "sjf", "fifo", "ljf" };

static bool sim_same_stp(u64 a, u64 b)
{
	return (a > b ? a - b : b - a) * 100 <= GTBS_FP_ONE;
}

/**
 * sim_motiv_pair() - whether a pair is one of the Section "Motivation"
 * @ev: the sweep.
 * @i: index in &sim_eval.pairs.
 *
 * Return: true when A's paper name (wl_program_paper()) sorts before B's.
 */
bool sim_motiv_pair(const struct sim_eval *ev, unsigned int i)
{
	const struct sim_pair *pair = &ev->pairs[i];

	return strcmp(wl_program_paper(ev->progs[pair->a]),
		      wl_program_paper(ev->progs[pair->b])) < 0;
}

/* A program's alone runtime by its grids' expect=, 0 if one has none. */
static u64 sim_expect_runtime(const struct wl_program *prog)
{
	unsigned int k;
	u64 sum = 0;

	for (k = 0; k < prog->nr_grids; k++) {
		if (!prog->grids[k].expect)
			return 0;
		sum += prog->grids[k].expect;
	}
	return sum;
}

/*
 * The serial FIFO's STP of a pair whose programs run @ta and @tb cycles
 * alone, the second arriving at @d: A alone from 0 to ta, then B alone, so
 * B's turnaround is max(ta, d) + tb - d.  Fixed point, gtbs_metrics_calc().
 */
static u64 sim_motiv_serial(u64 ta, u64 tb, u64 d)
{
	u64 alone[2] = { ta, tb }, shared[2] = { ta, max(ta, d) + tb - d };
	struct gtbs_metrics m;

	if (gtbs_metrics_calc(alone, shared, 2, &m))
		return 0;
	return m.stp;
}

/**
 * sim_motiv_stp() - the STPs of one pair in the Section "Motivation"
 * @ev: the sweep.
 * @m: from sim_motiv_calc().
 * @i: index in &sim_eval.pairs.
 * @v: out: STP (fixed point, GTBS_FP_ONE) under sjf, fifo (the device's),
 *	the serial FIFO (A alone, then B, from the alone runtimes) and ljf,
 *	at offset 0.
 */
void sim_motiv_stp(const struct sim_eval *ev, const struct sim_motiv *m,
		   unsigned int i, u64 v[SIM_MOTIV_COLS])
{
	const struct sim_pair *pair = &ev->pairs[i];

	v[0] = sim_result_at(ev, m->o, m->pol[0], i)->metrics.stp;
	v[1] = sim_result_at(ev, m->o, m->pol[1], i)->metrics.stp;
	v[2] = sim_motiv_serial(ev->alone[pair->a].progs[0].turnaround,
				ev->alone[pair->b].progs[0].turnaround,
				sim_arrival(ev, 0, pair->a));
	v[3] = sim_result_at(ev, m->o, m->pol[2], i)->metrics.stp;
}

/**
 * sim_motiv_calc() - the paper's Section "Motivation" experiment
 * @ev: the sweep, run or read back.
 * @m: out: the section (&struct sim_motiv).
 *
 * Return: whether the sweep holds it: offset 0 and the policies sjf, fifo
 * and ljf, and at least one pair.
 */
bool sim_motiv_calc(const struct sim_eval *ev, struct sim_motiv *m)
{
	double ls[SIM_MOTIV_COLS] = { 0 }, le = 0;
	bool expect = true;
	unsigned int i, k, p;

	memset(m, 0, sizeof(*m));
	for (m->o = 0; m->o < ev->nr_offsets && ev->offsets[m->o]; m->o++)
		;
	if (m->o == ev->nr_offsets)
		return false;
	for (k = 0; k < 3; k++) {
		for (p = 0; p < ev->nr_policies; p++)
			if (!strcmp(ev->policies[p]->name, sim_motiv_names[k]))
				break;
		if (p == ev->nr_policies)
			return false;
		m->pol[k] = p;
	}
	for (i = 0; i < ev->nr_pairs; i++) {
		const struct sim_pair *pair = &ev->pairs[i];
		u64 v[SIM_MOTIV_COLS], ta, tb, e;

		if (!sim_motiv_pair(ev, i))
			continue;
		sim_motiv_stp(ev, m, i, v);
		for (k = 0; k < SIM_MOTIV_COLS; k++)
			ls[k] += log(sim_fp(v[k]));
		m->n++;
		ta = sim_expect_runtime(ev->progs[pair->a]);
		tb = sim_expect_runtime(ev->progs[pair->b]);
		e = ta && tb ? sim_motiv_serial(ta, tb, SIM_OFFSET0_CYCLES) : 0;
		if (e)
			le += log(sim_fp(e));
		else
			expect = false;
		if (sim_same_stp(v[0], v[3])) {
			m->sjf_ljf++;
			continue;
		}
		for (k = 0; k < 2; k++) {
			if (sim_same_stp(v[1 + k], v[0]))
				m->fifo_sjf[k]++;
			else if (sim_same_stp(v[1 + k], v[3]))
				m->fifo_ljf[k]++;
		}
	}
	for (k = 0; k < SIM_MOTIV_COLS && m->n; k++)
		m->gm[k] = exp(ls[k] / m->n);
	m->gm_expect = expect && m->n ? exp(le / m->n) : NAN;
	return m->n > 0;
}
