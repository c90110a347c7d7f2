/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * gputbs: OS-level GPU thread block scheduling on a virtual device.
 *
 * Userspace ABI of /dev/gputbs.  Rules followed (see
 * Documentation/process/botching-up-ioctls.rst): fixed-size __u/__s members
 * only, natural alignment, explicit padding, every struct a multiple of
 * 8 bytes, user pointers as __u64, absolute CLOCK_MONOTONIC timeouts, and
 * -EINVAL for any unknown flag or non-zero padding/reserved member.
 *
 * Structs grow only at their end.  The ioctl number encodes the struct size;
 * a command whose size the module does not know is -ENOTTY.  When a struct
 * grows, the module will keep accepting the older sizes (zero-extending
 * them) and the new members come with a new GPUTBS_FEATURE_* bit.
 *
 * Copyright (C) 2026 The gputbs developers
 */
#ifndef _UAPI_LINUX_GPUTBS_H
#define _UAPI_LINUX_GPUTBS_H

#include <linux/const.h>
#include <linux/ioctl.h>
#include <linux/types.h>

/** GPUTBS_DEVICE_NAME - name of the misc device node under /dev */
#define GPUTBS_DEVICE_NAME	"gputbs"

/* Feature bits reported in &struct gputbs_info.features. */
/** GPUTBS_FEATURE_WORK_DIST - block durations drawn from mean + RSD + seed */
#define GPUTBS_FEATURE_WORK_DIST	_BITULL(0)
/** GPUTBS_FEATURE_WORK_ARRAY - block durations given as an explicit array */
#define GPUTBS_FEATURE_WORK_ARRAY	_BITULL(1)
/** GPUTBS_FEATURE_WAIT_ANY - &struct gputbs_wait may select any done grid */
#define GPUTBS_FEATURE_WAIT_ANY		_BITULL(2)
/** GPUTBS_FEATURE_POLL - poll() reports EPOLLIN when a grid of the fd is done */
#define GPUTBS_FEATURE_POLL		_BITULL(3)
/** GPUTBS_FEATURE_PRIO_CLASS - &struct gputbs_submit.prio_class is honoured */
#define GPUTBS_FEATURE_PRIO_CLASS	_BITULL(4)
/**
 * GPUTBS_FEATURE_BLOCK_RECORDS - %GPUTBS_SUBMIT_RECORD_BLOCKS and
 * %GPUTBS_IOCTL_BLOCKS
 */
#define GPUTBS_FEATURE_BLOCK_RECORDS	_BITULL(5)
/**
 * GPUTBS_FEATURE_ARRIVAL_CYCLE - %GPUTBS_SUBMIT_AT_CYCLE and
 * &gputbs_submit.arrival_cycle: a grid arrives at a given emulated cycle
 */
#define GPUTBS_FEATURE_ARRIVAL_CYCLE	_BITULL(6)
/**
 * GPUTBS_FEATURE_DEVICE_GRID_LIMIT - &gputbs_info.max_grids_per_device is
 * reported (a module without it leaves the field zero)
 */
#define GPUTBS_FEATURE_DEVICE_GRID_LIMIT	_BITULL(7)
/**
 * GPUTBS_FEATURE_USER_LIMITS - grids and their bytes are charged per user:
 * &gputbs_info.max_grids_per_user is reported (a module without it leaves
 * the field zero), and SUBMIT fails with -EDQUOT, -ENOBUFS or -ENOMEM at
 * the per-user and device-wide limits
 */
#define GPUTBS_FEATURE_USER_LIMITS	_BITULL(8)
/**
 * GPUTBS_FEATURE_JOB_TIMEOUT - the job timeout: a grid that runs longer than
 * the device's timeout (sysfs timeout_ns) or its own
 * (%GPUTBS_SUBMIT_TIMEOUT, &gputbs_submit.timeout_cycles) is stopped, and
 * %GPUTBS_IOCTL_WAIT reaps it with -ETIMEDOUT
 */
#define GPUTBS_FEATURE_JOB_TIMEOUT	_BITULL(9)
/**
 * GPUTBS_FEATURE_CORUN_TIMING - &gputbs_submit.mem_ppm and
 * &gputbs_submit.knee_mwarps: the per-kernel co-running timing model
 * (Documentation/timing-model.rst)
 */
#define GPUTBS_FEATURE_CORUN_TIMING	_BITULL(10)
/**
 * GPUTBS_FEATURE_BLOCK_DIST - &gputbs_submit.block_dist and the start-up
 * effect: per-kernel shapes of the block duration distribution
 */
#define GPUTBS_FEATURE_BLOCK_DIST	_BITULL(11)
/**
 * GPUTBS_FEATURE_PREEMPT - resident blocks may be preempted (the device's
 * preempt_mode in sysfs: drain, switch, flush, auto), and SUBMIT accepts
 * %GPUTBS_SUBMIT_IDEMPOTENT
 */
#define GPUTBS_FEATURE_PREEMPT		_BITULL(12)
/**
 * GPUTBS_FEATURE_STREAM_ORDER - %GPUTBS_SUBMIT_AFTER,
 * &gputbs_submit.after_handle and &gputbs_submit.after_cycles: a grid
 * arrives a given number of cycles after another grid of the file ends
 */
#define GPUTBS_FEATURE_STREAM_ORDER	_BITULL(13)
/**
 * GPUTBS_FEATURE_ERROR_DETAIL - a failed %GPUTBS_IOCTL_SUBMIT of
 * %GPUTBS_SUBMIT_SIZE_VER4 bytes writes &gputbs_submit.err_reason,
 * &gputbs_submit.err_value and &gputbs_submit.err_limit back
 */
#define GPUTBS_FEATURE_ERROR_DETAIL	_BITULL(14)

/** GPUTBS_LABEL_LEN - size of a grid label in bytes, NUL included */
#define GPUTBS_LABEL_LEN	32

/**
 * struct gputbs_info - description of the emulated device
 * @features: GPUTBS_FEATURE_* bits this module supports.
 * @nr_sms: number of streaming multiprocessors (SMs), 1..1024.
 * @warp_size: threads per warp (32 on every NVIDIA GPU to date).
 * @max_threads_per_sm: thread contexts per SM.
 * @max_regs_per_sm: 32-bit registers per SM.
 * @max_shmem_per_sm: shared memory per SM, bytes.
 * @max_blocks_per_sm: thread block contexts per SM.
 * @max_warps_per_sm: warp contexts per SM.
 * @max_threads_per_block: largest thread block accepted, threads.
 * @max_regs_per_thread: largest register count per thread accepted.
 * @reg_alloc_unit: register allocation granularity per warp, registers.
 * @shmem_alloc_unit: shared memory allocation granularity, bytes.
 * @clock_khz: nominal SM clock of the modelled GPU, kHz.  Informational:
 *	emulated time advances in cycles, mapped to wall time by
 *	@time_scale_ps.
 * @time_scale_ps: wall-clock picoseconds per emulated cycle.
 * @max_blocks_per_grid: largest &struct gputbs_submit.nr_blocks accepted.
 * @max_grids_per_fd: largest number of unreaped grids one fd may hold.
 * @load_knee_warps: timing model constant K (Documentation/timing-model.rst),
 *	warps.
 * @epoch_ns: CLOCK_MONOTONIC time of emulated cycle 0, ns.
 * @max_grids_per_device: largest number of unreaped grids that all files
 *	together may hold (beyond it SUBMIT fails with -ENOSPC), grids,
 *	1..2^20, at the time of the call: root may change it at run time
 *	(%GPUTBS_FEATURE_DEVICE_GRID_LIMIT; 0 from an older module).
 * @max_grids_per_user: largest number of unreaped grids that all files of
 *	one user (the submitting task's real uid) together may hold (beyond
 *	it SUBMIT fails with -EDQUOT unless the caller has
 *	CAP_SYS_RESOURCE), grids, 1..2^20, at the time of the call: root may
 *	change it at run time (%GPUTBS_FEATURE_USER_LIMITS; 0 from an older
 *	module, where this member was padding).
 * @reserved: zero.
 *
 * Filled by %GPUTBS_IOCTL_INFO.  The defaults model the paper's Table
 * "Simulator Configuration" (GTX 480: 15 SMs, 1536 threads, 32768 registers,
 * 48 KiB shared memory, 8 blocks and 48 warps per SM, warp size 32).
 */
struct gputbs_info {
	__u64 features;
	__u32 nr_sms;
	__u32 warp_size;
	__u32 max_threads_per_sm;
	__u32 max_regs_per_sm;
	__u32 max_shmem_per_sm;
	__u32 max_blocks_per_sm;
	__u32 max_warps_per_sm;
	__u32 max_threads_per_block;
	__u32 max_regs_per_thread;
	__u32 reg_alloc_unit;
	__u32 shmem_alloc_unit;
	__u32 max_blocks_per_grid;
	__u64 clock_khz;
	__u64 time_scale_ps;
	__u32 max_grids_per_fd;
	__u32 load_knee_warps;
	__u64 epoch_ns;
	__u32 max_grids_per_device;
	__u32 max_grids_per_user;
	__u64 reserved[3];
};

/* Work models for &struct gputbs_submit.work_model. */
/** GPUTBS_WORK_DIST - durations from @block_cycles, @block_rsd_ppm, @seed */
#define GPUTBS_WORK_DIST	1
/** GPUTBS_WORK_ARRAY - durations from the array at @durations_ptr */
#define GPUTBS_WORK_ARRAY	2

/* Flags of &struct gputbs_submit. */
/**
 * GPUTBS_SUBMIT_RECORD_BLOCKS - keep one &struct gputbs_block_record per
 * thread block of the grid, for %GPUTBS_IOCTL_BLOCKS
 */
#define GPUTBS_SUBMIT_RECORD_BLOCKS	_BITUL(0)
/**
 * GPUTBS_SUBMIT_AT_CYCLE - the grid arrives at emulated cycle
 * &gputbs_submit.arrival_cycle, not at once
 */
#define GPUTBS_SUBMIT_AT_CYCLE		_BITUL(1)
/**
 * GPUTBS_SUBMIT_TIMEOUT - the grid's own job timeout is
 * &gputbs_submit.timeout_cycles (lower than the device's to matter)
 */
#define GPUTBS_SUBMIT_TIMEOUT		_BITUL(2)
/**
 * GPUTBS_SUBMIT_MODEL - &gputbs_submit.mem_ppm to
 * &gputbs_submit.startup_blocks describe the grid's timing (the struct of
 * %GPUTBS_SUBMIT_SIZE_VER3 bytes); without it they must be 0
 */
#define GPUTBS_SUBMIT_MODEL		_BITUL(3)
/**
 * GPUTBS_SUBMIT_IDEMPOTENT - running one of the grid's blocks again from its
 * start gives the same result: the device may *flush* its blocks (drop a
 * running block's progress and run it again later) to make room for a
 * higher class; without it they are only drained or context-switched.
 * Any command size (%GPUTBS_FEATURE_PREEMPT).
 */
#define GPUTBS_SUBMIT_IDEMPOTENT	_BITUL(4)
/**
 * GPUTBS_SUBMIT_AFTER - stream order: the grid arrives
 * &gputbs_submit.after_cycles emulated cycles after the grid
 * &gputbs_submit.after_handle of the same file leaves the device
 * (%GPUTBS_FEATURE_STREAM_ORDER; needs the command of
 * %GPUTBS_SUBMIT_SIZE_VER4 bytes)
 */
#define GPUTBS_SUBMIT_AFTER		_BITUL(5)

/**
 * GPUTBS_TIMEOUT_MAX_CYCLES - the longest &gputbs_submit.timeout_cycles,
 * emulated cycles (2^62)
 */
#define GPUTBS_TIMEOUT_MAX_CYCLES	_BITULL(62)

/**
 * GPUTBS_ARRIVAL_MAX_AHEAD - how far ahead of the device's current cycle
 * &gputbs_submit.arrival_cycle may lie, emulated cycles (2^40)
 */
#define GPUTBS_ARRIVAL_MAX_AHEAD	_BITULL(40)

/* Priority classes for &struct gputbs_submit.prio_class. */
/** GPUTBS_PRIO_DEFAULT - the default class, %GPUTBS_PRIO_NORMAL */
#define GPUTBS_PRIO_DEFAULT	0
/** GPUTBS_PRIO_LOW - below normal: runs when no other class has work */
#define GPUTBS_PRIO_LOW		1
/** GPUTBS_PRIO_NORMAL - the class of ordinary grids */
#define GPUTBS_PRIO_NORMAL	2
/** GPUTBS_PRIO_HIGH - above normal; needs CAP_SYS_NICE */
#define GPUTBS_PRIO_HIGH	3
/** GPUTBS_PRIO_REALTIME - the highest class; needs CAP_SYS_NICE */
#define GPUTBS_PRIO_REALTIME	4

/**
 * struct gputbs_submit - submit a grid of thread blocks
 * @flags: GPUTBS_SUBMIT_* bits; any other bit is -EINVAL.
 * @nr_blocks: thread blocks in the grid, 1..&gputbs_info.max_blocks_per_grid.
 * @threads_per_block: 1..&gputbs_info.max_threads_per_block.
 * @regs_per_thread: 0..&gputbs_info.max_regs_per_thread.
 * @shmem_per_block: shared memory per block, bytes, 0..max_shmem_per_sm.
 * @work_model: %GPUTBS_WORK_DIST or %GPUTBS_WORK_ARRAY.
 * @block_cycles: %GPUTBS_WORK_DIST: mean duration of a block when the grid
 *	runs alone at its maximum residency R, emulated cycles,
 *	1..2^40.  Must be zero for %GPUTBS_WORK_ARRAY.
 * @block_rsd_ppm: %GPUTBS_WORK_DIST: relative standard deviation of block
 *	durations, parts per million, 0..1000000.  Zero for ARRAY.
 * @nr_durations: %GPUTBS_WORK_ARRAY: number of __u64 at @durations_ptr;
 *	must equal @nr_blocks.  Zero for DIST.
 * @seed: %GPUTBS_WORK_DIST: seed of the per-block duration sequence; the
 *	same seed gives the same durations.  Zero for ARRAY.
 * @durations_ptr: %GPUTBS_WORK_ARRAY: user pointer to @nr_durations __u64,
 *	each the duration of block i alone at residency R, cycles, 1..2^40.
 *	Zero for DIST.
 * @label: NUL-terminated printable ASCII name shown in debug output.
 * @handle: out: per-fd handle of the grid, never 0.
 * @prio_class: priority class, %GPUTBS_PRIO_DEFAULT (0, the same as
 *	%GPUTBS_PRIO_NORMAL) or %GPUTBS_PRIO_LOW..%GPUTBS_PRIO_REALTIME
 *	(1..4).  Across classes the order is strict and preemptive at block
 *	boundaries: no SM starts a block of a grid while a grid of a higher
 *	class has a block to start; within a class the device's policy
 *	decides.  %GPUTBS_PRIO_HIGH and %GPUTBS_PRIO_REALTIME need
 *	CAP_SYS_NICE (in the initial user namespace).  Until
 *	%GPUTBS_FEATURE_PRIO_CLASS this member was padding that had to be 0.
 * @arrival_cycle: with %GPUTBS_SUBMIT_AT_CYCLE: the absolute emulated
 *	cycle at which the grid arrives (the clock of
 *	&gputbs_wait.submit_cycle: cycle c is CLOCK_MONOTONIC time
 *	&gputbs_info.epoch_ns + c * &gputbs_info.time_scale_ps / 1000 ns).
 *	A cycle at or before the device's current cycle means now.  At most
 *	%GPUTBS_ARRIVAL_MAX_AHEAD cycles after the current cycle, else
 *	-EINVAL.  Must be 0 without the flag.  Added with
 *	%GPUTBS_FEATURE_ARRIVAL_CYCLE: the struct was
 *	%GPUTBS_SUBMIT_SIZE_VER0 bytes before, and the module still accepts
 *	that command, as if this member were 0 (the flag is then -EINVAL).
 * @timeout_cycles: with %GPUTBS_SUBMIT_TIMEOUT: the grid's own job timeout,
 *	emulated cycles from its first block's start, 1..
 *	%GPUTBS_TIMEOUT_MAX_CYCLES; the lower of it and the device's
 *	timeout (sysfs timeout_ns, in cycles at the device's time scale)
 *	applies: a submitter may shorten the device's timeout, never extend
 *	it.  Must be 0 without the flag.  Added with
 *	%GPUTBS_FEATURE_JOB_TIMEOUT: the struct was %GPUTBS_SUBMIT_SIZE_VER1
 *	bytes before, and the module still accepts that command (and the
 *	%GPUTBS_SUBMIT_SIZE_VER0 one), as if this member were 0 (the flag is
 *	then -EINVAL).
 * @mem_ppm: the share of the grid's per-warp demand that is on the SM's
 *	memory pipe, the rest being on its issue pipe, parts per million,
 *	0..1000000.  Grids on one SM slow each other down by the overlap of
 *	their demands (Documentation/timing-model.rst, "Co-runners"): two
 *	grids with the same @mem_ppm contend as every grid did before
 *	%GPUTBS_FEATURE_CORUN_TIMING, a memory-bound grid leaves issue slots
 *	to a compute-bound one.  0 (issue only) is the behaviour of a
 *	command without the member.
 * @knee_mwarps: the grid's own knee K of the timing model, in 1/1000
 *	warps, 0..1024000: how a block's duration grows with the warps on its
 *	SM (a block alone at residency r lasts t (K + rW) / (K + RW)).  0
 *	means the device's (&gputbs_info.load_knee_warps).
 * @block_dist: %GPUTBS_WORK_DIST: shape of the block duration
 *	distribution, GPUTBS_DIST_*; 0 is %GPUTBS_DIST_NORMAL, the only
 *	shape of a command without the member.  Must be 0 for
 *	%GPUTBS_WORK_ARRAY.
 *	%GPUTBS_DIST_SKEWED and %GPUTBS_DIST_PEAKED keep the mean and RSD
 *	of @block_cycles and @block_rsd_ppm in expectation
 *	(Documentation/timing-model.rst, "Block work").
 * @block_dist_param: the shape's parameter, ppm; 0 for
 *	%GPUTBS_DIST_NORMAL, the heavy share 1000..500000 for
 *	%GPUTBS_DIST_SKEWED, the outlier share 0..1000000 for
 *	%GPUTBS_DIST_PEAKED (whose @block_rsd_ppm must be at most 540000).
 * @startup_ppm: %GPUTBS_WORK_DIST: the start-up effect, extra duration of
 *	a start-up block in ppm of its drawn duration, 0..16000000; 0 (no
 *	effect) with @startup_blocks 0.
 * @startup_blocks: how many of the grid's first blocks may be start-up
 *	blocks, 0..@nr_blocks: by block index (the issue order, so the
 *	first wave), each of them is a start-up block by a coin drawn from
 *	@seed (half of them in expectation), so the grid's mean is
 *	@block_cycles * (1 + @startup_ppm * @startup_blocks / (2 *
 *	@nr_blocks * 1000000)) in expectation, not compensated.
 *	@mem_ppm to @startup_blocks are read only with
 *	%GPUTBS_SUBMIT_MODEL and must be 0 without it.  They were added with
 *	%GPUTBS_FEATURE_CORUN_TIMING and %GPUTBS_FEATURE_BLOCK_DIST: the
 *	struct was %GPUTBS_SUBMIT_SIZE_VER2 bytes before, and the module still
 *	accepts that command (and the older ones) as if these members were 0
 *	(%GPUTBS_SUBMIT_MODEL is then -EINVAL).
 * @after_handle: with %GPUTBS_SUBMIT_AFTER: the handle of an unreaped grid
 *	of the same file, the grid's predecessor (in any state: arriving,
 *	queued, running, or already ended and not yet reaped); an unknown
 *	or reaped handle is -ENOENT.  Must be 0 without the flag.
 * @err_reason: out: when %GPUTBS_IOCTL_SUBMIT fails, the
 *	GPUTBS_SUBMIT_ERR_* code of the check that failed (&enum
 *	gputbs_submit_err), 0 on success; in: ignored, like @err_value and
 *	@err_limit (output only: a struct that failed may be submitted again
 *	as it is).
 * @after_cycles: with %GPUTBS_SUBMIT_AFTER: the grid arrives this many
 *	emulated cycles after its predecessor leaves the device,
 *	0..%GPUTBS_ARRIVAL_MAX_AHEAD (0: at the very cycle its last block
 *	ends).  Must be 0 without the flag.
 * @err_value: out: on error, the offending value (see each
 *	GPUTBS_SUBMIT_ERR_* code), 0 on success; in: ignored.
 * @err_limit: out: on error, the limit it broke (see each
 *	GPUTBS_SUBMIT_ERR_* code), 0 on success; in: ignored.
 *	@after_handle to @err_limit were added with
 *	%GPUTBS_FEATURE_STREAM_ORDER and %GPUTBS_FEATURE_ERROR_DETAIL: the
 *	struct was %GPUTBS_SUBMIT_SIZE_VER3 bytes before, and the module still
 *	accepts that command (and the older ones) as if these members were 0
 *	(%GPUTBS_SUBMIT_AFTER is then -EINVAL), and writes nothing back on
 *	error for it.
 *
 * Stream order (%GPUTBS_SUBMIT_AFTER, CUDA's stream semantics): the grid
 * waits, unseen by the policy and in state ``waiting``, until its
 * predecessor leaves the device, whichever way: its last block ends
 * (done), its job timeout stops it (timed out) or it is cancelled (its
 * file is released).  It then arrives exactly @after_cycles cycles
 * after that cycle, through the same exact-cycle arrivals as
 * %GPUTBS_SUBMIT_AT_CYCLE: no process has to wake up, so a program's
 * grids run back to back at the same cycles run after run, as in the
 * simulator.  A predecessor that has already left gives an arrival at
 * its end cycle plus @after_cycles, or now if that has passed.  Several
 * grids may wait on one predecessor, and a waiting grid may itself be a
 * predecessor (a chain).  A grid released at cycle c is put on the
 * arrivals at that moment: grids due at one cycle arrive in the order
 * they were put there (submitted with %GPUTBS_SUBMIT_AT_CYCLE, or
 * released; the dependents of one predecessor in their submission
 * order), after the blocks that end at that cycle.  A waiting grid is
 * charged like any unreaped grid, and its job timeout counts from its
 * first block's start as always.  %GPUTBS_SUBMIT_AFTER with
 * %GPUTBS_SUBMIT_AT_CYCLE is -EINVAL.
 *
 * Error detail (%GPUTBS_FEATURE_ERROR_DETAIL): when a command of
 * %GPUTBS_SUBMIT_SIZE_VER4 bytes fails with -EINVAL, -E2BIG, -EPERM,
 * -EAGAIN, -EDQUOT, -ENOBUFS, -ENOSPC, -ENOMEM or -ENOENT, the module
 * copies the struct back with only @err_reason, @err_value and
 * @err_limit changed (a fault on that copy is -EFAULT, as for any bad
 * pointer); on success the three are 0, on -EFAULT they are not
 * written.  libgputbs's
 * gputbs_submit_explain() turns them into a sentence.
 *
 * %GPUTBS_IOCTL_SUBMIT computes the grid's maximum residency R with the
 * occupancy calculation and queues it.  With %GPUTBS_SUBMIT_AT_CYCLE and
 * an @arrival_cycle in the future, the grid waits unseen by the policy and
 * arrives at exactly that cycle, however late the submitting process or
 * the module's timers run; grids due at the same cycle arrive in the order
 * they were submitted, after the blocks that end at that cycle.  Its
 * &gputbs_wait.submit_cycle and &gputbs_wait.submit_ns report the
 * arrival; closing the file first cancels it like any other grid.  With
 * %GPUTBS_SUBMIT_RECORD_BLOCKS the module also allocates @nr_blocks
 * records of 32 bytes (charged to the caller's memory cgroup) that it
 * fills as the blocks end.  A grid still running when its job timeout
 * expires (the lower of the device's and @timeout_cycles, counted from
 * its first block's start) is stopped at that cycle: its resident blocks
 * release their SMs, its other blocks never run, and %GPUTBS_IOCTL_WAIT
 * reaps it with -ETIMEDOUT (Documentation/reliability.rst).
 *
 * Limits (%GPUTBS_FEATURE_USER_LIMITS; Documentation/reliability.rst): a
 * grid is charged from its submission until it is reaped or its file is
 * released, to the file, to the real uid of the submitting task and to
 * the device, with its bytes: 32 per block with
 * %GPUTBS_SUBMIT_RECORD_BLOCKS plus 8 per block with %GPUTBS_WORK_ARRAY.
 * The limits are checked after the struct's own fields and @nr_blocks
 * (-EINVAL, -E2BIG), before anything is allocated, in this order: -EAGAIN
 * when the fd holds &gputbs_info.max_grids_per_fd unreaped grids, -EDQUOT
 * when the user holds &gputbs_info.max_grids_per_user (module parameter
 * max_grids_per_user), -ENOBUFS when the grid's bytes would take the user
 * above the module parameter max_bytes_per_user, -ENOSPC when all files
 * together hold &gputbs_info.max_grids_per_device, -ENOMEM when the
 * bytes would take the device above the module parameter
 * max_bytes_per_device.  CAP_SYS_RESOURCE exceeds the per-user limits
 * (-EDQUOT, -ENOBUFS), never the others.
 *
 * Errors: -EINVAL for an invalid field, an unknown flag, @prio_class
 * above 4, @arrival_cycle non-zero without %GPUTBS_SUBMIT_AT_CYCLE or more
 * than %GPUTBS_ARRIVAL_MAX_AHEAD cycles ahead, %GPUTBS_SUBMIT_AT_CYCLE in
 * a command of %GPUTBS_SUBMIT_SIZE_VER0 bytes, %GPUTBS_SUBMIT_TIMEOUT in
 * a command shorter than %GPUTBS_SUBMIT_SIZE_VER2 bytes,
 * %GPUTBS_SUBMIT_MODEL in one shorter than %GPUTBS_SUBMIT_SIZE_VER3
 * bytes, a model member non-zero without the flag or out of its range (or
 * a distribution member with %GPUTBS_WORK_ARRAY), @timeout_cycles
 * 0 or above %GPUTBS_TIMEOUT_MAX_CYCLES with the flag or non-zero without
 * it, or a grid that cannot fit on an SM (R = 0), -E2BIG for too many
 * blocks, the limits' -EAGAIN, -EDQUOT, -ENOBUFS, -ENOSPC and -ENOMEM
 * above, -ENOMEM also when an allocation fails, -EFAULT for a bad
 * pointer, -ENOENT for an unknown @after_handle, -EINVAL for
 * %GPUTBS_SUBMIT_AFTER in a command shorter than %GPUTBS_SUBMIT_SIZE_VER4
 * bytes or with %GPUTBS_SUBMIT_AT_CYCLE, @after_cycles above
 * %GPUTBS_ARRIVAL_MAX_AHEAD, @after_handle or @after_cycles non-zero
 * without the flag, -EPERM for
 * %GPUTBS_PRIO_HIGH or %GPUTBS_PRIO_REALTIME without CAP_SYS_NICE (checked
 * last: an invalid grid is -EINVAL or -E2BIG for anyone).  The fields the
 * core checks (the grid's shape, each explicit duration) come after the
 * limits: an invalid grid over a limit gets the limit's error.  On error
 * nothing is queued, charged or kept, except for -EFAULT when the struct
 * cannot be written back: the grid then runs (or arrives) without a known
 * handle, stays charged, and is cancelled when the file is closed.
 *
 * Context: process context; may sleep (allocation, copy from user).
 */
struct gputbs_submit {
	__u32 flags;
	__u32 nr_blocks;
	__u32 threads_per_block;
	__u32 regs_per_thread;
	__u32 shmem_per_block;
	__u32 work_model;
	__u64 block_cycles;
	__u32 block_rsd_ppm;
	__u32 nr_durations;
	__u64 seed;
	__u64 durations_ptr;
	char label[GPUTBS_LABEL_LEN];
	__u32 handle;
	__u32 prio_class;
	__u64 arrival_cycle;
	__u64 timeout_cycles;
	__u32 mem_ppm;
	__u32 knee_mwarps;
	__u32 block_dist;
	__u32 block_dist_param;
	__u32 startup_ppm;
	__u32 startup_blocks;
	__u32 after_handle;
	__u32 err_reason;
	__u64 after_cycles;
	__u64 err_value;
	__u64 err_limit;
};

/**
 * GPUTBS_SUBMIT_SIZE_VER0 - size of &struct gputbs_submit before
 * &gputbs_submit.arrival_cycle, bytes: %GPUTBS_IOCTL_SUBMIT with this size
 * (its number before %GPUTBS_FEATURE_ARRIVAL_CYCLE) is still accepted
 */
#define GPUTBS_SUBMIT_SIZE_VER0	96
/**
 * GPUTBS_SUBMIT_SIZE_VER1 - size of &struct gputbs_submit with
 * &gputbs_submit.arrival_cycle, bytes
 */
#define GPUTBS_SUBMIT_SIZE_VER1	104
/**
 * GPUTBS_SUBMIT_SIZE_VER2 - size of &struct gputbs_submit with
 * &gputbs_submit.timeout_cycles, bytes
 */
#define GPUTBS_SUBMIT_SIZE_VER2	112
/**
 * GPUTBS_SUBMIT_SIZE_VER3 - size of &struct gputbs_submit with
 * &gputbs_submit.mem_ppm to &gputbs_submit.startup_blocks, bytes
 */
#define GPUTBS_SUBMIT_SIZE_VER3	136
/**
 * GPUTBS_SUBMIT_SIZE_VER4 - size of &struct gputbs_submit with
 * &gputbs_submit.after_handle to &gputbs_submit.err_limit, bytes
 */
#define GPUTBS_SUBMIT_SIZE_VER4	168

/**
 * enum gputbs_submit_err - why %GPUTBS_IOCTL_SUBMIT failed
 * @GPUTBS_SUBMIT_ERR_NONE: no error.
 * @GPUTBS_SUBMIT_ERR_FLAGS: -EINVAL: an unknown flag; value: the flags,
 *	limit: the known ones.
 * @GPUTBS_SUBMIT_ERR_FLAG_SIZE: -EINVAL: flag value needs a command of
 *	limit bytes.  Never written back (such a command has no err_*
 *	members); for libraries and the simulator.
 * @GPUTBS_SUBMIT_ERR_DETAIL_IN: reserved, never returned: the error
 *	detail is output only and ignored on input (a struct that failed
 *	is submitted again as it is, which a retry after -EAGAIN does).
 * @GPUTBS_SUBMIT_ERR_NR_BLOCKS_ZERO: -EINVAL: nr_blocks is 0.
 * @GPUTBS_SUBMIT_ERR_NR_BLOCKS: -E2BIG: value nr_blocks above limit
 *	&gputbs_info.max_blocks_per_grid.
 * @GPUTBS_SUBMIT_ERR_THREADS: -EINVAL: value threads_per_block not in
 *	1..limit.
 * @GPUTBS_SUBMIT_ERR_REGS: -EINVAL: value regs_per_thread above limit.
 * @GPUTBS_SUBMIT_ERR_SHMEM: -EINVAL: value shmem_per_block above limit,
 *	the SM's shared memory, bytes.
 * @GPUTBS_SUBMIT_ERR_WORK_MODEL: -EINVAL: value work_model is neither
 *	%GPUTBS_WORK_DIST nor %GPUTBS_WORK_ARRAY (limit).
 * @GPUTBS_SUBMIT_ERR_WORK_FIELD: -EINVAL: value, a member of the other
 *	work model, is non-zero.
 * @GPUTBS_SUBMIT_ERR_NR_DURATIONS: -EINVAL: value nr_durations differs
 *	from limit nr_blocks.
 * @GPUTBS_SUBMIT_ERR_BLOCK_CYCLES: -EINVAL: value block_cycles not in
 *	1..limit.
 * @GPUTBS_SUBMIT_ERR_RSD: -EINVAL: value block_rsd_ppm above limit.
 * @GPUTBS_SUBMIT_ERR_DURATION: -EINVAL: the duration of block value (its
 *	index) is not in 1..limit cycles.
 * @GPUTBS_SUBMIT_ERR_LABEL: -EINVAL: the label is not NUL-terminated
 *	printable ASCII; value: index of the first bad byte.
 * @GPUTBS_SUBMIT_ERR_ARRIVAL_FLAG: -EINVAL: value arrival_cycle non-zero
 *	without %GPUTBS_SUBMIT_AT_CYCLE.
 * @GPUTBS_SUBMIT_ERR_ARRIVAL_AHEAD: -EINVAL: value arrival_cycle after
 *	limit, the current cycle + %GPUTBS_ARRIVAL_MAX_AHEAD.
 * @GPUTBS_SUBMIT_ERR_TIMEOUT_FLAG: -EINVAL: value timeout_cycles non-zero
 *	without %GPUTBS_SUBMIT_TIMEOUT.
 * @GPUTBS_SUBMIT_ERR_TIMEOUT: -EINVAL: value timeout_cycles not in
 *	1..limit.
 * @GPUTBS_SUBMIT_ERR_MODEL_FLAG: -EINVAL: value, a member of mem_ppm to
 *	startup_blocks, non-zero without %GPUTBS_SUBMIT_MODEL.
 * @GPUTBS_SUBMIT_ERR_MEM_PPM: -EINVAL: value mem_ppm above limit.
 * @GPUTBS_SUBMIT_ERR_KNEE: -EINVAL: value knee_mwarps above limit.
 * @GPUTBS_SUBMIT_ERR_BLOCK_DIST: -EINVAL: unknown block_dist value, limit
 *	the largest known.
 * @GPUTBS_SUBMIT_ERR_DIST_PARAM: -EINVAL: value block_dist_param (or the
 *	block_rsd_ppm of %GPUTBS_DIST_PEAKED) out of the shape's range, limit
 *	the bound it broke.
 * @GPUTBS_SUBMIT_ERR_STARTUP: -EINVAL: startup_ppm (value, at most
 *	16000000) and startup_blocks (1..limit, nr_blocks) do not go together.
 * @GPUTBS_SUBMIT_ERR_PRIO_CLASS: -EINVAL: value prio_class above limit.
 * @GPUTBS_SUBMIT_ERR_PRIO_PERM: -EPERM: class value above limit
 *	(%GPUTBS_PRIO_NORMAL) needs CAP_SYS_NICE.
 * @GPUTBS_SUBMIT_ERR_FIT_THREADS: -EINVAL: a block needs value threads
 *	(whole warps), an SM has limit.
 * @GPUTBS_SUBMIT_ERR_FIT_REGS: -EINVAL: a block needs value registers
 *	(rounded to the allocation unit per warp), an SM has limit.
 * @GPUTBS_SUBMIT_ERR_FIT_SHMEM: -EINVAL: a block needs value bytes of
 *	shared memory (rounded to the allocation unit), an SM has limit.
 * @GPUTBS_SUBMIT_ERR_FIT_WARPS: -EINVAL: a block needs value warps, an SM
 *	has limit.
 * @GPUTBS_SUBMIT_ERR_FIT_BLOCKS: -EINVAL: a block needs value block
 *	slots, an SM has limit.
 * @GPUTBS_SUBMIT_ERR_LIMIT_FD: -EAGAIN: the file holds value grids, limit
 *	&gputbs_info.max_grids_per_fd.
 * @GPUTBS_SUBMIT_ERR_LIMIT_USER_GRIDS: -EDQUOT: the user holds value
 *	grids, limit max_grids_per_user.
 * @GPUTBS_SUBMIT_ERR_LIMIT_USER_BYTES: -ENOBUFS: the user would hold
 *	value bytes, limit max_bytes_per_user.
 * @GPUTBS_SUBMIT_ERR_LIMIT_DEV_GRIDS: -ENOSPC: all files hold value
 *	grids, limit max_grids_per_device.
 * @GPUTBS_SUBMIT_ERR_LIMIT_DEV_BYTES: -ENOMEM: the device would hold
 *	value bytes, limit max_bytes_per_device.
 * @GPUTBS_SUBMIT_ERR_NOMEM: -ENOMEM: a kernel allocation failed.
 * @GPUTBS_SUBMIT_ERR_AFTER_HANDLE: -ENOENT: value after_handle is no
 *	unreaped grid of the file.
 * @GPUTBS_SUBMIT_ERR_AFTER_FLAG: -EINVAL: after_handle (value) or
 *	after_cycles (limit) non-zero without %GPUTBS_SUBMIT_AFTER.
 * @GPUTBS_SUBMIT_ERR_AFTER_CYCLES: -EINVAL: value after_cycles above
 *	limit, %GPUTBS_ARRIVAL_MAX_AHEAD.
 * @GPUTBS_SUBMIT_ERR_AFTER_AT_CYCLE: -EINVAL: %GPUTBS_SUBMIT_AFTER
 *	together with %GPUTBS_SUBMIT_AT_CYCLE.
 * @GPUTBS_SUBMIT_ERR_RESERVE_GRIDS: -ENOSPC: all files hold value grids;
 *	the rest of max_grids_per_device is reserved_grids, which only
 *	CAP_SYS_RESOURCE may use; limit is what it leaves to the others.
 * @GPUTBS_SUBMIT_ERR_RESERVE_BYTES: -ENOMEM: the device would hold value
 *	bytes; the rest of max_bytes_per_device is reserved_bytes, which
 *	only CAP_SYS_RESOURCE may use; limit is what it leaves to the others.
 * @GPUTBS_SUBMIT_ERR_COUNT: the number of codes; new codes come before
 *	it, the numbers of the others never change.
 *
 * The codes of &gputbs_submit.err_reason (%GPUTBS_FEATURE_ERROR_DETAIL).
 * "value" and "limit" are &gputbs_submit.err_value and
 * &gputbs_submit.err_limit; a code that names neither leaves them 0.
 */
enum gputbs_submit_err {
	GPUTBS_SUBMIT_ERR_NONE,
	GPUTBS_SUBMIT_ERR_FLAGS,
	GPUTBS_SUBMIT_ERR_FLAG_SIZE,
	GPUTBS_SUBMIT_ERR_DETAIL_IN,
	GPUTBS_SUBMIT_ERR_NR_BLOCKS_ZERO,
	GPUTBS_SUBMIT_ERR_NR_BLOCKS,
	GPUTBS_SUBMIT_ERR_THREADS,
	GPUTBS_SUBMIT_ERR_REGS,
	GPUTBS_SUBMIT_ERR_SHMEM,
	GPUTBS_SUBMIT_ERR_WORK_MODEL,
	GPUTBS_SUBMIT_ERR_WORK_FIELD,
	GPUTBS_SUBMIT_ERR_NR_DURATIONS,
	GPUTBS_SUBMIT_ERR_BLOCK_CYCLES,
	GPUTBS_SUBMIT_ERR_RSD,
	GPUTBS_SUBMIT_ERR_DURATION,
	GPUTBS_SUBMIT_ERR_LABEL,
	GPUTBS_SUBMIT_ERR_ARRIVAL_FLAG,
	GPUTBS_SUBMIT_ERR_ARRIVAL_AHEAD,
	GPUTBS_SUBMIT_ERR_TIMEOUT_FLAG,
	GPUTBS_SUBMIT_ERR_TIMEOUT,
	GPUTBS_SUBMIT_ERR_MODEL_FLAG,
	GPUTBS_SUBMIT_ERR_MEM_PPM,
	GPUTBS_SUBMIT_ERR_KNEE,
	GPUTBS_SUBMIT_ERR_BLOCK_DIST,
	GPUTBS_SUBMIT_ERR_DIST_PARAM,
	GPUTBS_SUBMIT_ERR_STARTUP,
	GPUTBS_SUBMIT_ERR_PRIO_CLASS,
	GPUTBS_SUBMIT_ERR_PRIO_PERM,
	GPUTBS_SUBMIT_ERR_FIT_THREADS,
	GPUTBS_SUBMIT_ERR_FIT_REGS,
	GPUTBS_SUBMIT_ERR_FIT_SHMEM,
	GPUTBS_SUBMIT_ERR_FIT_WARPS,
	GPUTBS_SUBMIT_ERR_FIT_BLOCKS,
	GPUTBS_SUBMIT_ERR_LIMIT_FD,
	GPUTBS_SUBMIT_ERR_LIMIT_USER_GRIDS,
	GPUTBS_SUBMIT_ERR_LIMIT_USER_BYTES,
	GPUTBS_SUBMIT_ERR_LIMIT_DEV_GRIDS,
	GPUTBS_SUBMIT_ERR_LIMIT_DEV_BYTES,
	GPUTBS_SUBMIT_ERR_NOMEM,
	GPUTBS_SUBMIT_ERR_AFTER_HANDLE,
	GPUTBS_SUBMIT_ERR_AFTER_FLAG,
	GPUTBS_SUBMIT_ERR_AFTER_CYCLES,
	GPUTBS_SUBMIT_ERR_AFTER_AT_CYCLE,
	GPUTBS_SUBMIT_ERR_RESERVE_GRIDS,
	GPUTBS_SUBMIT_ERR_RESERVE_BYTES,
	GPUTBS_SUBMIT_ERR_COUNT
};

/* Shapes of block duration distributions, &gputbs_submit.block_dist. */
/** GPUTBS_DIST_NORMAL - normal, clamped so no block is below t / 16 */
#define GPUTBS_DIST_NORMAL	0
/**
 * GPUTBS_DIST_SKEWED - right-skewed two-class mixture: a share
 * &gputbs_submit.block_dist_param (1000..500000 ppm) of heavy blocks far
 * above the mean, the rest a little below it (median below the mean)
 */
#define GPUTBS_DIST_SKEWED	1
/**
 * GPUTBS_DIST_PEAKED - a narrow core at the mean and a share
 * &gputbs_submit.block_dist_param (0..1000000 ppm, raised to the least the
 * RSD needs; 0 means that least) of outliers uniform within 1/16 to 31/16
 * of the mean; RSD at most 540000 ppm
 */
#define GPUTBS_DIST_PEAKED	2

/* Flags of &struct gputbs_wait. */
/** GPUTBS_WAIT_ANY - ignore @handle, reap any completed grid of this fd */
#define GPUTBS_WAIT_ANY		_BITUL(0)

/**
 * struct gputbs_wait - wait for a grid to complete and reap it
 * @handle: in: the grid (ignored with %GPUTBS_WAIT_ANY); out: the grid reaped.
 * @flags: GPUTBS_WAIT_* bits.
 * @timeout_ns: absolute CLOCK_MONOTONIC deadline, ns.  0 returns at once.
 *	Restarting after a signal keeps the same deadline.
 * @submit_ns: out: CLOCK_MONOTONIC time the grid arrived, ns: when it
 *	was submitted, or its &gputbs_submit.arrival_cycle if that was later.
 * @start_ns: out: time its first thread block started, ns.
 * @end_ns: out: time its last thread block ended, ns.
 * @submit_cycle: out: emulated cycle the grid arrived (as @submit_ns).
 * @start_cycle: out: emulated cycle its first block started.
 * @end_cycle: out: emulated cycle its last block ended.
 * @blocks_done: out: thread blocks completed (= nr_blocks on success).
 * @residency: out: the grid's maximum residency R, blocks per SM.
 *
 * %GPUTBS_IOCTL_WAIT sleeps interruptibly until the grid completes, then
 * fills the outputs and releases the handle.  Errors: -ETIMEDOUT when the
 * grid was stopped by its job timeout (%GPUTBS_FEATURE_JOB_TIMEOUT): it is
 * reaped all the same and the outputs are filled (@blocks_done below the
 * grid's blocks, @end_cycle the cycle it was stopped); -ETIME when the
 * deadline passed first (the grid stays queued), -ENOENT for an unknown
 * handle (or no grid with %GPUTBS_WAIT_ANY), -EINVAL for unknown flags,
 * -ERESTARTSYS/-EINTR on a signal, -EFAULT for a bad pointer (if only
 * writing the results back fails, the grid has been reaped and its handle
 * is gone).  Emulated times are converted with
 * &gputbs_info.time_scale_ps and &gputbs_info.epoch_ns.
 */
struct gputbs_wait {
	__u32 handle;
	__u32 flags;
	__s64 timeout_ns;
	__u64 submit_ns;
	__u64 start_ns;
	__u64 end_ns;
	__u64 submit_cycle;
	__u64 start_cycle;
	__u64 end_cycle;
	__u32 blocks_done;
	__u32 residency;
};

/**
 * struct gputbs_block_record - where and when one thread block ran
 * @sm: the SM it ran on, 0..&gputbs_info.nr_sms - 1.
 * @slot: its thread block slot on that SM (the paper's blkindex),
 *	0..&gputbs_info.max_blocks_per_sm - 1.  A slot holds one block at a
 *	time, of whatever grid.
 * @block: the block's index in its grid, 0..nr_blocks - 1.
 * @pad: zero.
 * @start_cycle: emulated cycle the block started.
 * @end_cycle: emulated cycle the block ended, > @start_cycle.
 *
 * Cycles are absolute emulated cycles (cycle 0 is &gputbs_info.epoch_ns),
 * the clock of &gputbs_wait.start_cycle and &gputbs_wait.end_cycle.  The
 * fields are those of a ``block`` line of Documentation/trace-format.rst.
 */
struct gputbs_block_record {
	__u32 sm;
	__u32 slot;
	__u32 block;
	__u32 pad;
	__u64 start_cycle;
	__u64 end_cycle;
};

/**
 * struct gputbs_blocks - fetch the block records of a completed grid
 * @handle: the grid, submitted with %GPUTBS_SUBMIT_RECORD_BLOCKS.
 * @flags: must be zero.
 * @nr_records: in: capacity of the array at @records_ptr, records; out:
 *	the number of records the grid has (its nr_blocks).
 * @pad: must be zero.
 * @records_ptr: user pointer to @nr_records &struct gputbs_block_record;
 *	may be 0 when @nr_records is 0.
 *
 * %GPUTBS_IOCTL_BLOCKS copies min(capacity, total) records, in the order
 * the blocks ended, and returns 0 with @nr_records set to the total: a
 * call with capacity 0 asks for the count.  It works on a completed grid
 * that has not been reaped yet; the grid stays unreaped (call it before
 * %GPUTBS_IOCTL_WAIT, for example when poll() reports the fd readable).
 * Errors: -EINVAL for non-zero @flags or @pad, -ENOENT for an unknown (or
 * already reaped) handle, -ENODATA for a grid submitted without
 * %GPUTBS_SUBMIT_RECORD_BLOCKS (checked before completion), -EBUSY while
 * the grid has not completed, -EFAULT for a bad @records_ptr.
 *
 * Context: process context; may sleep (copy to user).
 */
struct gputbs_blocks {
	__u32 handle;
	__u32 flags;
	__u32 nr_records;
	__u32 pad;
	__u64 records_ptr;
};

/** GPUTBS_IOCTL_BASE - ioctl type byte of /dev/gputbs */
#define GPUTBS_IOCTL_BASE	0xB9

/** GPUTBS_IOCTL_INFO - fill &struct gputbs_info */
#define GPUTBS_IOCTL_INFO	_IOR(GPUTBS_IOCTL_BASE, 0x00, struct gputbs_info)
/** GPUTBS_IOCTL_SUBMIT - submit a grid, see &struct gputbs_submit */
#define GPUTBS_IOCTL_SUBMIT	_IOWR(GPUTBS_IOCTL_BASE, 0x01, struct gputbs_submit)
/** GPUTBS_IOCTL_WAIT - wait for and reap a grid, see &struct gputbs_wait */
#define GPUTBS_IOCTL_WAIT	_IOWR(GPUTBS_IOCTL_BASE, 0x02, struct gputbs_wait)
/** GPUTBS_IOCTL_BLOCKS - fetch block records, see &struct gputbs_blocks */
#define GPUTBS_IOCTL_BLOCKS	_IOWR(GPUTBS_IOCTL_BASE, 0x03, struct gputbs_blocks)

#endif /* _UAPI_LINUX_GPUTBS_H */
