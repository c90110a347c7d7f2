// SPDX-License-Identifier: GPL-2.0
/*
 * gputbs-nl-test.c - the gputbs generic netlink family through libgputbs'
 * monitor API, against the real module, in the guest (Check).
 *
 * Family resolution, dev-get against GPUTBS_IOCTL_INFO and sysfs, the
 * events of a grid's life (submitted, started, completed, in order, with
 * its handle, label, pid and the cycles GPUTBS_IOCTL_WAIT reports),
 * preemption by a higher class, cancellation, grid and SM dumps while
 * grids run, grid-get of a grid waiting AFTER another (as the dump
 * lists it), NLM_F_DUMP_INTR on the parts of a grid dump built after a
 * grid was submitted or cancelled between two parts and on no part
 * (NLMSG_DONE included) of one without a change, the policy switch
 * as root and as nobody (EPERM), while
 * sysfs policy writes race with it (no spurious error) and interrupted
 * by signals during a backlog (EAGAIN, not a lost ACK), the
 * policy's parameters in dev-get and param-set (read back through sysfs
 * policy_params/; ERANGE, EINVAL, ENOENT, EPERM), bad
 * requests with their extended ACK messages, other users' grids
 * without pid and label for nobody (dump, grid-get, events) and in full
 * for root, and that no event goes
 * unaccounted when a burst of events meets the module's queue (run it
 * with the module parameter event_queue_len=4 to see drops), and the
 * tenants: tenant-set by root and its bad requests, nobody lowering its
 * own cgroup's tenant but raising nothing, a grid from a cgroup charged
 * exactly the SM time of its block records, a file's tenant in fdinfo.
 * Needs root.
 *
 *   gputbs-nl-test [--tap]
 *
 * Check's CK_RUN_CASE, CK_FORK and CK_VERBOSITY work; the output ends with
 * "N%: Checks: N, Failures: N, Errors: N".
 *
 * Copyright (C) 2026 The gputbs developers
 */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/capability.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>

#include <gputbs.h>
#include <linux/gputbs_netlink.h>

#define NS_PER_MS	1000000LL
#define NS_PER_SEC	1000000000LL
#define NOBODY		65534

static struct gputbs *g_dev;
static struct gputbs_monitor *g_mon, *g_ev;
static struct gputbs_info g_info;

static void setup(void)
{
	int ret;

	ret = gputbs_open(NULL, 0, &g_dev);
	ck_assert_msg(!ret, "open /dev/gputbs: %s", gputbs_strerror(ret));
	ck_assert_int_eq(gputbs_info(g_dev, &g_info), 0);
	ret = gputbs_monitor_open(0, &g_mon);
	ck_assert_msg(!ret, "monitor: %s", gputbs_strerror(ret));
	ret = gputbs_monitor_open(GPUTBS_MONITOR_EVENTS, &g_ev);
	ck_assert_msg(!ret, "events monitor: %s", gputbs_strerror(ret));
}

static void teardown(void)
{
	gputbs_set_policy(g_dev, "fifo");
	gputbs_monitor_close(g_ev);
	gputbs_monitor_close(g_mon);
	gputbs_close(g_dev);
	g_ev = g_mon = NULL;
	g_dev = NULL;
}

static __u64 cycles_for_ms(__u64 ms)
{
	return ms * NS_PER_MS * 1000 / g_info.time_scale_ps;
}

static void grid(struct gputbs_submit *s, __u32 blocks, __u32 threads,
		 __u64 ms, const char *label)
{
	memset(s, 0, sizeof(*s));
	s->nr_blocks = blocks;
	s->threads_per_block = threads;
	s->work_model = GPUTBS_WORK_DIST;
	s->block_cycles = cycles_for_ms(ms) ? cycles_for_ms(ms) : 1;
	snprintf(s->label, sizeof(s->label), "%s", label);
}

static __u32 submit(struct gputbs *g, struct gputbs_submit *s)
{
	int ret = gputbs_submit(g, s);

	ck_assert_msg(!ret, "SUBMIT %s: %s", s->label, gputbs_strerror(ret));
	return s->handle;
}

static void wait_grid(struct gputbs *g, __u32 handle, struct gputbs_wait *w)
{
	int ret = gputbs_wait_handle(g, handle,
				     gputbs_now_ns() + 60 * NS_PER_SEC, w);

	ck_assert_msg(!ret, "WAIT %u: %s", handle, gputbs_strerror(ret));
}

/* The next event within @ms, or false. */
static bool next_event(struct gputbs_mon_event *ev, int ms)
{
	__u64 end = gputbs_now_ns() + (__u64)ms * NS_PER_MS;
	struct pollfd pfd = { .fd = gputbs_monitor_fd(g_ev), .events = POLLIN };

	for (;;) {
		int ret = gputbs_monitor_recv(g_ev, ev, sizeof(*ev));
		__u64 now;

		if (!ret)
			return true;
		ck_assert_msg(ret == -EAGAIN, "recv: %s", gputbs_strerror(ret));
		now = gputbs_now_ns();
		if (now >= end)
			return false;
		poll(&pfd, 1, (int)((end - now) / NS_PER_MS) + 1);
	}
}

/* Is @ev about the grid @handle that this process submitted? */
static bool ours(const struct gputbs_mon_event *ev, __u32 handle)
{
	return ((ev->type >= GPUTBS_EVENT_GRID_SUBMITTED &&
		 ev->type <= GPUTBS_EVENT_GRID_CANCELLED) ||
		ev->type == GPUTBS_EVENT_GRID_TIMED_OUT) &&
	       ev->grid.pid == (__u32)getpid() && ev->grid.handle == handle;
}

/* The next event of type @type about grid @handle, within 30 s. */
static void expect_event(__u32 type, __u32 handle,
			 struct gputbs_mon_event *out)
{
	while (next_event(out, 30000))
		if (out->type == type && ours(out, handle))
			return;
	ck_abort_msg("no %s event for handle %u", gputbs_event_name(type),
		     handle);
}

/* ---- family and device ------------------------------------------------- */

START_TEST(nl_family_resolves)
{
	struct gputbs_monitor *m;
	struct gputbs_mon_event ev;

	ck_assert_int_ge(gputbs_monitor_fd(g_ev), 0);
	ck_assert_int_eq(gputbs_monitor_fd(g_mon), -EINVAL);
	ck_assert_int_eq(gputbs_monitor_recv(g_mon, &ev, sizeof(ev)), -EINVAL);
	ck_assert_int_eq(gputbs_monitor_open(0x2, &m), -EINVAL);
	ck_assert_ptr_null(m);
	ck_assert_str_eq(gputbs_monitor_errmsg(g_mon), "");
	ck_assert_str_eq(gputbs_event_name(GPUTBS_EVENT_GRID_STARTED),
			 "grid-started");
	ck_assert_str_eq(gputbs_event_name(99), "unknown");
	ck_assert_str_eq(gputbs_grid_state_name(GPUTBS_GRID_STATE_RUNNING),
			 "running");
	ck_assert_str_eq(gputbs_preemption_reason_name(
				 GPUTBS_PREEMPTION_REASON_CLASS), "class");
}
END_TEST

START_TEST(nl_get_device)
{
	struct gputbs_mon_dev d, d2;
	char cur[32], all[256];

	ck_assert_int_eq(gputbs_monitor_get_device(g_mon, &d, sizeof(d)), 0);
	ck_assert_uint_eq(d.nr_sms, g_info.nr_sms);
	ck_assert_uint_eq(d.warp_size, g_info.warp_size);
	ck_assert_uint_eq(d.sm_threads, g_info.max_threads_per_sm);
	ck_assert_uint_eq(d.sm_regs, g_info.max_regs_per_sm);
	ck_assert_uint_eq(d.sm_shmem, g_info.max_shmem_per_sm);
	ck_assert_uint_eq(d.sm_blocks, g_info.max_blocks_per_sm);
	ck_assert_uint_eq(d.sm_warps, g_info.max_warps_per_sm);
	ck_assert_uint_eq(d.time_scale_ps, g_info.time_scale_ps);
	ck_assert_uint_eq(d.epoch_ns, g_info.epoch_ns);
	ck_assert_int_eq(gputbs_get_policy(g_dev, cur, sizeof(cur), all,
					   sizeof(all)), 0);
	ck_assert_str_eq(d.policy, cur);
	ck_assert_str_eq(d.policies, all);
	ck_assert_uint_eq(d.grids_running + d.grids_queued + d.grids_arriving,
			  0);
	/* a smaller struct (an older caller) gets its part only */
	memset(&d2, 0xff, sizeof(d2));
	ck_assert_int_eq(gputbs_monitor_get_device(g_mon, &d2,
				offsetof(struct gputbs_mon_dev, nr_sms)), 0);
	ck_assert_str_eq(d2.policy, cur);
	ck_assert_uint_eq(d2.nr_sms, 0xffffffffu);
	ck_assert_int_eq(gputbs_monitor_get_device(g_mon, &d2, sizeof(d2)), 0);
	ck_assert_uint_ge(d2.now_cycle, d.now_cycle);
	ck_assert_uint_ge(d2.grids_submitted, d.grids_submitted);
}
END_TEST

/* ---- events ------------------------------------------------------------- */

/*
 * One grid: its submitted, started and completed events come in this
 * order with its handle, label and pid, and their cycles and times are
 * those GPUTBS_IOCTL_WAIT reports.
 */
START_TEST(nl_events_lifecycle)
{
	struct gputbs_mon_event ev, sub = { 0 }, start = { 0 }, done = { 0 };
	struct gputbs_submit s;
	struct gputbs_wait w;
	__u32 h, seen = 0;

	grid(&s, 3 * g_info.nr_sms, 64, 2, "nl-lifecycle");
	h = submit(g_dev, &s);
	wait_grid(g_dev, h, &w);
	while (seen < 3 && next_event(&ev, 30000)) {
		if (!ours(&ev, h))
			continue;
		switch (seen++) {
		case 0:
			sub = ev;
			break;
		case 1:
			start = ev;
			break;
		default:
			done = ev;
			break;
		}
	}
	ck_assert_uint_eq(seen, 3);
	ck_assert_str_eq(gputbs_event_name(sub.type), "grid-submitted");
	ck_assert_str_eq(gputbs_event_name(start.type), "grid-started");
	ck_assert_str_eq(gputbs_event_name(done.type), "grid-completed");
	ck_assert_uint_gt(sub.grid.id, 0);
	ck_assert_uint_eq(start.grid.id, sub.grid.id);
	ck_assert_uint_eq(done.grid.id, sub.grid.id);
	ck_assert_str_eq(sub.grid.label, "nl-lifecycle");
	ck_assert_str_eq(done.grid.label, "nl-lifecycle");
	ck_assert_uint_eq(done.grid.handle, h);
	ck_assert_uint_eq(done.grid.prio_class, GPUTBS_PRIO_NORMAL);
	ck_assert_uint_eq(done.grid.nr_blocks, 3 * g_info.nr_sms);
	ck_assert_uint_eq(done.grid.blocks_done, 3 * g_info.nr_sms);
	ck_assert_uint_eq(done.grid.state, GPUTBS_GRID_STATE_DONE);
	ck_assert_uint_eq(sub.grid.state, GPUTBS_GRID_STATE_QUEUED);
	ck_assert_uint_eq(start.grid.state, GPUTBS_GRID_STATE_RUNNING);
	/* the cycles of the wait, and their times */
	ck_assert_uint_eq(sub.cycle, w.submit_cycle);
	ck_assert_uint_eq(start.cycle, w.start_cycle);
	ck_assert_uint_eq(done.cycle, w.end_cycle);
	ck_assert_uint_eq(done.time_ns, w.end_ns);
	ck_assert_uint_eq(start.time_ns, w.start_ns);
	ck_assert(done.grid.flags & GPUTBS_MON_GRID_ENDED);
	ck_assert_uint_eq(done.grid.end_cycle, w.end_cycle);
	ck_assert_uint_eq(done.grid.start_cycle, w.start_cycle);
	ck_assert_uint_eq(done.grid.submit_cycle, w.submit_cycle);
	ck_assert(!(sub.grid.flags & GPUTBS_MON_GRID_STARTED));
}
END_TEST

/*
 * A grid of a higher class preempts a running one (reason class).  The
 * low one runs 200 waves of 5 ms (1 s) so that it still runs when the
 * high one arrives on a loaded TCG guest (30 waves, 150 ms, were once
 * too few in make check); closing the file cancels it at the end.
 */
START_TEST(nl_events_preempted_by_class)
{
	struct gputbs_mon_event sub_lo, sub_hi, ev;
	struct gputbs_submit lo, hi;
	struct gputbs_wait w;
	__u32 hl, hh;

	grid(&lo, 200 * g_info.nr_sms * g_info.max_blocks_per_sm, 64, 5,
	     "nl-low");
	lo.prio_class = GPUTBS_PRIO_LOW;
	hl = submit(g_dev, &lo);
	expect_event(GPUTBS_EVENT_GRID_STARTED, hl, &sub_lo);
	grid(&hi, g_info.nr_sms, 64, 5, "nl-high");
	hi.prio_class = GPUTBS_PRIO_HIGH;
	hh = submit(g_dev, &hi);
	expect_event(GPUTBS_EVENT_GRID_SUBMITTED, hh, &sub_hi);
	expect_event(GPUTBS_EVENT_GRID_PREEMPTED, hl, &ev);
	ck_assert_uint_eq(ev.grid.id, sub_lo.grid.id);
	ck_assert_uint_eq(ev.by_grid_id, sub_hi.grid.id);
	ck_assert_uint_eq(ev.reason, GPUTBS_PREEMPTION_REASON_CLASS);
	ck_assert_uint_lt(ev.sm, g_info.nr_sms);
	ck_assert_uint_lt(ev.grid.blocks_issued, ev.grid.nr_blocks);
	wait_grid(g_dev, hh, &w);
	/* cancel the long one: closing its file */
}
END_TEST

/* Closing the file cancels its running grid: grid-cancelled. */
START_TEST(nl_events_cancelled)
{
	struct gputbs_mon_event ev;
	struct gputbs_submit s;
	struct gputbs *g;
	__u32 h;

	ck_assert_int_eq(gputbs_open(NULL, 0, &g), 0);
	grid(&s, 10 * g_info.nr_sms * g_info.max_blocks_per_sm, 64, 20,
	     "nl-cancel");
	h = submit(g, &s);
	expect_event(GPUTBS_EVENT_GRID_STARTED, h, &ev);
	gputbs_close(g);
	expect_event(GPUTBS_EVENT_GRID_CANCELLED, h, &ev);
	ck_assert_str_eq(ev.grid.label, "nl-cancel");
	ck_assert_uint_eq(ev.grid.state, GPUTBS_GRID_STATE_CANCELLED);
	ck_assert(ev.grid.flags & GPUTBS_MON_GRID_ENDED);
	ck_assert_uint_lt(ev.grid.blocks_done, ev.grid.nr_blocks);
}
END_TEST

/*
 * A grid with its own job timeout: grid-timed-out, its state timed-out,
 * stopped exactly timeout_cycles after it started; dev-get counts it.
 */
START_TEST(nl_events_timed_out)
{
	struct gputbs_mon_event ev;
	struct gputbs_mon_dev d0, d1;
	struct gputbs_submit s;
	struct gputbs *g;
	__u32 h;

	ck_assert_int_eq(gputbs_monitor_get_device(g_mon, &d0, sizeof(d0)), 0);
	ck_assert_int_eq(gputbs_open(NULL, 0, &g), 0);
	grid(&s, 10 * g_info.nr_sms * g_info.max_blocks_per_sm, 64, 20,
	     "nl-timeout");
	s.block_cycles = 1ULL << 30;
	s.flags = GPUTBS_SUBMIT_TIMEOUT;
	s.timeout_cycles = 20000;
	h = submit(g, &s);
	expect_event(GPUTBS_EVENT_GRID_STARTED, h, &ev);
	expect_event(GPUTBS_EVENT_GRID_TIMED_OUT, h, &ev);
	ck_assert_str_eq(ev.grid.label, "nl-timeout");
	ck_assert_uint_eq(ev.grid.state, GPUTBS_GRID_STATE_TIMED_OUT);
	ck_assert_str_eq(gputbs_grid_state_name(ev.grid.state), "timed-out");
	ck_assert(ev.grid.flags & GPUTBS_MON_GRID_ENDED);
	ck_assert_uint_eq(ev.grid.end_cycle - ev.grid.start_cycle, 20000);
	ck_assert_uint_eq(ev.cycle, ev.grid.end_cycle);
	ck_assert_int_eq(gputbs_monitor_get_device(g_mon, &d1, sizeof(d1)), 0);
	ck_assert_uint_eq(d1.grids_timed_out - d0.grids_timed_out, 1);
	ck_assert_uint_gt(d1.timeout_ns, 0);
	gputbs_close(g);
}
END_TEST

/*
 * A burst: 64 one-block grids arrive at the same cycle, so their 64
 * started and 64 completed events are queued under one hold of the device
 * lock each.  Every event is either received or counted in an
 * events-lost notification, and the device's counters agree.
 */
START_TEST(nl_events_burst_accounted)
{
	enum { NR = 64 };
	struct gputbs_mon_dev before, after;
	struct gputbs_mon_event ev;
	struct gputbs_submit s;
	struct gputbs_wait w;
	__u64 at, lost = 0, received = 0, want = 3 * NR;
	__u32 h[NR], i;
	bool mine;

	ck_assert_int_eq(gputbs_monitor_get_device(g_mon, &before,
						   sizeof(before)), 0);
	at = (gputbs_now_ns() - g_info.epoch_ns + 300 * NS_PER_MS) * 1000 /
	     g_info.time_scale_ps;
	for (i = 0; i < NR; i++) {
		grid(&s, 1, 32, 3, "nl-burst");
		s.flags = GPUTBS_SUBMIT_AT_CYCLE;
		s.arrival_cycle = at;
		h[i] = submit(g_dev, &s);
	}
	for (i = 0; i < NR; i++)
		wait_grid(g_dev, h[i], &w);
	while (received + lost < want && next_event(&ev, 10000)) {
		if (ev.type == GPUTBS_EVENT_LOST) {
			lost += ev.lost;
			continue;
		}
		if (ev.type == GPUTBS_EVENT_POLICY_CHANGED)
			continue;
		mine = ev.grid.pid == (__u32)getpid() &&
		       !strcmp(ev.grid.label, "nl-burst");
		ck_assert_msg(mine, "another grid's event: %s",
			      ev.grid.label);
		received++;
	}
	printf("nl_events_burst_accounted: %llu events received, %llu lost\n",
	       (unsigned long long)received, (unsigned long long)lost);
	ck_assert_uint_eq(received + lost, want);
	/* the worker counts an event sent after multicasting it */
	for (i = 0; i < 100; i++) {
		struct timespec ts = { .tv_nsec = 10 * NS_PER_MS };

		ck_assert_int_eq(gputbs_monitor_get_device(g_mon, &after,
							   sizeof(after)), 0);
		if (after.events_sent - before.events_sent >= received)
			break;
		nanosleep(&ts, NULL);
	}
	ck_assert_uint_eq(after.events_dropped - before.events_dropped, lost);
	ck_assert_uint_eq(after.events_queued - before.events_queued,
			  received);
	ck_assert_uint_eq(after.events_sent - before.events_sent, received);
}
END_TEST

/* ---- dumps ------------------------------------------------------------ */

static const struct gputbs_mon_grid *find_grid(const struct gputbs_mon_grid *gs,
					       size_t n, __u32 handle)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (gs[i].pid == (__u32)getpid() && gs[i].handle == handle)
			return &gs[i];
	return NULL;
}

/* Two grids while they run: what the dump says, and a prediction. */
START_TEST(nl_dump_grids_while_running)
{
	const struct gputbs_mon_grid *a, *b;
	struct gputbs_mon_grid *gs, one;
	struct gputbs_submit sa, sb;
	struct gputbs_wait w;
	bool predicted = false;
	__u64 ida, idb;
	__u32 ha, hb;
	size_t n;
	int i;

	/* A: four waves of 128-thread blocks; B queued behind it */
	grid(&sa, 4 * 8 * g_info.nr_sms, 128, 100, "nl-dump-a");
	ha = submit(g_dev, &sa);
	grid(&sb, 2 * g_info.nr_sms, 256, 20, "nl-dump-b");
	sb.prio_class = GPUTBS_PRIO_LOW;
	hb = submit(g_dev, &sb);
	ck_assert_int_eq(gputbs_monitor_dump_grids(g_mon, &gs, sizeof(*gs),
						   &n), 0);
	a = find_grid(gs, n, ha);
	b = find_grid(gs, n, hb);
	ck_assert_ptr_nonnull(a);
	ck_assert_ptr_nonnull(b);
	ck_assert_str_eq(a->label, "nl-dump-a");
	ck_assert_str_eq(b->label, "nl-dump-b");
	ck_assert_uint_eq(a->state, GPUTBS_GRID_STATE_RUNNING);
	ck_assert_uint_eq(b->state, GPUTBS_GRID_STATE_QUEUED);
	ck_assert_uint_eq(a->nr_blocks, 4 * 8 * g_info.nr_sms);
	ck_assert_uint_eq(a->residency, 8);
	ck_assert_uint_eq(a->threads_per_block, 128);
	ck_assert_uint_eq(b->prio_class, GPUTBS_PRIO_LOW);
	ck_assert_uint_eq(a->prio_class, GPUTBS_PRIO_NORMAL);
	ck_assert_uint_le(a->blocks_done, a->blocks_issued);
	ck_assert_uint_le(a->blocks_issued, a->nr_blocks);
	ck_assert_uint_eq(a->resident, 8 * g_info.nr_sms);
	ck_assert_uint_gt(a->alone_cycles, 0);
	ck_assert(a->flags & GPUTBS_MON_GRID_STARTED);
	ck_assert_uint_ne(a->id, b->id);
	ck_assert_uint_gt(a->client_id, 0);
	ck_assert_uint_eq(a->client_id, b->client_id);
	ida = a->id;
	idb = b->id;
	/* running grids come before queued ones */
	ck_assert(a < b);
	ck_assert_int_eq(gputbs_monitor_get_grid(g_mon, ida, &one,
						 sizeof(one)), 0);
	ck_assert_str_eq(one.label, "nl-dump-a");
	ck_assert_uint_eq(one.handle, ha);
	free(gs);
	/* the predictor's first prediction comes at a block end */
	for (i = 0; i < 400 && !predicted; i++) {
		struct timespec ts = { .tv_nsec = 10 * NS_PER_MS };

		ck_assert_int_eq(gputbs_monitor_get_grid(g_mon, ida, &one,
							 sizeof(one)), 0);
		predicted = one.flags & GPUTBS_MON_GRID_PREDICTED;
		nanosleep(&ts, NULL);
	}
	ck_assert_msg(predicted, "no prediction for a running grid");
	ck_assert_uint_gt(one.nr_predictions, 0);
	ck_assert_uint_gt(one.pred_remaining, 0);
	wait_grid(g_dev, ha, &w);
	wait_grid(g_dev, hb, &w);
	ck_assert_int_eq(gputbs_monitor_dump_grids(g_mon, &gs, sizeof(*gs),
						   &n), 0);
	ck_assert_ptr_null(find_grid(gs, n, ha));
	ck_assert_ptr_null(find_grid(gs, n, hb));
	free(gs);
	ck_assert_int_eq(gputbs_monitor_get_grid(g_mon, idb, &one,
						 sizeof(one)), -ENOENT);
	ck_assert_msg(strstr(gputbs_monitor_errmsg(g_mon), "no arriving"),
		      "extack '%s'", gputbs_monitor_errmsg(g_mon));
}
END_TEST

/*
 * A grid waiting AFTER its predecessor (stream order, issue 28 item 7):
 * the dump lists it as arriving, and grid-get finds it by the id the
 * dump gave, with the same attributes.
 */
START_TEST(nl_get_grid_waiting_after)
{
	const struct gputbs_mon_grid *a, *b;
	struct gputbs_mon_grid *gs, one;
	struct gputbs_submit sa, sb;
	struct gputbs_wait w;
	__u32 ha, hb;
	size_t n;

	grid(&sa, g_info.nr_sms, 64, 300, "nl-after-a");
	ha = submit(g_dev, &sa);
	grid(&sb, g_info.nr_sms, 64, 1, "nl-after-b");
	sb.flags = GPUTBS_SUBMIT_AFTER;
	sb.after_handle = ha;
	hb = submit(g_dev, &sb);
	ck_assert_int_eq(gputbs_monitor_dump_grids(g_mon, &gs, sizeof(*gs),
						   &n), 0);
	a = find_grid(gs, n, ha);
	b = find_grid(gs, n, hb);
	ck_assert_ptr_nonnull(a);
	ck_assert_ptr_nonnull(b);
	ck_assert_uint_eq(a->state, GPUTBS_GRID_STATE_RUNNING);
	ck_assert_uint_eq(b->state, GPUTBS_GRID_STATE_ARRIVING);
	ck_assert_msg(!gputbs_monitor_get_grid(g_mon, b->id, &one, sizeof(one)),
		      "grid-get of the waiting grid %llu: %s",
		      (unsigned long long)b->id, gputbs_monitor_errmsg(g_mon));
	ck_assert_uint_eq(one.id, b->id);
	ck_assert_uint_eq(one.handle, hb);
	ck_assert_str_eq(one.label, "nl-after-b");
	ck_assert_uint_eq(one.state, GPUTBS_GRID_STATE_ARRIVING);
	ck_assert_uint_eq(one.nr_blocks, b->nr_blocks);
	free(gs);
	wait_grid(g_dev, ha, &w);
	wait_grid(g_dev, hb, &w);
}
END_TEST

/*
 * A grid dump read one datagram, one part of the dump, at a time on a raw
 * socket of its own, so that the test decides when the kernel builds the
 * next part: netlink_dump_start() builds the first part when the request
 * arrives, and each recvmsg() that drains a part builds the next one
 * before it returns.  The socket never received anything larger than
 * RAW_DUMP_BUF, so parts are at most that large (netlink sizes them by
 * the largest read so far) and a few hundred grids make several of them.
 */
#define RAW_DUMP_BUF	8192
#define RAW_DUMP_PARTS	64

struct raw_dump {
	struct nl_sock *sk;
	unsigned int parts;		/* datagrams read */
	unsigned int grids;		/* grid messages in them */
	int intr[RAW_DUMP_PARTS];	/* NLM_F_DUMP_INTR messages per part */
	bool done;			/* NLMSG_DONE read */
	bool done_intr;			/* and it had NLM_F_DUMP_INTR */
};

static int raw_family(void)
{
	struct nl_sock *sk = nl_socket_alloc();
	int family;

	ck_assert_ptr_nonnull(sk);
	ck_assert_int_eq(genl_connect(sk), 0);
	family = genl_ctrl_resolve(sk, GPUTBS_FAMILY_NAME);
	nl_socket_free(sk);
	ck_assert_int_gt(family, 0);
	return family;
}

/* Send a grid dump request on a fresh socket (no read of its own yet). */
static void raw_dump_start(struct raw_dump *d, int family)
{
	struct nl_msg *msg = nlmsg_alloc();

	memset(d, 0, sizeof(*d));
	d->sk = nl_socket_alloc();
	ck_assert_ptr_nonnull(d->sk);
	ck_assert_ptr_nonnull(msg);
	ck_assert_int_eq(genl_connect(d->sk), 0);
	ck_assert_ptr_nonnull(genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ,
					  family, 0, NLM_F_DUMP,
					  GPUTBS_CMD_GRID_GET,
					  GPUTBS_FAMILY_VERSION));
	ck_assert_int_ge(nl_send_auto(d->sk, msg), 0);
	nlmsg_free(msg);
}

/* Read the next part of the dump: one datagram, whole. */
static void raw_dump_part(struct raw_dump *d, int family)
{
	static __u32 buf[RAW_DUMP_BUF / sizeof(__u32)];	/* NLMSG_ALIGNTO */
	struct nlmsghdr *nlh;
	ssize_t len;
	int left;

	ck_assert_msg(!d->done, "read past NLMSG_DONE");
	ck_assert_uint_lt(d->parts, RAW_DUMP_PARTS);
	len = recv(nl_socket_get_fd(d->sk), buf, sizeof(buf), MSG_TRUNC);
	ck_assert_msg(len > 0, "recv: %s", strerror(errno));
	ck_assert_msg(len <= (ssize_t)sizeof(buf), "part %u truncated: %zd bytes",
		      d->parts, len);
	left = (int)len;
	for (nlh = (struct nlmsghdr *)buf; nlmsg_ok(nlh, left);
	     nlh = nlmsg_next(nlh, &left)) {
		bool intr = nlh->nlmsg_flags & NLM_F_DUMP_INTR;

		if (nlh->nlmsg_type == NLMSG_DONE) {
			d->done = true;
			d->done_intr = intr;
			break;
		}
		ck_assert_msg(nlh->nlmsg_type != NLMSG_ERROR,
			      "error %d in part %u",
			      ((struct nlmsgerr *)nlmsg_data(nlh))->error,
			      d->parts);
		ck_assert_int_eq(nlh->nlmsg_type, family);
		ck_assert(nlh->nlmsg_flags & NLM_F_MULTI);
		d->grids++;
		d->intr[d->parts] += intr;
	}
	d->parts++;
}

static void raw_dump_rest(struct raw_dump *d, int family)
{
	while (!d->done)
		raw_dump_part(d, family);
	nl_socket_free(d->sk);
	d->sk = NULL;
}

/*
 * A grid dump in several parts whose grid set changes between two of
 * them is flagged NLM_F_DUMP_INTR from the first part built after the
 * change; one without a change is not flagged at all, NLMSG_DONE
 * included.  _i 0: a grid is submitted in between; 1: a grid is
 * cancelled (its file closed).
 *
 * The grids are one block each of a minute, so that none ends during
 * the test and the grid set changes only when the test changes it.  The
 * timeline of the interrupted dump:
 *
 *   request         the kernel builds part 1 (generation G)
 *   recv part 1     the kernel builds part 2 (G) before recv returns
 *   change          generation G' != G
 *   recv part 2     the kernel builds part 3 (G'): flagged
 *   recv the rest   parts 4... and NLMSG_DONE (G', G' unchanged)
 *
 * so part 2 carries no flag, part 3's first message does, and at least
 * three parts of grids are needed: four datagrams with NLMSG_DONE's own
 * (the call after the last grid adds only NLMSG_DONE).  201 grids make
 * about seven.
 */
START_TEST(nl_dump_interrupted_between_parts)
{
	struct gputbs *other;
	struct gputbs_submit s;
	struct raw_dump d;
	unsigned int i, nr, intr_parts;
	int family = raw_family();

	/*
	 * no grid of an earlier test left (a block of a grid cancelled by
	 * its close still ends later): its end would change the generation
	 * during the unchanged dump; 10 s at most
	 */
	for (i = 0; i < 200; i++) {
		struct timespec ts = { .tv_nsec = 50 * NS_PER_MS };
		struct gputbs_mon_grid *gs = NULL;
		size_t left = 1;

		ck_assert_int_eq(gputbs_monitor_dump_grids(g_mon, &gs,
							   sizeof(*gs), &left),
				 0);
		free(gs);
		if (!left)
			break;
		nanosleep(&ts, NULL);
	}
	/* leave room for the grid the submitting case adds */
	nr = g_info.max_grids_per_fd - 1;
	if (nr > 200)
		nr = 200;
	grid(&s, 1, 32, 60 * 1000, "nl-intr");
	for (i = 0; i < nr; i++)
		submit(g_dev, &s);
	ck_assert_int_eq(gputbs_open(NULL, 0, &other), 0);
	grid(&s, 1, 32, 60 * 1000, "nl-intr-other");
	submit(other, &s);

	/* no change: no part, and not NLMSG_DONE, is flagged */
	raw_dump_start(&d, family);
	raw_dump_rest(&d, family);
	ck_assert_uint_ge(d.grids, nr + 1);
	ck_assert_msg(d.parts >= 4, "%u grids in only %u parts", d.grids,
		      d.parts);
	for (i = 0; i < d.parts; i++)
		ck_assert_msg(!d.intr[i], "unchanged dump: part %u of %u flagged",
			      i + 1, d.parts);
	ck_assert_msg(!d.done_intr, "unchanged dump: NLMSG_DONE flagged");

	/* a change after part 1 was read, before part 3 is built */
	raw_dump_start(&d, family);
	raw_dump_part(&d, family);
	ck_assert(!d.done);
	if (_i == 0) {
		grid(&s, 1, 32, 60 * 1000, "nl-intr-new");
		submit(g_dev, &s);
	} else {
		gputbs_close(other);
		other = NULL;
	}
	raw_dump_rest(&d, family);
	ck_assert_msg(d.parts >= 4, "%u grids in only %u parts", d.grids,
		      d.parts);
	ck_assert_msg(!d.intr[0] && !d.intr[1],
		      "parts 1 and 2 were built before the change: %d, %d flagged",
		      d.intr[0], d.intr[1]);
	for (i = 2, intr_parts = 0; i < d.parts; i++)
		intr_parts += !!d.intr[i];
	ck_assert_msg(d.intr[2],
		      "changed dump: part 3 of %u not flagged (%u later parts flagged)",
		      d.parts, intr_parts);
	/* the grids go with g_dev in teardown */
	if (other)
		gputbs_close(other);
}
END_TEST

/* Every SM while one grid fills them: slots, free resources. */
START_TEST(nl_dump_sms)
{
	struct gputbs_mon_sm *sms, one;
	struct gputbs_mon_grid g1;
	struct gputbs_submit s;
	struct gputbs_mon_event ev;
	struct gputbs_wait w;
	__u32 h, i, j;
	size_t n;

	/* one full wave of 64-thread blocks, 1 s each */
	grid(&s, g_info.max_blocks_per_sm * g_info.nr_sms, 64, 1000, "nl-sms");
	h = submit(g_dev, &s);
	expect_event(GPUTBS_EVENT_GRID_STARTED, h, &ev);
	ck_assert_int_eq(gputbs_monitor_get_grid(g_mon, ev.grid.id, &g1,
						 sizeof(g1)), 0);
	ck_assert_int_eq(gputbs_monitor_dump_sms(g_mon, &sms, sizeof(*sms),
						 &n), 0);
	ck_assert_uint_eq(n, g_info.nr_sms);
	for (i = 0; i < n; i++) {
		const struct gputbs_mon_sm *sm = &sms[i];

		ck_assert_uint_eq(sm->id, i);
		ck_assert_uint_eq(sm->nr_slots, sm->resident_blocks);
		ck_assert_uint_eq(sm->free_blocks,
				  g_info.max_blocks_per_sm - sm->resident_blocks);
		ck_assert_uint_eq(sm->free_threads,
				  g_info.max_threads_per_sm -
				  64 * sm->resident_blocks);
		ck_assert_uint_eq(sm->free_warps, g_info.max_warps_per_sm -
				  2 * sm->resident_blocks);
		ck_assert_uint_eq(sm->resident_blocks, g_info.max_blocks_per_sm);
		for (j = 0; j < sm->nr_slots; j++) {
			ck_assert_uint_eq(sm->slots[j].grid_id, ev.grid.id);
			ck_assert_uint_lt(sm->slots[j].index,
					  g_info.max_blocks_per_sm);
			ck_assert_uint_lt(sm->slots[j].block, s.nr_blocks);
		}
	}
	free(sms);
	ck_assert_int_eq(gputbs_monitor_get_sm(g_mon, g_info.nr_sms - 1, &one,
					       sizeof(one)), 0);
	ck_assert_uint_eq(one.id, g_info.nr_sms - 1);
	ck_assert_int_eq(gputbs_monitor_get_sm(g_mon, g_info.nr_sms, &one,
					       sizeof(one)), -ENOENT);
	ck_assert_msg(strstr(gputbs_monitor_errmsg(g_mon), "out of range"),
		      "extack '%s'", gputbs_monitor_errmsg(g_mon));
	wait_grid(g_dev, h, &w);
}
END_TEST

/* ---- policy ------------------------------------------------------------ */

START_TEST(nl_set_policy_root)
{
	struct gputbs_mon_dev before, after;
	struct gputbs_mon_event ev;
	char cur[32];
	bool seen = false;

	ck_assert_int_eq(gputbs_set_policy(g_dev, "fifo"), 0);
	ck_assert_int_eq(gputbs_monitor_get_device(g_mon, &before,
						   sizeof(before)), 0);
	ck_assert_int_eq(gputbs_monitor_set_policy(g_mon, "srtf"), 0);
	ck_assert_int_eq(gputbs_get_policy(g_dev, cur, sizeof(cur), NULL, 0),
			 0);
	ck_assert_str_eq(cur, "srtf");
	ck_assert_int_eq(gputbs_monitor_get_device(g_mon, &after,
						   sizeof(after)), 0);
	ck_assert_str_eq(after.policy, "srtf");
	ck_assert_uint_eq(after.policy_switches, before.policy_switches + 1);
	while (!seen && next_event(&ev, 10000))
		seen = ev.type == GPUTBS_EVENT_POLICY_CHANGED;
	ck_assert(seen);
	ck_assert_str_eq(ev.policy, "srtf");
	ck_assert_str_eq(ev.old_policy, "fifo");
	/* the same policy again: no change, no event */
	ck_assert_int_eq(gputbs_monitor_set_policy(g_mon, "srtf"), 0);
	ck_assert_int_eq(gputbs_monitor_set_policy(g_mon, "fifo"), 0);
	ck_assert(next_event(&ev, 10000));
	ck_assert_uint_eq(ev.type, GPUTBS_EVENT_POLICY_CHANGED);
	ck_assert_str_eq(ev.old_policy, "srtf");
	ck_assert_str_eq(ev.policy, "fifo");
}
END_TEST

/* Bad requests: an error with the module's extended ACK message. */
START_TEST(nl_set_policy_bad_extack)
{
	char cur[32], longname[64];

	ck_assert_int_eq(gputbs_monitor_set_policy(g_mon, "lifo"), -EINVAL);
	ck_assert_msg(strstr(gputbs_monitor_errmsg(g_mon), "unknown policy"),
		      "extack '%s'", gputbs_monitor_errmsg(g_mon));
	ck_assert_int_eq(gputbs_monitor_set_policy(g_mon, ""), -EINVAL);
	ck_assert_msg(strstr(gputbs_monitor_errmsg(g_mon), "unknown policy"),
		      "extack '%s'", gputbs_monitor_errmsg(g_mon));
	/* longer than the spec's max-len: the attribute policy refuses it */
	memset(longname, 'x', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	ck_assert_int_lt(gputbs_monitor_set_policy(g_mon, longname), 0);
	ck_assert_msg(gputbs_monitor_errmsg(g_mon)[0],
		      "no extack for an over-long policy");
	/* a good request clears the message */
	ck_assert_int_eq(gputbs_monitor_set_policy(g_mon, "fifo"), 0);
	ck_assert_str_eq(gputbs_monitor_errmsg(g_mon), "");
	ck_assert_int_eq(gputbs_get_policy(g_dev, cur, sizeof(cur), NULL, 0),
			 0);
	ck_assert_str_eq(cur, "fifo");
}
END_TEST

/* Child as nobody: reads work, the switch is EPERM. */
static int child_nobody(void)
{
	struct gputbs_monitor *m;
	struct gputbs_mon_dev d;

	if (setgid(NOBODY) || setuid(NOBODY))
		return 10;
	if (gputbs_monitor_open(GPUTBS_MONITOR_EVENTS, &m))
		return 11;
	if (gputbs_monitor_get_device(m, &d, sizeof(d)))
		return 12;
	if (gputbs_monitor_set_policy(m, "srtf") != -EPERM)
		return 13;
	if (gputbs_monitor_set_policy(m, "lifo") != -EPERM)
		return 14;
	gputbs_monitor_close(m);
	return 0;
}

/* Child: CAP_NET_ADMIN (admin-perm) is not enough, CAP_SYS_ADMIN is needed. */
static int child_without_sys_admin(void)
{
	struct __user_cap_header_struct h = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct d[2];
	struct gputbs_monitor *m;

	if (syscall(SYS_capget, &h, d))
		return 10;
	d[CAP_SYS_ADMIN >> 5].effective &= ~(1u << (CAP_SYS_ADMIN & 31));
	if (syscall(SYS_capset, &h, d))
		return 11;
	/* the socket's opener counts: open it without the capability */
	if (gputbs_monitor_open(0, &m))
		return 12;
	if (gputbs_monitor_set_policy(m, "srtf") != -EPERM)
		return 13;
	if (!strstr(gputbs_monitor_errmsg(m), "CAP_SYS_ADMIN"))
		return 14;
	gputbs_monitor_close(m);
	return 0;
}

START_TEST(nl_set_policy_needs_sys_admin)
{
	char cur[32];
	int status;
	pid_t pid;

	ck_assert_int_eq(gputbs_set_policy(g_dev, "fifo"), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (!pid)
		_exit(child_without_sys_admin());
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(WIFEXITED(status) && !WEXITSTATUS(status),
		      "child without CAP_SYS_ADMIN: status %#x", status);
	ck_assert_int_eq(gputbs_get_policy(g_dev, cur, sizeof(cur), NULL, 0),
			 0);
	ck_assert_str_eq(cur, "fifo");
}
END_TEST

START_TEST(nl_set_policy_nobody_eperm)
{
	char cur[32];
	int status;
	pid_t pid;

	ck_assert_int_eq(gputbs_set_policy(g_dev, "fifo"), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (!pid)
		_exit(child_nobody());
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(WIFEXITED(status) && !WEXITSTATUS(status),
		      "child as nobody: status %#x", status);
	ck_assert_int_eq(gputbs_get_policy(g_dev, cur, sizeof(cur), NULL, 0),
			 0);
	ck_assert_str_eq(cur, "fifo");
}
END_TEST

/*
 * policy-set while root writes sysfs policy in a loop (issue 28, item 6:
 * about 98% of such requests were reported to fail with ENOENT): a child
 * writes the sysfs attribute as "echo NAME > policy" does (open, write,
 * close) among every built-in policy, while this process sends policy-set
 * among them, for two seconds, with a grid of short blocks running.
 * Every request must succeed: a concurrent switch is no error of this one.
 */
#define RACE_MS	2000

static const char *const race_policies[] = {
	"fifo", "srtf", "mpmax", "srtf-adaptive", "sjf", "ljf", "srtf-oracle",
};

#define NR_RACE_POLICIES \
	(sizeof(race_policies) / sizeof(race_policies[0]))

static int child_sysfs_policy_writer(__u64 end)
{
	unsigned int i = 0;

	while (gputbs_now_ns() < end) {
		const char *p = race_policies[i++ % NR_RACE_POLICIES];
		int fd = open("/sys/class/misc/gputbs/policy",
			      O_WRONLY | O_CLOEXEC);

		if (fd < 0)
			return 10;
		if (write(fd, p, strlen(p)) != (ssize_t)strlen(p))
			return 11;
		close(fd);
	}
	return i > 10 ? 0 : 12;
}

START_TEST(nl_set_policy_races_sysfs)
{
	__u64 end = gputbs_now_ns() + RACE_MS * NS_PER_MS;
	unsigned int i, ok = 0, failed = 0;
	int status, ret, first = 0;
	struct gputbs_submit s;
	char msg[256] = "";
	struct gputbs *g;
	pid_t pid;

	ck_assert_int_eq(gputbs_open(NULL, 0, &g), 0);
	grid(&s, 64 * g_info.nr_sms * g_info.max_blocks_per_sm, 64, 0,
	     "nl-race");
	s.block_cycles = cycles_for_ms(1) / 8 + 1;
	submit(g, &s);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (!pid)
		_exit(child_sysfs_policy_writer(end));
	for (i = 0; gputbs_now_ns() < end; i++) {
		ret = gputbs_monitor_set_policy(g_mon,
						race_policies[(i + 2) %
							      NR_RACE_POLICIES]);
		if (!ret) {
			ok++;
			continue;
		}
		if (!failed++) {
			first = ret;
			snprintf(msg, sizeof(msg), "%s",
				 gputbs_monitor_errmsg(g_mon));
		}
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	printf("nl_set_policy_races_sysfs: %u policy-set requests, %u failed\n",
	       ok + failed, failed);
	ck_assert_msg(WIFEXITED(status) && !WEXITSTATUS(status),
		      "sysfs writer: status %#x", status);
	ck_assert_msg(!failed, "%u of %u policy-set failed, first: %s (%s)",
		      failed, ok + failed, gputbs_strerror(first), msg);
	ck_assert_uint_gt(ok, 10);
	gputbs_close(g);
}
END_TEST

/*
 * policy-set interrupted by a signal while the device catches up on a
 * backlog of one-cycle blocks: the request ends (0, or EAGAIN with an
 * extended ACK message), it does not wait for an ACK that never comes
 * (netlink_rcv_skb() sends none for a doit's -EINTR).
 */
static volatile sig_atomic_t ticks;

static void on_tick(int sig)
{
	(void)sig;
	ticks++;
}

START_TEST(nl_set_policy_interrupted)
{
	struct itimerval it = {
		.it_interval = { .tv_usec = 20000 },
		.it_value = { .tv_usec = 20000 },
	}, off = { { 0, 0 }, { 0, 0 } };
	struct sigaction sa, old;
	struct gputbs_submit s;
	struct gputbs *g;
	int i, ret;

	ck_assert_int_eq(gputbs_open(NULL, 0, &g), 0);
	for (i = 0; i < 8; i++) {
		grid(&s, 1u << 20, 32, 0, "nl-backlog");
		s.block_cycles = 1;
		submit(g, &s);
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_tick;	/* no SA_RESTART */
	ck_assert_int_eq(sigaction(SIGALRM, &sa, &old), 0);
	ck_assert_int_eq(setitimer(ITIMER_REAL, &it, NULL), 0);
	ret = gputbs_monitor_set_policy(g_mon, "srtf");
	setitimer(ITIMER_REAL, &off, NULL);
	sigaction(SIGALRM, &old, NULL);
	printf("nl_set_policy_interrupted: %s after %d ticks (%s)\n",
	       gputbs_strerror(ret), (int)ticks, gputbs_monitor_errmsg(g_mon));
	ck_assert_msg(!ret || ret == -EAGAIN, "policy-set: %s",
		      gputbs_strerror(ret));
	if (ret)
		ck_assert_msg(strstr(gputbs_monitor_errmsg(g_mon), "signal"),
			      "extack '%s'", gputbs_monitor_errmsg(g_mon));
	gputbs_close(g);
}
END_TEST

/* ---- param-set and the parameters of dev-get ---------------------------- */

#define PARAMS_DIR	"/sys/class/misc/gputbs/policy_params/"

/* The first line of sysfs policy_params/@name, without its newline. */
static void read_param_file(const char *name, char *buf, size_t len)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), PARAMS_DIR "%s", name);
	f = fopen(path, "re");
	ck_assert_msg(f, "%s: %s", path, strerror(errno));
	ck_assert_ptr_nonnull(fgets(buf, (int)len, f));
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
}

/* The parameter @name of @d, or NULL. */
static const struct gputbs_mon_param *find_param(const struct gputbs_mon_dev *d,
						 const char *name)
{
	__u32 i;

	for (i = 0; i < d->nr_params; i++)
		if (!strcmp(d->params[i].name, name))
			return &d->params[i];
	return NULL;
}

/* dev-get: fifo has no parameter; srtf-adaptive its four, described. */
START_TEST(nl_params_dev_get)
{
	const struct gputbs_mon_param *p;
	struct gputbs_mon_dev d;

	ck_assert_int_eq(gputbs_set_policy(g_dev, "fifo"), 0);
	ck_assert_int_eq(gputbs_monitor_get_device(g_mon, &d, sizeof(d)), 0);
	ck_assert_uint_eq(d.nr_params, 0);
	ck_assert_int_eq(gputbs_set_policy(g_dev, "srtf-adaptive"), 0);
	ck_assert_int_eq(gputbs_monitor_get_device(g_mon, &d, sizeof(d)), 0);
	ck_assert_str_eq(d.policy, "srtf-adaptive");
	ck_assert_uint_eq(d.nr_params, 6);
	ck_assert_str_eq(d.params[0].name, "share_threshold_ppm");
	ck_assert_str_eq(d.params[1].name, "share_residency");
	ck_assert_str_eq(d.params[2].name, "share_mode");
	ck_assert_str_eq(d.params[3].name, "preempt_ratio_pct");
	ck_assert_str_eq(d.params[4].name, "preempt_unknown");
	ck_assert_str_eq(d.params[5].name, "single_kernel");
	p = &d.params[0];
	ck_assert_str_eq(p->unit, "ppm");
	ck_assert_str_eq(p->value_name, "");
	ck_assert_uint_eq(p->value, 500000);
	ck_assert_uint_eq(p->def, 500000);
	ck_assert_uint_eq(p->minimum, 0);
	ck_assert_uint_eq(p->maximum, 100000000);
	p = &d.params[1];
	ck_assert_str_eq(p->unit, "blocks");
	ck_assert_uint_eq(p->value, 3);
	ck_assert_uint_eq(p->minimum, 1);
	ck_assert_uint_eq(p->maximum, 64);
	p = &d.params[2];
	ck_assert_str_eq(p->unit, "");
	ck_assert_str_eq(p->value_name, "device");
	ck_assert_uint_eq(p->value, 0);
	ck_assert_uint_eq(p->maximum, 1);
	p = &d.params[3];
	ck_assert_str_eq(p->unit, "%");
	ck_assert_uint_eq(p->value, 200);
	ck_assert_uint_eq(p->def, 200);
	ck_assert_uint_eq(p->minimum, 100);
	ck_assert_uint_eq(p->maximum, 100000);
	/* an older caller's struct ends before the parameters */
	memset(&d, 0xff, sizeof(d));
	ck_assert_int_eq(gputbs_monitor_get_device(g_mon, &d,
				offsetof(struct gputbs_mon_dev, nr_params)), 0);
	ck_assert_uint_eq(d.nr_params, 0xffffffffu);
}
END_TEST

/* param-set by value and by name; sysfs and dev-get read it back. */
START_TEST(nl_params_set_read_back)
{
	const struct gputbs_mon_param *p;
	struct gputbs_mon_dev d;
	char buf[64];

	ck_assert_int_eq(gputbs_set_policy(g_dev, "srtf-adaptive"), 0);
	ck_assert_int_eq(gputbs_monitor_set_param(g_mon, "share_threshold_ppm",
						  123456), 0);
	ck_assert_str_eq(gputbs_monitor_errmsg(g_mon), "");
	ck_assert_int_eq(gputbs_monitor_set_param_text(g_mon, "share_residency",
						       "6"), 0);
	ck_assert_int_eq(gputbs_monitor_set_param_text(g_mon, "share_mode",
						       "sm"), 0);
	read_param_file("share_threshold_ppm", buf, sizeof(buf));
	ck_assert_str_eq(buf, "123456");
	read_param_file("share_residency", buf, sizeof(buf));
	ck_assert_str_eq(buf, "6");
	read_param_file("share_mode", buf, sizeof(buf));
	ck_assert_str_eq(buf, "sm");
	ck_assert_int_eq(gputbs_monitor_get_device(g_mon, &d, sizeof(d)), 0);
	p = find_param(&d, "share_mode");
	ck_assert_ptr_nonnull(p);
	ck_assert_uint_eq(p->value, 1);
	ck_assert_str_eq(p->value_name, "sm");
	ck_assert_uint_eq(find_param(&d, "share_residency")->value, 6);
	/* the limits are accepted; a choice by number */
	ck_assert_int_eq(gputbs_monitor_set_param(g_mon, "share_residency", 64),
			 0);
	ck_assert_int_eq(gputbs_monitor_set_param(g_mon, "share_mode", 0), 0);
	read_param_file("share_mode", buf, sizeof(buf));
	ck_assert_str_eq(buf, "device");
	/* a switch away and back: the defaults */
	ck_assert_int_eq(gputbs_monitor_set_policy(g_mon, "srtf"), 0);
	ck_assert_int_eq(gputbs_monitor_set_policy(g_mon, "srtf-adaptive"), 0);
	ck_assert_int_eq(gputbs_monitor_get_device(g_mon, &d, sizeof(d)), 0);
	ck_assert_uint_eq(find_param(&d, "share_residency")->value, 3);
	ck_assert_uint_eq(find_param(&d, "share_threshold_ppm")->value, 500000);
}
END_TEST

/* Bad requests: the errno, an extack message, nothing changed. */
static const struct {
	const char *name, *text;
	__u64 value;
	int err;
	const char *msg;
} bad_param_sets[] = {
	{ "share_residency", NULL, 0, -ERANGE, "minimum..maximum" },
	{ "share_residency", NULL, 65, -ERANGE, "minimum..maximum" },
	{ "share_threshold_ppm", NULL, 100000001, -ERANGE, "minimum..maximum" },
	{ "share_mode", NULL, 2, -ERANGE, "minimum..maximum" },
	{ "share_mode", "2", 0, -ERANGE, "minimum..maximum" },
	{ "share_mode", "both", 0, -EINVAL, "value name" },
	{ "share_residency", "-1", 0, -EINVAL, "value name" },
	{ "no_such_param", NULL, 1, -ENOENT, "no such parameter" },
	{ "share_residency\n\n", NULL, 1, -ENOENT, "no such parameter" },
	{ "", NULL, 1, -ENOENT, "no such parameter" },
	/* longer than the policy's 31 characters: the attribute policy */
	{ "share_residency_share_residency_x", NULL, 1, -EINVAL, "" },
};

#define NR_BAD_PARAM_SETS \
	(int)(sizeof(bad_param_sets) / sizeof(bad_param_sets[0]))

START_TEST(nl_params_set_bad_extack)
{
	struct gputbs_mon_dev d;
	int ret;

	ck_assert_int_eq(gputbs_set_policy(g_dev, "srtf-adaptive"), 0);
	ret = bad_param_sets[_i].text ?
	      gputbs_monitor_set_param_text(g_mon, bad_param_sets[_i].name,
					    bad_param_sets[_i].text) :
	      gputbs_monitor_set_param(g_mon, bad_param_sets[_i].name,
				       bad_param_sets[_i].value);
	ck_assert_msg(ret == bad_param_sets[_i].err, "%s: %s, expected %s",
		      bad_param_sets[_i].name, gputbs_strerror(ret),
		      gputbs_strerror(bad_param_sets[_i].err));
	ck_assert_msg(gputbs_monitor_errmsg(g_mon)[0] &&
		      strstr(gputbs_monitor_errmsg(g_mon),
			     bad_param_sets[_i].msg),
		      "extack '%s', expected '%s'", gputbs_monitor_errmsg(g_mon),
		      bad_param_sets[_i].msg);
	ck_assert_int_eq(gputbs_monitor_get_device(g_mon, &d, sizeof(d)), 0);
	ck_assert_uint_eq(find_param(&d, "share_residency")->value, 3);
	ck_assert_uint_eq(find_param(&d, "share_threshold_ppm")->value, 500000);
	ck_assert_uint_eq(find_param(&d, "share_mode")->value, 0);
}
END_TEST

/* fifo has no parameter: ENOENT, with the message. */
START_TEST(nl_params_set_fifo_enoent)
{
	ck_assert_int_eq(gputbs_set_policy(g_dev, "fifo"), 0);
	ck_assert_int_eq(gputbs_monitor_set_param(g_mon, "share_residency", 3),
			 -ENOENT);
	ck_assert_ptr_nonnull(strstr(gputbs_monitor_errmsg(g_mon),
				     "no such parameter"));
}
END_TEST

/* Child: without CAP_SYS_ADMIN param-set is EPERM, with the message. */
static int child_param_without_sys_admin(void)
{
	struct __user_cap_header_struct h = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct d[2];
	struct gputbs_monitor *m;

	if (syscall(SYS_capget, &h, d))
		return 10;
	d[CAP_SYS_ADMIN >> 5].effective &= ~(1u << (CAP_SYS_ADMIN & 31));
	if (syscall(SYS_capset, &h, d))
		return 11;
	if (gputbs_monitor_open(0, &m))
		return 12;
	if (gputbs_monitor_set_param(m, "share_residency", 5) != -EPERM)
		return 13;
	if (!strstr(gputbs_monitor_errmsg(m), "CAP_SYS_ADMIN"))
		return 14;
	/* checked before the name */
	if (gputbs_monitor_set_param(m, "no_such_param", 5) != -EPERM)
		return 15;
	gputbs_monitor_close(m);
	return 0;
}

/* Child as nobody: dev-get with the parameters works, param-set is EPERM. */
static int child_param_nobody(void)
{
	struct gputbs_monitor *m;
	struct gputbs_mon_dev d;

	if (setgid(NOBODY) || setuid(NOBODY))
		return 10;
	if (gputbs_monitor_open(0, &m))
		return 11;
	if (gputbs_monitor_get_device(m, &d, sizeof(d)) || d.nr_params != 6)
		return 12;
	if (gputbs_monitor_set_param(m, "share_residency", 5) != -EPERM)
		return 13;
	gputbs_monitor_close(m);
	return 0;
}

START_TEST(nl_params_set_eperm)
{
	char buf[64];
	int status;
	pid_t pid;

	ck_assert_int_eq(gputbs_set_policy(g_dev, "srtf-adaptive"), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (!pid)
		_exit(_i ? child_param_nobody() :
			   child_param_without_sys_admin());
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(WIFEXITED(status) && !WEXITSTATUS(status),
		      "child: status %#x", status);
	read_param_file("share_residency", buf, sizeof(buf));
	ck_assert_str_eq(buf, "3");
}
END_TEST

/* ---- other users' grids are private ------------------------------------ */

#define SECRET_LABEL	"root-secret-label"
#define OWN_LABEL	"nl-nobody-own"

/* A byte from @fd within 30 s, or -1. */
static int read_byte(int fd)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	unsigned char c;

	if (poll(&pfd, 1, 30000) != 1 || read(fd, &c, 1) != 1)
		return -1;
	return c;
}

/*
 * Child as nobody (issue 28, item 5): its events socket and its grid
 * first; once root's grid runs (its id from @in), the dump, grid-get and
 * the events show root's grid without pid and label, and its own grid in
 * full.  Exits with the number of the failed check, 0 if none failed.
 */
static int child_private(int in, int out)
{
	struct gputbs_mon_grid *gs, one;
	struct gputbs_monitor *m, *ev;
	struct gputbs_mon_event e;
	bool seen_root = false, seen_own = false;
	struct gputbs_submit s;
	struct gputbs *g;
	__u64 root_id, end;
	size_t n, i;

	if (setgid(NOBODY) || setuid(NOBODY))
		return 10;
	if (gputbs_monitor_open(0, &m) ||
	    gputbs_monitor_open(GPUTBS_MONITOR_EVENTS, &ev))
		return 11;
	if (gputbs_open(NULL, 0, &g))
		return 12;
	grid(&s, g_info.nr_sms, 64, 400, OWN_LABEL);
	if (gputbs_submit(g, &s))
		return 13;
	if (write(out, "r", 1) != 1 ||
	    read(in, &root_id, sizeof(root_id)) != sizeof(root_id))
		return 14;
	/* the dump: root's grid without pid and label, its own in full */
	if (gputbs_monitor_dump_grids(m, &gs, sizeof(*gs), &n))
		return 15;
	for (i = 0; i < n; i++) {
		if (gs[i].id == root_id && (gs[i].pid || gs[i].label[0]))
			return 16;
		if (gs[i].id == root_id)
			seen_root = true;
		if (gs[i].handle == s.handle &&
		    gs[i].pid == (__u32)getpid() &&
		    !strcmp(gs[i].label, OWN_LABEL))
			seen_own = true;
	}
	free(gs);
	if (!seen_root || !seen_own)
		return 17;
	/* grid-get: the same */
	if (gputbs_monitor_get_grid(m, root_id, &one, sizeof(one)) ||
	    one.pid || one.label[0] || one.id != root_id)
		return 18;
	/* the events: none shows the label; its own grid's show its own */
	seen_root = seen_own = false;
	end = gputbs_now_ns() + 30 * NS_PER_SEC;
	while ((!seen_root || !seen_own) && gputbs_now_ns() < end) {
		struct pollfd pfd = { .fd = gputbs_monitor_fd(ev),
				      .events = POLLIN };
		int ret = gputbs_monitor_recv(ev, &e, sizeof(e));

		if (ret == -EAGAIN) {
			poll(&pfd, 1, 100);
			continue;
		}
		if (ret)
			return 19;
		if (e.type != GPUTBS_EVENT_GRID_SUBMITTED)
			continue;
		if (strstr(e.grid.label, SECRET_LABEL))
			return 20;
		if (e.grid.id == root_id) {
			if (e.grid.pid || e.grid.label[0])
				return 21;
			seen_root = true;
		} else if (e.grid.handle == s.handle &&
			   e.grid.pid == (__u32)getpid()) {
			if (strcmp(e.grid.label, OWN_LABEL))
				return 22;
			seen_own = true;
		}
	}
	if (!seen_root || !seen_own)
		return 23;
	gputbs_close(g);
	gputbs_monitor_close(ev);
	gputbs_monitor_close(m);
	return 0;
}

/*
 * An unprivileged listener sees no pid or label of root's grids, and its
 * own grids in full; root (CAP_SYS_ADMIN) sees nobody's grid in full.
 */
START_TEST(nl_private_other_users_grids)
{
	struct gputbs_mon_event ev;
	struct gputbs_mon_grid *gs;
	const struct gputbs_mon_grid *own = NULL;
	int to_child[2], from_child[2], status;
	struct gputbs_submit s;
	struct gputbs_wait w;
	size_t n, i;
	pid_t pid;
	__u32 h;

	ck_assert_int_eq(pipe(to_child), 0);
	ck_assert_int_eq(pipe(from_child), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (!pid) {
		close(to_child[1]);
		close(from_child[0]);
		_exit(child_private(to_child[0], from_child[1]));
	}
	close(to_child[0]);
	close(from_child[1]);
	ck_assert_int_eq(read_byte(from_child[0]), 'r');
	/* root sees nobody's grid in full */
	ck_assert_int_eq(gputbs_monitor_dump_grids(g_mon, &gs, sizeof(*gs),
						   &n), 0);
	for (i = 0; i < n; i++)
		if (gs[i].pid == (__u32)pid)
			own = &gs[i];
	ck_assert_ptr_nonnull(own);
	ck_assert_str_eq(own->label, OWN_LABEL);
	free(gs);
	grid(&s, g_info.nr_sms, 64, 200, SECRET_LABEL);
	h = submit(g_dev, &s);
	/* root's own events keep the pid and the label */
	expect_event(GPUTBS_EVENT_GRID_SUBMITTED, h, &ev);
	ck_assert_str_eq(ev.grid.label, SECRET_LABEL);
	ck_assert_int_eq(write(to_child[1], &ev.grid.id, sizeof(ev.grid.id)),
			 sizeof(ev.grid.id));
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(WIFEXITED(status) && !WEXITSTATUS(status),
		      "child as nobody: status %#x (see child_private)",
		      status);
	close(to_child[1]);
	close(from_child[0]);
	wait_grid(g_dev, h, &w);
}
END_TEST

/* ---- gputbs top on a terminal ------------------------------------------ */

static size_t count_str(const char *s, const char *what)
{
	size_t n = 0;

	while ((s = strstr(s, what))) {
		n++;
		s += strlen(what);
	}
	return n;
}

/*
 * "gputbs top" on a pseudo-terminal: the alternate screen, a redraw per
 * frame, and q ends it (status 0) with the terminal restored.
 */
START_TEST(nl_top_terminal)
{
	static char out[1 << 20];
	size_t len = 0;
	bool quit = false;
	__u64 end = gputbs_now_ns() + 60 * NS_PER_SEC;
	int master, status;
	pid_t pid;

	pid = forkpty(&master, NULL, NULL, NULL);
	ck_assert_int_ge(pid, 0);
	if (!pid) {
		/* a terminal that draws, whatever TERM the guest was given */
		setenv("TERM", "xterm", 1);
		execlp("gputbs", "gputbs", "top", "--delay", "0.2", (char *)NULL);
		_exit(127);
	}
	while (gputbs_now_ns() < end && len < sizeof(out) - 1) {
		struct pollfd pfd = { .fd = master, .events = POLLIN };
		ssize_t n;

		if (poll(&pfd, 1, 200) <= 0)
			continue;
		n = read(master, out + len, sizeof(out) - 1 - len);
		if (n <= 0)
			break;	/* EIO: the terminal's last user exited */
		len += n;
		out[len] = '\0';
		if (!quit && count_str(out, "gputbs top - cycle") >= 3) {
			ck_assert_int_eq(write(master, "q", 1), 1);
			quit = true;
		}
	}
	out[len] = '\0';
	ck_assert_msg(quit, "no three frames: '%.300s'", out);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	close(master);
	ck_assert_msg(WIFEXITED(status) && !WEXITSTATUS(status),
		      "gputbs top: status %#x", status);
	ck_assert_msg(strstr(out, "\033[?1049h"), "no alternate screen");
	ck_assert_uint_ge(count_str(out, "\033[H\033[2J"), 3);
	ck_assert_msg(strstr(out, "\033[?1049l") > strstr(out, "\033[?1049h"),
		      "the main screen is not restored");
	ck_assert_msg(strstr(out, "\033[?25h"), "the cursor is not shown again");
}
END_TEST

/* ---- preempt-set -------------------------------------------------------- */

#define DEV_DIR		"/sys/class/misc/gputbs/"

/* The first line of sysfs @name of the device, without its newline. */
static void read_dev_file(const char *name, char *buf, size_t len)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), DEV_DIR "%s", name);
	f = fopen(path, "re");
	ck_assert_msg(f, "%s: %s", path, strerror(errno));
	ck_assert_ptr_nonnull(fgets(buf, (int)len, f));
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
}

/* Write @val to the device's sysfs attribute @name: 0 or -errno. */
static int write_dev_file(const char *name, const char *val)
{
	char path[128];
	ssize_t n;
	int fd, ret;

	snprintf(path, sizeof(path), DEV_DIR "%s", name);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, val, strlen(val));
	ret = n < 0 ? -errno : 0;
	close(fd);
	return ret;
}

static void assert_dev_file(const char *name, const char *want)
{
	char buf[128];

	read_dev_file(name, buf, sizeof(buf));
	ck_assert_msg(!strcmp(buf, want), "%s reads '%s', expected '%s'",
		      name, buf, want);
}

static char saved_bw[32], saved_budget_high[32], saved_budget_low[32];

static void setup_preempt(void)
{
	setup();
	read_dev_file("switch_bytes_per_cycle", saved_bw, sizeof(saved_bw));
	read_dev_file("preempt_budget_high", saved_budget_high,
		      sizeof(saved_budget_high));
	read_dev_file("preempt_budget_low", saved_budget_low,
		      sizeof(saved_budget_low));
}

/* Back to drain and the settings found, through sysfs. */
static void teardown_preempt(void)
{
	static const struct {
		const char *name;
		const char *val;
	} w[] = {
		{ "preempt_mode", "drain" },
		{ "switch_bytes_per_cycle", saved_bw },
		{ "preempt_budget_high", saved_budget_high },
		{ "preempt_budget_low", saved_budget_low },
	};
	char path[128];
	unsigned int i;
	FILE *f;

	for (i = 0; i < sizeof(w) / sizeof(w[0]); i++) {
		snprintf(path, sizeof(path), DEV_DIR "%s", w[i].name);
		f = fopen(path, "we");
		if (f) {
			fputs(w[i].val, f);
			fclose(f);
		}
	}
	teardown();
}

/*
 * preempt-set applies the mode, the bandwidth and the budgets given, and
 * leaves the others: sysfs and dev-get read them back.
 */
START_TEST(nl_preempt_set_read_back)
{
	struct gputbs_preempt_set r;
	struct gputbs_mon_dev d;

	memset(&r, 0, sizeof(r));
	r.mode = GPUTBS_PREEMPT_MODE_SWITCH;
	r.switch_bytes_per_cycle = 16;
	r.budget_mask = 1u << (GPUTBS_PRIO_HIGH - 1);
	r.budget[GPUTBS_PRIO_HIGH - 1] = 30000;
	ck_assert_int_eq(gputbs_monitor_set_preempt(g_mon, &r, sizeof(r)), 0);
	assert_dev_file("preempt_mode", "drain [switch] flush auto");
	assert_dev_file("switch_bytes_per_cycle", "16");
	assert_dev_file("preempt_budget_high", "30000");
	assert_dev_file("preempt_budget_low", saved_budget_low);
	ck_assert_int_eq(gputbs_monitor_get_device(g_mon, &d, sizeof(d)), 0);
	ck_assert_uint_eq(d.preempt_mode, GPUTBS_PREEMPT_MODE_SWITCH);
	/* the mode alone: the bandwidth and budgets stay */
	memset(&r, 0, sizeof(r));
	r.mode = GPUTBS_PREEMPT_MODE_AUTO;
	ck_assert_int_eq(gputbs_monitor_set_preempt(g_mon, &r, sizeof(r)), 0);
	assert_dev_file("preempt_mode", "drain switch flush [auto]");
	assert_dev_file("switch_bytes_per_cycle", "16");
	assert_dev_file("preempt_budget_high", "30000");
	r.mode = GPUTBS_PREEMPT_MODE_DRAIN;
	r.switch_bytes_per_cycle = (__u32)strtoul(saved_bw, NULL, 10);
	ck_assert_int_eq(gputbs_monitor_set_preempt(g_mon, &r, sizeof(r)), 0);
	assert_dev_file("preempt_mode", "[drain] switch flush auto");
	assert_dev_file("switch_bytes_per_cycle", saved_bw);
	ck_assert_int_eq(gputbs_monitor_get_device(g_mon, &d, sizeof(d)), 0);
	ck_assert_uint_eq(d.preempt_mode, GPUTBS_PREEMPT_MODE_DRAIN);
}
END_TEST

static const struct {
	__u32 mode;
	__u32 bw;
	__u64 budget_low;
	int err;
	const char *msg;
} bad_preempt_sets[] = {
	{ GPUTBS_PREEMPT_MODE_AUTO + 1, 0, 0, -EINVAL,
	  "unknown preempt mode (drain, switch, flush or auto)" },
	{ 0xffffffffu, 0, 0, -EINVAL, "unknown preempt mode" },
	{ GPUTBS_PREEMPT_MODE_SWITCH, 65537, 0, -ERANGE,
	  "switch bytes per cycle outside 1..65536" },
	{ GPUTBS_PREEMPT_MODE_SWITCH, 0, (1ULL << 62) + 1, -ERANGE,
	  "preemption budget above 2^62 cycles" },
};

#define NR_BAD_PREEMPT_SETS \
	(int)(sizeof(bad_preempt_sets) / sizeof(bad_preempt_sets[0]))

/*
 * A bad request is refused with an extack message and changes nothing,
 * not even the valid mode that came with a bad bandwidth or budget.
 */
START_TEST(nl_preempt_set_bad_extack)
{
	struct gputbs_preempt_set r;
	int ret;

	memset(&r, 0, sizeof(r));
	r.mode = bad_preempt_sets[_i].mode;
	r.switch_bytes_per_cycle = bad_preempt_sets[_i].bw;
	if (bad_preempt_sets[_i].budget_low) {
		r.budget_mask = 1u << (GPUTBS_PRIO_LOW - 1);
		r.budget[GPUTBS_PRIO_LOW - 1] = bad_preempt_sets[_i].budget_low;
	}
	ret = gputbs_monitor_set_preempt(g_mon, &r, sizeof(r));
	ck_assert_msg(ret == bad_preempt_sets[_i].err, "%s, expected %s",
		      gputbs_strerror(ret),
		      gputbs_strerror(bad_preempt_sets[_i].err));
	printf("preempt-set bad %d: %s: extack '%s'\n", _i,
	       gputbs_strerror(ret), gputbs_monitor_errmsg(g_mon));
	ck_assert_msg(gputbs_monitor_errmsg(g_mon)[0] &&
		      strstr(gputbs_monitor_errmsg(g_mon),
			     bad_preempt_sets[_i].msg),
		      "extack '%s', expected '%s'", gputbs_monitor_errmsg(g_mon),
		      bad_preempt_sets[_i].msg);
	assert_dev_file("preempt_mode", "[drain] switch flush auto");
	assert_dev_file("switch_bytes_per_cycle", saved_bw);
	assert_dev_file("preempt_budget_low", saved_budget_low);
}
END_TEST

/* Child as nobody: preempt-set is EPERM (GENL_ADMIN_PERM). */
static int child_preempt_nobody(void)
{
	struct gputbs_preempt_set r = { .mode = GPUTBS_PREEMPT_MODE_SWITCH };
	struct gputbs_monitor *m;

	if (setgid(NOBODY) || setuid(NOBODY))
		return 10;
	if (gputbs_monitor_open(0, &m))
		return 11;
	if (gputbs_monitor_set_preempt(m, &r, sizeof(r)) != -EPERM)
		return 12;
	gputbs_monitor_close(m);
	return 0;
}

START_TEST(nl_preempt_set_nobody_eperm)
{
	int status;
	pid_t pid;

	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (!pid)
		_exit(child_preempt_nobody());
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(WIFEXITED(status) && !WEXITSTATUS(status),
		      "child: status %#x", status);
	assert_dev_file("preempt_mode", "[drain] switch flush auto");
}
END_TEST

/* ---- tenants ----------------------------------------------------------------- */

#define CGROOT		"/sys/fs/cgroup"
#define CG_A		CGROOT "/gtbs-nl-a"
#define CG_B		CGROOT "/gtbs-nl-b"

static __u64 cg_a, cg_b;

/* cgroup2 at /sys/fs/cgroup (mounted if it is not), two cgroups in it. */
static void setup_tenants(void)
{
	int ret;

	setup();
	if (gputbs_cgroup_id(CGROOT, &cg_a) == -EMEDIUMTYPE ||
	    gputbs_cgroup_id(CGROOT, &cg_a))
		ck_assert_msg(!system("mkdir -p " CGROOT " && mount -t cgroup2 none " CGROOT),
			      "mount cgroup2");
	rmdir(CG_A);
	rmdir(CG_B);
	ck_assert_int_eq(mkdir(CG_A, 0755), 0);
	ck_assert_int_eq(mkdir(CG_B, 0755), 0);
	ret = gputbs_cgroup_id(CG_A, &cg_a);
	ck_assert_msg(!ret, "cgroup id: %s", gputbs_strerror(ret));
	ck_assert_int_eq(gputbs_cgroup_id(CG_B, &cg_b), 0);
	ck_assert_uint_ne(cg_a, cg_b);
}

/* Caps off (cap_period may be written again), cgroups removed. */
static void teardown_tenants(void)
{
	struct gputbs_tenant_set r = {
		.weight = 100, .max_ppm = GPUTBS_TENANT_MAX_NONE,
	};

	r.cgroup_id = cg_a;
	gputbs_monitor_set_tenant(g_mon, &r, sizeof(r));
	r.cgroup_id = cg_b;
	gputbs_monitor_set_tenant(g_mon, &r, sizeof(r));
	rmdir(CG_A);
	rmdir(CG_B);
	teardown();
}

/* The tenant of a kind and id in a dump, into @out; false if none. */
static bool find_tenant(__u32 kind, __u64 id, struct gputbs_mon_tenant *out)
{
	struct gputbs_mon_tenant *t;
	size_t nr, i;
	bool found = false;
	int ret;

	ret = gputbs_monitor_dump_tenants(g_mon, &t, sizeof(*t), &nr);
	ck_assert_msg(!ret, "tenant dump: %s", gputbs_strerror(ret));
	ck_assert_uint_ge(nr, 1);
	ck_assert_uint_eq(t[0].kind, GPUTBS_TENANT_KIND_DEVICE);
	for (i = 0; i < nr; i++)
		if (t[i].kind == kind &&
		    (kind == GPUTBS_TENANT_KIND_FILE ? t[i].client_id :
						       t[i].cgroup_id) == id) {
			*out = t[i];
			found = true;
		}
	free(t);
	return found;
}

/* Move the calling process into the cgroup at @dir (root only). */
static int cg_enter(const char *dir)
{
	char path[128];
	FILE *f;
	int ret;

	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	f = fopen(path, "we");
	if (!f)
		return -errno;
	ret = fprintf(f, "%d\n", (int)getpid()) < 0 ? -EIO : 0;
	if (fclose(f) && !ret)
		ret = -errno;
	return ret;
}

/*
 * Root sets a cgroup's weight and cap; dev-get reports the cap period;
 * the dump shows both, with the defaults elsewhere.
 */
START_TEST(nl_tenant_set_root)
{
	struct gputbs_tenant_set r = { .cgroup_id = cg_a, .weight = 10,
				       .max_ppm = 300000 };
	struct gputbs_mon_tenant t;
	struct gputbs_mon_dev d;

	ck_assert_int_eq(gputbs_monitor_get_device(g_mon, &d, sizeof(d)), 0);
	ck_assert_uint_eq(d.cap_period, 100000);
	ck_assert_int_eq(gputbs_monitor_set_tenant(g_mon, &r, sizeof(r)), 0);
	/* the period stays while a tenant is capped */
	ck_assert_int_eq(write_dev_file("cap_period", "50000"), -EBUSY);
	assert_dev_file("cap_period", "100000");
	ck_assert(find_tenant(GPUTBS_TENANT_KIND_CGROUP, cg_a, &t));
	ck_assert_uint_eq(t.weight, 10);
	ck_assert_uint_eq(t.max_ppm, 300000);
	ck_assert_uint_eq(t.grids, 0);
	ck_assert_uint_eq(t.sm_time, 0);
	ck_assert(!find_tenant(GPUTBS_TENANT_KIND_CGROUP, cg_b, &t));
	/* a weight alone keeps the cap; the cap removed */
	r.weight = 9000;
	r.max_ppm = 0;
	ck_assert_int_eq(gputbs_monitor_set_tenant(g_mon, &r, sizeof(r)), 0);
	ck_assert(find_tenant(GPUTBS_TENANT_KIND_CGROUP, cg_a, &t));
	ck_assert_uint_eq(t.weight, 9000);
	ck_assert_uint_eq(t.max_ppm, 300000);
	r.weight = 0;
	r.max_ppm = GPUTBS_TENANT_MAX_NONE;
	ck_assert_int_eq(gputbs_monitor_set_tenant(g_mon, &r, sizeof(r)), 0);
	ck_assert(find_tenant(GPUTBS_TENANT_KIND_CGROUP, cg_a, &t));
	ck_assert_uint_eq(t.max_ppm, 0);
	ck_assert_int_eq(write_dev_file("cap_period", "50000"), 0);
	ck_assert_int_eq(gputbs_monitor_get_device(g_mon, &d, sizeof(d)), 0);
	ck_assert_uint_eq(d.cap_period, 50000);
	ck_assert_int_eq(write_dev_file("cap_period", "100000"), 0);
}
END_TEST

static const struct {
	int which;	/* 0: cg_a, 1: both ids, 2: unknown cgroup, 3: root */
	__u32 weight;
	__u32 max_ppm;
	int err;
	const char *msg;
} bad_tenant_sets[] = {
	{ 1, 50, 0, -EINVAL, "exactly one of cgroup-id and client-id" },
	{ 0, 10001, 0, -EINVAL, "weight outside 1..10000" },
	{ 0, 0, 1000001, -EINVAL, "max-ppm above 1000000" },
	{ 0, 0, 0, -EINVAL, "nothing to set" },
	{ 2, 50, 0, -ENOENT, "no cgroup v2 of that cgroup-id" },
	{ 3, 50, 0, -EINVAL, "the root cgroup is no tenant" },
	{ 4, 50, 0, -ENOENT, "no open file of that client-id" },
};

#define NR_BAD_TENANT_SETS \
	(int)(sizeof(bad_tenant_sets) / sizeof(bad_tenant_sets[0]))

/* A bad tenant-set is refused with its message and changes nothing. */
START_TEST(nl_tenant_set_bad_extack)
{
	struct gputbs_tenant_set r = { .cgroup_id = cg_a, .weight = 10 };
	struct gputbs_mon_tenant t;
	__u64 root;
	int ret;

	ck_assert_int_eq(gputbs_monitor_set_tenant(g_mon, &r, sizeof(r)), 0);
	ck_assert_int_eq(gputbs_cgroup_id(CGROOT, &root), 0);
	r.weight = bad_tenant_sets[_i].weight;
	r.max_ppm = bad_tenant_sets[_i].max_ppm;
	switch (bad_tenant_sets[_i].which) {
	case 1:
		r.client_id = 1;
		break;
	case 2:
		r.cgroup_id = cg_a + (1ULL << 40);
		break;
	case 3:
		r.cgroup_id = root;
		break;
	case 4:
		r.cgroup_id = 0;
		r.client_id = 1ULL << 40;
		break;
	}
	/* the library refuses two ids itself: send them through a raw id */
	if (bad_tenant_sets[_i].which == 1) {
		ck_assert_int_eq(gputbs_monitor_set_tenant(g_mon, &r, sizeof(r)),
				 -EINVAL);
		return;
	}
	ret = gputbs_monitor_set_tenant(g_mon, &r, sizeof(r));
	ck_assert_msg(ret == bad_tenant_sets[_i].err, "%s, expected %s",
		      gputbs_strerror(ret),
		      gputbs_strerror(bad_tenant_sets[_i].err));
	printf("tenant-set bad %d: %s: extack '%s'\n", _i,
	       gputbs_strerror(ret), gputbs_monitor_errmsg(g_mon));
	ck_assert_msg(strstr(gputbs_monitor_errmsg(g_mon),
			     bad_tenant_sets[_i].msg),
		      "extack '%s', expected '%s'", gputbs_monitor_errmsg(g_mon),
		      bad_tenant_sets[_i].msg);
	ck_assert(find_tenant(GPUTBS_TENANT_KIND_CGROUP, cg_a, &t));
	ck_assert_uint_eq(t.weight, 10);
	ck_assert_uint_eq(t.max_ppm, 0);
}
END_TEST

/*
 * Child: into cgroup A as root, then nobody.  It may lower its own
 * tenant's weight and cap, never raise them, remove the cap, or touch
 * cgroup B's tenant.  Exit status: the first check that failed.
 */
static int child_tenant_nobody(void)
{
	struct gputbs_tenant_set r = { .cgroup_id = cg_a };
	struct gputbs_monitor *m;

	if (cg_enter(CG_A))
		return 9;
	if (setgid(NOBODY) || setuid(NOBODY))
		return 10;
	if (gputbs_monitor_open(0, &m))
		return 11;
	r.weight = 50;			/* raise 10 -> 50 */
	if (gputbs_monitor_set_tenant(m, &r, sizeof(r)) != -EPERM)
		return 12;
	if (!strstr(gputbs_monitor_errmsg(m), "CAP_SYS_ADMIN"))
		return 13;
	r.weight = 5;			/* lower */
	if (gputbs_monitor_set_tenant(m, &r, sizeof(r)))
		return 14;
	r.weight = 0;
	r.max_ppm = 500000;		/* raise 300000 -> 500000 */
	if (gputbs_monitor_set_tenant(m, &r, sizeof(r)) != -EPERM)
		return 15;
	r.max_ppm = GPUTBS_TENANT_MAX_NONE;	/* remove: a raise */
	if (gputbs_monitor_set_tenant(m, &r, sizeof(r)) != -EPERM)
		return 16;
	r.max_ppm = 200000;		/* lower */
	if (gputbs_monitor_set_tenant(m, &r, sizeof(r)))
		return 17;
	r.cgroup_id = cg_b;		/* not its own, even lowering */
	r.max_ppm = 0;
	r.weight = 1;
	if (gputbs_monitor_set_tenant(m, &r, sizeof(r)) != -EPERM)
		return 18;
	gputbs_monitor_close(m);
	return 0;
}

START_TEST(nl_tenant_nobody_lowers_only)
{
	struct gputbs_tenant_set r = { .cgroup_id = cg_a, .weight = 10,
				       .max_ppm = 300000 };
	struct gputbs_mon_tenant t;
	int status;
	pid_t pid;

	ck_assert_int_eq(gputbs_monitor_set_tenant(g_mon, &r, sizeof(r)), 0);
	r.cgroup_id = cg_b;
	r.max_ppm = 0;
	r.weight = 100;
	ck_assert_int_eq(gputbs_monitor_set_tenant(g_mon, &r, sizeof(r)), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (!pid)
		_exit(child_tenant_nobody());
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(WIFEXITED(status) && !WEXITSTATUS(status),
		      "child: status %#x", status);
	ck_assert(find_tenant(GPUTBS_TENANT_KIND_CGROUP, cg_a, &t));
	ck_assert_uint_eq(t.weight, 5);
	ck_assert_uint_eq(t.max_ppm, 200000);
	ck_assert(find_tenant(GPUTBS_TENANT_KIND_CGROUP, cg_b, &t));
	ck_assert_uint_eq(t.weight, 100);
}
END_TEST

/*
 * Child: into cgroup A, submit one grid that records its blocks, and
 * report through @fd the SM time its blocks held, sum (end - start) x
 * 10^6 / R, then its residency.
 */
static int child_tenant_grid(int fd)
{
	struct gputbs_block_record recs[64];
	struct pollfd pfd = { .events = POLLIN };
	struct gputbs_submit s;
	struct gputbs_wait w;
	struct gputbs *g;
	__u64 sum = 0, msg[2];
	__u32 n, i;

	if (cg_enter(CG_A) || gputbs_open(NULL, 0, &g))
		return 20;
	grid(&s, 64, 256, 2, "tenant");
	s.flags |= GPUTBS_SUBMIT_RECORD_BLOCKS;
	if (gputbs_submit(g, &s))
		return 21;
	pfd.fd = gputbs_fd(g);
	if (poll(&pfd, 1, 60000) != 1)
		return 22;
	if (gputbs_blocks(g, s.handle, recs, 64, &n) || n != 64)
		return 23;
	if (gputbs_wait_handle(g, s.handle, gputbs_now_ns() + NS_PER_SEC, &w))
		return 24;
	for (i = 0; i < n; i++)
		sum += (recs[i].end_cycle - recs[i].start_cycle) *
		       (1000000 / w.residency);
	msg[0] = sum;
	msg[1] = w.residency;
	if (write(fd, msg, sizeof(msg)) != sizeof(msg))
		return 25;
	gputbs_close(g);
	return 0;
}

/*
 * A grid submitted from cgroup A is charged to A's tenant, exactly the SM
 * time its block records add up to; one submitted from the root cgroup to
 * its file's tenant, which fdinfo names.
 */
START_TEST(nl_tenant_charged)
{
	struct gputbs_mon_tenant t;
	struct gputbs_submit s;
	struct gputbs_wait w;
	__u64 msg[2], client = 0;
	char path[64], line[128];
	int fds[2], status;
	FILE *f;
	pid_t pid;

	ck_assert_int_eq(pipe(fds), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (!pid) {
		close(fds[0]);
		_exit(child_tenant_grid(fds[1]));
	}
	close(fds[1]);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(WIFEXITED(status) && !WEXITSTATUS(status),
		      "child: status %#x", status);
	ck_assert_int_eq(read(fds[0], msg, sizeof(msg)), sizeof(msg));
	close(fds[0]);
	ck_assert(find_tenant(GPUTBS_TENANT_KIND_CGROUP, cg_a, &t));
	printf("tenant: cgroup %llu sm_time %llu, blocks' %llu (R %llu)\n",
	       (unsigned long long)cg_a, (unsigned long long)t.sm_time,
	       (unsigned long long)msg[0], (unsigned long long)msg[1]);
	ck_assert_uint_eq(t.sm_time, msg[0]);
	ck_assert_uint_eq(t.grids, 0);

	/* the root cgroup: this file is the tenant */
	grid(&s, 8, 256, 1, "file");
	wait_grid(g_dev, submit(g_dev, &s), &w);
	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", gputbs_fd(g_dev));
	f = fopen(path, "re");
	ck_assert_ptr_nonnull(f);
	while (fgets(line, sizeof(line), f))
		sscanf(line, "drm-gputbs-tenant: file %llu",
		       (unsigned long long *)&client);
	fclose(f);
	ck_assert_uint_ne(client, 0);
	ck_assert(find_tenant(GPUTBS_TENANT_KIND_FILE, client, &t));
	ck_assert_uint_gt(t.sm_time, 0);
}
END_TEST

static Suite *nl_suite(void)
{
	Suite *s = suite_create("gputbs-netlink");
	TCase *tc;

	tc = tcase_create("family");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, nl_family_resolves);
	tcase_add_test(tc, nl_get_device);
	suite_add_tcase(s, tc);

	tc = tcase_create("events");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 90);
	tcase_add_test(tc, nl_events_lifecycle);
	tcase_add_test(tc, nl_events_preempted_by_class);
	tcase_add_test(tc, nl_events_cancelled);
	tcase_add_test(tc, nl_events_timed_out);
	tcase_add_test(tc, nl_events_burst_accounted);
	suite_add_tcase(s, tc);

	tc = tcase_create("dumps");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 90);
	tcase_add_test(tc, nl_dump_grids_while_running);
	tcase_add_test(tc, nl_dump_sms);
	tcase_add_test(tc, nl_get_grid_waiting_after);
	tcase_add_loop_test(tc, nl_dump_interrupted_between_parts, 0, 2);
	suite_add_tcase(s, tc);

	tc = tcase_create("policy");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, nl_set_policy_root);
	tcase_add_test(tc, nl_set_policy_bad_extack);
	tcase_add_test(tc, nl_set_policy_nobody_eperm);
	tcase_add_test(tc, nl_set_policy_needs_sys_admin);
	tcase_add_test(tc, nl_set_policy_races_sysfs);
	tcase_add_test(tc, nl_set_policy_interrupted);
	suite_add_tcase(s, tc);

	tc = tcase_create("params");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, nl_params_dev_get);
	tcase_add_test(tc, nl_params_set_read_back);
	tcase_add_loop_test(tc, nl_params_set_bad_extack, 0,
			    NR_BAD_PARAM_SETS);
	tcase_add_test(tc, nl_params_set_fifo_enoent);
	tcase_add_loop_test(tc, nl_params_set_eperm, 0, 2);
	suite_add_tcase(s, tc);

	tc = tcase_create("preempt");
	tcase_add_checked_fixture(tc, setup_preempt, teardown_preempt);
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, nl_preempt_set_read_back);
	tcase_add_loop_test(tc, nl_preempt_set_bad_extack, 0,
			    NR_BAD_PREEMPT_SETS);
	tcase_add_test(tc, nl_preempt_set_nobody_eperm);
	suite_add_tcase(s, tc);

	tc = tcase_create("privacy");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, nl_private_other_users_grids);
	suite_add_tcase(s, tc);

	tc = tcase_create("tenants");
	tcase_add_checked_fixture(tc, setup_tenants, teardown_tenants);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, nl_tenant_set_root);
	tcase_add_loop_test(tc, nl_tenant_set_bad_extack, 0, NR_BAD_TENANT_SETS);
	tcase_add_test(tc, nl_tenant_nobody_lowers_only);
	tcase_add_test(tc, nl_tenant_charged);
	suite_add_tcase(s, tc);

	tc = tcase_create("cli");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 90);
	tcase_add_test(tc, nl_top_terminal);
	suite_add_tcase(s, tc);
	return s;
}

int main(int argc, char **argv)
{
	SRunner *sr;
	int failed;

	sr = srunner_create(nl_suite());
	if (argc > 1 && !strcmp(argv[1], "--tap"))
		srunner_set_tap(sr, "-");
	else if (argc > 1) {
		fputs("Usage: gputbs-nl-test [--tap]\n", stderr);
		return 2;
	}
	srunner_run_all(sr, getenv("CK_VERBOSITY") ? CK_ENV : CK_VERBOSE);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
