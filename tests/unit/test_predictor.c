// SPDX-License-Identifier: GPL-2.0
/*
 * test_predictor.c - the Simple Slicing predictor (sm-emu/predictor.c).
 *
 * Paper Section "The Simple Slicing Predictor": Algorithm 1 and Equation 2,
 * Pred_Cycles = Active_Kernel_Cycles + (Total_Blocks - Done_Blocks) * t /
 * Resident_Blocks, and Section "Predictor Accuracy" (slice-unaware mode).
 * Every expected value below is worked out by hand in the comment next to
 * it; the quotient of Equation 2 is rounded down.
 *
 * Copyright (C) 2026 The gputbs developers
 */
#include "harness.h"
#include "predictor.h"

typedef unsigned __int128 u128;

/* A state with Block_Start[] for every possible slot, in one allocation. */
struct st_full {
	struct gtbs_pred_sm s;
	u64 starts[GTBS_MAX_BLOCKS_PER_SM];
};

static struct gtbs_pred_sm *st_new(u32 blocks, u32 r, u32 sms)
{
	struct st_full *f = malloc(sizeof(*f));

	ck_assert_ptr_nonnull(f);
	memset(f, 0xa5, sizeof(*f));	/* init and on_launch set it all */
	ck_assert_int_eq(gtbs_pred_init(&f->s, f->starts,
					GTBS_MAX_BLOCKS_PER_SM), 0);
	ck_assert_uint_eq(f->s.slot_busy, 0);
	ck_assert_int_eq(gtbs_pred_on_launch(&f->s, blocks, r, sms), 0);
	ck_assert_ptr_eq(f->s.block_start, f->starts);
	return &f->s;
}

/* One block end; checks the return value and, if predicted, Pred and t. */
static void end_expect(struct gtbs_pred_sm *s, u32 slot, u64 cycle,
		       int ret, u64 pred, u64 t)
{
	ck_assert_int_eq(gtbs_pred_on_block_end(s, slot, cycle), ret);
	ck_assert_msg(s->pred_cycles == pred,
		      "end slot %u at %llu: Pred_Cycles %llu, want %llu", slot,
		      (unsigned long long)cycle,
		      (unsigned long long)s->pred_cycles,
		      (unsigned long long)pred);
	ck_assert_msg(s->t == t, "end slot %u at %llu: t %llu, want %llu", slot,
		      (unsigned long long)cycle, (unsigned long long)s->t,
		      (unsigned long long)t);
	ck_assert(!s->reslice);
}

/*
 * A staircase alone (paper Figure "Staircase Model Execution"): B = 180
 * blocks on N_SM = 15 SMs, so Total_Blocks = 12 per SM, R = 4, every
 * block t = 1001 cycles: three waves of four blocks, ending at 1001, 2002,
 * 3003.  The k-th block end (k = 1..12) is in wave w = (k - 1) / 4 + 1,
 * with Active_Kernel_Cycles = w * 1001 and t = 1001 from the first end:
 *   k=1: 1001 + 11 * 1001 / 4 = 1001 + floor(2752.75) = 3753
 *   k=2: 1001 + 10 * 1001 / 4 = 1001 + floor(2502.5)  = 3503
 *   k=3: 1001 +  9 * 1001 / 4 = 1001 + floor(2252.25) = 3253
 *   k=4: 1001 +  8 * 1001 / 4 = 1001 + 2002           = 3003
 *   k=5: 2002 +  7 * 1001 / 4 = 2002 + floor(1751.75) = 3753 ...
 *   k=12: 3003 + 0                                     = 3003
 * Equation 1: the actual runtime is ceil(12 / 4) * 1001 = 3003, which the
 * last prediction of each wave gives exactly.
 */
START_TEST(staircase_alone)
{
	static const u64 want[12] = { 3753, 3503, 3253, 3003, 3753, 3503,
				      3253, 3003, 3753, 3503, 3253, 3003 };
	struct gtbs_pred_sm *s = st_new(180, 4, 15);
	const u64 t = 1001;
	u32 wave, slot, k = 0;

	ck_assert_uint_eq(s->total_blocks, 12);
	ck_assert_uint_eq(s->resident_blocks, 4);
	ck_assert_uint_eq(s->done_blocks, 0);
	ck_assert(s->reslice);
	ck_assert(!s->predicted);
	ck_assert(!s->slice_unaware);
	ck_assert_uint_eq(gtbs_pred_remaining(s, 0), U64_MAX);
	for (slot = 0; slot < 4; slot++)
		ck_assert_int_eq(gtbs_pred_on_block_start(s, slot, 0), 0);
	ck_assert_uint_eq(gtbs_pred_remaining(s, 500), U64_MAX);
	for (wave = 1; wave <= 3; wave++) {
		for (slot = 0; slot < 4; slot++, k++) {
			end_expect(s, slot, wave * t, 1, want[k], t);
			ck_assert_uint_eq(s->done_blocks, k + 1);
		}
		if (wave == 1) {
			/* the first prediction is t + (Total - 1) * t / R */
			ck_assert_uint_eq(want[0], t + 11 * t / 4);
			/* remaining after the wave: 3003 - 1001 */
			ck_assert_uint_eq(gtbs_pred_remaining(s, t), 2002);
		}
		for (slot = 0; slot < 4 && wave < 3; slot++)
			ck_assert_int_eq(gtbs_pred_on_block_start(s, slot,
								  wave * t), 0);
		if (wave == 1)	/* 500 cycles into wave 2: 3003 - 1501 */
			ck_assert_uint_eq(gtbs_pred_remaining(s, 1501), 1502);
	}
	ck_assert_uint_eq(s->nr_resident, 0);
	ck_assert_uint_eq(gtbs_pred_active_cycles(s, 9999), 3003);
	ck_assert_uint_eq(gtbs_pred_remaining(s, 3003), 0);
	free(s);
}
END_TEST

/*
 * Reslice on a co-runner launch: one SM (N_SM = 1), 8 blocks, R = 2, so
 * Total_Blocks = 8.  Wave 1 (slots 0, 1) runs 0..100:
 *   end slot 0 at 100: t = 100, 100 + 7 * 100 / 2 = 450
 *   end slot 1 at 100: t = 100, 100 + 6 * 100 / 2 = 400
 * Wave 2 starts at 100; a co-runner launches at 150 (reslice); the wave's
 * blocks end at 260 (duration 160) and 280 (duration 180):
 *   end slot 0 at 260: Reslice, t = 160, 260 + 5 * 160 / 2 = 660
 *   end slot 1 at 280: t stays 160,      280 + 4 * 160 / 2 = 600
 * Without the reslice t would stay 100 (260 + 250 = 510).
 */
static void corunner_trace(struct gtbs_pred_sm *s, bool unaware)
{
	ck_assert_int_eq(gtbs_pred_on_block_start(s, 0, 0), 0);
	ck_assert_int_eq(gtbs_pred_on_block_start(s, 1, 0), 0);
	end_expect(s, 0, 100, 1, 450, 100);
	end_expect(s, 1, 100, unaware ? 0 : 1, unaware ? 450 : 400, 100);
	ck_assert_int_eq(gtbs_pred_on_block_start(s, 0, 100), 0);
	ck_assert_int_eq(gtbs_pred_on_block_start(s, 1, 100), 0);
	gtbs_pred_reslice(s);		/* co-runner launch at 150 */
	ck_assert(s->reslice);
	ck_assert_uint_eq(s->t, 100);	/* a reslice alone does not set t */
	if (unaware) {
		ck_assert_int_eq(gtbs_pred_on_block_end(s, 0, 260), 0);
		ck_assert_int_eq(gtbs_pred_on_block_end(s, 1, 280), 0);
		ck_assert_uint_eq(s->pred_cycles, 450);
		ck_assert_uint_eq(s->t, 100);
	} else {
		end_expect(s, 0, 260, 1, 660, 160);
		end_expect(s, 1, 280, 1, 600, 160);
	}
	ck_assert_uint_eq(s->done_blocks, 4);
}

START_TEST(reslice_on_corunner_launch)
{
	struct gtbs_pred_sm *s = st_new(8, 2, 1);

	ck_assert_uint_eq(s->total_blocks, 8);
	corunner_trace(s, false);
	/* remaining at 280: 600 - 280 */
	ck_assert_uint_eq(gtbs_pred_remaining(s, 280), 320);
	free(s);
}
END_TEST

/* Slice-unaware: the first prediction (450, t = 100) stays. */
START_TEST(slice_unaware_keeps_first)
{
	struct gtbs_pred_sm *s = st_new(8, 2, 1);

	gtbs_pred_set_slice_unaware(s, true);
	corunner_trace(s, true);
	/* a residency change does not predict again either */
	ck_assert_int_eq(gtbs_pred_set_residency(s, 1), 0);
	gtbs_pred_reslice(s);
	ck_assert_int_eq(gtbs_pred_on_block_start(s, 0, 300), 0);
	ck_assert_int_eq(gtbs_pred_on_block_end(s, 0, 400), 0);
	ck_assert_uint_eq(s->pred_cycles, 450);
	ck_assert_uint_eq(s->done_blocks, 5);
	/* 450 - active 380 (0..280 and 300..400) */
	ck_assert_uint_eq(gtbs_pred_remaining(s, 400), 70);
	/* a new launch resets the mode to slice-aware */
	ck_assert_int_eq(gtbs_pred_on_launch(s, 8, 2, 1), 0);
	ck_assert(!s->slice_unaware);
	ck_assert(!s->predicted);
	free(s);
}
END_TEST

/*
 * Resident_Blocks follows gtbs_pred_set_residency().  8 blocks, R = 4,
 * N_SM = 1, slots 0..3 start at 0, slot 0 ends at 100:
 *   t = 100, 100 + 7 * 100 / 4 = 275
 * residency limited to 2, with a reslice; slot 1 ends at 130:
 *   t = 130, 130 + 6 * 130 / 2 = 520
 * residency set to 3 without a reslice; slot 2 ends at 140:
 *   t stays 130, 140 + 5 * 130 / 3 = 140 + floor(216.67) = 356
 */
START_TEST(residency_change)
{
	struct gtbs_pred_sm *s = st_new(8, 4, 1);
	u32 i;

	for (i = 0; i < 4; i++)
		ck_assert_int_eq(gtbs_pred_on_block_start(s, i, 0), 0);
	end_expect(s, 0, 100, 1, 275, 100);
	ck_assert_int_eq(gtbs_pred_set_residency(s, 2), 0);
	ck_assert(!s->reslice);		/* the setter does not reslice */
	gtbs_pred_reslice(s);
	end_expect(s, 1, 130, 1, 520, 130);
	ck_assert_int_eq(gtbs_pred_set_residency(s, 3), 0);
	end_expect(s, 2, 140, 1, 356, 130);
	ck_assert_uint_eq(s->resident_blocks, 3);
	free(s);
}
END_TEST

/*
 * Literal mode (Algorithm 1 as printed): 8 blocks, R = 4, N_SM = 1, slots
 * 0..3 start at 0, slot 0 ends at 100:
 *   t = 100, 100 + 7 * 100 / 4 = 275
 * the residency drops to 2: no slice, Resident_Blocks stays R = 4; slot 1
 * ends at 130, t stays 100:
 *   130 + 6 * 100 / 4 = 280
 * The extended mode on the same timeline starts a slice instead:
 *   t = 130, 130 + 6 * 130 / 2 = 520
 */
START_TEST(literal_keeps_r)
{
	bool literal = _i == 0;
	struct gtbs_pred_sm *s = st_new(8, 4, 1);
	u32 i;

	gtbs_pred_set_literal(s, literal);
	for (i = 0; i < 4; i++)
		ck_assert_int_eq(gtbs_pred_on_block_start(s, i, 0), 0);
	end_expect(s, 0, 100, 1, 275, 100);
	ck_assert_int_eq(gtbs_pred_on_residency(s, 2), literal ? 0 : 1);
	ck_assert_uint_eq(s->resident_blocks, literal ? 4 : 2);
	ck_assert(s->reslice == !literal);
	end_expect(s, 1, 130, 1, literal ? 280 : 520, literal ? 100 : 130);
	/* no count, the same count, out of range: never a slice */
	ck_assert_int_eq(gtbs_pred_on_residency(s, 0), 0);
	ck_assert_int_eq(gtbs_pred_on_residency(s, s->resident_blocks), 0);
	ck_assert_int_eq(gtbs_pred_on_residency(s, GTBS_MAX_BLOCKS_PER_SM + 1),
			 -EINVAL);
	/* OnLaunch resets the mode to extended */
	ck_assert_int_eq(gtbs_pred_on_launch(s, 8, 4, 1), 0);
	ck_assert(!s->literal);
	free(s);
}
END_TEST

/*
 * Slice-unaware predicts once with R, whatever residency was observed
 * before the first block end: 8 blocks, R = 4, N_SM = 1, the observed
 * residency set to 2, slots 0 and 1 start at 0, slot 0 ends at 100:
 *   100 + 7 * 100 / 4 = 275 (not 100 + 7 * 100 / 2 = 450)
 */
START_TEST(slice_unaware_uses_r)
{
	struct gtbs_pred_sm *s = st_new(8, 4, 1);

	gtbs_pred_set_slice_unaware(s, true);
	ck_assert_int_eq(gtbs_pred_on_residency(s, 2), 1);
	ck_assert_int_eq(gtbs_pred_on_block_start(s, 0, 0), 0);
	ck_assert_int_eq(gtbs_pred_on_block_start(s, 1, 0), 0);
	end_expect(s, 0, 100, 1, 275, 100);
	ck_assert_uint_eq(s->max_residency, 4);
	free(s);
}
END_TEST

/*
 * More blocks than Total_Blocks ran on the SM: 4 blocks on N_SM = 2 gives
 * Total_Blocks = 2; R = 1; three blocks run back to back on slot 0:
 *   end at 10: t = 10, 10 + (2 - 1) * 10 = 20
 *   end at 20: 20 + 0 = 20
 *   end at 30: Done 3 > Total 2, remaining clamped at 0: 30
 * (unclamped, (u32)(2 - 3) * 10 would be about 4.3e10).
 */
START_TEST(done_exceeds_total_clamps)
{
	struct gtbs_pred_sm *s = st_new(4, 1, 2);

	ck_assert_uint_eq(s->total_blocks, 2);
	ck_assert_int_eq(gtbs_pred_on_block_start(s, 0, 0), 0);
	end_expect(s, 0, 10, 1, 20, 10);
	ck_assert_int_eq(gtbs_pred_on_block_start(s, 0, 10), 0);
	end_expect(s, 0, 20, 1, 20, 10);
	ck_assert_int_eq(gtbs_pred_on_block_start(s, 0, 20), 0);
	end_expect(s, 0, 30, 1, 30, 10);
	ck_assert_uint_eq(s->done_blocks, 3);
	ck_assert_uint_eq(gtbs_pred_equation2(30, 2, 3, 10, 1), 30);
	ck_assert_uint_eq(gtbs_pred_equation2(30, 2, U32_MAX, 10, 1), 30);
	ck_assert_uint_eq(gtbs_pred_equation2(30, 0, 0, 10, 1), 30);
	free(s);
}
END_TEST

/*
 * Active_Kernel_Cycles counts only cycles with a resident block.  3 blocks,
 * N_SM = 1, R = 2.  Slot 0 runs 100..200, nothing until 500, then slot 1
 * runs 500..650 (a reslice at 450: another kernel ended):
 *   end at 200: active 100, t = 100, 100 + 2 * 100 / 2 = 200
 *   end at 650: active 100 + 150 = 250, t = 150, 250 + 1 * 150 / 2 = 325
 * Counting from the first start instead (550 at 650) would give 625.
 * Then two overlapping blocks, 700..800 and 750..900, add 200, not 250.
 */
START_TEST(active_cycles_gap)
{
	struct gtbs_pred_sm *s = st_new(3, 2, 1);

	ck_assert_uint_eq(gtbs_pred_active_cycles(s, 50), 0);
	ck_assert_int_eq(gtbs_pred_on_block_start(s, 0, 100), 0);
	ck_assert_uint_eq(gtbs_pred_active_cycles(s, 150), 50);
	end_expect(s, 0, 200, 1, 200, 100);
	ck_assert_uint_eq(gtbs_pred_active_cycles(s, 400), 100);
	/* remaining does not shrink while nothing is resident */
	ck_assert_uint_eq(gtbs_pred_remaining(s, 400), 100);
	gtbs_pred_reslice(s);
	ck_assert_int_eq(gtbs_pred_on_block_start(s, 1, 500), 0);
	ck_assert_uint_eq(gtbs_pred_active_cycles(s, 600), 200);
	end_expect(s, 1, 650, 1, 325, 150);
	ck_assert_uint_eq(gtbs_pred_active_cycles(s, 680), 250);
	ck_assert_int_eq(gtbs_pred_on_block_start(s, 0, 700), 0);
	ck_assert_int_eq(gtbs_pred_on_block_start(s, 1, 750), 0);
	ck_assert_uint_eq(s->nr_resident, 2);
	ck_assert_int_eq(gtbs_pred_on_block_end(s, 0, 800), 1);
	ck_assert_uint_eq(gtbs_pred_active_cycles(s, 850), 400);
	ck_assert_int_eq(gtbs_pred_on_block_end(s, 1, 900), 1);
	ck_assert_uint_eq(gtbs_pred_active_cycles(s, 1000), 450);
	/* Done 4 > Total 3: the prediction is the active cycles */
	ck_assert_uint_eq(s->pred_cycles, 450);
	free(s);
}
END_TEST

static u64 ref_eq2(u64 active, u32 total, u32 done, u64 t, u32 r)
{
	u128 rem = done < total ? total - done : 0;
	u128 v = (u128)active + rem * t / (r ? r : 1);

	return v > U64_MAX ? U64_MAX : (u64)v;
}

/*
 * Bounds: cycles up to 2^40, blocks up to 2^24 per SM.
 *   (2^24 - 0) * (2^40 - 1) / 1 = 2^64 - 2^24: exact
 *   2^40 + (2^24 - 1) * 2^40 / 1 = 2^64: does not fit, saturates
 *   (2^24) * 2^40 / 64 = 2^58
 *   (2^24 - 1) * (2^40 - 1) / 3 = 6148914324727048875 (exact, by __int128)
 */
START_TEST(overflow_bounds)
{
	const u64 c40 = 1ULL << 40;
	const u32 b24 = 1U << 24;
	struct gtbs_pred_sm *s;

	ck_assert_uint_eq(gtbs_pred_equation2(0, b24, 0, c40 - 1, 1),
			  U64_MAX - b24 + 1);
	ck_assert_uint_eq(gtbs_pred_equation2(c40, b24, 1, c40, 1), U64_MAX);
	ck_assert_uint_eq(gtbs_pred_equation2(0, b24, 0, c40, 64), 1ULL << 58);
	ck_assert_uint_eq(gtbs_pred_equation2(0, b24, 1, c40 - 1, 3),
			  6148914324727048875ULL);
	ck_assert_uint_eq(6148914324727048875ULL,
			  (u64)((u128)(b24 - 1) * (c40 - 1) / 3));
	ck_assert_uint_eq(gtbs_pred_equation2(U64_MAX, 2, 1, 1, 1), U64_MAX);
	ck_assert_uint_eq(gtbs_pred_equation2(0, U32_MAX, 0, U64_MAX, 1),
			  U64_MAX);
	ck_assert_uint_eq(gtbs_pred_equation2(0, U32_MAX, 0, U64_MAX, 64),
			  U64_MAX);

	/* through the state: 2^24 blocks on one SM, one block of 2^40 - 1 */
	s = st_new(b24, 1, 1);
	ck_assert_uint_eq(s->total_blocks, b24);
	ck_assert_int_eq(gtbs_pred_on_block_start(s, 0, 1), 0);
	end_expect(s, 0, c40, 1, U64_MAX - b24 + 1, c40 - 1);
	ck_assert_uint_eq(gtbs_pred_remaining(s, c40),
			  U64_MAX - b24 + 1 - (c40 - 1));
	/* ceil(U32_MAX / 1) and ceil(U32_MAX / 2) without wrapping */
	ck_assert_int_eq(gtbs_pred_on_launch(s, U32_MAX, 1, 1), 0);
	ck_assert_uint_eq(s->total_blocks, U32_MAX);
	ck_assert_int_eq(gtbs_pred_on_launch(s, U32_MAX, 1, 2), 0);
	ck_assert_uint_eq(s->total_blocks, 1U << 31);
	ck_assert_int_eq(gtbs_pred_on_launch(s, 1, 1, 15), 0);
	ck_assert_uint_eq(s->total_blocks, 1);
	free(s);
}
END_TEST

/* Equation 2 against a 128-bit reference, random arguments. */
START_TEST(equation2_matches_reference)
{
	u64 seed = 0x5eed0000ULL + (u64)_i;
	int n;

	for (n = 0; n < 100000; n++) {
		u64 active = h_rand(&seed) >> h_rand_range(&seed, 0, 63);
		u32 total = (u32)(h_rand(&seed) >> h_rand_range(&seed, 32, 63));
		u32 done = (u32)(h_rand(&seed) >> h_rand_range(&seed, 32, 63));
		u64 t = h_rand(&seed) >> h_rand_range(&seed, 0, 63);
		u32 r = (u32)h_rand_range(&seed, 1, 64);

		ck_assert_uint_eq(gtbs_pred_equation2(active, total, done, t, r),
				  ref_eq2(active, total, done, t, r));
	}
}
END_TEST

START_TEST(rejects_bad_input)
{
	struct gtbs_pred_sm *s = st_new(10, 2, 1), copy;

	ck_assert_int_eq(gtbs_pred_on_launch(s, 0, 2, 1), -EINVAL);
	ck_assert_int_eq(gtbs_pred_on_launch(s, 10, 0, 1), -EINVAL);
	ck_assert_int_eq(gtbs_pred_on_launch(s, 10, GTBS_MAX_BLOCKS_PER_SM + 1,
					     1), -EINVAL);
	ck_assert_int_eq(gtbs_pred_on_launch(s, 10, 2, 0), -EINVAL);
	ck_assert_int_eq(gtbs_pred_on_launch(s, 10, GTBS_MAX_BLOCKS_PER_SM, 1),
			 0);
	ck_assert_int_eq(gtbs_pred_set_residency(s, 0), -EINVAL);
	ck_assert_int_eq(gtbs_pred_set_residency(s, GTBS_MAX_BLOCKS_PER_SM + 1),
			 -EINVAL);
	ck_assert_uint_eq(s->resident_blocks, GTBS_MAX_BLOCKS_PER_SM);
	ck_assert_int_eq(gtbs_pred_on_block_start(s, 5, 100), 0);
	ck_assert_int_eq(gtbs_pred_on_block_start(s, GTBS_MAX_BLOCKS_PER_SM - 1,
						  100), 0);
	copy = *s;
	ck_assert_int_eq(gtbs_pred_on_block_start(s, GTBS_MAX_BLOCKS_PER_SM,
						  100), -EINVAL);
	ck_assert_int_eq(gtbs_pred_on_block_start(s, 5, 120), -EBUSY);
	ck_assert_int_eq(gtbs_pred_on_block_start(s, 6, 99), -EINVAL);
	ck_assert_int_eq(gtbs_pred_on_block_end(s, 6, 120), -ENOENT);
	ck_assert_int_eq(gtbs_pred_on_block_end(s, GTBS_MAX_BLOCKS_PER_SM, 120),
			 -EINVAL);
	ck_assert_int_eq(gtbs_pred_on_block_end(s, 5, 99), -EINVAL);
	ck_assert(!memcmp(&copy, s, sizeof(copy)));
	/* the highest slot: t = 100, active 100, 100 + 9 * 100 / 64 = 114 */
	end_expect(s, GTBS_MAX_BLOCKS_PER_SM - 1, 200, 1, 114, 100);
	/* a block end at the same cycle as the previous event is fine */
	ck_assert_int_eq(gtbs_pred_on_block_end(s, 5, 200), 1);
	ck_assert_uint_eq(s->slot_busy, 0);
	free(s);
}
END_TEST

/* Block_Start[] as the engine sizes it: blkindex is checked against it. */
START_TEST(slots_bound_by_init)
{
	u64 starts[8] = { 0 };
	struct gtbs_pred_sm s;

	ck_assert_int_eq(gtbs_pred_init(&s, NULL, 8), -EINVAL);
	ck_assert_int_eq(gtbs_pred_init(&s, starts, 0), -EINVAL);
	ck_assert_int_eq(gtbs_pred_init(&s, starts,
					GTBS_MAX_BLOCKS_PER_SM + 1), -EINVAL);
	ck_assert_int_eq(gtbs_pred_init(&s, starts, 8), 0);
	ck_assert_int_eq(gtbs_pred_on_launch(&s, 16, 8, 1), 0);
	ck_assert_uint_eq(s.nr_slots, 8);
	ck_assert_int_eq(gtbs_pred_on_block_start(&s, 8, 10), -EINVAL);
	ck_assert_int_eq(gtbs_pred_on_block_end(&s, 8, 10), -EINVAL);
	ck_assert_int_eq(gtbs_pred_on_block_start(&s, 7, 10), 0);
	ck_assert_uint_eq(starts[7], 10);
	/* t = 40, active 40: 40 + 15 * 40 / 8 = 115 */
	end_expect(&s, 7, 50, 1, 115, 40);
}
END_TEST

/* A block end through the slicing rules; checks as end_expect(). */
static void slice_end_expect(struct gtbs_pred_sm *s, u64 *s_gen, u64 gen,
			     u32 slot, u64 cycle, u64 pred, u64 t)
{
	ck_assert_int_eq(gtbs_slice_on_block_end(s, s_gen, gen, slot, cycle),
			 1);
	ck_assert_uint_eq(*s_gen, gen);
	ck_assert(!gtbs_slice_due(s, *s_gen, gen));
	ck_assert_msg(s->pred_cycles == pred && s->t == t,
		      "end slot %u at %llu: Pred_Cycles %llu t %llu, want %llu %llu",
		      slot, (unsigned long long)cycle,
		      (unsigned long long)s->pred_cycles,
		      (unsigned long long)s->t, (unsigned long long)pred,
		      (unsigned long long)t);
}

/*
 * The slicing rules (predictor.c, DOC "Slices") on a timeline of one SM
 * (N_SM = 1), device slice generation gen starting at 0:
 *   0: A launches (gen 1) and joins; A has 8 blocks, R = 2, so
 *      Total_Blocks = 8; slots 0 and 1 start.
 *   100: both end.  Reslice (OnLaunch): t = 100,
 *      100 + 7 * 100 / 2 = 450, then 100 + 6 * 100 / 2 = 400.  Both start
 *      again.
 *   150: B launches (gen 2) and joins: A's own Reslice flag is still
 *      false, but its effective one (gtbs_slice_due()) is true.  B's block
 *      (1 block, R = 1) starts in slot 2.
 *   200: B's block ends: t = 50, 50 + 0 = 50; B ends (gen 3).  A queued
 *      grid C that never ran is cancelled: no slice (gen stays 3).
 *   260: A's slot 0 ends: catches up (1 -> 3), t = 260 - 100 = 160,
 *      260 + 5 * 160 / 2 = 660 (without the catch-up t = 100: 510).
 *      Starts again.
 *   280: A's slot 1 ends: same slice, t stays 160: 280 + 4 * 160 / 2 =
 *      600.  Starts again.
 *   300: D launches (gen 4); its state on this SM joins lazily, at its
 *      first block at 350, at gen 4 with Reslice set by OnLaunch.
 *   380: A's slot 0 (from 260) ends: catches up (3 -> 4), t = 120,
 *      380 + 3 * 120 / 2 = 560.
 *   400: A's slot 1 (from 280) ends: t stays 120: 400 + 2 * 120 / 2 = 520.
 */
START_TEST(slicing_rules_timeline)
{
	struct gtbs_pred_sm *a = st_new(1, 1, 1), *b = st_new(1, 1, 1);
	struct gtbs_pred_sm *d = st_new(1, 1, 1);
	u64 gen = 0, a_gen = 99, b_gen = 99, d_gen = 99;

	gtbs_slice_on_kernel_launch(&gen);
	ck_assert_uint_eq(gen, 1);
	ck_assert_int_eq(gtbs_slice_join(a, &a_gen, gen, 8, 2, 1, false,
					 false), 0);
	ck_assert_uint_eq(a_gen, 1);
	ck_assert_uint_eq(a->total_blocks, 8);
	ck_assert(gtbs_slice_due(a, a_gen, gen));	/* OnLaunch */
	ck_assert_int_eq(gtbs_pred_on_block_start(a, 0, 0), 0);
	ck_assert_int_eq(gtbs_pred_on_block_start(a, 1, 0), 0);
	slice_end_expect(a, &a_gen, gen, 0, 100, 450, 100);
	slice_end_expect(a, &a_gen, gen, 1, 100, 400, 100);
	ck_assert_int_eq(gtbs_pred_on_block_start(a, 0, 100), 0);
	ck_assert_int_eq(gtbs_pred_on_block_start(a, 1, 100), 0);

	gtbs_slice_on_kernel_launch(&gen);		/* B at 150 */
	ck_assert_uint_eq(gen, 2);
	ck_assert(!a->reslice);
	ck_assert(gtbs_slice_due(a, a_gen, gen));
	ck_assert_int_eq(gtbs_slice_join(b, &b_gen, gen, 1, 1, 1, false,
					 false), 0);
	ck_assert_int_eq(gtbs_pred_on_block_start(b, 2, 150), 0);
	slice_end_expect(b, &b_gen, gen, 2, 200, 50, 50);
	gtbs_slice_on_kernel_end(&gen, true);		/* B ends at 200 */
	ck_assert_uint_eq(gen, 3);
	gtbs_slice_on_kernel_end(&gen, false);		/* C never ran */
	ck_assert_uint_eq(gen, 3);

	slice_end_expect(a, &a_gen, gen, 0, 260, 660, 160);
	ck_assert_int_eq(gtbs_pred_on_block_start(a, 0, 260), 0);
	slice_end_expect(a, &a_gen, gen, 1, 280, 600, 160);
	ck_assert_int_eq(gtbs_pred_on_block_start(a, 1, 280), 0);

	gtbs_slice_on_kernel_launch(&gen);		/* D at 300 */
	ck_assert_uint_eq(gen, 4);
	ck_assert_int_eq(gtbs_slice_join(d, &d_gen, gen, 2, 1, 1, true,
					 true), 0);	/* at 350 */
	ck_assert_uint_eq(d_gen, 4);
	ck_assert(d->slice_unaware && d->literal && d->reslice);
	ck_assert(gtbs_slice_due(d, d_gen, gen));

	ck_assert(gtbs_slice_due(a, a_gen, gen));
	slice_end_expect(a, &a_gen, gen, 0, 380, 560, 120);
	slice_end_expect(a, &a_gen, gen, 1, 400, 520, 120);
	ck_assert_uint_eq(a->done_blocks, 6);

	/* a bad OnLaunch leaves the state and its generation alone */
	ck_assert_int_eq(gtbs_slice_join(a, &a_gen, 7, 8,
					 GTBS_MAX_BLOCKS_PER_SM + 1, 1, false,
					 false), -EINVAL);
	ck_assert_uint_eq(a_gen, 4);
	ck_assert_uint_eq(a->done_blocks, 6);
	/* catching up twice at one generation is one slice */
	gtbs_slice_catch_up(a, &a_gen, gen);
	ck_assert(!a->reslice);
	free(a);
	free(b);
	free(d);
}
END_TEST

Suite *predictor_suite(void)
{
	Suite *s = suite_create("predictor");
	TCase *tc = h_tcase("predictor");

	tcase_add_test(tc, staircase_alone);
	tcase_add_test(tc, reslice_on_corunner_launch);
	tcase_add_test(tc, slice_unaware_keeps_first);
	tcase_add_test(tc, residency_change);
	tcase_add_loop_test(tc, literal_keeps_r, 0, 2);
	tcase_add_test(tc, slice_unaware_uses_r);
	tcase_add_test(tc, done_exceeds_total_clamps);
	tcase_add_test(tc, active_cycles_gap);
	tcase_add_test(tc, overflow_bounds);
	tcase_add_loop_test(tc, equation2_matches_reference, 0, 4);
	tcase_add_test(tc, rejects_bad_input);
	tcase_add_test(tc, slots_bound_by_init);
	tcase_add_test(tc, slicing_rules_timeline);
	suite_add_tcase(s, tc);
	return s;
}
