// SPDX-License-Identifier: GPL-2.0
/*
 * gputbs_isolation.c - the emulator's capacity, charged to users.
 *
 * Copyright (C) 2026 The gputbs developers
 */

/**
 * DOC: Wall-clock isolation of users
 *
 * The emulator processes block events (a block's end, with the blocks its
 * SM then issues) at a finite rate on the host's CPUs.  A workload whose
 * events come faster than that (a million one-cycle blocks at 1 us per
 * cycle: 120 block ends per emulated microsecond) makes the device fall
 * behind the wall clock, and since the core takes every event in cycle
 * order, a grid that another user submits now arrives only once the
 * device has worked through everything due before it: one user's backlog
 * would delay every other user's grids without bound.  So the events are
 * a resource like grids and bytes, charged to the user of the grid whose
 * block ended (&gputbs_charge.user), and bounded as CFS bandwidth control
 * bounds a group's CPU time:
 *
 * * A *window* runs from the last time the device kept up with the wall
 *   clock (a slice that reached the current cycle) until the next; each
 *   user's block events in the window are counted (&gputbs_user_isol).
 * * When the device lags the wall clock (the oldest event still due is
 *   older) by more than max_lag_ns (sysfs;
 *   100 ms by default, 0 turns isolation off), every user holding grids
 *   whose events in the window exceed a fair share of them (1/n with n
 *   users holding grids) is *throttled*: its grids, those that arrive
 *   while it is throttled included, issue no block
 *   (gtbs_grid_throttle(), %GTBS_THROTTLE_OWNER) while their resident
 *   blocks run on.  The check runs after every slice that left the device
 *   behind, at most once per %GPUTBS_ISOL_SCAN_NS of wall time.
 * * With no block of theirs to issue, the device catches up at once
 *   (idle cycles cost nothing); when a slice reaches the current cycle
 *   the throttles are lifted (gtbs_dev_unthrottle()) and a new window
 *   starts.
 *
 * A user alone on the device is never throttled (its share is the fair
 * one): it delays nobody, and its schedule stays exactly the simulator's
 * however far behind the device is.  Nor is any workload the device keeps
 * up with: emulated results change only while the device lags by more
 * than max_lag_ns with two or more users holding grids.  The state
 * machine of the device::
 *
 *   keeping up --lag > max_lag_ns, >= 2 users--> throttling the users
 *        ^                                       above 1/n of the window
 *        +------- a slice reaches the current cycle: lift all <---+
 *
 * The bound it gives and its derivation are in
 * Documentation/reliability.rst, "The emulator's capacity".
 */
#include <linux/ktime.h>
#include <linux/lockdep.h>
#include <linux/math64.h>

#include "gputbs_drv.h"

/* One user's check: throttle it if it took more than 1/n of the window. */
static bool gputbs_isol_user_over(struct gputbs_user_isol *ui, u32 nr_users,
				  void *arg)
{
	const struct gputbs_isol *isol = arg;

	if (ui->throttled || ui->epoch != isol->epoch)
		return false;
	/* events * n > total, as u64: both are below 2^58 */
	if (ui->events * nr_users <= isol->events)
		return false;
	ui->throttled = true;
	ui->throttles++;
	return true;
}

static bool gputbs_isol_user_lift(struct gputbs_user_isol *ui, u32 nr_users,
				  void *arg)
{
	bool was = ui->throttled;

	ui->throttled = false;
	return was;
}

/* Throttle every grid on the device whose user is throttled.  Lock held. */
static void gputbs_isol_throttle_grids(struct gputbs_device *gdev)
{
	struct gtbs_dev *core = &gdev->core;
	struct gtbs_grid *cg;

	list_for_each_entry(cg, &core->grids, node) {
		struct gputbs_grid *grid = cg->priv;

		if (grid->charge.user &&
		    gputbs_user_isol(grid->charge.user)->throttled)
			gtbs_grid_throttle(core, cg, GTBS_THROTTLE_OWNER,
					   core->clock);
	}
}

/*
 * Lift every throttle.  Returns the grids that went back onto the pending
 * list, whose blocks are due at the device's clock.  Lock held.
 */
static u32 gputbs_isol_lift(struct gputbs_device *gdev, u64 now_ns)
{
	struct gputbs_isol *isol = &gdev->isol;

	lockdep_assert_held(&gdev->lock);
	gputbs_users_isol_scan(gputbs_isol_user_lift, isol);
	isol->throttled_ns += now_ns - isol->since_ns;
	isol->throttling = false;
	isol->lifts++;
	return gtbs_dev_unthrottle(&gdev->core, GTBS_THROTTLE_OWNER,
				   gdev->core.clock);
}

/**
 * gputbs_isol_check() - after a slice: start a window, throttle or lift
 * @gdev: the device.
 * @done: the slice reached the current cycle (the device keeps up).
 *
 * See the DOC above.  O(1) when the device keeps up or lags less than
 * max_lag_ns; a check that throttles is O(users + grids), at most once
 * per %GPUTBS_ISOL_SCAN_NS; lifting is O(users + grids).
 *
 * Context: &gputbs_device.lock held (after gtbs_dev_run_bounded()).
 * Return: true when it gave the device work due at its clock (grids back
 * on the pending list, whose SMs are kicked there): the caller's slice is
 * then not done, and the device must be run again before it sleeps.
 */
bool gputbs_isol_check(struct gputbs_device *gdev, bool done)
{
	struct gputbs_isol *isol = &gdev->isol;
	u64 now_ns = ktime_get_ns(), next_ns, lag_ns;
	u32 n;

	lockdep_assert_held(&gdev->lock);
	if (done) {
		isol->epoch++;
		isol->events = 0;
		return isol->throttling && gputbs_isol_lift(gdev, now_ns);
	}
	/*
	 * The lag is the age of the oldest event still due, not of the
	 * clock: a slice that stopped for a refill of spare pairs before
	 * the first event after a long idle period is not behind.
	 */
	next_ns = gputbs_cycles_to_ns(gdev, gtbs_dev_next_event(&gdev->core));
	lag_ns = now_ns > next_ns ? now_ns - next_ns : 0;
	isol->max_lag_seen_ns = max(isol->max_lag_seen_ns, lag_ns);
	if (!isol->max_lag_ns || lag_ns <= isol->max_lag_ns ||
	    now_ns - isol->last_scan_ns < GPUTBS_ISOL_SCAN_NS)
		return false;
	isol->last_scan_ns = now_ns;
	n = gputbs_users_isol_scan(gputbs_isol_user_over, isol);
	if (!n)
		return false;
	isol->throttles += n;
	if (!isol->throttling) {
		isol->throttling = true;
		isol->since_ns = now_ns;
	}
	gputbs_isol_throttle_grids(gdev);
	return false;
}

/**
 * gputbs_isol_set_max_lag() - set max_lag_ns
 * @gdev: the device.
 * @ns: the lag past which users above their fair share are throttled,
 *	wall-clock ns, 0..%GPUTBS_MAX_LAG_NS_MAX; 0 turns isolation off (and
 *	lifts every throttle).
 *
 * Context: &gputbs_device.lock held; runs one slice (gputbs_dev_sync())
 * when grids went back onto the pending list.
 */
void gputbs_isol_set_max_lag(struct gputbs_device *gdev, u64 ns)
{
	lockdep_assert_held(&gdev->lock);
	gdev->isol.max_lag_ns = ns;
	if (!ns && gdev->isol.throttling && gputbs_isol_lift(gdev, ktime_get_ns()))
		gputbs_dev_sync(gdev);
}

/**
 * gputbs_isol_block_end() - charge one block event to its grid's user
 * @gdev: the device.
 * @grid: the grid whose block ended (or was preempted).
 *
 * Context: &gputbs_device.lock held, from the core's backend ops; @grid
 * is charged (its user lives at least as long as it).
 */
void gputbs_isol_block_end(struct gputbs_device *gdev,
			   struct gputbs_grid *grid)
{
	struct gputbs_isol *isol = &gdev->isol;
	struct gputbs_user_isol *ui;

	if (!grid->charge.user)
		return;
	ui = gputbs_user_isol(grid->charge.user);
	if (ui->epoch != isol->epoch) {
		ui->epoch = isol->epoch;
		ui->events = 0;
	}
	ui->events++;
	ui->total_events++;
	isol->events++;
}

/**
 * gputbs_isol_grid_arrive() - &gtbs_backend_ops.grid_arrive of the module:
 *	a grid of a throttled user arrives throttled
 * @core: the device's core.
 * @cg: the arriving grid.
 *
 * Context: &gputbs_device.lock held.
 */
void gputbs_isol_grid_arrive(struct gtbs_dev *core, struct gtbs_grid *cg)
{
	struct gputbs_grid *grid = cg->priv;

	if (grid->charge.user && gputbs_user_isol(grid->charge.user)->throttled)
		cg->throttle |= GTBS_THROTTLE_OWNER;
}
