// SPDX-License-Identifier: GPL-2.0
/*
 * simulate.c - one workload on a private device, in virtual time.
 *
 * The device is the portable core's &struct gtbs_dev with its own SMs and
 * grids, driven by gtbs_dev_run_until() from event to event: nothing here
 * schedules, times or predicts anything; the core does.
 *
 * Every grid is submitted up front: a program's first grid with
 * gtbs_grid_submit_at(), so it arrives at exactly its arrival cycle, and
 * each later grid with gtbs_grid_submit_after() on the grid before it,
 * the core's stream order (GPUTBS_SUBMIT_AFTER in the module): a program
 * runs its grids one after another, each arriving at the cycle its
 * predecessor ended, after the device's other events of that cycle, and
 * the device runs in one gtbs_dev_run_until() call.  (Until stream order
 * existed, the next grid was submitted from the loop once the device had
 * run to its predecessor's end; the output is byte for byte the same.)
 *
 * Copyright (C) 2026 The gputbs developers
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>

#include "sim.h"
#include "gputbs.h"

/* The simulator's side of one grid: its program and place in it. */
struct sim_gridref {
	u32 run;
	u32 index;
};

/* A device private to one sim_run() call. */
struct sim_dev {
	struct gtbs_dev dev;
	const struct sim_job *job;
	struct gtbs_sm **sms;
	/* per run, per grid: allocated when the grid is submitted */
	struct gtbs_grid **grids[WL_MAX_RUNS];
	struct sim_gridref *refs[WL_MAX_RUNS];
	/* records for preempted blocks (--preempt) */
	struct gtbs_saved *pool;
	/* recorded blocks */
	struct sim_block *blocks;
	size_t nr_blocks, cap_blocks;
	/* the caller's &sim_out.why */
	char *why_buf;
	size_t why_len;
	int err;
};

static struct sim_dev *sim_of(struct gtbs_dev *dev)
{
	return dev->priv;
}

/*
 * --preempt: records for the blocks that may wait preempted at once, four
 * times the device's block slots (one per class below realtime, and a
 * spare), as the module allocates them.
 */
static int sim_preempt_setup(struct sim_dev *s, const struct sim_modes *m,
			     const char **why)
{
	const struct gtbs_dev_config *cfg = s->job->cfg;
	u32 n = cfg->nr_sms * cfg->max_blocks_per_sm * 4;

	if (m->switch_bw)
		s->dev.switch_bytes_per_cycle = m->switch_bw;
	if (m->preempt_mode == GTBS_PREEMPT_DRAIN)
		return 0;
	s->pool = calloc(n, sizeof(*s->pool));
	if (!s->pool) {
		*why = "out of memory";
		return -ENOMEM;
	}
	gtbs_dev_set_saved_pool(&s->dev, s->pool, n);
	return gtbs_dev_set_preempt(&s->dev, m->preempt_mode, 0);
}

static void sim_block_end(struct gtbs_dev *dev, struct gtbs_sm *sm,
			  struct gtbs_grid *grid, u32 slot, u32 block,
			  u64 start, u64 end)
{
	struct sim_dev *s = sim_of(dev);
	const struct sim_gridref *ref = grid->priv;
	struct sim_block *b;

	if (s->nr_blocks == s->cap_blocks) {
		size_t cap = s->cap_blocks ? 2 * s->cap_blocks : 4096;

		b = realloc(s->blocks, cap * sizeof(*b));
		if (!b) {
			s->err = -ENOMEM;
			return;
		}
		s->blocks = b;
		s->cap_blocks = cap;
	}
	s->blocks[s->nr_blocks++] = (struct sim_block) {
		.run = ref->run,
		.grid = ref->index,
		.sm = sm->id,
		.slot = slot,
		.block = block,
		.start = start,
		.end = end,
	};
}

static const struct gtbs_backend_ops sim_backend = {
};

static const struct gtbs_backend_ops sim_backend_record = {
	.block_end = sim_block_end,
};

/**
 * sim_grid_desc() - the core's description of a workload grid
 * @g: the grid of a workload file.
 * @seed_mix: XORed into its seed.
 * @desc: out: what gtbs_grid_init() takes; borrows @g->durations.
 *
 * The same fields as the module's SUBMIT (tools/run.c, kmod), with the
 * uapi's priority class turned into the core's.
 *
 * Return: 0, or -EINVAL for a class the core does not know.
 */
int sim_grid_desc(const struct wl_grid *g, u64 seed_mix,
		  struct gtbs_grid_desc *desc)
{
	memset(desc, 0, sizeof(*desc));
	desc->nr_blocks = g->nr_blocks;
	desc->threads_per_block = g->threads;
	desc->regs_per_thread = g->regs;
	desc->shmem_per_block = g->shmem;
	desc->block_cycles = g->durations ? 0 : g->cycles;
	desc->block_rsd_ppm = g->durations ? 0 : g->rsd_ppm;
	desc->seed = g->seed ^ seed_mix;
	desc->durations = g->durations;
	desc->mem_ppm = g->mem_ppm;
	desc->knee_mwarps = g->knee_mwarps;
	desc->block_dist = g->block_dist;
	desc->block_dist_param = g->block_dist_param;
	desc->startup_ppm = g->startup_ppm;
	desc->startup_blocks = g->startup_blocks;
	desc->idempotent = g->idempotent;
	_Static_assert(sizeof(desc->label) == sizeof(g->label),
		       "label sizes differ");
	memcpy(desc->label, g->label, sizeof(desc->label));
	desc->label[sizeof(desc->label) - 1] = '\0';
	/* uapi: 0 is the default (normal), then low..realtime from 1 */
	if (g->prio_class > GTBS_NR_PRIO_CLASSES)
		return -EINVAL;
	desc->prio_class = g->prio_class == GPUTBS_PRIO_DEFAULT ?
			   GTBS_PRIO_NORMAL : g->prio_class - 1;
	return 0;
}

/*
 * The words of the core's rejection of @g (@ret, @e), through libgputbs's
 * formatter of the module's error detail (userlib/submit_explain.c), into
 * the caller's buffer: "-EINVAL: grid too big: ...".
 */
static const char *sim_explain(struct sim_dev *s, const struct wl_grid *g,
			       int ret, const struct gtbs_grid_err *e)
{
	struct gputbs_submit sub;

	memset(&sub, 0, sizeof(sub));
	sub.nr_blocks = g->nr_blocks;
	sub.threads_per_block = g->threads;
	sub.regs_per_thread = g->regs;
	sub.shmem_per_block = g->shmem;
	sub.work_model = g->durations ? GPUTBS_WORK_ARRAY : GPUTBS_WORK_DIST;
	sub.block_dist = g->block_dist;
	sub.startup_blocks = g->startup_blocks;
	sub.prio_class = g->prio_class;
	sub.err_reason = e->reason;
	sub.err_value = e->value;
	sub.err_limit = e->limit;
	if (gputbs_submit_explain(&sub, ret, s->why_buf, s->why_len) < 0)
		return e->why;
	return s->why_buf;
}

/*
 * Allocate, initialise and submit grid @index of run @run: the first at
 * @at, the others in stream order after the grid before them.
 */
static int sim_submit(struct sim_dev *s, u32 run, u32 index, u64 now, u64 at,
		      const char **why)
{
	const struct sim_job *job = s->job;
	const struct wl_grid *g = &job->progs[run]->grids[index];
	struct gtbs_grid_desc desc;
	struct gtbs_grid_err e;
	struct gtbs_grid *grid;
	int ret;

	if (sim_grid_desc(g, job->seed_mix, &desc)) {
		*why = "unknown priority class";
		return -EINVAL;
	}
	if (job->modes && job->modes->idempotent)
		desc.idempotent = true;
	grid = calloc(1, gtbs_grid_size(job->cfg));
	if (!grid) {
		*why = "out of memory";
		return -ENOMEM;
	}
	ret = gtbs_grid_init_err(&s->dev, grid, &desc, &e);
	if (ret) {
		*why = sim_explain(s, g, ret, &e);
		free(grid);
		return ret;
	}
	if (job->oracle[run])
		grid->alone_cycles = job->oracle[run][index];
	s->refs[run][index] = (struct sim_gridref) { run, index };
	grid->priv = &s->refs[run][index];
	s->grids[run][index] = grid;
	if (index)
		gtbs_grid_submit_after(&s->dev, grid, now,
				       s->grids[run][index - 1], 0);
	else
		gtbs_grid_submit_at(&s->dev, grid, now, at);
	return 0;
}

static void sim_dev_free(struct sim_dev *s)
{
	unsigned int r, k;

	for (r = 0; r < WL_MAX_RUNS; r++) {
		for (k = 0; s->grids[r] && k < s->job->progs[r]->nr_grids; k++)
			free(s->grids[r][k]);
		free(s->grids[r]);
		free(s->refs[r]);
	}
	for (r = 0; s->sms && r < s->job->cfg->nr_sms; r++)
		free(s->sms[r]);
	free(s->sms);
	free(s->pool);
	free(s->blocks);
}

static int sim_dev_alloc(struct sim_dev *s, const char **why)
{
	const struct sim_job *job = s->job;
	unsigned int r;

	s->sms = calloc(job->cfg->nr_sms, sizeof(*s->sms));
	if (!s->sms)
		goto nomem;
	for (r = 0; r < job->cfg->nr_sms; r++) {
		s->sms[r] = malloc(gtbs_sm_size(job->cfg));
		if (!s->sms[r])
			goto nomem;
		gtbs_sm_init(job->cfg, s->sms[r], r);
	}
	for (r = 0; r < job->nr_runs; r++) {
		unsigned int n = job->progs[r]->nr_grids;

		s->grids[r] = calloc(n + 1, sizeof(*s->grids[r]));
		s->refs[r] = calloc(n, sizeof(*s->refs[r]));
		if (!s->grids[r] || !s->refs[r])
			goto nomem;
	}
	return 0;
nomem:
	*why = "out of memory";
	return -ENOMEM;
}

/* Copy what the grids did into @out. */
static int sim_collect(struct sim_dev *s, struct sim_out *out)
{
	const struct sim_job *job = s->job;
	unsigned int r, k;

	for (r = 0; r < job->nr_runs; r++) {
		struct sim_prog_out *po = &out->progs[r];
		unsigned int n = job->progs[r]->nr_grids;

		po->nr_grids = n;
		po->grids = calloc(n, sizeof(*po->grids));
		if (!po->grids)
			return -ENOMEM;
		for (k = 0; k < n; k++) {
			const struct gtbs_grid *g = s->grids[r][k];

			if (!g || g->state != GTBS_GRID_DONE)
				return -EIO;
			po->grids[k] = (struct sim_grid_out) {
				.submit_cycle = g->submit_cycle,
				.start_cycle = g->start_cycle,
				.end_cycle = g->end_cycle,
				.residency = g->occ.residency,
				.nr_predictions = g->nr_predictions,
				.first_pred = g->first_pred,
				.final_pred = gtbs_grid_pred_final(job->cfg, g),
			};
		}
		po->turnaround = po->grids[n - 1].end_cycle -
				 po->grids[0].submit_cycle;
		out->end_cycle = max(out->end_cycle, po->grids[n - 1].end_cycle);
	}
	return 0;
}

/**
 * sim_run() - simulate one workload on a fresh device
 * @job: what to run.
 * @out: out: what it did; release with sim_out_free() (also on error).
 * @why: out: on error, a static string saying why.
 *
 * Context: any thread; the device is private to the call.
 * Return: 0; -EINVAL if a grid is rejected by the core; -ENOMEM; -EIO if
 * a grid did not complete (a bug).
 */
int sim_run(const struct sim_job *job, struct sim_out *out, const char **why)
{
	struct sim_dev *s;
	unsigned int r, k;
	int ret;

	memset(out, 0, sizeof(*out));
	*why = NULL;
	s = calloc(1, sizeof(*s));
	if (!s) {
		*why = "out of memory";
		return -ENOMEM;
	}
	s->job = job;
	s->why_buf = out->why;
	s->why_len = sizeof(out->why);
	ret = sim_dev_alloc(s, why);
	if (ret)
		goto out;
	gtbs_dev_init(&s->dev, job->cfg, job->policy, s->sms);
	s->dev.backend = job->record ? &sim_backend_record : &sim_backend;
	s->dev.priv = s;
	if (job->modes) {
		/* valid: checked by sim_check_params() and the like */
		ret = sim_modes_apply(&s->dev, job->modes, why);
		if (ret)
			goto out;
		ret = sim_preempt_setup(s, job->modes, why);
		if (ret)
			goto out;
	}
	/* the first grids in run order, as their arrivals tie that way */
	for (r = 0; r < job->nr_runs; r++) {
		ret = sim_submit(s, r, 0, 0, job->arrive[r], why);
		if (ret)
			goto out;
	}
	for (r = 0; r < job->nr_runs; r++) {
		for (k = 1; k < job->progs[r]->nr_grids; k++) {
			ret = sim_submit(s, r, k, 0, 0, why);
			if (ret)
				goto out;
		}
	}
	gtbs_dev_run_until(&s->dev, U64_MAX);
	ret = s->err;
	if (!ret)
		ret = sim_collect(s, out);
	out->sharing_switches = s->dev.sharing_switches;
	if (ret == -EIO)
		*why = "a grid did not complete";
	else if (ret)
		*why = "out of memory";
	if (!ret && job->record) {
		out->blocks = s->blocks;
		out->nr_blocks = s->nr_blocks;
		s->blocks = NULL;
	}
out:
	sim_dev_free(s);
	free(s);
	return ret;
}

static int sim_run_virtual(void *priv __attribute__((unused)),
			   const struct sim_job *job,
			   struct sim_out *out, const char **why)
{
	return sim_run(job, out, why);
}

/* The simulator as a backend of the sweep: any number of threads. */
const struct sim_backend sim_backend_virtual = {
	.run = sim_run_virtual,
	.max_jobs = UINT_MAX,
};
