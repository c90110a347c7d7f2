// SPDX-License-Identifier: GPL-2.0
/*
 * gputbs-failnth.c - fail every allocation (and user copy) of every path
 * into the module, one at a time (Documentation/reliability.rst).
 *
 *   gputbs-failnth [--max-n N] [--only NAME] [-v]
 *
 * For each path (open, INFO, each kind of SUBMIT, WAIT, BLOCKS, poll,
 * epoll, close, fdinfo, the sysfs and module parameter writes, those of
 * policy_params/ with srtf-adaptive selected first, debugfs reads), for
 * N = 1, 2, ...: set up, write N to
 * /proc/thread-self/fail-nth, make the one call, and read fail-nth back.
 * If the N-th fault point of the call failed, the call must return 0 (it
 * coped) or a clean error of its own (-ENOMEM, -EFAULT for a user copy
 * the fault injection failed, or the path's errors); nothing may be left
 * queued by a failed submission (unless its struct could not be written
 * back, which uapi/linux/gputbs.h documents), a failed sysfs write must
 * leave the value as it was; and after every call a fresh file submits
 * and reaps a grid: the device stays usable.  The path is done at the
 * first N that the call did not reach (fail-nth still positive): N - 1
 * is its number of fault points.  After every call, once its files are
 * closed, nothing may stay charged to any user or the device (debugfs
 * gputbs/users: the per-user accounting is balanced on every error path).
 * Leaks are kmemleak's to find (the debug kernel's scan after the run,
 * tools/vm/gputbs-vm).
 *
 * The fault attributes are set up first: failslab and fail_page_alloc
 * with ignore-gfp-wait=N (GFP_KERNEL allocations may fail), page
 * allocations of any order, highmem (user pages) still ignored, and
 * quiet.  Needs root, debugfs, CONFIG_FAULT_INJECTION_DEBUG_FS,
 * CONFIG_FAILSLAB and CONFIG_FAIL_PAGE_ALLOC (tests/debug-kernel.config).
 * Ends with "failnth: PASS ..." or "failnth: FAIL ..."; exit status 0
 * only for PASS, 77 when the kernel has no fail-nth.
 *
 * Copyright (C) 2026 The gputbs developers
 */
#include <poll.h>
#include <stdarg.h>
#include <stdbool.h>
#include <sys/epoll.h>
#include <sys/wait.h>

#include "guest-util.h"

static int fail_fd = -1;
static unsigned int max_n = 5000;
static const char *only;
static bool verbose;
static unsigned int errors;
static struct gputbs_info info;

static void fail(const char *fmt, ...)
{
	va_list ap;

	errors++;
	fputs("failnth: FAIL: ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

/* ---- fail-nth ------------------------------------------------------------ */

static void arm(unsigned int n)
{
	char buf[16];
	int len = snprintf(buf, sizeof(buf), "%u", n);

	if (pwrite(fail_fd, buf, len, 0) != len) {
		perror("failnth: arming fail-nth");
		exit(1);
	}
}

/*
 * Disarm; true if the armed fault was injected.  The read's own copy to
 * user space is a fault point too: -EFAULT there means the counter was
 * still positive, so nothing was injected before.
 */
static bool disarm(void)
{
	char buf[16];
	ssize_t n = pread(fail_fd, buf, sizeof(buf) - 1, 0);
	bool injected = n > 0 && buf[0] == '0';

	/* 0 stops a pending injection; its own copy may be the one that fails */
	if (pwrite(fail_fd, "0", 1, 0) != 1)
		pwrite(fail_fd, "0", 1, 0);
	n = pread(fail_fd, buf, sizeof(buf) - 1, 0);
	if (n != 2 || buf[0] != '0') {
		fprintf(stderr, "failnth: cannot disarm fail-nth\n");
		exit(1);
	}
	return injected;
}

static int setup_attrs(void)
{
	static const struct {
		const char *file, *val;
	} attrs[] = {
		{ "/sys/kernel/debug/failslab/ignore-gfp-wait", "N" },
		{ "/sys/kernel/debug/failslab/verbose", "0" },
		{ "/sys/kernel/debug/fail_page_alloc/ignore-gfp-wait", "N" },
		{ "/sys/kernel/debug/fail_page_alloc/ignore-gfp-highmem", "Y" },
		{ "/sys/kernel/debug/fail_page_alloc/min-order", "0" },
		{ "/sys/kernel/debug/fail_page_alloc/verbose", "0" },
		{ "/sys/kernel/debug/fail_usercopy/verbose", "0" },
	};
	unsigned int i;
	int ret;

	for (i = 0; i < sizeof(attrs) / sizeof(attrs[0]); i++) {
		ret = gu_write_file(attrs[i].file, attrs[i].val);
		if (ret && !strstr(attrs[i].file, "usercopy")) {
			printf("failnth: %s: %s\n", attrs[i].file,
			       strerror(-ret));
			return ret;
		}
	}
	return 0;
}

/* ---- the device after each call ------------------------------------------ */

/* A fresh file submits and reaps a grid; true if the device is usable. */
static bool usable(void)
{
	struct gputbs_submit s;
	struct gputbs_wait w;
	int fd = gu_open(), ret;

	if (fd < 0) {
		fail("device not usable: open: %s", strerror(errno));
		return false;
	}
	gu_grid(&s, 30, 64, 10);
	ret = gu_submit(fd, &s);
	if (!ret)
		ret = gu_wait(fd, s.handle, 0,
			      (__s64)gu_now_ns() + 30 * GU_NS_PER_SEC, &w);
	close(fd);
	if (ret || w.blocks_done != 30) {
		fail("device not usable: submit/wait: %s", strerror(-ret));
		return false;
	}
	return true;
}

/* Nothing charged to anyone once every file is closed; true if so. */
static bool balanced(const char *name, unsigned int n)
{
	__u64 grids, bytes;
	int ret = gu_charges(-1, &grids, &bytes);

	if (ret) {
		fail("%s, fault %u: debugfs gputbs/users: %s", name, n,
		     strerror(-ret));
		return false;
	}
	if (grids || bytes) {
		fail("%s, fault %u: %llu grids and %llu bytes still charged with every file closed",
		     name, n, (unsigned long long)grids,
		     (unsigned long long)bytes);
		return false;
	}
	return true;
}

/* ---- paths ------------------------------------------------------------------ */

/*
 * One path: @prepare sets up (no injection), @call is the one call under
 * fault injection (0 or -errno), @check looks at the aftermath (returns
 * false on a violation), @finish cleans up.  @errs: the errors the call
 * may return besides -ENOMEM and -EFAULT.
 */
struct ctx {
	int fd, fd2, epfd;
	__u32 handle;
	struct gputbs_submit s;
	struct gputbs_wait w;
	struct gputbs_blocks b;
	struct gputbs_block_record rec[64];
	__u64 durations[64];
	char buf[8192];
	char old[256];
	const char *attr_dir, *attr, *val;
	__u64 count_before;
};

struct path {
	const char *name;
	void (*prepare)(struct ctx *c, const struct path *p);
	int (*call)(struct ctx *c, const struct path *p);
	bool (*check)(struct ctx *c, const struct path *p, int ret);
	void (*finish)(struct ctx *c);
	int errs[4];
	const char *attr_dir, *attr, *val;
	int kind;
};

static void open_fd(struct ctx *c)
{
	c->fd = gu_open();
	if (c->fd < 0) {
		perror("failnth: open");
		exit(1);
	}
}

static void finish_close(struct ctx *c)
{
	if (c->fd >= 0)
		close(c->fd);
	if (c->fd2 >= 0)
		close(c->fd2);
	if (c->epfd >= 0)
		close(c->epfd);
	c->fd = c->fd2 = c->epfd = -1;
}

/* open */
static void prep_nothing(struct ctx *c, const struct path *p)
{
	(void)c;
	(void)p;
}

static int call_open(struct ctx *c, const struct path *p)
{
	(void)p;
	c->fd = open(GU_DEVICE, O_RDWR | O_CLOEXEC);
	return c->fd < 0 ? -errno : 0;
}

/* INFO */
static void prep_fd(struct ctx *c, const struct path *p)
{
	(void)p;
	open_fd(c);
	memset(c->buf, 0, sizeof(c->buf));	/* fault the pages in */
}

static int call_info(struct ctx *c, const struct path *p)
{
	(void)p;
	return gu_ioctl(c->fd, GPUTBS_IOCTL_INFO, c->buf);
}

/* SUBMIT kinds */
enum { SUB_DIST96, SUB_DIST104, SUB_ARRAY, SUB_RECORD, SUB_AT_CYCLE,
       SUB_HIGH, SUB_ALL, SUB_CHARGED };

static void prep_submit(struct ctx *c, const struct path *p)
{
	unsigned int i;

	open_fd(c);
	if (p->kind == SUB_CHARGED) {
		/* the user holds a grid already (on another file): no entry
		 * of its own is allocated for the charge
		 */
		c->fd2 = gu_open();
		gu_grid(&c->s, 1, 32, gu_cycles_for_ns(&info, 10 * GU_NS_PER_SEC));
		c->s.flags = GPUTBS_SUBMIT_RECORD_BLOCKS;
		if (c->fd2 < 0 || gu_submit104(c->fd2, &c->s)) {
			perror("failnth: submit");
			exit(1);
		}
	}
	gu_grid(&c->s, 40, 64, 100);
	switch (p->kind) {
	case SUB_ARRAY:
	case SUB_ALL:
		for (i = 0; i < 40; i++)
			c->durations[i] = 50 + i;
		c->s.block_cycles = 0;
		c->s.work_model = GPUTBS_WORK_ARRAY;
		c->s.nr_durations = 40;
		c->s.durations_ptr = (__u64)(uintptr_t)c->durations;
		if (p->kind == SUB_ARRAY)
			break;
		/* fall through */
	case SUB_RECORD:
		c->s.flags |= GPUTBS_SUBMIT_RECORD_BLOCKS;
		if (p->kind == SUB_RECORD)
			break;
		/* fall through */
	case SUB_AT_CYCLE:
		c->s.flags |= GPUTBS_SUBMIT_AT_CYCLE;
		c->s.arrival_cycle = gu_now_cycle(&info) +
				     gu_cycles_for_ns(&info, 50 * GU_NS_PER_MS);
		if (p->kind == SUB_AT_CYCLE)
			break;
		/* fall through */
	case SUB_HIGH:
		c->s.prio_class = GPUTBS_PRIO_REALTIME;
		break;
	case SUB_CHARGED:
		c->s.flags |= GPUTBS_SUBMIT_RECORD_BLOCKS;
		break;
	}
}

static int call_submit(struct ctx *c, const struct path *p)
{
	return p->kind == SUB_DIST96 ? gu_submit96(c->fd, &c->s) :
				       gu_submit(c->fd, &c->s);
}

/*
 * A failed submission queued nothing, except when only its copy back
 * failed (-EFAULT): then the grid is there without a known handle.  A
 * successful one is reaped.
 */
static bool check_submit(struct ctx *c, const struct path *p, int ret)
{
	struct gputbs_wait w;
	int r;

	(void)p;
	r = gu_wait(c->fd, 0, GPUTBS_WAIT_ANY,
		    (__s64)gu_now_ns() + 30 * GU_NS_PER_SEC, &w);
	if (!ret || ret == -EFAULT) {
		if (!ret && r) {
			fail("submission succeeded, WAIT_ANY: %s", strerror(-r));
			return false;
		}
		if (!r && w.blocks_done != 40) {
			fail("grid reaped with %u of 40 blocks", w.blocks_done);
			return false;
		}
		if (!ret && w.handle != c->s.handle) {
			fail("reaped handle %u, submitted %u", w.handle,
			     c->s.handle);
			return false;
		}
		return true;
	}
	if (r != -ENOENT) {
		fail("submission failed with %s, yet a grid is queued (WAIT_ANY: %s)",
		     strerror(-ret), strerror(-r));
		return false;
	}
	return true;
}

/* WAIT on a completed grid (kind 0) or WAIT_ANY (kind 1) */
static void prep_done_grid(struct ctx *c, const struct path *p)
{
	struct pollfd pfd;

	open_fd(c);
	gu_grid(&c->s, 20, 64, 10);
	c->s.flags = GPUTBS_SUBMIT_RECORD_BLOCKS;
	if (gu_submit(c->fd, &c->s)) {
		perror("failnth: submit");
		exit(1);
	}
	c->handle = c->s.handle;
	pfd = (struct pollfd){ .fd = c->fd, .events = POLLIN };
	if (poll(&pfd, 1, 30000) != 1) {
		fprintf(stderr, "failnth: grid did not complete\n");
		exit(1);
	}
	memset(&c->w, 0, sizeof(c->w));
	c->w.handle = p->kind ? 0 : c->handle;
	c->w.flags = p->kind ? GPUTBS_WAIT_ANY : 0;
	c->w.timeout_ns = gu_now_ns() + 10 * GU_NS_PER_SEC;
	memset(c->rec, 0, sizeof(c->rec));
	c->b = (struct gputbs_blocks){ .handle = c->handle, .nr_records = 64,
				       .records_ptr = (__u64)(uintptr_t)c->rec };
}

static int call_wait(struct ctx *c, const struct path *p)
{
	(void)p;
	return gu_ioctl(c->fd, GPUTBS_IOCTL_WAIT, &c->w);
}

/* The grid is reaped on success, maybe not on -EFAULT; never half. */
static bool check_wait(struct ctx *c, const struct path *p, int ret)
{
	int r = gu_wait(c->fd, c->handle, 0, 0, NULL);

	(void)p;
	if (!ret && (r != -ENOENT || c->w.handle != c->handle ||
		     c->w.blocks_done != 20)) {
		fail("WAIT succeeded: handle %u blocks %u, then %s",
		     c->w.handle, c->w.blocks_done, strerror(-r));
		return false;
	}
	if (ret && r && r != -ENOENT) {
		fail("after a failed WAIT: %s", strerror(-r));
		return false;
	}
	return true;
}

/* WAIT that sleeps until the deadline: -ETIME is the call's own */
static void prep_sleeping_wait(struct ctx *c, const struct path *p)
{
	(void)p;
	open_fd(c);
	gu_grid(&c->s, 1, 32, gu_cycles_for_ns(&info, 10 * GU_NS_PER_SEC));
	if (gu_submit(c->fd, &c->s)) {
		perror("failnth: submit");
		exit(1);
	}
	memset(&c->w, 0, sizeof(c->w));
	c->w.handle = c->s.handle;
	c->w.timeout_ns = gu_now_ns() + 5 * GU_NS_PER_MS;
}

/* BLOCKS */
static int call_blocks(struct ctx *c, const struct path *p)
{
	(void)p;
	return gu_ioctl(c->fd, GPUTBS_IOCTL_BLOCKS, &c->b);
}

static bool check_blocks(struct ctx *c, const struct path *p, int ret)
{
	struct gputbs_blocks b = { .handle = c->handle };
	int r = gu_ioctl(c->fd, GPUTBS_IOCTL_BLOCKS, &b);

	(void)p;
	if (r || b.nr_records != 20 || (!ret && c->b.nr_records != 20)) {
		fail("BLOCKS afterwards: %s, %u records", strerror(-r),
		     b.nr_records);
		return false;
	}
	return true;
}

/* poll() and epoll on a file with a completed grid */
static int call_poll(struct ctx *c, const struct path *p)
{
	struct pollfd pfd = { .fd = c->fd, .events = POLLIN };
	int r;

	(void)p;
	r = poll(&pfd, 1, 1000);
	if (r < 0)
		return -errno;
	return r == 1 && (pfd.revents & POLLIN) ? 0 : -EIO;
}

static void prep_epoll(struct ctx *c, const struct path *p)
{
	prep_done_grid(c, p);
	c->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (c->epfd < 0) {
		perror("failnth: epoll_create1");
		exit(1);
	}
}

static int call_epoll_ctl(struct ctx *c, const struct path *p)
{
	struct epoll_event ev = { .events = EPOLLIN };

	(void)p;
	return epoll_ctl(c->epfd, EPOLL_CTL_ADD, c->fd, &ev) ? -errno : 0;
}

static bool check_epoll(struct ctx *c, const struct path *p, int ret)
{
	struct epoll_event ev;
	int r;

	(void)p;
	if (ret)
		return true;
	r = epoll_wait(c->epfd, &ev, 1, 1000);
	if (r != 1 || !(ev.events & EPOLLIN)) {
		fail("epoll_wait after EPOLL_CTL_ADD: %d", r);
		return false;
	}
	return true;
}

/* close() of a file with running, queued and arriving grids */
static void prep_busy_file(struct ctx *c, const struct path *p)
{
	(void)p;
	open_fd(c);
	gu_grid(&c->s, info.nr_sms * info.max_blocks_per_sm, 32,
		gu_cycles_for_ns(&info, 10 * GU_NS_PER_SEC));
	c->s.flags = GPUTBS_SUBMIT_RECORD_BLOCKS;
	if (gu_submit(c->fd, &c->s) || gu_submit(c->fd, &c->s)) {
		perror("failnth: submit");
		exit(1);
	}
	c->s.flags = GPUTBS_SUBMIT_AT_CYCLE;
	c->s.arrival_cycle = gu_now_cycle(&info) +
			     gu_cycles_for_ns(&info, GU_NS_PER_SEC);
	if (gu_submit(c->fd, &c->s)) {
		perror("failnth: submit");
		exit(1);
	}
}

static int call_close(struct ctx *c, const struct path *p)
{
	int r;

	(void)p;
	r = close(c->fd);
	c->fd = -1;
	return r ? -errno : 0;
}

/* fdinfo of a file of the device */
static int call_fdinfo(struct ctx *c, const struct path *p)
{
	char path[64];
	ssize_t n;
	int fd;

	(void)p;
	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", c->fd);
	c->fd2 = open(path, O_RDONLY | O_CLOEXEC);
	if (c->fd2 < 0)
		return -errno;
	fd = c->fd2;
	n = read(fd, c->buf, sizeof(c->buf) - 1);
	return n < 0 ? -errno : 0;
}

/* sysfs and module parameter writes; debugfs reads */
/*
 * The policy a path of policy_params/ needs (PARAM_PATH: kind 1), selected
 * before the fault is armed; the directory is then the policy's.
 */
#define PARAM_POLICY	"srtf-adaptive"

static void select_param_policy(const struct path *p)
{
	int ret;

	if (p->kind != 1)
		return;
	ret = gu_write_attr(GU_SYSFS, "policy", PARAM_POLICY);
	if (ret) {
		printf("failnth: selecting %s: %s\n", PARAM_POLICY,
		       strerror(-ret));
		exit(1);
	}
}

static void prep_attr(struct ctx *c, const struct path *p)
{
	char path[256];
	int n;

	c->fd = c->fd2 = c->epfd = -1;
	select_param_policy(p);
	snprintf(path, sizeof(path), "%s/%s", p->attr_dir, p->attr);
	n = gu_read_file(path, c->old, sizeof(c->old));
	if (n < 0) {
		printf("failnth: %s: %s\n", path, strerror(-n));
		exit(1);
	}
	c->old[strcspn(c->old, "\n")] = '\0';
	/* the policy file lists them all: keep the current one */
	if (strchr(c->old, '[')) {
		char *b = strchr(c->old, '[') + 1;

		memmove(c->old, b, strcspn(b, "]"));
		c->old[strcspn(b, "]")] = '\0';
	}
	/* open before arming: only the write is under injection */
	c->fd2 = open(path, O_WRONLY | O_CLOEXEC);
	if (c->fd2 < 0) {
		printf("failnth: open %s: %s\n", path, strerror(errno));
		exit(1);
	}
}

static int call_attr_write(struct ctx *c, const struct path *p)
{
	ssize_t n = write(c->fd2, p->val, strlen(p->val));

	return n < 0 ? -errno : 0;
}

/* A failed write changed nothing; a good one is undone. */
static bool check_attr(struct ctx *c, const struct path *p, int ret)
{
	char path[256], now[256], *s;
	bool ok = true;

	snprintf(path, sizeof(path), "%s/%s", p->attr_dir, p->attr);
	if (gu_read_file(path, now, sizeof(now)) < 0) {
		fail("cannot read %s back", path);
		return false;
	}
	now[strcspn(now, "\n")] = '\0';
	s = strchr(now, '[') ? strchr(now, '[') + 1 : now;
	s[strcspn(s, "]")] = '\0';
	if (ret && strcmp(s, c->old)) {
		fail("%s: the write failed (%s), yet it is '%s', was '%s'",
		     path, strerror(-ret), s, c->old);
		ok = false;
	}
	if (!ret && strcmp(s, p->val)) {
		fail("%s: the write succeeded, yet it is '%s', not '%s'", path,
		     s, p->val);
		ok = false;
	}
	if (gu_write_file(path, c->old)) {
		fail("%s: cannot put back '%s'", path, c->old);
		ok = false;
	}
	return ok;
}

static void finish_param(struct ctx *c)
{
	finish_close(c);
	if (gu_write_attr(GU_SYSFS, "policy", "fifo"))
		fail("cannot select fifo again");
}

static void prep_debugfs(struct ctx *c, const struct path *p)
{
	char path[256];

	c->fd = c->fd2 = c->epfd = -1;
	prep_busy_file(c, p);	/* something to show */
	snprintf(path, sizeof(path), "%s/%s", p->attr_dir, p->attr);
	c->fd2 = open(path, O_RDONLY | O_CLOEXEC);
	if (c->fd2 < 0) {
		printf("failnth: open %s: %s\n", path, strerror(errno));
		exit(1);
	}
	memset(c->buf, 0, sizeof(c->buf));
}

static int call_read(struct ctx *c, const struct path *p)
{
	ssize_t n = read(c->fd2, c->buf, sizeof(c->buf) - 1);

	(void)p;
	return n < 0 ? -errno : 0;
}

static bool check_nothing(struct ctx *c, const struct path *p, int ret)
{
	(void)c;
	(void)p;
	(void)ret;
	return true;
}

#define SUBMIT_PATH(n, k) \
	{ n, prep_submit, call_submit, check_submit, finish_close, { 0 }, \
	  NULL, NULL, NULL, k }
#define ATTR_PATH(n, dir, a, v) \
	{ n, prep_attr, call_attr_write, check_attr, finish_close, \
	  { 0 }, dir, a, v, 0 }
/* a parameter of PARAM_POLICY: selected first, fifo again after */
#define PARAM_PATH(n, a, v) \
	{ n, prep_attr, call_attr_write, check_attr, finish_param, \
	  { 0 }, GU_SYSFS "/policy_params", a, v, 1 }

static const struct path paths[] = {
	{ "open", prep_nothing, call_open, check_nothing, finish_close,
	  { 0 }, NULL, NULL, NULL, 0 },
	{ "INFO", prep_fd, call_info, check_nothing, finish_close, { 0 },
	  NULL, NULL, NULL, 0 },
	SUBMIT_PATH("SUBMIT DIST (96 bytes)", SUB_DIST96),
	SUBMIT_PATH("SUBMIT DIST (104 bytes)", SUB_DIST104),
	SUBMIT_PATH("SUBMIT ARRAY", SUB_ARRAY),
	SUBMIT_PATH("SUBMIT RECORD_BLOCKS", SUB_RECORD),
	SUBMIT_PATH("SUBMIT AT_CYCLE", SUB_AT_CYCLE),
	SUBMIT_PATH("SUBMIT REALTIME", SUB_HIGH),
	SUBMIT_PATH("SUBMIT ARRAY+RECORD_BLOCKS+AT_CYCLE+REALTIME", SUB_ALL),
	SUBMIT_PATH("SUBMIT RECORD_BLOCKS, user already charged", SUB_CHARGED),
	{ "WAIT (handle)", prep_done_grid, call_wait, check_wait, finish_close,
	  { 0 }, NULL, NULL, NULL, 0 },
	{ "WAIT (WAIT_ANY)", prep_done_grid, call_wait, check_wait,
	  finish_close, { 0 }, NULL, NULL, NULL, 1 },
	{ "WAIT (sleeping to its deadline)", prep_sleeping_wait, call_wait,
	  check_nothing, finish_close, { -ETIME }, NULL, NULL, NULL, 0 },
	{ "BLOCKS", prep_done_grid, call_blocks, check_blocks, finish_close,
	  { 0 }, NULL, NULL, NULL, 0 },
	{ "poll", prep_done_grid, call_poll, check_nothing, finish_close,
	  { 0 }, NULL, NULL, NULL, 0 },
	{ "epoll_ctl ADD", prep_epoll, call_epoll_ctl, check_epoll,
	  finish_close, { 0 }, NULL, NULL, NULL, 0 },
	{ "close (running, queued, arriving grids)", prep_busy_file,
	  call_close, check_nothing, finish_close, { 0 }, NULL, NULL, NULL,
	  0 },
	{ "fdinfo", prep_fd, call_fdinfo, check_nothing, finish_close, { 0 },
	  NULL, NULL, NULL, 0 },
	ATTR_PATH("sysfs policy", GU_SYSFS, "policy", "srtf"),
	ATTR_PATH("sysfs starve_ns", GU_SYSFS, "starve_ns", "12345"),
	ATTR_PATH("sysfs policy (srtf-adaptive: policy_params/ rebuilt)",
		  GU_SYSFS, "policy", "srtf-adaptive"),
	PARAM_PATH("sysfs policy_params/share_threshold_ppm",
		   "share_threshold_ppm", "1234567"),
	PARAM_PATH("sysfs policy_params/share_residency", "share_residency",
		   "5"),
	ATTR_PATH("sysfs predictor", GU_SYSFS, "predictor", "literal"),
	PARAM_PATH("sysfs policy_params/share_mode", "share_mode", "sm"),
	ATTR_PATH("sysfs nr_sms (reconfiguration)", GU_SYSFS, "nr_sms", "3"),
	ATTR_PATH("sysfs time_scale_ps (reconfiguration)", GU_SYSFS,
		  "time_scale_ps", "2000"),
	ATTR_PATH("module parameter max_grids_per_device", GU_PARAMS,
		  "max_grids_per_device", "777"),
	ATTR_PATH("module parameter max_grids_per_user", GU_PARAMS,
		  "max_grids_per_user", "555"),
	ATTR_PATH("module parameter max_bytes_per_user", GU_PARAMS,
		  "max_bytes_per_user", "12345678"),
	ATTR_PATH("module parameter max_bytes_per_device", GU_PARAMS,
		  "max_bytes_per_device", "87654321"),
	{ "debugfs sms", prep_debugfs, call_read, check_nothing, finish_close,
	  { 0 }, GU_DEBUGFS, "sms", NULL, 0 },
	{ "debugfs grids", prep_debugfs, call_read, check_nothing,
	  finish_close, { 0 }, GU_DEBUGFS, "grids", NULL, 0 },
	{ "debugfs users", prep_debugfs, call_read, check_nothing,
	  finish_close, { 0 }, GU_DEBUGFS, "users", NULL, 0 },
};

#define NR_PATHS	(int)(sizeof(paths) / sizeof(paths[0]))

static bool allowed(const struct path *p, int ret)
{
	unsigned int i;

	if (!ret || ret == -ENOMEM || ret == -EFAULT)
		return true;
	for (i = 0; i < 4; i++)
		if (p->errs[i] && ret == p->errs[i])
			return true;
	return false;
}

/* Returns the number of fault points of the path. */
static unsigned int run_path(const struct path *p, unsigned int *nomem,
			     unsigned int *efault, unsigned int *coped)
{
	struct stat st;
	unsigned int n;

	if (p->attr_dir) {
		char path[256];

		select_param_policy(p);
		snprintf(path, sizeof(path), "%s/%s", p->attr_dir, p->attr);
		if (stat(path, &st) && p->kind == 1) {
			/* the policy's parameter: absent is a failure */
			fail("%s: %s absent under %s", p->name, path,
			     PARAM_POLICY);
			return 0;
		}
		if (stat(path, &st)) {
			printf("failnth: %-50s skipped (%s absent)\n", p->name,
			       path);
			return 0;
		}
	}
	for (n = 1; n <= max_n; n++) {
		struct ctx c = { .fd = -1, .fd2 = -1, .epfd = -1 };
		bool injected;
		int ret;

		p->prepare(&c, p);
		arm(n);
		ret = p->call(&c, p);
		injected = disarm();
		if (verbose)
			printf("failnth: %s n=%u: %s%s\n", p->name, n,
			       ret ? strerror(-ret) : "ok",
			       injected ? " (injected)" : "");
		if (!allowed(p, ret))
			fail("%s, fault %u: %s", p->name, n, strerror(-ret));
		else if (!injected && ret && !(p->errs[0] && ret == p->errs[0]))
			fail("%s: %s without an injected fault", p->name,
			     strerror(-ret));
		p->check(&c, p, ret);
		p->finish(&c);
		if (!balanced(p->name, n))
			return n;
		if (!usable())
			return n;
		if (!injected)
			return n - 1;
		if (ret == -ENOMEM)
			(*nomem)++;
		else if (ret == -EFAULT)
			(*efault)++;
		else if (!ret)
			(*coped)++;
	}
	fail("%s: still failing at fault point %u", p->name, max_n);
	return max_n;
}

int main(int argc, char **argv)
{
	unsigned int total = 0, nomem = 0, efault = 0, coped = 0, covered = 0;
	int i, fd;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--max-n") && i + 1 < argc)
			max_n = strtoul(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--only") && i + 1 < argc)
			only = argv[++i];
		else if (!strcmp(argv[i], "-v"))
			verbose = true;
		else {
			fputs("Usage: gputbs-failnth [--max-n N] [--only NAME] [-v]\n",
			      stderr);
			return 2;
		}
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	fail_fd = open("/proc/thread-self/fail-nth", O_RDWR | O_CLOEXEC);
	if (fail_fd < 0) {
		printf("failnth: SKIP: /proc/thread-self/fail-nth: %s (CONFIG_FAULT_INJECTION)\n",
		       strerror(errno));
		return 77;
	}
	if (setup_attrs())
		return 1;
	fd = gu_open();
	if (fd < 0 || gu_ioctl(fd, GPUTBS_IOCTL_INFO, &info)) {
		printf("failnth: %s: %s\n", GU_DEVICE, strerror(errno));
		return 1;
	}
	close(fd);
	for (i = 0; i < NR_PATHS; i++) {
		unsigned int a = 0, b = 0, c = 0, n;

		if (only && !strstr(paths[i].name, only))
			continue;
		n = run_path(&paths[i], &a, &b, &c);
		printf("failnth: %-50s %3u fault points: %u ENOMEM, %u EFAULT, %u coped\n",
		       paths[i].name, n, a, b, c);
		total += n;
		nomem += a;
		efault += b;
		coped += c;
		covered++;
	}
	if (errors) {
		printf("failnth: FAIL: %u errors over %u paths\n", errors,
		       covered);
		return 1;
	}
	printf("failnth: PASS: %u paths, %u fault points failed one at a time (%u ENOMEM, %u EFAULT, %u coped with), device usable after each\n",
	       covered, total, nomem, efault, coped);
	return 0;
}
