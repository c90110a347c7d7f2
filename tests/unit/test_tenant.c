// SPDX-License-Identifier: GPL-2.0
/*
 * test_tenant.c - tenants (sm-emu/tenant.c): SM time counted exactly, caps
 * that hold alone and beside others under any policy and with preemption
 * (a switched-out block's save and restore, a flushed block's refund),
 * and the fair policy's weighted shares (sm-emu/policy_fair.c).
 *
 * Copyright (C) 2026 The gputbs developers
 */
#include <math.h>

#include "harness.h"

/* A grid of @blocks blocks of exactly @cycles, R = 8 on the paper's SM. */
static struct gtbs_grid_desc ten_desc(u32 blocks, u64 cycles)
{
	struct gtbs_grid_desc d = h_desc(blocks, 64, 16, 0, cycles);

	d.block_rsd_ppm = 0;
	return d;
}

/* Init @d's grid for tenant @t (NULL: the device's) and submit it at @at. */
static struct gtbs_grid *ten_submit(struct h_dev *h, struct gtbs_tenant *t,
				    const struct gtbs_grid_desc *d, u64 at)
{
	const char *why = NULL;
	struct gtbs_grid *g;
	int err = 0;

	g = h_grid_new(h, d, &err, &why);
	ck_assert_msg(g, "grid rejected (%d): %s", err, why);
	gtbs_dev_run_until(&h->dev, at);
	g->tenant = t;
	gtbs_grid_submit(&h->dev, g, at);
	gtbs_dev_run_until(&h->dev, at);
	return g;
}

/* @t's share of the device's SM time over [@from, @to]: held / (S x T). */
static double ten_share(const struct h_dev *h, const struct gtbs_tenant *t,
			u64 held_from, u64 from, u64 to)
{
	return (double)(gtbs_tenant_sm_time(t, to) - held_from) /
	       ((double)h->dev.cfg.nr_sms * (double)(to - from) *
		GTBS_SM_TIME_SCALE);
}

/*
 * One SM, R = 8: 16 blocks of 1000 cycles run 0..2000 and hold 16 x 1000
 * / 8 = 2000 SM-cycles; a grid without a tenant is the device's.
 */
START_TEST(tenant_sm_time_exact)
{
	struct h_dev *h = h_new_sms(1);
	struct gtbs_grid_desc d = ten_desc(16, 1000);
	struct gtbs_tenant t;
	struct gtbs_grid *g;

	gtbs_tenant_init(&h->dev, &t, 7, 0);
	ck_assert_uint_eq(t.weight, GTBS_TENANT_WEIGHT_DEFAULT);
	g = ten_submit(h, NULL, &d, 0);
	ck_assert_ptr_eq(g->tenant, &h->dev.tenant0);
	ten_submit(h, &t, &d, 0);
	ck_assert_uint_eq(h_drain(h), 4000);
	ck_assert_uint_eq(gtbs_tenant_sm_time(&h->dev.tenant0, 4000),
			  2000 * GTBS_SM_TIME_SCALE);
	ck_assert_uint_eq(gtbs_tenant_sm_time(&t, 4000),
			  2000 * GTBS_SM_TIME_SCALE);
	ck_assert_uint_eq(t.rate, 0);
	ck_assert(!gtbs_tenant_busy(&t));
	gtbs_tenant_del(&h->dev, &t);
	h_free(h);
}
END_TEST

/*
 * A cap holds alone, on an otherwise idle device: one SM, 16,000 blocks of
 * 1000 cycles (uncapped 2 M cycles), max 30%: each 100,000-cycle period
 * the grid runs 30,000 cycles at full residency and is throttled, so the
 * run lasts about 6.7 M cycles at 30%.  Beside an uncapped tenant under
 * FIFO (the capped grid first; the other's grid of 60,000 blocks outlasts
 * it), the capped one still holds 30% and the other takes the rest: 70%.
 * @_i: alone, beside.
 */
START_TEST(tenant_cap_holds)
{
	struct h_dev *h = h_new_sms(1);
	struct gtbs_grid_desc d = ten_desc(16000, 1000);
	struct gtbs_tenant capped, other;
	struct gtbs_grid *a, *b = NULL;
	double share;
	u64 end;

	gtbs_tenant_init(&h->dev, &capped, 1, 0);
	gtbs_tenant_init(&h->dev, &other, 2, 0);
	ck_assert_int_eq(gtbs_tenant_set(&h->dev, &capped, 100, 300000, 0), 0);
	a = ten_submit(h, &capped, &d, 0);
	if (_i) {
		/* long enough to keep the SM busy to the capped run's end */
		struct gtbs_grid_desc db = ten_desc(60000, 1000);

		b = ten_submit(h, &other, &db, 0);
	}
	/* to the capped grid's end, where the shares are read */
	while (a->state != GTBS_GRID_DONE)
		gtbs_dev_run_until(&h->dev, gtbs_dev_next_event(&h->dev));
	end = a->end_cycle;
	share = ten_share(h, &capped, 0, 0, end);
	ck_assert_msg(fabs(share - 0.30) <= 0.005, "capped: %.4f", share);
	ck_assert_uint_gt(capped.nr_throttles, 50);
	ck_assert_uint_gt(capped.throttled_cycles, end / 2);
	if (_i) {
		/* over the capped run, the other tenant had every other cycle */
		share = ten_share(h, &other, 0, 0, end);
		ck_assert_msg(fabs(share - 0.70) <= 0.005, "other: %.4f",
			      share);
		ck_assert_uint_eq(other.nr_throttles, 0);
		ck_assert_ptr_nonnull(b);
	}
	h_drain(h);
	ck_assert_uint_eq(h->violations, 0);
	h_free(h);
}
END_TEST

/*
 * Issue 30's miss, on the host: blocks as long as the cap period or
 * longer.  Four SMs, R = 8 (32 slots), FIFO, the capped tenant's grid
 * first (max 30%), an uncapped tenant's behind it, both with blocks to
 * issue past the interval read, [0, 200 periods].  Every block ends
 * with its wave, so a wave's end frees all 32 slots at once: a check
 * against the budget alone lets the capped tenant take them all for a
 * whole block (a debt of 70% of a quota for a block of one period, 120%
 * for 1.5), and a refill that comes after the SMs' events of its cycle
 * finds the uncapped tenant's wave in every slot.  Within 0.5 points of
 * 30% over the interval.  @_i: blocks of 100,000 cycles (one period),
 * of 150,000 (1.5 periods).
 */
START_TEST(tenant_cap_long_blocks)
{
	static const u64 cycles[] = { 100000, 150000 };
	struct h_dev *h = h_new_sms(4);
	struct gtbs_grid_desc dc = ten_desc(4000, cycles[_i]);
	struct gtbs_grid_desc du = ten_desc(8000, cycles[_i]);
	struct gtbs_tenant capped, other;
	struct gtbs_grid *a, *b;
	u64 until = 200 * h->dev.cap_period;
	double share;

	gtbs_tenant_init(&h->dev, &capped, 1, 0);
	gtbs_tenant_init(&h->dev, &other, 2, 0);
	ck_assert_int_eq(gtbs_tenant_set(&h->dev, &capped, 100, 300000, 0), 0);
	a = ten_submit(h, &capped, &dc, 0);
	b = ten_submit(h, &other, &du, 0);
	gtbs_dev_run_until(&h->dev, until);
	/* both still had blocks to issue: the device was saturated */
	ck_assert_uint_lt(a->next_block, a->desc.nr_blocks);
	ck_assert_uint_lt(b->next_block, b->desc.nr_blocks);
	share = ten_share(h, &capped, 0, 0, until);
	ck_assert_msg(fabs(share - 0.30) <= 0.005, "blocks of %llu: %.4f",
		      (unsigned long long)cycles[_i], share);
	share += ten_share(h, &other, 0, 0, until);
	ck_assert_msg(share > 0.99, "device busy %.4f", share);
	h_drain(h);
	ck_assert_uint_eq(h->violations, 0);
	h_free(h);
}
END_TEST

/*
 * A throttled tenant's grid that arrives is throttled at once, and a
 * lifted cap lets it issue at the cycle it is lifted.
 */
START_TEST(tenant_cap_lifted)
{
	struct h_dev *h = h_new_sms(1);
	struct gtbs_grid_desc d = ten_desc(800, 1000);
	struct gtbs_tenant t;
	struct gtbs_grid *a, *b;

	gtbs_tenant_init(&h->dev, &t, 1, 0);
	ck_assert_int_eq(gtbs_tenant_set(&h->dev, &t, 100, 100000, 0), 0);
	a = ten_submit(h, &t, &d, 0);
	gtbs_dev_run_until(&h->dev, 50000);
	ck_assert(t.throttled);
	ck_assert_uint_eq(a->throttle, GTBS_THROTTLE_CAP);
	b = ten_submit(h, &t, &d, 50000);
	ck_assert_uint_eq(b->throttle, GTBS_THROTTLE_CAP);
	ck_assert_int_eq(gtbs_tenant_set(&h->dev, &t, 100, 0, 50000), 0);
	ck_assert(!t.throttled);
	ck_assert_uint_eq(a->throttle | b->throttle, 0);
	ck_assert_uint_eq(gtbs_dev_next_refill(&h->dev), U64_MAX);
	h_drain(h);
	ck_assert_uint_eq(a->start_cycle, 0);
	ck_assert_uint_eq(h->violations, 0);
	/* out of range: nothing changes */
	ck_assert_int_eq(gtbs_tenant_set(&h->dev, &t, 0, 0, a->end_cycle),
			 -EINVAL);
	ck_assert_int_eq(gtbs_tenant_set(&h->dev, &t, 10001, 0, a->end_cycle),
			 -EINVAL);
	ck_assert_int_eq(gtbs_tenant_set(&h->dev, &t, 1, 1000001,
					 a->end_cycle), -EINVAL);
	ck_assert_uint_eq(t.weight, 100);
	h_free(h);
}
END_TEST

/*
 * A cap set long after the tenant was made (the module: a cgroup that
 * submitted earlier, then root sets its max) starts in the period of the
 * cycle it is set, with the rest of that period's quota: it does not
 * throttle an idle tenant, leaves no refill in the past, and then holds.
 * Worked by hand, one SM, P = 100,000: set at 1,050,000 with max 50%, the
 * quota left is 0.5 x 50,000 = 25,000 SM-cycles; a grid of 16,000 blocks
 * of 1000 cycles (R = 8, 2,000,000 SM-cycles) submitted there runs 25,000
 * cycles, then 50,000 of every later period.
 */
START_TEST(tenant_cap_set_late)
{
	struct h_dev *h = h_new_sms(1);
	struct gtbs_grid_desc d = ten_desc(16000, 1000);
	struct gtbs_tenant t;
	struct gtbs_grid *g;
	double share;

	gtbs_tenant_init(&h->dev, &t, 1, 0);
	gtbs_dev_run_until(&h->dev, 1050000);
	ck_assert_int_eq(gtbs_tenant_set(&h->dev, &t, 100, 500000, 1050000),
			 0);
	ck_assert(!t.throttled);
	ck_assert_uint_eq(t.period_end, 1100000);
	ck_assert_int_eq(t.budget, 25000LL * GTBS_SM_TIME_SCALE);
	ck_assert_uint_eq(gtbs_dev_next_refill(&h->dev), U64_MAX);
	g = ten_submit(h, &t, &d, 1050000);
	gtbs_dev_run_until(&h->dev, 1099999);
	ck_assert(t.throttled);
	ck_assert_uint_eq(gtbs_tenant_sm_time(&t, 1099999),
			  25000 * GTBS_SM_TIME_SCALE);
	while (g->state != GTBS_GRID_DONE)
		gtbs_dev_run_until(&h->dev, gtbs_dev_next_event(&h->dev));
	share = ten_share(h, &t, 0, 1050000, g->end_cycle);
	ck_assert_msg(fabs(share - 0.50) <= 0.005, "capped: %.4f", share);
	h_drain(h);
	ck_assert_uint_eq(h->violations, 0);
	h_free(h);
}
END_TEST

/*
 * fair: two tenants keep 15 SMs busy (each a grid of 60,000 blocks of
 * 2000 cycles, R = 8); over the interval both have blocks to issue, their
 * SM time is in the proportion of their weights: 10:90 within 0.5
 * percentage points, 1:99 within 0.2, 1:1 within 0.5.  FIFO, for
 * contrast, gives the first grid nearly everything.
 */
static const struct {
	u32 wa, wb;
	double tol;
} fair_cases[] = {
	{ 10, 90, 0.005 }, { 1, 99, 0.002 }, { 100, 100, 0.005 },
};

START_TEST(fair_weighted_shares)
{
	struct gtbs_dev_config cfg;
	struct gtbs_grid_desc d = ten_desc(60000, 2000);
	struct gtbs_tenant ta, tb;
	struct gtbs_grid *a, *b;
	struct h_dev *h;
	double want, sa, sb;
	u64 until;

	gtbs_config_default(&cfg);
	h = h_new(&cfg, gtbs_policy_find("fair"));
	gtbs_tenant_init(&h->dev, &ta, 1, 0);
	gtbs_tenant_init(&h->dev, &tb, 2, 0);
	ck_assert_int_eq(gtbs_tenant_set(&h->dev, &ta, fair_cases[_i].wa, 0,
					 0), 0);
	ck_assert_int_eq(gtbs_tenant_set(&h->dev, &tb, fair_cases[_i].wb, 0,
					 0), 0);
	a = ten_submit(h, &ta, &d, 0);
	b = ten_submit(h, &tb, &d, 0);
	/* until the first grid has issued its last block */
	while (gtbs_grid_has_blocks(a) && gtbs_grid_has_blocks(b))
		gtbs_dev_run_until(&h->dev, gtbs_dev_next_event(&h->dev));
	until = h->dev.clock;
	ck_assert_uint_gt(until, 1000000);
	sa = ten_share(h, &ta, 0, 0, until);
	sb = ten_share(h, &tb, 0, 0, until);
	want = (double)fair_cases[_i].wa /
	       (fair_cases[_i].wa + fair_cases[_i].wb);
	ck_assert_msg(fabs(sa - want) <= fair_cases[_i].tol &&
		      fabs(sb - (1 - want)) <= fair_cases[_i].tol,
		      "weights %u:%u: shares %.4f %.4f",
		      fair_cases[_i].wa, fair_cases[_i].wb, sa, sb);
	h_drain(h);
	ck_assert_uint_eq(h->violations, 0);
	h_free(h);
}
END_TEST

/* The KUnit case gtbs_srtf_tenant_cap_timeline's timeline, on the host. */
START_TEST(tenant_cap_timeline)
{
	struct h_dev *h = h_new_sms(1);
	struct gtbs_grid_desc d = h_desc(60, 256, 0, 48 * 1024, 1000);
	struct gtbs_tenant t;
	struct gtbs_grid *g;
	long i;

	d.block_rsd_ppm = 0;
	gtbs_tenant_init(&h->dev, &t, 1, 0);
	ck_assert_int_eq(gtbs_tenant_set(&h->dev, &t, 100, 300000, 0), 0);
	g = ten_submit(h, &t, &d, 0);
	ck_assert_uint_eq(g->occ.residency, 1);
	h_drain(h);
	i = h_find(h, H_EV_BLOCK_START, g->id, 29);
	ck_assert_uint_eq(h->ev[i].start, 29000);
	i = h_find(h, H_EV_BLOCK_START, g->id, 30);
	ck_assert_uint_eq(h->ev[i].start, 100000);
	ck_assert_uint_eq(g->end_cycle, 130000);
	ck_assert_uint_eq(gtbs_tenant_sm_time(&t, 130000),
			  60000 * GTBS_SM_TIME_SCALE);
	ck_assert_uint_eq(t.nr_throttles, 2);
	/* throttled 29,000..100,000 and 130,000..200,000 */
	ck_assert_uint_eq(t.throttled_cycles, 141000);
	ck_assert(!t.throttled);
	ck_assert_uint_eq(gtbs_dev_next_refill(&h->dev), U64_MAX);
	gtbs_tenant_del(&h->dev, &t);
	h_free(h);
}
END_TEST

/*
 * fair's virtual times, large: one SM, R = 8, blocks of 1000 cycles, two
 * tenants of weight 100 with a grid each.  Every 1000 cycles the SM's 8
 * slots free at once and all go to the tenant least in virtual time (its
 * picks of one cycle see the same virtual times): a at 0 (a tie, the
 * earlier grid), b at 1000, a at 2000, b at 3000, each tenant's virtual
 * time 10^9 units per wave.  At 3500 the tenants' SM times are moved on,
 * as after years of device time:
 *
 * - @_i 0: a by 2^64 / 100 - 2 x 10^9 units, so that it has held 2^64 /
 *   100 (rounded up) since it was placed, 1.8 x 10^11 SM-cycles (23
 *   minutes of a busy 132-SM device at 1 us per cycle): its virtual time
 *   is as far ahead, and b issues at 4000 and at 5000;
 * - @_i 1: both by -3 x 10^9 units (mod 2^64), so that a's virtual time
 *   passes 2^64 at 4000 while b's is just below: the order goes on as
 *   before the wrap, a at 4000 (a tie), b at 5000.
 */
START_TEST(fair_vtime_large)
{
	struct gtbs_dev_config cfg;
	struct gtbs_grid_desc d = ten_desc(800, 1000);
	struct gtbs_tenant ta, tb;
	struct gtbs_grid *a, *b;
	struct h_dev *h;

	gtbs_config_default(&cfg);
	cfg.nr_sms = 1;
	h = h_new(&cfg, gtbs_policy_find("fair"));
	gtbs_tenant_init(&h->dev, &ta, 1, 0);
	gtbs_tenant_init(&h->dev, &tb, 2, 0);
	a = ten_submit(h, &ta, &d, 0);
	b = ten_submit(h, &tb, &d, 0);
	gtbs_dev_run_until(&h->dev, 3500);
	ck_assert_uint_eq(a->next_block, 16);
	ck_assert_uint_eq(b->next_block, 16);
	ck_assert_uint_eq(gtbs_tenant_sm_time(&ta, 3500),
			  2000 * GTBS_SM_TIME_SCALE);
	if (_i == 0) {
		ta.sm_time += U64_MAX / 100 + 1 - 2000 * GTBS_SM_TIME_SCALE;
	} else {
		ta.sm_time -= 3000 * GTBS_SM_TIME_SCALE;
		tb.sm_time -= 3000 * GTBS_SM_TIME_SCALE;
	}
	gtbs_dev_run_until(&h->dev, 5500);
	ck_assert_msg(a->next_block == (_i ? 24 : 16) &&
		      b->next_block == (_i ? 24 : 32),
		      "blocks issued: a %u, b %u", a->next_block,
		      b->next_block);
	h_drain(h);
	ck_assert_uint_eq(h->violations, 0);
	h_free(h);
}
END_TEST

/*
 * Caps with preemption.  One SM of the paper's device under FIFO with a
 * pool of records, blocks that fill the SM by shared memory (R = 1, as in
 * test_preempt.c): a block's context is 48 KiB, its save or restore
 * 49152 / 8 = 6144 cycles (TEN_CTX).  A tenant t is capped on periods of
 * TEN_P = 10,000 cycles; the HIGH grids are the device's own (uncapped).
 */
#define TEN_CTX	6144ULL
#define TEN_P	10000ULL
#define TEN_U	GTBS_SM_TIME_SCALE

static struct gtbs_saved ten_pool[64];

static struct h_dev *ten_pre_dev(u32 mode)
{
	struct h_dev *h = h_new_sms(1);
	struct gtbs_tenant *t;

	gtbs_dev_set_saved_pool(&h->dev, ten_pool, ARRAY_SIZE(ten_pool));
	ck_assert_int_eq(gtbs_dev_set_preempt(&h->dev, mode, 0), 0);
	/* as the module's cap_period setter: no tenant capped yet */
	h->dev.cap_period = TEN_P;
	list_for_each_entry(t, &h->dev.tenants, node)
		t->period_end = TEN_P;
	return h;
}

static struct gtbs_grid_desc ten_sm_block(u32 blocks, u64 cycles, u32 class,
					  bool idem)
{
	struct gtbs_grid_desc d = h_desc(blocks, 256, 0, 48 * 1024, cycles);

	d.block_rsd_ppm = 0;
	d.prio_class = class;
	d.idempotent = idem;
	return d;
}

/*
 * Switch mode.  L (t's, LOW, 1 block of 1000) at 0, H (HIGH, 100) at 100:
 * L runs 0..100 and saves 100..6244, H 6244..6344, L restores
 * 6344..12488 and runs its 900 left to 13388 (test_preempt.c).  t holds
 * the SM 0..6244 and 6344..13388: 13,288 SM-cycles = 1000 + 2 x 6144.
 * t's cap, 50% (quota 5000 SM-cycles), set at 0, gives it 5000:
 *
 *   0      L issues, charged 1000:                     4000
 *   6244   save ends: 1000 given back, 6244 taken:    -1244 (throttled)
 *   10000  refill:                                     3756 (lifted)
 *   10000  L's restore issues, charged 6144 + 900:    -3288 (throttled)
 *   13388  L ends, held its charge:                   -3288
 *   20000  refill:                                     1712 (lifted)
 *
 * so L's restore waits for the refill: it issues at 10,000, not 6344,
 * restores to 16,144 and ends at 17,044; three quotas less 13,288 left.
 * @_i 1: cap 100% (quota 10,000): 3756 after the save, the restore issues
 * at 6344 and is charged 7044 (-3288: L has no block left to pick, so no
 * check), L ends at 13,388 where the lazy refill of 10,000 and the
 * true-up leave 6712, two quotas less 13,288: never throttled.
 */
START_TEST(tenant_cap_switch_exact)
{
	struct h_dev *h = ten_pre_dev(GTBS_PREEMPT_SWITCH);
	struct gtbs_grid_desc dl = ten_sm_block(1, 1000, GTBS_PRIO_LOW, false);
	struct gtbs_grid_desc dh = ten_sm_block(1, 100, GTBS_PRIO_HIGH, false);
	bool full = _i;
	u64 restore = full ? 100 + TEN_CTX + 100 : TEN_P;
	s64 quota = full ? TEN_P : TEN_P / 2;
	struct gtbs_tenant t;
	struct gtbs_grid *l, *hg;

	gtbs_tenant_init(&h->dev, &t, 1, 0);
	ck_assert_int_eq(gtbs_tenant_set(&h->dev, &t, 100,
					 full ? 1000000 : 500000, 0), 0);
	ck_assert_int_eq(t.budget, quota * TEN_U);
	l = ten_submit(h, &t, &dl, 0);
	ck_assert_int_eq(t.budget, (quota - 1000) * (s64)TEN_U);
	hg = ten_submit(h, NULL, &dh, 100);
	gtbs_dev_run_until(&h->dev, 100 + TEN_CTX);
	/* the save is t's: held 0..6244 */
	ck_assert_int_eq(t.budget, (quota - 100 - (s64)TEN_CTX) * (s64)TEN_U);
	ck_assert_int_eq(t.throttled, !full);
	gtbs_dev_run_until(&h->dev, 100 + TEN_CTX + 100);
	ck_assert_int_eq(t.budget, (quota - 1000 - 2 * (s64)TEN_CTX) *
			 (s64)TEN_U * full + (quota - 100 - (s64)TEN_CTX) *
			 (s64)TEN_U * !full);
	ck_assert_uint_eq(gtbs_tenant_sm_time(&t, 100 + TEN_CTX),
			  (100 + TEN_CTX) * TEN_U);
	h_drain(h);
	ck_assert_uint_eq(hg->start_cycle, 100 + TEN_CTX);
	ck_assert_uint_eq(hg->end_cycle, 100 + TEN_CTX + 100);
	ck_assert_int_eq(l->state, GTBS_GRID_DONE);
	ck_assert_uint_eq(l->end_cycle, restore + TEN_CTX + 900);
	/* exact: its run, its save and its restore */
	ck_assert_uint_eq(gtbs_tenant_sm_time(&t, l->end_cycle),
			  (1000 + 2 * TEN_CTX) * TEN_U);
	ck_assert_int_eq(t.budget, (quota * (full ? 2 : 3) - 1000 -
				    2 * (s64)TEN_CTX) * (s64)TEN_U);
	ck_assert_uint_eq(t.nr_throttles, full ? 0 : 2);
	ck_assert_uint_eq(t.rate, 0);
	gtbs_dev_run_until(&h->dev, 3 * TEN_P);
	ck_assert(!t.throttled);
	ck_assert_uint_eq(gtbs_dev_next_refill(&h->dev), U64_MAX);
	gtbs_tenant_del(&h->dev, &t);
	h_free(h);
}
END_TEST

/*
 * Switch mode, the bound (tenant.c's DOC): t (cap 20%, quota 2000) has a
 * grid of 40 LOW blocks of 1000 at 0, the device a HIGH block of 100 every
 * 7000 cycles from 100 to 21,100 (4) that switches t's running block
 * out.  t had no
 * grid at 0, so over [0, b] it holds less than q x (1 + period ends in
 * (0, b]) + c_max + E: c_max the largest charge of a block of its (its
 * run, a restore and the transfers queued before it: at most 1000 +
 * 2 x 6144) and E its saves (6144 each, what its blocks hold beyond
 * their charges).  Checked every 500 cycles.  At the end, its blocks all
 * trued up, its budget is the quotas it got less its SM time, more than
 * -c_max (its last block, issued long after the last switch, held
 * exactly its charge): the saves were paid, and the SM time is below
 * q x (1 + period ends) + c_max without E (a refill that forgave debts
 * would pass the first bound, not this one).  t's SM time is its 40,000
 * cycles of work plus 2 x 6144 per switch.
 */
START_TEST(tenant_cap_switch_bound)
{
	struct h_dev *h = ten_pre_dev(GTBS_PREEMPT_SWITCH);
	struct gtbs_grid_desc dl = ten_sm_block(40, 1000, GTBS_PRIO_LOW, false);
	struct gtbs_grid_desc dh = ten_sm_block(1, 100, GTBS_PRIO_HIGH, false);
	const u64 q = 2000, c_max = 1000 + 2 * TEN_CTX;
	struct gtbs_tenant t;
	struct gtbs_grid *l;
	u64 b, next_h = 100, switches;

	gtbs_tenant_init(&h->dev, &t, 1, 0);
	ck_assert_int_eq(gtbs_tenant_set(&h->dev, &t, 100, 200000, 0), 0);
	l = ten_submit(h, &t, &dl, 0);
	for (b = 500; l->state != GTBS_GRID_DONE; b += 500) {
		ck_assert_uint_lt(b, 100 * TEN_P);
		if (b > next_h && next_h < 4 * 7000) {
			ten_submit(h, NULL, &dh, next_h);
			next_h += 7000;
		}
		gtbs_dev_run_until(&h->dev, b);
		switches = h->dev.preempts[GTBS_MECH_SWITCH];
		ck_assert_uint_lt(gtbs_tenant_sm_time(&t, b),
				  (q * (1 + b / TEN_P) + c_max +
				   TEN_CTX * switches) * TEN_U);
	}
	switches = h->dev.preempts[GTBS_MECH_SWITCH];
	ck_assert_uint_gt(switches, 0);
	ck_assert_uint_gt(t.nr_throttles, 0);
	ck_assert_uint_eq(gtbs_tenant_sm_time(&t, l->end_cycle),
			  (40000 + 2 * TEN_CTX * switches) * TEN_U);
	ck_assert_uint_lt(gtbs_tenant_sm_time(&t, l->end_cycle),
			  (q * (1 + l->end_cycle / TEN_P) + c_max) * TEN_U);
	h_drain(h);
	gtbs_tenant_del(&h->dev, &t);
	h_free(h);
}
END_TEST

/*
 * Flush mode: t's L (idempotent, LOW, 2 blocks of 1000) at 0, cap 10.5%
 * (quota 1050 SM-cycles), the device's H (HIGH, 100) at 100.  Block 0 runs
 * 0..100 and is flushed at 100 (its 100 cycles lost, held); H 100..200;
 * block 0 again 200..1200; block 1 waits for the refill:
 *
 *   0      block 0 issues, charged 1000:                  50
 *   100    flushed: 1000 given back, 100 taken:          950
 *   200    block 0 again, charged 1000:                  -50 (throttled)
 *   1200   it ends, held its charge:                     -50
 *   10000  refill:                                      1000 (lifted)
 *   10000  block 1 issues, charged 1000:                   0
 *   11000  it ends, checked:                               0 (throttled)
 *   20000  refill (t has no grid: one quota at most):   1050 (lifted)
 *
 * t held 100 + 2 x 1000 = 2100 SM-cycles.  Without the flush's refund
 * (budget -50 at 100) block 0 would wait for the refill at 10,000.
 */
START_TEST(tenant_cap_flush_refund)
{
	struct h_dev *h = ten_pre_dev(GTBS_PREEMPT_FLUSH);
	struct gtbs_grid_desc dl = ten_sm_block(2, 1000, GTBS_PRIO_LOW, true);
	struct gtbs_grid_desc dh = ten_sm_block(1, 100, GTBS_PRIO_HIGH, false);
	struct gtbs_tenant t;
	struct gtbs_grid *l, *hg;
	u64 starts[4];

	gtbs_tenant_init(&h->dev, &t, 1, 0);
	ck_assert_int_eq(gtbs_tenant_set(&h->dev, &t, 100, 105000, 0), 0);
	ck_assert_int_eq(t.budget, 1050 * (s64)TEN_U);
	l = ten_submit(h, &t, &dl, 0);
	ck_assert_int_eq(t.budget, 50 * (s64)TEN_U);
	hg = ten_submit(h, NULL, &dh, 100);
	ck_assert_uint_eq(h->dev.preempts[GTBS_MECH_FLUSH], 1);
	ck_assert_int_eq(t.budget, 950 * (s64)TEN_U);
	ck_assert(!t.throttled);
	gtbs_dev_run_until(&h->dev, 200);
	ck_assert_uint_eq(hg->end_cycle, 200);
	ck_assert_int_eq(t.budget, -50 * (s64)TEN_U);
	ck_assert(t.throttled);
	gtbs_dev_run_until(&h->dev, TEN_P - 1);
	ck_assert_uint_eq(l->blocks_done, 1);
	ck_assert_int_eq(t.budget, -50 * (s64)TEN_U);
	gtbs_dev_run_until(&h->dev, TEN_P);
	ck_assert_int_eq(t.budget, 0);
	ck_assert(!t.throttled);
	h_drain(h);
	ck_assert_uint_eq(h_count(h, H_EV_BLOCK_START, l->id), 3);
	starts[0] = h->ev[h_find(h, H_EV_BLOCK_START, l->id, 1)].start;
	ck_assert_uint_eq(starts[0], TEN_P);
	ck_assert_uint_eq(l->end_cycle, TEN_P + 1000);
	ck_assert_uint_eq(gtbs_tenant_sm_time(&t, l->end_cycle),
			  2100 * TEN_U);
	ck_assert_uint_eq(t.nr_throttles, 2);
	gtbs_dev_run_until(&h->dev, 2 * TEN_P);
	ck_assert(!t.throttled);
	ck_assert_int_eq(t.budget, 1050 * (s64)TEN_U);
	/* throttled 200..10,000 and 11,000..20,000 */
	ck_assert_uint_eq(t.throttled_cycles, 2 * TEN_P - 200 - 1000);
	gtbs_tenant_del(&h->dev, &t);
	h_free(h);
}
END_TEST

/*
 * A flush's true-up may throttle the tenant of the grid it makes room for
 * (fuzz_sched: cap-flush-throttles-picked): that grid must not issue.
 * Flush mode, FIFO.  L (t's, LOW, idempotent, 1 block of 1000) issues at
 * 0 uncapped; t's cap, 5% (quota 500 SM-cycles), is set at 0 after it.
 * X (t's, HIGH, 100) arrives at 800:
 *
 *   800    t's check passes (500); X does not fit and L is flushed; L was
 *          issued before the cap, so its 800 cycles are taken: -300,
 *          t throttled, X and L off the pending list.
 *   10000  refill: 200 (lifted); X issues, charged 100: 100.
 *   10100  X ends (100); L runs again 10100..11100.
 *
 * Before the fix X issued at 800 all the same and left the pending list a
 * second time (gtbs_issue(): no block it may issue), so nr_pending[HIGH]
 * wrapped: after the refill FIFO looked for a HIGH grid that was not
 * there and L never ran again.
 */
START_TEST(tenant_cap_flush_throttles_picked)
{
	struct h_dev *h = ten_pre_dev(GTBS_PREEMPT_FLUSH);
	struct gtbs_grid_desc dl = ten_sm_block(1, 1000, GTBS_PRIO_LOW, true);
	struct gtbs_grid_desc dx = ten_sm_block(1, 100, GTBS_PRIO_HIGH, false);
	struct gtbs_tenant t;
	struct gtbs_grid *l, *x;
	u32 c;

	gtbs_tenant_init(&h->dev, &t, 1, 0);
	l = ten_submit(h, &t, &dl, 0);
	ck_assert_int_eq(gtbs_tenant_set(&h->dev, &t, 100, 50000, 0), 0);
	ck_assert_int_eq(t.budget, 500 * (s64)TEN_U);
	x = ten_submit(h, &t, &dx, 800);
	ck_assert_uint_eq(h->dev.preempts[GTBS_MECH_FLUSH], 1);
	ck_assert(t.throttled);
	ck_assert_int_eq(x->state, GTBS_GRID_QUEUED);
	ck_assert_int_eq(t.budget, -300 * (s64)TEN_U);
	ck_assert(list_empty(&h->dev.pending));
	for (c = 0; c < GTBS_NR_PRIO_CLASSES; c++)
		ck_assert_uint_eq(h->dev.nr_pending[c], 0);
	h_drain(h);
	ck_assert_int_eq(x->state, GTBS_GRID_DONE);
	ck_assert_int_eq(l->state, GTBS_GRID_DONE);
	ck_assert_uint_eq(x->start_cycle, TEN_P);
	ck_assert_uint_eq(x->end_cycle, TEN_P + 100);
	ck_assert_uint_eq(l->end_cycle, TEN_P + 100 + 1000);
	ck_assert_uint_eq(h->dev.lost_cycles, 800);
	for (c = 0; c < GTBS_NR_PRIO_CLASSES; c++)
		ck_assert_uint_eq(h->dev.nr_pending[c], 0);
	ck_assert_uint_eq(t.nr_grids, 0);
	ck_assert_uint_eq(t.rate, 0);
	ck_assert(gtbs_dev_idle(&h->dev));
	ck_assert_uint_eq(h->violations, 0);
	gtbs_tenant_del(&h->dev, &t);
	h_free(h);
}
END_TEST

Suite *tenant_suite(void)
{
	Suite *s = suite_create("tenant");
	TCase *tc = h_tcase("tenant");

	tcase_add_test(tc, tenant_sm_time_exact);
	tcase_add_test(tc, tenant_cap_timeline);
	tcase_add_loop_test(tc, tenant_cap_holds, 0, 2);
	tcase_add_loop_test(tc, tenant_cap_long_blocks, 0, 2);
	tcase_add_test(tc, tenant_cap_lifted);
	tcase_add_test(tc, tenant_cap_set_late);
	tcase_add_loop_test(tc, tenant_cap_switch_exact, 0, 2);
	tcase_add_test(tc, tenant_cap_switch_bound);
	tcase_add_test(tc, tenant_cap_flush_refund);
	tcase_add_test(tc, tenant_cap_flush_throttles_picked);
	tcase_add_loop_test(tc, fair_weighted_shares, 0,
			    ARRAY_SIZE(fair_cases));
	tcase_add_loop_test(tc, fair_vtime_large, 0, 2);
	suite_add_tcase(s, tc);
	return s;
}
