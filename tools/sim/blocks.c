// SPDX-License-Identifier: GPL-2.0
/*
 * blocks.c - "gputbs-sim blocks": the shape of each grid's block durations.
 *
 * Draws every block's work with the core's gtbs_block_work() (the module's
 * own code) and prints, per grid, the sample mean and %RSD and the
 * quantiles over the sample mean, as the paper's Figure "Boxplots of
 * normalized thread block durations" shows them (Section "Differing Work
 * per Thread Block"; Documentation/timing-model.rst, "Block work").
 *
 * Copyright (C) 2026 The gputbs developers
 */
#include <getopt.h>
#include <math.h>
#include <stdlib.h>

#include "sim.h"

static const char usage_blocks[] =
	"Usage: gputbs-sim blocks [OPTIONS] WORKLOAD\n"
	"\n"
	"Draw the work of every block of every grid of the workload file's\n"
	"programs (alone at maximum residency, the model's w) and print per\n"
	"grid: blocks, declared t and %RSD, sample mean over t and %RSD, the\n"
	"5th, 25th, 50th, 75th percentile and the maximum over the sample\n"
	"mean, and the shares of blocks within 0.95x..1.1x and 0.75x..1x of it\n"
	"(the paper's Section \"Differing Work per Thread Block\").\n"
	"\n"
	"  -S, --seed N          XOR a scramble of N into every grid's seed\n"
	"  -h, --help            this help\n";

static void sim_blocks_help(FILE *f)
{
	fputs(usage_blocks, f);
}

static int sim_cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/* Nearest-rank quantile @q (0..1) of the sorted @w[0..@n-1]. */
static u64 sim_quantile(const u64 *w, u32 n, double q)
{
	u32 k = (u32)ceil(q * n);

	return w[k ? k - 1 : 0];
}

static int sim_blocks_grid(const struct wl_program *prog,
			   const struct wl_grid *g, u64 seed_mix)
{
	struct gtbs_grid_desc desc;
	double sum = 0, sq = 0, mean, sd;
	u32 i, in_box = 0, in_render = 0;
	u64 *w;

	if (sim_grid_desc(g, seed_mix, &desc))
		return SIM_EXIT_USAGE;
	w = malloc(sizeof(*w) * g->nr_blocks);
	if (!w) {
		sim_err("out of memory");
		return SIM_EXIT_SYSTEM;
	}
	for (i = 0; i < g->nr_blocks; i++) {
		w[i] = gtbs_block_work(&desc, i);
		sum += (double)w[i];
	}
	mean = sum / g->nr_blocks;
	for (i = 0; i < g->nr_blocks; i++) {
		double x = (double)w[i] / mean;

		sq += ((double)w[i] - mean) * ((double)w[i] - mean);
		in_box += x >= 0.95 && x <= 1.1;
		in_render += x >= 0.75 && x <= 1.0;
	}
	sd = g->nr_blocks > 1 ? sqrt(sq / (g->nr_blocks - 1)) : 0;
	qsort(w, g->nr_blocks, sizeof(*w), sim_cmp_u64);
	printf("%-11s %-19s %5u %8llu %6.2f %6.4f %6.2f %5.2f %5.2f %5.2f %5.2f %5.2f %5.2f %5.1f%% %5.1f%%\n",
	       prog->name, g->label, g->nr_blocks,
	       (unsigned long long)(g->durations ? 0 : g->cycles),
	       g->rsd_ppm / 10000.0,
	       g->cycles && !g->durations ? mean / g->cycles : 1.0,
	       100 * sd / mean, sim_quantile(w, g->nr_blocks, 0.05) / mean,
	       sim_quantile(w, g->nr_blocks, 0.25) / mean,
	       sim_quantile(w, g->nr_blocks, 0.50) / mean,
	       sim_quantile(w, g->nr_blocks, 0.75) / mean,
	       w[g->nr_blocks - 1] / mean, w[0] / mean,
	       100.0 * in_box / g->nr_blocks,
	       100.0 * in_render / g->nr_blocks);
	free(w);
	return 0;
}

/**
 * cmd_blocks() - "gputbs-sim blocks [--seed N] WORKLOAD"
 * @argc: argument count, the command name first.
 * @argv: arguments.
 *
 * Return: 0, %SIM_EXIT_SYSTEM or %SIM_EXIT_USAGE.
 */
int cmd_blocks(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "seed", required_argument, NULL, 'S' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct wl_set *set = NULL;
	char err[WL_ERR_LEN];
	unsigned int p, j;
	int opt, ret = 0;
	u64 seed = 0;

	while (!ret && (opt = getopt_long(argc, argv, "S:h", opts,
					  NULL)) != -1) {
		switch (opt) {
		case 'S':
			ret = sim_parse_seed(sim_blocks_help, optarg, &seed);
			break;
		case 'h':
			fputs(usage_blocks, stdout);
			return 0;
		default:
			fputs(usage_blocks, stderr);
			return SIM_EXIT_USAGE;
		}
	}
	if (ret)
		return ret;
	if (optind + 1 != argc)
		return sim_usage_error(sim_blocks_help, "%s",
				       "expected one workload file");
	if (wl_parse_file(argv[optind], WL_PARSE_PROGRAMS, &set, err,
			  sizeof(err))) {
		wl_errors(err, sim_err_line);
		return SIM_EXIT_USAGE;
	}
	printf("%-11s %-19s %5s %8s %6s %6s %6s %5s %5s %5s %5s %5s %5s %6s %6s\n",
	       "program", "grid", "blks", "t", "%RSD", "mean/t", "%RSD",
	       "p5", "p25", "p50", "p75", "max", "min", ".95-1.1", ".75-1");
	for (p = 0; !ret && p < set->nr_programs; p++)
		for (j = 0; !ret && j < set->programs[p]->nr_grids; j++)
			ret = sim_blocks_grid(set->programs[p],
					      &set->programs[p]->grids[j],
					      sim_seed_mix(seed));
	wl_free(set);
	return ret;
}
