// SPDX-License-Identifier: GPL-2.0
/*
 * test_engine.c - dispatch engine (sm-emu/engine.c), FIFO policy and the
 * policy registry.
 *
 * FIFO is the paper's Section "FIFO (Baseline)": blocks issue in arrival
 * order, and a grid's blocks issue only once every block of every older
 * grid has been issued (head-of-line blocking).
 *
 * Copyright (C) 2026 The gputbs developers
 */
#include <time.h>

#include "harness.h"
#include "../../uapi/linux/gputbs.h"
#include "../../tools/include/gtbs_pair_alloc_user.h"

static long first_start(const struct h_dev *h, u64 grid_id)
{
	size_t i;

	for (i = 0; i < h->nr_ev; i++)
		if (h->ev[i].kind == H_EV_BLOCK_START &&
		    h->ev[i].grid_id == grid_id)
			return (long)i;
	return -1;
}

static long last_start(const struct h_dev *h, u64 grid_id)
{
	long i;

	for (i = (long)h->nr_ev - 1; i >= 0; i--)
		if (h->ev[i].kind == H_EV_BLOCK_START &&
		    h->ev[i].grid_id == grid_id)
			return i;
	return -1;
}

static void assert_sms_empty(const struct h_dev *h)
{
	u32 i;

	for (i = 0; i < h->dev.cfg.nr_sms; i++) {
		const struct gtbs_sm *sm = h->sms[i];
		u32 j;

		ck_assert_uint_eq(sm->nr_resident, 0);
		ck_assert_uint_eq(sm->used_warps, 0);
		ck_assert_uint_eq(sm->used_threads, 0);
		ck_assert_uint_eq(sm->used_regs, 0);
		ck_assert_uint_eq(sm->used_shmem, 0);
		for (j = 0; j < h->dev.cfg.max_blocks_per_sm; j++)
			ck_assert_ptr_null(sm->slots[j].grid);
		ck_assert_uint_eq(gtbs_sm_next_event(&h->dev, sm), U64_MAX);
	}
}

/* --- FIFO ---------------------------------------------------------------- */

/* Blocks of the next grid issue only after every block of the older one. */
START_TEST(fifo_arrival_order)
{
	struct h_dev *h = h_new_sms(15);
	struct gtbs_grid_desc a = h_desc(300, 64, 16, 0, 1000);
	struct gtbs_grid_desc b = h_desc(50, 64, 16, 0, 1000);
	struct gtbs_grid *ga, *gb;
	size_t i, na = 0, nb = 0;

	ga = h_submit(h, &a, 0);
	gb = h_submit(h, &b, 10);
	ck_assert_uint_lt(ga->id, gb->id);
	/* 15 SMs x R = 8: 120 of a's 300 blocks fit; b waits */
	ck_assert_uint_eq(ga->resident, 120);
	ck_assert_int_eq(gb->state, GTBS_GRID_QUEUED);
	h_drain(h);
	for (i = 0; i < h->nr_ev; i++) {
		const struct h_event *e = &h->ev[i];

		if (e->kind != H_EV_BLOCK_START)
			continue;
		if (e->grid_id == ga->id) {
			ck_assert_msg(nb == 0, "a's block %u after b's", e->block);
			ck_assert_uint_eq(e->block, na++);
		} else {
			ck_assert_uint_eq(e->grid_id, gb->id);
			ck_assert_uint_eq(e->block, nb++);
		}
	}
	ck_assert_uint_eq(na, 300);
	ck_assert_uint_eq(nb, 50);
	ck_assert_uint_ge(gb->start_cycle, h->ev[last_start(h, ga->id)].start);
	ck_assert_int_eq(ga->state, GTBS_GRID_DONE);
	ck_assert_int_eq(gb->state, GTBS_GRID_DONE);
	h_free(h);
}
END_TEST

/*
 * Head-of-line blocking: while the oldest grid has a block that does not
 * fit, no SM issues a younger grid's block even if it would fit.
 */
START_TEST(fifo_head_of_line)
{
	struct h_dev *h = h_new_sms(1);
	/* 20 KiB shared memory: R = 2, four blocks, two waves */
	struct gtbs_grid_desc a = h_desc(4, 64, 16, 20 * 1024, 1000);
	struct gtbs_grid_desc b = h_desc(1, 32, 16, 0, 1000);
	struct gtbs_grid *ga, *gb;

	ga = h_submit(h, &a, 0);
	gb = h_submit(h, &b, 0);
	ck_assert_uint_eq(ga->resident, 2);
	/* b would fit (slots, warps, shared memory are free) but waits */
	ck_assert_int_eq(gb->state, GTBS_GRID_QUEUED);
	gtbs_dev_run_until(&h->dev, 999);
	ck_assert_int_eq(gb->state, GTBS_GRID_QUEUED);
	h_drain(h);
	/* b starts with a's second wave, once all of a is issued */
	ck_assert_uint_eq(gb->start_cycle, 1000);
	ck_assert_int_gt(first_start(h, gb->id), last_start(h, ga->id));
	h_free(h);
}
END_TEST

/* Once the older grid is fully issued, the next one uses what is left. */
START_TEST(fifo_concurrent_on_leftover)
{
	struct h_dev *h = h_new_sms(2);
	struct gtbs_grid_desc a = h_desc(4, 256, 16, 0, 10000);
	struct gtbs_grid_desc b = h_desc(4, 64, 16, 0, 1000);
	struct gtbs_grid *ga, *gb;

	ga = h_submit(h, &a, 0);
	gb = h_submit(h, &b, 5);
	ck_assert_uint_eq(gb->start_cycle, 5);
	ck_assert_uint_eq(gb->resident, 4);
	h_drain(h);
	ck_assert_uint_lt(gb->end_cycle, ga->end_cycle);
	h_free(h);
}
END_TEST

/* Explicit durations: block order and end cycles by hand. */
START_TEST(explicit_durations)
{
	static const u64 dur[3] = { 100, 300, 200 };
	struct h_dev *h = h_new_sms(1);
	struct gtbs_grid_desc d = h_desc(3, 64, 16, 0, 0);
	struct gtbs_grid *g;
	const struct h_event *e[3];
	size_t i, n = 0;

	d.durations = dur;
	g = h_submit(h, &d, 0);
	h_drain(h);
	ck_assert_int_eq(g->state, GTBS_GRID_DONE);
	for (i = 0; i < h->nr_ev; i++)
		if (h->ev[i].kind == H_EV_BLOCK_END)
			e[n++] = &h->ev[i];
	ck_assert_uint_eq(n, 3);
	/*
	 * Three 2-warp blocks, Lf = 16, K = 8, rates 1 / (K + L):
	 * L = 6: block 0 needs 100 / 24 units: 100 * 14 / 24 = 58.3 -> 59;
	 * L = 4: block 2 needs 200 / 24 - 59 / 14 more: 49.4 cycles -> 109;
	 * L = 2: block 1 needs 300 / 24 - 59 / 14 - 50 / 12: 41.2 -> 151.
	 */
	ck_assert_uint_eq(e[0]->block, 0);
	ck_assert_uint_eq(e[0]->end, 59);
	ck_assert_uint_eq(e[1]->block, 2);
	ck_assert_uint_eq(e[1]->end, 109);
	ck_assert_uint_eq(e[2]->block, 1);
	ck_assert_uint_eq(e[2]->end, 151);
	ck_assert_uint_eq(g->end_cycle, 151);
	h_free(h);
}
END_TEST

/* --- cancel ------------------------------------------------------------- */

START_TEST(cancel_queued)
{
	struct h_dev *h = h_new_sms(1);
	/* a: 12 blocks at R = 8, a wave of 8 then 4 */
	struct gtbs_grid_desc a = h_desc(12, 64, 16, 0, 1000);
	struct gtbs_grid_desc b = h_desc(2, 64, 16, 0, 1000);
	struct gtbs_grid_desc c = h_desc(1, 64, 16, 0, 1000);
	struct gtbs_grid *ga, *gb, *gc;
	u64 kicks;

	ga = h_submit(h, &a, 0);
	gb = h_submit(h, &b, 0);
	gc = h_submit(h, &c, 0);
	ck_assert_int_eq(gb->state, GTBS_GRID_QUEUED);
	ck_assert_uint_eq(h->dev.nr_grids, 3);
	kicks = h->nr_kicks;
	gtbs_dev_run_until(&h->dev, 500);
	gtbs_grid_cancel(&h->dev, gb, 500);
	ck_assert_int_eq(gb->state, GTBS_GRID_CANCELLED);
	ck_assert_uint_eq(gb->end_cycle, 500);
	ck_assert_uint_eq(h->dev.nr_grids, 2);
	/* the only SM holds 8 of its 8 slots: no kick could let it issue */
	ck_assert_uint_eq(h->sms[0]->nr_resident, 8);
	ck_assert_uint_eq(h->nr_kicks, kicks);
	h_drain(h);
	/* b never ran, and nothing was reported for it */
	ck_assert_uint_eq(h_count(h, H_EV_BLOCK_START, gb->id), 0);
	ck_assert_uint_eq(h_count(h, H_EV_GRID_START, gb->id), 0);
	ck_assert_uint_eq(h_count(h, H_EV_GRID_DONE, gb->id), 0);
	ck_assert_uint_eq(gb->next_block, 0);
	/* c took b's place right after a's second wave was issued */
	ck_assert_uint_eq(gc->start_cycle, 1000);
	ck_assert_int_eq(ga->state, GTBS_GRID_DONE);
	ck_assert_int_eq(gc->state, GTBS_GRID_DONE);
	ck_assert_uint_eq(h->dev.grids_completed, 2);
	ck_assert(gtbs_dev_idle(&h->dev));
	h_free(h);
}
END_TEST

START_TEST(cancel_running_returns_resources)
{
	struct h_dev *h = h_new_sms(2);
	struct gtbs_grid_desc a = h_desc(100, 256, 16, 1024, 10000);
	struct gtbs_grid_desc b = h_desc(2, 64, 16, 0, 1000);
	struct gtbs_grid *ga, *gb;
	size_t ends_before;
	u32 i;

	ga = h_submit(h, &a, 0);
	gb = h_submit(h, &b, 0);
	ck_assert_int_eq(ga->state, GTBS_GRID_RUNNING);
	ck_assert_uint_eq(ga->resident, 12);
	ck_assert_int_eq(gb->state, GTBS_GRID_QUEUED);
	gtbs_dev_run_until(&h->dev, 100);
	ends_before = h_count(h, H_EV_BLOCK_END, U64_MAX);
	gtbs_grid_cancel(&h->dev, ga, 100);
	ck_assert_int_eq(ga->state, GTBS_GRID_CANCELLED);
	ck_assert_uint_eq(ga->resident, 0);
	ck_assert_uint_eq(ga->end_cycle, 100);
	for (i = 0; i < 2; i++) {
		ck_assert_uint_eq(gtbs_grid_sm_resident(ga, i), 0);
		ck_assert_uint_eq(h->sms[i]->nr_resident, 0);
		ck_assert_uint_eq(gtbs_sm_kick_cycle(&h->dev, h->sms[i]),
				  100);
	}
	assert_sms_empty(h);
	/* cancelled blocks end silently */
	ck_assert_uint_eq(h_count(h, H_EV_BLOCK_END, U64_MAX), ends_before);
	gtbs_dev_run_until(&h->dev, 100);
	ck_assert_uint_eq(gb->start_cycle, 100);
	h_drain(h);
	ck_assert_int_eq(gb->state, GTBS_GRID_DONE);
	ck_assert_uint_eq(h_count(h, H_EV_BLOCK_END, ga->id), 0);
	ck_assert_uint_eq(h_count(h, H_EV_GRID_DONE, ga->id), 0);
	ck_assert_uint_eq(h->dev.grids_completed, 1);
	ck_assert_uint_eq(h->dev.grids_submitted, 2);
	assert_sms_empty(h);
	ck_assert(gtbs_dev_idle(&h->dev));
	h_free(h);
}
END_TEST

/* Cancel leaves NEW, DONE and already CANCELLED grids alone. */
START_TEST(cancel_other_states_noop)
{
	struct h_dev *h = h_new_sms(1);
	struct gtbs_grid_desc a = h_desc(1, 64, 16, 0, 100);
	struct gtbs_grid *done, *fresh, *twice;
	u64 kicks;

	done = h_submit(h, &a, 0);
	h_drain(h);
	ck_assert_int_eq(done->state, GTBS_GRID_DONE);
	kicks = h->nr_kicks;
	gtbs_grid_cancel(&h->dev, done, 200);
	ck_assert_int_eq(done->state, GTBS_GRID_DONE);
	ck_assert_uint_eq(done->end_cycle, h_ceil_div(100 * 10, 24));
	ck_assert_uint_eq(h->dev.grids_completed, 1);
	ck_assert_uint_eq(h->dev.grids_cancelled, 0);

	fresh = h_grid_new(h, &a, NULL, NULL);
	ck_assert_ptr_nonnull(fresh);
	gtbs_grid_cancel(&h->dev, fresh, 200);
	ck_assert_int_eq(fresh->state, GTBS_GRID_NEW);

	twice = h_submit(h, &a, 300);
	a.nr_blocks = 3;
	h_submit(h, &a, 300);
	gtbs_grid_cancel(&h->dev, twice, 300);
	ck_assert_uint_eq(h->dev.nr_grids, 1);
	gtbs_grid_cancel(&h->dev, twice, 400);
	ck_assert_uint_eq(h->dev.nr_grids, 1);
	ck_assert_uint_eq(twice->end_cycle, 300);
	ck_assert_uint_eq(h->dev.grids_cancelled, 1);
	/*
	 * kicks: one per submit (2); when each grid is fully issued and at
	 * the cancel no grid has a block to issue, so no SM is kicked
	 */
	ck_assert_uint_eq(h->nr_kicks, kicks + 2);
	h_drain(h);
	ck_assert(gtbs_dev_idle(&h->dev));
	ck_assert_uint_eq(h->dev.nr_grids, 0);
	h_free(h);
}
END_TEST

/* The pairs a grid holds, checked against its pointer array. */
static u32 pairs_of(const struct h_dev *h, const struct gtbs_grid *g)
{
	const struct gtbs_grid_sm *gs;
	u32 n = 0, i;

	list_for_each_entry(gs, &g->sms, node) {
		ck_assert_ptr_eq(g->sm[gs->sm], gs);
		n++;
	}
	for (i = 0; i < h->dev.cfg.nr_sms; i++)
		ck_assert(!g->sm[i] || g->sm[i]->sm == i);
	return n;
}

/*
 * Per-(grid, SM) state exists only on the SMs a grid issued a block on
 * (sm-emu/grid.c): two one-per-SM blocks on a 15-SM device make two pairs,
 * also under SRTF, which files grids on every SM's order; an SM without
 * one reads as the launch's state.
 */
START_TEST(pairs_only_where_blocks_ran)
{
	struct gtbs_dev_config cfg;
	/* 1024 threads: one block per SM (R = 1) */
	struct gtbs_grid_desc d = h_desc(2, 1024, 16, 0, 1000);
	struct gtbs_grid_desc dl = h_desc(30, 1024, 16, 0, 5000);
	const struct gtbs_policy_ops *policies[] = {
		&gtbs_policy_fifo, &gtbs_policy_srtf, &gtbs_policy_srtf_adaptive,
	};
	struct gtbs_grid_sm view;
	u32 p, i;

	gtbs_config_default(&cfg);
	for (p = 0; p < ARRAY_SIZE(policies); p++) {
		struct h_dev *h = h_new(&cfg, policies[p]);
		struct gtbs_grid *a, *l;

		a = h_submit(h, &d, 0);
		ck_assert_uint_eq(pairs_of(h, a), 2);
		ck_assert_ptr_nonnull(gtbs_grid_sm(a, 0));
		ck_assert_ptr_nonnull(gtbs_grid_sm(a, 1));
		for (i = 2; i < cfg.nr_sms; i++)
			ck_assert_ptr_null(gtbs_grid_sm(a, i));
		gtbs_grid_sm_view(&h->dev, a, 5, &view);
		ck_assert_uint_eq(view.resident, 0);
		ck_assert_uint_eq(view.pred.total_blocks, 1);
		ck_assert_uint_eq(view.pred.resident_blocks, 1);
		ck_assert(!view.pred.predicted);
		ck_assert(!gtbs_grid_sm_predicted(a, 5));
		/* a long grid on every SM, then a's state stays where it was */
		l = h_submit(h, &dl, 500);
		h_drain(h);
		ck_assert_int_eq(a->state, GTBS_GRID_DONE);
		ck_assert_int_eq(l->state, GTBS_GRID_DONE);
		ck_assert_uint_eq(pairs_of(h, a), 2);
		ck_assert_uint_eq(pairs_of(h, l), cfg.nr_sms);
		ck_assert_int_eq(h_check_all(h), 0);
		h_free(h);
	}
}
END_TEST

/* Issues at cycle 0 on a device that takes pairs from its reserve only. */
static struct h_dev *spare_only_dev(struct gtbs_grid **a, struct gtbs_grid **b)
{
	struct h_dev *h = h_new_sms(1);
	struct gtbs_grid_desc d = h_desc(2, 256, 16, 0, 1000);

	h->dev.spare_only = true;
	*a = h_grid_new(h, &d, NULL, NULL);
	*b = h_grid_new(h, &d, NULL, NULL);
	gtbs_grid_submit(&h->dev, *a, 0);
	gtbs_grid_submit(&h->dev, *b, 0);
	return h;
}

static void spare_add(struct h_dev *h, u32 n)
{
	while (n--)
		gtbs_dev_spare_add(&h->dev,
				   calloc(1, gtbs_grid_sm_size(&h->dev.cfg)));
}

/*
 * With &gtbs_dev.spare_only the core never allocates a pair: a run stops
 * before an SM event while the reserve is low, and a dispatch that finds
 * it empty defers the issue and stops the run; after the owner refills,
 * the run goes on and the blocks issue at the cycle they were due.
 */
START_TEST(deferred_issue_resumes_after_refill)
{
	struct gtbs_grid *a, *b;
	struct h_dev *h = spare_only_dev(&a, &b);
	u32 budget = U32_MAX;

	/* an empty reserve: nothing runs, nothing is lost */
	ck_assert(!gtbs_dev_run_bounded(&h->dev, 0, &budget));
	ck_assert_uint_eq(a->next_block + b->next_block, 0);
	ck_assert_int_eq(a->state, GTBS_GRID_QUEUED);
	ck_assert_uint_eq(gtbs_dev_spare_wanted(&h->dev),
			  h->dev.spare_low + 1);
	/* one pair, and no low mark: a issues, b's issue is deferred */
	h->dev.spare_low = 0;
	spare_add(h, 1);
	budget = U32_MAX;
	ck_assert(!gtbs_dev_run_bounded(&h->dev, 0, &budget));
	ck_assert_uint_eq(a->next_block, 2);
	ck_assert_uint_eq(b->next_block, 0);
	ck_assert_ptr_null(gtbs_grid_sm(b, 0));
	ck_assert(h->dev.sms[0]->kicked);
	ck_assert_uint_eq(h->dev.sms[0]->kick_cycle, 0);
	ck_assert_uint_eq(gtbs_sm_kick_cycle(&h->dev, h->dev.sms[0]), 0);
	/* the refill: b issues at cycle 0 all the same */
	spare_add(h, 1);
	budget = U32_MAX;
	ck_assert(gtbs_dev_run_bounded(&h->dev, 0, &budget));
	ck_assert_uint_eq(b->next_block, 2);
	ck_assert_uint_eq(b->start_cycle, 0);
	budget = U32_MAX;
	ck_assert(gtbs_dev_run_bounded(&h->dev, U64_MAX, &budget));
	ck_assert_int_eq(a->state, GTBS_GRID_DONE);
	ck_assert_int_eq(b->state, GTBS_GRID_DONE);
	ck_assert_uint_eq(a->end_cycle, b->end_cycle);
	/* given back to the reserve, and reused */
	gtbs_grid_release(&h->dev, a);
	ck_assert_ptr_null(gtbs_grid_sm(a, 0));
	ck_assert_uint_eq(h->dev.nr_spare, 1);
	ck_assert_int_eq(h_check_all(h), 0);
	h_free(h);
}
END_TEST

/*
 * OnKernelEnd: a grid that ran restarts the slices of the grids running
 * beside it when it leaves; a grid cancelled while still queued never ran
 * beside them and changes no slice.
 */
START_TEST(cancel_reslices_only_after_running)
{
	struct h_dev *h = h_new_sms(1);
	/* b: 2 long blocks; a: 12 short ones, 6 resident beside b's 2 */
	struct gtbs_grid_desc db = h_desc(2, 64, 16, 2048, 5000);
	struct gtbs_grid_desc da = h_desc(12, 64, 16, 2048, 1000);
	/* c: 48 KiB of shared memory, cannot fit beside them: queued */
	struct gtbs_grid_desc dc = h_desc(1, 64, 16, 48 * 1024, 1000);
	struct gtbs_grid *a, *b, *c;

	b = h_submit(h, &db, 0);
	a = h_submit(h, &da, 0);
	c = h_submit(h, &dc, 0);
	ck_assert_uint_eq(gtbs_grid_sm_resident(a, 0), 6);
	ck_assert_int_eq(b->state, GTBS_GRID_RUNNING);
	ck_assert_int_eq(c->state, GTBS_GRID_QUEUED);
	/* a's first wave ends and the second starts: Reslice is cleared */
	gtbs_dev_run_until(&h->dev, gtbs_dev_next_event(&h->dev));
	ck_assert_uint_eq(a->blocks_done, 6);
	ck_assert_uint_eq(gtbs_grid_sm_resident(a, 0), 6);
	ck_assert(a->sm[0]->pred.predicted);
	ck_assert(!gtbs_grid_sm_reslice_due(&h->dev, a->sm[0]));

	gtbs_grid_cancel(&h->dev, c, h->dev.sms[0]->now);
	ck_assert_int_eq(c->state, GTBS_GRID_CANCELLED);
	ck_assert(!gtbs_grid_sm_reslice_due(&h->dev, a->sm[0]));
	gtbs_grid_cancel(&h->dev, b, h->dev.sms[0]->now);
	ck_assert_int_eq(b->state, GTBS_GRID_CANCELLED);
	ck_assert(gtbs_grid_sm_reslice_due(&h->dev, a->sm[0]));
	h_drain(h);
	ck_assert_int_eq(a->state, GTBS_GRID_DONE);
	ck_assert(gtbs_dev_idle(&h->dev));
	h_free(h);
}
END_TEST

/*
 * The counters add up: a grid cancelled after its arrival counts in
 * grids_submitted and grids_cancelled; one cancelled before its arrival
 * cycle in neither, as it never arrived.
 */
START_TEST(cancel_counters_add_up)
{
	struct h_dev *h = h_new_sms(1);
	struct gtbs_grid_desc a = h_desc(4, 64, 16, 0, 1000);
	struct gtbs_grid *run, *early, *late;

	run = h_submit(h, &a, 0);
	early = h_grid_new(h, &a, NULL, NULL);
	late = h_grid_new(h, &a, NULL, NULL);
	ck_assert_ptr_nonnull(early);
	ck_assert_ptr_nonnull(late);
	gtbs_grid_submit_at(&h->dev, early, 0, 50);
	gtbs_grid_submit_at(&h->dev, late, 0, 5000);
	gtbs_dev_run_until(&h->dev, 100);
	ck_assert_int_ne(early->state, GTBS_GRID_ARRIVING);
	ck_assert_int_eq(late->state, GTBS_GRID_ARRIVING);
	ck_assert_uint_eq(h->dev.grids_submitted, 2);

	gtbs_grid_cancel(&h->dev, late, 100);
	ck_assert_int_eq(late->state, GTBS_GRID_CANCELLED);
	ck_assert_uint_eq(h->dev.grids_cancelled, 0);
	gtbs_grid_cancel(&h->dev, early, 100);
	ck_assert_int_eq(early->state, GTBS_GRID_CANCELLED);
	ck_assert_uint_eq(h->dev.grids_cancelled, 1);
	gtbs_grid_cancel(&h->dev, run, 100);
	ck_assert_uint_eq(h->dev.grids_cancelled, 2);
	ck_assert(gtbs_dev_idle(&h->dev));
	ck_assert_uint_eq(h->dev.grids_submitted,
			  h->dev.grids_completed + h->dev.grids_cancelled);
	h_free(h);
}
END_TEST

/* --- resources ----------------------------------------------------------- */

/* Never more than the SM's resources, checked inside every callback. */
START_TEST(resources_bounded_at_every_event)
{
	struct h_dev *h = h_new_sms(3);
	unsigned int k;

	h->check_every_event = true;
	for (k = 0; k < H_NR_ERC; k++) {
		struct gtbs_grid_desc d = h_erc_desc(&h_erc_kernels[k], k);

		d.nr_blocks = 40;
		d.block_cycles = 1000 + 100 * k;
		d.startup_blocks = min(d.startup_blocks, d.nr_blocks);
		h_submit(h, &d, k * 7);
	}
	h_drain(h);
	ck_assert_msg(h->violations == 0, "%s", h->violation);
	ck_assert_uint_gt(h->nr_checks, 8 * 40 * 2 * 3);
	ck_assert_uint_eq(h_count(h, H_EV_BLOCK_END, U64_MAX), 8 * 40);
	ck_assert_uint_eq(h->dev.grids_completed, 8);
	ck_assert_uint_eq(h->nonmonotonic, 0);
	assert_sms_empty(h);
	h_free(h);
}
END_TEST

/* All 64 slots of an SM in use (GTBS_MAX_BLOCKS_PER_SM). */
START_TEST(resources_all_slots)
{
	struct gtbs_dev_config cfg;
	struct h_dev *h;
	struct gtbs_grid_desc d = h_desc(130, 32, 1, 0, 100);
	struct gtbs_grid *g;

	gtbs_config_default(&cfg);
	cfg.nr_sms = 2;
	cfg.max_blocks_per_sm = GTBS_MAX_BLOCKS_PER_SM;
	cfg.max_warps_per_sm = 64;
	cfg.max_threads_per_sm = 64 * 32;
	h = h_new(&cfg, NULL);
	h->check_every_event = true;
	g = h_submit(h, &d, 0);
	ck_assert_uint_eq(g->occ.residency, 64);
	ck_assert_uint_eq(h->sms[0]->nr_resident, 64);
	ck_assert_uint_eq(h->sms[1]->nr_resident, 64);
	ck_assert_uint_eq(gtbs_grid_sm_resident(g, 0) + gtbs_grid_sm_resident(g, 1), g->resident);
	h_drain(h);
	ck_assert_msg(h->violations == 0, "%s", h->violation);
	/*
	 * 128 blocks at L = Lf = 64 take 100 cycles; the last two both go
	 * to SM 0 (lowest first) and run at L = 2: 100 * 10 / 72.
	 */
	ck_assert_uint_eq(g->end_cycle, 100 + h_ceil_div(100 * 10, 8 + 64));
	ck_assert_uint_eq(h->sms[0]->blocks_run, 66);
	assert_sms_empty(h);
	h_free(h);
}
END_TEST

/* --- lifecycle, counters and callbacks ---------------------------------- */

START_TEST(lifecycle_and_counters)
{
	struct h_dev *h = h_new_sms(2);
	struct gtbs_grid_desc d = h_desc(20, 128, 16, 0, 700);
	struct gtbs_grid *g, *g2;
	const char *why = "unset";
	int err = 1;

	ck_assert(gtbs_dev_idle(&h->dev));
	g = h_grid_new(h, &d, &err, &why);
	ck_assert_ptr_nonnull(g);
	ck_assert_int_eq(err, 0);
	ck_assert_ptr_null(why);
	ck_assert_int_eq(g->state, GTBS_GRID_NEW);
	ck_assert_str_eq(g->desc.label, "test");
	ck_assert_uint_eq(g->occ.residency, 8);
	ck_assert(gtbs_dev_idle(&h->dev));

	gtbs_dev_run_until(&h->dev, 50);
	gtbs_grid_submit(&h->dev, g, 50);
	ck_assert_int_eq(g->state, GTBS_GRID_QUEUED);
	ck_assert_uint_eq(g->submit_cycle, 50);
	ck_assert_uint_eq(g->id, 0);
	ck_assert(!gtbs_dev_idle(&h->dev));
	ck_assert_uint_eq(h->dev.grids_submitted, 1);
	ck_assert_uint_eq(h_count(h, H_EV_GRID_START, U64_MAX), 0);
	ck_assert_uint_eq(h->dev.blocks_dispatched, 0);

	gtbs_dev_run_until(&h->dev, 50);
	ck_assert_int_eq(g->state, GTBS_GRID_RUNNING);
	ck_assert_uint_eq(g->start_cycle, 50);
	ck_assert_uint_eq(g->resident, 16);
	ck_assert_uint_eq(g->next_block, 16);
	ck_assert_uint_eq(gtbs_grid_sm_resident(g, 0), 8);
	ck_assert_uint_eq(gtbs_grid_sm_resident(g, 1), 8);
	ck_assert_uint_eq(h->dev.blocks_dispatched, 16);
	ck_assert_uint_eq(h_count(h, H_EV_GRID_START, g->id), 1);

	g2 = h_submit(h, &d, 60);
	ck_assert_uint_eq(g2->id, 1);
	h_drain(h);
	ck_assert_int_eq(g->state, GTBS_GRID_DONE);
	ck_assert_int_eq(g2->state, GTBS_GRID_DONE);
	ck_assert_uint_eq(g->blocks_done, 20);
	ck_assert_uint_eq(g->resident, 0);
	ck_assert_uint_eq(h_count(h, H_EV_GRID_START, U64_MAX), 2);
	ck_assert_uint_eq(h_count(h, H_EV_GRID_DONE, g->id), 1);
	ck_assert_uint_eq(h_count(h, H_EV_GRID_DONE, g2->id), 1);
	ck_assert_uint_eq(h->dev.grids_completed, 2);
	ck_assert_uint_eq(h->dev.blocks_dispatched, 40);
	ck_assert_uint_eq(h->sms[0]->blocks_run + h->sms[1]->blocks_run, 40);
	ck_assert_uint_eq(h->dev.nr_grids, 0);
	ck_assert(gtbs_dev_idle(&h->dev));
	/* the last event of a grid is its completion, at its end cycle */
	ck_assert_uint_eq(h->ev[h->nr_ev - 1].kind, H_EV_GRID_DONE);
	ck_assert_uint_eq(h->ev[h->nr_ev - 1].start, g2->end_cycle);
	assert_sms_empty(h);
	h_free(h);
}
END_TEST

/*
 * Submitting kicks every SM at the submission cycle; run_until takes the
 * kick as an event at that cycle and clears it.  Once the grid's only
 * block is issued no grid has a block to issue, so neither that issue nor
 * the grid's end kicks any SM.
 */
START_TEST(kicks_on_submit_and_end)
{
	struct h_dev *h = h_new_sms(4);
	struct gtbs_grid_desc d = h_desc(1, 64, 16, 0, 100);
	struct gtbs_grid *g;
	u32 i;

	g = h_grid_new(h, &d, NULL, NULL);
	gtbs_grid_submit(&h->dev, g, 40);
	ck_assert_uint_eq(h->nr_kicks, 4);
	for (i = 0; i < 4; i++) {
		ck_assert_uint_eq(gtbs_sm_kick_cycle(&h->dev, h->sms[i]),
				  40);
		ck_assert_uint_eq(h->sm_kicks[i], 1);
	}
	gtbs_dev_run_until(&h->dev, 39);
	ck_assert_int_eq(g->state, GTBS_GRID_QUEUED);
	gtbs_dev_run_until(&h->dev, 40);
	ck_assert_int_eq(g->state, GTBS_GRID_RUNNING);
	ck_assert_uint_eq(g->start_cycle, 40);
	for (i = 0; i < 4; i++)
		ck_assert_uint_eq(gtbs_sm_kick_cycle(&h->dev, h->sms[i]),
				  U64_MAX);
	h_drain(h);
	ck_assert_int_eq(g->state, GTBS_GRID_DONE);
	ck_assert_uint_eq(h->nr_kicks, 4);
	for (i = 0; i < 4; i++)
		ck_assert_uint_eq(h->sm_kicks[i], 1);
	h_free(h);
}
END_TEST

/*
 * A "serial" policy issues from a grid only once every older grid has
 * completed, so only a grid's end (a kick) lets the next one start.
 */
static struct gtbs_grid *serial_pick(struct gtbs_dev *dev, struct gtbs_sm *sm,
				  u32 *reason)
{
	struct gtbs_grid *head = list_first_entry_or_null(&dev->pending,
							  struct gtbs_grid,
							  pending_node);
	struct gtbs_grid *oldest = list_first_entry_or_null(&dev->grids,
							    struct gtbs_grid,
							    node);

	return head == oldest ? head : NULL;
}

static const struct gtbs_policy_ops serial_policy = {
	.name = "serial-test",
	.pick_grid = serial_pick,
};

/*
 * Kicked SMs are re-evaluated at the cycle of the event that kicked them,
 * even inside one long gtbs_dev_run_until() call: b's second block starts
 * on the idle SM 1 when a ends, not at the run_until bound.
 */
START_TEST(kicked_sm_reevaluated_at_event)
{
	struct gtbs_dev_config cfg;
	struct h_dev *h;
	struct gtbs_grid_desc a = h_desc(1, 64, 16, 0, 1000);
	struct gtbs_grid_desc b = h_desc(2, 64, 16, 0, 1000);
	struct gtbs_grid *ga, *gb;
	long i;

	gtbs_config_default(&cfg);
	cfg.nr_sms = 2;
	cfg.max_blocks_per_sm = 1;
	h = h_new(&cfg, &serial_policy);
	ga = h_grid_new(h, &a, NULL, NULL);
	gb = h_grid_new(h, &b, NULL, NULL);
	gtbs_grid_submit(&h->dev, ga, 0);
	gtbs_grid_submit(&h->dev, gb, 0);
	gtbs_dev_run_until(&h->dev, 0);
	ck_assert_uint_eq(ga->resident, 1);
	ck_assert_int_eq(gb->state, GTBS_GRID_QUEUED);
	/* a alone at R = 1: Lf = 2 = L, so it lasts exactly 1000 */
	gtbs_dev_run_until(&h->dev, 1000000);
	ck_assert_uint_eq(ga->end_cycle, 1000);
	ck_assert_uint_eq(gb->start_cycle, 1000);
	i = h_find(h, H_EV_BLOCK_START, gb->id, 1);
	ck_assert_int_ge(i, 0);
	ck_assert_uint_eq(h->ev[i].start, 1000);
	ck_assert_uint_eq(h->ev[i].sm, 1);
	ck_assert_uint_eq(gb->end_cycle, 2000);
	ck_assert(gtbs_dev_idle(&h->dev));
	h_free(h);
}
END_TEST

/*
 * Kick both SMs of @h at @first, then at @second, while the device has
 * nothing due before @end: both re-evaluate once, at the earlier of the
 * two, and nothing else is due until @end.
 */
static void kick_twice(struct h_dev *h, u64 first, u64 second, u64 end)
{
	u64 at = min(first, second);
	u32 i;

	gtbs_dev_kick(&h->dev, first);
	gtbs_dev_kick(&h->dev, second);
	for (i = 0; i < 2; i++)
		ck_assert_uint_eq(gtbs_sm_kick_cycle(&h->dev, h->sms[i]), at);
	ck_assert_uint_eq(gtbs_dev_next_event(&h->dev), at);
	gtbs_dev_run_until(&h->dev, at);
	for (i = 0; i < 2; i++)
		ck_assert_uint_eq(gtbs_sm_kick_cycle(&h->dev, h->sms[i]),
				  U64_MAX);
	ck_assert_uint_eq(gtbs_dev_next_event(&h->dev), end);
}

/*
 * A kick at another cycle than the device's pending one (an owner's kick
 * ahead of the device's clock): every SM re-evaluates at the earlier of
 * its kicks, once, and that clears both, as a per-SM kick cycle (the
 * minimum) did.  Under the serial policy b waits for a, so each SM's
 * re-evaluation issues nothing and a's end is the next event.
 */
START_TEST(kick_at_other_cycle_takes_earliest)
{
	struct gtbs_dev_config cfg;
	struct h_dev *h;
	struct gtbs_grid_desc a = h_desc(1, 64, 16, 0, 1000);
	struct gtbs_grid *ga, *gb;
	u64 end;
	u32 i;

	gtbs_config_default(&cfg);
	cfg.nr_sms = 2;
	h = h_new(&cfg, &serial_policy);
	ga = h_grid_new(h, &a, NULL, NULL);
	gb = h_grid_new(h, &a, NULL, NULL);
	gtbs_grid_submit(&h->dev, ga, 0);
	gtbs_grid_submit(&h->dev, gb, 0);
	gtbs_dev_run_until(&h->dev, 0);
	ck_assert_int_eq(gb->state, GTBS_GRID_QUEUED);
	end = gtbs_dev_next_event(&h->dev);
	ck_assert_uint_gt(end, 100);
	for (i = 0; i < 2; i++)
		ck_assert_uint_eq(gtbs_sm_kick_cycle(&h->dev, h->sms[i]),
				  U64_MAX);
	/* a later kick while one is pending: the earlier stays */
	kick_twice(h, 60, 70, end);
	/* an earlier kick while one is pending: the earlier takes it */
	kick_twice(h, 90, 80, end);
	h_drain(h);
	ck_assert_uint_eq(gb->start_cycle, ga->end_cycle);
	ck_assert(gtbs_dev_idle(&h->dev));
	h_free(h);
}
END_TEST

/* --- run_until semantics ------------------------------------------------- */

/*
 * Arrivals dispatch at their own cycle, however late the device is run:
 * a grid submitted at 500 to an idle device and run only to 10^6 starts
 * at 500; one submitted at 700 while a block ends at 1000 starts at 700
 * beside it.
 */
START_TEST(arrival_dispatches_at_own_cycle)
{
	struct h_dev *h = h_new_sms(2);
	struct gtbs_grid_desc a = h_desc(1, 64, 16, 0, 1000);
	struct gtbs_grid_desc b = h_desc(3, 64, 16, 0, 1000);
	struct gtbs_grid *ga, *gb;

	ga = h_grid_new(h, &a, NULL, NULL);
	gtbs_grid_submit(&h->dev, ga, 500);
	gb = h_grid_new(h, &b, NULL, NULL);
	gtbs_dev_run_until(&h->dev, 700);
	gtbs_grid_submit(&h->dev, gb, 700);
	gtbs_dev_run_until(&h->dev, 1000000);
	ck_assert_uint_eq(ga->start_cycle, 500);
	ck_assert_uint_eq(gb->start_cycle, 700);
	/*
	 * a alone for 200 cycles at L = 2: 200 / 10 of 1000 / 24 units;
	 * then L = 8 with b's three blocks: (1000 / 24 - 20) * 16 = 346.7.
	 */
	ck_assert_uint_eq(ga->end_cycle, 700 + 347);
	ck_assert_uint_eq(h->nonmonotonic, 0);
	h_free(h);
}
END_TEST

START_TEST(run_until_inclusive_bound)
{
	struct h_dev *h = h_new_sms(1);
	struct gtbs_grid_desc a = h_desc(8, 64, 16, 0, 1000);
	struct gtbs_grid *g = h_submit(h, &a, 0);

	ck_assert_uint_eq(gtbs_dev_next_event(&h->dev), 1000);
	ck_assert_uint_eq(gtbs_sm_next_event(&h->dev, h->sms[0]), 1000);
	gtbs_dev_run_until(&h->dev, 999);
	ck_assert_uint_eq(g->blocks_done, 0);
	ck_assert_uint_eq(h_count(h, H_EV_BLOCK_END, U64_MAX), 0);
	ck_assert_uint_eq(gtbs_dev_next_event(&h->dev), 1000);
	gtbs_dev_run_until(&h->dev, 1000);
	ck_assert_uint_eq(g->blocks_done, 8);
	ck_assert_int_eq(g->state, GTBS_GRID_DONE);
	ck_assert_uint_eq(g->end_cycle, 1000);
	ck_assert_uint_eq(gtbs_dev_next_event(&h->dev), U64_MAX);
	h_free(h);
}
END_TEST

/* Running to an earlier cycle changes nothing; time never goes back. */
START_TEST(run_until_never_goes_back)
{
	struct h_dev *h = h_new_sms(2);
	struct gtbs_grid_desc a = h_desc(40, 64, 16, 0, 1000);
	struct gtbs_grid *g = h_submit(h, &a, 0);
	size_t n;

	gtbs_dev_run_until(&h->dev, 2500);
	n = h->nr_ev;
	ck_assert_uint_eq(g->blocks_done, 32);
	gtbs_dev_run_until(&h->dev, 100);
	ck_assert_uint_eq(h->nr_ev, n);
	ck_assert_uint_eq(g->blocks_done, 32);
	ck_assert_uint_le(h->sms[0]->now, 2500);
	ck_assert_uint_ge(h->sms[0]->now, 2000);
	ck_assert_uint_eq(gtbs_sm_advance(&h->dev, h->sms[0], 10), 3000);
	ck_assert_uint_eq(h->nr_ev, n);
	h_drain(h);
	ck_assert_uint_eq(g->end_cycle, 3000);
	ck_assert_uint_eq(h->nonmonotonic, 0);
	h_free(h);
}
END_TEST

/* Events are processed in global cycle order, lower SM first on ties. */
START_TEST(run_until_global_order)
{
	struct h_dev *h = h_new_sms(3);
	static const u64 dur[6] = { 300, 100, 200, 100, 300, 200 };
	struct gtbs_grid_desc d = h_desc(6, 1024, 16, 0, 0);
	size_t i, n = 0;
	struct gtbs_grid *g;
	static const u32 want_sm[6] = { 1, 1, 2, 0, 2, 1 };
	static const u32 want_block[6] = { 1, 3, 2, 0, 5, 4 };

	/* 1024 threads: R = 1, one block per SM at a time */
	d.durations = dur;
	g = h_submit(h, &d, 0);
	ck_assert_uint_eq(g->occ.residency, 1);
	gtbs_dev_run_until(&h->dev, 1000000);
	ck_assert_int_eq(g->state, GTBS_GRID_DONE);
	/*
	 * SM0: b0 0-300; SM1: b1 0-100, b3 100-200, b4 200-500;
	 * SM2: b2 0-200, b5 200-400.  At 200 SM 1 goes first, so it gets
	 * b4 and SM 2 gets b5.  Ends in cycle order, ties by SM index.
	 */
	for (i = 0; i < h->nr_ev; i++) {
		const struct h_event *e = &h->ev[i];

		if (e->kind != H_EV_BLOCK_END)
			continue;
		ck_assert_uint_lt(n, 6);
		ck_assert_msg(e->sm == want_sm[n] && e->block == want_block[n],
			      "end %zu: block %u on SM %u", n, e->block, e->sm);
		n++;
	}
	ck_assert_uint_eq(n, 6);
	ck_assert_uint_eq(h->nonmonotonic, 0);
	ck_assert_uint_eq(g->end_cycle, 500);
	h_free(h);
}
END_TEST

/* One run_until to the end and event-by-event draining agree (one grid). */
START_TEST(run_until_granularity_single_grid)
{
	const struct h_erc_kernel *k = &h_erc_kernels[_i];
	struct gtbs_grid_desc d = h_erc_desc(k, 3);
	struct h_dev *a = h_new_sms(15), *b = h_new_sms(15);
	struct gtbs_grid *ga, *gb;

	d.nr_blocks = min(d.nr_blocks, 600U);
	ga = h_submit(a, &d, 0);
	gb = h_submit(b, &d, 0);
	h_drain(a);
	gtbs_dev_run_until(&b->dev, 1ULL << 50);
	ck_assert_uint_eq(ga->end_cycle, gb->end_cycle);
	ck_assert_uint_eq(a->nr_ev, b->nr_ev);
	ck_assert_int_eq(memcmp(a->ev, b->ev, a->nr_ev * sizeof(*a->ev)), 0);
	h_free(a);
	h_free(b);
}
END_TEST

/*
 * The schedule does not depend on how the caller slices time: draining
 * event by event and one long gtbs_dev_run_until() give the same log,
 * here in FIFO's head-of-line scenario (see also kb_fifo_next_grid_*).
 */
START_TEST(run_until_granularity_head_of_line)
{
	struct gtbs_dev_config cfg;
	struct gtbs_grid_desc x = h_desc(1, 96, 0, 0, 1000000);
	struct gtbs_grid_desc a = h_desc(3, 64, 0, 0, 100);
	struct gtbs_grid_desc b = h_desc(2, 32, 0, 0, 100);
	struct h_dev *h1, *h2, *h3;
	u64 c;

	gtbs_config_default(&cfg);
	cfg.nr_sms = 2;
	cfg.max_warps_per_sm = 4;
	cfg.max_threads_per_sm = 128;
	cfg.max_blocks_per_sm = 2;
	h1 = h_new(&cfg, NULL);
	h2 = h_new(&cfg, NULL);
	h3 = h_new(&cfg, NULL);
	h_submit(h1, &x, 0);
	h_submit(h1, &a, 0);
	h_submit(h1, &b, 0);
	h_submit(h2, &x, 0);
	h_submit(h2, &a, 0);
	h_submit(h2, &b, 0);
	h_submit(h3, &x, 0);
	h_submit(h3, &a, 0);
	h_submit(h3, &b, 0);
	h_drain(h1);
	gtbs_dev_run_until(&h2->dev, 5000000);
	for (c = 1; c <= 2000; c++)	/* cycle by cycle, then the rest */
		gtbs_dev_run_until(&h3->dev, c);
	gtbs_dev_run_until(&h3->dev, 5000000);
	ck_assert_uint_eq(h1->nr_ev, 18);	/* 6 blocks x 2 + 3 grids x 2 */
	ck_assert_uint_eq(h1->nr_ev, h2->nr_ev);
	ck_assert_uint_eq(h1->nr_ev, h3->nr_ev);
	ck_assert(!memcmp(h1->ev, h2->ev, h1->nr_ev * sizeof(*h1->ev)));
	ck_assert(!memcmp(h1->ev, h3->ev, h1->nr_ev * sizeof(*h1->ev)));
	h_free(h1);
	h_free(h2);
	h_free(h3);
}
END_TEST

/* --- grid descriptions ------------------------------------------------- */

static const u64 dur_zero[3] = { 10, 0, 10 };
static const u64 dur_big[2] = { 10, GTBS_MAX_BLOCK_CYCLES + 1 };
static const u64 dur_limits[2] = { 1, GTBS_MAX_BLOCK_CYCLES };

static struct gtbs_grid_desc ok_desc(void)
{
	return h_desc(10, 64, 16, 0, 1000);
}

struct bad_desc {
	const char *name;
	void (*mutate)(struct gtbs_grid_desc *d);
	int err;
};

#define BAD_DESC(n, stmt) \
	static void bad_desc_##n(struct gtbs_grid_desc *d) { stmt; }
BAD_DESC(zero_blocks, d->nr_blocks = 0)
BAD_DESC(many_blocks, d->nr_blocks = (1U << 20) + 1)
BAD_DESC(many_blocks_first, d->nr_blocks = U32_MAX; d->threads_per_block = 0)
BAD_DESC(zero_threads, d->threads_per_block = 0)
BAD_DESC(many_threads, d->threads_per_block = 1025)
BAD_DESC(many_regs, d->regs_per_thread = 64)
BAD_DESC(much_shmem, d->shmem_per_block = 48 * 1024 + 1)
BAD_DESC(big_rsd, d->block_rsd_ppm = GTBS_PPM + 1)
BAD_DESC(zero_cycles, d->block_cycles = 0)
BAD_DESC(many_cycles, d->block_cycles = GTBS_MAX_BLOCK_CYCLES + 1)
BAD_DESC(label_tab, snprintf(d->label, sizeof(d->label), "a\tb"))
BAD_DESC(label_del, snprintf(d->label, sizeof(d->label), "a\x7f"))
BAD_DESC(label_8bit, snprintf(d->label, sizeof(d->label), "caf\xc3\xa9"))
BAD_DESC(label_unterminated, memset(d->label, 'x', GTBS_LABEL_LEN))
BAD_DESC(no_fit, d->threads_per_block = 1024; d->regs_per_thread = 63)
BAD_DESC(zero_duration, d->nr_blocks = 3; d->block_cycles = 0;
	 d->durations = dur_zero)
BAD_DESC(big_duration, d->nr_blocks = 2; d->durations = dur_big)

static const struct bad_desc bad_descs[] = {
	{ "zero blocks", bad_desc_zero_blocks, -EINVAL },
	{ "too many blocks", bad_desc_many_blocks, -E2BIG },
	{ "too many blocks beats other errors", bad_desc_many_blocks_first,
	  -E2BIG },
	{ "zero threads", bad_desc_zero_threads, -EINVAL },
	{ "1025 threads", bad_desc_many_threads, -EINVAL },
	{ "64 registers", bad_desc_many_regs, -EINVAL },
	{ "too much shmem", bad_desc_much_shmem, -EINVAL },
	{ "rsd > 100%", bad_desc_big_rsd, -EINVAL },
	{ "zero cycles", bad_desc_zero_cycles, -EINVAL },
	{ "2^40+1 cycles", bad_desc_many_cycles, -EINVAL },
	{ "label control char", bad_desc_label_tab, -EINVAL },
	{ "label DEL", bad_desc_label_del, -EINVAL },
	{ "label 8-bit", bad_desc_label_8bit, -EINVAL },
	{ "label unterminated", bad_desc_label_unterminated, -EINVAL },
	{ "does not fit", bad_desc_no_fit, -EINVAL },
	{ "a zero duration", bad_desc_zero_duration, -EINVAL },
	{ "a duration over 2^40", bad_desc_big_duration, -EINVAL },
};

/* One invalid field per case: the documented error and a reason. */
START_TEST(desc_rejects)
{
	const struct bad_desc *b = &bad_descs[_i];
	struct gtbs_grid_desc d = ok_desc();
	struct gtbs_dev_config cfg;
	struct h_dev *h;
	const char *why = NULL;
	int err = 0;

	gtbs_config_default(&cfg);
	ck_assert_int_eq(gtbs_grid_desc_check(&cfg, &d, &why), 0);
	b->mutate(&d);
	ck_assert_msg(gtbs_grid_desc_check(&cfg, &d, &why) == b->err,
		      "%s: not rejected with %d", b->name, b->err);
	ck_assert_msg(why && *why, "%s: no reason", b->name);
	/* gtbs_grid_init() refuses it the same way */
	h = h_new_sms(1);
	ck_assert_ptr_null(h_grid_new(h, &d, &err, &why));
	ck_assert_int_eq(err, b->err);
	ck_assert_ptr_nonnull(why);
	h_free(h);
}
END_TEST

/* The inclusive limits are accepted, with no reason given. */
#define OK_DESC(n, stmt) \
	static void ok_desc_##n(struct gtbs_grid_desc *d) { stmt; }
OK_DESC(plain, (void)d)
OK_DESC(max_blocks, d->nr_blocks = 1U << 20)
OK_DESC(one_block, d->nr_blocks = 1)
OK_DESC(full_sm_regs, d->threads_per_block = 1024; d->regs_per_thread = 32)
OK_DESC(one_thread, d->threads_per_block = 1)
OK_DESC(max_regs, d->regs_per_thread = 63)
OK_DESC(no_regs, d->regs_per_thread = 0)
OK_DESC(all_shmem, d->shmem_per_block = 48 * 1024)
OK_DESC(max_rsd, d->block_rsd_ppm = GTBS_PPM)
OK_DESC(one_cycle, d->block_cycles = 1)
OK_DESC(max_cycles, d->block_cycles = GTBS_MAX_BLOCK_CYCLES)
OK_DESC(empty_label, d->label[0] = '\0')
OK_DESC(printable_label, snprintf(d->label, sizeof(d->label), " ~!AZaz09{}"))
OK_DESC(full_label, memset(d->label, 'x', GTBS_LABEL_LEN - 1);
	d->label[GTBS_LABEL_LEN - 1] = '\0')
OK_DESC(durations, d->nr_blocks = 2; d->block_cycles = 0;
	d->durations = dur_limits)

static void (*const ok_descs[])(struct gtbs_grid_desc *d) = {
	ok_desc_plain, ok_desc_max_blocks, ok_desc_one_block,
	ok_desc_full_sm_regs, ok_desc_one_thread, ok_desc_max_regs,
	ok_desc_no_regs, ok_desc_all_shmem, ok_desc_max_rsd, ok_desc_one_cycle,
	ok_desc_max_cycles, ok_desc_empty_label, ok_desc_printable_label,
	ok_desc_full_label, ok_desc_durations,
};

START_TEST(desc_accepts_limits)
{
	struct gtbs_grid_desc d = ok_desc();
	struct gtbs_dev_config cfg;
	const char *why = "unset";

	gtbs_config_default(&cfg);
	ok_descs[_i](&d);
	ck_assert_msg(gtbs_grid_desc_check(&cfg, &d, &why) == 0,
		      "case %d rejected: %s", _i, why);
	ck_assert_ptr_null(why);
}
END_TEST

/* The limits follow the device configuration. */
START_TEST(desc_limits_follow_config)
{
	struct gtbs_grid_desc d = ok_desc();
	struct gtbs_dev_config cfg;
	const char *why;

	gtbs_config_default(&cfg);
	cfg.max_blocks_per_grid = 5;
	ck_assert_int_eq(gtbs_grid_desc_check(&cfg, &d, &why), -E2BIG);
	cfg.max_blocks_per_grid = 10;
	ck_assert_int_eq(gtbs_grid_desc_check(&cfg, &d, &why), 0);
	cfg.max_regs_per_thread = 15;
	ck_assert_int_eq(gtbs_grid_desc_check(&cfg, &d, &why), -EINVAL);
	cfg.max_regs_per_thread = 16;
	cfg.max_threads_per_block = 32;
	ck_assert_int_eq(gtbs_grid_desc_check(&cfg, &d, &why), -EINVAL);
	cfg.max_threads_per_block = 64;
	cfg.max_shmem_per_sm = 0;
	ck_assert_int_eq(gtbs_grid_desc_check(&cfg, &d, &why), 0);
	d.shmem_per_block = 1;
	ck_assert_int_eq(gtbs_grid_desc_check(&cfg, &d, &why), -EINVAL);
}
END_TEST

/* --- policies ------------------------------------------------------------ */

START_TEST(policy_find_by_name)
{
	char buf[64];

	ck_assert_ptr_eq(gtbs_policy_find("fifo"), &gtbs_policy_fifo);
	/* sysfs writes end with a newline: one is ignored */
	ck_assert_ptr_eq(gtbs_policy_find("fifo\n"), &gtbs_policy_fifo);
	ck_assert_ptr_null(gtbs_policy_find("fifo\n\n"));
	ck_assert_ptr_null(gtbs_policy_find("fifo "));
	ck_assert_ptr_null(gtbs_policy_find("fif"));
	ck_assert_ptr_null(gtbs_policy_find("fifoo"));
	ck_assert_ptr_null(gtbs_policy_find("nosuchpolicy"));
	ck_assert_ptr_null(gtbs_policy_find(""));
	ck_assert_ptr_null(gtbs_policy_find("\n"));
	/* the name is compared, not the pointer */
	snprintf(buf, sizeof(buf), "%s\n", gtbs_policy_fifo.name);
	ck_assert_ptr_eq(gtbs_policy_find(buf), &gtbs_policy_fifo);
}
END_TEST

START_TEST(policy_registry_well_formed)
{
	const struct gtbs_policy_ops *p, *q;
	unsigned int i, j, n = 0;
	bool have_fifo = false;

	for (i = 0; (p = gtbs_policy_at(i)); i++) {
		ck_assert_msg(i < 64, "registry does not end");
		ck_assert_ptr_nonnull(p->name);
		ck_assert_msg(*p->name, "policy %u has an empty name", i);
		ck_assert_msg(!strchr(p->name, '\n') && !strchr(p->name, ' '),
			      "policy name '%s' has whitespace", p->name);
		ck_assert_msg(p->pick_grid, "%s has no pick_grid",
			      p->name);
		ck_assert_ptr_eq(gtbs_policy_find(p->name), p);
		for (j = 0; j < i; j++) {
			q = gtbs_policy_at(j);
			ck_assert_msg(strcmp(p->name, q->name),
				      "policies %u and %u are both '%s'", j, i,
				      p->name);
		}
		have_fifo |= p == &gtbs_policy_fifo;
		n++;
	}
	ck_assert_uint_ge(n, 1);
	ck_assert(have_fifo);
	ck_assert_ptr_null(gtbs_policy_at(n));
	ck_assert_ptr_null(gtbs_policy_at(n + 1));
	ck_assert_ptr_null(gtbs_policy_at(~0U));
}
END_TEST

/* Every registered policy runs a mixed workload to completion safely. */
START_TEST(policy_each_runs_workload)
{
	const struct gtbs_policy_ops *p;
	unsigned int i, k;

	for (i = 0; (p = gtbs_policy_at(i)); i++) {
		struct gtbs_dev_config cfg;
		struct h_dev *h;
		struct gtbs_grid *g[H_NR_ERC];

		gtbs_config_default(&cfg);
		cfg.nr_sms = 4;
		h = h_new(&cfg, p);
		h->check_every_event = true;
		for (k = 0; k < H_NR_ERC; k++) {
			struct gtbs_grid_desc d = h_erc_desc(&h_erc_kernels[k],
							     k + 1);

			d.nr_blocks = 50;
			d.block_cycles = 2000;
			d.startup_blocks = min(d.startup_blocks, d.nr_blocks);
			g[k] = h_submit(h, &d, 13 * k);
		}
		h_drain(h);
		ck_assert_msg(h->violations == 0, "%s: %s", p->name,
			      h->violation);
		for (k = 0; k < H_NR_ERC; k++)
			ck_assert_msg(g[k]->state == GTBS_GRID_DONE,
				      "%s: grid %u not done", p->name, k);
		ck_assert_uint_eq(h_count(h, H_EV_BLOCK_END, U64_MAX), 400);
		assert_sms_empty(h);
		h_free(h);
	}
}
END_TEST

/* Policy hooks: arrive and end once per grid, also for a cancel. */
static unsigned int hook_arrive, hook_end;
static u64 hook_end_ids;

static void count_arrive(struct gtbs_dev *dev, struct gtbs_grid *grid)
{
	ck_assert_int_eq(grid->state, GTBS_GRID_QUEUED);
	hook_arrive++;
}

static void count_end(struct gtbs_dev *dev, struct gtbs_grid *grid)
{
	ck_assert(grid->state == GTBS_GRID_DONE ||
		  grid->state == GTBS_GRID_CANCELLED);
	/* already off the device's lists */
	ck_assert(list_empty(&grid->node));
	hook_end++;
	hook_end_ids |= 1ULL << grid->id;
}

static struct gtbs_grid *fifo_pick(struct gtbs_dev *dev, struct gtbs_sm *sm,
				  u32 *reason)
{
	return gtbs_policy_fifo.pick_grid(dev, sm, reason);
}

static const struct gtbs_policy_ops counting_policy = {
	.name = "counting-test",
	.pick_grid = fifo_pick,
	.grid_arrive = count_arrive,
	.grid_end = count_end,
};

START_TEST(policy_hooks_called_once)
{
	struct gtbs_dev_config cfg;
	struct h_dev *h;
	struct gtbs_grid_desc d = h_desc(30, 64, 16, 0, 500);
	struct gtbs_grid *g[4];
	unsigned int i;

	hook_arrive = 0;
	hook_end = 0;
	hook_end_ids = 0;
	gtbs_config_default(&cfg);
	cfg.nr_sms = 2;
	h = h_new(&cfg, &counting_policy);
	for (i = 0; i < 4; i++)
		g[i] = h_submit(h, &d, 10 * i);
	ck_assert_uint_eq(hook_arrive, 4);
	ck_assert_uint_eq(hook_end, 0);
	gtbs_grid_cancel(&h->dev, g[2], 30);
	ck_assert_uint_eq(hook_end, 1);
	h_drain(h);
	ck_assert_uint_eq(hook_arrive, 4);
	ck_assert_uint_eq(hook_end, 4);
	ck_assert_uint_eq(hook_end_ids, 0xf);
	h_free(h);
}
END_TEST

/* pick_grid returning NULL issues nothing. */
static struct gtbs_grid *null_pick(struct gtbs_dev *dev, struct gtbs_sm *sm,
				  u32 *reason)
{
	return NULL;
}

static const struct gtbs_policy_ops null_policy = {
	.name = "null-test",
	.pick_grid = null_pick,
};

START_TEST(policy_null_pick_issues_nothing)
{
	struct gtbs_dev_config cfg;
	struct h_dev *h;
	struct gtbs_grid_desc d = h_desc(4, 64, 16, 0, 500);
	struct gtbs_grid *g;

	gtbs_config_default(&cfg);
	cfg.nr_sms = 2;
	h = h_new(&cfg, &null_policy);
	g = h_submit(h, &d, 0);
	gtbs_dev_run_until(&h->dev, 100000);
	ck_assert_int_eq(g->state, GTBS_GRID_QUEUED);
	ck_assert_uint_eq(h->nr_ev, 0);
	ck_assert_uint_eq(gtbs_dev_next_event(&h->dev), U64_MAX);
	ck_assert_uint_eq(h->dev.blocks_dispatched, 0);
	gtbs_grid_cancel(&h->dev, g, 100000);
	ck_assert(gtbs_dev_idle(&h->dev));
	h_free(h);
}
END_TEST

/* A picked grid whose block does not fit: the SM issues nothing. */
static struct gtbs_grid *newest_pick(struct gtbs_dev *dev, struct gtbs_sm *sm,
				  u32 *reason)
{
	struct gtbs_grid *g, *last = NULL;

	list_for_each_entry(g, &dev->pending, pending_node)
		last = g;
	return last;
}

static const struct gtbs_policy_ops newest_policy = {
	.name = "newest-test",
	.pick_grid = newest_pick,
};

START_TEST(policy_pick_that_does_not_fit)
{
	struct gtbs_dev_config cfg;
	struct h_dev *h;
	/* a: small, b: 40 KiB shared memory, R = 1 */
	struct gtbs_grid_desc a = h_desc(3, 64, 16, 0, 500);
	struct gtbs_grid_desc b = h_desc(2, 64, 16, 40 * 1024, 1000);
	struct gtbs_grid *ga, *gb;

	gtbs_config_default(&cfg);
	cfg.nr_sms = 1;
	h = h_new(&cfg, &newest_policy);
	h->check_every_event = true;
	ga = h_submit(h, &a, 0);
	ck_assert_uint_eq(ga->next_block, 3);	/* all of a, newest first */
	gb = h_submit(h, &b, 0);
	ck_assert_uint_eq(gb->next_block, 1);
	/* b1 does not fit beside b0; the SM stops issuing */
	ck_assert_uint_eq(h->sms[0]->nr_resident, 4);
	h_drain(h);
	ck_assert_int_eq(gb->state, GTBS_GRID_DONE);
	ck_assert_int_eq(ga->state, GTBS_GRID_DONE);
	ck_assert_msg(h->violations == 0, "%s", h->violation);
	h_free(h);
}
END_TEST

/* --- properties over random workloads ------------------------------------ */

struct rand_work {
	u32 nr_grids;
	struct gtbs_grid_desc desc[12];
	u64 dur[12][60];
	u64 arrive[12];
	u64 cancel[12];		/* U64_MAX: never */
};

static void rand_work_gen(u64 seed, struct rand_work *w, bool cancels,
			  struct gtbs_dev_config *cfg)
{
	u64 s = seed * 0x9e3779b97f4a7c15ULL + 1;
	u64 t = 0;
	u32 i, b;

	memset(w, 0, sizeof(*w));
	gtbs_config_default(cfg);
	cfg->nr_sms = h_rand_range(&s, 1, 6);
	if (h_rand_range(&s, 0, 3) == 0) {
		/* a small odd device */
		cfg->max_blocks_per_sm = h_rand_range(&s, 1, 12);
		cfg->max_warps_per_sm = h_rand_range(&s, 32, 64);
		cfg->load_knee_warps = h_rand_range(&s, 1, 32);
	}
	w->nr_grids = h_rand_range(&s, 1, 12);
	for (i = 0; i < w->nr_grids; i++) {
		struct gtbs_grid_desc *d = &w->desc[i];
		struct gtbs_occupancy occ;

		do {
			u32 blocks = h_rand_range(&s, 1, 60);
			u32 threads = h_rand_range(&s, 1, 1024);
			u32 regs = h_rand_range(&s, 0, 63);
			u32 shmem = h_rand_range(&s, 0, 1) ?
				    h_rand_range(&s, 0, 48 * 1024) : 0;
			u64 cycles = h_rand_range(&s, 1, 20000);

			*d = h_desc(blocks, threads, regs, shmem, cycles);
		} while (gtbs_occupancy_calc(cfg, d, &occ));
		d->block_rsd_ppm = h_rand_range(&s, 0, 1) ?
				   h_rand_range(&s, 0, GTBS_PPM) : 0;
		d->seed = h_rand(&s);
		snprintf(d->label, sizeof(d->label), "rand%u", i);
		if (h_rand_range(&s, 0, 3) == 0) {
			for (b = 0; b < d->nr_blocks; b++)
				w->dur[i][b] = h_rand_range(&s, 1, 30000);
			d->durations = w->dur[i];
			d->block_cycles = 0;
		}
		t += h_rand_range(&s, 0, 1) ? 0 : h_rand_range(&s, 0, 20000);
		w->arrive[i] = t;
		w->cancel[i] = U64_MAX;
		if (cancels && h_rand_range(&s, 0, 2) == 0)
			w->cancel[i] = t + h_rand_range(&s, 0, 60000);
	}
}

/*
 * Submit (and cancel) in cycle order, running the device to each action's
 * cycle first; returns the device, drained.  With @slice_seed, the device
 * is also run in random slices between actions and at the end, instead of
 * event by event.
 */
static struct h_dev *rand_work_run_sliced(const struct rand_work *w,
					  const struct gtbs_dev_config *cfg,
					  struct gtbs_grid **g, u64 slice_seed)
{
	struct h_dev *h = h_new(cfg, NULL);
	bool cancelled[12] = { false };
	u64 now = 0, ss = slice_seed;
	u32 i, done = 0;

	h->check_every_event = true;
	for (;;) {
		u64 next = U64_MAX;
		u32 which = U32_MAX;
		bool is_cancel = false;

		/* earliest pending action: submissions first on ties */
		if (done < w->nr_grids) {
			next = w->arrive[done];
			which = done;
		}
		for (i = 0; i < done; i++) {
			if (!cancelled[i] && w->cancel[i] < next) {
				next = w->cancel[i];
				which = i;
				is_cancel = true;
			}
		}
		if (which == U32_MAX)
			break;
		while (slice_seed && now < next) {
			now = min(next, now + h_rand_range(&ss, 1, 3000));
			gtbs_dev_run_until(&h->dev, now);
		}
		if (is_cancel) {
			gtbs_dev_run_until(&h->dev, next);
			gtbs_grid_cancel(&h->dev, g[which], next);
			gtbs_dev_run_until(&h->dev, next);
			cancelled[which] = true;
		} else {
			g[which] = h_submit(h, &w->desc[which], next);
			done++;
		}
	}
	if (!slice_seed) {
		h_drain(h);
		return h;
	}
	while (gtbs_dev_next_event(&h->dev) != U64_MAX) {
		now += h_rand_range(&ss, 1, 3000);
		gtbs_dev_run_until(&h->dev, now);
	}
	return h;
}

static struct h_dev *rand_work_run(const struct rand_work *w,
				   const struct gtbs_dev_config *cfg,
				   struct gtbs_grid **g)
{
	return rand_work_run_sliced(w, cfg, g, 0);
}

/*
 * Property: random small workloads run every block exactly once, on one
 * SM, never before their grid arrived; per-SM resources stay within the
 * configuration at every event; every grid completes; FIFO issues a grid
 * only after every block of every older grid; the SMs end empty.
 */
START_TEST(prop_random_workloads)
{
	struct gtbs_dev_config cfg;
	struct rand_work w;
	struct gtbs_grid *g[12];
	struct h_dev *h;
	u64 total = 0, busy = 0;
	u32 i, b;

	rand_work_gen(1000 + _i, &w, false, &cfg);
	h = rand_work_run(&w, &cfg, g);
	ck_assert_msg(h->violations == 0, "seed %d: %s", _i, h->violation);
	ck_assert_uint_eq(h->nonmonotonic, 0);
	for (i = 0; i < w.nr_grids; i++) {
		const struct gtbs_grid *gr = g[i];
		long prev = -1;

		ck_assert_int_eq(gr->state, GTBS_GRID_DONE);
		ck_assert_uint_eq(gr->blocks_done, gr->desc.nr_blocks);
		ck_assert_uint_ge(gr->start_cycle, gr->submit_cycle);
		ck_assert_uint_ge(gr->end_cycle, gr->start_cycle);
		ck_assert_uint_eq(h_count(h, H_EV_GRID_START, gr->id), 1);
		ck_assert_uint_eq(h_count(h, H_EV_GRID_DONE, gr->id), 1);
		ck_assert_uint_eq(h_count(h, H_EV_BLOCK_START, gr->id),
				  gr->desc.nr_blocks);
		ck_assert_uint_eq(h_count(h, H_EV_BLOCK_END, gr->id),
				  gr->desc.nr_blocks);
		for (b = 0; b < gr->desc.nr_blocks; b++) {
			long s = h_find(h, H_EV_BLOCK_START, gr->id, b);
			long e = h_find(h, H_EV_BLOCK_END, gr->id, b);

			ck_assert_int_ge(s, 0);
			ck_assert_int_gt(e, s);
			/* blocks issue in index order */
			ck_assert_int_gt(s, prev);
			prev = s;
			ck_assert_uint_eq(h->ev[s].sm, h->ev[e].sm);
			ck_assert_uint_eq(h->ev[e].start, h->ev[s].start);
			ck_assert_uint_ge(h->ev[s].start, gr->submit_cycle);
			ck_assert_uint_gt(h->ev[e].end, h->ev[e].start);
			ck_assert_uint_le(h->ev[e].end, gr->end_cycle);
		}
		/* FIFO: every block of older grids started before */
		if (i)
			ck_assert_int_gt(first_start(h, gr->id),
					 last_start(h, g[i - 1]->id));
		total += gr->desc.nr_blocks;
	}
	ck_assert_uint_eq(h->dev.blocks_dispatched, total);
	ck_assert_uint_eq(h->dev.grids_completed, w.nr_grids);
	for (i = 0; i < cfg.nr_sms; i++) {
		busy += h->sms[i]->blocks_run;
		ck_assert_uint_le(h->sms[i]->busy_cycles, h->last_cycle);
	}
	ck_assert_uint_eq(busy, total);
	assert_sms_empty(h);
	ck_assert(gtbs_dev_idle(&h->dev));
	h_free(h);
}
END_TEST

/* Property: with random cancellations, resources still all come back. */
START_TEST(prop_random_cancels)
{
	struct gtbs_dev_config cfg;
	struct rand_work w;
	struct gtbs_grid *g[12];
	struct h_dev *h;
	u32 i, nr_cancelled = 0;
	size_t j;

	rand_work_gen(5000 + _i, &w, true, &cfg);
	h = rand_work_run(&w, &cfg, g);
	ck_assert_msg(h->violations == 0, "seed %d: %s", _i, h->violation);
	for (i = 0; i < w.nr_grids; i++) {
		const struct gtbs_grid *gr = g[i];

		if (gr->state == GTBS_GRID_CANCELLED) {
			nr_cancelled++;
			ck_assert_uint_ne(w.cancel[i], U64_MAX);
			ck_assert_uint_eq(gr->end_cycle, w.cancel[i]);
			ck_assert_uint_eq(gr->resident, 0);
			ck_assert_uint_eq(h_count(h, H_EV_GRID_DONE, gr->id), 0);
			/* nothing of it starts after the cancel */
			for (j = 0; j < h->nr_ev; j++)
				if (h->ev[j].grid_id == gr->id &&
				    h->ev[j].kind == H_EV_BLOCK_START)
					ck_assert_uint_le(h->ev[j].start,
							  w.cancel[i]);
			ck_assert_uint_le(h_count(h, H_EV_BLOCK_END, gr->id),
					  gr->next_block);
		} else {
			/* a cancel after completion is a no-op */
			ck_assert_int_eq(gr->state, GTBS_GRID_DONE);
			ck_assert_uint_eq(h_count(h, H_EV_BLOCK_END, gr->id),
					  gr->desc.nr_blocks);
			if (w.cancel[i] != U64_MAX)
				ck_assert_uint_le(gr->end_cycle, w.cancel[i]);
		}
	}
	ck_assert_uint_eq(h->dev.grids_completed + nr_cancelled, w.nr_grids);
	ck_assert_uint_eq(h->dev.nr_grids, 0);
	assert_sms_empty(h);
	ck_assert(gtbs_dev_idle(&h->dev));
	h_free(h);
}
END_TEST

/* Property: identical seeds give byte-identical event logs. */
START_TEST(prop_deterministic)
{
	struct gtbs_dev_config cfg, cfg2;
	struct rand_work w, w2;
	struct gtbs_grid *g[12], *g2[12];
	struct h_dev *a, *b, *c;

	rand_work_gen(9000 + _i, &w, true, &cfg);
	a = rand_work_run(&w, &cfg, g);
	b = rand_work_run(&w, &cfg, g2);
	ck_assert_uint_gt(a->nr_ev, 0);
	ck_assert_uint_eq(a->nr_ev, b->nr_ev);
	ck_assert_int_eq(memcmp(a->ev, b->ev, a->nr_ev * sizeof(*a->ev)), 0);
	ck_assert_uint_eq(a->nr_kicks, b->nr_kicks);
	/* and the log depends on the workload: another seed differs */
	rand_work_gen(9100 + _i, &w2, true, &cfg2);
	c = rand_work_run(&w2, &cfg2, g2);
	ck_assert(a->nr_ev != c->nr_ev ||
		  memcmp(a->ev, c->ev, a->nr_ev * sizeof(*a->ev)));
	h_free(a);
	h_free(b);
	h_free(c);
}
END_TEST

/*
 * Property: the schedule does not depend on how the caller slices time
 * (gtbs_dev_run_until() doc): random slices give the drained log.
 */
START_TEST(prop_slicing_invariant)
{
	struct gtbs_dev_config cfg;
	struct rand_work w;
	struct gtbs_grid *g[12], *g2[12];
	struct h_dev *a, *b;

	rand_work_gen(7000 + _i, &w, true, &cfg);
	a = rand_work_run(&w, &cfg, g);
	b = rand_work_run_sliced(&w, &cfg, g2, 31 + _i);
	ck_assert_msg(b->violations == 0, "%s", b->violation);
	ck_assert_uint_eq(a->nr_ev, b->nr_ev);
	ck_assert_msg(!memcmp(a->ev, b->ev, a->nr_ev * sizeof(*a->ev)),
		      "seed %d: sliced run differs from the drained run", _i);
	h_free(a);
	h_free(b);
}
END_TEST

/* --- regressions (suite regressions) ------------------------------------ */

/*
 * Each case below is named after a bug that was found ("kb_", known bug)
 * and describes it as it was; the bug is fixed and the case asserts the
 * fixed behaviour, so that it cannot come back.
 */

static struct gtbs_dev *idle_dev_new(void)
{
	static struct gtbs_dev dev;
	static struct gtbs_sm *sm;
	struct gtbs_dev_config cfg;

	gtbs_config_default(&cfg);
	cfg.nr_sms = 1;
	sm = calloc(1, gtbs_sm_size(&cfg));
	ck_assert_ptr_nonnull(sm);
	gtbs_sm_init(&cfg, sm, 0);
	gtbs_dev_init(&dev, &cfg, &gtbs_policy_fifo, &sm);
	dev.pair_alloc = &gtbs_pair_alloc_libc;
	return &dev;
}

static void idle_run_until_max(void *arg)
{
	struct gtbs_dev *dev = idle_dev_new();

	/* "run to the end": next event of an idle device is U64_MAX */
	gtbs_dev_run_until(dev, gtbs_dev_next_event(dev));
	gtbs_dev_run_until(dev, U64_MAX);
	free(dev->sms[0]);
}

/* Running an idle device to U64_MAX returns (a hang fails the test). */
START_TEST(run_until_u64_max_returns)
{
	ck_assert_msg(h_returns_within(idle_run_until_max, NULL, 3000),
		      "gtbs_dev_run_until(dev, U64_MAX) did not return in 3 s");
}
END_TEST

static void idle_sm_advance_max(void *arg)
{
	struct gtbs_dev *dev = idle_dev_new();

	gtbs_sm_advance(dev, dev->sms[0], U64_MAX);
	free(dev->sms[0]);
}

/*
 * Known bug: gtbs_sm_advance(dev, sm, U64_MAX) never returns.  With no
 * block resident gtbs_sm_next_event() is U64_MAX, which is not > now, so
 * its loop spins.  (gtbs_dev_run_until() no longer calls it with @until,
 * so only direct callers of this exported function are affected.)
 */
START_TEST(kb_sm_advance_u64_max_returns)
{
	ck_assert_msg(h_returns_within(idle_sm_advance_max, NULL, 3000),
		      "gtbs_sm_advance(dev, idle sm, U64_MAX) did not return in 3 s");
}
END_TEST

/*
 * Known bug (precision, direct callers of gtbs_sm_advance() only):
 * advancing an SM to a cycle inside a block's life floors the SM's
 * progress clock there, so the block ends a cycle later than if the SM had
 * not been looked at: a 14529-cycle AES-d wave ends at 14530 after
 * gtbs_sm_advance(dev, sm, 10).  gtbs_dev_run_until() syncs only at
 * events and kicks, so its schedule is unaffected (prop_slicing_invariant).
 */
START_TEST(kb_sm_advance_split_keeps_end)
{
	struct h_dev *h = h_new_sms(1);
	struct gtbs_grid_desc d = h_desc(6, 256, 20, 4096, 14529);
	struct gtbs_grid *g = h_submit(h, &d, 0);

	ck_assert_uint_eq(gtbs_dev_next_event(&h->dev), 14529);
	gtbs_sm_advance(&h->dev, h->sms[0], 10);
	ck_assert_msg(gtbs_dev_next_event(&h->dev) == 14529,
		      "looking at the SM at cycle 10 moved its completion to %llu",
		      (unsigned long long)gtbs_dev_next_event(&h->dev));
	h_drain(h);
	ck_assert_uint_eq(g->end_cycle, 14529);
	h_free(h);
}
END_TEST

/*
 * Known bug: an SM that FIFO's head-of-line blocking kept idle is not
 * kicked when the head grid's last block is issued elsewhere, so the next
 * grid's blocks wait for that SM's own next completion.  2 SMs of 4 warps
 * and 2 slots: x (3 warps, very long) on SM 0; a (3 blocks of 2 warps)
 * cannot use SM 0; b (2 blocks of 1 warp).  At 100 SM 1 issues a's last
 * block and b's block 0; b's block 1 fits on SM 0 at once (policy_fifo.c:
 * "a later grid runs concurrently ... on resources the older grid cannot
 * use once all of its blocks are out"), but SM 0 is not re-evaluated until
 * its own completion at 1000000, so b's block 1 waits for SM 1 until 192.
 */
START_TEST(kb_fifo_next_grid_issues_when_head_fully_issued)
{
	struct gtbs_dev_config cfg;
	struct gtbs_grid_desc x = h_desc(1, 96, 0, 0, 1000000);
	struct gtbs_grid_desc a = h_desc(3, 64, 0, 0, 100);
	struct gtbs_grid_desc b = h_desc(2, 32, 0, 0, 100);
	struct h_dev *h;
	struct gtbs_grid *gb;
	long i;

	gtbs_config_default(&cfg);
	cfg.nr_sms = 2;
	cfg.max_warps_per_sm = 4;
	cfg.max_threads_per_sm = 128;
	cfg.max_blocks_per_sm = 2;
	h = h_new(&cfg, NULL);
	h_submit(h, &x, 0);
	h_submit(h, &a, 0);
	gb = h_submit(h, &b, 0);
	h_drain(h);
	i = h_find(h, H_EV_BLOCK_START, gb->id, 1);
	ck_assert_int_ge(i, 0);
	ck_assert_msg(h->ev[i].start == 100,
		      "b's block 1 started at %llu on SM %u, not at 100 on SM 0 (room since 0)",
		      (unsigned long long)h->ev[i].start, h->ev[i].sm);
	h_free(h);
}
END_TEST

/*
 * Known bug (core API contract): a grid submitted at cycle 100 starts a
 * block at cycle 50 if the device was not run to 100 first: the next
 * gtbs_dev_run_until() processes the completion due at 50 at its own
 * cycle and lets the SM issue from the new grid there, before it existed.
 * kmod complies since 4a439c2 (gputbs_dev_sync() before the submit), but
 * gtbs_grid_submit()'s kernel-doc states no such rule and the core does
 * not guard it (e.g. by not issuing from a grid whose submit_cycle is
 * after the SM's clock).
 */
START_TEST(kb_no_block_before_submit)
{
	struct h_dev *h = h_new_sms(1);
	struct gtbs_grid_desc p = h_desc(8, 64, 16, 0, 50);
	struct gtbs_grid_desc q = h_desc(1, 64, 16, 0, 50);
	struct gtbs_grid *gq;

	h_submit(h, &p, 0);		/* SM 0 full until cycle 50 */
	gq = h_grid_new(h, &q, NULL, NULL);
	gtbs_grid_submit(&h->dev, gq, 100);	/* kthread not yet at 100 */
	gtbs_dev_run_until(&h->dev, 110);	/* the late kthread */
	ck_assert_int_ne(gq->state, GTBS_GRID_QUEUED);
	ck_assert_msg(gq->start_cycle >= gq->submit_cycle,
		      "grid submitted at %llu started at %llu",
		      (unsigned long long)gq->submit_cycle,
		      (unsigned long long)gq->start_cycle);
	h_free(h);
}
END_TEST

/*
 * Known bug, same contract: back-to-back submissions at 500 and 700
 * without running the device in between: the kick at 500 lets the SM
 * issue from both grids, so the grid submitted at 700 starts at 500.
 */
START_TEST(kb_back_to_back_submit)
{
	struct h_dev *h = h_new_sms(1);
	struct gtbs_grid_desc q = h_desc(1, 64, 16, 0, 50);
	struct gtbs_grid *g1, *g2;

	g1 = h_grid_new(h, &q, NULL, NULL);
	g2 = h_grid_new(h, &q, NULL, NULL);
	gtbs_grid_submit(&h->dev, g1, 500);
	gtbs_grid_submit(&h->dev, g2, 700);
	gtbs_dev_run_until(&h->dev, 710);
	ck_assert_uint_eq(g1->start_cycle, 500);
	ck_assert_msg(g2->start_cycle >= 700,
		      "grid submitted at 700 started at %llu",
		      (unsigned long long)g2->start_cycle);
	h_free(h);
}
END_TEST

/*
 * Known bug (core API contract): gtbs_grid_cancel() syncs the SM's clock
 * to @now without retiring the completions due before @now, so a
 * co-resident block of another grid that is due at cycle 25 is reported
 * (and holds its resources) until the cancel's cycle 1000 if the device
 * was not run to 1000 first.  kmod's release path complies since 4a439c2;
 * the kernel-doc does not say it must.
 */
START_TEST(kb_cancel_keeps_due_completions_on_time)
{
	struct h_dev *h = h_new_sms(1);
	struct gtbs_grid_desc c1 = h_desc(1, 64, 16, 0, 50);
	struct gtbs_grid_desc c2 = h_desc(1, 64, 16, 0, 100000);
	struct gtbs_grid *g1, *g2;

	g1 = h_submit(h, &c1, 0);
	g2 = h_submit(h, &c2, 0);
	/* c1's block beside c2's: L = 4, 50 * 12 / 24 = 25 cycles */
	ck_assert_uint_eq(gtbs_dev_next_event(&h->dev), 25);
	gtbs_grid_cancel(&h->dev, g2, 1000);
	gtbs_dev_run_until(&h->dev, 1010);
	ck_assert_int_eq(g1->state, GTBS_GRID_DONE);
	ck_assert_msg(g1->end_cycle == 25, "block due at 25 ended at %llu",
		      (unsigned long long)g1->end_cycle);
	h_free(h);
}
END_TEST

/* ---- stream order (gtbs_grid_submit_after()) ------------------------- */

/*
 * The timelines below are worked by hand on one SM of the paper's device:
 * a grid of 8 blocks of 64 threads fills its 8 block slots at R = 8, so
 * alone it runs 1000 cycles from its start (every block at full
 * residency lasts exactly t).
 */
#define H_FULL_WAVE	h_desc(8, 64, 16, 0, 1000)

/* A waits 0..1000; B waits for it and arrives 250 cycles after its end. */
START_TEST(stream_chain_of_two)
{
	struct h_dev *h = h_new_sms(1);
	struct gtbs_grid_desc d = H_FULL_WAVE;
	struct gtbs_grid *a, *b;

	a = h_submit(h, &d, 0);
	b = h_grid_new(h, &d, NULL, NULL);
	gtbs_grid_submit_after(&h->dev, b, 0, a, 250);
	ck_assert_int_eq(b->state, GTBS_GRID_WAITING);
	ck_assert_ptr_eq(b->after, a);
	/* a waiting grid is neither queued nor an arrival */
	ck_assert_uint_eq(h->dev.nr_grids, 1);
	ck_assert_uint_eq(gtbs_dev_next_arrival(&h->dev), U64_MAX);
	gtbs_dev_run_until(&h->dev, 999);
	ck_assert_int_eq(b->state, GTBS_GRID_WAITING);
	gtbs_dev_run_until(&h->dev, 1000);
	ck_assert_int_eq(a->state, GTBS_GRID_DONE);
	ck_assert_uint_eq(a->end_cycle, 1000);
	/* released from the event that ended a, for 1000 + 250 */
	ck_assert_int_eq(b->state, GTBS_GRID_ARRIVING);
	ck_assert_ptr_null(b->after);
	ck_assert_uint_eq(gtbs_dev_next_arrival(&h->dev), 1250);
	h_drain(h);
	ck_assert_int_eq(b->state, GTBS_GRID_DONE);
	ck_assert_uint_eq(b->submit_cycle, 1250);
	ck_assert_uint_eq(b->start_cycle, 1250);
	ck_assert_uint_eq(b->end_cycle, 2250);
	h_free(h);
}
END_TEST

/* A 0..1000, B after A (gap 0) 1000..2000, C after B (gap 7) 2007..3007. */
START_TEST(stream_chain_of_three)
{
	struct h_dev *h = h_new_sms(1);
	struct gtbs_grid_desc d = H_FULL_WAVE;
	struct gtbs_grid *a, *b, *c;

	a = h_submit(h, &d, 0);
	b = h_grid_new(h, &d, NULL, NULL);
	c = h_grid_new(h, &d, NULL, NULL);
	gtbs_grid_submit_after(&h->dev, b, 0, a, 0);
	/* C's predecessor is itself waiting */
	gtbs_grid_submit_after(&h->dev, c, 0, b, 7);
	ck_assert_int_eq(c->state, GTBS_GRID_WAITING);
	gtbs_dev_run_until(&h->dev, 1000);
	ck_assert_int_eq(b->state, GTBS_GRID_RUNNING);
	ck_assert_int_eq(c->state, GTBS_GRID_WAITING);
	h_drain(h);
	ck_assert_uint_eq(a->end_cycle, 1000);
	ck_assert_uint_eq(b->submit_cycle, 1000);
	ck_assert_uint_eq(b->start_cycle, 1000);
	ck_assert_uint_eq(b->end_cycle, 2000);
	ck_assert_uint_eq(c->submit_cycle, 2007);
	ck_assert_uint_eq(c->start_cycle, 2007);
	ck_assert_uint_eq(c->end_cycle, 3007);
	ck_assert_uint_eq(h->nonmonotonic, 0);
	h_free(h);
}
END_TEST

/*
 * Two dependents of A (B then C, gap 0) and D submitted after them for
 * cycle 1000 with gtbs_grid_submit_at(): D is on the arrivals since its
 * submission, B and C only since A ended at 1000, so D arrives first,
 * then B, then C (FIFO: D 1000..2000, B 2000..3000, C 3000..4000).
 */
START_TEST(stream_two_dependents)
{
	struct h_dev *h = h_new_sms(1);
	struct gtbs_grid_desc d = H_FULL_WAVE;
	struct gtbs_grid *a, *b, *c, *e;

	a = h_submit(h, &d, 0);
	b = h_grid_new(h, &d, NULL, NULL);
	c = h_grid_new(h, &d, NULL, NULL);
	e = h_grid_new(h, &d, NULL, NULL);
	gtbs_grid_submit_after(&h->dev, b, 0, a, 0);
	gtbs_grid_submit_after(&h->dev, c, 0, a, 0);
	gtbs_grid_submit_at(&h->dev, e, 0, 1000);
	h_drain(h);
	ck_assert_uint_eq(b->submit_cycle, 1000);
	ck_assert_uint_eq(c->submit_cycle, 1000);
	ck_assert_uint_eq(e->submit_cycle, 1000);
	ck_assert_uint_lt(e->id, b->id);
	ck_assert_uint_lt(b->id, c->id);
	ck_assert_uint_eq(e->start_cycle, 1000);
	ck_assert_uint_eq(b->start_cycle, 2000);
	ck_assert_uint_eq(c->start_cycle, 3000);
	ck_assert_uint_eq(c->end_cycle, 4000);
	h_free(h);
}
END_TEST

/*
 * A cancelled at 400 has left the device: B (gap 100) arrives at 500.
 * C waits for B and is cancelled itself at 450, while waiting: it never
 * arrives, and E waiting for it (gap 5) arrives at 455.
 */
START_TEST(stream_predecessor_cancelled)
{
	struct h_dev *h = h_new_sms(1);
	struct gtbs_grid_desc d = H_FULL_WAVE;
	struct gtbs_grid_desc small = h_desc(1, 64, 16, 0, 1000);
	struct gtbs_grid *a, *b, *c, *e;

	a = h_submit(h, &d, 0);
	b = h_grid_new(h, &d, NULL, NULL);
	c = h_grid_new(h, &d, NULL, NULL);
	e = h_grid_new(h, &small, NULL, NULL);
	gtbs_grid_submit_after(&h->dev, b, 0, a, 100);
	gtbs_grid_submit_after(&h->dev, c, 0, b, 0);
	gtbs_grid_submit_after(&h->dev, e, 0, c, 5);
	gtbs_dev_run_until(&h->dev, 400);
	gtbs_grid_cancel(&h->dev, a, 400);
	ck_assert_int_eq(a->state, GTBS_GRID_CANCELLED);
	ck_assert_int_eq(b->state, GTBS_GRID_ARRIVING);
	ck_assert_uint_eq(gtbs_dev_next_arrival(&h->dev), 500);
	gtbs_dev_run_until(&h->dev, 450);
	gtbs_grid_cancel(&h->dev, c, 450);
	ck_assert_int_eq(c->state, GTBS_GRID_CANCELLED);
	ck_assert_int_eq(e->state, GTBS_GRID_ARRIVING);
	ck_assert_uint_eq(e->submit_cycle, 455);
	h_drain(h);
	ck_assert_int_eq(b->state, GTBS_GRID_DONE);
	ck_assert_uint_eq(b->submit_cycle, 500);
	ck_assert_uint_eq(b->start_cycle, 500);
	ck_assert_int_eq(e->state, GTBS_GRID_DONE);
	ck_assert_uint_eq(e->start_cycle, 455);
	/* c never arrived (it has no id) and never ran */
	ck_assert_uint_eq(c->next_block, 0);
	ck_assert_uint_eq(c->blocks_done, 0);
	ck_assert(list_empty(&h->dev.waiting));
	h_free(h);
}
END_TEST

/*
 * Gap 0: B arrives at the very cycle A's last block ends (1000), after
 * that block: every block of B starts after every block end of A, at
 * 1000, in the slots A's blocks freed.
 */
START_TEST(stream_gap_zero)
{
	struct h_dev *h = h_new_sms(1);
	struct gtbs_grid_desc d = H_FULL_WAVE;
	struct gtbs_grid *a, *b;
	long last_end, first_start;
	u32 i;

	a = h_submit(h, &d, 0);
	b = h_grid_new(h, &d, NULL, NULL);
	gtbs_grid_submit_after(&h->dev, b, 0, a, 0);
	h_drain(h);
	ck_assert_uint_eq(b->submit_cycle, 1000);
	ck_assert_uint_eq(b->start_cycle, 1000);
	ck_assert_uint_eq(b->end_cycle, 2000);
	last_end = -1;
	for (i = 0; i < 8; i++)
		last_end = max(last_end, h_find(h, H_EV_BLOCK_END, a->id, i));
	first_start = h_find(h, H_EV_BLOCK_START, b->id, 0);
	ck_assert_int_ge(first_start, 0);
	ck_assert_int_gt(first_start, last_end);
	h_free(h);
}
END_TEST

/*
 * A predecessor that left already: A done at 1000.  At 1500, B with gap
 * 200 (1200 has passed) arrives at once, C with gap 1000 at 2000.  A
 * predecessor stopped by its job timeout at 300 releases D at 300.
 */
START_TEST(stream_predecessor_left)
{
	struct h_dev *h = h_new_sms(1);
	struct gtbs_grid_desc d = h_desc(1, 64, 16, 0, 1000);
	struct gtbs_grid_desc t = H_FULL_WAVE;
	struct gtbs_grid *a, *b, *c, *x, *e;

	a = h_submit(h, &t, 0);
	gtbs_dev_run_until(&h->dev, 1500);
	ck_assert_int_eq(a->state, GTBS_GRID_DONE);
	b = h_grid_new(h, &d, NULL, NULL);
	c = h_grid_new(h, &d, NULL, NULL);
	gtbs_grid_submit_after(&h->dev, b, 1500, a, 200);
	gtbs_grid_submit_after(&h->dev, c, 1500, a, 1000);
	ck_assert_int_eq(b->state, GTBS_GRID_ARRIVING);
	h_drain(h);
	ck_assert_uint_eq(b->submit_cycle, 1500);
	ck_assert_uint_eq(c->submit_cycle, 2000);
	h_free(h);

	h = h_new_sms(1);
	t.timeout_cycles = 300;
	x = h_submit(h, &t, 0);
	e = h_grid_new(h, &d, NULL, NULL);
	gtbs_grid_submit_after(&h->dev, e, 0, x, 0);
	h_drain(h);
	ck_assert_int_eq(x->state, GTBS_GRID_TIMED_OUT);
	ck_assert_uint_eq(x->end_cycle, 300);
	ck_assert_uint_eq(e->submit_cycle, 300);
	ck_assert_uint_eq(e->start_cycle, 300);
	h_free(h);
}
END_TEST

/* The same stream run in slices of any size: the same events. */
START_TEST(stream_bounded_slices_same_schedule)
{
	struct h_event *ref = NULL;
	size_t nr_ref = 0;
	unsigned int pass;

	for (pass = 0; pass < 2; pass++) {
		struct h_dev *h = h_new_sms(2);
		struct gtbs_grid_desc d = h_desc(20, 128, 16, 0, 900);
		struct gtbs_grid *g[4];
		u32 i, budget;

		g[0] = h_submit(h, &d, 0);
		for (i = 1; i < 4; i++) {
			g[i] = h_grid_new(h, &d, NULL, NULL);
			gtbs_grid_submit_after(&h->dev, g[i], 0, g[i - 1],
					       i * 3);
		}
		if (pass) {
			do {
				budget = 1;
			} while (!gtbs_dev_run_bounded(&h->dev, U64_MAX,
						       &budget));
		} else {
			gtbs_dev_run_until(&h->dev, U64_MAX);
		}
		for (i = 1; i < 4; i++)
			ck_assert_uint_eq(g[i]->submit_cycle,
					  g[i - 1]->end_cycle + i * 3);
		if (!pass) {
			nr_ref = h->nr_ev;
			ref = malloc(nr_ref * sizeof(*ref));
			ck_assert_ptr_nonnull(ref);
			memcpy(ref, h->ev, nr_ref * sizeof(*ref));
		} else {
			ck_assert_uint_eq(h->nr_ev, nr_ref);
			ck_assert(!memcmp(ref, h->ev, nr_ref * sizeof(*ref)));
		}
		h_free(h);
	}
	free(ref);
}
END_TEST

/* --- Deferred arrivals in O(log n) -------------------------------------- */

/* Wall-clock seconds of CLOCK_MONOTONIC, for the cost bounds below. */
static double arr_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * A grid put on the arrivals by gtbs_grid_submit_at() or a release, with
 * what its arrival order must be: (arrival cycle, order added).
 */
struct arr_expect {
	struct gtbs_grid *grid;
	u64 cycle;
	u64 seq;
	bool cancelled;
};

static int arr_cmp(const void *a, const void *b)
{
	const struct arr_expect *x = a, *y = b;

	if (x->cycle != y->cycle)
		return x->cycle < y->cycle ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/*
 * Every grid of @e that was not cancelled arrived at its cycle, and their
 * ids (given at arrival, in arrival order) follow (cycle, order added).
 */
static void arr_check_order(struct arr_expect *e, size_t n)
{
	u64 last_id = 0;
	bool first = true;
	size_t i;

	qsort(e, n, sizeof(*e), arr_cmp);
	for (i = 0; i < n; i++) {
		if (e[i].cancelled) {
			ck_assert_int_eq(e[i].grid->state, GTBS_GRID_CANCELLED);
			continue;
		}
		ck_assert_int_eq(e[i].grid->state, GTBS_GRID_DONE);
		ck_assert_uint_eq(e[i].grid->submit_cycle, e[i].cycle);
		ck_assert_msg(first || e[i].grid->id > last_id,
			      "grid %zu of cycle %llu arrived out of order",
			      i, (unsigned long long)e[i].cycle);
		last_id = e[i].grid->id;
		first = false;
	}
}

/*
 * The cost tests below assert how a cost scales, not how long it takes:
 * the same scenario at n and at n / ARR_SCALE, each the fastest of
 * ARR_REPS runs in this process, so the host's speed cancels out.  Filing
 * in O(log n) grows the cost of n operations by about ARR_SCALE (x 1.2
 * for the logarithm); the linear scan the tree replaced grew it by
 * ARR_SCALE^2 = 64.  ARR_RATIO_MAX lies between the two (measured here:
 * x9.8 for the fan-out, x12.4 for the submissions, under ASan).
 */
#define ARR_SCALE		8
#define ARR_REPS		3
#define ARR_RATIO_MAX		32.0

/* Fastest of ARR_REPS runs of @fn(@n). */
static double arr_best(double (*fn)(size_t n, u64 seed), size_t n)
{
	double best = 1e9, t;
	int r;

	for (r = 0; r < ARR_REPS; r++) {
		t = fn(n, 0x5eed0a11 + r);
		best = t < best ? t : best;
	}
	return best;
}

/* @fn's cost at @n over its cost at @n / ARR_SCALE, bounded. */
static void arr_check_scaling(double (*fn)(size_t n, u64 seed), size_t n,
			      const char *what)
{
	double small = arr_best(fn, n / ARR_SCALE), big = arr_best(fn, n);

	/* 1 us: below it the clock, not the work, would decide */
	ck_assert_msg(big <= ARR_RATIO_MAX * (small > 1e-6 ? small : 1e-6),
		      "%s: %zu took %.6f s, %zu took %.6f s (x%.1f, at most x%.0f)",
		      what, n / ARR_SCALE, small, n, big, big / small,
		      ARR_RATIO_MAX);
}

/*
 * @n grids of one one-cycle block for random cycles among @n / 8 (so
 * about eight per cycle), submitted in random order; one in eleven is
 * cancelled while arriving, and half-way the device runs to the middle of
 * the span, so the rest also ties with (and is clamped to) the device's
 * clock.  They arrive exactly in (arrival cycle, submission) order, the
 * order of the linear scan the arrival tree replaced, with the tree and
 * the list consistent throughout.  Returns the seconds the submissions
 * took.
 */
static double arr_random_order_ties(size_t n, u64 seed)
{
	struct h_dev *h = h_new_sms(2);
	struct gtbs_grid_desc d = h_desc(1, 64, 16, 0, 1);
	struct arr_expect *e = calloc(n, sizeof(*e));
	u64 rng = seed, span = n / 8, now = 0;
	double spent = 0, t0;
	size_t i;

	ck_assert_ptr_nonnull(e);
	for (i = 0; i < n; i++) {
		u64 at = h_rand_range(&rng, 0, span);

		if (i == n / 2) {
			now = span / 2;
			gtbs_dev_run_until(&h->dev, now);
		}
		e[i].grid = h_grid_new(h, &d, NULL, NULL);
		e[i].cycle = max(at, now);
		e[i].seq = i;
		t0 = arr_now();
		gtbs_grid_submit_at(&h->dev, e[i].grid, now, at);
		spent += arr_now() - t0;
		ck_assert_int_eq(e[i].grid->state, GTBS_GRID_ARRIVING);
		if (h_rand_range(&rng, 0, 10) == 0) {
			gtbs_grid_cancel(&h->dev, e[i].grid, now);
			e[i].cancelled = true;
		}
	}
	h_drain(h);
	ck_assert(list_empty(&h->dev.arrivals));
	arr_check_order(e, n);
	free(e);
	h_free(h);
	return spent;
}

/*
 * Submissions in (cycle, submission) order, each O(log n): 24,000 of them
 * cost about ARR_SCALE times 3,000 (the linear scan's n^2 / 4 steps took
 * over 2 s under ASan; Documentation/reliability.rst, "Bounded work
 * under the device lock").
 */
#define ARR_RANDOM_GRIDS	24000

START_TEST(arrivals_random_order_ties)
{
	arr_check_scaling(arr_random_order_ties, ARR_RANDOM_GRIDS,
			  "submissions");
}
END_TEST

/*
 * The issue's fan-out, on one SM: grid A (cycles 0..1000) with @fanout
 * grids waiting AFTER it (gap 0) and @fanout grids queued to arrive later
 * (cycles 2000 and on, in submission order), and two grids submitted for
 * cycle 1000 itself.  The one event that ends A releases every dependent.
 * The order: the two grids due at 1000 first (on the arrivals before A
 * ended), then the dependents in submission order, then the later
 * arrivals by cycle.  Returns the seconds the one event took.
 */
static double arr_fanout_once(size_t fanout, u64 seed)
{
	struct h_dev *h = h_new_sms(1);
	struct gtbs_grid_desc d = h_desc(1, 64, 16, 0, 1);
	struct gtbs_grid_desc full = H_FULL_WAVE;
	size_t n = 2 * fanout + 2, k = 0, i;
	struct arr_expect *e = calloc(n, sizeof(*e));
	struct gtbs_grid *a;
	double spent;
	u32 budget;

	ck_assert_ptr_nonnull(e);
	a = h_submit(h, &full, 0);
	for (i = 0; i < fanout; i++, k++) {
		e[k].grid = h_grid_new(h, &d, NULL, NULL);
		e[k].cycle = 2000 + i / 2;	/* two per cycle */
		e[k].seq = k;
		gtbs_grid_submit_at(&h->dev, e[k].grid, 0, e[k].cycle);
	}
	for (i = 0; i < 2; i++, k++) {
		e[k].grid = h_grid_new(h, &d, NULL, NULL);
		e[k].cycle = 1000;
		e[k].seq = k;
		gtbs_grid_submit_at(&h->dev, e[k].grid, 0, 1000);
	}
	for (i = 0; i < fanout; i++, k++) {
		e[k].grid = h_grid_new(h, &d, NULL, NULL);
		e[k].cycle = 1000;
		e[k].seq = k;	/* added at A's end, after all the above */
		gtbs_grid_submit_after(&h->dev, e[k].grid, 0, a, 0);
		ck_assert_int_eq(e[k].grid->state, GTBS_GRID_WAITING);
	}
	gtbs_dev_run_until(&h->dev, 999);
	ck_assert_int_eq(a->state, GTBS_GRID_RUNNING);
	budget = 1;	/* exactly one event: A's last block ends */
	spent = arr_now();
	gtbs_dev_run_bounded(&h->dev, 1000, &budget);
	spent = arr_now() - spent;
	ck_assert_int_eq(a->state, GTBS_GRID_DONE);
	ck_assert_uint_eq(a->end_cycle, 1000);
	ck_assert_uint_eq(budget, 0);
	ck_assert(list_empty(&h->dev.waiting));
	h_drain(h);
	ck_assert(list_empty(&h->dev.arrivals));
	arr_check_order(e, n);
	free(e);
	h_free(h);
	return spent;
}

/*
 * The one event that releases 16,000 dependents among 16,000 later
 * arrivals costs O(fanout log n): about ARR_SCALE times the event that
 * releases 2,000 (the linear scan walked every later arrival for each
 * dependent: 16,000^2 steps, over 5 s under ASan).
 */
#define ARR_FANOUT		16000

START_TEST(arrivals_fanout_one_event)
{
	arr_check_scaling(arr_fanout_once, ARR_FANOUT, "fan-out");
}
END_TEST

/* The reasons of gtbs_grid_desc_verify(), with their value and limit. */
START_TEST(desc_verify_reasons)
{
	struct gtbs_dev_config cfg;
	struct gtbs_grid_desc d;
	struct gtbs_grid_err err;
	u64 durations[3] = { 5, 0, 7 };
	u64 regs;

	gtbs_config_default(&cfg);
	d = h_desc(4, 64, 16, 0, 1000);
	ck_assert_int_eq(gtbs_grid_desc_verify(&cfg, &d, &err), 0);
	ck_assert_uint_eq(err.reason, GPUTBS_SUBMIT_ERR_NONE);
	ck_assert_ptr_null(err.why);

	d.nr_blocks = cfg.max_blocks_per_grid + 1;
	ck_assert_int_eq(gtbs_grid_desc_verify(&cfg, &d, &err), -E2BIG);
	ck_assert_uint_eq(err.reason, GPUTBS_SUBMIT_ERR_NR_BLOCKS);
	ck_assert_uint_eq(err.value, cfg.max_blocks_per_grid + 1ULL);
	ck_assert_uint_eq(err.limit, cfg.max_blocks_per_grid);

	d = h_desc(0, 64, 16, 0, 1000);
	ck_assert_int_eq(gtbs_grid_desc_verify(&cfg, &d, &err), -EINVAL);
	ck_assert_uint_eq(err.reason, GPUTBS_SUBMIT_ERR_NR_BLOCKS_ZERO);

	d = h_desc(4, cfg.max_threads_per_block + 1, 16, 0, 1000);
	ck_assert_int_eq(gtbs_grid_desc_verify(&cfg, &d, &err), -EINVAL);
	ck_assert_uint_eq(err.reason, GPUTBS_SUBMIT_ERR_THREADS);
	ck_assert_uint_eq(err.value, cfg.max_threads_per_block + 1ULL);
	ck_assert_uint_eq(err.limit, cfg.max_threads_per_block);

	/* 1024 threads x 63 registers: 32 warps of 2016 rounded up */
	d = h_desc(4, 1024, 63, 0, 1000);
	regs = (2016 + cfg.reg_alloc_unit - 1) / cfg.reg_alloc_unit *
	       cfg.reg_alloc_unit * 32;
	ck_assert_int_eq(gtbs_grid_desc_verify(&cfg, &d, &err), -EINVAL);
	ck_assert_uint_eq(err.reason, GPUTBS_SUBMIT_ERR_FIT_REGS);
	ck_assert_uint_eq(err.value, regs);
	ck_assert_uint_eq(err.limit, cfg.max_regs_per_sm);

	/* a block of 1024 threads on an SM of 32 warps */
	cfg.max_warps_per_sm = 16;
	cfg.max_threads_per_sm = 2048;
	d = h_desc(4, 1024, 8, 0, 1000);
	ck_assert_int_eq(gtbs_grid_desc_verify(&cfg, &d, &err), -EINVAL);
	ck_assert_uint_eq(err.reason, GPUTBS_SUBMIT_ERR_FIT_WARPS);
	ck_assert_uint_eq(err.value, 32);
	ck_assert_uint_eq(err.limit, 16);
	gtbs_config_default(&cfg);

	d = h_desc(3, 64, 16, 0, 0);
	d.durations = durations;
	ck_assert_int_eq(gtbs_grid_desc_verify(&cfg, &d, &err), -EINVAL);
	ck_assert_uint_eq(err.reason, GPUTBS_SUBMIT_ERR_DURATION);
	ck_assert_uint_eq(err.value, 1);
	ck_assert_uint_eq(err.limit, GTBS_MAX_BLOCK_CYCLES);

	d = h_desc(4, 64, 16, 0, 1000);
	d.label[3] = '\n';
	ck_assert_int_eq(gtbs_grid_desc_verify(&cfg, &d, &err), -EINVAL);
	ck_assert_uint_eq(err.reason, GPUTBS_SUBMIT_ERR_LABEL);
	ck_assert_uint_eq(err.value, 3);

	d = h_desc(4, 64, 16, 0, 1000);
	d.block_dist = GTBS_DIST_SKEWED;
	d.block_dist_param = 999;
	ck_assert_int_eq(gtbs_grid_desc_verify(&cfg, &d, &err), -EINVAL);
	ck_assert_uint_eq(err.reason, GPUTBS_SUBMIT_ERR_DIST_PARAM);
	ck_assert_uint_eq(err.value, 999);
	ck_assert_uint_eq(err.limit, GTBS_SKEWED_MIN_PPM);
}
END_TEST

void regressions_engine(Suite *s)
{
	TCase *tc = h_tcase("engine");

	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, kb_sm_advance_u64_max_returns);
	tcase_add_test(tc, kb_sm_advance_split_keeps_end);
	tcase_add_test(tc, kb_fifo_next_grid_issues_when_head_fully_issued);
	tcase_add_test(tc, kb_no_block_before_submit);
	tcase_add_test(tc, kb_back_to_back_submit);
	tcase_add_test(tc, kb_cancel_keeps_due_completions_on_time);
	suite_add_tcase(s, tc);
}

Suite *engine_suite(void)
{
	Suite *s = suite_create("engine");
	TCase *tc;

	tc = h_tcase("fifo");
	tcase_add_test(tc, fifo_arrival_order);
	tcase_add_test(tc, fifo_head_of_line);
	tcase_add_test(tc, fifo_concurrent_on_leftover);
	tcase_add_test(tc, explicit_durations);
	suite_add_tcase(s, tc);

	tc = h_tcase("cancel");
	tcase_add_test(tc, cancel_queued);
	tcase_add_test(tc, cancel_running_returns_resources);
	tcase_add_test(tc, cancel_other_states_noop);
	tcase_add_test(tc, cancel_counters_add_up);
	tcase_add_test(tc, cancel_reslices_only_after_running);
	tcase_add_test(tc, pairs_only_where_blocks_ran);
	tcase_add_test(tc, deferred_issue_resumes_after_refill);
	suite_add_tcase(s, tc);

	tc = h_tcase("resources");
	tcase_add_test(tc, resources_bounded_at_every_event);
	tcase_add_test(tc, resources_all_slots);
	suite_add_tcase(s, tc);

	tc = h_tcase("lifecycle");
	tcase_add_test(tc, lifecycle_and_counters);
	tcase_add_test(tc, kicks_on_submit_and_end);
	tcase_add_test(tc, kicked_sm_reevaluated_at_event);
	tcase_add_test(tc, kick_at_other_cycle_takes_earliest);
	suite_add_tcase(s, tc);

	tc = h_tcase("run_until");
	tcase_add_test(tc, arrival_dispatches_at_own_cycle);
	tcase_add_test(tc, run_until_inclusive_bound);
	tcase_add_test(tc, run_until_u64_max_returns);
	tcase_add_test(tc, run_until_granularity_head_of_line);
	tcase_add_test(tc, run_until_never_goes_back);
	tcase_add_test(tc, run_until_global_order);
	tcase_add_loop_test(tc, run_until_granularity_single_grid, 0, H_NR_ERC);
	suite_add_tcase(s, tc);

	tc = h_tcase("stream");
	tcase_add_test(tc, stream_chain_of_two);
	tcase_add_test(tc, stream_chain_of_three);
	tcase_add_test(tc, stream_two_dependents);
	tcase_add_test(tc, stream_predecessor_cancelled);
	tcase_add_test(tc, stream_gap_zero);
	tcase_add_test(tc, stream_predecessor_left);
	tcase_add_test(tc, stream_bounded_slices_same_schedule);
	suite_add_tcase(s, tc);

	tc = h_tcase("arrivals");
	tcase_add_test(tc, arrivals_random_order_ties);
	tcase_add_test(tc, arrivals_fanout_one_event);
	suite_add_tcase(s, tc);

	tc = h_tcase("desc");
	tcase_add_test(tc, desc_verify_reasons);
	tcase_add_loop_test(tc, desc_rejects, 0, ARRAY_SIZE(bad_descs));
	tcase_add_loop_test(tc, desc_accepts_limits, 0, ARRAY_SIZE(ok_descs));
	tcase_add_test(tc, desc_limits_follow_config);
	suite_add_tcase(s, tc);

	tc = h_tcase("policy");
	tcase_add_test(tc, policy_find_by_name);
	tcase_add_test(tc, policy_registry_well_formed);
	tcase_add_test(tc, policy_each_runs_workload);
	tcase_add_test(tc, policy_hooks_called_once);
	tcase_add_test(tc, policy_null_pick_issues_nothing);
	tcase_add_test(tc, policy_pick_that_does_not_fit);
	suite_add_tcase(s, tc);

	tc = h_tcase("properties");
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, prop_random_workloads, 0, 40);
	tcase_add_loop_test(tc, prop_random_cancels, 0, 30);
	tcase_add_loop_test(tc, prop_deterministic, 0, 10);
	tcase_add_loop_test(tc, prop_slicing_invariant, 0, 20);
	suite_add_tcase(s, tc);
	return s;
}
