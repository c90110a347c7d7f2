/* SPDX-License-Identifier: GPL-2.0 */
/*
 * gtbs.h - portable core of gputbs: device model, occupancy calculation,
 * SM timing model, thread block dispatch engine, policies and metrics.
 *
 * Everything here is plain C built twice: into gputbs.ko and into
 * userland.  The core never allocates, never sleeps and never takes a
 * lock: the caller serialises all calls on one device with its own lock
 * (the module's &gputbs_device.lock, a spinlock) and owns all memory.
 *
 * Copyright (C) 2026 The gputbs developers
 */
#ifndef _GTBS_H
#define _GTBS_H

#include "gtbs_shim.h"

/** GTBS_FP_ONE - 1.0 in the core's fixed-point metrics (micro-units) */
#define GTBS_FP_ONE		1000000ULL
/** GTBS_PPM - parts per million, unit of relative standard deviations */
#define GTBS_PPM		1000000U
/** GTBS_MAX_BLOCK_CYCLES - longest block duration accepted, cycles */
#define GTBS_MAX_BLOCK_CYCLES	BIT_ULL(40)
/** GTBS_PROGRESS_SCALE - fixed-point scale of an SM's progress clock */
#define GTBS_PROGRESS_SCALE	BIT_ULL(16)
/** GTBS_LABEL_LEN - bytes in a grid label, NUL included */
#define GTBS_LABEL_LEN		32

struct gtbs_dev;
struct gtbs_grid;
struct gtbs_sm;

/**
 * struct gtbs_dev_config - resources of the emulated device
 * @nr_sms: streaming multiprocessors, 1..%GTBS_MAX_SMS.
 * @warp_size: threads per warp, 1..1024.
 * @max_threads_per_sm: thread contexts per SM.
 * @max_regs_per_sm: registers per SM.
 * @max_shmem_per_sm: shared memory per SM, bytes.
 * @max_blocks_per_sm: thread block slots per SM, 1..%GTBS_MAX_BLOCKS_PER_SM.
 * @max_warps_per_sm: warp contexts per SM.
 * @max_threads_per_block: largest thread block, threads.
 * @max_regs_per_thread: largest register count per thread.
 * @reg_alloc_unit: registers are allocated per warp in multiples of this.
 * @shmem_alloc_unit: shared memory is allocated in multiples of this, bytes.
 * @max_blocks_per_grid: largest grid accepted, thread blocks.
 * @load_knee_warps: timing model constant K, warps (timing-model.rst).
 * @clock_khz: nominal clock of the modelled GPU, kHz (informational).
 *
 * Defaults (gtbs_config_default()) are the paper's Table "Simulator
 * Configuration" with the Fermi (compute capability 2.0) allocation rules
 * of the NVIDIA occupancy calculator.
 */
struct gtbs_dev_config {
	u32 nr_sms;
	u32 warp_size;
	u32 max_threads_per_sm;
	u32 max_regs_per_sm;
	u32 max_shmem_per_sm;
	u32 max_blocks_per_sm;
	u32 max_warps_per_sm;
	u32 max_threads_per_block;
	u32 max_regs_per_thread;
	u32 reg_alloc_unit;
	u32 shmem_alloc_unit;
	u32 max_blocks_per_grid;
	u32 load_knee_warps;
	u32 clock_khz;
};

/** GTBS_MAX_SMS - largest SM count of a device */
#define GTBS_MAX_SMS		1024
/** GTBS_MAX_BLOCKS_PER_SM - largest thread block slot count per SM */
#define GTBS_MAX_BLOCKS_PER_SM	64

/**
 * struct gtbs_grid_desc - what a grid asks for (the uapi's submit fields)
 * @nr_blocks: thread blocks, 1..&gtbs_dev_config.max_blocks_per_grid.
 * @threads_per_block: threads per block.
 * @regs_per_thread: registers per thread.
 * @shmem_per_block: shared memory per block, bytes.
 * @block_cycles: mean block duration alone at maximum residency, cycles;
 *	0 when @durations is used.
 * @block_rsd_ppm: relative standard deviation of durations, ppm.
 * @seed: seed of the duration sequence.
 * @durations: NULL, or @nr_blocks explicit durations in cycles (the
 *	caller owns the array for the grid's lifetime).
 * @label: NUL-terminated name.
 */
struct gtbs_grid_desc {
	u32 nr_blocks;
	u32 threads_per_block;
	u32 regs_per_thread;
	u32 shmem_per_block;
	u64 block_cycles;
	u32 block_rsd_ppm;
	u64 seed;
	const u64 *durations;
	char label[GTBS_LABEL_LEN];
};

/**
 * enum gtbs_limiter - resource that bounds a grid's maximum residency
 * @GTBS_LIMIT_BLOCKS: thread block slots per SM.
 * @GTBS_LIMIT_WARPS: warp contexts (equivalently threads) per SM.
 * @GTBS_LIMIT_REGS: registers per SM.
 * @GTBS_LIMIT_SHMEM: shared memory per SM.
 */
enum gtbs_limiter {
	GTBS_LIMIT_BLOCKS,
	GTBS_LIMIT_WARPS,
	GTBS_LIMIT_REGS,
	GTBS_LIMIT_SHMEM,
};

/**
 * struct gtbs_occupancy - per-block footprint and maximum residency
 * @residency: maximum residency R, blocks per SM (0: does not fit).
 * @limiter: the resource that gives @residency.
 * @warps: warps per block.
 * @threads: threads per block as allocated (whole warps).
 * @regs: registers per block as allocated.
 * @shmem: shared memory per block as allocated, bytes.
 */
struct gtbs_occupancy {
	u32 residency;
	enum gtbs_limiter limiter;
	u32 warps;
	u32 threads;
	u32 regs;
	u32 shmem;
};

/**
 * enum gtbs_grid_state - life of a grid in the engine
 * @GTBS_GRID_NEW: initialised, not yet submitted.
 * @GTBS_GRID_QUEUED: submitted, no block has started.
 * @GTBS_GRID_RUNNING: at least one block started, not all ended.
 * @GTBS_GRID_DONE: every block ended.
 * @GTBS_GRID_CANCELLED: removed before completion by gtbs_grid_cancel().
 *
 * ::
 *
 *   NEW --submit--> QUEUED --first block--> RUNNING --last block--> DONE
 *                      |                       |
 *                      +--------cancel---------+--> CANCELLED
 */
enum gtbs_grid_state {
	GTBS_GRID_NEW,
	GTBS_GRID_QUEUED,
	GTBS_GRID_RUNNING,
	GTBS_GRID_DONE,
	GTBS_GRID_CANCELLED,
};

/**
 * struct gtbs_grid - a submitted grid
 * @node: link in &gtbs_dev.grids (arrival order) while QUEUED or RUNNING.
 * @pending_node: link in &gtbs_dev.pending while blocks remain unissued.
 * @desc: what was asked for.
 * @occ: footprint and maximum residency R.
 * @id: device-wide sequence number, in arrival order.
 * @state: see &enum gtbs_grid_state.
 * @next_block: blocks issued so far (index of the next block to issue).
 * @blocks_done: blocks ended.
 * @resident: blocks resident now, all SMs.
 * @submit_cycle: emulated cycle of submission.
 * @start_cycle: emulated cycle its first block started.
 * @end_cycle: emulated cycle its last block ended.
 * @priv: owner's pointer (the module's grid, the simulator's job).
 * @sm_resident: blocks resident on each SM, &gtbs_dev_config.nr_sms entries.
 *
 * All members are protected by the lock that serialises the device.
 */
struct gtbs_grid {
	struct list_head node;
	struct list_head pending_node;
	struct gtbs_grid_desc desc;
	struct gtbs_occupancy occ;
	u64 id;
	enum gtbs_grid_state state;
	u32 next_block;
	u32 blocks_done;
	u32 resident;
	u64 submit_cycle;
	u64 start_cycle;
	u64 end_cycle;
	void *priv;
	u32 sm_resident[];
};

/**
 * struct gtbs_slot - a thread block slot of an SM
 * @grid: grid of the resident block, NULL when the slot is free.
 * @block: index of the block in its grid.
 * @start_cycle: emulated cycle the block started.
 * @progress_end: SM progress value at which the block ends.
 */
struct gtbs_slot {
	struct gtbs_grid *grid;
	u32 block;
	u64 start_cycle;
	u64 progress_end;
};

/**
 * struct gtbs_sm - one streaming multiprocessor
 * @id: index, 0..nr_sms-1.
 * @used_threads: thread contexts held by resident blocks.
 * @used_warps: warp contexts held; also the SM's load L of the timing model.
 * @used_regs: registers held.
 * @used_shmem: shared memory held, bytes.
 * @nr_resident: resident blocks, 0..max_blocks_per_sm.
 * @now: emulated cycle up to which @progress is current.
 * @progress: the SM's progress clock at @now (timing-model.rst).
 * @progress_carry: the fraction of a progress unit @progress is short of
 *	the exact value, in units of 1 / (K + @used_warps); reset when the
 *	load changes.
 * @blocks_run: blocks that ended on this SM.
 * @busy_cycles: cycles with at least one resident block.
 * @kicked: the scheduling state changed since the SM last issued blocks;
 *	gtbs_dev_run_until() re-evaluates kicked SMs at once.
 * @kick_cycle: while @kicked, the cycle of the earliest event that kicked
 *	the SM: the cycle at which an idle SM should issue blocks, however
 *	late its thread wakes.
 * @slots: &gtbs_dev_config.max_blocks_per_sm slots.
 *
 * Protected by the device lock.  Allocate gtbs_sm_size() bytes.
 */
struct gtbs_sm {
	u32 id;
	u32 used_threads;
	u32 used_warps;
	u32 used_regs;
	u32 used_shmem;
	u32 nr_resident;
	u64 now;
	u64 progress;
	u32 progress_carry;
	u64 blocks_run;
	u64 busy_cycles;
	bool kicked;
	u64 kick_cycle;
	struct gtbs_slot slots[];
};

/**
 * struct gtbs_policy_ops - a thread block scheduling policy
 * @name: short name shown in sysfs and used on command lines.
 * @pick_grid: required.  Called with the device lock held, from
 *	gtbs_sm_advance(), whenever @sm may issue a block.  Returns the grid
 *	the SM should issue its next block from, or NULL to issue nothing.
 *	If the returned grid's block does not fit on @sm the SM issues
 *	nothing until its next event.  Must not sleep.
 * @grid_arrive: optional.  A grid was submitted (device lock held).
 * @grid_end: optional.  A grid completed or was cancelled (lock held).
 *
 * Modelled on the pluggable ops of sched_ext and tcp_congestion_ops.
 */
struct gtbs_policy_ops {
	const char *name;
	struct gtbs_grid *(*pick_grid)(struct gtbs_dev *dev, struct gtbs_sm *sm);
	void (*grid_arrive)(struct gtbs_dev *dev, struct gtbs_grid *grid);
	void (*grid_end)(struct gtbs_dev *dev, struct gtbs_grid *grid);
};

/**
 * struct gtbs_backend_ops - what the owner of a device is told
 * @grid_start: optional.  First block of @grid started.
 * @grid_done: optional.  Last block of @grid ended; the grid has left
 *	&gtbs_dev.grids and the core no longer touches it.
 * @block_start: optional.  A block started on @sm at @cycle.
 * @block_end: optional.  A block ended on @sm; @start and @end in cycles.
 * @kick: optional.  @sm should call gtbs_sm_advance() soon because the
 *	scheduling state changed (a grid arrived or ended); first at
 *	&gtbs_sm.kick_cycle if its owner runs it late.
 *
 * All ops are called with the device lock held and must not sleep.
 */
struct gtbs_backend_ops {
	void (*grid_start)(struct gtbs_dev *dev, struct gtbs_grid *grid);
	void (*grid_done)(struct gtbs_dev *dev, struct gtbs_grid *grid);
	void (*block_start)(struct gtbs_dev *dev, struct gtbs_sm *sm,
			    struct gtbs_grid *grid, u32 block, u64 cycle);
	void (*block_end)(struct gtbs_dev *dev, struct gtbs_sm *sm,
			  struct gtbs_grid *grid, u32 block, u64 start,
			  u64 end);
	void (*kick)(struct gtbs_dev *dev, struct gtbs_sm *sm);
};

/**
 * struct gtbs_dev - the emulated device and its scheduler state
 * @cfg: resources; constant while grids exist.
 * @policy: thread block scheduling policy.
 * @backend: owner callbacks, may be NULL.
 * @priv: owner's pointer.
 * @sms: @cfg.nr_sms SMs, allocated by the owner.
 * @grids: QUEUED and RUNNING grids in arrival order.
 * @pending: grids with unissued blocks, in arrival order.
 * @nr_grids: grids on @grids.
 * @next_id: id of the next grid submitted.
 * @grids_submitted: counter.
 * @grids_completed: counter.
 * @blocks_dispatched: counter.
 *
 * Every member is protected by the owner's device lock.
 */
struct gtbs_dev {
	struct gtbs_dev_config cfg;
	const struct gtbs_policy_ops *policy;
	const struct gtbs_backend_ops *backend;
	void *priv;
	struct gtbs_sm **sms;
	struct list_head grids;
	struct list_head pending;
	u32 nr_grids;
	u64 next_id;
	u64 grids_submitted;
	u64 grids_completed;
	u64 blocks_dispatched;
};

/* config.c */
void gtbs_config_default(struct gtbs_dev_config *cfg);
int gtbs_config_check(const struct gtbs_dev_config *cfg, const char **why);

/* occupancy.c */
int gtbs_occupancy_calc(const struct gtbs_dev_config *cfg,
			const struct gtbs_grid_desc *desc,
			struct gtbs_occupancy *occ);
const char *gtbs_limiter_name(enum gtbs_limiter limiter);

/* timing.c */
u64 gtbs_block_work(const struct gtbs_grid_desc *desc, u32 block);
u64 gtbs_block_progress(u64 work, u32 knee_warps, u32 full_warps);
u64 gtbs_progress_advance(u64 cycles, u32 knee_warps, u32 load_warps);
u64 gtbs_progress_cycles(u64 progress, u32 knee_warps, u32 load_warps);
u32 gtbs_progress_remainder(u64 cycles, u32 div);

/* engine.c */
size_t gtbs_sm_size(const struct gtbs_dev_config *cfg);
size_t gtbs_grid_size(const struct gtbs_dev_config *cfg);
void gtbs_dev_init(struct gtbs_dev *dev, const struct gtbs_dev_config *cfg,
		   const struct gtbs_policy_ops *policy, struct gtbs_sm **sms);
void gtbs_sm_init(const struct gtbs_dev_config *cfg, struct gtbs_sm *sm, u32 id);
int gtbs_grid_desc_check(const struct gtbs_dev_config *cfg,
			 const struct gtbs_grid_desc *desc, const char **why);
int gtbs_grid_init(struct gtbs_dev *dev, struct gtbs_grid *grid,
		   const struct gtbs_grid_desc *desc, const char **why);
void gtbs_grid_submit(struct gtbs_dev *dev, struct gtbs_grid *grid, u64 now);
void gtbs_grid_cancel(struct gtbs_dev *dev, struct gtbs_grid *grid, u64 now);
u64 gtbs_sm_advance(struct gtbs_dev *dev, struct gtbs_sm *sm, u64 now);
u64 gtbs_sm_next_event(const struct gtbs_dev *dev, const struct gtbs_sm *sm);
u64 gtbs_dev_next_event(const struct gtbs_dev *dev);
void gtbs_dev_run_until(struct gtbs_dev *dev, u64 until);
bool gtbs_dev_idle(const struct gtbs_dev *dev);

/* policy.c */
const struct gtbs_policy_ops *gtbs_policy_find(const char *name);
const struct gtbs_policy_ops *gtbs_policy_at(unsigned int index);
extern const struct gtbs_policy_ops gtbs_policy_fifo;

/* metrics.c */

/**
 * struct gtbs_metrics - multiprogram metrics of one workload run
 * @stp: system throughput, sum of alone/shared runtimes, GTBS_FP_ONE = 1.
 * @antt: average normalised turnaround time, mean of shared/alone.
 * @strictf: StrictF fairness, min slowdown / max slowdown, 0..GTBS_FP_ONE.
 * @max_slowdown: largest per-program slowdown.
 * @min_slowdown: smallest per-program slowdown.
 */
struct gtbs_metrics {
	u64 stp;
	u64 antt;
	u64 strictf;
	u64 max_slowdown;
	u64 min_slowdown;
};

u64 gtbs_slowdown(u64 shared, u64 alone);
int gtbs_metrics_calc(const u64 *alone, const u64 *shared, u32 n,
		      struct gtbs_metrics *m);

#endif /* _GTBS_H */
