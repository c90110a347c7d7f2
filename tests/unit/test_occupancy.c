// SPDX-License-Identifier: GPL-2.0
/*
 * test_occupancy.c - device configuration and maximum residency R.
 *
 * Paper Section "The Staircase Model": an SM holds as many blocks of a
 * grid as its resources allow (R, from the occupancy calculator); Tables
 * "Simulator Configuration" and "Grid Characteristics of ERCBench
 * Kernels".
 *
 * Copyright (C) 2026 The gputbs developers
 */
#include "harness.h"

static struct gtbs_dev_config default_cfg(void)
{
	struct gtbs_dev_config cfg;

	gtbs_config_default(&cfg);
	return cfg;
}

/* --- config ------------------------------------------------------------- */

START_TEST(config_default_is_paper_device)
{
	struct gtbs_dev_config cfg = default_cfg();
	const char *why = "unset";

	ck_assert_int_eq(gtbs_config_check(&cfg, &why), 0);
	ck_assert_ptr_null(why);
	/* Table "Simulator Configuration" */
	ck_assert_uint_eq(cfg.nr_sms, 15);
	ck_assert_uint_eq(cfg.max_threads_per_sm, 1536);
	ck_assert_uint_eq(cfg.max_regs_per_sm, 32768);
	ck_assert_uint_eq(cfg.max_shmem_per_sm, 48 * 1024);
	ck_assert_uint_eq(cfg.max_blocks_per_sm, 8);
	ck_assert_uint_eq(cfg.max_warps_per_sm, 48);
	ck_assert_uint_eq(cfg.warp_size, 32);
	/* compute capability 2.0 allocation rules */
	ck_assert_uint_eq(cfg.reg_alloc_unit, 64);
	ck_assert_uint_eq(cfg.shmem_alloc_unit, 128);
	ck_assert_uint_eq(cfg.max_regs_per_thread, 63);
	ck_assert_uint_eq(cfg.max_threads_per_block, 1024);
}
END_TEST

struct bad_cfg {
	const char *name;
	void (*mutate)(struct gtbs_dev_config *cfg);
};

#define BAD_CFG(n, stmt) \
	static void bad_cfg_##n(struct gtbs_dev_config *c) { stmt; }
BAD_CFG(zero_sms, c->nr_sms = 0)
BAD_CFG(too_many_sms, c->nr_sms = GTBS_MAX_SMS + 1)
BAD_CFG(zero_warp, c->warp_size = 0)
BAD_CFG(big_warp, c->warp_size = 1025)
BAD_CFG(zero_slots, c->max_blocks_per_sm = 0)
BAD_CFG(too_many_slots, c->max_blocks_per_sm = GTBS_MAX_BLOCKS_PER_SM + 1)
BAD_CFG(zero_warps, c->max_warps_per_sm = 0)
BAD_CFG(zero_threads, c->max_threads_per_sm = 0)
BAD_CFG(zero_regs, c->max_regs_per_sm = 0)
BAD_CFG(zero_tpb, c->max_threads_per_block = 0)
BAD_CFG(huge_threads, c->max_threads_per_sm = (1U << 20) + 1)
BAD_CFG(huge_regs, c->max_regs_per_sm = (1U << 24) + 1)
BAD_CFG(huge_shmem, c->max_shmem_per_sm = (1U << 24) + 1)
BAD_CFG(huge_warps, c->max_warps_per_sm = (1U << 15) + 1)
BAD_CFG(zero_reg_unit, c->reg_alloc_unit = 0)
BAD_CFG(zero_shmem_unit, c->shmem_alloc_unit = 0)
BAD_CFG(zero_grid, c->max_blocks_per_grid = 0)
BAD_CFG(huge_grid, c->max_blocks_per_grid = (1U << 24) + 1)
BAD_CFG(zero_knee, c->load_knee_warps = 0)
BAD_CFG(huge_knee, c->load_knee_warps = (1U << 15) + 1)
BAD_CFG(huge_regs_per_thread, c->max_regs_per_thread = 256)
BAD_CFG(unknown_timing_model, c->timing_model = GTBS_NR_TIMING_MODELS)

static const struct bad_cfg bad_cfgs[] = {
	{ "nr_sms 0", bad_cfg_zero_sms },
	{ "nr_sms 1025", bad_cfg_too_many_sms },
	{ "warp_size 0", bad_cfg_zero_warp },
	{ "warp_size 1025", bad_cfg_big_warp },
	{ "max_blocks_per_sm 0", bad_cfg_zero_slots },
	{ "max_blocks_per_sm 65", bad_cfg_too_many_slots },
	{ "max_warps_per_sm 0", bad_cfg_zero_warps },
	{ "max_threads_per_sm 0", bad_cfg_zero_threads },
	{ "max_regs_per_sm 0", bad_cfg_zero_regs },
	{ "max_threads_per_block 0", bad_cfg_zero_tpb },
	{ "max_threads_per_sm 2^20+1", bad_cfg_huge_threads },
	{ "max_regs_per_sm 2^24+1", bad_cfg_huge_regs },
	{ "max_shmem_per_sm 2^24+1", bad_cfg_huge_shmem },
	{ "max_warps_per_sm 2^15+1", bad_cfg_huge_warps },
	{ "reg_alloc_unit 0", bad_cfg_zero_reg_unit },
	{ "shmem_alloc_unit 0", bad_cfg_zero_shmem_unit },
	{ "max_blocks_per_grid 0", bad_cfg_zero_grid },
	{ "max_blocks_per_grid 2^24+1", bad_cfg_huge_grid },
	{ "load_knee_warps 0", bad_cfg_zero_knee },
	{ "load_knee_warps 2^15+1", bad_cfg_huge_knee },
	{ "max_regs_per_thread 256", bad_cfg_huge_regs_per_thread },
	{ "timing_model 2", bad_cfg_unknown_timing_model },
};

/* One invalid field per case: -EINVAL and a reason. */
START_TEST(config_rejects)
{
	struct gtbs_dev_config cfg = default_cfg();
	const char *why = NULL;

	bad_cfgs[_i].mutate(&cfg);
	ck_assert_msg(gtbs_config_check(&cfg, &why) == -EINVAL,
		      "%s accepted", bad_cfgs[_i].name);
	ck_assert_msg(why && *why, "%s: no reason", bad_cfgs[_i].name);
}
END_TEST

/* The inclusive upper bounds are accepted. */
START_TEST(config_accepts_limits)
{
	struct gtbs_dev_config cfg = default_cfg();
	const char *why = "unset";

	cfg.nr_sms = GTBS_MAX_SMS;
	cfg.warp_size = 1024;
	cfg.max_blocks_per_sm = GTBS_MAX_BLOCKS_PER_SM;
	cfg.max_threads_per_sm = 1U << 20;
	cfg.max_regs_per_sm = 1U << 24;
	cfg.max_shmem_per_sm = 1U << 24;
	cfg.max_warps_per_sm = 1U << 15;
	cfg.max_blocks_per_grid = 1U << 24;
	cfg.load_knee_warps = 1U << 15;
	cfg.max_regs_per_thread = 255;
	ck_assert_int_eq(gtbs_config_check(&cfg, &why), 0);
	ck_assert_ptr_null(why);
	/* no shared memory at all is a valid device */
	cfg.max_shmem_per_sm = 0;
	ck_assert_int_eq(gtbs_config_check(&cfg, &why), 0);
}
END_TEST

/* --- occupancy ---------------------------------------------------------- */

/* Table "Grid Characteristics of ERCBench Kernels": R and its limiter. */
START_TEST(occ_ercbench)
{
	const struct h_erc_kernel *k = &h_erc_kernels[_i];
	struct gtbs_dev_config cfg = default_cfg();
	struct gtbs_grid_desc d = h_erc_desc(k, 1);
	struct gtbs_occupancy occ;

	ck_assert_int_eq(gtbs_occupancy_calc(&cfg, &d, &occ), 0);
	ck_assert_msg(occ.residency == k->residency, "%s: R %u, paper %u",
		      k->name, occ.residency, k->residency);
	ck_assert_msg(occ.limiter == k->limiter, "%s: limited by %s, want %s",
		      k->name, gtbs_limiter_name(occ.limiter),
		      gtbs_limiter_name(k->limiter));
	ck_assert_uint_eq(occ.warps, (k->threads + 31) / 32);
	ck_assert_uint_eq(occ.threads, occ.warps * 32);

	/* the KUnit suite's register/shared memory choices give the same R */
	d.regs_per_thread = k->kunit_regs;
	d.shmem_per_block = k->kunit_shmem;
	ck_assert_int_eq(gtbs_occupancy_calc(&cfg, &d, &occ), 0);
	ck_assert_msg(occ.residency == k->residency, "%s (KUnit): R %u",
		      k->name, occ.residency);
}
END_TEST

/* Footnote of the paper: render with one register fewer has R = 6. */
START_TEST(occ_render_one_reg_fewer)
{
	struct gtbs_dev_config cfg = default_cfg();
	struct gtbs_grid_desc d = h_desc(1, 128, 43, 0, 1);
	struct gtbs_occupancy occ;

	ck_assert_int_eq(gtbs_occupancy_calc(&cfg, &d, &occ), 0);
	/* 43 * 32 = 1376 -> 1408 per warp, 4 warps: 5632; 32768 / 5632 = 5 */
	ck_assert_uint_eq(occ.regs, 5632);
	ck_assert_uint_eq(occ.residency, 5);
	d.regs_per_thread = 42;
	ck_assert_int_eq(gtbs_occupancy_calc(&cfg, &d, &occ), 0);
	/* 42 * 32 = 1344 -> 1344 per warp (21 units), 4 warps: 5376 */
	ck_assert_uint_eq(occ.regs, 5376);
	ck_assert_uint_eq(occ.residency, 6);
	ck_assert_int_eq(occ.limiter, GTBS_LIMIT_REGS);
}
END_TEST

START_TEST(occ_allocation_units)
{
	struct gtbs_dev_config cfg = default_cfg();
	/* 33 threads: 2 warps; 21 regs: 672 -> 704 per warp; 100 B -> 128 B */
	struct gtbs_grid_desc d = h_desc(1, 33, 21, 100, 1);
	struct gtbs_occupancy occ;

	ck_assert_int_eq(gtbs_occupancy_calc(&cfg, &d, &occ), 0);
	ck_assert_uint_eq(occ.warps, 2);
	ck_assert_uint_eq(occ.threads, 64);
	ck_assert_uint_eq(occ.regs, 2 * 704);
	ck_assert_uint_eq(occ.shmem, 128);
	/* exact multiples are not rounded further */
	d = h_desc(1, 64, 2, 256, 1);
	ck_assert_int_eq(gtbs_occupancy_calc(&cfg, &d, &occ), 0);
	ck_assert_uint_eq(occ.regs, 2 * 64);
	ck_assert_uint_eq(occ.shmem, 256);
	/* 1 byte of shared memory costs one allocation unit */
	d = h_desc(1, 1, 0, 1, 1);
	ck_assert_int_eq(gtbs_occupancy_calc(&cfg, &d, &occ), 0);
	ck_assert_uint_eq(occ.shmem, 128);
	ck_assert_uint_eq(occ.regs, 0);
	ck_assert_uint_eq(occ.warps, 1);
	ck_assert_uint_eq(occ.threads, 32);
}
END_TEST

START_TEST(occ_each_limiter)
{
	struct gtbs_dev_config cfg = default_cfg();
	struct gtbs_grid_desc d;
	struct gtbs_occupancy occ;

	/* block slots: tiny blocks, R = 8 */
	d = h_desc(1, 32, 8, 0, 1);
	ck_assert_int_eq(gtbs_occupancy_calc(&cfg, &d, &occ), 0);
	ck_assert_uint_eq(occ.residency, 8);
	ck_assert_int_eq(occ.limiter, GTBS_LIMIT_BLOCKS);
	/* warps: 512 threads = 16 warps, 48 / 16 = 3 */
	d = h_desc(1, 512, 8, 0, 1);
	ck_assert_int_eq(gtbs_occupancy_calc(&cfg, &d, &occ), 0);
	ck_assert_uint_eq(occ.residency, 3);
	ck_assert_int_eq(occ.limiter, GTBS_LIMIT_WARPS);
	/* registers: 63 regs -> 2048 per warp, 4 warps = 8192, 32768 / 8192 */
	d = h_desc(1, 128, 63, 0, 1);
	ck_assert_int_eq(gtbs_occupancy_calc(&cfg, &d, &occ), 0);
	ck_assert_uint_eq(occ.residency, 4);
	ck_assert_int_eq(occ.limiter, GTBS_LIMIT_REGS);
	/* shared memory: 16 KiB -> 3 */
	d = h_desc(1, 64, 0, 16 * 1024, 1);
	ck_assert_int_eq(gtbs_occupancy_calc(&cfg, &d, &occ), 0);
	ck_assert_uint_eq(occ.residency, 3);
	ck_assert_int_eq(occ.limiter, GTBS_LIMIT_SHMEM);
	/* shared memory, rounding matters: 12289 B -> 12416, 49152 / 12416 */
	d = h_desc(1, 64, 0, 12289, 1);
	ck_assert_int_eq(gtbs_occupancy_calc(&cfg, &d, &occ), 0);
	ck_assert_uint_eq(occ.residency, 3);
	d.shmem_per_block = 12288;
	ck_assert_int_eq(gtbs_occupancy_calc(&cfg, &d, &occ), 0);
	ck_assert_uint_eq(occ.residency, 4);
}
END_TEST

/* Thread contexts limit when the SM has fewer threads than warps * size. */
START_TEST(occ_thread_contexts)
{
	struct gtbs_dev_config cfg = default_cfg();
	struct gtbs_grid_desc d = h_desc(1, 256, 0, 0, 1);
	struct gtbs_occupancy occ;

	cfg.max_threads_per_sm = 1000;	/* 8 warps free, 1000 / 256 = 3 */
	ck_assert_int_eq(gtbs_occupancy_calc(&cfg, &d, &occ), 0);
	ck_assert_uint_eq(occ.residency, 3);
	ck_assert_int_eq(occ.limiter, GTBS_LIMIT_WARPS);
	/* warp size 16: 100 threads = 7 warps of 16, 112 threads */
	cfg = default_cfg();
	cfg.warp_size = 16;
	d = h_desc(1, 100, 4, 0, 1);
	ck_assert_int_eq(gtbs_occupancy_calc(&cfg, &d, &occ), 0);
	ck_assert_uint_eq(occ.warps, 7);
	ck_assert_uint_eq(occ.threads, 112);
	/* 4 * 16 = 64 regs per warp, exactly one unit */
	ck_assert_uint_eq(occ.regs, 7 * 64);
	ck_assert_uint_eq(occ.residency, 48 / 7);
}
END_TEST

START_TEST(occ_does_not_fit)
{
	struct gtbs_dev_config cfg = default_cfg();
	struct gtbs_grid_desc d;
	struct gtbs_occupancy occ;

	/* 1024 threads x 63 regs = 32 warps x 2048 regs > 32768 */
	d = h_desc(1, 1024, 63, 0, 1);
	ck_assert_int_eq(gtbs_occupancy_calc(&cfg, &d, &occ), -EINVAL);
	ck_assert_uint_eq(occ.residency, 0);
	/* one register fewer: 32 * 1984 = 63488 still too many */
	d.regs_per_thread = 32;
	ck_assert_int_eq(gtbs_occupancy_calc(&cfg, &d, &occ), 0);
	ck_assert_uint_eq(occ.residency, 1);
	/* shared memory beyond the SM */
	d = h_desc(1, 32, 0, 48 * 1024 + 1, 1);
	ck_assert_int_eq(gtbs_occupancy_calc(&cfg, &d, &occ), -EINVAL);
	ck_assert_uint_eq(occ.residency, 0);
	d.shmem_per_block = 48 * 1024;
	ck_assert_int_eq(gtbs_occupancy_calc(&cfg, &d, &occ), 0);
	ck_assert_uint_eq(occ.residency, 1);
	/* zero threads, too many threads */
	d = h_desc(1, 0, 0, 0, 1);
	ck_assert_int_eq(gtbs_occupancy_calc(&cfg, &d, &occ), -EINVAL);
	d.threads_per_block = 1025;
	ck_assert_int_eq(gtbs_occupancy_calc(&cfg, &d, &occ), -EINVAL);
	/* more warps than the SM has contexts */
	cfg.max_warps_per_sm = 16;
	d = h_desc(1, 1024, 0, 0, 1);
	ck_assert_int_eq(gtbs_occupancy_calc(&cfg, &d, &occ), -EINVAL);
	ck_assert_uint_eq(occ.residency, 0);
}
END_TEST

START_TEST(occ_limiter_names)
{
	ck_assert_str_eq(gtbs_limiter_name(GTBS_LIMIT_BLOCKS), "blocks");
	ck_assert_str_eq(gtbs_limiter_name(GTBS_LIMIT_WARPS), "warps");
	ck_assert_str_eq(gtbs_limiter_name(GTBS_LIMIT_REGS), "registers");
	ck_assert_str_eq(gtbs_limiter_name(GTBS_LIMIT_SHMEM), "shared memory");
	ck_assert_str_eq(gtbs_limiter_name((enum gtbs_limiter)4), "?");
	ck_assert_str_eq(gtbs_limiter_name((enum gtbs_limiter)-1), "?");
}
END_TEST

/*
 * Property: for random configurations and blocks, R blocks fit on an empty
 * SM in every resource and R + 1 do not (unless R is the slot count), the
 * limiter is a resource that R + 1 blocks would exceed, and R = 0 exactly
 * when the call fails.  Checked against a brute-force count.
 */
START_TEST(occ_random_matches_brute_force)
{
	u64 seed = 0x5eed0000 + _i;
	unsigned int n;

	for (n = 0; n < 2000; n++) {
		struct gtbs_dev_config cfg = default_cfg();
		struct gtbs_grid_desc d;
		struct gtbs_occupancy occ;
		u64 warps, threads, rpw, regs, shmem, r, fit;
		int ret;

		cfg.warp_size = h_rand_range(&seed, 1, 64);
		cfg.max_blocks_per_sm = h_rand_range(&seed, 1, 64);
		cfg.max_warps_per_sm = h_rand_range(&seed, 1, 128);
		cfg.max_threads_per_sm = h_rand_range(&seed, 1, 4096);
		cfg.max_regs_per_sm = h_rand_range(&seed, 1, 1 << 17);
		cfg.max_shmem_per_sm = h_rand_range(&seed, 0, 1 << 17);
		cfg.reg_alloc_unit = h_rand_range(&seed, 1, 256);
		cfg.shmem_alloc_unit = h_rand_range(&seed, 1, 512);
		cfg.max_threads_per_block = h_rand_range(&seed, 1, 2048);
		d = h_desc(1, h_rand_range(&seed, 0, 2048),
			   h_rand_range(&seed, 0, 255),
			   h_rand_range(&seed, 0, 1 << 16), 1);

		ret = gtbs_occupancy_calc(&cfg, &d, &occ);
		if (!d.threads_per_block ||
		    d.threads_per_block > cfg.max_threads_per_block) {
			ck_assert_int_eq(ret, -EINVAL);
			ck_assert_uint_eq(occ.residency, 0);
			continue;
		}
		warps = (d.threads_per_block + cfg.warp_size - 1) / cfg.warp_size;
		threads = warps * cfg.warp_size;
		rpw = ((u64)d.regs_per_thread * cfg.warp_size +
		       cfg.reg_alloc_unit - 1) / cfg.reg_alloc_unit *
		      cfg.reg_alloc_unit;
		regs = rpw * warps;
		shmem = ((u64)d.shmem_per_block + cfg.shmem_alloc_unit - 1) /
			cfg.shmem_alloc_unit * cfg.shmem_alloc_unit;
		for (fit = 0; fit < cfg.max_blocks_per_sm; fit++) {
			r = fit + 1;
			if (r * warps > cfg.max_warps_per_sm ||
			    r * threads > cfg.max_threads_per_sm ||
			    r * regs > cfg.max_regs_per_sm ||
			    r * shmem > cfg.max_shmem_per_sm)
				break;
		}
		/*
		 * rounded-up allocations count: a raw request that fits but
		 * whose allocation does not gives R = 0
		 */
		ck_assert_msg(occ.residency == fit,
			      "case %u: R %u, brute force %llu (tpb %u regs %u shmem %u)",
			      n, occ.residency, (unsigned long long)fit,
			      d.threads_per_block, d.regs_per_thread,
			      d.shmem_per_block);
		ck_assert_int_eq(ret, fit ? 0 : -EINVAL);
		if (!fit)
			continue;
		ck_assert_uint_eq(occ.warps, warps);
		ck_assert_uint_eq(occ.threads, threads);
		ck_assert_uint_eq(occ.regs, regs);
		ck_assert_uint_eq(occ.shmem, shmem);
		r = fit + 1;
		switch (occ.limiter) {
		case GTBS_LIMIT_BLOCKS:
			ck_assert_uint_eq(fit, cfg.max_blocks_per_sm);
			break;
		case GTBS_LIMIT_WARPS:
			ck_assert(r * warps > cfg.max_warps_per_sm ||
				  r * threads > cfg.max_threads_per_sm);
			break;
		case GTBS_LIMIT_REGS:
			ck_assert(r * regs > cfg.max_regs_per_sm);
			break;
		case GTBS_LIMIT_SHMEM:
			ck_assert(r * shmem > cfg.max_shmem_per_sm);
			break;
		default:
			ck_abort_msg("bad limiter %d", occ.limiter);
		}
	}
}
END_TEST

/* --- device presets ----------------------------------------------------- */

START_TEST(preset_table)
{
	static const char * const names[] = { "gtx480", "v100", "a100", "h100" };
	static const u32 sms[] = { 15, 80, 108, 132 };
	struct gtbs_dev_config def = default_cfg();
	const struct gtbs_dev_preset *p;
	const char *why;
	unsigned int i;

	for (i = 0; (p = gtbs_config_preset_at(i)); i++) {
		ck_assert_uint_lt(i, ARRAY_SIZE(names));
		ck_assert_str_eq(p->name, names[i]);
		ck_assert_ptr_eq(gtbs_config_preset(names[i]), p);
		ck_assert_int_eq(gtbs_config_check(&p->cfg, &why), 0);
		ck_assert_uint_eq(p->cfg.nr_sms, sms[i]);
		/* warps and threads per SM agree */
		ck_assert_uint_eq(p->cfg.max_warps_per_sm * p->cfg.warp_size,
				  p->cfg.max_threads_per_sm);
	}
	ck_assert_uint_eq(i, ARRAY_SIZE(names));
	ck_assert_ptr_null(gtbs_config_preset("H100"));
	ck_assert_ptr_null(gtbs_config_preset("h100\n"));
	ck_assert_ptr_null(gtbs_config_preset(""));
	/* the default is the first preset, the paper's device */
	ck_assert_int_eq(memcmp(&def, &gtbs_config_preset("gtx480")->cfg,
				sizeof(def)), 0);
}
END_TEST

/*
 * The contexts of a full device, worked by hand: SMs x (registers x 4 +
 * shared memory).  A100: 108 x (65536 x 4 + 164 x 1024) = 108 x 430080 =
 * 46448640 bytes, which at GPreempt's 1.1 TB/s (1100000 MB/s) take
 * 42.2 us; H100: 132 x (262144 + 233472) = 65421312 bytes, 19.5 us at its
 * 3.35 TB/s peak.  GTX 480: 15 x (131072 + 49152) = 2703360.
 */
START_TEST(preset_context_bytes)
{
	static const struct { const char *name; u64 bytes; } want[] = {
		{ "gtx480", 2703360 }, { "v100", 28835840 },
		{ "a100", 46448640 }, { "h100", 65421312 },
	};
	const struct gtbs_dev_preset *p;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(want); i++) {
		p = gtbs_config_preset(want[i].name);
		ck_assert_ptr_nonnull(p);
		ck_assert_uint_eq(gtbs_config_context_bytes(&p->cfg),
				  want[i].bytes);
		/* saves at most at the peak, and the peak is given */
		ck_assert_uint_gt(p->save_bw_mbs, 0);
		ck_assert_uint_le(p->save_bw_mbs, p->mem_bw_mbs);
	}
	/* A100: 46448640 bytes at 1100000 MB/s is 42 us (30..50) */
	p = gtbs_config_preset("a100");
	ck_assert_uint_eq(p->save_bw_mbs, 1100000);
	ck_assert_uint_eq(gtbs_config_context_bytes(&p->cfg) /
			  p->save_bw_mbs, 42);
	/* H100 at its 3.35 TB/s peak: 19 us */
	p = gtbs_config_preset("h100");
	ck_assert_uint_eq(gtbs_config_context_bytes(&p->cfg) /
			  p->mem_bw_mbs, 19);
	/* ... and at the A100's 70.7% of it, 2369800 MB/s: 27 us (12..30) */
	ck_assert_uint_eq(gtbs_config_context_bytes(&p->cfg) /
			  p->save_bw_mbs, 27);
}
END_TEST

/*
 * The effective bandwidths of the presets other than the A100 (whose is
 * GPreempt's measurement) are the A100's fraction of its peak, 1100000 /
 * 1555000, of theirs, rounded to 100 MB/s (config.c, design.rst "Device
 * presets"): GTX 480 125492 -> 125500, V100 636656 -> 636700, H100
 * 2369775 -> 2369800.
 */
START_TEST(preset_save_bw_rule)
{
	const struct gtbs_dev_preset *a100 = gtbs_config_preset("a100");
	const struct gtbs_dev_preset *p;
	unsigned int i;
	u64 want;

	ck_assert_uint_eq(a100->mem_bw_mbs, 1555000);
	for (i = 0; (p = gtbs_config_preset_at(i)); i++) {
		want = (p->mem_bw_mbs * a100->save_bw_mbs +
			a100->mem_bw_mbs * 50) / (a100->mem_bw_mbs * 100) * 100;
		ck_assert_msg(p->save_bw_mbs == want,
			      "%s: save_bw_mbs %llu, the rule gives %llu",
			      p->name, (unsigned long long)p->save_bw_mbs,
			      (unsigned long long)want);
	}
}
END_TEST

/*
 * Maximum residency per preset, worked by hand with the occupancy
 * calculator's rule: R = min(blocks per SM, warps per SM / warps per block,
 * registers per SM / (warps per block * registers per warp rounded up to
 * the register unit), shared memory per SM / shared memory per block
 * rounded up to the shared memory unit).
 */
static const struct preset_occ_case {
	const char *preset;
	u32 threads, regs, shmem;
	u32 residency;
	enum gtbs_limiter limiter;
} preset_occ_cases[] = {
	/*
	 * 256 threads = 8 warps, 32 registers: 1024 registers per warp
	 * (a multiple of 64 and of 256), 8192 per block.
	 * GTX 480: 32768 / 8192 = 4 (warps allow 48 / 8 = 6).
	 * cc 7.0..9.0: 65536 / 8192 = 8 = 64 / 8 warps; warps are
	 * checked first, so they are named.
	 */
	{ "gtx480", 256, 32, 0, 4, GTBS_LIMIT_REGS },
	{ "v100", 256, 32, 0, 8, GTBS_LIMIT_WARPS },
	{ "a100", 256, 32, 0, 8, GTBS_LIMIT_WARPS },
	{ "h100", 256, 32, 0, 8, GTBS_LIMIT_WARPS },
	/*
	 * 128 threads = 4 warps, 64 registers, 40000 bytes of shared
	 * memory: 40064 in 128-byte units (GTX 480, A100, H100), 40192 in
	 * 256-byte units (V100).  GTX 480: 49152 / 40064 = 1;
	 * V100: 98304 / 40192 = 2; A100: 167936 / 40064 = 4;
	 * H100: 233472 / 40064 = 5.  Registers allow 4 (GTX 480) or 8.
	 */
	{ "gtx480", 128, 64, 40000, 1, GTBS_LIMIT_SHMEM },
	{ "v100", 128, 64, 40000, 2, GTBS_LIMIT_SHMEM },
	{ "a100", 128, 64, 40000, 4, GTBS_LIMIT_SHMEM },
	{ "h100", 128, 64, 40000, 5, GTBS_LIMIT_SHMEM },
	/* one warp of 16 registers: the block slots, 8 or 32 */
	{ "gtx480", 32, 16, 0, 8, GTBS_LIMIT_BLOCKS },
	{ "v100", 32, 16, 0, 32, GTBS_LIMIT_BLOCKS },
	{ "a100", 32, 16, 0, 32, GTBS_LIMIT_BLOCKS },
	{ "h100", 32, 16, 0, 32, GTBS_LIMIT_BLOCKS },
	/*
	 * 1024 threads = 32 warps of 64 registers: 2048 per warp, 65536
	 * per block, one block (warps would allow 64 / 32 = 2).
	 */
	{ "h100", 1024, 64, 0, 1, GTBS_LIMIT_REGS },
};

START_TEST(preset_occupancy)
{
	const struct preset_occ_case *c = &preset_occ_cases[_i];
	const struct gtbs_dev_preset *p = gtbs_config_preset(c->preset);
	struct gtbs_grid_desc desc = {
		.nr_blocks = 1,
		.threads_per_block = c->threads,
		.regs_per_thread = c->regs,
		.shmem_per_block = c->shmem,
	};
	struct gtbs_occupancy occ;

	ck_assert_ptr_nonnull(p);
	ck_assert_int_eq(gtbs_occupancy_calc(&p->cfg, &desc, &occ), 0);
	ck_assert_msg(occ.residency == c->residency,
		      "%s %u/%u/%u: R %u, expected %u", c->preset, c->threads,
		      c->regs, c->shmem, occ.residency, c->residency);
	ck_assert_int_eq(occ.limiter, c->limiter);
}
END_TEST

START_TEST(preset_too_big_for_gtx480)
{
	/* 64 KiB of shared memory fits an A100 SM, not a GTX 480's */
	struct gtbs_grid_desc desc = {
		.nr_blocks = 1,
		.threads_per_block = 256,
		.regs_per_thread = 32,
		.shmem_per_block = 64 * 1024,
	};
	struct gtbs_occupancy occ;

	ck_assert_int_eq(gtbs_occupancy_calc(&gtbs_config_preset("gtx480")->cfg,
					     &desc, &occ), -EINVAL);
	ck_assert_int_eq(gtbs_occupancy_calc(&gtbs_config_preset("a100")->cfg,
					     &desc, &occ), 0);
	/* 167936 / 65536 = 2 */
	ck_assert_uint_eq(occ.residency, 2);
	ck_assert_int_eq(occ.limiter, GTBS_LIMIT_SHMEM);
}
END_TEST

Suite *occupancy_suite(void)
{
	Suite *s = suite_create("occupancy");
	TCase *tc;

	tc = h_tcase("config");
	tcase_add_test(tc, config_default_is_paper_device);
	tcase_add_loop_test(tc, config_rejects, 0, ARRAY_SIZE(bad_cfgs));
	tcase_add_test(tc, config_accepts_limits);
	suite_add_tcase(s, tc);

	tc = h_tcase("presets");
	tcase_add_test(tc, preset_table);
	tcase_add_test(tc, preset_context_bytes);
	tcase_add_test(tc, preset_save_bw_rule);
	tcase_add_loop_test(tc, preset_occupancy, 0,
			    ARRAY_SIZE(preset_occ_cases));
	tcase_add_test(tc, preset_too_big_for_gtx480);
	suite_add_tcase(s, tc);

	tc = h_tcase("residency");
	tcase_add_loop_test(tc, occ_ercbench, 0, H_NR_ERC);
	tcase_add_test(tc, occ_render_one_reg_fewer);
	tcase_add_test(tc, occ_allocation_units);
	tcase_add_test(tc, occ_each_limiter);
	tcase_add_test(tc, occ_thread_contexts);
	tcase_add_test(tc, occ_does_not_fit);
	tcase_add_test(tc, occ_limiter_names);
	tcase_add_loop_test(tc, occ_random_matches_brute_force, 0, 4);
	suite_add_tcase(s, tc);
	return s;
}
