// SPDX-License-Identifier: GPL-2.0
/*
 * test_metrics.c - STP, ANTT and StrictF (sm-emu/metrics.c).
 *
 * Paper Section "Evaluation": STP = sum(alone / shared), ANTT = mean of
 * shared / alone, StrictF = min slowdown / max slowdown; fixed point with
 * GTBS_FP_ONE = 1.0, rounded to nearest.
 *
 * Copyright (C) 2026 The gputbs developers
 */
#include "harness.h"

#define ONE	GTBS_FP_ONE

#define u128	unsigned __int128

/* round(a * ONE / b), half up, without overflow */
static u64 ref_ratio(u64 a, u64 b)
{
	return (u64)(((u128)a * ONE + b / 2) / b);
}

START_TEST(hand_computed_two)
{
	/* alone 100 and 300; shared 200 and 400: slowdowns 2 and 4/3 */
	static const u64 alone[] = { 100, 300 };
	static const u64 shared[] = { 200, 400 };
	struct gtbs_metrics m;

	ck_assert_int_eq(gtbs_metrics_calc(alone, shared, 2, &m), 0);
	ck_assert_uint_eq(m.stp, 500000 + 750000);	/* 0.5 + 0.75 */
	ck_assert_uint_eq(m.antt, 1666667);		/* (2 + 1.3333) / 2 */
	ck_assert_uint_eq(m.strictf, 666667);		/* 1.3333 / 2 */
	ck_assert_uint_eq(m.max_slowdown, 2000000);
	ck_assert_uint_eq(m.min_slowdown, 1333333);
}
END_TEST

START_TEST(hand_computed_three)
{
	/* slowdowns 1.5, 1.0, 3.0 */
	static const u64 alone[] = { 1000, 2000, 3000 };
	static const u64 shared[] = { 1500, 2000, 9000 };
	struct gtbs_metrics m;

	ck_assert_int_eq(gtbs_metrics_calc(alone, shared, 3, &m), 0);
	/* 0.666667 + 1 + 0.333333 (each rounded) */
	ck_assert_uint_eq(m.stp, 666667 + 1000000 + 333333);
	/* 5.5 / 3 = 1.833333 */
	ck_assert_uint_eq(m.antt, 1833333);
	/* 1 / 3 */
	ck_assert_uint_eq(m.strictf, 333333);
	ck_assert_uint_eq(m.max_slowdown, 3000000);
	ck_assert_uint_eq(m.min_slowdown, 1000000);
}
END_TEST

/* A program that shares with nobody: STP = ANTT = StrictF = 1.0. */
START_TEST(single_program_is_one)
{
	static const u64 t[] = { 1, 7, 1234, 234154, 22224223, 1ULL << 32,
				 GTBS_MAX_BLOCK_CYCLES, 1ULL << 44 };
	struct gtbs_metrics m;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(t); i++) {
		ck_assert_int_eq(gtbs_metrics_calc(&t[i], &t[i], 1, &m), 0);
		ck_assert_msg(m.stp == ONE && m.antt == ONE &&
			      m.strictf == ONE && m.max_slowdown == ONE &&
			      m.min_slowdown == ONE,
			      "t = %llu: stp %llu antt %llu strictf %llu",
			      (unsigned long long)t[i],
			      (unsigned long long)m.stp,
			      (unsigned long long)m.antt,
			      (unsigned long long)m.strictf);
	}
}
END_TEST

/* n programs that do not slow each other: STP = n, ANTT = StrictF = 1. */
START_TEST(unaffected_programs)
{
	static u64 alone[1024];
	struct gtbs_metrics m;
	u32 i;

	for (i = 0; i < 1024; i++)
		alone[i] = 1000 + 37 * i;
	ck_assert_int_eq(gtbs_metrics_calc(alone, alone, 1024, &m), 0);
	ck_assert_uint_eq(m.stp, 1024 * ONE);
	ck_assert_uint_eq(m.antt, ONE);
	ck_assert_uint_eq(m.strictf, ONE);
}
END_TEST

START_TEST(rejects_bad_input)
{
	static const u64 ok[] = { 100, 100 };
	static const u64 zero0[] = { 0, 100 };
	static const u64 zero1[] = { 100, 0 };
	static u64 many[1025];
	struct gtbs_metrics m;
	u32 i;

	for (i = 0; i < 1025; i++)
		many[i] = 5;
	ck_assert_int_eq(gtbs_metrics_calc(ok, ok, 0, &m), -EINVAL);
	ck_assert_int_eq(gtbs_metrics_calc(many, many, 1025, &m), -EINVAL);
	ck_assert_int_eq(gtbs_metrics_calc(many, many, 1024, &m), 0);
	ck_assert_int_eq(gtbs_metrics_calc(zero0, ok, 2, &m), -EINVAL);
	ck_assert_int_eq(gtbs_metrics_calc(zero1, ok, 2, &m), -EINVAL);
	ck_assert_int_eq(gtbs_metrics_calc(ok, zero0, 2, &m), -EINVAL);
	ck_assert_int_eq(gtbs_metrics_calc(ok, zero1, 2, &m), -EINVAL);
}
END_TEST

START_TEST(slowdown_rounding)
{
	ck_assert_uint_eq(gtbs_slowdown(200, 100), 2 * ONE);
	ck_assert_uint_eq(gtbs_slowdown(100, 200), ONE / 2);
	ck_assert_uint_eq(gtbs_slowdown(1, 3), 333333);	/* .33 down */
	ck_assert_uint_eq(gtbs_slowdown(2, 3), 666667);	/* .67 up */
	ck_assert_uint_eq(gtbs_slowdown(1, 2000000), 1);	/* .5 up */
	ck_assert_uint_eq(gtbs_slowdown(1, 2000001), 0);	/* .49 down */
	ck_assert_uint_eq(gtbs_slowdown(0, 5), 0);
	/* alone 0 is an error: 0, not a division by zero */
	ck_assert_uint_eq(gtbs_slowdown(5, 0), 0);
	ck_assert_uint_eq(gtbs_slowdown(0, 0), 0);
}
END_TEST

/*
 * Huge times: exact while the slowdown fits in 64 bits, saturated at
 * U64_MAX beyond, never wrapped around.
 */
START_TEST(huge_shared_saturates)
{
	static const u64 alone1[] = { 1 }, alone2[] = { 1000 };
	static const u64 shared[] = { U64_MAX };
	struct gtbs_metrics m;

	ck_assert_uint_eq(gtbs_slowdown(U64_MAX, 1), U64_MAX);
	ck_assert_uint_eq(gtbs_slowdown(1ULL << 44, 1), (1ULL << 44) * ONE);
	ck_assert_uint_eq(gtbs_slowdown(U64_MAX, 1000), U64_MAX);
	/* 2^54 / 1000 * 10^6 = 2^54 * 1000 fits */
	ck_assert_uint_eq(gtbs_slowdown(1ULL << 54, 1000), (1ULL << 54) * 1000);
	/* monotonic up to saturation */
	ck_assert_uint_lt(gtbs_slowdown((1ULL << 44) - 1, 1),
			  gtbs_slowdown(1ULL << 44, 1));

	ck_assert_int_eq(gtbs_metrics_calc(alone1, shared, 1, &m), 0);
	ck_assert_uint_eq(m.antt, U64_MAX);
	ck_assert_uint_eq(m.max_slowdown, U64_MAX);
	ck_assert_uint_eq(m.min_slowdown, U64_MAX);
	ck_assert_uint_eq(m.strictf, ONE);
	ck_assert_uint_eq(m.stp, 0);

	ck_assert_int_eq(gtbs_metrics_calc(alone2, shared, 1, &m), 0);
	ck_assert_uint_eq(m.antt, U64_MAX);
	ck_assert_uint_eq(m.strictf, ONE);
	ck_assert_uint_eq(m.stp, 0);
}
END_TEST

/* StrictF with slowdowns past U64_MAX / ONE takes the other branch. */
START_TEST(strictf_large_slowdowns)
{
	/* slowdowns 2^44 * 10^6 / 2 and 2^44 * 10^6: StrictF 0.5 */
	static const u64 alone[] = { 2, 1 };
	static const u64 shared[] = { 1ULL << 44, 1ULL << 44 };
	/* slowdowns 10^7 and 4 * 10^7: min * ONE fits in 64 bits */
	static const u64 alone2[] = { 10, 10 };
	static const u64 shared2[] = { 100000000ULL, 400000000ULL };
	struct gtbs_metrics m;

	ck_assert_int_eq(gtbs_metrics_calc(alone, shared, 2, &m), 0);
	ck_assert_uint_eq(m.max_slowdown, (1ULL << 44) * ONE);
	ck_assert_uint_eq(m.min_slowdown, (1ULL << 43) * ONE);
	ck_assert_uint_eq(m.strictf, ONE / 2);

	ck_assert_int_eq(gtbs_metrics_calc(alone2, shared2, 2, &m), 0);
	ck_assert_uint_eq(m.strictf, ONE / 4);
	ck_assert_uint_eq(m.antt, 25000000ULL * ONE);
}
END_TEST

/*
 * Property: for random runtimes up to 2^40 cycles, the metrics equal an
 * exact 128-bit reference, StrictF <= 1, and min <= ANTT <= max.
 */
START_TEST(random_matches_reference)
{
	u64 seed = 4242 + _i;
	unsigned int round;

	for (round = 0; round < 2000; round++) {
		u64 alone[16], shared[16], sd, sum = 0, stp = 0, ref;
		u64 mn = U64_MAX, mx = 0;
		bool slower = h_rand_range(&seed, 0, 1);
		u32 n = h_rand_range(&seed, 1, 16), i;
		struct gtbs_metrics m;

		for (i = 0; i < n; i++) {
			u32 bits = h_rand_range(&seed, 1, 40);

			alone[i] = h_rand_range(&seed, 1, 1ULL << bits);
			shared[i] = slower ?
				alone[i] + h_rand_range(&seed, 0, 9 * alone[i]) :
				h_rand_range(&seed, 1, 1ULL << 40);
			sd = ref_ratio(shared[i], alone[i]);
			stp += ref_ratio(alone[i], shared[i]);
			sum += sd;
			mn = min(mn, sd);
			mx = max(mx, sd);
		}
		ck_assert_int_eq(gtbs_metrics_calc(alone, shared, n, &m), 0);
		ck_assert_uint_eq(m.stp, stp);
		ck_assert_uint_eq(m.antt, (sum + n / 2) / n);
		ck_assert_uint_eq(m.max_slowdown, mx);
		ck_assert_uint_eq(m.min_slowdown, mn);
		ref = (u64)(((u128)mn * ONE + mx / 2) / mx);
		/*
		 * exact when min * ONE fits in 64 bits; otherwise the core
		 * divides by max / ONE and truncates: within 1
		 */
		if (mn <= U64_MAX / ONE)
			ck_assert_uint_eq(m.strictf, ref);
		else
			ck_assert_msg(m.strictf + 1 >= ref && m.strictf <= ref + 1,
				      "strictf %llu, exact %llu",
				      (unsigned long long)m.strictf,
				      (unsigned long long)ref);
		ck_assert_uint_le(m.strictf, ONE);
		ck_assert_uint_le(m.min_slowdown, m.antt);
		ck_assert_uint_le(m.antt, m.max_slowdown);
		if (slower) {
			/* nobody is faster shared than alone */
			ck_assert_uint_ge(m.antt, ONE);
			ck_assert_uint_le(m.stp, n * ONE);
		}
	}
}
END_TEST

/* --- regressions (suite regressions) ------------------------------------ */

/*
 * Each case below is named after a bug that was found ("kb_", known bug)
 * and describes it as it was; the bug is fixed and the case asserts the
 * fixed behaviour, so that it cannot come back.
 */

/*
 * Known bug: gtbs_slowdown() bounds its first argument at 2^44, and
 * gtbs_metrics_calc() also calls it as gtbs_slowdown(alone, shared) for
 * STP.  So both runtimes above 2^44 (1.8e13 cycles, 3.5 h at 1.4 GHz)
 * compare a clamped numerator with an unclamped denominator: one program
 * alone for 2^45 cycles has STP = ANTT = 0.5 instead of 1.0, and alone
 * 2^45 / shared 2^46 gives STP 0.25 instead of 0.5.
 */
START_TEST(kb_single_program_above_2_44)
{
	static const u64 t[] = { (1ULL << 44) + 1000000, 1ULL << 45,
				 1ULL << 50, 1ULL << 62 };
	static const u64 alone[] = { 1ULL << 45 }, shared[] = { 1ULL << 46 };
	struct gtbs_metrics m;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(t); i++) {
		ck_assert_int_eq(gtbs_metrics_calc(&t[i], &t[i], 1, &m), 0);
		ck_assert_msg(m.stp == ONE && m.antt == ONE,
			      "alone = shared = %llu: STP %llu ANTT %llu, want %llu",
			      (unsigned long long)t[i],
			      (unsigned long long)m.stp,
			      (unsigned long long)m.antt,
			      (unsigned long long)ONE);
	}
	ck_assert_int_eq(gtbs_metrics_calc(alone, shared, 1, &m), 0);
	ck_assert_uint_eq(m.stp, ONE / 2);
	ck_assert_uint_eq(m.antt, 2 * ONE);
}
END_TEST

/*
 * Known bug: ANTT sums the slowdowns in 64 bits.  Each is bounded by
 * 2^44 * 10^6 (1.76e19), so two saturated programs wrap the sum: alone
 * {1, 1} with shared {2^44, 2^44} gives ANTT 8.4e18 instead of 1.76e19.
 * STP has the same sum (gtbs_slowdown(alone, shared) for alone >> shared).
 */
START_TEST(kb_antt_sum_does_not_wrap)
{
	const u64 cap = (1ULL << 44) * ONE;
	static const u64 alone[] = { 1, 1 };
	static const u64 shared[] = { 1ULL << 44, 1ULL << 44 };
	struct gtbs_metrics m;

	ck_assert_int_eq(gtbs_metrics_calc(alone, shared, 2, &m), 0);
	ck_assert_msg(m.antt == cap, "ANTT %llu, want %llu (mean of two equal slowdowns)",
		      (unsigned long long)m.antt, (unsigned long long)cap);
	/* STP: the same sum, with alone >> shared */
	ck_assert_int_eq(gtbs_metrics_calc(shared, alone, 2, &m), 0);
	ck_assert_msg(m.stp >= cap, "STP %llu wrapped", (unsigned long long)m.stp);
}
END_TEST

/*
 * Known bug (1 ppm): rounding terms overflow near the bounds.
 * gtbs_slowdown(2^44, 2^63) adds alone / 2 = 2^62 to 1.76e19 and wraps,
 * giving 0 instead of round(1.907) = 2; StrictF of slowdowns 1.2e13 and
 * 1.76e19 adds max / 2 to 1.2e19 and wraps, giving 0 instead of 1.
 */
START_TEST(kb_rounding_terms_do_not_wrap)
{
	static const u64 alone[] = { 1, 1 };
	static const u64 shared[] = { 12000000, 1ULL << 44 };
	struct gtbs_metrics m;

	ck_assert_uint_eq(gtbs_slowdown(1ULL << 44, 1ULL << 63),
			  ref_ratio(1ULL << 44, 1ULL << 63));
	ck_assert_int_eq(gtbs_metrics_calc(alone, shared, 2, &m), 0);
	ck_assert_uint_eq(m.strictf,
			  (u64)(((u128)m.min_slowdown * ONE +
				 m.max_slowdown / 2) / m.max_slowdown));
}
END_TEST

void regressions_metrics(Suite *s)
{
	TCase *tc = h_tcase("metrics");

	tcase_add_test(tc, kb_single_program_above_2_44);
	tcase_add_test(tc, kb_antt_sum_does_not_wrap);
	tcase_add_test(tc, kb_rounding_terms_do_not_wrap);
	suite_add_tcase(s, tc);
}

Suite *metrics_suite(void)
{
	Suite *s = suite_create("metrics");
	TCase *tc = h_tcase("metrics");

	tcase_add_test(tc, hand_computed_two);
	tcase_add_test(tc, hand_computed_three);
	tcase_add_test(tc, single_program_is_one);
	tcase_add_test(tc, unaffected_programs);
	tcase_add_test(tc, rejects_bad_input);
	tcase_add_test(tc, slowdown_rounding);
	tcase_add_test(tc, huge_shared_saturates);
	tcase_add_test(tc, strictf_large_slowdowns);
	tcase_add_loop_test(tc, random_matches_reference, 0, 4);
	suite_add_tcase(s, tc);
	return s;
}
