// SPDX-License-Identifier: GPL-2.0
/*
 * output.c - text and JSON of the evaluation sweep.
 *
 * Every per-pair number is the portable core's: cycles as integers,
 * slowdowns and prediction ratios from gtbs_slowdown(), STP, ANTT and
 * StrictF from gtbs_metrics_calc(), all fixed point (GTBS_FP_ONE) and
 * printed from that value (three decimals in text, six exact decimals in
 * JSON).  Only the geometric means over the pairs use floating point, as
 * in "gputbs run".  The paper's numbers are those of its Tables "Geomean
 * STP, ANTT and Fairness" (offset 0) and "... when second kernel arrives
 * at 25% and 50% of first kernel's runtime"; srtf-oracle's are those of
 * the zero-sampling experiment (Section "System Throughput": STP 1.64,
 * ANTT 1.33, no fairness given) and LJF's STP that of Section "Motivation"
 * (1.16, the serial LJF schedule; over the 56 pairs it is the same to two
 * decimals).  A value the paper does not give is NAN: "-" and null.
 *
 * Copyright (C) 2026 The gputbs developers
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>

#include "../json.h"
#include "args.h"
#include "output.h"
#include "paper.h"

static const char *sim_policy(const struct sim_eval *ev, unsigned int p)
{
	return ev->policies[p]->name;
}

static const struct sim_geomean *sim_gm(const struct sim_eval *ev,
					unsigned int o, unsigned int p)
{
	return &ev->geomeans[o * ev->nr_policies + p];
}

/* "0" or "25%", the way offsets are printed. */
static const char *sim_offset_str(unsigned int offset, char *buf, size_t len)
{
	if (offset)
		snprintf(buf, len, "%u%%", offset);
	else
		snprintf(buf, len, "0");
	return buf;
}

/* Widths of the pair, program and grid columns. */
struct sim_widths {
	int pair, prog, grid;
};

/* Widen @width to hold @s. */
static void sim_widen(int *width, const char *s)
{
	int n = strlen(s);

	if (n > *width)
		*width = n;
}

static void sim_widths(const struct sim_eval *ev, struct sim_widths *w)
{
	unsigned int i, k;

	w->pair = strlen("pair");
	w->prog = strlen("program");
	w->grid = strlen("(program)");
	for (i = 0; i < ev->nr_pairs; i++)
		sim_widen(&w->pair, ev->pairs[i].name);
	for (i = 0; i < ev->nr_progs; i++) {
		sim_widen(&w->prog, ev->progs[i]->name);
		for (k = 0; k < ev->progs[i]->nr_grids; k++)
			sim_widen(&w->grid, ev->progs[i]->grids[k].label);
	}
}

static void sim_alone_text(FILE *f, const struct sim_eval *ev,
			   const struct sim_widths *w)
{
	unsigned int i, k;

	fprintf(f, "alone runtimes (fifo, each program alone on %s; paper: expect= of the file)\n",
		ev->module ? "the idle module" : "a fresh device");
	fprintf(f, "  %-*s  %-*s  %2s  %7s  %11s  %11s  %8s\n", w->prog,
		"program", w->grid, "grid", "R", "blocks", "alone(cyc)",
		"paper(cyc)", "diff");
	for (i = 0; i < ev->nr_progs; i++) {
		const struct wl_program *prog = ev->progs[i];
		const struct sim_prog_out *po = &ev->alone[i].progs[0];

		for (k = 0; k < prog->nr_grids; k++) {
			const struct wl_grid *g = &prog->grids[k];
			u64 alone = ev->alone_grids[i][k];

			fprintf(f, "  %-*s  %-*s  %2u  %7u  %11" PRIu64,
				w->prog, prog->name, w->grid, g->label,
				po->grids[k].residency, g->nr_blocks,
				(uint64_t)alone);
			if (g->expect)
				fprintf(f, "  %11" PRIu64 "  %+7.1f%%\n",
					(uint64_t)g->expect,
					100.0 * ((double)alone - g->expect) /
					g->expect);
			else
				fprintf(f, "  %11s  %8s\n", "-", "-");
		}
		if (prog->nr_grids > 1)
			fprintf(f, "  %-*s  %-*s  %2s  %7s  %11" PRIu64 "\n",
				w->prog, prog->name, w->grid, "(program)", "",
				"", (uint64_t)po->turnaround);
	}
}

/* "123456  1.234" for a prediction and its ratio to @actual, or dashes. */
static void sim_pred_text(FILE *f, u64 pred, u64 actual)
{
	if (!pred || !actual) {
		fprintf(f, "  %11s  %9s", "-", "-");
		return;
	}
	fprintf(f, "  %11" PRIu64 "  %9.3f", (uint64_t)pred,
		sim_fp(gtbs_slowdown(pred, actual)));
}

static void sim_pair_text(FILE *f, const struct sim_eval *ev,
			  const struct sim_result *res,
			  const struct sim_pair *pair,
			  const struct sim_widths *w)
{
	const unsigned int idx[2] = { pair->a, pair->b };
	bool first = true;
	unsigned int r, k;

	for (r = 0; r < 2; r++) {
		const struct wl_program *prog = ev->progs[idx[r]];
		const struct sim_prog_out *po = &res->out.progs[r];

		for (k = 0; k < prog->nr_grids; k++) {
			const struct sim_grid_out *g = &po->grids[k];
			u64 alone = ev->alone_grids[idx[r]][k];
			u64 shared = g->end_cycle - g->submit_cycle;
			u64 actual = g->end_cycle - g->start_cycle;

			fprintf(f, "  %-*s  %-*s  %-*s  %11" PRIu64 "  %11"
				PRIu64 "  %11" PRIu64 "  %8.3f  %11" PRIu64,
				w->pair, first ? pair->name : "", w->prog,
				prog->name, w->grid, prog->grids[k].label,
				(uint64_t)g->submit_cycle, (uint64_t)alone,
				(uint64_t)shared,
				sim_fp(gtbs_slowdown(shared, alone)),
				(uint64_t)actual);
			sim_pred_text(f, g->first_pred, actual);
			sim_pred_text(f, g->final_pred, actual);
			if (first)
				fprintf(f, "  %6.3f  %6.3f  %7.3f",
					sim_fp(res->metrics.stp),
					sim_fp(res->metrics.antt),
					sim_fp(res->metrics.strictf));
			fputc('\n', f);
			first = false;
		}
		if (prog->nr_grids > 1)
			fprintf(f, "  %-*s  %-*s  %-*s  %11" PRIu64 "  %11"
				PRIu64 "  %11" PRIu64 "  %8.3f\n", w->pair, "",
				w->prog, prog->name, w->grid, "(program)",
				(uint64_t)po->grids[0].submit_cycle,
				(uint64_t)res->alone[r],
				(uint64_t)po->turnaround,
				sim_fp(gtbs_slowdown(po->turnaround,
						     res->alone[r])));
	}
}

static void sim_pairs_text(FILE *f, const struct sim_eval *ev,
			   unsigned int o, unsigned int p,
			   const struct sim_widths *w)
{
	unsigned int i, sharing = 0;

	if (ev->offsets[o])
		fprintf(f, "\noffset %u%%, policy %s: the second program arrives at %u%% of the first one's alone runtime\n",
			ev->offsets[o], sim_policy(ev, p), ev->offsets[o]);
	else
		fprintf(f, "\noffset 0, policy %s: the second program arrives at cycle %u\n",
			sim_policy(ev, p), SIM_OFFSET0_CYCLES);
	fprintf(f, "  %-*s  %-*s  %-*s  %11s  %11s  %11s  %8s  %11s  %11s  %9s  %11s  %9s  %6s  %6s  %7s\n",
		w->pair, "pair", w->prog, "program", w->grid, "grid",
		"arrive(cyc)", "alone(cyc)", "shared(cyc)", "slowdown",
		"actual(cyc)", "first(cyc)", "first/act", "final(cyc)",
		"final/act", "STP", "ANTT", "StrictF");
	for (i = 0; i < ev->nr_pairs; i++) {
		const struct sim_result *res = sim_result_at(ev, o, p, i);

		sim_pair_text(f, ev, res, &ev->pairs[i], w);
		sharing += res->out.sharing_switches != 0;
	}
	fprintf(f, "  %-*s  STP %.3f  ANTT %.3f  StrictF %.3f\n", w->pair,
		"geomean", sim_gm(ev, o, p)->stp, sim_gm(ev, o, p)->antt,
		sim_gm(ev, o, p)->strictf);
	if (sharing)
		fprintf(f, "  %-*s  SMs switched into sharing mode in %u of the %u pairs\n",
			w->pair, "", sharing, ev->nr_pairs);
}

/* A paper value with two decimals, or "-" where it gives none (NAN). */
static const char *sim_paper_str(double v, char *buf)
{
	if (isnan(v))
		return "-";
	snprintf(buf, 16, "%.2f", v);
	return buf;
}

static void sim_geomeans_text(FILE *f, const struct sim_eval *ev)
{
	const struct sim_paper *pv;
	const struct sim_geomean *gm;
	char pstp[16], pantt[16], pf[16];
	unsigned int o, p;
	char off[16];

	fprintf(f, "\ngeomeans over %u pairs, ours beside the paper's (Table \"Geomean STP, ANTT and\n"
		"Fairness\" at offset 0, the arrival offset Table at 25%% and 50%%; \"-\": not in the paper)\n",
		ev->nr_pairs);
	if (ev->modes.preempt_mode != GTBS_PREEMPT_DRAIN)
		fprintf(f, "preemption: %s at %u bytes per cycle per SM%s (the paper's scheduler drains)\n",
			gtbs_preempt_mode_name(ev->modes.preempt_mode),
			ev->modes.switch_bw ?: GTBS_SWITCH_BYTES_PER_CYCLE_DEFAULT,
			ev->modes.idempotent ? ", every grid idempotent" : "");
	fprintf(f, "  %-6s  %-14s  %6s  %6s  %7s  |  %-13s  %5s  %5s  %7s\n",
		"offset", "policy", "STP", "ANTT", "StrictF", "paper",
		"STP", "ANTT", "StrictF");
	for (o = 0; o < ev->nr_offsets; o++) {
		for (p = 0; p < ev->nr_policies; p++) {
			gm = sim_gm(ev, o, p);
			pv = sim_paper_value(sim_policy(ev, p), ev->offsets[o]);
			fprintf(f, "  %-6s  %-14s  %6.3f  %6.3f  %7.3f  |  %-13s",
				sim_offset_str(ev->offsets[o], off, sizeof(off)),
				sim_policy(ev, p), gm->stp, gm->antt,
				gm->strictf, sim_paper_name(sim_policy(ev, p)));
			if (pv)
				fprintf(f, "  %5s  %5s  %7s\n",
					sim_paper_str(pv->stp, pstp),
					sim_paper_str(pv->antt, pantt),
					sim_paper_str(pv->strictf, pf));
			else
				fprintf(f, "  %5s  %5s  %7s\n", "-", "-", "-");
		}
	}
}

/* Which metric an order is by. */
enum sim_metric { SIM_STP, SIM_ANTT, SIM_STRICTF };

static double sim_metric_of(const struct sim_geomean *gm, enum sim_metric m)
{
	return m == SIM_STP ? gm->stp : m == SIM_ANTT ? gm->antt : gm->strictf;
}

static double sim_paper_metric(const struct sim_paper *pv, enum sim_metric m)
{
	return m == SIM_STP ? pv->stp : m == SIM_ANTT ? pv->antt : pv->strictf;
}

/**
 * struct sim_order - policies ordered best first by one metric
 * @n: entries.
 * @idx: indices into &sim_eval.policies, best first.
 * @tie: @tie[i]: entry i equals entry i - 1 at the printed precision.
 */
struct sim_order {
	unsigned int n;
	unsigned int idx[SIM_MAX_POLICIES];
	bool tie[SIM_MAX_POLICIES];
};

/*
 * Order the policies by our geomeans (@paper false; all policies) or by
 * the paper's (only those it has at the offset); higher is better for STP
 * and StrictF, lower for ANTT.  Stable: equal values keep the order of
 * --policies.  Values equal when rounded to the printed precision (three
 * decimals ours, two the paper's) are ties.
 */
static void sim_order(const struct sim_eval *ev, unsigned int o,
		      enum sim_metric m, bool paper, struct sim_order *ord)
{
	double v[SIM_MAX_POLICIES], scale = paper ? 100 : 1000;
	unsigned int p, i, j;

	ord->n = 0;
	for (p = 0; p < ev->nr_policies; p++) {
		const struct sim_paper *pv =
			sim_paper_value(sim_policy(ev, p), ev->offsets[o]);
		double x;

		if (paper && (!pv || isnan(sim_paper_metric(pv, m))))
			continue;
		x = paper ? sim_paper_metric(pv, m) :
			    sim_metric_of(sim_gm(ev, o, p), m);
		x = round(x * scale);
		if (m == SIM_ANTT)
			x = -x;
		/* insertion sort, descending, stable */
		for (i = ord->n; i > 0 && v[i - 1] < x; i--) {
			v[i] = v[i - 1];
			ord->idx[i] = ord->idx[i - 1];
		}
		v[i] = x;
		ord->idx[i] = p;
		ord->n++;
	}
	for (j = 0; j < ord->n; j++)
		ord->tie[j] = j && v[j] == v[j - 1];
}

/*
 * Whether two orders agree on the policies both hold: the same sequence
 * of tie groups.
 */
static bool sim_orders_agree(const struct sim_order *ours,
			     const struct sim_order *paper)
{
	struct sim_order a = { 0 };
	unsigned int i, j;

	/* ours restricted to the paper's policies */
	for (i = 0; i < ours->n; i++) {
		for (j = 0; j < paper->n; j++)
			if (paper->idx[j] == ours->idx[i])
				break;
		if (j == paper->n)
			continue;
		a.tie[a.n] = a.n && ours->tie[i];
		a.idx[a.n++] = ours->idx[i];
	}
	if (a.n != paper->n)
		return false;
	for (i = 0; i < a.n; i++) {
		/* same group boundaries and the same members per group */
		if (a.tie[i] != paper->tie[i])
			return false;
		if (a.idx[i] != paper->idx[i]) {
			/* within a tie group the order is arbitrary */
			unsigned int s = i, e = i;

			while (s > 0 && paper->tie[s])
				s--;
			while (e + 1 < paper->n && paper->tie[e + 1])
				e++;
			for (j = s; j <= e; j++)
				if (paper->idx[j] == a.idx[i])
					break;
			if (j > e)
				return false;
		}
	}
	return true;
}

static void sim_order_text(FILE *f, const struct sim_eval *ev,
			   const struct sim_order *ord, bool paper)
{
	unsigned int i;

	for (i = 0; i < ord->n; i++) {
		const char *name = sim_policy(ev, ord->idx[i]);

		if (i)
			fputs(ord->tie[i] ? " = " : " > ", f);
		fputs(paper ? sim_paper_name(name) : name, f);
	}
}

static const char * const sim_metric_names[] = { "STP", "ANTT", "StrictF" };

static void sim_orders_text(FILE *f, const struct sim_eval *ev)
{
	struct sim_order ours, paper;
	unsigned int o, m;
	char off[16];

	fprintf(f, "\npolicies from best to worst by geomean (STP and StrictF: higher is better,\n"
		"ANTT: lower is better; \"=\": equal at the printed precision)\n");
	for (o = 0; o < ev->nr_offsets; o++) {
		for (m = SIM_STP; m <= SIM_STRICTF; m++) {
			sim_order(ev, o, m, false, &ours);
			sim_order(ev, o, m, true, &paper);
			fprintf(f, "  %-6s  %-7s  ours:  ",
				sim_offset_str(ev->offsets[o], off,
					       sizeof(off)),
				sim_metric_names[m]);
			sim_order_text(f, ev, &ours, false);
			fprintf(f, "\n  %-6s  %-7s  paper: ", "", "");
			if (!paper.n) {
				fputs("-\n", f);
				continue;
			}
			sim_order_text(f, ev, &paper, true);
			fprintf(f, "  (%s)\n", sim_orders_agree(&ours, &paper) ?
				"same order" : "different order");
		}
	}
}

/* ---- summary: predictor accuracy and sharing pairs ---- */

/* The grids of the alone runs (@o < 0) or of every pair at (@o, @p). */
static const struct sim_prog_out *sim_acc_prog(const struct sim_eval *ev,
					       int o, unsigned int p,
					       unsigned int i, unsigned int r)
{
	if (o < 0)
		return r ? NULL : &ev->alone[i].progs[0];
	return &sim_result_at(ev, o, p, i)->out.progs[r];
}

static int sim_u64_cmp(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/**
 * struct sim_acc - distribution of prediction / actual runtime over grids
 * @grids: grids that ran.
 * @n: grids with a prediction (the entries of the quantiles).
 * @q: min, p25, median, p75, max, GTBS_FP_ONE = 1.0: the sorted ratio at
 *	index (n - 1) * k / 4, k = 0..4.
 * @within: grids whose ratio is within 0.5x..2x.
 */
struct sim_acc {
	unsigned int grids;
	unsigned int n;
	u64 q[5];
	unsigned int within;
};

static void sim_acc_calc(const struct sim_eval *ev, int o, unsigned int p,
			 bool final, struct sim_acc *a)
{
	unsigned int i, r, k, nr = o < 0 ? ev->nr_progs : ev->nr_pairs;
	size_t max = 0;
	u64 *v;

	memset(a, 0, sizeof(*a));
	for (i = 0; i < nr; i++)
		for (r = 0; r < 2; r++)
			if (sim_acc_prog(ev, o, p, i, r))
				max += sim_acc_prog(ev, o, p, i, r)->nr_grids;
	v = calloc(max ? max : 1, sizeof(*v));
	for (i = 0; i < nr; i++) {
		for (r = 0; r < 2; r++) {
			const struct sim_prog_out *po =
				sim_acc_prog(ev, o, p, i, r);

			for (k = 0; po && k < po->nr_grids; k++) {
				const struct sim_grid_out *g = &po->grids[k];
				u64 pred = final ? g->final_pred : g->first_pred;
				u64 act = g->end_cycle - g->start_cycle;

				a->grids++;
				if (!v || !pred || !act)
					continue;
				v[a->n] = gtbs_slowdown(pred, act);
				a->within += v[a->n] >= GTBS_FP_ONE / 2 &&
					     v[a->n] <= 2 * GTBS_FP_ONE;
				a->n++;
			}
		}
	}
	if (v && a->n) {
		qsort(v, a->n, sizeof(*v), sim_u64_cmp);
		for (k = 0; k < 5; k++)
			a->q[k] = v[(size_t)(a->n - 1) * k / 4];
	}
	free(v);
}

/* Pairs at (@o, @p) in which some SM or the device entered sharing mode. */
static unsigned int sim_sharing_pairs(const struct sim_eval *ev,
				      unsigned int o, unsigned int p)
{
	unsigned int i, n = 0;

	for (i = 0; i < ev->nr_pairs; i++)
		n += sim_result_at(ev, o, p, i)->out.sharing_switches != 0;
	return n;
}

static void sim_acc_text(FILE *f, const char *runs, const char *policy,
			 const struct sim_acc *a, const char *pred)
{
	unsigned int k;

	fprintf(f, "  %-6s  %-14s  %-5s  %5u  %5u", runs, policy, pred,
		a->grids, a->n);
	for (k = 0; k < 5; k++) {
		if (a->n)
			fprintf(f, "  %6.3f", sim_fp(a->q[k]));
		else
			fprintf(f, "  %6s", "-");
	}
	fprintf(f, "  %7u\n", a->within);
}

static void sim_summary_text(FILE *f, const struct sim_eval *ev)
{
	struct sim_acc a;
	unsigned int o, p;
	char off[16], num[24];
	int b;

	fprintf(f, "\npredictor accuracy (predictor %s): first and final Simple Slicing prediction\n"
		"of each grid over its actual runtime; quantiles over the grids with a prediction\n"
		"(paper, Section \"Predictor Accuracy\": within 2x for the majority; single-gpu\n"
		"0.48x to 1.08x; mpmax (two programs) mostly 0.5x to 2x)\n",
		ev->module ? "of the module" :
		gtbs_pred_mode_name(ev->modes.pred_mode));
	fprintf(f, "  %-6s  %-14s  %-5s  %5s  %5s  %6s  %6s  %6s  %6s  %6s  %7s\n",
		"runs", "policy", "pred", "grids", "pred", "min", "p25",
		"median", "p75", "max", "0.5x-2x");
	for (b = 0; b < 2; b++) {
		sim_acc_calc(ev, -1, 0, b, &a);
		sim_acc_text(f, "alone", "fifo", &a, b ? "final" : "first");
	}
	for (o = 0; o < ev->nr_offsets; o++)
		for (p = 0; p < ev->nr_policies; p++)
			for (b = 0; b < 2; b++) {
				sim_acc_calc(ev, o, p, b, &a);
				sim_acc_text(f, sim_offset_str(ev->offsets[o],
							       off, sizeof(off)),
					     sim_policy(ev, p), &a,
					     b ? "final" : "first");
			}
	if (ev->module)
		return;
	fprintf(f, "\nsharing pairs (SRTF/Adaptive reading %s): pairs in which an SM or the device\n"
		"entered sharing mode (paper: 35 of 56)\n",
		sim_param_text(&ev->modes, "share_mode", num, sizeof(num)) ?: "-");
	for (o = 0; o < ev->nr_offsets; o++)
		for (p = 0; p < ev->nr_policies; p++)
			fprintf(f, "  %-6s  %-14s  %2u of %u\n",
				sim_offset_str(ev->offsets[o], off,
					       sizeof(off)),
				sim_policy(ev, p), sim_sharing_pairs(ev, o, p),
				ev->nr_pairs);
}

static void sim_motiv_text(FILE *f, const struct sim_eval *ev)
{
	static const char * const fifo[] = { "FIFO (device)", "FIFO (serial)" };
	u64 v[SIM_MOTIV_COLS];
	struct sim_motiv m;
	unsigned int i, k;

	if (!sim_motiv_calc(ev, &m))
		return;
	fprintf(f, "\nmotivation (paper Section \"Motivation\"): STP of the %u pairs A+B with A before B\n"
		"by the paper's names (paper= in the workload file), A first, at offset 0, under\n"
		"the serial SJF, FIFO and the serial LJF; FIFO: our device's, and serial (A alone,\n"
		"then B, from the alone runtimes: the paper's FIFO, \"the same as either of SJF or\n"
		"LJF depending on the order of arrival\")\n", m.n);
	fprintf(f, "  %-24s  %6s  %6s  %6s  %6s\n", "pair", "SJF", "FIFO",
		"serial", "LJF");
	for (i = 0; i < ev->nr_pairs; i++) {
		if (!sim_motiv_pair(ev, i))
			continue;
		sim_motiv_stp(ev, &m, i, v);
		fprintf(f, "  %-24s", ev->pairs[i].name);
		for (k = 0; k < SIM_MOTIV_COLS; k++)
			fprintf(f, "  %6.3f", sim_fp(v[k]));
		fputc('\n', f);
	}
	fprintf(f, "  %-24s", "geomean");
	for (k = 0; k < SIM_MOTIV_COLS; k++)
		fprintf(f, "  %6.3f", m.gm[k]);
	fprintf(f, "\n  %-24s", "paper");
	for (k = 0; k < SIM_MOTIV_COLS; k++)
		fprintf(f, "  %6.2f", sim_motiv_paper[k]);
	fputc('\n', f);
	if (!isnan(m.gm_expect))
		fprintf(f, "  serial FIFO from the workload file's expect= runtimes: %.3f\n",
			m.gm_expect);
	fprintf(f, "  pairs where a FIFO's STP is the same as (within 0.01):\n"
		"  %-24s  %6s  %6s  %7s  %6s\n", "", "SJF", "LJF", "SJF=LJF",
		"of");
	for (k = 0; k < 2; k++)
		fprintf(f, "  %-24s  %6u  %6u  %7u  %6u\n", fifo[k],
			m.fifo_sjf[k], m.fifo_ljf[k], m.sjf_ljf, m.n);
	fprintf(f, "  %-24s  %6u  %6u  %7u  %6u\n", "paper", 17, 8, 3, 28);
}

static void sim_motiv_json(struct json *j, const struct sim_eval *ev)
{
	u64 v[SIM_MOTIV_COLS];
	struct sim_motiv m;
	unsigned int i, k;

	if (!sim_motiv_calc(ev, &m)) {
		json_double(j, "motivation", NAN);	/* null */
		return;
	}
	json_obj(j, "motivation");
	json_u64(j, "pairs", m.n);
	json_obj(j, "geomean_stp");
	for (k = 0; k < SIM_MOTIV_COLS; k++)
		json_double(j, sim_motiv_keys[k], m.gm[k]);
	json_obj_end(j);
	json_double(j, "geomean_stp_fifo_serial_expect", m.gm_expect);
	json_obj(j, "paper_stp");
	for (k = 0; k < SIM_MOTIV_COLS; k++)
		json_double(j, sim_motiv_keys[k], sim_motiv_paper[k]);
	json_obj_end(j);
	json_u64(j, "fifo_same_as_sjf", m.fifo_sjf[0]);
	json_u64(j, "fifo_same_as_ljf", m.fifo_ljf[0]);
	json_u64(j, "fifo_serial_same_as_sjf", m.fifo_sjf[1]);
	json_u64(j, "fifo_serial_same_as_ljf", m.fifo_ljf[1]);
	json_u64(j, "sjf_same_as_ljf", m.sjf_ljf);
	json_arr(j, "stp");
	for (i = 0; i < ev->nr_pairs; i++) {
		if (!sim_motiv_pair(ev, i))
			continue;
		sim_motiv_stp(ev, &m, i, v);
		json_obj(j, NULL);
		json_str(j, "workload", ev->pairs[i].name);
		for (k = 0; k < SIM_MOTIV_COLS; k++)
			json_fp(j, sim_motiv_keys[k], v[k]);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_obj_end(j);
}

/**
 * sim_report_text() - print the sweep as text
 * @f: output.
 * @ev: the sweep, run.
 *
 * The alone runtimes, one table per offset and policy with a row per
 * pair and grid, the geomeans beside the paper's, and the order of the
 * policies by each metric, ours and the paper's.
 */
void sim_report_text(FILE *f, const struct sim_eval *ev)
{
	struct sim_widths w;
	unsigned int o, p;
	char off[16];

	sim_widths(ev, &w);
	fprintf(f, "%s: %s, %u programs, %u ordered pairs, %u SM%s, ",
		ev->tool, ev->file, ev->nr_progs, ev->nr_pairs, ev->cfg.nr_sms,
		ev->cfg.nr_sms == 1 ? "" : "s");
	if (ev->module)
		fprintf(f, "the module (%s, %" PRIu64 " ps per cycle)\n",
			ev->device, (uint64_t)ev->time_scale_ps);
	else
		fprintf(f, "virtual time, device %s\n",
			ev->preset ? ev->preset : "gtx480");
	fputs("policies:", f);
	for (p = 0; p < ev->nr_policies; p++)
		fprintf(f, " %s", sim_policy(ev, p));
	fputs("\noffsets:", f);
	for (o = 0; o < ev->nr_offsets; o++)
		fprintf(f, " %s", sim_offset_str(ev->offsets[o], off,
						 sizeof(off)));
	fprintf(f, " (0: the second program arrives at cycle %u; P%%: at P%% of the first\n"
		"program's alone runtime)\n", SIM_OFFSET0_CYCLES);
	if (ev->seed)
		fprintf(f, "seed: %" PRIu64 " (every grid's seed XOR %#" PRIx64 ")\n",
			(uint64_t)ev->seed, (uint64_t)ev->seed_mix);
	else
		fprintf(f, "seed: 0 (the workload file's seeds)\n");
	if (ev->sjf_model)
		fputs("sjf key: model (each grid's alone runtime by Equation 1 of its work model,\n"
		      "as in the module)\n", f);
	else
		fputs("sjf key: measured (each grid's alone runtime as measured)\n", f);
	fprintf(f, "timing model: %s\n", sim_timing_name(ev->cfg.timing_model));
	fprintf(f, "block times: %s\n",
		sim_block_times_name(ev->cfg.block_times));
	fputs("slowdown = shared / alone turnaround; first, final: the grid's first and final\n"
	      "Simple Slicing prediction; first/act, final/act: those over its actual runtime\n"
	      "(last block end - first block start)\n", f);
	if (ev->module)
		fputs("(the module reports no predictions: \"-\")\n", f);
	fputc('\n', f);
	sim_alone_text(f, ev, &w);
	for (o = 0; o < ev->nr_offsets; o++)
		for (p = 0; p < ev->nr_policies; p++)
			sim_pairs_text(f, ev, o, p, &w);
	sim_geomeans_text(f, ev);
	sim_orders_text(f, ev);
	sim_motiv_text(f, ev);
	sim_paper_text(f, ev);
	sim_summary_text(f, ev);
}

/* json.c writes a non-finite double as null. */
static void sim_json_null(struct json *j, const char *key)
{
	json_double(j, key, NAN);
}

/* A prediction and its ratio to @actual; null without one. */
static void sim_pred_json(struct json *j, const char *key, const char *rkey,
			  u64 pred, u64 actual)
{
	if (!pred || !actual) {
		sim_json_null(j, key);
		sim_json_null(j, rkey);
		return;
	}
	json_u64(j, key, pred);
	json_fp(j, rkey, gtbs_slowdown(pred, actual));
}

static void sim_prog_json(struct json *j, const struct sim_eval *ev,
			  const struct sim_result *res, unsigned int r,
			  unsigned int pi)
{
	const struct wl_program *prog = ev->progs[pi];
	const struct sim_prog_out *po = &res->out.progs[r];
	unsigned int k;

	json_obj(j, NULL);
	json_str(j, "program", prog->name);
	json_u64(j, "arrive_cycle", po->grids[0].submit_cycle);
	json_u64(j, "alone_cycles", res->alone[r]);
	json_u64(j, "shared_cycles", po->turnaround);
	json_fp(j, "slowdown", gtbs_slowdown(po->turnaround, res->alone[r]));
	json_arr(j, "grids");
	for (k = 0; k < prog->nr_grids; k++) {
		const struct sim_grid_out *g = &po->grids[k];
		u64 alone = ev->alone_grids[pi][k];
		u64 shared = g->end_cycle - g->submit_cycle;
		u64 actual = g->end_cycle - g->start_cycle;

		json_obj(j, NULL);
		json_str(j, "label", prog->grids[k].label);
		json_u64(j, "residency", g->residency);
		json_u64(j, "submit_cycle", g->submit_cycle);
		json_u64(j, "start_cycle", g->start_cycle);
		json_u64(j, "end_cycle", g->end_cycle);
		json_u64(j, "alone_cycles", alone);
		json_u64(j, "shared_cycles", shared);
		json_fp(j, "slowdown", gtbs_slowdown(shared, alone));
		json_u64(j, "actual_cycles", actual);
		if (ev->module)
			sim_json_null(j, "predictions");
		else
			json_u64(j, "predictions", g->nr_predictions);
		sim_pred_json(j, "first_pred_cycles", "first_pred_ratio",
			      g->first_pred, actual);
		sim_pred_json(j, "final_pred_cycles", "final_pred_ratio",
			      g->final_pred, actual);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_obj_end(j);
}

static void sim_geomean_json(struct json *j, const char *key, double stp,
			     double antt, double strictf)
{
	json_obj(j, key);
	json_double(j, "stp", stp);
	json_double(j, "antt", antt);
	json_double(j, "strictf", strictf);
	json_obj_end(j);
}

static void sim_order_json(struct json *j, const char *key,
			   const struct sim_eval *ev,
			   const struct sim_order *ord)
{
	unsigned int i;

	/* best first; policies equal at the printed precision share a group */
	json_arr(j, key);
	for (i = 0; i < ord->n; i++) {
		if (!ord->tie[i]) {
			if (i)
				json_arr_end(j);
			json_arr(j, NULL);
		}
		json_str(j, NULL, sim_policy(ev, ord->idx[i]));
	}
	if (ord->n)
		json_arr_end(j);
	json_arr_end(j);
}

static void sim_orders_json(struct json *j, const struct sim_eval *ev,
			    unsigned int o)
{
	static const char * const keys[] = { "stp", "antt", "strictf" };
	struct sim_order ours, paper;
	unsigned int m;

	json_obj(j, "order");
	for (m = SIM_STP; m <= SIM_STRICTF; m++) {
		sim_order(ev, o, m, false, &ours);
		sim_order(ev, o, m, true, &paper);
		json_obj(j, keys[m]);
		sim_order_json(j, "ours", ev, &ours);
		sim_order_json(j, "paper", ev, &paper);
		if (paper.n)
			json_boolean(j, "same", sim_orders_agree(&ours, &paper));
		else
			sim_json_null(j, "same");
		json_obj_end(j);
	}
	json_obj_end(j);
}

static void sim_offset_json(struct json *j, const struct sim_eval *ev,
			    unsigned int o)
{
	unsigned int p, i;

	json_obj(j, NULL);
	json_u64(j, "offset_pct", ev->offsets[o]);
	json_arr(j, "policies");
	for (p = 0; p < ev->nr_policies; p++) {
		const struct sim_paper *pv =
			sim_paper_value(sim_policy(ev, p), ev->offsets[o]);
		const struct sim_geomean *gm = sim_gm(ev, o, p);

		json_obj(j, NULL);
		json_str(j, "policy", sim_policy(ev, p));
		json_str(j, "paper_name", sim_paper_name(sim_policy(ev, p)));
		sim_geomean_json(j, "geomean", gm->stp, gm->antt, gm->strictf);
		if (pv)
			sim_geomean_json(j, "paper", pv->stp, pv->antt,
					 pv->strictf);
		else
			sim_json_null(j, "paper");
		json_arr(j, "pairs");
		for (i = 0; i < ev->nr_pairs; i++) {
			const struct sim_result *res =
				sim_result_at(ev, o, p, i);
			const struct sim_pair *pair = &ev->pairs[i];

			json_obj(j, NULL);
			json_str(j, "pair", pair->name);
			json_fp(j, "stp", res->metrics.stp);
			json_fp(j, "antt", res->metrics.antt);
			json_fp(j, "strictf", res->metrics.strictf);
			if (ev->module)
				sim_json_null(j, "sharing_switches");
			else
				json_u64(j, "sharing_switches",
					 res->out.sharing_switches);
			json_arr(j, "programs");
			sim_prog_json(j, ev, res, 0, pair->a);
			sim_prog_json(j, ev, res, 1, pair->b);
			json_arr_end(j);
			json_obj_end(j);
		}
		json_arr_end(j);
		json_obj_end(j);
	}
	json_arr_end(j);
	sim_orders_json(j, ev, o);
	json_obj_end(j);
}

static void sim_acc_json(struct json *j, const char *key,
			 const struct sim_acc *a)
{
	static const char * const names[] = {
		"min", "p25", "median", "p75", "max",
	};
	unsigned int k;

	json_obj(j, key);
	json_u64(j, "grids", a->grids);
	json_u64(j, "predicted", a->n);
	for (k = 0; k < 5; k++) {
		if (a->n)
			json_fp(j, names[k], a->q[k]);
		else
			sim_json_null(j, names[k]);
	}
	json_u64(j, "within_0.5x_2x", a->within);
	json_obj_end(j);
}

/* Accuracy of one set of runs: its first and its final predictions. */
static void sim_acc_pair_json(struct json *j, const struct sim_eval *ev,
			      int o, unsigned int p)
{
	struct sim_acc a;

	sim_acc_calc(ev, o, p, false, &a);
	sim_acc_json(j, "first", &a);
	sim_acc_calc(ev, o, p, true, &a);
	sim_acc_json(j, "final", &a);
}

/*
 * The summary: accuracy of the predictions alone and per (offset,
 * policy), and the pairs in which sharing mode was entered.
 */
static void sim_summary_json(struct json *j, const struct sim_eval *ev)
{
	unsigned int o, p;

	json_obj(j, "summary");
	json_obj(j, "accuracy_alone");
	sim_acc_pair_json(j, ev, -1, 0);
	json_obj_end(j);
	json_arr(j, "per_offset");
	for (o = 0; o < ev->nr_offsets; o++) {
		for (p = 0; p < ev->nr_policies; p++) {
			json_obj(j, NULL);
			json_u64(j, "offset_pct", ev->offsets[o]);
			json_str(j, "policy", sim_policy(ev, p));
			json_obj(j, "accuracy");
			sim_acc_pair_json(j, ev, o, p);
			json_obj_end(j);
			if (ev->module)
				sim_json_null(j, "sharing_pairs");
			else
				json_u64(j, "sharing_pairs",
					 sim_sharing_pairs(ev, o, p));
			json_obj_end(j);
		}
	}
	json_arr_end(j);
	json_obj_end(j);
}

/*
 * The timeline's blocks, each a string "run grid sm slot block start
 * end" (one line each, not seven).
 */
static void sim_timeline_json(struct json *j, const struct sim_eval *ev,
			      const struct sim_timeline *tl)
{
	char buf[160];
	unsigned int t;
	size_t b;

	json_obj(j, "timeline");
	json_str(j, "pair", ev->pairs[tl->pair].name);
	json_u64(j, "offset_pct", tl->offset);
	json_str(j, "block_fields", "run grid sm slot block start end");
	json_arr(j, "policies");
	for (t = 0; t < tl->nr_policies; t++) {
		const struct sim_out *out = &tl->outs[t];

		json_obj(j, NULL);
		json_str(j, "policy", tl->policies[t]->name);
		json_arr(j, "blocks");
		for (b = 0; b < out->nr_blocks; b++) {
			const struct sim_block *sb = &out->blocks[b];

			snprintf(buf, sizeof(buf), "%u %u %u %u %u %" PRIu64
				 " %" PRIu64, sb->run, sb->grid, sb->sm,
				 sb->slot, sb->block, (uint64_t)sb->start,
				 (uint64_t)sb->end);
			json_str(j, NULL, buf);
		}
		json_arr_end(j);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_obj_end(j);
}

/**
 * sim_report_json() - print the sweep as one JSON object
 * @f: output.
 * @ev: the sweep, run.
 * @tl: NULL, or the timeline's pair with every block, also printed.
 *
 * The same numbers as the text, keys always in the same order; what
 * "gputbs-sim report" reads back.
 */
void sim_report_json(FILE *f, const struct sim_eval *ev,
		     const struct sim_timeline *tl)
{
	struct json j;
	unsigned int i, k, p;
	char num[24];

	json_init(&j, f);
	json_obj(&j, NULL);
	json_str(&j, "tool", ev->tool);
	json_str(&j, "backend", ev->module ? "module" : "simulator");
	if (ev->module) {
		json_str(&j, "device", ev->device);
		json_u64(&j, "time_scale_ps", ev->time_scale_ps);
	} else {
		sim_json_null(&j, "device");
		sim_json_null(&j, "time_scale_ps");
	}
	json_str(&j, "workloads", ev->file);
	if (ev->preset)
		json_str(&j, "preset", ev->preset);
	else
		sim_json_null(&j, "preset");
	json_u64(&j, "nr_sms", ev->cfg.nr_sms);
	json_u64(&j, "max_blocks_per_sm", ev->cfg.max_blocks_per_sm);
	json_u64(&j, "seed", ev->seed);
	json_str(&j, "sjf_key", ev->sjf_model ? "model" : "measured");
	json_str(&j, "timing_model", sim_timing_name(ev->cfg.timing_model));
	json_str(&j, "block_times", sim_block_times_name(ev->cfg.block_times));
	if (ev->module) {
		sim_json_null(&j, "predictor");
		sim_json_null(&j, "share_mode");
	} else {
		json_str(&j, "predictor",
			 gtbs_pred_mode_name(ev->modes.pred_mode));
		json_str(&j, "share_mode",
			 sim_param_text(&ev->modes, "share_mode", num,
					sizeof(num)));
	}
	json_str(&j, "preempt_mode",
		 gtbs_preempt_mode_name(ev->modes.preempt_mode));
	json_u64(&j, "switch_bytes_per_cycle",
		 ev->modes.switch_bw ?: GTBS_SWITCH_BYTES_PER_CYCLE_DEFAULT);
	json_boolean(&j, "idempotent", ev->modes.idempotent);
	json_u64(&j, "offset0_cycles", SIM_OFFSET0_CYCLES);
	json_arr(&j, "policies");
	for (p = 0; p < ev->nr_policies; p++)
		json_str(&j, NULL, sim_policy(ev, p));
	json_arr_end(&j);
	json_arr(&j, "offsets_pct");
	for (i = 0; i < ev->nr_offsets; i++)
		json_u64(&j, NULL, ev->offsets[i]);
	json_arr_end(&j);
	json_arr(&j, "alone");
	for (i = 0; i < ev->nr_progs; i++) {
		const struct wl_program *prog = ev->progs[i];
		const struct sim_prog_out *po = &ev->alone[i].progs[0];

		json_obj(&j, NULL);
		json_str(&j, "program", prog->name);
		if (prog->paper[0])
			json_str(&j, "paper", prog->paper);
		else
			sim_json_null(&j, "paper");
		json_u64(&j, "runtime_cycles", po->turnaround);
		json_arr(&j, "grids");
		for (k = 0; k < prog->nr_grids; k++) {
			json_obj(&j, NULL);
			json_str(&j, "label", prog->grids[k].label);
			json_u64(&j, "residency", po->grids[k].residency);
			json_u64(&j, "blocks", prog->grids[k].nr_blocks);
			json_u64(&j, "cycles", ev->alone_grids[i][k]);
			json_u64(&j, "expect_cycles", prog->grids[k].expect);
			json_u64(&j, "actual_cycles", po->grids[k].end_cycle -
				 po->grids[k].start_cycle);
			sim_pred_json(&j, "first_pred_cycles",
				      "first_pred_ratio", po->grids[k].first_pred,
				      po->grids[k].end_cycle -
				      po->grids[k].start_cycle);
			sim_pred_json(&j, "final_pred_cycles",
				      "final_pred_ratio", po->grids[k].final_pred,
				      po->grids[k].end_cycle -
				      po->grids[k].start_cycle);
			json_obj_end(&j);
		}
		json_arr_end(&j);
		json_obj_end(&j);
	}
	json_arr_end(&j);
	json_arr(&j, "offsets");
	for (i = 0; i < ev->nr_offsets; i++)
		sim_offset_json(&j, ev, i);
	json_arr_end(&j);
	sim_motiv_json(&j, ev);
	sim_paper_json(&j, ev);
	sim_summary_json(&j, ev);
	if (tl && tl->nr_policies)
		sim_timeline_json(&j, ev, tl);
	json_obj_end(&j);
	json_end(&j);
}
