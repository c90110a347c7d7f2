// SPDX-License-Identifier: GPL-2.0
/*
 * gputbs-fuzz.c - an ioctl fuzzer for /dev/gputbs, run in the guest (the
 * debug kernel's KASAN, UBSAN, lockdep and kmemleak watch the module
 * while it runs; Documentation/reliability.rst).
 *
 *   gputbs-fuzz [--time S] [--procs P] [--seed N] [--force]
 *
 * P processes (default 4; half of them as user nobody), each with two
 * threads sharing its files, for S seconds (default 30): random and
 * mutated valid structs for INFO, SUBMIT (both sizes), WAIT and BLOCKS;
 * commands with the module's type byte and random numbers, directions and
 * sizes, and wholly random commands; bad pointers (NULL, unmapped,
 * read-only, straddling a hole, kernel, non-canonical); random opens,
 * closes (also of a file another thread is in an ioctl on), dup(),
 * poll(), read() and fdinfo; children that share the files and are
 * SIGKILLed; and, from root, random writes to the sysfs attributes and
 * the module parameter max_grids_per_device.  Every ioctl result must be
 * 0 or one of the documented errors, a successful SUBMIT returns a
 * handle, a successful WAIT of one of its own grids reports all its
 * blocks, INFO's reserved words are zero.  Waits never block for more
 * than 20 ms (their deadlines are in the past or near), so grids of
 * 2^40 cycles only ever end by being cancelled.
 *
 * Memory: a RECORD_BLOCKS grid allocates 32 bytes per block, so the
 * module should be loaded with a small max_blocks_per_grid (the guest
 * driver uses 4096); above 65536 the fuzzer refuses to run without
 * --force.  It lowers max_grids_per_device to 1024 while it runs.
 *
 * At the end, all processes gone: the device must be idle (debugfs) and
 * usable, and every value the fuzzer wrote is put back.  Prints the
 * number of ioctl calls and the results by errno; the last line is
 * "fuzz: PASS ..." or "fuzz: FAIL ..."; exit status 0 only for PASS.
 *
 * Copyright (C) 2026 The gputbs developers
 */
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <sys/wait.h>

#include "guest-util.h"

#define NR_FDS		4
#define SCRATCH_SIZE	(1 << 20)
#define MAX_WAIT_NS	(20 * GU_NS_PER_MS)

/* Shared between all processes (MAP_SHARED). */
struct stats {
	atomic_ullong ioctls;
	atomic_ullong by_errno[160];
	atomic_ullong unexpected;
	atomic_ullong opens, closes, polls, reads, forks, kills, sysfs;
	atomic_ullong submitted, reaped;
};

static struct stats *st;
static struct gputbs_info info;
static __u64 deadline_ns, seed = 1;
static unsigned int nr_procs = 4, run_s = 30;

/*
 * Each thread's scratch memory, which the kernel may write into: 1 MiB,
 * then a hole of one page, then a read-only page.
 */
static __thread char *scratch;

/* One process's files, shared by its two threads. */
static atomic_int fds[NR_FDS];

static void note_errno(int ret, bool ioctl_call)
{
	unsigned int e = ret < 0 ? -ret : 0;

	if (e >= 160)
		e = 159;
	atomic_fetch_add(&st->by_errno[e], 1);
	if (ioctl_call)
		atomic_fetch_add(&st->ioctls, 1);
}

/* The errors an ioctl of the device may return. */
static bool documented(int ret)
{
	switch (-ret) {
	case 0: case EINVAL: case ENOTTY: case EFAULT: case E2BIG: case EPERM:
	case EAGAIN: case ENOSPC: case ENOENT: case ETIME: case EBUSY:
	case ENODATA: case ENOMEM: case EBADF: case EINTR: case EDQUOT:
	case ENOBUFS:
		return true;
	}
	return false;
}

/* Reported with write(): no stdio lock, safe in a child after fork(). */
static void unexpected(const char *what, int ret)
{
	char buf[160];
	int n;

	atomic_fetch_add(&st->unexpected, 1);
	n = snprintf(buf, sizeof(buf), "fuzz[%d]: %s: unexpected %d\n",
		     getpid(), what, ret);
	if (write(2, buf, n) < 0)
		return;
}

/* ---- random values ---------------------------------------------------------- */

static __thread __u64 rng;

static __u64 rnd(void)
{
	return gu_rand(&rng);
}

static __u64 range(__u64 lo, __u64 hi)
{
	return gu_range(&rng, lo, hi);
}

/* A value near the edges of @max, or random. */
static __u64 edgy(__u64 max)
{
	switch (range(0, 9)) {
	case 0: return 0;
	case 1: return 1;
	case 2: return max;
	case 3: return max + 1;
	case 4: return ~0ULL;
	case 5: return (__u32)~0U;
	case 6: return 1ULL << range(0, 63);
	case 7: return rnd();
	default: return max ? range(0, max) : 0;
	}
}

/* A user pointer for an object of @size bytes the kernel may write. */
static __u64 some_ptr(size_t size)
{
	long page = sysconf(_SC_PAGESIZE);

	switch (range(0, 15)) {
	case 0: return 0;
	case 1: return (__u64)(uintptr_t)(scratch + SCRATCH_SIZE);	/* hole */
	case 2: return (__u64)(uintptr_t)(scratch + SCRATCH_SIZE - size / 2);
	case 3: return 0xffff888000000000ULL + range(0, 1 << 20);
	case 4: return 0x8000000000000000ULL;
	case 5: return rnd();
	case 6: return (__u64)(uintptr_t)(scratch + SCRATCH_SIZE + page) |
		       range(0, 7);	/* read-only page after the hole */
	default:
		if (size >= SCRATCH_SIZE)
			size = SCRATCH_SIZE - 1;
		return (__u64)(uintptr_t)(scratch +
					 range(0, SCRATCH_SIZE - size));
	}
}

/* ---- files ------------------------------------------------------------------- */

static int pick_fd(void)
{
	int fd = -1, tries;

	for (tries = 0; tries < 3 && fd < 0; tries++)
		fd = atomic_load(&fds[range(0, NR_FDS - 1)]);
	/* no file: a number none has (never the console's 0-2) */
	return fd >= 0 ? fd : 1000 + (int)range(0, 9);
}

static void do_open(void)
{
	int i = range(0, NR_FDS - 1), fd = gu_open(), old;

	atomic_fetch_add(&st->opens, 1);
	if (fd < 0)
		return;
	old = atomic_exchange(&fds[i], fd);
	if (old >= 0) {
		close(old);
		atomic_fetch_add(&st->closes, 1);
	}
}

static void do_close(void)
{
	int old = atomic_exchange(&fds[range(0, NR_FDS - 1)], -1);

	if (old >= 0) {
		close(old);
		atomic_fetch_add(&st->closes, 1);
	}
}

static void do_dup(void)
{
	int i = range(0, NR_FDS - 1), fd = atomic_load(&fds[i]), d, old;

	if (fd < 0)
		return;
	d = fcntl(fd, F_DUPFD_CLOEXEC, 0);
	if (d < 0)
		return;
	old = atomic_exchange(&fds[range(0, NR_FDS - 1)], d);
	if (old >= 0) {
		close(old);
		atomic_fetch_add(&st->closes, 1);
	}
}

/* ---- structs ------------------------------------------------------------------ */

static __u32 some_handle(void)
{
	switch (range(0, 5)) {
	case 0: return 0;
	case 1: return edgy(0);
	default: return range(1, 64);
	}
}

static void random_submit(struct gputbs_submit *s)
{
	static const __u32 threads[] = { 1, 32, 33, 64, 128, 256, 1024 };
	__u64 *d;
	unsigned int i, n;

	gu_grid(s, range(1, 64) << range(0, 4), threads[range(0, 6)],
		range(0, 3) ? range(1, 20000) : range(1, 1ULL << 40));
	s->regs_per_thread = range(0, 3) ? range(0, 32) : range(0, 63);
	s->shmem_per_block = range(0, 2) ? 0 : range(0, 49152);
	s->block_rsd_ppm = range(0, 1) ? 0 : range(0, 1000000);
	s->seed = rnd();
	s->prio_class = range(0, 4);
	if (range(0, 2) == 0)
		s->flags |= GPUTBS_SUBMIT_RECORD_BLOCKS;
	if (range(0, 3) == 0) {
		s->flags |= GPUTBS_SUBMIT_AT_CYCLE;
		s->arrival_cycle = range(0, 1) ? gu_now_cycle(&info) +
						 range(0, 1ULL << 30) :
						 edgy(1ULL << 40);
	}
	if (range(0, 3) == 0) {
		/* ARRAY: durations in scratch memory */
		n = s->nr_blocks;
		if (n > SCRATCH_SIZE / 8 / 2)
			n = s->nr_blocks = 1024;
		d = (__u64 *)(scratch + range(0, SCRATCH_SIZE / 2 / 8) * 8);
		for (i = 0; i < n; i++)
			d[i] = range(0, 15) ? range(1, 20000) : edgy(1ULL << 40);
		s->work_model = GPUTBS_WORK_ARRAY;
		s->block_cycles = 0;
		s->block_rsd_ppm = 0;
		s->seed = 0;
		s->nr_durations = n;
		s->durations_ptr = (__u64)(uintptr_t)d;
	}
}

/* 0..3 mutations of random members or bytes. */
static void mutate(void *p, size_t size)
{
	unsigned int m = range(0, 3), i;
	unsigned char *b = p;

	for (i = 0; i < m; i++) {
		size_t off = range(0, size - 1);

		switch (range(0, 3)) {
		case 0:
			b[off] ^= 1 << range(0, 7);
			break;
		case 1:
			b[off] = rnd();
			break;
		case 2: {
			__u32 v = edgy(1024);

			off &= ~(size_t)3;
			if (off + 4 <= size)
				memcpy(b + off, &v, 4);
			break;
		}
		default: {
			__u64 v = edgy(1ULL << 40);

			off &= ~(size_t)7;
			if (off + 8 <= size)
				memcpy(b + off, &v, 8);
		}
		}
	}
}

/* Copy @obj into scratch (or use a bad pointer) for the ioctl. */
static void *arg_for(const void *obj, size_t size)
{
	__u64 p;

	if (range(0, 9))
		p = (__u64)(uintptr_t)(scratch + range(0, SCRATCH_SIZE / 2));
	else
		p = some_ptr(size);
	if (p >= (__u64)(uintptr_t)scratch &&
	    p + size <= (__u64)(uintptr_t)scratch + SCRATCH_SIZE)
		memcpy((void *)(uintptr_t)p, obj, size);
	return (void *)(uintptr_t)p;
}

static bool in_scratch(const void *p, size_t size)
{
	return (const char *)p >= scratch &&
	       (const char *)p + size <= scratch + SCRATCH_SIZE;
}

/* ---- actions ------------------------------------------------------------------- */

static void act_info(int fd)
{
	struct gputbs_info in = { 0 };
	void *a = arg_for(&in, sizeof(in));
	int ret = gu_ioctl(fd, GPUTBS_IOCTL_INFO, a);
	unsigned int i;

	note_errno(ret, true);
	if (!documented(ret))
		unexpected("INFO", ret);
	if (!ret && in_scratch(a, sizeof(in))) {
		memcpy(&in, a, sizeof(in));
		if (!in.max_grids_per_user)
			unexpected("INFO max_grids_per_user zero", -EIO);
		for (i = 0; i < sizeof(in.reserved) / sizeof(in.reserved[0]);
		     i++)
			if (in.reserved[i])
				unexpected("INFO reserved non-zero", -EIO);
	}
}

static void act_submit(int fd)
{
	struct gputbs_submit s;
	bool v96 = range(0, 1);
	void *a;
	int ret;

	random_submit(&s);
	if (range(0, 2) == 0)
		mutate(&s, sizeof(s));
	a = arg_for(&s, sizeof(s));
	ret = v96 ? gu_submit96(fd, a) : gu_submit(fd, a);
	note_errno(ret, true);
	if (!documented(ret))
		unexpected("SUBMIT", ret);
	if (!ret) {
		atomic_fetch_add(&st->submitted, 1);
		if (in_scratch(a, sizeof(s))) {
			memcpy(&s, a, sizeof(s));
			if (!s.handle)
				unexpected("SUBMIT: handle 0", -EIO);
		}
	}
}

static __s64 some_deadline(void)
{
	__s64 now = gu_now_ns();

	switch (range(0, 6)) {
	case 0: return 0;
	case 1: return 1;
	case 2: return -1;
	case 3: return INT64_MIN;
	case 4: return now - range(0, 10 * GU_NS_PER_SEC);
	default: return now + range(0, MAX_WAIT_NS);
	}
}

static void act_wait(int fd)
{
	struct gputbs_wait w;
	void *a;
	int ret;

	memset(&w, 0, sizeof(w));
	w.handle = some_handle();
	w.flags = range(0, 1) ? GPUTBS_WAIT_ANY : (range(0, 5) ? 0 : edgy(2));
	w.timeout_ns = some_deadline();
	if (range(0, 3) == 0)
		mutate(&w, sizeof(w));
	/* never block long: a mutated deadline in the future is clamped */
	if (w.timeout_ns > (__s64)gu_now_ns() + MAX_WAIT_NS)
		w.timeout_ns = gu_now_ns() + MAX_WAIT_NS;
	a = arg_for(&w, sizeof(w));
	ret = gu_ioctl(fd, GPUTBS_IOCTL_WAIT, a);
	note_errno(ret, true);
	if (!documented(ret))
		unexpected("WAIT", ret);
	/*
	 * Files are shared with the other thread and with children: only
	 * what holds for any reaped grid is checked here (gputbs-stress
	 * checks each grid's results).
	 */
	if (!ret) {
		atomic_fetch_add(&st->reaped, 1);
		if (in_scratch(a, sizeof(w))) {
			memcpy(&w, a, sizeof(w));
			if (!w.handle || !w.blocks_done || !w.residency ||
			    w.residency > info.max_blocks_per_sm ||
			    w.end_cycle <= w.start_cycle ||
			    w.start_cycle < w.submit_cycle)
				unexpected("WAIT: impossible results", -EIO);
		}
	}
}

static void act_blocks(int fd)
{
	struct gputbs_blocks b;
	void *a;
	int ret;

	memset(&b, 0, sizeof(b));
	b.handle = some_handle();
	b.nr_records = range(0, 1) ? range(0, 300) : edgy(1 << 20);
	b.records_ptr = some_ptr((size_t)b.nr_records * 32);
	if (range(0, 5) == 0)
		b.flags = edgy(1);
	if (range(0, 5) == 0)
		b.pad = edgy(1);
	a = arg_for(&b, sizeof(b));
	ret = gu_ioctl(fd, GPUTBS_IOCTL_BLOCKS, a);
	note_errno(ret, true);
	if (!documented(ret))
		unexpected("BLOCKS", ret);
}

/* Known numbers with random sizes and directions, and random commands. */
static void act_random_cmd(int fd)
{
	unsigned long cmd;
	int ret;

	switch (range(0, 2)) {
	case 0:
		cmd = _IOC(range(0, 3), GPUTBS_IOCTL_BASE, range(0, 5),
			   range(0, 1) ? range(0, 130) : range(0, 0x3fff));
		break;
	case 1:
		cmd = _IOC(range(0, 3), GPUTBS_IOCTL_BASE, range(0, 255),
			   range(0, 0x3fff));
		break;
	default:
		cmd = (__u32)rnd();
		/* not the terminal, file or socket ioctls of the VFS */
		if (_IOC_TYPE(cmd) == 'T' || _IOC_TYPE(cmd) == 0 ||
		    _IOC_TYPE(cmd) == 'f' || _IOC_TYPE(cmd) == 0x89 ||
		    _IOC_TYPE(cmd) == 'X' || _IOC_TYPE(cmd) == 0x94 ||
		    _IOC_TYPE(cmd) == 0x15)
			cmd = _IO(GPUTBS_IOCTL_BASE, 0x80);
	}
	/* the known commands with their own size are the other actions'; a
	 * WAIT here could block: keep its deadline near */
	if (cmd == GPUTBS_IOCTL_WAIT)
		cmd = _IO(GPUTBS_IOCTL_BASE, 0x81);
	ret = gu_ioctl(fd, cmd, (void *)(uintptr_t)some_ptr(_IOC_SIZE(cmd)));
	note_errno(ret, true);
	if (!documented(ret))
		unexpected("random command", ret);
}

static void act_poll(int fd)
{
	struct pollfd pfd = { .fd = fd, .events = range(0, 0xffff) };

	atomic_fetch_add(&st->polls, 1);
	poll(&pfd, 1, range(0, 5));
}

static void act_read(int fd)
{
	char path[64], buf[512];
	int f;

	atomic_fetch_add(&st->reads, 1);
	if (range(0, 1)) {
		if (read(fd, buf, range(0, sizeof(buf))) > 0)
			unexpected("read() of the device returned data", -EIO);
		return;
	}
	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	f = open(path, O_RDONLY | O_CLOEXEC);
	if (f >= 0) {
		/* ENOENT: the other thread closed the file meanwhile */
		if (read(f, buf, sizeof(buf)) < 0 && errno != ENOENT)
			unexpected("fdinfo read", -errno);
		close(f);
	}
}

/* ---- sysfs (root only) ------------------------------------------------------------ */

static const char * const words[] = {
	"fifo", "mpmax", "srtf", "srtf-adaptive", "srtf-oracle", "sjf", "ljf", "lifo", "", "\n",
	"fifo\n", "srtf\n\n", "[fifo]", "FIFO", "0", "1", "-1", "100000",
	"18446744073709551615", "99999999999999999999", "0x10", " 1", "1 ",
	"\xff\xfe", "2000000", "8", "65", "literal", "extended", "device",
	"sm",
};

static void act_sysfs(bool root)
{
	static const char * const attrs[] = {
		"policy", "starve_ns", "policy_params/share_threshold_ppm",
		"policy_params/share_residency", "predictor",
		"policy_params/share_mode", "nr_sms", "time_scale_ps",
		"blocks_per_sm", "warps_per_sm", "max_lag_ns",
	};
	bool param;
	char val[64];
	int ret;

	atomic_fetch_add(&st->sysfs, 1);
	if (range(0, 1))
		snprintf(val, sizeof(val), "%s", words[range(0, sizeof(words) /
							      sizeof(words[0]) - 1)]);
	else
		snprintf(val, sizeof(val), "%llu",
			 (unsigned long long)edgy(100000));
	if (range(0, 4) == 0) {
		ret = gu_write_attr(GU_PARAMS, "max_grids_per_device", val);
		if (!ret) {
			/* keep it sane for the others: 1..1024 */
			unsigned long v = strtoul(val, NULL, 0);

			if (v > 1024)
				gu_write_attr(GU_PARAMS, "max_grids_per_device",
					      "1024");
		}
	} else {
		const char *a = attrs[range(0, sizeof(attrs) /
					    sizeof(attrs[0]) - 1)];

		/* the configuration only with small values (memory, time) */
		if ((!strcmp(a, "nr_sms") || !strcmp(a, "time_scale_ps") ||
		     !strcmp(a, "blocks_per_sm") ||
		     !strcmp(a, "warps_per_sm")) &&
		    strtoull(val, NULL, 0) > 64 && strcmp(a, "time_scale_ps"))
			snprintf(val, sizeof(val), "%llu",
				 (unsigned long long)range(0, 64));
		if (!strcmp(a, "time_scale_ps") &&
		    strtoull(val, NULL, 0) > 100000)
			snprintf(val, sizeof(val), "%llu",
				 (unsigned long long)range(900, 100000));
		ret = gu_write_attr(GU_SYSFS, a, val);
		/*
		 * policy_params/ has the files of the current policy: one of
		 * another policy is absent (ENOENT), and a switch may remove
		 * it under the write (ENODEV, EAGAIN)
		 */
		param = !strncmp(a, "policy_params/", 14);
		if (param && (ret == -ENOENT || (root && (ret == -ENODEV ||
							  ret == -EAGAIN))))
			return;
		if (root && ret && ret != -EINVAL && ret != -ERANGE &&
		    ret != -EBUSY && ret != -EINTR && ret != -ENOMEM)
			unexpected("sysfs write", ret);
	}
	if (!root && ret != -EACCES)
		unexpected("sysfs write as nobody", ret ? ret : -EIO);
}

/* ---- workers -------------------------------------------------------------------------- */

static bool is_root;

/* A child that shares the files, does a little, and is killed or exits. */
static void act_fork(void)
{
	int status, i;
	pid_t pid;

	atomic_fetch_add(&st->forks, 1);
	pid = fork();
	if (pid < 0)
		return;
	if (!pid) {
			rng ^= getpid();
		for (i = 0; i < (int)range(1, 30); i++) {
			int fd = pick_fd();

			switch (range(0, 3)) {
			case 0: act_submit(fd); break;
			case 1: act_wait(fd); break;
			case 2: act_blocks(fd); break;
			default: act_info(fd); break;
			}
		}
		_exit(0);
	}
	if (range(0, 1)) {
		gu_sleep_ns(range(0, 2 * GU_NS_PER_MS));
		kill(pid, SIGKILL);
		atomic_fetch_add(&st->kills, 1);
	}
	waitpid(pid, &status, 0);
}

static void *worker_thread(void *arg)
{
	unsigned long id = (unsigned long)arg;
	long page = sysconf(_SC_PAGESIZE);

	scratch = mmap(NULL, SCRATCH_SIZE + 2 * page, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (scratch == MAP_FAILED) {
		unexpected("mmap", -errno);
		return NULL;
	}
	munmap(scratch + SCRATCH_SIZE, page);
	mprotect(scratch + SCRATCH_SIZE + page, page, PROT_READ);

	rng = seed * 0x9E3779B97F4A7C15ULL + id * 7919 + getpid();
	if (!rng)
		rng = 1;
	while (gu_now_ns() < deadline_ns) {
		unsigned int a = range(0, 99);
		int fd = pick_fd();

		if (a < 4)
			do_open();
		else if (a < 7)
			do_close();
		else if (a < 8)
			do_dup();
		else if (a < 30)
			act_submit(fd);
		else if (a < 45)
			act_wait(fd);
		else if (a < 55)
			act_blocks(fd);
		else if (a < 60)
			act_info(fd);
		else if (a < 80)
			act_random_cmd(fd);
		else if (a < 85)
			act_poll(fd);
		else if (a < 88)
			act_read(fd);
		else if (a < 90)
			act_fork();
		else if (a < 92)
			act_sysfs(is_root);
		else
			act_submit(fd);
	}
	return NULL;
}

static int worker(unsigned int id)
{
	pthread_t th;
	int i;

	is_root = id % 2 == 0;
	if (!is_root && gu_become_nobody())
		return 1;
	for (i = 0; i < NR_FDS; i++)
		atomic_store(&fds[i], i < 2 ? gu_open() : -1);
	if (pthread_create(&th, NULL, worker_thread, (void *)(2UL * id + 1)))
		return 1;
	worker_thread((void *)(2UL * id));
	pthread_join(th, NULL);
	return 0;
}

/* ---- main ------------------------------------------------------------------------------- */

static const char * const saved_attrs[] = {
	/* the policy before its parameters (a switch resets them) */
	GU_SYSFS "/policy", GU_SYSFS "/starve_ns",
	GU_SYSFS "/policy_params/share_threshold_ppm",
	GU_SYSFS "/policy_params/share_residency",
	GU_SYSFS "/predictor", GU_SYSFS "/policy_params/share_mode",
	GU_SYSFS "/nr_sms", GU_SYSFS "/time_scale_ps",
	GU_SYSFS "/blocks_per_sm", GU_SYSFS "/warps_per_sm",
	GU_PARAMS "/max_grids_per_device",
};

#define NR_SAVED	(sizeof(saved_attrs) / sizeof(saved_attrs[0]))

static char saved[NR_SAVED][128];

static void save_attrs(void)
{
	unsigned int i;
	char *b;

	for (i = 0; i < NR_SAVED; i++) {
		if (gu_read_file(saved_attrs[i], saved[i], sizeof(saved[i])) < 0) {
			saved[i][0] = '\0';
			continue;
		}
		saved[i][strcspn(saved[i], "\n")] = '\0';
		b = strchr(saved[i], '[');
		if (b) {
			memmove(saved[i], b + 1, strcspn(b + 1, "]"));
			saved[i][strcspn(b + 1, "]")] = '\0';
		}
	}
}

static int restore_attrs(void)
{
	int errs = 0, ret;
	unsigned int i;

	/* the configuration first (the SMs it builds), the rest after */
	for (i = 0; i < NR_SAVED; i++) {
		if (!saved[i][0])
			continue;
		ret = gu_write_file(saved_attrs[i], saved[i]);
		if (ret) {
			printf("fuzz: FAIL: restoring %s to %s: %s\n",
			       saved_attrs[i], saved[i], strerror(-ret));
			errs++;
		}
	}
	return errs;
}

/* Nothing queued or resident once every file is closed. */
static int check_idle(void)
{
	static char buf[1 << 16];
	unsigned int n;
	char *p;
	int errs = 0;

	if (gu_read_file(GU_DEBUGFS "/grids", buf, sizeof(buf)) >= 0 &&
	    (sscanf(buf, "# %u grids", &n) != 1 || n)) {
		printf("fuzz: FAIL: grids left: %.300s\n", buf);
		errs++;
	}
	if (gu_read_file(GU_DEBUGFS "/sms", buf, sizeof(buf)) >= 0) {
		for (p = strstr(buf, "resident="); p;
		     p = strstr(p + 1, "resident=")) {
			if (strtoul(p + 9, NULL, 10)) {
				printf("fuzz: FAIL: resident blocks left: %.200s\n",
				       p);
				errs++;
				break;
			}
		}
	}
	return errs;
}

static int final_submit(void)
{
	struct gputbs_submit s;
	struct gputbs_wait w;
	int fd = gu_open(), ret;

	if (fd < 0)
		return 1;
	gu_grid(&s, 100, 64, 100);
	ret = gu_submit(fd, &s);
	if (!ret)
		ret = gu_wait(fd, s.handle, 0,
			      (__s64)gu_now_ns() + 30 * GU_NS_PER_SEC, &w);
	close(fd);
	if (ret || w.blocks_done != 100) {
		printf("fuzz: FAIL: the device is not usable after fuzzing: %s\n",
		       strerror(-ret));
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static const int shown[] = { 0, EINVAL, ENOTTY, EFAULT, E2BIG, EPERM,
				     EAGAIN, ENOSPC, ENOENT, ETIME, EBUSY,
				     ENODATA, ENOMEM, EBADF, EDQUOT,
				     ENOBUFS };
	bool force = false;
	unsigned int i, errs = 0;
	int fd, status;
	pid_t *pids;

	for (i = 1; i < (unsigned int)argc; i++) {
		if (!strcmp(argv[i], "--time") && i + 1 < (unsigned int)argc)
			run_s = strtoul(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--procs") &&
			 i + 1 < (unsigned int)argc)
			nr_procs = strtoul(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--seed") &&
			 i + 1 < (unsigned int)argc)
			seed = strtoull(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--force"))
			force = true;
		else {
			fputs("Usage: gputbs-fuzz [--time S] [--procs P] [--seed N] [--force]\n",
			      stderr);
			return 2;
		}
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	fd = gu_open();
	if (fd < 0 || gu_ioctl(fd, GPUTBS_IOCTL_INFO, &info)) {
		printf("fuzz: %s: %s\n", GU_DEVICE, strerror(errno));
		return 1;
	}
	close(fd);
	if (info.max_blocks_per_grid > 65536 && !force) {
		printf("fuzz: max_blocks_per_grid is %u: load the module with max_blocks_per_grid=4096 (or pass --force)\n",
		       info.max_blocks_per_grid);
		return 1;
	}
	st = mmap(NULL, sizeof(*st), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	pids = calloc(nr_procs, sizeof(*pids));
	if (st == MAP_FAILED || !pids)
		return 1;
	save_attrs();
	gu_write_attr(GU_PARAMS, "max_grids_per_device", "1024");
	printf("fuzz: %u processes x 2 threads (%u as nobody) for %u s, seed %llu\n",
	       nr_procs, nr_procs / 2, run_s, (unsigned long long)seed);
	deadline_ns = gu_now_ns() + (__u64)run_s * GU_NS_PER_SEC;
	for (i = 0; i < nr_procs; i++) {
		pids[i] = fork();
		if (!pids[i])
			_exit(worker(i));
	}
	for (i = 0; i < nr_procs; i++) {
		if (waitpid(pids[i], &status, 0) != pids[i] ||
		    !WIFEXITED(status) || WEXITSTATUS(status)) {
			printf("fuzz: FAIL: worker %u: status %#x\n", i, status);
			errs++;
		}
	}
	errs += restore_attrs();
	errs += check_idle();
	errs += final_submit();
	printf("fuzz: %llu ioctl calls (%llu submitted, %llu reaped), %llu opens, %llu closes, %llu polls, %llu reads, %llu forks (%llu killed), %llu sysfs writes\n",
	       (unsigned long long)st->ioctls,
	       (unsigned long long)st->submitted,
	       (unsigned long long)st->reaped, (unsigned long long)st->opens,
	       (unsigned long long)st->closes, (unsigned long long)st->polls,
	       (unsigned long long)st->reads, (unsigned long long)st->forks,
	       (unsigned long long)st->kills, (unsigned long long)st->sysfs);
	printf("fuzz: results:");
	for (i = 0; i < sizeof(shown) / sizeof(shown[0]); i++)
		printf(" %s %llu", shown[i] ? strerrorname_np(shown[i]) : "ok",
		       (unsigned long long)st->by_errno[shown[i]]);
	printf("\n");
	if (st->unexpected) {
		printf("fuzz: FAIL: %llu unexpected results (see above)\n",
		       (unsigned long long)st->unexpected);
		errs++;
	}
	if (errs) {
		printf("fuzz: FAIL: %u errors\n", errs);
		return 1;
	}
	printf("fuzz: PASS: %llu ioctl calls\n",
	       (unsigned long long)st->ioctls);
	return 0;
}
