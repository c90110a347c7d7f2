// SPDX-License-Identifier: GPL-2.0
/*
 * gputbs_kunit_sched.c - KUnit suites for the Simple Slicing predictor,
 * SRTF, priority classes, the serial SJF and LJF and run-time policy
 * switches.
 *
 * Everything runs in pure virtual time, and every expected number is
 * worked out by hand in the comment above its case.  Most cases use
 * "whole-SM" grids: 256 threads and 48 KiB of shared memory per block, so
 * R = 1 and an SM holds one block of any of them at a time.  The SM's load
 * is then always the block's own 8 warps, and every block lasts exactly
 * its work in cycles (Documentation/timing-model.rst), which makes
 * timelines easy to compute.
 *
 * Copyright (C) 2026 The gputbs developers
 */
#include <linux/bitmap.h>
#include <linux/module.h>
#include <linux/slab.h>

#include "gputbs_kunit.h"
#include "../../sm-emu/policy_srtf.h"

/* SRTF's state of the device and of a grid, as the policy keeps them. */
static struct gtbs_srtf *gtbs_srtf_of(struct gtbs_test_dev *td)
{
	return gtbs_policy_priv(&td->dev);
}

static u32 gtbs_sample_of(struct gtbs_grid *grid)
{
	return ((struct gtbs_srtf_grid *)gtbs_policy_priv(grid))->sample;
}

/* A parameter of the device's policy by name, which must exist. */
static u32 gtbs_param_idx(struct kunit *test, struct gtbs_test_dev *td,
			  const char *name)
{
	int idx = gtbs_policy_param_find(td->dev.policy, name);

	KUNIT_ASSERT_GE(test, idx, 0);
	return idx;
}

/* A whole-SM grid (R = 1) of @blocks blocks of exactly @cycles each. */
static struct gtbs_grid_desc gtbs_whole_sm(u32 blocks, u64 cycles, u32 class)
{
	struct gtbs_grid_desc desc = gtbs_test_desc(blocks, 256, 0, 48 * 1024,
						    cycles);

	desc.prio_class = class;
	return desc;
}

static struct gtbs_test_dev *gtbs_policy_dev(struct kunit *test, u32 nr_sms,
					     const char *policy)
{
	struct gtbs_test_dev *td = gtbs_test_dev_sms(test, nr_sms);
	const struct gtbs_policy_ops *ops = gtbs_policy_find(policy);

	KUNIT_ASSERT_NOT_NULL(test, ops);
	gtbs_dev_set_policy(&td->dev, ops, 0);
	return td;
}

/* The recorded start of block @block of @grid, or NULL. */
static const struct gtbs_test_event *
gtbs_start_of(const struct gtbs_test_dev *td, const struct gtbs_grid *grid,
	      u32 block)
{
	unsigned int i;

	for (i = 0; i < td->nr_starts; i++)
		if (td->starts[i].grid_id == grid->id &&
		    td->starts[i].block == block)
			return &td->starts[i];
	return NULL;
}

static void gtbs_expect_start(struct kunit *test,
			      const struct gtbs_test_dev *td,
			      const struct gtbs_grid *grid, u32 block, u32 sm,
			      u64 cycle)
{
	const struct gtbs_test_event *ev = gtbs_start_of(td, grid, block);

	KUNIT_ASSERT_NOT_NULL_MSG(test, ev, "%s block %u never started",
				  grid->desc.label, block);
	KUNIT_EXPECT_EQ_MSG(test, ev->sm, sm, "%s block %u",
			    grid->desc.label, block);
	KUNIT_EXPECT_EQ_MSG(test, ev->start, cycle, "%s block %u",
			    grid->desc.label, block);
}

/* --- gputbs_predictor: Algorithm 1 and Equation 2 on hand traces -------- */

static void gtbs_pred_end(struct kunit *test, struct gtbs_pred_sm *s,
			  u32 slot, u64 cycle, u64 pred)
{
	KUNIT_ASSERT_EQ(test, gtbs_pred_on_block_end(s, slot, cycle), 1);
	KUNIT_EXPECT_EQ_MSG(test, s->pred_cycles, pred, "end at %llu", cycle);
}

/*
 * The paper's Figure "Staircase Model Execution": N = 3R blocks on one SM,
 * R = 4, t = 1000, so T = ceil(N / R) t = 3000.  Equation 2 at each block
 * end, with Done_Blocks counting the ends so far and Active_Kernel_Cycles
 * the cycle itself: at 1000, 1000 + (12 - d) * 1000 / 4 for d = 1..4 is
 * 3750, 3500, 3250, 3000; at 2000, 2000 + (12 - d) * 250 for d = 5..8 is
 * again 3750 .. 3000; at 3000 likewise.  The last prediction is exact.
 */
static void gtbs_predictor_staircase(struct kunit *test)
{
	static const u64 pred[4] = { 3750, 3500, 3250, 3000 };
	struct gtbs_pred_sm s;
	u64 starts[8];
	u32 step, slot;

	KUNIT_ASSERT_EQ(test,
			gtbs_pred_init(&s, starts, ARRAY_SIZE(starts)), 0);
	KUNIT_ASSERT_EQ(test, gtbs_pred_on_launch(&s, 12, 4, 1), 0);
	for (step = 0; step < 3; step++) {
		for (slot = 0; slot < 4; slot++)
			KUNIT_ASSERT_EQ(test, gtbs_pred_on_block_start(&s, slot,
								       step * 1000), 0);
		for (slot = 0; slot < 4; slot++)
			gtbs_pred_end(test, &s, slot, (step + 1) * 1000,
				      pred[slot]);
	}
	KUNIT_EXPECT_EQ(test, s.t, 1000);
	KUNIT_EXPECT_EQ(test, gtbs_pred_remaining(&s, 3000), 0);
}

/*
 * Staggered start (the paper's Figure "SGEMM execution as recorded on a
 * different SM"): R = 2, 6 blocks of 100 cycles on one SM, slot 1 starting
 * 30 cycles after slot 0.  Slot 0 runs 0-100-200-300, slot 1 30-130-230-
 * 330; the runtime is 330.  t = 100 from the first end; Equation 2 with
 * t / R = 50: at 100, 100 + 5 * 50 = 350; at 130, 130 + 4 * 50 = 330;
 * 200 + 150 = 350; 230 + 100 = 330; 300 + 50 = 350; 330 + 0 = 330.
 */
static void gtbs_predictor_staggered(struct kunit *test)
{
	static const u64 pred[6] = { 350, 330, 350, 330, 350, 330 };
	struct gtbs_pred_sm s;
	u64 starts[8];
	u32 i;

	KUNIT_ASSERT_EQ(test,
			gtbs_pred_init(&s, starts, ARRAY_SIZE(starts)), 0);
	KUNIT_ASSERT_EQ(test, gtbs_pred_on_launch(&s, 6, 2, 1), 0);
	KUNIT_ASSERT_EQ(test, gtbs_pred_on_block_start(&s, 0, 0), 0);
	KUNIT_ASSERT_EQ(test, gtbs_pred_on_block_start(&s, 1, 30), 0);
	for (i = 0; i < 6; i++) {
		u32 slot = i % 2;
		u64 end = (i / 2 + 1) * 100 + slot * 30;

		gtbs_pred_end(test, &s, slot, end, pred[i]);
		if (i < 4)
			KUNIT_ASSERT_EQ(test, gtbs_pred_on_block_start(&s, slot,
								       end), 0);
	}
	KUNIT_EXPECT_EQ(test, s.t, 100);
}

/*
 * Two slices: R = 2, 8 blocks on one SM.  Blocks take 100 cycles until a
 * co-runner launches at 200 (a new slice), then 150.  Both slots run
 * 0-100-200-350-500.  First slice, t = 100, t / R = 50: at 100, 100 +
 * 7 * 50 = 450 and 100 + 6 * 50 = 400; at 200, 450 and 400.  Second
 * slice: the first end, at 350, sets t = 150, t / R = 75: 350 + 3 * 75 =
 * 575, then 350 + 2 * 75 = 500; at 500, 575 and 500, the true runtime.
 * Slice-unaware, the only prediction is the first, 450.
 */
static void gtbs_predictor_two_slices_run(struct kunit *test, bool unaware)
{
	static const u64 ends[4] = { 100, 200, 350, 500 };
	static const u64 pred[8] = { 450, 400, 450, 400, 575, 500, 575, 500 };
	struct gtbs_pred_sm s;
	u64 starts[8];
	u32 step, slot;

	KUNIT_ASSERT_EQ(test,
			gtbs_pred_init(&s, starts, ARRAY_SIZE(starts)), 0);
	KUNIT_ASSERT_EQ(test, gtbs_pred_on_launch(&s, 8, 2, 1), 0);
	gtbs_pred_set_slice_unaware(&s, unaware);
	for (slot = 0; slot < 2; slot++)
		KUNIT_ASSERT_EQ(test, gtbs_pred_on_block_start(&s, slot, 0), 0);
	for (step = 0; step < 4; step++) {
		if (step == 2)
			gtbs_pred_reslice(&s);	/* co-runner launched at 200 */
		for (slot = 0; slot < 2; slot++) {
			int ret = gtbs_pred_on_block_end(&s, slot, ends[step]);

			KUNIT_EXPECT_EQ(test, ret, unaware && (step || slot) ?
					0 : 1);
			KUNIT_EXPECT_EQ(test, s.pred_cycles,
					unaware ? 450 : pred[step * 2 + slot]);
			if (step < 3)
				KUNIT_ASSERT_EQ(test,
						gtbs_pred_on_block_start(&s, slot,
									 ends[step]),
						0);
		}
	}
	KUNIT_EXPECT_EQ(test, s.t, unaware ? 100 : 150);
	KUNIT_EXPECT_EQ(test, s.done_blocks, 8);
}

static void gtbs_predictor_two_slices(struct kunit *test)
{
	gtbs_predictor_two_slices_run(test, false);
}

static void gtbs_predictor_two_slices_unaware(struct kunit *test)
{
	gtbs_predictor_two_slices_run(test, true);
}

/*
 * The engine runs the predictor for every grid on every SM.  A whole-SM
 * grid of 8 blocks of 300 cycles on 2 SMs: Total_Blocks = 4, R = 1.  The
 * first end on SM 0 at 300 predicts 300 + 3 * 300 = 1200, exactly the
 * runtime; every later end predicts 1200 again.
 */
static void gtbs_predictor_in_engine(struct kunit *test)
{
	struct gtbs_test_dev *td = gtbs_test_dev_sms(test, 2);
	struct gtbs_grid_desc desc = gtbs_whole_sm(8, 300, GTBS_PRIO_NORMAL);
	struct gtbs_grid *grid = gtbs_test_submit(test, td, &desc, 0);
	u32 i;

	gtbs_dev_run_until(&td->dev, 300);
	KUNIT_EXPECT_EQ(test, grid->nr_predictions, 2);
	KUNIT_EXPECT_EQ(test, grid->first_pred, 1200);
	KUNIT_EXPECT_EQ(test, grid->pred_remaining, 900);
	gtbs_test_drain(td);
	KUNIT_EXPECT_EQ(test, grid->end_cycle, 1200);
	KUNIT_EXPECT_EQ(test, grid->nr_predictions, 8);
	for (i = 0; i < 2; i++) {
		KUNIT_EXPECT_EQ(test, grid->sm[i]->pred.pred_cycles, 1200);
		KUNIT_EXPECT_EQ(test, grid->sm[i]->pred.done_blocks, 4);
		KUNIT_EXPECT_EQ(test, grid->sm[i]->pred.t, 300);
	}
}

static struct kunit_case gtbs_predictor_cases[] = {
	KUNIT_CASE(gtbs_predictor_staircase),
	KUNIT_CASE(gtbs_predictor_staggered),
	KUNIT_CASE(gtbs_predictor_two_slices),
	KUNIT_CASE(gtbs_predictor_two_slices_unaware),
	KUNIT_CASE(gtbs_predictor_in_engine),
	{}
};

struct kunit_suite gtbs_predictor_suite = {
	.name = "gputbs_predictor",
	.test_cases = gtbs_predictor_cases,
};

/* --- gputbs_srtf: sampling, switch and hand-off ------------------------- */

/*
 * Two SMs.  A: 16 whole-SM blocks of 300 cycles at cycle 0 (alone 2400).
 * B: 8 blocks of 100 cycles arriving at 150 (alone 400).
 *
 *   0    A0 on SM0, A1 on SM1.
 *   150  B arrives; no SM has room.
 *   300  A0 ends: A predicts 300 + 7 * 300 = 2400 on SM0 (remaining
 *        2100).  SM0 now has room: it samples B (sampling delay 150):
 *        B0 on SM0.  A1 ends: A2 on SM1.
 *   400  B0 ends: sample prediction 100 + 3 * 100 = 400, remaining 300,
 *        copied to SM1.  SM0: B (300) < A (2100): B1.  SM1: B (300) <
 *        A (2400 - 400 = 2000): switch, but A2 holds the SM: hand-off.
 *   500  B2 on SM0.
 *   600  B3 on SM0; A2 ends, SM1 switches: B4 (hand-off delay 200).
 *   700  B5 on SM0, B6 on SM1.
 *   800  B7 on SM0 (the last); SM1 goes back to A: A3.
 *   900  B ends.  A4 on SM0.
 *   then A5..A15 alternate: SM1 at 1100, SM0 at 1200, ... A ends at 2900.
 */
static void gtbs_srtf_two_grids(struct kunit *test)
{
	static const struct { u32 block, sm; u64 cycle; } b_starts[] = {
		{ 0, 0, 300 }, { 1, 0, 400 }, { 2, 0, 500 }, { 3, 0, 600 },
		{ 4, 1, 600 }, { 5, 0, 700 }, { 6, 1, 700 }, { 7, 0, 800 },
	};
	struct gtbs_test_dev *td = gtbs_policy_dev(test, 2, "srtf");
	struct gtbs_grid_desc da = gtbs_whole_sm(16, 300, GTBS_PRIO_NORMAL);
	struct gtbs_grid_desc db = gtbs_whole_sm(8, 100, GTBS_PRIO_NORMAL);
	struct gtbs_grid *a, *b;
	u32 i;

	strscpy(da.label, "A", sizeof(da.label));
	strscpy(db.label, "B", sizeof(db.label));
	a = gtbs_test_submit(test, td, &da, 0);
	b = gtbs_test_submit(test, td, &db, 150);
	KUNIT_EXPECT_EQ(test, gtbs_sample_of(b), GTBS_SAMPLE_NONE);
	KUNIT_EXPECT_NULL(test, gtbs_srtf_of(td)->sampling);

	gtbs_dev_run_until(&td->dev, 399);
	KUNIT_EXPECT_PTR_EQ(test, gtbs_srtf_of(td)->sampling, b);
	KUNIT_EXPECT_EQ(test, gtbs_srtf_of(td)->sample_sm, 0);
	KUNIT_EXPECT_EQ(test, gtbs_sample_of(b), GTBS_SAMPLE_RUNNING);
	KUNIT_EXPECT_EQ(test, a->first_pred, 2400);

	gtbs_dev_run_until(&td->dev, 400);
	KUNIT_EXPECT_NULL(test, gtbs_srtf_of(td)->sampling);
	KUNIT_EXPECT_EQ(test, gtbs_sample_of(b), GTBS_SAMPLE_KNOWN);
	KUNIT_EXPECT_EQ(test, b->first_pred, 400);
	/* the initial prediction, stored plus one (0: none), device-wide */
	KUNIT_EXPECT_EQ(test, ((struct gtbs_srtf_grid *)
			       gtbs_policy_priv(b))->init_remaining, 301);
	/* b never ran on SM 1: no state there */
	KUNIT_EXPECT_NULL(test, gtbs_grid_sm(b, 1));

	gtbs_test_drain(td);
	for (i = 0; i < ARRAY_SIZE(b_starts); i++)
		gtbs_expect_start(test, td, b, b_starts[i].block,
				  b_starts[i].sm, b_starts[i].cycle);
	gtbs_expect_start(test, td, a, 2, 1, 300);
	gtbs_expect_start(test, td, a, 3, 1, 800);
	gtbs_expect_start(test, td, a, 4, 0, 900);
	gtbs_expect_start(test, td, a, 15, 1, 2600);
	KUNIT_EXPECT_EQ(test, b->end_cycle, 900);
	KUNIT_EXPECT_EQ(test, a->end_cycle, 2900);
}

/*
 * The same pair under FIFO, for contrast: B waits for all of A's blocks to
 * be issued.  A's last two blocks start at 2100 and end at 2400; B runs
 * 2400-2800.
 */
static void gtbs_srtf_fifo_contrast(struct kunit *test)
{
	struct gtbs_test_dev *td = gtbs_policy_dev(test, 2, "fifo");
	struct gtbs_grid_desc da = gtbs_whole_sm(16, 300, GTBS_PRIO_NORMAL);
	struct gtbs_grid_desc db = gtbs_whole_sm(8, 100, GTBS_PRIO_NORMAL);
	struct gtbs_grid *a, *b;

	a = gtbs_test_submit(test, td, &da, 0);
	b = gtbs_test_submit(test, td, &db, 150);
	gtbs_test_drain(td);
	KUNIT_EXPECT_EQ(test, a->end_cycle, 2400);
	KUNIT_EXPECT_EQ(test, b->start_cycle, 2400);
	KUNIT_EXPECT_EQ(test, b->end_cycle, 2800);
}

/*
 * A short grid that arrives on an idle device is not sampled, and a longer
 * arrival does not displace a shorter incumbent: one SM, A: 4 blocks of
 * 100 (alone 400) at 0; B: 4 blocks of 1000 at 50.  At 100 A predicts
 * 400 (remaining 300) and the SM samples B: B0 runs 100-1100 and predicts
 * 1000 + 3 * 1000 = 4000, remaining 3000 > A's 300: the SM goes back to A,
 * whose blocks run 1100-1400, then B's 1400-4400.
 */
static void gtbs_srtf_longer_arrival_keeps_incumbent(struct kunit *test)
{
	struct gtbs_test_dev *td = gtbs_policy_dev(test, 1, "srtf");
	struct gtbs_grid_desc da = gtbs_whole_sm(4, 100, GTBS_PRIO_NORMAL);
	struct gtbs_grid_desc db = gtbs_whole_sm(4, 1000, GTBS_PRIO_NORMAL);
	struct gtbs_grid *a, *b;

	a = gtbs_test_submit(test, td, &da, 0);
	KUNIT_EXPECT_EQ(test, gtbs_sample_of(a), GTBS_SAMPLE_KNOWN);
	b = gtbs_test_submit(test, td, &db, 50);
	gtbs_test_drain(td);
	KUNIT_EXPECT_EQ(test, b->first_pred, 4000);
	gtbs_expect_start(test, td, b, 0, 0, 100);
	gtbs_expect_start(test, td, a, 1, 0, 1100);
	gtbs_expect_start(test, td, b, 1, 0, 1400);
	KUNIT_EXPECT_EQ(test, a->end_cycle, 1400);
	KUNIT_EXPECT_EQ(test, b->end_cycle, 4400);
}

/*
 * The two readings on the timeline of gtbs_srtf_two_grids(): at 800 B
 * issues its last block B7 on SM0 and is in its tail until 900.  SM1 is
 * free (B6 ended at 800) and holds no block of B.  sm-exclusive (the
 * default, as above) and work-conserving: A3 starts on SM1 at 800 and A
 * ends at 2900.  exclusive: B's tail holds A on every SM until 900, when
 * both SMs take A (A3, A4), and A's 13 blocks left run in 7 rounds of 300
 * cycles: A ends at 3000, B still at 900.
 */
static void gtbs_srtf_exclusive_tail(struct kunit *test)
{
	static const u64 readings[] = {
		GTBS_SINGLE_SM, GTBS_SINGLE_CONSERVING, GTBS_SINGLE_EXCLUSIVE,
	};
	u32 i;

	for (i = 0; i < ARRAY_SIZE(readings); i++) {
		struct gtbs_test_dev *td = gtbs_policy_dev(test, 2, "srtf");
		struct gtbs_grid_desc da = gtbs_whole_sm(16, 300,
							 GTBS_PRIO_NORMAL);
		struct gtbs_grid_desc db = gtbs_whole_sm(8, 100,
							 GTBS_PRIO_NORMAL);
		bool excl = readings[i] == GTBS_SINGLE_EXCLUSIVE;
		const struct gtbs_test_event *a3;
		struct gtbs_grid *a, *b;
		u32 idx = gtbs_param_idx(test, td, "single_kernel");

		KUNIT_ASSERT_EQ(test, gtbs_policy_param_set(&td->dev, idx,
							    readings[i], 0),
				0);
		a = gtbs_test_submit(test, td, &da, 0);
		b = gtbs_test_submit(test, td, &db, 150);
		gtbs_test_drain(td);
		KUNIT_EXPECT_EQ(test, b->end_cycle, 900);
		a3 = gtbs_start_of(td, a, 3);
		KUNIT_ASSERT_NOT_NULL(test, a3);
		KUNIT_EXPECT_EQ_MSG(test, a3->start, excl ? 900 : 800,
				    "reading %llu", readings[i]);
		KUNIT_EXPECT_EQ_MSG(test, a->end_cycle, excl ? 3000 : 2900,
				    "reading %llu", readings[i]);
	}
}

/*
 * A cap on a hand timeline (sm-emu/tenant.c): one SM, whole-SM blocks of
 * 1000 cycles (R = 1: a block holds the SM), max 30% of the SM time,
 * periods of 100,000 cycles: a quota of 30,000 SM-cycles.  A block's
 * 1000 SM-cycles are taken from the budget at its issue: blocks 0..29
 * run 0..30,000, and block 29's issue at 29,000 leaves the budget at 0,
 * so the SM's next pick at that cycle (the SM has block slots left,
 * shared memory is what is full) throttles the tenant there; block 29
 * runs on to 30,000, its end trues up nothing (it held what it was
 * charged).  The refill at 100,000 (before the SM's events of that
 * cycle) lets blocks 30..59 run 100,000..130,000; block 59's charge
 * leaves the budget at 0 again, and with no block left to pick, the
 * tenant is throttled at 130,000, its last block's end.  It held 60,000
 * SM-cycles and was throttled twice: 71,000 cycles (29,000..100,000) and
 * 70,000 (130,000..200,000: the drain runs that refill too), 141,000 in
 * all.
 */
static void gtbs_srtf_tenant_cap_timeline(struct kunit *test)
{
	struct gtbs_test_dev *td = gtbs_policy_dev(test, 1, "fifo");
	struct gtbs_grid_desc d = gtbs_whole_sm(60, 1000, GTBS_PRIO_NORMAL);
	struct gtbs_tenant *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	struct gtbs_grid *g;

	KUNIT_ASSERT_NOT_NULL(test, t);
	gtbs_tenant_setup(&td->dev, t, 1, 0);
	KUNIT_ASSERT_EQ(test, gtbs_tenant_set(&td->dev, t, 100, 300000, 0), 0);
	g = gtbs_test_grid_new(test, td, &d);
	g->tenant = t;
	gtbs_grid_submit(&td->dev, g, 0);
	gtbs_test_drain(td);
	gtbs_expect_start(test, td, g, 29, 0, 29000);
	gtbs_expect_start(test, td, g, 30, 0, 100000);
	gtbs_expect_start(test, td, g, 59, 0, 129000);
	KUNIT_EXPECT_EQ(test, g->end_cycle, 130000);
	KUNIT_EXPECT_EQ(test, gtbs_tenant_sm_time(t, 130000),
			60000 * GTBS_SM_TIME_SCALE);
	KUNIT_EXPECT_EQ(test, t->nr_throttles, 2);
	KUNIT_EXPECT_EQ(test, t->throttled_cycles, 141000);
	KUNIT_EXPECT_FALSE(test, t->throttled);
	KUNIT_EXPECT_EQ(test, gtbs_dev_next_refill(&td->dev), U64_MAX);
	gtbs_tenant_del(&td->dev, t);
}

static struct kunit_case gtbs_srtf_cases[] = {
	KUNIT_CASE(gtbs_srtf_tenant_cap_timeline),
	KUNIT_CASE(gtbs_srtf_two_grids),
	KUNIT_CASE(gtbs_srtf_exclusive_tail),
	KUNIT_CASE(gtbs_srtf_fifo_contrast),
	KUNIT_CASE(gtbs_srtf_longer_arrival_keeps_incumbent),
	{}
};

struct kunit_suite gtbs_srtf_suite = {
	.name = "gputbs_srtf",
	.test_cases = gtbs_srtf_cases,
};

/* --- gputbs_prio: strict classes, block-granular preemption, guard ------ */

/*
 * Two SMs, FIFO.  L (low): 8 blocks of 300 at 0.  H (high): 4 blocks of
 * 100 at 150.  L0 and L1 run 0-300 and are not interrupted; from 300 the
 * SMs issue only H (300-400-500); L resumes at 500 and ends at 1400.
 */
static void gtbs_prio_preempts_at_block_boundary(struct kunit *test)
{
	struct gtbs_test_dev *td = gtbs_policy_dev(test, 2, "fifo");
	struct gtbs_grid_desc dl = gtbs_whole_sm(8, 300, GTBS_PRIO_LOW);
	struct gtbs_grid_desc dh = gtbs_whole_sm(4, 100, GTBS_PRIO_HIGH);
	struct gtbs_grid *l, *h;
	unsigned int i;

	l = gtbs_test_submit(test, td, &dl, 0);
	h = gtbs_test_submit(test, td, &dh, 150);
	gtbs_test_drain(td);
	for (i = 0; i < td->nr_ends; i++)
		if (td->ends[i].grid_id == l->id && td->ends[i].block < 2)
			KUNIT_EXPECT_EQ(test, td->ends[i].end, 300);
	for (i = 0; i < td->nr_starts; i++)
		if (td->starts[i].grid_id == l->id)
			KUNIT_EXPECT_TRUE_MSG(test, td->starts[i].start < 150 ||
					      td->starts[i].start >= 500,
					      "low block %u at %llu",
					      td->starts[i].block,
					      td->starts[i].start);
	gtbs_expect_start(test, td, h, 0, 0, 300);
	gtbs_expect_start(test, td, h, 1, 1, 300);
	gtbs_expect_start(test, td, h, 3, 1, 400);
	gtbs_expect_start(test, td, l, 2, 0, 500);
	KUNIT_EXPECT_EQ(test, h->end_cycle, 500);
	KUNIT_EXPECT_EQ(test, l->end_cycle, 1400);
	KUNIT_EXPECT_EQ(test, td->dev.promotions, 0);
}

/*
 * Strict order with FIFO inside a class, on one SM: N (normal, 2 blocks of
 * 100) at 0, then at 10 in this order L (low, 1 block), H1 (high, 1),
 * R (realtime, 1), H2 (high, 1).  N0 runs 0-100; then R, H1, H2 (arrival
 * order within high), N1, L: starts 100, 200, 300, 400, 500.
 */
static void gtbs_prio_strict_order(struct kunit *test)
{
	struct gtbs_test_dev *td = gtbs_policy_dev(test, 1, "fifo");
	struct gtbs_grid_desc dn = gtbs_whole_sm(2, 100, GTBS_PRIO_NORMAL);
	struct gtbs_grid_desc dl = gtbs_whole_sm(1, 100, GTBS_PRIO_LOW);
	struct gtbs_grid_desc dh = gtbs_whole_sm(1, 100, GTBS_PRIO_HIGH);
	struct gtbs_grid_desc dr = gtbs_whole_sm(1, 100, GTBS_PRIO_REALTIME);
	struct gtbs_grid *n, *l, *h1, *r, *h2;

	n = gtbs_test_submit(test, td, &dn, 0);
	l = gtbs_test_submit(test, td, &dl, 10);
	h1 = gtbs_test_submit(test, td, &dh, 10);
	r = gtbs_test_submit(test, td, &dr, 10);
	h2 = gtbs_test_submit(test, td, &dh, 10);
	gtbs_test_drain(td);
	KUNIT_EXPECT_EQ(test, r->start_cycle, 100);
	KUNIT_EXPECT_EQ(test, h1->start_cycle, 200);
	KUNIT_EXPECT_EQ(test, h2->start_cycle, 300);
	gtbs_expect_start(test, td, n, 1, 0, 400);
	KUNIT_EXPECT_EQ(test, l->start_cycle, 500);
}

/* The core's class rule: unknown classes EINVAL, raising needs privilege. */
static void gtbs_prio_class_permissions(struct kunit *test)
{
	struct gtbs_grid_desc desc = gtbs_whole_sm(1, 100, GTBS_NR_PRIO_CLASSES);
	const char *why;

	KUNIT_EXPECT_EQ(test, gtbs_prio_class_check(GTBS_PRIO_LOW, false), 0);
	KUNIT_EXPECT_EQ(test, gtbs_prio_class_check(GTBS_PRIO_NORMAL, false), 0);
	KUNIT_EXPECT_EQ(test, gtbs_prio_class_check(GTBS_PRIO_HIGH, false),
			-EPERM);
	KUNIT_EXPECT_EQ(test, gtbs_prio_class_check(GTBS_PRIO_REALTIME, false),
			-EPERM);
	KUNIT_EXPECT_EQ(test, gtbs_prio_class_check(GTBS_PRIO_REALTIME, true),
			0);
	KUNIT_EXPECT_EQ(test, gtbs_prio_class_check(GTBS_NR_PRIO_CLASSES, true),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, gtbs_grid_desc_check(&gtbs_test_dev_sms(test, 1)->dev.cfg,
						   &desc, &why), -EINVAL);
}

/*
 * Starvation under SRTF on one SM.  L: 5 blocks of 100 at 0 (normal).  A
 * stream of one-block grids of 100 cycles arrives at 50, 150, ..., 4950;
 * each is sampled as soon as the SM is free, so L, the incumbent, never
 * gets the SM back: after L0 (0-100) it starves.  With the guard at 500
 * cycles, L is promoted whenever more than 500 cycles passed since its
 * last block was issued: at 600, 1200, 1800 and 2400, so L ends at 2500.
 */
static void gtbs_prio_starvation_run(struct kunit *test, u64 guard)
{
	struct gtbs_test_dev *td = gtbs_policy_dev(test, 1, "srtf");
	struct gtbs_grid_desc dl = gtbs_whole_sm(5, 100, GTBS_PRIO_NORMAL);
	struct gtbs_grid_desc ds = gtbs_whole_sm(1, 100, GTBS_PRIO_NORMAL);
	struct gtbs_grid *l;
	u64 t;

	td->dev.starve_cycles = guard;
	l = gtbs_test_submit(test, td, &dl, 0);
	for (t = 50; t < 5000; t += 100)
		gtbs_test_submit(test, td, &ds, t);
	gtbs_dev_run_until(&td->dev, 5000);
	if (!guard) {
		KUNIT_EXPECT_EQ(test, l->blocks_done, 1);
		KUNIT_EXPECT_EQ(test, l->state, GTBS_GRID_RUNNING);
		KUNIT_EXPECT_EQ(test, td->dev.promotions, 0);
		return;
	}
	KUNIT_EXPECT_EQ(test, l->state, GTBS_GRID_DONE);
	gtbs_expect_start(test, td, l, 1, 0, 600);
	gtbs_expect_start(test, td, l, 4, 0, 2400);
	KUNIT_EXPECT_EQ(test, l->end_cycle, 2500);
	KUNIT_EXPECT_EQ(test, td->dev.promotions, 4);
}

static void gtbs_prio_starvation_guard_off(struct kunit *test)
{
	gtbs_prio_starvation_run(test, 0);
}

static void gtbs_prio_starvation_guard_on(struct kunit *test)
{
	gtbs_prio_starvation_run(test, 500);
}

static struct kunit_case gtbs_prio_cases[] = {
	KUNIT_CASE(gtbs_prio_preempts_at_block_boundary),
	KUNIT_CASE(gtbs_prio_strict_order),
	KUNIT_CASE(gtbs_prio_class_permissions),
	KUNIT_CASE(gtbs_prio_starvation_guard_off),
	KUNIT_CASE(gtbs_prio_starvation_guard_on),
	{}
};

struct kunit_suite gtbs_prio_suite = {
	.name = "gputbs_prio",
	.test_cases = gtbs_prio_cases,
};

/* --- gputbs_share: MPMax reservations, SRTF/Adaptive sharing mode ------- */

/*
 * "Six per SM" grids: 256 threads (8 warps) per block, nothing else, so
 * R = 6 (48 warps) and any full SM holds 48 warps: every block, of any mix
 * of such grids, lasts exactly its work.
 */
static struct gtbs_grid_desc gtbs_six(u32 blocks, u64 cycles, const char *l)
{
	struct gtbs_grid_desc desc = gtbs_test_desc(blocks, 256, 0, 0, cycles);

	strscpy(desc.label, l, sizeof(desc.label));
	return desc;
}

/*
 * MPMax on one SM: A and B, 12 blocks of 600 each, B arriving at 50.  With
 * B co-running, A's limit is the blocks that fit beside one block of B:
 * (48 - 8) / 8 = 5 warps' worth, and B's likewise.  At 600 A's first six
 * end: A issues up to its limit, 5 (blocks 6-10), and B gets the block set
 * aside for it (B0).  At 1200 A issues its last block (A11); with nothing
 * of A left to issue B co-runs with nobody, its limit is R = 6 again, and
 * it takes the SM: B1-B5 at 1200, B6-B11 at 1800.  A ends at 1800, B at
 * 2400.  Under FIFO B would start at 1200, after all of A is out.
 */
static void gtbs_share_mpmax(struct kunit *test)
{
	struct gtbs_test_dev *td = gtbs_policy_dev(test, 1, "mpmax");
	struct gtbs_grid_desc da = gtbs_six(12, 600, "A");
	struct gtbs_grid_desc db = gtbs_six(12, 600, "B");
	struct gtbs_grid *a, *b;
	u32 i;

	a = gtbs_test_submit(test, td, &da, 0);
	b = gtbs_test_submit(test, td, &db, 50);
	gtbs_test_drain(td);
	for (i = 6; i <= 10; i++)
		gtbs_expect_start(test, td, a, i, 0, 600);
	gtbs_expect_start(test, td, b, 0, 0, 600);
	gtbs_expect_start(test, td, a, 11, 0, 1200);
	gtbs_expect_start(test, td, b, 5, 0, 1200);
	gtbs_expect_start(test, td, b, 6, 0, 1800);
	gtbs_expect_start(test, td, b, 11, 0, 1800);
	KUNIT_EXPECT_EQ(test, a->end_cycle, 1800);
	KUNIT_EXPECT_EQ(test, b->end_cycle, 2400);
}

/*
 * SRTF/Adaptive on one SM: A, 24 blocks of 600 at 0 (alone 2400); B, 30
 * blocks of 600 at 50 (alone 3000).  n is blocks left, t = 600, R = 6.
 *
 *   0     A0-A5.
 *   600   B is sampled: B0-B5 (the sample SM issues only B).
 *   1200  B known.  T1 = 18 * 600 / 6 = 1800, T2 = 24 * 600 / 6 = 2400:
 *         exclusive slowdowns 1 and 4200 / 2400, difference 0.75 > 0.5.
 *         Shared, A limited to 3 and B given the 3 that fit beside them:
 *         TS1 = 18 * 600 / 3 = 3600, NB1 = 3600 * 3 / 600 = 18, NB2 = 6,
 *         TS2 = 600: slowdowns 3600 / 1800 = 2 and 4200 / 2400 = 1.75,
 *         difference 0.25 < 0.75: share.  A6-A8 and B6-B8.
 *   1800, 2400, 3000: still unfair exclusive (15/21, 12/18, 9/15 = 0.6)
 *         and fairer shared: three blocks each.
 *   3600  n_A = 6, n_B = 12: T1 / T2 = 0.5, fair: exclusive again, and A,
 *         the shortest, takes the SM: A18-A23, ending at 4200; B's last 12
 *         run 4200-5400.
 *
 * Two switches.  Plain SRTF on the same pair: A ends at 3000, B at 5400.
 */
static void gtbs_share_adaptive(struct kunit *test)
{
	struct gtbs_test_dev *td = gtbs_policy_dev(test, 1, "srtf-adaptive");
	struct gtbs_grid_desc da = gtbs_six(24, 600, "A");
	struct gtbs_grid_desc db = gtbs_six(30, 600, "B");
	struct gtbs_sm *sm = td->sms[0];
	struct gtbs_grid *a, *b;
	u32 thr = gtbs_param_idx(test, td, "share_threshold_ppm");
	u32 res = gtbs_param_idx(test, td, "share_residency");
	u32 mode = gtbs_param_idx(test, td, "share_mode");
	u32 i;

	KUNIT_EXPECT_EQ(test, gtbs_policy_param_get(&td->dev, thr),
			GTBS_FP_ONE / 2);
	KUNIT_EXPECT_EQ(test, gtbs_policy_param_get(&td->dev, res), 3);
	/* the per-SM reading with the extended predictor, worked above */
	KUNIT_ASSERT_EQ(test, gtbs_policy_param_set(&td->dev, mode,
						    GTBS_SHARE_SM, 0), 0);
	KUNIT_ASSERT_EQ(test, gtbs_dev_set_pred_mode(&td->dev,
						     GTBS_PRED_EXTENDED), 0);
	a = gtbs_test_submit(test, td, &da, 0);
	b = gtbs_test_submit(test, td, &db, 50);
	gtbs_dev_run_until(&td->dev, 1199);
	KUNIT_EXPECT_FALSE(test, gtbs_sm_sharing(&td->dev, sm));
	gtbs_dev_run_until(&td->dev, 1200);
	KUNIT_EXPECT_TRUE(test, gtbs_sm_sharing(&td->dev, sm));
	KUNIT_EXPECT_EQ(test, gtbs_grid_sm_resident(a, 0), 3);
	KUNIT_EXPECT_EQ(test, gtbs_grid_sm_resident(b, 0), 3);
	gtbs_dev_run_until(&td->dev, 3599);
	KUNIT_EXPECT_TRUE(test, gtbs_sm_sharing(&td->dev, sm));
	KUNIT_EXPECT_EQ(test, td->dev.sharing_switches, 1);
	gtbs_dev_run_until(&td->dev, 3600);
	KUNIT_EXPECT_FALSE(test, gtbs_sm_sharing(&td->dev, sm));
	KUNIT_EXPECT_EQ(test, gtbs_grid_sm_resident(a, 0), 6);
	gtbs_test_drain(td);
	for (i = 6; i <= 8; i++) {
		gtbs_expect_start(test, td, a, i, 0, 1200);
		gtbs_expect_start(test, td, b, i, 0, 1200);
	}
	gtbs_expect_start(test, td, a, 17, 0, 3000);
	gtbs_expect_start(test, td, b, 17, 0, 3000);
	gtbs_expect_start(test, td, a, 23, 0, 3600);
	gtbs_expect_start(test, td, b, 18, 0, 4200);
	KUNIT_EXPECT_EQ(test, a->end_cycle, 4200);
	KUNIT_EXPECT_EQ(test, b->end_cycle, 5400);
	KUNIT_EXPECT_EQ(test, td->dev.sharing_switches, 2);
}

/* The same pair under plain SRTF: no sharing, A first. */
static void gtbs_share_srtf_contrast(struct kunit *test)
{
	struct gtbs_test_dev *td = gtbs_policy_dev(test, 1, "srtf");
	struct gtbs_grid_desc da = gtbs_six(24, 600, "A");
	struct gtbs_grid_desc db = gtbs_six(30, 600, "B");
	struct gtbs_grid *a, *b;

	a = gtbs_test_submit(test, td, &da, 0);
	b = gtbs_test_submit(test, td, &db, 50);
	gtbs_test_drain(td);
	KUNIT_EXPECT_EQ(test, a->end_cycle, 3000);
	KUNIT_EXPECT_EQ(test, b->end_cycle, 5400);
	KUNIT_EXPECT_EQ(test, td->dev.sharing_switches, 0);
}

/* A threshold above every difference keeps SRTF/Adaptive exclusive. */
static void gtbs_share_threshold_tunable(struct kunit *test)
{
	struct gtbs_test_dev *td = gtbs_policy_dev(test, 1, "srtf-adaptive");
	struct gtbs_grid_desc da = gtbs_six(24, 600, "A");
	struct gtbs_grid_desc db = gtbs_six(30, 600, "B");
	u32 thr = gtbs_param_idx(test, td, "share_threshold_ppm");
	struct gtbs_grid *a, *b;

	KUNIT_ASSERT_EQ(test, gtbs_policy_param_set(&td->dev, thr, GTBS_FP_ONE,
						    0), 0);
	a = gtbs_test_submit(test, td, &da, 0);
	b = gtbs_test_submit(test, td, &db, 50);
	gtbs_test_drain(td);
	KUNIT_EXPECT_EQ(test, td->dev.sharing_switches, 0);
	KUNIT_EXPECT_EQ(test, a->end_cycle, 3000);
	KUNIT_EXPECT_EQ(test, b->end_cycle, 5400);
}

static struct kunit_case gtbs_share_cases[] = {
	KUNIT_CASE(gtbs_share_mpmax),
	KUNIT_CASE(gtbs_share_adaptive),
	KUNIT_CASE(gtbs_share_srtf_contrast),
	KUNIT_CASE(gtbs_share_threshold_tunable),
	{}
};

struct kunit_suite gtbs_share_suite = {
	.name = "gputbs_share",
	.test_cases = gtbs_share_cases,
};

/* --- gputbs_serial: the paper's serial SJF and LJF ---------------------- */

/*
 * Section "Motivation"'s clairvoyant serial schedules (policy_sjf.c) on two
 * SMs with whole-SM grids, each submitted before the device runs for its
 * arrival cycle (gtbs_grid_submit_at(), as GPUTBS_SUBMIT_AT_CYCLE does), so
 * the policy sees the grid still to come.
 *
 *   L: 3 blocks of 1000, alone ceil(ceil(3 / 2) / 1) * 1000 = 2000
 *      (Equation 1, S = 2, R = 1); its third block runs alone on one SM.
 *   S: 3 blocks of 200, alone ceil(ceil(3 / 2) / 1) * 200 = 400.
 *
 * One arrives at 0, the other at 50.  In every order the second grid's
 * first block starts when the first grid's *last block ends*, though an
 * SM is idle from the end of its second-to-last step:
 *
 *   sjf, L at 0, S at 50: at 0, Q = L (q = 2000), S arrives d = 50 later
 *     with a = 400: (q - d) * q = 3,900,000 > (d + a) * a = 180,000, so
 *     both SMs idle until 50 (the idle hold).
 *       S0, S1  50-250     S2  250-450  (an SM idle 250-450)
 *       L0, L1 450-1450    L2 1450-2450
 *   sjf, S at 0, L at 50: nothing shorter than S comes.
 *       S0, S1   0-200     S2  200-400  (L waits, an SM idle 200-400)
 *       L0, L1 400-1400    L2 1400-2400
 *   ljf, L at 0, S at 50: nothing longer than L comes.
 *       L0, L1   0-1000    L2 1000-2000 (S waits, an SM idle 1000-2000)
 *       S0, S1 2000-2200   S2 2200-2400
 *   ljf, S at 0, L at 50: at 0, Q = S (q = 400); L, longer, arrives
 *     d = 50 < q later: idle until 50 (ljf's hold, the mirror).
 *       L0, L1  50-1050    L2 1050-2050
 *       S0, S1 2050-2250   S2 2250-2450
 *
 * FIFO, the control, with S at 0 and L at 50: S2 takes one SM at 200 and
 * L0 the other at once, so L starts at 200, before S's last block ends.
 */
struct gtbs_serial_case {
	const char *policy;
	bool short_first;	/* S at 0, L at 50; else L at 0, S at 50 */
	u64 s_start, l_start;	/* first block starts */
	u64 s_end, l_end;	/* last block ends */
};

static const struct gtbs_serial_case gtbs_serial_cases[] = {
	{ "sjf", false, 50, 450, 450, 2450 },
	{ "sjf", true, 0, 400, 400, 2400 },
	{ "ljf", false, 2000, 0, 2400, 2000 },
	{ "ljf", true, 2050, 50, 2450, 2050 },
};

static void gtbs_serial_case_desc(const struct gtbs_serial_case *c,
				  char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s %s", c->policy,
		 c->short_first ? "S at 0, L at 50" : "L at 0, S at 50");
}

KUNIT_ARRAY_PARAM(gtbs_serial, gtbs_serial_cases, gtbs_serial_case_desc);

/* Submit a grid @label for cycle @at, the device not yet run. */
static struct gtbs_grid *gtbs_serial_at(struct kunit *test,
					struct gtbs_test_dev *td, u32 blocks,
					u64 cycles, const char *label, u64 at)
{
	struct gtbs_grid_desc desc = gtbs_whole_sm(blocks, cycles,
						   GTBS_PRIO_NORMAL);
	struct gtbs_grid *grid;

	strscpy(desc.label, label, sizeof(desc.label));
	grid = gtbs_test_grid_new(test, td, &desc);
	gtbs_grid_submit_at(&td->dev, grid, 0, at);
	return grid;
}

/* Block starts of @grid: blocks 0 and 1 at @start, block 2 at @start + t. */
static void gtbs_serial_expect_steps(struct kunit *test,
				     const struct gtbs_test_dev *td,
				     const struct gtbs_grid *grid, u64 start,
				     u64 t)
{
	u32 b;

	for (b = 0; b < 3; b++) {
		const struct gtbs_test_event *ev = gtbs_start_of(td, grid, b);

		KUNIT_ASSERT_NOT_NULL_MSG(test, ev, "%s block %u never started",
					  grid->desc.label, b);
		KUNIT_EXPECT_EQ_MSG(test, ev->start, start + (b / 2) * t,
				    "%s block %u", grid->desc.label, b);
	}
}

/* The latest recorded block end of @grid. */
static u64 gtbs_serial_last_end(const struct gtbs_test_dev *td,
				const struct gtbs_grid *grid)
{
	unsigned int i;
	u64 end = 0;

	for (i = 0; i < td->nr_ends; i++)
		if (td->ends[i].grid_id == grid->id)
			end = max(end, td->ends[i].end);
	return end;
}

/* The earliest recorded block start of @grid, U64_MAX if none. */
static u64 gtbs_serial_first_start(const struct gtbs_test_dev *td,
				   const struct gtbs_grid *grid)
{
	unsigned int i;
	u64 start = U64_MAX;

	for (i = 0; i < td->nr_starts; i++)
		if (td->starts[i].grid_id == grid->id)
			start = min(start, td->starts[i].start);
	return start;
}

static void gtbs_serial_two_grids(struct kunit *test)
{
	const struct gtbs_serial_case *c = test->param_value;
	struct gtbs_test_dev *td = gtbs_policy_dev(test, 2, c->policy);
	struct gtbs_grid *l, *s, *first, *second;
	bool held;

	l = gtbs_serial_at(test, td, 3, 1000, "L", c->short_first ? 50 : 0);
	s = gtbs_serial_at(test, td, 3, 200, "S", c->short_first ? 0 : 50);
	KUNIT_EXPECT_EQ(test, l->alone_cycles, 2000);
	KUNIT_EXPECT_EQ(test, s->alone_cycles, 400);
	gtbs_test_drain(td);
	KUNIT_ASSERT_EQ(test, l->state, GTBS_GRID_DONE);
	KUNIT_ASSERT_EQ(test, s->state, GTBS_GRID_DONE);

	gtbs_serial_expect_steps(test, td, s, c->s_start, 200);
	gtbs_serial_expect_steps(test, td, l, c->l_start, 1000);
	KUNIT_EXPECT_EQ(test, s->start_cycle, c->s_start);
	KUNIT_EXPECT_EQ(test, l->start_cycle, c->l_start);
	KUNIT_EXPECT_EQ(test, s->end_cycle, c->s_end);
	KUNIT_EXPECT_EQ(test, l->end_cycle, c->l_end);

	/* one at a time: no block of the second before the first's last end */
	first = c->s_start < c->l_start ? s : l;
	second = first == s ? l : s;
	KUNIT_EXPECT_EQ(test, gtbs_serial_last_end(td, first),
			first->end_cycle);
	KUNIT_EXPECT_GE(test, gtbs_serial_first_start(td, second),
			gtbs_serial_last_end(td, first));

	/* the idle hold: the grid worth waiting for arrives second, at 50 */
	held = !strcmp(c->policy, "sjf") ? !c->short_first : c->short_first;
	if (held) {
		KUNIT_EXPECT_EQ(test, gtbs_serial_first_start(td, first), 50);
		KUNIT_EXPECT_GE(test, gtbs_serial_first_start(td, second), 50);
	}
}

/* The FIFO control: the exclusivity check above would fail under it. */
static void gtbs_serial_fifo_control(struct kunit *test)
{
	struct gtbs_test_dev *td = gtbs_policy_dev(test, 2, "fifo");
	struct gtbs_grid *l, *s;

	l = gtbs_serial_at(test, td, 3, 1000, "L", 50);
	s = gtbs_serial_at(test, td, 3, 200, "S", 0);
	gtbs_test_drain(td);
	KUNIT_EXPECT_EQ(test, gtbs_serial_last_end(td, s), 400);
	KUNIT_EXPECT_EQ(test, gtbs_serial_first_start(td, l), 200);
	KUNIT_EXPECT_LT(test, gtbs_serial_first_start(td, l),
			gtbs_serial_last_end(td, s));
}

static struct kunit_case gtbs_serial_kunit_cases[] = {
	KUNIT_CASE_PARAM(gtbs_serial_two_grids, gtbs_serial_gen_params),
	KUNIT_CASE(gtbs_serial_fifo_control),
	{}
};

struct kunit_suite gtbs_serial_suite = {
	.name = "gputbs_serial",
	.test_cases = gtbs_serial_kunit_cases,
};

/* --- gputbs_switch: policy changes under load lose nothing -------------- */

/*
 * Four SMs, eight grids of mixed shapes and classes arriving over time;
 * the policy changes every 700 cycles through every policy while
 * they run.  Every block must start once and end once, every grid finish
 * with all its blocks, and the SMs end empty.
 */
static void gtbs_switch_under_load(struct kunit *test)
{
	static const char * const order[] = {
		"srtf", "mpmax", "srtf-oracle", "sjf", "srtf-adaptive", "ljf",
		"fifo",
	};
	struct gtbs_test_dev *td = gtbs_policy_dev(test, 4, "fifo");
	struct gtbs_grid *grids[8];
	unsigned long *seen;
	u32 g, i, total = 0;
	u64 t;

	for (g = 0; g < ARRAY_SIZE(grids); g++) {
		struct gtbs_grid_desc d = gtbs_test_desc(20 + 7 * g,
							 64 << (g % 3), 16,
							 (g % 4) * 4096,
							 150 + 90 * g);

		d.prio_class = g % GTBS_NR_PRIO_CLASSES;
		grids[g] = gtbs_test_submit(test, td, &d, 300 * g);
		total += d.nr_blocks;
	}
	for (i = 0, t = 700; !gtbs_dev_idle(&td->dev); i++, t += 700) {
		gtbs_dev_set_policy(&td->dev,
				    gtbs_policy_find(order[i % ARRAY_SIZE(order)]),
				    t);
		KUNIT_ASSERT_LT(test, i, 10000U);
	}
	KUNIT_EXPECT_GT(test, td->dev.policy_switches, 2);
	KUNIT_ASSERT_EQ(test, td->nr_starts, total);
	KUNIT_ASSERT_EQ(test, td->nr_ends, total);
	seen = kunit_kcalloc(test, BITS_TO_LONGS(total), sizeof(long),
			     GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, seen);
	for (i = 0; i < td->nr_ends; i++) {
		u32 base = 0;

		for (g = 0; g < td->ends[i].grid_id; g++)
			base += grids[g]->desc.nr_blocks;
		KUNIT_EXPECT_FALSE(test, __test_and_set_bit(base +
							    td->ends[i].block,
							    seen));
	}
	KUNIT_EXPECT_EQ(test, bitmap_weight(seen, total), total);
	for (g = 0; g < ARRAY_SIZE(grids); g++) {
		KUNIT_EXPECT_EQ(test, grids[g]->state, GTBS_GRID_DONE);
		KUNIT_EXPECT_EQ(test, grids[g]->blocks_done,
				grids[g]->desc.nr_blocks);
	}
	for (i = 0; i < 4; i++) {
		KUNIT_EXPECT_EQ(test, td->sms[i]->nr_resident, 0);
		KUNIT_EXPECT_EQ(test, td->sms[i]->used_warps, 0);
		KUNIT_EXPECT_EQ(test, td->sms[i]->used_shmem, 0);
	}
}

static struct kunit_case gtbs_switch_cases[] = {
	KUNIT_CASE(gtbs_switch_under_load),
	{}
};

struct kunit_suite gtbs_switch_suite = {
	.name = "gputbs_policy_switch",
	.test_cases = gtbs_switch_cases,
};

/* --- gputbs_registry: registration, references, parameters ------------ */

static struct gtbs_grid *gtbs_reg_pick(struct gtbs_dev *dev,
				       struct gtbs_sm *sm, u32 *reason)
{
	return gtbs_policy_fifo.pick_grid(dev, sm, reason);
}

/* A policy owned by this module, as a policy module's would be. */
static const struct gtbs_policy_ops gtbs_reg_policy = {
	.name = "kunit-registry",
	.owner = THIS_MODULE,
	.pick_grid = gtbs_reg_pick,
};

/*
 * Register, refuse the duplicate, look up with a reference (the module's
 * refcount rises by one and falls back on put), unregister: the name is
 * gone and the built-ins keep their order.
 */
static void gtbs_registry_register(struct kunit *test)
{
	const struct gtbs_policy_ops *ops;
	int refs = module_refcount(THIS_MODULE);

	KUNIT_ASSERT_EQ(test, gtbs_policy_register(&gtbs_reg_policy), 0);
	KUNIT_EXPECT_EQ(test, gtbs_policy_register(&gtbs_reg_policy), -EEXIST);
	ops = gtbs_policy_get("kunit-registry\n");
	KUNIT_EXPECT_PTR_EQ(test, ops, &gtbs_reg_policy);
	KUNIT_EXPECT_EQ(test, module_refcount(THIS_MODULE), refs + 1);
	gtbs_policy_put(ops);
	KUNIT_EXPECT_EQ(test, module_refcount(THIS_MODULE), refs);
	/* a built-in takes no reference on gputbs.ko itself */
	ops = gtbs_policy_get("fifo");
	KUNIT_EXPECT_PTR_EQ(test, ops, &gtbs_policy_fifo);
	gtbs_policy_put(ops);
	gtbs_policy_unregister(&gtbs_reg_policy);
	KUNIT_EXPECT_NULL(test, gtbs_policy_get("kunit-registry"));
	KUNIT_EXPECT_PTR_EQ(test, gtbs_policy_at(0), &gtbs_policy_fifo);
}

/* Ops that break a rule are refused with -EINVAL and a reason. */
static void gtbs_registry_check(struct kunit *test)
{
	static const struct gtbs_policy_param bad_param = {
		.name = "x", .min = 2, .max = 1, .def = 1,
	};
	struct gtbs_policy_ops ops = gtbs_reg_policy;
	const char *why = NULL;

	KUNIT_EXPECT_EQ(test, gtbs_policy_check(&ops, &why), 0);
	ops.pick_grid = NULL;
	KUNIT_EXPECT_EQ(test, gtbs_policy_check(&ops, &why), -EINVAL);
	KUNIT_EXPECT_STREQ(test, why, "pick_grid is required");
	ops = gtbs_reg_policy;
	ops.name = "Bad Name";
	KUNIT_EXPECT_EQ(test, gtbs_policy_check(&ops, &why), -EINVAL);
	ops = gtbs_reg_policy;
	ops.grid_priv_size = GTBS_POLICY_GRID_PRIV_SIZE + 1;
	KUNIT_EXPECT_EQ(test, gtbs_policy_check(&ops, &why), -EINVAL);
	ops = gtbs_reg_policy;
	ops.dev_priv_size = 8;
	ops.params = &bad_param;
	ops.nr_params = 1;
	KUNIT_EXPECT_EQ(test, gtbs_policy_register(&ops), -EINVAL);
}

static struct kunit_case gtbs_registry_cases[] = {
	KUNIT_CASE(gtbs_registry_register),
	KUNIT_CASE(gtbs_registry_check),
	{}
};

struct kunit_suite gtbs_registry_suite = {
	.name = "gputbs_registry",
	.test_cases = gtbs_registry_cases,
};

/* --- gputbs_preempt: drain, context switch, flush ---------------------- */

/*
 * The hand-worked timeline of tests/unit/test_preempt.c in the kernel: one
 * SM, L one LOW block of 1000 cycles at 0, H one HIGH block of 100 at 100;
 * whole-SM blocks of 48 KiB of shared memory, whose context takes
 * 49152 / 8 = 6144 cycles to save or restore.
 *
 *   drain:  H 1000..1100.
 *   switch: L saves 100..6244, H 6244..6344, L restores 6344..12488 and
 *           ends 12488 + 900 = 13388, its t on the SM 1000.
 *   flush:  (L idempotent) H 100..200, L again 200..1200.
 */
static void gtbs_preempt_timeline(struct kunit *test)
{
	static const struct {
		u32 mode;
		u64 h_start;
		u64 l_end;
	} c[] = {
		{ GTBS_PREEMPT_DRAIN, 1000, 1000 },
		{ GTBS_PREEMPT_SWITCH, 6244, 13388 },
		{ GTBS_PREEMPT_FLUSH, 100, 1200 },
	};
	struct gtbs_saved *pool;
	unsigned int i;

	pool = kunit_kcalloc(test, 8, sizeof(*pool), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, pool);
	for (i = 0; i < ARRAY_SIZE(c); i++) {
		struct gtbs_test_dev *td = gtbs_policy_dev(test, 1, "fifo");
		struct gtbs_grid_desc dl = gtbs_whole_sm(1, 1000, GTBS_PRIO_LOW);
		struct gtbs_grid_desc dh = gtbs_whole_sm(1, 100, GTBS_PRIO_HIGH);
		struct gtbs_grid *l, *h;

		dl.idempotent = true;
		gtbs_dev_set_saved_pool(&td->dev, pool, 8);
		KUNIT_ASSERT_EQ(test, gtbs_dev_set_preempt(&td->dev, c[i].mode,
							   0), 0);
		l = gtbs_test_submit(test, td, &dl, 0);
		h = gtbs_test_submit(test, td, &dh, 100);
		gtbs_test_drain(td);
		KUNIT_EXPECT_EQ_MSG(test, h->start_cycle, c[i].h_start, "%s",
				    gtbs_preempt_mode_name(c[i].mode));
		KUNIT_EXPECT_EQ_MSG(test, l->end_cycle, c[i].l_end, "%s",
				    gtbs_preempt_mode_name(c[i].mode));
		KUNIT_EXPECT_EQ(test, l->sm[0]->pred.t, 1000);
		KUNIT_EXPECT_EQ(test, td->dev.saved_nr_free, 8);
	}
}

/*
 * The starvation guard with preemption makes progress (the unit test
 * preempt_guard_no_livelock has the timeline): L, HIGH, 8 blocks of 12 KiB
 * at 0; H, REALTIME, one block of 36 KiB at 100; M, LOW, at 1737; guard
 * 100 cycles, switch.  A block L issues under the lent class REALTIME
 * runs to its end (&gtbs_slot.issue_class): four switches in all, and
 * every grid ends within a bounded number of events.
 */
static void gtbs_preempt_guard_progress(struct kunit *test)
{
	struct gtbs_test_dev *td = gtbs_policy_dev(test, 1, "fifo");
	struct gtbs_grid_desc dl = gtbs_test_desc(8, 256, 0, 12 * 1024, 20000);
	struct gtbs_grid_desc dh = gtbs_whole_sm(1, 1000, GTBS_PRIO_REALTIME);
	struct gtbs_grid_desc dm = gtbs_test_desc(1, 32, 0, 0, 10);
	struct gtbs_grid *l, *h, *m;
	struct gtbs_saved *pool;
	unsigned int steps = 0;
	u64 next;

	pool = kunit_kcalloc(test, 8, sizeof(*pool), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, pool);
	gtbs_dev_set_saved_pool(&td->dev, pool, 8);
	KUNIT_ASSERT_EQ(test, gtbs_dev_set_preempt(&td->dev,
						   GTBS_PREEMPT_SWITCH, 0), 0);
	td->dev.starve_cycles = 100;
	dl.prio_class = GTBS_PRIO_HIGH;
	dh.shmem_per_block = 36 * 1024;
	dm.prio_class = GTBS_PRIO_LOW;
	l = gtbs_test_submit(test, td, &dl, 0);
	h = gtbs_test_submit(test, td, &dh, 100);
	m = gtbs_test_submit(test, td, &dm, 1737);
	while ((next = gtbs_dev_next_event(&td->dev)) != U64_MAX) {
		KUNIT_ASSERT_LT_MSG(test, ++steps, 10000U,
				    "no progress at cycle %llu", next);
		gtbs_dev_run_until(&td->dev, next);
	}
	KUNIT_EXPECT_EQ(test, l->state, GTBS_GRID_DONE);
	KUNIT_EXPECT_EQ(test, h->state, GTBS_GRID_DONE);
	KUNIT_EXPECT_EQ(test, m->state, GTBS_GRID_DONE);
	KUNIT_EXPECT_EQ(test, td->dev.preempts[GTBS_MECH_SWITCH], 4);
	KUNIT_EXPECT_EQ(test, td->dev.restores, 4);
	KUNIT_EXPECT_EQ(test, td->dev.saved_nr_free, 8);
}

static struct kunit_case gtbs_preempt_cases[] = {
	KUNIT_CASE(gtbs_preempt_timeline),
	KUNIT_CASE(gtbs_preempt_guard_progress),
	{}
};

struct kunit_suite gtbs_preempt_suite = {
	.name = "gputbs_preempt",
	.test_cases = gtbs_preempt_cases,
};
