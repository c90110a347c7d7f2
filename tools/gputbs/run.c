// SPDX-License-Identifier: GPL-2.0
/*
 * run.c - run programs alone, and workloads as concurrent processes.
 *
 * A program is a sequence of grids: its process submits a grid, waits for
 * it, then submits the next.  In a workload every run is a child process
 * with its own file descriptor, as separate applications sharing the GPU
 * would be.  Each child runs its program and sends one fixed-size record
 * per grid back through a pipe.
 *
 * The parent picks a common start, emulated cycle T0, far enough ahead
 * (RUN_T0_MARGIN_NS, or &run_opts.t0_margin_ns) for every child to be
 * forked and ready.  With a module that has GPUTBS_FEATURE_ARRIVAL_CYCLE,
 * each child submits its first grid at once with GPUTBS_SUBMIT_AT_CYCLE
 * for cycle T0 plus its offset: the grid arrives at exactly that cycle,
 * whatever the process's latency.  The parent checks that each first grid
 * arrived at its cycle:
 * a child that submitted after it (the margin was too short) fails the
 * workload instead of shifting its arrival.  With an older module, each
 * child sleeps until the wall-clock time of its arrival cycle and submits
 * then, and the arrivals carry the process's wake-up jitter.
 *
 * In both cases the runs are chained in order of their offsets (file order
 * for equal ones): a run submits its first grid only after its
 * predecessor's grids that arrive with its first (its first grid, and a
 * closed loop's other first requests) were submitted, signalled by a byte
 * on a pipe.
 * With arrival cycles, that makes runs with equal offsets arrive in file
 * order (the module queues grids due at the same cycle in submission
 * order); without, it keeps the order of close offsets, which matters
 * more than the offsets themselves (under FIFO it decides the schedule)
 * and which the wake-up jitter would otherwise scramble.
 *
 * With &run_opts.record_blocks, each grid is submitted with
 * GPUTBS_SUBMIT_RECORD_BLOCKS; its process waits for completion with
 * poll(), fetches the block records (GPUTBS_IOCTL_BLOCKS) and then reaps
 * the grid.  The records travel to the parent through the same pipe, one
 * per message, after the program has finished, so that sending them never
 * delays the program's next grid.  With &run_opts.shares (the tenant keys:
 * every run's SM share is measured from its blocks) the grids are linked
 * ahead in stream order all the same, so that a closed loop keeps its
 * requests in the device as the simulator's does: the process fetches the
 * oldest grid's records once it completed (GPUTBS_IOCTL_BLOCKS retried
 * while -EBUSY), then reaps it.  Each run's process first moves itself
 * into its tenant's cgroup (&workload_result.cgroups, run_tenants.c).
 *
 * Copyright (C) 2026 The gputbs developers
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "run.h"

/*
 * run_alone() in stream order: wall time between the first SUBMIT and the
 * first grid's arrival, for linking the grids after it (as T0's margin).
 */
#define RUN_ALONE_MARGIN_NS	50000000ULL

/* How long a run spins before its arrival or for its turn. */
#define RUN_SPIN_NS		2000000ULL

/* Between two tries of GPUTBS_IOCTL_BLOCKS on a grid not completed yet. */
#define RUN_BLOCKS_RETRY_NS	1000000L

/* Kinds of &struct run_record. */
enum { REC_WAIT, REC_BLOCK, REC_ERROR };

/*
 * What a child reports: the WAIT result of one grid, one block record of a
 * grid (@index: its position in block-end order), or its failure.
 */
struct run_record {
	__u32 run;
	__u32 grid;
	__s32 err;
	__u32 what;
	__u32 kind;
	__u32 index;
	union {
		struct gputbs_wait w;
		struct gputbs_block_record b;
		/* REC_ERROR of a SUBMIT: the module's error detail */
		struct {
			__u32 reason;
			__u64 value;
			__u64 limit;
		} detail;
	};
};

enum { WHAT_OPEN, WHAT_SUBMIT, WHAT_POLL, WHAT_BLOCKS, WHAT_WAIT,
       WHAT_CGROUP, WHAT_NR };
static const char * const run_what[WHAT_NR] = {
	"open", "submit", "poll", "blocks", "wait", "cgroup"
};

/**
 * run_strerror() - describe the error of a run
 * @err: where it failed.
 *
 * Return: for a failed SUBMIT, gputbs_submit_explain()'s text in
 * @err->detail: which check failed, with its numbers (or which limit was
 * hit, from a module without GPUTBS_FEATURE_ERROR_DETAIL); else
 * gputbs_strerror(), a static string.
 */
const char *run_strerror(const struct run_error *err)
{
	if (err->what && !strcmp(err->what, run_what[WHAT_SUBMIT]))
		return err->detail[0] ? err->detail :
					gputbs_submit_strerror(err->err);
	return gputbs_strerror(err->err);
}

/* @err->detail for SUBMIT's error @ret on @sub (with its error detail). */
static void run_submit_detail(struct run_error *err,
			      const struct gputbs_submit *sub, int ret)
{
	if (gputbs_submit_explain(sub, ret, err->detail,
				  sizeof(err->detail)) < 0)
		err->detail[0] = '\0';
}

/*
 * Whether the grid declares anything of the timing model: only then is
 * GPUTBS_SUBMIT_MODEL set, so that other workloads keep running on
 * modules without GPUTBS_FEATURE_CORUN_TIMING.
 */
static bool run_grid_has_model(const struct wl_grid *grid)
{
	return grid->mem_ppm || grid->knee_mwarps || grid->block_dist ||
	       grid->block_dist_param || grid->startup_ppm ||
	       grid->startup_blocks;
}

/**
 * run_submit_args() - SUBMIT arguments of a grid
 * @grid: the grid; its durations must outlive the submission.
 * @sub: out: the arguments.
 */
void run_submit_args(const struct wl_grid *grid, struct gputbs_submit *sub)
{
	memset(sub, 0, sizeof(*sub));
	sub->nr_blocks = grid->nr_blocks;
	sub->threads_per_block = grid->threads;
	sub->regs_per_thread = grid->regs;
	sub->shmem_per_block = grid->shmem;
	if (grid->durations) {
		sub->work_model = GPUTBS_WORK_ARRAY;
		sub->nr_durations = grid->nr_blocks;
		sub->durations_ptr = (__u64)(uintptr_t)grid->durations;
	} else {
		sub->work_model = GPUTBS_WORK_DIST;
		sub->block_cycles = grid->cycles;
		sub->block_rsd_ppm = grid->rsd_ppm;
		sub->seed = grid->seed;
	}
	memcpy(sub->label, grid->label, sizeof(sub->label));
	sub->prio_class = grid->prio_class;
	if (grid->idempotent)
		sub->flags |= GPUTBS_SUBMIT_IDEMPOTENT;
	if (run_grid_has_model(grid)) {
		sub->flags |= GPUTBS_SUBMIT_MODEL;
		sub->mem_ppm = grid->mem_ppm;
		sub->knee_mwarps = grid->knee_mwarps;
		sub->block_dist = grid->block_dist;
		sub->block_dist_param = grid->block_dist_param;
		sub->startup_ppm = grid->startup_ppm;
		sub->startup_blocks = grid->startup_blocks;
	}
}

/**
 * run_program_runtime() - runtime of a program execution
 * @res: the execution; @res->prog, @res->grids and @res->arrive filled.
 *
 * Return: one request: end cycle of its last grid minus its arrival (the
 * submit cycle of its first grid, without ``gap=``); several: their mean
 * latency (@res->stats, prog_result_stats()).
 */
__u64 run_program_runtime(const struct prog_result *res)
{
	const struct gputbs_wait *last = &res->grids[res->prog->nr_grids - 1];

	if (res->nr_requests > 1)
		return res->stats.mean;
	return last->end_cycle > res->arrive[0] ?
	       last->end_cycle - res->arrive[0] : 0;
}

/* The deadline of a grid that arrives at @arrive_ns (0: now). */
static __s64 run_deadline(const struct run_opts *opts, __u64 arrive_ns)
{
	__u64 now = gputbs_now_ns();

	if (!opts->timeout_ns)
		return GPUTBS_TIMEOUT_INFINITE;
	return (__s64)((arrive_ns > now ? arrive_ns : now) + opts->timeout_ns);
}

/*
 * Sleep until a grid of @g has completed (the file is the program's own,
 * with one grid at a time) or @deadline passes (-ETIME).
 */
static int run_poll_done(struct gputbs *g, __s64 deadline)
{
	struct pollfd pfd = { .fd = gputbs_fd(g), .events = POLLIN };
	__s64 left;
	int ms, n;

	for (;;) {
		ms = -1;
		if (deadline != GPUTBS_TIMEOUT_INFINITE) {
			left = deadline - (__s64)gputbs_now_ns();
			if (left <= 0)
				return -ETIME;
			ms = left / 1000000 + 1 < INT_MAX ?
			     (int)(left / 1000000 + 1) : INT_MAX;
		}
		n = poll(&pfd, 1, ms);
		if (n > 0)
			return 0;
		if (n < 0 && errno != EINTR)
			return -errno;
	}
}

/* Fetch the @n block records of the completed grid @handle. */
static int run_fetch_blocks(struct gputbs *g, __u32 handle, __u32 n,
			    struct gputbs_block_record **out)
{
	struct gputbs_block_record *recs;
	__u32 total = 0;
	int ret;

	recs = calloc(n, sizeof(*recs));
	if (!recs)
		return -ENOMEM;
	ret = gputbs_blocks(g, handle, recs, n, &total);
	if (!ret && total != n)
		ret = -EIO;
	if (ret) {
		free(recs);
		return ret;
	}
	*out = recs;
	return 0;
}

/*
 * Fetch the @n block records of grid @handle once it completed, trying
 * again every RUN_BLOCKS_RETRY_NS while it has not (-EBUSY), until
 * @deadline (-ETIME): the file holds other grids linked ahead, so poll()
 * may say that one of them completed.
 */
static int run_fetch_blocks_wait(struct gputbs *g, __u32 handle, __u32 n,
				 __s64 deadline,
				 struct gputbs_block_record **out)
{
	struct timespec ts = { .tv_nsec = RUN_BLOCKS_RETRY_NS };
	int ret;

	for (;;) {
		ret = run_fetch_blocks(g, handle, n, out);
		if (ret != -EBUSY)
			return ret;
		if (deadline != GPUTBS_TIMEOUT_INFINITE &&
		    (__s64)gputbs_now_ns() >= deadline)
			return -ETIME;
		nanosleep(&ts, NULL);
	}
}

/* Wall-clock ns that @cycles emulated cycles take, rounded up. */
static __u64 run_cycles_to_ns(const struct gputbs_info *info, __u64 cycles)
{
	return (__u64)(((__uint128_t)cycles * info->time_scale_ps + 999) /
		       1000);
}

/* CLOCK_MONOTONIC time of emulated cycle @cycle: when the device reaches it. */
static __u64 run_cycle_to_ns(const struct gputbs_info *info, __u64 cycle)
{
	return info->epoch_ns + run_cycles_to_ns(info, cycle);
}

static void run_sleep_until(__u64 ns);
static __u64 run_ns_to_cycles(const struct gputbs_info *info, __u64 ns);
static __u64 run_ns_to_cycle(const struct gputbs_info *info, __u64 ns);

/* Does the module release a grid after another (GPUTBS_SUBMIT_AFTER)? */
static bool run_stream_order(const struct gputbs_info *info)
{
#ifdef GPUTBS_SUBMIT_AFTER
	return info && (info->features & GPUTBS_FEATURE_STREAM_ORDER);
#else
	(void)info;
	return false;
#endif
}

/*
 * The SUBMIT arguments of launch @l of @pl, given that the launches
 * before it are submitted (@handles) and, without stream order, reaped
 * (@res->grids).  With @exact (GPUTBS_FEATURE_ARRIVAL_CYCLE) a planned
 * arrival is GPUTBS_SUBMIT_AT_CYCLE; without, *@sleep_ns is the
 * wall-clock time to submit at (0: now).
 */
static void run_launch_args(const struct run_plan *pl, size_t l,
			    const struct prog_result *res,
			    const __u32 *handles, bool stream, bool exact,
			    const struct gputbs_info *info,
			    struct gputbs_submit *sub, __u64 *sleep_ns)
{
	size_t dep;
	__u64 at;

	*sleep_ns = 0;
	if (!run_plan_dep(pl, l, &dep, &at)) {
		if (!at)	/* alone: arrives when submitted */
			return;
		if (exact) {
			sub->flags |= GPUTBS_SUBMIT_AT_CYCLE;
			sub->arrival_cycle = at;
		} else if (info) {
			*sleep_ns = run_cycle_to_ns(info, at);
		}
		return;
	}
#ifdef GPUTBS_SUBMIT_AFTER
	if (stream) {
		sub->flags |= GPUTBS_SUBMIT_AFTER;
		sub->after_handle = handles[dep];
		sub->after_cycles = at;
		return;
	}
#else
	(void)handles;
	(void)stream;
#endif
	/* reaped already: its end is known; a gap= needs a later cycle */
	if (at && exact) {
		sub->flags |= GPUTBS_SUBMIT_AT_CYCLE;
		sub->arrival_cycle = res->grids[dep].end_cycle + at;
	}
}

/* Does launch @l of @pl arrive at the cycle of launch 0, depending on none? */
static bool run_arrives_with_first(const struct run_plan *pl, size_t l)
{
	__u64 at0, at;
	size_t dep;

	return !run_plan_dep(pl, 0, &dep, &at0) &&
	       !run_plan_dep(pl, l, &dep, &at) && at == at0;
}

/*
 * Run the grid launches of @pl (@res->prog's grids, request after
 * request), filling @res->grids (and with @record @res->blocks); stop at
 * the first error.  With stream order (and without @record), launches are
 * submitted ahead with GPUTBS_SUBMIT_AFTER, at most the file's
 * max_grids_per_fd unreaped at once, and reaped in order; else each is
 * submitted once the one before is reaped, as a process that waits for
 * each grid.  If @notify_fd >= 0, write a byte to it and close it once
 * the grids that arrive with the first (a closed loop's first requests)
 * are submitted.
 */
static int run_grids(const struct run_opts *opts, struct gputbs *g,
		     struct prog_result *res, const struct run_plan *pl,
		     bool record, bool exact, struct run_error *err,
		     int notify_fd)
{
	const struct wl_program *prog = res->prog;
	const struct gputbs_info *info = opts->info;
	bool stream = run_stream_order(info) && (!record || opts->shares);
	size_t total = res->nr_grids, next = 0, reap = 0, window = 1;
	size_t first_batch = 1, l;
	struct gputbs_submit sub;
	__u64 sleep_ns, arrive_ns = 0;
	__u32 *handles;
	__s64 deadline;
	int ret = 0;

	if (stream) {
		/* as far ahead as the file may: slack for a slow process */
		window = info->max_grids_per_fd;
		if (window < run_plan_window(pl)) {
			err->what = run_what[WHAT_SUBMIT];
			err->grid = 0;
			return err->err = -EAGAIN;
		}
	}
	/* the launches up to the last that arrives with the first */
	for (l = 0; notify_fd >= 0 && l < total && l < window; l++)
		if (run_arrives_with_first(pl, l))
			first_batch = l + 1;
	handles = calloc(total, sizeof(*handles));
	if (!handles) {
		err->what = run_what[WHAT_SUBMIT];
		return err->err = -ENOMEM;
	}
	while (reap < total) {
		while (next < total && next - reap < window) {
			run_submit_args(&prog->grids[next % pl->nr_grids],
					&sub);
			/* the run's class= overrides its grids' */
			if (pl->prio_class != GPUTBS_PRIO_DEFAULT)
				sub.prio_class = pl->prio_class;
			if (record)
				sub.flags |= GPUTBS_SUBMIT_RECORD_BLOCKS;
			run_launch_args(pl, next, res, handles, stream, exact,
					info, &sub, &sleep_ns);
			/* the first: its process slept until then already */
			if (!next)
				sleep_ns = 0;
			if (sleep_ns && sleep_ns > gputbs_now_ns())
				run_sleep_until(sleep_ns);
			arrive_ns = sub.flags & GPUTBS_SUBMIT_AT_CYCLE && info ?
				    run_cycle_to_ns(info, sub.arrival_cycle) :
				    0;
			err->grid = next;
			ret = gputbs_submit(g, &sub);
			if (ret) {
				err->what = run_what[WHAT_SUBMIT];
				err->sub_reason = sub.err_reason;
				err->sub_value = sub.err_value;
				err->sub_limit = sub.err_limit;
				run_submit_detail(err, &sub, ret);
				err->err = ret;
				goto out;
			}
			handles[next++] = sub.handle;
			/*
			 * The chain's turn passes once the grids that arrive
			 * with the first are in: a closed loop's first
			 * requests all arrive at its offset, and the next
			 * run's grids due at that cycle must queue behind
			 * them (the simulator's order), not between them.
			 */
			if (notify_fd >= 0 && next < first_batch &&
			    next - reap < window)
				continue;
			if (notify_fd >= 0) {
				while (write(notify_fd, "", 1) < 0 &&
				       errno == EINTR)
					;
				close(notify_fd);
				notify_fd = -1;
			}
		}
		/* the oldest: a later arrival is no sooner than its end */
		deadline = run_deadline(opts, stream ? 0 : arrive_ns);
		err->grid = reap;
		if (record && stream) {
			ret = run_fetch_blocks_wait(g, handles[reap],
						    prog->grids[reap % pl->nr_grids].nr_blocks,
						    deadline, &res->blocks[reap]);
			if (ret) {
				err->what = run_what[ret == -ETIME ? WHAT_POLL :
						     WHAT_BLOCKS];
				err->err = ret;
				goto out;
			}
		} else if (record) {
			ret = run_poll_done(g, deadline);
			if (ret) {
				err->what = run_what[WHAT_POLL];
				err->err = ret;
				goto out;
			}
			ret = run_fetch_blocks(g, handles[reap],
					       prog->grids[reap % pl->nr_grids].nr_blocks,
					       &res->blocks[reap]);
			if (ret) {
				err->what = run_what[WHAT_BLOCKS];
				err->err = ret;
				goto out;
			}
		}
		ret = gputbs_wait_handle(g, handles[reap], deadline,
					 &res->grids[reap]);
		if (ret) {
			err->what = run_what[WHAT_WAIT];
			err->err = ret;
			goto out;
		}
		reap++;
	}
out:
	if (notify_fd >= 0)
		close(notify_fd);
	free(handles);
	return ret;
}

/**
 * run_alone() - run a program alone
 * @opts: device and timeout.
 * @prog: the program.
 * @res: out: its execution.
 * @err: out: where it failed.
 *
 * The caller makes sure nothing else uses the device.
 *
 * Return: 0 or a negative errno (described by @err).
 */
int run_alone(const struct run_opts *opts, const struct wl_program *prog,
	      struct prog_result *res, struct run_error *err)
{
	struct run_plan plan;
	struct gputbs *g;
	int ret;

	memset(err, 0, sizeof(*err));
	if (prog_result_alloc(res, prog, 1, opts->shares) ||
	    run_plan_init(&plan, prog, NULL,
			  opts->info ? opts->info->clock_khz : 0, 0)) {
		prog_result_free(res);
		err->what = run_what[WHAT_OPEN];
		return err->err = -ENOMEM;
	}
	res->stream_order = prog->nr_grids == 1;
	/*
	 * In stream order the first grid arrives a margin ahead, so that the
	 * grids after it are linked before it runs, however slow the process
	 * (a grid of 100 cycles at 1 ns per cycle ends before the next
	 * SUBMIT returns); its runtime counts from its arrival.
	 */
	if (run_stream_order(opts->info) &&
	    (opts->info->features & GPUTBS_FEATURE_ARRIVAL_CYCLE) &&
	    prog->nr_grids > 1)
		plan.first = run_ns_to_cycle(opts->info, gputbs_now_ns()) +
			     run_ns_to_cycles(opts->info, RUN_ALONE_MARGIN_NS);
	ret = gputbs_open(opts->device, 0, &g);
	if (ret) {
		err->what = run_what[WHAT_OPEN];
		err->err = ret;
		goto out;
	}
	ret = run_grids(opts, g, res, &plan, opts->shares,
			opts->info &&
			(opts->info->features & GPUTBS_FEATURE_ARRIVAL_CYCLE),
			err, -1);
	gputbs_close(g);
	if (!ret) {
		run_plan_arrivals(&plan, res);
		res->runtime = run_program_runtime(res);
		if (run_stream_order(opts->info) &&
		    !run_plan_late(&plan, res, plan.first))
			res->stream_order = true;
	}
out:
	if (ret)
		prog_result_free(res);
	run_plan_free(&plan);
	return ret;
}

/*
 * Wake up at @ns: sleep until RUN_SPIN_NS before it, then spin, yielding
 * the CPU, so that the wake-up latency of a sleep (tens of microseconds on
 * hardware, milliseconds in an emulated guest) is not added to the
 * arrival time.
 */
static void run_sleep_until(__u64 ns)
{
	__u64 early = ns > RUN_SPIN_NS ? ns - RUN_SPIN_NS : 0;
	struct timespec ts = {
		.tv_sec = early / 1000000000ULL,
		.tv_nsec = early % 1000000000ULL,
	};

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) ==
	       EINTR)
		;
	while (gputbs_now_ns() < ns)
		sched_yield();
}

/*
 * Wait until the predecessor submitted (a byte) or exited (end of file).
 * Spin first, yielding the CPU, for the same reason as run_sleep_until().
 */
static void run_wait_turn(int fd)
{
	__u64 spin_end = gputbs_now_ns() + RUN_SPIN_NS;
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	ssize_t n;
	char c;

	if (fd < 0)
		return;
	fcntl(fd, F_SETFL, O_NONBLOCK);
	for (;;) {
		n = read(fd, &c, 1);
		if (n >= 0 || (errno != EAGAIN && errno != EINTR))
			break;
		if (gputbs_now_ns() < spin_end)
			sched_yield();
		else
			poll(&pfd, 1, -1);
	}
	close(fd);
}

static void run_send(int fd, const struct run_record *rec)
{
	/* Records are smaller than PIPE_BUF: writes are atomic. */
	while (write(fd, rec, sizeof(*rec)) < 0 && errno == EINTR)
		;
}

/*
 * Body of the child process of run @idx; never returns.  Its first grid
 * arrives at @arrival: with @exact, submitted at once for that cycle, else
 * submitted at its wall-clock time.  @fd is the result pipe, @turn_fd (or
 * -1) says when the predecessor submitted, @next_fd (or -1) tells the
 * successor.
 */
static void __attribute__((noreturn))
run_child(const struct run_opts *opts, const struct workload_result *res,
	  unsigned int idx, const struct run_arrival *arrival, bool exact,
	  int fd, int turn_fd, int next_fd)
{
	const struct wl_run *run = &res->wl->runs[idx];
	const struct wl_program *prog = res->set->programs[run->program];
	struct prog_result out;
	struct run_record rec;
	struct run_error err = { .what = NULL };
	struct run_plan plan;
	struct gputbs *g;
	unsigned int what;
	size_t i, k;
	int ret;

	/*
	 * The worker is named after its program (the kernel keeps 15
	 * bytes), so that its gputbs events carry it: `gputbs timeline`
	 * labels its grids "PROGRAM: KERNEL".  The process that runs the
	 * programs alone keeps its name: the tracer shows each pid under
	 * its latest name, whatever it was called at the event.
	 */
	prctl(PR_SET_NAME, prog->name, 0UL, 0UL, 0UL);
	memset(&rec, 0, sizeof(rec));
	rec.run = idx;
	/* its tenant: the cgroup of the task that submits */
	if (res->cgroups[idx]) {
		ret = run_cgroup_enter(res->cgroups[idx]);
		if (ret) {
			rec.err = ret;
			rec.kind = REC_ERROR;
			rec.what = WHAT_CGROUP;
			run_send(fd, &rec);
			_exit(1);
		}
	}
	ret = gputbs_open(opts->device, 0, &g);
	if (!ret &&
	    (prog_result_alloc(&out, prog, run->requests ?: 1,
			       opts->record_blocks) ||
	     run_plan_init(&plan, prog, run, opts->info->clock_khz,
			   arrival->cycle)))
		ret = -ENOMEM;
	if (ret) {
		rec.err = ret;
		rec.kind = REC_ERROR;
		rec.what = WHAT_OPEN;
		run_send(fd, &rec);
		_exit(1);
	}
	if (!exact) {
		prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
		run_sleep_until(arrival->ns);
	}
	run_wait_turn(turn_fd);
	ret = run_grids(opts, g, &out, &plan, opts->record_blocks, exact, &err,
			next_fd);
	for (i = 0; i < out.nr_grids && (!ret || i < err.grid); i++) {
		const struct wl_grid *wg = &prog->grids[i % prog->nr_grids];

		rec.grid = i;
		rec.kind = REC_WAIT;
		rec.w = out.grids[i];
		run_send(fd, &rec);
		for (k = 0; out.blocks && out.blocks[i] && k < wg->nr_blocks;
		     k++) {
			rec.kind = REC_BLOCK;
			rec.index = k;
			rec.b = out.blocks[i][k];
			run_send(fd, &rec);
		}
	}
	if (ret) {
		for (what = 0; what < WHAT_NR - 1; what++)
			if (err.what == run_what[what])
				break;
		rec.grid = err.grid;
		rec.err = ret;
		rec.kind = REC_ERROR;
		rec.what = what;
		rec.detail.reason = err.sub_reason;
		rec.detail.value = err.sub_value;
		rec.detail.limit = err.sub_limit;
		run_send(fd, &rec);
	}
	gputbs_close(g);
	_exit(ret ? 1 : 0);
}

/* Emulated cycles in @ns of wall-clock time, rounded up. */
static __u64 run_ns_to_cycles(const struct gputbs_info *info, __u64 ns)
{
	if (!info->time_scale_ps)
		return 0;
	return (__u64)(((__uint128_t)ns * 1000 + info->time_scale_ps - 1) /
		       info->time_scale_ps);
}

/* The device's emulated cycle at CLOCK_MONOTONIC time @ns (as the module). */
static __u64 run_ns_to_cycle(const struct gputbs_info *info, __u64 ns)
{
	if (ns < info->epoch_ns || !info->time_scale_ps)
		return 0;
	return (__u64)((__uint128_t)(ns - info->epoch_ns) * 1000 /
		       info->time_scale_ps);
}

/* Store the block record @rec in the parent's copy of its grid's array. */
static int run_collect_block(struct workload_result *res,
			     const struct run_record *rec, __u32 *count)
{
	struct prog_result *run = &res->runs[rec->run];
	__u32 n = run->prog->grids[rec->grid % run->prog->nr_grids].nr_blocks;

	if (rec->index >= n || !run->blocks)
		return 0;
	if (!run->blocks[rec->grid]) {
		run->blocks[rec->grid] = calloc(n, sizeof(*run->blocks[0]));
		if (!run->blocks[rec->grid])
			return -ENOMEM;
	}
	run->blocks[rec->grid][rec->index] = rec->b;
	(*count)++;
	return 0;
}

/* Collect records until every child has closed the pipe. */
/*
 * A child's SUBMIT failed: its words, from the grid's arguments and the
 * detail the module wrote back, as the child saw them.
 */
static void run_rec_detail(struct run_error *err,
			   const struct workload_result *res,
			   const struct run_record *rec)
{
	const struct wl_program *prog = res->runs[rec->run].prog;
	struct gputbs_submit sub;

	run_submit_args(&prog->grids[rec->grid % prog->nr_grids], &sub);
	sub.err_reason = rec->detail.reason;
	sub.err_value = rec->detail.value;
	sub.err_limit = rec->detail.limit;
	run_submit_detail(err, &sub, rec->err);
}

static int run_collect(int fd, const struct run_opts *opts,
		       struct workload_result *res, unsigned int *failed_run,
		       struct run_error *err)
{
	unsigned int got[WL_MAX_RUNS] = { 0 };
	__u32 *nr_blocks[WL_MAX_RUNS] = { NULL };
	struct run_record rec;
	unsigned int i;
	size_t k;
	ssize_t n;
	int ret = 0;

	for (i = 0; opts->record_blocks && i < res->wl->nr_runs; i++) {
		nr_blocks[i] = calloc(res->runs[i].nr_grids, sizeof(__u32));
		if (!nr_blocks[i]) {
			*failed_run = i;
			ret = err->err = -ENOMEM;
			err->what = "collect";
		}
	}
	for (;;) {
		n = read(fd, &rec, sizeof(rec));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if (n != sizeof(rec) || rec.run >= res->wl->nr_runs ||
		    rec.grid >= res->runs[rec.run].nr_grids)
			continue;
		if (rec.kind == REC_ERROR) {
			if (!ret) {
				*failed_run = rec.run;
				ret = rec.err;
				err->err = ret;
				err->what = rec.what < sizeof(run_what) /
						       sizeof(run_what[0]) ?
					    run_what[rec.what] : "child";
				err->grid = rec.grid;
				if (rec.what == WHAT_SUBMIT)
					run_rec_detail(err, res, &rec);
			}
			continue;
		}
		if (rec.kind == REC_BLOCK) {
			if (!ret && run_collect_block(res, &rec,
						      &nr_blocks[rec.run][rec.grid])) {
				*failed_run = rec.run;
				ret = err->err = -ENOMEM;
				err->what = "collect";
				err->grid = rec.grid;
			}
			continue;
		}
		res->runs[rec.run].grids[rec.grid] = rec.w;
		got[rec.run]++;
	}
	for (i = 0; !ret && i < res->wl->nr_runs; i++) {
		const struct prog_result *pr = &res->runs[i];

		for (k = 0; opts->record_blocks && k < pr->nr_grids; k++)
			if (nr_blocks[i][k] !=
			    pr->prog->grids[k % pr->prog->nr_grids].nr_blocks)
				break;
		if (got[i] != pr->nr_grids ||
		    (opts->record_blocks && k < pr->nr_grids)) {
			/* The child died without saying why. */
			*failed_run = i;
			ret = -ECHILD;
			err->err = ret;
			err->what = "child";
			err->grid = got[i];
		}
	}
	for (i = 0; i < WL_MAX_RUNS; i++)
		free(nr_blocks[i]);
	return ret;
}

/**
 * run_free_blocks() - free what a workload execution holds
 * @res: the execution; its runs' grids, arrivals and block records are
 *	freed and reset (prog_result_free()).
 */
void run_free_blocks(struct workload_result *res)
{
	unsigned int i;

	for (i = 0; i < WL_MAX_RUNS; i++)
		prog_result_free(&res->runs[i]);
}

/* Runs in order of arrival, and the pipes that chain them. */
struct run_chain {
	unsigned int n;
	unsigned int order[WL_MAX_RUNS];	/* run at each position */
	unsigned int pos[WL_MAX_RUNS];		/* position of each run */
	int turn[WL_MAX_RUNS][2];		/* order[p - 1] -> order[p] */
};

static int run_chain_init(struct run_chain *c,
			  const struct workload_result *res)
{
	unsigned int i, j, p;

	c->n = res->wl->nr_runs;
	for (i = 0; i < c->n; i++) {
		/* Insertion sort: stable, so file order breaks ties. */
		for (j = i; j > 0 && res->at_cycles[c->order[j - 1]] >
				     res->at_cycles[i]; j--)
			c->order[j] = c->order[j - 1];
		c->order[j] = i;
	}
	for (p = 0; p < c->n; p++) {
		c->pos[c->order[p]] = p;
		c->turn[p][0] = -1;
		c->turn[p][1] = -1;
	}
	for (p = 1; p < c->n; p++)
		if (pipe2(c->turn[p], O_CLOEXEC))
			return -errno;
	return 0;
}

/* Close every chain pipe except the two ends run @keep (or none) uses. */
static void run_chain_close(struct run_chain *c, int keep)
{
	unsigned int p;
	int in = -1, out = -1;

	if (keep >= 0) {
		in = c->turn[c->pos[keep]][0];
		if (c->pos[keep] + 1 < c->n)
			out = c->turn[c->pos[keep] + 1][1];
	}
	for (p = 1; p < c->n; p++) {
		if (c->turn[p][0] >= 0 && c->turn[p][0] != in)
			close(c->turn[p][0]);
		if (c->turn[p][1] >= 0 && c->turn[p][1] != out)
			close(c->turn[p][1]);
	}
}

/*
 * Choose T0: the current cycle plus the margin, in cycles.  With arrival
 * cycles T0 is a cycle and its time follows; without, the time comes
 * first (the children sleep until a time).
 */
static void run_pick_t0(const struct run_opts *opts,
			const struct gputbs_info *info, bool exact,
			struct workload_result *res)
{
	__u64 margin_ns = opts->t0_margin_ns ?:
			  RUN_T0_MARGIN_NS +
			  res->wl->nr_runs * RUN_T0_PER_RUN_NS;
	__u64 now = gputbs_now_ns();

	res->wakeup_arrivals = !exact;
	res->t0_margin_cycles = run_ns_to_cycles(info, margin_ns);
	if (exact) {
		res->t0_cycle = run_ns_to_cycle(info, now) +
				res->t0_margin_cycles;
		/* a period's start, as the simulator's cycle 0 (tenants) */
		if (opts->t0_align)
			res->t0_cycle = (res->t0_cycle + opts->t0_align - 1) /
					opts->t0_align * opts->t0_align;
		res->t0_ns = run_cycle_to_ns(info, res->t0_cycle);
	} else {
		res->t0_ns = now + margin_ns;
		res->t0_cycle = run_ns_to_cycle(info, res->t0_ns);
	}
}

/*
 * With arrival cycles, every first grid must have arrived at exactly its
 * cycle; a later arrival means that its process submitted after that
 * cycle had passed, and the workload did not run as asked.
 */
static int run_check_arrivals(const struct workload_result *res,
			      unsigned int *failed_run, struct run_error *err)
{
	unsigned int i;

	for (i = 0; !res->wakeup_arrivals && i < res->wl->nr_runs; i++) {
		const struct prog_result *pr = &res->runs[i];
		__u64 want = res->t0_cycle + res->at_cycles[i] +
			     wl_time_cycles(&pr->prog->grids[0].gap,
					    res->clock_khz);
		__u64 got = pr->grids[0].submit_cycle;

		if (got != want) {
			*failed_run = i;
			err->err = -ETIME;
			err->what = "arrival";
			err->grid = 0;
			err->late_cycles = got - want;
			err->margin_cycles = res->t0_margin_cycles;
			return err->err;
		}
	}
	return 0;
}

/**
 * run_workload() - run the programs of a workload concurrently
 * @opts: device and timeout.
 * @info: the device, for its time scale, epoch and features.
 * @res: in: @set, @wl and @at_cycles; out: @t0_ns, @t0_cycle,
 *	@t0_margin_cycles, @wakeup_arrivals, @runs and @shared_cycles.
 * @failed_run: out: on error, the run that failed.
 * @err: out: on error, how it failed.
 *
 * One child process per run.  Returns after every child exited.  With
 * %GPUTBS_FEATURE_ARRIVAL_CYCLE in @info, the first grid of run i arrives
 * at exactly cycle @t0_cycle + @at_cycles[i], or the workload fails with
 * -ETIME (&run_error.what "arrival").
 *
 * Return: 0 or a negative errno (described by @failed_run and @err).
 */
int run_workload(const struct run_opts *opts, const struct gputbs_info *info,
		 struct workload_result *res, unsigned int *failed_run,
		 struct run_error *err)
{
	bool exact = info->features & GPUTBS_FEATURE_ARRIVAL_CYCLE;
	const struct wl_workload *wl = res->wl;
	struct run_opts o = *opts;
	struct run_arrival arrival;
	struct run_chain chain;
	pid_t pids[WL_MAX_RUNS], parent;
	unsigned int i, p, nr = 0;
	int pipefd[2], ret, status;

	memset(err, 0, sizeof(*err));
	*failed_run = 0;
	o.info = info;
	o.record_blocks = o.record_blocks || o.shares;
	opts = &o;
	res->clock_khz = info->clock_khz;
	for (i = 0; i < wl->nr_runs; i++) {
		const struct wl_run *run = &wl->runs[i];

		if (prog_result_alloc(&res->runs[i],
				      res->set->programs[run->program],
				      run->requests ?: 1, opts->record_blocks)) {
			run_free_blocks(res);
			*failed_run = i;
			err->what = "collect";
			return err->err = -ENOMEM;
		}
	}
	if (pipe2(pipefd, O_CLOEXEC))
		return err->err = -errno;
	ret = run_chain_init(&chain, res);
	if (ret) {
		err->err = ret;
		err->what = "pipe";
		goto out_close;
	}
	run_pick_t0(opts, info, exact, res);
	fflush(NULL);
	parent = getpid();
	for (i = 0; i < wl->nr_runs; i++) {
		pid_t pid = fork();

		if (pid < 0) {
			ret = -errno;
			*failed_run = i;
			err->err = ret;
			err->what = "fork";
			break;
		}
		if (!pid) {
			/*
			 * A worker dies with the command (SIGTERM, SIGINT,
			 * a crash): it must not keep /dev/gputbs open and
			 * its grids queued after the run is gone.
			 */
			if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0UL, 0UL, 0UL) ||
			    getppid() != parent)
				_exit(1);
			close(pipefd[0]);
			run_chain_close(&chain, i);
			p = chain.pos[i];
			arrival.cycle = res->t0_cycle + res->at_cycles[i];
			arrival.ns = exact ?
				     run_cycle_to_ns(info, arrival.cycle) :
				     res->t0_ns +
				     run_cycles_to_ns(info, res->at_cycles[i]);
			run_child(opts, res, i, &arrival, exact, pipefd[1],
				  chain.turn[p][0],
				  p + 1 < chain.n ? chain.turn[p + 1][1] : -1);
		}
		pids[nr++] = pid;
	}
out_close:
	run_chain_close(&chain, -1);
	close(pipefd[1]);
	if (ret) {
		for (i = 0; i < nr; i++)
			kill(pids[i], SIGKILL);
	} else {
		ret = run_collect(pipefd[0], opts, res, failed_run, err);
	}
	close(pipefd[0]);
	for (i = 0; i < nr; i++)
		while (waitpid(pids[i], &status, 0) < 0 && errno == EINTR)
			;
	if (!ret)
		ret = run_check_arrivals(res, failed_run, err);
	if (ret)
		return ret;
	for (i = 0; i < wl->nr_runs; i++) {
		const struct wl_run *run = &wl->runs[i];
		struct prog_result *pr = &res->runs[i];
		struct run_plan plan;

		if (run_plan_init(&plan, pr->prog, run, info->clock_khz,
				  res->t0_cycle + res->at_cycles[i])) {
			*failed_run = i;
			err->what = "collect";
			return err->err = -ENOMEM;
		}
		run_plan_arrivals(&plan, pr);
		/* exact if no grid arrived later than planned */
		pr->stream_order = pr->nr_grids == 1 ||
				   (run_stream_order(info) &&
				    (!opts->record_blocks || opts->shares) &&
				    !run_plan_late(&plan, pr, exact ? plan.first : 0));
		run_plan_free(&plan);
		if (prog_result_run_stats(pr, run, info->clock_khz)) {
			*failed_run = i;
			err->what = "collect";
			return err->err = -ENOMEM;
		}
		pr->runtime = run_program_runtime(pr);
		res->shared_cycles[i] = pr->runtime;
		if (opts->shares) {
			pr->has_share = true;
			pr->weight = run->weight;
			pr->max_ppm = run->max_ppm;
		}
	}
	if (opts->shares)
		run_shares(res, info->nr_sms);
	return 0;
}
