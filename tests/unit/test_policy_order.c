// SPDX-License-Identifier: GPL-2.0
/*
 * test_policy_order.c - the order of policy ops that engine.c's DOC
 * "Order of policy ops" states and Documentation/scheduling.rst ("Policy
 * author's reference") renders: a recording policy (the first eligible
 * grid, as FIFO) and a recording backend log every op and owner callback
 * in one sequence, and the cases check the documented rules on it, so
 * that the text cannot go stale without a failure here.
 *
 *   order_block_end   rule 2: every completed block makes exactly one
 *                     policy block_end, right after the owner's block_end
 *                     with the same SM, slot, start and end, then maybe
 *                     one predict, then exactly one grid_update with the
 *                     SM, at the block's end cycle; grid_end after the
 *                     grid's last one
 *   order_picks       rule 3: between two picks at most one block starts,
 *                     on the SM that picked, of the grid it picked, at its
 *                     cycle; rule 4: a grid arrives before it is picked
 *   order_across_sms  rules 1-3 worked by hand: 2 SMs that hold two
 *                     blocks each, X's four blocks end at one cycle on
 *                     both SMs: SM 0's ends (slot order), its two picks
 *                     of Y that issue, the one that does not fit and its
 *                     repetition, then SM 1's ends, X's grid_end, its
 *                     picks
 *   order_preempted   rule 5: a block switched out at 300 and restored
 *                     ends with start = end less its running time, and
 *                     made a grid_update with its SM at 300
 *   order_priv_sizes  the private-area sizes the reference states
 *
 * Copyright (C) 2026 The gputbs developers
 */
#include "harness.h"

enum ord_kind {
	ORD_PICK,		/* policy pick_grid: @grid is what it returned */
	ORD_BLOCK_END,		/* policy block_end */
	ORD_PREDICT,		/* policy predict */
	ORD_UPDATE_SM,		/* policy grid_update with an SM */
	ORD_UPDATE_NULL,	/* policy grid_update without one */
	ORD_ARRIVE,		/* policy grid_arrive */
	ORD_GRID_END,		/* policy grid_end */
	ORD_B_START,		/* owner's block_start */
	ORD_B_END,		/* owner's block_end */
	ORD_B_PREEMPT,		/* owner's block_preempt */
};

struct ord_ev {
	enum ord_kind kind;
	u64 cycle;		/* sm->now, or the device's clock */
	u32 sm;			/* U32_MAX: none */
	u64 grid;		/* grid id, U64_MAX: none */
	u32 slot;
	u64 start, end;
};

#define ORD_MAX_EV	4096

static struct ord_ev ord_log[ORD_MAX_EV];
static size_t ord_n;
static const struct gtbs_backend_ops *ord_inner;
static struct gtbs_backend_ops ord_backend;

static void ord_add(enum ord_kind kind, u64 cycle, const struct gtbs_sm *sm,
		    const struct gtbs_grid *grid, u32 slot, u64 start, u64 end)
{
	ck_assert_uint_lt(ord_n, ORD_MAX_EV);
	ord_log[ord_n++] = (struct ord_ev) {
		.kind = kind,
		.cycle = cycle,
		.sm = sm ? sm->id : U32_MAX,
		.grid = grid ? grid->id : U64_MAX,
		.slot = slot,
		.start = start,
		.end = end,
	};
}

/* The policy: the first eligible grid in arrival order, every op logged. */
static struct gtbs_grid *ord_pick(struct gtbs_dev *dev, struct gtbs_sm *sm,
				  u32 *reason)
{
	struct gtbs_grid *grid, *pick = NULL;

	list_for_each_entry(grid, &dev->grids, node) {
		if (gtbs_grid_eligible(dev, grid)) {
			pick = grid;
			break;
		}
	}
	ord_add(ORD_PICK, sm->now, sm, pick, 0, 0, 0);
	return pick;
}

static void ord_block_end(struct gtbs_dev *dev, struct gtbs_sm *sm,
			  struct gtbs_grid *grid, u32 slot, u64 start, u64 end)
{
	ord_add(ORD_BLOCK_END, sm->now, sm, grid, slot, start, end);
}

static void ord_predict(struct gtbs_dev *dev, struct gtbs_sm *sm,
			struct gtbs_grid *grid)
{
	ord_add(ORD_PREDICT, sm->now, sm, grid, 0, 0, 0);
}

static void ord_update(struct gtbs_dev *dev, struct gtbs_sm *sm,
		       struct gtbs_grid *grid)
{
	ord_add(sm ? ORD_UPDATE_SM : ORD_UPDATE_NULL,
		sm ? sm->now : dev->clock, sm, grid, 0, 0, 0);
}

static void ord_arrive(struct gtbs_dev *dev, struct gtbs_grid *grid)
{
	ord_add(ORD_ARRIVE, dev->clock, NULL, grid, 0, 0, 0);
}

static void ord_grid_end(struct gtbs_dev *dev, struct gtbs_grid *grid)
{
	ord_add(ORD_GRID_END, grid->end_cycle, NULL, grid, 0, 0, 0);
}

static const struct gtbs_policy_ops ord_ops = {
	.name = "unit-order",
	.pick_grid = ord_pick,
	.block_end = ord_block_end,
	.predict = ord_predict,
	.grid_update = ord_update,
	.grid_arrive = ord_arrive,
	.grid_end = ord_grid_end,
};

static void ord_b_start(struct gtbs_dev *dev, struct gtbs_sm *sm,
			struct gtbs_grid *grid, u32 slot, u32 block, u64 cycle)
{
	ord_add(ORD_B_START, cycle, sm, grid, slot, cycle, 0);
	if (ord_inner->block_start)
		ord_inner->block_start(dev, sm, grid, slot, block, cycle);
}

static void ord_b_end(struct gtbs_dev *dev, struct gtbs_sm *sm,
		      struct gtbs_grid *grid, u32 slot, u32 block, u64 start,
		      u64 end)
{
	ord_add(ORD_B_END, end, sm, grid, slot, start, end);
	if (ord_inner->block_end)
		ord_inner->block_end(dev, sm, grid, slot, block, start, end);
}

static void ord_b_preempt(struct gtbs_dev *dev, struct gtbs_sm *sm,
			  struct gtbs_grid *grid, u32 slot, u32 block,
			  u32 mech, u64 cycles)
{
	ord_add(ORD_B_PREEMPT, sm->now, sm, grid, slot, 0, 0);
	if (ord_inner->block_preempt)
		ord_inner->block_preempt(dev, sm, grid, slot, block, mech,
					 cycles);
}

/* A device of @nr_sms SMs under the recording policy and backend. */
static struct h_dev *ord_dev(u32 nr_sms)
{
	struct gtbs_dev_config cfg;
	struct h_dev *h;

	gtbs_config_default(&cfg);
	cfg.nr_sms = nr_sms;
	ord_n = 0;
	h = h_new(&cfg, &ord_ops);
	ord_inner = h->dev.backend;
	ord_backend = *ord_inner;
	ord_backend.block_start = ord_b_start;
	ord_backend.block_end = ord_b_end;
	ord_backend.block_preempt = ord_b_preempt;
	h->dev.backend = &ord_backend;
	return h;
}

/* A random workload of @seed on 3 SMs, some grids arriving later. */
static struct h_dev *ord_random_run(u64 seed)
{
	struct h_dev *h = ord_dev(3);
	u64 rng = seed, at = 0;
	u32 i;

	for (i = 0; i < 12; i++) {
		struct gtbs_grid_desc d = h_desc(h_rand_range(&rng, 1, 30),
						 32 << h_rand_range(&rng, 0, 4),
						 h_rand_range(&rng, 0, 32),
						 h_rand_range(&rng, 0, 3) * 8192,
						 100 * h_rand_range(&rng, 1, 6));

		d.prio_class = h_rand_range(&rng, 1, 2);
		d.block_rsd_ppm = 100000;
		d.seed = seed * 100 + i;
		at += h_rand_range(&rng, 0, 400);
		h_submit(h, &d, at);
	}
	h_drain(h);
	ck_assert(gtbs_dev_idle(&h->dev));
	return h;
}

/* Rule 2, on random workloads: the calls that follow an owner block_end. */
START_TEST(order_block_end)
{
	struct h_dev *h = ord_random_run(_i + 1);
	size_t i, ends = 0, blocks = 0;

	for (i = 0; i < h->nr_grids; i++)
		blocks += h->grids[i]->desc.nr_blocks;
	for (i = 0; i < ord_n; i++) {
		const struct ord_ev *b = &ord_log[i], *e;
		size_t j = i + 1;

		if (b->kind == ORD_BLOCK_END || b->kind == ORD_UPDATE_SM)
			ck_assert_msg(i > 0 && (ord_log[i - 1].kind == ORD_B_END ||
						ord_log[i - 1].kind ==
						ORD_BLOCK_END ||
						ord_log[i - 1].kind ==
						ORD_PREDICT),
				      "seed %d: event %zu (kind %d) not after a block end",
				      _i, i, b->kind);
		if (b->kind != ORD_B_END)
			continue;
		ends++;
		ck_assert_uint_lt(j, ord_n);
		e = &ord_log[j++];
		ck_assert_int_eq(e->kind, ORD_BLOCK_END);
		ck_assert_uint_eq(e->sm, b->sm);
		ck_assert_uint_eq(e->grid, b->grid);
		ck_assert_uint_eq(e->slot, b->slot);
		ck_assert_uint_eq(e->start, b->start);	/* never preempted */
		ck_assert_uint_eq(e->end, b->end);
		ck_assert_uint_eq(e->cycle, b->end);
		ck_assert_uint_lt(j, ord_n);
		if (ord_log[j].kind == ORD_PREDICT) {
			ck_assert_uint_eq(ord_log[j].sm, b->sm);
			ck_assert_uint_eq(ord_log[j].grid, b->grid);
			j++;
		}
		ck_assert_uint_lt(j, ord_n);
		e = &ord_log[j++];
		ck_assert_int_eq(e->kind, ORD_UPDATE_SM);
		ck_assert_uint_eq(e->sm, b->sm);
		ck_assert_uint_eq(e->grid, b->grid);
		ck_assert_uint_eq(e->cycle, b->end);
	}
	ck_assert_uint_eq(ends, blocks);
	/* one policy block_end and one grid_update(sm) per block, no more */
	for (i = 0, ends = 0; i < ord_n; i++)
		ends += ord_log[i].kind == ORD_BLOCK_END;
	ck_assert_uint_eq(ends, blocks);
	for (i = 0, ends = 0; i < ord_n; i++)
		ends += ord_log[i].kind == ORD_UPDATE_SM;
	ck_assert_uint_eq(ends, blocks);
	/* grid_end right after the update of the grid's last block */
	for (i = 0, ends = 0; i < ord_n; i++) {
		if (ord_log[i].kind != ORD_GRID_END)
			continue;
		ends++;
		ck_assert_int_eq(ord_log[i - 1].kind, ORD_UPDATE_SM);
		ck_assert_uint_eq(ord_log[i - 1].grid, ord_log[i].grid);
	}
	ck_assert_uint_eq(ends, h->nr_grids);
	h_free(h);
}
END_TEST

/* Rules 3 and 4, on random workloads. */
START_TEST(order_picks)
{
	struct h_dev *h = ord_random_run(_i + 101);
	const struct ord_ev *pick = NULL;
	bool *arrived = calloc(h->nr_grids, sizeof(*arrived));
	u32 started = 0;
	size_t i;

	ck_assert_ptr_nonnull(arrived);
	for (i = 0; i < ord_n; i++) {
		const struct ord_ev *e = &ord_log[i];

		if (e->kind == ORD_ARRIVE) {
			ck_assert_uint_lt(e->grid, h->nr_grids);
			arrived[e->grid] = true;
		} else if (e->kind == ORD_PICK) {
			pick = e;
			started = 0;
			if (e->grid != U64_MAX)
				ck_assert_msg(arrived[e->grid],
					      "grid %llu picked before it arrived",
					      (unsigned long long)e->grid);
		} else if (e->kind == ORD_B_START) {
			ck_assert_msg(pick && !started,
				      "seed %d: event %zu: a block started without a pick of its own",
				      _i, i);
			started++;
			ck_assert_uint_eq(e->sm, pick->sm);
			ck_assert_uint_eq(e->grid, pick->grid);
			ck_assert_uint_eq(e->cycle, pick->cycle);
		}
	}
	free(arrived);
	h_free(h);
}
END_TEST

/* The kinds of the log from @from, written as letters, @sm/@grid in each. */
static void ord_expect(size_t from, const char *const *want, size_t n)
{
	char got[64];
	size_t i;

	ck_assert_uint_le(from + n, ord_n);
	for (i = 0; i < n; i++) {
		const struct ord_ev *e = &ord_log[from + i];
		static const char *const name[] = {
			[ORD_PICK] = "pick", [ORD_BLOCK_END] = "block_end",
			[ORD_PREDICT] = "predict",
			[ORD_UPDATE_SM] = "update", [ORD_UPDATE_NULL] = "update-",
			[ORD_ARRIVE] = "arrive", [ORD_GRID_END] = "grid_end",
			[ORD_B_START] = "b_start", [ORD_B_END] = "b_end",
			[ORD_B_PREEMPT] = "b_preempt",
		};

		snprintf(got, sizeof(got), "%s sm%d g%d s%u", name[e->kind],
			 e->sm == U32_MAX ? -1 : (int)e->sm,
			 e->grid == U64_MAX ? -1 : (int)e->grid, e->slot);
		ck_assert_msg(!strcmp(got, want[i]),
			      "event %zu of the cycle: '%s', not '%s'", i, got,
			      want[i]);
	}
}

/*
 * Rules 1-3 by hand: 2 SMs, two blocks fit on each (24 KiB of shared
 * memory per block, 8 block slots); X (4 blocks of 1000 cycles) takes
 * room for all four at 0, Y (4 blocks) waits.  All of X's blocks end at
 * one cycle T.
 */
START_TEST(order_across_sms)
{
	struct gtbs_grid_desc d = h_desc(4, 128, 0, 24 * 1024, 1000);
	static const char *const want[] = {
		"b_end sm0 g0 s0", "block_end sm0 g0 s0", "update sm0 g0 s0",
		"b_end sm0 g0 s1", "block_end sm0 g0 s1", "update sm0 g0 s0",
		"pick sm0 g1 s0", "b_start sm0 g1 s0",
		"pick sm0 g1 s0", "b_start sm0 g1 s1",
		/* Y's next does not fit (2 of 8 slots, all the shared memory) */
		"pick sm0 g1 s0",
		/* the same again: gtbs_sm_advance()'s dispatch at its end */
		"pick sm0 g1 s0",
		"b_end sm1 g0 s0", "block_end sm1 g0 s0", "update sm1 g0 s0",
		"b_end sm1 g0 s1", "block_end sm1 g0 s1", "update sm1 g0 s0",
		"grid_end sm-1 g0 s0",
		"pick sm1 g1 s0", "b_start sm1 g1 s0",
		"pick sm1 g1 s0", "update- sm-1 g1 s0", "b_start sm1 g1 s1",
	};
	struct h_dev *h = ord_dev(2);
	size_t i, first = 0, n = 0;
	u64 t = 0;

	h_submit(h, &d, 0);
	h_submit(h, &d, 0);
	h_drain(h);
	/* the cycle of X's block ends, the predictions left out */
	for (i = 0; i < ord_n; i++)
		if (ord_log[i].kind == ORD_B_END && ord_log[i].grid == 0)
			t = ord_log[i].cycle;
	ck_assert_uint_gt(t, 0);
	for (i = 0; i < ord_n; i++) {
		if (ord_log[i].cycle != t || ord_log[i].kind == ORD_PREDICT)
			continue;
		if (!n)
			first = i;
		ord_log[first + n++] = ord_log[i];
	}
	ck_assert_uint_eq(n, ARRAY_SIZE(want));
	ord_expect(first, want, n);
	h_free(h);
}
END_TEST

/*
 * Rule 5: one SM, L (one block of 1000 cycles that fills it) from 0; H,
 * of a higher class, arrives at 300 and switches L's block out.  L's
 * policy block_end: end - start is its running time, the 300 cycles
 * before the switch and its last run, save and restore excluded.
 */
START_TEST(order_preempted)
{
	static struct gtbs_saved pool[8];
	struct gtbs_grid_desc l = h_desc(1, 256, 0, 48 * 1024, 1000);
	struct gtbs_grid_desc hi = h_desc(1, 256, 0, 48 * 1024, 100);
	struct h_dev *h = ord_dev(1);
	const struct ord_ev *be = NULL, *pe = NULL;
	bool updated = false;
	u64 first = U64_MAX, last = 0;
	size_t i;

	gtbs_dev_set_saved_pool(&h->dev, pool, ARRAY_SIZE(pool));
	ck_assert_int_eq(gtbs_dev_set_preempt(&h->dev, GTBS_PREEMPT_SWITCH, 0),
			 0);
	l.prio_class = GTBS_PRIO_LOW;
	hi.prio_class = GTBS_PRIO_HIGH;
	h_submit(h, &l, 0);
	h_submit(h, &hi, 300);
	h_drain(h);
	for (i = 0; i < ord_n; i++) {
		const struct ord_ev *e = &ord_log[i];

		if (e->grid != 0)
			continue;
		if (e->kind == ORD_B_START)
			first = min(first, e->cycle);
		if (e->kind == ORD_B_PREEMPT) {
			ck_assert_ptr_null(pe);
			pe = e;
			/* the update with the SM comes at the switch */
			ck_assert_int_eq(ord_log[i - 1].kind, ORD_UPDATE_SM);
			ck_assert_uint_eq(ord_log[i - 1].cycle, 300);
			updated = true;
		}
		if (e->kind == ORD_B_END) {
			ck_assert_int_eq(ord_log[i + 1].kind, ORD_BLOCK_END);
			be = &ord_log[i + 1];
			/* the owner's start is its last run's */
			ck_assert_uint_gt(e->start, 300);
			last = e->start;
			ck_assert_uint_eq(be->start,
					  e->start - (pe->cycle - first));
		}
	}
	ck_assert(updated);
	ck_assert_ptr_nonnull(be);
	ck_assert_uint_eq(first, 0);
	ck_assert_uint_eq(pe->cycle, 300);
	/* 300 cycles before the switch, the rest after the restore */
	ck_assert_uint_eq(be->end - be->start, 300 + (be->end - last));
	ck_assert_uint_gt(be->end - be->start, 300);
	h_free(h);
}
END_TEST

/* The sizes Documentation/scheduling.rst's reference states, by name. */
START_TEST(order_priv_sizes)
{
	ck_assert_uint_eq(GTBS_POLICY_DEV_PRIV_SIZE, 256);
	ck_assert_uint_eq(GTBS_POLICY_SM_PRIV_SIZE, 32);
	ck_assert_uint_eq(GTBS_POLICY_GRID_PRIV_SIZE, 96);
	ck_assert_uint_eq(GTBS_POLICY_GRID_SM_PRIV_SIZE, 56);
	ck_assert_uint_eq(GTBS_POLICY_TENANT_PRIV_SIZE, 48);
}
END_TEST

Suite *policy_order_suite(void)
{
	Suite *s = suite_create("policy_order");
	TCase *tc = h_tcase("order");

	tcase_add_loop_test(tc, order_block_end, 0, 16);
	tcase_add_loop_test(tc, order_picks, 0, 16);
	tcase_add_test(tc, order_across_sms);
	tcase_add_test(tc, order_preempted);
	tcase_add_test(tc, order_priv_sizes);
	suite_add_tcase(s, tc);
	return s;
}
