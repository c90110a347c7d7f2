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
#include <linux/gputbs_netlink.h>

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
 * Return: 0, -EINVAL for unknown @flags or a NULL @out, -ENOMEM, or the
 * error of open(2).
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
 * Return: the file descriptor, or -EBADF for a NULL @g.
 */
GPUTBS_API int gputbs_fd(const struct gputbs *g);

/**
 * gputbs_info() - describe the emulated device (%GPUTBS_IOCTL_INFO)
 * @g: handle.
 * @info: out: device description.
 *
 * Return: 0, -EINVAL for a NULL @g or @info, or a negative errno.
 */
GPUTBS_API int gputbs_info(struct gputbs *g, struct gputbs_info *info);

/**
 * gputbs_submit() - submit a grid (%GPUTBS_IOCTL_SUBMIT)
 * @g: handle.
 * @sub: in: the grid; out: @sub->handle.
 *
 * With %GPUTBS_SUBMIT_AT_CYCLE in @sub->flags the grid arrives at
 * @sub->arrival_cycle (%GPUTBS_FEATURE_ARRIVAL_CYCLE); with
 * %GPUTBS_SUBMIT_TIMEOUT its own job timeout is @sub->timeout_cycles
 * (%GPUTBS_FEATURE_JOB_TIMEOUT); with %GPUTBS_SUBMIT_MODEL its timing
 * members @sub->mem_ppm to @sub->startup_blocks are read
 * (%GPUTBS_FEATURE_CORUN_TIMING, %GPUTBS_FEATURE_BLOCK_DIST); with
 * %GPUTBS_SUBMIT_AFTER it arrives @sub->after_cycles after the grid
 * @sub->after_handle of @g ends (%GPUTBS_FEATURE_STREAM_ORDER).
 *
 * @sub is the struct of this header, %GPUTBS_SUBMIT_SIZE_VER4 bytes (set
 * what is unused to 0): the call sends it whole when the module writes
 * back the reason of an error (%GPUTBS_FEATURE_ERROR_DETAIL: @sub->
 * err_reason, err_value and err_limit, for gputbs_submit_explain()) or
 * the flags need it (AFTER), else the command of the smallest older
 * layout that has the members the flags use (%GPUTBS_SUBMIT_SIZE_VER0
 * without AT_CYCLE, TIMEOUT or MODEL, %GPUTBS_SUBMIT_SIZE_VER1 with
 * AT_CYCLE only, %GPUTBS_SUBMIT_SIZE_VER2 with TIMEOUT and no MODEL,
 * %GPUTBS_SUBMIT_SIZE_VER3 with MODEL), so that every module accepts the
 * calls it can.  The call clears @sub->err_reason, err_value and
 * err_limit first (the module wants them 0 on input), so a struct that
 * failed can be submitted again as it is.  Programs linked before LIBGPUTBS_0.6 keep the older
 * behaviour (gputbs_submit@LIBGPUTBS_0.1: never more than
 * %GPUTBS_SUBMIT_SIZE_VER3 bytes, for their smaller struct).
 *
 * Not retried on -EAGAIN: that means the file holds
 * &gputbs_info.max_grids_per_fd unreaped grids; reap one and try again.
 * gputbs_submit_strerror() names the limit behind -EAGAIN, -EDQUOT,
 * -ENOBUFS, -ENOSPC and -ENOMEM, and the capability behind -EPERM.
 *
 * Return: 0, or -EINVAL (also for a NULL @g or @sub), -ENOENT (an unknown
 * @sub->after_handle), -EPERM, -EFAULT, -E2BIG, -EAGAIN (the file's
 * grid limit), -EDQUOT (the user's grid limit), -ENOBUFS (the user's byte
 * limit), -ENOSPC (the device's grid limit), -ENOMEM (the device's byte
 * limit, or no memory) (see the uapi), or -ENOTTY for
 * %GPUTBS_SUBMIT_AT_CYCLE from a module without
 * %GPUTBS_FEATURE_ARRIVAL_CYCLE, for %GPUTBS_SUBMIT_TIMEOUT from one
 * without %GPUTBS_FEATURE_JOB_TIMEOUT, or for %GPUTBS_SUBMIT_MODEL from
 * one without %GPUTBS_FEATURE_CORUN_TIMING.
 */
GPUTBS_API int gputbs_submit(struct gputbs *g, struct gputbs_submit *sub);

/**
 * gputbs_wait() - wait for a grid and reap it (%GPUTBS_IOCTL_WAIT)
 * @g: handle.
 * @w: in: handle, flags and absolute CLOCK_MONOTONIC deadline; out: times.
 *
 * A wait interrupted by a signal is restarted with the same deadline.
 *
 * Return: 0, -ETIMEDOUT when the grid was stopped by its job timeout
 * (reaped all the same, @w filled: blocks_done below its blocks), -ETIME
 * when the deadline passed (the grid stays queued), -ENOENT for an unknown
 * handle, -EINVAL for unknown flags or a NULL @g or @w.
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
 * %GPUTBS_SUBMIT_RECORD_BLOCKS, -EFAULT, -EINVAL (also for a NULL @g), or
 * -ENOTTY from a
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
 * Return: 0, -EINVAL for a NULL @g, -ENAMETOOLONG if a buffer is too
 * small, -ENOENT from a module without the attribute, -EIO for unexpected contents, or the error of
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
 * Return: 0, -EINVAL for an unknown policy or a NULL @g or @name, -EACCES
 * without permission,
 * -ENOENT from a module without the attribute, or another error of
 * open(2) or write(2).
 */
GPUTBS_API int gputbs_set_policy(struct gputbs *g, const char *name);

/**
 * gputbs_attr_read() - read a sysfs attribute of the device
 * @g: handle.
 * @attr: the attribute's path below the device's sysfs directory
 *	(Documentation/ABI/testing/sysfs-class-misc-gputbs), such as
 *	"preempt_mode" or "policy_params/share_mode"; no "..".
 * @buf: out: its first line without the newline, or for a selector
 *	("drain [switch] flush auto") the word in brackets, NUL-terminated.
 * @len: size of @buf, bytes.
 *
 * Return: 0, -EINVAL for a NULL argument, a zero @len or "..",
 * -ENAMETOOLONG if @buf is too small, or the error of fstat(2), open(2)
 * or read(2) (-ENOENT from a module without the attribute).
 */
GPUTBS_API int gputbs_attr_read(struct gputbs *g, const char *attr, char *buf,
				size_t len);

/**
 * gputbs_attr_write() - write a sysfs attribute of the device
 * @g: handle.
 * @attr: as for gputbs_attr_read().
 * @val: the text to write.
 *
 * Return: 0, -EINVAL for a NULL argument or "..", -EIO for a short
 * write, or the error of open(2) or write(2) (-EACCES or -EPERM without
 * permission, -EINVAL or -ERANGE for a value the module refuses, -EBUSY).
 */
GPUTBS_API int gputbs_attr_write(struct gputbs *g, const char *attr,
				 const char *val);

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

/**
 * gputbs_submit_strerror() - describe an error of gputbs_submit()
 * @err: a negative errno from gputbs_submit() (a positive one is accepted
 *	too).
 *
 * For the errors of SUBMIT's limits, strerror's text followed by the
 * limit that was hit: -EAGAIN the file's (max_grids_per_fd), -EDQUOT the
 * user's grids (max_grids_per_user), -ENOBUFS the user's bytes
 * (max_bytes_per_user), -ENOSPC the device's grids
 * (max_grids_per_device), -ENOMEM the device's bytes
 * (max_bytes_per_device) or the kernel's memory; -EPERM names
 * CAP_SYS_NICE, which the high and realtime classes need.  Any other error as
 * gputbs_strerror().  gputbs_strerror() itself stays generic: the same
 * errnos mean other things from the other calls (-ENOBUFS from
 * gputbs_monitor_recv() is lost events).
 *
 * Return: a static string, never NULL.
 */
GPUTBS_API const char *gputbs_submit_strerror(int err);

/**
 * gputbs_submit_explain() - say why gputbs_submit() failed, in words
 * @sub: the struct gputbs_submit() failed on, with the error detail the
 *	module wrote back (&gputbs_submit.err_reason, err_value, err_limit).
 * @err: the negative errno gputbs_submit() returned (a positive one is
 *	accepted too).
 * @buf: out: the text, NUL-terminated, truncated to @size.
 * @size: bytes at @buf, at least 1.
 *
 * The errno's name, then the check that failed with its numbers, e.g.
 * "-EINVAL: grid too big: 1024 threads x 63 registers need 65536
 * registers, an SM has 32768" or "-EPERM: class realtime needs
 * CAP_SYS_NICE".  Without a detail (a module without
 * %GPUTBS_FEATURE_ERROR_DETAIL, a reason this library does not know) the
 * text of gputbs_submit_strerror().  gputbs-sim prints the same texts for
 * the core's checks (gtbs_grid_desc_verify()).
 *
 * Return: the length of the whole text, as snprintf() (the text was
 * truncated if it is @size or more), or -EINVAL for a NULL @sub or @buf,
 * or @size 0.
 */
GPUTBS_API int gputbs_submit_explain(const struct gputbs_submit *sub, int err,
				     char *buf, size_t size);

/* ---- monitor: the gputbs generic netlink family (libnl) ---------------- */

/*
 * The monitor API talks to the module's generic netlink family "gputbs"
 * (<linux/gputbs_netlink.h>, Documentation/netlink/specs/gputbs.yaml)
 * through libnl-genl-3: requests (the device, its grids and SMs, the
 * policy switch) and the multicast group "events".  A monitor owns one
 * netlink socket for requests and, with %GPUTBS_MONITOR_EVENTS, a second
 * one that only receives events, so replies and events never mix.  A
 * monitor is not thread-safe: use it from one thread at a time.
 *
 * Every struct filled by the library is passed with its size (sizeof as
 * the caller was compiled): the library writes what both know, zeroes the
 * rest, and may grow the structs at their end in later versions.
 */

/** GPUTBS_MONITOR_EVENTS - gputbs_monitor_open(): receive events too */
#define GPUTBS_MONITOR_EVENTS	0x1u

/** GPUTBS_MON_MAX_SLOTS - most thread block slots of an SM */
#define GPUTBS_MON_MAX_SLOTS	64

/** GPUTBS_MON_GRID_STARTED - &gputbs_mon_grid.flags: @start_cycle valid */
#define GPUTBS_MON_GRID_STARTED		0x1u
/** GPUTBS_MON_GRID_ENDED - &gputbs_mon_grid.flags: @end_cycle valid */
#define GPUTBS_MON_GRID_ENDED		0x2u
/** GPUTBS_MON_GRID_PREDICTED - &gputbs_mon_grid.flags: a prediction exists */
#define GPUTBS_MON_GRID_PREDICTED	0x4u

/** struct gputbs_monitor - a connection to the gputbs netlink family; opaque */
struct gputbs_monitor;

/**
 * enum gputbs_event_type - what a &struct gputbs_mon_event reports
 * @GPUTBS_EVENT_GRID_SUBMITTED: a grid was submitted.
 * @GPUTBS_EVENT_GRID_STARTED: its first block started.
 * @GPUTBS_EVENT_GRID_PREEMPTED: an SM stopped issuing its blocks for
 *	another grid's (by_grid_id, sm, reason).
 * @GPUTBS_EVENT_GRID_COMPLETED: its last block ended.
 * @GPUTBS_EVENT_GRID_CANCELLED: it was cancelled (its file was closed).
 * @GPUTBS_EVENT_POLICY_CHANGED: the device's policy changed (policy,
 *	old_policy).
 * @GPUTBS_EVENT_LOST: the module dropped lost events here (its queue was
 *	full).
 * @GPUTBS_EVENT_GRID_TIMED_OUT: the job timeout stopped it.
 */
enum gputbs_event_type {
	GPUTBS_EVENT_GRID_SUBMITTED = 1,
	GPUTBS_EVENT_GRID_STARTED,
	GPUTBS_EVENT_GRID_PREEMPTED,
	GPUTBS_EVENT_GRID_COMPLETED,
	GPUTBS_EVENT_GRID_CANCELLED,
	GPUTBS_EVENT_POLICY_CHANGED,
	GPUTBS_EVENT_LOST,
	GPUTBS_EVENT_GRID_TIMED_OUT,
};

/**
 * struct gputbs_mon_grid - a grid (grid-get of the family)
 * @id: device-wide id, from 1 in submission order.
 * @client_id: drm-client-id of the file that submitted it.
 * @pid: process that submitted it (initial PID namespace); 0 when the
 *	module withholds it: another user's grid, for a caller without
 *	CAP_SYS_ADMIN or CAP_PERFMON (userspace-api.rst, "Grid privacy").
 * @handle: its handle in that file.
 * @label: its label; empty when withheld, as @pid.
 * @prio_class: %GPUTBS_PRIO_LOW..%GPUTBS_PRIO_REALTIME.
 * @state: &enum gputbs_grid_state (<linux/gputbs_netlink.h>).
 * @nr_blocks: thread blocks.
 * @blocks_issued: blocks started so far.
 * @blocks_done: blocks ended so far.
 * @resident: blocks resident now.
 * @residency: maximum residency R, blocks per SM.
 * @limiter: &enum gputbs_limiter.
 * @threads_per_block: threads per block.
 * @flags: GPUTBS_MON_GRID_* bits.
 * @submit_cycle: arrival cycle.
 * @start_cycle: cycle its first block started (%GPUTBS_MON_GRID_STARTED).
 * @end_cycle: cycle it ended (%GPUTBS_MON_GRID_ENDED).
 * @alone_cycles: alone runtime by the staircase model, cycles.
 * @nr_predictions: runtime predictions made for it.
 * @pred_remaining: remaining runtime by the latest prediction, cycles from
 *	@pred_cycle (%GPUTBS_MON_GRID_PREDICTED).
 * @pred_cycle: cycle of that prediction.
 */
struct gputbs_mon_grid {
	__u64 id;
	__u64 client_id;
	__u32 pid;
	__u32 handle;
	char label[GPUTBS_LABEL_LEN];
	__u32 prio_class;
	__u32 state;
	__u32 nr_blocks;
	__u32 blocks_issued;
	__u32 blocks_done;
	__u32 resident;
	__u32 residency;
	__u32 limiter;
	__u32 threads_per_block;
	__u32 flags;
	__u64 submit_cycle;
	__u64 start_cycle;
	__u64 end_cycle;
	__u64 alone_cycles;
	__u64 nr_predictions;
	__u64 pred_remaining;
	__u64 pred_cycle;
};

/**
 * struct gputbs_mon_slot - a resident thread block
 * @index: its slot on the SM.
 * @block: its index in its grid.
 * @grid_id: its grid's &gputbs_mon_grid.id.
 * @start_cycle: cycle it started.
 */
struct gputbs_mon_slot {
	__u32 index;
	__u32 block;
	__u64 grid_id;
	__u64 start_cycle;
};

/**
 * struct gputbs_mon_sm - a streaming multiprocessor (sm-get of the family)
 * @id: its index.
 * @resident_blocks: blocks resident.
 * @free_blocks: free block slots.
 * @free_threads: free thread contexts.
 * @free_warps: free warp contexts.
 * @free_regs: free registers.
 * @free_shmem: free shared memory, bytes.
 * @sharing: 1 while SRTF/Adaptive runs it in sharing mode.
 * @blocks_run: blocks that ended on it.
 * @busy_cycles: cycles with a resident block.
 * @now_cycle: cycle up to which this is current.
 * @nr_slots: entries of @slots.
 * @pad: zero; aligns @slots.
 * @slots: the resident blocks.
 */
struct gputbs_mon_sm {
	__u32 id;
	__u32 resident_blocks;
	__u32 free_blocks;
	__u32 free_threads;
	__u32 free_warps;
	__u32 free_regs;
	__u32 free_shmem;
	__u32 sharing;
	__u64 blocks_run;
	__u64 busy_cycles;
	__u64 now_cycle;
	__u32 nr_slots;
	__u32 pad;
	struct gputbs_mon_slot slots[GPUTBS_MON_MAX_SLOTS];
};

/** GPUTBS_MON_MAX_PARAMS - most parameters of a policy */
#define GPUTBS_MON_MAX_PARAMS	16

/**
 * struct gputbs_mon_param - a parameter of the current policy
 * @name: its name (the file of sysfs policy_params/).
 * @value_name: for a choice among named values, the name of @value;
 *	else empty.
 * @unit: its unit ("ppm", "blocks"; empty for a choice), cut to 15
 *	characters.
 * @value: its value, in @unit.
 * @minimum: smallest value accepted.
 * @maximum: largest value accepted.
 * @def: the value when the policy is selected.
 */
struct gputbs_mon_param {
	char name[32];
	char value_name[32];
	char unit[16];
	__u64 value;
	__u64 minimum;
	__u64 maximum;
	__u64 def;
};

/**
 * struct gputbs_mon_dev - the device (dev-get of the family)
 * @policy: the current policy.
 * @policies: every policy, separated by one space.
 * @nr_sms: SMs.
 * @warp_size: threads per warp.
 * @sm_threads: thread contexts per SM.
 * @sm_regs: registers per SM.
 * @sm_shmem: shared memory per SM, bytes.
 * @sm_blocks: block slots per SM.
 * @sm_warps: warp contexts per SM.
 * @time_scale_ps: ps of wall time per emulated cycle.
 * @grids_arriving: grids submitted for a later cycle.
 * @grids_queued: grids arrived, not started.
 * @grids_running: grids running.
 * @pad: zero.
 * @epoch_ns: CLOCK_MONOTONIC time of cycle 0.
 * @now_cycle: the current cycle.
 * @grids_submitted: counter.
 * @grids_completed: counter.
 * @blocks_dispatched: counter.
 * @predictions: counter.
 * @promotions: counter of starvation-guard promotions.
 * @policy_switches: counter.
 * @sharing_switches: counter.
 * @events_queued: events the module queued for the events group.
 * @events_sent: events it multicast.
 * @events_dropped: events it dropped (queue full).
 * @grids_cancelled: counter of grids cancelled by their file's release.
 * @grids_timed_out: counter of grids stopped by the job timeout.
 * @timeout_ns: the device's job timeout, ns of emulated time (sysfs
 *	timeout_ns); 0 when off or from a module without it.
 * @nr_params: entries of @params: the current policy's parameters (0 for
 *	a policy without parameters, or from a module without them).
 * @pad2: zero.
 * @params: the current policy's parameters, in its order (at most
 *	%GPUTBS_MON_MAX_PARAMS).
 * @preempt_mode: how SMs preempt resident blocks, &enum
 *	gputbs_preempt_mode (sysfs preempt_mode); drain from a module without
 *	preemption.
 * @pad3: zero.
 * @blocks_switched: counter of blocks context switched out.
 * @blocks_flushed: counter of blocks flushed.
 * @blocks_restored: counter of switched-out blocks restored.
 * @switch_cycles: counter of cycles SMs spent saving and restoring.
 * @flushed_cycles: counter of cycles of work flushed blocks lost.
 * @cap_period: the period of tenants' caps, emulated cycles (sysfs
 *	cap_period); 0 from a module without tenants.
 *
 * The members from @grids_cancelled on came later, those from
 * @preempt_mode on later still, and @cap_period last: a caller that
 * passes an older size gets the older members only.
 */
struct gputbs_mon_dev {
	char policy[GPUTBS_POLICY_NAME_LEN];
	char policies[256];
	__u32 nr_sms;
	__u32 warp_size;
	__u32 sm_threads;
	__u32 sm_regs;
	__u32 sm_shmem;
	__u32 sm_blocks;
	__u32 sm_warps;
	__u32 time_scale_ps;
	__u32 grids_arriving;
	__u32 grids_queued;
	__u32 grids_running;
	__u32 pad;
	__u64 epoch_ns;
	__u64 now_cycle;
	__u64 grids_submitted;
	__u64 grids_completed;
	__u64 blocks_dispatched;
	__u64 predictions;
	__u64 promotions;
	__u64 policy_switches;
	__u64 sharing_switches;
	__u64 events_queued;
	__u64 events_sent;
	__u64 events_dropped;
	__u64 grids_cancelled;
	__u64 grids_timed_out;
	__u64 timeout_ns;
	__u32 nr_params;
	__u32 pad2;
	struct gputbs_mon_param params[GPUTBS_MON_MAX_PARAMS];
	__u32 preempt_mode;
	__u32 pad3;
	__u64 blocks_switched;
	__u64 blocks_flushed;
	__u64 blocks_restored;
	__u64 switch_cycles;
	__u64 flushed_cycles;
	__u64 cap_period;
};

/**
 * struct gputbs_mon_event - one event of the events group
 * @type: &enum gputbs_event_type.
 * @sm: %GPUTBS_EVENT_GRID_PREEMPTED: the SM.
 * @cycle: emulated cycle of the event (not for %GPUTBS_EVENT_LOST).
 * @time_ns: CLOCK_MONOTONIC time of that cycle.
 * @grid: grid events: the grid at the event.
 * @by_grid_id: %GPUTBS_EVENT_GRID_PREEMPTED: the grid that took the SM.
 * @reason: %GPUTBS_EVENT_GRID_PREEMPTED: &enum gputbs_preemption_reason.
 * @pad: zero.
 * @policy: %GPUTBS_EVENT_POLICY_CHANGED: the new policy.
 * @old_policy: %GPUTBS_EVENT_POLICY_CHANGED: the previous one.
 * @lost: %GPUTBS_EVENT_LOST: events the module dropped here.
 */
struct gputbs_mon_event {
	__u32 type;
	__u32 sm;
	__u64 cycle;
	__u64 time_ns;
	struct gputbs_mon_grid grid;
	__u64 by_grid_id;
	__u32 reason;
	__u32 pad;
	char policy[GPUTBS_POLICY_NAME_LEN];
	char old_policy[GPUTBS_POLICY_NAME_LEN];
	__u64 lost;
};

/**
 * gputbs_monitor_open() - connect to the gputbs netlink family
 * @flags: 0, or %GPUTBS_MONITOR_EVENTS to also join the events group.
 * @out: out: the monitor, to be released with gputbs_monitor_close().
 *
 * Resolves the family through the generic netlink controller; the events
 * socket is non-blocking and has a 1 MiB receive buffer.
 *
 * Return: 0, -ENOENT when the family is not registered (the module is
 * not loaded), -EINVAL for unknown @flags, -ENOMEM, or the error of
 * socket(2) or bind(2).
 */
GPUTBS_API int gputbs_monitor_open(unsigned int flags,
				   struct gputbs_monitor **out);

/**
 * gputbs_monitor_close() - close a monitor and free it
 * @m: monitor, or NULL.
 */
GPUTBS_API void gputbs_monitor_close(struct gputbs_monitor *m);

/**
 * gputbs_monitor_fd() - descriptor of the events socket
 * @m: monitor opened with %GPUTBS_MONITOR_EVENTS.
 *
 * For poll(2): readable (POLLIN) when events wait; then call
 * gputbs_monitor_recv() until it returns -EAGAIN.  Do not close it.
 *
 * Return: the descriptor, or -EINVAL for a monitor without events.
 */
GPUTBS_API int gputbs_monitor_fd(const struct gputbs_monitor *m);

/**
 * gputbs_monitor_recv() - take the next event, without blocking
 * @m: monitor opened with %GPUTBS_MONITOR_EVENTS.
 * @ev: out: the event.
 * @size: sizeof(*@ev).
 *
 * Events come in the order the module reported them.  Two kinds of loss
 * are reported: the module's own queue overflowing is an event of type
 * %GPUTBS_EVENT_LOST in the stream; this socket's receive buffer
 * overflowing is -ENOBUFS (once; the next call continues).
 *
 * Return: 0 with an event, -EAGAIN when none is waiting, -ENOBUFS, -EINVAL
 * for a monitor without events, or another error of recv(2).
 */
GPUTBS_API int gputbs_monitor_recv(struct gputbs_monitor *m,
				   struct gputbs_mon_event *ev, size_t size);

/**
 * gputbs_monitor_get_device() - the device, its policy and counters
 * @m: monitor.
 * @dev: out: the device.
 * @size: sizeof(*@dev).
 *
 * Return: 0 or a negative errno (gputbs_monitor_errmsg() may say more).
 */
GPUTBS_API int gputbs_monitor_get_device(struct gputbs_monitor *m,
					 struct gputbs_mon_dev *dev,
					 size_t size);

/**
 * gputbs_monitor_dump_grids() - every arriving, queued and running grid
 * @m: monitor.
 * @grids: out: an array of *@nr grids with a stride of @size bytes,
 *	malloc()ed (free() it), or NULL when there is none.
 * @size: sizeof(struct gputbs_mon_grid).
 * @nr: out: number of grids.
 *
 * Running and queued grids come in arrival order, then the arriving ones.
 * A dump the module flags as interrupted (the grids changed between its
 * messages) is retried, up to 7 times, the k-th retry after k ms (28 ms in
 * all), since the grids change in bursts.
 *
 * Return: 0 or a negative errno; -EAGAIN if the grids kept changing.
 */
GPUTBS_API int gputbs_monitor_dump_grids(struct gputbs_monitor *m,
					 struct gputbs_mon_grid **grids,
					 size_t size, size_t *nr);

/**
 * gputbs_monitor_get_grid() - one grid by id
 * @m: monitor.
 * @id: &gputbs_mon_grid.id.
 * @grid: out: the grid.
 * @size: sizeof(*@grid).
 *
 * Return: 0, -ENOENT if no arriving, queued or running grid has @id, or
 * another negative errno.
 */
GPUTBS_API int gputbs_monitor_get_grid(struct gputbs_monitor *m, __u64 id,
				       struct gputbs_mon_grid *grid,
				       size_t size);

/**
 * gputbs_monitor_dump_sms() - every SM with its resident blocks
 * @m: monitor.
 * @sms: out: an array of *@nr SMs with a stride of @size bytes,
 *	malloc()ed (free() it).
 * @size: sizeof(struct gputbs_mon_sm).
 * @nr: out: number of SMs.
 *
 * Return: 0 or a negative errno.
 */
GPUTBS_API int gputbs_monitor_dump_sms(struct gputbs_monitor *m,
				       struct gputbs_mon_sm **sms,
				       size_t size, size_t *nr);

/**
 * gputbs_monitor_get_sm() - one SM by index
 * @m: monitor.
 * @id: the SM's index.
 * @sm: out: the SM.
 * @size: sizeof(*@sm).
 *
 * Return: 0, -ENOENT for an index out of range, or another negative errno.
 */
GPUTBS_API int gputbs_monitor_get_sm(struct gputbs_monitor *m, __u32 id,
				     struct gputbs_mon_sm *sm, size_t size);

/**
 * gputbs_monitor_set_policy() - switch the device's policy over netlink
 * @m: monitor.
 * @name: one of &gputbs_mon_dev.policies.
 *
 * Return: 0, -EPERM without CAP_NET_ADMIN and CAP_SYS_ADMIN, -EINVAL for
 * an unknown policy (see gputbs_monitor_errmsg()), or another negative
 * errno.
 */
GPUTBS_API int gputbs_monitor_set_policy(struct gputbs_monitor *m,
					 const char *name);

/**
 * gputbs_monitor_set_param() - set a parameter of the current policy
 * @m: monitor.
 * @name: the parameter's name (&gputbs_mon_param.name).
 * @value: its new value, in its unit.
 *
 * As writing its file in sysfs policy_params/; needs CAP_NET_ADMIN and
 * CAP_SYS_ADMIN.
 *
 * Return: 0; -ENOENT if the current policy has no such parameter, -ERANGE
 * if @value is outside its range, -EPERM, or another negative errno
 * (gputbs_monitor_errmsg() says more).
 */
GPUTBS_API int gputbs_monitor_set_param(struct gputbs_monitor *m,
					const char *name, __u64 value);

/**
 * gputbs_monitor_set_param_text() - set a parameter from text
 * @m: monitor.
 * @name: the parameter's name.
 * @text: its new value as sysfs takes it: a value name
 *	(&gputbs_mon_param.value_name) or a decimal number.
 *
 * Return: as gputbs_monitor_set_param(); -EINVAL for @text that is
 * neither.
 */
GPUTBS_API int gputbs_monitor_set_param_text(struct gputbs_monitor *m,
					     const char *name,
					     const char *text);

/**
 * struct gputbs_preempt_set - what gputbs_monitor_set_preempt() sets
 * @mode: how SMs preempt resident blocks, &enum gputbs_preempt_mode
 *	(drain, switch, flush, auto); always set.
 * @switch_bytes_per_cycle: each SM's bandwidth for saving and restoring
 *	block contexts, bytes per emulated cycle, 1..65536; 0 leaves it as
 *	it is.
 * @budget_mask: bit c - 1 set for each class c (%GPUTBS_PRIO_LOW ..
 *	%GPUTBS_PRIO_REALTIME) whose budget is set; the others stay.
 * @pad: zero.
 * @budget: the preemption latency budget of class c at index c - 1
 *	(low, normal, high, realtime), emulated cycles, at most 2^62.
 */
struct gputbs_preempt_set {
	__u32 mode;
	__u32 switch_bytes_per_cycle;
	__u32 budget_mask;
	__u32 pad;
	__u64 budget[4];
};

/**
 * gputbs_monitor_set_preempt() - set the device's preemption over netlink
 * @m: monitor.
 * @req: the mode, and optionally the switch bandwidth and class budgets.
 * @size: sizeof(*@req).
 *
 * As writing the sysfs files preempt_mode, switch_bytes_per_cycle and
 * preempt_budget_CLASS, all at once or nothing (netlink preempt-set);
 * needs CAP_NET_ADMIN and CAP_SYS_ADMIN.
 *
 * Return: 0; -EINVAL for an unknown mode, a @size too small, a non-zero
 * @pad or a bit of @budget_mask above bit 3; -ERANGE for a bandwidth or a budget out of range; -EPERM; or
 * another negative errno (gputbs_monitor_errmsg() says more).
 */
GPUTBS_API int gputbs_monitor_set_preempt(struct gputbs_monitor *m,
					  const struct gputbs_preempt_set *req,
					  size_t size);

/**
 * struct gputbs_mon_tenant - a tenant (tenant-get of the family)
 * @kind: &enum gputbs_tenant_kind: device, cgroup or file.
 * @weight: its weight, 1..10000 (cgroup v2's cpu.weight; default 100).
 * @cgroup_id: kind cgroup: the cgroup's id (gputbs_cgroup_id()).
 * @client_id: kind file: the open file's drm-client-id.
 * @max_ppm: its cap on the device's SM time, ppm; 0: none.
 * @grids: its grids in the device (arrived, not left).
 * @sm_time: SM time its blocks held, 1/1000000 SM-cycles (a block of a
 *	grid of maximum residency R holds 1/R of an SM).
 * @now_cycle: the emulated cycle @sm_time and @throttled_cycles are up to.
 * @throttled_cycles: emulated cycles it spent throttled by its cap.
 * @throttles: times it was throttled.
 * @throttled: 1 while throttled, else 0.
 * @pad: zero.
 *
 * A tenant's share of the device over an interval is the difference of
 * two readings' @sm_time over nr_sms x 1000000 x the difference of their
 * @now_cycle (Documentation/scheduling.rst, "Tenants").
 */
struct gputbs_mon_tenant {
	__u32 kind;
	__u32 weight;
	__u64 cgroup_id;
	__u64 client_id;
	__u32 max_ppm;
	__u32 grids;
	__u64 sm_time;
	__u64 now_cycle;
	__u64 throttled_cycles;
	__u64 throttles;
	__u32 throttled;
	__u32 pad;
};

/**
 * gputbs_monitor_dump_tenants() - every tenant of the device
 * @m: monitor.
 * @tenants: out: a malloc()ed array of @nr entries of @size bytes (free()
 *	it), the device's own tenant first.
 * @size: sizeof(struct gputbs_mon_tenant).
 * @nr: out: entries.
 *
 * Return: 0, -EOPNOTSUPP from a module without tenants, or a negative
 * errno.
 */
GPUTBS_API int gputbs_monitor_dump_tenants(struct gputbs_monitor *m,
					   struct gputbs_mon_tenant **tenants,
					   size_t size, size_t *nr);

/**
 * struct gputbs_tenant_set - what gputbs_monitor_set_tenant() sets
 * @cgroup_id: the cgroup whose tenant to set (gputbs_cgroup_id()), or 0.
 * @client_id: or the open file's drm-client-id (a file tenant), or 0;
 *	exactly one of the two.
 * @weight: the new weight, 1..10000; 0 keeps it.
 * @max_ppm: the new cap, ppm of the device's SM time, 1..1000000;
 *	%GPUTBS_TENANT_MAX_NONE removes the cap; 0 keeps it.
 */
struct gputbs_tenant_set {
	__u64 cgroup_id;
	__u64 client_id;
	__u32 weight;
	__u32 max_ppm;
};

/* gputbs_tenant_set.max_ppm that removes a tenant's cap */
#define GPUTBS_TENANT_MAX_NONE	0xffffffffu

/**
 * gputbs_monitor_set_tenant() - set a tenant's weight or cap
 * @m: monitor.
 * @req: the tenant and its new values.
 * @size: sizeof(*@req).
 *
 * netlink tenant-set: with CAP_SYS_ADMIN any tenant, any value; without,
 * only the caller's own cgroup (or a descendant) or file, and only lower.
 *
 * Return: 0; -EPERM; -EINVAL for a bad @req or value; -ENOENT for a
 * cgroup or file that does not exist; -ENOSPC when the device holds its
 * most tenants; -EOPNOTSUPP from a module without tenants; or another
 * negative errno (gputbs_monitor_errmsg() says more).
 */
GPUTBS_API int gputbs_monitor_set_tenant(struct gputbs_monitor *m,
					 const struct gputbs_tenant_set *req,
					 size_t size);

/**
 * gputbs_cgroup_id() - the id of a cgroup v2 directory
 * @path: its directory, e.g. /sys/fs/cgroup/a.
 * @id: out: its id, as &gputbs_mon_tenant.cgroup_id and tenant-set take
 *	it (name_to_handle_at()'s handle of the directory, as libbpf reads
 *	it).
 *
 * Return: 0, -ENOTDIR if @path is not a directory, -EMEDIUMTYPE if it is
 * not in a cgroup2 file system, or the negative errno of a system call.
 */
GPUTBS_API int gputbs_cgroup_id(const char *path, __u64 *id);

/**
 * gputbs_monitor_errmsg() - the module's message about the last failure
 * @m: monitor.
 *
 * The extended ACK message the module attached to the error of the last
 * request of @m that failed (for example "unknown policy (see policies
 * of dev-get)"), or "missing attribute N" for a request the module found
 * incomplete.
 *
 * Return: a string owned by @m, empty if there was none.
 */
GPUTBS_API const char *gputbs_monitor_errmsg(const struct gputbs_monitor *m);

/**
 * gputbs_event_name() - name of an event type
 * @type: &enum gputbs_event_type.
 *
 * Return: "grid-submitted", "grid-started", "grid-preempted",
 * "grid-completed", "grid-cancelled", "policy-changed", "events-lost", or
 * "unknown".
 */
GPUTBS_API const char *gputbs_event_name(unsigned int type);

/**
 * gputbs_grid_state_name() - name of a grid state
 * @state: &enum gputbs_grid_state.
 *
 * Return: "arriving", "queued", "running", "done", "cancelled" or
 * "unknown".
 */
GPUTBS_API const char *gputbs_grid_state_name(unsigned int state);

/**
 * gputbs_preemption_reason_name() - name of a preemption reason
 * @reason: &enum gputbs_preemption_reason.
 *
 * Return: "class", "starve", "shorter", "sample", "share", "limit",
 * "policy", or "unknown".
 */
GPUTBS_API const char *gputbs_preemption_reason_name(unsigned int reason);

#ifdef __cplusplus
}
#endif

#endif /* _GPUTBS_H */
