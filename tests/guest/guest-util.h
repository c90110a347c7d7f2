/* SPDX-License-Identifier: GPL-2.0 */
/*
 * guest-util.h - helpers shared by the in-guest reliability programs
 * (gputbs-hygiene-test, gputbs-stress, gputbs-failnth, gputbs-fuzz): raw
 * ioctls without libgputbs, both SUBMIT commands, sysfs and module
 * parameters, pages that fault, dropping privileges, the per-user
 * charges of debugfs gputbs/users.
 *
 * Everything is static inline: each program includes it once.
 *
 * Copyright (C) 2026 The gputbs developers
 */
#ifndef GPUTBS_GUEST_UTIL_H
#define GPUTBS_GUEST_UTIL_H

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <linux/capability.h>
#include <linux/gputbs.h>

#define GU_NS_PER_MS	1000000LL
#define GU_NS_PER_SEC	1000000000LL
#define GU_DEVICE	"/dev/gputbs"
#define GU_SYSFS	"/sys/class/misc/gputbs"
#define GU_PARAMS	"/sys/module/gputbs/parameters"
#define GU_DEBUGFS	"/sys/kernel/debug/gputbs"
#define GU_NOBODY	65534

/* The 96-byte SUBMIT command of programs built before arrival_cycle. */
#define GU_IOCTL_SUBMIT_VER0 \
	_IOC(_IOC_READ | _IOC_WRITE, GPUTBS_IOCTL_BASE, \
	     _IOC_NR(GPUTBS_IOCTL_SUBMIT), GPUTBS_SUBMIT_SIZE_VER0)

/* The 104-byte SUBMIT command of programs built before timeout_cycles. */
#define GU_IOCTL_SUBMIT_VER1 \
	_IOC(_IOC_READ | _IOC_WRITE, GPUTBS_IOCTL_BASE, \
	     _IOC_NR(GPUTBS_IOCTL_SUBMIT), GPUTBS_SUBMIT_SIZE_VER1)
#define GU_IOCTL_SUBMIT_VER2 \
	_IOC(_IOC_READ | _IOC_WRITE, GPUTBS_IOCTL_BASE, \
	     _IOC_NR(GPUTBS_IOCTL_SUBMIT), GPUTBS_SUBMIT_SIZE_VER2)

static inline __u64 gu_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (__u64)ts.tv_sec * GU_NS_PER_SEC + ts.tv_nsec;
}

static inline void gu_sleep_ns(__u64 ns)
{
	struct timespec ts = {
		.tv_sec = ns / GU_NS_PER_SEC,
		.tv_nsec = ns % GU_NS_PER_SEC,
	};

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* ioctl(): 0 or -errno. */
static inline int gu_ioctl(int fd, unsigned long cmd, void *arg)
{
	return ioctl(fd, cmd, arg) ? -errno : 0;
}

static inline int gu_open(void)
{
	return open(GU_DEVICE, O_RDWR | O_CLOEXEC);
}

/* SUBMIT with the current command (the timing members included, 136 bytes). */
static inline int gu_submit(int fd, struct gputbs_submit *s)
{
	return gu_ioctl(fd, GPUTBS_IOCTL_SUBMIT, s);
}

/* SUBMIT with the 112-byte command: timeout_cycles, no timing members. */
static inline int gu_submit112(int fd, struct gputbs_submit *s)
{
	return gu_ioctl(fd, GU_IOCTL_SUBMIT_VER2, s);
}

/* SUBMIT with the 104-byte command: arrival_cycle, no timeout_cycles. */
static inline int gu_submit104(int fd, struct gputbs_submit *s)
{
	return gu_ioctl(fd, GU_IOCTL_SUBMIT_VER1, s);
}

/* SUBMIT with the 96-byte command: only the first 96 bytes are used. */
static inline int gu_submit96(int fd, struct gputbs_submit *s)
{
	return gu_ioctl(fd, GU_IOCTL_SUBMIT_VER0, s);
}

/* WAIT for @handle (or any grid with @flags GPUTBS_WAIT_ANY). */
static inline int gu_wait(int fd, __u32 handle, __u32 flags, __s64 deadline,
			  struct gputbs_wait *out)
{
	struct gputbs_wait w;
	int ret;

	memset(&w, 0, sizeof(w));
	w.handle = handle;
	w.flags = flags;
	w.timeout_ns = deadline;
	ret = gu_ioctl(fd, GPUTBS_IOCTL_WAIT, &w);
	if (out)
		*out = w;
	return ret;
}

/* Emulated cycles that take about @ns of wall time, at least 1. */
static inline __u64 gu_cycles_for_ns(const struct gputbs_info *info, __u64 ns)
{
	__u64 c = (__u64)((__uint128_t)ns * 1000 / info->time_scale_ps);

	if (c > (1ULL << 40))
		c = 1ULL << 40;
	return c ? c : 1;
}

/* The device's current emulated cycle. */
static inline __u64 gu_now_cycle(const struct gputbs_info *info)
{
	return (__u64)((__uint128_t)(gu_now_ns() - info->epoch_ns) * 1000 /
		       info->time_scale_ps);
}

/* A valid DIST grid of @blocks blocks of @threads threads, @cycles each. */
static inline void gu_grid(struct gputbs_submit *s, __u32 blocks,
			   __u32 threads, __u64 cycles)
{
	memset(s, 0, sizeof(*s));
	s->nr_blocks = blocks;
	s->threads_per_block = threads;
	s->work_model = GPUTBS_WORK_DIST;
	s->block_cycles = cycles;
	snprintf(s->label, sizeof(s->label), "reliability");
}

/* Read a whole small file into @buf (NUL-terminated): length or -errno. */
static inline int gu_read_file(const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	if (n < 0) {
		n = -errno;
		close(fd);
		return n;
	}
	buf[n] = '\0';
	close(fd);
	return n;
}

/* Write @val to @path in one write(): 0 or -errno. */
static inline int gu_write_file(const char *path, const char *val)
{
	ssize_t n;
	int fd, ret;

	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, val, strlen(val));
	ret = n < 0 ? -errno : 0;
	close(fd);
	return ret;
}

/* Attribute @name of directory @dir as an unsigned number, or -errno. */
static inline int gu_read_u64(const char *dir, const char *name, __u64 *val)
{
	char path[256], buf[64], *end;
	int ret;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	ret = gu_read_file(path, buf, sizeof(buf));
	if (ret < 0)
		return ret;
	errno = 0;
	*val = strtoull(buf, &end, 10);
	if (errno || end == buf)
		return -EINVAL;
	return 0;
}

static inline int gu_write_attr(const char *dir, const char *name,
				const char *val)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return gu_write_file(path, val);
}

/* A page that is not mapped (mapped, then unmapped). */
static inline void *gu_unmapped_page(void)
{
	long page = sysconf(_SC_PAGESIZE);
	void *p = mmap(NULL, page, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	munmap(p, page);
	return p;
}

/* A zeroed page that may be read but not written. */
static inline void *gu_readonly_page(void)
{
	void *p = mmap(NULL, sysconf(_SC_PAGESIZE), PROT_READ,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

/*
 * Two pages, the second unmapped: returns a pointer @bytes before the end
 * of the first, so that an object of more than @bytes bytes there straddles
 * into the hole.
 */
static inline void *gu_straddling(size_t bytes)
{
	long page = sysconf(_SC_PAGESIZE);
	char *p = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	munmap(p + page, page);
	memset(p, 0, page);
	return p + page - bytes;
}

/* Become user nobody (no capabilities left): 0 or -errno. */
static inline int gu_become_nobody(void)
{
	if (setgroups(0, NULL) || setgid(GU_NOBODY) || setuid(GU_NOBODY))
		return -errno;
	return 0;
}

/* Become user @uid, group @uid, no supplementary groups: 0 or -errno. */
static inline int gu_become_user(uid_t uid)
{
	if (setgroups(0, NULL) || setgid(uid) || setuid(uid))
		return -errno;
	return 0;
}

/*
 * Keep only the capabilities of @keep (a mask of 1ULL << CAP_*) in every
 * set and in the bounding set; the uid stays what it is: 0 or -errno.
 */
static inline int gu_keep_caps(__u64 keep)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];
	int cap, i;

	for (cap = 0; cap < 64; cap++)
		if (!(keep & (1ULL << cap)) && prctl(PR_CAPBSET_READ, cap) > 0 &&
		    prctl(PR_CAPBSET_DROP, cap))
			return -errno;
	memset(data, 0, sizeof(data));
	if (syscall(SYS_capget, &hdr, data))
		return -errno;
	for (i = 0; i < _LINUX_CAPABILITY_U32S_3; i++) {
		__u32 mask = (__u32)(keep >> (32 * i));

		data[i].effective &= mask;
		data[i].permitted &= mask;
		data[i].inheritable &= mask;
	}
	if (syscall(SYS_capset, &hdr, data))
		return -errno;
	memset(data, 0, sizeof(data));
	if (syscall(SYS_capget, &hdr, data))
		return -errno;
	for (i = 0; i < _LINUX_CAPABILITY_U32S_3; i++)
		if (data[i].effective & ~(__u32)(keep >> (32 * i)))
			return -EPERM;
	return 0;
}

/*
 * The per-user charges of debugfs gputbs/users: @uid's grids and bytes
 * (0 and 0 when it holds none), or with @uid -1 the device's totals.
 * 0, or -errno (-ENOENT: no such file).
 */
static inline int gu_charges(long long uid, __u64 *grids, __u64 *bytes)
{
	char buf[16384], *line, *save = NULL;
	unsigned long long u, g, b;
	int ret;

	ret = gu_read_file(GU_DEBUGFS "/users", buf, sizeof(buf));
	if (ret < 0)
		return ret;
	*grids = *bytes = 0;
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (uid < 0 && sscanf(line, "total users=%llu grids=%llu bytes=%llu",
				      &u, &g, &b) == 3) {
			*grids = g;
			*bytes = b;
			return 0;
		}
		if (uid >= 0 && sscanf(line, "%llu %llu %llu", &u, &g, &b) == 3 &&
		    u == (unsigned long long)uid) {
			*grids = g;
			*bytes = b;
			return 0;
		}
	}
	return uid < 0 ? -EINVAL : 0;
}

/* A small, fast PRNG (xorshift64*), one state per process. */
static inline __u64 gu_rand(__u64 *state)
{
	__u64 x = *state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * 0x2545F4914F6CDD1DULL;
}

/* Uniform in [lo, hi]. */
static inline __u64 gu_range(__u64 *state, __u64 lo, __u64 hi)
{
	return lo + gu_rand(state) % (hi - lo + 1);
}

#endif /* GPUTBS_GUEST_UTIL_H */
