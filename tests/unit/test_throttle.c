// SPDX-License-Identifier: GPL-2.0
/*
 * test_throttle.c - throttled grids (sm-emu/throttle.c): a throttled grid
 * issues no block while its resident blocks run on, other grids take the
 * SMs at once, and lifting the throttle puts it back in arrival order,
 * under every registered policy.
 *
 * Copyright (C) 2026 The gputbs developers
 */
#include "harness.h"

/* Block starts of grid @id at cycles in (@from, @to]. */
static size_t starts_between(const struct h_dev *h, u64 id, u64 from, u64 to)
{
	size_t i, n = 0;

	for (i = 0; i < h->nr_ev; i++)
		if (h->ev[i].kind == H_EV_BLOCK_START &&
		    h->ev[i].grid_id == id && h->ev[i].start > from &&
		    h->ev[i].start <= to)
			n++;
	return n;
}

/*
 * One SM, R = 8.  a (16 blocks of 1000 cycles) fills it at 0 and b (8
 * blocks) waits behind it (FIFO).  a is throttled at 500: its 8 resident
 * blocks end at 1000, and b's blocks, not a's, take the SM there; once b
 * ends at 2000 nothing is due.  Lifted at 2500, a's last 8 blocks run
 * 2500..3500.
 */
START_TEST(throttle_frees_sms_at_block_ends)
{
	struct h_dev *h = h_new_sms(1);
	struct gtbs_grid_desc da = h_desc(16, 64, 16, 0, 1000);
	struct gtbs_grid_desc db = h_desc(8, 64, 16, 0, 1000);
	struct gtbs_grid *a, *b;

	da.block_rsd_ppm = 0;
	db.block_rsd_ppm = 0;
	a = h_submit(h, &da, 0);
	b = h_submit(h, &db, 0);
	ck_assert_uint_eq(a->resident, 8);
	gtbs_dev_run_until(&h->dev, 500);
	gtbs_grid_throttle(&h->dev, a, GTBS_THROTTLE_OWNER, 500);
	/* a second time changes nothing */
	gtbs_grid_throttle(&h->dev, a, GTBS_THROTTLE_OWNER, 500);
	ck_assert_uint_eq(h->dev.grids_throttled, 1);
	ck_assert(!gtbs_grid_has_blocks(a));
	ck_assert(list_empty(&a->pending_node));
	ck_assert_uint_eq(h->dev.nr_pending[a->desc.prio_class], 1);
	gtbs_dev_run_until(&h->dev, 2400);
	ck_assert_uint_eq(b->start_cycle, 1000);
	ck_assert_int_eq(b->state, GTBS_GRID_DONE);
	ck_assert_uint_eq(b->end_cycle, 2000);
	ck_assert_int_eq(a->state, GTBS_GRID_RUNNING);
	ck_assert_uint_eq(a->blocks_done, 8);
	ck_assert_uint_eq(a->resident, 0);
	ck_assert_uint_eq(gtbs_dev_next_event(&h->dev), U64_MAX);
	gtbs_dev_run_until(&h->dev, 2500);
	gtbs_grid_unthrottle(&h->dev, a, GTBS_THROTTLE_OWNER, 2500);
	ck_assert_uint_eq(a->throttle, 0);
	ck_assert(!list_empty(&a->pending_node));
	gtbs_dev_run_until(&h->dev, 2500);
	ck_assert_uint_eq(a->resident, 8);
	h_drain(h);
	ck_assert_uint_eq(starts_between(h, a->id, 500, 2499), 0);
	ck_assert_uint_eq(starts_between(h, a->id, 2499, 2500), 8);
	ck_assert_int_eq(a->state, GTBS_GRID_DONE);
	ck_assert_uint_eq(a->end_cycle, 3500);
	ck_assert_uint_eq(h_count(h, H_EV_BLOCK_END, a->id), 16);
	h_free(h);
}
END_TEST

/*
 * A grid that arrives throttled (&gtbs_backend_ops.grid_arrive) never
 * reaches the pending list; gtbs_dev_unthrottle() puts it back in arrival
 * order, ahead of a grid that arrived after it: under FIFO, a's blocks
 * issue before c's although c was pending first.
 */
START_TEST(throttle_on_arrival_then_arrival_order)
{
	struct h_dev *h = h_new_sms(1);
	struct gtbs_grid_desc d = h_desc(8, 64, 16, 0, 1000);
	struct gtbs_grid *a, *b, *c;

	d.block_rsd_ppm = 0;
	h->arrive_throttle = GTBS_THROTTLE_OWNER;
	a = h_submit(h, &d, 0);
	h->arrive_throttle = 0;
	ck_assert_uint_eq(a->throttle, GTBS_THROTTLE_OWNER);
	ck_assert_int_eq(a->state, GTBS_GRID_QUEUED);
	ck_assert(list_empty(&a->pending_node));
	ck_assert_uint_eq(a->resident, 0);
	b = h_submit(h, &d, 0);
	c = h_submit(h, &d, 10);
	ck_assert_uint_eq(b->resident, 8);
	gtbs_dev_run_until(&h->dev, 500);
	ck_assert_uint_eq(gtbs_dev_unthrottle(&h->dev, GTBS_THROTTLE_OWNER,
					      500), 1);
	/* nothing left to lift */
	ck_assert_uint_eq(gtbs_dev_unthrottle(&h->dev, GTBS_THROTTLE_OWNER,
					      500), 0);
	h_drain(h);
	ck_assert_uint_lt(a->id, c->id);
	ck_assert_uint_eq(a->start_cycle, 1000);
	ck_assert_uint_eq(c->start_cycle, 2000);
	ck_assert_int_eq(a->state, GTBS_GRID_DONE);
	ck_assert_int_eq(c->state, GTBS_GRID_DONE);
	h_free(h);
}
END_TEST

/*
 * Every registered policy (plug-ins included): eight grids, the even ones
 * throttled from cycle 3000 to 40000, issue no block in between, and
 * every grid still runs every block once with the SMs' resources within
 * bounds at every event.
 */
START_TEST(throttle_every_policy)
{
	const struct gtbs_policy_ops *p;
	unsigned int i, k;

	for (i = 0; (p = gtbs_policy_at(i)); i++) {
		struct gtbs_dev_config cfg;
		struct gtbs_grid *g[H_NR_ERC];
		struct h_dev *h;

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
		gtbs_dev_run_until(&h->dev, 3000);
		for (k = 0; k < H_NR_ERC; k += 2)
			if (g[k]->state != GTBS_GRID_DONE)
				gtbs_grid_throttle(&h->dev, g[k],
						   GTBS_THROTTLE_OWNER, 3000);
		gtbs_dev_run_until(&h->dev, 40000);
		for (k = 0; k < H_NR_ERC; k += 2)
			ck_assert_msg(!starts_between(h, g[k]->id, 3000, 40000),
				      "%s: throttled grid %u issued", p->name,
				      k);
		gtbs_dev_unthrottle(&h->dev, GTBS_THROTTLE_OWNER, 40000);
		h_drain(h);
		ck_assert_msg(h->violations == 0, "%s: %s", p->name,
			      h->violation);
		for (k = 0; k < H_NR_ERC; k++)
			ck_assert_msg(g[k]->state == GTBS_GRID_DONE,
				      "%s: grid %u not done", p->name, k);
		ck_assert_uint_eq(h_count(h, H_EV_BLOCK_END, U64_MAX), 400);
		ck_assert_uint_eq(h_count(h, H_EV_BLOCK_START, U64_MAX), 400);
		h_free(h);
	}
}
END_TEST

/*
 * SJF and LJF, one SM, R = 8: g (8 blocks of 1000 cycles) fills the SM at
 * 0; s (1 block of 100) and l (1 block of 3000) queue behind it.  At 500
 * the one of them that the policy would start first (sjf: s, ljf: l) is
 * throttled: at 1000 the other starts, as a plain scan of the grids
 * (gtbs_serial_scan_ref) picks it; the queued grids' tree must not stop
 * at a throttled grid at its front (fuzz_sched found the device idle with
 * the other grid queued, under a tenant's cap).  Lifted at 5000, the
 * throttled one runs then.
 */
START_TEST(throttle_serial_skips_throttled_front)
{
	bool ljf = _i & 1;
	struct h_dev *h = h_new_sms(1);
	struct gtbs_grid_desc dg = h_desc(8, 64, 16, 0, 1000);
	struct gtbs_grid_desc ds = h_desc(1, 64, 16, 0, 100);
	struct gtbs_grid_desc dl = h_desc(1, 64, 16, 0, 3000);
	struct gtbs_grid *g, *s, *l, *first, *other;

	gtbs_serial_scan_ref = _i >= 2;
	dg.block_rsd_ppm = 0;
	ds.block_rsd_ppm = 0;
	dl.block_rsd_ppm = 0;
	gtbs_dev_set_policy(&h->dev, ljf ? &gtbs_policy_ljf : &gtbs_policy_sjf,
			    0);
	g = h_submit(h, &dg, 0);
	s = h_submit(h, &ds, 0);
	l = h_submit(h, &dl, 0);
	ck_assert_uint_eq(g->resident, 8);
	first = ljf ? l : s;
	other = ljf ? s : l;
	gtbs_dev_run_until(&h->dev, 500);
	gtbs_grid_throttle(&h->dev, first, GTBS_THROTTLE_OWNER, 500);
	gtbs_dev_run_until(&h->dev, 1000);
	ck_assert_int_eq(g->state, GTBS_GRID_DONE);
	ck_assert_int_ne(other->state, GTBS_GRID_QUEUED);
	ck_assert_uint_eq(other->start_cycle, 1000);
	ck_assert_int_eq(first->state, GTBS_GRID_QUEUED);
	gtbs_dev_run_until(&h->dev, 5000);
	ck_assert_int_eq(other->state, GTBS_GRID_DONE);
	gtbs_grid_unthrottle(&h->dev, first, GTBS_THROTTLE_OWNER, 5000);
	gtbs_dev_run_until(&h->dev, 5000);
	ck_assert_uint_eq(first->start_cycle, 5000);
	h_drain(h);
	ck_assert_int_eq(first->state, GTBS_GRID_DONE);
	gtbs_serial_scan_ref = false;
	h_free(h);
}
END_TEST

Suite *throttle_suite(void)
{
	Suite *s = suite_create("throttle");
	TCase *tc = h_tcase("throttle");

	tcase_add_test(tc, throttle_frees_sms_at_block_ends);
	tcase_add_test(tc, throttle_on_arrival_then_arrival_order);
	tcase_add_test(tc, throttle_every_policy);
	tcase_add_loop_test(tc, throttle_serial_skips_throttled_front, 0, 4);
	suite_add_tcase(s, tc);
	return s;
}
