// SPDX-License-Identifier: GPL-2.0
/*
 * gputbs-stress.c - many processes, thousands of grids, the policy
 * switching underneath, and the invariants checked afterwards.  Runs in
 * the guest as root (Documentation/reliability.rst).
 *
 *   gputbs-stress [--grids N] [--procs P] [--outstanding K] [--kill V]
 *                 [--max-blocks B] [--seed S] [--switch-ms MS] [--timeout S]
 *                 [--policies LIST] [--strict-classes]
 *
 * P client processes (default: 4 per CPU, at least 32; half of them drop
 * to user nobody) submit N grids between them (default 2000), each keeping
 * up to K (default 4) unreaped: random sizes, shapes, work models (DIST and
 * ARRAY), both SUBMIT commands, arrival cycles, and classes (LOW and
 * NORMAL for everyone, HIGH and REALTIME for root; nobody's HIGH must be
 * EPERM).  Every grid records its blocks.  Meanwhile one process switches
 * the policy through sysfs every few milliseconds among all the device
 * offers (or those of the comma-separated LIST: a BPF policy's
 * conformance, Documentation/bpf.rst), and turns the starvation guard on
 * and off (not with --strict-classes: it is kept off), and V victim
 * processes (default 8) with running, queued and arriving grids are
 * SIGKILLed at random moments.
 *
 * Checked, every failure printed with what was expected:
 *  - every grid completes exactly once: GPUTBS_IOCTL_WAIT reaps it once
 *    (blocks_done = nr_blocks, residency = the occupancy calculation's R),
 *    a second WAIT is ENOENT, and at the end WAIT_ANY finds nothing;
 *  - every block runs exactly once: GPUTBS_IOCTL_BLOCKS gives nr_blocks
 *    records, each block index once, start < end, on a real SM and slot,
 *    inside the grid's span, whose first start and last end are the
 *    grid's start and end cycles;
 *  - no SM ever exceeds its resources: over all records, a sweep per SM
 *    over block start and end events (ends first at equal cycles) keeps
 *    blocks, warps, threads, registers and shared memory within the SM's,
 *    and a slot holds one block at a time;
 *  - with --strict-classes, priority classes are strict (the unit suite
 *    conformance's rule 3, tests/unit/test_conformance.c): no block starts
 *    at a cycle t while a grid of a higher class, arrived before t, still
 *    has a block to start after t.  Only reaped grids are known, so a
 *    victim's grids are not held against others;
 *  - the device ends idle and its counters add up: debugfs gputbs/sms
 *    shows no resident block and every resource free, gputbs/grids no
 *    grid; grids_submitted = grids_completed + grids_cancelled +
 *    grids_timed_out (none times out in a run), and
 *    over the run they grew by at least what this program saw.
 *
 * Use a fast time scale (module parameter time_scale_ps=1000: one cycle
 * per ns) so that thousands of grids finish in about a minute under TCG.
 * The last line is "stress: PASS ..." or "stress: FAIL ..."; the exit
 * status is 0 only for PASS.
 *
 * Copyright (C) 2026 The gputbs developers
 */
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <sys/wait.h>

#include "../guest/guest-util.h"

/* One block as recorded, for the per-SM sweep. */
struct rec {
	__u32 sm;
	__u32 slot;
	__u32 shape;	/* index into the client's shapes: resources */
	__u32 client;
	__u64 start;
	__u64 end;
};

/* A block's footprint on an SM. */
struct shape {
	__u32 warps;
	__u32 threads;
	__u32 regs;
	__u32 shmem;
	/* for --strict-classes: the grid's class (GPUTBS_PRIO_*, DEFAULT
	 * as NORMAL), arrival cycle and the cycle its last block started */
	__u32 prio_class;
	__u64 arrival;
	__u64 last_start;
};

struct grid {
	__u32 handle;
	__u32 nr_blocks;
	__u32 residency;
	__u32 shape;	/* index of @fp in the client's shapes */
	__u64 arrival;
	struct shape fp;
};

static struct gputbs_info info;
static unsigned int nr_grids = 2000, nr_procs, outstanding = 4, nr_victims = 8;
static unsigned int max_blocks = 200, switch_ms = 5, timeout_s = 600;
static __u64 seed = 1;
static const char *policies;	/* --policies: the switcher's, or all */
static bool strict_classes;
static char tmpdir[64];

static void fail(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "stress[%d]: FAIL: ", getpid());
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static __u32 round_up32(__u32 x, __u32 a)
{
	return (x + a - 1) / a * a;
}

/* The occupancy calculation of Documentation/design.rst: 0 if no fit. */
static __u32 occupancy(__u32 threads, __u32 regs, __u32 shmem,
		       struct shape *fp)
{
	__u32 r = info.max_blocks_per_sm, n;

	fp->warps = (threads + info.warp_size - 1) / info.warp_size;
	fp->threads = fp->warps * info.warp_size;
	fp->regs = fp->warps * round_up32(regs * info.warp_size,
					  info.reg_alloc_unit);
	fp->shmem = round_up32(shmem, info.shmem_alloc_unit);
	if (fp->regs > info.max_regs_per_sm || shmem > info.max_shmem_per_sm)
		return 0;
	n = info.max_warps_per_sm / fp->warps;
	r = n < r ? n : r;
	n = info.max_threads_per_sm / fp->threads;
	r = n < r ? n : r;
	if (fp->regs) {
		n = info.max_regs_per_sm / fp->regs;
		r = n < r ? n : r;
	}
	if (fp->shmem) {
		n = info.max_shmem_per_sm / fp->shmem;
		r = n < r ? n : r;
	}
	return r;
}

/* A random valid grid into @s and @g; @durations holds ARRAY's. */
static void random_grid(__u64 *rng, bool root, struct gputbs_submit *s,
			struct grid *g, __u64 *durations)
{
	static const __u32 threads[] = { 32, 61, 64, 96, 128, 192, 256, 384,
					 512, 768, 1024 };
	__u32 i;

	memset(g, 0, sizeof(*g));
	do {
		gu_grid(s, 1, threads[gu_range(rng, 0, 10)], 1);
		s->regs_per_thread = gu_range(rng, 0, 3) ? gu_range(rng, 0, 40) :
			gu_range(rng, 0, info.max_regs_per_thread);
		s->shmem_per_block = gu_range(rng, 0, 2) ? 0 :
			gu_range(rng, 0, info.max_shmem_per_sm);
		g->residency = occupancy(s->threads_per_block,
					 s->regs_per_thread,
					 s->shmem_per_block, &g->fp);
	} while (!g->residency);
	s->nr_blocks = gu_range(rng, 0, 3) ? gu_range(rng, 1, max_blocks / 4) :
					     gu_range(rng, 1, max_blocks);
	g->nr_blocks = s->nr_blocks;
	s->flags = GPUTBS_SUBMIT_RECORD_BLOCKS;
	if (gu_range(rng, 0, 3)) {
		s->work_model = GPUTBS_WORK_DIST;
		s->block_cycles = gu_range(rng, 2000, 60000);
		s->block_rsd_ppm = gu_range(rng, 0, 500000);
		s->seed = gu_rand(rng);
	} else {
		s->work_model = GPUTBS_WORK_ARRAY;
		s->block_cycles = 0;
		for (i = 0; i < s->nr_blocks; i++)
			durations[i] = gu_range(rng, 1000, 80000);
		s->nr_durations = s->nr_blocks;
		s->durations_ptr = (__u64)(uintptr_t)durations;
	}
	s->prio_class = root ? gu_range(rng, 0, 4) : gu_range(rng, 0, 2);
	g->fp.prio_class = s->prio_class == GPUTBS_PRIO_DEFAULT ?
			   GPUTBS_PRIO_NORMAL : s->prio_class;
	if (!gu_range(rng, 0, 4)) {
		s->flags |= GPUTBS_SUBMIT_AT_CYCLE;
		s->arrival_cycle = gu_now_cycle(&info) +
				   gu_range(rng, 0, 2000000);
		g->arrival = s->arrival_cycle;
	}
	snprintf(s->label, sizeof(s->label), "stress-%u",
		 (unsigned int)gu_range(rng, 0, 99999));
}

/*
 * Check a completed grid's records and reap it.  Appends its records to
 * @out.  Returns the number of failures.
 */
static int check_grid(int fd, struct grid *g, __u32 client, __u32 shape,
		      struct shape *sp, struct gputbs_block_record *r,
		      unsigned char *seen, FILE *out)
{
	struct gputbs_blocks b = {
		.handle = g->handle, .nr_records = g->nr_blocks + 1,
		.records_ptr = (__u64)(uintptr_t)r,
	};
	__u64 min_start = ~0ULL, max_end = 0;
	struct gputbs_wait w;
	struct rec out_rec;
	int errs = 0, ret;
	__u32 i;

	ret = gu_ioctl(fd, GPUTBS_IOCTL_BLOCKS, &b);
	if (ret) {
		fail("BLOCKS of completed grid %u: %s", g->handle,
		     strerror(-ret));
		return 1;
	}
	if (b.nr_records != g->nr_blocks) {
		fail("grid %u: %u records for %u blocks", g->handle,
		     b.nr_records, g->nr_blocks);
		return 1;
	}
	ret = gu_wait(fd, g->handle, 0, 0, &w);
	if (ret) {
		fail("WAIT of completed grid %u: %s", g->handle,
		     strerror(-ret));
		return 1;
	}
	if (gu_wait(fd, g->handle, 0, 0, NULL) != -ENOENT) {
		fail("grid %u reaped twice", g->handle);
		errs++;
	}
	if (w.handle != g->handle || w.blocks_done != g->nr_blocks ||
	    w.residency != g->residency) {
		fail("grid %u: WAIT handle %u blocks_done %u/%u residency %u/%u",
		     g->handle, w.handle, w.blocks_done, g->nr_blocks,
		     w.residency, g->residency);
		errs++;
	}
	if (w.submit_cycle < g->arrival || w.start_cycle < w.submit_cycle ||
	    w.end_cycle <= w.start_cycle) {
		fail("grid %u: arrival %llu submit %llu start %llu end %llu",
		     g->handle, (unsigned long long)g->arrival,
		     (unsigned long long)w.submit_cycle,
		     (unsigned long long)w.start_cycle,
		     (unsigned long long)w.end_cycle);
		errs++;
	}
	memset(seen, 0, g->nr_blocks);
	for (i = 0; i < g->nr_blocks; i++) {
		if (r[i].block >= g->nr_blocks || seen[r[i].block]++ ||
		    r[i].sm >= info.nr_sms ||
		    r[i].slot >= info.max_blocks_per_sm || r[i].pad ||
		    r[i].start_cycle >= r[i].end_cycle ||
		    r[i].start_cycle < w.start_cycle ||
		    r[i].end_cycle > w.end_cycle) {
			fail("grid %u record %u: block %u (seen %u) sm %u slot %u pad %u %llu..%llu, grid %llu..%llu",
			     g->handle, i, r[i].block,
			     r[i].block < g->nr_blocks ? seen[r[i].block] : 0,
			     r[i].sm, r[i].slot, r[i].pad,
			     (unsigned long long)r[i].start_cycle,
			     (unsigned long long)r[i].end_cycle,
			     (unsigned long long)w.start_cycle,
			     (unsigned long long)w.end_cycle);
			return errs + 1;
		}
		if (r[i].start_cycle < min_start)
			min_start = r[i].start_cycle;
		if (r[i].start_cycle > sp->last_start)
			sp->last_start = r[i].start_cycle;
		if (r[i].end_cycle > max_end)
			max_end = r[i].end_cycle;
		out_rec = (struct rec){
			.sm = r[i].sm, .slot = r[i].slot, .shape = shape,
			.client = client, .start = r[i].start_cycle,
			.end = r[i].end_cycle,
		};
		if (fwrite(&out_rec, sizeof(out_rec), 1, out) != 1) {
			fail("writing records: %s", strerror(errno));
			return errs + 1;
		}
	}
	sp->arrival = w.submit_cycle;
	if (min_start != w.start_cycle || max_end != w.end_cycle) {
		fail("grid %u: records span %llu..%llu, grid %llu..%llu",
		     g->handle, (unsigned long long)min_start,
		     (unsigned long long)max_end,
		     (unsigned long long)w.start_cycle,
		     (unsigned long long)w.end_cycle);
		errs++;
	}
	return errs;
}

/* Summary a client leaves in its shapes file header. */
struct client_sum {
	__u64 submitted;
	__u64 reaped;
	__u64 blocks;
	__u64 eperm;
	__u64 full;	/* EAGAIN/EDQUOT/ENOBUFS/ENOSPC seen */
	__u64 errors;
	__u32 nr_shapes;
};

/*
 * Client @id: submit @quota grids, @k at a time, check and reap each.
 * Writes its records to @recs, then a client_sum and its shapes to
 * @shapes.  Exit status 0, or 1 after a failure.
 */
static int client(unsigned int id, unsigned int quota, bool root,
		  FILE *recs, FILE *shapes_out)
{
	struct gputbs_block_record *r;
	struct client_sum sum = { 0 };
	struct shape *shapes;
	struct grid *gs;
	unsigned char *seen;
	__u64 rng = seed * 7919 + id * 104729 + 1, *durations, last = gu_now_ns();
	unsigned int n = 0, i;
	struct gputbs_submit s;
	struct pollfd pfd;
	int fd, ret;

	if (!root && gu_become_nobody()) {
		fail("client %u: cannot become nobody", id);
		return 1;
	}
	fd = gu_open();
	if (fd < 0) {
		fail("client %u: open: %s", id, strerror(errno));
		return 1;
	}
	gs = calloc(outstanding, sizeof(*gs));
	shapes = calloc(quota + 1, sizeof(*shapes));
	r = calloc(max_blocks + 1, sizeof(*r));
	seen = calloc(max_blocks + 1, 1);
	durations = calloc(max_blocks + 1, sizeof(*durations));
	if (!gs || !shapes || !r || !seen || !durations)
		return 1;
	pfd = (struct pollfd){ .fd = fd, .events = POLLIN };
	while (sum.submitted < quota || n) {
		while (n < outstanding && sum.submitted < quota) {
			struct grid *g = &gs[n];

			random_grid(&rng, root, &s, g, durations);
			if (!root && !gu_range(&rng, 0, 50)) {
				__u32 c = s.prio_class;

				s.prio_class = GPUTBS_PRIO_HIGH +
					       gu_range(&rng, 0, 1);
				ret = gu_submit104(fd, &s);
				if (ret != -EPERM) {
					fail("client %u (nobody): class %u: %d, not EPERM",
					     id, s.prio_class, ret);
					sum.errors++;
				}
				sum.eperm++;
				s.prio_class = c;
			}
			ret = (s.flags & GPUTBS_SUBMIT_AT_CYCLE) ||
			      gu_range(&rng, 0, 1) ? gu_submit104(fd, &s) :
						     gu_submit96(fd, &s);
			/* a limit: of the file, the user or the device */
			if (ret == -EAGAIN || ret == -ENOSPC ||
			    ret == -EDQUOT || ret == -ENOBUFS) {
				sum.full++;
				break;
			}
			if (ret) {
				fail("client %u: SUBMIT %u blocks x %u threads, %u regs, %u shmem: %s",
				     id, s.nr_blocks, s.threads_per_block,
				     s.regs_per_thread, s.shmem_per_block,
				     strerror(-ret));
				sum.errors++;
				break;
			}
			g->handle = s.handle;
			shapes[sum.submitted] = g->fp;
			g->shape = sum.submitted;
			sum.submitted++;
			n++;
		}
		if (sum.errors > 10)
			break;
		ret = poll(&pfd, 1, 200);
		if (ret < 0 && errno != EINTR) {
			fail("client %u: poll: %s", id, strerror(errno));
			sum.errors++;
			break;
		}
		for (i = 0; i < n; i++) {
			struct gputbs_blocks b = { .handle = gs[i].handle };

			ret = gu_ioctl(fd, GPUTBS_IOCTL_BLOCKS, &b);
			if (ret == -EBUSY)
				continue;
			if (ret) {
				fail("client %u: BLOCKS %u: %s", id,
				     gs[i].handle, strerror(-ret));
				sum.errors++;
			} else {
				sum.errors += check_grid(fd, &gs[i], id,
							 gs[i].shape,
							 &shapes[gs[i].shape],
							 r, seen, recs);
				sum.blocks += gs[i].nr_blocks;
			}
			sum.reaped++;
			gs[i--] = gs[--n];
			last = gu_now_ns();
		}
		if (gu_now_ns() - last > (__u64)timeout_s * GU_NS_PER_SEC) {
			fail("client %u: no grid completed for %u s (%u outstanding)",
			     id, timeout_s, n);
			sum.errors++;
			break;
		}
	}
	if (!sum.errors && gu_wait(fd, 0, GPUTBS_WAIT_ANY, 0, NULL) != -ENOENT) {
		fail("client %u: grids left after all were reaped", id);
		sum.errors++;
	}
	close(fd);
	sum.nr_shapes = sum.submitted;
	if (fflush(recs) ||
	    fwrite(&sum, sizeof(sum), 1, shapes_out) != 1 ||
	    fwrite(shapes, sizeof(*shapes), sum.nr_shapes, shapes_out) !=
	    sum.nr_shapes || fflush(shapes_out)) {
		fail("client %u: writing results: %s", id, strerror(errno));
		return 1;
	}
	return sum.errors ? 1 : 0;
}

/* ---- victims and the policy switcher ------------------------------------ */

/*
 * A victim fills part of the device with long grids (running, queued,
 * recorded, arriving), says so on @ready, then blocks in WAIT, poll() or
 * a submission loop until it is killed.
 */
static int victim(unsigned int id, int ready)
{
	__u64 rng = seed * 31 + id, *d;
	struct gputbs_submit s;
	struct pollfd pfd;
	int fd = gu_open(), i;

	if (fd < 0)
		return 1;
	d = calloc(256, sizeof(*d));
	if (!d)
		return 1;
	for (i = 0; i < 4; i++) {
		/* blocks of 0.5 to 5 s: still running when it is killed */
		gu_grid(&s, gu_range(&rng, 1, 256), 64 << gu_range(&rng, 0, 3),
			gu_cycles_for_ns(&info, gu_range(&rng, 500, 5000) *
					 GU_NS_PER_MS));
		if (i == 1)
			s.flags = GPUTBS_SUBMIT_RECORD_BLOCKS;
		if (i == 2) {
			s.flags = GPUTBS_SUBMIT_AT_CYCLE;
			s.arrival_cycle = gu_now_cycle(&info) +
					  gu_range(&rng, 0, 20000000);
		}
		if (i == 3) {
			int j;

			for (j = 0; j < (int)s.nr_blocks; j++)
				d[j] = s.block_cycles / gu_range(&rng, 1, 4);
			s.block_cycles = 0;
			s.work_model = GPUTBS_WORK_ARRAY;
			s.nr_durations = s.nr_blocks;
			s.durations_ptr = (__u64)(uintptr_t)d;
		}
		s.prio_class = gu_range(&rng, 0, 4);
		if (gu_submit104(fd, &s) && s.prio_class <= GPUTBS_PRIO_NORMAL)
			return 2;
	}
	if (write(ready, "v", 1) != 1)
		return 3;
	switch (id % 4) {
	case 0:
		gu_wait(fd, 1, 0, (__s64)gu_now_ns() + 60 * GU_NS_PER_SEC,
			NULL);
		break;
	case 1:
		pfd = (struct pollfd){ .fd = fd, .events = POLLIN };
		poll(&pfd, 1, 60000);
		break;
	case 2:
		for (;;) {
			gu_grid(&s, gu_range(&rng, 1, 64), 128, 50000);
			if (gu_submit96(fd, &s))
				gu_wait(fd, 0, GPUTBS_WAIT_ANY, 0, NULL);
		}
	}
	for (;;)	/* until it is killed */
		pause();
	return 0;
}

static volatile sig_atomic_t stop_switching;

static void on_term(int sig)
{
	(void)sig;
	stop_switching = 1;
}

/*
 * Switch the policy among those offered, or those of --policies, until
 * SIGTERM; exit: switches.
 */
static int switcher(void)
{
	char buf[512], *names[32], *p;
	unsigned int n = 0, switches = 0;
	__u64 rng = seed * 13 + 5;
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_term;
	sigaction(SIGTERM, &sa, NULL);
	if (policies)
		snprintf(buf, sizeof(buf), "%s", policies);
	else if (gu_read_file(GU_SYSFS "/policy", buf, sizeof(buf)) < 0)
		return 0;
	for (p = strtok(buf, " \n[],"); p && n < 32; p = strtok(NULL, " \n[],"))
		names[n++] = p;
	while (!stop_switching && n) {
		if (!gu_write_attr(GU_SYSFS, "policy",
				   names[gu_range(&rng, 0, n - 1)]))
			switches++;
		if (!strict_classes && !gu_range(&rng, 0, 20))
			gu_write_attr(GU_SYSFS, "starve_ns",
				      gu_range(&rng, 0, 1) ? "0" : "200000");
		gu_sleep_ns(gu_range(&rng, 1, 2 * switch_ms) * GU_NS_PER_MS);
	}
	gu_write_attr(GU_SYSFS, "starve_ns", "0");
	printf("stress: %u policy switches among %u policies\n", switches, n);
	fflush(stdout);
	return 0;
}

/* ---- the sweep ---------------------------------------------------------- */

struct event {
	__u64 cycle;
	__u32 sm;
	__s32 sign;	/* -1 end, +1 start */
	const struct shape *fp;
};

static int cmp_event(const void *a, const void *b)
{
	const struct event *x = a, *y = b;

	if (x->sm != y->sm)
		return x->sm < y->sm ? -1 : 1;
	if (x->cycle != y->cycle)
		return x->cycle < y->cycle ? -1 : 1;
	return x->sign - y->sign;	/* ends first */
}

static int cmp_slot(const void *a, const void *b)
{
	const struct rec *x = a, *y = b;

	if (x->sm != y->sm)
		return x->sm < y->sm ? -1 : 1;
	if (x->slot != y->slot)
		return x->slot < y->slot ? -1 : 1;
	return x->start < y->start ? -1 : x->start > y->start;
}

/* Returns the number of violations; prints the peaks. */
static int sweep(struct rec *recs, size_t nr, struct shape **shapes)
{
	struct event *ev = calloc(2 * nr + 1, sizeof(*ev));
	__u64 blocks = 0, warps = 0, threads = 0, regs = 0, shmem = 0;
	__u64 pk_blocks = 0, pk_warps = 0, pk_threads = 0, pk_regs = 0,
	      pk_shmem = 0;
	int errs = 0;
	size_t i;

	if (!ev) {
		fail("sweep: out of memory");
		return 1;
	}
	for (i = 0; i < nr; i++) {
		const struct shape *fp = &shapes[recs[i].client][recs[i].shape];

		ev[2 * i] = (struct event){ recs[i].start, recs[i].sm, 1, fp };
		ev[2 * i + 1] = (struct event){ recs[i].end, recs[i].sm, -1,
						fp };
	}
	qsort(ev, 2 * nr, sizeof(*ev), cmp_event);
	for (i = 0; i < 2 * nr; i++) {
		if (i && ev[i].sm != ev[i - 1].sm) {
			if (blocks || warps || threads || regs || shmem) {
				fail("sweep: SM %u does not end empty",
				     ev[i - 1].sm);
				errs++;
			}
			blocks = warps = threads = regs = shmem = 0;
		}
		blocks += ev[i].sign;
		warps += ev[i].sign * (__s64)ev[i].fp->warps;
		threads += ev[i].sign * (__s64)ev[i].fp->threads;
		regs += ev[i].sign * (__s64)ev[i].fp->regs;
		shmem += ev[i].sign * (__s64)ev[i].fp->shmem;
		if (blocks > info.max_blocks_per_sm ||
		    warps > info.max_warps_per_sm ||
		    threads > info.max_threads_per_sm ||
		    regs > info.max_regs_per_sm ||
		    shmem > info.max_shmem_per_sm) {
			if (errs < 10)
				fail("SM %u at cycle %llu: %llu blocks, %llu warps, %llu threads, %llu registers, %llu bytes shared memory resident",
				     ev[i].sm, (unsigned long long)ev[i].cycle,
				     (unsigned long long)blocks,
				     (unsigned long long)warps,
				     (unsigned long long)threads,
				     (unsigned long long)regs,
				     (unsigned long long)shmem);
			errs++;
		}
#define PEAK(p, v) do { if ((v) > (p) && (v) < (1ULL << 63)) (p) = (v); } while (0)
		PEAK(pk_blocks, blocks);
		PEAK(pk_warps, warps);
		PEAK(pk_threads, threads);
		PEAK(pk_regs, regs);
		PEAK(pk_shmem, shmem);
	}
	free(ev);
	qsort(recs, nr, sizeof(*recs), cmp_slot);
	for (i = 1; i < nr; i++) {
		if (recs[i].sm == recs[i - 1].sm &&
		    recs[i].slot == recs[i - 1].slot &&
		    recs[i].start < recs[i - 1].end) {
			if (errs < 20)
				fail("SM %u slot %u: block at %llu..%llu overlaps %llu..%llu",
				     recs[i].sm, recs[i].slot,
				     (unsigned long long)recs[i].start,
				     (unsigned long long)recs[i].end,
				     (unsigned long long)recs[i - 1].start,
				     (unsigned long long)recs[i - 1].end);
			errs++;
		}
	}
	printf("stress: sweep over %zu blocks on %u SMs: peak resident %llu/%u blocks, %llu/%u warps, %llu/%u threads, %llu/%u registers, %llu/%u shared memory; %d violations\n",
	       nr, info.nr_sms, (unsigned long long)pk_blocks,
	       info.max_blocks_per_sm, (unsigned long long)pk_warps,
	       info.max_warps_per_sm, (unsigned long long)pk_threads,
	       info.max_threads_per_sm, (unsigned long long)pk_regs,
	       info.max_regs_per_sm, (unsigned long long)pk_shmem,
	       info.max_shmem_per_sm, errs);
	return errs;
}

/*
 * --strict-classes: the conformance suite's rule 3 over every reaped grid.
 * A block of class c that started at cycle t breaks it when a grid of a
 * class above c arrived before t and started a block after t: that grid
 * had a block left to issue at t.  Per class, the open intervals
 * (arrival, last start) of its grids are merged and sorted, and each block
 * start is searched in those of the classes above its own.  Returns the
 * number of violations.
 */
struct span {
	__u64 lo;
	__u64 hi;
};

static int cmp_span(const void *a, const void *b)
{
	const struct span *x = a, *y = b;

	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* whether @t lies inside one of the merged, sorted open spans @sp[0..n) */
static bool in_spans(const struct span *sp, size_t n, __u64 t)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {		/* the first span with sp->lo >= t */
		size_t mid = lo + (hi - lo) / 2;

		if (sp[mid].lo < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo && t < sp[lo - 1].hi;
}

static int check_classes(const struct rec *recs, size_t nr,
			 struct shape **shapes, const __u32 *nr_shapes)
{
	struct span *sp[GPUTBS_PRIO_REALTIME + 1] = { 0 };
	size_t n[GPUTBS_PRIO_REALTIME + 1] = { 0 }, i, k;
	unsigned int c, cl, grids = 0;
	int errs = 0;

	for (c = 0; c <= GPUTBS_PRIO_REALTIME; c++) {
		sp[c] = calloc(nr_grids + 1, sizeof(**sp));
		if (!sp[c]) {
			fail("classes: out of memory");
			return 1;
		}
	}
	for (cl = 0; cl < nr_procs; cl++)
		for (i = 0; i < nr_shapes[cl]; i++) {
			const struct shape *fp = &shapes[cl][i];

			if (!fp->last_start || fp->prio_class >
			    GPUTBS_PRIO_REALTIME || n[fp->prio_class] >= nr_grids)
				continue;	/* not reaped */
			sp[fp->prio_class][n[fp->prio_class]++] =
				(struct span){ fp->arrival, fp->last_start };
			grids++;
		}
	for (c = 0; c <= GPUTBS_PRIO_REALTIME; c++) {
		qsort(sp[c], n[c], sizeof(**sp), cmp_span);
		for (i = 0, k = 0; i < n[c]; i++) {	/* merge */
			if (k && sp[c][i].lo < sp[c][k - 1].hi) {
				if (sp[c][i].hi > sp[c][k - 1].hi)
					sp[c][k - 1].hi = sp[c][i].hi;
			} else {
				sp[c][k++] = sp[c][i];
			}
		}
		n[c] = k;
	}
	for (i = 0; i < nr; i++) {
		const struct shape *fp = &shapes[recs[i].client][recs[i].shape];

		for (c = fp->prio_class + 1; c <= GPUTBS_PRIO_REALTIME; c++) {
			if (!in_spans(sp[c], n[c], recs[i].start))
				continue;
			if (errs < 10)
				fail("classes: a block of class %u started at cycle %llu while a grid of class %u had blocks left",
				     fp->prio_class,
				     (unsigned long long)recs[i].start, c);
			errs++;
			break;
		}
	}
	printf("stress: strict classes over %u grids and %zu blocks: %d violations\n",
	       grids, nr, errs);
	for (c = 0; c <= GPUTBS_PRIO_REALTIME; c++)
		free(sp[c]);
	return errs;
}

/* ---- the device at the end ---------------------------------------------- */

static int check_idle(void)
{
	static char buf[1 << 16];
	char *line;
	int errs = 0, n, sms = 0;

	n = gu_read_file(GU_DEBUGFS "/sms", buf, sizeof(buf));
	if (n < 0) {
		printf("stress: debugfs gputbs/sms absent: idle SMs not checked\n");
	} else {
		for (line = strtok(buf, "\n"); line; line = strtok(NULL, "\n")) {
			unsigned int sm, res, slots, warps, threads, regs, shmem;

			if (sscanf(line, "sm=%u now=%*u resident=%u free_slots=%u free_warps=%u free_threads=%u free_regs=%u free_shmem=%u",
				   &sm, &res, &slots, &warps, &threads, &regs,
				   &shmem) != 7)
				continue;
			sms++;
			if (res || slots != info.max_blocks_per_sm ||
			    warps != info.max_warps_per_sm ||
			    threads != info.max_threads_per_sm ||
			    regs != info.max_regs_per_sm ||
			    shmem != info.max_shmem_per_sm) {
				fail("at the end: %s", line);
				errs++;
			}
		}
		if (sms != (int)info.nr_sms) {
			fail("debugfs gputbs/sms: %d SMs of %u", sms,
			     info.nr_sms);
			errs++;
		}
	}
	n = gu_read_file(GU_DEBUGFS "/grids", buf, sizeof(buf));
	if (n < 0) {
		printf("stress: debugfs gputbs/grids absent: no grid left not checked\n");
	} else {
		unsigned int g;

		if (sscanf(buf, "# %u grids", &g) != 1 || g) {
			fail("at the end, debugfs gputbs/grids: %.200s", buf);
			errs++;
		}
	}
	if (!errs && n >= 0)
		printf("stress: device idle at the end: %d SMs empty, no grid\n",
		       sms);
	return errs;
}

struct counters {
	__u64 submitted, completed, cancelled, timed_out;
	bool ok;
};

static void read_counters(struct counters *c)
{
	c->ok = !gu_read_u64(GU_SYSFS, "grids_submitted", &c->submitted) &&
		!gu_read_u64(GU_SYSFS, "grids_completed", &c->completed) &&
		!gu_read_u64(GU_SYSFS, "grids_cancelled", &c->cancelled) &&
		!gu_read_u64(GU_SYSFS, "grids_timed_out", &c->timed_out);
}

/*
 * With the device idle, every grid that arrived since the module was
 * loaded completed or was cancelled; this run's grids are among them.
 */
static int check_counters(const struct counters *a, const struct counters *b,
			  __u64 submitted, __u64 reaped)
{
	__u64 ds = b->submitted - a->submitted;
	__u64 dc = b->completed - a->completed;
	__u64 dx = b->cancelled - a->cancelled;
	__u64 dt = b->timed_out - a->timed_out;

	if (!a->ok || !b->ok) {
		fail("cannot read grids_submitted, grids_completed, grids_cancelled and grids_timed_out in %s",
		     GU_SYSFS);
		return 1;
	}
	printf("stress: counters since load: grids_submitted %llu = grids_completed %llu + grids_cancelled %llu + grids_timed_out %llu; this run %llu submitted, %llu completed, %llu cancelled, %llu timed out\n",
	       (unsigned long long)b->submitted,
	       (unsigned long long)b->completed,
	       (unsigned long long)b->cancelled,
	       (unsigned long long)b->timed_out,
	       (unsigned long long)ds, (unsigned long long)dc,
	       (unsigned long long)dx, (unsigned long long)dt);
	if (b->submitted != b->completed + b->cancelled + b->timed_out) {
		fail("grids_submitted %llu != grids_completed %llu + grids_cancelled %llu + grids_timed_out %llu",
		     (unsigned long long)b->submitted,
		     (unsigned long long)b->completed,
		     (unsigned long long)b->cancelled,
		     (unsigned long long)b->timed_out);
		return 1;
	}
	/* nothing of this run runs for 120 s of emulated time */
	if (ds < submitted || dc < reaped || ds != dc + dx || dt) {
		fail("counters: %llu submitted, %llu completed and %llu cancelled, but this run submitted %llu and reaped %llu",
		     (unsigned long long)ds, (unsigned long long)dc,
		     (unsigned long long)dx, (unsigned long long)submitted,
		     (unsigned long long)reaped);
		return 1;
	}
	return 0;
}

/* ---- main --------------------------------------------------------------- */

static const char usage[] =
	"Usage: gputbs-stress [--grids N] [--procs P] [--outstanding K] [--kill V]\n"
	"                     [--max-blocks B] [--seed S] [--switch-ms MS] [--timeout S]\n"
	"                     [--policies LIST] [--strict-classes]\n";

static void parse_args(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++) {
		unsigned long v;
		char *end;

		if (!strcmp(argv[i], "--strict-classes")) {
			strict_classes = true;
			continue;
		}
		if (i + 1 >= argc)
			goto bad;
		if (!strcmp(argv[i], "--policies")) {
			policies = argv[++i];
			continue;
		}
		v = strtoul(argv[i + 1], &end, 0);
		if (*end || end == argv[i + 1])
			goto bad;
		if (!strcmp(argv[i], "--grids"))
			nr_grids = v;
		else if (!strcmp(argv[i], "--procs"))
			nr_procs = v;
		else if (!strcmp(argv[i], "--outstanding") && v)
			outstanding = v;
		else if (!strcmp(argv[i], "--kill"))
			nr_victims = v;
		else if (!strcmp(argv[i], "--max-blocks") && v)
			max_blocks = v;
		else if (!strcmp(argv[i], "--seed"))
			seed = v;
		else if (!strcmp(argv[i], "--switch-ms") && v)
			switch_ms = v;
		else if (!strcmp(argv[i], "--timeout") && v)
			timeout_s = v;
		else
			goto bad;
		i++;
	}
	return;
bad:
	fputs(usage, stderr);
	exit(2);
}

int main(int argc, char **argv)
{
	char path[128], initial[64] = "", buf[512], *p;
	unsigned int i, killed = 0, done = 0, errors = 0;
	struct client_sum total = { 0 };
	struct counters before, after;
	struct shape **shapes;
	__u32 *nr_shapes;
	__u64 t0 = gu_now_ns(), rng;
	int fd, ready[2], status;
	pid_t *pids, sw, *vp;
	struct rec *recs;
	size_t nr_recs = 0;
	FILE **rf, **sf;

	parse_args(argc, argv);
	if (!nr_procs) {
		long cpus = sysconf(_SC_NPROCESSORS_ONLN);

		nr_procs = cpus * 4 > 32 ? cpus * 4 : 32;
	}
	rng = seed;
	setvbuf(stdout, NULL, _IOLBF, 0);
	fd = gu_open();
	if (fd < 0 || gu_ioctl(fd, GPUTBS_IOCTL_INFO, &info)) {
		fprintf(stderr, "stress: %s: %s\n", GU_DEVICE, strerror(errno));
		return 1;
	}
	close(fd);
	if (max_blocks > info.max_blocks_per_grid)
		max_blocks = info.max_blocks_per_grid;
	if (info.time_scale_ps > 10000)
		printf("stress: %llu ps per cycle: slow; load the module with time_scale_ps=1000\n",
		       (unsigned long long)info.time_scale_ps);
	if (gu_read_file(GU_SYSFS "/policy", buf, sizeof(buf)) > 0 &&
	    (p = strchr(buf, '['))) {
		snprintf(initial, sizeof(initial), "%s", p + 1);
		initial[strcspn(initial, "]")] = '\0';
	}
	read_counters(&before);
	if (strict_classes && gu_write_attr(GU_SYSFS, "starve_ns", "0")) {
		fprintf(stderr, "stress: --strict-classes: cannot turn the starvation guard off\n");
		return 1;
	}
	printf("stress: %u grids over %u processes (%u as nobody), %u outstanding each, up to %u blocks, %u victims, policy switch every ~%u ms, %llu ps/cycle\n",
	       nr_grids, nr_procs, nr_procs / 2, outstanding, max_blocks,
	       nr_victims, switch_ms, (unsigned long long)info.time_scale_ps);

	snprintf(tmpdir, sizeof(tmpdir), "/tmp/gputbs-stress.%d", getpid());
	if (mkdir(tmpdir, 0700)) {
		perror(tmpdir);
		return 1;
	}
	pids = calloc(nr_procs, sizeof(*pids));
	vp = calloc(nr_victims + 1, sizeof(*vp));
	rf = calloc(nr_procs, sizeof(*rf));
	sf = calloc(nr_procs, sizeof(*sf));
	shapes = calloc(nr_procs, sizeof(*shapes));
	nr_shapes = calloc(nr_procs, sizeof(*nr_shapes));
	if (!pids || !vp || !rf || !sf || !shapes || !nr_shapes || pipe(ready))
		return 1;
	for (i = 0; i < nr_procs; i++) {
		snprintf(path, sizeof(path), "%s/rec.%u", tmpdir, i);
		rf[i] = fopen(path, "w+");
		snprintf(path, sizeof(path), "%s/sum.%u", tmpdir, i);
		sf[i] = fopen(path, "w+");
		if (!rf[i] || !sf[i]) {
			perror(path);
			return 1;
		}
	}
	sw = fork();
	if (!sw)
		_exit(switcher());
	for (i = 0; i < nr_procs; i++) {
		unsigned int quota = nr_grids / nr_procs +
				     (i < nr_grids % nr_procs);

		fflush(NULL);
		pids[i] = fork();
		if (pids[i] < 0) {
			perror("fork");
			return 1;
		}
		if (!pids[i])
			_exit(client(i, quota, i % 2 == 0, rf[i], sf[i]));
	}
	/* victims one after the other, killed at random moments */
	for (i = 0; i < nr_victims; i++) {
		char c;

		vp[i] = fork();
		if (!vp[i])
			_exit(victim(i, ready[1]));
		if (read(ready[0], &c, 1) == 1) {
			gu_sleep_ns(gu_range(&rng, 0, 100) * GU_NS_PER_MS);
			if (!kill(vp[i], SIGKILL))
				killed++;
		}
		waitpid(vp[i], &status, 0);
		if (!WIFSIGNALED(status)) {
			fail("victim %u exited with status %#x before it was killed",
			     i, status);
			errors++;
			killed--;
		}
		gu_sleep_ns(gu_range(&rng, 0, 300) * GU_NS_PER_MS);
	}
	for (i = 0; i < nr_procs; i++) {
		if (waitpid(pids[i], &status, 0) != pids[i] ||
		    !WIFEXITED(status) || WEXITSTATUS(status)) {
			fail("client %u: status %#x", i, status);
			errors++;
		}
		done++;
	}
	kill(sw, SIGTERM);
	waitpid(sw, &status, 0);
	if (initial[0])
		gu_write_attr(GU_SYSFS, "policy", initial);

	/* gather */
	for (i = 0; i < nr_procs; i++) {
		struct client_sum sum;
		long sz;

		rewind(sf[i]);
		if (fread(&sum, sizeof(sum), 1, sf[i]) != 1) {
			fail("client %u left no summary", i);
			errors++;
			shapes[i] = calloc(1, sizeof(**shapes));
			continue;
		}
		shapes[i] = calloc(sum.nr_shapes + 1, sizeof(**shapes));
		if (fread(shapes[i], sizeof(**shapes), sum.nr_shapes, sf[i]) !=
		    sum.nr_shapes) {
			fail("client %u: short shapes", i);
			errors++;
		}
		nr_shapes[i] = sum.nr_shapes;
		total.submitted += sum.submitted;
		total.reaped += sum.reaped;
		total.blocks += sum.blocks;
		total.eperm += sum.eperm;
		total.full += sum.full;
		total.errors += sum.errors;
		fseek(rf[i], 0, SEEK_END);
		sz = ftell(rf[i]);
		nr_recs += sz / sizeof(struct rec);
	}
	recs = calloc(nr_recs + 1, sizeof(*recs));
	if (!recs) {
		fail("out of memory for %zu records", nr_recs);
		return 1;
	}
	nr_recs = 0;
	for (i = 0; i < nr_procs; i++) {
		size_t n;

		rewind(rf[i]);
		while ((n = fread(&recs[nr_recs], sizeof(*recs), 4096, rf[i])))
			nr_recs += n;
		fclose(rf[i]);
		fclose(sf[i]);
		snprintf(path, sizeof(path), "%s/rec.%u", tmpdir, i);
		unlink(path);
		snprintf(path, sizeof(path), "%s/sum.%u", tmpdir, i);
		unlink(path);
	}
	rmdir(tmpdir);
	printf("stress: %u processes done: %llu grids submitted and reaped %llu, %llu blocks recorded, %llu nobody HIGH/REALTIME refused (EPERM), %llu EAGAIN/EDQUOT/ENOBUFS/ENOSPC, %u victims killed mid-grid, %.1f s\n",
	       done, (unsigned long long)total.submitted,
	       (unsigned long long)total.reaped,
	       (unsigned long long)nr_recs, (unsigned long long)total.eperm,
	       (unsigned long long)total.full, killed,
	       (gu_now_ns() - t0) / 1e9);
	if (total.submitted != nr_grids || total.reaped != nr_grids ||
	    nr_recs != total.blocks) {
		fail("%llu submitted, %llu reaped, %zu records of %llu blocks; wanted %u grids",
		     (unsigned long long)total.submitted,
		     (unsigned long long)total.reaped, nr_recs,
		     (unsigned long long)total.blocks, nr_grids);
		errors++;
	}
	errors += total.errors;
	errors += sweep(recs, nr_recs, shapes);
	if (strict_classes)
		errors += check_classes(recs, nr_recs, shapes, nr_shapes);
	errors += check_idle();
	read_counters(&after);
	errors += check_counters(&before, &after, total.submitted,
				 total.reaped);
	if (errors) {
		printf("stress: FAIL: %u errors\n", errors);
		return 1;
	}
	printf("stress: PASS: %llu grids, %zu blocks, %u processes, %u killed mid-grid\n",
	       (unsigned long long)total.submitted, nr_recs, nr_procs, killed);
	return 0;
}
