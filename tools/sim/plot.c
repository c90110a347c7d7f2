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
 *   policies); ANTT on a log scale.
 * - motivation: the paper's Section "Motivation" (sim_motiv_calc()): per
 *   pair A+B (A before B by the paper's names) the STP under the serial
 *   SJF, our device's FIFO, the serial FIFO and the serial LJF, then a
 *   group of their geomeans and one of the paper's; whenever the sweep
 *   has offset 0, sjf, fifo and ljf.
 * - timeline-POLICY: every thread block of one pair as a horizontal bar on
 *   its SM (one thin row per block slot), coloured by grid, with a black
 *   tick where each SM issued the second program's first block there:
 *   under SRTF the switch after sampling and hand-off.
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
#include "sim.h"

static const char * const sim_metric_file[] = { "stp", "antt", "strictf" };
static const char * const sim_metric_title[] = {
	"STP (higher is better)",
	"ANTT (lower is better, log scale)",
	"StrictF (1 is fair)",
};

/* fopen DIR/NAME for writing; NULL after a message. */
static FILE *sim_open(const char *dir, const char *name)
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

static int sim_close(FILE *f, const char *dir, const char *name)
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
	fputc('\n', gp);
	fputs("unset output\n", gp);
	sim_gp_png(gp, base, 1800, 600);
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
	return sim_close(f, dir, name);
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
	sim_gp_str(gp, "%s under %s, %s: blocks per SM (thin rows: the SM's %u block slots); black: the SM's first block of %s",
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
	fprintf(gp, ", \\\n     \"%s-first.dat\" using 2:($1 - 0.5):(0):(1) with vectors nohead lw 2 lc rgb \"black\" title ",
		base);
	sim_gp_str(gp, "first block of %s", ev->progs[pair->b]->name);
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
			sim_gp_metric(gp, ev, o, m);
		}
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
