// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_top.c - "gputbs top": a live view of the emulated GPU through the
 * gputbs generic netlink family: the policy and counters, the thread
 * block slots of every SM with the grid of each resident block, the
 * running and queued grids with their progress and runtime predictions,
 * and the latest scheduling events.
 *
 * On a terminal it redraws in place with plain ANSI escape sequences
 * (alternate screen, cursor home, erase; no terminfo, so that it works in
 * the busybox guest) and reads keys unbuffered: q quits, space
 * refreshes.  Otherwise (not a terminal, TERM=dumb or unset), or with
 * --batch, frames follow each other.
 *
 * Copyright (C) 2026 The gputbs developers
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "gtbs_names.h"
#include "monitor_fmt.h"
#include "../lib/workload.h"

#define RECENT_EVENTS	6
#define MAX_LETTERS	52

static const char usage_top[] =
	"Usage: gputbs top [--delay SEC] [--iterations N] [--batch]\n"
	"\n"
	"A live view of the emulated GPU through the gputbs netlink family:\n"
	"the policy and counters, each SM's thread block slots with the grid\n"
	"of every resident block (one letter per grid, '.' for a free slot),\n"
	"the tenants with their share of the device's SM time since the\n"
	"previous frame, weight, cap and throttling, the running grids with\n"
	"their progress and runtime predictions, the queue, and the latest\n"
	"scheduling events.  On a terminal, q quits and\n"
	"space refreshes.\n"
	"\n"
	"  -d, --delay SEC       seconds between refreshes (default 1)\n"
	"  -n, --iterations N    show N frames, then exit\n"
	"  -b, --batch           frames one after another, no screen control\n"
	"                        (the default when the output is not a terminal)\n"
	"  -h, --help            this help\n";

static struct termios saved_tio;
static bool tio_saved, screen_on;

static void screen_restore(void)
{
	if (screen_on) {
		/* cursor back, main screen */
		fputs("\033[?25h\033[?1049l", stdout);
		fflush(stdout);
		screen_on = false;
	}
	if (tio_saved) {
		tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved_tio);
		tio_saved = false;
	}
}

static void on_signal(int sig)
{
	screen_restore();
	signal(sig, SIG_DFL);
	raise(sig);
}

/* Alternate screen, hidden cursor, keys without Enter or echo. */
static void screen_setup(void)
{
	struct termios tio;

	if (isatty(STDIN_FILENO) && !tcgetattr(STDIN_FILENO, &saved_tio)) {
		tio = saved_tio;
		tio.c_lflag &= ~(ICANON | ECHO);
		tio.c_cc[VMIN] = 0;
		tio.c_cc[VTIME] = 0;
		if (!tcsetattr(STDIN_FILENO, TCSAFLUSH, &tio))
			tio_saved = true;
	}
	fputs("\033[?1049h\033[?25l", stdout);
	screen_on = true;
	atexit(screen_restore);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGHUP, on_signal);
}

/*
 * Full-screen drawing needs a terminal on stdout that understands screen
 * control: not a pipe or file, and not TERM=dumb or no TERM at all (a
 * serial console, as in tools/vm/gputbs-vm without a terminal on the host).
 */
static bool term_can_draw(void)
{
	const char *term = getenv("TERM");

	return isatty(STDOUT_FILENO) && term && *term &&
	       strcmp(term, "dumb") != 0;
}

/**
 * struct top - one frame's data
 * @dev: the device.
 * @grids: arriving, queued and running grids.
 * @nr_grids: entries of @grids.
 * @sms: the SMs.
 * @nr_sms: entries of @sms.
 * @recent: the latest events, oldest first.
 * @nr_recent: entries of @recent.
 * @lost: events lost (module queue or socket) since the start.
 * @prev_busy: per SM, busy cycles at the previous frame (see sm_busy()).
 * @prev_now: the device's cycle at the previous frame, 0 before.
 * @tenants: the tenants (tenant-get), NULL from a module without them.
 * @nr_tenants: entries of @tenants.
 * @prev_tenants: @tenants of the previous frame, for their shares.
 * @nr_prev_tenants: entries of @prev_tenants.
 */
struct top {
	struct gputbs_mon_dev dev;
	struct gputbs_mon_grid *grids;
	size_t nr_grids;
	struct gputbs_mon_sm *sms;
	size_t nr_sms;
	struct gputbs_mon_event recent[RECENT_EVENTS];
	unsigned int nr_recent;
	unsigned long long lost;
	__u64 *prev_busy;
	__u64 prev_now;
	struct gputbs_mon_tenant *tenants;
	size_t nr_tenants;
	struct gputbs_mon_tenant *prev_tenants;
	size_t nr_prev_tenants;
};

/* The letter of a grid: its position among the grids of the frame. */
static char grid_letter(const struct top *t, __u64 id)
{
	static const char letters[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
	size_t i;

	for (i = 0; i < t->nr_grids; i++)
		if (t->grids[i].id == id)
			return i < MAX_LETTERS ? letters[i] : '+';
	return '?';	/* ended between the two dumps */
}

static void add_recent(struct top *t, const struct gputbs_mon_event *ev)
{
	if (ev->type == GPUTBS_EVENT_LOST)
		t->lost += ev->lost;
	if (t->nr_recent == RECENT_EVENTS) {
		memmove(t->recent, t->recent + 1,
			(RECENT_EVENTS - 1) * sizeof(t->recent[0]));
		t->nr_recent--;
	}
	t->recent[t->nr_recent++] = *ev;
}

static int drain_events(struct gputbs_monitor *m, struct top *t)
{
	struct gputbs_mon_event ev;
	int ret;

	for (;;) {
		ret = gputbs_monitor_recv(m, &ev, sizeof(ev));
		if (ret == -EAGAIN)
			return 0;
		if (ret == -ENOBUFS) {
			t->lost++;
			continue;
		}
		if (ret)
			return ret;
		add_recent(t, &ev);
	}
}

/* Frames a busy device's interrupted dumps may cost before top gives up. */
#define FETCH_TRIES	16

static int fetch(struct gputbs_monitor *m, struct top *t)
{
	int ret;

	free(t->grids);
	free(t->sms);
	t->grids = NULL;
	t->sms = NULL;
	ret = gputbs_monitor_get_device(m, &t->dev, sizeof(t->dev));
	if (!ret)
		ret = gputbs_monitor_dump_grids(m, &t->grids,
						sizeof(*t->grids), &t->nr_grids);
	if (!ret)
		ret = gputbs_monitor_dump_sms(m, &t->sms, sizeof(*t->sms),
					      &t->nr_sms);
	if (ret)
		return ret;
	/* the previous frame's tenants give the shares since then */
	free(t->prev_tenants);
	t->prev_tenants = t->tenants;
	t->nr_prev_tenants = t->nr_tenants;
	t->tenants = NULL;
	t->nr_tenants = 0;
	ret = gputbs_monitor_dump_tenants(m, &t->tenants, sizeof(*t->tenants),
					  &t->nr_tenants);
	/* a module without tenants: no panel */
	if (ret == -EOPNOTSUPP || ret == -EINVAL) {
		t->tenants = NULL;
		t->nr_tenants = 0;
		ret = 0;
	}
	return ret;
}

static bool same_tenant(const struct gputbs_mon_tenant *a,
			const struct gputbs_mon_tenant *b)
{
	return a->kind == b->kind && a->cgroup_id == b->cgroup_id &&
	       a->client_id == b->client_id;
}

/*
 * A tenant's share of the device's SM time since the previous frame:
 * the difference of its SM time over nr_sms x 1000000 x that of the
 * cycles; NAN for a tenant new in this frame or no cycle between.
 */
static double tenant_share(const struct top *t,
			   const struct gputbs_mon_tenant *cur)
{
	size_t i;

	for (i = 0; i < t->nr_prev_tenants; i++) {
		const struct gputbs_mon_tenant *p = &t->prev_tenants[i];

		if (!same_tenant(p, cur))
			continue;
		if (cur->now_cycle <= p->now_cycle || !t->dev.nr_sms ||
		    cur->sm_time < p->sm_time)
			return NAN;
		return (double)(cur->sm_time - p->sm_time) /
		       (1e6 * t->dev.nr_sms *
			(double)(cur->now_cycle - p->now_cycle));
	}
	return NAN;
}

static void print_tenants(FILE *f, const struct top *t)
{
	static const char * const kinds[] = {
		GTBS_TENANT_KIND_NAMES(GPUTBS_TENANT_KIND_)
	};
	char cap[24], pct[16], share[16];
	size_t i;

	if (!t->tenants)
		return;
	fprintf(f, "\n  tenant                    weight       max  grids   share  throttled\n");
	for (i = 0; i < t->nr_tenants; i++) {
		const struct gputbs_mon_tenant *x = &t->tenants[i];
		double s = tenant_share(t, x);

		if (x->max_ppm)
			snprintf(cap, sizeof(cap), "%s%%",
				 wl_fmt_pct(x->max_ppm, pct, sizeof(pct)));
		else
			snprintf(cap, sizeof(cap), "-");
		if (isfinite(s))
			snprintf(share, sizeof(share), "%6.2f%%", 100.0 * s);
		else
			snprintf(share, sizeof(share), "%7s", "-");
		fprintf(f, "  %-6s %-18" PRIu64 "  %6u  %8s  %5u  %s  %s\n",
			x->kind < sizeof(kinds) / sizeof(kinds[0]) ?
			kinds[x->kind] : "?",
			(uint64_t)(x->kind == GPUTBS_TENANT_KIND_FILE ?
				   x->client_id : x->cgroup_id),
			x->weight, cap, x->grids, share,
			x->throttled ? "yes" : "no");
	}
}

static double cycles_s(const struct gputbs_mon_dev *d, __u64 cycles)
{
	return (double)cycles * d->time_scale_ps / 1e12;
}

/* The name of an enum gputbs_preempt_mode (sysfs preempt_mode's words). */
static const char *preempt_mode_name(__u32 mode)
{
	static const char * const names[] = {
		[GPUTBS_PREEMPT_MODE_DRAIN] = "drain",
		[GPUTBS_PREEMPT_MODE_SWITCH] = "switch",
		[GPUTBS_PREEMPT_MODE_FLUSH] = "flush",
		[GPUTBS_PREEMPT_MODE_AUTO] = "auto",
	};

	return mode < sizeof(names) / sizeof(names[0]) ? names[mode] : "?";
}

static void print_header(FILE *f, const struct top *t)
{
	const struct gputbs_mon_dev *d = &t->dev;

	fprintf(f, "gputbs top - cycle %" PRIu64 " (%.3f s)  policy %s  %u SMs  "
		"grids: %u running, %u queued, %u arriving\n",
		(uint64_t)d->now_cycle, cycles_s(d, d->now_cycle), d->policy,
		d->nr_sms, d->grids_running, d->grids_queued,
		d->grids_arriving);
	fprintf(f, "counters: %" PRIu64 " grids submitted, %" PRIu64
		" completed, %" PRIu64 " blocks, %" PRIu64 " predictions, %"
		PRIu64 " policy switches; events %" PRIu64 " sent, %" PRIu64
		" dropped\n", (uint64_t)d->grids_submitted,
		(uint64_t)d->grids_completed, (uint64_t)d->blocks_dispatched,
		(uint64_t)d->predictions, (uint64_t)d->policy_switches,
		(uint64_t)d->events_sent, (uint64_t)d->events_dropped);
	fprintf(f, "preemption: mode %s; blocks %" PRIu64 " switched, %" PRIu64
		" flushed, %" PRIu64 " restored; %" PRIu64 " switch cycles, %"
		PRIu64 " flushed cycles\n", preempt_mode_name(d->preempt_mode),
		(uint64_t)d->blocks_switched, (uint64_t)d->blocks_flushed,
		(uint64_t)d->blocks_restored, (uint64_t)d->switch_cycles,
		(uint64_t)d->flushed_cycles);
	mon_params_text(f, d);
}

/*
 * An SM's busy cycles up to the device's cycle: its own count is current
 * up to its last event, and it stays busy while it holds blocks.
 */
static __u64 sm_busy(const struct top *t, const struct gputbs_mon_sm *sm)
{
	__u64 busy = sm->busy_cycles;

	if (sm->resident_blocks && t->dev.now_cycle > sm->now_cycle)
		busy += t->dev.now_cycle - sm->now_cycle;
	return busy;
}

/* Busy percentage since the previous frame (since the start for the first). */
static double sm_busy_pct(const struct top *t, size_t i)
{
	__u64 busy = sm_busy(t, &t->sms[i]), span, prev = 0;

	if (t->prev_now && t->prev_busy && t->dev.now_cycle > t->prev_now) {
		span = t->dev.now_cycle - t->prev_now;
		prev = t->prev_busy[i];
	} else {
		span = t->dev.now_cycle;
	}
	if (!span || busy < prev)
		return 0;
	busy -= prev;
	return busy > span ? 100.0 : 100.0 * busy / span;
}

/* Remember the busy cycles of this frame for the next one. */
static void save_busy(struct top *t)
{
	size_t i;
	__u64 *p = realloc(t->prev_busy, (t->nr_sms ? t->nr_sms : 1) *
			   sizeof(*p));

	if (!p) {
		t->prev_now = 0;
		return;
	}
	t->prev_busy = p;
	for (i = 0; i < t->nr_sms; i++)
		p[i] = sm_busy(t, &t->sms[i]);
	t->prev_now = t->dev.now_cycle;
}

static void print_sms(FILE *f, const struct top *t)
{
	const struct gputbs_mon_dev *d = &t->dev;
	char slots[GPUTBS_MON_MAX_SLOTS + 1];
	size_t i;
	__u32 s, n;

	n = d->sm_blocks < GPUTBS_MON_MAX_SLOTS ? d->sm_blocks :
						 GPUTBS_MON_MAX_SLOTS;
	fprintf(f, "\n  SM  %-*s  warps      threads    regs         shmem          busy\n",
		(int)(n > 5 ? n : 5), "slots");
	for (i = 0; i < t->nr_sms; i++) {
		const struct gputbs_mon_sm *sm = &t->sms[i];
		double busy = sm_busy_pct(t, i);

		memset(slots, '.', n);
		slots[n] = '\0';
		for (s = 0; s < sm->nr_slots; s++)
			if (sm->slots[s].index < n)
				slots[sm->slots[s].index] =
					grid_letter(t, sm->slots[s].grid_id);
		fprintf(f, "%4u  %-*s  %2u/%-2u  %5u/%-5u  %6u/%-6u  %6u/%-6u  %5.1f%%%s\n",
			sm->id, (int)(n > 5 ? n : 5), slots,
			d->sm_warps - sm->free_warps, d->sm_warps,
			d->sm_threads - sm->free_threads, d->sm_threads,
			d->sm_regs - sm->free_regs, d->sm_regs,
			d->sm_shmem - sm->free_shmem, d->sm_shmem, busy,
			sm->sharing ? "  sharing" : "");
	}
}

/* Remaining cycles by the latest prediction, from now; or "-". */
static void format_pred(char *buf, size_t len, const struct top *t,
			const struct gputbs_mon_grid *g)
{
	__u64 end;

	if (!(g->flags & GPUTBS_MON_GRID_PREDICTED)) {
		snprintf(buf, len, "-");
		return;
	}
	end = g->pred_cycle + g->pred_remaining;
	snprintf(buf, len, "%" PRIu64,
		 (uint64_t)(end > t->dev.now_cycle ? end - t->dev.now_cycle : 0));
}

static void print_grid(FILE *f, const struct top *t, size_t i)
{
	const struct gputbs_mon_grid *g = &t->grids[i];
	char pred[32];
	__u64 elapsed = 0;

	format_pred(pred, sizeof(pred), t, g);
	if ((g->flags & GPUTBS_MON_GRID_STARTED) &&
	    t->dev.now_cycle > g->start_cycle)
		elapsed = t->dev.now_cycle - g->start_cycle;
	fprintf(f, "  %c %5" PRIu64 " %7u %6u  %-8s %-8s %6u/%-6u %6u/%-6u %4u %3u %12" PRIu64 " %12s %12" PRIu64 "  %s\n",
		grid_letter(t, g->id), (uint64_t)g->id, g->pid, g->handle,
		mon_class_name(g->prio_class), gputbs_grid_state_name(g->state),
		g->blocks_done, g->nr_blocks, g->blocks_issued, g->nr_blocks,
		g->resident, g->residency, (uint64_t)elapsed, pred,
		(uint64_t)g->alone_cycles, g->label);
}

static void print_grids(FILE *f, const struct top *t)
{
	size_t i, queued = 0;

	fputs("\n  L    ID     PID handle  class    state      done/total   issued/total  res   R      elapsed  pred remain  alone (SJF)  label\n",
	      f);
	for (i = 0; i < t->nr_grids; i++)
		if (t->grids[i].state == GPUTBS_GRID_STATE_RUNNING)
			print_grid(f, t, i);
	for (i = 0; i < t->nr_grids; i++)
		if (t->grids[i].state != GPUTBS_GRID_STATE_RUNNING)
			queued++;
	fprintf(f, "\nqueue: %zu grid%s\n", queued, queued == 1 ? "" : "s");
	for (i = 0; i < t->nr_grids; i++)
		if (t->grids[i].state != GPUTBS_GRID_STATE_RUNNING)
			print_grid(f, t, i);
}

static void print_recent(FILE *f, const struct top *t)
{
	unsigned int i;

	fprintf(f, "\nlatest events%s:\n",
		t->lost ? " (some lost)" : "");
	for (i = 0; i < t->nr_recent; i++)
		mon_event_text(f, &t->recent[i]);
}

static void print_frame(FILE *f, const struct top *t, bool screen)
{
	if (screen)
		fputs("\033[H\033[2J", f);	/* home, erase */
	print_header(f, t);
	print_sms(f, t);
	print_tenants(f, t);
	print_grids(f, t);
	print_recent(f, t);
	fflush(f);
}

enum { WAIT_TIMEOUT, WAIT_QUIT, WAIT_REFRESH };

/*
 * Wait until @deadline (gputbs_now_ns()), taking the events that arrive
 * meanwhile into @t and, with @keys, the keys: q quits, space refreshes.
 */
static int wait_input(struct gputbs_monitor *m, struct top *t, __u64 deadline,
		      bool keys)
{
	struct pollfd pfd[2] = {
		{ .fd = gputbs_monitor_fd(m), .events = POLLIN },
		{ .fd = STDIN_FILENO, .events = POLLIN },
	};
	char c;

	for (;;) {
		__u64 now = gputbs_now_ns();
		int ret;

		if (now >= deadline)
			return WAIT_TIMEOUT;
		ret = poll(pfd, keys ? 2 : 1,
			   (int)((deadline - now + 999999) / 1000000));
		if (ret < 0 && errno != EINTR)
			return WAIT_TIMEOUT;
		if (ret <= 0)
			continue;
		if (pfd[0].revents & POLLIN)
			drain_events(m, t);
		if (keys && (pfd[1].revents & POLLIN) &&
		    read(STDIN_FILENO, &c, 1) == 1) {
			if (c == 'q' || c == 'Q')
				return WAIT_QUIT;
			if (c == ' ')
				return WAIT_REFRESH;
		}
	}
}

int cmd_top(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "delay", required_argument, NULL, 'd' },
		{ "iterations", required_argument, NULL, 'n' },
		{ "batch", no_argument, NULL, 'b' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned long long iterations = 0, frame;
	struct gputbs_monitor *m;
	bool batch = false, screen, keys;
	struct top t;
	double delay = 1.0;
	__u64 last = 0;
	char *end;
	int c, ret, tries;

	while ((c = getopt_long(argc, argv, "d:n:bh", opts, NULL)) != -1) {
		switch (c) {
		case 'd':
			delay = strtod(optarg, &end);
			if (*end || !*optarg || !(delay >= 0.05) || delay > 3600)
				return usage_error(usage_top,
						   "bad --delay '%s' (0.05 to 3600 seconds)",
						   optarg);
			break;
		case 'n':
			errno = 0;
			iterations = strtoull(optarg, &end, 10);
			if (errno || *end || !*optarg || *optarg == '-' ||
			    !iterations)
				return usage_error(usage_top,
						   "bad --iterations '%s'", optarg);
			break;
		case 'b':
			batch = true;
			break;
		case 'h':
			fputs(usage_top, stdout);
			return 0;
		default:
			fputs(usage_top, stderr);
			return EXIT_USAGE;
		}
	}
	if (optind < argc)
		return usage_error(usage_top, "unexpected argument '%s'",
				   argv[optind]);
	ret = gputbs_monitor_open(GPUTBS_MONITOR_EVENTS, &m);
	if (ret)
		return monitor_error(ret);
	memset(&t, 0, sizeof(t));
	screen = !batch && term_can_draw();
	if (screen)
		screen_setup();
	keys = screen && tio_saved;
	for (frame = 0; !iterations || frame < iterations; frame++) {
		if (frame &&
		    wait_input(m, &t, last + (__u64)(delay * 1e9), keys) ==
		    WAIT_QUIT)
			break;
		last = gputbs_now_ns();
		ret = drain_events(m, &t);
		/*
		 * -EAGAIN: the grids kept changing under their dump (the
		 * library already tried again); a busy device is no reason
		 * to stop.  The changes come in bursts (grids ending and
		 * arriving together), so each try waits a little longer
		 * than the one before: 1, 2, 3 ... ms, 136 ms in all.
		 */
		for (tries = 0; !ret || ret == -EAGAIN; tries++) {
			ret = fetch(m, &t);
			if (ret != -EAGAIN || tries == FETCH_TRIES)
				break;
			nanosleep(&(struct timespec){
					.tv_nsec = (tries + 1) * 1000000L },
				  NULL);
		}
		if (ret) {
			screen_restore();
			gputbs_monitor_close(m);
			free(t.grids);
			free(t.sms);
			free(t.prev_busy);
			free(t.tenants);
			free(t.prev_tenants);
			return monitor_error(ret);
		}
		if (frame && !screen)
			fputc('\n', stdout);
		print_frame(stdout, &t, screen);
		save_busy(&t);
	}
	screen_restore();
	gputbs_monitor_close(m);
	free(t.grids);
	free(t.sms);
	free(t.prev_busy);
	free(t.tenants);
	free(t.prev_tenants);
	return 0;
}

static const char usage_param[] =
	"Usage: gputbs param [NAME=VALUE...]\n"
	"\n"
	"Show the parameters of the current scheduling policy, through the\n"
	"gputbs netlink family (dev-get): a line \"params: NAME=VALUE UNIT ...\",\n"
	"then one line per parameter with its unit, default and range.  With\n"
	"NAME=VALUE arguments, first set each (param-set, needs root): VALUE\n"
	"is a number in the parameter's unit or one of its value names.  The\n"
	"same parameters are the files of /sys/class/misc/gputbs/policy_params/.\n"
	"\n"
	"  -h, --help            this help\n";

int cmd_param(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct gputbs_monitor *m;
	struct gputbs_mon_dev d;
	int c, i, ret;
	__u32 j;

	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'h':
			fputs(usage_param, stdout);
			return 0;
		default:
			fputs(usage_param, stderr);
			return EXIT_USAGE;
		}
	}
	for (i = optind; i < argc; i++)
		if (!strchr(argv[i], '=') || argv[i][0] == '=')
			return usage_error(usage_param,
					   "'%s' is not NAME=VALUE", argv[i]);
	ret = gputbs_monitor_open(0, &m);
	if (ret)
		return monitor_error(ret);
	for (i = optind; i < argc; i++) {
		char name[64], *eq = strchr(argv[i], '=');

		snprintf(name, sizeof(name), "%.*s", (int)(eq - argv[i]),
			 argv[i]);
		ret = gputbs_monitor_set_param_text(m, name, eq + 1);
		if (ret) {
			err_msg("param-set %s: %s%s%s", argv[i],
				gputbs_strerror(ret),
				gputbs_monitor_errmsg(m)[0] ? ": " : "",
				gputbs_monitor_errmsg(m));
			gputbs_monitor_close(m);
			return EXIT_DEVICE;
		}
	}
	ret = gputbs_monitor_get_device(m, &d, sizeof(d));
	gputbs_monitor_close(m);
	if (ret)
		return monitor_error(ret);
	printf("policy %s\n", d.policy);
	mon_params_text(stdout, &d);
	for (j = 0; j < d.nr_params; j++) {
		const struct gputbs_mon_param *p = &d.params[j];

		printf("%-24s %s", p->name, p->value_name[0] ? p->value_name : "");
		if (!p->value_name[0])
			printf("%llu%s%s", (unsigned long long)p->value,
			       p->unit[0] ? " " : "", p->unit);
		printf("  (default %llu, %llu..%llu)\n",
		       (unsigned long long)p->def,
		       (unsigned long long)p->minimum,
		       (unsigned long long)p->maximum);
	}
	return 0;
}

static const char usage_preempt[] =
	"Usage: gputbs preempt [MODE] [--switch-bw N] [--budget CLASS=CYCLES...]\n"
	"\n"
	"Set how the SMs preempt resident blocks of lower priority classes,\n"
	"through the gputbs netlink family (preempt-set, needs root), then show\n"
	"the mode and the preemption counters (dev-get).  MODE is drain,\n"
	"switch, flush or auto (or its number); without it nothing is set.\n"
	"The same settings are the files preempt_mode, switch_bytes_per_cycle\n"
	"and preempt_budget_CLASS of /sys/class/misc/gputbs/.\n"
	"\n"
	"  -w, --switch-bw N         each SM's context switch bandwidth, bytes\n"
	"                            per emulated cycle (1..65536)\n"
	"  -b, --budget CLASS=CYCLES preemption latency budget of CLASS (low,\n"
	"                            normal, high, realtime), emulated cycles;\n"
	"                            may be repeated\n"
	"  -h, --help                this help\n";

/* MODE: a name of enum gputbs_preempt_mode, or a number passed as is. */
static int parse_preempt_mode(const char *s, __u32 *mode)
{
	unsigned long long v;
	char *end;
	__u32 i;

	for (i = 0; i <= GPUTBS_PREEMPT_MODE_AUTO; i++) {
		if (!strcmp(s, preempt_mode_name(i))) {
			*mode = i;
			return 0;
		}
	}
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end || !*s || *s == '-' || v > UINT32_MAX)
		return -EINVAL;
	*mode = v;
	return 0;
}

/* --budget CLASS=CYCLES into @req. */
static int parse_budget(const char *s, struct gputbs_preempt_set *req)
{
	static const char * const classes[] = {
		"low", "normal", "high", "realtime",
	};
	const char *eq = strchr(s, '=');
	unsigned long long v;
	unsigned int i;
	char *end;

	if (!eq)
		return -EINVAL;
	for (i = 0; i < 4; i++)
		if (strlen(classes[i]) == (size_t)(eq - s) &&
		    !strncmp(s, classes[i], eq - s))
			break;
	if (i == 4)
		return -EINVAL;
	errno = 0;
	v = strtoull(eq + 1, &end, 10);
	if (errno || *end || !eq[1] || eq[1] == '-')
		return -EINVAL;
	req->budget[i] = v;
	req->budget_mask |= 1u << i;
	return 0;
}

int cmd_preempt(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "switch-bw", required_argument, NULL, 'w' },
		{ "budget", required_argument, NULL, 'b' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct gputbs_preempt_set req;
	struct gputbs_monitor *m;
	struct gputbs_mon_dev d;
	unsigned long long v;
	bool set = false;
	char *end;
	int c, ret;

	memset(&req, 0, sizeof(req));
	while ((c = getopt_long(argc, argv, "w:b:h", opts, NULL)) != -1) {
		switch (c) {
		case 'w':
			errno = 0;
			v = strtoull(optarg, &end, 10);
			if (errno || *end || !*optarg || *optarg == '-' || !v ||
			    v > UINT32_MAX)
				return usage_error(usage_preempt,
						   "bad --switch-bw '%s'", optarg);
			req.switch_bytes_per_cycle = v;
			break;
		case 'b':
			if (parse_budget(optarg, &req))
				return usage_error(usage_preempt,
						   "bad --budget '%s' (CLASS=CYCLES)",
						   optarg);
			break;
		case 'h':
			fputs(usage_preempt, stdout);
			return 0;
		default:
			fputs(usage_preempt, stderr);
			return EXIT_USAGE;
		}
	}
	if (optind < argc) {
		if (parse_preempt_mode(argv[optind], &req.mode))
			return usage_error(usage_preempt,
					   "unknown mode '%s' (drain, switch, flush, auto)",
					   argv[optind]);
		set = true;
		optind++;
	}
	if (optind < argc)
		return usage_error(usage_preempt, "unexpected argument '%s'",
				   argv[optind]);
	if (!set && (req.switch_bytes_per_cycle || req.budget_mask))
		return usage_error(usage_preempt, "%s",
				   "--switch-bw and --budget need a MODE");
	ret = gputbs_monitor_open(0, &m);
	if (ret)
		return monitor_error(ret);
	if (set) {
		ret = gputbs_monitor_set_preempt(m, &req, sizeof(req));
		if (ret) {
			err_msg("preempt-set: %s%s%s", gputbs_strerror(ret),
				gputbs_monitor_errmsg(m)[0] ? ": " : "",
				gputbs_monitor_errmsg(m));
			gputbs_monitor_close(m);
			return EXIT_DEVICE;
		}
	}
	ret = gputbs_monitor_get_device(m, &d, sizeof(d));
	gputbs_monitor_close(m);
	if (ret)
		return monitor_error(ret);
	printf("preemption: mode %s; blocks %" PRIu64 " switched, %" PRIu64
	       " flushed, %" PRIu64 " restored; %" PRIu64 " switch cycles, %"
	       PRIu64 " flushed cycles\n", preempt_mode_name(d.preempt_mode),
	       (uint64_t)d.blocks_switched, (uint64_t)d.blocks_flushed,
	       (uint64_t)d.blocks_restored, (uint64_t)d.switch_cycles,
	       (uint64_t)d.flushed_cycles);
	return 0;
}
