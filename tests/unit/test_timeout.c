// SPDX-License-Identifier: GPL-2.0
/*
 * test_timeout.c - bounded runs of the engine and the job timeout.
 *
 * gtbs_dev_run_bounded() lets the module hold its device lock for a
 * bounded number of events (issue "an unprivileged user can stall the
 * kernel"): running a device in slices of any budget, and submitting to a
 * device that is behind (a deferred arrival at the submission cycle), must
 * give exactly the events of one unbounded run.  The job timeout (after the
 * DRM scheduler's timedout_job) stops a grid that ran longer than the lower
 * of the device's and its own timeout since its first block started.
 *
 * Timelines are worked out by hand on one SM of the paper's device: a grid
 * of 1024-thread blocks (32 warps of 48) has R = 1, so each block alone
 * takes exactly its block_cycles.
 *
 * Copyright (C) 2026 The gputbs developers
 */
#include <string.h>
#include <time.h>

#include "harness.h"

/* A grid of @blocks one-per-SM blocks (R = 1) of @cycles each. */
static struct gtbs_grid_desc wide(u32 blocks, u64 cycles)
{
	return h_desc(blocks, 1024, 0, 0, cycles);
}

static struct h_dev *one_sm(u64 timeout)
{
	struct h_dev *h = h_new_sms(1);

	h->check_every_event = true;
	h->dev.timeout_cycles = timeout;
	return h;
}

/*
 * A: 4 blocks of 1000 from 0 (0-1000, 1000-2000, 2000-3000, ...), device
 * timeout 2500: A is stopped at 2500 with 2 blocks done and its third
 * evicted; B (1 block, queued since 100 behind A) starts at 2500, when
 * A's slot is freed, and ends at 3500, before its own expiry (5000).
 */
START_TEST(timeout_stops_running_grid)
{
	struct h_dev *h = one_sm(2500);
	struct gtbs_grid_desc da = wide(4, 1000), db = wide(1, 1000);
	struct gtbs_grid *a = h_submit(h, &da, 0);
	struct gtbs_grid *b = h_submit(h, &db, 100);

	h_drain(h);
	ck_assert_int_eq(a->state, GTBS_GRID_TIMED_OUT);
	ck_assert_uint_eq(a->end_cycle, 2500);
	ck_assert_uint_eq(a->blocks_done, 2);
	ck_assert_uint_eq(a->resident, 0);
	ck_assert_int_eq(b->state, GTBS_GRID_DONE);
	ck_assert_uint_eq(b->start_cycle, 2500);
	ck_assert_uint_eq(b->end_cycle, 3500);
	ck_assert_uint_eq(h_count(h, H_EV_GRID_TIMEOUT, a->id), 1);
	ck_assert_uint_eq(h_count(h, H_EV_GRID_DONE, a->id), 0);
	/* the evicted block never ends; nothing else of A ever starts */
	ck_assert_uint_eq(h_count(h, H_EV_BLOCK_START, a->id), 3);
	ck_assert_uint_eq(h_count(h, H_EV_BLOCK_END, a->id), 2);
	ck_assert_uint_eq(h->dev.grids_timed_out, 1);
	ck_assert_uint_eq(h->dev.grids_submitted,
			  h->dev.grids_completed + h->dev.grids_cancelled +
			  h->dev.grids_timed_out);
	ck_assert(gtbs_dev_idle(&h->dev));
	ck_assert_uint_eq(h->sms[0]->nr_resident, 0);
	ck_assert_uint_eq(h->sms[0]->used_warps, 0);
	ck_assert_uint_eq(h->violations, 0);
	h_free(h);
}
END_TEST

/* A grid whose last block ends at its expiry completes: SM events first. */
START_TEST(timeout_at_last_end_completes)
{
	struct h_dev *h = one_sm(2000);
	struct gtbs_grid_desc d = wide(2, 1000);
	struct gtbs_grid *a = h_submit(h, &d, 0);

	h_drain(h);
	ck_assert_int_eq(a->state, GTBS_GRID_DONE);
	ck_assert_uint_eq(a->end_cycle, 2000);
	ck_assert_uint_eq(h->dev.grids_timed_out, 0);
	h_free(h);
}
END_TEST

/*
 * Time queued does not count: A (1 block, 0-1000) then B (2 blocks,
 * submitted at 0, runs from 1000), timeout 1500: B's blocks end at 2000
 * and 3000, so B is stopped at 1000 + 1500 = 2500 with 1 block done (not
 * at 1500, had its wait counted).
 */
START_TEST(timeout_counts_from_first_block)
{
	struct h_dev *h = one_sm(1500);
	struct gtbs_grid_desc da = wide(1, 1000), db = wide(2, 1000);
	struct gtbs_grid *a = h_submit(h, &da, 0);
	struct gtbs_grid *b = h_submit(h, &db, 0);

	h_drain(h);
	ck_assert_int_eq(a->state, GTBS_GRID_DONE);
	ck_assert_int_eq(b->state, GTBS_GRID_TIMED_OUT);
	ck_assert_uint_eq(b->start_cycle, 1000);
	ck_assert_uint_eq(b->end_cycle, 2500);
	ck_assert_uint_eq(b->blocks_done, 1);
	h_free(h);
}
END_TEST

/*
 * The lower of the device's and the grid's own timeout applies, either
 * being 0 (off): {device, grid, the timeout that applies, the end of a
 * 4 x 1000 grid, its state}.
 */
static const struct {
	u64 dev, grid, applies, end;
	enum gtbs_grid_state state;
} timeout_pairs[] = {
	{ 0, 0, 0, 4000, GTBS_GRID_DONE },
	{ 0, 1500, 1500, 1500, GTBS_GRID_TIMED_OUT },
	{ 1200, 0, 1200, 1200, GTBS_GRID_TIMED_OUT },
	{ 1200, 5000, 1200, 1200, GTBS_GRID_TIMED_OUT },
	{ 5000, 1700, 1700, 1700, GTBS_GRID_TIMED_OUT },
	{ 5000, 4000, 4000, 4000, GTBS_GRID_DONE },
};

START_TEST(timeout_lower_of_device_and_grid)
{
	struct h_dev *h = one_sm(timeout_pairs[_i].dev);
	struct gtbs_grid_desc d = wide(4, 1000);
	struct gtbs_grid *a;

	d.timeout_cycles = timeout_pairs[_i].grid;
	a = h_submit(h, &d, 0);
	ck_assert_uint_eq(gtbs_grid_timeout(&h->dev, a),
			  timeout_pairs[_i].applies);
	h_drain(h);
	ck_assert_int_eq(a->state, timeout_pairs[_i].state);
	ck_assert_uint_eq(a->end_cycle, timeout_pairs[_i].end);
	h_free(h);
}
END_TEST

/*
 * Changing the device's timeout applies to running grids: lowered to 600
 * at 2200 under a grid running since 0, it stops the grid at 2200 (it is
 * past it already); raised from 1000 to 10000 at 500, the grid completes.
 */
START_TEST(timeout_set_applies_to_running)
{
	struct h_dev *h = one_sm(0);
	struct gtbs_grid_desc d = wide(4, 1000);
	struct gtbs_grid *a = h_submit(h, &d, 0);

	gtbs_dev_run_until(&h->dev, 2200);
	gtbs_dev_set_timeout(&h->dev, 600, 2200);
	h_drain(h);
	ck_assert_int_eq(a->state, GTBS_GRID_TIMED_OUT);
	ck_assert_uint_eq(a->end_cycle, 2200);
	ck_assert_uint_eq(a->blocks_done, 2);
	h_free(h);

	h = one_sm(1000);
	a = h_submit(h, &d, 0);
	gtbs_dev_run_until(&h->dev, 500);
	gtbs_dev_set_timeout(&h->dev, 10000, 500);
	h_drain(h);
	ck_assert_int_eq(a->state, GTBS_GRID_DONE);
	ck_assert_uint_eq(a->end_cycle, 4000);
	h_free(h);
}
END_TEST

/* Cancelling a grid that timed out changes nothing. */
START_TEST(timeout_then_cancel_noop)
{
	struct h_dev *h = one_sm(1500);
	struct gtbs_grid_desc d = wide(4, 1000);
	struct gtbs_grid *a = h_submit(h, &d, 0);

	h_drain(h);
	gtbs_grid_cancel(&h->dev, a, 9000);
	ck_assert_int_eq(a->state, GTBS_GRID_TIMED_OUT);
	ck_assert_uint_eq(a->end_cycle, 1500);
	ck_assert_uint_eq(h->dev.grids_cancelled, 0);
	ck_assert_uint_eq(h->dev.grids_timed_out, 1);
	h_free(h);
}
END_TEST

/* The descriptor check refuses a timeout above 2^62. */
START_TEST(timeout_desc_limit)
{
	struct gtbs_dev_config cfg;
	struct gtbs_grid_desc d = wide(1, 10);
	const char *why;

	gtbs_config_default(&cfg);
	d.timeout_cycles = GTBS_MAX_TIMEOUT_CYCLES;
	ck_assert_int_eq(gtbs_grid_desc_check(&cfg, &d, &why), 0);
	d.timeout_cycles = GTBS_MAX_TIMEOUT_CYCLES + 1;
	ck_assert_int_eq(gtbs_grid_desc_check(&cfg, &d, &why), -EINVAL);
	ck_assert_str_eq(why, "timeout_cycles exceeds 2^62");
}
END_TEST

/* --- bounded runs -------------------------------------------------------- */

/* A budget stops the run early, leaves the clock at the last event. */
START_TEST(bounded_stops_at_budget)
{
	struct h_dev *h = one_sm(0);
	struct gtbs_grid_desc d = wide(5, 100);
	struct gtbs_grid *a = h_submit(h, &d, 0);
	u32 budget = 2;

	/* block ends at 100 and 200 are two events; 300 is left */
	ck_assert(!gtbs_dev_run_bounded(&h->dev, 10000, &budget));
	ck_assert_uint_eq(budget, 0);
	ck_assert_uint_eq(h->dev.clock, 200);
	ck_assert_uint_eq(a->blocks_done, 2);
	budget = 0;
	ck_assert(!gtbs_dev_run_bounded(&h->dev, 10000, &budget));
	ck_assert_uint_eq(a->blocks_done, 2);
	budget = 100;
	ck_assert(gtbs_dev_run_bounded(&h->dev, 10000, &budget));
	ck_assert_uint_eq(budget, 97);
	ck_assert_uint_eq(h->dev.clock, 10000);
	ck_assert_int_eq(a->state, GTBS_GRID_DONE);
	ck_assert_uint_eq(a->end_cycle, 500);
	h_free(h);
}
END_TEST

/*
 * A grid's arrival kicks every SM that is not full; once one SM took its
 * only block, the others undo their kicks without counting against the
 * budget (gtbs_dev_run_bounded()): the module's slice of 64 events would
 * otherwise run out undoing the kicks of one SUBMIT at 132 SMs and hand
 * the rest to a kthread.  The SM that issued is the one counted event.
 */
START_TEST(bounded_unkicks_uncounted)
{
	struct h_dev *h = h_new_sms(132);
	struct gtbs_grid_desc d = wide(1, 1000);
	struct gtbs_grid *g = h_grid_new(h, &d, NULL, NULL);
	u32 budget = 2;

	ck_assert_ptr_nonnull(g);
	gtbs_grid_submit(&h->dev, g, 0);
	ck_assert(gtbs_dev_run_bounded(&h->dev, 0, &budget));
	ck_assert_uint_eq(budget, 1);
	ck_assert_uint_eq(g->next_block, 1);
	ck_assert_uint_eq(gtbs_dev_next_event(&h->dev), 1000);
	budget = 1;
	ck_assert(gtbs_dev_run_bounded(&h->dev, 1000, &budget));
	ck_assert_uint_eq(budget, 0);
	ck_assert_int_eq(g->state, GTBS_GRID_DONE);
	h_free(h);
}
END_TEST

/* A random workload with job timeouts, on a random small device. */
struct tw {
	struct gtbs_dev_config cfg;
	u32 nr;
	struct gtbs_grid_desc desc[16];
	u64 arrive[16];
	u64 dev_timeout;
};

static void tw_gen(u64 seed, struct tw *w)
{
	u64 s = seed, t = 0;
	u32 i;

	memset(w, 0, sizeof(*w));
	gtbs_config_default(&w->cfg);
	w->cfg.nr_sms = h_rand_range(&s, 1, 4);
	w->nr = h_rand_range(&s, 1, 16);
	w->dev_timeout = h_rand_range(&s, 0, 1) ?
			 h_rand_range(&s, 1, 40000) : 0;
	for (i = 0; i < w->nr; i++) {
		struct gtbs_grid_desc *d = &w->desc[i];

		*d = h_desc(h_rand_range(&s, 1, 40),
			    h_rand_range(&s, 1, 1024),
			    h_rand_range(&s, 0, 32), 0,
			    h_rand_range(&s, 1, 5000));
		d->block_rsd_ppm = h_rand_range(&s, 0, GTBS_PPM / 2);
		d->seed = h_rand(&s);
		d->prio_class = h_rand_range(&s, GTBS_PRIO_LOW,
					     GTBS_PRIO_REALTIME);
		if (h_rand_range(&s, 0, 2) == 0)
			d->timeout_cycles = h_rand_range(&s, 1, 30000);
		t += h_rand_range(&s, 0, 1) ? 0 : h_rand_range(&s, 0, 8000);
		w->arrive[i] = t;
	}
}

/* Submit at each arrival (running the device there first), then drain. */
static struct h_dev *tw_run_plain(const struct tw *w)
{
	struct h_dev *h = h_new(&w->cfg, NULL);
	u32 i;

	h->dev.timeout_cycles = w->dev_timeout;
	for (i = 0; i < w->nr; i++)
		h_submit(h, &w->desc[i], w->arrive[i]);
	h_drain(h);
	return h;
}

/*
 * The module's way: at each submission the device has had one slice of
 * @budget events toward the arrival (it may be behind), and the grid is
 * submitted with gtbs_grid_submit_at() at the arrival cycle; in between
 * and at the end the device runs in slices of @budget.  Each slice
 * processes at most @budget events.
 */
static struct h_dev *tw_run_bounded(const struct tw *w, u32 budget)
{
	struct h_dev *h = h_new(&w->cfg, NULL);
	const char *why;
	u32 i, left;
	int err;

	h->dev.timeout_cycles = w->dev_timeout;
	for (i = 0; i < w->nr; i++) {
		struct gtbs_grid *g = h_grid_new(h, &w->desc[i], &err, &why);

		ck_assert_ptr_nonnull(g);
		left = budget;
		gtbs_dev_run_bounded(&h->dev, w->arrive[i], &left);
		ck_assert_uint_le(h->dev.clock, w->arrive[i]);
		gtbs_grid_submit_at(&h->dev, g, w->arrive[i], w->arrive[i]);
	}
	do {
		left = budget;
	} while (!gtbs_dev_run_bounded(&h->dev, U64_MAX, &left));
	return h;
}

/*
 * Property: slices of any budget, and submissions to a device that is
 * behind, give exactly the events of the plain run, timeouts included,
 * with every SM's resources within bounds at every event.
 */
START_TEST(prop_bounded_equals_plain)
{
	static const u32 budgets[] = { 1, 2, 3, 7, 64, 256 };
	struct tw w;
	struct h_dev *a, *b;
	unsigned int k;

	tw_gen(90000 + _i, &w);
	a = tw_run_plain(&w);
	for (k = 0; k < ARRAY_SIZE(budgets); k++) {
		b = tw_run_bounded(&w, budgets[k]);
		ck_assert_msg(b->violations == 0, "%s", b->violation);
		ck_assert_uint_eq(a->nr_ev, b->nr_ev);
		ck_assert_msg(!memcmp(a->ev, b->ev, a->nr_ev * sizeof(*a->ev)),
			      "seed %d budget %u: bounded run differs", _i,
			      budgets[k]);
		ck_assert_uint_eq(a->dev.grids_timed_out,
				  b->dev.grids_timed_out);
		ck_assert_uint_eq(b->dev.grids_submitted,
				  b->dev.grids_completed +
				  b->dev.grids_timed_out);
		ck_assert(gtbs_dev_idle(&b->dev));
		h_free(b);
	}
	h_free(a);
}
END_TEST

/* The random workloads do time grids out (the property is not vacuous). */
START_TEST(prop_bounded_covers_timeouts)
{
	u64 timed_out = 0, completed = 0;
	struct h_dev *a;
	struct tw w;
	int i;

	for (i = 0; i < 40; i++) {
		tw_gen(90000 + i, &w);
		a = tw_run_plain(&w);
		timed_out += a->dev.grids_timed_out;
		completed += a->dev.grids_completed;
		h_free(a);
	}
	ck_assert_uint_gt(timed_out, 10);
	ck_assert_uint_gt(completed, 10);
}
END_TEST

/* --- Job timeouts filed in O(log n) ------------------------------------- */

#define TMO_SMS		256
#define TMO_SLOTS	64
#define TMO_GRIDS	(TMO_SMS * TMO_SLOTS)

static double tmo_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * TMO_GRIDS one-block grids, all resident at once (TMO_SMS SMs of
 * TMO_SLOTS one-warp blocks), launched at cycle 0 in id order with their
 * own timeouts: all equal (@decreasing false), or each launch two cycles
 * shorter than the one before it, pairs equal (@decreasing true), so that
 * every launch expires before every grid already running.  Returns the
 * seconds the submissions and launches took, then checks that every grid timed out at
 * its own expiry, in (expiry, launch) order.
 */
static double tmo_run(bool decreasing)
{
	struct gtbs_dev_config cfg;
	struct gtbs_grid_desc d = h_desc(1, 32, 16, 0, 1000000);
	struct gtbs_grid **g = calloc(TMO_GRIDS, sizeof(*g));
	u64 last_expiry = 0, last_id = 0;
	struct h_dev *h;
	size_t i, k = 0;
	double t;

	ck_assert_ptr_nonnull(g);
	gtbs_config_default(&cfg);
	cfg.nr_sms = TMO_SMS;
	cfg.max_blocks_per_sm = TMO_SLOTS;
	cfg.max_warps_per_sm = TMO_SLOTS;
	cfg.max_threads_per_sm = TMO_SLOTS * 32;
	h = h_new(&cfg, NULL);
	t = tmo_now();
	for (i = 0; i < TMO_GRIDS; i++) {
		d.timeout_cycles = decreasing ? 500000 - i / 2 * 2 : 500000;
		g[i] = h_grid_new(h, &d, NULL, NULL);
		ck_assert_ptr_nonnull(g[i]);
		/* each submission first runs the device: the launch before */
		gtbs_grid_submit(&h->dev, g[i], 0);
	}
	gtbs_dev_run_until(&h->dev, 0);
	t = tmo_now() - t;
	for (i = 0; i < TMO_GRIDS; i++)
		ck_assert_int_eq(g[i]->state, GTBS_GRID_RUNNING);
	h_drain(h);
	for (i = 0; i < h->nr_ev; i++) {
		const struct h_event *e = &h->ev[i];
		const struct gtbs_grid *x;

		if (e->kind != H_EV_GRID_TIMEOUT)
			continue;
		x = g[e->grid_id];	/* ids from 0, in submission order */
		ck_assert_uint_eq(x->id, e->grid_id);
		ck_assert_int_eq(x->state, GTBS_GRID_TIMED_OUT);
		ck_assert_uint_eq(x->end_cycle, x->desc.timeout_cycles);
		ck_assert_msg(!k || x->end_cycle > last_expiry ||
			      (x->end_cycle == last_expiry && x->id > last_id),
			      "grid %llu timed out out of order",
			      (unsigned long long)x->id);
		last_expiry = x->end_cycle;
		last_id = x->id;
		k++;
	}
	ck_assert_uint_eq(k, TMO_GRIDS);
	ck_assert(list_empty(&h->dev.timeouts));
	free(g);
	h_free(h);
	return t;
}

/*
 * Filing a launched grid's job timeout costs O(log n) whatever the order
 * of the expiries: launches that each expire first take about what
 * launches with equal expiries take (with the linear scan, each walked
 * every running grid: TMO_GRIDS^2 / 2 steps, over 5 times as long), and
 * the grids time out in (expiry, launch) order either way.
 */
START_TEST(timeouts_filed_in_log_n)
{
	double eq = tmo_run(false), dec = tmo_run(true);

	ck_assert_msg(dec < 2 * eq + 0.05,
		      "%d launches expiring first took %.3f s, in order %.3f s",
		      TMO_GRIDS, dec, eq);
}
END_TEST

Suite *timeout_suite(void)
{
	Suite *s = suite_create("timeout");
	TCase *tc;

	tc = h_tcase("timeout");
	tcase_add_test(tc, timeout_stops_running_grid);
	tcase_add_test(tc, timeout_at_last_end_completes);
	tcase_add_test(tc, timeout_counts_from_first_block);
	tcase_add_loop_test(tc, timeout_lower_of_device_and_grid, 0,
			    ARRAY_SIZE(timeout_pairs));
	tcase_add_test(tc, timeout_set_applies_to_running);
	tcase_add_test(tc, timeout_then_cancel_noop);
	tcase_add_test(tc, timeout_desc_limit);
	suite_add_tcase(s, tc);

	tc = h_tcase("timeouts-log-n");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, timeouts_filed_in_log_n);
	suite_add_tcase(s, tc);

	tc = h_tcase("bounded");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, bounded_stops_at_budget);
	tcase_add_test(tc, bounded_unkicks_uncounted);
	tcase_add_loop_test(tc, prop_bounded_equals_plain, 0, 40);
	tcase_add_test(tc, prop_bounded_covers_timeouts);
	suite_add_tcase(s, tc);
	return s;
}
