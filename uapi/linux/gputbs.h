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
	__u64 reserved[4];
};

/* Work models for &struct gputbs_submit.work_model. */
/** GPUTBS_WORK_DIST - durations from @block_cycles, @block_rsd_ppm, @seed */
#define GPUTBS_WORK_DIST	1
/** GPUTBS_WORK_ARRAY - durations from the array at @durations_ptr */
#define GPUTBS_WORK_ARRAY	2

/**
 * struct gputbs_submit - submit a grid of thread blocks
 * @flags: must be zero.
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
 * @pad: must be zero.
 *
 * %GPUTBS_IOCTL_SUBMIT computes the grid's maximum residency R with the
 * occupancy calculation and queues it.  Errors: -EINVAL for an invalid
 * field or a grid that cannot fit on an SM (R = 0), -EFAULT for a bad
 * pointer, -E2BIG for too many blocks, -EAGAIN when the fd holds
 * &gputbs_info.max_grids_per_fd unreaped grids, -ENOMEM.  On error nothing
 * is queued, except for -EFAULT when the struct cannot be written back: the
 * grid then runs without a known handle and is cancelled when the file is
 * closed.
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
	__u32 pad;
};

/* Flags of &struct gputbs_wait. */
/** GPUTBS_WAIT_ANY - ignore @handle, reap any completed grid of this fd */
#define GPUTBS_WAIT_ANY		_BITUL(0)

/**
 * struct gputbs_wait - wait for a grid to complete and reap it
 * @handle: in: the grid (ignored with %GPUTBS_WAIT_ANY); out: the grid reaped.
 * @flags: GPUTBS_WAIT_* bits.
 * @timeout_ns: absolute CLOCK_MONOTONIC deadline, ns.  0 returns at once.
 *	Restarting after a signal keeps the same deadline.
 * @submit_ns: out: CLOCK_MONOTONIC time the grid was submitted, ns.
 * @start_ns: out: time its first thread block started, ns.
 * @end_ns: out: time its last thread block ended, ns.
 * @submit_cycle: out: emulated cycle of submission.
 * @start_cycle: out: emulated cycle its first block started.
 * @end_cycle: out: emulated cycle its last block ended.
 * @blocks_done: out: thread blocks completed (= nr_blocks on success).
 * @residency: out: the grid's maximum residency R, blocks per SM.
 *
 * %GPUTBS_IOCTL_WAIT sleeps interruptibly until the grid completes, then
 * fills the outputs and releases the handle.  Errors: -ETIME when the
 * deadline passed first (the grid stays queued), -ENOENT for an unknown
 * handle (or no grid with %GPUTBS_WAIT_ANY), -EINVAL for unknown flags,
 * -ERESTARTSYS/-EINTR on a signal.  Emulated times are converted with
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

/** GPUTBS_IOCTL_BASE - ioctl type byte of /dev/gputbs */
#define GPUTBS_IOCTL_BASE	0xB9

/** GPUTBS_IOCTL_INFO - fill &struct gputbs_info */
#define GPUTBS_IOCTL_INFO	_IOR(GPUTBS_IOCTL_BASE, 0x00, struct gputbs_info)
/** GPUTBS_IOCTL_SUBMIT - submit a grid, see &struct gputbs_submit */
#define GPUTBS_IOCTL_SUBMIT	_IOWR(GPUTBS_IOCTL_BASE, 0x01, struct gputbs_submit)
/** GPUTBS_IOCTL_WAIT - wait for and reap a grid, see &struct gputbs_wait */
#define GPUTBS_IOCTL_WAIT	_IOWR(GPUTBS_IOCTL_BASE, 0x02, struct gputbs_wait)

#endif /* _UAPI_LINUX_GPUTBS_H */
