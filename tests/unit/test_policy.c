// SPDX-License-Identifier: GPL-2.0
/*
 * test_policy.c - policies, priority classes and the policy registry
 * (sm-emu/policy*.c, the class and guard rules of sm-emu/engine.c).
 *
 * The KUnit suite (tests/kunit/gputbs_kunit_sched.c) holds the
 * hand-computed timelines; these cases check properties over many grids,
 * the SJF key, and what SRTF buys on the paper's own workloads.
 *
 * Copyright (C) 2026 The gputbs developers
 */
#include <math.h>

#include "harness.h"
#include "policy_srtf.h"
#include "gtbs_names.h"
#include "../../uapi/linux/gputbs_netlink.h"

/* SRTF/Adaptive's state and parameters, as the policy keeps them. */
static struct gtbs_adaptive *ad_of(struct h_dev *h)
{
	return gtbs_policy_priv(&h->dev);
}

static int ad_param(struct h_dev *h, const char *name)
{
	int idx = gtbs_policy_param_find(h->dev.policy, name);

	ck_assert_int_ge(idx, 0);
	return idx;
}

static int set_share_mode(struct h_dev *h, u64 mode, u64 now)
{
	return gtbs_policy_param_set(&h->dev, ad_param(h, "share_mode"), mode,
				     now);
}

static u32 sample_of(struct gtbs_grid *grid)
{
	return ((struct gtbs_srtf_grid *)gtbs_policy_priv(grid))->sample;
}

static struct h_dev *h_policy(u32 nr_sms, const char *name)
{
	struct gtbs_dev_config cfg;
	const struct gtbs_policy_ops *ops = gtbs_policy_find(name);

	ck_assert_ptr_nonnull(ops);
	gtbs_config_default(&cfg);
	cfg.nr_sms = nr_sms;
	return h_new(&cfg, ops);
}

/* Whole-SM blocks: 48 KiB of shared memory, R = 1, exactly @cycles long. */
static struct gtbs_grid_desc whole_sm(u32 blocks, u64 cycles, u32 class)
{
	struct gtbs_grid_desc d = h_desc(blocks, 256, 0, 48 * 1024, cycles);

	d.prio_class = class;
	return d;
}

START_TEST(registry_lists_policies)
{
	static const char * const names[] = {
		"fifo", "mpmax", "srtf", "srtf-adaptive", "srtf-oracle", "sjf",
		"ljf",
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(names); i++) {
		ck_assert_ptr_nonnull(gtbs_policy_at(i));
		ck_assert_str_eq(gtbs_policy_at(i)->name, names[i]);
		ck_assert_ptr_nonnull(gtbs_policy_at(i)->pick_grid);
	}
	/* the built-ins come first, in this order; plug-ins may follow */
	ck_assert_ptr_eq(gtbs_policy_find("srtf\n"), &gtbs_policy_srtf);
	ck_assert_ptr_null(gtbs_policy_find("srtf2"));
	ck_assert_ptr_null(gtbs_policy_find(""));
}
END_TEST

static struct gtbs_grid *reg_pick(struct gtbs_dev *dev, struct gtbs_sm *sm,
				  u32 *reason)
{
	return gtbs_policy_fifo.pick_grid(dev, sm, reason);
}

/* A policy with a device state holding two parameters, one named. */
struct reg_state {
	u64 level;
	u64 mode;
	u64 changes;
};

static void reg_param_set(struct gtbs_dev *dev, u32 index, u64 now)
{
	((struct reg_state *)gtbs_policy_priv(dev))->changes++;
}

static const char * const reg_mode_names[] = { "off", "on", NULL };

static const struct gtbs_policy_param reg_params[] = {
	{ .name = "level", .unit = "blocks", .min = 1, .max = 8, .def = 3,
	  .offset = offsetof(struct reg_state, level) },
	{ .name = "mode", .unit = "", .min = 0, .max = 1, .def = 1,
	  .names = reg_mode_names, .offset = offsetof(struct reg_state, mode) },
};

static const struct gtbs_policy_ops reg_policy = {
	.name = "unit-registry",
	.pick_grid = reg_pick,
	.param_set = reg_param_set,
	.dev_priv_size = sizeof(struct reg_state),
	.params = reg_params,
	.nr_params = ARRAY_SIZE(reg_params),
};

/*
 * Registration: duplicates refused with -EEXIST, bad ops with -EINVAL and
 * a reason, the registry full with -ENOSPC; unregistering keeps the order
 * of the others; gtbs_policy_registered() follows both.
 */
START_TEST(registry_register_rules)
{
	struct gtbs_policy_ops many[GTBS_MAX_POLICIES], bad = reg_policy;
	struct gtbs_policy_param p = reg_params[0];
	char names[GTBS_MAX_POLICIES][16];
	unsigned int i, n = 0;
	const char *why;

	ck_assert(!gtbs_policy_registered(&reg_policy));
	ck_assert_int_eq(gtbs_policy_register(&reg_policy), 0);
	ck_assert_int_eq(gtbs_policy_register(&reg_policy), -EEXIST);
	ck_assert_ptr_eq(gtbs_policy_find("unit-registry"), &reg_policy);
	/* what a selection checks again before it switches (a BPF policy) */
	ck_assert(gtbs_policy_registered(&reg_policy));
	ck_assert(gtbs_policy_registered(&gtbs_policy_fifo));
	bad.name = "unit_registry";
	bad.pick_grid = NULL;
	ck_assert_int_eq(gtbs_policy_check(&bad, &why), -EINVAL);
	ck_assert_str_eq(why, "pick_grid is required");
	bad.pick_grid = reg_pick;
	bad.name = "Unit";
	ck_assert_int_eq(gtbs_policy_check(&bad, &why), -EINVAL);
	bad.name = "unit-ok";
	bad.sm_priv_size = GTBS_POLICY_SM_PRIV_SIZE + 1;
	ck_assert_int_eq(gtbs_policy_check(&bad, &why), -EINVAL);
	bad.sm_priv_size = 0;
	p.offset = sizeof(struct reg_state);	/* past dev_priv_size */
	bad.params = &p;
	bad.nr_params = 1;
	ck_assert_int_eq(gtbs_policy_check(&bad, &why), -EINVAL);
	p.offset = 0;
	p.def = 9;				/* above max */
	ck_assert_int_eq(gtbs_policy_check(&bad, &why), -EINVAL);
	p.def = 3;
	ck_assert_int_eq(gtbs_policy_check(&bad, &why), 0);
	/* NAME_range is the module's sysfs file of NAME's range */
	p.name = "level_range";
	ck_assert_int_eq(gtbs_policy_check(&bad, &why), -EINVAL);
	ck_assert_str_eq(why, "a parameter name ends in _range");
	p.name = "range";
	ck_assert_int_eq(gtbs_policy_check(&bad, &why), 0);
	p.name = reg_params[0].name;
	/* fill the registry */
	while (gtbs_policy_at(n))
		n++;
	for (i = 0; n + i < GTBS_MAX_POLICIES; i++) {
		many[i] = reg_policy;
		snprintf(names[i], sizeof(names[i]), "unit-many-%u", i);
		many[i].name = names[i];
		ck_assert_int_eq(gtbs_policy_register(&many[i]), 0);
	}
	bad.name = "unit-one-more";
	ck_assert_int_eq(gtbs_policy_register(&bad), -ENOSPC);
	while (i--)
		gtbs_policy_unregister(&many[i]);
	gtbs_policy_unregister(&reg_policy);
	ck_assert_ptr_null(gtbs_policy_find("unit-registry"));
	ck_assert(!gtbs_policy_registered(&reg_policy));
	ck_assert_ptr_eq(gtbs_policy_at(0), &gtbs_policy_fifo);
	ck_assert_ptr_eq(gtbs_policy_at(6), &gtbs_policy_ljf);
}
END_TEST

/*
 * Parameters: defaults at attach, range checks, names, the param_set op,
 * and a switch away and back starts over at the defaults.
 */
START_TEST(policy_params_life)
{
	struct h_dev *h = h_policy(2, "fifo");
	struct reg_state *st = gtbs_policy_priv(&h->dev);
	u64 v;

	gtbs_dev_set_policy(&h->dev, &reg_policy, 0);
	ck_assert_uint_eq(gtbs_policy_param_get(&h->dev, 0), 3);
	ck_assert_uint_eq(gtbs_policy_param_get(&h->dev, 1), 1);
	ck_assert_int_eq(gtbs_policy_param_find(&reg_policy, "mode\n"), 1);
	ck_assert_int_eq(gtbs_policy_param_find(&reg_policy, "mod"), -ENOENT);
	ck_assert_int_eq(gtbs_policy_param_set(&h->dev, 0, 9, 0), -ERANGE);
	ck_assert_int_eq(gtbs_policy_param_set(&h->dev, 0, 0, 0), -ERANGE);
	ck_assert_int_eq(gtbs_policy_param_set(&h->dev, 2, 0, 0), -EINVAL);
	ck_assert_uint_eq(st->changes, 0);
	ck_assert_int_eq(gtbs_policy_param_set(&h->dev, 0, 8, 0), 0);
	ck_assert_uint_eq(st->level, 8);
	ck_assert_uint_eq(st->changes, 1);
	/* the same value again is no change */
	ck_assert_int_eq(gtbs_policy_param_set(&h->dev, 0, 8, 0), 0);
	ck_assert_uint_eq(st->changes, 1);
	ck_assert_int_eq(gtbs_policy_param_parse(&reg_params[1], "off\n", &v), 0);
	ck_assert_uint_eq(v, 0);
	ck_assert_int_eq(gtbs_policy_param_parse(&reg_params[1], "1", &v), 0);
	ck_assert_uint_eq(v, 1);
	ck_assert_int_eq(gtbs_policy_param_parse(&reg_params[0], "x", &v),
			 -EINVAL);
	ck_assert_int_eq(gtbs_policy_param_parse(&reg_params[0], "", &v),
			 -EINVAL);
	ck_assert_int_eq(gtbs_policy_param_parse(&reg_params[0],
						 "18446744073709551616", &v),
			 -EINVAL);
	gtbs_dev_set_policy(&h->dev, &gtbs_policy_fifo, 0);
	ck_assert_uint_eq(st->level, 0);	/* the area is zeroed */
	gtbs_dev_set_policy(&h->dev, &reg_policy, 0);
	ck_assert_uint_eq(gtbs_policy_param_get(&h->dev, 0), 3);
	h_free(h);
}
END_TEST

/* Equation 1: ceil(ceil(B / N_SM) / R) * t. */
START_TEST(alone_cycles_equation1)
{
	struct gtbs_dev_config cfg;
	struct gtbs_grid_desc d = h_desc(1429, 256, 20, 4096, 14529);
	struct gtbs_occupancy occ;
	static const u64 dur[5] = { 10, 10, 10, 10, 11 };

	gtbs_config_default(&cfg);
	ck_assert_int_eq(gtbs_occupancy_calc(&cfg, &d, &occ), 0);
	ck_assert_uint_eq(occ.residency, 6);
	/* AES-d: 1429 / 15 -> 96 per SM, 16 waves of 14529 */
	ck_assert_uint_eq(gtbs_grid_alone_cycles(&cfg, &d, &occ), 16 * 14529);
	/* explicit durations: the mean, rounded up (51 / 5 -> 11) */
	d.nr_blocks = 5;
	d.durations = dur;
	d.block_cycles = 0;
	ck_assert_uint_eq(gtbs_grid_alone_cycles(&cfg, &d, &occ), 11);
	/* saturates */
	d.durations = NULL;
	d.nr_blocks = 1U << 24;
	d.block_cycles = GTBS_MAX_BLOCK_CYCLES;
	cfg.nr_sms = 1;
	occ.residency = 1;
	ck_assert_uint_eq(gtbs_grid_alone_cycles(&cfg, &d, &occ), U64_MAX);
	d.nr_blocks = (1U << 24) - 1;
	ck_assert_uint_eq(gtbs_grid_alone_cycles(&cfg, &d, &occ),
			  ((u64)GTBS_MAX_BLOCK_CYCLES << 24) -
			  GTBS_MAX_BLOCK_CYCLES);
}
END_TEST

START_TEST(class_rules)
{
	struct h_dev *h = h_new_sms(1);
	struct gtbs_grid_desc d = whole_sm(1, 10, GTBS_NR_PRIO_CLASSES);
	const char *why;
	int err;

	ck_assert_ptr_null(h_grid_new(h, &d, &err, &why));
	ck_assert_int_eq(err, -EINVAL);
	ck_assert_str_eq(why, "prio_class out of range");
	ck_assert_int_eq(gtbs_prio_class_check(GTBS_PRIO_HIGH, false), -EPERM);
	ck_assert_int_eq(gtbs_prio_class_check(GTBS_PRIO_LOW, false), 0);
	ck_assert_str_eq(gtbs_prio_class_name(GTBS_PRIO_REALTIME), "realtime");
	ck_assert_str_eq(gtbs_prio_class_name(9), "?");
	h_free(h);
}
END_TEST

/*
 * Strict classes, property: with random grids of random classes arriving
 * on 4 SMs under each policy, no block of a class starts while a grid of a
 * higher class had a block left to issue at that cycle.
 */
START_TEST(strict_classes_random)
{
	static const char * const pol[] = {
		"fifo", "mpmax", "srtf", "srtf-adaptive", "srtf-oracle", "sjf",
		"ljf",
	};
	u64 rng = 42 + _i;
	struct h_dev *h = h_policy(4, pol[_i % ARRAY_SIZE(pol)]);
	struct gtbs_grid *g[24];
	u64 at = 0;
	u32 i, j;
	size_t e;

	for (i = 0; i < 24; i++) {
		struct gtbs_grid_desc d = h_desc(h_rand_range(&rng, 1, 40),
						 32 << h_rand_range(&rng, 0, 4),
						 h_rand_range(&rng, 0, 32),
						 h_rand_range(&rng, 0, 3) * 8192,
						 h_rand_range(&rng, 50, 900));

		d.prio_class = h_rand_range(&rng, 0, GTBS_NR_PRIO_CLASSES - 1);
		at += h_rand_range(&rng, 0, 400);
		g[i] = h_submit(h, &d, at);
	}
	h_drain(h);
	for (e = 0; e < h->nr_ev; e++) {
		const struct h_event *ev = &h->ev[e];
		const struct gtbs_grid *mine = NULL;

		if (ev->kind != H_EV_BLOCK_START)
			continue;
		for (i = 0; i < 24; i++)
			if (g[i]->id == ev->grid_id)
				mine = g[i];
		/* a higher-class grid with an unissued block at this cycle */
		for (j = 0; j < 24; j++) {
			long last;

			if (g[j]->desc.prio_class <= mine->desc.prio_class ||
			    g[j]->submit_cycle >= ev->start)
				continue;
			last = h_find(h, H_EV_BLOCK_START, g[j]->id,
				      g[j]->desc.nr_blocks - 1);
			ck_assert_int_ge(last, 0);
			ck_assert_msg(h->ev[last].start <= ev->start,
				      "class %u block at %llu while class %u had blocks",
				      mine->desc.prio_class,
				      (unsigned long long)ev->start,
				      g[j]->desc.prio_class);
		}
	}
	for (i = 0; i < 24; i++)
		ck_assert_int_eq(g[i]->state, GTBS_GRID_DONE);
	ck_assert_uint_eq(h->violations, 0);
	h_free(h);
}
END_TEST

/*
 * The SRTF oracle orders by alone runtime: one SM busy until 100; grids of
 * alone runtime 300, 100 and 200 arrive in that order at 10; they run 100,
 * 200, 300 in order of length.
 */
START_TEST(srtf_oracle_shortest_first)
{
	struct h_dev *h = h_policy(1, "srtf-oracle");
	struct gtbs_grid_desc d0 = whole_sm(1, 100, GTBS_PRIO_NORMAL);
	struct gtbs_grid_desc d3 = whole_sm(3, 100, GTBS_PRIO_NORMAL);
	struct gtbs_grid_desc d1 = whole_sm(1, 100, GTBS_PRIO_NORMAL);
	struct gtbs_grid_desc d2 = whole_sm(2, 100, GTBS_PRIO_NORMAL);
	struct gtbs_grid *g3, *g1, *g2;

	h_submit(h, &d0, 0);
	g3 = h_submit(h, &d3, 10);
	g1 = h_submit(h, &d1, 10);
	g2 = h_submit(h, &d2, 10);
	ck_assert_uint_eq(g3->alone_cycles, 300);
	h_drain(h);
	ck_assert_uint_eq(g1->start_cycle, 100);
	ck_assert_uint_eq(g2->start_cycle, 200);
	ck_assert_uint_eq(g3->start_cycle, 400);
	ck_assert_uint_eq(g3->end_cycle, 700);
	h_free(h);
}
END_TEST

/*
 * Reference versions of the SRTF oracle and MPMax picks: the plain scans
 * over the pending grids that the policies replaced with a sorted list
 * (srtf-oracle) and a cached composite (MPMax).  The policies must
 * schedule exactly as these.
 */
static struct gtbs_grid *ref_srtf_oracle_pick(struct gtbs_dev *dev,
					      struct gtbs_sm *sm, u32 *reason)
{
	struct gtbs_grid *grid, *best = NULL;

	list_for_each_entry(grid, &dev->pending, pending_node)
		if (gtbs_grid_eligible(dev, grid) &&
		    (!best || grid->alone_cycles < best->alone_cycles))
			best = grid;
	if (!best)
		return NULL;
	/*
	 * The default reading (srtf-oracle runs at its defaults here): a grid
	 * in its tail ahead of it holds it, under sm-exclusive only on the
	 * SMs where it has blocks.
	 */
	list_for_each_entry(grid, &dev->grids, node) {
		if (grid->next_block < grid->desc.nr_blocks || grid->nr_saved ||
		    !list_empty(&grid->pending_node) ||
		    grid->desc.prio_class < best->desc.prio_class)
			continue;
		if (GTBS_SINGLE_KERNEL_DEFAULT == GTBS_SINGLE_SM &&
		    !gtbs_grid_sm_resident(grid, sm->id))
			continue;
		if (grid->desc.prio_class > best->desc.prio_class ||
		    grid->alone_cycles < best->alone_cycles ||
		    (grid->alone_cycles == best->alone_cycles &&
		     grid->id < best->id))
			return NULL;
	}
	return best;
}

static struct gtbs_grid *ref_mpmax_pick(struct gtbs_dev *dev,
					struct gtbs_sm *sm, u32 *reason)
{
	struct gtbs_footprint all = { 0 }, others;
	struct gtbs_grid *grid;

	list_for_each_entry(grid, &dev->pending, pending_node)
		if (gtbs_grid_eligible(dev, grid))
			gtbs_footprint_add(&all, &grid->occ, 1);
	list_for_each_entry(grid, &dev->pending, pending_node) {
		if (!gtbs_grid_eligible(dev, grid))
			continue;
		others = (struct gtbs_footprint) {
			.blocks = all.blocks - 1,
			.warps = all.warps - grid->occ.warps,
			.threads = all.threads - grid->occ.threads,
			.regs = all.regs - grid->occ.regs,
			.shmem = all.shmem - grid->occ.shmem,
		};
		if (gtbs_grid_sm_resident(grid, sm->id) <
		    max(gtbs_footprint_room(&dev->cfg, &grid->occ, &others), 1U))
			return grid;
	}
	return NULL;
}

static const struct gtbs_policy_ops ref_srtf_oracle = {
	.name = "ref-srtf-oracle", .pick_grid = ref_srtf_oracle_pick,
};
static const struct gtbs_policy_ops ref_mpmax = {
	.name = "ref-mpmax", .pick_grid = ref_mpmax_pick,
};

/*
 * SRTF and SRTF/Adaptive against the plain scan they replaced with a
 * per-SM order (policy_srtf.c, gtbs_srtf_scan_ref): 48 random grids of
 * random classes (all four), sizes and arrivals (some at the same cycle,
 * some with equal sizes) on 6 SMs.  @i picks the policy, the starvation
 * guard, policy switches (FIFO first, SRTF attached with grids running,
 * FIFO again, SRTF again), a preemption mode (drain, switch, flush) and
 * preempt_unknown (sample, predicted); SRTF/Adaptive alternates its share
 * mode.  Returns the device, drained.
 */
/*
 * Run @a (the policy's index) and run @b (its plain scan, the reference)
 * made the same schedule: the same event log and the same counters.
 * Frees both.
 */
static void same_as_scan(struct h_dev *a, struct h_dev *b, int i)
{
	ck_assert_uint_gt(a->nr_ev, 0);
	ck_assert_uint_eq(a->nr_ev, b->nr_ev);
	ck_assert_msg(!memcmp(a->ev, b->ev, a->nr_ev * sizeof(*a->ev)),
		      "%s (case %d) schedules differently from the plain scan",
		      a->dev.policy->name, i);
	ck_assert_uint_eq(a->dev.predictions, b->dev.predictions);
	ck_assert_uint_eq(a->dev.sharing_switches, b->dev.sharing_switches);
	ck_assert_uint_eq(a->dev.promotions, b->dev.promotions);
	ck_assert_uint_eq(a->dev.preempts[GTBS_MECH_SWITCH],
			  b->dev.preempts[GTBS_MECH_SWITCH]);
	ck_assert_uint_eq(a->dev.preempts[GTBS_MECH_FLUSH],
			  b->dev.preempts[GTBS_MECH_FLUSH]);
	h_free(a);
	h_free(b);
}

/*
 * The sample plug-ins' parameters (samples/policies/): the plain scan
 * with @scan, and a deficit threshold, granularity and weight by @i.
 */
static void sample_params(struct h_dev *h, u32 i, bool scan, u64 at)
{
	static const struct {
		const char *name;
		u64 value[3];
	} params[] = {
		{ "deficit_threshold_cycles", { 0, 300, 1500 } },
		{ "min_granularity_cycles", { 0, 150, 700 } },
		{ "weight_high", { 3121, 1, 20000 } },
	};
	u32 k;
	int idx;

	idx = gtbs_policy_param_find(h->dev.policy, "pick");
	if (idx >= 0)
		ck_assert_int_eq(gtbs_policy_param_set(&h->dev, idx, scan, at),
				 0);
	for (k = 0; k < ARRAY_SIZE(params); k++) {
		idx = gtbs_policy_param_find(h->dev.policy, params[k].name);
		if (idx >= 0)
			ck_assert_int_eq(gtbs_policy_param_set(&h->dev, idx,
				params[k].value[(i / 3 + k) % 3], at), 0);
	}
}

static struct gtbs_saved srtf_ref_pool[256];

static struct h_dev *srtf_ref_run(const struct gtbs_policy_ops *pol, u32 i,
				  bool scan)
{
	static const u32 modes[] = {
		GTBS_PREEMPT_DRAIN, GTBS_PREEMPT_SWITCH, GTBS_PREEMPT_FLUSH,
	};
	bool starve = i & 2, switches = i & 4;
	u32 mode = modes[(i >> 3) % 3], unknown = (i / 24) & 1;
	struct gtbs_dev_config cfg;
	struct h_dev *h;
	u64 rng = 1000 + i, at = 0;
	u32 g;
	int idx;

	gtbs_config_default(&cfg);
	cfg.nr_sms = 6;
	h = h_new(&cfg, switches ? gtbs_policy_find("fifo") : pol);
	gtbs_dev_set_saved_pool(&h->dev, srtf_ref_pool,
				ARRAY_SIZE(srtf_ref_pool));
	ck_assert_int_eq(gtbs_dev_set_preempt(&h->dev, mode, 0), 0);
	if (starve)
		h->dev.starve_cycles = 700;
	gtbs_srtf_scan_ref = scan;
	gtbs_serial_scan_ref = scan;
	for (g = 0; g < 48; g++) {
		struct gtbs_grid_desc d = h_desc(h_rand_range(&rng, 1, 60),
						 32 << h_rand_range(&rng, 0, 4),
						 h_rand_range(&rng, 0, 32),
						 h_rand_range(&rng, 0, 3) * 8192,
						 100 * h_rand_range(&rng, 1, 6));

		d.prio_class = h_rand_range(&rng, 0, 3);
		d.idempotent = h_rand(&rng) & 1;
		at += h_rand_range(&rng, 0, 3) ? h_rand_range(&rng, 0, 400) : 0;
		if ((!switches && g == 0) || (switches && (g == 8 || g == 30))) {
			if (switches)
				gtbs_dev_set_policy(&h->dev, pol, at);
			idx = gtbs_policy_param_find(h->dev.policy,
						     "preempt_unknown");
			if (idx >= 0)
				ck_assert_int_eq(gtbs_policy_param_set(&h->dev,
					idx, unknown, at), 0);
			idx = gtbs_policy_param_find(h->dev.policy,
						     "share_mode");
			if (idx >= 0)
				ck_assert_int_eq(gtbs_policy_param_set(&h->dev,
					idx, (i >> 1) & 1, at), 0);
			sample_params(h, i, scan, at);
		}
		if (switches && g == 20)
			gtbs_dev_set_policy(&h->dev, gtbs_policy_find("fifo"),
					    at);
		/* the guard off: trees kept while picks scanned are used */
		if (starve && g == 36)
			h->dev.starve_cycles = 0;
		h_submit(h, &d, at);
	}
	h_drain(h);
	gtbs_srtf_scan_ref = false;
	gtbs_serial_scan_ref = false;
	ck_assert(gtbs_dev_idle(&h->dev));
	ck_assert_uint_eq(h->violations, 0);
	return h;
}

START_TEST(srtf_matches_scan)
{
	const struct gtbs_policy_ops *pol =
		gtbs_policy_find(_i & 1 ? "srtf-adaptive" : "srtf");
	struct h_dev *a = srtf_ref_run(pol, _i, false);
	struct h_dev *b = srtf_ref_run(pol, _i, true);

	same_as_scan(a, b, _i);
}
END_TEST

/*
 * SJF and LJF against the plain scan of every grid they replaced with
 * per-class trees of the queued grids (policy_sjf.c,
 * gtbs_serial_scan_ref): the workloads of srtf_ref_run().
 */
START_TEST(serial_matches_scan)
{
	const struct gtbs_policy_ops *pol =
		gtbs_policy_find(_i & 1 ? "ljf" : "sjf");
	struct h_dev *a = srtf_ref_run(pol, _i, false);
	struct h_dev *b = srtf_ref_run(pol, _i, true);

	same_as_scan(a, b, _i);
}
END_TEST

/*
 * The sample plug-ins paella and wfair (samples/policies/, loaded by
 * test_main.c) against their parameter pick=scan, the plain scan of every
 * grid they replaced with trees: the workloads of srtf_ref_run(), with
 * several deficit thresholds, granularities and weights.
 */
START_TEST(samples_match_scan)
{
	const struct gtbs_policy_ops *pol =
		gtbs_policy_find(_i & 1 ? "wfair" : "paella");
	struct h_dev *a, *b;

	ck_assert_msg(pol, "the sample plug-ins are not loaded (make samples-so)");
	a = srtf_ref_run(pol, _i, false);
	b = srtf_ref_run(pol, _i, true);
	same_as_scan(a, b, _i);
}
END_TEST

/*
 * 32 random grids of random classes and sizes on 4 SMs, some with equal
 * alone runtimes; with @switches, the device starts under FIFO and
 * switches to @pol before grid 8, back to FIFO before grid 16 and to @pol
 * again before grid 22 (the attach path with grids present).
 */
static struct h_dev *ref_run(const struct gtbs_policy_ops *pol, u64 seed,
			     bool starve, bool switches)
{
	struct gtbs_dev_config cfg;
	struct h_dev *h;
	u64 rng = seed, at = 0;
	u32 i;

	gtbs_config_default(&cfg);
	cfg.nr_sms = 4;
	h = h_new(&cfg, switches ? NULL : pol);
	if (starve)
		h->dev.starve_cycles = 500;
	for (i = 0; i < 32; i++) {
		struct gtbs_grid_desc d = h_desc(h_rand_range(&rng, 1, 40),
						 32 << h_rand_range(&rng, 0, 4),
						 h_rand_range(&rng, 0, 32),
						 h_rand_range(&rng, 0, 3) * 8192,
						 100 * h_rand_range(&rng, 1, 6));

		d.prio_class = h_rand_range(&rng, 1, 2);
		at += h_rand_range(&rng, 0, 300);
		if (switches && (i == 8 || i == 22))
			gtbs_dev_set_policy(&h->dev, pol, at);
		if (switches && i == 16)
			gtbs_dev_set_policy(&h->dev, gtbs_policy_find("fifo"),
					    at);
		h_submit(h, &d, at);
	}
	h_drain(h);
	ck_assert(gtbs_dev_idle(&h->dev));
	ck_assert_uint_eq(h->violations, 0);
	return h;
}

/*
 * SRTF's two readings of "when not sampling, only a single kernel
 * executes on the GPU" (policy_srtf.c, DOC "Exclusive"), on a timeline
 * worked out by hand.  2 SMs of 8 block slots; S: 20 blocks of 1000
 * cycles, L: 100 blocks of 300 cycles, both at cycle 0, S first.  S runs
 * unsampled on all 16 slots; at 1000 its first wave ends: SM 0 samples L
 * (it issues only L), SM 1 issues S's last 4 blocks: S is in its tail
 * until about 2000.  L's first block ends on SM 0 near 1300 and L is
 * known, predicted longer than S's remaining time.  work-conserving: an
 * SM with room issues L at once, beside S's tail.  exclusive: no L block
 * starts after L's first block end until S's last block has ended.
 * sm-exclusive: L runs on SM 0, which S has left, but not beside S on
 * SM 1.  The same for every SRTF-family policy (srtf, srtf-adaptive,
 * srtf-oracle).
 */
static struct h_dev *single_kernel_run(const char *policy, u64 reading)
{
	const struct gtbs_policy_ops *pol = gtbs_policy_find(policy);
	struct gtbs_grid_desc s = h_desc(20, 64, 16, 0, 1000);
	struct gtbs_grid_desc l = h_desc(100, 64, 16, 0, 300);
	struct h_dev *h = h_new_sms(2);
	int idx;

	ck_assert_ptr_nonnull(pol);
	gtbs_dev_set_policy(&h->dev, pol, 0);
	idx = gtbs_policy_param_find(pol, "single_kernel");
	ck_assert_int_ge(idx, 0);
	ck_assert_int_eq(gtbs_policy_param_set(&h->dev, idx, reading, 0), 0);
	h_submit(h, &s, 0);
	h_submit(h, &l, 0);
	h_drain(h);
	ck_assert_uint_eq(h->violations, 0);
	return h;
}

/*
 * L's block starts after its first block end and before S ended: on any
 * SM (@same_sm false), or on an SM where a block of S is resident at that
 * cycle (@same_sm true).
 */
static u32 single_kernel_overlap(const struct h_dev *h, bool same_sm)
{
	u64 s_end = 0, l_first_end = U64_MAX;
	u32 n = 0;
	size_t i, j;

	for (i = 0; i < h->nr_ev; i++) {
		const struct h_event *e = &h->ev[i];

		if (e->kind == H_EV_BLOCK_END && e->grid_id == 0)
			s_end = max(s_end, e->end);
		if (e->kind == H_EV_BLOCK_END && e->grid_id == 1)
			l_first_end = min(l_first_end, e->end);
	}
	for (i = 0; i < h->nr_ev; i++) {
		const struct h_event *e = &h->ev[i];
		bool beside = !same_sm;

		if (e->kind != H_EV_BLOCK_START || e->grid_id != 1 ||
		    e->start <= l_first_end || e->start >= s_end)
			continue;
		/* a block of S on the same SM from before to after it */
		for (j = 0; j < h->nr_ev && !beside; j++) {
			const struct h_event *f = &h->ev[j];

			beside = f->kind == H_EV_BLOCK_END && f->grid_id == 0 &&
				 f->sm == e->sm && f->start <= e->start &&
				 f->end > e->start;
		}
		n += beside;
	}
	return n;
}

START_TEST(srtf_single_kernel)
{
	static const char * const names[] = {
		"srtf", "srtf-adaptive", "srtf-oracle",
	};
	const char *name = names[_i / GTBS_NR_SINGLE_KERNEL];
	u32 reading = _i % GTBS_NR_SINGLE_KERNEL;
	struct h_dev *h = single_kernel_run(name, reading);
	u32 any = single_kernel_overlap(h, false);
	u32 same = single_kernel_overlap(h, true);

	switch (reading) {
	case GTBS_SINGLE_EXCLUSIVE:
		ck_assert_msg(any == 0, "%s exclusive: %u blocks of L beside S's tail",
			      name, any);
		break;
	case GTBS_SINGLE_SM:
		/* S's tail is on one SM: L runs on the other, not beside S */
		ck_assert_msg(same == 0, "%s sm-exclusive: %u blocks of L on S's SMs",
			      name, same);
		ck_assert_msg(any > 0, "%s sm-exclusive: L left the free SM idle",
			      name);
		break;
	default:
		ck_assert_msg(same > 0, "%s work-conserving: L waited for S's tail",
			      name);
	}
	h_free(h);
}
END_TEST

START_TEST(oracle_mpmax_match_reference)
{
	bool mpmax = _i & 1, starve = _i & 2, switches = _i & 4;
	const struct gtbs_policy_ops *pol = gtbs_policy_find(mpmax ? "mpmax" :
								    "srtf-oracle");
	struct h_dev *a = ref_run(pol, 7 + _i, starve, switches);
	struct h_dev *b = ref_run(mpmax ? &ref_mpmax : &ref_srtf_oracle, 7 + _i,
				  starve, switches);

	ck_assert_uint_gt(a->nr_ev, 0);
	ck_assert_uint_eq(a->nr_ev, b->nr_ev);
	ck_assert_msg(!memcmp(a->ev, b->ev, a->nr_ev * sizeof(*a->ev)),
		      "%s (starve %d, switches %d) schedules differently from the plain scan",
		      pol->name, starve, switches);
	h_free(a);
	h_free(b);
}
END_TEST

/* The paper's workloads: every ordered pair of ERCBench kernels at offset 0. */
static void erc_geomeans(const char *policy, double *stp, double *antt)
{
	double ls = 0, la = 0;
	u64 alone[H_NR_ERC];
	u32 a, b, n = 0;

	for (a = 0; a < H_NR_ERC; a++) {
		struct gtbs_grid_desc d = h_erc_desc(&h_erc_kernels[a], 1);

		alone[a] = h_alone_runtime(15, &d);
	}
	for (a = 0; a < H_NR_ERC; a++) {
		for (b = 0; b < H_NR_ERC; b++) {
			struct gtbs_grid_desc da = h_erc_desc(&h_erc_kernels[a], 1);
			struct gtbs_grid_desc db = h_erc_desc(&h_erc_kernels[b], 1);
			struct h_dev *h;
			struct gtbs_grid *ga, *gb;
			double sa, sb;

			if (a == b)
				continue;
			h = h_policy(15, policy);
			ga = h_submit(h, &da, 0);
			gb = h_submit(h, &db, 50);
			h_drain(h);
			sa = (double)(ga->end_cycle - ga->submit_cycle) / alone[a];
			sb = (double)(gb->end_cycle - gb->submit_cycle) / alone[b];
			ls += log(1 / sa + 1 / sb);
			la += log((sa + sb) / 2);
			n++;
			h_free(h);
		}
	}
	*stp = exp(ls / n);
	*antt = exp(la / n);
}

/*
 * What SRTF is for (paper Table "Geomean STP, ANTT and Fairness"): on the
 * 56 ERCBench pairs its geomean STP is above FIFO's and its ANTT below;
 * the SRTF oracle (zero-sampling SRTF) is better still on both.
 */
START_TEST(srtf_beats_fifo_on_ercbench)
{
	double fifo_stp, fifo_antt, srtf_stp, srtf_antt, ora_stp, ora_antt;

	erc_geomeans("fifo", &fifo_stp, &fifo_antt);
	erc_geomeans("srtf", &srtf_stp, &srtf_antt);
	erc_geomeans("srtf-oracle", &ora_stp, &ora_antt);
	printf("ercbench geomeans: fifo STP %.3f ANTT %.3f, srtf STP %.3f ANTT %.3f, srtf-oracle STP %.3f ANTT %.3f\n",
	       fifo_stp, fifo_antt, srtf_stp, srtf_antt, ora_stp, ora_antt);
	ck_assert_double_gt(srtf_stp, fifo_stp);
	ck_assert_double_lt(srtf_antt, fifo_antt);
	ck_assert_double_gt(ora_stp, srtf_stp);
	ck_assert_double_lt(ora_antt, srtf_antt);
}
END_TEST

/*
 * Predictor accuracy from the engine: a whole-SM grid of 8 blocks on 2
 * SMs predicts exactly (1200) from its first block end, and its final
 * prediction, the largest over the SMs, is exact too; a grid with blocks
 * of 100 then 300 cycles is first predicted short (4 * 100 = 400 on SM 0
 * with one block per SM, Total_Blocks 4) and finally right.
 */
START_TEST(prediction_accuracy)
{
	static const u64 dur[8] = { 100, 100, 300, 300, 300, 300, 300, 300 };
	struct h_dev *h = h_new_sms(2);
	struct gtbs_grid_desc d = whole_sm(8, 300, GTBS_PRIO_NORMAL);
	struct gtbs_grid *g;

	g = h_submit(h, &d, 0);
	h_drain(h);
	ck_assert_uint_eq(g->first_pred, 1200);
	ck_assert_uint_eq(gtbs_grid_pred_final(&h->dev.cfg, g), 1200);
	ck_assert_uint_eq(g->end_cycle - g->start_cycle, 1200);
	h_free(h);

	h = h_new_sms(2);
	d.block_cycles = 0;
	d.durations = dur;
	g = h_submit(h, &d, 0);
	h_drain(h);
	/* SM 0 runs blocks 0, 2, 4, 6: 100 + 3 * 300 = 1000 = the runtime */
	ck_assert_uint_eq(g->first_pred, 400);
	ck_assert_uint_eq(g->end_cycle - g->start_cycle, 1000);
	ck_assert_uint_eq(gtbs_grid_pred_final(&h->dev.cfg, g), 1000);
	ck_assert_uint_eq(gtbs_slowdown(g->first_pred, 1000), 400000);
	h_free(h);
}
END_TEST

/*
 * The serial SJF and LJF (sm-emu/policy_sjf.c), against schedules worked
 * out by hand.  Every grid is submitted before the device runs, for its
 * arrival cycle (gtbs_grid_submit_at(), as gputbs-sim and
 * GPUTBS_SUBMIT_AT_CYCLE do), so the policy sees the grids still to come.
 */
static struct gtbs_grid *serial_at(struct h_dev *h, u32 blocks, u64 cycles,
				   u32 class, u64 at)
{
	struct gtbs_grid_desc d = whole_sm(blocks, cycles, class);
	const char *why = NULL;
	struct gtbs_grid *g;
	int err;

	g = h_grid_new(h, &d, &err, &why);
	ck_assert_msg(g, "grid rejected (%d): %s", err, why);
	gtbs_grid_submit_at(&h->dev, g, h->dev.clock, at);
	return g;
}

static void assert_run(const struct gtbs_grid *g, u64 start, u64 end)
{
	ck_assert_int_eq(g->state, GTBS_GRID_DONE);
	ck_assert_uint_eq(g->start_cycle, start);
	ck_assert_uint_eq(g->end_cycle, end);
}

/* First block start and last block end of grid @id in the event log. */
static void serial_span(const struct h_dev *h, u64 id, u64 *first, u64 *last)
{
	size_t i;

	*first = U64_MAX;
	*last = 0;
	for (i = 0; i < h->nr_ev; i++) {
		if (h->ev[i].grid_id != id)
			continue;
		if (h->ev[i].kind == H_EV_BLOCK_START)
			*first = min(*first, h->ev[i].start);
		else if (h->ev[i].kind == H_EV_BLOCK_END)
			*last = max(*last, h->ev[i].end);
	}
}

/* Blocks 0 and 1 of a 3-block whole-SM grid at @start, block 2 at + @t. */
static void serial_steps(const struct h_dev *h, const struct gtbs_grid *g,
			 u64 start, u64 t)
{
	u32 b;

	for (b = 0; b < 3; b++) {
		long e = h_find(h, H_EV_BLOCK_START, g->id, b);

		ck_assert_int_ge(e, 0);
		ck_assert_uint_eq(h->ev[e].start, start + (b / 2) * t);
	}
}

/*
 * The timeline of the KUnit suite gputbs_serial (gtbs_serial_two_grids),
 * worked out by hand there.  Two SMs; L: 3 whole-SM blocks of 1000
 * (Equation 1: ceil(ceil(3 / 2) / 1) * 1000 = 2000), S: 3 of 200 (400);
 * the third block of each runs alone on one SM, so the other SM is idle
 * while the grid's last block runs.  _i: 0 sjf, 1 ljf; bit 1: S at 0 and
 * L at 50, else L at 0 and S at 50.
 *
 * sjf, L first: (2000 - 50) * 2000 > (50 + 400) * 400: idle until 50
 *   (the hold); S 50,50,250 - 450; L 450,450,1450 - 2450.
 * sjf, S first: S 0,0,200 - 400; L 400,400,1400 - 2400.
 * ljf, L first: L 0,0,1000 - 2000; S 2000,2000,2200 - 2400.
 * ljf, S first: L arrives 50 < 400 later: idle until 50; L 50,50,1050 -
 *   2050; S 2050,2050,2250 - 2450.
 *
 * In every order the second grid's first block starts at the first's last
 * block end, not when an SM frees (serial_exclusive has the FIFO control).
 */
START_TEST(serial_two_grids)
{
	static const struct { u64 s_start, s_end, l_start, l_end; } want[] = {
		{ 50, 450, 450, 2450 }, { 2000, 2400, 0, 2000 },
		{ 0, 400, 400, 2400 }, { 2050, 2450, 50, 2050 },
	};
	bool ljf = _i & 1, short_first = _i & 2;
	struct h_dev *h = h_policy(2, ljf ? "ljf" : "sjf");
	struct gtbs_grid *lg, *sg, *first, *second;
	u64 f_start, f_end, s_start, s_end;

	lg = serial_at(h, 3, 1000, GTBS_PRIO_NORMAL, short_first ? 50 : 0);
	sg = serial_at(h, 3, 200, GTBS_PRIO_NORMAL, short_first ? 0 : 50);
	ck_assert_uint_eq(lg->alone_cycles, 2000);
	ck_assert_uint_eq(sg->alone_cycles, 400);
	h_drain(h);
	assert_run(sg, want[_i].s_start, want[_i].s_end);
	assert_run(lg, want[_i].l_start, want[_i].l_end);
	serial_steps(h, sg, want[_i].s_start, 200);
	serial_steps(h, lg, want[_i].l_start, 1000);
	first = sg->start_cycle < lg->start_cycle ? sg : lg;
	second = first == sg ? lg : sg;
	serial_span(h, first->id, &f_start, &f_end);
	serial_span(h, second->id, &s_start, &s_end);
	ck_assert_uint_eq(f_end, first->end_cycle);
	ck_assert_uint_ge(s_start, f_end);
	/* the hold: sjf with S second, ljf with L second start at 50 */
	if (ljf == short_first)
		ck_assert_uint_eq(f_start, 50);
	ck_assert_uint_eq(h->violations, 0);
	h_free(h);
}
END_TEST

/* A grid with @desc's occupancy on @h's device, for decisions by hand. */
static struct gtbs_grid *occ_grid(struct h_dev *h, u32 threads)
{
	struct gtbs_grid_desc d = h_desc(120, threads, 0, 0, 100);
	struct gtbs_grid *g = calloc(1, sizeof(*g));

	ck_assert_ptr_nonnull(g);
	ck_assert_int_eq(gtbs_occupancy_calc(&h->dev.cfg, &d, &g->occ), 0);
	return g;
}

/*
 * SRTF/Adaptive, device reading, by hand.  Not sharing: share iff T1 / T2
 * > 0.5 (B's slowdown (T1 + T2) / T2 minus A's 1).  Sharing, A and B with
 * R = 8 (64-thread blocks), A limited to 3, so B gets R' = 5; T1 = 1000,
 * T2 = 1900 (difference 0.526), B: t = 100, N = 100:
 *   TS1 = 1000: NB1 = 1000 * 5 / 100 = 50, TS2 = 50 * 100 / 8 = 625;
 *   slowdowns 1.0 and 1625 / 1900 = 0.855: difference 0.145, stay;
 *   TS1 = 2000 with N = 40: NB1 = 100 >= 40, B ends while sharing after
 *   40 * 100 / 5 = 800; slowdowns 2.0 and 0.421: 1.579 > 0.526 and > 0.5,
 *   leave.
 */
START_TEST(adaptive_device_decision)
{
	struct h_dev *h = h_policy(1, "srtf-adaptive");
	struct gtbs_grid *a = occ_grid(h, 64), *b = occ_grid(h, 64);
	struct gtbs_adaptive_total eb = { .total = 1900, .t = 100, .n = 100 };

	ck_assert_uint_eq(a->occ.residency, 8);
	ck_assert_uint_eq(gtbs_policy_param_get(&h->dev,
						ad_param(h, "share_threshold_ppm")),
			  GTBS_FP_ONE / 2);
	/* just above, at, just below 0.5 */
	ck_assert(gtbs_adaptive_dev_unfair(&h->dev, a, b, 500001, 1000000,
					   false, 0, &eb));
	ck_assert(!gtbs_adaptive_dev_unfair(&h->dev, a, b, 500000, 1000000,
					    false, 0, &eb));
	ck_assert(!gtbs_adaptive_dev_unfair(&h->dev, a, b, 499999, 1000000,
					    false, 0, &eb));
	/* the threshold is the device's */
	ck_assert_int_eq(gtbs_policy_param_set(&h->dev,
					       ad_param(h, "share_threshold_ppm"),
					       GTBS_FP_ONE / 4, 0), 0);
	ck_assert(gtbs_adaptive_dev_unfair(&h->dev, a, b, 250001, 1000000,
					   false, 0, &eb));
	ck_assert_int_eq(gtbs_policy_param_set(&h->dev,
					       ad_param(h, "share_threshold_ppm"),
					       GTBS_FP_ONE / 2, 0), 0);
	/* monitoring while sharing */
	ck_assert(gtbs_adaptive_dev_unfair(&h->dev, a, b, 1000, 1900, true,
					   1000, &eb));
	eb.n = 40;
	ck_assert(!gtbs_adaptive_dev_unfair(&h->dev, a, b, 1000, 1900, true,
					    2000, &eb));
	free(a);
	free(b);
	h_free(h);
}
END_TEST

/*
 * Exclusivity: on two SMs G (3 blocks of 1000, alone 2000) runs 0-1000 on
 * both SMs, then 1000-2000 on one: the other SM is idle from 1000.  H, one
 * block, arrives at 1500, after G started; it is longer than G under sjf
 * (3000) and shorter under ljf (100), so neither waits for it at 0 (a
 * shorter H would be worth the wait under sjf: (2000 - 1500) * 2000 >
 * (1500 + 100) * 100).  Under sjf and ljf H's block starts only when G's
 * last block has ended, at 2000, though an SM has room from 1000; under
 * fifo it starts at its arrival (the control that shows the assertion can
 * fail).
 */
START_TEST(serial_exclusive)
{
	static const char * const pol[] = { "sjf", "ljf", "fifo" };
	struct h_dev *h = h_policy(2, pol[_i]);
	u64 len = _i ? 100 : 3000;
	struct gtbs_grid *g, *hg;
	long e;

	g = serial_at(h, 3, 1000, GTBS_PRIO_NORMAL, 0);
	hg = serial_at(h, 1, len, GTBS_PRIO_NORMAL, 1500);
	h_drain(h);
	assert_run(g, 0, 2000);
	e = h_find(h, H_EV_BLOCK_START, hg->id, 0);
	ck_assert_int_ge(e, 0);
	if (_i < 2) {
		assert_run(hg, 2000, 2000 + len);
		ck_assert_uint_eq(h->ev[e].start, 2000);
	} else {
		assert_run(hg, 1500, 1500 + len);
	}
	h_free(h);
}
END_TEST

/*
 * Switching the predictor mode and SRTF/Adaptive's reading while grids
 * run: running grids keep their launch mode, later ones take the new one;
 * the share-mode switch leaves every SM exclusive with no pair; all grids
 * complete and the SMs' invariants hold.
 */
START_TEST(adaptive_settings_switch_at_run_time)
{
	struct h_dev *h = h_policy(4, "srtf-adaptive");
	struct gtbs_grid_desc d1 = h_desc(64, 64, 0, 0, 1000);
	struct gtbs_grid_desc d2 = h_desc(48, 128, 0, 0, 1500);
	struct gtbs_grid *g1, *g2, *g3;
	u32 i;

	ck_assert_int_eq(gtbs_dev_set_pred_mode(&h->dev, GTBS_NR_PRED_MODES),
			 -EINVAL);
	ck_assert_int_eq(set_share_mode(h, GTBS_NR_SHARE_MODES, 0), -ERANGE);
	ck_assert_uint_eq(h->dev.pred_mode, GTBS_PRED_MODE_DEFAULT);
	ck_assert_uint_eq(ad_of(h)->share_mode, GTBS_SHARE_MODE_DEFAULT);
	ck_assert_int_eq(gtbs_dev_set_pred_mode(&h->dev, GTBS_PRED_EXTENDED), 0);
	ck_assert_int_eq(set_share_mode(h, GTBS_SHARE_DEVICE, 0), 0);
	g1 = h_submit(h, &d1, 0);
	g2 = h_submit(h, &d2, 50);
	gtbs_dev_run_until(&h->dev, 3000);
	ck_assert_int_eq(gtbs_dev_set_pred_mode(&h->dev, GTBS_PRED_LITERAL), 0);
	ck_assert_int_eq(set_share_mode(h, GTBS_SHARE_SM, 3000), 0);
	ck_assert_ptr_null(ad_of(h)->a);
	for (i = 0; i < h->dev.cfg.nr_sms; i++)
		ck_assert(!gtbs_sm_sharing(&h->dev, h->sms[i]));
	g3 = h_submit(h, &d1, 3000);
	gtbs_dev_run_until(&h->dev, 6000);
	ck_assert_int_eq(set_share_mode(h, GTBS_SHARE_DEVICE, 6000), 0);
	h_drain(h);
	ck_assert_int_eq(h_check_all(h), 0);
	ck_assert_uint_eq(g1->state, GTBS_GRID_DONE);
	ck_assert_uint_eq(g2->state, GTBS_GRID_DONE);
	ck_assert_uint_eq(g3->state, GTBS_GRID_DONE);
	ck_assert(!g1->sm[0]->pred.literal);
	ck_assert(!g2->sm[0]->pred.literal);
	ck_assert(g3->sm[0]->pred.literal);
	ck_assert_ptr_null(ad_of(h)->a);
	ck_assert_ptr_null(ad_of(h)->b);
	for (i = 0; i < h->dev.cfg.nr_sms; i++)
		ck_assert(!gtbs_sm_sharing(&h->dev, h->sms[i]));
	h_free(h);
}
END_TEST

/*
 * Detach: switching away from SRTF while it samples a grid leaves no
 * sampling state.  Two SMs; L: 8 whole-SM blocks of 1000 at 0, S: 4 of
 * 100 at 50.  No SM has room at 50, so the first SM at a block boundary
 * (1000) samples S, whose first block ends at 1100; switching to FIFO at
 * 1050 must clear
 * SRTF's &gtbs_srtf.sampling and every grid's sample state, and both grids still
 * complete.
 */
START_TEST(srtf_detach_clears_sampling)
{
	struct h_dev *h = h_policy(2, "srtf");
	struct gtbs_grid_desc l = whole_sm(8, 1000, GTBS_PRIO_NORMAL);
	struct gtbs_grid_desc sd = whole_sm(4, 100, GTBS_PRIO_NORMAL);
	struct gtbs_grid *gl, *gs;

	gl = h_submit(h, &l, 0);
	gs = h_submit(h, &sd, 50);
	gtbs_dev_run_until(&h->dev, 1050);
	ck_assert_ptr_eq(((struct gtbs_srtf *)gtbs_policy_priv(&h->dev))->sampling,
			 gs);
	ck_assert_int_eq(sample_of(gs), GTBS_SAMPLE_RUNNING);
	ck_assert_int_eq(sample_of(gl), GTBS_SAMPLE_KNOWN);
	gtbs_dev_set_policy(&h->dev, gtbs_policy_find("fifo"), 1050);
	/* every private area of SRTF's is zero: no sampling, no state */
	ck_assert_ptr_null(((struct gtbs_srtf *)gtbs_policy_priv(&h->dev))->sampling);
	ck_assert_int_eq(sample_of(gl), GTBS_SAMPLE_NONE);
	ck_assert_int_eq(sample_of(gs), GTBS_SAMPLE_NONE);
	h_drain(h);
	ck_assert_int_eq(gl->state, GTBS_GRID_DONE);
	ck_assert_int_eq(gs->state, GTBS_GRID_DONE);
	ck_assert_int_eq(h_check_all(h), 0);
	h_free(h);
}
END_TEST

/*
 * No hold for a shorter grid that comes too late.  One SM; Long: 4 blocks
 * of 500 (alone 2000) at 0, Short: 1 block of 500 (alone 500) at @at.  At
 * 1900: (2000 - 1900) * 2000 = 200,000 < (1900 + 500) * 500: Long starts
 * at 0, Short runs 2000-2500.  At 5000 (past Long's end): the same start.
 * At 100: 1900 * 2000 > 600 * 500: the hold, Short 100-600, Long
 * 600-2600.
 */
START_TEST(sjf_no_hold_far_future)
{
	static const u64 at[] = { 1900, 5000, 100 };
	struct h_dev *h = h_policy(1, "sjf");
	struct gtbs_grid *lg, *sg;

	lg = serial_at(h, 4, 500, GTBS_PRIO_NORMAL, 0);
	sg = serial_at(h, 1, 500, GTBS_PRIO_NORMAL, at[_i]);
	h_drain(h);
	if (_i == 2) {
		assert_run(sg, 100, 600);
		assert_run(lg, 600, 2600);
	} else {
		assert_run(lg, 0, 2000);
		assert_run(sg, max(at[_i], 2000ULL), max(at[_i], 2000ULL) + 500);
	}
	h_free(h);
}
END_TEST

/*
 * Three grids on one SM: A 3 x 100 (alone 300) at 0, B 1 x 100 (100) at
 * 10, C 2 x 100 (200) at 20.
 * sjf: at 0 B is 10 away and (300 - 10) * 300 > (10 + 100) * 100: hold;
 *   B 10-110; then C (200 < 300) 110-310; A 310-610.
 * ljf: nothing longer than A comes: A 0-300; then C 300-500, B 500-600.
 */
START_TEST(serial_three_grids)
{
	bool ljf = _i;
	struct h_dev *h = h_policy(1, ljf ? "ljf" : "sjf");
	struct gtbs_grid *a, *b, *c;

	a = serial_at(h, 3, 100, GTBS_PRIO_NORMAL, 0);
	b = serial_at(h, 1, 100, GTBS_PRIO_NORMAL, 10);
	c = serial_at(h, 2, 100, GTBS_PRIO_NORMAL, 20);
	h_drain(h);
	if (!ljf) {
		assert_run(b, 10, 110);
		assert_run(c, 110, 310);
		assert_run(a, 310, 610);
	} else {
		assert_run(a, 0, 300);
		assert_run(c, 300, 500);
		assert_run(b, 500, 600);
	}
	h_free(h);
}
END_TEST

/*
 * Priority classes under sjf and ljf, one SM.  Long: normal, 4 x 1000
 * (alone 4000) at 0.
 * _i 0/1: Short, high class, 1 x 500, arrives at 1500: it preempts at
 *   Long's next block boundary (2000), runs 2000-2500, and Long, started,
 *   resumes: Long 0-4500.
 * _i 2/3: Short, low class, 1 x 500, at 50: a lower class is never waited
 *   for: Long 0-4000, Short 4000-4500.
 */
START_TEST(serial_classes)
{
	bool ljf = _i & 1, high = !(_i & 2);
	struct h_dev *h = h_policy(1, ljf ? "ljf" : "sjf");
	struct gtbs_grid *lg, *sg;

	lg = serial_at(h, 4, 1000, GTBS_PRIO_NORMAL, 0);
	sg = serial_at(h, 1, 500, high ? GTBS_PRIO_HIGH : GTBS_PRIO_LOW,
		       high ? 1500 : 50);
	h_drain(h);
	if (high) {
		assert_run(sg, 2000, 2500);
		assert_run(lg, 0, 4500);
	} else {
		assert_run(lg, 0, 4000);
		assert_run(sg, 4000, 4500);
	}
	ck_assert_uint_eq(h->violations, 0);
	h_free(h);
}
END_TEST

/*
 * The tracepoints' __print_symbolic() pairs (kmod/gputbs_trace.h), which
 * ftrace needs literally, name every value as the one table does
 * (sm-emu/gtbs_names.h): each expected "{ TOKEN, "name" }" is in the
 * header, and the header has no other pair of those enums.
 */
START_TEST(trace_names_match_table)
{
	static const char * const classes[] = {
		GTBS_PRIO_CLASS_NAMES(GTBS_PRIO_)
	};
	static const char * const reasons[] = {
		GTBS_PREEMPT_REASON_NAMES(GPUTBS_PREEMPTION_REASON_)
	};
	static const char * const states[] = {
		GTBS_GRID_STATE_NAMES(GTBS_GRID_)
	};
	static const char * const mechs[] = {
		GTBS_PREEMPT_MECH_NAMES(GTBS_MECH_)
	};
	static const struct {
		const char *token;
		const char *name;
	} pairs[] = {
		{ "GTBS_PRIO_LOW", classes[GTBS_PRIO_LOW] },
		{ "GTBS_PRIO_NORMAL", classes[GTBS_PRIO_NORMAL] },
		{ "GTBS_PRIO_HIGH", classes[GTBS_PRIO_HIGH] },
		{ "GTBS_PRIO_REALTIME", classes[GTBS_PRIO_REALTIME] },
		{ "GPUTBS_PREEMPT_CLASS", reasons[GPUTBS_PREEMPTION_REASON_CLASS] },
		{ "GPUTBS_PREEMPT_STARVE", reasons[GPUTBS_PREEMPTION_REASON_STARVE] },
		{ "GPUTBS_PREEMPT_SHORTER", reasons[GPUTBS_PREEMPTION_REASON_SHORTER] },
		{ "GPUTBS_PREEMPT_SAMPLE", reasons[GPUTBS_PREEMPTION_REASON_SAMPLE] },
		{ "GPUTBS_PREEMPT_SHARE", reasons[GPUTBS_PREEMPTION_REASON_SHARE] },
		{ "GPUTBS_PREEMPT_LIMIT", reasons[GPUTBS_PREEMPTION_REASON_LIMIT] },
		{ "GPUTBS_PREEMPT_POLICY", reasons[GPUTBS_PREEMPTION_REASON_POLICY] },
		{ "GTBS_GRID_DONE", states[GTBS_GRID_DONE] },
		{ "GTBS_GRID_CANCELLED", states[GTBS_GRID_CANCELLED] },
		{ "GTBS_GRID_TIMED_OUT", states[GTBS_GRID_TIMED_OUT] },
		{ "GTBS_MECH_SWITCH", mechs[GTBS_MECH_SWITCH] },
		{ "GTBS_MECH_FLUSH", mechs[GTBS_MECH_FLUSH] },
	};
	char text[16384], want[96];
	unsigned int i, n = 0;
	const char *p;
	size_t len;
	FILE *f = fopen("kmod/gputbs_trace.h", "r");

	ck_assert_ptr_nonnull(f);
	len = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	text[len] = '\0';
	ck_assert_uint_lt(len, sizeof(text) - 1);
	for (i = 0; i < ARRAY_SIZE(pairs); i++) {
		snprintf(want, sizeof(want), "{ %s, \"%s\" }", pairs[i].token,
			 pairs[i].name);
		ck_assert_msg(strstr(text, want), "%s: not in gputbs_trace.h",
			      want);
	}
	for (p = text; (p = strstr(p, "{ G")); p++)
		n++;
	ck_assert_uint_eq(n, ARRAY_SIZE(pairs));
}
END_TEST

/*
 * sjf holds the SM idle at 0 for a shorter grid due at 100 (Q: 1000
 * cycles alone; A: 100, due at 100: (1000 - 100) 1000 > (100 + 100) 100).
 * A is cancelled at 50 while ARRIVING: Q must start at 50, not wait for
 * an event that will never come (found by fuzz_sched).
 */
START_TEST(sjf_hold_released_by_cancel)
{
	struct h_dev *h = h_policy(1, "sjf");
	struct gtbs_grid_desc dq = whole_sm(1, 1000, GTBS_PRIO_NORMAL);
	struct gtbs_grid_desc da = whole_sm(1, 100, GTBS_PRIO_NORMAL);
	struct gtbs_grid *q, *a;
	int err;
	const char *why;

	a = h_grid_new(h, &da, &err, &why);
	ck_assert_ptr_nonnull(a);
	gtbs_grid_submit_at(&h->dev, a, 0, 100);
	q = h_submit(h, &dq, 0);
	gtbs_dev_run_until(&h->dev, 50);
	ck_assert_uint_eq(q->state, GTBS_GRID_QUEUED);	/* held */
	gtbs_grid_cancel(&h->dev, a, 50);
	h_drain(h);
	ck_assert_uint_eq(q->start_cycle, 50);
	ck_assert_uint_eq(q->end_cycle, 1050);
	h_free(h);
}
END_TEST

Suite *policy_suite(void)
{
	Suite *s = suite_create("policy");
	TCase *tc = h_tcase("policy");

	tcase_add_test(tc, registry_lists_policies);
	tcase_add_test(tc, adaptive_device_decision);
	tcase_add_test(tc, adaptive_settings_switch_at_run_time);
	tcase_add_test(tc, srtf_detach_clears_sampling);
	tcase_add_test(tc, registry_register_rules);
	tcase_add_test(tc, policy_params_life);
	tcase_add_test(tc, trace_names_match_table);
	tcase_add_test(tc, sjf_hold_released_by_cancel);
	tcase_add_test(tc, alone_cycles_equation1);
	tcase_add_test(tc, class_rules);
	tcase_add_loop_test(tc, strict_classes_random, 0, 14);
	tcase_add_test(tc, srtf_oracle_shortest_first);
	tcase_add_loop_test(tc, serial_two_grids, 0, 4);
	tcase_add_loop_test(tc, serial_exclusive, 0, 3);
	tcase_add_loop_test(tc, sjf_no_hold_far_future, 0, 3);
	tcase_add_loop_test(tc, serial_three_grids, 0, 2);
	tcase_add_loop_test(tc, serial_classes, 0, 4);
	tcase_add_loop_test(tc, oracle_mpmax_match_reference, 0, 16);
	tcase_add_loop_test(tc, srtf_matches_scan, 0, 48);
	tcase_add_loop_test(tc, serial_matches_scan, 0, 48);
	tcase_add_loop_test(tc, samples_match_scan, 0, 48);
	tcase_add_test(tc, prediction_accuracy);
	tcase_add_test(tc, srtf_beats_fifo_on_ercbench);
	tcase_add_loop_test(tc, srtf_single_kernel, 0,
			    3 * GTBS_NR_SINGLE_KERNEL);
	suite_add_tcase(s, tc);
	return s;
}
