// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * submit_explain.c - what went wrong with a SUBMIT, in words.
 *
 * The one table of SUBMIT's error texts: part of libgputbs
 * (gputbs_submit_strerror(), gputbs_submit_explain()), and compiled into
 * gputbs-sim as well, which checks grids with the portable core
 * (gtbs_grid_desc_verify(): the uapi's reason codes) and does not link
 * the library.
 *
 * Copyright (C) 2026 The gputbs developers
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "gputbs.h"

/* strerror's text, then the limit of <linux/gputbs.h> behind the errno. */
static const struct {
	int err;
	const char *text;
} gputbs_submit_errors[] = {
	{ EPERM, "Operation not permitted: the high and realtime priority classes need CAP_SYS_NICE" },
	{ EAGAIN, "Resource temporarily unavailable: per-file grid limit (max_grids_per_fd) reached; reap a grid of this file" },
	{ EDQUOT, "Disk quota exceeded: per-user grid limit (max_grids_per_user) reached" },
	{ ENOBUFS, "No buffer space available: per-user limit on bytes of block records and durations (max_bytes_per_user) reached" },
	{ ENOSPC, "No space left on device: device-wide grid limit (max_grids_per_device) reached, or all of it but the grids reserved for CAP_SYS_RESOURCE (reserved_grids)" },
	{ ENOMEM, "Cannot allocate memory: device-wide limit on bytes of block records and durations (max_bytes_per_device) reached, or all of it but the bytes reserved for CAP_SYS_RESOURCE (reserved_bytes), or the kernel is out of memory" },
};

GPUTBS_API const char *gputbs_submit_strerror(int err)
{
	const char *s;
	size_t i;

	if (err < 0)
		err = -err;
	for (i = 0; i < sizeof(gputbs_submit_errors) /
			sizeof(gputbs_submit_errors[0]); i++)
		if (gputbs_submit_errors[i].err == err)
			return gputbs_submit_errors[i].text;
	if (!err)
		return "Success";
	s = strerrordesc_np(err);
	return s ? s : "Unknown error";
}

static const char *gputbs_class_name(unsigned long long c)
{
	static const char * const names[] = {
		"default", "low", "normal", "high", "realtime",
	};

	return c < sizeof(names) / sizeof(names[0]) ? names[c] : "unknown";
}

/*
 * The sentence of reason @r with value @v and limit @l of @sub, into
 * @buf of @size bytes.  Returns snprintf()'s count, or -1 for a reason
 * this file does not know.
 */
static int gputbs_explain_reason(const struct gputbs_submit *sub, __u32 r,
				 unsigned long long v, unsigned long long l,
				 char *buf, size_t size)
{
	switch (r) {
	case GPUTBS_SUBMIT_ERR_FLAGS:
		return snprintf(buf, size, "unknown flag 0x%llx (the module knows 0x%llx)",
				v & ~l, l);
	case GPUTBS_SUBMIT_ERR_FLAG_SIZE:
		return snprintf(buf, size, "flag 0x%llx needs the command of %llu bytes",
				v, l);
	case GPUTBS_SUBMIT_ERR_DETAIL_IN:
		return snprintf(buf, size, "err_reason, err_value and err_limit must be 0 on input");
	case GPUTBS_SUBMIT_ERR_NR_BLOCKS_ZERO:
		return snprintf(buf, size, "a grid needs at least 1 block");
	case GPUTBS_SUBMIT_ERR_NR_BLOCKS:
		return snprintf(buf, size, "grid too big: %llu blocks, at most %llu",
				v, l);
	case GPUTBS_SUBMIT_ERR_THREADS:
		return snprintf(buf, size, "%llu threads per block: must be 1..%llu",
				v, l);
	case GPUTBS_SUBMIT_ERR_REGS:
		return snprintf(buf, size, "%llu registers per thread, at most %llu",
				v, l);
	case GPUTBS_SUBMIT_ERR_SHMEM:
		return snprintf(buf, size, "%llu bytes of shared memory per block, an SM has %llu",
				v, l);
	case GPUTBS_SUBMIT_ERR_WORK_MODEL:
		return snprintf(buf, size, "unknown work model %llu (1 dist, 2 array)",
				v);
	case GPUTBS_SUBMIT_ERR_WORK_FIELD:
		return snprintf(buf, size, "a member of the other work model is %llu: it must be 0 for work model %u",
				v, sub->work_model);
	case GPUTBS_SUBMIT_ERR_NR_DURATIONS:
		return snprintf(buf, size, "nr_durations %llu must equal nr_blocks %llu",
				v, l);
	case GPUTBS_SUBMIT_ERR_BLOCK_CYCLES:
		return snprintf(buf, size, "block_cycles %llu: must be 1..%llu",
				v, l);
	case GPUTBS_SUBMIT_ERR_RSD:
		return snprintf(buf, size, "block_rsd_ppm %llu above %llu", v, l);
	case GPUTBS_SUBMIT_ERR_DURATION:
		return snprintf(buf, size, "the duration of block %llu must be 1..%llu cycles",
				v, l);
	case GPUTBS_SUBMIT_ERR_LABEL:
		return snprintf(buf, size, "label: byte %llu is not printable ASCII, or no NUL in %llu bytes",
				v, l);
	case GPUTBS_SUBMIT_ERR_ARRIVAL_FLAG:
		return snprintf(buf, size, "arrival_cycle %llu without GPUTBS_SUBMIT_AT_CYCLE",
				v);
	case GPUTBS_SUBMIT_ERR_ARRIVAL_AHEAD:
		return snprintf(buf, size, "arrival_cycle %llu is too far ahead: at most %llu (now + 2^40)",
				v, l);
	case GPUTBS_SUBMIT_ERR_TIMEOUT_FLAG:
		return snprintf(buf, size, "timeout_cycles %llu without GPUTBS_SUBMIT_TIMEOUT",
				v);
	case GPUTBS_SUBMIT_ERR_TIMEOUT:
		return snprintf(buf, size, "timeout_cycles %llu: must be 1..%llu",
				v, l);
	case GPUTBS_SUBMIT_ERR_MODEL_FLAG:
		return snprintf(buf, size, "a timing-model member is %llu without GPUTBS_SUBMIT_MODEL",
				v);
	case GPUTBS_SUBMIT_ERR_MEM_PPM:
		return snprintf(buf, size, "mem_ppm %llu above %llu", v, l);
	case GPUTBS_SUBMIT_ERR_KNEE:
		return snprintf(buf, size, "knee_mwarps %llu above %llu", v, l);
	case GPUTBS_SUBMIT_ERR_BLOCK_DIST:
		return snprintf(buf, size, "unknown block_dist %llu, at most %llu",
				v, l);
	case GPUTBS_SUBMIT_ERR_DIST_PARAM:
		return snprintf(buf, size, "block distribution %u: %llu is out of range (bound %llu)",
				sub->block_dist, v, l);
	case GPUTBS_SUBMIT_ERR_STARTUP:
		return snprintf(buf, size, "startup_ppm %llu (0..16000000) and startup_blocks %u (1..%llu) go together",
				v, sub->startup_blocks, l);
	case GPUTBS_SUBMIT_ERR_PRIO_CLASS:
		return snprintf(buf, size, "priority class %llu, at most %llu",
				v, l);
	case GPUTBS_SUBMIT_ERR_PRIO_PERM:
		return snprintf(buf, size, "class %s needs CAP_SYS_NICE",
				gputbs_class_name(v));
	case GPUTBS_SUBMIT_ERR_FIT_THREADS:
		return snprintf(buf, size, "grid too big: a block of %u threads needs %llu thread contexts, an SM has %llu",
				sub->threads_per_block, v, l);
	case GPUTBS_SUBMIT_ERR_FIT_REGS:
		return snprintf(buf, size, "grid too big: %u threads x %u registers need %llu registers, an SM has %llu",
				sub->threads_per_block, sub->regs_per_thread,
				v, l);
	case GPUTBS_SUBMIT_ERR_FIT_SHMEM:
		return snprintf(buf, size, "grid too big: a block needs %llu bytes of shared memory, an SM has %llu",
				v, l);
	case GPUTBS_SUBMIT_ERR_FIT_WARPS:
		return snprintf(buf, size, "grid too big: a block of %u threads needs %llu warps, an SM has %llu",
				sub->threads_per_block, v, l);
	case GPUTBS_SUBMIT_ERR_FIT_BLOCKS:
		return snprintf(buf, size, "grid too big: a block needs %llu block slot, an SM has %llu",
				v, l);
	case GPUTBS_SUBMIT_ERR_LIMIT_FD:
		return snprintf(buf, size, "this file holds %llu grids, its limit (max_grids_per_fd) is %llu: reap a grid first",
				v, l);
	case GPUTBS_SUBMIT_ERR_LIMIT_USER_GRIDS:
		return snprintf(buf, size, "this user holds %llu grids, the limit (max_grids_per_user) is %llu",
				v, l);
	case GPUTBS_SUBMIT_ERR_LIMIT_USER_BYTES:
		return snprintf(buf, size, "this user would hold %llu bytes of block records and durations, the limit (max_bytes_per_user) is %llu",
				v, l);
	case GPUTBS_SUBMIT_ERR_LIMIT_DEV_GRIDS:
		return snprintf(buf, size, "all files hold %llu grids, the device's limit (max_grids_per_device) is %llu",
				v, l);
	case GPUTBS_SUBMIT_ERR_LIMIT_DEV_BYTES:
		return snprintf(buf, size, "the device would hold %llu bytes of block records and durations, the limit (max_bytes_per_device) is %llu",
				v, l);
	case GPUTBS_SUBMIT_ERR_RESERVE_GRIDS:
		return snprintf(buf, size, "all files hold %llu grids; the rest of the device's limit (max_grids_per_device) is reserved for CAP_SYS_RESOURCE (reserved_grids), %llu are left to the others",
				v, l);
	case GPUTBS_SUBMIT_ERR_RESERVE_BYTES:
		return snprintf(buf, size, "the device would hold %llu bytes of block records and durations; the rest of the device's limit (max_bytes_per_device) is reserved for CAP_SYS_RESOURCE (reserved_bytes), %llu are left to the others",
				v, l);
	case GPUTBS_SUBMIT_ERR_NOMEM:
		return snprintf(buf, size, "the kernel is out of memory");
	case GPUTBS_SUBMIT_ERR_AFTER_HANDLE:
		return snprintf(buf, size, "after_handle %llu is no unreaped grid of this file",
				v);
	case GPUTBS_SUBMIT_ERR_AFTER_FLAG:
		return snprintf(buf, size, "after_handle %llu or after_cycles %llu without GPUTBS_SUBMIT_AFTER",
				v, l);
	case GPUTBS_SUBMIT_ERR_AFTER_CYCLES:
		return snprintf(buf, size, "after_cycles %llu above %llu", v, l);
	case GPUTBS_SUBMIT_ERR_AFTER_AT_CYCLE:
		return snprintf(buf, size, "GPUTBS_SUBMIT_AFTER and GPUTBS_SUBMIT_AT_CYCLE exclude each other");
	}
	return -1;
}

GPUTBS_API int gputbs_submit_explain(const struct gputbs_submit *sub, int err,
				     char *buf, size_t size)
{
	const char *name;
	size_t n;
	int m;

	if (!sub || !buf || !size)
		return -EINVAL;
	if (err > 0)
		err = -err;
	name = strerrorname_np(-err);
	if (!name)
		name = "error";
	m = snprintf(buf, size, "-%s: ", name);
	if (m < 0)
		return -EINVAL;
	n = (size_t)m < size ? (size_t)m : size - 1;
	m = gputbs_explain_reason(sub, sub->err_reason,
				  (unsigned long long)sub->err_value,
				  (unsigned long long)sub->err_limit,
				  buf + n, size - n);
	if (m < 0)	/* no detail (an older module or size): the errno */
		m = snprintf(buf + n, size - n, "%s",
			     gputbs_submit_strerror(err));
	return m < 0 ? -EINVAL : (int)n + m;
}
