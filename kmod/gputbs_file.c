// SPDX-License-Identifier: GPL-2.0
/*
 * gputbs_file.c - /dev/gputbs file operations: the ioctl ABI and poll().
 *
 * Copyright (C) 2026 The gputbs developers
 */

/**
 * DOC: Grid handles
 *
 * Grids belong to the open file that submitted them; handles are per file
 * (an xarray) and mean nothing on another file.  A grid lives until it is
 * reaped by %GPUTBS_IOCTL_WAIT after completing, or until its file is
 * released, which cancels it and returns its SM resources.  Waits are
 * interruptible and restartable: the deadline is absolute.
 *
 * A grid submitted with %GPUTBS_SUBMIT_AT_CYCLE for a later cycle is
 * ARRIVING in the core (gtbs_grid_submit_at()) until the device runs to
 * that cycle; it has its handle and counts towards the file's limit from
 * submission, and release cancels it like a queued grid.
 *
 * A grid is also cancelled when the process that submitted it lets go of
 * the file while others keep it open (gputbs_flush()): a file passed over
 * a unix socket (SCM_RIGHTS) keeps the grids its receiver submits, never
 * the sender's once the sender closed it or exited, so that no user's
 * quota is pinned by a file that user cannot close.
 *
 * A grid submitted with %GPUTBS_SUBMIT_RECORD_BLOCKS gets its array of
 * block records at submission, sized for all its blocks, so that the
 * backend's block_end callback, which runs under the device spinlock,
 * only stores a record.  %GPUTBS_IOCTL_BLOCKS copies them out once the
 * grid is done, when nothing writes them any more.
 */
#include <linux/bitmap.h>
#include <linux/capability.h>
#include <linux/fdtable.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/minmax.h>
#include <linux/poll.h>
#include <linux/sched/signal.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/stddef.h>
#include <linux/uaccess.h>

#include "../uapi/linux/gputbs.h"
#include "../uapi/linux/gputbs_netlink.h"

#include "gputbs_drv.h"

static int gputbs_open(struct inode *inode, struct file *file)
{
	struct gputbs_device *gdev = container_of(file->private_data,
						  struct gputbs_device, misc);
	struct gputbs_client *client;

	client = kzalloc(sizeof(*client), GFP_KERNEL_ACCOUNT);
	if (!client)
		return -ENOMEM;
	client->gdev = gdev;
	xa_init_flags(&client->grids, XA_FLAGS_ALLOC1);
	atomic_set(&client->nr_grids, 0);
	INIT_LIST_HEAD(&client->done);
	init_waitqueue_head(&client->wq);
	gputbs_obs_client_init(client);
	/* the device cannot be reconfigured while a file is open */
	mutex_lock(&gdev->cfg_lock);
	atomic_inc(&gdev->nr_open);
	mutex_unlock(&gdev->cfg_lock);
	file->private_data = client;
	return nonseekable_open(inode, file);
}

static void gputbs_grid_free(struct kref *ref)
{
	struct gputbs_grid *grid = container_of(ref, struct gputbs_grid, ref);

	gtbs_grid_free_sms(&gputbs_pair_alloc, &grid->core);	/* it left the device */
	gputbs_tenant_put(grid->tenant);
	kvfree(grid->records);
	kvfree(grid->durations);
	kvfree(grid);
}

static void gputbs_grid_put(struct gputbs_grid *grid)
{
	kref_put(&grid->ref, gputbs_grid_free);
}

/*
 * The grid's handle is gone: reaped by WAIT, or cancelled with its file.
 * Gives back what the grid was charged (gputbs_grid_charge()) and drops
 * the handle's reference: the one place a submitted grid is uncharged.
 * Process context.
 */
static void gputbs_grid_retire(struct gputbs_grid *grid)
{
	gputbs_grid_uncharge(grid->client, &grid->charge);
	gputbs_grid_put(grid);
}

/* Cancel @grid (if not DONE) and forget it was done.  Device lock held. */
static void gputbs_grid_drop(struct gputbs_device *gdev,
			     struct gputbs_grid *grid, u64 now)
{
	lockdep_assert_held(&gdev->lock);
	gtbs_grid_cancel(&gdev->core, &grid->core, now);
	gputbs_obs_grid_cancel(gdev, grid);
	list_del_init(&grid->done_node);
}

/*
 * Cancel @root and the grids waiting for it in stream order (all of the
 * same file), the waiting ones first, depth first by the core's
 * &gtbs_grid.dependents: a grid cancelled before its dependents would
 * release them onto the arrivals only for them to be cancelled in turn.
 * O(grids cancelled).  Device lock held.
 */
static void gputbs_grid_drop_stream(struct gputbs_device *gdev,
				    struct gputbs_grid *root, u64 now)
{
	struct gtbs_grid *g = &root->core, *up;

	lockdep_assert_held(&gdev->lock);
	for (;;) {
		if (!list_empty(&g->dependents)) {
			g = list_first_entry(&g->dependents, struct gtbs_grid,
					     after_node);
			continue;
		}
		up = g->after;	/* NULL once cancelled: read it first */
		gputbs_grid_drop(gdev, g->priv, now);
		if (g == &root->core)
			return;
		g = up;
	}
}

/*
 * Cancel @grid, a grid of @client whose submitter let go of the file, and
 * give back its charge, unless a WAIT reaped it or another caller
 * cancelled it first.  The caller holds a reference.  Process context.
 */
static void gputbs_grid_cancel_orphan(struct gputbs_client *client,
				      struct gputbs_grid *grid)
{
	struct gputbs_device *gdev = client->gdev;
	u64 now;

	/* the handle goes first: exactly one caller retires the grid */
	if (xa_cmpxchg(&client->grids, grid->handle, grid, NULL, 0) != grid)
		return;
	spin_lock(&gdev->lock);
	gputbs_dev_sync(gdev);
	now = gdev->core.clock;
	gputbs_obs_flush(gdev, now);	/* SM time up to the cancellation */
	if (grid->core.state != GTBS_GRID_CANCELLED &&
	    grid->core.state != GTBS_GRID_TIMED_OUT)
		gtbs_grid_cancel(&gdev->core, &grid->core, now);
	gputbs_obs_grid_cancel(gdev, grid);
	list_del_init(&grid->done_node);
	WRITE_ONCE(grid->gone, true);
	gputbs_dev_sync(gdev);	/* others' blocks take the freed resources */
	spin_unlock(&gdev->lock);
	wake_up_all(&client->wq);	/* a WAIT on it returns -ENOENT */
	gputbs_grid_retire(grid);
}

/* iterate_fd() callback: descriptor @fd is the file @p. */
static int gputbs_fd_is(const void *p, struct file *file, unsigned int fd)
{
	return file == p;
}

/*
 * Whether @grid was submitted through @owner; if so, it is marked
 * orphaned.  In the first pass (@queued) only grids that have not started
 * count: cancelling a running grid first would let the next queued one
 * of the same owner start only to be cancelled.
 */
static bool gputbs_grid_orphan(struct gputbs_device *gdev,
			       struct gputbs_grid *grid, fl_owner_t owner,
			       bool queued)
{
	bool mine;

	spin_lock(&gdev->lock);
	mine = grid->owner == owner &&
	       (!queued || grid->core.state == GTBS_GRID_QUEUED ||
		grid->core.state == GTBS_GRID_ARRIVING ||
		grid->core.state == GTBS_GRID_WAITING);
	if (mine)
		WRITE_ONCE(grid->orphaned, true);
	spin_unlock(&gdev->lock);
	return mine;
}

/*
 * ->flush(), called at every close() of a descriptor of the file and for
 * each file of an exiting process (filp_close()), with the file table the
 * descriptor was in as @id.  When that table no longer holds the file
 * while other references keep it open (a copy passed over a unix socket,
 * a fork()ed child's table), the grids submitted through it are cancelled
 * and their charges given back: their submitter can no longer close the
 * file, so they must not pin its quota (Documentation/reliability.rst,
 * "Lifetimes").  POSIX locks (locks_remove_posix()) and dnotify
 * (dnotify_flush()) end with their owner's close the same way; unlike
 * them, a table that still holds the file through another descriptor
 * (dup()) keeps its grids.  A grid that a WAIT or another ioctl holds is
 * cancelled when that ioctl lets it go (gputbs_grid_put_ioctl()), so that
 * a WAIT in another thread of the closing process completes normally.
 * The last close is left to gputbs_release(), which cancels every grid.
 *
 * A foreign @id (not current->files: the table of an exiting process, or
 * an old table dropped by execve()) is never dereferenced; it is being
 * torn down and holds the file no longer.
 */
static int gputbs_flush(struct file *file, fl_owner_t id)
{
	struct gputbs_client *client = file->private_data;
	struct gputbs_device *gdev = client->gdev;
	struct gputbs_grid *grid;
	unsigned long idx;
	int pass;

	if (!id || file_count(file) <= 1 || !atomic_read(&client->nr_grids))
		return 0;
	if (id == current->files && iterate_fd(id, 0, gputbs_fd_is, file))
		return 0;	/* still open in this table: dup() */
	for (pass = 0; pass < 2; pass++) {
		for (idx = 0; ; idx++) {
			xa_lock(&client->grids);
			grid = xa_find(&client->grids, &idx, ULONG_MAX,
				       XA_PRESENT);
			if (grid)
				kref_get(&grid->ref);
			xa_unlock(&client->grids);
			if (!grid)
				break;
			if (gputbs_grid_orphan(gdev, grid, id, !pass)) {
				/* orphaned before busy: see put_ioctl() */
				smp_mb();
				if (!atomic_read(&grid->busy))
					gputbs_grid_cancel_orphan(client, grid);
			}
			gputbs_grid_put(grid);
		}
	}
	return 0;
}

static int gputbs_release(struct inode *inode, struct file *file)
{
	struct gputbs_client *client = file->private_data;
	struct gputbs_device *gdev = client->gdev;
	struct gputbs_grid *grid;
	unsigned long handle;
	u64 now;

	/*
	 * No ioctl runs any more: nobody else holds a grid reference.  The
	 * grids are cancelled where the device is after one bounded slice
	 * (&gtbs_dev.clock): the current cycle, unless the device is behind,
	 * and then closing a file never waits for the backlog.
	 */
	spin_lock(&gdev->lock);
	gputbs_dev_sync(gdev);
	now = gdev->core.clock;
	gputbs_obs_flush(gdev, now);	/* SM time up to the cancellation */
	/*
	 * The grids that have not started first: otherwise each running grid
	 * cancelled would free room for the next queued grid of the same
	 * file, which would be launched only to be cancelled in turn.  Those
	 * waiting in stream order go with (before) their predecessor, so
	 * none is released to arrive: by the second loop none waits.
	 */
	xa_for_each(&client->grids, handle, grid)
		if (grid->core.state == GTBS_GRID_QUEUED ||
		    grid->core.state == GTBS_GRID_ARRIVING ||
		    grid->core.state == GTBS_GRID_WAITING)
			gputbs_grid_drop_stream(gdev, grid, now);
	xa_for_each(&client->grids, handle, grid)
		if (grid->core.state != GTBS_GRID_CANCELLED &&
		    grid->core.state != GTBS_GRID_TIMED_OUT)
			gputbs_grid_drop(gdev, grid, now);
	gputbs_dev_sync(gdev);	/* others' blocks take the freed resources */
	spin_unlock(&gdev->lock);
	xa_for_each(&client->grids, handle, grid) {
		xa_erase(&client->grids, handle);
		gputbs_grid_retire(grid);
	}
	xa_destroy(&client->grids);
	WARN_ON_ONCE(atomic_read(&client->nr_grids));
	gputbs_tenant_client_release(client);
	kfree(client);
	atomic_dec(&gdev->nr_open);
	return 0;
}

/**
 * gputbs_grid_done() - a grid ended: its last block, or its job timeout
 * @gdev: the device.
 * @grid: the grid, DONE or TIMED_OUT (WAIT reaps the latter with
 *	-ETIMEDOUT).
 *
 * Queues the grid on its file's done list and wakes waiters and poll().
 * The core's &gtbs_backend_ops.grid_done and, after the observers,
 * &gtbs_backend_ops.grid_timeout.
 *
 * Context: &gputbs_device.lock held, wherever the device runs (an SM
 * kthread or an ioctl's bounded slice).
 */
void gputbs_grid_done(struct gputbs_device *gdev, struct gputbs_grid *grid)
{
	lockdep_assert_held(&gdev->lock);
	lockdep_assert_held(&gdev->lock);
	WRITE_ONCE(grid->done, true);
	list_add_tail(&grid->done_node, &grid->client->done);
	wake_up_all(&grid->client->wq);
}

/**
 * gputbs_grid_block_end() - record that a thread block of a grid ended
 * @grid: the grid.
 * @sm: SM the block ran on.
 * @slot: its block slot on the SM.
 * @block: index of the block in the grid.
 * @start: emulated cycle it started.
 * @end: emulated cycle it ended.
 *
 * Stores one record if the grid was submitted with
 * %GPUTBS_SUBMIT_RECORD_BLOCKS; never allocates.  Called for the core's
 * &gtbs_backend_ops.block_end, in block-end order.
 *
 * Context: &gputbs_device.lock held, from an SM kthread or an ioctl.
 */
void gputbs_grid_block_end(struct gputbs_grid *grid, u32 sm, u32 slot,
			   u32 block, u64 start, u64 end)
{
	struct gputbs_block_record *rec;

	if (!grid->records)
		return;
	/* Each block ends once: the array holds nr_blocks records. */
	if (WARN_ON_ONCE(grid->nr_records >= grid->core.desc.nr_blocks))
		return;
	rec = &grid->records[grid->nr_records++];
	rec->sm = sm;
	rec->slot = slot;
	rec->block = block;
	rec->pad = 0;
	rec->start_cycle = start;
	rec->end_cycle = end;
}

static long gputbs_ioctl_info(struct gputbs_client *client, void *data,
			      unsigned int size)
{
	const struct gputbs_device *gdev = client->gdev;
	struct gputbs_info *info = data;
	const struct gtbs_dev_config *cfg = &gdev->core.cfg;

	memset(info, 0, sizeof(*info));
	info->features = GPUTBS_FEATURE_WORK_DIST | GPUTBS_FEATURE_WORK_ARRAY |
			 GPUTBS_FEATURE_WAIT_ANY | GPUTBS_FEATURE_POLL |
			 GPUTBS_FEATURE_PRIO_CLASS |
			 GPUTBS_FEATURE_BLOCK_RECORDS |
			 GPUTBS_FEATURE_ARRIVAL_CYCLE |
			 GPUTBS_FEATURE_DEVICE_GRID_LIMIT |
			 GPUTBS_FEATURE_JOB_TIMEOUT |
			 GPUTBS_FEATURE_CORUN_TIMING | GPUTBS_FEATURE_BLOCK_DIST |
			 GPUTBS_FEATURE_USER_LIMITS | GPUTBS_FEATURE_PREEMPT |
			 GPUTBS_FEATURE_STREAM_ORDER |
			 GPUTBS_FEATURE_ERROR_DETAIL;
	info->nr_sms = cfg->nr_sms;
	info->warp_size = cfg->warp_size;
	info->max_threads_per_sm = cfg->max_threads_per_sm;
	info->max_regs_per_sm = cfg->max_regs_per_sm;
	info->max_shmem_per_sm = cfg->max_shmem_per_sm;
	info->max_blocks_per_sm = cfg->max_blocks_per_sm;
	info->max_warps_per_sm = cfg->max_warps_per_sm;
	info->max_threads_per_block = cfg->max_threads_per_block;
	info->max_regs_per_thread = cfg->max_regs_per_thread;
	info->reg_alloc_unit = cfg->reg_alloc_unit;
	info->shmem_alloc_unit = cfg->shmem_alloc_unit;
	info->max_blocks_per_grid = cfg->max_blocks_per_grid;
	info->clock_khz = cfg->clock_khz;
	info->time_scale_ps = gdev->time_scale_ps;
	info->max_grids_per_fd = gdev->max_grids_per_fd;
	info->load_knee_warps = cfg->load_knee_warps;
	info->epoch_ns = gdev->epoch_ns;
	info->max_grids_per_device = gputbs_max_grids_per_device();
	info->max_grids_per_user = gputbs_max_grids_per_user();
	return 0;
}

/* The core's class of a uapi class: 0 is normal, n is the core's n - 1. */
static u32 gputbs_prio_class(u32 uapi_class)
{
	BUILD_BUG_ON(GPUTBS_PRIO_LOW - 1 != GTBS_PRIO_LOW);
	BUILD_BUG_ON(GPUTBS_PRIO_NORMAL - 1 != GTBS_PRIO_NORMAL);
	BUILD_BUG_ON(GPUTBS_PRIO_HIGH - 1 != GTBS_PRIO_HIGH);
	BUILD_BUG_ON(GPUTBS_PRIO_REALTIME - 1 != GTBS_PRIO_REALTIME);
	BUILD_BUG_ON(GPUTBS_PRIO_REALTIME != GTBS_NR_PRIO_CLASSES);

	return uapi_class == GPUTBS_PRIO_DEFAULT ? GTBS_PRIO_NORMAL :
						   uapi_class - 1;
}

/* Flags SUBMIT knows. */
#define GPUTBS_SUBMIT_FLAGS						\
	(GPUTBS_SUBMIT_RECORD_BLOCKS | GPUTBS_SUBMIT_AT_CYCLE |	\
	 GPUTBS_SUBMIT_TIMEOUT | GPUTBS_SUBMIT_MODEL |			\
	 GPUTBS_SUBMIT_IDEMPOTENT | GPUTBS_SUBMIT_AFTER)

/* Record a failed check of SUBMIT in @err; returns -EINVAL. */
static int gputbs_einval(struct gtbs_grid_err *err, u32 reason, u64 value,
			 u64 limit)
{
	err->reason = reason;
	err->value = value;
	err->limit = limit;
	return -EINVAL;
}

/*
 * @flag is set in a command of @size bytes: it needs the struct of
 * @need bytes that has its members.
 */
static int gputbs_flag_size_check(u32 flag, unsigned int size,
				  unsigned int need, struct gtbs_grid_err *err)
{
	if (size >= need)
		return 0;
	return gputbs_einval(err, GPUTBS_SUBMIT_ERR_FLAG_SIZE, flag, need);
}

/*
 * An arrival cycle needs the flag, the flag needs the command of the
 * struct that has the member (@size), and the cycle may lie at most
 * GPUTBS_ARRIVAL_MAX_AHEAD ahead.  The current cycle is read without the
 * lock: the one submission uses later is larger, which only brings the
 * arrival closer.
 */
static int gputbs_arrival_check(const struct gputbs_device *gdev,
				const struct gputbs_submit *args,
				unsigned int size, struct gtbs_grid_err *err)
{
	u64 limit;

	if (!(args->flags & GPUTBS_SUBMIT_AT_CYCLE))
		return args->arrival_cycle ?
		       gputbs_einval(err, GPUTBS_SUBMIT_ERR_ARRIVAL_FLAG,
				     args->arrival_cycle, 0) : 0;
	if (gputbs_flag_size_check(GPUTBS_SUBMIT_AT_CYCLE, size,
				   GPUTBS_SUBMIT_SIZE_VER1, err))
		return -EINVAL;
	limit = gputbs_now_cycles(gdev) + GPUTBS_ARRIVAL_MAX_AHEAD;
	if (args->arrival_cycle > limit)
		return gputbs_einval(err, GPUTBS_SUBMIT_ERR_ARRIVAL_AHEAD,
				     args->arrival_cycle, limit);
	return 0;
}

/*
 * A grid's own timeout needs the flag, the flag the command of the struct
 * that has the member (@size), and a value 1..GPUTBS_TIMEOUT_MAX_CYCLES.
 */
static int gputbs_timeout_check(const struct gputbs_submit *args,
				unsigned int size, struct gtbs_grid_err *err)
{
	if (!(args->flags & GPUTBS_SUBMIT_TIMEOUT))
		return args->timeout_cycles ?
		       gputbs_einval(err, GPUTBS_SUBMIT_ERR_TIMEOUT_FLAG,
				     args->timeout_cycles, 0) : 0;
	if (gputbs_flag_size_check(GPUTBS_SUBMIT_TIMEOUT, size,
				   GPUTBS_SUBMIT_SIZE_VER2, err))
		return -EINVAL;
	if (!args->timeout_cycles ||
	    args->timeout_cycles > GPUTBS_TIMEOUT_MAX_CYCLES)
		return gputbs_einval(err, GPUTBS_SUBMIT_ERR_TIMEOUT,
				     args->timeout_cycles,
				     GPUTBS_TIMEOUT_MAX_CYCLES);
	return 0;
}

/*
 * The timing members need the flag and the command of the struct that
 * has them (@size); their ranges are the core's (gtbs_grid_desc_verify()).
 */
static int gputbs_model_check(const struct gputbs_submit *args,
			      unsigned int size, struct gtbs_grid_err *err)
{
	const u32 members[] = {
		args->mem_ppm, args->knee_mwarps, args->block_dist,
		args->block_dist_param, args->startup_ppm, args->startup_blocks,
	};
	unsigned int i;

	if (args->flags & GPUTBS_SUBMIT_MODEL)
		return gputbs_flag_size_check(GPUTBS_SUBMIT_MODEL, size,
					      GPUTBS_SUBMIT_SIZE_VER3, err);
	for (i = 0; i < ARRAY_SIZE(members); i++)
		if (members[i])
			return gputbs_einval(err, GPUTBS_SUBMIT_ERR_MODEL_FLAG,
					     members[i], 0);
	return 0;
}

/*
 * Stream order: the members need the flag, the flag the command of
 * %GPUTBS_SUBMIT_SIZE_VER4 bytes, no %GPUTBS_SUBMIT_AT_CYCLE (one arrival
 * rule per grid) and a gap of at most GPUTBS_ARRIVAL_MAX_AHEAD.  The
 * handle is looked up later (gputbs_ioctl_submit()).
 */
static int gputbs_after_check(const struct gputbs_submit *args,
			      unsigned int size, struct gtbs_grid_err *err)
{
	if (!(args->flags & GPUTBS_SUBMIT_AFTER))
		return args->after_handle || args->after_cycles ?
		       gputbs_einval(err, GPUTBS_SUBMIT_ERR_AFTER_FLAG,
				     args->after_handle,
				     args->after_cycles) : 0;
	if (gputbs_flag_size_check(GPUTBS_SUBMIT_AFTER, size,
				   GPUTBS_SUBMIT_SIZE_VER4, err))
		return -EINVAL;
	if (args->flags & GPUTBS_SUBMIT_AT_CYCLE)
		return gputbs_einval(err, GPUTBS_SUBMIT_ERR_AFTER_AT_CYCLE,
				     args->flags, 0);
	if (args->after_cycles > GPUTBS_ARRIVAL_MAX_AHEAD)
		return gputbs_einval(err, GPUTBS_SUBMIT_ERR_AFTER_CYCLES,
				     args->after_cycles,
				     GPUTBS_ARRIVAL_MAX_AHEAD);
	return 0;
}

/* Work-model fields must match the chosen model. */
static int gputbs_work_check(const struct gputbs_submit *args,
			     struct gtbs_grid_err *err)
{
	switch (args->work_model) {
	case GPUTBS_WORK_DIST:
		if (args->nr_durations)
			return gputbs_einval(err, GPUTBS_SUBMIT_ERR_WORK_FIELD,
					     args->nr_durations, 0);
		if (args->durations_ptr)
			return gputbs_einval(err, GPUTBS_SUBMIT_ERR_WORK_FIELD,
					     args->durations_ptr, 0);
		return 0;
	case GPUTBS_WORK_ARRAY:
		if (args->nr_durations != args->nr_blocks)
			return gputbs_einval(err,
					     GPUTBS_SUBMIT_ERR_NR_DURATIONS,
					     args->nr_durations,
					     args->nr_blocks);
		if (args->block_cycles || args->seed)
			return gputbs_einval(err, GPUTBS_SUBMIT_ERR_WORK_FIELD,
					     args->block_cycles ?: args->seed,
					     0);
		if (args->block_rsd_ppm || args->block_dist ||
		    args->block_dist_param || args->startup_ppm ||
		    args->startup_blocks)
			return gputbs_einval(err, GPUTBS_SUBMIT_ERR_WORK_FIELD,
					     args->block_rsd_ppm ?:
					     args->block_dist ?:
					     args->block_dist_param ?:
					     args->startup_ppm ?:
					     args->startup_blocks, 0);
		return 0;
	default:
		return gputbs_einval(err, GPUTBS_SUBMIT_ERR_WORK_MODEL,
				     args->work_model, GPUTBS_WORK_ARRAY);
	}
}

/*
 * The flags known, the arrival, timeout, model and stream-order members
 * valid, the class exist and the work model's fields match it (-EINVAL,
 * with the reason in @err).  The core
 * checks the rest when the grid is created; the classes above normal
 * need CAP_SYS_NICE (-EPERM), checked after that (gputbs_ioctl_submit()),
 * so that an invalid grid is -EINVAL (or -E2BIG) for anyone.
 */
static int gputbs_submit_check(const struct gputbs_device *gdev,
			       const struct gputbs_submit *args,
			       unsigned int size, struct gtbs_grid_err *err)
{
	if (args->flags & ~GPUTBS_SUBMIT_FLAGS)
		return gputbs_einval(err, GPUTBS_SUBMIT_ERR_FLAGS, args->flags,
				     GPUTBS_SUBMIT_FLAGS);
	if (gputbs_arrival_check(gdev, args, size, err) ||
	    gputbs_timeout_check(args, size, err) ||
	    gputbs_model_check(args, size, err) ||
	    gputbs_after_check(args, size, err))
		return -EINVAL;
	if (args->prio_class > GPUTBS_PRIO_REALTIME)
		return gputbs_einval(err, GPUTBS_SUBMIT_ERR_PRIO_CLASS,
				     args->prio_class, GPUTBS_PRIO_REALTIME);
	return gputbs_work_check(args, err);
}

/*
 * The core's rule (gtbs_prio_class_check(), tested by KUnit): the classes
 * above normal need CAP_SYS_NICE, asked for only for those classes.
 */
static int gputbs_prio_check(const struct gputbs_submit *args,
			     struct gtbs_grid_err *err)
{
	u32 prio_class = gputbs_prio_class(args->prio_class);
	int ret;

	ret = gtbs_prio_class_check(prio_class,
				    prio_class <= GTBS_PRIO_NORMAL ||
				    capable(CAP_SYS_NICE));
	if (ret) {
		err->reason = ret == -EPERM ? GPUTBS_SUBMIT_ERR_PRIO_PERM :
					      GPUTBS_SUBMIT_ERR_PRIO_CLASS;
		err->value = args->prio_class;
		err->limit = ret == -EPERM ? GPUTBS_PRIO_NORMAL :
					     GPUTBS_PRIO_REALTIME;
	}
	return ret;
}

static u64 *gputbs_copy_durations(const struct gputbs_submit *args)
{
	u64 *durations;

	durations = kvmalloc_array(args->nr_durations, sizeof(u64),
				   GFP_KERNEL_ACCOUNT);
	if (!durations)
		return ERR_PTR(-ENOMEM);
	if (copy_from_user(durations, u64_to_user_ptr(args->durations_ptr),
			   array_size(args->nr_durations, sizeof(u64)))) {
		kvfree(durations);
		return ERR_PTR(-EFAULT);
	}
	return durations;
}

/*
 * Offset in a grid's allocation of its per-SM preemption-latency state
 * (&gputbs_grid.lat_pending, then &gputbs_grid.lat_mech), after the core's
 * per-SM pointers, bytes; *@size: the whole allocation, bytes.  One
 * allocation rather than three: SUBMIT and WAIT each cost two slab calls
 * fewer (Documentation/performance.rst, section 1).
 */
static size_t gputbs_grid_lat_offset(const struct gtbs_dev_config *cfg,
				     size_t *size)
{
	size_t off = ALIGN(sizeof(struct gputbs_grid) -
			   sizeof(struct gtbs_grid) + gtbs_grid_size(cfg),
			   sizeof(unsigned long));

	*size = off + BITS_TO_LONGS(cfg->nr_sms) * sizeof(unsigned long) +
		cfg->nr_sms * sizeof(u8);
	return off;
}

static struct gputbs_grid *gputbs_grid_create(struct gputbs_client *client,
					      const struct gputbs_submit *args,
					      struct gtbs_grid_err *err)
{
	struct gtbs_dev *core = &client->gdev->core;
	struct gtbs_grid_desc desc = {
		.nr_blocks = args->nr_blocks,
		.threads_per_block = args->threads_per_block,
		.regs_per_thread = args->regs_per_thread,
		.shmem_per_block = args->shmem_per_block,
		.block_cycles = args->block_cycles,
		.block_rsd_ppm = args->block_rsd_ppm,
		.seed = args->seed,
		.prio_class = gputbs_prio_class(args->prio_class),
		.timeout_cycles = args->timeout_cycles,
		.mem_ppm = args->mem_ppm,
		.knee_mwarps = args->knee_mwarps,
		.block_dist = args->block_dist,
		.block_dist_param = args->block_dist_param,
		.startup_ppm = args->startup_ppm,
		.startup_blocks = args->startup_blocks,
		.idempotent = !!(args->flags & GPUTBS_SUBMIT_IDEMPOTENT),
	};
	struct gputbs_grid *grid;
	size_t lat, size;
	int ret;

	BUILD_BUG_ON(sizeof(desc.label) != sizeof(args->label));
	memcpy(desc.label, args->label, sizeof(desc.label));
	/* gtbs_grid_init() zeroes the core's part, which is most of it */
	err->reason = GPUTBS_SUBMIT_ERR_NOMEM;	/* until the core's check */
	lat = gputbs_grid_lat_offset(&core->cfg, &size);
	grid = kvmalloc(size, GFP_KERNEL_ACCOUNT);
	if (!grid)
		return ERR_PTR(-ENOMEM);
	memset(grid, 0, offsetof(struct gputbs_grid, core));
	memset((char *)grid + lat, 0, size - lat);
	grid->lat_pending = (unsigned long *)((char *)grid + lat);
	grid->lat_mech = (u8 *)(grid->lat_pending +
				BITS_TO_LONGS(core->cfg.nr_sms));
	if (args->flags & GPUTBS_SUBMIT_RECORD_BLOCKS) {
		grid->records = kvmalloc_array(args->nr_blocks,
					       sizeof(*grid->records),
					       GFP_KERNEL_ACCOUNT);
		if (!grid->records) {
			ret = -ENOMEM;
			goto err_free;
		}
	}
	if (args->work_model == GPUTBS_WORK_ARRAY) {
		grid->durations = gputbs_copy_durations(args);
		if (IS_ERR(grid->durations)) {
			ret = PTR_ERR(grid->durations);
			grid->durations = NULL;
			goto err_free;
		}
		desc.durations = grid->durations;
	}
	ret = gtbs_grid_init_err(core, &grid->core, &desc, err);
	if (ret) {
		pr_debug("gputbs: %s[%d]: submit rejected: %s\n",
			 current->comm, task_pid_nr(current), err->why);
		goto err_free;
	}
	kref_init(&grid->ref);
	grid->client = client;
	grid->core.priv = grid;
	INIT_LIST_HEAD(&grid->done_node);
	return grid;

err_free:
	kvfree(grid->records);
	kvfree(grid->durations);
	kvfree(grid);
	return ERR_PTR(ret);
}

/* Take a reference to the grid of @handle for an ioctl, or NULL.  */
static struct gputbs_grid *gputbs_grid_get(struct gputbs_client *client,
					   u32 handle)
{
	struct gputbs_grid *grid;

	xa_lock(&client->grids);
	grid = xa_load(&client->grids, handle);
	if (grid) {
		kref_get(&grid->ref);
		atomic_inc(&grid->busy);
	}
	xa_unlock(&client->grids);
	return grid;
}

/*
 * Drop the reference of gputbs_grid_get().  The last ioctl to let go of
 * a grid whose submitter let go of the file cancels it (gputbs_flush()).
 */
static void gputbs_grid_put_ioctl(struct gputbs_client *client,
				  struct gputbs_grid *grid)
{
	/* a full barrier: busy before orphaned, paired with gputbs_flush() */
	if (!atomic_dec_return(&grid->busy) && READ_ONCE(grid->orphaned))
		gputbs_grid_cancel_orphan(client, grid);
	gputbs_grid_put(grid);
}

/*
 * Submit a grid; on error @err says which check failed (the caller
 * writes it back for a command of %GPUTBS_SUBMIT_SIZE_VER4 bytes).
 */
static int gputbs_submit_grid(struct gputbs_client *client,
			      struct gputbs_submit *args, unsigned int size,
			      struct gtbs_grid_err *err)
{
	struct gputbs_device *gdev = client->gdev;
	struct gputbs_grid *grid, *pred = NULL;
	struct gputbs_charge charge;
	u32 handle;
	u64 now;
	int ret;

	ret = gputbs_submit_check(gdev, args, size, err);
	if (ret)
		return ret;
	/* the configuration is constant while a file is open */
	if (args->nr_blocks > gdev->core.cfg.max_blocks_per_grid) {
		err->reason = GPUTBS_SUBMIT_ERR_NR_BLOCKS;
		err->value = args->nr_blocks;
		err->limit = gdev->core.cfg.max_blocks_per_grid;
		return -E2BIG;
	}
	/*
	 * The predecessor of stream order: a reference keeps it while this
	 * grid is linked to it under the device lock below.  A WAIT that
	 * reaps it meanwhile changes nothing: it had left the device, and
	 * gtbs_grid_submit_after() reads its end cycle.
	 */
	if (args->flags & GPUTBS_SUBMIT_AFTER) {
		pred = gputbs_grid_get(client, args->after_handle);
		if (!pred) {
			err->reason = GPUTBS_SUBMIT_ERR_AFTER_HANDLE;
			err->value = args->after_handle;
			return -ENOENT;
		}
	}
	/*
	 * -EAGAIN, -EDQUOT, -ENOBUFS, -ENOSPC, -ENOMEM: before anything is
	 * allocated, so that a grid over a limit costs nothing
	 */
	ret = gputbs_grid_charge(client, gputbs_grid_bytes(args), &charge, err);
	if (ret)
		goto err_pred;
	grid = gputbs_grid_create(client, args, err);
	if (IS_ERR(grid)) {
		gputbs_grid_uncharge(client, &charge);
		ret = PTR_ERR(grid);
		goto err_pred;
	}
	grid->charge = charge;
	grid->tenant = gputbs_tenant_get_current(client);
	grid->core.tenant = grid->tenant ? &grid->tenant->core : NULL;
	ret = gputbs_prio_check(args, err);	/* -EPERM, once the grid is valid */
	if (ret)
		goto err_retire;
	ret = xa_alloc(&client->grids, &handle, grid, xa_limit_32b,
		       GFP_KERNEL_ACCOUNT);
	if (ret) {
		err->reason = GPUTBS_SUBMIT_ERR_NOMEM;
		goto err_retire;
	}
	grid->handle = handle;
	args->handle = handle;

	/*
	 * arrival_cycle is 0 without GPUTBS_SUBMIT_AT_CYCLE, and a cycle at
	 * or before now means now.  When the device is at now (one bounded
	 * slice brought it there), the grid arrives at once.  Otherwise it
	 * waits on the core's arrivals for its cycle, or for now if the
	 * device is behind (its catch-up is left to the SM kthreads, so a
	 * submitter never waits for another's backlog), and the second sync
	 * arms SM 0's timer for it (gputbs_dev_sync()).  A grid in stream
	 * order waits for its predecessor instead (or, if that has left,
	 * arrives at its end plus the gap, or now).  The per-(grid, SM)
	 * states its blocks will take are topped up first, outside the lock.
	 */
	gputbs_spare_refill(gdev);
	spin_lock(&gdev->lock);
	if (pred) {
		now = gputbs_dev_advance(gdev) ? gdev->core.clock :
						 gputbs_now_cycles(gdev);
		gtbs_grid_submit_after(&gdev->core, &grid->core, now,
				       &pred->core, args->after_cycles);
	} else if (gputbs_dev_advance(gdev) &&
		   args->arrival_cycle <= gdev->core.clock) {
		now = gdev->core.clock;
		gtbs_grid_submit(&gdev->core, &grid->core, now);
	} else {
		now = gputbs_now_cycles(gdev);
		gtbs_grid_submit_at(&gdev->core, &grid->core, now,
				    args->arrival_cycle);
	}
	gputbs_obs_grid_submit(gdev, grid, now);
	grid->owner = current->files;	/* in the core: gputbs_flush() */
	gputbs_dev_sync(gdev);	/* issue its blocks now, at its arrival */
	spin_unlock(&gdev->lock);
	if (pred)
		gputbs_grid_put_ioctl(client, pred);
	return 0;

err_retire:
	gputbs_grid_retire(grid);
err_pred:
	if (pred)
		gputbs_grid_put_ioctl(client, pred);
	return ret;
}

/* Whether SUBMIT writes the error detail back after error @ret. */
static bool gputbs_submit_err_out(long ret)
{
	switch (ret) {
	case -EINVAL:
	case -E2BIG:
	case -EPERM:
	case -EAGAIN:
	case -EDQUOT:
	case -ENOBUFS:
	case -ENOSPC:
	case -ENOMEM:
	case -ENOENT:
		return true;
	}
	return false;
}

/*
 * %GPUTBS_IOCTL_SUBMIT.  A command of %GPUTBS_SUBMIT_SIZE_VER4 bytes gets
 * the reason of a failed check in err_reason, err_value and err_limit,
 * which gputbs_ioctl() copies back (&gputbs_ioctl_desc.err_out_size);
 * nothing else of the struct changed on error.  On success they are 0.
 */
static long gputbs_ioctl_submit(struct gputbs_client *client, void *data,
				unsigned int size)
{
	struct gputbs_submit *args = data;
	struct gtbs_grid_err err = {};
	int ret;

	/*
	 * Output only: ignored on input (a struct that failed may be sent
	 * again as it is), 0 on success
	 */
	args->err_reason = 0;
	args->err_value = 0;
	args->err_limit = 0;
	ret = gputbs_submit_grid(client, args, size, &err);
	if (ret && size >= GPUTBS_SUBMIT_SIZE_VER4 &&
	    gputbs_submit_err_out(ret)) {
		args->err_reason = err.reason;
		args->err_value = err.value;
		args->err_limit = err.limit;
	}
	return ret;
}

/* The first completed grid of @client with a reference held, or NULL. */
static struct gputbs_grid *gputbs_grid_get_done(struct gputbs_client *client)
{
	struct gputbs_device *gdev = client->gdev;
	struct gputbs_grid *grid;

	spin_lock(&gdev->lock);
	grid = list_first_entry_or_null(&client->done, struct gputbs_grid,
					done_node);
	if (grid)
		kref_get(&grid->ref);
	spin_unlock(&gdev->lock);
	return grid;
}

/*
 * Fill @args from the DONE or TIMED_OUT @grid and drop its handle.
 * Returns 0, -ETIMEDOUT (reaped too: the job timeout stopped it) or
 * -ENOENT (another waiter reaped it).
 */
static int gputbs_grid_reap(struct gputbs_client *client,
			    struct gputbs_grid *grid, struct gputbs_wait *args)
{
	struct gputbs_device *gdev = client->gdev;
	const struct gtbs_grid *g = &grid->core;

	/* Exactly one of several concurrent waiters erases the handle. */
	if (xa_cmpxchg(&client->grids, grid->handle, grid, NULL, 0) != grid)
		return -ENOENT;
	spin_lock(&gdev->lock);
	list_del_init(&grid->done_node);
	spin_unlock(&gdev->lock);
	gputbs_grid_retire(grid);	/* the caller's reference keeps it */

	args->handle = grid->handle;
	args->submit_cycle = g->submit_cycle;
	args->start_cycle = g->start_cycle;
	args->end_cycle = g->end_cycle;
	args->submit_ns = gputbs_cycles_to_ns(gdev, g->submit_cycle);
	args->start_ns = gputbs_cycles_to_ns(gdev, g->start_cycle);
	args->end_ns = gputbs_cycles_to_ns(gdev, g->end_cycle);
	args->blocks_done = g->blocks_done;
	args->residency = g->occ.residency;
	/* stable: the core set it before gputbs_grid_done() */
	return g->state == GTBS_GRID_TIMED_OUT ? -ETIMEDOUT : 0;
}

/*
 * Time left until the absolute CLOCK_MONOTONIC @deadline_ns, or 0 if it
 * passed.  Compared before subtracting: any s64 deadline is valid input,
 * and S64_MIN - now must not wrap into a deadline centuries away.
 */
static s64 gputbs_time_left(s64 deadline_ns)
{
	s64 now = ktime_get_ns();

	return deadline_ns > now ? deadline_ns - now : 0;
}

/* @grid ended, or was cancelled with its submitter's hold on the file. */
static bool gputbs_grid_settled(const struct gputbs_grid *grid)
{
	return READ_ONCE(grid->done) || READ_ONCE(grid->gone);
}

/*
 * Sleep until @grid settles or the absolute deadline.  0 (done), -ENOENT
 * (cancelled, gputbs_flush()), -ETIME or -ERESTARTSYS.
 */
static int gputbs_wait_until(struct gputbs_client *client,
			     struct gputbs_grid *grid, s64 deadline_ns)
{
	s64 left = gputbs_time_left(deadline_ns);
	long ret = 0;

	if (!gputbs_grid_settled(grid)) {
		if (!left)
			return -ETIME;
		ret = wait_event_interruptible_hrtimeout(client->wq,
							 gputbs_grid_settled(grid),
							 ns_to_ktime(left));
	}
	if (!ret && !READ_ONCE(grid->done))
		ret = -ENOENT;
	return ret;
}

static bool gputbs_client_has_done(struct gputbs_client *client)
{
	return !list_empty_careful(&client->done);
}

/* %GPUTBS_WAIT_ANY: reap the first completed grid of the file. */
static long gputbs_wait_any(struct gputbs_client *client,
			    struct gputbs_wait *args)
{
	struct gputbs_grid *grid;
	ktime_t left;
	int ret;

	for (;;) {
		grid = gputbs_grid_get_done(client);
		if (grid) {
			ret = gputbs_grid_reap(client, grid, args);
			gputbs_grid_put(grid);
			if (ret != -ENOENT)	/* 0 or -ETIMEDOUT: reaped */
				return ret;
			continue;	/* a concurrent waiter reaped it */
		}
		if (!atomic_read(&client->nr_grids))
			return -ENOENT;
		left = ns_to_ktime(gputbs_time_left(args->timeout_ns));
		if (!left)
			return -ETIME;
		ret = wait_event_interruptible_hrtimeout(client->wq,
							 gputbs_client_has_done(client),
							 left);
		if (ret)
			return ret;
	}
}

static long gputbs_ioctl_wait(struct gputbs_client *client, void *data,
			      unsigned int size)
{
	struct gputbs_wait *args = data;
	struct gputbs_grid *grid;
	int ret;

	if (args->flags & ~GPUTBS_WAIT_ANY)
		return -EINVAL;
	if (args->flags & GPUTBS_WAIT_ANY)
		return gputbs_wait_any(client, args);
	grid = gputbs_grid_get(client, args->handle);
	if (!grid)
		return -ENOENT;
	ret = gputbs_wait_until(client, grid, args->timeout_ns);
	if (!ret)
		ret = gputbs_grid_reap(client, grid, args);
	gputbs_grid_put_ioctl(client, grid);
	return ret;
}

/*
 * %GPUTBS_IOCTL_BLOCKS: copy the records of a completed grid.  The records
 * are read without the device lock: once the grid is seen done under the
 * lock, nothing writes them any more, and the reference keeps them.
 */
static long gputbs_ioctl_blocks(struct gputbs_client *client, void *data,
				unsigned int size)
{
	struct gputbs_device *gdev = client->gdev;
	struct gputbs_blocks *args = data;
	struct gputbs_grid *grid;
	u32 total, n;
	bool done;
	int ret = 0;

	if (args->flags || args->pad)
		return -EINVAL;
	grid = gputbs_grid_get(client, args->handle);
	if (!grid)
		return -ENOENT;
	if (!grid->records) {
		ret = -ENODATA;
		goto out;
	}
	spin_lock(&gdev->lock);
	done = grid->done;
	total = grid->nr_records;
	spin_unlock(&gdev->lock);
	if (!done) {
		ret = -EBUSY;
		goto out;
	}
	n = min(args->nr_records, total);
	if (n && copy_to_user(u64_to_user_ptr(args->records_ptr), grid->records,
			      array_size(n, sizeof(*grid->records)))) {
		ret = -EFAULT;
		goto out;
	}
	args->nr_records = total;
out:
	gputbs_grid_put_ioctl(client, grid);
	return ret;
}

static __poll_t gputbs_poll(struct file *file, poll_table *wait)
{
	struct gputbs_client *client = file->private_data;

	poll_wait(file, &client->wq, wait);
	return gputbs_client_has_done(client) ? EPOLLIN | EPOLLRDNORM : 0;
}

/**
 * struct gputbs_ioctl_desc - one ioctl of the ABI
 * @cmd: the command with the kernel's struct size.
 * @old_sizes: the struct's sizes before it grew, also accepted; 0 ends
 *	the list.
 * @out_err: besides success, the error after which the outputs are
 *	copied back too (WAIT's -ETIMEDOUT: the grid was reaped), or 0.
 * @err_out_size: a command of at least this size also gets the struct
 *	copied back after the errors of @err_out (SUBMIT's error detail,
 *	%GPUTBS_FEATURE_ERROR_DETAIL), or 0.
 * @err_out: whether an error is one whose detail is copied back.
 * @func: handler; gets a zero-extended kernel copy of the argument and
 *	the size userspace passed (_IOC_SIZE() of its command).
 */
struct gputbs_ioctl_desc {
	unsigned int cmd;
	unsigned int old_sizes[4];
	int out_err;
	unsigned int err_out_size;
	bool (*err_out)(long ret);
	long (*func)(struct gputbs_client *client, void *data,
		     unsigned int size);
};

static const struct gputbs_ioctl_desc gputbs_ioctls[] = {
	[0x00] = { GPUTBS_IOCTL_INFO, {}, 0, 0, NULL, gputbs_ioctl_info },
	[0x01] = { GPUTBS_IOCTL_SUBMIT,
		   { GPUTBS_SUBMIT_SIZE_VER0, GPUTBS_SUBMIT_SIZE_VER1,
		     GPUTBS_SUBMIT_SIZE_VER2, GPUTBS_SUBMIT_SIZE_VER3 }, 0,
		   GPUTBS_SUBMIT_SIZE_VER4, gputbs_submit_err_out,
		   gputbs_ioctl_submit },
	[0x02] = { GPUTBS_IOCTL_WAIT, {}, -ETIMEDOUT, 0, NULL,
		   gputbs_ioctl_wait },
	[0x03] = { GPUTBS_IOCTL_BLOCKS, {}, 0, 0, NULL, gputbs_ioctl_blocks },
};

/* Whether userspace's struct size @usize is one the command accepts. */
static bool gputbs_ioctl_size_ok(const struct gputbs_ioctl_desc *desc,
				 unsigned int usize)
{
	unsigned int i;

	if (usize == _IOC_SIZE(desc->cmd))
		return true;
	for (i = 0; i < ARRAY_SIZE(desc->old_sizes) && desc->old_sizes[i]; i++)
		if (usize == desc->old_sizes[i])
			return true;
	return false;
}

/* Largest argument struct: the on-stack buffer every handler gets. */
union gputbs_ioctl_arg {
	struct gputbs_info info;
	struct gputbs_submit submit;
	struct gputbs_wait wait;
	struct gputbs_blocks blocks;
};

/*
 * Table-driven dispatch in the style of drm_ioctl(): the handler works on a
 * zeroed kernel copy, so nothing of the kernel stack reaches userspace.
 * A command whose type, number, direction or size the module does not know
 * is -ENOTTY.  A struct that grew is also accepted at its older sizes
 * (&gputbs_ioctl_desc.old_sizes): the copy is zero-extended, and only
 * the size userspace passed is copied back.
 */
static long gputbs_ioctl(struct file *file, unsigned int cmd,
			 unsigned long arg)
{
	struct gputbs_client *client = file->private_data;
	const struct gputbs_ioctl_desc *desc;
	void __user *uarg = (void __user *)arg;
	union gputbs_ioctl_arg data;
	unsigned int nr = _IOC_NR(cmd), usize = _IOC_SIZE(cmd);

	long ret;

	if (_IOC_TYPE(cmd) != GPUTBS_IOCTL_BASE || nr >= ARRAY_SIZE(gputbs_ioctls))
		return -ENOTTY;
	desc = &gputbs_ioctls[nr];
	if (!desc->func || _IOC_DIR(cmd) != _IOC_DIR(desc->cmd))
		return -ENOTTY;
	if (!gputbs_ioctl_size_ok(desc, usize))
		return -ENOTTY;

	BUILD_BUG_ON(sizeof(struct gputbs_submit) != GPUTBS_SUBMIT_SIZE_VER4);
	BUILD_BUG_ON(offsetofend(struct gputbs_submit, startup_blocks) !=
		     GPUTBS_SUBMIT_SIZE_VER3);
	BUILD_BUG_ON(offsetofend(struct gputbs_submit, timeout_cycles) !=
		     GPUTBS_SUBMIT_SIZE_VER2);
	BUILD_BUG_ON(offsetofend(struct gputbs_submit, arrival_cycle) !=
		     GPUTBS_SUBMIT_SIZE_VER1);
	BUILD_BUG_ON(offsetofend(struct gputbs_submit, prio_class) !=
		     GPUTBS_SUBMIT_SIZE_VER0);
	memset(&data, 0, sizeof(data));
	if ((_IOC_DIR(cmd) & _IOC_WRITE) && copy_from_user(&data, uarg, usize))
		return -EFAULT;
	ret = desc->func(client, &data, usize);
	if (ret == -ERESTARTSYS && nr != _IOC_NR(GPUTBS_IOCTL_WAIT))
		ret = -EINTR;
	if ((_IOC_DIR(cmd) & _IOC_READ) &&
	    (!ret || ret == desc->out_err ||
	     (desc->err_out_size && usize >= desc->err_out_size &&
	      desc->err_out(ret))) &&
	    copy_to_user(uarg, &data, usize))
		return -EFAULT;
	return ret;
}

/*
 * Per-client accounting in the style of the DRM usage stats
 * (Documentation/gpu/drm-usage-stats.rst; Documentation/userspace-api.rst
 * of gputbs): the counters are copied under the device lock, then printed.
 */
static void gputbs_show_fdinfo(struct seq_file *m, struct file *file)
{
	static const char * const kinds[] = {
		GTBS_TENANT_KIND_NAMES(GPUTBS_TENANT_KIND_)
	};
	struct gputbs_client *client = file->private_data;
	struct gputbs_device *gdev = client->gdev;
	struct gputbs_client_stats st;
	struct gputbs_tenant_info ti;
	u64 busy_ns, now;
	u32 nr_sms;

	spin_lock(&gdev->lock);
	st = client->stats;
	nr_sms = gdev->core.cfg.nr_sms;
	now = gputbs_now_cycles(gdev);
	busy_ns = gputbs_obs_busy_ns(gdev, &st);
	gputbs_tenant_info_of(gdev, client->tenant, &ti);
	spin_unlock(&gdev->lock);

	seq_puts(m, "drm-driver:\tgputbs\n");
	seq_printf(m, "drm-client-id:\t%llu\n", st.id);
	seq_printf(m, "drm-engine-sm:\t%llu ns\n", busy_ns);
	seq_printf(m, "drm-engine-capacity-sm:\t%u\n", nr_sms);
	seq_printf(m, "drm-cycles-sm:\t%llu\n", st.busy_cycles);
	seq_printf(m, "drm-total-cycles-sm:\t%llu\n", now);
	seq_printf(m, "drm-gputbs-grids-submitted:\t%llu\n",
		   st.grids_submitted);
	seq_printf(m, "drm-gputbs-grids-completed:\t%llu\n",
		   st.grids_completed);
	seq_printf(m, "drm-gputbs-blocks-completed:\t%llu\n",
		   st.blocks_completed);
	seq_printf(m, "drm-gputbs-blocks-preempted:\t%llu\n",
		   st.blocks_preempted);
	seq_printf(m, "drm-gputbs-save-cycles:\t%llu\n", st.save_cycles);
	seq_printf(m, "drm-gputbs-restore-cycles:\t%llu\n", st.restore_cycles);
	/* the tenant of the file's last grid (the device's before any) */
	seq_printf(m, "drm-gputbs-tenant:\t%s %llu\n", kinds[ti.kind], ti.id);
	seq_printf(m, "drm-gputbs-tenant-weight:\t%u\n", ti.weight);
	seq_printf(m, "drm-gputbs-tenant-max-ppm:\t%u\n", ti.max_ppm);
	seq_printf(m, "drm-gputbs-tenant-sm-cycles:\t%llu\n",
		   div_u64(ti.sm_time, GTBS_SM_TIME_SCALE));
	seq_printf(m, "drm-gputbs-tenant-throttled-cycles:\t%llu\n",
		   ti.throttled_cycles);
	seq_printf(m, "drm-gputbs-tenant-throttles:\t%llu\n", ti.throttles);
}

/* File operations of /dev/gputbs. */
const struct file_operations gputbs_fops = {
	.owner = THIS_MODULE,
	.open = gputbs_open,
	.flush = gputbs_flush,
	.release = gputbs_release,
	.unlocked_ioctl = gputbs_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.poll = gputbs_poll,
	.show_fdinfo = gputbs_show_fdinfo,
};
