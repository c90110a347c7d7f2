// SPDX-License-Identifier: GPL-2.0
/*
 * gputbs-hygiene-test.c - input hygiene, limits, isolation and lifetimes
 * of /dev/gputbs, run in the guest as root (Check framework).
 *
 * One case per test: each invalid field, unknown flag bit, non-zero
 * padding, overflowing count, bad pointer and unknown command of every
 * ioctl, with both SUBMIT commands (96 and 104 bytes) and with
 * GPUTBS_SUBMIT_AT_CYCLE; the device-wide grid limit (ENOSPC) against the
 * per-file one (EAGAIN); the per-user limits (EDQUOT, ENOBUFS) of one
 * unprivileged user against another's and root's submissions,
 * CAP_SYS_RESOURCE beyond them, and the device-wide byte cap (ENOMEM)
 * against a pinning attempt; the reserve at the device's limits that five
 * unprivileged users cannot take from root (reserved_grids,
 * reserved_bytes); a file passed over a unix socket (SCM_RIGHTS) that
 * keeps none of its sender's grids once the sender let go of it; handles
 * that mean nothing on another file, in the same process or another; what
 * user nobody may not do (classes above normal, sysfs and module
 * parameter writes), and what uid 0 without
 * CAP_SYS_ADMIN may not do (EPERM on every write to sysfs, policy_params/
 * included, and the module parameters); SIGKILL of processes with
 * running, queued and arriving grids, in WAIT and in poll(); module unload
 * refused while the device is open; waits restarted by the kernel
 * (SA_RESTART) keeping their absolute deadline.  The table-driven cases
 * are Check loop tests: each index is one test.  gputbs-test (the main
 * suite) has the valid behaviour and the first invalid-field cases; this
 * program complements it and does not repeat them.
 *
 *   gputbs-hygiene-test [--tap]
 *
 * The tests run in one process (CK_FORK=yes runs each in its own, slower).
 * Needs root (it drops to nobody, to uid 65533 and to capability-less
 * uid 0 in forked children), debugfs, and the module loaded with its
 * default max_grids_per_fd; it changes the module parameters
 * max_grids_per_device, max_grids_per_user, max_bytes_per_user,
 * max_bytes_per_device, reserved_grids and reserved_bytes and puts back
 * the values it found.  With the module loaded with max_grids_per_fd of
 * 12001 or more, the suite also has the case "fanout" (an AFTER fan-out
 * of 6000 grids released in one event, the device lock held under
 * 250 ms); gputbs-reliability runs it alone that way (CK_RUN_CASE=fanout).
 *
 * Copyright (C) 2026 The gputbs developers
 */
#include <check.h>
#include <dirent.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>

#include "guest-util.h"

#define MAX_FDS		16
#define LONG_NS		(20 * GU_NS_PER_SEC)

static int fds[MAX_FDS];

static int dev_open(void)
{
	int fd = gu_open(), i;

	ck_assert_msg(fd >= 0, "open %s: %s", GU_DEVICE, strerror(errno));
	for (i = 0; i < MAX_FDS; i++) {
		if (fds[i] < 0) {
			fds[i] = fd;
			return fd;
		}
	}
	ck_abort_msg("more than %d files", MAX_FDS);
	return -1;
}

/* Close @fd, a file of the device received from elsewhere, at teardown. */
static int dev_adopt(int fd)
{
	int i;

	ck_assert_int_ge(fd, 0);
	for (i = 0; i < MAX_FDS; i++) {
		if (fds[i] < 0) {
			fds[i] = fd;
			return fd;
		}
	}
	ck_abort_msg("more than %d files", MAX_FDS);
	return -1;
}

static void dev_close(int fd)
{
	int i;

	for (i = 0; i < MAX_FDS; i++)
		if (fds[i] == fd)
			fds[i] = -1;
	close(fd);
}

static void setup_fds(void)
{
	int i;

	for (i = 0; i < MAX_FDS; i++)
		fds[i] = -1;
}

static void teardown_fds(void)
{
	int i;

	for (i = 0; i < MAX_FDS; i++) {
		if (fds[i] >= 0)
			close(fds[i]);
		fds[i] = -1;
	}
}

static void info_get(int fd, struct gputbs_info *info)
{
	memset(info, 0, sizeof(*info));
	ck_assert_int_eq(gu_ioctl(fd, GPUTBS_IOCTL_INFO, info), 0);
}

static __s64 deadline_in(__s64 ns)
{
	return (__s64)gu_now_ns() + ns;
}

/* Nothing is queued on @fd. */
static void assert_no_grids(int fd)
{
	ck_assert_int_eq(gu_wait(fd, 0, GPUTBS_WAIT_ANY, 0, NULL), -ENOENT);
}

static __u32 submit_ok(int fd, struct gputbs_submit *s)
{
	int ret = gu_submit(fd, s);

	ck_assert_msg(!ret, "SUBMIT: %s", strerror(-ret));
	ck_assert_uint_ne(s->handle, 0);
	return s->handle;
}

/* One block running about @ns. */
static __u32 submit_long(int fd, __u64 ns)
{
	struct gputbs_info info;
	struct gputbs_submit s;

	info_get(fd, &info);
	gu_grid(&s, 1, 32, gu_cycles_for_ns(&info, ns));
	return submit_ok(fd, &s);
}

static void wait_ok(int fd, __u32 h, struct gputbs_wait *w)
{
	int ret = gu_wait(fd, h, 0, deadline_in(60 * GU_NS_PER_SEC), w);

	ck_assert_msg(!ret, "WAIT %u: %s", h, strerror(-ret));
}

/* All capabilities, for run_child_as() and hold_start(). */
#define ALL_CAPS	(~0ULL)

/*
 * In a child: become @uid (its capabilities go with setuid()), or for
 * uid 0 keep only the capabilities of @caps.  0, or 100 on failure.
 */
static int child_become(uid_t uid, __u64 caps)
{
	if (uid)
		return gu_become_user(uid) ? 100 : 0;
	return caps != ALL_CAPS && gu_keep_caps(caps) ? 100 : 0;
}

/* Run @fn in a child as @uid (with @caps for uid 0): its exit status. */
static int run_child_as(uid_t uid, __u64 caps, int (*fn)(void *), void *arg)
{
	int status;
	pid_t pid = fork();

	ck_assert_int_ge(pid, 0);
	if (!pid) {
		if (child_become(uid, caps))
			_exit(100);
		_exit(fn(arg));
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(WIFEXITED(status), "child status %#x", status);
	return WEXITSTATUS(status);
}

/* Run @fn in a child (as nobody if @nobody): its exit status, 0 is good. */
static int run_child(int (*fn)(void *), void *arg, bool nobody)
{
	return run_child_as(nobody ? GU_NOBODY : 0, ALL_CAPS, fn, arg);
}

/*
 * A child that keeps what it submitted: hold_start() runs @fn in it as
 * @uid (with @caps for uid 0) and returns @fn's result; the child then
 * waits, its files open, until hold_end() kills it.
 */
struct holder {
	pid_t pid;
	int result;
};

/* Holders not ended yet: a failed test's are killed by its teardown. */
#define MAX_HOLDERS	8
static pid_t holders[MAX_HOLDERS];

static void holders_forget(pid_t pid)
{
	int i;

	for (i = 0; i < MAX_HOLDERS; i++)
		if (holders[i] == pid)
			holders[i] = 0;
}

static void holders_kill(void)
{
	int i;

	for (i = 0; i < MAX_HOLDERS; i++) {
		if (holders[i] > 0) {
			kill(holders[i], SIGKILL);
			waitpid(holders[i], NULL, 0);
		}
		holders[i] = 0;
	}
}

static void hold_start(struct holder *h, uid_t uid, __u64 caps,
		       int (*fn)(void *), void *arg)
{
	unsigned char c;
	int pipefd[2], i;

	ck_assert_int_eq(pipe(pipefd), 0);
	h->pid = fork();
	ck_assert_int_ge(h->pid, 0);
	for (i = 0; h->pid && i < MAX_HOLDERS; i++)
		if (!holders[i]) {
			holders[i] = h->pid;
			break;
		}
	if (!h->pid) {
		c = child_become(uid, caps);
		if (!c)
			c = fn(arg);
		if (write(pipefd[1], &c, 1) != 1)
			_exit(1);
		pause();
		_exit(0);
	}
	close(pipefd[1]);
	ck_assert_int_eq(read(pipefd[0], &c, 1), 1);
	close(pipefd[0]);
	h->result = c;
}

/* Kill the holder: its files are released before waitpid() returns. */
static void hold_end(struct holder *h)
{
	int status;

	ck_assert_int_eq(kill(h->pid, SIGKILL), 0);
	ck_assert_int_eq(waitpid(h->pid, &status, 0), h->pid);
	holders_forget(h->pid);
}

/* ---- unknown commands: ENOTTY ------------------------------------------ */

static const struct {
	const char *what;
	unsigned long cmd;
} enotty_cases[] = {
	{ "nr 0x04", _IOWR(GPUTBS_IOCTL_BASE, 0x04, struct gputbs_blocks) },
	{ "nr 0x3f", _IOWR(GPUTBS_IOCTL_BASE, 0x3f, struct gputbs_wait) },
	{ "nr 0xff", _IOWR(GPUTBS_IOCTL_BASE, 0xff, struct gputbs_info) },
	{ "type 0xBA", _IOR(0xBA, 0x00, struct gputbs_info) },
	{ "type 0x00", _IOR(0x00, 0x00, struct gputbs_info) },
	{ "INFO as _IOW", _IOW(GPUTBS_IOCTL_BASE, 0x00, struct gputbs_info) },
	{ "INFO as _IOWR", _IOWR(GPUTBS_IOCTL_BASE, 0x00, struct gputbs_info) },
	{ "INFO as _IO", _IO(GPUTBS_IOCTL_BASE, 0x00) },
	{ "INFO 112 bytes", _IOC(_IOC_READ, GPUTBS_IOCTL_BASE, 0x00, 112) },
	{ "INFO 128 bytes", _IOC(_IOC_READ, GPUTBS_IOCTL_BASE, 0x00, 128) },
	{ "SUBMIT as _IOW", _IOC(_IOC_WRITE, GPUTBS_IOCTL_BASE, 0x01, 104) },
	{ "SUBMIT as _IOR", _IOC(_IOC_READ, GPUTBS_IOCTL_BASE, 0x01, 104) },
	{ "SUBMIT 0 bytes", _IOC(_IOC_READ | _IOC_WRITE, GPUTBS_IOCTL_BASE,
				 0x01, 0) },
	{ "SUBMIT 100 bytes", _IOC(_IOC_READ | _IOC_WRITE, GPUTBS_IOCTL_BASE,
				   0x01, 100) },
	{ "SUBMIT 108 bytes", _IOC(_IOC_READ | _IOC_WRITE, GPUTBS_IOCTL_BASE,
				   0x01, 108) },
	{ "SUBMIT 120 bytes", _IOC(_IOC_READ | _IOC_WRITE, GPUTBS_IOCTL_BASE,
				   0x01, 120) },
	{ "WAIT 64 bytes", _IOC(_IOC_READ | _IOC_WRITE, GPUTBS_IOCTL_BASE,
				0x02, 64) },
	{ "WAIT 80 bytes", _IOC(_IOC_READ | _IOC_WRITE, GPUTBS_IOCTL_BASE,
				0x02, 80) },
	{ "WAIT as _IOW", _IOC(_IOC_WRITE, GPUTBS_IOCTL_BASE, 0x02, 72) },
	{ "BLOCKS 16 bytes", _IOC(_IOC_READ | _IOC_WRITE, GPUTBS_IOCTL_BASE,
				  0x03, 16) },
	{ "BLOCKS 32 bytes", _IOC(_IOC_READ | _IOC_WRITE, GPUTBS_IOCTL_BASE,
				  0x03, 32) },
	{ "BLOCKS as _IOR", _IOC(_IOC_READ, GPUTBS_IOCTL_BASE, 0x03, 24) },
	{ "size 0x3fff", _IOC(_IOC_READ | _IOC_WRITE, GPUTBS_IOCTL_BASE, 0x00,
			      0x3fff) },
	{ "TCGETS", 0x5401 },
	{ "FIONREAD", 0x541B },
	{ "cmd 0", 0 },
	{ "cmd ~0", 0xffffffffUL },
};

#define NR_ENOTTY	(int)(sizeof(enotty_cases) / sizeof(enotty_cases[0]))

START_TEST(enotty_unknown_command)
{
	static char buf[1 << 14];
	int fd = dev_open();

	memset(buf, 0, sizeof(buf));
	ck_assert_msg(gu_ioctl(fd, enotty_cases[_i].cmd, buf) == -ENOTTY,
		      "%s: not ENOTTY", enotty_cases[_i].what);
	assert_no_grids(fd);
}
END_TEST

/* ---- invalid SUBMIT fields, both commands, with and without AT_CYCLE ---- */

enum submit_variant {
	VAR_96, VAR_104, VAR_112, VAR_112_AT_CYCLE, VAR_136, NR_VARIANTS
};

static const char * const variant_names[] = {
	"96-byte command", "104-byte command", "112-byte command",
	"112-byte command + AT_CYCLE", "136-byte command",
};

/* SUBMIT @s with the command of variant @v: 0 or -errno. */
static int submit_variant(int fd, struct gputbs_submit *s,
			  enum submit_variant v)
{
	if (v == VAR_112_AT_CYCLE)
		s->flags |= GPUTBS_SUBMIT_AT_CYCLE;	/* cycle 0: now */
	switch (v) {
	case VAR_96:
		return gu_submit96(fd, s);
	case VAR_104:
		return gu_submit104(fd, s);
	case VAR_136:
		return gu_submit(fd, s);
	default:
		return gu_submit112(fd, s);
	}
}

static __u64 durations[4];

/* A valid grid of model @array, for mutation case @c. */
static void valid_grid(struct gputbs_submit *s, bool array)
{
	unsigned int i;

	gu_grid(s, 4, 64, 100);
	if (array) {
		for (i = 0; i < 4; i++)
			durations[i] = 100 + i;
		s->block_cycles = 0;
		s->work_model = GPUTBS_WORK_ARRAY;
		s->nr_durations = 4;
		s->durations_ptr = (__u64)(uintptr_t)durations;
	}
}

#define KERNEL_PTR	0xffff888000000000ULL
#define NONCANON_PTR	0x8000000000000000ULL

/*
 * Each case makes one field of a valid grid invalid.  @array: the grid
 * uses GPUTBS_WORK_ARRAY.
 */
static const struct submit_case {
	const char *what;
	int err;
	bool array;
	int id;
} submit_cases[] = {
	{ "flags bit 2", -EINVAL, false, 0 },
	{ "prio_class 5", -EINVAL, false, 1 },
	{ "prio_class ~0", -EINVAL, false, 2 },
	{ "nr_blocks 0", -EINVAL, false, 3 },
	{ "threads_per_block 0", -EINVAL, false, 4 },
	{ "threads_per_block max + 1", -EINVAL, false, 5 },
	{ "threads_per_block ~0", -EINVAL, false, 6 },
	{ "regs_per_thread max + 1", -EINVAL, false, 7 },
	{ "regs_per_thread ~0", -EINVAL, false, 8 },
	{ "shmem_per_block max + 1", -EINVAL, false, 9 },
	{ "shmem_per_block ~0", -EINVAL, false, 10 },
	{ "work_model 0", -EINVAL, false, 11 },
	{ "work_model 3", -EINVAL, false, 12 },
	{ "work_model ~0", -EINVAL, false, 13 },
	{ "DIST block_cycles 0", -EINVAL, false, 14 },
	{ "DIST block_cycles 2^40 + 1", -EINVAL, false, 15 },
	{ "DIST block_cycles ~0", -EINVAL, false, 16 },
	{ "DIST block_rsd_ppm 1000001", -EINVAL, false, 17 },
	{ "DIST block_rsd_ppm ~0", -EINVAL, false, 18 },
	{ "DIST nr_durations 4", -EINVAL, false, 19 },
	{ "DIST durations_ptr set", -EINVAL, false, 20 },
	{ "label without NUL", -EINVAL, false, 21 },
	{ "label with \\001", -EINVAL, false, 22 },
	{ "label with \\t", -EINVAL, false, 23 },
	{ "label with DEL", -EINVAL, false, 24 },
	{ "label with \\200", -EINVAL, false, 25 },
	{ "block larger than an SM (registers)", -EINVAL, false, 26 },
	{ "nr_blocks max + 1", -E2BIG, false, 27 },
	{ "nr_blocks ~0", -E2BIG, false, 28 },
	{ "RECORD_BLOCKS, nr_blocks max + 1", -E2BIG, false, 29 },
	{ "ARRAY block_cycles set", -EINVAL, true, 30 },
	{ "ARRAY block_rsd_ppm set", -EINVAL, true, 31 },
	{ "ARRAY seed set", -EINVAL, true, 32 },
	{ "ARRAY nr_durations short", -EINVAL, true, 33 },
	{ "ARRAY nr_durations long", -EINVAL, true, 34 },
	{ "ARRAY nr_durations 0", -EINVAL, true, 35 },
	{ "ARRAY a duration 0", -EINVAL, true, 36 },
	{ "ARRAY a duration 2^40 + 1", -EINVAL, true, 37 },
	{ "ARRAY a duration ~0", -EINVAL, true, 38 },
	{ "ARRAY durations_ptr NULL", -EFAULT, true, 39 },
	{ "ARRAY durations_ptr unmapped", -EFAULT, true, 40 },
	{ "ARRAY durations_ptr kernel address", -EFAULT, true, 41 },
	{ "ARRAY durations_ptr non-canonical", -EFAULT, true, 42 },
	{ "ARRAY durations straddle a hole", -EFAULT, true, 43 },
	{ "ARRAY durations_ptr ~0", -EFAULT, true, 44 },
	{ "ARRAY nr_blocks = nr_durations = max + 1", -E2BIG, true, 45 },
};

#define NR_SUBMIT_CASES \
	(int)(sizeof(submit_cases) / sizeof(submit_cases[0]))

static void apply_case(int id, struct gputbs_submit *s,
		       const struct gputbs_info *info)
{
	__u64 *d;

	switch (id) {
	case 0: s->flags |= 1U << 2; break;
	case 1: s->prio_class = 5; break;
	case 2: s->prio_class = ~0U; break;
	case 3: s->nr_blocks = 0; break;
	case 4: s->threads_per_block = 0; break;
	case 5: s->threads_per_block = info->max_threads_per_block + 1; break;
	case 6: s->threads_per_block = ~0U; break;
	case 7: s->regs_per_thread = info->max_regs_per_thread + 1; break;
	case 8: s->regs_per_thread = ~0U; break;
	case 9: s->shmem_per_block = info->max_shmem_per_sm + 1; break;
	case 10: s->shmem_per_block = ~0U; break;
	case 11: s->work_model = 0; break;
	case 12: s->work_model = 3; break;
	case 13: s->work_model = ~0U; break;
	case 14: s->block_cycles = 0; break;
	case 15: s->block_cycles = (1ULL << 40) + 1; break;
	case 16: s->block_cycles = ~0ULL; break;
	case 17: s->block_rsd_ppm = 1000001; break;
	case 18: s->block_rsd_ppm = ~0U; break;
	case 19: s->nr_durations = 4; break;
	case 20: s->durations_ptr = (__u64)(uintptr_t)durations; break;
	case 21: memset(s->label, 'A', sizeof(s->label)); break;
	case 22: strcpy(s->label, "bad\001label"); break;
	case 23: strcpy(s->label, "bad\tlabel"); break;
	case 24: strcpy(s->label, "bad\177label"); break;
	case 25: strcpy(s->label, "bad\200label"); break;
	/* 32 warps * roundup(63 * 32, 64) registers = 65536 > 32768: R = 0 */
	case 26:
		s->threads_per_block = 1024;
		s->regs_per_thread = info->max_regs_per_thread;
		break;
	case 27: s->nr_blocks = info->max_blocks_per_grid + 1; break;
	case 28: s->nr_blocks = ~0U; break;
	case 29:
		s->flags |= GPUTBS_SUBMIT_RECORD_BLOCKS;
		s->nr_blocks = info->max_blocks_per_grid + 1;
		break;
	case 30: s->block_cycles = 100; break;
	case 31: s->block_rsd_ppm = 1000; break;
	case 32: s->seed = 1; break;
	case 33: s->nr_durations = 3; break;
	case 34: s->nr_blocks = 3; break;
	case 35: s->nr_durations = 0; break;
	case 36: durations[2] = 0; break;
	case 37: durations[3] = (1ULL << 40) + 1; break;
	case 38: durations[0] = ~0ULL; break;
	case 39: s->durations_ptr = 0; break;
	case 40: s->durations_ptr = (__u64)(uintptr_t)gu_unmapped_page(); break;
	case 41: s->durations_ptr = KERNEL_PTR; break;
	case 42: s->durations_ptr = NONCANON_PTR; break;
	case 43:
		/* two durations before the hole, two in it */
		d = gu_straddling(2 * sizeof(__u64));
		ck_assert_ptr_nonnull(d);
		d[0] = d[1] = 100;
		s->durations_ptr = (__u64)(uintptr_t)d;
		break;
	case 44: s->durations_ptr = ~0ULL; break;
	case 45:
		s->nr_blocks = info->max_blocks_per_grid + 1;
		s->nr_durations = s->nr_blocks;
		s->durations_ptr = 0;	/* never read: E2BIG comes first */
		break;
	default:
		ck_abort_msg("no case %d", id);
	}
}

/* Loop index: case * NR_VARIANTS + variant. */
START_TEST(submit_invalid_field)
{
	const struct submit_case *c = &submit_cases[_i / NR_VARIANTS];
	enum submit_variant v = _i % NR_VARIANTS;
	int fd = dev_open(), ret;
	struct gputbs_info info;
	struct gputbs_submit s;

	info_get(fd, &info);
	valid_grid(&s, c->array);
	apply_case(c->id, &s, &info);
	ret = submit_variant(fd, &s, v);
	ck_assert_msg(ret == c->err, "%s, %s: %d (%s), expected %d",
		      c->what, variant_names[v], ret, strerror(-ret), c->err);
	ck_assert_uint_eq(s.handle, 0);
	assert_no_grids(fd);
}
END_TEST

/* The unmutated grids of the table are valid with each command. */
START_TEST(submit_valid_baseline)
{
	enum submit_variant v = _i % NR_VARIANTS;
	int fd = dev_open(), ret;
	struct gputbs_submit s;
	struct gputbs_wait w;

	valid_grid(&s, _i >= NR_VARIANTS);
	ret = submit_variant(fd, &s, v);
	ck_assert_msg(!ret, "%s: %s", variant_names[v], strerror(-ret));
	wait_ok(fd, s.handle, &w);
	ck_assert_uint_eq(w.blocks_done, 4);
}
END_TEST

/* Every unknown flag bit of SUBMIT (6..31), current command. */
START_TEST(submit_unknown_flag_bit)
{
	int fd = dev_open();
	struct gputbs_submit s;

	gu_grid(&s, 4, 64, 100);
	s.flags = 1U << _i;
	ck_assert_int_eq(gu_submit(fd, &s), -EINVAL);
	ck_assert_uint_eq(s.handle, 0);
	assert_no_grids(fd);
}
END_TEST

/* The arrival_cycle member of the 104-byte command, one case each. */
static const struct {
	const char *what;
	__u32 flags;
	int rel;	/* 0: absolute @cycle; 1: now + @cycle */
	__u64 cycle;
} arrival_cases[] = {
	{ "arrival_cycle 1 without AT_CYCLE", 0, 0, 1 },
	{ "arrival_cycle ~0 without AT_CYCLE", 0, 0, ~0ULL },
	{ "arrival_cycle now + 1000 without AT_CYCLE", 0, 1, 1000 },
	{ "arrival_cycle 1 with RECORD_BLOCKS only",
	  GPUTBS_SUBMIT_RECORD_BLOCKS, 0, 1 },
	{ "AT_CYCLE, now + 2^40 + 2^36", GPUTBS_SUBMIT_AT_CYCLE, 1,
	  (1ULL << 40) + (1ULL << 36) },
	{ "AT_CYCLE, ~0", GPUTBS_SUBMIT_AT_CYCLE, 0, ~0ULL },
	{ "AT_CYCLE | RECORD_BLOCKS, ~0",
	  GPUTBS_SUBMIT_AT_CYCLE | GPUTBS_SUBMIT_RECORD_BLOCKS, 0, ~0ULL },
};

#define NR_ARRIVAL_CASES \
	(int)(sizeof(arrival_cases) / sizeof(arrival_cases[0]))

START_TEST(submit_invalid_arrival)
{
	int fd = dev_open();
	struct gputbs_info info;
	struct gputbs_submit s;

	info_get(fd, &info);
	gu_grid(&s, 4, 64, 100);
	s.flags = arrival_cases[_i].flags;
	s.arrival_cycle = arrival_cases[_i].cycle;
	if (arrival_cases[_i].rel)
		s.arrival_cycle += gu_now_cycle(&info);
	ck_assert_msg(gu_submit(fd, &s) == -EINVAL, "%s: not EINVAL",
		      arrival_cases[_i].what);
	ck_assert_uint_eq(s.handle, 0);
	assert_no_grids(fd);
}
END_TEST

/*
 * The timeout_cycles member (GPUTBS_SUBMIT_TIMEOUT), one case each:
 * {what, flags, value, command size, expected}.
 */
static const struct {
	const char *what;
	__u32 flags;
	__u64 cycles;
	enum submit_variant v;
	int err;
} timeout_cases[] = {
	{ "timeout_cycles 1 without the flag", 0, 1, VAR_112, -EINVAL },
	{ "timeout_cycles ~0 without the flag", 0, ~0ULL, VAR_112, -EINVAL },
	{ "TIMEOUT with timeout_cycles 0", GPUTBS_SUBMIT_TIMEOUT, 0, VAR_112,
	  -EINVAL },
	{ "TIMEOUT, 2^62 + 1", GPUTBS_SUBMIT_TIMEOUT,
	  GPUTBS_TIMEOUT_MAX_CYCLES + 1, VAR_112, -EINVAL },
	{ "TIMEOUT, ~0", GPUTBS_SUBMIT_TIMEOUT, ~0ULL, VAR_112, -EINVAL },
	{ "TIMEOUT in the 104-byte command", GPUTBS_SUBMIT_TIMEOUT, 1000,
	  VAR_104, -EINVAL },
	{ "TIMEOUT in the 96-byte command", GPUTBS_SUBMIT_TIMEOUT, 1000,
	  VAR_96, -EINVAL },
	{ "TIMEOUT, 2^62", GPUTBS_SUBMIT_TIMEOUT, GPUTBS_TIMEOUT_MAX_CYCLES,
	  VAR_112, 0 },
	{ "TIMEOUT | AT_CYCLE, 1", GPUTBS_SUBMIT_TIMEOUT, 1,
	  VAR_112_AT_CYCLE, 0 },
};

/*
 * The timing members (GPUTBS_SUBMIT_MODEL), one case each: {what, flags,
 * member set to a value, command size, expected}.  Ranges are the core's
 * (gtbs_grid_desc_check()).
 */
enum model_member { M_MEM, M_KNEE, M_DIST, M_DIST_PARAM, M_SU_PPM, M_SU_BLOCKS };

static const struct {
	const char *what;
	__u32 flags;
	enum model_member m;
	__u32 val;
	enum submit_variant v;
	int err;
} model_cases[] = {
	{ "mem_ppm 1 without the flag", 0, M_MEM, 1, VAR_136, -EINVAL },
	{ "knee_mwarps 1 without the flag", 0, M_KNEE, 1, VAR_136, -EINVAL },
	{ "startup_blocks 1 without the flag", 0, M_SU_BLOCKS, 1, VAR_136,
	  -EINVAL },
	{ "MODEL in the 112-byte command", GPUTBS_SUBMIT_MODEL, M_MEM, 1,
	  VAR_112, -EINVAL },
	{ "MODEL in the 96-byte command", GPUTBS_SUBMIT_MODEL, M_MEM, 1,
	  VAR_96, -EINVAL },
	{ "MODEL, mem_ppm 1000001", GPUTBS_SUBMIT_MODEL, M_MEM, 1000001,
	  VAR_136, -EINVAL },
	{ "MODEL, knee_mwarps 1024001", GPUTBS_SUBMIT_MODEL, M_KNEE, 1024001,
	  VAR_136, -EINVAL },
	{ "MODEL, block_dist ~0", GPUTBS_SUBMIT_MODEL, M_DIST, ~0U, VAR_136,
	  -EINVAL },
	{ "MODEL, startup_blocks without startup_ppm", GPUTBS_SUBMIT_MODEL,
	  M_SU_BLOCKS, 1, VAR_136, -EINVAL },
	{ "MODEL, nothing set", GPUTBS_SUBMIT_MODEL, M_MEM, 0, VAR_136, 0 },
	{ "MODEL, mem_ppm 1000000", GPUTBS_SUBMIT_MODEL, M_MEM, 1000000,
	  VAR_136, 0 },
	{ "MODEL, knee_mwarps 1024000", GPUTBS_SUBMIT_MODEL, M_KNEE, 1024000,
	  VAR_136, 0 },
};

#define NR_MODEL_CASES (int)(sizeof(model_cases) / sizeof(model_cases[0]))

START_TEST(submit_model_field)
{
	int fd = dev_open(), ret;
	struct gputbs_submit s;
	struct gputbs_wait w;
	__u32 *member[] = {
		[M_MEM] = &s.mem_ppm, [M_KNEE] = &s.knee_mwarps,
		[M_DIST] = &s.block_dist, [M_DIST_PARAM] = &s.block_dist_param,
		[M_SU_PPM] = &s.startup_ppm, [M_SU_BLOCKS] = &s.startup_blocks,
	};

	gu_grid(&s, 4, 64, 100);
	s.flags = model_cases[_i].flags;
	*member[model_cases[_i].m] = model_cases[_i].val;
	ret = submit_variant(fd, &s, model_cases[_i].v);
	ck_assert_msg(ret == model_cases[_i].err, "%s: %d (%s), expected %d",
		      model_cases[_i].what, ret, strerror(-ret),
		      model_cases[_i].err);
	if (ret) {
		ck_assert_uint_eq(s.handle, 0);
	} else {
		ret = gu_wait(fd, s.handle, 0, deadline_in(30 * GU_NS_PER_SEC), &w);
		ck_assert_msg(ret == 0, "%s: WAIT %d", model_cases[_i].what, ret);
	}
	assert_no_grids(fd);
}
END_TEST

#define NR_TIMEOUT_CASES \
	(int)(sizeof(timeout_cases) / sizeof(timeout_cases[0]))

START_TEST(submit_timeout_field)
{
	int fd = dev_open(), ret;
	struct gputbs_submit s;
	struct gputbs_wait w;

	gu_grid(&s, 4, 64, 100);
	s.flags = timeout_cases[_i].flags;
	s.timeout_cycles = timeout_cases[_i].cycles;
	ret = submit_variant(fd, &s, timeout_cases[_i].v);
	ck_assert_msg(ret == timeout_cases[_i].err, "%s: %d (%s), expected %d",
		      timeout_cases[_i].what, ret, strerror(-ret),
		      timeout_cases[_i].err);
	if (ret) {
		ck_assert_uint_eq(s.handle, 0);
	} else {
		/* the grid ran: completed, or stopped by a 1-cycle timeout */
		ret = gu_wait(fd, s.handle, 0, deadline_in(30 * GU_NS_PER_SEC), &w);
		ck_assert_msg(ret == 0 || (ret == -ETIMEDOUT &&
					   timeout_cases[_i].cycles == 1),
			      "%s: WAIT %d", timeout_cases[_i].what, ret);
		ck_assert_uint_eq(w.handle, s.handle);
	}
	assert_no_grids(fd);
}
END_TEST

/* The 96-byte command has no arrival_cycle: AT_CYCLE is invalid there. */
START_TEST(submit96_at_cycle_einval)
{
	int fd = dev_open();
	struct gputbs_submit s;

	gu_grid(&s, 4, 64, 100);
	s.flags = GPUTBS_SUBMIT_AT_CYCLE;
	ck_assert_int_eq(gu_submit96(fd, &s), -EINVAL);
	ck_assert_uint_eq(s.handle, 0);
	assert_no_grids(fd);
}
END_TEST

/* The 96-byte command ignores (neither reads nor writes) bytes 96..103. */
START_TEST(submit96_ignores_tail)
{
	int fd = dev_open();
	struct gputbs_submit s;
	struct gputbs_wait w;

	gu_grid(&s, 4, 64, 100);
	s.arrival_cycle = ~0ULL;	/* invalid if it were read */
	ck_assert_int_eq(gu_submit96(fd, &s), 0);
	ck_assert_uint_eq(s.arrival_cycle, ~0ULL);
	wait_ok(fd, s.handle, &w);
}
END_TEST

/* The input value of the output member handle is ignored. */
START_TEST(submit_input_handle_ignored)
{
	int fd = dev_open();
	struct gputbs_submit s;

	gu_grid(&s, 4, 64, 100);
	s.handle = 0xdeadbeef;
	ck_assert_int_eq(gu_submit(fd, &s), 0);
	ck_assert_uint_eq(s.handle, 1);	/* the first handle of a file */
}
END_TEST

/* ---- invalid WAIT and BLOCKS fields ---------------------------------------- */

/* Every unknown flag bit of WAIT (1..31): EINVAL, the grid not reaped. */
START_TEST(wait_unknown_flag_bit)
{
	int fd = dev_open();
	struct gputbs_submit s;
	struct gputbs_wait w;
	__u32 h;

	gu_grid(&s, 1, 32, 10);
	h = submit_ok(fd, &s);
	ck_assert_int_eq(gu_wait(fd, h, 1U << _i, deadline_in(GU_NS_PER_SEC),
				 NULL), -EINVAL);
	ck_assert_int_eq(gu_wait(fd, h, (1U << _i) | GPUTBS_WAIT_ANY,
				 deadline_in(GU_NS_PER_SEC), NULL), -EINVAL);
	wait_ok(fd, h, &w);
}
END_TEST

/* Deadlines in the past, to the most negative: ETIME at once. */
static const __s64 past_deadlines[] = {
	INT64_MIN, INT64_MIN + 1, -GU_NS_PER_SEC, -1, 0, 1,
};

#define NR_PAST	(int)(sizeof(past_deadlines) / sizeof(past_deadlines[0]))

/* Loop: deadline index * 2 + (WAIT_ANY). */
START_TEST(wait_past_deadline_returns_at_once)
{
	int fd = dev_open();
	__u32 h = submit_long(fd, LONG_NS);
	__s64 deadline = past_deadlines[_i / 2];
	__u64 t0 = gu_now_ns();

	ck_assert_int_eq(gu_wait(fd, _i % 2 ? 0 : h,
				 _i % 2 ? GPUTBS_WAIT_ANY : 0, deadline, NULL),
			 -ETIME);
	ck_assert_msg(gu_now_ns() - t0 < 2 * GU_NS_PER_SEC,
		      "deadline %lld: ETIME after %llu ms", (long long)deadline,
		      (unsigned long long)(gu_now_ns() - t0) / GU_NS_PER_MS);
}
END_TEST

/* A completed recorded grid of 10 blocks. */
static __u32 recorded_done(int fd)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	struct gputbs_submit s;
	__u32 h;

	gu_grid(&s, 10, 32, 10);
	s.flags = GPUTBS_SUBMIT_RECORD_BLOCKS;
	h = submit_ok(fd, &s);
	ck_assert_int_eq(poll(&pfd, 1, 30000), 1);
	return h;
}

static int blocks_call(int fd, __u32 h, __u32 flags, __u32 pad, __u32 cap,
		       __u64 ptr)
{
	struct gputbs_blocks b = {
		.handle = h, .flags = flags, .pad = pad, .nr_records = cap,
		.records_ptr = ptr,
	};

	return gu_ioctl(fd, GPUTBS_IOCTL_BLOCKS, &b);
}

START_TEST(blocks_unknown_flag_bit)
{
	int fd = dev_open();
	__u32 h = recorded_done(fd);

	ck_assert_int_eq(blocks_call(fd, h, 1U << _i, 0, 0, 0), -EINVAL);
	ck_assert_int_eq(blocks_call(fd, h, 0, 0, 0, 0), 0);
}
END_TEST

START_TEST(blocks_pad_bit)
{
	int fd = dev_open();
	__u32 h = recorded_done(fd);

	ck_assert_int_eq(blocks_call(fd, h, 0, 1U << _i, 0, 0), -EINVAL);
	ck_assert_int_eq(blocks_call(fd, h, 0, 0, 0, 0), 0);
}
END_TEST

/* Flags and padding are checked before the handle. */
START_TEST(blocks_flags_before_handle)
{
	int fd = dev_open();

	ck_assert_int_eq(blocks_call(fd, 777, 1, 0, 0, 0), -EINVAL);
	ck_assert_int_eq(blocks_call(fd, 777, 0, 1, 0, 0), -EINVAL);
	ck_assert_int_eq(blocks_call(fd, 777, 0, 0, 0, 0), -ENOENT);
}
END_TEST

/* ---- bad pointers: EFAULT ------------------------------------------------- */

enum { PTR_NULL, PTR_UNMAPPED, PTR_READONLY, PTR_STRADDLE, PTR_KERNEL,
       PTR_NONCANON, NR_PTRS };

static const char * const ptr_names[] = {
	"NULL", "unmapped", "read-only", "straddling a hole", "kernel",
	"non-canonical",
};

/* A bad pointer of kind @k for an object of @size bytes. */
static void *bad_ptr(int k, size_t size)
{
	void *p = NULL;

	switch (k) {
	case PTR_NULL:
		return NULL;
	case PTR_UNMAPPED:
		p = gu_unmapped_page();
		break;
	case PTR_READONLY:
		p = gu_readonly_page();
		break;
	case PTR_STRADDLE:
		p = gu_straddling(size / 2);
		break;
	case PTR_KERNEL:
		return (void *)(uintptr_t)KERNEL_PTR;
	case PTR_NONCANON:
		return (void *)(uintptr_t)NONCANON_PTR;
	}
	ck_assert_ptr_nonnull(p);
	return p;
}

/* INFO writes its struct: every kind of bad pointer is EFAULT. */
START_TEST(efault_info)
{
	int fd = dev_open();

	ck_assert_msg(gu_ioctl(fd, GPUTBS_IOCTL_INFO,
			       bad_ptr(_i, sizeof(struct gputbs_info))) ==
		      -EFAULT, "INFO, %s pointer", ptr_names[_i]);
}
END_TEST

/* A SUBMIT struct that cannot be read: EFAULT, nothing queued. */
START_TEST(efault_submit_unreadable)
{
	static const int kinds[] = { PTR_NULL, PTR_UNMAPPED, PTR_STRADDLE,
				     PTR_KERNEL, PTR_NONCANON };
	int fd = dev_open(), k = kinds[_i / 2];
	void *p = bad_ptr(k, sizeof(struct gputbs_submit));
	struct gputbs_submit s;

	if (k == PTR_STRADDLE) {	/* the readable half is a valid start */
		gu_grid(&s, 4, 64, 100);
		memcpy(p, &s, sizeof(s) / 2);
	}
	ck_assert_msg(gu_ioctl(fd, _i % 2 ? GPUTBS_IOCTL_SUBMIT :
				   GU_IOCTL_SUBMIT_VER0, p) == -EFAULT,
		      "SUBMIT %d bytes, %s pointer", _i % 2 ? 104 : 96,
		      ptr_names[k]);
	assert_no_grids(fd);
}
END_TEST

/*
 * A SUBMIT struct that can be read but not written back: EFAULT, and the
 * grid is queued without a known handle (uapi/linux/gputbs.h): WAIT_ANY
 * reaps it.
 */
START_TEST(efault_submit_readonly_grid_runs)
{
	long page = sysconf(_SC_PAGESIZE);
	int fd = dev_open();
	struct gputbs_submit s, *ro;
	struct gputbs_wait w;

	ro = mmap(NULL, page, PROT_READ | PROT_WRITE,
		  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ck_assert_ptr_ne(ro, MAP_FAILED);
	gu_grid(&s, 4, 64, 100);
	*ro = s;
	ck_assert_int_eq(mprotect(ro, page, PROT_READ), 0);
	ck_assert_int_eq(gu_ioctl(fd, _i ? GPUTBS_IOCTL_SUBMIT :
				  GU_IOCTL_SUBMIT_VER0, ro), -EFAULT);
	ck_assert_int_eq(gu_wait(fd, 0, GPUTBS_WAIT_ANY,
				 deadline_in(30 * GU_NS_PER_SEC), &w), 0);
	ck_assert_uint_eq(w.handle, 1);
	ck_assert_uint_eq(w.blocks_done, 4);
	assert_no_grids(fd);
	munmap(ro, page);
}
END_TEST

START_TEST(efault_wait_unreadable)
{
	static const int kinds[] = { PTR_NULL, PTR_UNMAPPED, PTR_STRADDLE,
				     PTR_KERNEL, PTR_NONCANON };
	int fd = dev_open();
	struct gputbs_wait w;
	__u32 h = submit_long(fd, GU_NS_PER_MS);

	ck_assert_msg(gu_ioctl(fd, GPUTBS_IOCTL_WAIT,
			       bad_ptr(kinds[_i], sizeof(w))) == -EFAULT,
		      "WAIT, %s pointer", ptr_names[kinds[_i]]);
	wait_ok(fd, h, &w);	/* not reaped */
}
END_TEST

/*
 * A WAIT struct that cannot be written back: EFAULT, and the grid was
 * reaped (uapi/linux/gputbs.h): its handle is gone.
 */
START_TEST(efault_wait_readonly_reaps)
{
	long page = sysconf(_SC_PAGESIZE);
	int fd = dev_open();
	struct gputbs_wait *ro;
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	struct gputbs_submit s;
	__u32 h;

	gu_grid(&s, 4, 64, 10);
	h = submit_ok(fd, &s);
	ck_assert_int_eq(poll(&pfd, 1, 30000), 1);
	ro = mmap(NULL, page, PROT_READ | PROT_WRITE,
		  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ck_assert_ptr_ne(ro, MAP_FAILED);
	memset(ro, 0, sizeof(*ro));
	ro->handle = h;
	ro->timeout_ns = deadline_in(30 * GU_NS_PER_SEC);
	ck_assert_int_eq(mprotect(ro, page, PROT_READ), 0);
	ck_assert_int_eq(gu_ioctl(fd, GPUTBS_IOCTL_WAIT, ro), -EFAULT);
	ck_assert_int_eq(gu_wait(fd, h, 0, 0, NULL), -ENOENT);
	assert_no_grids(fd);
	munmap(ro, page);
}
END_TEST

START_TEST(efault_blocks_struct)
{
	static const int kinds[] = { PTR_NULL, PTR_UNMAPPED, PTR_STRADDLE,
				     PTR_KERNEL, PTR_NONCANON };
	int fd = dev_open();

	recorded_done(fd);
	ck_assert_msg(gu_ioctl(fd, GPUTBS_IOCTL_BLOCKS,
			       bad_ptr(kinds[_i],
				       sizeof(struct gputbs_blocks))) ==
		      -EFAULT, "BLOCKS, %s pointer", ptr_names[kinds[_i]]);
}
END_TEST

/* Each kind of bad records_ptr with a capacity of 10: EFAULT. */
START_TEST(efault_blocks_records)
{
	int fd = dev_open();
	__u32 h = recorded_done(fd);
	void *p = bad_ptr(_i, 10 * sizeof(struct gputbs_block_record));

	ck_assert_msg(blocks_call(fd, h, 0, 0, 10, (__u64)(uintptr_t)p) ==
		      -EFAULT, "records_ptr %s", ptr_names[_i]);
	/* the grid is still there, unreaped */
	ck_assert_int_eq(blocks_call(fd, h, 0, 0, 0, 0), 0);
}
END_TEST

/* ---- limits --------------------------------------------------------------- */

static __u64 saved_dev_limit;

static void setup_limits(void)
{
	setup_fds();
	ck_assert_int_eq(gu_read_u64(GU_PARAMS, "max_grids_per_device",
				     &saved_dev_limit), 0);
}

static void teardown_limits(void)
{
	char buf[32];

	teardown_fds();
	snprintf(buf, sizeof(buf), "%llu", (unsigned long long)saved_dev_limit);
	gu_write_attr(GU_PARAMS, "max_grids_per_device", buf);
}

static void set_dev_limit(unsigned int n)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%u", n);
	ck_assert_int_eq(gu_write_attr(GU_PARAMS, "max_grids_per_device", buf),
			 0);
}

START_TEST(limit_params_match_info)
{
	int fd = dev_open();
	struct gputbs_info info;
	__u64 v;

	info_get(fd, &info);
	ck_assert_int_eq(gu_read_u64(GU_PARAMS, "max_blocks_per_grid", &v), 0);
	ck_assert_uint_eq(v, info.max_blocks_per_grid);
	ck_assert_int_eq(gu_read_u64(GU_PARAMS, "max_grids_per_fd", &v), 0);
	ck_assert_uint_eq(v, info.max_grids_per_fd);
	ck_assert_int_eq(gu_read_u64(GU_PARAMS, "max_grids_per_device", &v),
			 0);
	ck_assert_uint_ge(v, 1);
	ck_assert_int_eq(gu_read_u64(GU_PARAMS, "max_grids_per_user", &v), 0);
	ck_assert_uint_eq(v, info.max_grids_per_user);
	ck_assert(info.features & GPUTBS_FEATURE_USER_LIMITS);
}
END_TEST

/* Out of range or not a number: EINVAL; beyond 32 bits: ERANGE. */
static const struct {
	const char *val;
	int err;
} bad_limits[] = {
	{ "0", -EINVAL }, { "1048577", -EINVAL }, { "4294967295", -EINVAL },
	{ "4294967296", -ERANGE }, { "-1", -EINVAL }, { "abc", -EINVAL },
	{ "\n", -EINVAL }, { "12x", -EINVAL },
};

START_TEST(limit_device_param_invalid)
{
	__u64 v;
	int ret;

	ret = gu_write_attr(GU_PARAMS, "max_grids_per_device",
			    bad_limits[_i].val);
	ck_assert_msg(ret == bad_limits[_i].err,
		      "max_grids_per_device '%s': %d, expected %d",
		      bad_limits[_i].val, ret, bad_limits[_i].err);
	ck_assert_int_eq(gu_read_u64(GU_PARAMS, "max_grids_per_device", &v),
			 0);
	ck_assert_uint_eq(v, saved_dev_limit);
}
END_TEST

START_TEST(limit_device_param_range)
{
	__u64 v;

	set_dev_limit(1);
	ck_assert_int_eq(gu_read_u64(GU_PARAMS, "max_grids_per_device", &v),
			 0);
	ck_assert_uint_eq(v, 1);
	set_dev_limit(1048576);
	ck_assert_int_eq(gu_read_u64(GU_PARAMS, "max_grids_per_device", &v),
			 0);
	ck_assert_uint_eq(v, 1048576);
}
END_TEST

/* The device holds 3 grids: another file's submission is ENOSPC. */
START_TEST(limit_device_enospc_other_file)
{
	int a = dev_open(), b = dev_open(), i;
	struct gputbs_submit s;

	set_dev_limit(3);
	for (i = 0; i < 3; i++)
		submit_long(a, LONG_NS);
	gu_grid(&s, 1, 32, 10);
	ck_assert_int_eq(gu_submit(b, &s), -ENOSPC);
	ck_assert_uint_eq(s.handle, 0);
	assert_no_grids(b);
}
END_TEST

/* ... and the same file's, below its own limit, is ENOSPC too. */
START_TEST(limit_device_enospc_same_file)
{
	int a = dev_open(), i;
	struct gputbs_submit s;

	set_dev_limit(3);
	for (i = 0; i < 3; i++)
		submit_long(a, LONG_NS);
	gu_grid(&s, 1, 32, 10);
	ck_assert_int_eq(gu_submit96(a, &s), -ENOSPC);
	ck_assert_uint_eq(s.handle, 0);
}
END_TEST

/* Reaping a grid makes room for one, on any file. */
START_TEST(limit_device_reap_makes_room)
{
	int a = dev_open(), b = dev_open();
	struct gputbs_submit s;
	struct gputbs_wait w;
	__u32 h;

	set_dev_limit(2);
	submit_long(a, LONG_NS);
	gu_grid(&s, 1, 32, 10);
	h = submit_ok(a, &s);
	ck_assert_int_eq(gu_submit(b, &s), -ENOSPC);
	wait_ok(a, h, &w);
	gu_grid(&s, 1, 32, 10);
	h = submit_ok(b, &s);
	wait_ok(b, h, &w);
}
END_TEST

/* Closing a file gives back all its grids at once. */
START_TEST(limit_device_close_makes_room)
{
	int a = dev_open(), b = dev_open(), i;
	struct gputbs_submit s;

	set_dev_limit(4);
	for (i = 0; i < 4; i++)
		submit_long(a, LONG_NS);
	gu_grid(&s, 1, 32, 10);
	ck_assert_int_eq(gu_submit(b, &s), -ENOSPC);
	dev_close(a);
	for (i = 0; i < 4; i++) {
		gu_grid(&s, 1, 32, 10);
		submit_ok(b, &s);
	}
	ck_assert_int_eq(gu_submit(b, &s), -ENOSPC);
}
END_TEST

/* A SIGKILLed process gives its grids back too. */
static int child_fill_and_sleep(void *arg)
{
	int fd = gu_open(), *pipefd = arg, i;
	struct gputbs_submit s;

	if (fd < 0)
		return 1;
	for (i = 0; i < 4; i++) {
		gu_grid(&s, 1, 32, 1ULL << 40);
		if (gu_submit(fd, &s))
			return 2;
	}
	if (write(pipefd[1], "x", 1) != 1)
		return 3;
	pause();
	return 0;
}

START_TEST(limit_device_sigkill_makes_room)
{
	int b = dev_open(), pipefd[2], status, i;
	struct gputbs_submit s;
	char c;
	pid_t pid;

	set_dev_limit(4);
	ck_assert_int_eq(pipe(pipefd), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (!pid)
		_exit(child_fill_and_sleep(pipefd));
	ck_assert_int_eq(read(pipefd[0], &c, 1), 1);
	gu_grid(&s, 1, 32, 10);
	ck_assert_int_eq(gu_submit(b, &s), -ENOSPC);
	kill(pid, SIGKILL);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFSIGNALED(status));
	for (i = 0; i < 4; i++) {
		gu_grid(&s, 1, 32, 10);
		submit_ok(b, &s);
	}
	close(pipefd[0]);
	close(pipefd[1]);
}
END_TEST

/* A full file is EAGAIN even when the device is full as well. */
START_TEST(limit_fd_eagain_before_enospc)
{
	int a = dev_open(), b = dev_open();
	struct gputbs_info info;
	struct gputbs_submit s;
	unsigned int i;

	info_get(a, &info);
	set_dev_limit(info.max_grids_per_fd);
	gu_grid(&s, 1, 32, 1ULL << 40);
	for (i = 0; i < info.max_grids_per_fd; i++)
		submit_ok(a, &s);
	ck_assert_int_eq(gu_submit(a, &s), -EAGAIN);
	ck_assert_int_eq(gu_submit(b, &s), -ENOSPC);
}
END_TEST

/* Lowering the limit keeps the grids already there; they complete. */
START_TEST(limit_device_lowered_keeps_grids)
{
	int a = dev_open(), i;
	struct gputbs_submit s;
	struct gputbs_wait w;
	__u32 h[3];

	for (i = 0; i < 3; i++) {
		gu_grid(&s, 15, 32, 1000);
		h[i] = submit_ok(a, &s);
	}
	set_dev_limit(1);
	ck_assert_int_eq(gu_submit(a, &s), -ENOSPC);
	for (i = 0; i < 3; i++) {
		wait_ok(a, h[i], &w);
		ck_assert_uint_eq(w.blocks_done, 15);
	}
	gu_grid(&s, 1, 32, 10);
	wait_ok(a, submit_ok(a, &s), &w);
}
END_TEST

/* Rejected submissions do not count against the device's limit. */
START_TEST(limit_device_rejected_not_counted)
{
	int a = dev_open(), i;
	struct gputbs_submit s;

	set_dev_limit(1);
	for (i = 0; i < 50; i++) {
		gu_grid(&s, 0, 32, 10);
		ck_assert_int_eq(gu_submit(a, &s), -EINVAL);
	}
	gu_grid(&s, 1, 32, 10);
	submit_ok(a, &s);
}
END_TEST

/* ---- per-user limits and the device-wide byte cap -------------------------- */

#define GU_OTHER_USER	65533	/* a second unprivileged user */
#define FOREVER		(1ULL << 40)	/* cycles: blocks that never end */

static const char * const acct_params[] = {
	"max_grids_per_user", "max_bytes_per_user", "max_bytes_per_device",
	"max_grids_per_device", "reserved_grids", "reserved_bytes",
};

#define NR_ACCT_PARAMS	(int)(sizeof(acct_params) / sizeof(acct_params[0]))

static __u64 saved_acct[NR_ACCT_PARAMS];

static void setup_user_limits(void)
{
	int i;

	setup_fds();
	for (i = 0; i < NR_ACCT_PARAMS; i++)
		ck_assert_int_eq(gu_read_u64(GU_PARAMS, acct_params[i],
					     &saved_acct[i]), 0);
}

static void teardown_user_limits(void)
{
	char buf[32];
	int i;

	holders_kill();
	teardown_fds();
	for (i = 0; i < NR_ACCT_PARAMS; i++) {
		snprintf(buf, sizeof(buf), "%llu",
			 (unsigned long long)saved_acct[i]);
		gu_write_attr(GU_PARAMS, acct_params[i], buf);
	}
}

static void set_param(const char *name, __u64 val)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%llu", (unsigned long long)val);
	ck_assert_int_eq(gu_write_attr(GU_PARAMS, name, buf), 0);
}

/* debugfs gputbs/users: @uid holds @grids grids and @bytes bytes. */
static void assert_charged(long long uid, __u64 grids, __u64 bytes)
{
	__u64 g, b;

	ck_assert_int_eq(gu_charges(uid, &g, &b), 0);
	ck_assert_msg(g == grids && b == bytes,
		      "uid %lld: %llu grids, %llu bytes charged; expected %llu, %llu",
		      uid, (unsigned long long)g, (unsigned long long)b,
		      (unsigned long long)grids, (unsigned long long)bytes);
}

/* Nothing is charged to anyone: every test ends with the counters at 0. */
static void assert_no_charges(void)
{
	assert_charged(-1, 0, 0);
}

/* A grid of @blocks never-ending blocks with @flags: 0 or -errno. */
static int submit_forever(int fd, __u32 blocks, __u32 flags)
{
	struct gputbs_submit s;
	int ret;

	gu_grid(&s, blocks, 32, FOREVER);
	s.flags = flags;
	ret = gu_submit104(fd, &s);
	if (ret && s.handle)
		return -EIO;	/* a refused grid has no handle */
	return ret;
}

/* Out of range or not a number, for a byte limit. */
static const struct {
	const char *val;
	int err;
} bad_bytes[] = {
	{ "-1", -EINVAL }, { "abc", -EINVAL }, { "\n", -EINVAL },
	{ "12x", -EINVAL }, { "18446744073709551616", -ERANGE },
};

#define NR_BAD_LIMITS	(int)(sizeof(bad_limits) / sizeof(bad_limits[0]))
#define NR_BAD_BYTES	(int)(sizeof(bad_bytes) / sizeof(bad_bytes[0]))

/* Loop: max_grids_per_user as max_grids_per_device; the byte limits. */
START_TEST(limit_user_params_invalid)
{
	const char *param, *val;
	__u64 before, after;
	int ret, err;

	if (_i < NR_BAD_LIMITS) {
		param = "max_grids_per_user";
		val = bad_limits[_i].val;
		err = bad_limits[_i].err;
	} else {
		param = (_i - NR_BAD_LIMITS) % 2 ? "max_bytes_per_device" :
						   "max_bytes_per_user";
		val = bad_bytes[(_i - NR_BAD_LIMITS) / 2].val;
		err = bad_bytes[(_i - NR_BAD_LIMITS) / 2].err;
	}
	ck_assert_int_eq(gu_read_u64(GU_PARAMS, param, &before), 0);
	ret = gu_write_attr(GU_PARAMS, param, val);
	ck_assert_msg(ret == err, "%s '%s': %d, expected %d", param, val, ret,
		      err);
	ck_assert_int_eq(gu_read_u64(GU_PARAMS, param, &after), 0);
	ck_assert_uint_eq(after, before);
}
END_TEST

START_TEST(limit_user_params_range)
{
	__u64 v;

	set_param("max_grids_per_user", 1);
	set_param("max_grids_per_user", 1048576);
	ck_assert_int_eq(gu_read_u64(GU_PARAMS, "max_grids_per_user", &v), 0);
	ck_assert_uint_eq(v, 1048576);
	set_param("max_bytes_per_user", 0);
	set_param("max_bytes_per_user", 18446744073709551615ULL);
	ck_assert_int_eq(gu_read_u64(GU_PARAMS, "max_bytes_per_user", &v), 0);
	ck_assert_uint_eq(v, 18446744073709551615ULL);
	set_param("max_bytes_per_device", 0);
	ck_assert_int_eq(gu_read_u64(GU_PARAMS, "max_bytes_per_device", &v),
			 0);
	ck_assert_uint_eq(v, 0);
}
END_TEST

/* The default per-user limits lie well below the device's. */
START_TEST(limit_user_defaults_below_device)
{
	ck_assert_uint_lt(saved_acct[0], saved_acct[3]);	/* grids */
	ck_assert_uint_lt(saved_acct[1], saved_acct[2]);	/* bytes */
}
END_TEST

/*
 * Child: @n never-ending grids over two files, then one more on each file
 * must fail with @expect.
 */
struct fill_user {
	int n;
	int expect;
};

static int child_fill_user(void *arg)
{
	const struct fill_user *f = arg;
	int fd[2] = { gu_open(), gu_open() }, i;

	if (fd[0] < 0 || fd[1] < 0)
		return 1;
	for (i = 0; i < f->n; i++)
		if (submit_forever(fd[i % 2], 1, 0))
			return 2;
	for (i = 0; i < 2; i++) {
		if (submit_forever(fd[i], 1, 0) != f->expect)
			return 3 + i;
		/* the refused grid is not there: WAIT_ANY finds none done */
		if (gu_wait(fd[i], 0, GPUTBS_WAIT_ANY, 0, NULL) != -ETIME)
			return 5 + i;
	}
	return 0;
}

/*
 * nobody at its grid limit gets EDQUOT on any file; another unprivileged
 * user and root still submit; killing nobody's process gives its grids
 * back.
 */
START_TEST(limit_user_edquot_others_submit)
{
	struct fill_user f = { .n = 4, .expect = -EDQUOT };
	struct gputbs_submit s;
	struct holder a, b;
	int fd = dev_open(), i;

	set_param("max_grids_per_user", 4);
	hold_start(&a, GU_NOBODY, 0, child_fill_user, &f);
	ck_assert_msg(a.result == 0, "nobody: step %d", a.result);
	assert_charged(GU_NOBODY, 4, 0);
	hold_start(&b, GU_OTHER_USER, 0, child_fill_user, &f);
	ck_assert_msg(b.result == 0, "uid %d: step %d", GU_OTHER_USER,
		      b.result);
	assert_charged(GU_OTHER_USER, 4, 0);
	/* root too, past the per-user limit with CAP_SYS_RESOURCE */
	for (i = 0; i < 6; i++) {
		gu_grid(&s, 1, 32, 10);
		submit_ok(fd, &s);
	}
	assert_charged(0, 6, 0);
	assert_charged(-1, 14, 0);
	hold_end(&a);
	assert_charged(GU_NOBODY, 0, 0);
	hold_start(&a, GU_NOBODY, 0, child_fill_user, &f);
	ck_assert_msg(a.result == 0, "nobody again: step %d", a.result);
	hold_end(&a);
	hold_end(&b);
	dev_close(fd);
	assert_no_charges();
}
END_TEST

/* Child: at a limit of 2, reaping one grid or closing a file makes room. */
static int child_reap_close(void *arg)
{
	struct gputbs_submit s;
	struct gputbs_wait w;
	int a = gu_open(), b;

	(void)arg;
	if (a < 0)
		return 1;
	gu_grid(&s, 1, 32, 10);
	if (gu_submit104(a, &s) || submit_forever(a, 1, 0))
		return 2;
	if (submit_forever(a, 1, 0) != -EDQUOT)
		return 3;
	if (gu_wait(a, s.handle, 0, deadline_in(30 * GU_NS_PER_SEC), &w))
		return 4;
	if (submit_forever(a, 1, 0))
		return 5;
	if (submit_forever(a, 1, 0) != -EDQUOT)
		return 6;
	close(a);
	b = gu_open();
	if (b < 0 || submit_forever(b, 1, 0) || submit_forever(b, 1, 0))
		return 7;
	if (submit_forever(b, 1, 0) != -EDQUOT)
		return 8;
	close(b);
	return 0;
}

START_TEST(limit_user_reap_close_make_room)
{
	set_param("max_grids_per_user", 2);
	ck_assert_int_eq(run_child_as(GU_NOBODY, 0, child_reap_close, NULL),
			 0);
	assert_no_charges();
}
END_TEST

/*
 * Child: 64 KiB of bytes, exactly the limit: an ARRAY grid of 2048 blocks
 * (16 KiB of durations) and a RECORD_BLOCKS grid of 1536 (48 KiB of
 * records); then any byte more is ENOBUFS, a grid without either is not.
 */
static int child_fill_bytes(void *arg)
{
	static __u64 durations[2048];
	struct gputbs_submit s;
	int fd = gu_open(), i;

	(void)arg;
	if (fd < 0)
		return 1;
	for (i = 0; i < 2048; i++)
		durations[i] = FOREVER;
	gu_grid(&s, 2048, 32, 0);
	s.work_model = GPUTBS_WORK_ARRAY;
	s.nr_durations = 2048;
	s.durations_ptr = (__u64)(uintptr_t)durations;
	if (gu_submit104(fd, &s))
		return 2;
	if (submit_forever(fd, 1536, GPUTBS_SUBMIT_RECORD_BLOCKS))
		return 3;
	if (submit_forever(fd, 1, GPUTBS_SUBMIT_RECORD_BLOCKS) != -ENOBUFS)
		return 4;
	gu_grid(&s, 1, 32, 0);
	s.work_model = GPUTBS_WORK_ARRAY;
	s.nr_durations = 1;
	s.durations_ptr = (__u64)(uintptr_t)durations;
	if (gu_submit104(fd, &s) != -ENOBUFS || s.handle)
		return 5;
	if (submit_forever(fd, 1, 0))
		return 6;
	return 0;
}

START_TEST(limit_user_enobufs)
{
	struct holder a;

	set_param("max_bytes_per_user", 65536);
	hold_start(&a, GU_NOBODY, 0, child_fill_bytes, NULL);
	ck_assert_msg(a.result == 0, "nobody: step %d", a.result);
	assert_charged(GU_NOBODY, 3, 65536);
	assert_charged(-1, 3, 65536);
	hold_end(&a);
	assert_no_charges();
}
END_TEST

/*
 * Child: the pinning attempt of issue 12, scaled down: RECORD_BLOCKS
 * grids of never-ending blocks, 1 MiB of records each, until refused.
 * Returns the number accepted (at most 64), 250 + step on a failure.
 */
static int child_pin(void *arg)
{
	int fd = gu_open(), n = 0, ret;

	(void)arg;
	if (fd < 0)
		return 251;
	while (n < 64) {
		ret = submit_forever(fd, 32768, GPUTBS_SUBMIT_RECORD_BLOCKS);
		if (ret == -ENOMEM)
			break;
		if (ret)
			return 252;
		n++;
	}
	/* a grid that pins no bytes is not refused by the byte cap */
	if (submit_forever(fd, 1, 0))
		return 253;
	return n;
}

/* The device-wide byte cap stops nobody's pinning and binds root too. */
START_TEST(limit_device_bytes_enomem)
{
	int fd = dev_open();
	struct holder a;

	set_param("max_bytes_per_user", 1ULL << 30);
	set_param("max_bytes_per_device", 4ULL << 20);
	set_param("reserved_bytes", 0);	/* the cap itself, for everyone */
	hold_start(&a, GU_NOBODY, 0, child_pin, NULL);
	ck_assert_msg(a.result == 4, "nobody pinned %d MiB of a 4 MiB cap",
		      a.result);
	assert_charged(GU_NOBODY, 5, 4ULL << 20);
	/* CAP_SYS_RESOURCE does not pass the device's cap */
	ck_assert_int_eq(submit_forever(fd, 1, GPUTBS_SUBMIT_RECORD_BLOCKS),
			 -ENOMEM);
	hold_end(&a);
	ck_assert_int_eq(submit_forever(fd, 1, GPUTBS_SUBMIT_RECORD_BLOCKS),
			 0);
	assert_charged(-1, 1, 32);
	dev_close(fd);
	assert_no_charges();
}
END_TEST

/*
 * Child, uid 0: with CAP_SYS_RESOURCE past both per-user limits (2 grids,
 * 1 KiB); without it EDQUOT.  Another without it from the start: ENOBUFS
 * first (kind 1).
 */
static int child_cap_sys_resource(void *arg)
{
	int fd = gu_open(), i;

	if (fd < 0)
		return 1;
	if (!*(int *)arg) {
		if (submit_forever(fd, 64, GPUTBS_SUBMIT_RECORD_BLOCKS))
			return 2;
		for (i = 0; i < 3; i++)
			if (submit_forever(fd, 1, 0))
				return 3;
		if (gu_keep_caps(ALL_CAPS & ~(1ULL << CAP_SYS_RESOURCE)))
			return 4;
		return submit_forever(fd, 1, 0) == -EDQUOT ? 0 : 5;
	}
	if (submit_forever(fd, 64, GPUTBS_SUBMIT_RECORD_BLOCKS) != -ENOBUFS)
		return 6;
	if (submit_forever(fd, 1, 0) || submit_forever(fd, 1, 0))
		return 7;
	return submit_forever(fd, 1, 0) == -EDQUOT ? 0 : 8;
}

START_TEST(limit_user_cap_sys_resource)
{
	int kind = _i;
	struct holder a;

	set_param("max_grids_per_user", 2);
	set_param("max_bytes_per_user", 1024);
	hold_start(&a, 0, kind ? ALL_CAPS & ~(1ULL << CAP_SYS_RESOURCE) :
		   ALL_CAPS, child_cap_sys_resource, &kind);
	ck_assert_msg(a.result == 0, "uid 0 (kind %d): step %d", kind,
		      a.result);
	if (!kind)
		assert_charged(0, 4, 64 * 32);
	else
		assert_charged(0, 2, 0);
	hold_end(&a);
	assert_no_charges();
}
END_TEST

/* Child: the file first (EAGAIN), then the user (EDQUOT), not the device. */
static int child_limit_order(void *arg)
{
	unsigned int i, per_fd = *(unsigned int *)arg;
	int a = gu_open(), b = gu_open();

	if (a < 0 || b < 0)
		return 1;
	for (i = 0; i < per_fd; i++)
		if (submit_forever(a, 1, 0))
			return 2;
	if (submit_forever(a, 1, 0) != -EAGAIN)
		return 3;
	if (submit_forever(b, 1, 0) != -EDQUOT)
		return 4;
	return 0;
}

START_TEST(limit_user_order)
{
	int fd = dev_open();
	struct gputbs_info info;
	struct holder a;

	info_get(fd, &info);
	set_param("max_grids_per_user", info.max_grids_per_fd);
	set_param("max_grids_per_device", info.max_grids_per_fd);
	set_param("reserved_grids", 0);	/* the device's limit itself */
	hold_start(&a, GU_NOBODY, 0, child_limit_order,
		   &info.max_grids_per_fd);
	ck_assert_msg(a.result == 0, "nobody: step %d", a.result);
	/* root is past the user's limit, not past the device's */
	ck_assert_int_eq(submit_forever(fd, 1, 0), -ENOSPC);
	hold_end(&a);
	dev_close(fd);
	assert_no_charges();
}
END_TEST

/* ---- the reserve of CAP_SYS_RESOURCE at the device's limits ---------------- */

#define RESERVE_UID	2000	/* five unprivileged users, 2000..2004 */
#define RESERVE_USERS	5
#define RESERVE_BYTES	65536	/* one user's bytes: 2048 recorded blocks */

/*
 * Child: one unprivileged user submits never-ending grids (kind 0: one
 * block each; kind 1: 2048 recorded blocks, 64 KiB each) until refused.
 * Returns the number accepted (at most 16) plus 100 x the refusal:
 * 1 EDQUOT or ENOBUFS (its own limit), 2 ENOSPC or ENOMEM for the
 * reserve, 3 for the device's limit itself; 99 on any other result.
 */
static int child_reserve_fill(void *arg)
{
	int kind = *(int *)arg, fd = gu_open(), n, ret;
	struct gputbs_submit s;

	if (fd < 0)
		return 99;
	for (n = 0; n < 16; n++) {
		gu_grid(&s, kind ? 2048 : 1, 32, FOREVER);
		s.flags = kind ? GPUTBS_SUBMIT_RECORD_BLOCKS : 0;
		ret = gu_submit(fd, &s);
		if (!ret)
			continue;
		if (ret == -EDQUOT || ret == -ENOBUFS)
			return 100 + n;
		if ((ret == -ENOSPC &&
		     s.err_reason == GPUTBS_SUBMIT_ERR_RESERVE_GRIDS) ||
		    (ret == -ENOMEM &&
		     s.err_reason == GPUTBS_SUBMIT_ERR_RESERVE_BYTES))
			return 200 + n;
		if (ret == -ENOSPC || ret == -ENOMEM)
			return 300 + n > 255 ? 255 : 300 + n;
		return 99;
	}
	return n;
}

/* Child, uid 0 without CAP_SYS_RESOURCE: refused by the reserve too. */
static int child_reserve_capless_root(void *arg)
{
	int kind = *(int *)arg, fd = gu_open(), ret;
	struct gputbs_submit s;

	if (fd < 0)
		return 1;
	gu_grid(&s, kind ? 2048 : 1, 32, FOREVER);
	s.flags = kind ? GPUTBS_SUBMIT_RECORD_BLOCKS : 0;
	s.prio_class = GPUTBS_PRIO_REALTIME;	/* CAP_SYS_NICE is kept */
	ret = gu_submit(fd, &s);
	if (ret != (kind ? -ENOMEM : -ENOSPC))
		return 2;
	if (s.err_reason != (kind ? GPUTBS_SUBMIT_ERR_RESERVE_BYTES :
				    GPUTBS_SUBMIT_ERR_RESERVE_GRIDS))
		return 3;
	return 0;
}

/*
 * Issue 28, item 3, scaled down: five unprivileged users, each at most 4
 * grids (kind 0) or 64 KiB of records (kind 1), on a device of 20 grids
 * or 320 KiB with a reserve of one user's share: four of them take all
 * the others may, the fifth gets ENOSPC (ENOMEM) from its first grid,
 * uid 0 without CAP_SYS_RESOURCE likewise, and root's realtime grids
 * take the reserve, up to the device's limit itself.
 */
START_TEST(limit_reserve_root_gets_last)
{
	int kind = _i, fd = dev_open(), i, r;
	struct holder h[RESERVE_USERS];
	struct gputbs_submit s;
	__u64 g, b;

	if (!kind) {
		set_param("max_grids_per_user", 4);
		set_param("max_grids_per_device", 20);
		set_param("reserved_grids", 4);
	} else {
		set_param("max_bytes_per_user", RESERVE_BYTES);
		set_param("max_bytes_per_device", 5 * RESERVE_BYTES);
		set_param("reserved_bytes", RESERVE_BYTES);
	}
	for (i = 0; i < RESERVE_USERS; i++) {
		hold_start(&h[i], RESERVE_UID + i, 0, child_reserve_fill, &kind);
		r = i < RESERVE_USERS - 1 ? 100 + (kind ? 1 : 4) : 200;
		ck_assert_msg(h[i].result == r,
			      "uid %d: result %d, expected %d (kind %d)",
			      RESERVE_UID + i, h[i].result, r, kind);
	}
	ck_assert_int_eq(gu_charges(-1, &g, &b), 0);
	ck_assert_uint_eq(g, kind ? 4 : 16);
	ck_assert_uint_eq(b, kind ? 4 * RESERVE_BYTES : 0);
	ck_assert_int_eq(run_child_as(0, ALL_CAPS & ~(1ULL << CAP_SYS_RESOURCE),
				      child_reserve_capless_root, &kind), 0);
	/* root, with CAP_SYS_RESOURCE: the reserve, then the limit itself */
	for (i = 0; i < (kind ? 1 : 4); i++) {
		gu_grid(&s, kind ? 2048 : 1, 32, FOREVER);
		s.flags = kind ? GPUTBS_SUBMIT_RECORD_BLOCKS : 0;
		s.prio_class = GPUTBS_PRIO_REALTIME;
		submit_ok(fd, &s);
	}
	gu_grid(&s, kind ? 2048 : 1, 32, FOREVER);
	s.flags = kind ? GPUTBS_SUBMIT_RECORD_BLOCKS : 0;
	ck_assert_int_eq(gu_submit(fd, &s), kind ? -ENOMEM : -ENOSPC);
	ck_assert_uint_eq(s.err_reason, kind ? GPUTBS_SUBMIT_ERR_LIMIT_DEV_BYTES :
				       GPUTBS_SUBMIT_ERR_LIMIT_DEV_GRIDS);
	assert_charged(0, kind ? 1 : 4, kind ? RESERVE_BYTES : 0);
	for (i = 0; i < RESERVE_USERS; i++)
		hold_end(&h[i]);
	dev_close(fd);
	assert_no_charges();
}
END_TEST

/* The reserves' ranges: 0..2^20 grids, any 64-bit number of bytes. */
START_TEST(limit_reserve_params)
{
	__u64 v;

	set_param("reserved_grids", 0);
	set_param("reserved_grids", 1048576);
	ck_assert_int_eq(gu_write_attr(GU_PARAMS, "reserved_grids", "1048577"),
			 -EINVAL);
	ck_assert_int_eq(gu_write_attr(GU_PARAMS, "reserved_grids", "-1"),
			 -EINVAL);
	ck_assert_int_eq(gu_read_u64(GU_PARAMS, "reserved_grids", &v), 0);
	ck_assert_uint_eq(v, 1048576);
	set_param("reserved_bytes", 0);
	set_param("reserved_bytes", 18446744073709551615ULL);
	ck_assert_int_eq(gu_write_attr(GU_PARAMS, "reserved_bytes", "abc"),
			 -EINVAL);
	ck_assert_int_eq(gu_read_u64(GU_PARAMS, "reserved_bytes", &v), 0);
	ck_assert_uint_eq(v, 18446744073709551615ULL);
	/* the defaults: part of the device's limits, not all of them */
	ck_assert_uint_gt(saved_acct[4], 0);
	ck_assert_uint_lt(saved_acct[4], saved_acct[3]);
	ck_assert_uint_gt(saved_acct[5], 0);
	ck_assert_uint_lt(saved_acct[5], saved_acct[2]);
}
END_TEST

/* ---- a file passed over a unix socket (SCM_RIGHTS) ------------------------- */

#define PASS_UID	2010

static int send_fd(int sock, int fd)
{
	char cbuf[CMSG_SPACE(sizeof(int))], c = 'f';
	struct iovec iov = { .iov_base = &c, .iov_len = 1 };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
	};
	struct cmsghdr *cmsg;

	memset(cbuf, 0, sizeof(cbuf));
	cmsg = CMSG_FIRSTHDR(&msg);
	cmsg->cmsg_level = SOL_SOCKET;
	cmsg->cmsg_type = SCM_RIGHTS;
	cmsg->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cmsg), &fd, sizeof(int));
	return sendmsg(sock, &msg, 0) == 1 ? 0 : -errno;
}

static int recv_fd(int sock)
{
	char cbuf[CMSG_SPACE(sizeof(int))], c;
	struct iovec iov = { .iov_base = &c, .iov_len = 1 };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
	};
	struct cmsghdr *cmsg;
	int fd;

	if (recvmsg(sock, &msg, 0) != 1)
		return -errno;
	cmsg = CMSG_FIRSTHDR(&msg);
	if (!cmsg || cmsg->cmsg_type != SCM_RIGHTS)
		return -EPROTO;
	memcpy(&fd, CMSG_DATA(cmsg), sizeof(int));
	return fd;
}

enum { PASS_KILLED, PASS_CLOSED, PASS_DUP_KILLED, NR_PASS_MODES };

static const char * const pass_names[] = {
	"killed", "closed its descriptor", "dup()ed, closed one, killed",
};

struct pass_arg {
	int mode;
	int sock;
	__u32 forever;	/* out: the handle of a never-ending grid */
};

/*
 * Child, uid PASS_UID: three never-ending grids (one of them recorded)
 * and one that completes and stays unreaped, then the file goes to the
 * parent over the socket; PASS_CLOSED closes it afterwards, PASS_DUP_KILLED
 * closes it after a dup().  The handle travels in the shared @arg page.
 */
static int child_pass_fd(void *arg)
{
	struct pass_arg *pa = arg;
	struct gputbs_submit s;
	struct pollfd pfd;
	int fd = gu_open(), i;

	if (fd < 0)
		return 1;
	for (i = 0; i < 3; i++) {
		gu_grid(&s, i ? 1 : 64, 32, FOREVER);
		s.flags = i ? 0 : GPUTBS_SUBMIT_RECORD_BLOCKS;
		if (gu_submit(fd, &s))
			return 2;
		pa->forever = s.handle;
	}
	gu_grid(&s, 1, 32, 10);
	if (gu_submit(fd, &s))
		return 3;
	/* done, not reaped: the poll says so */
	pfd = (struct pollfd){ .fd = fd, .events = POLLIN };
	if (poll(&pfd, 1, 10000) != 1)
		return 4;
	if (send_fd(pa->sock, fd))
		return 5;
	if (pa->mode == PASS_CLOSED && close(fd))
		return 6;
	if (pa->mode == PASS_DUP_KILLED && (dup(fd) < 0 || close(fd)))
		return 7;
	return 0;
}

/*
 * Issue 28, item 4: a file passed to root over a unix socket does not
 * keep its sender's grids charged once the sender let go of it (killed,
 * or closed it); root's own grids on the passed file stay, and so do the
 * sender's while it still holds the file through a dup().
 */
START_TEST(lifetime_passed_fd_charge_returns)
{
	struct pass_arg *pa;
	struct gputbs_submit s;
	struct gputbs_wait w;
	struct holder h;
	int sv[2], fd;

	pa = mmap(NULL, sizeof(*pa), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ck_assert_ptr_ne(pa, MAP_FAILED);
	ck_assert_int_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	*pa = (struct pass_arg){ .mode = _i, .sock = sv[0] };
	hold_start(&h, PASS_UID, 0, child_pass_fd, pa);
	ck_assert_msg(h.result == 0, "%s: step %d", pass_names[_i], h.result);
	fd = dev_adopt(recv_fd(sv[1]));
	/* root's own grid on the passed file is root's */
	gu_grid(&s, 1, 32, FOREVER);
	submit_ok(fd, &s);
	assert_charged(0, 1, 0);
	if (_i == PASS_CLOSED) {
		assert_charged(PASS_UID, 0, 0);
	} else {
		assert_charged(PASS_UID, 4, 64 * 32);
		hold_end(&h);
		assert_charged(PASS_UID, 0, 0);
	}
	/* the sender's grids are gone from the file, root's stays */
	ck_assert_int_eq(gu_wait(fd, pa->forever, 0, 0, NULL), -ENOENT);
	ck_assert_int_eq(gu_wait(fd, 0, GPUTBS_WAIT_ANY, 0, NULL), -ETIME);
	assert_charged(-1, 1, 0);
	gu_grid(&s, 1, 32, 10);
	wait_ok(fd, submit_ok(fd, &s), &w);
	dev_close(fd);
	if (_i == PASS_CLOSED)
		hold_end(&h);
	assert_no_charges();
	close(sv[0]);
	close(sv[1]);
	munmap(pa, sizeof(*pa));
}
END_TEST

/* ---- isolation ------------------------------------------------------------ */

/* A handle of one file is ENOENT for WAIT and BLOCKS on another. */
START_TEST(isolation_other_file_same_process)
{
	int a = dev_open(), b = dev_open();
	__u32 h = recorded_done(a);
	struct gputbs_wait w;

	ck_assert_int_eq(gu_wait(b, h, 0, 0, NULL), -ENOENT);
	ck_assert_int_eq(blocks_call(b, h, 0, 0, 0, 0), -ENOENT);
	/* WAIT_ANY on b sees none of a's grids */
	assert_no_grids(b);
	wait_ok(a, h, &w);
}
END_TEST

struct handle_arg {
	__u32 handle;
};

static int child_other_file(void *arg)
{
	struct handle_arg *ha = arg;
	int fd = gu_open();

	if (fd < 0)
		return 1;
	if (gu_wait(fd, ha->handle, 0, 0, NULL) != -ENOENT)
		return 2;
	if (blocks_call(fd, ha->handle, 0, 0, 0, 0) != -ENOENT)
		return 3;
	if (gu_wait(fd, 0, GPUTBS_WAIT_ANY, 0, NULL) != -ENOENT)
		return 4;
	return 0;
}

/* ... and on a file another process opened, as root or as nobody. */
START_TEST(isolation_other_process)
{
	int a = dev_open();
	struct handle_arg ha = { .handle = recorded_done(a) };
	struct gputbs_wait w;

	ck_assert_int_eq(run_child(child_other_file, &ha, _i), 0);
	wait_ok(a, ha.handle, &w);
}
END_TEST

/* Handles belong to the open file: a dup()ed descriptor shares them. */
START_TEST(isolation_dup_shares_file)
{
	int a = dev_open(), d;
	struct gputbs_submit s;
	struct gputbs_wait w;
	__u32 h;

	d = dup(a);
	ck_assert_int_ge(d, 0);
	gu_grid(&s, 4, 64, 100);
	h = submit_ok(a, &s);
	wait_ok(d, h, &w);
	ck_assert_uint_eq(w.blocks_done, 4);
	ck_assert_int_eq(gu_wait(a, h, 0, 0, NULL), -ENOENT);
	close(d);
}
END_TEST

/* Each file numbers its handles from 1. */
START_TEST(isolation_handles_start_at_one)
{
	int a = dev_open(), b = dev_open();
	struct gputbs_submit s;

	gu_grid(&s, 1, 32, 10);
	ck_assert_uint_eq(submit_ok(a, &s), 1);
	ck_assert_uint_eq(submit_ok(a, &s), 2);
	ck_assert_uint_eq(submit_ok(b, &s), 1);
}
END_TEST

/* nobody may open the device and run grids of the default classes. */
static int child_nobody_runs(void *arg)
{
	static const __u32 classes[] = { GPUTBS_PRIO_DEFAULT, GPUTBS_PRIO_LOW,
					 GPUTBS_PRIO_NORMAL };
	struct gputbs_submit s;
	struct gputbs_wait w;
	int fd = gu_open(), i;

	(void)arg;
	if (fd < 0)
		return 1;
	for (i = 0; i < 3; i++) {
		gu_grid(&s, 8, 64, 100);
		s.prio_class = classes[i];
		if (gu_submit(fd, &s))
			return 10 + i;
		if (gu_wait(fd, s.handle, 0, deadline_in(30 * GU_NS_PER_SEC),
			    &w) || w.blocks_done != 8)
			return 20 + i;
	}
	return 0;
}

START_TEST(isolation_nobody_runs_normal)
{
	ck_assert_int_eq(run_child(child_nobody_runs, NULL, true), 0);
}
END_TEST

/* Loop: class HIGH or REALTIME, 96 or 104 bytes, optionally AT_CYCLE. */
static int child_nobody_class(void *arg)
{
	int i = *(int *)arg, fd = gu_open();
	struct gputbs_submit s;

	if (fd < 0)
		return 1;
	gu_grid(&s, 4, 64, 100);
	s.prio_class = i % 2 ? GPUTBS_PRIO_REALTIME : GPUTBS_PRIO_HIGH;
	if (i / 2 == 2)
		s.flags |= GPUTBS_SUBMIT_AT_CYCLE;
	if ((i / 2 ? gu_submit(fd, &s) : gu_submit96(fd, &s)) != -EPERM)
		return 2;
	if (s.handle)
		return 3;
	if (gu_wait(fd, 0, GPUTBS_WAIT_ANY, 0, NULL) != -ENOENT)
		return 4;
	/* an invalid grid in a privileged class is EINVAL for anyone */
	s.nr_blocks = 0;
	if (gu_submit(fd, &s) != -EINVAL)
		return 5;
	return 0;
}

START_TEST(isolation_nobody_class_eperm)
{
	int i = _i;

	ck_assert_int_eq(run_child(child_nobody_class, &i, true), 0);
}
END_TEST

/* policy_params/: its files are those of the policy selected */
#define GU_PARAMS_DIR		GU_SYSFS "/policy_params"
#define GU_PARAMS_POLICY	"srtf-adaptive"

/*
 * Writable attributes of the misc device (those of policy_params/ with
 * GU_PARAMS_POLICY selected), and the module parameters.
 */
static const char * const root_only[] = {
	GU_SYSFS "/policy", GU_SYSFS "/starve_ns",
	GU_PARAMS_DIR "/share_threshold_ppm", GU_PARAMS_DIR "/share_residency",
	GU_SYSFS "/predictor", GU_PARAMS_DIR "/share_mode",
	GU_PARAMS_DIR "/preempt_ratio_pct", GU_PARAMS_DIR "/preempt_unknown",
	GU_PARAMS_DIR "/single_kernel",
	GU_SYSFS "/device",
	GU_SYSFS "/preempt_mode", GU_SYSFS "/switch_bytes_per_cycle",
	GU_SYSFS "/preempt_budget_low", GU_SYSFS "/preempt_budget_normal",
	GU_SYSFS "/preempt_budget_high", GU_SYSFS "/preempt_budget_realtime",
	GU_SYSFS "/nr_sms", GU_SYSFS "/threads_per_sm",
	GU_SYSFS "/regs_per_sm", GU_SYSFS "/shmem_per_sm",
	GU_SYSFS "/blocks_per_sm", GU_SYSFS "/warps_per_sm",
	GU_SYSFS "/warp_size", GU_SYSFS "/load_knee_warps",
	GU_SYSFS "/timing_model", GU_SYSFS "/block_times",
	GU_SYSFS "/time_scale_ps", GU_SYSFS "/cap_period",
	GU_PARAMS "/max_grids_per_device",
	GU_PARAMS "/max_grids_per_user", GU_PARAMS "/max_bytes_per_user",
	GU_PARAMS "/max_bytes_per_device",
};

#define NR_ROOT_ONLY	(int)(sizeof(root_only) / sizeof(root_only[0]))

/*
 * Select the policy whose parameter @path is, if it is one of
 * policy_params/: true then (the file must exist; the caller selects fifo
 * again with params_policy_done()).
 */
static bool params_policy_for(const char *path)
{
	if (strncmp(path, GU_PARAMS_DIR "/", strlen(GU_PARAMS_DIR "/")))
		return false;
	ck_assert_int_eq(gu_write_attr(GU_SYSFS, "policy", GU_PARAMS_POLICY),
			 0);
	return true;
}

static void params_policy_done(bool selected)
{
	if (selected)
		ck_assert_int_eq(gu_write_attr(GU_SYSFS, "policy", "fifo"), 0);
}

/* Checked teardown: fifo again, after a test that failed half-way too. */
static void teardown_policy(void)
{
	gu_write_attr(GU_SYSFS, "policy", "fifo");
}

static int child_nobody_write(void *arg)
{
	const char *path = arg;
	char buf[256];

	/* the value it has (harmless if the write went through), or 0 */
	if (gu_read_file(path, buf, sizeof(buf)) < 0)
		strcpy(buf, "0");
	if (gu_write_file(path, buf) != -EACCES)
		return 2;
	return 0;
}

START_TEST(isolation_nobody_cannot_write)
{
	bool param = params_policy_for(root_only[_i]);
	struct stat st;

	if (stat(root_only[_i], &st)) {
		ck_assert_msg(!param, "%s absent under %s", root_only[_i],
			      GU_PARAMS_POLICY);
		printf("%s: absent, skipped\n", root_only[_i]);
		return;
	}
	ck_assert_msg(st.st_mode & S_IWUSR, "%s not writable by root",
		      root_only[_i]);
	ck_assert_msg(!(st.st_mode & (S_IWGRP | S_IWOTH)),
		      "%s writable by others", root_only[_i]);
	ck_assert_msg(run_child(child_nobody_write, (void *)root_only[_i],
				true) == 0, "nobody wrote %s", root_only[_i]);
	params_policy_done(param);
}
END_TEST

/*
 * Every file of the device's sysfs directory and of policy_params/ (with
 * GU_PARAMS_POLICY selected): none writable by others.
 */
START_TEST(isolation_no_world_writable_attr)
{
	static const char * const dirs[] = { GU_SYSFS, GU_PARAMS_DIR };
	struct dirent *de;
	char path[512];
	struct stat st;
	int n[2] = { 0, 0 }, ranges = 0, i;
	DIR *d;

	params_policy_for(GU_PARAMS_DIR "/");
	for (i = 0; i < 2; i++) {
		d = opendir(dirs[i]);
		ck_assert_msg(d, "%s: %s", dirs[i], strerror(errno));
		while ((de = readdir(d))) {
			snprintf(path, sizeof(path), "%s/%s", dirs[i],
				 de->d_name);
			if (lstat(path, &st) || !S_ISREG(st.st_mode))
				continue;
			n[i]++;
			ck_assert_msg(!(st.st_mode & (S_IWGRP | S_IWOTH)),
				      "%s is writable by others", path);
			/* <tunable>_range files: read-only, 0444 */
			if (strlen(de->d_name) > 6 &&
			    !strcmp(de->d_name + strlen(de->d_name) - 6,
				    "_range")) {
				ranges++;
				ck_assert_msg(!(st.st_mode & S_IWUSR),
					      "%s is writable", path);
			}
			if (st.st_mode & S_IWUSR)
				ck_assert_msg(run_child(child_nobody_write,
							path, true) == 0,
					      "nobody wrote %s", path);
		}
		closedir(d);
	}
	params_policy_done(true);
	ck_assert_int_gt(n[0], 3);
	/* srtf-adaptive's 6 parameters, each with its _range */
	ck_assert_int_eq(n[1], 12);
	/* and the 9 ranged tunables' (Documentation/ABI) */
	ck_assert_int_eq(ranges, 6 + 9);
}
END_TEST

/* debugfs files of the module are root's only. */
static int child_nobody_debugfs(void *arg)
{
	char buf[64];

	(void)arg;
	return gu_read_file(GU_DEBUGFS "/sms", buf, sizeof(buf)) >= 0;
}

START_TEST(isolation_nobody_no_debugfs)
{
	struct stat st;

	if (stat(GU_DEBUGFS "/sms", &st)) {
		printf("debugfs gputbs/sms absent, skipped\n");
		return;
	}
	ck_assert_int_eq(run_child(child_nobody_debugfs, NULL, true), 0);
}
END_TEST

/* ---- privilege: CAP_SYS_ADMIN, not only uid 0 ----------------------------- */

/* The value @path has, as written back: the policy in brackets. */
static int current_value(const char *path, char *buf, size_t len)
{
	char *b;
	int n = gu_read_file(path, buf, len);

	if (n < 0)
		return n;
	buf[strcspn(buf, "\n")] = '\0';
	b = strchr(buf, '[');
	if (b) {
		b++;
		b[strcspn(b, "]")] = '\0';
		memmove(buf, b, strlen(b) + 1);
	}
	return 0;
}

/* Child: write its current value back to @arg; the errno, 0 if it worked. */
static int child_write_back(void *arg)
{
	const char *path = arg;
	char buf[256];
	int ret;

	if (current_value(path, buf, sizeof(buf)))
		return 99;
	ret = gu_write_file(path, buf);
	return ret < 0 ? -ret : 0;
}

/* Loop modes: which capabilities a uid 0 child keeps, and the result. */
static const struct {
	const char *what;
	__u64 caps;
	int err;
} priv_modes[] = {
	{ "uid 0 without any capability", 0, EPERM },
	{ "uid 0 with every capability but CAP_SYS_ADMIN",
	  ALL_CAPS & ~(1ULL << CAP_SYS_ADMIN), EPERM },
	{ "uid 0 with only CAP_SYS_ADMIN", 1ULL << CAP_SYS_ADMIN, 0 },
};

#define NR_PRIV_MODES	(int)(sizeof(priv_modes) / sizeof(priv_modes[0]))

/*
 * Loop over the writable files and the modes: a uid 0 writer without
 * CAP_SYS_ADMIN gets EPERM and changes nothing, with it alone it writes;
 * real root still writes afterwards.
 */
START_TEST(priv_write_needs_cap_sys_admin)
{
	const char *path = root_only[_i / NR_PRIV_MODES];
	int m = _i % NR_PRIV_MODES, err;
	char before[256], after[256];
	bool param = params_policy_for(path);
	struct stat st;

	if (stat(path, &st)) {
		ck_assert_msg(!param, "%s absent under %s", path,
			      GU_PARAMS_POLICY);
		printf("%s: absent, skipped\n", path);
		return;
	}
	ck_assert_int_eq(current_value(path, before, sizeof(before)), 0);
	err = run_child_as(0, priv_modes[m].caps, child_write_back,
			   (void *)path);
	ck_assert_msg(err == priv_modes[m].err, "%s, writing %s: %s, expected %s",
		      priv_modes[m].what, path, strerror(err),
		      strerror(priv_modes[m].err));
	ck_assert_int_eq(current_value(path, after, sizeof(after)), 0);
	ck_assert_str_eq(after, before);
	ck_assert_int_eq(gu_write_file(path, before), 0);
	params_policy_done(param);
}
END_TEST

/*
 * Every writable file of the device's sysfs directory and of the module's
 * parameters, including ones this test does not know by name: EPERM for
 * a uid 0 writer without capabilities.
 */
START_TEST(priv_capless_root_every_writable_file)
{
	static const char * const dirs[] = { GU_SYSFS, GU_PARAMS,
					     GU_PARAMS_DIR };
	struct dirent *de;
	char path[512];
	struct stat st;
	unsigned int i;
	int n = 0, err;
	DIR *d;

	params_policy_for(GU_PARAMS_DIR "/");
	for (i = 0; i < 3; i++) {
		d = opendir(dirs[i]);
		ck_assert_ptr_nonnull(d);
		while ((de = readdir(d))) {
			snprintf(path, sizeof(path), "%s/%s", dirs[i],
				 de->d_name);
			if (lstat(path, &st) || !S_ISREG(st.st_mode) ||
			    !(st.st_mode & S_IWUSR))
				continue;
			/* the driver core's, for every device */
			if (!strcmp(de->d_name, "uevent"))
				continue;
			n++;
			err = run_child_as(0, 0, child_write_back, path);
			ck_assert_msg(err == EPERM,
				      "capability-less uid 0 writing %s: %s",
				      path, strerror(err));
		}
		closedir(d);
	}
	params_policy_done(true);
	ck_assert_int_ge(n, NR_ROOT_ONLY);
}
END_TEST

/* ---- lifetimes ------------------------------------------------------------- */

/* Every block slot of every SM busy for a long time, on @fd. */
static void fill_device(int fd, const struct gputbs_info *info, __u32 flags)
{
	struct gputbs_submit s;

	gu_grid(&s, info->nr_sms * info->max_blocks_per_sm, 32,
		gu_cycles_for_ns(info, LONG_NS));
	s.flags = flags;
	if (gu_submit(fd, &s))
		_exit(20);
}

/*
 * The device is free: a grid of one block per slot of every SM, each
 * block 1 ms, completes within 5 s (it would wait 20 s behind a grid that
 * was not cancelled; the slack is for a busy TCG host).
 */
static void assert_device_free(void)
{
	int fd = dev_open();
	struct gputbs_info info;
	struct gputbs_submit s;
	struct gputbs_wait w;

	info_get(fd, &info);
	gu_grid(&s, info.nr_sms * info.max_blocks_per_sm, 32,
		gu_cycles_for_ns(&info, GU_NS_PER_MS));
	ck_assert_int_eq(gu_wait(fd, submit_ok(fd, &s), 0,
				 deadline_in(5 * GU_NS_PER_SEC), &w), 0);
	ck_assert_uint_eq(w.blocks_done, s.nr_blocks);
	dev_close(fd);
}

enum victim_mode { V_PAUSE, V_WAIT, V_WAIT_ANY, V_POLL, V_BUSY_SUBMIT,
		   NR_VICTIM_MODES };

static const char * const victim_names[] = {
	"pause()", "WAIT", "WAIT_ANY", "poll()", "submitting in a loop",
};

/*
 * A process with a running grid filling the device, a recorded grid
 * queued behind it, one arriving 10 s from now and one ARRAY grid, on two
 * files; it tells the parent through @pipefd, then blocks as @mode says.
 */
static int victim(int mode, int *pipefd)
{
	struct gputbs_info info;
	struct gputbs_submit s;
	struct pollfd pfd;
	static __u64 d[64];
	int a = gu_open(), b = gu_open(), i;

	if (a < 0 || b < 0 || gu_ioctl(a, GPUTBS_IOCTL_INFO, &info))
		return 10;
	fill_device(a, &info, 0);
	fill_device(a, &info, GPUTBS_SUBMIT_RECORD_BLOCKS);
	gu_grid(&s, 30, 64, 1000);
	s.flags = GPUTBS_SUBMIT_AT_CYCLE;
	s.arrival_cycle = gu_now_cycle(&info) +
			  gu_cycles_for_ns(&info, 10 * GU_NS_PER_SEC);
	if (gu_submit(b, &s))
		return 11;
	for (i = 0; i < 64; i++)
		d[i] = 1000 + i;
	gu_grid(&s, 64, 128, 0);
	s.work_model = GPUTBS_WORK_ARRAY;
	s.nr_durations = 64;
	s.durations_ptr = (__u64)(uintptr_t)d;
	if (gu_submit(b, &s))
		return 12;
	if (write(pipefd[1], "x", 1) != 1)
		return 13;
	switch (mode) {
	case V_PAUSE:
		pause();
		break;
	case V_WAIT:
		gu_wait(a, 1, 0, deadline_in(60 * GU_NS_PER_SEC), NULL);
		break;
	case V_WAIT_ANY:
		gu_wait(b, 0, GPUTBS_WAIT_ANY,
			deadline_in(60 * GU_NS_PER_SEC), NULL);
		break;
	case V_POLL:
		pfd = (struct pollfd){ .fd = a, .events = POLLIN };
		poll(&pfd, 1, 60000);
		break;
	case V_BUSY_SUBMIT:
		for (;;) {
			gu_grid(&s, 100, 64, 100000);
			if (gu_submit96(b, &s) == -EAGAIN)
				gu_wait(b, 0, GPUTBS_WAIT_ANY, 0, NULL);
		}
	}
	return 14;
}

/* SIGKILL a process with grids in every state: the SMs are free at once. */
START_TEST(lifetime_sigkill)
{
	int pipefd[2], status;
	__u64 t0;
	pid_t pid;
	char c;

	ck_assert_int_eq(pipe(pipefd), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (!pid)
		_exit(victim(_i, pipefd));
	ck_assert_int_eq(read(pipefd[0], &c, 1), 1);
	gu_sleep_ns(50 * GU_NS_PER_MS);	/* let it block */
	t0 = gu_now_ns();
	ck_assert_int_eq(kill(pid, SIGKILL), 0);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL,
		      "victim in %s: status %#x", victim_names[_i], status);
	ck_assert_msg(gu_now_ns() - t0 < 5 * GU_NS_PER_SEC,
		      "victim in %s took %llu ms to die", victim_names[_i],
		      (unsigned long long)(gu_now_ns() - t0) / GU_NS_PER_MS);
	assert_device_free();
	close(pipefd[0]);
	close(pipefd[1]);
}
END_TEST

/* Eight such processes killed at once. */
START_TEST(lifetime_sigkill_many)
{
	enum { N = 8 };
	int pipefd[2], status, i;
	pid_t pid[N];
	char c;

	ck_assert_int_eq(pipe(pipefd), 0);
	for (i = 0; i < N; i++) {
		pid[i] = fork();
		ck_assert_int_ge(pid[i], 0);
		if (!pid[i])
			_exit(victim(i % NR_VICTIM_MODES, pipefd));
	}
	for (i = 0; i < N; i++)
		ck_assert_int_eq(read(pipefd[0], &c, 1), 1);
	for (i = 0; i < N; i++)
		kill(pid[i], SIGKILL);
	for (i = 0; i < N; i++) {
		ck_assert_int_eq(waitpid(pid[i], &status, 0), pid[i]);
		ck_assert(WIFSIGNALED(status));
	}
	assert_device_free();
	close(pipefd[0]);
	close(pipefd[1]);
}
END_TEST

/* A process that exits without closing cancels its grids just the same. */
static int child_exit_with_grids(void *arg)
{
	struct gputbs_info info;
	int fd = gu_open();

	(void)arg;
	if (fd < 0 || gu_ioctl(fd, GPUTBS_IOCTL_INFO, &info))
		return 1;
	fill_device(fd, &info, GPUTBS_SUBMIT_RECORD_BLOCKS);
	fill_device(fd, &info, 0);
	return 0;	/* exit() closes the file */
}

START_TEST(lifetime_exit_without_close)
{
	ck_assert_int_eq(run_child(child_exit_with_grids, NULL, false), 0);
	assert_device_free();
}
END_TEST

/* A forked child shares the file: its exit cancels nothing. */
START_TEST(lifetime_fork_child_exit_keeps_grids)
{
	int fd = dev_open(), status;
	struct gputbs_submit s;
	struct gputbs_wait w;
	pid_t pid;
	__u32 h;

	gu_grid(&s, 30, 64, 2000);
	h = submit_ok(fd, &s);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (!pid)
		_exit(0);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	wait_ok(fd, h, &w);
	ck_assert_uint_eq(w.blocks_done, 30);
}
END_TEST

struct waiter {
	int fd;
	__u32 handle;
	int ret;
	__u32 blocks_done;
};

static void *waiter_fn(void *arg)
{
	struct waiter *wt = arg;
	struct gputbs_wait w;

	wt->ret = gu_wait(wt->fd, wt->handle, 0,
			  deadline_in(30 * GU_NS_PER_SEC), &w);
	wt->blocks_done = w.blocks_done;
	return NULL;
}

/*
 * close() of a file while another thread waits on it: the file lives
 * until the wait returns, which then succeeds normally.
 */
START_TEST(lifetime_close_during_wait)
{
	struct gputbs_info info;
	struct waiter wt;
	struct gputbs_submit s;
	pthread_t th;
	int fd = gu_open();

	ck_assert_int_ge(fd, 0);
	info_get(fd, &info);
	gu_grid(&s, 15, 32, gu_cycles_for_ns(&info, 300 * GU_NS_PER_MS));
	wt = (struct waiter){ .fd = fd, .handle = submit_ok(fd, &s) };
	ck_assert_int_eq(pthread_create(&th, NULL, waiter_fn, &wt), 0);
	gu_sleep_ns(50 * GU_NS_PER_MS);
	ck_assert_int_eq(close(fd), 0);
	ck_assert_int_eq(pthread_join(th, NULL), 0);
	ck_assert_int_eq(wt.ret, 0);
	ck_assert_uint_eq(wt.blocks_done, 15);
}
END_TEST

static volatile sig_atomic_t nr_signals;

static void on_signal(int sig)
{
	(void)sig;
	nr_signals++;
}

/* SIGALRM every ms with SA_RESTART: the kernel restarts WAIT itself. */
static void signal_storm(bool on)
{
	struct itimerval it = {
		.it_interval = { .tv_usec = on ? 1000 : 0 },
		.it_value = { .tv_usec = on ? 1000 : 0 },
	};
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on ? on_signal : SIG_IGN;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	if (on) {
		nr_signals = 0;
		ck_assert_int_eq(sigaction(SIGALRM, &sa, NULL), 0);
	}
	/* the timer first: no SIGALRM may find the default action */
	ck_assert_int_eq(setitimer(ITIMER_REAL, &it, NULL), 0);
	if (!on)
		ck_assert_int_eq(sigaction(SIGALRM, &sa, NULL), 0);
}

/* Raw ioctl, SA_RESTART: no EINTR, the grid is reaped. */
START_TEST(lifetime_wait_sa_restart_completes)
{
	int fd = dev_open(), ret;
	__u32 h = submit_long(fd, 300 * GU_NS_PER_MS);
	struct gputbs_wait w;

	signal_storm(true);
	ret = gu_wait(fd, h, 0, deadline_in(30 * GU_NS_PER_SEC), &w);
	signal_storm(false);
	ck_assert_msg(!ret, "WAIT: %s", strerror(-ret));
	ck_assert_uint_eq(w.blocks_done, 1);
	ck_assert_int_gt(nr_signals, 2);
}
END_TEST

/* Raw ioctl, SA_RESTART: ETIME at the absolute deadline, not later. */
START_TEST(lifetime_wait_sa_restart_deadline)
{
	int fd = dev_open(), ret;
	__u32 h = submit_long(fd, 10 * GU_NS_PER_SEC);
	__s64 deadline = deadline_in(300 * GU_NS_PER_MS);
	__u64 end;

	signal_storm(true);
	ret = gu_wait(fd, _i ? 0 : h, _i ? GPUTBS_WAIT_ANY : 0, deadline,
		      NULL);
	end = gu_now_ns();
	signal_storm(false);
	ck_assert_int_eq(ret, -ETIME);
	ck_assert_int_gt(nr_signals, 2);	/* ~300 unless the host is busy */
	ck_assert_uint_ge(end, (__u64)deadline);
	ck_assert_msg(end - deadline < 700 * GU_NS_PER_MS,
		      "ETIME %llu ms after the deadline",
		      (unsigned long long)(end - deadline) / GU_NS_PER_MS);
}
END_TEST

/* SIGSTOP/SIGCONT of a waiter: its deadline stays absolute. */
static int child_wait_deadline(void *arg)
{
	int fd = gu_open(), ret;
	__s64 deadline;
	struct gputbs_info info;
	struct gputbs_submit s;

	(void)arg;
	if (fd < 0 || gu_ioctl(fd, GPUTBS_IOCTL_INFO, &info))
		return 1;
	gu_grid(&s, 1, 32, gu_cycles_for_ns(&info, 10 * GU_NS_PER_SEC));
	if (gu_submit(fd, &s))
		return 2;
	deadline = deadline_in(400 * GU_NS_PER_MS);
	ret = gu_wait(fd, s.handle, 0, deadline, NULL);
	if (ret != -ETIME)
		return 3;
	return 0;
}

START_TEST(lifetime_wait_sigstop_sigcont)
{
	int status;
	pid_t pid = fork();

	ck_assert_int_ge(pid, 0);
	if (!pid)
		_exit(child_wait_deadline(NULL));
	gu_sleep_ns(100 * GU_NS_PER_MS);
	kill(pid, SIGSTOP);
	gu_sleep_ns(100 * GU_NS_PER_MS);
	kill(pid, SIGCONT);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(WIFEXITED(status) && !WEXITSTATUS(status),
		      "status %#x", status);
}
END_TEST

/* The module cannot be unloaded while a file of the device is open. */
START_TEST(lifetime_unload_refused_while_open)
{
	int fd = dev_open(), other;
	struct gputbs_submit s;
	struct gputbs_wait w;

	submit_long(fd, LONG_NS);
	errno = 0;
	ck_assert_int_eq(syscall(SYS_delete_module, "gputbs", O_NONBLOCK), -1);
	ck_assert_msg(errno == EWOULDBLOCK || errno == EBUSY,
		      "delete_module: %s", strerror(errno));
	/* still fully working */
	other = dev_open();
	gu_grid(&s, 4, 64, 100);
	wait_ok(other, submit_ok(other, &s), &w);
	ck_assert_uint_eq(w.blocks_done, 4);
}
END_TEST

/* ---- fan-out ---------------------------------------------------------------- */

/*
 * Issue 28's fan-out, scaled down: one grid A with FANOUT_N grids waiting
 * AFTER it (gap 0) and FANOUT_N grids queued to arrive later, all on one
 * file.  A's end releases every dependent in one event; the longest hold
 * of the device lock that debugfs gputbs/sync reports (max_ns, every
 * slice since the module was loaded) must stay under FANOUT_BOUND_NS.
 * With the linear scan of the arrivals each dependent walked the
 * FANOUT_N later arrivals: FANOUT_N^2 = 36 million steps in that one
 * event (at 4000, 16 million: 0.72 s on the debug kernel, 1.4 s on the
 * stock one beside a kernel build); with the arrival tree it is
 * O(FANOUT_N log n), milliseconds (Documentation/reliability.rst,
 * "Bounded work under the device lock").
 *
 * Needs the module loaded with max_grids_per_fd >= 2 FANOUT_N + 1 (the
 * suite has the case only then: gputbs-reliability loads it so); raises
 * max_grids_per_device to that if it is lower and puts it back.
 */
#define FANOUT_N		6000
#define FANOUT_BOUND_NS		(250 * GU_NS_PER_MS)

/*
 * The fan-out's size: FANOUT_N, or $GPUTBS_FANOUT_N (1..32767) for a
 * measurement by hand at the 16,000 (with max_grids_per_fd of
 * at least twice that, plus one).
 */
static __u32 fanout_n(void)
{
	const char *env = getenv("GPUTBS_FANOUT_N");
	unsigned long n = env ? strtoul(env, NULL, 10) : 0;

	return n && n < 32768 ? (__u32)n : FANOUT_N;
}

/* A number of debugfs gputbs/sync ("NAME VALUE" lines). */
static __u64 sync_value(const char *name)
{
	char buf[512], *p;
	size_t len = strlen(name);

	ck_assert_int_gt(gu_read_file(GU_DEBUGFS "/sync", buf, sizeof(buf)), 0);
	for (p = buf; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (!strncmp(p, name, len) && p[len] == ' ')
			return strtoull(p + len + 1, NULL, 10);
	ck_abort_msg("no %s in gputbs/sync", name);
	return 0;
}

static bool fanout_enabled(void)
{
	__u64 v;

	return !gu_read_u64(GU_PARAMS, "max_grids_per_fd", &v) &&
	       v >= 2 * fanout_n() + 1;
}

static void setup_fanout(void)
{
	setup_limits();
	if (saved_dev_limit < 2 * fanout_n() + 1)
		set_dev_limit(2 * fanout_n() + 1);
}

START_TEST(fanout_release_one_event_bounded)
{
	int fd = dev_open();
	struct gputbs_info info;
	struct gputbs_submit s;
	struct gputbs_wait w, wa;
	__u64 t0, t_later, run, later_at, before, after;
	__u32 n = fanout_n(), a, i;

	info_get(fd, &info);
	/* the later arrivals: an hour ahead, two per cycle; never run */
	later_at = gu_now_cycle(&info) + gu_cycles_for_ns(&info,
							   3600 * GU_NS_PER_SEC);
	t0 = gu_now_ns();
	for (i = 0; i < n; i++) {
		gu_grid(&s, 1, 32, 1);
		s.flags = GPUTBS_SUBMIT_AT_CYCLE;
		s.arrival_cycle = later_at + i / 2;
		submit_ok(fd, &s);
	}
	t_later = gu_now_ns() - t0;
	/* A runs three times as long as those submissions took, and 0.5 s */
	run = 3 * t_later + 500 * GU_NS_PER_MS;
	gu_grid(&s, 1, 32, gu_cycles_for_ns(&info, run));
	a = submit_ok(fd, &s);
	for (i = 0; i < n; i++) {
		gu_grid(&s, 1, 32, 1);
		s.flags = GPUTBS_SUBMIT_AFTER;
		s.after_handle = a;
		s.after_cycles = 0;
		submit_ok(fd, &s);
	}
	ck_assert_msg(gu_wait(fd, a, 0, 0, NULL) == -ETIME,
		      "A ended before its %u dependents were submitted", n);
	before = sync_value("max_ns");
	wait_ok(fd, a, &w);
	/* every dependent arrives at A's end and runs */
	for (i = 0; i < n; i++) {
		ck_assert_int_eq(gu_wait(fd, 0, GPUTBS_WAIT_ANY,
					 deadline_in(60 * GU_NS_PER_SEC), &wa),
				 0);
		ck_assert_uint_eq(wa.submit_cycle, w.end_cycle);
	}
	after = sync_value("max_ns");
	printf("fanout: %u dependents and %u later arrivals, %llu ms; longest hold %llu us before A's end, %llu us after\n",
	       n, n, (unsigned long long)((gu_now_ns() - t0) / GU_NS_PER_MS),
	       (unsigned long long)(before / 1000),
	       (unsigned long long)(after / 1000));
	ck_assert_msg(after < FANOUT_BOUND_NS,
		      "the device lock was held %llu us (bound %llu us)",
		      (unsigned long long)(after / 1000),
		      (unsigned long long)(FANOUT_BOUND_NS / 1000));
	dev_close(fd);	/* cancels the later arrivals */
}
END_TEST

/* ---- suite ----------------------------------------------------------------- */

static TCase *tcase(Suite *s, const char *name, int timeout)
{
	TCase *tc = tcase_create(name);

	tcase_add_checked_fixture(tc, setup_fds, teardown_fds);
	tcase_set_timeout(tc, timeout);
	suite_add_tcase(s, tc);
	return tc;
}

static Suite *hygiene_suite(void)
{
	Suite *s = suite_create("gputbs-hygiene");
	TCase *tc;

	tc = tcase(s, "enotty", 10);
	tcase_add_loop_test(tc, enotty_unknown_command, 0, NR_ENOTTY);

	tc = tcase(s, "submit", 30);
	tcase_add_loop_test(tc, submit_valid_baseline, 0, 2 * NR_VARIANTS);
	tcase_add_loop_test(tc, submit_invalid_field, 0,
			    NR_SUBMIT_CASES * NR_VARIANTS);
	tcase_add_loop_test(tc, submit_unknown_flag_bit, 6, 32);
	tcase_add_loop_test(tc, submit_timeout_field, 0, NR_TIMEOUT_CASES);
	tcase_add_loop_test(tc, submit_model_field, 0, NR_MODEL_CASES);
	tcase_add_loop_test(tc, submit_invalid_arrival, 0, NR_ARRIVAL_CASES);
	tcase_add_test(tc, submit96_at_cycle_einval);
	tcase_add_test(tc, submit96_ignores_tail);
	tcase_add_test(tc, submit_input_handle_ignored);

	tc = tcase(s, "wait-blocks", 30);
	tcase_add_loop_test(tc, wait_unknown_flag_bit, 1, 32);
	tcase_add_loop_test(tc, wait_past_deadline_returns_at_once, 0,
			    2 * NR_PAST);
	tcase_add_loop_test(tc, blocks_unknown_flag_bit, 0, 32);
	tcase_add_loop_test(tc, blocks_pad_bit, 0, 32);
	tcase_add_test(tc, blocks_flags_before_handle);

	tc = tcase(s, "efault", 30);
	tcase_add_loop_test(tc, efault_info, 0, NR_PTRS);
	tcase_add_loop_test(tc, efault_submit_unreadable, 0, 10);
	tcase_add_loop_test(tc, efault_submit_readonly_grid_runs, 0, 2);
	tcase_add_loop_test(tc, efault_wait_unreadable, 0, 5);
	tcase_add_test(tc, efault_wait_readonly_reaps);
	tcase_add_loop_test(tc, efault_blocks_struct, 0, 5);
	tcase_add_loop_test(tc, efault_blocks_records, 0, NR_PTRS);

	tc = tcase_create("limits");
	tcase_add_checked_fixture(tc, setup_limits, teardown_limits);
	tcase_set_timeout(tc, 60);
	suite_add_tcase(s, tc);
	tcase_add_test(tc, limit_params_match_info);
	tcase_add_loop_test(tc, limit_device_param_invalid, 0,
			    (int)(sizeof(bad_limits) / sizeof(bad_limits[0])));
	tcase_add_test(tc, limit_device_param_range);
	tcase_add_test(tc, limit_device_enospc_other_file);
	tcase_add_test(tc, limit_device_enospc_same_file);
	tcase_add_test(tc, limit_device_reap_makes_room);
	tcase_add_test(tc, limit_device_close_makes_room);
	tcase_add_test(tc, limit_device_sigkill_makes_room);
	tcase_add_test(tc, limit_fd_eagain_before_enospc);
	tcase_add_test(tc, limit_device_lowered_keeps_grids);
	tcase_add_test(tc, limit_device_rejected_not_counted);

	tc = tcase_create("user-limits");
	tcase_add_checked_fixture(tc, setup_user_limits, teardown_user_limits);
	tcase_set_timeout(tc, 60);
	suite_add_tcase(s, tc);
	tcase_add_loop_test(tc, limit_user_params_invalid, 0,
			    NR_BAD_LIMITS + 2 * NR_BAD_BYTES);
	tcase_add_test(tc, limit_user_params_range);
	tcase_add_test(tc, limit_user_defaults_below_device);
	tcase_add_test(tc, limit_user_edquot_others_submit);
	tcase_add_test(tc, limit_user_reap_close_make_room);
	tcase_add_test(tc, limit_user_enobufs);
	tcase_add_test(tc, limit_device_bytes_enomem);
	tcase_add_loop_test(tc, limit_user_cap_sys_resource, 0, 2);
	tcase_add_test(tc, limit_user_order);
	tcase_add_loop_test(tc, limit_reserve_root_gets_last, 0, 2);
	tcase_add_test(tc, limit_reserve_params);
	tcase_add_loop_test(tc, lifetime_passed_fd_charge_returns, 0,
			    NR_PASS_MODES);

	tc = tcase(s, "isolation", 30);
	tcase_add_checked_fixture(tc, NULL, teardown_policy);
	tcase_add_test(tc, isolation_other_file_same_process);
	tcase_add_loop_test(tc, isolation_other_process, 0, 2);
	tcase_add_test(tc, isolation_dup_shares_file);
	tcase_add_test(tc, isolation_handles_start_at_one);
	tcase_add_test(tc, isolation_nobody_runs_normal);
	tcase_add_loop_test(tc, isolation_nobody_class_eperm, 0, 6);
	tcase_add_loop_test(tc, isolation_nobody_cannot_write, 0,
			    NR_ROOT_ONLY);
	tcase_add_test(tc, isolation_no_world_writable_attr);
	tcase_add_test(tc, isolation_nobody_no_debugfs);

	tc = tcase(s, "privilege", 60);
	tcase_add_checked_fixture(tc, NULL, teardown_policy);
	tcase_add_loop_test(tc, priv_write_needs_cap_sys_admin, 0,
			    NR_ROOT_ONLY * NR_PRIV_MODES);
	tcase_add_test(tc, priv_capless_root_every_writable_file);

	tc = tcase(s, "lifetime", 60);
	tcase_add_loop_test(tc, lifetime_sigkill, 0, NR_VICTIM_MODES);
	tcase_add_test(tc, lifetime_sigkill_many);
	tcase_add_test(tc, lifetime_exit_without_close);
	tcase_add_test(tc, lifetime_fork_child_exit_keeps_grids);
	tcase_add_test(tc, lifetime_close_during_wait);
	tcase_add_test(tc, lifetime_wait_sa_restart_completes);
	tcase_add_loop_test(tc, lifetime_wait_sa_restart_deadline, 0, 2);
	tcase_add_test(tc, lifetime_wait_sigstop_sigcont);
	tcase_add_test(tc, lifetime_unload_refused_while_open);

	if (fanout_enabled()) {
		tc = tcase_create("fanout");
		tcase_add_checked_fixture(tc, setup_fanout, teardown_limits);
		tcase_set_timeout(tc, 300);
		suite_add_tcase(s, tc);
		tcase_add_test(tc, fanout_release_one_event_bounded);
	}
	return s;
}

int main(int argc, char **argv)
{
	SRunner *sr;
	int failed;

	sr = srunner_create(hygiene_suite());
	/*
	 * One process for all tests unless CK_FORK says otherwise: a fork
	 * per test costs 0.2 s in the debug guest, five times the tests.
	 * Every test cleans up in its checked teardown either way.
	 */
	if (!getenv("CK_FORK"))
		srunner_set_fork_status(sr, CK_NOFORK);
	if (argc > 1 && !strcmp(argv[1], "--tap"))
		srunner_set_tap(sr, "-");
	else if (argc > 1) {
		fputs("Usage: gputbs-hygiene-test [--tap]\n", stderr);
		return 2;
	}
	srunner_run_all(sr, getenv("CK_VERBOSITY") ? CK_ENV : CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
