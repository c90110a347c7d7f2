/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * gputbs.h - libgputbs, the userspace library of /dev/gputbs.
 *
 * A thin, thread-safe wrapper around the ioctls of <linux/gputbs.h>: it
 * opens the device, retries calls interrupted by signals and returns
 * errors as negative errno values.  Every function that can fail returns
 * 0 or a negative errno; none of them sets errno as its way to report.
 *
 * Copyright (C) 2026 The gputbs developers
 */
#ifndef _GPUTBS_H
#define _GPUTBS_H

#include <stddef.h>
#include <linux/gputbs.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef GPUTBS_API
#define GPUTBS_API __attribute__((visibility("default")))
#endif

/** GPUTBS_DEFAULT_PATH - device node opened when no path is given */
#define GPUTBS_DEFAULT_PATH	"/dev/" GPUTBS_DEVICE_NAME

/** GPUTBS_TIMEOUT_INFINITE - deadline of a wait that never times out */
#define GPUTBS_TIMEOUT_INFINITE	((__s64)0x7fffffffffffffffLL)

/** struct gputbs - an open /dev/gputbs file; opaque */
struct gputbs;

/**
 * gputbs_open() - open the device
 * @path: device node, or NULL for %GPUTBS_DEFAULT_PATH.
 * @flags: must be 0.
 * @out: out: the handle, to be released with gputbs_close().
 *
 * The file is opened O_RDWR | O_CLOEXEC.  Grids submitted through the
 * handle belong to its file: closing it cancels those still running.
 *
 * Return: 0, -EINVAL for unknown @flags, -ENOMEM, or the error of open(2).
 */
GPUTBS_API int gputbs_open(const char *path, int flags, struct gputbs **out);

/**
 * gputbs_close() - close the device and free the handle
 * @g: handle from gputbs_open(), or NULL.
 */
GPUTBS_API void gputbs_close(struct gputbs *g);

/**
 * gputbs_fd() - file descriptor of a handle
 * @g: handle.
 *
 * For poll(2): the descriptor is readable (POLLIN) while a grid submitted
 * through it has completed and not been reaped.  Do not close it.
 *
 * Return: the file descriptor.
 */
GPUTBS_API int gputbs_fd(const struct gputbs *g);

/**
 * gputbs_info() - describe the emulated device (%GPUTBS_IOCTL_INFO)
 * @g: handle.
 * @info: out: device description.
 *
 * Return: 0 or a negative errno.
 */
GPUTBS_API int gputbs_info(struct gputbs *g, struct gputbs_info *info);

/**
 * gputbs_submit() - submit a grid (%GPUTBS_IOCTL_SUBMIT)
 * @g: handle.
 * @sub: in: the grid; out: @sub->handle.
 *
 * With %GPUTBS_SUBMIT_AT_CYCLE in @sub->flags the grid arrives at
 * @sub->arrival_cycle (%GPUTBS_FEATURE_ARRIVAL_CYCLE).  Without it,
 * @sub->arrival_cycle is not read: the call uses the command of the
 * struct's older, %GPUTBS_SUBMIT_SIZE_VER0-byte layout, so that programs
 * built against an older <linux/gputbs.h> keep working with this library
 * and every module accepts the call.
 *
 * Not retried on -EAGAIN: that means the file holds
 * &gputbs_info.max_grids_per_fd unreaped grids; reap one and try again.
 *
 * Return: 0, or -EINVAL, -EPERM, -EFAULT, -E2BIG, -EAGAIN, -ENOMEM (see
 * the uapi), or -ENOTTY for %GPUTBS_SUBMIT_AT_CYCLE from a module without
 * %GPUTBS_FEATURE_ARRIVAL_CYCLE.
 */
GPUTBS_API int gputbs_submit(struct gputbs *g, struct gputbs_submit *sub);

/**
 * gputbs_wait() - wait for a grid and reap it (%GPUTBS_IOCTL_WAIT)
 * @g: handle.
 * @w: in: handle, flags and absolute CLOCK_MONOTONIC deadline; out: times.
 *
 * A wait interrupted by a signal is restarted with the same deadline.
 *
 * Return: 0, -ETIME when the deadline passed (the grid stays queued),
 * -ENOENT for an unknown handle, -EINVAL for unknown flags.
 */
GPUTBS_API int gputbs_wait(struct gputbs *g, struct gputbs_wait *w);

/**
 * gputbs_wait_handle() - wait for one grid and reap it
 * @g: handle.
 * @handle: the grid, from gputbs_submit().
 * @abs_timeout_ns: CLOCK_MONOTONIC deadline, ns; %GPUTBS_TIMEOUT_INFINITE
 *	to wait as long as it takes, 0 to poll.
 * @out: out: the grid's times; may be NULL.
 *
 * Return: as gputbs_wait().
 */
GPUTBS_API int gputbs_wait_handle(struct gputbs *g, __u32 handle,
				  __s64 abs_timeout_ns,
				  struct gputbs_wait *out);

/**
 * gputbs_blocks() - fetch the block records of a grid (%GPUTBS_IOCTL_BLOCKS)
 * @g: handle.
 * @handle: a completed, not yet reaped grid submitted with
 *	%GPUTBS_SUBMIT_RECORD_BLOCKS.
 * @recs: out: up to @cap records in block-end order; may be NULL if @cap
 *	is 0.
 * @cap: capacity of @recs, records; 0 only asks for the count.
 * @total: out: the number of records the grid has (its blocks); may be
 *	NULL.
 *
 * Copies min(@cap, *@total) records.  Call it before reaping the grid
 * with gputbs_wait(), for example once poll(2) reports gputbs_fd()
 * readable.
 *
 * Return: 0, -ENOENT for an unknown or reaped handle, -EBUSY while the
 * grid runs, -ENODATA for a grid submitted without
 * %GPUTBS_SUBMIT_RECORD_BLOCKS, -EFAULT, -EINVAL, or -ENOTTY from a
 * module without %GPUTBS_FEATURE_BLOCK_RECORDS.
 */
GPUTBS_API int gputbs_blocks(struct gputbs *g, __u32 handle,
			     struct gputbs_block_record *recs, __u32 cap,
			     __u32 *total);

/**
 * gputbs_get_policy() - the device's thread block scheduling policy
 * @g: handle.
 * @cur: out: name of the current policy, NUL-terminated; may be NULL.
 * @cur_len: size of @cur.
 * @all: out: names of every policy the module offers, separated by one
 *	space, NUL-terminated; may be NULL.
 * @all_len: size of @all.
 *
 * Reads the sysfs attribute ``policy`` of the device behind @g
 * (/sys/dev/char/MAJOR:MINOR/policy, which is
 * /sys/class/misc/gputbs/policy).
 *
 * Return: 0, -ENAMETOOLONG if a buffer is too small, -ENOENT from a module
 * without the attribute, -EIO for unexpected contents, or the error of
 * fstat(2), open(2) or read(2).
 */
GPUTBS_API int gputbs_get_policy(struct gputbs *g, char *cur, size_t cur_len,
				 char *all, size_t all_len);

/**
 * gputbs_set_policy() - switch the device's scheduling policy
 * @g: handle.
 * @name: the policy, one of those gputbs_get_policy() lists.
 *
 * Writes the sysfs attribute ``policy``; the switch applies to the whole
 * device (every process's grids) from the next block issue on.  Only root
 * may write it.
 *
 * Return: 0, -EINVAL for an unknown policy, -EACCES without permission,
 * -ENOENT from a module without the attribute, or another error of
 * open(2) or write(2).
 */
GPUTBS_API int gputbs_set_policy(struct gputbs *g, const char *name);

/**
 * gputbs_now_ns() - current CLOCK_MONOTONIC time
 *
 * Return: nanoseconds, the clock of every *_ns member of the uapi.
 */
GPUTBS_API __u64 gputbs_now_ns(void);

/**
 * gputbs_strerror() - describe an error returned by this library
 * @err: a negative errno (a positive one is accepted too).
 *
 * Return: a static string, never NULL.
 */
GPUTBS_API const char *gputbs_strerror(int err);

#ifdef __cplusplus
}
#endif

#endif /* _GPUTBS_H */
