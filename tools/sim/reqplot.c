// SPDX-License-Identifier: GPL-2.0
/*
 * reqplot.c - figures of requests (gputbs-sim run --plot DIR): per run
 * with requests, the latency CDF under each policy and the throughput over
 * time (completed requests per second of emulated time, in 50 intervals
 * of the run's window), as gnuplot data, a script and SVG and PNG images
 * (Documentation/workloads.rst, "Requests").
 *
 * Copyright (C) 2026 The gputbs developers
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "sim.h"
#include "../lib/eval/plot.h"
#include "../lib/report.h"

#define REQPLOT_BINS	50

static int reqplot_cmp(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/* Latencies of @s, sorted: "latency_cycles fraction" lines. */
static int reqplot_cdf(const char *dir, const char *name,
		       const struct prog_result *s)
{
	unsigned int g = s->prog->nr_grids, q;
	u64 *lat;
	FILE *f;

	lat = calloc(s->nr_requests, sizeof(*lat));
	if (!lat) {
		sim_err("out of memory");
		return -ENOMEM;
	}
	for (q = 0; q < s->nr_requests; q++)
		lat[q] = s->grids[(size_t)(q + 1) * g - 1].end_cycle -
			 s->arrive[q];
	qsort(lat, s->nr_requests, sizeof(*lat), reqplot_cmp);
	f = sim_open(dir, name);
	if (!f) {
		free(lat);
		return -EIO;
	}
	fprintf(f, "# latency(cycles) fraction of requests <= it\n");
	for (q = 0; q < s->nr_requests; q++)
		fprintf(f, "%" PRIu64 " %.6f\n", (uint64_t)lat[q],
			(double)(q + 1) / s->nr_requests);
	free(lat);
	return sim_close(f, dir, name);
}

/*
 * Completed requests per second in REQPLOT_BINS intervals of
 * [@from, @to): "interval_end_cycles requests_per_s" lines.
 */
static int reqplot_tput(const char *dir, const char *name,
			const struct prog_result *s, u64 from, u64 to,
			u32 clock_khz)
{
	unsigned int g = s->prog->nr_grids, q, b, n[REQPLOT_BINS] = { 0 };
	u64 width = (to - from + REQPLOT_BINS - 1) / REQPLOT_BINS;
	FILE *f;

	if (!width)
		width = 1;
	for (q = 0; q < s->nr_requests; q++) {
		u64 end = s->grids[(size_t)(q + 1) * g - 1].end_cycle;

		b = end > from ? (end - from) / width : 0;
		n[b < REQPLOT_BINS ? b : REQPLOT_BINS - 1]++;
	}
	f = sim_open(dir, name);
	if (!f)
		return -EIO;
	fprintf(f, "# interval end (cycles after the first arrival) requests/s\n");
	for (b = 0; b < REQPLOT_BINS; b++)
		fprintf(f, "%" PRIu64 " %.3f\n", (uint64_t)((b + 1) * width),
			(double)n[b] * clock_khz * 1000.0 / width);
	return sim_close(f, dir, name);
}

static void reqplot_gp_out(FILE *gp, const char *base)
{
	fprintf(gp, "set terminal svg size 800,450 noenhanced font \"sans,10\" background rgb \"white\"\n"
		"set output \"%s.svg\"\n", base);
}

static void reqplot_gp_png(FILE *gp, const char *base)
{
	fprintf(gp, "if (strstrt(GPVAL_TERMINALS, \"pngcairo\") > 0) {\n"
		"\tset terminal pngcairo size 800,450 noenhanced font \"sans,10\" background rgb \"white\"\n"
		"} else {\n"
		"\tset terminal png size 800,450 noenhanced\n"
		"}\n"
		"set output \"%s.png\"\nreplot\nunset output\n\n", base);
}

/**
 * sim_plot_requests() - the figures of a run's requests
 * @dir: output directory, created if missing (one level).
 * @wls: per policy @nr_wls workload executions (&struct report.wls).
 * @nr_wls: workloads.
 * @names: the policies' names.
 * @nr_policies: policies.
 * @clock_khz: the device's clock.
 *
 * Per workload w and run r with requests: ``w<w>-r<r>-latency.svg`` (a
 * CDF per policy) and ``w<w>-r<r>-throughput.svg`` (completed requests
 * per second of emulated time per policy), with PNG copies, their data
 * (``...-<policy index>.dat``) and ``requests.gp``.
 *
 * Return: 0, or an exit status after a message.
 */
int sim_plot_requests(const char *dir, const struct workload_result *wls,
		      unsigned int nr_wls, const char * const *names,
		      unsigned int nr_policies, u32 clock_khz)
{
	unsigned int w, r, p, figs = 0;
	char name[96], base[64];
	FILE *gp;
	int ret = 0;

	if (mkdir(dir, 0777) && errno != EEXIST) {
		sim_err("--plot: %s: %s", dir, strerror(errno));
		return SIM_EXIT_SYSTEM;
	}
	gp = sim_open(dir, "requests.gp");
	if (!gp)
		return SIM_EXIT_SYSTEM;
	fputs("# gputbs-sim run --plot: per run with requests, its latency CDF and\n"
	      "# throughput over time under each policy; run \"gnuplot requests.gp\"\n"
	      "# in this directory after editing to restyle.\n\n", gp);
	for (w = 0; !ret && w < nr_wls; w++) {
		const struct workload_result *res0 = &wls[w];

		for (r = 0; !ret && r < res0->wl->nr_runs; r++) {
			u64 from = U64_MAX, to = 0;

			if (res0->runs[r].nr_requests < 2)
				continue;
			for (p = 0; p < nr_policies; p++) {
				const struct req_stats *st =
					&wls[p * nr_wls + w].runs[r].stats;

				from = min(from, st->first_arrive);
				to = max(to, st->last_end);
			}
			for (p = 0; !ret && p < nr_policies; p++) {
				const struct prog_result *s =
					&wls[p * nr_wls + w].runs[r];

				snprintf(name, sizeof(name),
					 "w%u-r%u-latency-%u.dat", w, r, p);
				ret = reqplot_cdf(dir, name, s);
				snprintf(name, sizeof(name),
					 "w%u-r%u-throughput-%u.dat", w, r, p);
				if (!ret)
					ret = reqplot_tput(dir, name, s, from,
							   to, clock_khz);
			}
			snprintf(base, sizeof(base), "w%u-r%u-latency", w, r);
			reqplot_gp_out(gp, base);
			fputs("set title ", gp);
			sim_gp_str(gp, "%s, run %u (%s, %u requests): request latency CDF",
				   res0->wl->name, r, res0->runs[r].prog->name,
				   res0->runs[r].nr_requests);
			fputs("\nset xlabel 'latency (cycles, log scale)'\nset ylabel 'fraction of requests'\n"
			      "set logscale x\nset key bottom right\nset yrange [0:1]\nset xrange [*:*]\nset grid\nplot ", gp);
			for (p = 0; p < nr_policies; p++) {
				fprintf(gp, "%s'w%u-r%u-latency-%u.dat' using 1:2 with steps title ",
					p ? ", " : "", w, r, p);
				sim_gp_str(gp, "%s", names[p]);
			}
			fputs("\nunset output\n", gp);
			reqplot_gp_png(gp, base);
			snprintf(base, sizeof(base), "w%u-r%u-throughput", w, r);
			reqplot_gp_out(gp, base);
			fputs("set title ", gp);
			sim_gp_str(gp, "%s, run %u (%s): completed requests per second of emulated time",
				   res0->wl->name, r, res0->runs[r].prog->name);
			fputs("\nunset logscale x\nset xlabel 'cycles after the first arrival'\nset ylabel 'requests/s'\n"
			      "set key top right\nset yrange [0:*]\nset xrange [*:*]\nset grid\nplot ", gp);
			for (p = 0; p < nr_policies; p++) {
				fprintf(gp, "%s'w%u-r%u-throughput-%u.dat' using 1:2 with linespoints title ",
					p ? ", " : "", w, r, p);
				sim_gp_str(gp, "%s", names[p]);
			}
			fputs("\nunset output\n", gp);
			reqplot_gp_png(gp, base);
			figs += 2;
		}
	}
	if (sim_close(gp, dir, "requests.gp"))
		ret = -EIO;
	if (ret)
		return SIM_EXIT_SYSTEM;
	if (!figs) {
		sim_err("--plot: no run with requests (requests=N, N > 1) to draw");
		return SIM_EXIT_USAGE;
	}
	ret = sim_run_gnuplot(dir, "requests.gp");
	if (ret == SIM_GNUPLOT_MISSING) {
		sim_err("--plot: cannot run gnuplot (Debian: apt-get install gnuplot-nox); the data and requests.gp are in %s",
			dir);
		return SIM_EXIT_SYSTEM;
	}
	if (ret) {
		sim_err("--plot: gnuplot %s/requests.gp failed", dir);
		return SIM_EXIT_SYSTEM;
	}
	fprintf(stderr, "%s: %u figures (SVG, PNG), their data and requests.gp in %s/\n",
		sim_progname, figs, dir);
	return 0;
}
