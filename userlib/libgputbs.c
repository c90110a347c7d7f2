// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * libgputbs.c - userspace library of /dev/gputbs.
 *
 * Copyright (C) 2026 The gputbs developers
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "gputbs.h"

struct gputbs {
	int fd;
	/* GPUTBS_IOCTL_INFO's features, read at the first submission */
	bool features_known;
	__u64 features;
};

/*
 * Like libdrm's drmIoctl(): restart a call interrupted by a signal.  Only
 * EINTR is retried: -EAGAIN from SUBMIT means the fd's grid limit was
 * reached, which retrying would turn into a busy loop.  WAIT carries an
 * absolute deadline, so restarting it does not extend the timeout.
 */
static int gputbs_ioctl(int fd, unsigned long request, void *arg)
{
	int ret;

	do {
		ret = ioctl(fd, request, arg);
	} while (ret == -1 && errno == EINTR);
	return ret == -1 ? -errno : 0;
}

GPUTBS_API int gputbs_open(const char *path, int flags, struct gputbs **out)
{
	struct gputbs *g;
	int err;

	if (!out)
		return -EINVAL;
	*out = NULL;
	if (flags)
		return -EINVAL;
	g = calloc(1, sizeof(*g));
	if (!g)
		return -ENOMEM;
	g->fd = open(path ? path : GPUTBS_DEFAULT_PATH, O_RDWR | O_CLOEXEC);
	if (g->fd < 0) {
		err = -errno;
		free(g);
		return err;
	}
	*out = g;
	return 0;
}

GPUTBS_API void gputbs_close(struct gputbs *g)
{
	int saved = errno;

	if (!g)
		return;
	close(g->fd);
	free(g);
	errno = saved;
}

GPUTBS_API int gputbs_fd(const struct gputbs *g)
{
	return g ? g->fd : -EBADF;
}

GPUTBS_API int gputbs_info(struct gputbs *g, struct gputbs_info *info)
{
	if (!g || !info)
		return -EINVAL;
	memset(info, 0, sizeof(*info));
	return gputbs_ioctl(g->fd, GPUTBS_IOCTL_INFO, info);
}

/* SUBMIT with the older struct, GPUTBS_SUBMIT_SIZE_VER0 bytes */
#define GPUTBS_IOCTL_SUBMIT_VER0 \
	_IOC(_IOC_READ | _IOC_WRITE, GPUTBS_IOCTL_BASE, \
	     _IOC_NR(GPUTBS_IOCTL_SUBMIT), GPUTBS_SUBMIT_SIZE_VER0)

/* SUBMIT with the struct of GPUTBS_SUBMIT_SIZE_VER1 bytes */
#define GPUTBS_IOCTL_SUBMIT_VER1 \
	_IOC(_IOC_READ | _IOC_WRITE, GPUTBS_IOCTL_BASE, \
	     _IOC_NR(GPUTBS_IOCTL_SUBMIT), GPUTBS_SUBMIT_SIZE_VER1)

/* SUBMIT with the struct of GPUTBS_SUBMIT_SIZE_VER2 bytes */
#define GPUTBS_IOCTL_SUBMIT_VER2 \
	_IOC(_IOC_READ | _IOC_WRITE, GPUTBS_IOCTL_BASE, \
	     _IOC_NR(GPUTBS_IOCTL_SUBMIT), GPUTBS_SUBMIT_SIZE_VER2)

/* SUBMIT with the struct of GPUTBS_SUBMIT_SIZE_VER3 bytes */
#define GPUTBS_IOCTL_SUBMIT_VER3 \
	_IOC(_IOC_READ | _IOC_WRITE, GPUTBS_IOCTL_BASE, \
	     _IOC_NR(GPUTBS_IOCTL_SUBMIT), GPUTBS_SUBMIT_SIZE_VER3)

/*
 * The command of the smallest struct that has the members @flags use:
 * GPUTBS_SUBMIT_MODEL needs mem_ppm..startup_blocks (VER3),
 * GPUTBS_SUBMIT_TIMEOUT timeout_cycles (VER2), GPUTBS_SUBMIT_AT_CYCLE
 * arrival_cycle (VER1), and anything else goes with the VER0 command,
 * which every module accepts.
 */
static unsigned long gputbs_submit_cmd_old(__u32 flags)
{
	if (flags & GPUTBS_SUBMIT_MODEL)
		return GPUTBS_IOCTL_SUBMIT_VER3;
	if (flags & GPUTBS_SUBMIT_TIMEOUT)
		return GPUTBS_IOCTL_SUBMIT_VER2;
	if (flags & GPUTBS_SUBMIT_AT_CYCLE)
		return GPUTBS_IOCTL_SUBMIT_VER1;
	return GPUTBS_IOCTL_SUBMIT_VER0;
}

/*
 * LIBGPUTBS_0.1's gputbs_submit(), for programs linked before
 * LIBGPUTBS_0.6: their struct may be as small as the header they were
 * built with, so the command reads and writes only what the flags need,
 * at most GPUTBS_SUBMIT_SIZE_VER3 bytes (one built before timeout_cycles
 * has a struct of GPUTBS_SUBMIT_SIZE_VER1 bytes and cannot set the flag,
 * one built before arrival_cycle GPUTBS_SUBMIT_SIZE_VER0), and this
 * library must not touch more.
 */
GPUTBS_API int gputbs_submit_v0_1(struct gputbs *g, struct gputbs_submit *sub);
__asm__(".symver gputbs_submit_v0_1,gputbs_submit@LIBGPUTBS_0.1");
GPUTBS_API int gputbs_submit_v0_1(struct gputbs *g, struct gputbs_submit *sub)
{
	if (!g || !sub)
		return -EINVAL;
	return gputbs_ioctl(g->fd, gputbs_submit_cmd_old(sub->flags), sub);
}

/* The module's GPUTBS_FEATURE_* bits, read once. */
static __u64 gputbs_features(struct gputbs *g)
{
	struct gputbs_info info;

	if (!g->features_known) {
		memset(&info, 0, sizeof(info));
		g->features = gputbs_ioctl(g->fd, GPUTBS_IOCTL_INFO, &info) ?
			      0 : info.features;
		g->features_known = true;
	}
	return g->features;
}

/*
 * gputbs_submit@@LIBGPUTBS_0.6, the default (also of the static
 * library).  Since LIBGPUTBS_0.6 the caller's struct is GPUTBS_SUBMIT_SIZE_VER4
 * bytes (the header it was built with): the whole struct goes when the
 * module fills in the error detail (GPUTBS_FEATURE_ERROR_DETAIL) or the
 * flags need it (GPUTBS_SUBMIT_AFTER), else the command of the older
 * sizes, as before, so that older modules accept what they can.  The
 * error detail is output only: cleared before the call, so that the
 * struct of a failed call can be submitted again as it is.
 */
GPUTBS_API int gputbs_submit_v0_6(struct gputbs *g, struct gputbs_submit *sub);
__asm__(".symver gputbs_submit_v0_6,gputbs_submit@@LIBGPUTBS_0.6");
GPUTBS_API int gputbs_submit_v0_6(struct gputbs *g, struct gputbs_submit *sub)
{
	if (!g || !sub)
		return -EINVAL;
	/* outputs, which the module wants 0: a retry after an error works */
	sub->err_reason = 0;
	sub->err_value = 0;
	sub->err_limit = 0;
	if ((sub->flags & GPUTBS_SUBMIT_AFTER) ||
	    (gputbs_features(g) & GPUTBS_FEATURE_ERROR_DETAIL))
		return gputbs_ioctl(g->fd, GPUTBS_IOCTL_SUBMIT, sub);
	return gputbs_ioctl(g->fd, gputbs_submit_cmd_old(sub->flags), sub);
}

GPUTBS_API int gputbs_wait(struct gputbs *g, struct gputbs_wait *w)
{
	if (!g || !w)
		return -EINVAL;
	return gputbs_ioctl(g->fd, GPUTBS_IOCTL_WAIT, w);
}

GPUTBS_API int gputbs_wait_handle(struct gputbs *g, __u32 handle,
				  __s64 abs_timeout_ns,
				  struct gputbs_wait *out)
{
	struct gputbs_wait w;
	int ret;

	memset(&w, 0, sizeof(w));
	w.handle = handle;
	w.timeout_ns = abs_timeout_ns;
	ret = gputbs_wait(g, &w);
	if (out)
		*out = w;
	return ret;
}

GPUTBS_API int gputbs_blocks(struct gputbs *g, __u32 handle,
			     struct gputbs_block_record *recs, __u32 cap,
			     __u32 *total)
{
	struct gputbs_blocks b;
	int ret;

	if (!g)
		return -EINVAL;
	memset(&b, 0, sizeof(b));
	b.handle = handle;
	b.nr_records = recs ? cap : 0;
	b.records_ptr = (__u64)(uintptr_t)recs;
	ret = gputbs_ioctl(g->fd, GPUTBS_IOCTL_BLOCKS, &b);
	if (!ret && total)
		*total = b.nr_records;
	return ret;
}

/* Longest contents of the policy attribute read or written. */
#define GPUTBS_POLICY_MAX	4096

/* Path of the sysfs attribute @attr of the device behind @g. */
static int gputbs_sysfs_path(struct gputbs *g, const char *attr, char *path,
			     size_t len)
{
	struct stat st;

	if (fstat(g->fd, &st))
		return -errno;
	if (!S_ISCHR(st.st_mode))
		return -ENOTTY;
	snprintf(path, len, "/sys/dev/char/%u:%u/%s", major(st.st_rdev),
		 minor(st.st_rdev), attr);
	return 0;
}

static int gputbs_copy_word(char *dst, size_t len, const char *src,
			    size_t n)
{
	if (!dst)
		return 0;
	if (n >= len)
		return -ENAMETOOLONG;
	memcpy(dst, src, n);
	dst[n] = '\0';
	return 0;
}

/* Read sysfs attribute @attr of @g into @buf (@len bytes), NUL-terminated. */
static int gputbs_sysfs_read(struct gputbs *g, const char *attr, char *buf,
			     size_t len)
{
	char path[160];
	ssize_t r;
	int fd, ret;

	ret = gputbs_sysfs_path(g, attr, path, sizeof(path));
	if (ret)
		return ret;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	do {
		r = read(fd, buf, len - 1);
	} while (r < 0 && errno == EINTR);
	ret = r < 0 ? -errno : 0;
	close(fd);
	if (!ret)
		buf[r] = '\0';
	return ret;
}

GPUTBS_API int gputbs_attr_read(struct gputbs *g, const char *attr, char *buf,
			       size_t len)
{
	char line[GPUTBS_POLICY_MAX], *b, *e;
	int ret;

	if (!g || !attr || !buf || !len || strstr(attr, ".."))
		return -EINVAL;
	ret = gputbs_sysfs_read(g, attr, line, sizeof(line));
	if (ret)
		return ret;
	line[strcspn(line, "\n")] = '\0';
	b = strchr(line, '[');
	e = b ? strchr(b, ']') : NULL;
	if (b && e)
		return gputbs_copy_word(buf, len, b + 1, e - b - 1);
	return gputbs_copy_word(buf, len, line, strlen(line));
}

GPUTBS_API int gputbs_attr_write(struct gputbs *g, const char *attr,
				const char *val)
{
	char path[160];
	size_t len;
	ssize_t r;
	int fd, ret;

	if (!g || !attr || !val || strstr(attr, ".."))
		return -EINVAL;
	ret = gputbs_sysfs_path(g, attr, path, sizeof(path));
	if (ret)
		return ret;
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	len = strlen(val);
	do {
		r = write(fd, val, len);
	} while (r < 0 && errno == EINTR);
	ret = r < 0 ? -errno : (size_t)r == len ? 0 : -EIO;
	close(fd);
	return ret;
}

GPUTBS_API int gputbs_get_policy(struct gputbs *g, char *cur, size_t cur_len,
				 char *all, size_t all_len)
{
	char buf[GPUTBS_POLICY_MAX], *s, *e;
	size_t n = 0, w;
	int ret, found = 0;

	if (!g)
		return -EINVAL;
	ret = gputbs_sysfs_read(g, "policy", buf, sizeof(buf));
	if (ret)
		return ret;
	if (all && all_len)
		all[0] = '\0';
	/* "fifo [srtf] sjf\n": words, the current one in brackets. */
	for (s = buf; *(s += strspn(s, " \t\n")); s = e) {
		e = s + strcspn(s, " \t\n");
		w = e - s;
		if (*s == '[') {
			if (w < 3 || s[w - 1] != ']' || found++)
				return -EIO;
			s++;
			w -= 2;
			ret = gputbs_copy_word(cur, cur_len, s, w);
			if (ret)
				return ret;
		}
		if (all) {
			if (n + !!n + w >= all_len)
				return -ENAMETOOLONG;
			if (n)
				all[n++] = ' ';
			memcpy(all + n, s, w);
			n += w;
			all[n] = '\0';
		}
	}
	return found ? 0 : -EIO;
}

GPUTBS_API int gputbs_set_policy(struct gputbs *g, const char *name)
{
	size_t len;

	if (!g || !name)
		return -EINVAL;
	len = strlen(name);
	if (!len || len >= GPUTBS_POLICY_MAX || strpbrk(name, " \t\n[]"))
		return -EINVAL;
	return gputbs_attr_write(g, "policy", name);
}

GPUTBS_API __u64 gputbs_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (__u64)ts.tv_sec * 1000000000ULL + (__u64)ts.tv_nsec;
}

GPUTBS_API const char *gputbs_strerror(int err)
{
	const char *s;

	if (err < 0)
		err = -err;
	if (!err)
		return "Success";
	if (err == ETIMEDOUT)	/* from WAIT: GPUTBS_FEATURE_JOB_TIMEOUT */
		return "Grid stopped by the job timeout (sysfs timeout_ns or GPUTBS_SUBMIT_TIMEOUT)";
	s = strerrordesc_np(err);
	return s ? s : "Unknown error";
}
