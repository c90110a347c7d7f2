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
 *          +-------------------------------------------------------+
 *          v                                                       |
 *   sleep (TASK_IDLE) until the SM's hrtimer fires                 |
 *          |                                                       |
 *   lock; gtbs_dev_run_bounded(now, GPUTBS_SYNC_BUDGET); unlock <-+ |
 *          |                                                    | |
 *          +-- events due remain: cond_resched() ----------------+ |
 *          +-- caught up (timers re-armed) --------------------------+
 *
 * Bounded lock holds: one hold processes at most %GPUTBS_SYNC_BUDGET
 * events (a block completion with the blocks its SM then issues, an
 * arrival, a kick or a job timeout), whatever the workload.  A workload
 * whose events come faster than the emulator processes them (a million
 * one-cycle blocks at 1 us per cycle: 120 block ends per emulated
 * microsecond) makes the device fall behind the wall clock: the kthread
 * catches up slice by slice, SUBMIT queues its grid at the cycle of the
 * call (a deferred arrival, gtbs_grid_submit_at()) without waiting for the
 * backlog, readers see the device as far as it got (&gtbs_dev.clock), and
 * the emulated schedule stays exactly the one the simulator computes.
 *
 * Submissions and cancellations run the device the same way in the ioctl
 * (gputbs_dev_sync()), so a new grid's blocks issue at its arrival without
 * waking any thread, and only the SMs with an event due ever wake.  A grid
 * submitted for a later cycle (%GPUTBS_SUBMIT_AT_CYCLE) is an event too:
 * SM 0's timer is armed for the earlier of its own next completion and the
 * device's next deferred arrival (gtbs_dev_next_arrival()), and the run
 * that timer triggers makes the grid arrive at its cycle and issues its
 * blocks on every SM.  Job timeouts (gtbs_dev_next_expiry()) and the
 * refills of tenants throttled by their cap (gtbs_dev_next_refill(),
 * sm-emu/tenant.c) arm it the same way.
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
#include <linux/lockdep.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/overflow.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
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

/**
 * gputbs_ns_to_cycles() - emulated cycles in a span of emulated time
 * @gdev: the device.
 * @ns: wall-clock ns of emulated time at the device's time scale.
 * @cycles: out: @ns in emulated cycles, rounded up.
 *
 * For tunables kept in ns (starve_ns, timeout_ns) that the core needs in
 * cycles; gputbs_reconfigure() converts them again at a new time scale.
 *
 * Context: any; the caller keeps the time scale stable
 * (&gputbs_device.lock, or &gputbs_device.cfg_lock with no file open).
 * Return: 0, or -ERANGE when @ns * 1000 overflows (nothing stored).
 */
int gputbs_ns_to_cycles(const struct gputbs_device *gdev, u64 ns, u64 *cycles)
{
	u64 ps;
	u32 rem;

	if (check_mul_overflow(ns, 1000ULL, &ps))
		return -ERANGE;
	*cycles = div_u64_rem(ps, gdev->time_scale_ps, &rem);
	if (rem)
		(*cycles)++;
	return 0;
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
 * Arm SM @i's timer for the SM's next completion, wherever it moved (a
 * block was issued on it or retired by another thread), so that exactly
 * the SM that has an event due wakes; SM 0's also for the device's next
 * deferred arrival or job timeout, if that comes first, so that a grid
 * submitted for a later cycle arrives, and a grid past its timeout stops,
 * even on an idle device.  No thread is woken from here.
 */
static void gputbs_sm_rearm_one(struct gputbs_device *gdev, u32 i)
{
	struct gputbs_sm_thread *t = &gdev->threads[i];
	u64 next = gtbs_sm_next_event(&gdev->core, t->sm);

	if (i == 0)
		next = min(min3(next, gtbs_dev_next_arrival(&gdev->core),
				gtbs_dev_next_expiry(&gdev->core)),
			   gtbs_dev_next_refill(&gdev->core));
	if (next == t->deadline)
		return;
	t->deadline = next;
	if (next == U64_MAX)
		hrtimer_try_to_cancel(&t->timer);
	else
		hrtimer_start(&t->timer,
			      ns_to_ktime(gputbs_cycles_to_ns(gdev, next)),
			      HRTIMER_MODE_ABS);
}

/*
 * Only the SMs whose next completion moved since the last pass
 * (gtbs_dev_next_moved()) can need a new deadline, and SM 0, whose
 * deadline also follows the arrivals and timeouts: O(SMs / BITS_PER_LONG)
 * plus the SMs that moved, not a call per SM (Documentation/
 * performance.rst, section 1).
 */
static void gputbs_sm_rearm(struct gputbs_device *gdev)
{
	unsigned long *moved = gtbs_dev_next_moved(&gdev->core);
	u32 i;

	lockdep_assert_held(&gdev->lock);
	__clear_bit(0, moved);
	gputbs_sm_rearm_one(gdev, 0);
	for_each_set_bit(i, moved, gdev->core.cfg.nr_sms) {
		__clear_bit(i, moved);
		gputbs_sm_rearm_one(gdev, i);
	}
}

static void gputbs_pair_free(void *p)
{
	kfree(p);
}

/*
 * The module's allocator of per-(grid, SM) states.  No
 * &gtbs_pair_alloc.zalloc: the device runs under a spinlock and takes
 * its pairs only from the reserve that gputbs_spare_refill() fills with
 * kzalloc() outside the lock; &gtbs_pair_alloc.free is kfree().  Set on
 * &gputbs_device.core after every gtbs_dev_init().
 */
const struct gtbs_pair_alloc gputbs_pair_alloc = {
	.free = gputbs_pair_free,
};

/**
 * gputbs_spare_refill() - top up the core's reserve of per-(grid, SM) states
 * @gdev: the device.
 *
 * The core takes a grid's state on an SM from &gtbs_dev.spare when the
 * grid first issues a block there and never allocates under
 * &gputbs_device.lock (sm-emu/grid.c, "Per-(grid, SM) state"), so the
 * callers that run the device top it up before they take the lock: the SM
 * kthreads, gputbs_dev_lock_sync() and SUBMIT.  A run that finds it short
 * stops like a spent budget (gtbs_dev_run_bounded()) and leaves the rest
 * to SM 0's kthread, which refills; the schedule is the same.  Allocations
 * are charged to the caller's memory cgroup (GFP_KERNEL_ACCOUNT).
 *
 * Context: process context, may sleep; &gputbs_device.lock not held.
 * Return: 0, or -ENOMEM when an allocation failed (what was allocated is
 * added; the run that needs more stops and is retried).
 */
int gputbs_spare_refill(struct gputbs_device *gdev)
{
	struct gtbs_dev *core = &gdev->core;
	struct gtbs_grid_sm *gs, *tmp;
	size_t size;
	LIST_HEAD(got);
	u32 n, i;
	int ret = 0;

	n = gtbs_dev_spare_wanted(core);
	if (!n)
		return 0;
	/* a reconfiguration may change the size under us: checked below */
	size = gtbs_grid_sm_size(&core->cfg);
	for (i = 0; i < n; i++) {
		gs = kzalloc(size, GFP_KERNEL_ACCOUNT);
		if (!gs) {
			ret = -ENOMEM;
			break;
		}
		list_add(&gs->node, &got);
	}
	spin_lock(&gdev->lock);
	list_for_each_entry_safe(gs, tmp, &got, node) {
		list_del(&gs->node);
		if (size == gtbs_grid_sm_size(&core->cfg))
			gtbs_dev_spare_add(core, gs);
		else
			kfree(gs);
	}
	spin_unlock(&gdev->lock);
	return ret;
}

/* Wake SM 0's kthread to go on catching up where a slice stopped. */
static void gputbs_sm_hand_off(struct gputbs_device *gdev)
{
	struct gputbs_sm_thread *t = &gdev->threads[0];

	if (!t->task || current == t->task)
		return;
	WRITE_ONCE(t->woken, true);
	wake_up_process(t->task);
}

/*
 * One bounded slice up to @until, timed and counted in
 * &gputbs_device.sync; re-arms the timers when it got there and @rearm.
 */
static bool gputbs_dev_slice(struct gputbs_device *gdev, u64 until,
			     bool rearm)
{
	struct gputbs_sync_stats *st = &gdev->sync;
	u32 budget = GPUTBS_SYNC_BUDGET;
	u64 t0 = ktime_get_ns(), dt;
	bool done;

	lockdep_assert_held(&gdev->lock);
	done = gtbs_dev_run_bounded(&gdev->core, until, &budget);
	/* a lifted throttle leaves blocks due now: not done yet */
	if (gputbs_isol_check(gdev, done))
		done = false;
	if (done && rearm)
		gputbs_sm_rearm(gdev);
	st->slices++;
	st->behind += !done;
	st->max_events = max(st->max_events, GPUTBS_SYNC_BUDGET - budget);
	dt = ktime_get_ns() - t0;
	st->max_ns = max(st->max_ns, dt);
	st->total_ns += dt;
	return done;
}

/**
 * gputbs_dev_sync() - run the device toward the current emulated cycle,
 *	one bounded slice
 * @gdev: the device.
 *
 * Processes the events due by now in cycle order (including deferred
 * arrivals, job timeouts and the kicks of a grid that just arrived or
 * ended, so its blocks issue at once), but at most %GPUTBS_SYNC_BUDGET of
 * them (gtbs_dev_run_bounded()): however many events a workload makes due
 * at once (a million one-cycle blocks), no caller holds
 * &gputbs_device.lock for more than one slice.  When the device is at the
 * current cycle, re-arms the SM timers; otherwise the rest is left to an
 * SM kthread, which goes on in slices, dropping the lock and rescheduling
 * between them: emulated results come late but are exactly the same,
 * because the core takes every event at the cycle it was due whoever runs
 * it and however late.
 *
 * Context: &gputbs_device.lock held; does not sleep.
 * Return: true when every event due by the current cycle was processed
 * (&gputbs_device.core.clock is the current cycle), false when events due
 * remain (the device is at &gputbs_device.core.clock).
 */
bool gputbs_dev_sync(struct gputbs_device *gdev)
{
	bool done = gputbs_dev_slice(gdev, gputbs_now_cycles(gdev), true);

	if (!done)
		gputbs_sm_hand_off(gdev);
	return done;
}

/**
 * gputbs_dev_advance() - gputbs_dev_sync() for a caller that changes the
 *	device and then calls gputbs_dev_sync() in the same hold
 * @gdev: the device.
 *
 * The same bounded slice toward the current emulated cycle, but neither
 * re-arms the SM timers (an O(SMs) pass) nor wakes a kthread: the
 * caller's gputbs_dev_sync() before it drops &gputbs_device.lock does
 * whichever of the two its own slice needs, so the timers end up the
 * same.  SUBMIT runs the device to its cycle with it (a quarter of the
 * re-arm passes of a SUBMIT at 132 SMs, Documentation/performance.rst).
 *
 * Context: &gputbs_device.lock held; does not sleep; the caller calls
 * gputbs_dev_sync() before unlocking.
 * Return: as gputbs_dev_sync().
 */
bool gputbs_dev_advance(struct gputbs_device *gdev)
{
	return gputbs_dev_slice(gdev, gputbs_now_cycles(gdev), false);
}

/**
 * gputbs_dev_lock_sync() - lock the device, run up to the current cycle
 * @gdev: the device.
 * @now: out: the emulated cycle the device is at (&gtbs_dev.clock), at or
 *	after the cycle of the call.
 *
 * For changes that must happen after every event that precedes them (a
 * policy switch, a tunable): runs the device up to the cycle of the call
 * in slices of %GPUTBS_SYNC_BUDGET events, dropping &gputbs_device.lock
 * and rescheduling between slices, so that the lock is never held for
 * more than a slice however far behind the device is.
 *
 * Context: process context, may sleep; returns with &gputbs_device.lock
 * held whatever it returns (the caller unlocks).
 * Return: 0 with the device at @now, or -EINTR when a signal arrived while
 * catching up (@now not set: the caller changes nothing).
 */
int gputbs_dev_lock_sync(struct gputbs_device *gdev, u64 *now)
	__acquires(&gdev->lock)
{
	u64 target = gputbs_now_cycles(gdev);

	gputbs_spare_refill(gdev);
	spin_lock(&gdev->lock);
	while (!gputbs_dev_slice(gdev, target, true)) {
		spin_unlock(&gdev->lock);
		cond_resched();
		gputbs_spare_refill(gdev);
		spin_lock(&gdev->lock);
		if (signal_pending(current))
			return -EINTR;
	}
	*now = gdev->core.clock;
	return 0;
}

static int gputbs_sm_thread_fn(void *arg)
{
	struct gputbs_sm_thread *t = arg;
	struct gputbs_device *gdev = t->gdev;
	bool done;

	for (;;) {
		set_current_state(TASK_IDLE);
		if (kthread_should_stop())
			break;
		if (!READ_ONCE(t->woken))
			schedule();
		__set_current_state(TASK_RUNNING);
		WRITE_ONCE(t->woken, false);
		/* catch up in slices; others take the lock in between */
		do {
			/* out of memory: let reclaim run before the retry */
			if (gputbs_spare_refill(gdev))
				schedule_timeout_idle(1);
			spin_lock(&gdev->lock);
			done = gputbs_dev_sync(gdev);
			spin_unlock(&gdev->lock);
			cond_resched();
		} while (!done && !kthread_should_stop());
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
