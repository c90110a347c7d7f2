// SPDX-License-Identifier: GPL-2.0
/*
 * harness.c - a virtual-time test device for the host unit tests.
 *
 * Copyright (C) 2026 The gputbs developers
 */
#include <signal.h>
#include <stdarg.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"
#include "../kunit/ercbench_timing.h"
#include "../../tools/include/gtbs_pair_alloc_user.h"

/* Devices not yet freed, for h_teardown(). */
static struct h_dev *h_live;

static void h_live_add(struct h_dev *h)
{
	h->live_next = h_live;
	h->live_prev = NULL;
	if (h_live)
		h_live->live_prev = h;
	h_live = h;
}

static void h_live_del(struct h_dev *h)
{
	if (h->live_prev)
		h->live_prev->live_next = h->live_next;
	else
		h_live = h->live_next;
	if (h->live_next)
		h->live_next->live_prev = h->live_prev;
}

static void h_teardown(void)
{
	while (h_live)
		h_free(h_live);
}

TCase *h_tcase(const char *name)
{
	TCase *tc = tcase_create(name);

	/* Check's default 4 s is too short for ASan on a loaded machine */
	tcase_set_timeout(tc, 60);
	tcase_add_checked_fixture(tc, NULL, h_teardown);
	return tc;
}

bool h_returns_within(void (*fn)(void *arg), void *arg, unsigned int timeout_ms)
{
	struct timespec tick = { .tv_nsec = 5 * 1000 * 1000 };
	unsigned int waited;
	int status = 0;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		fn(arg);
		_exit(0);
	}
	for (waited = 0; waited <= timeout_ms; waited += 5) {
		if (waitpid(pid, &status, WNOHANG) == pid)
			return WIFEXITED(status) && WEXITSTATUS(status) == 0;
		nanosleep(&tick, NULL);
	}
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	return false;
}

const struct h_erc_kernel h_erc_kernels[H_NR_ERC] = {
	{ "AES-d", 1429, 256, 20, 4096, 14529, 125200, 234154, 6,
	  GTBS_LIMIT_WARPS, 20, 4096 },
	{ "AES-e", 1429, 256, 20, 4096, 14031, 121000, 226335, 6,
	  GTBS_LIMIT_WARPS, 20, 4096 },
	{ "NLM2", 4096, 64, 29, 0, 19873, 28700, 692686, 8,
	  GTBS_LIMIT_BLOCKS, 16, 0 },
	{ "JPEG-d", 512, 64, 24, 2048, 5238, 295800, 24853, 8,
	  GTBS_LIMIT_BLOCKS, 16, 0 },
	{ "JPEG-e", 512, 64, 24, 2048, 5367, 329500, 25383, 8,
	  GTBS_LIMIT_BLOCKS, 16, 0 },
	{ "RayTracing", 2048, 128, 43, 0, 15167, 657100, 416563, 5,
	  GTBS_LIMIT_REGS, 43, 0 },
	{ "SAD", 1584, 61, 28, 3072, 32332, 65700, 441297, 8,
	  GTBS_LIMIT_BLOCKS, 16, 0 },
	{ "SHA1", 1539, 64, 26, 0, 1708531, 79800, 22224223, 8,
	  GTBS_LIMIT_BLOCKS, 16, 0 },
};

/* Their shapes and timing, as in workloads/ercbench/kernels.gtbs. */
static const u32 h_erc_shapes[H_NR_ERC][GTBS_ERC_NR_TIMING] = GTBS_ERC_TIMING;

struct gtbs_grid_desc h_erc_desc(const struct h_erc_kernel *k, u64 seed)
{
	struct gtbs_grid_desc d = h_desc(k->blocks, k->threads, k->regs,
					 k->shmem, k->mean_t);
	const u32 *shape = h_erc_shapes[k - h_erc_kernels];

	d.block_rsd_ppm = k->rsd_ppm;
	d.block_dist = shape[0];
	d.block_dist_param = shape[1];
	d.startup_ppm = shape[2];
	d.startup_blocks = shape[3];
	d.mem_ppm = shape[4];
	d.knee_mwarps = shape[5];
	d.seed = seed;
	snprintf(d.label, sizeof(d.label), "%s", k->name);
	return d;
}

static void *h_xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);

	ck_assert_msg(p, "out of memory");
	return p;
}

static void *h_grow(void *p, size_t *cap, size_t need, size_t size)
{
	size_t ncap;

	if (need <= *cap)
		return p;
	ncap = *cap ? *cap * 2 : 256;
	while (ncap < need)
		ncap *= 2;
	p = realloc(p, ncap * size);
	ck_assert_msg(p, "out of memory");
	memset((char *)p + *cap * size, 0, (ncap - *cap) * size);
	*cap = ncap;
	return p;
}

static void h_violation(struct h_dev *h, const char *fmt, ...)
{
	va_list ap;

	if (!h->violations++) {
		va_start(ap, fmt);
		vsnprintf(h->violation, sizeof(h->violation), fmt, ap);
		va_end(ap);
	}
}

int h_check_sm(struct h_dev *h, const struct gtbs_sm *sm)
{
	const struct gtbs_dev_config *cfg = &h->dev.cfg;
	u32 n = 0, warps = 0, threads = 0, regs = 0, shmem = 0, i;
	unsigned int before = h->violations;

	h->nr_checks++;
	if (sm->nr_resident > cfg->max_blocks_per_sm ||
	    sm->used_warps > cfg->max_warps_per_sm ||
	    sm->used_threads > cfg->max_threads_per_sm ||
	    sm->used_regs > cfg->max_regs_per_sm ||
	    sm->used_shmem > cfg->max_shmem_per_sm)
		h_violation(h, "SM %u over budget: blocks %u warps %u threads %u regs %u shmem %u",
			    sm->id, sm->nr_resident, sm->used_warps,
			    sm->used_threads, sm->used_regs, sm->used_shmem);
	for (i = 0; i < cfg->max_blocks_per_sm; i++) {
		const struct gtbs_grid *g = sm->slots[i].grid;

		if (!g)
			continue;
		n++;
		warps += g->occ.warps;
		threads += g->occ.threads;
		regs += g->occ.regs;
		shmem += g->occ.shmem;
		if (gtbs_grid_sm_resident(g, sm->id) > g->occ.residency)
			h_violation(h, "SM %u holds %u blocks of grid %llu, R = %u",
				    sm->id, gtbs_grid_sm_resident(g, sm->id),
				    (unsigned long long)g->id, g->occ.residency);
		if (g->state != GTBS_GRID_RUNNING)
			h_violation(h, "SM %u holds a block of grid %llu in state %d",
				    sm->id, (unsigned long long)g->id, g->state);
	}
	if (n != sm->nr_resident || warps != sm->used_warps ||
	    threads != sm->used_threads || regs != sm->used_regs ||
	    shmem != sm->used_shmem)
		h_violation(h, "SM %u counters disagree with its slots: "
			    "%u/%u blocks %u/%u warps %u/%u regs %u/%u shmem",
			    sm->id, sm->nr_resident, n, sm->used_warps, warps,
			    sm->used_regs, regs, sm->used_shmem, shmem);
	if (sm->busy_cycles > sm->now)
		h_violation(h, "SM %u busy %llu cycles of %llu", sm->id,
			    (unsigned long long)sm->busy_cycles,
			    (unsigned long long)sm->now);
	return h->violations != before;
}

int h_check_all(struct h_dev *h)
{
	int bad = 0;
	u32 i;

	for (i = 0; i < h->dev.cfg.nr_sms; i++)
		bad += h_check_sm(h, h->sms[i]);
	return bad;
}

static void h_log(struct h_dev *h, u32 kind, const struct gtbs_sm *sm,
		  const struct gtbs_grid *grid, u32 block, u64 start, u64 end)
{
	struct h_event *e;
	u64 cycle = kind == H_EV_BLOCK_END ? end : start;

	h->ev = h_grow(h->ev, &h->cap_ev, h->nr_ev + 1, sizeof(*h->ev));
	e = &h->ev[h->nr_ev++];
	e->grid_id = grid->id;
	e->start = start;
	e->end = end;
	e->kind = kind;
	e->sm = sm ? sm->id : U32_MAX;
	e->block = block;
	e->pad = 0;
	if (cycle < h->last_cycle)
		h->nonmonotonic++;
	h->last_cycle = max(h->last_cycle, cycle);
	if (h->check_every_event)
		h_check_all(h);
}

static struct h_dev *h_of(struct gtbs_dev *dev)
{
	return dev->priv;
}

static void h_block_start(struct gtbs_dev *dev, struct gtbs_sm *sm,
			  struct gtbs_grid *grid, u32 slot, u32 block,
			  u64 cycle)
{
	h_log(h_of(dev), H_EV_BLOCK_START, sm, grid, block, cycle, 0);
}

static void h_block_end(struct gtbs_dev *dev, struct gtbs_sm *sm,
			struct gtbs_grid *grid, u32 slot, u32 block, u64 start,
			u64 end)
{
	h_log(h_of(dev), H_EV_BLOCK_END, sm, grid, block, start, end);
}

static void h_grid_start(struct gtbs_dev *dev, struct gtbs_grid *grid)
{
	h_log(h_of(dev), H_EV_GRID_START, NULL, grid, U32_MAX,
	      grid->start_cycle, 0);
}

static void h_grid_done(struct gtbs_dev *dev, struct gtbs_grid *grid)
{
	h_log(h_of(dev), H_EV_GRID_DONE, NULL, grid, U32_MAX,
	      grid->end_cycle, grid->end_cycle);
}

/*
 * Called while the TIMED_OUT grid's blocks are still resident (for the
 * owner's accounting): the SMs are checked at the next event instead.
 */
static void h_grid_timeout(struct gtbs_dev *dev, struct gtbs_grid *grid)
{
	struct h_dev *h = h_of(dev);
	bool check = h->check_every_event;

	h->check_every_event = false;
	h_log(h, H_EV_GRID_TIMEOUT, NULL, grid, U32_MAX, grid->end_cycle,
	      grid->end_cycle);
	h->check_every_event = check;
}

static void h_kick(struct gtbs_dev *dev, struct gtbs_sm *sm)
{
	struct h_dev *h = h_of(dev);

	h->nr_kicks++;
	h->sm_kicks[sm->id]++;
}

/* Grids arrive with the reasons the test set (throttle.c). */
static void h_grid_arrive(struct gtbs_dev *dev, struct gtbs_grid *grid)
{
	grid->throttle |= h_of(dev)->arrive_throttle;
}

static const struct gtbs_backend_ops h_backend = {
	.grid_arrive = h_grid_arrive,
	.grid_start = h_grid_start,
	.grid_done = h_grid_done,
	.grid_timeout = h_grid_timeout,
	.block_start = h_block_start,
	.block_end = h_block_end,
	.kick = h_kick,
};

struct h_dev *h_new(const struct gtbs_dev_config *cfg,
		    const struct gtbs_policy_ops *policy)
{
	struct h_dev *h;
	const char *why = NULL;
	u32 i;

	ck_assert_msg(gtbs_config_check(cfg, &why) == 0, "bad config: %s", why);
	h = h_xcalloc(1, sizeof(*h));
	h->sms = h_xcalloc(cfg->nr_sms, sizeof(*h->sms));
	h->sm_kicks = h_xcalloc(cfg->nr_sms, sizeof(*h->sm_kicks));
	for (i = 0; i < cfg->nr_sms; i++) {
		h->sms[i] = h_xcalloc(1, gtbs_sm_size(cfg));
		gtbs_sm_init(cfg, h->sms[i], i);
	}
	gtbs_dev_init(&h->dev, cfg, policy ? policy : &gtbs_policy_fifo,
		      h->sms);
	h->dev.pair_alloc = &gtbs_pair_alloc_libc;
	h->dev.backend = &h_backend;
	h->dev.priv = h;
	h_live_add(h);
	return h;
}

struct h_dev *h_new_sms(u32 nr_sms)
{
	struct gtbs_dev_config cfg;

	gtbs_config_default(&cfg);
	cfg.nr_sms = nr_sms;
	return h_new(&cfg, NULL);
}

void h_free(struct h_dev *h)
{
	size_t i;

	if (!h)
		return;
	h_live_del(h);
	for (i = 0; i < h->dev.cfg.nr_sms; i++)
		free(h->sms[i]);
	for (i = 0; i < h->nr_grids; i++) {
		gtbs_grid_release(&h->dev, h->grids[i]);
		free(h->grids[i]);
	}
	gtbs_dev_spare_free(&h->dev);
	free(h->grids);
	free(h->sms);
	free(h->sm_kicks);
	free(h->ev);
	free(h);
}

struct gtbs_grid_desc h_desc(u32 blocks, u32 threads, u32 regs, u32 shmem,
			     u64 cycles)
{
	struct gtbs_grid_desc d;

	memset(&d, 0, sizeof(d));
	d.nr_blocks = blocks;
	d.threads_per_block = threads;
	d.regs_per_thread = regs;
	d.shmem_per_block = shmem;
	d.block_cycles = cycles;
	d.prio_class = GTBS_PRIO_NORMAL;
	snprintf(d.label, sizeof(d.label), "test");
	return d;
}

struct gtbs_grid *h_grid_new(struct h_dev *h, const struct gtbs_grid_desc *desc,
			     int *err, const char **why)
{
	struct gtbs_grid *g = h_xcalloc(1, gtbs_grid_size(&h->dev.cfg));
	const char *w = NULL;
	int ret;

	ret = gtbs_grid_init(&h->dev, g, desc, &w);
	if (err)
		*err = ret;
	if (why)
		*why = w;
	if (ret) {
		free(g);
		return NULL;
	}
	h->grids = h_grow(h->grids, &h->cap_grids, h->nr_grids + 1,
			  sizeof(*h->grids));
	h->grids[h->nr_grids++] = g;
	return g;
}

struct gtbs_grid *h_submit(struct h_dev *h, const struct gtbs_grid_desc *desc,
			   u64 now)
{
	const char *why = NULL;
	struct gtbs_grid *g;
	int err = 0;

	g = h_grid_new(h, desc, &err, &why);
	ck_assert_msg(g, "grid rejected (%d): %s", err, why);
	gtbs_dev_run_until(&h->dev, now);
	gtbs_grid_submit(&h->dev, g, now);
	gtbs_dev_run_until(&h->dev, now);
	return g;
}

u64 h_drain(struct h_dev *h)
{
	u64 next, last = 0, steps = 0;

	while ((next = gtbs_dev_next_event(&h->dev)) != U64_MAX) {
		ck_assert_msg(next >= last, "next event %llu before %llu",
			      (unsigned long long)next,
			      (unsigned long long)last);
		ck_assert_msg(++steps < 50000000, "drain does not terminate");
		gtbs_dev_run_until(&h->dev, next);
		last = next;
	}
	return last;
}

u64 h_alone_runtime(u32 nr_sms, const struct gtbs_grid_desc *desc)
{
	struct h_dev *h = h_new_sms(nr_sms);
	struct gtbs_grid *g = h_submit(h, desc, 0);
	u64 runtime;

	h_drain(h);
	ck_assert_int_eq(g->state, GTBS_GRID_DONE);
	runtime = g->end_cycle - g->submit_cycle;
	h_free(h);
	return runtime;
}

size_t h_count(const struct h_dev *h, u32 kind, u64 grid_id)
{
	size_t i, n = 0;

	for (i = 0; i < h->nr_ev; i++)
		if (h->ev[i].kind == kind &&
		    (grid_id == U64_MAX || h->ev[i].grid_id == grid_id))
			n++;
	return n;
}

long h_find(const struct h_dev *h, u32 kind, u64 grid_id, u32 block)
{
	size_t i;

	for (i = 0; i < h->nr_ev; i++)
		if (h->ev[i].kind == kind && h->ev[i].grid_id == grid_id &&
		    h->ev[i].block == block)
			return (long)i;
	return -1;
}

u64 h_rand(u64 *state)
{
	u64 z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

u64 h_rand_range(u64 *state, u64 lo, u64 hi)
{
	if (hi <= lo)
		return lo;
	if (hi - lo == U64_MAX)
		return h_rand(state);
	return lo + h_rand(state) % (hi - lo + 1);
}
