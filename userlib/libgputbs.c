// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * libgputbs.c - userspace library of /dev/gputbs.
 *
 * Copyright (C) 2026 The gputbs developers
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "gputbs.h"

struct gputbs {
	int fd;
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
	return g->fd;
}

GPUTBS_API int gputbs_info(struct gputbs *g, struct gputbs_info *info)
{
	memset(info, 0, sizeof(*info));
	return gputbs_ioctl(g->fd, GPUTBS_IOCTL_INFO, info);
}

GPUTBS_API int gputbs_submit(struct gputbs *g, struct gputbs_submit *sub)
{
	return gputbs_ioctl(g->fd, GPUTBS_IOCTL_SUBMIT, sub);
}

GPUTBS_API int gputbs_wait(struct gputbs *g, struct gputbs_wait *w)
{
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
	s = strerrordesc_np(err);
	return s ? s : "Unknown error";
}
