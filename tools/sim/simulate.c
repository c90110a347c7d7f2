// SPDX-License-Identifier: GPL-2.0
/*
 * simulate.c - one workload on a private device, in virtual time.
 *
 * The device is the portable core's &struct gtbs_dev with its own SMs and
 * grids, driven by gtbs_dev_run_until() from event to event: nothing here
 * schedules, times or predicts anything; the core does.
 *
 * A program's grids run one after another in stream order, as a process
 * of "gputbs run" does with GPUTBS_SUBMIT_AFTER: when a grid completes,
 * the backend's grid_done callback notes that its successor (the
 * program's next grid, or in a closed loop of requests the next request)
 * is due, and once the device has run up to that cycle the grid is
 * submitted for that cycle plus its gap= (Documentation/workloads.rst,
 * "Requests"): it arrives at the cycle its predecessor ended, after the
 * device's other events of that cycle, as gtbs_grid_submit_after() would
 * release it.  Submitting from the loop rather than up front keeps only
 * the grids in flight allocated, whatever the number of requests; an
 * open-loop request's first grid is queued with gtbs_grid_submit_at()
 * before the device reaches its arrival.
 *
 * Every run's grids belong to its tenant (&gtbs_grid.tenant, tenant.c):
 * one per run, or one per ``tenant=`` name of the workload, made at cycle
 * 0 with the run's ``weight=`` and ``max=`` (&sim_job.tenant).  Per run,
 * the SM time its blocks hold is integrated exactly from the backend's
 * block events (sim_hold_*()), for &sim_prog_out.sm_share, and sampled at
 * the ends of the windows of --share-window (sim_windows_advance()) for
 * &sim_prog_out.win_share.
 *
 * Copyright (C) 2026 The gputbs developers
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>

#include "sim.h"
#include "gputbs.h"
#include "../../tools/include/gtbs_pair_alloc_user.h"

/* The simulator's side of one grid launch: its program, request, grid. */
struct sim_gridref {
	u32 run;
	u32 req;
	u32 index;
};

/* The requests of one run. */
struct sim_runst {
	const struct wl_program *prog;
	u32 nr_grids;		/* grids of the program */
	u32 nr_requests;
	bool open;		/* rate=: arrivals known in advance */
	u64 think;		/* closed loop: cycles */
	u64 *gap;		/* per grid, gap= in cycles; NULL: none */
	u64 *arrive;		/* per request (open: all in advance) */
	u32 next_req;		/* first request not yet started */
	struct sim_grid_out *out;	/* per launch */
	struct sim_gridref *refs;	/* per launch */
	size_t nr_done;		/* launches done */
};

/*
 * The SM time a run's blocks of one residency R hold: @n slots held now,
 * @slot_cycles the integral of @n over cycles up to @stamp, @at_from and
 * @at_to that integral at &sim_dev.share_from and &sim_dev.share_to,
 * @at_win[w] at the start of the current window of length
 * &sim_job.window_cycles[w].  Integers: the run's SM time is the sum over
 * R of @slot_cycles / R.
 */
struct sim_hold {
	u64 n;
	u64 stamp;
	u64 slot_cycles;
	u64 at_from;
	u64 at_to;
	u64 at_win[SIM_MAX_SHARE_WINDOWS];
};

/* A switched-out block's save in flight: it holds its slot until @end. */
struct sim_save {
	u32 run;
	u32 residency;
	u64 end;
};

/* A device private to one sim_run() call. */
struct sim_dev {
	struct gtbs_dev dev;
	const struct sim_job *job;
	struct gtbs_sm **sms;
	struct sim_runst runs[WL_MAX_RUNS];
	/* the tenants (one per run, or per tenant= name) and each run's */
	struct gtbs_tenant tenants[WL_MAX_RUNS];
	u32 tenant_of[WL_MAX_RUNS];
	u32 nr_tenants;
	/* per run, per residency 0..max_blocks_per_sm: its SM time */
	struct sim_hold *hold;
	struct sim_save *saves;
	size_t nr_saves, cap_saves;
	/* runs whose first grid arrived; the interval of sm_share */
	bool arrived[WL_MAX_RUNS];
	u32 nr_arrived;
	bool have_from, have_to;
	u64 share_from, share_to;
	/*
	 * --share-window: per length, the end of the current window, and per
	 * run the shares of the windows that ended (@nr_win of @cap_win)
	 */
	u64 win_end[SIM_MAX_SHARE_WINDOWS];
	double *win[WL_MAX_RUNS][SIM_MAX_SHARE_WINDOWS];
	size_t nr_win[SIM_MAX_SHARE_WINDOWS], cap_win[SIM_MAX_SHARE_WINDOWS];
	/* launches that ended and whose successor is due */
	struct sim_gridref *due;
	size_t nr_due, cap_due;
	/* completed grids, freed once the engine has returned */
	struct gtbs_grid **dead;
	size_t nr_dead, cap_dead;
	/* grid launches of all programs not yet submitted */
	size_t nr_unsubmitted;
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

/* Grow *@arr (of @size-byte entries) to hold @n + 1. */
static int sim_grow(void **arr, size_t *cap, size_t n, size_t size)
{
	void *p;

	if (n < *cap)
		return 0;
	p = realloc(*arr, (*cap ? 2 * *cap : 64) * size);
	if (!p)
		return -ENOMEM;
	*arr = p;
	*cap = *cap ? 2 * *cap : 64;
	return 0;
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

/* @run's SM time in the slots of residency @r. */
static struct sim_hold *sim_hold_of(struct sim_dev *s, u32 run, u32 r)
{
	u32 max_r = s->job->cfg->max_blocks_per_sm;

	return &s->hold[(size_t)run * (max_r + 1) + min(r, max_r)];
}

/* Integrate @h up to @now. */
static void sim_hold_sync(struct sim_hold *h, u64 now)
{
	if (now <= h->stamp)
		return;
	h->slot_cycles += h->n * (now - h->stamp);
	h->stamp = now;
}

/* @h's integral at @t, not before its stamp. */
static u64 sim_hold_at(const struct sim_hold *h, u64 t)
{
	return h->slot_cycles + (t > h->stamp ? h->n * (t - h->stamp) : 0);
}

/*
 * The saves of @run (U32_MAX: of every run) that ended by @now give their
 * slots back, earliest first.
 */
static void sim_saves_done(struct sim_dev *s, u32 run, u64 now)
{
	for (;;) {
		size_t i, best = s->nr_saves;
		struct sim_hold *h;

		for (i = 0; i < s->nr_saves; i++) {
			const struct sim_save *v = &s->saves[i];

			if ((run != U32_MAX && v->run != run) || v->end > now)
				continue;
			if (best == s->nr_saves || v->end < s->saves[best].end)
				best = i;
		}
		if (best == s->nr_saves)
			return;
		h = sim_hold_of(s, s->saves[best].run,
				s->saves[best].residency);
		sim_hold_sync(h, s->saves[best].end);
		h->n--;
		s->saves[best] = s->saves[--s->nr_saves];
	}
}

/*
 * The window of length @w that ends at @end is over: every run's share of
 * the device's SM time in it, from its holds' integrals at the window's
 * start (&sim_hold.at_win) and at @end, as sim_share() over the interval.
 * Every hold's stamp is at or before @end.
 */
static int sim_window_close(struct sim_dev *s, unsigned int w, u64 end)
{
	long double dev = (long double)s->job->cfg->nr_sms *
			  s->job->window_cycles[w];
	const struct sim_job *job = s->job;
	u32 max_r = job->cfg->max_blocks_per_sm, k;
	unsigned int r;

	if (s->nr_win[w] == SIM_MAX_WINDOWS)
		return -E2BIG;
	if (s->nr_win[w] == s->cap_win[w]) {
		size_t cap = s->cap_win[w] ? 2 * s->cap_win[w] : 64;

		for (r = 0; r < job->nr_runs; r++) {
			double *p = realloc(s->win[r][w], cap * sizeof(*p));

			if (!p)
				return -ENOMEM;
			s->win[r][w] = p;
		}
		s->cap_win[w] = cap;
	}
	for (r = 0; r < job->nr_runs; r++) {
		long double held = 0;
		struct sim_hold *h = &s->hold[(size_t)r * (max_r + 1)];

		for (k = 1; k <= max_r; k++) {
			u64 at = sim_hold_at(&h[k], end);

			held += (long double)(at - h[k].at_win[w]) / k;
			h[k].at_win[w] = at;
		}
		s->win[r][w][s->nr_win[w]] = (double)(held / dev);
	}
	s->nr_win[w]++;
	return 0;
}

/*
 * Close every window that ended by @now, earliest first (the saves that
 * ended by then give their slots back first): called before any hold is
 * brought past @now, so that the holds' integrals at each window's end
 * are still exact.  Only inside the interval of sm_share.
 */
static void sim_windows_advance(struct sim_dev *s, u64 now)
{
	const struct sim_job *job = s->job;
	unsigned int w, first;
	int ret;

	if (!job->nr_windows || !s->have_from || s->have_to || s->err)
		return;
	for (;;) {
		first = 0;
		for (w = 1; w < job->nr_windows; w++)
			if (s->win_end[w] < s->win_end[first])
				first = w;
		if (s->win_end[first] > now)
			return;
		sim_saves_done(s, U32_MAX, s->win_end[first]);
		ret = sim_window_close(s, first, s->win_end[first]);
		if (ret) {
			s->err = ret;
			return;
		}
		s->win_end[first] += job->window_cycles[first];
	}
}

/* A block of @grid takes (@delta 1) or gives back (-1) its slot at @now. */
static void sim_hold_add(struct sim_dev *s, const struct gtbs_grid *grid,
			 u64 now, int delta)
{
	const struct sim_gridref *ref = grid->priv;
	struct sim_hold *h;

	sim_windows_advance(s, now);
	sim_saves_done(s, ref->run, now);
	h = sim_hold_of(s, ref->run, grid->occ.residency);
	sim_hold_sync(h, now);
	h->n += delta;
}

/* Every run's SM time at @t: the start (@to false) or end of the interval. */
static void sim_share_sample(struct sim_dev *s, u64 t, bool to)
{
	size_t i, n = (size_t)s->job->nr_runs *
		      (s->job->cfg->max_blocks_per_sm + 1);

	sim_saves_done(s, U32_MAX, t);
	for (i = 0; i < n; i++) {
		struct sim_hold *h = &s->hold[i];

		if (to)
			h->at_to = sim_hold_at(h, t);
		else
			h->at_from = sim_hold_at(h, t);
	}
}

/* The first window of each length starts with the interval of sm_share. */
static void sim_windows_start(struct sim_dev *s)
{
	size_t i, n = (size_t)s->job->nr_runs *
		      (s->job->cfg->max_blocks_per_sm + 1);
	unsigned int w;

	for (w = 0; w < s->job->nr_windows; w++) {
		s->win_end[w] = s->share_from + s->job->window_cycles[w];
		for (i = 0; i < n; i++)
			s->hold[i].at_win[w] = s->hold[i].at_from;
	}
}

/*
 * A grid arrives: the last run to get its first grid starts the interval
 * in which every run has a grid in the device.
 */
static void sim_grid_arrive(struct gtbs_dev *dev, struct gtbs_grid *grid)
{
	struct sim_dev *s = sim_of(dev);
	const struct sim_gridref *ref = grid->priv;

	if (s->arrived[ref->run])
		return;
	s->arrived[ref->run] = true;
	if (++s->nr_arrived < s->job->nr_runs)
		return;
	s->share_from = grid->submit_cycle;
	s->have_from = true;
	if (!s->have_to)
		sim_share_sample(s, s->share_from, false);
	sim_windows_start(s);
}

static void sim_block_start(struct gtbs_dev *dev,
			    struct gtbs_sm *sm __attribute__((unused)),
			    struct gtbs_grid *grid,
			    u32 slot __attribute__((unused)),
			    u32 block __attribute__((unused)), u64 cycle)
{
	sim_hold_add(sim_of(dev), grid, cycle, 1);
}

/* Flushed: the slot is free now; switched out: at the end of its save. */
static void sim_block_preempt(struct gtbs_dev *dev, struct gtbs_sm *sm,
			      struct gtbs_grid *grid,
			      u32 slot __attribute__((unused)),
			      u32 block __attribute__((unused)),
			      u32 mech __attribute__((unused)), u64 cycles)
{
	struct sim_dev *s = sim_of(dev);
	const struct sim_gridref *ref = grid->priv;

	if (!cycles) {
		sim_hold_add(s, grid, sm->now, -1);
		return;
	}
	if (sim_grow((void **)&s->saves, &s->cap_saves, s->nr_saves,
		     sizeof(*s->saves))) {
		s->err = -ENOMEM;
		return;
	}
	s->saves[s->nr_saves++] = (struct sim_save) {
		.run = ref->run,
		.residency = grid->occ.residency,
		.end = sm->now + cycles,
	};
}

/*
 * A grid ended: note what it did, and that its successor (the program's
 * next grid, or in a closed loop the next request) is due.  The grid is
 * freed once the engine has returned.  The first run to end its last grid
 * ends the interval of sm_share.
 */
static void sim_grid_done(struct gtbs_dev *dev, struct gtbs_grid *grid)
{
	struct sim_dev *s = sim_of(dev);
	const struct sim_gridref *ref = grid->priv;
	struct sim_runst *rs = &s->runs[ref->run];

	rs->out[(size_t)ref->req * rs->nr_grids + ref->index] =
		(struct sim_grid_out) {
		.submit_cycle = grid->submit_cycle,
		.start_cycle = grid->start_cycle,
		.end_cycle = grid->end_cycle,
		.residency = grid->occ.residency,
		.nr_predictions = grid->nr_predictions,
		.first_pred = grid->first_pred,
		.final_pred = gtbs_grid_pred_final(s->job->cfg, grid),
	};
	rs->nr_done++;
	if (rs->nr_done == (size_t)rs->nr_requests * rs->nr_grids &&
	    !s->have_to) {
		/* the windows that end by the interval's end are whole */
		sim_windows_advance(s, grid->end_cycle);
		s->share_to = grid->end_cycle;
		s->have_to = true;
		if (s->have_from)
			sim_share_sample(s, s->share_to, true);
	}
	if (sim_grow((void **)&s->dead, &s->cap_dead, s->nr_dead,
		     sizeof(*s->dead)) ||
	    sim_grow((void **)&s->due, &s->cap_due, s->nr_due,
		     sizeof(*s->due))) {
		s->err = -ENOMEM;
		return;
	}
	s->dead[s->nr_dead++] = grid;
	if (ref->index + 1 < rs->nr_grids ||
	    (!rs->open && rs->next_req < rs->nr_requests))
		s->due[s->nr_due++] = *ref;
}

static void sim_block_end(struct gtbs_dev *dev, struct gtbs_sm *sm,
			  struct gtbs_grid *grid, u32 slot, u32 block,
			  u64 start, u64 end)
{
	struct sim_dev *s = sim_of(dev);
	const struct sim_gridref *ref = grid->priv;
	struct sim_block *b;

	sim_hold_add(s, grid, end, -1);
	if (!s->job->record)
		return;
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
		.grid = ref->req * s->runs[ref->run].nr_grids + ref->index,
		.sm = sm->id,
		.slot = slot,
		.block = block,
		.start = start,
		.end = end,
	};
}

static const struct gtbs_backend_ops sim_backend = {
	.grid_arrive = sim_grid_arrive,
	.grid_done = sim_grid_done,
	.block_start = sim_block_start,
	.block_end = sim_block_end,
	.block_preempt = sim_block_preempt,
};

/**
 * sim_grid_desc() - the core's description of a workload grid
 * @g: the grid of a workload file.
 * @seed_mix: XORed into its seed.
 * @desc: out: what gtbs_grid_init() takes; borrows @g->durations.
 *
 * The same fields as the module's SUBMIT (tools/gputbs/run.c, kmod), with the
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

/* The gap= of grid @k of run @rs in cycles. */
static u64 sim_gap(const struct sim_runst *rs, u32 k)
{
	return rs->gap ? rs->gap[k] : 0;
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

/* Allocate, initialise and submit grid @index of request @req of @run. */
static int sim_submit(struct sim_dev *s, u32 run, u32 req, u32 index, u64 now,
		      u64 at, const char **why)
{
	const struct sim_job *job = s->job;
	struct sim_runst *rs = &s->runs[run];
	const struct wl_grid *g = &rs->prog->grids[index];
	struct sim_gridref *ref;
	struct gtbs_grid_desc desc;
	struct gtbs_grid_err e;
	struct gtbs_grid *grid;
	int ret;

	if (sim_grid_desc(g, job->seed_mix, &desc)) {
		*why = "unknown priority class";
		return -EINVAL;
	}
	/* the run's class= overrides its grids' (uapi 1..4: core 0..3) */
	if (job->runs[run] &&
	    job->runs[run]->prio_class != GPUTBS_PRIO_DEFAULT)
		desc.prio_class = job->runs[run]->prio_class - 1;
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
	ref = &rs->refs[(size_t)req * rs->nr_grids + index];
	*ref = (struct sim_gridref) { run, req, index };
	grid->priv = ref;
	grid->tenant = &s->tenants[s->tenant_of[run]];
	gtbs_grid_submit_at(&s->dev, grid, now, at);
	s->nr_unsubmitted--;
	return 0;
}

/* Start request rs->next_req of @run, arriving at @arrive. */
static int sim_start_request(struct sim_dev *s, u32 run, u64 now, u64 arrive,
			     const char **why)
{
	struct sim_runst *rs = &s->runs[run];
	u32 req = rs->next_req++;

	rs->arrive[req] = arrive;
	return sim_submit(s, run, req, 0, now, arrive + sim_gap(rs, 0), why);
}

/* Free a grid that left the device, or never arrived, with its pairs. */
static void sim_grid_free(struct sim_dev *s, struct gtbs_grid *grid)
{
	gtbs_grid_release(&s->dev, grid);
	free(grid);
}

/* Free the grids that completed during the last gtbs_dev_run_until(). */
static void sim_free_dead(struct sim_dev *s)
{
	while (s->nr_dead)
		sim_grid_free(s, s->dead[--s->nr_dead]);
}

/* The words of &sim_dev.err. */
static const char *sim_err_why(int err)
{
	if (err == -E2BIG)
		return "--share-window: more than 1048576 windows of a length in the interval of sm_share";
	return "out of memory";
}

/*
 * Submit the successors of every launch that ended at @now: the next grid
 * of its request @gap cycles later, or in a closed loop the next request,
 * arriving ``think=`` cycles after the end of the one before.
 */
static int sim_submit_due(struct sim_dev *s, u64 now, const char **why)
{
	struct sim_gridref *due = NULL;
	size_t i, n;
	int ret = 0;

	while (s->nr_due) {
		/* swap the lists: grids submitted below may end at @now */
		n = s->nr_due;
		free(due);
		due = s->due;
		s->due = NULL;
		s->cap_due = 0;
		s->nr_due = 0;
		for (i = 0; i < n; i++) {
			const struct sim_gridref *d = &due[i];
			struct sim_runst *rs = &s->runs[d->run];

			if (d->index + 1 < rs->nr_grids)
				ret = sim_submit(s, d->run, d->req,
						 d->index + 1, now,
						 now + sim_gap(rs, d->index + 1),
						 why);
			/* requests that end together: as many as are left */
			else if (rs->next_req < rs->nr_requests)
				ret = sim_start_request(s, d->run, now,
							now + rs->think, why);
			if (ret)
				goto out;
		}
		/* their arrival kicked the SMs: let them issue at @now */
		gtbs_dev_run_until(&s->dev, now);
		sim_free_dead(s);
		if (s->err) {
			ret = s->err;
			*why = sim_err_why(ret);
			goto out;
		}
	}
out:
	free(due);
	return ret;
}

/*
 * The arrival of the next open-loop request of any run (its first grid's
 * arrival, with its gap), U64_MAX if none; @run: which.
 */
static u64 sim_next_open(const struct sim_dev *s, u32 *run)
{
	u64 best = U64_MAX;
	u32 r;

	for (r = 0; r < s->job->nr_runs; r++) {
		const struct sim_runst *rs = &s->runs[r];
		u64 at;

		if (!rs->open || rs->next_req == rs->nr_requests)
			continue;
		at = rs->arrive[rs->next_req] + sim_gap(rs, 0);
		if (at < best) {
			best = at;
			*run = r;
		}
	}
	return best;
}

static void sim_dev_free(struct sim_dev *s)
{
	unsigned int r, w;
	struct gtbs_grid *g, *tmp;

	/* on error: grids still queued or running */
	if (s->dev.arrivals.next) {
		list_for_each_entry_safe(g, tmp, &s->dev.arrivals, node)
			sim_grid_free(s, g);
		list_for_each_entry_safe(g, tmp, &s->dev.grids, node)
			sim_grid_free(s, g);
	}
	sim_free_dead(s);
	if (s->dev.spare.next)
		gtbs_dev_spare_free(&s->dev);
	for (r = 0; r < WL_MAX_RUNS; r++) {
		free(s->runs[r].gap);
		free(s->runs[r].arrive);
		free(s->runs[r].out);
		free(s->runs[r].refs);
	}
	for (r = 0; s->sms && r < s->job->cfg->nr_sms; r++)
		free(s->sms[r]);
	free(s->sms);
	free(s->dead);
	free(s->due);
	free(s->pool);
	free(s->blocks);
	free(s->hold);
	free(s->saves);
	for (r = 0; r < WL_MAX_RUNS; r++)
		for (w = 0; w < SIM_MAX_SHARE_WINDOWS; w++)
			free(s->win[r][w]);
}

static int sim_dev_alloc(struct sim_dev *s, const char **why)
{
	const struct sim_job *job = s->job;
	unsigned int r, k;

	s->sms = calloc(job->cfg->nr_sms, sizeof(*s->sms));
	s->hold = calloc((size_t)job->nr_runs *
			 (job->cfg->max_blocks_per_sm + 1), sizeof(*s->hold));
	if (!s->sms || !s->hold)
		goto nomem;
	for (r = 0; r < job->cfg->nr_sms; r++) {
		s->sms[r] = malloc(gtbs_sm_size(job->cfg));
		if (!s->sms[r])
			goto nomem;
		gtbs_sm_init(job->cfg, s->sms[r], r);
	}
	for (r = 0; r < job->nr_runs; r++) {
		struct sim_runst *rs = &s->runs[r];
		const struct wl_run *run = job->runs[r];
		size_t n;

		rs->prog = job->progs[r];
		rs->nr_grids = rs->prog->nr_grids;
		rs->nr_requests = run ? run->requests : 1;
		rs->open = run && wl_run_open(run);
		n = (size_t)rs->nr_requests * rs->nr_grids;
		rs->out = calloc(n, sizeof(*rs->out));
		rs->refs = calloc(n, sizeof(*rs->refs));
		rs->arrive = calloc(rs->nr_requests, sizeof(*rs->arrive));
		if (!rs->out || !rs->refs || !rs->arrive)
			goto nomem;
		s->nr_unsubmitted += n;
		if (rs->open)
			wl_run_arrivals(run, job->cfg->clock_khz,
					job->arrive[r], rs->arrive);
		if (run)
			rs->think = wl_time_cycles(&run->think,
						   job->cfg->clock_khz);
		for (k = 0; k < rs->nr_grids; k++)
			if (rs->prog->grids[k].gap.value)
				break;
		if (k == rs->nr_grids)
			continue;
		rs->gap = calloc(rs->nr_grids, sizeof(*rs->gap));
		if (!rs->gap)
			goto nomem;
		for (k = 0; k < rs->nr_grids; k++)
			rs->gap[k] = wl_time_cycles(&rs->prog->grids[k].gap,
						    job->cfg->clock_khz);
	}
	return 0;
nomem:
	*why = "out of memory";
	return -ENOMEM;
}

_Static_assert(WL_WEIGHT_DEFAULT == GTBS_TENANT_WEIGHT_DEFAULT &&
	       WL_WEIGHT_MAX == GTBS_TENANT_WEIGHT_MAX && WL_MAX_PPM == GTBS_PPM,
	       "the workload file's weight= and max= are not the core's");

/*
 * The tenants, at cycle 0: runs with the same &sim_job.tenant share one,
 * with the first run's weight and cap; every other run has its own.
 */
static int sim_tenants_setup(struct sim_dev *s, const char **why)
{
	const struct sim_job *job = s->job;
	unsigned int r, q;

	for (r = 0; r < job->nr_runs; r++) {
		struct gtbs_tenant *t;

		for (q = 0; job->tenant[r] && q < r; q++)
			if (job->tenant[q] == job->tenant[r])
				break;
		if (job->tenant[r] && q < r) {
			s->tenant_of[r] = s->tenant_of[q];
			continue;
		}
		s->tenant_of[r] = s->nr_tenants;
		t = &s->tenants[s->nr_tenants++];
		gtbs_tenant_init(&s->dev, t, s->nr_tenants, 0);
		if (gtbs_tenant_set(&s->dev, t, job->weight[r] ?:
				    GTBS_TENANT_WEIGHT_DEFAULT,
				    job->max_ppm[r], 0)) {
			*why = "a tenant's weight or cap out of range";
			return -EINVAL;
		}
	}
	return 0;
}

/*
 * Run @r's share of the device's SM time over the interval in which every
 * run had a grid in the device: sum over R of its slot-cycles / R, over
 * SMs x cycles; NAN for an empty interval.
 */
static double sim_share(const struct sim_dev *s, unsigned int r)
{
	long double held = 0;
	u32 max_r = s->job->cfg->max_blocks_per_sm, k;
	const struct sim_hold *h = &s->hold[(size_t)r * (max_r + 1)];

	if (!s->have_from || !s->have_to || s->share_to <= s->share_from)
		return NAN;
	for (k = 1; k <= max_r; k++)
		held += (long double)(h[k].at_to - h[k].at_from) / k;
	return (double)(held / ((long double)s->job->cfg->nr_sms *
				(s->share_to - s->share_from)));
}

/* Hand what the grids did over to @out. */
static int sim_collect(struct sim_dev *s, struct sim_out *out)
{
	const struct sim_job *job = s->job;
	unsigned int r, q, w;

	for (r = 0; r < job->nr_runs; r++) {
		struct sim_prog_out *po = &out->progs[r];
		struct sim_runst *rs = &s->runs[r];
		size_t n = (size_t)rs->nr_requests * rs->nr_grids;
		unsigned __int128 sum = 0;

		if (rs->nr_done != n)
			return -EIO;
		po->nr_grids = n;
		po->grids = rs->out;
		po->nr_requests = rs->nr_requests;
		po->arrive = rs->arrive;
		rs->out = NULL;
		rs->arrive = NULL;
		for (q = 0; q < po->nr_requests; q++) {
			u64 end = po->grids[(size_t)(q + 1) * rs->nr_grids - 1]
				  .end_cycle;

			sum += end - po->arrive[q];
			out->end_cycle = max(out->end_cycle, end);
		}
		po->turnaround = (u64)(sum / po->nr_requests);
		po->sm_share = sim_share(s, r);
		for (w = 0; w < job->nr_windows; w++) {
			po->win_share[w] = s->win[r][w];
			s->win[r][w] = NULL;
		}
	}
	for (w = 0; w < job->nr_windows; w++)
		out->nr_win[w] = s->nr_win[w];
	out->share_from = s->share_from;
	out->share_to = s->share_to;
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
	unsigned int r;
	u64 t;
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
	s->dev.pair_alloc = &gtbs_pair_alloc_libc;
	s->dev.backend = &sim_backend;
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
	ret = sim_tenants_setup(s, why);
	if (ret)
		goto out;
	/* the first grids in run order, as their arrivals tie that way */
	for (r = 0; r < job->nr_runs; r++) {
		struct sim_runst *rs = &s->runs[r];
		u32 q, first = rs->open ? 1 : min(rs->nr_requests,
						   job->runs[r] ?
						   job->runs[r]->outstanding : 1);

		/* open loop: the first now, the others as they come */
		for (q = 0; q < first; q++) {
			ret = sim_start_request(s, r, 0, rs->open ?
						rs->arrive[0] : job->arrive[r],
						why);
			if (ret)
				goto out;
		}
	}
	/* grids arriving at 0 are queued; let the SMs issue at 0 */
	gtbs_dev_run_until(&s->dev, 0);
	sim_free_dead(s);
	/* event by event while a program has grids left to submit */
	while (s->nr_unsubmitted && !s->err) {
		u32 run = 0;
		u64 open = sim_next_open(s, &run);

		t = gtbs_dev_next_event(&s->dev);
		if (open <= t) {
			/* queued before the device reaches its cycle */
			ret = sim_start_request(s, run, s->dev.clock,
						s->runs[run].arrive[s->runs[run].next_req],
						why);
			if (ret)
				goto out;
			continue;
		}
		if (t == U64_MAX)
			break;
		gtbs_dev_run_until(&s->dev, t);
		sim_free_dead(s);
		ret = sim_submit_due(s, t, why);
		if (ret)
			goto out;
	}
	gtbs_dev_run_until(&s->dev, U64_MAX);
	sim_free_dead(s);
	ret = s->err;
	if (!ret)
		ret = sim_collect(s, out);
	out->sharing_switches = s->dev.sharing_switches;
	if (ret == -EIO)
		*why = "a grid did not complete";
	else if (ret)
		*why = sim_err_why(ret);
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

/**
 * sim_service_interval() - an open-loop stream's alone service interval
 * @alone: the job that runs the stream's program alone (one run: its
 *	device, policy, modes, seed and tenant); &sim_job.runs[0] is
 *	replaced, the job is not changed.
 * @run: the stream, an open loop (wl_run_open()).
 * @interval: out: the time from the first arrival to the last end over
 *	the requests when they all arrive at once (wl_run_saturating()),
 *	cycles, at least 1: the unit of wl_workload_at_load()'s load.
 * @why: out: on error, why (sim_run()'s).
 *
 * Shared by gputbs-sim sweep and gputbs-sim run --load.
 *
 * Return: 0, or sim_run()'s error.
 */
int sim_service_interval(const struct sim_job *alone,
			 const struct wl_run *run, u64 *interval,
			 const char **why)
{
	unsigned int q, g = alone->progs[0]->nr_grids;
	u64 first = ~0ULL, last = 0;
	struct sim_job job = *alone;
	struct sim_out out;
	struct wl_run sat;
	int ret;

	wl_run_saturating(run, &sat);
	job.runs[0] = &sat;
	ret = sim_run(&job, &out, why);
	for (q = 0; !ret && q < out.progs[0].nr_requests; q++) {
		u64 end = out.progs[0].grids[(size_t)(q + 1) * g - 1].end_cycle;

		if (out.progs[0].arrive[q] < first)
			first = out.progs[0].arrive[q];
		if (end > last)
			last = end;
	}
	if (!ret)
		*interval = q && last > first ? (last - first) / q : 0;
	if (!ret && !*interval)
		*interval = 1;
	sim_out_free(&out);
	return ret;
}
