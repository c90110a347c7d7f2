// SPDX-License-Identifier: GPL-2.0
/*
 * plot.c - the sweep's figures through gnuplot.
 *
 * Into DIR go plain-text data files, one gnuplot script (plot.gp) that
 * draws every figure twice, as SVG and as PNG (pngcairo where gnuplot has
 * it, else png), and the figures themselves, made by running "gnuplot
 * plot.gp" in DIR.  Users restyle by editing plot.gp and running it again.
 *
 * - {stp,antt,strictf}-OFFSET: per pair, one bar per policy (the paper's
 *   Figures "System Throughput (STP)", "Average Normalized Turnaround
 *   Time (ANTT)" and "Fairness (StrictF)" for various scheduling
 *   policies), then the geomean group with the paper's geomean of each
 *   policy marked (a black bar across it, data in ...-paper.dat) where
 *   the paper has one; ANTT on a log scale.
 * - geomean-OFFSET: the compact variant for a paper column: one panel per
 *   metric, one bar per policy (its geomean), the paper's value marked.
 * - motivation: the paper's Section "Motivation" (sim_motiv_calc()): per
 *   pair A+B (A before B by the paper's names) the STP under the serial
 *   SJF, our device's FIFO, the serial FIFO and the serial LJF, then a
 *   group of their geomeans and one of the paper's; whenever the sweep
 *   has offset 0, sjf, fifo and ljf.
 * - timeline-POLICY: every thread block of one pair as a horizontal bar on
 *   its SM (one thin row per block slot), coloured by grid, a white tick
 *   where each block starts (consecutive blocks of a grid apart), a black
 *   tick where each SM issued the second program's first block there
 *   (under SRTF the switch after sampling and hand-off) and a red
 *   triangle where an SM preempted a grid: issued another grid's block
 *   while the grid still had blocks to start (timeline-POLICY-preempt.dat,
 *   derived from the blocks), for each policy of the sweep.
 *
 * Copyright (C) 2026 The gputbs developers
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../input.h"
#include "args.h"
#include "plot.h"

static const char * const sim_metric_file[] = { "stp", "antt", "strictf" };
static const char * const sim_metric_title[] = {
	"STP (higher is better)",
	"ANTT (lower is better, log scale)",
	"StrictF (1 is fair)",
};

/* fopen DIR/NAME for writing; NULL after a message (sim.h). */
FILE *sim_open(const char *dir, const char *name)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "we");
	if (!f)
		fprintf(stderr, "%s: --plot: %s: %s\n", sim_progname, path,
			strerror(errno));
	return f;
}

/* fclose what sim_open() opened: 0, or -EIO after a message (sim.h). */
int sim_close(FILE *f, const char *dir, const char *name)
{
	if (fclose(f)) {
		fprintf(stderr, "%s: --plot: %s/%s: %s\n", sim_progname, dir,
			name,
			strerror(errno));
		return -EIO;
	}
	return 0;
}

/* A fixed-point value exactly, six decimals. */
static void sim_put_fp(FILE *f, u64 fp)
{
	fprintf(f, " %" PRIu64 ".%06" PRIu64, (uint64_t)(fp / GTBS_FP_ONE),
		(uint64_t)(fp % GTBS_FP_ONE));
}

/* The offset as a file name part and as a title. */
static void sim_offset_names(unsigned int offset, char *tag, size_t tlen,
			     char *title, size_t len)
{
	snprintf(tag, tlen, "%u", offset);
	if (offset)
		snprintf(title, len, "second program at %u%% of the first one's alone runtime",
			 offset);
	else
		snprintf(title, len, "second program at cycle %u",
			 SIM_OFFSET0_CYCLES);
}

/* One data file per offset and metric: a row per pair, a column per policy. */
static int sim_write_metric(const struct sim_eval *ev, const char *dir,
			    unsigned int o, unsigned int m)
{
	char name[64], tag[16], title[128];
	unsigned int p, i;
	FILE *f;

	sim_offset_names(ev->offsets[o], tag, sizeof(tag), title,
			 sizeof(title));
	snprintf(name, sizeof(name), "%s-%s.dat", sim_metric_file[m], tag);
	f = sim_open(dir, name);
	if (!f)
		return -EIO;
	fprintf(f, "# %s per pair, %s; %s\n", sim_metric_file[m], title,
		ev->file);
	fputs("pair", f);
	for (p = 0; p < ev->nr_policies; p++)
		fprintf(f, " %s", ev->policies[p]->name);
	fputc('\n', f);
	for (i = 0; i < ev->nr_pairs; i++) {
		fputs(ev->pairs[i].name, f);
		for (p = 0; p < ev->nr_policies; p++) {
			const struct gtbs_metrics *mt =
				&sim_result_at(ev, o, p, i)->metrics;

			sim_put_fp(f, m == 0 ? mt->stp :
				   m == 1 ? mt->antt : mt->strictf);
		}
		fputc('\n', f);
	}
	/* the group a paper's figure ends with */
	fputs("geomean", f);
	for (p = 0; p < ev->nr_policies; p++) {
		const struct sim_geomean *gm =
			&ev->geomeans[o * ev->nr_policies + p];

		fprintf(f, " %.6f", m == 0 ? gm->stp :
			m == 1 ? gm->antt : gm->strictf);
	}
	fputc('\n', f);
	return sim_close(f, dir, name);
}

static const char *sim_policy_colour(const struct gtbs_policy_ops *ops);

/* The paper's geomean of policy @p at offset @o for metric @m, or NaN. */
static double sim_paper_metric(const struct sim_eval *ev, unsigned int o,
			       unsigned int p, unsigned int m)
{
	const struct sim_paper *pv =
		sim_paper_value(ev->policies[p]->name, ev->offsets[o]);

	if (!pv)
		return NAN;
	return m == 0 ? pv->stp : m == 1 ? pv->antt : pv->strictf;
}

/*
 * The paper's geomeans where it has them, at the x of each policy's bar
 * in the geomean group of the per-pair chart (gnuplot's clustered
 * histogram: row r, column p of n, gap 1, is centred at
 * r + (p - (n - 1) / 2) / (n + 1), width 1 / (n + 1)).
 */
static int sim_write_paper(const struct sim_eval *ev, const char *dir,
			   unsigned int o, unsigned int m)
{
	char name[64], tag[16], title[128];
	unsigned int p, n = ev->nr_policies;
	double v;
	FILE *f;

	sim_offset_names(ev->offsets[o], tag, sizeof(tag), title,
			 sizeof(title));
	snprintf(name, sizeof(name), "%s-%s-paper.dat", sim_metric_file[m],
		 tag);
	f = sim_open(dir, name);
	if (!f)
		return -EIO;
	fprintf(f, "# the paper's geomean %s per policy, %s (its Tables)\n"
		"# x half_width value policy\n", sim_metric_file[m], title);
	for (p = 0; p < n; p++) {
		v = sim_paper_metric(ev, o, p, m);
		if (isnan(v))
			continue;
		fprintf(f, "%.4f %.4f %.2f %s\n",
			ev->nr_pairs + (p - (n - 1) / 2.0) / (n + 1),
			0.5 / (n + 1), v, ev->policies[p]->name);
	}
	return sim_close(f, dir, name);
}

/* The compact variant's data: a row per policy, its geomeans and the paper's. */
static int sim_write_geomean(const struct sim_eval *ev, const char *dir,
			     unsigned int o)
{
	char name[64], tag[16], title[128];
	unsigned int p, m;
	FILE *f;

	sim_offset_names(ev->offsets[o], tag, sizeof(tag), title,
			 sizeof(title));
	snprintf(name, sizeof(name), "geomean-%s.dat", tag);
	f = sim_open(dir, name);
	if (!f)
		return -EIO;
	fprintf(f, "# geomeans over %u pairs per policy, %s; paper_*: the paper's (NaN: none)\n"
		"# policy colour stp antt strictf paper_stp paper_antt paper_strictf\n",
		ev->nr_pairs, title);
	for (p = 0; p < ev->nr_policies; p++) {
		const struct sim_geomean *gm =
			&ev->geomeans[o * ev->nr_policies + p];

		fprintf(f, "%s %ld %.6f %.6f %.6f", ev->policies[p]->name,
			strtol(sim_policy_colour(ev->policies[p]) + 1, NULL,
			       16), gm->stp, gm->antt, gm->strictf);
		for (m = 0; m < ARRAY_SIZE(sim_metric_file); m++) {
			double v = sim_paper_metric(ev, o, p, m);

			if (isnan(v))
				fputs(" NaN", f);
			else
				fprintf(f, " %.2f", v);
		}
		fputc('\n', f);
	}
	return sim_close(f, dir, name);
}

/* Draw what was just plotted again as PNG (the SVG came first). */
static void sim_gp_png(FILE *gp, const char *base, int w, int h)
{
	fprintf(gp, "if (strstrt(GPVAL_TERMINALS, \"pngcairo\") > 0) {\n"
		"\tset terminal pngcairo size %d,%d noenhanced font \"sans,10\" background rgb \"white\"\n"
		"} else {\n"
		"\tset terminal png size %d,%d noenhanced\n"
		"}\n"
		"set output \"%s.png\"\n"
		"replot\n"
		"unset output\n\n", w, h, w, h, base);
}

static void sim_gp_svg(FILE *gp, const char *base, int w, int h)
{
	fprintf(gp, "set terminal svg size %d,%d noenhanced font \"sans,10\" background rgb \"white\"\n"
		"set output \"%s.svg\"\n", w, h, base);
}

/* "virtual time", or the module and its time scale. */
static const char *sim_clock(const struct sim_eval *ev, char *buf, size_t len)
{
	if (!ev->module)
		return "virtual time";
	snprintf(buf, len, "the module, %" PRIu64 " ps per cycle",
		 (uint64_t)ev->time_scale_ps);
	return buf;
}

/*
 * A policy's colour in every figure: by its place in the registry
 * (built-ins first, then plug-ins), so that it does not change with the
 * set of policies plotted.
 */
static const char *sim_policy_colour(const struct gtbs_policy_ops *ops)
{
	static const char * const palette[] = {
		"#4477aa", "#ee6677", "#228833", "#ccbb44", "#66ccee",
		"#aa3377", "#bbbbbb", "#000000", "#994f00", "#6699cc",
	};
	unsigned int i;

	for (i = 0; gtbs_policy_at(i); i++)
		if (gtbs_policy_at(i) == ops)
			break;
	return palette[i % ARRAY_SIZE(palette)];
}

static void sim_gp_metric(FILE *gp, const struct sim_eval *ev,
			  unsigned int o, unsigned int m)
{
	unsigned int p;

	char base[64], tag[16], title[128], clock[64];

	sim_offset_names(ev->offsets[o], tag, sizeof(tag), title,
			 sizeof(title));
	snprintf(base, sizeof(base), "%s-%s", sim_metric_file[m], tag);
	fprintf(gp, "# %s per pair and policy, %s\n", sim_metric_file[m],
		title);
	fprintf(gp, "reset\n"
		"set title \"%s per pair, %s (%u pairs, %u SMs, %s)\"\n"
		"set style data histograms\n"
		"set style histogram clustered gap 1\n"
		"set style fill solid 0.9 noborder\n"
		"set xtics rotate by 90 right font \",8\"\n"
		"set key outside top center horizontal\n"
		"set grid ytics\n"
		"set ylabel \"%s\"\n", sim_metric_title[m], title,
		ev->nr_pairs, ev->cfg.nr_sms, sim_clock(ev, clock, sizeof(clock)),
		sim_metric_file[m]);
	if (m == 1)
		fputs("set logscale y\nset yrange [0.5:*]\n", gp);
	else
		fputs("set yrange [0:*]\n", gp);
	sim_gp_svg(gp, base, 1800, 600);
	fprintf(gp, "plot \"%s.dat\"", base);
	for (p = 0; p < ev->nr_policies; p++)
		fprintf(gp, "%s using %u:xtic(1) title columnheader(%u) lc rgb \"%s\"",
			p ? ", \\\n     \"\"" : "", p + 2, p + 2,
			sim_policy_colour(ev->policies[p]));
	for (p = 0; p < ev->nr_policies; p++)
		if (!isnan(sim_paper_metric(ev, o, p, m)))
			break;
	if (p < ev->nr_policies)
		fprintf(gp, ", \\\n     \"%s-paper.dat\" using ($1 - $2):3:(2 * $2):(0) with vectors nohead lw 3 lc rgb \"black\" title \"the paper's geomean\"",
			base);
	fputc('\n', gp);
	fputs("unset output\n", gp);
	sim_gp_png(gp, base, 1800, 600);
}

/*
 * The compact variant for a paper column: the geomeans only, one panel
 * per metric, one bar per policy in its colour, the paper's value a black
 * bar across it.
 */
static void sim_gp_geomean(FILE *gp, const struct sim_eval *ev,
			   unsigned int o)
{
	static const char * const ylabel[] = {
		"STP (higher better)", "ANTT (lower better)",
		"StrictF (1 fair)",
	};
	char base[64], tag[16], title[128];
	unsigned int m;

	sim_offset_names(ev->offsets[o], tag, sizeof(tag), title,
			 sizeof(title));
	snprintf(base, sizeof(base), "geomean-%s", tag);
	fprintf(gp, "# geomeans per policy, %s: the compact variant\n"
		"reset\n", title);
	sim_gp_svg(gp, base, 720, 260);
	fputs("set multiplot layout 1,3\n"
	      "set style fill solid 0.9 noborder\n"
	      "set boxwidth 0.7\n"
	      "set xtics rotate by 45 right font \",8\" nomirror\n"
	      "set ytics font \",8\"\n"
	      "set grid ytics\n"
	      "set xrange [-0.6:*]\n"
	      "set yrange [0:*]\n"
	      "unset key\n", gp);
	for (m = 0; m < ARRAY_SIZE(sim_metric_file); m++)
		fprintf(gp, "set title \"%s\" font \",9\"\n"
			"plot \"%s.dat\" using 0:%u:2:xtic(1) with boxes lc rgb variable, \\\n"
			"     \"\" using ($0 - 0.35):%u:(0.7):(0) with vectors nohead lw 2 lc rgb \"black\"\n",
			ylabel[m], base, m + 3, m + 6);
	fputs("unset multiplot\nunset output\n", gp);
	/* the same again as PNG */
	fprintf(gp, "if (strstrt(GPVAL_TERMINALS, \"pngcairo\") > 0) {\n"
		"\tset terminal pngcairo size 720,260 noenhanced font \"sans,9\" background rgb \"white\"\n"
		"} else {\n"
		"\tset terminal png size 720,260 noenhanced\n"
		"}\n"
		"set output \"%s.png\"\n"
		"set multiplot layout 1,3\n", base);
	for (m = 0; m < ARRAY_SIZE(sim_metric_file); m++)
		fprintf(gp, "set title \"%s\" font \",9\"\n"
			"plot \"%s.dat\" using 0:%u:2:xtic(1) with boxes lc rgb variable, \\\n"
			"     \"\" using ($0 - 0.35):%u:(0.7):(0) with vectors nohead lw 2 lc rgb \"black\"\n",
			ylabel[m], base, m + 3, m + 6);
	fputs("unset multiplot\nunset output\n\n", gp);
}

/*
 * The Section "Motivation" experiment (sim_motiv_calc()): index 0 a row
 * per pair, index 1 the geomeans and the paper's; a column per bar.
 */
static int sim_write_motiv(const struct sim_eval *ev,
			   const struct sim_motiv *m, const char *dir)
{
	static const char name[] = "motivation.dat";
	u64 v[SIM_MOTIV_COLS];
	unsigned int i, k;
	FILE *f;

	f = sim_open(dir, name);
	if (!f)
		return -EIO;
	fprintf(f, "# STP of the %u pairs A+B of the paper's Section \"Motivation\" (A before B\n"
		"# by the paper's names, A first), second program at cycle %u; %s\n"
		"# fifo: our device's; fifo_serial: A alone, then B, from the alone runtimes\n"
		"# pair", m->n, SIM_OFFSET0_CYCLES, ev->file);
	for (k = 0; k < SIM_MOTIV_COLS; k++)
		fprintf(f, " %s", sim_motiv_keys[k]);
	fputc('\n', f);
	for (i = 0; i < ev->nr_pairs; i++) {
		if (!sim_motiv_pair(ev, i))
			continue;
		sim_motiv_stp(ev, m, i, v);
		fputs(ev->pairs[i].name, f);
		for (k = 0; k < SIM_MOTIV_COLS; k++)
			sim_put_fp(f, v[k]);
		fputc('\n', f);
	}
	fputs("\n\ngeomean", f);
	for (k = 0; k < SIM_MOTIV_COLS; k++)
		fprintf(f, " %.6f", m->gm[k]);
	fputs("\npaper", f);
	for (k = 0; k < SIM_MOTIV_COLS; k++)
		fprintf(f, " %.2f", sim_motiv_paper[k]);
	fputc('\n', f);
	return sim_close(f, dir, name);
}

static void sim_gp_motiv(FILE *gp, const struct sim_eval *ev,
			 const struct sim_motiv *m)
{
	static const char * const title[SIM_MOTIV_COLS] = {
		"SJF (serial)", "FIFO (our device)", "FIFO (serial)",
		"LJF (serial)",
	};
	static const char * const colour[SIM_MOTIV_COLS] = {
		"#2ca02c", "#1f77b4", "#9ecae1", "#d62728",
	};
	double lo = 1.0;
	u64 v[SIM_MOTIV_COLS];
	unsigned int g, i, k;
	char clock[64];

	/* bars from STP 1 (one program's worth) unless one is below */
	for (i = 0; i < ev->nr_pairs; i++) {
		if (!sim_motiv_pair(ev, i))
			continue;
		sim_motiv_stp(ev, m, i, v);
		for (k = 0; k < SIM_MOTIV_COLS; k++)
			lo = fmin(lo, floor(sim_fp(v[k]) * 10) / 10);
	}
	fputs("# the paper's Section \"Motivation\": STP per pair under SJF, FIFO and LJF\n", gp);
	fprintf(gp, "reset\n"
		"set title \"STP of the %u pairs A+B, A before B by the paper's names, A first, second at cycle %u (%u SMs, %s)\"\n"
		"set style data histograms\n"
		"set style histogram clustered gap 1\n"
		"set style fill solid 0.9 noborder\n"
		"set xtics rotate by 45 right font \",9\" nomirror\n"
		"set key outside top center horizontal\n"
		"set grid ytics\n"
		"set ylabel \"STP (higher is better)\"\n"
		"set yrange [%.1f:2.05]\n"
		"set ytics 0.1\n", m->n, SIM_OFFSET0_CYCLES, ev->cfg.nr_sms,
		sim_clock(ev, clock, sizeof(clock)), lo);
	sim_gp_svg(gp, "motivation", 1600, 650);
	fputs("plot newhistogram \"\"", gp);
	for (g = 0; g < 2; g++) {
		if (g)
			fputs(", \\\n     newhistogram \"\" lt 1", gp);
		for (k = 0; k < SIM_MOTIV_COLS; k++) {
			fprintf(gp, ", \\\n     \"motivation.dat\" index %u using %u%s",
				g, k + 2, k ? "" : ":xtic(1)");
			fprintf(gp, " lc rgb \"%s\" ", colour[k]);
			if (g)
				fputs("notitle", gp);
			else
				fprintf(gp, "title \"%s: geomean %.3f, paper %.2f\"",
					title[k], m->gm[k], sim_motiv_paper[k]);
		}
	}
	fputs("\nunset output\n", gp);
	sim_gp_png(gp, "motivation", 1600, 650);
}

static const struct sim_block *sim_sort_blocks;

/* qsort() of block indices by SM, then start cycle, then slot. */
static int sim_cmp_sm_start(const void *a, const void *b)
{
	const struct sim_block *x = &sim_sort_blocks[*(const size_t *)a];
	const struct sim_block *y = &sim_sort_blocks[*(const size_t *)b];

	if (x->sm != y->sm)
		return x->sm < y->sm ? -1 : 1;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->slot < y->slot ? -1 : x->slot > y->slot;
}

/*
 * The preemptions of one execution, from its blocks: per SM, in start
 * order, a block of another grid than the block before while that grid
 * still had blocks to start later (on any SM).  One line "sm cycle" each.
 */
static int sim_write_preempt(const struct sim_eval *ev,
			     const struct sim_timeline *tl, unsigned int t,
			     const char *dir)
{
	const struct sim_out *out = &tl->outs[t];
	const struct sim_block *bl = out->blocks, *prev;
	size_t *ord, i, nr_grids = 1;
	char name[96];
	u64 *last;
	FILE *f;

	snprintf(name, sizeof(name), "timeline-%s-preempt.dat",
		 tl->policies[t]->name);
	/* last[run * nr_grids + grid]: the grid's latest block start */
	for (i = 0; i < out->nr_blocks; i++)
		nr_grids = max(nr_grids, (size_t)bl[i].grid + 1);
	ord = malloc((out->nr_blocks + 1) * sizeof(*ord));
	last = calloc(2 * nr_grids, sizeof(*last));
	if (!ord || !last) {
		free(ord);
		free(last);
		return -ENOMEM;
	}
	for (i = 0; i < out->nr_blocks; i++) {
		u64 *l = &last[bl[i].run * nr_grids + bl[i].grid];

		ord[i] = i;
		if (bl[i].run < 2)
			*l = max(*l, bl[i].start);
	}
	sim_sort_blocks = bl;
	qsort(ord, out->nr_blocks, sizeof(*ord), sim_cmp_sm_start);
	f = sim_open(dir, name);
	if (!f) {
		free(ord);
		free(last);
		return -EIO;
	}
	fprintf(f, "# %s under %s: where an SM issued another grid while the one before had blocks left\n"
		"# sm cycle\n", ev->pairs[tl->pair].name,
		tl->policies[t]->name);
	for (i = 1; i < out->nr_blocks; i++) {
		const struct sim_block *b = &bl[ord[i]];

		prev = &bl[ord[i - 1]];
		if (prev->sm != b->sm || (prev->run == b->run &&
					  prev->grid == b->grid))
			continue;
		if (prev->run < 2 &&
		    last[prev->run * nr_grids + prev->grid] > b->start)
			fprintf(f, "%u %" PRIu64 "\n", b->sm,
				(uint64_t)b->start);
	}
	free(ord);
	free(last);
	return sim_close(f, dir, name);
}

/*
 * The timeline of one policy: its blocks, one data block (gnuplot index)
 * per grid of the pair, and per SM the cycle of the second program's
 * first block there.
 */
static int sim_write_timeline(const struct sim_eval *ev,
			      const struct sim_timeline *tl, unsigned int t,
			      const char *dir)
{
	const struct sim_pair *pair = &ev->pairs[tl->pair];
	const struct sim_out *out = &tl->outs[t];
	const unsigned int idx[2] = { pair->a, pair->b };
	char name[96];
	u64 *first;
	unsigned int r, k, s;
	size_t b;
	FILE *f;
	int ret;

	snprintf(name, sizeof(name), "timeline-%s.dat", tl->policies[t]->name);
	f = sim_open(dir, name);
	if (!f)
		return -EIO;
	fprintf(f, "# %s under %s: every block, one data block per grid\n"
		"# sm slot block start end\n", pair->name,
		tl->policies[t]->name);
	for (r = 0; r < 2; r++) {
		const struct wl_program *prog = ev->progs[idx[r]];

		for (k = 0; k < prog->nr_grids; k++) {
			fprintf(f, "# %s grid %s\n", prog->name,
				prog->grids[k].label);
			for (b = 0; b < out->nr_blocks; b++) {
				const struct sim_block *sb = &out->blocks[b];

				if (sb->run != r || sb->grid != k)
					continue;
				fprintf(f, "%u %u %u %" PRIu64 " %" PRIu64 "\n",
					sb->sm, sb->slot, sb->block,
					(uint64_t)sb->start, (uint64_t)sb->end);
			}
			fputs("\n\n", f);
		}
	}
	ret = sim_close(f, dir, name);
	if (ret)
		return ret;

	first = calloc(ev->cfg.nr_sms, sizeof(*first));
	if (!first)
		return -ENOMEM;
	for (s = 0; s < ev->cfg.nr_sms; s++)
		first[s] = U64_MAX;
	for (b = 0; b < out->nr_blocks; b++)
		if (out->blocks[b].run == 1)
			first[out->blocks[b].sm] = min(first[out->blocks[b].sm],
						       out->blocks[b].start);
	snprintf(name, sizeof(name), "timeline-%s-first.dat",
		 tl->policies[t]->name);
	f = sim_open(dir, name);
	if (!f) {
		free(first);
		return -EIO;
	}
	fprintf(f, "# %s under %s: per SM, the cycle its first block of %s started\n"
		"# sm cycle\n", pair->name, tl->policies[t]->name,
		ev->progs[pair->b]->name);
	for (s = 0; s < ev->cfg.nr_sms; s++)
		if (first[s] != U64_MAX)
			fprintf(f, "%u %" PRIu64 "\n", s, (uint64_t)first[s]);
	free(first);
	ret = sim_close(f, dir, name);
	return ret ? ret : sim_write_preempt(ev, tl, t, dir);
}

static void sim_gp_timeline(FILE *gp, const struct sim_eval *ev,
			    const struct sim_timeline *tl, unsigned int t)
{
	static const char * const colours[] = {
		"#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b",
		"#e377c2", "#7f7f7f", "#bcbd22", "#17becf", "#d62728",
	};
	const struct sim_pair *pair = &ev->pairs[tl->pair];
	const unsigned int idx[2] = { pair->a, pair->b };
	const char *pol = tl->policies[t]->name;
	char base[64], tag[16], title[128];
	unsigned int r, k, n = 0;

	sim_offset_names(tl->offset, tag, sizeof(tag), title, sizeof(title));
	snprintf(base, sizeof(base), "timeline-%s", pol);
	input_print(gp, "# the blocks of %s under %s, per SM and slot",
		    pair->name, pol);
	fputs("\nreset\nset title ", gp);
	sim_gp_str(gp, "%s under %s, %s: blocks per SM (thin rows: the SM's %u block slots; white: a block starts); black: the SM's first block of %s",
		   pair->name, pol, title, ev->cfg.max_blocks_per_sm,
		   ev->progs[pair->b]->name);
	fprintf(gp, "\n"
		"set xlabel \"cycle\"\n"
		"set ylabel \"SM\"\n"
		"set yrange [-0.6:%u.6]\n"
		"set ytics 1\n"
		"set xrange [0:*]\n"
		"set key outside top center horizontal\n"
		"set style fill solid 0.85 noborder\n"
		"slots = %u.0\n"
		"y(sm, slot) = sm - 0.45 + (slot + 0.5) * 0.9 / slots\n"
		"h = 0.4 / slots\n", ev->cfg.nr_sms - 1,
		ev->cfg.max_blocks_per_sm);
	sim_gp_svg(gp, base, 1600, 700);
	fputs("plot ", gp);
	for (r = 0; r < 2; r++) {
		const struct wl_program *prog = ev->progs[idx[r]];

		for (k = 0; k < prog->nr_grids; k++, n++) {
			fprintf(gp, "%s\"%s.dat\" index %u using (($4 + $5) / 2):(y($1, $2)):(($5 - $4) / 2):(h) with boxxyerror lc rgb \"%s\" title ",
				n ? ", \\\n     " : "", base, n,
				colours[n % ARRAY_SIZE(colours)]);
			sim_gp_str(gp, "%s (%s)", prog->name,
				   prog->grids[k].label);
		}
	}
	for (r = 0, n = 0; r < 2; r++)
		for (k = 0; k < ev->progs[idx[r]]->nr_grids; k++, n++)
			fprintf(gp, ", \\\n     \"%s.dat\" index %u using 4:(y($1, $2) - h):(0):(2 * h) with vectors nohead lw 1 lc rgb \"white\" notitle",
				base, n);
	fprintf(gp, ", \\\n     \"%s-first.dat\" using 2:($1 - 0.5):(0):(1) with vectors nohead lw 2 lc rgb \"black\" title ",
		base);
	sim_gp_str(gp, "first block of %s", ev->progs[pair->b]->name);
	fprintf(gp, ", \\\n     \"%s-preempt.dat\" using 2:($1 + 0.45) with points pt 11 ps 1.2 lc rgb \"#d62728\" title \"preemption: the SM issues another grid while this one has blocks left\"",
		base);
	fputc('\n', gp);
	fputs("unset output\n", gp);
	sim_gp_png(gp, base, 1600, 700);
}

/**
 * sim_gp_str() - write a string constant into a gnuplot script
 * @gp: the script.
 * @fmt: printf() format of the string, which may quote a workload file,
 *	a sweep's JSON or a recording (names, labels, file names).
 *
 * Shared by the sweep's figures and "gputbs timeline".  The constant is
 * single-quoted: in double quotes gnuplot runs `backquoted` text as a
 * shell command, in single quotes it neither does that nor reads
 * backslash escapes.  A quote is doubled and every byte outside printable
 * ASCII is written as \xNN (input_escape()), so nothing the string holds
 * ends it, ends the line or runs.
 */
void sim_gp_str(FILE *gp, const char *fmt, ...)
{
	va_list ap;
	char *s, *p;

	va_start(ap, fmt);
	s = input_vescape(fmt, ap);
	va_end(ap);
	fputc('\'', gp);
	for (p = s; p && *p; p++) {
		if (*p == '\'')
			fputc('\'', gp);
		fputc(*p, gp);
	}
	fputc('\'', gp);
	free(s);
}

/**
 * sim_run_gnuplot() - run "gnuplot @script" in a directory
 * @dir: the directory, which holds @script and its data.
 * @script: file name of the gnuplot script.
 *
 * Shared by the sweep's figures and "gputbs timeline".
 *
 * Return: 0 on success; %SIM_GNUPLOT_MISSING if gnuplot cannot be run;
 * -1 (errno set) if fork() or waitpid() failed; any other value if
 * gnuplot failed (or could not enter @dir).
 */
int sim_run_gnuplot(const char *dir, const char *script)
{
	int status;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		if (chdir(dir))
			_exit(126);
		execlp("gnuplot", "gnuplot", script, (char *)NULL);
		_exit(SIM_GNUPLOT_MISSING);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	if (!WIFEXITED(status))
		return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
	return WEXITSTATUS(status);
}

/* Run "gnuplot plot.gp" in @dir.  0 or an exit status after a message. */
static int sim_gnuplot(const char *dir)
{
	int ret = sim_run_gnuplot(dir, "plot.gp");

	if (!ret)
		return 0;
	if (ret < 0)
		fprintf(stderr, "%s: --plot: fork: %s\n", sim_progname,
			strerror(errno));
	else if (ret == SIM_GNUPLOT_MISSING)
		fprintf(stderr, "%s: --plot: cannot run gnuplot (Debian: apt-get install gnuplot-nox); the data and plot.gp are in %s\n",
			sim_progname, dir);
	else
		fprintf(stderr, "%s: --plot: gnuplot %s/plot.gp failed\n",
			sim_progname, dir);
	return SIM_EXIT_SYSTEM;
}

/**
 * sim_plot() - write the figures of a sweep
 * @ev: the sweep, run.
 * @tl: NULL, or the timeline's pair, run under its policies with blocks.
 * @dir: output directory, created if missing (one level).
 *
 * Return: 0, or an exit status after a message.
 */
int sim_plot(const struct sim_eval *ev, const struct sim_timeline *tl,
	     const char *dir)
{
	struct sim_motiv motiv;
	char clock[64];
	unsigned int o, m, t;
	FILE *gp;
	int ret = 0;

	if (mkdir(dir, 0777) && errno != EEXIST) {
		fprintf(stderr, "%s: --plot: %s: %s\n", sim_progname, dir,
			strerror(errno));
		return SIM_EXIT_SYSTEM;
	}
	gp = sim_open(dir, "plot.gp");
	if (!gp)
		return SIM_EXIT_SYSTEM;
	input_print(gp, "# %s --plot: %s, %u SMs, %s.", ev->tool, ev->file,
		    ev->cfg.nr_sms, sim_clock(ev, clock, sizeof(clock)));
	fputs("\n# Every figure as SVG and PNG; run \"gnuplot plot.gp\" in this directory\n"
	      "# after editing to restyle.\n\n", gp);
	for (o = 0; !ret && o < ev->nr_offsets; o++) {
		for (m = 0; !ret && m < ARRAY_SIZE(sim_metric_file); m++) {
			ret = sim_write_metric(ev, dir, o, m);
			if (!ret)
				ret = sim_write_paper(ev, dir, o, m);
			sim_gp_metric(gp, ev, o, m);
		}
		if (!ret)
			ret = sim_write_geomean(ev, dir, o);
		sim_gp_geomean(gp, ev, o);
	}
	if (!ret && sim_motiv_calc(ev, &motiv)) {
		ret = sim_write_motiv(ev, &motiv, dir);
		sim_gp_motiv(gp, ev, &motiv);
	}
	for (t = 0; !ret && tl && t < tl->nr_policies; t++) {
		ret = sim_write_timeline(ev, tl, t, dir);
		sim_gp_timeline(gp, ev, tl, t);
	}
	if (sim_close(gp, dir, "plot.gp"))
		ret = -EIO;
	if (ret)
		return SIM_EXIT_SYSTEM;
	ret = sim_gnuplot(dir);
	if (!ret)
		fprintf(stderr, "%s: figures (SVG, PNG), their data and plot.gp in %s/\n",
			sim_progname, dir);
	return ret;
}
