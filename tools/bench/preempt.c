// SPDX-License-Identifier: GPL-2.0
/*
 * preempt.c - gputbs-bench-preempt: a realtime grid arriving while SHA1
 * fills the device, under each preemption mechanism, in emulated cycles.
 *
 * Drives a private &struct gtbs_dev of the portable core (sm-emu/, the
 * module's own scheduler) in virtual time, as tools/sim does.  A run is
 * one fresh device: the best-effort grid (default SHA1, class normal)
 * arrives at cycle 0 and fills every block slot; the realtime grid
 * (default RT, class realtime) arrives at one offset; the device runs
 * until both have completed.  Both come from a workload file (default
 * tools/bench/preempt.gtbs).
 *
 * Arrivals: N separate runs (default 100) per mechanism, the realtime
 * grid arriving at FROM + (a pseudo-random number mod SPAN), from
 * splitmix64 with a fixed seed, so that the arrivals fall anywhere in a
 * best-effort block's lifetime (default FROM = SPAN = its mean block
 * cycles: during the second wave, when every slot is held).  Every
 * mechanism sees the same offsets.  Everything is deterministic.
 *
 * Mechanisms (&enum gtbs_preempt_mode): drain, switch, flush with the
 * best-effort grid declared idempotent, and auto with it idempotent and
 * the realtime class's budget (&gtbs_dev.preempt_budget) at --budget.
 *
 * Per run:
 * - per-SM first-start latency: for each SM that admits a block of the
 *   realtime grid, the cycle its first one started (&gtbs_backend_ops
 *   .block_start) minus the grid's arrival;
 * - preemption latency: the largest of those, i.e. until the grid's
 *   first block starts on the last SM to admit one (with drain the grid
 *   may end before every SM admitted one: the SMs that did are counted);
 * - slowdowns: each grid's turnaround (arrival to its last block's end)
 *   over its runtime alone on the same device (same seed).
 *
 * Output: one JSON object on stdout (tools/lib/json.c); a summary per
 * mechanism on stderr.
 *
 * Copyright (C) 2026 The gputbs developers
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gtbs.h"
#include "../lib/json.h"
#include "../lib/workload.h"
#include "../../tools/include/gtbs_pair_alloc_user.h"

#define PB_MAX_ARRIVALS		100000
#define PB_DEFAULT_BUDGET	21000	/* Chimera's 15 us at ~1.4 GHz */

struct pb_mode {
	const char *name;
	u32 mode;		/* &enum gtbs_preempt_mode */
	bool idempotent;	/* the best-effort grid's declaration */
};

static const struct pb_mode pb_modes[] = {
	{ "drain", GTBS_PREEMPT_DRAIN, false },
	{ "switch", GTBS_PREEMPT_SWITCH, false },
	{ "flush", GTBS_PREEMPT_FLUSH, true },
	{ "auto", GTBS_PREEMPT_AUTO, true },
};

#define PB_NR_MODES	ARRAY_SIZE(pb_modes)

/* What every run shares. */
struct pb_setup {
	struct gtbs_dev_config cfg;
	const struct gtbs_policy_ops *policy;
	struct gtbs_grid_desc be;	/* best-effort */
	struct gtbs_grid_desc rt;	/* realtime */
	u32 switch_bw;			/* bytes per cycle, 0: the core's */
	u64 budget;			/* realtime class, cycles */
};

/* One run's device, and what its backend saw of the realtime grid. */
struct pb_dev {
	struct gtbs_dev dev;
	struct gtbs_sm **sms;
	struct gtbs_saved *pool;
	struct gtbs_grid *rt;
	u64 first_start[GTBS_MAX_SMS];	/* U64_MAX: none started there */
};

struct pb_result {
	u64 rt_turnaround;
	u64 be_turnaround;
	u64 first_start[GTBS_MAX_SMS];	/* after the arrival; U64_MAX: none */
	u64 preempts[GTBS_NR_MECHS];
	u64 restores;
	u64 xfer_cycles;
	u64 lost_cycles;
};

static void die(const char *fmt, const char *arg)
{
	fprintf(stderr, "gputbs-bench-preempt: ");
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	exit(2);
}

static void *pb_zalloc(size_t size)
{
	void *p = calloc(1, size);

	if (!p)
		die("%s", "out of memory");
	return p;
}

static void pb_block_start(struct gtbs_dev *dev, struct gtbs_sm *sm,
			   struct gtbs_grid *grid, u32 slot, u32 block,
			   u64 cycle)
{
	struct pb_dev *p = dev->priv;

	if (grid == p->rt && p->first_start[sm->id] == U64_MAX)
		p->first_start[sm->id] = cycle;
}

static const struct gtbs_backend_ops pb_backend = {
	.block_start = pb_block_start,
};

static struct gtbs_grid *pb_submit(struct pb_dev *p, const struct pb_setup *su,
				   const struct gtbs_grid_desc *desc, u64 at)
{
	struct gtbs_grid *grid = pb_zalloc(gtbs_grid_size(&su->cfg));
	const char *why;

	if (gtbs_grid_init(&p->dev, grid, desc, &why))
		die("grid rejected: %s", why);
	gtbs_grid_submit_at(&p->dev, grid, 0, at);
	return grid;
}

static u64 pb_turnaround(const struct gtbs_grid *grid)
{
	if (grid->state != GTBS_GRID_DONE)
		die("%s: did not complete", grid->desc.label);
	return grid->end_cycle - grid->submit_cycle;
}

/*
 * One run on a fresh device under @mode: @be (or NULL) at cycle 0, @rt
 * (or NULL) at @rt_at.
 */
static void pb_run(const struct pb_setup *su, const struct pb_mode *mode,
		   const struct gtbs_grid_desc *be,
		   const struct gtbs_grid_desc *rt, u64 rt_at,
		   struct pb_result *res)
{
	u32 n = su->cfg.nr_sms * su->cfg.max_blocks_per_sm * 4, i;
	struct pb_dev *p = pb_zalloc(sizeof(*p));
	struct gtbs_grid *be_grid = NULL;

	memset(res, 0, sizeof(*res));
	p->sms = pb_zalloc(su->cfg.nr_sms * sizeof(*p->sms));
	for (i = 0; i < su->cfg.nr_sms; i++) {
		p->sms[i] = pb_zalloc(gtbs_sm_size(&su->cfg));
		gtbs_sm_init(&su->cfg, p->sms[i], i);
		p->first_start[i] = U64_MAX;
	}
	gtbs_dev_init(&p->dev, &su->cfg, su->policy, p->sms);
	p->dev.pair_alloc = &gtbs_pair_alloc_libc;
	p->dev.backend = &pb_backend;
	p->dev.priv = p;
	if (su->switch_bw)
		p->dev.switch_bytes_per_cycle = su->switch_bw;
	p->dev.preempt_budget[GTBS_PRIO_REALTIME] = su->budget;
	/* records as tools/sim and the module size them */
	p->pool = pb_zalloc(n * sizeof(*p->pool));
	gtbs_dev_set_saved_pool(&p->dev, p->pool, n);
	if (gtbs_dev_set_preempt(&p->dev, mode->mode, 0))
		die("%s: bad mode", mode->name);

	if (be) {
		struct gtbs_grid_desc d = *be;

		d.idempotent = mode->idempotent;
		be_grid = pb_submit(p, su, &d, 0);
	}
	if (rt)
		p->rt = pb_submit(p, su, rt, rt_at);
	gtbs_dev_run_until(&p->dev, 0);
	gtbs_dev_run_until(&p->dev, U64_MAX);

	if (be_grid)
		res->be_turnaround = pb_turnaround(be_grid);
	if (p->rt) {
		res->rt_turnaround = pb_turnaround(p->rt);
		for (i = 0; i < su->cfg.nr_sms; i++)
			res->first_start[i] = p->first_start[i] == U64_MAX ?
				U64_MAX : p->first_start[i] - rt_at;
	}
	memcpy(res->preempts, p->dev.preempts, sizeof(res->preempts));
	res->restores = p->dev.restores;
	res->xfer_cycles = p->dev.xfer_cycles;
	res->lost_cycles = p->dev.lost_cycles;

	if (be_grid)
		gtbs_grid_release(&p->dev, be_grid);
	if (p->rt)
		gtbs_grid_release(&p->dev, p->rt);
	gtbs_dev_spare_free(&p->dev);
	free(be_grid);
	free(p->rt);
	for (i = 0; i < su->cfg.nr_sms; i++)
		free(p->sms[i]);
	free(p->sms);
	free(p->pool);
	free(p);
}

/* splitmix64: the arrival offsets' fixed pseudo-random sequence */
static u64 pb_next(u64 *state)
{
	u64 z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static int pb_cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

static int pb_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Nearest rank: the smallest value with at least @pct % at or below it. */
static size_t pb_rank(size_t n, unsigned int pct)
{
	size_t r = (n * pct + 99) / 100;

	return r ? r - 1 : 0;
}

/* "KEY": p50, p99, max and min of @n values, sorted in place. */
static void pb_stats_u64(struct json *j, const char *key, u64 *v, size_t n)
{
	qsort(v, n, sizeof(*v), pb_cmp_u64);
	json_obj(j, key);
	json_u64(j, "n", n);
	if (!n) {
		json_obj_end(j);
		return;
	}
	json_u64(j, "p50", v[pb_rank(n, 50)]);
	json_u64(j, "p99", v[pb_rank(n, 99)]);
	json_u64(j, "max", v[n - 1]);
	json_u64(j, "min", v[0]);
	json_obj_end(j);
}

static void pb_stats_double(struct json *j, const char *key, double *v,
			    size_t n)
{
	qsort(v, n, sizeof(*v), pb_cmp_double);
	json_obj(j, key);
	json_u64(j, "n", n);
	json_double(j, "p50", v[pb_rank(n, 50)]);
	json_double(j, "p99", v[pb_rank(n, 99)]);
	json_double(j, "max", v[n - 1]);
	json_double(j, "min", v[0]);
	json_obj_end(j);
}

static void pb_list_u64(struct json *j, const char *key, const u64 *v,
			size_t n)
{
	size_t i;

	json_arr(j, key);
	for (i = 0; i < n; i++)
		json_u64(j, NULL, v[i]);
	json_arr_end(j);
}

static void pb_list_double(struct json *j, const char *key, const double *v,
			   size_t n)
{
	size_t i;

	json_arr(j, key);
	for (i = 0; i < n; i++)
		json_double(j, NULL, v[i]);
	json_arr_end(j);
}

/* The core's description of a workload grid, as tools/sim/simulate.c's. */
static void pb_desc(const struct wl_grid *g, struct gtbs_grid_desc *desc)
{
	memset(desc, 0, sizeof(*desc));
	desc->nr_blocks = g->nr_blocks;
	desc->threads_per_block = g->threads;
	desc->regs_per_thread = g->regs;
	desc->shmem_per_block = g->shmem;
	desc->block_cycles = g->durations ? 0 : g->cycles;
	desc->block_rsd_ppm = g->durations ? 0 : g->rsd_ppm;
	desc->seed = g->seed;
	desc->durations = g->durations;
	desc->mem_ppm = g->mem_ppm;
	desc->knee_mwarps = g->knee_mwarps;
	desc->block_dist = g->block_dist;
	desc->block_dist_param = g->block_dist_param;
	desc->startup_ppm = g->startup_ppm;
	desc->startup_blocks = g->startup_blocks;
	desc->idempotent = g->idempotent;
	memcpy(desc->label, g->label, sizeof(desc->label));
	desc->label[sizeof(desc->label) - 1] = '\0';
	/* uapi: 0 is the default (normal), then low..realtime from 1 */
	if (g->prio_class > GTBS_NR_PRIO_CLASSES)
		die("%s: unknown class", g->label);
	desc->prio_class = g->prio_class == GPUTBS_PRIO_DEFAULT ?
			   GTBS_PRIO_NORMAL : g->prio_class - 1;
}

static const struct wl_grid *pb_program_grid(const struct wl_set *set,
					     const char *name)
{
	int i = wl_find_program(set, name);

	if (i < 0)
		die("no program %s", name);
	if (set->programs[i]->nr_grids != 1)
		die("program %s: one grid expected", name);
	return &set->programs[i]->grids[0];
}

static u64 pb_parse_u64(const char *arg, const char *what)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(arg, &end, 10);
	if (errno || end == arg || *end)
		die(what, arg);
	return v;
}

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: gputbs-bench-preempt [OPTIONS]\n"
		"\n"
		"A realtime grid arriving while a best-effort grid fills the\n"
		"device, in emulated cycles on the portable core: the realtime\n"
		"grid's preemption latency (until its first block starts on the\n"
		"last SM to admit one; and per SM) and both grids' slowdowns\n"
		"under drain, switch, flush (best-effort grid idempotent) and\n"
		"auto (idempotent, realtime budget --budget).  One run per\n"
		"arrival.  Prints one JSON object.\n"
		"\n"
		"  -n, --arrivals N     arrivals per mechanism (default 100)\n"
		"  -S, --seed N         seed of the arrival offsets (default 15)\n"
		"      --from CYCLES    earliest arrival (default: the best-effort\n"
		"                       grid's mean block cycles)\n"
		"      --span CYCLES    arrivals in [FROM, FROM + SPAN) (default:\n"
		"                       the same)\n"
		"  -b, --budget CYCLES  the realtime class's preemption budget\n"
		"                       (auto; and the target; default 21000)\n"
		"      --switch-bw B    context bandwidth per SM, bytes per cycle\n"
		"                       (default: the core's, 8)\n"
		"  -s, --sms N          SMs (default 15)\n"
		"  -P, --policy NAME    policy (default fifo)\n"
		"  -w, --workloads FILE programs (default tools/bench/preempt.gtbs)\n"
		"      --best-effort P  the best-effort program (default SHA1)\n"
		"      --realtime P     the realtime program (default RT)\n"
		"  -h, --help           this help\n");
}

enum {
	OPT_FROM = 256,
	OPT_SPAN,
	OPT_SWITCH_BW,
	OPT_BE,
	OPT_RT,
};

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "arrivals", required_argument, NULL, 'n' },
		{ "seed", required_argument, NULL, 'S' },
		{ "from", required_argument, NULL, OPT_FROM },
		{ "span", required_argument, NULL, OPT_SPAN },
		{ "budget", required_argument, NULL, 'b' },
		{ "switch-bw", required_argument, NULL, OPT_SWITCH_BW },
		{ "sms", required_argument, NULL, 's' },
		{ "policy", required_argument, NULL, 'P' },
		{ "workloads", required_argument, NULL, 'w' },
		{ "best-effort", required_argument, NULL, OPT_BE },
		{ "realtime", required_argument, NULL, OPT_RT },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *file = "tools/bench/preempt.gtbs", *policy = "fifo";
	const char *be_name = "SHA1", *rt_name = "RT", *why;
	u64 nr = 100, seed = 15, from = 0, span = 0, state, sms = 15;
	bool have_from = false, have_span = false;
	u64 *offsets, *lat, *sm_lat, *sms_in, *u, *rt_ta, *be_ta;
	double *rt_sd, *be_sd, *d;
	struct pb_result alone_be, alone_rt, res;
	struct pb_setup su = { .budget = PB_DEFAULT_BUDGET };
	struct wl_set *set;
	struct json j;
	char errbuf[512];
	size_t m, a, i, n_sm;
	int c;

	if (gtbs_policy_register_builtins())
		return 1;
	while ((c = getopt_long(argc, argv, "n:S:b:s:P:w:h", opts,
				NULL)) != -1) {
		switch (c) {
		case 'n':
			nr = pb_parse_u64(optarg, "bad --arrivals: %s");
			if (!nr || nr > PB_MAX_ARRIVALS)
				die("bad --arrivals: %s", optarg);
			break;
		case 'S':
			seed = pb_parse_u64(optarg, "bad --seed: %s");
			break;
		case OPT_FROM:
			from = pb_parse_u64(optarg, "bad --from: %s");
			have_from = true;
			break;
		case OPT_SPAN:
			span = pb_parse_u64(optarg, "bad --span: %s");
			if (!span)
				die("bad --span: %s", optarg);
			have_span = true;
			break;
		case 'b':
			su.budget = pb_parse_u64(optarg, "bad --budget: %s");
			break;
		case OPT_SWITCH_BW:
			su.switch_bw = pb_parse_u64(optarg,
						    "bad --switch-bw: %s");
			if (!su.switch_bw || su.switch_bw > U32_MAX)
				die("bad --switch-bw: %s", optarg);
			break;
		case 's':
			sms = pb_parse_u64(optarg, "bad --sms: %s");
			if (!sms || sms > GTBS_MAX_SMS)
				die("bad --sms: %s", optarg);
			break;
		case 'P':
			policy = optarg;
			break;
		case 'w':
			file = optarg;
			break;
		case OPT_BE:
			be_name = optarg;
			break;
		case OPT_RT:
			rt_name = optarg;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind < argc)
		die("unexpected argument: %s", argv[optind]);
	su.policy = gtbs_policy_find(policy);
	if (!su.policy)
		die("unknown policy: %s", policy);
	gtbs_config_default(&su.cfg);
	su.cfg.nr_sms = sms;
	if (gtbs_config_check(&su.cfg, &why))
		die("bad device: %s", why);
	if (wl_parse_file(file, WL_PARSE_PROGRAMS, &set, errbuf,
			  sizeof(errbuf)))
		die("%s", errbuf);
	pb_desc(pb_program_grid(set, be_name), &su.be);
	pb_desc(pb_program_grid(set, rt_name), &su.rt);
	if (su.rt.prio_class <= su.be.prio_class)
		die("%s: its class must be above the best-effort grid's",
		    rt_name);
	if (!su.be.block_cycles)
		die("%s: --from and --span need a mean block (cycles=)",
		    be_name);
	if (!have_from)
		from = su.be.block_cycles;
	if (!have_span)
		span = su.be.block_cycles;

	offsets = pb_zalloc(nr * sizeof(*offsets));
	lat = pb_zalloc(nr * sizeof(*lat));
	sms_in = pb_zalloc(nr * sizeof(*sms_in));
	sm_lat = pb_zalloc(nr * sms * sizeof(*sm_lat));
	u = pb_zalloc(nr * sms * sizeof(*u));
	rt_ta = pb_zalloc(nr * sizeof(*rt_ta));
	be_ta = pb_zalloc(nr * sizeof(*be_ta));
	rt_sd = pb_zalloc(nr * sizeof(*rt_sd));
	be_sd = pb_zalloc(nr * sizeof(*be_sd));
	d = pb_zalloc(nr * sizeof(*d));
	state = seed;
	for (a = 0; a < nr; a++)
		offsets[a] = from + pb_next(&state) % span;

	/* each alone, as the slowdowns' denominators */
	pb_run(&su, &pb_modes[0], &su.be, NULL, 0, &alone_be);
	pb_run(&su, &pb_modes[0], NULL, &su.rt, 0, &alone_rt);

	json_init(&j, stdout);
	json_obj(&j, NULL);
	json_str(&j, "bench", "preempt");
	json_str(&j, "workloads", file);
	json_u64(&j, "sms", sms);
	json_str(&j, "policy", su.policy->name);
	json_u64(&j, "switch_bytes_per_cycle",
		 su.switch_bw ? su.switch_bw :
				GTBS_SWITCH_BYTES_PER_CYCLE_DEFAULT);
	json_u64(&j, "budget_cycles", su.budget);
	json_obj(&j, "best_effort");
	json_str(&j, "program", be_name);
	json_str(&j, "grid", su.be.label);
	json_u64(&j, "blocks", su.be.nr_blocks);
	json_u64(&j, "block_cycles", su.be.block_cycles);
	json_u64(&j, "context_bytes",
		 (u64)su.be.threads_per_block * su.be.regs_per_thread * 4 +
		 su.be.shmem_per_block);
	json_u64(&j, "alone_cycles", alone_be.be_turnaround);
	json_obj_end(&j);
	json_obj(&j, "realtime");
	json_str(&j, "program", rt_name);
	json_str(&j, "grid", su.rt.label);
	json_u64(&j, "blocks", su.rt.nr_blocks);
	json_u64(&j, "block_cycles", su.rt.block_cycles);
	json_u64(&j, "alone_cycles", alone_rt.rt_turnaround);
	json_obj_end(&j);
	json_u64(&j, "arrivals", nr);
	json_u64(&j, "seed", seed);
	json_u64(&j, "from", from);
	json_u64(&j, "span", span);
	pb_list_u64(&j, "offsets", offsets, nr);
	json_arr(&j, "modes");
	for (m = 0; m < PB_NR_MODES; m++) {
		const struct pb_mode *mode = &pb_modes[m];
		u64 tot[GTBS_NR_MECHS] = { 0 }, restores = 0, xfer = 0;
		u64 lost = 0;

		n_sm = 0;
		for (a = 0; a < nr; a++) {
			pb_run(&su, mode, &su.be, &su.rt, offsets[a], &res);
			lat[a] = 0;
			sms_in[a] = 0;
			for (i = 0; i < sms; i++) {
				if (res.first_start[i] == U64_MAX)
					continue;
				sm_lat[n_sm++] = res.first_start[i];
				lat[a] = max(lat[a], res.first_start[i]);
				sms_in[a]++;
			}
			rt_ta[a] = res.rt_turnaround;
			be_ta[a] = res.be_turnaround;
			rt_sd[a] = (double)res.rt_turnaround /
				   alone_rt.rt_turnaround;
			be_sd[a] = (double)res.be_turnaround /
				   alone_be.be_turnaround;
			for (i = 0; i < GTBS_NR_MECHS; i++)
				tot[i] += res.preempts[i];
			restores += res.restores;
			xfer += res.xfer_cycles;
			lost += res.lost_cycles;
		}
		json_obj(&j, NULL);
		json_str(&j, "mode", mode->name);
		json_boolean(&j, "best_effort_idempotent", mode->idempotent);
		/* per arrival, in the order of "offsets" */
		pb_list_u64(&j, "latency", lat, nr);
		pb_list_u64(&j, "sms_admitted", sms_in, nr);
		pb_list_u64(&j, "rt_turnaround", rt_ta, nr);
		pb_list_u64(&j, "be_turnaround", be_ta, nr);
		pb_list_double(&j, "rt_slowdown", rt_sd, nr);
		pb_list_double(&j, "be_slowdown", be_sd, nr);
		/* per arrival, then per SM that admitted a realtime block */
		pb_list_u64(&j, "sm_latency", sm_lat, n_sm);
		/* the statistics sort copies */
		memcpy(u, lat, nr * sizeof(*u));
		pb_stats_u64(&j, "latency_stats", u, nr);
		memcpy(u, sm_lat, n_sm * sizeof(*u));
		pb_stats_u64(&j, "sm_latency_stats", u, n_sm);
		memcpy(u, sms_in, nr * sizeof(*u));
		pb_stats_u64(&j, "sms_admitted_stats", u, nr);
		memcpy(d, rt_sd, nr * sizeof(*d));
		pb_stats_double(&j, "rt_slowdown_stats", d, nr);
		memcpy(d, be_sd, nr * sizeof(*d));
		pb_stats_double(&j, "be_slowdown_stats", d, nr);
		json_obj(&j, "totals");
		for (i = 0; i < GTBS_NR_MECHS; i++)
			json_u64(&j, gtbs_preempt_mech_name(i), tot[i]);
		json_u64(&j, "restores", restores);
		json_u64(&j, "xfer_cycles", xfer);
		json_u64(&j, "lost_cycles", lost);
		json_obj_end(&j);
		json_obj_end(&j);
		fflush(stdout);

		qsort(lat, nr, sizeof(*lat), pb_cmp_u64);
		qsort(sm_lat, n_sm, sizeof(*sm_lat), pb_cmp_u64);
		qsort(rt_sd, nr, sizeof(*rt_sd), pb_cmp_double);
		qsort(be_sd, nr, sizeof(*be_sd), pb_cmp_double);
		fprintf(stderr,
			"preempt: %-6s latency p50 %llu p99 %llu max %llu cycles (per SM p50 %llu p99 %llu max %llu); %s slowdown p50 %.3f max %.3f, %s %.4f (%llu arrivals)\n",
			mode->name, (unsigned long long)lat[pb_rank(nr, 50)],
			(unsigned long long)lat[pb_rank(nr, 99)],
			(unsigned long long)lat[nr - 1],
			(unsigned long long)(n_sm ? sm_lat[pb_rank(n_sm, 50)] : 0),
			(unsigned long long)(n_sm ? sm_lat[pb_rank(n_sm, 99)] : 0),
			(unsigned long long)(n_sm ? sm_lat[n_sm - 1] : 0),
			rt_name, rt_sd[pb_rank(nr, 50)], rt_sd[nr - 1],
			be_name, be_sd[pb_rank(nr, 50)],
			(unsigned long long)nr);
	}
	json_arr_end(&j);
	json_obj_end(&j);
	json_end(&j);

	free(offsets);
	free(lat);
	free(sms_in);
	free(sm_lat);
	free(u);
	free(rt_ta);
	free(be_ta);
	free(rt_sd);
	free(be_sd);
	free(d);
	wl_free(set);
	return 0;
}
