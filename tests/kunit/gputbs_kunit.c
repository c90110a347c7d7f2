// SPDX-License-Identifier: GPL-2.0
/*
 * gputbs_kunit.c - KUnit suites for the gputbs portable core.
 *
 * The core runs here in pure virtual time (gtbs_dev_run_until()), so every
 * expectation is exact and no case depends on wall-clock time.  Numbers
 * come from the paper's Tables "Simulator Configuration", "Grid
 * Characteristics of ERCBench Kernels" and "Runtimes for ERCBench Kernels".
 *
 * Copyright (C) 2026 The gputbs developers
 */
#include <kunit/resource.h>
#include <kunit/test.h>
#include <linux/module.h>
#include <linux/slab.h>

#include "gputbs_kunit.h"
#include "ercbench_timing.h"

/* The rate divisor K + L of the timing model, 1/1000 warps. */
#define TDIV(k, l)	(((k) + (l)) * GTBS_WARP_SCALE)

/* --- a device in virtual time, recording block events ------------------ */

static void gtbs_test_block_start(struct gtbs_dev *dev, struct gtbs_sm *sm,
				  struct gtbs_grid *grid, u32 slot, u32 block,
				  u64 cycle)
{
	struct gtbs_test_dev *td = dev->priv;

	if (td->nr_starts < GTBS_TEST_MAX_EVENTS)
		td->starts[td->nr_starts++] = (struct gtbs_test_event) {
			.grid_id = grid->id, .sm = sm->id, .slot = slot,
			.block = block, .start = cycle,
		};
}

static void gtbs_test_block_end(struct gtbs_dev *dev, struct gtbs_sm *sm,
				struct gtbs_grid *grid, u32 slot, u32 block,
				u64 start, u64 end)
{
	struct gtbs_test_dev *td = dev->priv;

	if (td->nr_ends < GTBS_TEST_MAX_EVENTS)
		td->ends[td->nr_ends++] = (struct gtbs_test_event) {
			.grid_id = grid->id, .sm = sm->id, .slot = slot,
			.block = block, .start = start, .end = end,
		};
}

static const struct gtbs_backend_ops gtbs_test_backend = {
	.block_start = gtbs_test_block_start,
	.block_end = gtbs_test_block_end,
};

static void *gtbs_test_pair_zalloc(size_t size)
{
	return kzalloc(size, GFP_NOWAIT | __GFP_NOWARN);
}

static void gtbs_test_pair_free(void *p)
{
	kfree(p);
}

/* The core allocates pairs under the (unheld) lock: without sleeping. */
static const struct gtbs_pair_alloc gtbs_test_pair_alloc = {
	.zalloc = gtbs_test_pair_zalloc,
	.free = gtbs_test_pair_free,
};

/*
 * Per-(grid, SM) states come from gtbs_test_pair_alloc: KUnit releases
 * each grid's before the grid's memory (resources are freed newest
 * first), then frees the device's spares.
 */
struct gtbs_test_pair_ctx {
	struct gtbs_dev *dev;
	struct gtbs_grid *grid;
};

static int gtbs_test_res_init(struct kunit_resource *res, void *context)
{
	res->data = context;
	return 0;
}

static void gtbs_test_grid_release(struct kunit_resource *res)
{
	struct gtbs_test_pair_ctx *ctx = res->data;

	gtbs_grid_release(ctx->dev, ctx->grid);
}

static void gtbs_test_spare_free(struct kunit_resource *res)
{
	gtbs_dev_spare_free(res->data);
}

/**
 * gtbs_test_dev_new() - a device in virtual time that records block events
 * @test: the running test; owns every allocation.
 * @cfg: configuration; must pass gtbs_config_check().
 *
 * Context: process context, may sleep.
 * Return: the device with the FIFO policy; aborts the test on failure.
 */
struct gtbs_test_dev *gtbs_test_dev_new(struct kunit *test,
					const struct gtbs_dev_config *cfg)
{
	struct gtbs_test_dev *td;
	const char *why;
	u32 i;

	KUNIT_ASSERT_EQ(test, gtbs_config_check(cfg, &why), 0);
	td = kunit_kzalloc(test, sizeof(*td), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, td);
	td->sms = kunit_kcalloc(test, cfg->nr_sms, sizeof(*td->sms),
				GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, td->sms);
	for (i = 0; i < cfg->nr_sms; i++) {
		td->sms[i] = kunit_kzalloc(test, gtbs_sm_size(cfg), GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, td->sms[i]);
		gtbs_sm_init(cfg, td->sms[i], i);
	}
	gtbs_dev_init(&td->dev, cfg, &gtbs_policy_fifo, td->sms);
	td->dev.backend = &gtbs_test_backend;
	td->dev.pair_alloc = &gtbs_test_pair_alloc;
	td->dev.priv = td;
	KUNIT_ASSERT_NOT_NULL(test,
			      kunit_alloc_resource(test, gtbs_test_res_init,
						   gtbs_test_spare_free,
						   GFP_KERNEL, &td->dev));
	return td;
}

/**
 * gtbs_test_dev_sms() - the paper's device with @nr_sms SMs, FIFO policy
 * @test: the running test.
 * @nr_sms: SMs, 1..%GTBS_MAX_SMS.
 *
 * Context: process context, may sleep.
 * Return: the device; aborts the test on failure.
 */
struct gtbs_test_dev *gtbs_test_dev_sms(struct kunit *test, u32 nr_sms)
{
	struct gtbs_dev_config cfg;

	gtbs_config_default(&cfg);
	cfg.nr_sms = nr_sms;
	return gtbs_test_dev_new(test, &cfg);
}

/**
 * gtbs_test_grid_new() - allocate and initialise a grid, not submitted
 * @test: the running test.
 * @td: the device.
 * @desc: the grid; must be valid.
 *
 * Context: process context, may sleep.
 * Return: the grid; aborts the test if @desc is rejected.
 */
struct gtbs_grid *gtbs_test_grid_new(struct kunit *test,
				     struct gtbs_test_dev *td,
				     const struct gtbs_grid_desc *desc)
{
	struct gtbs_test_pair_ctx *ctx;
	struct gtbs_grid *grid;
	const char *why = NULL;

	ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ctx);
	grid = kunit_kzalloc(test, gtbs_grid_size(&td->dev.cfg), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, grid);
	KUNIT_ASSERT_EQ_MSG(test, gtbs_grid_init(&td->dev, grid, desc, &why),
			    0, "%s", why);
	ctx->dev = &td->dev;
	ctx->grid = grid;
	KUNIT_ASSERT_NOT_NULL(test,
			      kunit_alloc_resource(test, gtbs_test_res_init,
						   gtbs_test_grid_release,
						   GFP_KERNEL, ctx));
	return grid;
}

/**
 * gtbs_test_submit() - run to @now, submit a grid at @now, run to @now
 * @test: the running test.
 * @td: the device.
 * @desc: the grid; must be valid.
 * @now: emulated cycle of the arrival.
 *
 * Context: process context, may sleep.
 * Return: the submitted grid; aborts the test if @desc is rejected.
 */
struct gtbs_grid *gtbs_test_submit(struct kunit *test,
				   struct gtbs_test_dev *td,
				   const struct gtbs_grid_desc *desc, u64 now)
{
	struct gtbs_grid *grid = gtbs_test_grid_new(test, td, desc);

	gtbs_dev_run_until(&td->dev, now);
	gtbs_grid_submit(&td->dev, grid, now);
	gtbs_dev_run_until(&td->dev, now);
	return grid;
}

/**
 * gtbs_test_drain() - run until no block is resident
 * @td: the device.
 *
 * Context: any.
 */
void gtbs_test_drain(struct gtbs_test_dev *td)
{
	u64 next;

	while ((next = gtbs_dev_next_event(&td->dev)) != U64_MAX)
		gtbs_dev_run_until(&td->dev, next);
}

/**
 * gtbs_test_desc() - a grid description of the normal class, label "test"
 * @blocks: thread blocks.
 * @threads: threads per block.
 * @regs: registers per thread.
 * @shmem: shared memory per block, bytes.
 * @cycles: mean block duration alone at R, cycles.
 *
 * Context: any.
 * Return: the description.
 */
struct gtbs_grid_desc gtbs_test_desc(u32 blocks, u32 threads, u32 regs,
				     u32 shmem, u64 cycles)
{
	return (struct gtbs_grid_desc) {
		.nr_blocks = blocks, .threads_per_block = threads,
		.regs_per_thread = regs, .shmem_per_block = shmem,
		.block_cycles = cycles, .label = "test",
		.prio_class = GTBS_PRIO_NORMAL,
	};
}

/* --- gputbs_occupancy: R of every ERCBench kernel ----------------------- */

struct gtbs_erc_kernel {
	const char *name;
	u32 blocks, threads, regs, shmem;
	u64 mean_t;		/* Table "Runtimes": mean t, cycles */
	u32 rsd_ppm;		/* Table "Runtimes": %RSD */
	u64 runtime;		/* Table "Runtimes": simulator runtime, cycles */
	u32 residency;		/* Table "Grid Characteristics": R */
	enum gtbs_limiter limiter;
};

/* Registers and shared memory as in workloads/ercbench/kernels.gtbs. */
static const struct gtbs_erc_kernel gtbs_erc_kernels[] = {
	{ "AES-d", 1429, 256, 20, 4096, 14529, 125200, 234154, 6, GTBS_LIMIT_WARPS },
	{ "AES-e", 1429, 256, 20, 4096, 14031, 121000, 226335, 6, GTBS_LIMIT_WARPS },
	{ "NLM2", 4096, 64, 29, 0, 19873, 28700, 692686, 8, GTBS_LIMIT_BLOCKS },
	{ "JPEG-d", 512, 64, 24, 2048, 5238, 295800, 24853, 8, GTBS_LIMIT_BLOCKS },
	{ "JPEG-e", 512, 64, 24, 2048, 5367, 329500, 25383, 8, GTBS_LIMIT_BLOCKS },
	{ "RayTracing", 2048, 128, 43, 0, 15167, 657100, 416563, 5, GTBS_LIMIT_REGS },
	{ "SAD", 1584, 61, 28, 3072, 32332, 65700, 441297, 8, GTBS_LIMIT_BLOCKS },
	{ "SHA1", 1539, 64, 26, 0, 1708531, 79800, 22224223, 8, GTBS_LIMIT_BLOCKS },
};

/* Their shapes and timing, as in workloads/ercbench/kernels.gtbs. */
static const u32
gtbs_erc_shapes[ARRAY_SIZE(gtbs_erc_kernels)][GTBS_ERC_NR_TIMING] =
	GTBS_ERC_TIMING;

static void gtbs_erc_desc(const struct gtbs_erc_kernel *k,
			  struct gtbs_grid_desc *desc)
{
	const u32 *shape = gtbs_erc_shapes[k - gtbs_erc_kernels];

	*desc = gtbs_test_desc(k->blocks, k->threads, k->regs, k->shmem,
			       k->mean_t);
	desc->block_rsd_ppm = k->rsd_ppm;
	desc->seed = 1;
	desc->block_dist = shape[0];
	desc->block_dist_param = shape[1];
	desc->startup_ppm = shape[2];
	desc->startup_blocks = shape[3];
	desc->mem_ppm = shape[4];
	desc->knee_mwarps = shape[5];
}

static void gtbs_erc_kernel_desc(const struct gtbs_erc_kernel *k, char *desc)
{
	strscpy(desc, k->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(gtbs_erc, gtbs_erc_kernels, gtbs_erc_kernel_desc);

static void gtbs_occupancy_ercbench(struct kunit *test)
{
	const struct gtbs_erc_kernel *k = test->param_value;
	struct gtbs_dev_config cfg;
	struct gtbs_grid_desc desc;
	struct gtbs_occupancy occ;

	gtbs_config_default(&cfg);
	gtbs_erc_desc(k, &desc);
	KUNIT_ASSERT_EQ(test, gtbs_occupancy_calc(&cfg, &desc, &occ), 0);
	KUNIT_EXPECT_EQ(test, occ.residency, k->residency);
	KUNIT_EXPECT_EQ(test, occ.limiter, k->limiter);
	KUNIT_EXPECT_EQ(test, occ.warps, DIV_ROUND_UP(k->threads, 32));
}

/* render's footnote: one register fewer gives six resident blocks. */
static void gtbs_occupancy_render_one_reg_fewer(struct kunit *test)
{
	struct gtbs_grid_desc desc = gtbs_test_desc(1, 128, 42, 0, 1);
	struct gtbs_dev_config cfg;
	struct gtbs_occupancy occ;

	gtbs_config_default(&cfg);
	KUNIT_ASSERT_EQ(test, gtbs_occupancy_calc(&cfg, &desc, &occ), 0);
	KUNIT_EXPECT_EQ(test, occ.residency, 6);
}

static void gtbs_occupancy_allocation_units(struct kunit *test)
{
	/* 33 threads: 2 warps; 21 regs: 672 -> 704 per warp; 100 B -> 128 B */
	struct gtbs_grid_desc desc = gtbs_test_desc(1, 33, 21, 100, 1);
	struct gtbs_dev_config cfg;
	struct gtbs_occupancy occ;

	gtbs_config_default(&cfg);
	KUNIT_ASSERT_EQ(test, gtbs_occupancy_calc(&cfg, &desc, &occ), 0);
	KUNIT_EXPECT_EQ(test, occ.warps, 2);
	KUNIT_EXPECT_EQ(test, occ.threads, 64);
	KUNIT_EXPECT_EQ(test, occ.regs, 2 * 704);
	KUNIT_EXPECT_EQ(test, occ.shmem, 128);
}

static void gtbs_occupancy_shmem_limit(struct kunit *test)
{
	struct gtbs_grid_desc desc = gtbs_test_desc(1, 64, 0, 16 * 1024, 1);
	struct gtbs_dev_config cfg;
	struct gtbs_occupancy occ;

	gtbs_config_default(&cfg);
	KUNIT_ASSERT_EQ(test, gtbs_occupancy_calc(&cfg, &desc, &occ), 0);
	KUNIT_EXPECT_EQ(test, occ.residency, 3);
	KUNIT_EXPECT_EQ(test, occ.limiter, GTBS_LIMIT_SHMEM);
}

static void gtbs_occupancy_does_not_fit(struct kunit *test)
{
	/* 1024 threads x 63 regs = 32 warps x 2048 regs > 32768 */
	struct gtbs_grid_desc desc = gtbs_test_desc(1, 1024, 63, 0, 1);
	struct gtbs_dev_config cfg;
	struct gtbs_occupancy occ;

	gtbs_config_default(&cfg);
	KUNIT_EXPECT_EQ(test, gtbs_occupancy_calc(&cfg, &desc, &occ), -EINVAL);
	KUNIT_EXPECT_EQ(test, occ.residency, 0);
}

static struct kunit_case gtbs_occupancy_cases[] = {
	KUNIT_CASE_PARAM(gtbs_occupancy_ercbench, gtbs_erc_gen_params),
	KUNIT_CASE(gtbs_occupancy_render_one_reg_fewer),
	KUNIT_CASE(gtbs_occupancy_allocation_units),
	KUNIT_CASE(gtbs_occupancy_shmem_limit),
	KUNIT_CASE(gtbs_occupancy_does_not_fit),
	{}
};

static struct kunit_suite gtbs_occupancy_suite = {
	.name = "gputbs_occupancy",
	.test_cases = gtbs_occupancy_cases,
};

/* --- gputbs_timing: the SM timing model's properties --------------------- */

/* Alone at maximum residency, every block of a uniform grid lasts t. */
static void gtbs_timing_alone_at_r_lasts_t(struct kunit *test)
{
	struct gtbs_test_dev *td = gtbs_test_dev_sms(test, 2);
	struct gtbs_grid_desc desc = gtbs_test_desc(2 * 8 * 4, 64, 16, 0, 5000);
	unsigned int i;

	gtbs_test_submit(test, td, &desc, 0);
	gtbs_test_drain(td);
	KUNIT_ASSERT_EQ(test, td->nr_ends, 64);
	for (i = 0; i < td->nr_ends; i++)
		KUNIT_EXPECT_EQ(test, td->ends[i].end - td->ends[i].start, 5000);
}

/* Equation 1: T = ceil(N / R) * t alone at R with uniform blocks. */
static void gtbs_timing_staircase(struct kunit *test)
{
	struct gtbs_test_dev *td = gtbs_test_dev_sms(test, 1);
	struct gtbs_grid_desc desc = gtbs_test_desc(6 * 5, 256, 20, 0, 1000);
	struct gtbs_grid *grid;

	grid = gtbs_test_submit(test, td, &desc, 0);
	KUNIT_ASSERT_EQ(test, grid->occ.residency, 6);
	gtbs_test_drain(td);
	KUNIT_EXPECT_EQ(test, grid->state, GTBS_GRID_DONE);
	KUNIT_EXPECT_EQ(test, grid->end_cycle - grid->start_cycle, 5 * 1000);
}

/*
 * Section "Effect of Residency": t grows with residency while the runtime
 * falls and saturates.  Here the declared t is normalised to each grid's
 * own R, so compare blocks of one grid run at lower residency instead:
 * a grid whose last wave is partial runs that wave's blocks faster.
 */
static void gtbs_timing_block_grows_with_residency(struct kunit *test)
{
	struct gtbs_test_dev *td = gtbs_test_dev_sms(test, 1);
	struct gtbs_grid_desc desc = gtbs_test_desc(9, 64, 16, 0, 1000);
	u64 full, lone;

	gtbs_test_submit(test, td, &desc, 0);
	gtbs_test_drain(td);
	KUNIT_ASSERT_EQ(test, td->nr_ends, 9);
	full = td->ends[0].end - td->ends[0].start;
	lone = td->ends[8].end - td->ends[8].start;
	KUNIT_EXPECT_EQ(test, full, 1000);
	/* K = 8, W = 2: 1000 * (8 + 2) / (8 + 16) */
	KUNIT_EXPECT_EQ(test, lone, DIV_ROUND_UP(1000 * 10, 24));
}

/*
 * Section "Effect of Residency": a grid (R = 8, 2 warps per block) held to
 * residency r by co-runners has shorter blocks at lower r, yet its runtime
 * for N blocks, ceil(N / r) * d(r), falls as r grows and saturates.
 */
static void gtbs_timing_runtime_saturates(struct kunit *test)
{
	const u32 knee = 8, warps = 2, full = 8 * warps, n = 840;
	u64 work = gtbs_block_progress(1000, TDIV(knee, full));
	u64 d[9], runtime[9];
	u32 r;

	for (r = 1; r <= 8; r++) {
		d[r] = gtbs_progress_cycles(work, TDIV(knee, r * warps));
		runtime[r] = DIV_ROUND_UP(n, r) * d[r];
	}
	KUNIT_EXPECT_EQ(test, d[8], 1000);
	for (r = 2; r <= 8; r++) {
		KUNIT_EXPECT_GT(test, d[r], d[r - 1]);
		KUNIT_EXPECT_LT(test, runtime[r], runtime[r - 1]);
	}
	/* saturation: doubling 1 -> 2 gains more than doubling 4 -> 8 */
	KUNIT_EXPECT_GT(test, runtime[1] - runtime[2], runtime[4] - runtime[8]);
}

/* Section "Effects of Co-runners": co-runners' warps lengthen a block. */
static void gtbs_timing_corunners_slow_blocks(struct kunit *test)
{
	struct gtbs_test_dev *alone = gtbs_test_dev_sms(test, 1);
	struct gtbs_test_dev *shared = gtbs_test_dev_sms(test, 1);
	struct gtbs_grid_desc a = gtbs_test_desc(1, 64, 16, 0, 1000);
	struct gtbs_grid_desc b = gtbs_test_desc(4, 256, 16, 0, 100000);

	gtbs_test_submit(test, alone, &a, 0);
	gtbs_test_drain(alone);
	/* b first (FIFO), then a fits beside it: 8 + 2 warps of co-runners */
	gtbs_test_submit(test, shared, &b, 0);
	gtbs_test_submit(test, shared, &a, 0);
	gtbs_test_drain(shared);
	KUNIT_ASSERT_EQ(test, alone->nr_ends, 1);
	KUNIT_ASSERT_EQ(test, shared->nr_ends, 5);
	KUNIT_EXPECT_GT(test, shared->ends[0].end - shared->ends[0].start,
			alone->ends[0].end - alone->ends[0].start);
	/* L = 4 * 8 + 2 = 34 warps: 1000 * (8 + 34) / (8 + 16) */
	KUNIT_EXPECT_EQ(test, shared->ends[0].end - shared->ends[0].start,
			DIV_ROUND_UP(1000 * 42, 24));
}

/*
 * Two grids of 4 blocks of 2 warps (w = 2400, Lf = 16) resident together on
 * one SM; returns the later end.  Alone each takes 2400 * 16 / 24 = 1600.
 */
static u64 gtbs_timing_pair(struct kunit *test, u32 mem_a, u32 mem_b)
{
	struct gtbs_test_dev *td = gtbs_test_dev_sms(test, 1);
	struct gtbs_grid_desc a = gtbs_test_desc(4, 64, 16, 0, 2400);
	struct gtbs_grid_desc b = a;
	struct gtbs_grid *ga, *gb;

	a.mem_ppm = mem_a;
	b.mem_ppm = mem_b;
	ga = gtbs_test_submit(test, td, &a, 0);
	gb = gtbs_test_submit(test, td, &b, 0);
	gtbs_test_drain(td);
	KUNIT_EXPECT_EQ(test, gb->start_cycle, 0);
	return max(ga->end_cycle, gb->end_cycle);
}

/* Complementary demands (phi 0 and 1): 1600 together, 3200 in sequence. */
static void gtbs_timing_complementary_sooner(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, gtbs_timing_pair(test, 0, GTBS_PPM), 1600);
}

/* The same pipe (phi equal): both see 16 warps, 2400 cycles, as before. */
static void gtbs_timing_same_pipe_contends(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, gtbs_timing_pair(test, 0, 0), 2400);
	KUNIT_EXPECT_EQ(test, gtbs_timing_pair(test, GTBS_PPM, GTBS_PPM), 2400);
	KUNIT_EXPECT_EQ(test, gtbs_timing_pair(test, 250000, 250000), 2400);
	/* phi 0.5 beside phi 0: b 2000, a 2000 + 400 * 16 / 24 */
	KUNIT_EXPECT_EQ(test, gtbs_timing_pair(test, 500000, 0), 2267);
}

static void gtbs_timing_deterministic(struct kunit *test)
{
	struct gtbs_grid_desc desc = gtbs_test_desc(1, 64, 16, 0, 10000);
	struct gtbs_grid_desc other;
	u32 i, differ = 0;
	u64 sum = 0;

	desc.block_rsd_ppm = 100000;
	desc.seed = 42;
	other = desc;
	other.seed = 43;
	for (i = 0; i < 1000; i++) {
		u64 w = gtbs_block_work(&desc, i);

		KUNIT_EXPECT_EQ(test, w, gtbs_block_work(&desc, i));
		differ += w != gtbs_block_work(&other, i);
		sum += w;
	}
	KUNIT_EXPECT_GT(test, differ, 900);
	/* mean within 1% of t for 1000 draws at 10% RSD */
	KUNIT_EXPECT_LT(test, abs((s64)sum / 1000 - 10000), 100);
}

static void gtbs_timing_same_seed_same_run(struct kunit *test)
{
	const struct gtbs_erc_kernel *k = &gtbs_erc_kernels[5];
	struct gtbs_test_dev *a = gtbs_test_dev_sms(test, 15);
	struct gtbs_test_dev *b = gtbs_test_dev_sms(test, 15);
	struct gtbs_grid *ga, *gb;
	struct gtbs_grid_desc desc;

	gtbs_erc_desc(k, &desc);
	ga = gtbs_test_submit(test, a, &desc, 0);
	gb = gtbs_test_submit(test, b, &desc, 0);
	gtbs_test_drain(a);
	gtbs_test_drain(b);
	KUNIT_EXPECT_EQ(test, ga->end_cycle, gb->end_cycle);
	KUNIT_EXPECT_EQ(test, a->nr_ends, b->nr_ends);
	KUNIT_EXPECT_EQ(test, memcmp(a->ends, b->ends, sizeof(a->ends)), 0);
}

/*
 * render's shape (GTBS_DIST_SKEWED, 11% heavy blocks), Section "Differing
 * Work per Thread Block": about half of the blocks within 0.75x to 1x of
 * the mean, the median below the mean, the longest over 3.2x, none below
 * half the mean; the mean within 3 standard errors (0.657 t / sqrt(2048),
 * 1.5%) of t.
 */
static void gtbs_timing_skewed_render(struct kunit *test)
{
	const struct gtbs_erc_kernel *k = &gtbs_erc_kernels[5];
	struct gtbs_grid_desc desc;
	u64 w, sum = 0, mean, max = 0, min = U64_MAX;
	u32 i, in = 0, below = 0, n = k->blocks;

	gtbs_erc_desc(k, &desc);
	KUNIT_ASSERT_EQ(test, desc.block_dist, (u32)GTBS_DIST_SKEWED);
	for (i = 0; i < n; i++)
		sum += gtbs_block_work(&desc, i);
	mean = div_u64(sum, n);
	KUNIT_EXPECT_LT(test, abs((s64)mean - (s64)k->mean_t),
			(s64)k->mean_t * 45 / 1000);
	for (i = 0; i < n; i++) {
		w = gtbs_block_work(&desc, i);
		in += 4 * w >= 3 * mean && w <= mean;
		below += w < mean;
		max = max(max, w);
		min = min(min, w);
	}
	KUNIT_EXPECT_GT(test, in, n * 45 / 100);
	KUNIT_EXPECT_LT(test, in, n * 55 / 100);
	KUNIT_EXPECT_GT(test, below, n / 2);		/* median < mean */
	KUNIT_EXPECT_GT(test, 10 * max, 32 * mean);
	KUNIT_EXPECT_GT(test, 2 * min, mean);
}

/* Done when: alone runtime within 5% of the paper's simulator runtime. */
static void gtbs_timing_ercbench_calibration(struct kunit *test)
{
	const struct gtbs_erc_kernel *k = test->param_value;
	struct gtbs_test_dev *td = gtbs_test_dev_sms(test, 15);
	struct gtbs_grid_desc desc;
	struct gtbs_grid *grid;
	u64 runtime;

	gtbs_erc_desc(k, &desc);
	grid = gtbs_test_submit(test, td, &desc, 0);
	gtbs_test_drain(td);
	KUNIT_ASSERT_EQ(test, grid->state, GTBS_GRID_DONE);
	runtime = grid->end_cycle - grid->submit_cycle;
	kunit_info(test, "%s: %llu cycles alone, paper %llu\n", k->name,
		   runtime, k->runtime);
	KUNIT_EXPECT_LE(test, runtime, k->runtime + k->runtime / 20);
	KUNIT_EXPECT_GE(test, runtime, k->runtime - k->runtime / 20);
}

static struct kunit_case gtbs_timing_cases[] = {
	KUNIT_CASE(gtbs_timing_alone_at_r_lasts_t),
	KUNIT_CASE(gtbs_timing_staircase),
	KUNIT_CASE(gtbs_timing_block_grows_with_residency),
	KUNIT_CASE(gtbs_timing_runtime_saturates),
	KUNIT_CASE(gtbs_timing_corunners_slow_blocks),
	KUNIT_CASE(gtbs_timing_complementary_sooner),
	KUNIT_CASE(gtbs_timing_same_pipe_contends),
	KUNIT_CASE(gtbs_timing_deterministic),
	KUNIT_CASE(gtbs_timing_same_seed_same_run),
	KUNIT_CASE(gtbs_timing_skewed_render),
	KUNIT_CASE_PARAM(gtbs_timing_ercbench_calibration, gtbs_erc_gen_params),
	{}
};

static struct kunit_suite gtbs_timing_suite = {
	.name = "gputbs_timing",
	.test_cases = gtbs_timing_cases,
};

/* --- gputbs_fifo: dispatch order of Section "FIFO (Baseline)" ------------ */

static int gtbs_first_start_of(const struct gtbs_test_dev *td, u64 grid_id)
{
	unsigned int i;

	for (i = 0; i < td->nr_starts; i++)
		if (td->starts[i].grid_id == grid_id)
			return i;
	return -1;
}

/* Blocks of the next grid issue only after every block of the older one. */
static void gtbs_fifo_issues_in_arrival_order(struct kunit *test)
{
	struct gtbs_test_dev *td = gtbs_test_dev_sms(test, 15);
	struct gtbs_grid_desc a = gtbs_test_desc(300, 64, 16, 0, 1000);
	struct gtbs_grid_desc b = gtbs_test_desc(50, 64, 16, 0, 1000);
	struct gtbs_grid *ga, *gb;
	unsigned int i;
	int first_b;

	ga = gtbs_test_submit(test, td, &a, 0);
	gb = gtbs_test_submit(test, td, &b, 10);
	gtbs_test_drain(td);
	KUNIT_ASSERT_EQ(test, td->nr_starts, 350);
	first_b = gtbs_first_start_of(td, gb->id);
	KUNIT_ASSERT_EQ(test, first_b, 300);
	for (i = 0; i < 300; i++) {
		KUNIT_EXPECT_EQ(test, td->starts[i].grid_id, ga->id);
		KUNIT_EXPECT_EQ(test, td->starts[i].block, i);
	}
	KUNIT_EXPECT_EQ(test, ga->state, GTBS_GRID_DONE);
	KUNIT_EXPECT_EQ(test, gb->state, GTBS_GRID_DONE);
	KUNIT_EXPECT_GE(test, gb->start_cycle, td->starts[299].start);
}

/*
 * Head-of-line blocking: while the oldest grid has a block that does not
 * fit, no SM issues a younger grid's block even if it would fit.
 */
static void gtbs_fifo_head_of_line(struct kunit *test)
{
	struct gtbs_test_dev *td = gtbs_test_dev_sms(test, 1);
	/* 20 KiB shared memory: R = 2, four blocks, two waves */
	struct gtbs_grid_desc a = gtbs_test_desc(4, 64, 16, 20 * 1024, 1000);
	struct gtbs_grid_desc b = gtbs_test_desc(1, 32, 16, 0, 1000);
	struct gtbs_grid *ga, *gb;

	ga = gtbs_test_submit(test, td, &a, 0);
	gb = gtbs_test_submit(test, td, &b, 0);
	KUNIT_EXPECT_EQ(test, ga->resident, 2);
	KUNIT_EXPECT_EQ(test, gb->state, GTBS_GRID_QUEUED);
	gtbs_test_drain(td);
	/* b starts with a's second wave, once all of a is issued */
	KUNIT_EXPECT_EQ(test, gb->start_cycle, 1000);
	KUNIT_EXPECT_EQ(test, gtbs_first_start_of(td, gb->id), 4);
}

/* Once the older grid is fully issued, the next one uses what is left. */
static void gtbs_fifo_concurrent_on_leftover(struct kunit *test)
{
	struct gtbs_test_dev *td = gtbs_test_dev_sms(test, 2);
	struct gtbs_grid_desc a = gtbs_test_desc(4, 256, 16, 0, 10000);
	struct gtbs_grid_desc b = gtbs_test_desc(4, 64, 16, 0, 1000);
	struct gtbs_grid *ga, *gb;

	ga = gtbs_test_submit(test, td, &a, 0);
	gb = gtbs_test_submit(test, td, &b, 5);
	KUNIT_EXPECT_EQ(test, gb->start_cycle, 5);
	gtbs_test_drain(td);
	KUNIT_EXPECT_LT(test, gb->end_cycle, ga->end_cycle);
}

static void gtbs_fifo_cancel_returns_resources(struct kunit *test)
{
	struct gtbs_test_dev *td = gtbs_test_dev_sms(test, 2);
	struct gtbs_grid_desc a = gtbs_test_desc(100, 256, 16, 1024, 10000);
	struct gtbs_grid_desc b = gtbs_test_desc(2, 64, 16, 0, 1000);
	struct gtbs_grid *ga, *gb;
	u32 i;

	ga = gtbs_test_submit(test, td, &a, 0);
	gb = gtbs_test_submit(test, td, &b, 0);
	KUNIT_EXPECT_EQ(test, gb->state, GTBS_GRID_QUEUED);
	gtbs_grid_cancel(&td->dev, ga, 100);
	KUNIT_EXPECT_EQ(test, ga->state, GTBS_GRID_CANCELLED);
	KUNIT_EXPECT_EQ(test, ga->resident, 0);
	KUNIT_EXPECT_EQ(test, td->dev.grids_cancelled, 1);
	gtbs_dev_run_until(&td->dev, 100);
	KUNIT_EXPECT_EQ(test, gb->start_cycle, 100);
	gtbs_test_drain(td);
	KUNIT_EXPECT_EQ(test, gb->state, GTBS_GRID_DONE);
	for (i = 0; i < 2; i++) {
		KUNIT_EXPECT_EQ(test, td->sms[i]->nr_resident, 0);
		KUNIT_EXPECT_EQ(test, td->sms[i]->used_warps, 0);
		KUNIT_EXPECT_EQ(test, td->sms[i]->used_shmem, 0);
		KUNIT_EXPECT_EQ(test, td->sms[i]->used_regs, 0);
	}
	KUNIT_EXPECT_TRUE(test, gtbs_dev_idle(&td->dev));
	KUNIT_EXPECT_EQ(test, td->dev.grids_submitted,
			td->dev.grids_completed + td->dev.grids_cancelled);
}

/* Never more than the SM's resources, at any event. */
static void gtbs_fifo_never_oversubscribes(struct kunit *test)
{
	struct gtbs_test_dev *td = gtbs_test_dev_sms(test, 3);
	const struct gtbs_dev_config *cfg = &td->dev.cfg;
	unsigned int k;
	u64 next;
	u32 i;

	for (k = 0; k < ARRAY_SIZE(gtbs_erc_kernels); k++) {
		struct gtbs_grid_desc desc;

		gtbs_erc_desc(&gtbs_erc_kernels[k], &desc);
		desc.nr_blocks = 40;
		desc.startup_blocks = min(desc.startup_blocks, desc.nr_blocks);
		desc.block_cycles = 1000 + 100 * k;
		gtbs_test_submit(test, td, &desc, k * 7);
	}
	while ((next = gtbs_dev_next_event(&td->dev)) != U64_MAX) {
		gtbs_dev_run_until(&td->dev, next);
		for (i = 0; i < cfg->nr_sms; i++) {
			const struct gtbs_sm *sm = td->sms[i];

			KUNIT_ASSERT_LE(test, sm->nr_resident, cfg->max_blocks_per_sm);
			KUNIT_ASSERT_LE(test, sm->used_warps, cfg->max_warps_per_sm);
			KUNIT_ASSERT_LE(test, sm->used_threads, cfg->max_threads_per_sm);
			KUNIT_ASSERT_LE(test, sm->used_regs, cfg->max_regs_per_sm);
			KUNIT_ASSERT_LE(test, sm->used_shmem, cfg->max_shmem_per_sm);
		}
	}
	KUNIT_EXPECT_EQ(test, td->nr_ends, 8 * 40);
	KUNIT_EXPECT_EQ(test, td->dev.grids_completed, 8);
}

/*
 * Stream order (gtbs_grid_submit_after()), worked by hand on one SM: a
 * grid of 8 blocks of 64 threads fills its 8 slots at R = 8 and runs
 * exactly 1000 cycles.  A 0..1000; B after A with a gap of 250 arrives
 * at 1250 and ends at 2250; C after B with a gap of 0 runs 2250..3250.
 */
static void gtbs_stream_chain_exact(struct kunit *test)
{
	struct gtbs_test_dev *td = gtbs_test_dev_sms(test, 1);
	struct gtbs_grid_desc d = gtbs_test_desc(8, 64, 16, 0, 1000);
	struct gtbs_grid *a, *b, *c;

	a = gtbs_test_submit(test, td, &d, 0);
	b = gtbs_test_grid_new(test, td, &d);
	c = gtbs_test_grid_new(test, td, &d);
	gtbs_grid_submit_after(&td->dev, b, 0, a, 250);
	gtbs_grid_submit_after(&td->dev, c, 0, b, 0);
	KUNIT_EXPECT_EQ(test, b->state, GTBS_GRID_WAITING);
	KUNIT_EXPECT_EQ(test, gtbs_dev_next_arrival(&td->dev), U64_MAX);
	gtbs_dev_run_until(&td->dev, 1000);
	KUNIT_EXPECT_EQ(test, b->state, GTBS_GRID_ARRIVING);
	KUNIT_EXPECT_EQ(test, gtbs_dev_next_arrival(&td->dev), 1250);
	gtbs_test_drain(td);
	KUNIT_EXPECT_EQ(test, b->submit_cycle, 1250);
	KUNIT_EXPECT_EQ(test, b->start_cycle, 1250);
	KUNIT_EXPECT_EQ(test, b->end_cycle, 2250);
	KUNIT_EXPECT_EQ(test, c->submit_cycle, 2250);
	KUNIT_EXPECT_EQ(test, c->end_cycle, 3250);
}

/* A cancelled waiting grid never arrives; its predecessor still runs. */
static void gtbs_stream_cancel_waiting(struct kunit *test)
{
	struct gtbs_test_dev *td = gtbs_test_dev_sms(test, 1);
	struct gtbs_grid_desc d = gtbs_test_desc(8, 64, 16, 0, 1000);
	struct gtbs_grid *a, *b;

	a = gtbs_test_submit(test, td, &d, 0);
	b = gtbs_test_grid_new(test, td, &d);
	gtbs_grid_submit_after(&td->dev, b, 0, a, 0);
	gtbs_grid_cancel(&td->dev, b, 10);
	KUNIT_EXPECT_EQ(test, b->state, GTBS_GRID_CANCELLED);
	KUNIT_EXPECT_TRUE(test, list_empty(&a->dependents));
	KUNIT_EXPECT_TRUE(test, list_empty(&td->dev.waiting));
	gtbs_test_drain(td);
	KUNIT_EXPECT_EQ(test, a->end_cycle, 1000);
	KUNIT_EXPECT_EQ(test, b->next_block, 0);
	KUNIT_EXPECT_EQ(test, gtbs_dev_next_event(&td->dev), U64_MAX);
}

static struct kunit_case gtbs_fifo_cases[] = {
	KUNIT_CASE(gtbs_fifo_issues_in_arrival_order),
	KUNIT_CASE(gtbs_fifo_head_of_line),
	KUNIT_CASE(gtbs_fifo_concurrent_on_leftover),
	KUNIT_CASE(gtbs_fifo_cancel_returns_resources),
	KUNIT_CASE(gtbs_fifo_never_oversubscribes),
	KUNIT_CASE(gtbs_stream_chain_exact),
	KUNIT_CASE(gtbs_stream_cancel_waiting),
	{}
};

static struct kunit_suite gtbs_fifo_suite = {
	.name = "gputbs_fifo",
	.test_cases = gtbs_fifo_cases,
};

/* --- gputbs_grid: validation of a submitted grid ------------------------ */

struct gtbs_bad_desc {
	const char *name;
	struct gtbs_grid_desc desc;
	int err;
};

#define GTBS_OK_DESC .nr_blocks = 10, .threads_per_block = 64, \
	.regs_per_thread = 16, .block_cycles = 1000, .label = "ok"

static const struct gtbs_bad_desc gtbs_bad_descs[] = {
	{ "zero blocks", { GTBS_OK_DESC, .nr_blocks = 0 }, -EINVAL },
	{ "too many blocks", { GTBS_OK_DESC, .nr_blocks = (1U << 20) + 1 }, -E2BIG },
	{ "zero threads", { GTBS_OK_DESC, .threads_per_block = 0 }, -EINVAL },
	{ "1025 threads", { GTBS_OK_DESC, .threads_per_block = 1025 }, -EINVAL },
	{ "64 registers", { GTBS_OK_DESC, .regs_per_thread = 64 }, -EINVAL },
	{ "too much shmem", { GTBS_OK_DESC, .shmem_per_block = 49153 }, -EINVAL },
	{ "zero cycles", { GTBS_OK_DESC, .block_cycles = 0 }, -EINVAL },
	{ "2^40+1 cycles", { GTBS_OK_DESC, .block_cycles = (1ULL << 40) + 1 }, -EINVAL },
	{ "rsd > 100%", { GTBS_OK_DESC, .block_rsd_ppm = 1000001 }, -EINVAL },
	{ "label control char", { GTBS_OK_DESC, .label = "a\tb" }, -EINVAL },
	{ "does not fit", { GTBS_OK_DESC, .threads_per_block = 1024,
			    .regs_per_thread = 63 }, -EINVAL },
};

static void gtbs_bad_desc_name(const struct gtbs_bad_desc *b, char *desc)
{
	strscpy(desc, b->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(gtbs_bad, gtbs_bad_descs, gtbs_bad_desc_name);

static void gtbs_grid_rejects(struct kunit *test)
{
	const struct gtbs_bad_desc *b = test->param_value;
	struct gtbs_dev_config cfg;
	const char *why = NULL;

	gtbs_config_default(&cfg);
	KUNIT_EXPECT_EQ(test, gtbs_grid_desc_check(&cfg, &b->desc, &why), b->err);
	KUNIT_EXPECT_NOT_NULL(test, why);
}

static void gtbs_grid_label_unterminated(struct kunit *test)
{
	struct gtbs_grid_desc desc = { GTBS_OK_DESC };
	struct gtbs_dev_config cfg;
	const char *why;

	gtbs_config_default(&cfg);
	memset(desc.label, 'x', sizeof(desc.label));
	KUNIT_EXPECT_EQ(test, gtbs_grid_desc_check(&cfg, &desc, &why), -EINVAL);
}

static void gtbs_grid_zero_duration(struct kunit *test)
{
	static const u64 durations[3] = { 10, 0, 10 };
	struct gtbs_grid_desc desc = { GTBS_OK_DESC, .nr_blocks = 3,
				       .block_cycles = 0,
				       .durations = durations };
	struct gtbs_dev_config cfg;
	const char *why;

	gtbs_config_default(&cfg);
	KUNIT_EXPECT_EQ(test, gtbs_grid_desc_check(&cfg, &desc, &why), -EINVAL);
}

static void gtbs_grid_explicit_durations(struct kunit *test)
{
	static const u64 durations[3] = { 100, 300, 200 };
	struct gtbs_grid_desc desc = { GTBS_OK_DESC, .nr_blocks = 3,
				       .block_cycles = 0,
				       .durations = durations };
	struct gtbs_test_dev *td = gtbs_test_dev_sms(test, 1);
	struct gtbs_grid *grid;

	grid = gtbs_test_submit(test, td, &desc, 0);
	gtbs_test_drain(td);
	KUNIT_EXPECT_EQ(test, grid->state, GTBS_GRID_DONE);
	/* three 2-warp blocks at R = 8: L = 6 of Lf = 16, K = 8 */
	KUNIT_ASSERT_EQ(test, td->nr_ends, 3);
	KUNIT_EXPECT_EQ(test, td->ends[0].block, 0);
	KUNIT_EXPECT_EQ(test, td->ends[0].end, DIV_ROUND_UP(100 * 14, 24));
}

static struct kunit_case gtbs_grid_cases[] = {
	KUNIT_CASE_PARAM(gtbs_grid_rejects, gtbs_bad_gen_params),
	KUNIT_CASE(gtbs_grid_label_unterminated),
	KUNIT_CASE(gtbs_grid_zero_duration),
	KUNIT_CASE(gtbs_grid_explicit_durations),
	{}
};

static struct kunit_suite gtbs_grid_suite = {
	.name = "gputbs_grid",
	.test_cases = gtbs_grid_cases,
};

/* --- gputbs_metrics: STP, ANTT, StrictF by hand ------------------------- */

static void gtbs_metrics_hand_computed(struct kunit *test)
{
	/* alone 100 and 300; shared 200 and 400: slowdowns 2 and 4/3 */
	static const u64 alone[] = { 100, 300 };
	static const u64 shared[] = { 200, 400 };
	struct gtbs_metrics m;

	KUNIT_ASSERT_EQ(test, gtbs_metrics_calc(alone, shared, 2, &m), 0);
	KUNIT_EXPECT_EQ(test, m.stp, 500000 + 750000);	/* 0.5 + 0.75 */
	KUNIT_EXPECT_EQ(test, m.antt, 1666667);		/* (2 + 1.3333) / 2 */
	KUNIT_EXPECT_EQ(test, m.strictf, 666667);		/* 1.3333 / 2 */
	KUNIT_EXPECT_EQ(test, m.max_slowdown, 2000000);
	KUNIT_EXPECT_EQ(test, m.min_slowdown, 1333333);
}

static void gtbs_metrics_alone_is_one(struct kunit *test)
{
	static const u64 t[] = { 1234 };
	struct gtbs_metrics m;

	KUNIT_ASSERT_EQ(test, gtbs_metrics_calc(t, t, 1, &m), 0);
	KUNIT_EXPECT_EQ(test, m.stp, GTBS_FP_ONE);
	KUNIT_EXPECT_EQ(test, m.antt, GTBS_FP_ONE);
	KUNIT_EXPECT_EQ(test, m.strictf, GTBS_FP_ONE);
}

static void gtbs_metrics_rejects_zero(struct kunit *test)
{
	static const u64 alone[] = { 100, 0 };
	static const u64 shared[] = { 100, 100 };
	struct gtbs_metrics m;

	KUNIT_EXPECT_EQ(test, gtbs_metrics_calc(alone, shared, 2, &m), -EINVAL);
	KUNIT_EXPECT_EQ(test, gtbs_metrics_calc(alone, shared, 0, &m), -EINVAL);
}

static struct kunit_case gtbs_metrics_cases[] = {
	KUNIT_CASE(gtbs_metrics_hand_computed),
	KUNIT_CASE(gtbs_metrics_alone_is_one),
	KUNIT_CASE(gtbs_metrics_rejects_zero),
	{}
};

static struct kunit_suite gtbs_metrics_suite = {
	.name = "gputbs_metrics",
	.test_cases = gtbs_metrics_cases,
};

kunit_test_suites(&gtbs_occupancy_suite, &gtbs_timing_suite, &gtbs_fifo_suite,
		  &gtbs_grid_suite, &gtbs_metrics_suite, &gtbs_predictor_suite,
		  &gtbs_srtf_suite, &gtbs_prio_suite, &gtbs_switch_suite,
		  &gtbs_share_suite, &gtbs_serial_suite, &gtbs_registry_suite,
		  &gtbs_preempt_suite);

MODULE_DESCRIPTION("KUnit tests for the gputbs portable core");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
