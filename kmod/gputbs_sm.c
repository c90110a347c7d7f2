// SPDX-License-Identifier: GPL-2.0
/*
 * gputbs_sm.c - one kthread per emulated SM, and the emulated clock.
 *
 * Copyright (C) 2026 The gputbs developers
 */

/**
 * DOC: SM kthreads
 *
 * Emulated cycle c happens at CLOCK_MONOTONIC time epoch_ns + c *
 * time_scale_ps / 1000.  Each SM's kthread owns the SM's timer: it sleeps
 * until the absolute time of the SM's next block completion, or until
 * kicked (a grid arrived or ended), then runs the whole device up to the
 * current cycle::
 *
 *            +-----------------------------------------------------+
 *            v                                                     |
 *   sleep until the SM's next completion (absolute hrtimer)        |
 *   or a kick                                                      |
 *            |                                                     |
 *   lock; gtbs_dev_run_until(now); re-arm SMs whose next           |
 *   completion moved earlier; unlock ------------------------------+
 *
 * gtbs_dev_run_until() takes every SM's events in global cycle order, each
 * at the cycle it was due, whichever thread runs it and however late it
 * woke: timer and wake-up lateness delay when a result becomes visible but
 * never change the schedule or emulated times, and never accumulate.  The
 * thread sleeps in TASK_IDLE, so it neither counts in the load average nor
 * trips the hung task detector.
 */
#include <linux/hrtimer.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/sched.h>
#include <linux/slab.h>

#include "gputbs_drv.h"

/**
 * gputbs_now_cycles() - the emulated clock
 * @gdev: the device.
 *
 * Context: any.
 * Return: emulated cycles since the device's epoch.
 */
u64 gputbs_now_cycles(const struct gputbs_device *gdev)
{
	u64 ns = ktime_get_ns() - gdev->epoch_ns;

	return mul_u64_u32_div(ns, 1000, gdev->time_scale_ps);
}

/**
 * gputbs_cycles_to_ns() - CLOCK_MONOTONIC time of an emulated cycle
 * @gdev: the device.
 * @cycles: emulated cycle.
 *
 * Context: any.
 * Return: ns, saturated at U64_MAX for U64_MAX.
 */
u64 gputbs_cycles_to_ns(const struct gputbs_device *gdev, u64 cycles)
{
	if (cycles == U64_MAX)
		return U64_MAX;
	return gdev->epoch_ns + mul_u64_u32_div(cycles, gdev->time_scale_ps,
						1000);
}

/**
 * gputbs_sm_kick() - make an SM's kthread re-evaluate its SM
 * @gdev: the device.
 * @sm: the SM.
 *
 * The core's &gtbs_backend_ops.kick.
 *
 * Context: &gputbs_device.lock held (any context that may wake a task).
 */
void gputbs_sm_kick(struct gputbs_device *gdev, struct gtbs_sm *sm)
{
	struct gputbs_sm_thread *t = &gdev->threads[sm->id];

	WRITE_ONCE(t->kicked, true);
	if (t->task)
		wake_up_process(t->task);
}

static void gputbs_sm_sleep(struct gputbs_sm_thread *t)
{
	u64 deadline;
	ktime_t expires;

	set_current_state(TASK_IDLE);
	if (READ_ONCE(t->kicked) || kthread_should_stop()) {
		__set_current_state(TASK_RUNNING);
		return;
	}
	deadline = READ_ONCE(t->deadline);
	if (deadline == U64_MAX) {
		schedule();
	} else {
		expires = ns_to_ktime(gputbs_cycles_to_ns(t->gdev, deadline));
		schedule_hrtimeout_range(&expires, 0, HRTIMER_MODE_ABS);
	}
	__set_current_state(TASK_RUNNING);
}

/*
 * After the device ran, an SM may have a completion earlier than the
 * deadline its thread sleeps until (it was given a block by another SM's
 * thread): move the deadline and wake the thread to re-arm its timer.
 * Called with the device lock held.
 */
static void gputbs_sm_rearm(struct gputbs_device *gdev)
{
	u32 i;

	for (i = 0; i < gdev->core.cfg.nr_sms; i++) {
		struct gputbs_sm_thread *t = &gdev->threads[i];
		u64 next = gtbs_sm_next_event(&gdev->core, t->sm);

		if (next < t->deadline && t->task != current) {
			WRITE_ONCE(t->deadline, next);
			WRITE_ONCE(t->kicked, true);
			if (t->task)
				wake_up_process(t->task);
		}
	}
}

/**
 * gputbs_dev_sync() - run the device up to the current emulated cycle
 * @gdev: the device.
 *
 * Processes every event due by now, in cycle order, and re-arms the SM
 * threads whose next completion moved earlier.  Called before a grid is
 * submitted or cancelled, so that the change happens after every event
 * that precedes it (no block of a new grid can start before its arrival,
 * however late the SM threads run).
 *
 * Context: &gputbs_device.lock held.
 * Return: the current emulated cycle.
 */
u64 gputbs_dev_sync(struct gputbs_device *gdev)
{
	u64 now = gputbs_now_cycles(gdev);

	gtbs_dev_run_until(&gdev->core, now);
	gputbs_sm_rearm(gdev);
	return now;
}

static int gputbs_sm_thread_fn(void *arg)
{
	struct gputbs_sm_thread *t = arg;
	struct gputbs_device *gdev = t->gdev;

	while (!kthread_should_stop()) {
		gputbs_sm_sleep(t);
		WRITE_ONCE(t->kicked, false);
		spin_lock(&gdev->lock);
		gputbs_dev_sync(gdev);
		WRITE_ONCE(t->deadline, gtbs_sm_next_event(&gdev->core, t->sm));
		spin_unlock(&gdev->lock);
	}
	return 0;
}

/**
 * gputbs_sm_threads_start() - create and start one kthread per SM
 * @gdev: the device, with &gputbs_device.threads allocated.
 *
 * Context: process context, module init.
 * Return: 0, or the kthread_run() error (threads started so far are
 * stopped).
 */
int gputbs_sm_threads_start(struct gputbs_device *gdev)
{
	u32 i;

	for (i = 0; i < gdev->core.cfg.nr_sms; i++) {
		struct gputbs_sm_thread *t = &gdev->threads[i];
		struct task_struct *task;

		t->gdev = gdev;
		t->deadline = U64_MAX;
		t->sm = gdev->sms[i];
		task = kthread_run(gputbs_sm_thread_fn, t, "gputbs/sm%u", i);
		if (IS_ERR(task)) {
			gputbs_sm_threads_stop(gdev);
			return PTR_ERR(task);
		}
		spin_lock(&gdev->lock);
		t->task = task;
		spin_unlock(&gdev->lock);
	}
	return 0;
}

/**
 * gputbs_sm_threads_stop() - stop every SM kthread that was started
 * @gdev: the device.
 *
 * Context: process context, module exit; no grid is queued.
 */
void gputbs_sm_threads_stop(struct gputbs_device *gdev)
{
	u32 i;

	for (i = 0; i < gdev->core.cfg.nr_sms; i++) {
		struct task_struct *task;

		spin_lock(&gdev->lock);
		task = gdev->threads[i].task;
		gdev->threads[i].task = NULL;
		spin_unlock(&gdev->lock);
		if (task)
			kthread_stop(task);
	}
}
