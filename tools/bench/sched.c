// SPDX-License-Identifier: GPL-2.0
/*
 * sched.c - gputbs-bench-sched: CPU cost of the scheduler per block event.
 *
 * Drives a private &struct gtbs_dev of the portable core (sm-emu/, the
 * module's own scheduler) in virtual time, as tools/sim does, with G grids
 * kept in flight: G grids arrive at cycle 0 and whenever one completes a
 * new one arrives at the cycle it completed.  The grids cycle through the
 * programs of a workload file (default workloads/ercbench/kernels.gtbs,
 * the eight ERCBench kernels), each with its own seed.  What is measured
 * is CLOCK_THREAD_CPUTIME_ID over the steady-state loop
 * (gtbs_dev_run_until() from event to event, plus gtbs_grid_init() and
 * gtbs_grid_submit() of the replacement grids) divided by the blocks that
 * completed in it, after a warm-up until G grids completed (at most
 * --warmup-max blocks; before it, every block on an SM new to its grid
 * takes a per-(grid, SM) state never touched, which a device that ran a
 * while takes from the reserve its completed grids refilled): one block
 * event is one block's dispatch, its completion and the predictor's update
 * at both.
 *
 * The grids' memory is a pool allocated before the loop; the per-(grid,
 * SM) states come from the device's reserve, which the loop tops up as
 * the module does (&gtbs_dev.spare_only, gtbs_dev_spare_wanted()) with
 * the unwrapped calloc, and a completed grid gives its states back
 * (gtbs_grid_release()) before it is reused.  malloc, calloc, realloc and
 * free are wrapped (-Wl,--wrap=...) and counted inside the measured loop,
 * and the count is reported (it must be 0: no per-block allocation).
 *
 * Repetition r of every grid count of a (SMs, policy) runs back to back,
 * one grid count after the other, so that a ratio taken per repetition
 * (tools/bench/bench.py) compares runs made under the same host
 * conditions.
 *
 * Output: one JSON object on stdout; each run also gives grid_bytes, the
 * core's size of one grid at that SM count (gtbs_grid_size(): what the
 * module allocates per grid, plus its own part of struct gputbs_grid), and
 * grid_sm_bytes, the size of one per-(grid, SM) state
 * (gtbs_grid_sm_size()), of which a grid holds one per SM it ran on.
 *
 * Copyright (C) 2026 The gputbs developers
 */
#include <dlfcn.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "gtbs.h"
#include "gtbs_policy_module.h"
#include "../lib/json.h"
#include "../lib/workload.h"
#include "../../tools/include/gtbs_pair_alloc_user.h"

/* ---- allocation counting (-Wl,--wrap=malloc,...) ---------------------- */

static unsigned long bench_allocs;

void *__real_malloc(size_t size);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t size);
void __real_free(void *p);

void *__wrap_malloc(size_t size)
{
	__atomic_add_fetch(&bench_allocs, 1, __ATOMIC_RELAXED);
	return __real_malloc(size);
}

void *__wrap_calloc(size_t n, size_t size)
{
	__atomic_add_fetch(&bench_allocs, 1, __ATOMIC_RELAXED);
	return __real_calloc(n, size);
}

void *__wrap_realloc(void *p, size_t size)
{
	__atomic_add_fetch(&bench_allocs, 1, __ATOMIC_RELAXED);
	return __real_realloc(p, size);
}

void __wrap_free(void *p)
{
	if (p)
		__atomic_add_fetch(&bench_allocs, 1, __ATOMIC_RELAXED);
	__real_free(p);
}

/* ---- the device ---------------------------------------------------------- */

/* Top up the device's reserve of per-(grid, SM) states, as the module. */
static void bench_refill(struct gtbs_dev *dev)
{
	u32 n = gtbs_dev_spare_wanted(dev);

	while (n--) {
		struct gtbs_grid_sm *gs =
			__real_calloc(1, gtbs_grid_sm_size(&dev->cfg));

		if (!gs)
			return;	/* the run stops short and is retried */
		gtbs_dev_spare_add(dev, gs);
	}
}

/* gtbs_dev_run_until() for a device with a reserve: refill, run again. */
static void bench_run(struct gtbs_dev *dev, u64 until)
{
	u32 budget;

	do {
		bench_refill(dev);
		budget = U32_MAX;
	} while (!gtbs_dev_run_bounded(dev, until, &budget));
}

#define MAX_LIST	16
#define MAX_REPS	1000

struct bench {
	struct gtbs_dev dev;
	struct gtbs_dev_config cfg;
	struct gtbs_sm **sms;
	struct gtbs_grid **pool;	/* G grids, reused */
	unsigned int nr_grids;
	struct gtbs_grid **done;	/* completed since the last refill */
	unsigned int nr_done;
	const struct wl_set *set;
	unsigned int next_prog;		/* next program to submit */
	u64 next_seed;
	u64 grids_submitted;
};

static void bench_grid_done(struct gtbs_dev *dev, struct gtbs_grid *grid)
{
	struct bench *b = dev->priv;

	b->done[b->nr_done++] = grid;
}

static const struct gtbs_backend_ops bench_backend = {
	.grid_done = bench_grid_done,
};

static void die(const char *fmt, const char *arg)
{
	fprintf(stderr, "gputbs-bench-sched: ");
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	exit(2);
}

/* The next grid of the rotation into @grid, submitted at @now. */
static void bench_submit(struct bench *b, struct gtbs_grid *grid, u64 now)
{
	const struct wl_program *prog = b->set->programs[b->next_prog];
	const struct wl_grid *g = &prog->grids[0];
	struct gtbs_grid_desc desc = {
		.nr_blocks = g->nr_blocks,
		.threads_per_block = g->threads,
		.regs_per_thread = g->regs,
		.shmem_per_block = g->shmem,
		.block_cycles = g->durations ? 0 : g->cycles,
		.block_rsd_ppm = g->durations ? 0 : g->rsd_ppm,
		.seed = g->seed ^ (b->next_seed++ * 0x9e3779b97f4a7c15ULL),
		.durations = g->durations,
		.prio_class = GTBS_PRIO_NORMAL,
	};
	const char *why;

	memcpy(desc.label, g->label, sizeof(desc.label));
	desc.label[sizeof(desc.label) - 1] = '\0';
	b->next_prog = (b->next_prog + 1) % b->set->nr_programs;
	if (gtbs_grid_init(&b->dev, grid, &desc, &why))
		die("grid rejected: %s", why);
	gtbs_grid_submit(&b->dev, grid, now);
	b->grids_submitted++;
}

static u64 bench_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (u64)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static u64 bench_blocks_run(const struct bench *b)
{
	u64 n = 0;
	u32 i;

	for (i = 0; i < b->cfg.nr_sms; i++)
		n += b->sms[i]->blocks_run;
	return n;
}

struct bench_result {
	u64 cpu_ns;
	u64 blocks;
	u64 grids;
	u64 allocs;
	u64 cycles;
	u64 warmup_blocks;
	u64 warmup_grids;
};

/*
 * One step of the loop: run to the next event and replace the grids that
 * completed at it.  Return: the cycle of the event, U64_MAX if none.
 */
static u64 bench_step(struct bench *b)
{
	u64 t = gtbs_dev_next_event(&b->dev);

	if (t == U64_MAX)
		return t;
	bench_run(&b->dev, t);
	/* each completed grid is replaced at the cycle it ended */
	while (b->nr_done) {
		struct gtbs_grid *grid = b->done[--b->nr_done];

		gtbs_grid_release(&b->dev, grid);
		bench_submit(b, grid, t);
	}
	return t;
}

/*
 * One repetition: a fresh device, G grids in flight; a warm-up until G
 * grids completed (the grids in flight turned over once: their per-(grid,
 * SM) states come from the reserve that the completed ones filled, as in
 * a long-running device) or @warmup_max blocks were dispatched, whichever
 * comes first; then @target blocks, measured.
 */
static void bench_once(const struct gtbs_dev_config *cfg,
		       const struct gtbs_policy_ops *policy,
		       const struct wl_set *set, unsigned int nr_grids,
		       u64 target, u64 warmup_max, u64 seed,
		       struct bench_result *res)
{
	struct bench *b = calloc(1, sizeof(*b));
	u64 t, blocks0, disp0, cpu0, allocs0, grids0;
	unsigned int i;

	if (!b)
		die("%s", "out of memory");
	b->cfg = *cfg;
	b->set = set;
	b->next_seed = seed;
	b->nr_grids = nr_grids;
	b->sms = calloc(cfg->nr_sms, sizeof(*b->sms));
	b->pool = calloc(nr_grids, sizeof(*b->pool));
	b->done = calloc(nr_grids, sizeof(*b->done));
	if (!b->sms || !b->pool || !b->done)
		die("%s", "out of memory");
	for (i = 0; i < cfg->nr_sms; i++) {
		b->sms[i] = malloc(gtbs_sm_size(cfg));
		if (!b->sms[i])
			die("%s", "out of memory");
		gtbs_sm_init(cfg, b->sms[i], i);
	}
	for (i = 0; i < nr_grids; i++) {
		b->pool[i] = calloc(1, gtbs_grid_size(cfg));
		if (!b->pool[i])
			die("%s", "out of memory");
	}
	gtbs_dev_init(&b->dev, cfg, policy, b->sms);
	b->dev.pair_alloc = &gtbs_pair_alloc_libc;
	b->dev.backend = &bench_backend;
	b->dev.priv = b;
	b->dev.spare_only = true;
	/* G grids arrive at cycle 0 */
	for (i = 0; i < nr_grids; i++)
		bench_submit(b, b->pool[i], 0);
	bench_run(&b->dev, 0);
	while (b->dev.grids_completed < nr_grids &&
	       b->dev.blocks_dispatched < warmup_max &&
	       bench_step(b) != U64_MAX)
		;
	res->warmup_blocks = b->dev.blocks_dispatched;
	res->warmup_grids = b->dev.grids_completed;

	blocks0 = bench_blocks_run(b);
	disp0 = b->dev.blocks_dispatched;
	grids0 = b->dev.grids_completed;
	allocs0 = __atomic_load_n(&bench_allocs, __ATOMIC_RELAXED);
	cpu0 = bench_cpu_ns();
	t = 0;
	/* an O(1) condition: the harness must not scan the SMs per event */
	while (b->dev.blocks_dispatched - disp0 < target) {
		u64 next = bench_step(b);

		if (next == U64_MAX)
			break;
		t = next;
	}
	res->cpu_ns = bench_cpu_ns() - cpu0;
	res->allocs = __atomic_load_n(&bench_allocs, __ATOMIC_RELAXED) - allocs0;
	res->blocks = bench_blocks_run(b) - blocks0;
	res->grids = b->dev.grids_completed - grids0;
	res->cycles = t;

	for (i = 0; i < nr_grids; i++) {
		gtbs_grid_release(&b->dev, b->pool[i]);
		free(b->pool[i]);
	}
	gtbs_dev_spare_free(&b->dev);
	for (i = 0; i < cfg->nr_sms; i++)
		free(b->sms[i]);
	free(b->pool);
	free(b->done);
	free(b->sms);
	free(b);
}

static unsigned int parse_list(const char *arg, unsigned int *out,
			       unsigned int lo, unsigned int hi)
{
	char *end;
	unsigned int n = 0;
	unsigned long v;

	for (;;) {
		errno = 0;
		v = strtoul(arg, &end, 10);
		if (errno || end == arg || v < lo || v > hi || n == MAX_LIST)
			die("bad number list: %s", arg);
		out[n++] = v;
		if (*end == '\0')
			return n;
		if (*end != ',')
			die("bad number list: %s", arg);
		arg = end + 1;
	}
}

/*
 * --policy-plugin FILE.so: register the policy of a plug-in built with
 * GTBS_POLICY_MODULE() (samples/policies, `make samples-so`), as
 * gputbs-sim does (tools/sim/plugin.c); this program exports the core
 * (-Wl,--export-dynamic).  Its allocations at load come before any
 * measured loop.
 */
static void load_plugin(const char *path)
{
	const struct gtbs_policy_ops *const *sym;
	const char *why;
	void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);

	if (!handle)
		die("%s", dlerror());
	sym = dlsym(handle, GTBS_POLICY_PLUGIN_SYMBOL);
	if (!sym || !*sym)
		die("%s: no gtbs_plugin_policy symbol", path);
	if (gtbs_policy_check(*sym, &why)) {
		fprintf(stderr, "gputbs-bench-sched: %s: policy refused: %s\n",
			path, why);
		exit(1);
	}
	if (gtbs_policy_register(*sym))
		die("%s: policy refused: a policy of that name is registered",
		    path);
}

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/* The repetitions of one (SMs, grids, policy) configuration. */
struct bench_cell {
	u64 ps[MAX_REPS];		/* per block event, by repetition */
	struct bench_result sum;
};

static void bench_cell_add(struct bench_cell *c, unsigned int r,
			   const struct gtbs_dev_config *cfg,
			   const struct gtbs_policy_ops *policy,
			   const struct wl_set *set, unsigned int nr_grids,
			   u64 target, u64 warmup_max)
{
	struct bench_result res;

	bench_once(cfg, policy, set, nr_grids, target, warmup_max, r + 1,
		   &res);
	if (!res.blocks)
		die("%s", "no block completed");
	c->ps[r] = res.cpu_ns * 1000 / res.blocks;
	c->sum.blocks += res.blocks;
	c->sum.grids += res.grids;
	c->sum.allocs += res.allocs;
	c->sum.cpu_ns += res.cpu_ns;
	c->sum.warmup_blocks += res.warmup_blocks;
	c->sum.warmup_grids += res.warmup_grids;
}

/* One element of "runs": the repetitions in order, then the sums. */
static void print_run(struct json *j, struct bench_cell *c,
		      const struct gtbs_dev_config *cfg, unsigned int reps,
		      unsigned int nr_grids, const char *policy)
{
	unsigned int r;

	json_obj(j, NULL);
	json_u64(j, "sms", cfg->nr_sms);
	json_u64(j, "grids", nr_grids);
	json_str(j, "policy", policy);
	json_arr(j, "ps_per_event");
	for (r = 0; r < reps; r++)
		json_u64(j, NULL, c->ps[r]);
	json_arr_end(j);
	qsort(c->ps, reps, sizeof(c->ps[0]), cmp_u64);
	json_u64(j, "blocks", c->sum.blocks);
	json_u64(j, "grids_completed", c->sum.grids);
	json_u64(j, "cpu_ns", c->sum.cpu_ns);
	json_u64(j, "allocs_in_loop", c->sum.allocs);
	json_u64(j, "warmup_blocks", c->sum.warmup_blocks);
	json_u64(j, "warmup_grids", c->sum.warmup_grids);
	json_u64(j, "grid_bytes", gtbs_grid_size(cfg));
	json_u64(j, "grid_sm_bytes", gtbs_grid_sm_size(cfg));
	json_obj_end(j);
	fprintf(stderr,
		"sched: %4u SMs %-13s %3u grids: %7.1f ns/event (median of %u)\n",
		cfg->nr_sms, policy, nr_grids, c->ps[reps / 2] / 1000.0, reps);
}

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: gputbs-bench-sched [OPTIONS]\n"
		"\n"
		"CPU time of the portable core per block event (dispatch,\n"
		"completion, predictor update) with G grids kept in flight, in\n"
		"virtual time, for every SM count x grid count x policy.\n"
		"Prints one JSON object.\n"
		"\n"
		"  -s, --sms LIST       SM counts (default 15,80,132)\n"
		"  -g, --grids LIST     grids kept in flight (default 1,8,32,128)\n"
		"  -P, --policies LIST  comma-separated (default: all)\n"
		"  -b, --blocks N       block events per repetition (default 200000)\n"
		"  -r, --reps N         repetitions (default 5)\n"
		"  -W, --warmup-max N   warm-up before each repetition: until G\n"
		"                       grids completed or N blocks were dispatched\n"
		"                       (default 10 x --blocks; 0: none, measure\n"
		"                       from the cold start)\n"
		"  -w, --workloads FILE grids cycle through its programs\n"
		"                       (default workloads/ercbench/kernels.gtbs)\n"
		"  -p, --policy-plugin FILE.so  also a policy plug-in\n"
		"                       (samples/policies, make samples-so)\n"
		"  -h, --help           this help\n");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "sms", required_argument, NULL, 's' },
		{ "grids", required_argument, NULL, 'g' },
		{ "policies", required_argument, NULL, 'P' },
		{ "blocks", required_argument, NULL, 'b' },
		{ "reps", required_argument, NULL, 'r' },
		{ "warmup-max", required_argument, NULL, 'W' },
		{ "workloads", required_argument, NULL, 'w' },
		{ "policy-plugin", required_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned int sms[MAX_LIST] = { 15, 80, 132 }, nr_sms = 3;
	unsigned int grids[MAX_LIST] = { 1, 8, 32, 128 }, nr_grid_counts = 4;
	const struct gtbs_policy_ops *policies[MAX_LIST];
	unsigned int nr_policies = 0, reps = 5, s, gi, p, r;
	unsigned long long target = 200000, warmup_max = ~0ULL;
	const char *file = "workloads/ercbench/kernels.gtbs";
	const char *policy_arg = NULL;
	static struct bench_cell cells[MAX_LIST];
	struct wl_set *set;
	char errbuf[512];
	struct json j;
	int c;

	if (gtbs_policy_register_builtins())
		return 1;
	while ((c = getopt_long(argc, argv, "s:g:P:b:r:W:w:p:h", opts, NULL)) != -1) {
		switch (c) {
		case 's':
			nr_sms = parse_list(optarg, sms, 1, GTBS_MAX_SMS);
			break;
		case 'g':
			nr_grid_counts = parse_list(optarg, grids, 1, 65536);
			break;
		case 'P':
			policy_arg = optarg;
			break;
		case 'b':
			target = strtoull(optarg, NULL, 10);
			if (!target)
				die("bad --blocks: %s", optarg);
			break;
		case 'r':
			reps = strtoul(optarg, NULL, 10);
			if (!reps || reps > MAX_REPS)
				die("bad --reps: %s", optarg);
			break;
		case 'W':
			warmup_max = strtoull(optarg, NULL, 10);
			break;
		case 'w':
			file = optarg;
			break;
		case 'p':
			load_plugin(optarg);
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (policy_arg) {
		char buf[256], *tok, *save;

		snprintf(buf, sizeof(buf), "%s", policy_arg);
		for (tok = strtok_r(buf, ",", &save); tok;
		     tok = strtok_r(NULL, ",", &save)) {
			if (nr_policies == MAX_LIST)
				die("too many policies: %s", policy_arg);
			policies[nr_policies] = gtbs_policy_find(tok);
			if (!policies[nr_policies++])
				die("unknown policy: %s", tok);
		}
	} else {
		while (nr_policies < MAX_LIST && gtbs_policy_at(nr_policies)) {
			policies[nr_policies] = gtbs_policy_at(nr_policies);
			nr_policies++;
		}
	}
	if (warmup_max == ~0ULL)
		warmup_max = 10 * target;
	if (wl_parse_file(file, WL_PARSE_PROGRAMS, &set, errbuf,
			  sizeof(errbuf)))
		die("%s", errbuf);
	if (!set->nr_programs)
		die("%s: no programs", file);

	json_init(&j, stdout);
	json_obj(&j, NULL);
	json_str(&j, "workloads", file);
	json_u64(&j, "blocks_per_rep", target);
	json_u64(&j, "warmup_max", warmup_max);
	json_u64(&j, "reps", reps);
	json_arr(&j, "runs");
	for (s = 0; s < nr_sms; s++) {
		struct gtbs_dev_config cfg;
		const char *why;

		gtbs_config_default(&cfg);
		cfg.nr_sms = sms[s];
		if (gtbs_config_check(&cfg, &why))
			die("bad device: %s", why);
		for (p = 0; p < nr_policies; p++) {
			/*
			 * Repetition r of every grid count runs back to back,
			 * so each ratio of make bench (many grids / one grid,
			 * per repetition) compares runs under the same host
			 * conditions.
			 */
			memset(cells, 0, sizeof(cells));
			for (r = 0; r < reps; r++)
				for (gi = 0; gi < nr_grid_counts; gi++)
					bench_cell_add(&cells[gi], r, &cfg,
						       policies[p], set,
						       grids[gi], target,
						       warmup_max);
			for (gi = 0; gi < nr_grid_counts; gi++)
				print_run(&j, &cells[gi], &cfg, reps,
					  grids[gi], policies[p]->name);
		}
	}
	json_arr_end(&j);
	json_obj_end(&j);
	if (json_end(&j))
		return 1;
	wl_free(set);
	return 0;
}
