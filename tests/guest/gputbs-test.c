// SPDX-License-Identifier: GPL-2.0
/*
 * gputbs-test.c - userland test suite of /dev/gputbs, run in the guest.
 *
 * Tests the ABI of uapi/linux/gputbs.h through libgputbs against the real
 * module, one behaviour per test.  Every test opens its own file (so each
 * works with CK_FORK=no too) and a checked teardown closes whatever a test
 * left open, cancelling its grids, even after a failure.
 *
 *   gputbs-test [-d DEVICE] [--tap]
 *
 * GPUTBS_DEVICE also selects the device; GPUTBS_TEST_SLOW=1 adds SHA1 to
 * the ERCBench alone runs (22 million cycles: 22 s at the default scale).
 * Check's own variables work: CK_RUN_SUITE, CK_RUN_CASE, CK_FORK,
 * CK_VERBOSITY.  The output ends with Check's summary
 * "N%: Checks: N, Failures: N, Errors: N"; the exit status is 1 if any
 * test failed.
 *
 * Copyright (C) 2026 The gputbs developers
 */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gputbs.h>

#define NS_PER_MS	1000000LL
#define NS_PER_SEC	1000000000LL
#define MAX_CYCLES	(1ULL << 40)
#define MAX_OPEN	8

static const char *device_path;

/* Files the current test opened, closed by the teardown. */
static struct gputbs *opened[MAX_OPEN];

static struct gputbs *dev_open(void)
{
	struct gputbs *g = NULL;
	int i, ret;

	ret = gputbs_open(device_path, 0, &g);
	ck_assert_msg(!ret, "open %s: %s", device_path ? device_path :
		      GPUTBS_DEFAULT_PATH, gputbs_strerror(ret));
	for (i = 0; i < MAX_OPEN; i++) {
		if (!opened[i]) {
			opened[i] = g;
			return g;
		}
	}
	ck_abort_msg("test opened more than %d files", MAX_OPEN);
	return NULL;
}

static void dev_close(struct gputbs *g)
{
	int i;

	for (i = 0; i < MAX_OPEN; i++)
		if (opened[i] == g)
			opened[i] = NULL;
	gputbs_close(g);
}

static void teardown_close_all(void)
{
	int i;

	for (i = 0; i < MAX_OPEN; i++) {
		gputbs_close(opened[i]);
		opened[i] = NULL;
	}
}

static void dev_info(struct gputbs *g, struct gputbs_info *info)
{
	int ret = gputbs_info(g, info);

	ck_assert_msg(!ret, "INFO: %s", gputbs_strerror(ret));
	ck_assert_uint_gt(info->time_scale_ps, 0);
	ck_assert_uint_gt(info->nr_sms, 0);
}

/* Emulated cycles that take about @ns of wall time. */
static __u64 cycles_for_ns(const struct gputbs_info *info, __u64 ns)
{
	__u64 c = (__u64)((__uint128_t)ns * 1000 / info->time_scale_ps);

	return c ? (c < MAX_CYCLES ? c : MAX_CYCLES) : 1;
}

/* A valid DIST grid: @blocks blocks of @threads threads, @cycles each. */
static void grid_dist(struct gputbs_submit *s, __u32 blocks, __u32 threads,
		      __u64 cycles)
{
	memset(s, 0, sizeof(*s));
	s->nr_blocks = blocks;
	s->threads_per_block = threads;
	s->work_model = GPUTBS_WORK_DIST;
	s->block_cycles = cycles;
	snprintf(s->label, sizeof(s->label), "gputbs-test");
}

/* A valid ARRAY grid over @durations (@n entries). */
static void grid_array(struct gputbs_submit *s, const __u64 *durations,
		       __u32 n)
{
	memset(s, 0, sizeof(*s));
	s->nr_blocks = n;
	s->threads_per_block = 64;
	s->work_model = GPUTBS_WORK_ARRAY;
	s->nr_durations = n;
	s->durations_ptr = (__u64)(uintptr_t)durations;
	snprintf(s->label, sizeof(s->label), "gputbs-test-array");
}

static __u32 submit_ok(struct gputbs *g, struct gputbs_submit *s)
{
	int ret = gputbs_submit(g, s);

	ck_assert_msg(!ret, "SUBMIT: %s", gputbs_strerror(ret));
	ck_assert_uint_ne(s->handle, 0);
	return s->handle;
}

/* Submit one block that runs about @ns of wall time. */
static __u32 submit_long(struct gputbs *g, __u64 ns)
{
	struct gputbs_info info;
	struct gputbs_submit s;

	dev_info(g, &info);
	grid_dist(&s, 1, 32, cycles_for_ns(&info, ns));
	return submit_ok(g, &s);
}

static __s64 deadline_in(__s64 ns)
{
	return (__s64)gputbs_now_ns() + ns;
}

static void wait_ok(struct gputbs *g, __u32 handle, struct gputbs_wait *w)
{
	int ret = gputbs_wait_handle(g, handle, deadline_in(30 * NS_PER_SEC),
				     w);

	ck_assert_msg(!ret, "WAIT %u: %s", handle, gputbs_strerror(ret));
	ck_assert_uint_eq(w->handle, handle);
}

/* Nothing is queued on @g: WAIT_ANY finds no grid. */
static void assert_no_grids(struct gputbs *g)
{
	struct gputbs_wait w;

	memset(&w, 0, sizeof(w));
	w.flags = GPUTBS_WAIT_ANY;
	ck_assert_int_eq(gputbs_wait(g, &w), -ENOENT);
}

/* ---- ABI ------------------------------------------------------------ */

START_TEST(abi_struct_sizes)
{
	ck_assert_uint_eq(sizeof(struct gputbs_info), 120);
	ck_assert_uint_eq(sizeof(struct gputbs_submit), 96);
	ck_assert_uint_eq(sizeof(struct gputbs_wait), 72);
	ck_assert_uint_eq(_IOC_SIZE(GPUTBS_IOCTL_INFO),
			  sizeof(struct gputbs_info));
	ck_assert_uint_eq(_IOC_SIZE(GPUTBS_IOCTL_SUBMIT),
			  sizeof(struct gputbs_submit));
	ck_assert_uint_eq(_IOC_SIZE(GPUTBS_IOCTL_WAIT),
			  sizeof(struct gputbs_wait));
	ck_assert_uint_eq(_IOC_DIR(GPUTBS_IOCTL_INFO), _IOC_READ);
	ck_assert_uint_eq(_IOC_DIR(GPUTBS_IOCTL_SUBMIT),
			  _IOC_READ | _IOC_WRITE);
	ck_assert_uint_eq(_IOC_DIR(GPUTBS_IOCTL_WAIT),
			  _IOC_READ | _IOC_WRITE);
}
END_TEST

START_TEST(lib_open_rejects_flags)
{
	struct gputbs *g = (struct gputbs *)1;

	ck_assert_int_eq(gputbs_open(device_path, 1, &g), -EINVAL);
	ck_assert_ptr_null(g);
}
END_TEST

START_TEST(lib_open_missing_node)
{
	struct gputbs *g = (struct gputbs *)1;

	ck_assert_int_eq(gputbs_open("/nonexistent/gputbs", 0, &g), -ENOENT);
	ck_assert_ptr_null(g);
}
END_TEST

START_TEST(lib_open_cloexec)
{
	struct gputbs *g = dev_open();
	int flags = fcntl(gputbs_fd(g), F_GETFD);

	ck_assert_int_ge(flags, 0);
	ck_assert(flags & FD_CLOEXEC);
}
END_TEST

START_TEST(ioctl_unknown_command_enotty)
{
	struct gputbs *g = dev_open();
	struct gputbs_wait w;

	memset(&w, 0, sizeof(w));
	errno = 0;
	ck_assert_int_eq(ioctl(gputbs_fd(g), _IOWR(GPUTBS_IOCTL_BASE, 0x3f,
						   struct gputbs_wait), &w),
			 -1);
	ck_assert_int_eq(errno, ENOTTY);
}
END_TEST

/* ---- INFO ----------------------------------------------------------- */

START_TEST(info_paper_defaults)
{
	struct gputbs *g = dev_open();
	struct gputbs_info info;

	dev_info(g, &info);
	ck_assert_uint_eq(info.nr_sms, 15);
	ck_assert_uint_eq(info.warp_size, 32);
	ck_assert_uint_eq(info.max_threads_per_sm, 1536);
	ck_assert_uint_eq(info.max_regs_per_sm, 32768);
	ck_assert_uint_eq(info.max_shmem_per_sm, 49152);
	ck_assert_uint_eq(info.max_blocks_per_sm, 8);
	ck_assert_uint_eq(info.max_warps_per_sm, 48);
	ck_assert_uint_eq(info.max_threads_per_block, 1024);
	ck_assert_uint_eq(info.max_regs_per_thread, 63);
	ck_assert_uint_eq(info.reg_alloc_unit, 64);
	ck_assert_uint_eq(info.shmem_alloc_unit, 128);
}
END_TEST

START_TEST(info_features)
{
	struct gputbs *g = dev_open();
	struct gputbs_info info;

	dev_info(g, &info);
	ck_assert_uint_ne(info.features, 0);
	ck_assert(info.features & GPUTBS_FEATURE_WORK_DIST);
	ck_assert(info.features & GPUTBS_FEATURE_WORK_ARRAY);
	ck_assert(info.features & GPUTBS_FEATURE_WAIT_ANY);
	ck_assert(info.features & GPUTBS_FEATURE_POLL);
}
END_TEST

START_TEST(info_limits_and_clock)
{
	struct gputbs *g = dev_open();
	struct gputbs_info info;
	unsigned int i;

	dev_info(g, &info);
	ck_assert_uint_ge(info.max_blocks_per_grid, 1);
	ck_assert_uint_ge(info.max_grids_per_fd, 1);
	ck_assert_uint_gt(info.load_knee_warps, 0);
	ck_assert_uint_gt(info.clock_khz, 0);
	ck_assert_uint_le(info.epoch_ns, gputbs_now_ns());
	for (i = 0; i < 4; i++)
		ck_assert_uint_eq(info.reserved[i], 0);
}
END_TEST

/* ---- SUBMIT and WAIT -------------------------------------------------- */

START_TEST(submit_wait_small_grid)
{
	struct gputbs *g = dev_open();
	struct gputbs_info info;
	struct gputbs_submit s;
	struct gputbs_wait w;
	__u64 per_wave, stair, span;

	dev_info(g, &info);
	grid_dist(&s, 30, 64, 1000);
	wait_ok(g, submit_ok(g, &s), &w);
	ck_assert_uint_eq(w.blocks_done, 30);
	ck_assert_uint_eq(w.residency, 8);
	ck_assert_uint_ge(w.start_ns, w.submit_ns);
	ck_assert_uint_gt(w.end_ns, w.start_ns);
	ck_assert_uint_ge(w.start_cycle, w.submit_cycle);
	ck_assert_uint_gt(w.end_cycle, w.start_cycle);
	/* Staircase model: ceil(30 / (15 SMs * R 8)) * 1000 cycles. */
	per_wave = (__u64)info.nr_sms * w.residency;
	stair = (30 + per_wave - 1) / per_wave * 1000;
	span = w.end_cycle - w.start_cycle;
	ck_assert_msg(span >= stair / 2 && span <= 2 * stair,
		      "ran %llu cycles, staircase model %llu",
		      (unsigned long long)span, (unsigned long long)stair);
}
END_TEST

START_TEST(submit_handles_distinct)
{
	struct gputbs *g = dev_open();
	struct gputbs_submit s;
	__u32 h1, h2;

	grid_dist(&s, 1, 32, 10);
	h1 = submit_ok(g, &s);
	h2 = submit_ok(g, &s);
	ck_assert_uint_ne(h1, h2);
}
END_TEST

START_TEST(submit_work_array)
{
	struct gputbs *g = dev_open();
	struct gputbs_submit s;
	struct gputbs_wait w;
	__u64 d[20];
	unsigned int i;

	for (i = 0; i < 20; i++)
		d[i] = 200 + 10 * i;
	grid_array(&s, d, 20);
	wait_ok(g, submit_ok(g, &s), &w);
	ck_assert_uint_eq(w.blocks_done, 20);
	ck_assert_uint_eq(w.residency, 8);
	/* One wave: at least the shortest block, about the longest. */
	ck_assert_uint_ge(w.end_cycle - w.start_cycle, 100);
	ck_assert_uint_le(w.end_cycle - w.start_cycle, 2 * 390);
}
END_TEST

/*
 * Emulated time must not depend on the host: the same grid (same seed,
 * so the same block durations) alone on the device twice takes the same
 * number of cycles, up to 2%.
 */
START_TEST(submit_same_seed_same_runtime)
{
	struct gputbs *g = dev_open();
	struct gputbs_submit s;
	struct gputbs_wait w1, w2;
	__u64 t1, t2;

	grid_dist(&s, 240, 64, 10000);
	s.block_rsd_ppm = 300000;
	s.seed = 42;
	wait_ok(g, submit_ok(g, &s), &w1);
	wait_ok(g, submit_ok(g, &s), &w2);
	t1 = w1.end_cycle - w1.start_cycle;
	t2 = w2.end_cycle - w2.start_cycle;
	ck_assert_msg(t1 * 100 <= t2 * 102 && t2 * 100 <= t1 * 102,
		      "same grid alone: %llu then %llu cycles",
		      (unsigned long long)t1, (unsigned long long)t2);
}
END_TEST

START_TEST(submit_eagain_at_grid_limit)
{
	struct gputbs *g = dev_open();
	struct gputbs_info info;
	struct gputbs_submit s;
	struct gputbs_wait w;
	unsigned int i;

	dev_info(g, &info);
	ck_assert_uint_le(info.max_grids_per_fd, 65536);
	grid_dist(&s, 1, 32, 1);
	for (i = 0; i < info.max_grids_per_fd; i++)
		submit_ok(g, &s);
	s.handle = 0;
	ck_assert_int_eq(gputbs_submit(g, &s), -EAGAIN);
	/* Reaping one makes room for one. */
	memset(&w, 0, sizeof(w));
	w.flags = GPUTBS_WAIT_ANY;
	w.timeout_ns = deadline_in(30 * NS_PER_SEC);
	ck_assert_int_eq(gputbs_wait(g, &w), 0);
	submit_ok(g, &s);
}
END_TEST

/* The paper's Table "Runtimes for ERCBench Kernels", grids as in
 * workloads/ercbench/kernels.gtbs. */
static const struct {
	const char *label;
	__u32 blocks, threads, regs, shmem, rsd_ppm, residency;
	__u64 cycles, seed, runtime;
} ercbench[] = {
	{ "aesDecrypt128", 1429, 256, 20, 4096, 125200, 6, 14529, 11, 234154 },
	{ "aesEncrypt128", 1429, 256, 20, 4096, 121000, 6, 14031, 12, 226335 },
	{ "NLM2", 4096, 64, 29, 0, 28700, 8, 19873, 13, 692686 },
	{ "idct", 512, 64, 24, 2048, 295800, 8, 5238, 14, 24853 },
	{ "dct", 512, 64, 24, 2048, 329500, 8, 5367, 15, 25383 },
	{ "render", 2048, 128, 43, 0, 657100, 5, 15167, 16, 416563 },
	{ "mb_sad_calc", 1584, 61, 28, 3072, 65700, 8, 32332, 17, 441297 },
	{ "sha1_kernel_direct", 1539, 64, 26, 0, 79800, 8, 1708531, 18,
	  22224223 },
};

#define NR_ERCBENCH_FAST	7	/* all but SHA1 */

START_TEST(submit_ercbench_alone_runtime)
{
	struct gputbs *g = dev_open();
	struct gputbs_submit s;
	struct gputbs_wait w;
	__u64 ref = ercbench[_i].runtime, t;

	grid_dist(&s, ercbench[_i].blocks, ercbench[_i].threads,
		  ercbench[_i].cycles);
	s.regs_per_thread = ercbench[_i].regs;
	s.shmem_per_block = ercbench[_i].shmem;
	s.block_rsd_ppm = ercbench[_i].rsd_ppm;
	s.seed = ercbench[_i].seed;
	snprintf(s.label, sizeof(s.label), "%s", ercbench[_i].label);
	wait_ok(g, submit_ok(g, &s), &w);
	ck_assert_uint_eq(w.blocks_done, ercbench[_i].blocks);
	ck_assert_uint_eq(w.residency, ercbench[_i].residency);
	t = w.end_cycle - w.submit_cycle;
	/* The paper's alone runtime within 5%. */
	ck_assert_msg(t * 100 >= ref * 95 && t * 100 <= ref * 105,
		      "%s: %llu cycles alone, paper %llu",
		      ercbench[_i].label, (unsigned long long)t,
		      (unsigned long long)ref);
}
END_TEST

/* ---- WAIT ----------------------------------------------------------- */

START_TEST(wait_past_deadline_etime)
{
	struct gputbs *g = dev_open();
	struct gputbs_wait w;
	__u32 h = submit_long(g, 2 * NS_PER_SEC);

	ck_assert_int_eq(gputbs_wait_handle(g, h, 1, &w), -ETIME);
	ck_assert_int_eq(gputbs_wait_handle(g, h,
					    deadline_in(-NS_PER_SEC), &w),
			 -ETIME);
}
END_TEST

START_TEST(wait_after_etime_still_waitable)
{
	struct gputbs *g = dev_open();
	struct gputbs_wait w;
	__u32 h = submit_long(g, 100 * NS_PER_MS);

	ck_assert_int_eq(gputbs_wait_handle(g, h, 1, &w), -ETIME);
	wait_ok(g, h, &w);
	ck_assert_uint_eq(w.blocks_done, 1);
}
END_TEST

START_TEST(wait_zero_timeout_returns_at_once)
{
	struct gputbs *g = dev_open();
	__u32 h = submit_long(g, 2 * NS_PER_SEC);
	__u64 t0 = gputbs_now_ns();

	ck_assert_int_eq(gputbs_wait_handle(g, h, 0, NULL), -ETIME);
	ck_assert_uint_lt(gputbs_now_ns() - t0, 100 * NS_PER_MS);
}
END_TEST

START_TEST(wait_deadline_honoured)
{
	struct gputbs *g = dev_open();
	__u32 h = submit_long(g, 5 * NS_PER_SEC);
	__u64 t0 = gputbs_now_ns();
	__u64 dt;

	ck_assert_int_eq(gputbs_wait_handle(g, h, deadline_in(200 * NS_PER_MS),
					    NULL), -ETIME);
	dt = gputbs_now_ns() - t0;
	ck_assert_uint_ge(dt, 200 * NS_PER_MS);
	ck_assert_uint_lt(dt, 1000 * NS_PER_MS);
}
END_TEST

START_TEST(wait_unknown_handle_enoent)
{
	struct gputbs *g = dev_open();

	ck_assert_int_eq(gputbs_wait_handle(g, 12345, 0, NULL), -ENOENT);
}
END_TEST

START_TEST(wait_handle_zero_enoent)
{
	struct gputbs *g = dev_open();
	struct gputbs_submit s;

	grid_dist(&s, 1, 32, 10);
	submit_ok(g, &s);
	ck_assert_int_eq(gputbs_wait_handle(g, 0, 0, NULL), -ENOENT);
}
END_TEST

START_TEST(wait_reaped_handle_enoent)
{
	struct gputbs *g = dev_open();
	struct gputbs_submit s;
	struct gputbs_wait w;
	__u32 h;

	grid_dist(&s, 1, 32, 10);
	h = submit_ok(g, &s);
	wait_ok(g, h, &w);
	ck_assert_int_eq(gputbs_wait_handle(g, h, 0, NULL), -ENOENT);
}
END_TEST

START_TEST(wait_unknown_flags_einval)
{
	struct gputbs *g = dev_open();
	struct gputbs_submit s;
	struct gputbs_wait w;
	__u32 h;

	grid_dist(&s, 1, 32, 10);
	h = submit_ok(g, &s);
	memset(&w, 0, sizeof(w));
	w.handle = h;
	w.flags = 1U << 1;
	w.timeout_ns = deadline_in(NS_PER_SEC);
	ck_assert_int_eq(gputbs_wait(g, &w), -EINVAL);
	w.flags = 1U << 31;
	ck_assert_int_eq(gputbs_wait(g, &w), -EINVAL);
	/* The grid was not reaped. */
	wait_ok(g, h, &w);
}
END_TEST

START_TEST(wait_any_reaps_each_grid_once)
{
	struct gputbs *g = dev_open();
	struct gputbs_submit s;
	struct gputbs_wait w;
	__u32 h1, h2, got1, got2;

	grid_dist(&s, 15, 32, 100);
	h1 = submit_ok(g, &s);
	h2 = submit_ok(g, &s);
	memset(&w, 0, sizeof(w));
	w.flags = GPUTBS_WAIT_ANY;
	w.timeout_ns = deadline_in(30 * NS_PER_SEC);
	ck_assert_int_eq(gputbs_wait(g, &w), 0);
	got1 = w.handle;
	ck_assert_uint_eq(w.blocks_done, 15);
	w.flags = GPUTBS_WAIT_ANY;
	ck_assert_int_eq(gputbs_wait(g, &w), 0);
	got2 = w.handle;
	ck_assert_uint_eq(w.blocks_done, 15);
	ck_assert((got1 == h1 && got2 == h2) || (got1 == h2 && got2 == h1));
	assert_no_grids(g);
}
END_TEST

START_TEST(wait_any_running_grid_etime)
{
	struct gputbs *g = dev_open();
	struct gputbs_wait w;

	submit_long(g, 2 * NS_PER_SEC);
	memset(&w, 0, sizeof(w));
	w.flags = GPUTBS_WAIT_ANY;
	w.timeout_ns = deadline_in(10 * NS_PER_MS);
	ck_assert_int_eq(gputbs_wait(g, &w), -ETIME);
}
END_TEST

START_TEST(wait_any_no_grid_enoent)
{
	struct gputbs *g = dev_open();

	assert_no_grids(g);
}
END_TEST

static volatile sig_atomic_t nr_signals;

static void on_alarm(int sig)
{
	(void)sig;
	nr_signals++;
}

/* SIGALRM every millisecond, without SA_RESTART: waits see EINTR. */
static void start_signal_storm(void)
{
	struct itimerval it = {
		.it_interval = { .tv_usec = 1000 },
		.it_value = { .tv_usec = 1000 },
	};
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sigemptyset(&sa.sa_mask);
	ck_assert_int_eq(sigaction(SIGALRM, &sa, NULL), 0);
	nr_signals = 0;
	ck_assert_int_eq(setitimer(ITIMER_REAL, &it, NULL), 0);
}

static void stop_signal_storm(void)
{
	struct itimerval it;

	memset(&it, 0, sizeof(it));
	setitimer(ITIMER_REAL, &it, NULL);
	signal(SIGALRM, SIG_DFL);
}

START_TEST(wait_restarts_after_signals)
{
	struct gputbs *g = dev_open();
	struct gputbs_wait w;
	__u32 h = submit_long(g, 200 * NS_PER_MS);
	int ret;

	start_signal_storm();
	ret = gputbs_wait_handle(g, h, deadline_in(30 * NS_PER_SEC), &w);
	stop_signal_storm();
	ck_assert_msg(!ret, "WAIT: %s", gputbs_strerror(ret));
	ck_assert_uint_eq(w.blocks_done, 1);
	ck_assert_int_gt(nr_signals, 10);
}
END_TEST

START_TEST(wait_deadline_kept_across_signals)
{
	struct gputbs *g = dev_open();
	__u32 h = submit_long(g, 5 * NS_PER_SEC);
	__u64 t0 = gputbs_now_ns(), dt;
	int ret;

	start_signal_storm();
	ret = gputbs_wait_handle(g, h, deadline_in(200 * NS_PER_MS), NULL);
	stop_signal_storm();
	dt = gputbs_now_ns() - t0;
	ck_assert_int_eq(ret, -ETIME);
	ck_assert_int_gt(nr_signals, 10);
	ck_assert_uint_ge(dt, 200 * NS_PER_MS);
	ck_assert_uint_lt(dt, 1000 * NS_PER_MS);
}
END_TEST

/* ---- poll() ----------------------------------------------------------- */

static int poll_in(struct gputbs *g, int timeout_ms)
{
	struct pollfd pfd = { .fd = gputbs_fd(g), .events = POLLIN };
	int ret = poll(&pfd, 1, timeout_ms);

	ck_assert_int_ge(ret, 0);
	return ret ? pfd.revents : 0;
}

START_TEST(poll_not_readable_while_running)
{
	struct gputbs *g = dev_open();

	submit_long(g, 2 * NS_PER_SEC);
	ck_assert_int_eq(poll_in(g, 0), 0);
	ck_assert_int_eq(poll_in(g, 50), 0);
}
END_TEST

START_TEST(poll_readable_after_completion)
{
	struct gputbs *g = dev_open();
	struct gputbs_submit s;

	grid_dist(&s, 30, 64, 100);
	submit_ok(g, &s);
	ck_assert(poll_in(g, 30000) & POLLIN);
}
END_TEST

START_TEST(poll_not_readable_after_reap)
{
	struct gputbs *g = dev_open();
	struct gputbs_submit s;
	struct gputbs_wait w;
	__u32 h;

	grid_dist(&s, 30, 64, 100);
	h = submit_ok(g, &s);
	ck_assert(poll_in(g, 30000) & POLLIN);
	wait_ok(g, h, &w);
	ck_assert_int_eq(poll_in(g, 0), 0);
}
END_TEST

/* ---- several files and processes -------------------------------------- */

/* Child: open, submit, wait; exit status 0 on success. */
static int child_submit_wait(void)
{
	struct gputbs_submit s;
	struct gputbs_wait w;
	struct gputbs *g;

	if (gputbs_open(device_path, 0, &g))
		return 1;
	grid_dist(&s, 60, 64, 1000);
	if (gputbs_submit(g, &s) || !s.handle)
		return 2;
	if (gputbs_wait_handle(g, s.handle, deadline_in(30 * NS_PER_SEC),
			       &w))
		return 3;
	if (w.handle != s.handle || w.blocks_done != 60)
		return 4;
	gputbs_close(g);
	return 0;
}

START_TEST(two_processes_concurrently)
{
	pid_t pid[2];
	int i, status;

	for (i = 0; i < 2; i++) {
		pid[i] = fork();
		ck_assert_int_ge(pid[i], 0);
		if (!pid[i])
			_exit(child_submit_wait());
	}
	for (i = 0; i < 2; i++) {
		ck_assert_int_eq(waitpid(pid[i], &status, 0), pid[i]);
		ck_assert_msg(WIFEXITED(status) && !WEXITSTATUS(status),
			      "child %d: status %#x", i, status);
	}
}
END_TEST

START_TEST(handle_of_other_file_enoent)
{
	struct gputbs *a = dev_open(), *b = dev_open();
	struct gputbs_wait w;
	__u32 h = submit_long(a, 100 * NS_PER_MS);

	ck_assert_int_eq(gputbs_wait_handle(b, h, 0, NULL), -ENOENT);
	ck_assert_int_eq(gputbs_wait_handle(b, h,
					    deadline_in(10 * NS_PER_MS), NULL),
			 -ENOENT);
	wait_ok(a, h, &w);
}
END_TEST

START_TEST(handles_independent_per_file)
{
	struct gputbs *a = dev_open(), *b = dev_open();
	struct gputbs_submit s;
	struct gputbs_wait w;
	__u32 ha, hb;

	grid_dist(&s, 15, 32, 100);
	ha = submit_ok(a, &s);
	hb = submit_ok(b, &s);
	wait_ok(b, hb, &w);
	/* Reaping on b left a's grid alone, whatever the handle values. */
	wait_ok(a, ha, &w);
	ck_assert_uint_eq(w.blocks_done, 15);
}
END_TEST

START_TEST(close_cancels_running_grid)
{
	struct gputbs *a = dev_open(), *b = dev_open();
	struct gputbs_info info;
	struct gputbs_submit s;
	struct gputbs_wait w;

	/* Fill every block slot of every SM for 10 s ... */
	dev_info(a, &info);
	grid_dist(&s, info.nr_sms * info.max_blocks_per_sm, 32,
		  cycles_for_ns(&info, 10 * NS_PER_SEC));
	submit_ok(a, &s);
	dev_close(a);
	/* ... closing the file frees them for the next grid at once. */
	grid_dist(&s, 15, 32, cycles_for_ns(&info, NS_PER_MS));
	ck_assert_int_eq(gputbs_wait_handle(b, submit_ok(b, &s),
					    deadline_in(2 * NS_PER_SEC), &w),
			 0);
	ck_assert_uint_eq(w.blocks_done, 15);
}
END_TEST

/* ---- invalid submissions ---------------------------------------------- */

/*
 * Each test makes one field of an otherwise valid grid invalid: the
 * submission fails with @err, no handle is returned and nothing is queued.
 */
static void expect_submit_error(struct gputbs *g, struct gputbs_submit *s,
				int err)
{
	int ret;

	s->handle = 0;
	ret = gputbs_submit(g, s);
	ck_assert_msg(ret == err, "SUBMIT returned %d (%s), expected %d (%s)",
		      ret, gputbs_strerror(ret), err, gputbs_strerror(err));
	ck_assert_uint_eq(s->handle, 0);
	assert_no_grids(g);
}

#define INVALID_DIST(name, err, stmt)					\
START_TEST(name)							\
{									\
	struct gputbs *g = dev_open();					\
	struct gputbs_info info;					\
	struct gputbs_submit s;						\
									\
	dev_info(g, &info);						\
	grid_dist(&s, 4, 64, 100);					\
	stmt;								\
	expect_submit_error(g, &s, err);				\
}									\
END_TEST

#define INVALID_ARRAY(name, err, stmt)					\
START_TEST(name)							\
{									\
	__u64 d[4] = { 100, 200, 300, 400 };				\
	struct gputbs *g = dev_open();					\
	struct gputbs_submit s;						\
									\
	grid_array(&s, d, 4);						\
	stmt;								\
	expect_submit_error(g, &s, err);				\
}									\
END_TEST

INVALID_DIST(invalid_flags, -EINVAL, s.flags = 1)
INVALID_DIST(invalid_flags_high_bit, -EINVAL, s.flags = 1U << 31)
INVALID_DIST(invalid_pad, -EINVAL, s.pad = 1)
INVALID_DIST(invalid_nr_blocks_zero, -EINVAL, s.nr_blocks = 0)
INVALID_DIST(invalid_threads_zero, -EINVAL, s.threads_per_block = 0)
INVALID_DIST(invalid_threads_too_many, -EINVAL,
	     s.threads_per_block = info.max_threads_per_block + 1)
INVALID_DIST(invalid_regs_too_many, -EINVAL,
	     s.regs_per_thread = info.max_regs_per_thread + 1)
INVALID_DIST(invalid_shmem_too_much, -EINVAL,
	     s.shmem_per_block = info.max_shmem_per_sm + 1)
INVALID_DIST(invalid_work_model_zero, -EINVAL, s.work_model = 0)
INVALID_DIST(invalid_work_model_three, -EINVAL, s.work_model = 3)
INVALID_DIST(invalid_dist_cycles_zero, -EINVAL, s.block_cycles = 0)
INVALID_DIST(invalid_dist_cycles_too_many, -EINVAL,
	     s.block_cycles = MAX_CYCLES + 1)
INVALID_DIST(invalid_dist_rsd_too_big, -EINVAL, s.block_rsd_ppm = 1000001)
INVALID_DIST(invalid_dist_nr_durations, -EINVAL, s.nr_durations = 4)
INVALID_DIST(invalid_dist_durations_ptr, -EINVAL,
	     s.durations_ptr = (__u64)(uintptr_t)&info)
INVALID_DIST(invalid_label_unterminated, -EINVAL,
	     memset(s.label, 'A', sizeof(s.label)))
INVALID_DIST(invalid_label_nonprintable, -EINVAL,
	     strcpy(s.label, "bad\001label"))
INVALID_DIST(invalid_label_high_byte, -EINVAL,
	     strcpy(s.label, "bad\200label"))
/* 32 warps * roundup(63 * 32, 64) registers = 65536 > 32768: R = 0. */
INVALID_DIST(invalid_block_exceeds_sm, -EINVAL,
	     (s.threads_per_block = 1024, s.regs_per_thread = 63))
INVALID_DIST(invalid_too_many_blocks_e2big, -E2BIG,
	     s.nr_blocks = info.max_blocks_per_grid + 1)

INVALID_ARRAY(invalid_array_block_cycles, -EINVAL, s.block_cycles = 100)
INVALID_ARRAY(invalid_array_rsd, -EINVAL, s.block_rsd_ppm = 1000)
INVALID_ARRAY(invalid_array_seed, -EINVAL, s.seed = 1)
INVALID_ARRAY(invalid_array_count_short, -EINVAL, s.nr_durations = 3)
INVALID_ARRAY(invalid_array_count_long, -EINVAL, s.nr_blocks = 3)
INVALID_ARRAY(invalid_array_zero_duration, -EINVAL, d[2] = 0)
INVALID_ARRAY(invalid_array_duration_too_long, -EINVAL,
	      d[3] = MAX_CYCLES + 1)
INVALID_ARRAY(invalid_array_null_pointer, -EFAULT, s.durations_ptr = 0)

START_TEST(invalid_array_unmapped_pointer_efault)
{
	struct gputbs *g = dev_open();
	struct gputbs_submit s;
	long page = sysconf(_SC_PAGESIZE);
	void *p;

	p = mmap(NULL, page, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ck_assert_ptr_ne(p, MAP_FAILED);
	ck_assert_int_eq(munmap(p, page), 0);
	grid_array(&s, p, 4);
	expect_submit_error(g, &s, -EFAULT);
}
END_TEST

START_TEST(invalid_array_pointer_past_mapping_efault)
{
	struct gputbs *g = dev_open();
	struct gputbs_submit s;
	long page = sysconf(_SC_PAGESIZE);
	__u64 *d;
	char *p;

	/* Two durations in the last bytes of a page, two past it. */
	p = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ck_assert_ptr_ne(p, MAP_FAILED);
	ck_assert_int_eq(munmap(p + page, page), 0);
	d = (__u64 *)(p + page) - 2;
	d[0] = 100;
	d[1] = 100;
	grid_array(&s, d, 4);
	expect_submit_error(g, &s, -EFAULT);
	munmap(p, page);
}
END_TEST

START_TEST(invalid_submits_leave_device_usable)
{
	struct gputbs *g = dev_open();
	struct gputbs_submit s;
	struct gputbs_wait w;
	__u64 d[4] = { 100, 0, 100, 100 };
	int i;

	/* Many rejected submissions in a row on one file ... */
	for (i = 0; i < 100; i++) {
		grid_dist(&s, 4, 64, 100);
		switch (i % 4) {
		case 0:
			s.flags = 1;
			break;
		case 1:
			s.regs_per_thread = 64;
			break;
		case 2:
			grid_array(&s, d, 4);
			break;
		case 3:
			s.nr_blocks = 1U << 31;
			break;
		}
		ck_assert_int_lt(gputbs_submit(g, &s), 0);
	}
	assert_no_grids(g);
	/* ... and a valid one still runs to completion. */
	grid_dist(&s, 30, 64, 100);
	wait_ok(g, submit_ok(g, &s), &w);
	ck_assert_uint_eq(w.blocks_done, 30);
	assert_no_grids(g);
}
END_TEST

/* ---- suite -------------------------------------------------------------- */

static TCase *tcase(Suite *s, const char *name, int timeout)
{
	TCase *tc = tcase_create(name);

	tcase_add_checked_fixture(tc, NULL, teardown_close_all);
	tcase_set_timeout(tc, timeout);
	suite_add_tcase(s, tc);
	return tc;
}

static Suite *gputbs_suite(void)
{
	Suite *s = suite_create("gputbs");
	TCase *tc;

	tc = tcase(s, "abi", 10);
	tcase_add_test(tc, abi_struct_sizes);
	tcase_add_test(tc, lib_open_rejects_flags);
	tcase_add_test(tc, lib_open_missing_node);
	tcase_add_test(tc, lib_open_cloexec);
	tcase_add_test(tc, ioctl_unknown_command_enotty);

	tc = tcase(s, "info", 10);
	tcase_add_test(tc, info_paper_defaults);
	tcase_add_test(tc, info_features);
	tcase_add_test(tc, info_limits_and_clock);

	tc = tcase(s, "submit", 60);
	tcase_add_test(tc, submit_wait_small_grid);
	tcase_add_test(tc, submit_handles_distinct);
	tcase_add_test(tc, submit_work_array);
	tcase_add_test(tc, submit_same_seed_same_runtime);
	tcase_add_test(tc, submit_eagain_at_grid_limit);
	tcase_add_loop_test(tc, submit_ercbench_alone_runtime, 0,
			    getenv("GPUTBS_TEST_SLOW") ?
			    (int)(sizeof(ercbench) / sizeof(ercbench[0])) :
			    NR_ERCBENCH_FAST);

	tc = tcase(s, "wait", 30);
	tcase_add_test(tc, wait_past_deadline_etime);
	tcase_add_test(tc, wait_after_etime_still_waitable);
	tcase_add_test(tc, wait_zero_timeout_returns_at_once);
	tcase_add_test(tc, wait_deadline_honoured);
	tcase_add_test(tc, wait_unknown_handle_enoent);
	tcase_add_test(tc, wait_handle_zero_enoent);
	tcase_add_test(tc, wait_reaped_handle_enoent);
	tcase_add_test(tc, wait_unknown_flags_einval);
	tcase_add_test(tc, wait_any_reaps_each_grid_once);
	tcase_add_test(tc, wait_any_running_grid_etime);
	tcase_add_test(tc, wait_any_no_grid_enoent);
	tcase_add_test(tc, wait_restarts_after_signals);
	tcase_add_test(tc, wait_deadline_kept_across_signals);

	tc = tcase(s, "poll", 30);
	tcase_add_test(tc, poll_not_readable_while_running);
	tcase_add_test(tc, poll_readable_after_completion);
	tcase_add_test(tc, poll_not_readable_after_reap);

	tc = tcase(s, "clients", 30);
	tcase_add_test(tc, two_processes_concurrently);
	tcase_add_test(tc, handle_of_other_file_enoent);
	tcase_add_test(tc, handles_independent_per_file);
	tcase_add_test(tc, close_cancels_running_grid);

	tc = tcase(s, "invalid", 30);
	tcase_add_test(tc, invalid_flags);
	tcase_add_test(tc, invalid_flags_high_bit);
	tcase_add_test(tc, invalid_pad);
	tcase_add_test(tc, invalid_nr_blocks_zero);
	tcase_add_test(tc, invalid_threads_zero);
	tcase_add_test(tc, invalid_threads_too_many);
	tcase_add_test(tc, invalid_regs_too_many);
	tcase_add_test(tc, invalid_shmem_too_much);
	tcase_add_test(tc, invalid_work_model_zero);
	tcase_add_test(tc, invalid_work_model_three);
	tcase_add_test(tc, invalid_dist_cycles_zero);
	tcase_add_test(tc, invalid_dist_cycles_too_many);
	tcase_add_test(tc, invalid_dist_rsd_too_big);
	tcase_add_test(tc, invalid_dist_nr_durations);
	tcase_add_test(tc, invalid_dist_durations_ptr);
	tcase_add_test(tc, invalid_label_unterminated);
	tcase_add_test(tc, invalid_label_nonprintable);
	tcase_add_test(tc, invalid_label_high_byte);
	tcase_add_test(tc, invalid_block_exceeds_sm);
	tcase_add_test(tc, invalid_too_many_blocks_e2big);
	tcase_add_test(tc, invalid_array_block_cycles);
	tcase_add_test(tc, invalid_array_rsd);
	tcase_add_test(tc, invalid_array_seed);
	tcase_add_test(tc, invalid_array_count_short);
	tcase_add_test(tc, invalid_array_count_long);
	tcase_add_test(tc, invalid_array_zero_duration);
	tcase_add_test(tc, invalid_array_duration_too_long);
	tcase_add_test(tc, invalid_array_null_pointer);
	tcase_add_test(tc, invalid_array_unmapped_pointer_efault);
	tcase_add_test(tc, invalid_array_pointer_past_mapping_efault);
	tcase_add_test(tc, invalid_submits_leave_device_usable);
	return s;
}

static const char usage[] =
	"Usage: gputbs-test [-d DEVICE] [--tap]\n"
	"\n"
	"Userland test suite of /dev/gputbs (needs the module loaded).\n"
	"  -d DEVICE   device node (default $GPUTBS_DEVICE or /dev/gputbs)\n"
	"  --tap       also write TAP to standard output\n"
	"Environment: GPUTBS_TEST_SLOW=1 adds SHA1 (22M cycles) to the\n"
	"ERCBench runs; CK_RUN_CASE, CK_FORK, CK_VERBOSITY as in Check.\n";

int main(int argc, char **argv)
{
	SRunner *sr;
	int i, failed, tap = 0;

	device_path = getenv("GPUTBS_DEVICE");
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-d") && i + 1 < argc) {
			device_path = argv[++i];
		} else if (!strcmp(argv[i], "--tap")) {
			tap = 1;
		} else if (!strcmp(argv[i], "-h") ||
			   !strcmp(argv[i], "--help")) {
			fputs(usage, stdout);
			return 0;
		} else {
			fputs(usage, stderr);
			return 2;
		}
	}
	sr = srunner_create(gputbs_suite());
	if (tap)
		srunner_set_tap(sr, "-");
	/* One line per test unless CK_VERBOSITY says otherwise. */
	srunner_run_all(sr, getenv("CK_VERBOSITY") ? CK_ENV : CK_VERBOSE);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
