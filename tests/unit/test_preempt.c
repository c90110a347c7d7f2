// SPDX-License-Identifier: GPL-2.0
/*
 * test_preempt.c - preempting resident blocks (sm-emu/preempt.c): drain,
 * context switch, flush and auto, on timelines worked out by hand.
 *
 * Every case runs one SM of the paper's device (Fermi) under FIFO, with
 * blocks that fill the SM by shared memory: 256 threads, no registers,
 * 48 KiB, so one block is resident at a time at its full rate and a
 * block's duration is its own.  Its context is 48 KiB: at the default
 * 8 bytes per cycle a save (or a restore) takes 49152 / 8 = 6144 cycles.
 *
 * L: one LOW block of 1000 cycles submitted at 0; H: one HIGH block of 100
 * cycles submitted at 100.
 *
 *   drain:  L 0..1000;  H 1000..1100.
 *   switch: L runs 0..100 and saves 100..6244; H 6244..6344; L restores
 *           6344..12488 and runs its 900 cycles left: ends 13388.
 *   flush:  (L idempotent) L dropped at 100 (100 cycles lost); H 100..200;
 *           L again 200..1200.
 *
 * Copyright (C) 2026 The gputbs developers
 */
#include "harness.h"
#include "policy_srtf.h"

#define CTX	6144ULL		/* 48 KiB at 8 bytes per cycle */

static struct gtbs_saved pool[64];

static struct gtbs_grid_desc sm_block(u64 cycles, u32 class, bool idem)
{
	struct gtbs_grid_desc d = h_desc(1, 256, 0, 48 * 1024, cycles);

	d.prio_class = class;
	d.idempotent = idem;
	return d;
}

/* One SM under @policy, preemption mode @mode with a pool of records. */
static struct h_dev *pre_dev_policy(const struct gtbs_policy_ops *policy,
				    u32 mode)
{
	struct gtbs_dev_config cfg;
	struct h_dev *h;

	gtbs_config_default(&cfg);
	cfg.nr_sms = 1;
	h = h_new(&cfg, policy);
	gtbs_dev_set_saved_pool(&h->dev, pool, ARRAY_SIZE(pool));
	ck_assert_int_eq(gtbs_dev_set_preempt(&h->dev, mode, 0), 0);
	return h;
}

/* One SM, FIFO, preemption mode @mode with a pool of records. */
static struct h_dev *pre_dev(u32 mode)
{
	struct h_dev *h = h_new_sms(1);

	gtbs_dev_set_saved_pool(&h->dev, pool, ARRAY_SIZE(pool));
	ck_assert_int_eq(gtbs_dev_set_preempt(&h->dev, mode, 0), 0);
	return h;
}

/* Block @block of @grid's start and end events in the log, in order. */
static unsigned int pre_events(struct h_dev *h, const struct gtbs_grid *grid,
			       u32 kind, u64 *cycles, unsigned int max)
{
	unsigned int n = 0;
	size_t i;

	for (i = 0; i < h->nr_ev; i++) {
		const struct h_event *e = &h->ev[i];

		if (e->grid_id != grid->id || e->kind != kind)
			continue;
		if (n < max)
			cycles[n] = kind == H_EV_BLOCK_END ? e->end : e->start;
		n++;
	}
	return n;
}

START_TEST(preempt_drain_waits)
{
	struct h_dev *h = pre_dev(GTBS_PREEMPT_DRAIN);
	struct gtbs_grid_desc dl = sm_block(1000, GTBS_PRIO_LOW, true);
	struct gtbs_grid_desc dh = sm_block(100, GTBS_PRIO_HIGH, false);
	struct gtbs_grid *l, *hg;

	ck_assert_uint_eq(gtbs_context_cycles(&h->dev,
					      h_grid_new(h, &dl, NULL, NULL)),
			  CTX);
	l = h_submit(h, &dl, 0);
	hg = h_submit(h, &dh, 100);
	h_drain(h);
	ck_assert_uint_eq(l->end_cycle, 1000);
	ck_assert_uint_eq(hg->start_cycle, 1000);
	ck_assert_uint_eq(hg->end_cycle, 1100);
	ck_assert_uint_eq(h->dev.preempts[GTBS_MECH_SWITCH] +
			  h->dev.preempts[GTBS_MECH_FLUSH], 0);
	ck_assert_int_eq(h_check_all(h), 0);
	h_free(h);
}
END_TEST

START_TEST(preempt_switch_out_and_back)
{
	struct h_dev *h = pre_dev(GTBS_PREEMPT_SWITCH);
	struct gtbs_grid_desc dl = sm_block(1000, GTBS_PRIO_LOW, true);
	struct gtbs_grid_desc dh = sm_block(100, GTBS_PRIO_HIGH, false);
	struct gtbs_grid *l, *hg;
	u64 starts[4], ends[4];

	l = h_submit(h, &dl, 0);
	hg = h_submit(h, &dh, 100);
	/* L is saving: it holds the SM, H waits */
	gtbs_dev_run_until(&h->dev, 100 + CTX - 1);
	ck_assert_uint_eq(h->sms[0]->slots[0].phase, GTBS_SLOT_SAVE);
	ck_assert_uint_eq(hg->state, GTBS_GRID_QUEUED);
	h_drain(h);
	ck_assert_uint_eq(hg->start_cycle, 100 + CTX);
	ck_assert_uint_eq(hg->end_cycle, 100 + CTX + 100);
	ck_assert_uint_eq(l->end_cycle, 100 + CTX + 100 + CTX + 900);
	/* two runs of L's one block, one end */
	ck_assert_uint_eq(pre_events(h, l, H_EV_BLOCK_START, starts, 4), 2);
	ck_assert_uint_eq(starts[0], 0);
	/* issued again when its restore begins, the slot its from then */
	ck_assert_uint_eq(starts[1], 100 + CTX + 100);
	ck_assert_uint_eq(pre_events(h, l, H_EV_BLOCK_END, ends, 4), 1);
	ck_assert_uint_eq(l->blocks_done, 1);
	/* t is the block's running time, without its time switched out */
	ck_assert_uint_eq(l->sm[0]->pred.t, 1000);
	ck_assert_uint_eq(h->dev.preempts[GTBS_MECH_SWITCH], 1);
	ck_assert_uint_eq(h->dev.restores, 1);
	ck_assert_uint_eq(h->dev.xfer_cycles, 2 * CTX);
	ck_assert_uint_eq(h->dev.saved_nr_free, ARRAY_SIZE(pool));
	ck_assert_int_eq(h_check_all(h), 0);
	h_free(h);
}
END_TEST

START_TEST(preempt_flush_reruns)
{
	struct h_dev *h = pre_dev(GTBS_PREEMPT_FLUSH);
	struct gtbs_grid_desc dl = sm_block(1000, GTBS_PRIO_LOW, true);
	struct gtbs_grid_desc dh = sm_block(100, GTBS_PRIO_HIGH, false);
	struct gtbs_grid *l, *hg;
	u64 starts[4];

	l = h_submit(h, &dl, 0);
	hg = h_submit(h, &dh, 100);
	h_drain(h);
	ck_assert_uint_eq(hg->start_cycle, 100);
	ck_assert_uint_eq(hg->end_cycle, 200);
	ck_assert_uint_eq(pre_events(h, l, H_EV_BLOCK_START, starts, 4), 2);
	ck_assert_uint_eq(starts[1], 200);
	ck_assert_uint_eq(l->end_cycle, 1200);
	ck_assert_uint_eq(l->sm[0]->pred.t, 1000);
	ck_assert_uint_eq(h->dev.preempts[GTBS_MECH_FLUSH], 1);
	ck_assert_uint_eq(h->dev.lost_cycles, 100);
	ck_assert_uint_eq(h->dev.saved_nr_free, ARRAY_SIZE(pool));
	h_free(h);
}
END_TEST

/* Flush mode never flushes a block its submitter did not declare idempotent. */
START_TEST(preempt_flush_needs_idempotent)
{
	struct h_dev *h = pre_dev(GTBS_PREEMPT_FLUSH);
	struct gtbs_grid_desc dl = sm_block(1000, GTBS_PRIO_LOW, false);
	struct gtbs_grid_desc dh = sm_block(100, GTBS_PRIO_HIGH, false);
	struct gtbs_grid *l, *hg;

	l = h_submit(h, &dl, 0);
	hg = h_submit(h, &dh, 100);
	h_drain(h);
	ck_assert_uint_eq(h->dev.preempts[GTBS_MECH_FLUSH], 0);
	ck_assert_uint_eq(h->dev.preempts[GTBS_MECH_SWITCH], 1);
	ck_assert_uint_eq(hg->start_cycle, 100 + CTX);
	ck_assert_uint_eq(l->end_cycle, 100 + CTX + 100 + CTX + 900);
	ck_assert_uint_eq(h->dev.lost_cycles, 0);
	h_free(h);
}
END_TEST

/*
 * A block preempted twice: after L's restore (12488) it runs 112 cycles
 * until H2 arrives at 12600 and is switched out again with 788 cycles left:
 * saves 12600..18744, H2 18744..18844, restore 18844..24988, ends 25776.
 */
START_TEST(preempt_switch_twice)
{
	struct h_dev *h = pre_dev(GTBS_PREEMPT_SWITCH);
	struct gtbs_grid_desc dl = sm_block(1000, GTBS_PRIO_LOW, false);
	struct gtbs_grid_desc dh = sm_block(100, GTBS_PRIO_HIGH, false);
	struct gtbs_grid *l, *h2;
	u64 starts[4];

	l = h_submit(h, &dl, 0);
	h_submit(h, &dh, 100);
	h2 = h_submit(h, &dh, 12600);
	h_drain(h);
	ck_assert_uint_eq(h2->start_cycle, 18744);
	ck_assert_uint_eq(l->end_cycle, 25776);
	ck_assert_uint_eq(pre_events(h, l, H_EV_BLOCK_START, starts, 4), 3);
	ck_assert_uint_eq(l->sm[0]->pred.t, 1000);
	ck_assert_uint_eq(l->blocks_done, 1);
	ck_assert_uint_eq(h->dev.preempts[GTBS_MECH_SWITCH], 2);
	ck_assert_uint_eq(h->dev.restores, 2);
	h_free(h);
}
END_TEST

/*
 * Auto, for H's class budget: L (1000 cycles, 900 left at 100) drains
 * within 1000 (no overhead); within 500 only a flush meets it (L
 * idempotent); with L not idempotent nothing does, and drain (900) is
 * faster than a switch (6144); a block of 100000 cycles cannot drain
 * within 10000 but switches within it.
 */
START_TEST(preempt_auto_chooses)
{
	static const struct {
		u64 l_cycles;
		bool idem;
		u64 budget;
		u32 mech;
		u64 h_start;
	} c[] = {
		{ 1000, true, 1000, GTBS_MECH_DRAIN, 1000 },
		{ 1000, true, 500, GTBS_MECH_FLUSH, 100 },
		{ 1000, false, 500, GTBS_MECH_DRAIN, 1000 },
		{ 100000, false, 10000, GTBS_MECH_SWITCH, 100 + CTX },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(c); i++) {
		struct h_dev *h = pre_dev(GTBS_PREEMPT_AUTO);
		struct gtbs_grid_desc dl = sm_block(c[i].l_cycles,
						    GTBS_PRIO_LOW, c[i].idem);
		struct gtbs_grid_desc dh = sm_block(100, GTBS_PRIO_HIGH,
						    false);
		struct gtbs_grid *hg;

		h->dev.preempt_budget[GTBS_PRIO_HIGH] = c[i].budget;
		h_submit(h, &dl, 0);
		hg = h_submit(h, &dh, 100);
		h_drain(h);
		ck_assert_msg(h->dev.preempts[c[i].mech] >= 1,
			      "case %u: %s not chosen", i,
			      gtbs_preempt_mech_name(c[i].mech));
		ck_assert_uint_eq(hg->start_cycle, c[i].h_start);
		ck_assert_int_eq(h_check_all(h), 0);
		h_free(h);
	}
}
END_TEST

/* Same class under FIFO (no may_preempt): never preempted. */
START_TEST(preempt_same_class_drains)
{
	struct h_dev *h = pre_dev(GTBS_PREEMPT_SWITCH);
	struct gtbs_grid_desc dl = sm_block(1000, GTBS_PRIO_NORMAL, true);
	struct gtbs_grid_desc dh = sm_block(100, GTBS_PRIO_NORMAL, true);
	struct gtbs_grid *hg;

	h_submit(h, &dl, 0);
	hg = h_submit(h, &dh, 100);
	h_drain(h);
	ck_assert_uint_eq(hg->start_cycle, 1000);
	ck_assert_uint_eq(h->dev.preempts[GTBS_MECH_SWITCH], 0);
	h_free(h);
}
END_TEST

/*
 * Same class, a policy that asks (&gtbs_policy_ops.may_preempt): L (1000
 * cycles) at 0, S (100 cycles, NORMAL as well) at 100.  srtf-oracle and
 * sjf rank S first by its alone runtime; SRTF has no prediction of L yet
 * (its block has not ended: infinitely long) and none of S, whose blocks
 * are nowhere resident, so S may preempt to get its sample.  Each gives
 * the class timeline: L saves 100..6244, S 6244..6344, L restores
 * 6344..12488 and ends at 13388.
 */
static void pre_same_class_switch(const struct gtbs_policy_ops *policy)
{
	struct h_dev *h = pre_dev_policy(policy, GTBS_PREEMPT_SWITCH);
	struct gtbs_grid_desc dl = sm_block(1000, GTBS_PRIO_NORMAL, false);
	struct gtbs_grid_desc ds = sm_block(100, GTBS_PRIO_NORMAL, false);
	struct gtbs_grid *l, *sg;

	l = h_submit(h, &dl, 0);
	sg = h_submit(h, &ds, 100);
	h_drain(h);
	ck_assert_uint_eq(sg->start_cycle, 100 + CTX);
	ck_assert_uint_eq(sg->end_cycle, 100 + CTX + 100);
	ck_assert_uint_eq(l->end_cycle, 100 + CTX + 100 + CTX + 900);
	ck_assert_uint_eq(h->dev.preempts[GTBS_MECH_SWITCH], 1);
	ck_assert_uint_eq(h->dev.restores, 1);
	ck_assert_uint_eq(l->blocks_done, 1);
	ck_assert_int_eq(h_check_all(h), 0);
	h_free(h);
}

START_TEST(preempt_same_class_oracle)
{
	pre_same_class_switch(&gtbs_policy_srtf_oracle);
}
END_TEST

START_TEST(preempt_same_class_sjf)
{
	pre_same_class_switch(&gtbs_policy_sjf);
}
END_TEST

START_TEST(preempt_same_class_srtf)
{
	pre_same_class_switch(&gtbs_policy_srtf);
}
END_TEST

/* ljf ranks the longer first: S never preempts L, and drain mode asks no
 * policy at all.
 */
START_TEST(preempt_same_class_not_asked)
{
	struct gtbs_grid_desc dl = sm_block(1000, GTBS_PRIO_NORMAL, false);
	struct gtbs_grid_desc ds = sm_block(100, GTBS_PRIO_NORMAL, false);
	const struct {
		const struct gtbs_policy_ops *policy;
		u32 mode;
	} c[] = {
		{ &gtbs_policy_ljf, GTBS_PREEMPT_SWITCH },
		{ &gtbs_policy_srtf_oracle, GTBS_PREEMPT_DRAIN },
		{ &gtbs_policy_srtf, GTBS_PREEMPT_DRAIN },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(c); i++) {
		struct h_dev *h = pre_dev_policy(c[i].policy, c[i].mode);
		struct gtbs_grid *sg;

		h_submit(h, &dl, 0);
		sg = h_submit(h, &ds, 100);
		h_drain(h);
		ck_assert_msg(sg->start_cycle == 1000, "case %u: S at %llu", i,
			      (unsigned long long)sg->start_cycle);
		ck_assert_uint_eq(h->dev.preempts[GTBS_MECH_SWITCH], 0);
		h_free(h);
	}
}
END_TEST

/*
 * SRTF's gain test: L has two blocks of 5000 cycles, one resident at a
 * time.  Its first block ends at 5000 and the predictor predicts 10000
 * cycles for it on the SM (t = 5000, 2 blocks, residency 1): at 5100,
 * when S arrives, L's remaining is 4900 cycles, less than a save and a
 * restore (2 x 6144): S waits for L's second block, 10000..10100.  With
 * blocks of 50000 cycles (remaining 49900 at 50100) S preempts.
 */
START_TEST(preempt_srtf_gain)
{
	const u64 t[2] = { 5000, 50000 };
	unsigned int i;

	for (i = 0; i < 2; i++) {
		struct h_dev *h = pre_dev_policy(&gtbs_policy_srtf,
						 GTBS_PREEMPT_SWITCH);
		struct gtbs_grid_desc dl = sm_block(t[i], GTBS_PRIO_NORMAL,
						    false);
		struct gtbs_grid_desc ds = sm_block(100, GTBS_PRIO_NORMAL,
						    false);
		struct gtbs_grid *l, *sg;

		dl.nr_blocks = 2;
		l = h_submit(h, &dl, 0);
		sg = h_submit(h, &ds, t[i] + 100);
		h_drain(h);
		ck_assert_uint_eq(l->sm[0]->pred.pred_cycles, 2 * t[i]);
		if (!i) {
			ck_assert_uint_eq(sg->start_cycle, 2 * t[i]);
			ck_assert_uint_eq(h->dev.preempts[GTBS_MECH_SWITCH], 0);
		} else {
			ck_assert_uint_eq(sg->start_cycle, t[i] + 100 + CTX);
			ck_assert_uint_eq(h->dev.preempts[GTBS_MECH_SWITCH], 1);
			ck_assert_uint_eq(l->end_cycle,
					  sg->end_cycle + CTX + t[i] - 100);
		}
		ck_assert_int_eq(h_check_all(h), 0);
		h_free(h);
	}
}
END_TEST

/* Without records (no pool) every SM drains. */
START_TEST(preempt_without_pool_drains)
{
	struct h_dev *h = h_new_sms(1);
	struct gtbs_grid_desc dl = sm_block(1000, GTBS_PRIO_LOW, true);
	struct gtbs_grid_desc dh = sm_block(100, GTBS_PRIO_HIGH, false);
	struct gtbs_grid *hg;

	ck_assert_int_eq(gtbs_dev_set_preempt(&h->dev, GTBS_PREEMPT_SWITCH, 0),
			 0);
	ck_assert_int_eq(gtbs_dev_set_preempt(&h->dev, GTBS_NR_PREEMPT_MODES,
					      0), -EINVAL);
	h_submit(h, &dl, 0);
	hg = h_submit(h, &dh, 100);
	h_drain(h);
	ck_assert_uint_eq(hg->start_cycle, 1000);
	h_free(h);
}
END_TEST

/* Cancelling a grid while its block is being saved returns the record. */
START_TEST(preempt_cancel_while_saving)
{
	struct h_dev *h = pre_dev(GTBS_PREEMPT_SWITCH);
	struct gtbs_grid_desc dl = sm_block(1000, GTBS_PRIO_LOW, false);
	struct gtbs_grid_desc dh = sm_block(100, GTBS_PRIO_HIGH, false);
	struct gtbs_grid *l, *hg;

	l = h_submit(h, &dl, 0);
	hg = h_submit(h, &dh, 100);
	gtbs_dev_run_until(&h->dev, 200);
	ck_assert_uint_eq(h->dev.saved_nr_free, ARRAY_SIZE(pool) - 1);
	gtbs_grid_cancel(&h->dev, l, 200);
	ck_assert_uint_eq(h->dev.saved_nr_free, ARRAY_SIZE(pool));
	h_drain(h);
	/* the SM was free at once: H starts at the cancel */
	ck_assert_uint_eq(hg->start_cycle, 200);
	ck_assert_int_eq(h_check_all(h), 0);
	h_free(h);
}
END_TEST

/*
 * The starvation guard and preemption together must not livelock
 * (fuzz_sched found it).  FIFO, switch, guard 100 cycles.  L: HIGH, 8
 * blocks of 12 KiB (4 resident, context 12288 / 8 = 1536 cycles), 20000
 * cycles each, at 0.  H: REALTIME, one block of 36 KiB (the room of 3 L
 * blocks), at 100.  M: LOW, one tiny block, at 1737, only to make the SM
 * pick again.
 *
 *   100   H does not fit: 3 L blocks switched out, saves 100..1636,
 *         1636..3172, 3172..4708 (one transfer at a time).
 *   1636  a save ends: L waits again from here (no promotion yet).
 *   1737  M arrives: L has waited 101 > 100 cycles, lent REALTIME, and
 *         FIFO issues its saved block first; its restore waits for the
 *         saves (4708..6244).  H still does not fit, and the one running
 *         L block is switched out too (6244..7780).
 *   6244  the restore ends and L, 1536 cycles since its last issue, is
 *         lent REALTIME again: another saved block issues (its restore
 *         7780..9316) ...
 *
 * Before the fix the block whose restore had just ended was the one
 * running block, of L's own class HIGH, and H switched it out at once:
 * every restore was undone at its end and no block ever ended.  A block
 * issued under a lent class now counts at that class against eviction
 * (&gtbs_slot.issue_class): the four restored blocks run to their ends
 * (no fifth switch); L, lent REALTIME at every pick while it has blocks to
 * issue, issues all 8 first, and H starts once two of the last four
 * ended and 36 KiB are free.
 */
START_TEST(preempt_guard_no_livelock)
{
	struct h_dev *h = pre_dev(GTBS_PREEMPT_SWITCH);
	struct gtbs_grid_desc dl = h_desc(8, 256, 0, 12 * 1024, 20000);
	struct gtbs_grid_desc dh = sm_block(1000, GTBS_PRIO_REALTIME, false);
	struct gtbs_grid_desc dm = h_desc(1, 32, 0, 0, 10);
	struct gtbs_grid *l, *hg, *m;
	u64 next, steps = 0;

	dl.prio_class = GTBS_PRIO_HIGH;
	dh.shmem_per_block = 36 * 1024;
	dm.prio_class = GTBS_PRIO_LOW;
	h->dev.starve_cycles = 100;
	l = h_submit(h, &dl, 0);
	hg = h_submit(h, &dh, 100);
	ck_assert_uint_eq(h->dev.preempts[GTBS_MECH_SWITCH], 3);
	gtbs_dev_run_until(&h->dev, 1737);
	m = h_submit(h, &dm, 1737);
	/* the promoted restore, and the last running L block switched */
	ck_assert_uint_eq(h->dev.promotions, 1);
	ck_assert_uint_eq(h->dev.preempts[GTBS_MECH_SWITCH], 4);
	while ((next = gtbs_dev_next_event(&h->dev)) != U64_MAX) {
		ck_assert_msg(++steps < 10000, "no progress at cycle %llu",
			      (unsigned long long)next);
		gtbs_dev_run_until(&h->dev, next);
	}
	ck_assert_int_eq(l->state, GTBS_GRID_DONE);
	ck_assert_int_eq(hg->state, GTBS_GRID_DONE);
	ck_assert_int_eq(m->state, GTBS_GRID_DONE);
	/* L, lent REALTIME at every pick, issues all its blocks first */
	ck_assert_uint_gt(hg->start_cycle,
			  h->ev[h_find(h, H_EV_BLOCK_START, l->id, 7)].start);
	ck_assert_uint_eq(h->dev.restores, 4);
	/* no other switch: what a lent class issued ran to its end */
	ck_assert_uint_eq(h->dev.preempts[GTBS_MECH_SWITCH], 4);
	ck_assert_uint_eq(h->dev.saved_nr_free, ARRAY_SIZE(pool));
	ck_assert_int_eq(h_check_all(h), 0);
	h_free(h);
}
END_TEST

/*
 * A grid whose only block SRTF let issue before it had a sample rejoins
 * SRTF's list of grids to sample when that block is switched out
 * (fuzz_sched, tests/fuzz/regress/sched/srtf-flush-*).  One SM, srtf,
 * flush: L (LOW, idempotent) runs from 0.  N (NORMAL) arrives at 100 with
 * nothing known of its class, so SRTF offers it unsampled; it does not fit
 * and the engine flushes L to issue N's only block: N is in its tail with
 * no sample.  H (HIGH) arrives at 1000 and switches N out (not idempotent):
 * N rejoins the pending list.  SRTF's indexed pick had dropped N from its
 * list of grids to sample for the tail and lost it there, while the plain
 * scan issues it again: N must end, at the same cycle under both picks.
 */
START_TEST(preempt_srtf_rejoin_unsampled)
{
	u64 end[2];
	int scan;

	for (scan = 0; scan < 2; scan++) {
		struct h_dev *h = pre_dev_policy(gtbs_policy_find("srtf"),
						 GTBS_PREEMPT_FLUSH);
		struct gtbs_grid_desc dl = sm_block(20000, GTBS_PRIO_LOW, true);
		struct gtbs_grid_desc dn = sm_block(20000, GTBS_PRIO_NORMAL,
						    false);
		struct gtbs_grid_desc dh = sm_block(100, GTBS_PRIO_HIGH, false);
		struct gtbs_grid *l, *n, *hg;
		u64 next, steps = 0;

		gtbs_srtf_scan_ref = scan;
		l = h_submit(h, &dl, 0);
		n = h_submit(h, &dn, 100);
		ck_assert_uint_eq(h->dev.preempts[GTBS_MECH_FLUSH], 1);
		ck_assert_uint_eq(n->next_block, 1);
		hg = h_submit(h, &dh, 1000);
		ck_assert_uint_eq(h->dev.preempts[GTBS_MECH_SWITCH], 1);
		gtbs_dev_run_until(&h->dev, 1000 + CTX);
		ck_assert_uint_eq(n->nr_saved, 1);
		while ((next = gtbs_dev_next_event(&h->dev)) != U64_MAX) {
			ck_assert_msg(++steps < 10000, "no progress at %llu",
				      (unsigned long long)next);
			gtbs_dev_run_until(&h->dev, next);
		}
		gtbs_srtf_scan_ref = false;
		ck_assert_int_eq(l->state, GTBS_GRID_DONE);
		ck_assert_int_eq(hg->state, GTBS_GRID_DONE);
		ck_assert_msg(n->state == GTBS_GRID_DONE,
			      "N never issued again (%s pick)",
			      scan ? "scanned" : "indexed");
		end[scan] = n->end_cycle;
		ck_assert_int_eq(h_check_all(h), 0);
		h_free(h);
	}
	ck_assert_uint_eq(end[0], end[1]);
}
END_TEST

Suite *preempt_suite(void)
{
	Suite *s = suite_create("preempt");
	TCase *tc = h_tcase("preempt");

	tcase_add_test(tc, preempt_drain_waits);
	tcase_add_test(tc, preempt_switch_out_and_back);
	tcase_add_test(tc, preempt_flush_reruns);
	tcase_add_test(tc, preempt_flush_needs_idempotent);
	tcase_add_test(tc, preempt_switch_twice);
	tcase_add_test(tc, preempt_auto_chooses);
	tcase_add_test(tc, preempt_same_class_drains);
	tcase_add_test(tc, preempt_same_class_oracle);
	tcase_add_test(tc, preempt_same_class_sjf);
	tcase_add_test(tc, preempt_same_class_srtf);
	tcase_add_test(tc, preempt_same_class_not_asked);
	tcase_add_test(tc, preempt_srtf_gain);
	tcase_add_test(tc, preempt_without_pool_drains);
	tcase_add_test(tc, preempt_cancel_while_saving);
	tcase_add_test(tc, preempt_guard_no_livelock);
	tcase_add_test(tc, preempt_srtf_rejoin_unsampled);
	suite_add_tcase(s, tc);
	return s;
}
