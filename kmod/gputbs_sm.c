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
 * time_scale_ps / 1000.  Each SM has a kthread and an hrtimer armed for
 * the absolute time of the SM's next block completion.  When the timer
 * fires it wakes the thread, which runs the whole device up to the current
 * cycle and re-arms every SM's timer whose next completion moved::
 *
 *          +---------------------------------------------------+
 *          v                                                   |
 *   sleep (TASK_IDLE) until the SM's hrtimer fires             |
 *          |                                                   |
 *   lock; gtbs_dev_run_until(now); re-arm moved timers; unlock -+
 *
 * Submissions and cancellations run the device the same way in the ioctl
 * (gputbs_dev_sync()), so a new grid's blocks issue at its arrival without
 * waking any thread, and only the SMs with an event due ever wake.  A grid
 * submitted for a later cycle (%GPUTBS_SUBMIT_AT_CYCLE) is an event too:
 * SM 0's timer is armed for the earlier of its own next completion and the
 * device's next deferred arrival (gtbs_dev_next_arrival()), and the run
 * that timer triggers makes the grid arrive at its cycle and issues its
 * blocks on every SM.
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
#include <linux/minmax.h>
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
 * Return: ns, the first nanosecond at which gputbs_now_cycles() reaches
 * @cycles; U64_MAX for U64_MAX.
 */
u64 gputbs_cycles_to_ns(const struct gputbs_device *gdev, u64 cycles)
{
	u64 ns;

	if (cycles == U64_MAX)
		return U64_MAX;
	/*
	 * Round up, so that gputbs_now_cycles() at this time is at least
	 * @cycles: a timer armed for a cycle must find the cycle due.
	 */
	ns = mul_u64_u32_div(cycles, gdev->time_scale_ps, 1000);
	if (mul_u64_u32_div(ns, 1000, gdev->time_scale_ps) < cycles)
		ns++;
	return gdev->epoch_ns + ns;
}

/* The SM's timer fired: its next completion is due.  Hard irq context. */
static enum hrtimer_restart gputbs_sm_timer_fn(struct hrtimer *timer)
{
	struct gputbs_sm_thread *t = container_of(timer, struct gputbs_sm_thread,
						  timer);

	WRITE_ONCE(t->woken, true);
	wake_up_process(t->task);
	return HRTIMER_NORESTART;
}

/*
 * Arm each SM's timer for the SM's next completion, wherever it moved (a
 * block was issued on it or retired by another thread), so that exactly
 * the SM that has an event due wakes; SM 0's also for the device's next
 * deferred arrival, if that comes first, so that a grid submitted for a
 * later cycle arrives even on an idle device.  No thread is woken from
 * here.  Called with the device lock held.
 */
static void gputbs_sm_rearm(struct gputbs_device *gdev)
{
	u32 i;

	for (i = 0; i < gdev->core.cfg.nr_sms; i++) {
		struct gputbs_sm_thread *t = &gdev->threads[i];
		u64 next = gtbs_sm_next_event(&gdev->core, t->sm);

		if (i == 0)
			next = min(next, gtbs_dev_next_arrival(&gdev->core));

		if (next == t->deadline)
			continue;
		t->deadline = next;
		if (next == U64_MAX)
			hrtimer_try_to_cancel(&t->timer);
		else
			hrtimer_start(&t->timer,
				      ns_to_ktime(gputbs_cycles_to_ns(gdev, next)),
				      HRTIMER_MODE_ABS);
	}
}

/**
 * gputbs_dev_sync() - run the device up to the current emulated cycle
 * @gdev: the device.
 *
 * Processes every event due by now in cycle order (including deferred
 * arrivals and the kicks of a grid that just arrived or ended, so its
 * blocks issue at once) and re-arms the SM timers, SM 0's also for the
 * next deferred arrival.  Called by the SM threads when their timer fires,
 * and around every submission and cancellation, so that a change happens
 * after every event that precedes it: no block of a new grid can start
 * before its arrival, however late the SM threads run.
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

	for (;;) {
		set_current_state(TASK_IDLE);
		if (kthread_should_stop())
			break;
		if (!READ_ONCE(t->woken))
			schedule();
		__set_current_state(TASK_RUNNING);
		WRITE_ONCE(t->woken, false);
		spin_lock(&gdev->lock);
		gputbs_dev_sync(gdev);
		spin_unlock(&gdev->lock);
	}
	__set_current_state(TASK_RUNNING);
	return 0;
}

/**
 * gputbs_sm_threads_create() - create and start kthreads for a set of SMs
 * @gdev: the device the threads run.
 * @threads: @nr zeroed entries.
 * @sms: the @nr SMs they run.
 * @nr: the number of SMs.
 *
 * The threads sleep until their timer fires, which only happens once
 * @threads is &gputbs_device.threads (gputbs_sm_rearm() arms them): so a
 * new set can be started before it replaces the old one
 * (gputbs_reconfigure()).
 *
 * Context: process context, may sleep.
 * Return: 0, or the kthread_run() error (threads started so far are
 * stopped).
 */
int gputbs_sm_threads_create(struct gputbs_device *gdev,
			     struct gputbs_sm_thread *threads,
			     struct gtbs_sm **sms, u32 nr)
{
	u32 i;

	for (i = 0; i < nr; i++) {
		struct gputbs_sm_thread *t = &threads[i];
		struct task_struct *task;

		t->gdev = gdev;
		t->deadline = U64_MAX;
		t->sm = sms[i];
		hrtimer_init(&t->timer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS);
		t->timer.function = gputbs_sm_timer_fn;
		task = kthread_run(gputbs_sm_thread_fn, t, "gputbs/sm%u", i);
		if (IS_ERR(task)) {
			gputbs_sm_threads_destroy(threads, nr);
			return PTR_ERR(task);
		}
		spin_lock(&gdev->lock);
		t->task = task;
		spin_unlock(&gdev->lock);
	}
	return 0;
}

/**
 * gputbs_sm_threads_destroy() - stop every kthread of a set that started
 * @threads: @nr entries from gputbs_sm_threads_create().
 * @nr: the number of entries.
 *
 * Context: process context; no grid is queued, so no timer of @threads is
 * re-armed meanwhile (a timer that fires late only runs the device once
 * more, harmlessly).
 */
void gputbs_sm_threads_destroy(struct gputbs_sm_thread *threads, u32 nr)
{
	u32 i;

	for (i = 0; i < nr; i++) {
		struct gputbs_sm_thread *t = &threads[i];

		if (!t->task)	/* never started: its timer is not set up */
			continue;
		hrtimer_cancel(&t->timer);
		kthread_stop(t->task);
		t->task = NULL;
	}
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
	return gputbs_sm_threads_create(gdev, gdev->threads, gdev->sms,
					gdev->core.cfg.nr_sms);
}

/**
 * gputbs_sm_threads_stop() - stop every SM kthread that was started
 * @gdev: the device.
 *
 * Context: process context, module init or exit; no grid is queued and
 * /dev/gputbs is not registered, so nothing re-arms the timers.
 */
void gputbs_sm_threads_stop(struct gputbs_device *gdev)
{
	gputbs_sm_threads_destroy(gdev->threads, gdev->core.cfg.nr_sms);
}
