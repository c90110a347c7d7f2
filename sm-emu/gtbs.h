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
#include "predictor.h"

/** GTBS_FP_ONE - 1.0 in the core's fixed-point metrics (micro-units) */
#define GTBS_FP_ONE		1000000ULL
/** GTBS_PPM - parts per million, unit of relative standard deviations */
#define GTBS_PPM		1000000U
/** GTBS_MAX_BLOCK_CYCLES - longest block duration accepted, cycles */
#define GTBS_MAX_BLOCK_CYCLES	BIT_ULL(40)
/** GTBS_MAX_TIMEOUT_CYCLES - longest job timeout accepted, cycles (2^62) */
#define GTBS_MAX_TIMEOUT_CYCLES	BIT_ULL(62)
/** GTBS_SKEWED_MIN_PPM - least heavy share of %GTBS_DIST_SKEWED, ppm */
#define GTBS_SKEWED_MIN_PPM	1000U
/** GTBS_SKEWED_MAX_PPM - largest heavy share of %GTBS_DIST_SKEWED, ppm */
#define GTBS_SKEWED_MAX_PPM	500000U
/** GTBS_PEAKED_MAX_RSD_PPM - largest RSD %GTBS_DIST_PEAKED can have, ppm */
#define GTBS_PEAKED_MAX_RSD_PPM	540000U
/** GTBS_PROGRESS_SCALE - fixed-point scale of an SM's progress clock */
#define GTBS_PROGRESS_SCALE	BIT_ULL(16)
/** GTBS_MAX_KNEE_MWARPS - largest per-grid knee, 1/1000 warps (1024 warps) */
#define GTBS_MAX_KNEE_MWARPS	1024000U
/**
 * GTBS_MAX_AFTER_CYCLES - largest gap of stream order, cycles (2^40, the
 * uapi's GPUTBS_ARRIVAL_MAX_AHEAD)
 */
#define GTBS_MAX_AFTER_CYCLES	BIT_ULL(40)
/**
 * GTBS_WARP_SCALE - warps are counted in 1/1000 in the timing model's rate
 * divisors (knees and per-grid loads, timing-model.rst "Co-runners")
 */
#define GTBS_WARP_SCALE		1000U
/**
 * GTBS_THROTTLE_OWNER - &gtbs_grid.throttle bit: the device's owner
 *	throttled the grid (the module: its user's block events made the
 *	device fall behind the wall clock, Documentation/reliability.rst)
 */
#define GTBS_THROTTLE_OWNER	1U
/**
 * GTBS_THROTTLE_CAP - &gtbs_grid.throttle bit: the grid's tenant spent its
 *	cap's budget for the period (tenant.c)
 */
#define GTBS_THROTTLE_CAP	2U
/** GTBS_THROTTLE_ALL - every &gtbs_grid.throttle bit defined */
#define GTBS_THROTTLE_ALL	(GTBS_THROTTLE_OWNER | GTBS_THROTTLE_CAP)
/**
 * GTBS_SM_TIME_SCALE - units of SM time per SM-cycle (&gtbs_tenant.sm_time):
 *	a block of residency R holds SCALE / R per cycle (tenant.c)
 */
#define GTBS_SM_TIME_SCALE	1000000ULL
/** GTBS_TENANT_WEIGHT_DEFAULT - a tenant's weight unless set (cpu.weight's) */
#define GTBS_TENANT_WEIGHT_DEFAULT	100
/** GTBS_TENANT_WEIGHT_MAX - the largest weight (cpu.weight's) */
#define GTBS_TENANT_WEIGHT_MAX	10000
/**
 * GTBS_CAP_PERIOD_DEFAULT - cycles of a cap's period (&gtbs_dev.cap_period):
 *	100,000 cycles, 71 us at the GTX 480's 1.401 GHz, 51 us at the H100's
 *	1.98 GHz, a thousandth of CFS's default 100 ms period (a GPU block
 *	lasts microseconds where a CPU slice lasts milliseconds)
 */
#define GTBS_CAP_PERIOD_DEFAULT	100000ULL
/**
 * GTBS_POLICY_TENANTS - &gtbs_policy_ops.flags: the policy orders tenants
 *	(``fair``), not programs: sweeps of the paper's pairs (``gputbs-sim
 *	eval``, ``gputbs eval``) leave it out unless --policies names it
 */
#define GTBS_POLICY_TENANTS	1U
/** GTBS_POLICY_TENANT_PRIV_SIZE - bytes of policy state per tenant */
#define GTBS_POLICY_TENANT_PRIV_SIZE	48
/** GTBS_LABEL_LEN - bytes in a grid label, NUL included */
#define GTBS_LABEL_LEN		32
/** GTBS_POLICY_NAME_LEN - bytes in a policy name, NUL included */
#define GTBS_POLICY_NAME_LEN	32
/** GTBS_MAX_POLICIES - policies registered at once, built-ins included */
#define GTBS_MAX_POLICIES	32
/** GTBS_MAX_POLICY_PARAMS - tunables one policy may declare */
#define GTBS_MAX_POLICY_PARAMS	16
/*
 * Policy-private state lives in fixed areas of the core's objects, sized
 * by each policy's &gtbs_policy_ops (as tcp_congestion_ops' private data
 * lives in icsk_ca_priv[]): registration rejects a policy that asks for
 * more.  No allocation, so no op can fail.
 */
/** GTBS_POLICY_DEV_PRIV_SIZE - bytes of policy state per device */
#define GTBS_POLICY_DEV_PRIV_SIZE	256
/** GTBS_POLICY_SM_PRIV_SIZE - bytes of policy state per SM */
#define GTBS_POLICY_SM_PRIV_SIZE	32
/** GTBS_POLICY_GRID_PRIV_SIZE - bytes of policy state per grid */
#define GTBS_POLICY_GRID_PRIV_SIZE	96
/** GTBS_POLICY_GRID_SM_PRIV_SIZE - bytes of policy state per (grid, SM) */
#define GTBS_POLICY_GRID_SM_PRIV_SIZE	56

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
 * @timing_model: &enum gtbs_timing_model (timing-model.rst): how grids
 *	that share an SM slow each other down.
 * @block_times: &enum gtbs_block_times (timing-model.rst, "Waves"): whether
 *	the blocks of a wave share a component of their durations.
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
	u32 timing_model;
	u32 block_times;
};

/**
 * struct gtbs_dev_preset - a named device configuration
 * @name: short name, lower case: "gtx480", "v100", "a100", "h100".
 * @desc: the product it models, for humans.
 * @cfg: its configuration; &gtbs_dev_config.timing_model is 0 (overlap).
 * @mem_bw_mbs: the product's peak DRAM bandwidth, MB/s (10^6 bytes per
 *	second), from its datasheet or whitepaper: 177400 (GTX 480) to
 *	3350000 (H100 SXM); never 0.
 * @save_bw_mbs: the effective bandwidth at which it saves contexts, MB/s,
 *	1 to @mem_bw_mbs: the A100's 1100000 measured by GPreempt (USENIX
 *	ATC 2025), the others the same fraction of their peak,
 *	@mem_bw_mbs x 1100000 / 1555000 rounded to 100 MB/s (an
 *	assumption); see gtbs_config_preset_at().  At the preset's clock
 *	and SM count it is &gtbs_dev.switch_bytes_per_cycle's counterpart:
 *	@save_bw_mbs x 10^6 / (clock in Hz x SMs) bytes per cycle per SM
 *	(A100 7.2, H100 9.1).
 *
 * The table and its sources: gtbs_config_preset_at() and
 * Documentation/design.rst, "Device presets".  The bandwidths are
 * informational: the core saves contexts at &gtbs_dev.switch_bytes_per_cycle,
 * %GTBS_SWITCH_BYTES_PER_CYCLE_DEFAULT on every preset unless set (design.rst,
 * "Preemption cost", says why), and gtbs_config_context_bytes() gives what
 * a full device holds.
 */
struct gtbs_dev_preset {
	const char *name;
	const char *desc;
	struct gtbs_dev_config cfg;
	u64 mem_bw_mbs;
	u64 save_bw_mbs;
};

/**
 * enum gtbs_timing_model - how co-running grids slow each other down
 * @GTBS_TIMING_OVERLAP: the demand-overlap model (the default): each grid
 *	sees the SM's issue and memory loads weighted by its own demand
 *	(&gtbs_grid_desc.mem_ppm) and has its own knee (knee_mwarps).
 * @GTBS_TIMING_UNIFORM: the first release's model, kept for comparison:
 *	every grid is issue-bound at the device's knee, so every warp on an
 *	SM slows every block alike.
 * @GTBS_NR_TIMING_MODELS: number of models.
 */
enum gtbs_timing_model {
	GTBS_TIMING_OVERLAP,
	GTBS_TIMING_UNIFORM,
	GTBS_NR_TIMING_MODELS,
};

/**
 * enum gtbs_block_times - how a grid's block durations are correlated
 * @GTBS_BLOCK_TIMES_WAVE: the default: a normally distributed grid's
 *	variation (dist=normal) is a component shared by the blocks of a
 *	wave times a per-block one, %GTBS_WAVE_SHARE_PPM of the variance in
 *	the first (gtbs_grid_block_work()); two-class shapes stay per block.
 * @GTBS_BLOCK_TIMES_INDEPENDENT: every block drawn on its own
 *	(gtbs_block_work()), the model before 2026-11-28.
 * @GTBS_NR_BLOCK_TIMES: number of models.
 */
enum gtbs_block_times {
	GTBS_BLOCK_TIMES_WAVE,
	GTBS_BLOCK_TIMES_INDEPENDENT,
	GTBS_NR_BLOCK_TIMES,
};

/**
 * GTBS_WAVE_SHARE_PPM - share of a normally distributed grid's block
 * duration variance that its wave shares, ppm (timing-model.rst, "Waves"):
 * from the paper's offset-0 statement that the second program waits
 * about 1.7 M cycles behind SHA1 (t = 1,708,531 cycles, %RSD 7.98): the
 * first of SHA1's 120 first-wave blocks ends at t (1 - 2.58 sigma_b) in
 * expectation, 1.65 M..1.75 M for sigma_b <= 1.33%, so at least 97.2% of
 * the variance is the wave's; 98% keeps a per-block sigma of 1.13% (ends
 * 1.658 M in expectation).
 */
#define GTBS_WAVE_SHARE_PPM	980000

/**
 * enum gtbs_prio_class - priority class of a grid
 * @GTBS_PRIO_LOW: below the default.
 * @GTBS_PRIO_NORMAL: the default class.
 * @GTBS_PRIO_HIGH: above normal; the module requires CAP_SYS_NICE.
 * @GTBS_PRIO_REALTIME: the highest class; CAP_SYS_NICE in the module.
 * @GTBS_NR_PRIO_CLASSES: number of classes.
 *
 * Across classes the order is strict and preemptive at block boundaries:
 * no SM issues a block of a lower class while a higher class has a block
 * to issue (Documentation/scheduling.rst).  Within a class the device's
 * policy decides.
 */
enum gtbs_prio_class {
	GTBS_PRIO_LOW,
	GTBS_PRIO_NORMAL,
	GTBS_PRIO_HIGH,
	GTBS_PRIO_REALTIME,
	GTBS_NR_PRIO_CLASSES,
};

/**
 * struct gtbs_grid_desc - what a grid asks for (the uapi's submit fields)
 * @nr_blocks: thread blocks, 1..&gtbs_dev_config.max_blocks_per_grid.
 * @prio_class: &enum gtbs_prio_class, below %GTBS_NR_PRIO_CLASSES.
 * @threads_per_block: threads per block.
 * @regs_per_thread: registers per thread.
 * @shmem_per_block: shared memory per block, bytes.
 * @block_cycles: mean block duration alone at maximum residency, cycles;
 *	0 when @durations is used.
 * @block_rsd_ppm: relative standard deviation of durations, ppm.
 * @seed: seed of the duration sequence.
 * @durations: NULL, or @nr_blocks explicit durations in cycles (the
 *	caller owns the array for the grid's lifetime).
 * @timeout_cycles: the grid's own job timeout, emulated cycles from its
 *	first block's start, 0..2^62; 0 means the device's
 *	(&gtbs_dev.timeout_cycles).  The lower of the two non-zero values
 *	applies (gtbs_grid_timeout()).
 * @mem_ppm: co-running timing model: the share of the grid's per-warp
 *	demand on the SM's shared memory pipe, the rest being on its issue
 *	pipe, ppm, 0..%GTBS_PPM; 0 (issue only) is what every grid had before
 *	the model was per kernel (timing-model.rst "Co-runners").
 * @knee_mwarps: the grid's own knee K, 1/1000 warps, 0..%GTBS_MAX_KNEE_MWARPS;
 *	0 means the device's &gtbs_dev_config.load_knee_warps.
 * @block_dist: shape of the block duration distribution,
 *	&enum gtbs_block_dist (with @block_cycles; ignored with @durations).
 * @block_dist_param: the shape's parameter, ppm (0 for
 *	%GTBS_DIST_NORMAL).
 * @startup_ppm: start-up effect: extra duration of a start-up block, ppm
 *	of its drawn duration, 0..%GTBS_PPM * 16; 0 disables it.
 * @startup_blocks: start-up effect: how many of the grid's first blocks
 *	may be start-up blocks, 0..@nr_blocks; 0 with @startup_ppm 0.
 * @idempotent: the submitter declares that running a block again from
 *	its start gives the same result, so its blocks may be flushed
 *	(%GTBS_PREEMPT_FLUSH); false: they are only ever drained or
 *	context-switched.
 * @label: NUL-terminated name.
 *
 * The members a pick and a block's issue read come first (the block count
 * and class, then the work model), the label last: a grid's descriptor
 * starts in its first cache line (&struct gtbs_grid).
 */
struct gtbs_grid_desc {
	u32 nr_blocks;
	u32 prio_class;
	u32 threads_per_block;
	u32 regs_per_thread;
	u32 shmem_per_block;
	u32 block_rsd_ppm;
	u64 block_cycles;
	u64 seed;
	const u64 *durations;
	u64 timeout_cycles;
	u32 mem_ppm;
	u32 knee_mwarps;
	u32 block_dist;
	u32 block_dist_param;
	u32 startup_ppm;
	u32 startup_blocks;
	bool idempotent;
	char label[GTBS_LABEL_LEN];
};

/**
 * struct gtbs_grid_err - why a grid description was rejected
 * @reason: the uapi's &enum gputbs_submit_err code of the check
 *	(GPUTBS_SUBMIT_ERR_*), so that the module and the simulator report
 *	the same codes; 0 when the description is valid.
 * @value: the offending value (see each code in uapi/linux/gputbs.h).
 * @limit: the limit it broke.
 * @why: a static string for a person to read, NULL when valid.
 *
 * Filled by gtbs_grid_desc_verify().
 */
struct gtbs_grid_err {
	u32 reason;
	u64 value;
	u64 limit;
	const char *why;
};

/**
 * enum gtbs_block_dist - shape of a grid's block duration distribution
 * @GTBS_DIST_NORMAL: normal with the grid's mean and RSD, clamped
 *	symmetrically so that no block is shorter than t / 16 (the model of
 *	the first release; the default).
 * @GTBS_DIST_SKEWED: right-skewed two-class mixture: a share
 *	&gtbs_grid_desc.block_dist_param (%GTBS_SKEWED_MIN_PPM..
 *	%GTBS_SKEWED_MAX_PPM) of heavy blocks far above t, the others a
 *	little below it, each class uniform over +-sqrt(3) RSD / 4 of its
 *	mean (RayTracing's render).
 * @GTBS_DIST_PEAKED: a core uniform within +-sqrt(3) RSD / 16 of t and a
 *	share &gtbs_grid_desc.block_dist_param (ppm, raised to the least
 *	the RSD needs; 0 means that least) of outliers uniform over
 *	t (1 +- h), h <= 15/16; RSD at most %GTBS_PEAKED_MAX_RSD_PPM.
 * @GTBS_NR_BLOCK_DISTS: number of shapes.
 *
 * Every shape has the grid's mean t and RSD in expectation
 * (Documentation/timing-model.rst, "Block work", gives the closed forms).
 */
enum gtbs_block_dist {
	GTBS_DIST_NORMAL,
	GTBS_DIST_SKEWED,
	GTBS_DIST_PEAKED,
	GTBS_NR_BLOCK_DISTS,
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
 * struct gtbs_footprint - SM resources held by a set of blocks
 * @blocks: thread block slots.
 * @warps: warp contexts.
 * @threads: thread contexts.
 * @regs: registers.
 * @shmem: shared memory, bytes.
 */
struct gtbs_footprint {
	u32 blocks;
	u32 warps;
	u32 threads;
	u32 regs;
	u32 shmem;
};

/**
 * enum gtbs_grid_state - life of a grid in the engine
 * @GTBS_GRID_NEW: initialised, not yet submitted.
 * @GTBS_GRID_ARRIVING: submitted for a later cycle (gtbs_grid_submit_at());
 *	on &gtbs_dev.arrivals, invisible to the policy until it arrives.
 * @GTBS_GRID_QUEUED: arrived, no block has started.
 * @GTBS_GRID_RUNNING: at least one block started, not all ended.
 * @GTBS_GRID_DONE: every block ended.
 * @GTBS_GRID_CANCELLED: removed before completion by gtbs_grid_cancel().
 * @GTBS_GRID_TIMED_OUT: stopped by the job timeout: it was RUNNING
 *	gtbs_grid_timeout() cycles after its first block started.
 * @GTBS_GRID_WAITING: submitted in stream order (gtbs_grid_submit_after());
 *	on &gtbs_dev.waiting and its predecessor's &gtbs_grid.dependents,
 *	invisible to the policy, until the predecessor leaves the device
 *	(DONE, TIMED_OUT or CANCELLED), when it becomes ARRIVING for
 *	&gtbs_grid.after_cycles later.  Last in the enum so that the other
 *	values keep theirs.
 *
 * ::
 *
 *   NEW --submit--> QUEUED --first block--> RUNNING --last block--> DONE
 *    |                 ^  |                   |   |
 *    +--submit_at--> ARRIVING   +----cancel----+  +--timeout--> TIMED_OUT
 *                      |        v
 *                      +----> CANCELLED
 *                     cancel
 */
enum gtbs_grid_state {
	GTBS_GRID_NEW,
	GTBS_GRID_ARRIVING,
	GTBS_GRID_QUEUED,
	GTBS_GRID_RUNNING,
	GTBS_GRID_DONE,
	GTBS_GRID_CANCELLED,
	GTBS_GRID_TIMED_OUT,
	GTBS_GRID_WAITING,
};

/**
 * struct gtbs_grid_sm - a grid's state on one SM (a "pair")
 * @node: link in &gtbs_grid.sms (in the order the pairs were created)
 *	while the grid holds it, else in &gtbs_dev.spare.
 * @sm: index of the SM, while the grid holds it.
 * @resident: blocks of the grid resident on the SM now.
 * @slice_gen: the &gtbs_dev.slice_gen that @pred.reslice reflects; when
 *	the device's has moved on, a slice started since (predictor.c's DOC
 *	"Slices") and the next block end on the SM catches up.
 * @pred: the Simple Slicing predictor's state of the grid on the SM (paper
 *	Table "State maintained per-kernel in each SM").  Its Reslice flag
 *	alone may be stale: gtbs_grid_sm_reslice_due() is the effective one.
 * @policy_priv: the policy's state of the grid on the SM,
 *	&gtbs_policy_ops.grid_sm_priv_size bytes used (gtbs_policy_priv());
 *	zero when the pair is created and at every policy switch.  It exists
 *	only where the pair does (gtbs_grid_sm()).
 * @block_start: the predictor's Block_Start[],
 *	&gtbs_dev_config.max_blocks_per_sm cycles (gtbs_grid_sm_size()).
 *
 * Created when the grid first issues a block on the SM (the dispatch
 * takes it from &gtbs_dev.spare, see "Per-(grid, SM) state" in grid.c),
 * and given back with every other pair of the grid by gtbs_grid_release().
 * A pair created after the grid's launch starts in the state the launch
 * gave every SM (OnLaunch, the launch's slice generation), so the
 * predictions are those of a state kept on every SM from the launch.
 * What every block start and end reads (@resident, @slice_gen, @pred)
 * comes first, in the pair's first two cache lines, and the policy's
 * area after it: most policies keep nothing per pair
 * (Documentation/performance.rst, section 2).
 * Protected by the device lock.
 */
struct gtbs_grid_sm {
	struct list_head node;
	u32 sm;
	u32 resident;
	u64 slice_gen;
	struct gtbs_pred_sm pred;
	u64 policy_priv[GTBS_POLICY_GRID_SM_PRIV_SIZE / sizeof(u64)];
	u64 block_start[];
};

/**
 * struct gtbs_tenant - who a grid's SM time is charged to (tenant.c)
 * @node: link in &gtbs_dev.tenants.
 * @grids: its grids that arrived and have not left, in arrival order
 *	(&gtbs_grid.tenant_node).
 * @nr_grids: entries on @grids.
 * @id: the owner's number for it (the module: the cgroup's id, 0 for the
 *	device's own; the simulator: an index), for readers.
 * @weight: 1..%GTBS_TENANT_WEIGHT_MAX (cgroup v2's cpu.weight), default
 *	%GTBS_TENANT_WEIGHT_DEFAULT: read by policies (``fair``).
 * @max_ppm: cap on its share of the device's SM time, ppm (cpu.max); 0
 *	for none.
 * @rate: SM time its held slots add per cycle: %GTBS_SM_TIME_SCALE / R
 *	per block holding a slot (running, saving or restoring).
 * @stamp: the cycle @sm_time and @budget are up to.
 * @sm_time: SM time its blocks held, 1/%GTBS_SM_TIME_SCALE SM-cycles.
 * @budget: with a cap: SM time left in the current period net of what
 *	its blocks are expected to hold to their ends (charged at issue,
 *	tenant.c), same unit; negative: a debt the next periods' quotas pay
 *	first.
 * @period_end: the end of its current cap period, cycles.
 * @cap_since: the cycle its cap was last set on it while it had none.
 * @cap_gen: how many times a cap was set on it while it had none: a
 *	block issued under another (&gtbs_slot.cap_gen) was not charged to
 *	@budget.
 * @throttled: its grids carry %GTBS_THROTTLE_CAP.
 * @throttled_since: the cycle it was last throttled.
 * @throttled_cycles: cycles it spent throttled, up to its last refill.
 * @nr_throttles: times it was throttled.
 * @policy_priv: the policy's state of the tenant,
 *	&gtbs_policy_ops.tenant_priv_size bytes used; zeroed at every policy
 *	switch and by gtbs_tenant_init().
 *
 * The owner's memory, on the device's list between gtbs_tenant_init() and
 * gtbs_tenant_del(); every member is protected by the device lock.
 */
struct gtbs_tenant {
	struct list_head node;
	struct list_head grids;
	u32 nr_grids;
	u64 id;
	u32 weight;
	u32 max_ppm;
	u64 rate;
	u64 stamp;
	u64 sm_time;
	s64 budget;
	u64 period_end;
	u64 cap_since;
	u32 cap_gen;
	bool throttled;
	u64 throttled_since;
	u64 throttled_cycles;
	u64 nr_throttles;
	u64 policy_priv[GTBS_POLICY_TENANT_PRIV_SIZE / sizeof(u64)];
};

/**
 * struct gtbs_grid - a submitted grid
 * @node: link in &gtbs_dev.grids (arrival order) while QUEUED or RUNNING;
 *	in &gtbs_dev.arrivals (by @submit_cycle) while ARRIVING; in
 *	&gtbs_dev.waiting while WAITING.
 * @arrival_node: while ARRIVING, the grid's node in
 *	&gtbs_dev.arrival_tree; cleared (RB_EMPTY_NODE()) otherwise.
 * @pending_node: link in &gtbs_dev.pending while blocks remain unissued.
 * @desc: what was asked for.
 * @occ: footprint and maximum residency R.
 * @id: device-wide sequence number, in arrival order.
 * @state: see &enum gtbs_grid_state.
 * @next_block: blocks issued so far (index of the next block to issue).
 * @blocks_done: blocks ended.
 * @resident: blocks resident now, all SMs.
 * @throttle: why the grid may not issue blocks now, a mask of
 *	%GTBS_THROTTLE_OWNER and the like; 0 when it may.  A throttled grid
 *	is off &gtbs_dev.pending and gtbs_grid_has_blocks() is false for it,
 *	so no policy picks it; its resident blocks run on (throttle.c).
 * @submit_cycle: emulated cycle of arrival (submission); while WAITING,
 *	the cycle it was submitted at (its arrival is not known yet).
 * @start_cycle: emulated cycle its first block started.
 * @end_cycle: emulated cycle its last block ended.
 * @last_issue_cycle: cycle of the latest block issue, or @submit_cycle
 *	before the first: the starvation guard measures waits from here.
 * @knee: the grid's knee K, 1/%GTBS_WARP_SCALE warps: its
 *	&gtbs_grid_desc.knee_mwarps, or the device's (always the device's
 *	under %GTBS_TIMING_UNIFORM).
 * @mem_ppm: the grid's memory share phi, ppm: its &gtbs_grid_desc.mem_ppm,
 *	or 0 under %GTBS_TIMING_UNIFORM.
 * @full_div: K + R W, 1/%GTBS_WARP_SCALE warps: the grid's rate divisor
 *	alone at maximum residency, with which a block's work becomes
 *	progress (gtbs_block_progress()).
 * @alone_cycles: the key of srtf-oracle, sjf and ljf: the grid's alone
 *	runtime from its
 *	work model by Equation 1, cycles (gtbs_grid_alone_cycles()).  An
 *	owner that measured the true alone runtime may overwrite it before
 *	gtbs_grid_submit().
 * @policy_priv: the policy's state of the grid,
 *	&gtbs_policy_ops.grid_priv_size bytes used (gtbs_policy_priv());
 *	zeroed by gtbs_grid_init() and at every policy switch.
 * @nr_predictions: predictions made on any SM.
 * @first_pred: Pred_Cycles of the grid's first prediction, cycles.
 * @pred_remaining: predicted remaining runtime at @pred_cycle by the
 *	latest prediction on any SM, cycles (valid once @nr_predictions).
 * @pred_cycle: cycle of that prediction.
 * @expire_cycle: while RUNNING with a job timeout, the cycle at which it
 *	times out (@start_cycle + gtbs_grid_timeout()), else U64_MAX.
 * @timeout_node: link in &gtbs_dev.timeouts while @expire_cycle is set.
 * @timeout_rb: the grid's node in &gtbs_dev.timeout_tree while on
 *	&gtbs_dev.timeouts; cleared (RB_EMPTY_NODE()) otherwise.
 * @saved: the grid's preempted blocks waiting to run again (&struct
 *	gtbs_saved, by &gtbs_saved.node), oldest first: a grid issues them
 *	before any new block (preempt.c).
 * @nr_saved: entries on @saved.
 * @priv: owner's pointer (the module's grid, the simulator's job).
 * @tenant: who its SM time is charged to: set by the owner before the
 *	grid arrives, or NULL for the device's &gtbs_dev.tenant0 (set then).
 * @tenant_node: link in @tenant's &gtbs_tenant.grids from arrival to
 *	leaving.
 * @after: while WAITING, the predecessor it waits for, else NULL.
 * @after_node: link in @after's @dependents while WAITING.
 * @dependents: the WAITING grids whose predecessor this grid is, in
 *	submission order; released (made ARRIVING) when it leaves.
 * @after_cycles: stream order: cycles between the predecessor's leaving
 *	and the grid's arrival, 0..%GTBS_MAX_AFTER_CYCLES.
 * @leave_cycle: once DONE, TIMED_OUT or CANCELLED, the cycle it left the
 *	device (its dependents' arrivals count from it).
 * @launch_gen: the &gtbs_dev.slice_gen of the grid's launch: a pair
 *	created later starts from it (&gtbs_grid_sm.slice_gen).
 * @launched: the grid's first block was issued (OnLaunch happened).
 * @launch_unaware: &gtbs_dev.slice_unaware at the launch.
 * @launch_literal: the launch was in %GTBS_PRED_LITERAL mode.
 * @sms: the grid's pairs (&struct gtbs_grid_sm), in creation order: the
 *	SMs it ever issued a block on.
 * @nr_sms_used: entries on @sms.
 * @sm: per SM, &gtbs_dev_config.nr_sms entries: the grid's pair there, or
 *	NULL where it never issued a block (gtbs_grid_sm()).  Eight bytes per
 *	SM in the grid's allocation (gtbs_grid_size()); the pairs themselves
 *	are separate objects (gtbs_grid_sm_size() bytes each).
 *
 * Members are laid out by how often a block event reads them, because
 * with many grids in flight each event finds its grid cold: the first 64
 * bytes hold what every pick reads (the pending link, the state and
 * counters, the block count and class at the start of @desc), the next 64
 * the block's work model (@desc), then the occupancy, the rate and the
 * policy's area; what only arrivals, ends and observers read comes after
 * (Documentation/performance.rst, section 2).  They are one cache line
 * each where the owner aligns the grid, as the module does.
 *
 * All members are protected by the lock that serialises the device.
 */
struct gtbs_grid {
	struct list_head pending_node;
	enum gtbs_grid_state state;
	u32 next_block;
	u32 blocks_done;
	u32 resident;
	u32 nr_saved;
	u32 throttle;
	struct gtbs_grid_desc desc;
	struct gtbs_occupancy occ;
	u32 knee;
	u32 mem_ppm;
	u32 full_div;
	u64 last_issue_cycle;
	u64 alone_cycles;
	u64 policy_priv[GTBS_POLICY_GRID_PRIV_SIZE / sizeof(u64)];
	struct list_head node;
	struct rb_node arrival_node;
	u64 id;
	u64 submit_cycle;
	u64 start_cycle;
	u64 end_cycle;
	u64 nr_predictions;
	u64 first_pred;
	u64 pred_remaining;
	u64 pred_cycle;
	u64 expire_cycle;
	struct list_head timeout_node;
	struct rb_node timeout_rb;
	struct list_head saved;
	void *priv;
	struct gtbs_tenant *tenant;
	struct list_head tenant_node;
	struct gtbs_grid *after;
	struct list_head after_node;
	struct list_head dependents;
	u64 after_cycles;
	u64 leave_cycle;
	u64 launch_gen;
	bool launched;
	bool launch_unaware;
	bool launch_literal;
	struct list_head sms;
	u32 nr_sms_used;
	struct gtbs_grid_sm *sm[];
};

/**
 * gtbs_grid_sm() - a grid's state on one SM, if it has any
 * @grid: the grid.
 * @sm: index of the SM, 0..nr_sms-1.
 *
 * The one accessor of &gtbs_grid.sm: a grid has state on an SM only once
 * it issued a block there.  A NULL pair reads as no resident block, no
 * prediction and a zero policy area.
 *
 * Context: device lock held.
 * Return: the pair, or NULL.
 */
static inline struct gtbs_grid_sm *gtbs_grid_sm(const struct gtbs_grid *grid,
						u32 sm)
{
	return grid->sm[sm];
}

/**
 * gtbs_grid_sm_resident() - a grid's resident blocks on an SM
 * @grid: the grid.
 * @sm: index of the SM.
 *
 * Context: device lock held.
 * Return: &gtbs_grid_sm.resident, 0 where the grid has no state.
 */
static inline u32 gtbs_grid_sm_resident(const struct gtbs_grid *grid, u32 sm)
{
	const struct gtbs_grid_sm *gs = gtbs_grid_sm(grid, sm);

	return gs ? gs->resident : 0;
}

/**
 * gtbs_grid_sm_predicted() - a grid's predictor state on an SM, if it
 *	made a prediction there
 * @grid: the grid.
 * @sm: index of the SM.
 *
 * Context: device lock held.
 * Return: the state, or NULL when the grid has no state on the SM or no
 * prediction there yet (&gtbs_pred_sm.predicted false).
 */
static inline const struct gtbs_pred_sm *
gtbs_grid_sm_predicted(const struct gtbs_grid *grid, u32 sm)
{
	const struct gtbs_grid_sm *gs = gtbs_grid_sm(grid, sm);

	return gs && gs->pred.predicted ? &gs->pred : NULL;
}

/**
 * struct gtbs_slot - a thread block slot of an SM
 * @grid: grid of the resident block, NULL when the slot is free.
 * @block: index of the block in its grid.
 * @start_cycle: emulated cycle the block started.
 * @group: index of the block's rate group in &gtbs_sm.groups (while
 *	%GTBS_SLOT_RUN).
 * @progress_end: the group's progress value at which the block ends
 *	(while %GTBS_SLOT_RUN).
 * @phase: &enum gtbs_slot_phase.
 * @phase_end: while saving or restoring, the cycle the transfer ends.
 * @remaining: while saving or restoring, the block's remaining work as
 *	progress at its grid's full rate (gtbs_block_progress() units).
 * @ran: cycles the block ran before it was last preempted (0 for a block
 *	that never was, or was flushed).
 * @preempts: times the block was switched out before (0..).
 * @rec: while saving, the record the block goes to (&struct gtbs_saved).
 * @issue_class: the effective class (gtbs_grid_class(), 0 ..
 *	%GTBS_NR_PRIO_CLASSES - 1) the block's grid had when the block was
 *	issued; a preemption counts the block at least at that class
 *	(preempt.c, "Who preempts whom").
 * @hold_cycle: emulated cycle the block took the slot (its issue).
 * @charge: SM time taken from its tenant's cap budget at its issue, the
 *	SM time it is expected to hold (tenant.c, gtbs_tenant_hold()); 0
 *	when its tenant had no cap then.
 * @cap_gen: its tenant's &gtbs_tenant.cap_gen at its issue.
 */
struct gtbs_slot {
	struct gtbs_grid *grid;
	u32 block;
	u32 group;
	u64 start_cycle;
	u64 progress_end;
	u8 phase;
	u64 phase_end;
	u64 remaining;
	u64 ran;
	u32 preempts;
	struct gtbs_saved *rec;
	u32 issue_class;
	u64 hold_cycle;
	u64 charge;
	u32 cap_gen;
};

/**
 * enum gtbs_slot_phase - what a slot's block is doing
 * @GTBS_SLOT_RUN: running: it progresses with its rate group and ends
 *	when the group reaches &gtbs_slot.progress_end.
 * @GTBS_SLOT_SAVE: its context is being saved (context switch out): it
 *	holds the SM's resources, does not progress and adds no load; at
 *	&gtbs_slot.phase_end the slot is freed and the block waits on its
 *	grid's &gtbs_grid.saved list.
 * @GTBS_SLOT_RESTORE: its context is being restored: it holds the SM's
 *	resources, does not progress; at &gtbs_slot.phase_end it runs on.
 *
 * ::
 *
 *   issue --> RUN --end--> (retired)
 *              |  ^
 *        switch|  |restore end
 *              v  |
 *            SAVE   RESTORE <--issue of a saved block-- (gtbs_grid.saved)
 *              |                                         ^     ^
 *              +--save end: slot freed ------------------+     |
 *   RUN --flush: slot freed at once, progress lost ------------+
 */
enum gtbs_slot_phase {
	GTBS_SLOT_RUN,
	GTBS_SLOT_SAVE,
	GTBS_SLOT_RESTORE,
};

/**
 * struct gtbs_saved - a preempted block waiting to run again
 * @node: link in &gtbs_grid.saved, or in the device's free list.
 * @block: index of the block in its grid.
 * @remaining: its remaining work, progress units at its grid's full rate
 *	(the whole block's for a flushed block).
 * @ran: cycles it ran before (0 for a flushed block).
 * @restore_cycles: cycles its context takes to restore (0: flushed, it
 *	starts again from the beginning).
 * @preempts: times it was switched out, this time included.
 *
 * Records come from the owner's pool (&gtbs_dev.saved_pool): the core
 * never allocates.  Protected by the device lock.
 */
struct gtbs_saved {
	struct list_head node;
	u32 block;
	u64 remaining;
	u64 ran;
	u64 restore_cycles;
	u32 preempts;
};

/**
 * enum gtbs_preempt_mode - how an SM makes room for a higher class
 * @GTBS_PREEMPT_DRAIN: waits for resident blocks to end (the paper's
 *	model, and the default).
 * @GTBS_PREEMPT_SWITCH: saves resident blocks' contexts and restores
 *	them later (Chimera's context switch).
 * @GTBS_PREEMPT_FLUSH: discards the progress of resident blocks of
 *	idempotent grids and runs them again later; other blocks are
 *	switched (Chimera's flush).
 * @GTBS_PREEMPT_AUTO: per block, the mechanism with the least overhead
 *	whose latency meets the class's budget (&gtbs_dev.preempt_budget),
 *	else the one with the least latency (Chimera's selection).
 * @GTBS_NR_PREEMPT_MODES: number of modes.
 */
enum gtbs_preempt_mode {
	GTBS_PREEMPT_DRAIN,
	GTBS_PREEMPT_SWITCH,
	GTBS_PREEMPT_FLUSH,
	GTBS_PREEMPT_AUTO,
	GTBS_NR_PREEMPT_MODES,
};

/**
 * enum gtbs_preempt_mech - what happened to one preempted block
 * @GTBS_MECH_DRAIN: left to end (counted when auto chose it).
 * @GTBS_MECH_SWITCH: context switched out.
 * @GTBS_MECH_FLUSH: flushed.
 * @GTBS_NR_MECHS: number of mechanisms.
 */
enum gtbs_preempt_mech {
	GTBS_MECH_DRAIN,
	GTBS_MECH_SWITCH,
	GTBS_MECH_FLUSH,
	GTBS_NR_MECHS,
};

/** GTBS_SWITCH_BYTES_PER_CYCLE_DEFAULT - per-SM context bandwidth, bytes/cycle
 *
 * A Fermi-class share: the GTX 480's 177.4 GB/s over 15 SMs at its 1.4 GHz
 * shader clock is about 8.4 bytes per cycle per SM (Chimera, Park et al.,
 * ASPLOS 2015, assumes an SM's share of memory bandwidth for its context
 * switch).  A Hopper-class share (H100 SXM: 3.35 TB/s over 132 SMs at
 * 1.98 GHz) is about 12.8.
 */
#define GTBS_SWITCH_BYTES_PER_CYCLE_DEFAULT	8

/**
 * struct gtbs_rate_group - blocks of an SM that progress at one rate
 * @knee: their grids' knee K, 1/%GTBS_WARP_SCALE warps (&gtbs_grid.knee).
 * @mem_ppm: their grids' memory share phi, ppm (&gtbs_grid.mem_ppm).
 * @blocks: resident blocks in the group; the group is freed with its last.
 * @div: the rate divisor K + L_eff at the SM's load of @div_gen,
 *	1/%GTBS_WARP_SCALE warps (gtbs_load_div()).
 * @progress_carry: the fraction of a unit @progress is short of the exact
 *	value, in units of 1 / @div; dropped when the SM's load changes.
 * @progress: the group's progress clock at &gtbs_sm.now, units of
 *	1/%GTBS_PROGRESS_SCALE, advancing at 1 / @div per cycle; a block ends
 *	when it reaches the block's &gtbs_slot.progress_end (timing-model.rst).
 * @div_gen: the &gtbs_sm.load_gen @div was computed at.
 * @scan_end: scratch of the engine's search for the next completion.
 *
 * Blocks of grids with the same knee and phi share a rate, so with no
 * grid declaring either an SM has one group, the single progress clock of
 * the first release.  Protected by the device lock.
 */
struct gtbs_rate_group {
	u32 knee;
	u32 mem_ppm;
	u32 blocks;
	u32 div;
	u32 progress_carry;
	u64 progress;
	u64 div_gen;
	u64 scan_end;
};

/**
 * struct gtbs_sm - one streaming multiprocessor
 * @id: index, 0..nr_sms-1.
 * @used_threads: thread contexts held by resident blocks.
 * @used_warps: warp contexts held (the SM's load L of the timing model).
 * @used_regs: registers held.
 * @used_shmem: shared memory held, bytes.
 * @nr_resident: resident blocks, 0..max_blocks_per_sm.
 * @now: emulated cycle up to which the SM and the progress clocks of its
 *	rate groups are current.
 * @load_issue: the SM's issue load: over resident blocks, the sum of
 *	warps * (%GTBS_PPM - &gtbs_grid_desc.mem_ppm), warps * ppm.
 * @load_mem: the SM's memory load: the sum of warps * mem_ppm.
 * @load_gen: incremented at every change of the loads: each group's rate
 *	divisor (&gtbs_rate_group.div) is recomputed when it has moved on.
 * @nr_groups: rate groups in use, @groups[0..nr_groups-1].
 * @groups: &gtbs_dev_config.max_blocks_per_sm rate groups, in the same
 *	allocation after @slots (gtbs_sm_size()).
 * @blocks_run: blocks that ended on this SM.
 * @busy_cycles: cycles with at least one resident block.
 * @kicked: the SM is to re-evaluate at @kick_cycle on its own: a dispatch
 *	deferred for want of a spare pair, or a kick at another cycle than
 *	the device's pending one (&gtbs_dev.kick_set holds the SMs of that,
 *	gtbs_dev_kick()); gtbs_dev_run_until() re-evaluates kicked SMs at
 *	once.  gtbs_sm_kick_cycle() tells whether an SM is kicked either way.
 * @policy_priv: the policy's state of the SM,
 *	&gtbs_policy_ops.sm_priv_size bytes used (gtbs_policy_priv());
 *	zeroed at every policy switch.
 * @next_end: cycle of the SM's next block completion, U64_MAX if none;
 *	kept current by the engine (gtbs_sm_next_event()).
 * @xfer_until: the cycle until which the SM's context-transfer path is
 *	busy with saves and restores, which it does one at a time
 *	(preempt.c).
 * @kick_cycle: while @kicked, the cycle of the earliest event that kicked
 *	the SM on its own: the cycle at which an idle SM should issue
 *	blocks, however late its thread wakes.
 * @res_changed: slots, by index, whose grid's block count on the SM
 *	(&gtbs_grid_sm.resident) changed since the SM last compared
 *	residencies: a block issued into the slot, or another block of its
 *	grid left the SM.  The extended predictor's residency check reads
 *	only these grids' pairs (engine.c, gtbs_sm_check_residency()).
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
	u64 load_issue;
	u64 load_mem;
	u64 load_gen;
	u32 nr_groups;
	struct gtbs_rate_group *groups;
	u64 blocks_run;
	u64 busy_cycles;
	bool kicked;
	u64 kick_cycle;
	u64 next_end;
	u64 xfer_until;
	u64 policy_priv[GTBS_POLICY_SM_PRIV_SIZE / sizeof(u64)];
	DECLARE_BITMAP(res_changed, GTBS_MAX_BLOCKS_PER_SM);
	struct gtbs_slot slots[];
};

/**
 * enum gtbs_pick_reason - why a policy picked the grid it picked
 * @GTBS_PICK_POLICY: the policy's order, with nothing more specific to
 *	say (FIFO's arrival order, a fair share): the default.
 * @GTBS_PICK_SHORTER: the grid is predicted (or known) to finish sooner:
 *	srtf, srtf-adaptive, srtf-oracle, a shortest-remaining-time sample.
 * @GTBS_PICK_SAMPLE: the SM samples the grid (SRTF's sampling).
 * @GTBS_PICK_SHARE: a sharing mode decides (SRTF/Adaptive).
 * @GTBS_PICK_LIMIT: the grid it issued before reached a residency limit
 *	(MPMax).
 * @GTBS_NR_PICK_REASONS: number of reasons.
 *
 * The priority classes and the starvation guard are the engine's own
 * reasons, which observers derive from the grids' classes; a policy
 * reports only its own choice within the class (&gtbs_policy_ops.pick_grid).
 * Observers map these to the uapi's &enum gputbs_preemption_reason.
 */
enum gtbs_pick_reason {
	GTBS_PICK_POLICY,
	GTBS_PICK_SHORTER,
	GTBS_PICK_SAMPLE,
	GTBS_PICK_SHARE,
	GTBS_PICK_LIMIT,
	GTBS_NR_PICK_REASONS,
};

/**
 * struct gtbs_policy_param - a tunable a policy declares
 * @name: the file name in sysfs ``policy_params/``, the netlink name and
 *	``gputbs-sim --param NAME=VALUE``; [a-z0-9_], 1..31 characters.
 * @unit: the unit, for people ("ppm", "blocks", "cycles", "" for a
 *	choice among @names).
 * @doc: one line for people: what it does and its source.
 * @min: smallest value accepted.
 * @max: largest value accepted, >= @min.
 * @def: the value when the policy is attached, @min..@max.
 * @names: NULL, or @max + 1 names of the values 0..@max (a choice,
 *	shown and accepted by name); @min must then be 0.
 * @offset: where the value lives: a u64 at this byte offset in the
 *	device's private area (&gtbs_dev.policy_priv), 8-byte aligned,
 *	below &gtbs_policy_ops.dev_priv_size.
 *
 * The core stores the default at attach and range-checks every change
 * (gtbs_policy_param_set()); owners expose the parameters generically, so
 * that nothing outside the policy names them.
 */
struct gtbs_policy_param {
	const char *name;
	const char *unit;
	const char *doc;
	u64 min;
	u64 max;
	u64 def;
	const char * const *names;
	u32 offset;
};

/**
 * struct gtbs_policy_ops - a thread block scheduling policy
 * @name: short name shown in sysfs and used on command lines; unique
 *	among registered policies; [a-z0-9_-], 1..%GTBS_POLICY_NAME_LEN - 1
 *	characters.
 * @owner: the module the ops live in (THIS_MODULE): a device that uses
 *	the policy holds a reference on it, so a policy module in use cannot
 *	be unloaded.  NULL in userland.
 * @pick_grid: required.  @sm may issue a block at @sm->now: return the
 *	grid it should issue its next block from, or NULL to issue nothing,
 *	and set @reason (&enum gtbs_pick_reason; %GTBS_PICK_POLICY on entry)
 *	to why, for observers.  Must return a grid for which
 *	gtbs_grid_eligible() is true (the priority classes are the engine's
 *	business: it sets the class that may issue before each call).  If
 *	the grid's next block does not fit on @sm, the SM issues nothing
 *	until its next event: that is how a policy makes an SM wait for
 *	resident blocks to drain.
 * @attach: optional.  The policy was selected for a device that may hold
 *	grids (gtbs_dev_init() or gtbs_dev_set_policy()): rebuild the
 *	policy's state from &gtbs_dev.grids.  Its private areas are zero and
 *	its parameters at their defaults.
 * @detach: optional.  The policy is being replaced (gtbs_dev_set_policy(),
 *	before the new policy's @attach): release what the core cannot see
 *	(nothing, for a policy whose state is all in its private areas,
 *	which the core zeroes after @detach).
 * @grid_arrive: optional.  @grid was submitted; it is on &gtbs_dev.grids.
 * @grid_end: optional.  @grid completed, was cancelled or timed out; it
 *	has left &gtbs_dev.grids.  Unlink it from whatever the policy keeps.
 * @predict: optional.  The Simple Slicing predictor made a new prediction
 *	for @grid on @sm (&gtbs_grid_sm.pred), at the end of OnBlockEnd.
 * @grid_update: optional.  With @sm: @grid's predictor state on @sm
 *	changed at a block end or a preemption there (after @predict); a
 *	policy that keeps the grids ordered per SM refiles @grid there.
 *	With @sm NULL: @grid left &gtbs_dev.pending (issued its last block)
 *	or joined it again (a preempted block of it waits to run again).
 *	Not called for arrivals (@grid_arrive) or ends (@grid_end).
 * @block_end: optional.  A thread block of @grid that ran in slot @slot
 *	(0..&gtbs_dev_config.max_blocks_per_sm - 1) of @sm ended, at @end
 *	(= @sm->now), cycles; @start, cycles, is @end less the block's
 *	running time: its issue for a block never preempted, else the start
 *	of its last run set back by the cycles it ran before (as the
 *	predictor's Block_Start, gtbs_pred_on_block_resume()), so
 *	@end - @start never counts save, restore or wait time (a flushed
 *	block's lost run is not counted either).  Called once per block that
 *	completes, at its real end (the paper's OnBlockEnd, Algorithm 1),
 *	after the engine freed its slot and counted it
 *	(&gtbs_grid.blocks_done, &gtbs_grid.resident) and before the
 *	predictor's update, @predict and @grid_update of the same block end
 *	(Documentation/scheduling.rst, "Policy author's reference", gives
 *	the whole order).  Not called for the resident blocks a cancel or a
 *	job timeout drops.  Engine context: device lock held, emulated time,
 *	no sleep.  NULL costs the engine one test per block end.
 * @param_set: optional.  Parameter @index (in @params) was changed to a
 *	valid value by gtbs_policy_param_set() at cycle @now.
 * @sm_sharing: optional.  Whether @sm runs in a sharing mode, in which
 *	grids share the SM by the policy's limits (SRTF/Adaptive): shown by
 *	debugfs, netlink and the gputbs:sharing_mode tracepoint.
 * @grid_state: optional.  A short word (< 16 characters) for @grid's
 *	state in the policy, for debugfs ("sampling", "known"); NULL: none.
 * @may_preempt: optional.  The grid @grid that @pick_grid returned for
 *	@sm does not fit and the device may preempt (&gtbs_dev.preempt_mode
 *	is not drain): whether a running block of @victim, another grid of
 *	@grid's own priority class, may be preempted for it (SRTF switching
 *	to a shorter grid).  Blocks of lower classes are preempted without
 *	asking.  Must not say yes to both of two grids against each other
 *	while neither runs: that would be a livelock (preempt.c's DOC).
 *	Without the op, a class never preempts its own blocks.
 * @dev_priv_size: bytes of &gtbs_dev.policy_priv the policy uses,
 *	0..%GTBS_POLICY_DEV_PRIV_SIZE.
 * @sm_priv_size: bytes of &gtbs_sm.policy_priv, 0..%GTBS_POLICY_SM_PRIV_SIZE.
 * @grid_priv_size: bytes of &gtbs_grid.policy_priv,
 *	0..%GTBS_POLICY_GRID_PRIV_SIZE.
 * @grid_sm_priv_size: bytes of &gtbs_grid_sm.policy_priv,
 *	0..%GTBS_POLICY_GRID_SM_PRIV_SIZE.
 * @tenant_priv_size: bytes of &gtbs_tenant.policy_priv,
 *	0..%GTBS_POLICY_TENANT_PRIV_SIZE.
 * @tenant_update: optional.  @t's weight changed from @old_weight
 *	(gtbs_tenant_set()) at @now.
 * @flags: %GTBS_POLICY_TENANTS and the like.
 * @params: @nr_params tunables, or NULL.
 * @nr_params: 0..%GTBS_MAX_POLICY_PARAMS.
 *
 * Every op is called with the device lock held, at a block boundary, in
 * emulated time; none may sleep, allocate or fail.  Modelled on the
 * pluggable ops of sched_ext and tcp_congestion_ops; registered with
 * gtbs_policy_register() (Documentation/scheduling.rst, "Writing a
 * policy").
 */
struct gtbs_policy_ops {
	const char *name;
	struct module *owner;
	struct gtbs_grid *(*pick_grid)(struct gtbs_dev *dev, struct gtbs_sm *sm,
				       u32 *reason);
	void (*attach)(struct gtbs_dev *dev);
	void (*detach)(struct gtbs_dev *dev);
	void (*grid_arrive)(struct gtbs_dev *dev, struct gtbs_grid *grid);
	void (*grid_end)(struct gtbs_dev *dev, struct gtbs_grid *grid);
	void (*predict)(struct gtbs_dev *dev, struct gtbs_sm *sm,
			struct gtbs_grid *grid);
	void (*grid_update)(struct gtbs_dev *dev, struct gtbs_sm *sm,
			    struct gtbs_grid *grid);
	void (*block_end)(struct gtbs_dev *dev, struct gtbs_sm *sm,
			  struct gtbs_grid *grid, u32 slot, u64 start, u64 end);
	void (*param_set)(struct gtbs_dev *dev, u32 index, u64 now);
	bool (*sm_sharing)(const struct gtbs_dev *dev, const struct gtbs_sm *sm);
	const char *(*grid_state)(const struct gtbs_dev *dev,
				  const struct gtbs_grid *grid);
	bool (*may_preempt)(const struct gtbs_dev *dev,
			    const struct gtbs_sm *sm,
			    const struct gtbs_grid *grid,
			    const struct gtbs_grid *victim);
	u32 dev_priv_size;
	u32 sm_priv_size;
	u32 grid_priv_size;
	u32 grid_sm_priv_size;
	u32 tenant_priv_size;
	void (*tenant_update)(struct gtbs_dev *dev, struct gtbs_tenant *t,
			      u32 old_weight, u64 now);
	u32 flags;
	const struct gtbs_policy_param *params;
	u32 nr_params;
};

/**
 * DOC: What a policy may read
 *
 * Every op gets the device and, where it concerns one, the SM and the
 * grid.  All of it is the engine's state under the device lock; a policy
 * reads it and writes only its own private areas (below).  What the
 * sample and built-in policies read, with its unit and when it holds:
 *
 * - &gtbs_dev.grids: the QUEUED and RUNNING grids, in arrival order
 *   (linked by &gtbs_grid.node): the list a scanning policy walks.
 * - &gtbs_dev.top_class: the class that may issue, set by the engine
 *   before each pick_grid (an &enum gtbs_prio_class value).
 * - &gtbs_dev.pick_cycle: the cycle of that pick, cycles.
 * - &gtbs_dev.clock: how far the device has run, cycles (ops without an
 *   SM: use it for "now").
 * - &gtbs_dev.cfg.nr_sms: SMs of the device (&gtbs_dev_config),
 *   1..%GTBS_MAX_SMS; SM ids are 0..nr_sms-1.
 * - &gtbs_dev_config.max_blocks_per_sm: block slots per SM: slot indices
 *   are 0..max_blocks_per_sm-1.
 * - &gtbs_sm.id: the SM's index, 0..nr_sms-1.
 * - &gtbs_sm.now: the cycle of the event the op is called for (a block
 *   end, an issue), cycles.
 * - &gtbs_sm.nr_resident: blocks holding a slot of the SM.
 * - &gtbs_grid.id: the grid's sequence number, in arrival order: the
 *   tie-break of every sample.
 * - &gtbs_grid.desc: what was submitted: nr_blocks, prio_class
 *   (&enum gtbs_prio_class), block_cycles, the label, ...
 * - &gtbs_grid.next_block: blocks issued so far, 0..nr_blocks (a preempted
 *   block issued again is not counted again).
 * - &gtbs_grid.nr_saved: preempted blocks waiting to run again; the grid
 *   issues them before new ones.
 * - &gtbs_grid.blocks_done: blocks ended, 0..nr_blocks.
 * - &gtbs_grid.resident: blocks holding a slot now, on all SMs (running,
 *   saving or restoring).
 * - &gtbs_grid.occ: footprint and maximum residency R per SM
 *   (&gtbs_occupancy.residency).
 * - &gtbs_grid.submit_cycle: arrival, cycles.
 * - &gtbs_grid.last_issue_cycle: its latest block issue (its arrival
 *   before the first), cycles.
 * - &gtbs_grid.alone_cycles: its alone runtime by Equation 1, cycles.
 * - &gtbs_grid.tenant: who its SM time is charged to
 *   (&gtbs_tenant.weight).
 * - gtbs_grid_sm() of (grid, &gtbs_sm.id): its state on the SM, NULL where
 *   it never issued a block: &gtbs_grid_sm.resident, the predictor's
 *   &gtbs_grid_sm.pred.
 *
 * gtbs_grid_has_blocks() combines next_block, nr_saved and the grid's
 * throttle, gtbs_grid_eligible() that and the class; pick_grid must return
 * a grid for which gtbs_grid_eligible() is true.  gtbs_pred_remaining()
 * reads a prediction.
 *
 * Private areas, fixed arrays in the core's objects (no allocation, so no
 * op can fail), each u64-aligned, zero when the object is made and at
 * every policy switch; a policy declares how much of each it uses in its
 * &gtbs_policy_ops (registration refuses more) and reaches them with
 * gtbs_policy_priv():
 *
 * - %GTBS_POLICY_DEV_PRIV_SIZE, 256 bytes per device
 *   (&gtbs_dev.policy_priv, &gtbs_policy_ops.dev_priv_size), parameters
 *   included;
 * - %GTBS_POLICY_SM_PRIV_SIZE, 32 bytes per SM (&gtbs_sm.policy_priv,
 *   &gtbs_policy_ops.sm_priv_size);
 * - %GTBS_POLICY_GRID_PRIV_SIZE, 96 bytes per grid
 *   (&gtbs_grid.policy_priv, &gtbs_policy_ops.grid_priv_size);
 * - %GTBS_POLICY_GRID_SM_PRIV_SIZE, 56 bytes per (grid, SM) pair
 *   (&gtbs_grid_sm.policy_priv, &gtbs_policy_ops.grid_sm_priv_size),
 *   only where the pair exists;
 * - %GTBS_POLICY_TENANT_PRIV_SIZE, 48 bytes per tenant
 *   (&gtbs_tenant.policy_priv, &gtbs_policy_ops.tenant_priv_size).
 *
 * The order in which the engine calls the ops is in engine.c's DOC
 * "Order of policy ops".
 */

/**
 * gtbs_policy_priv() - a policy's private area of a core object
 * @obj: a &struct gtbs_dev, &struct gtbs_sm, &struct gtbs_grid or
 *	&struct gtbs_grid_sm.
 *
 * Return: a pointer to @obj's policy_priv area (8-byte aligned), for the
 * attached policy to cast to its own struct.
 */
#define gtbs_policy_priv(obj)	((void *)(obj)->policy_priv)

/**
 * gtbs_priv_to_grid() - the grid a private area belongs to
 * @priv: the start of a grid's &gtbs_grid.policy_priv (a list_head that
 *	is the first member of the policy's grid struct, say).
 *
 * Return: the &struct gtbs_grid.
 */
#define gtbs_priv_to_grid(priv)						\
	container_of((void *)(priv), struct gtbs_grid, policy_priv)

/**
 * GTBS_POLICY_PRIV_CHECK() - a policy's private struct fits its area
 * @type: the policy's struct.
 * @size: the area's size, %GTBS_POLICY_DEV_PRIV_SIZE and the like.
 *
 * A compile-time check for the policy's source; registration checks the
 * sizes declared in &gtbs_policy_ops at run time as well.
 */
#define GTBS_POLICY_PRIV_CHECK(type, size)				\
	static_assert(sizeof(type) <= (size), #type " exceeds " #size)

/**
 * struct gtbs_backend_ops - what the owner of a device is told
 * @grid_arrive: optional.  @grid arrives at &gtbs_dev.clock: it is on
 *	&gtbs_dev.grids (QUEUED, its &gtbs_grid.id given) but not yet on
 *	&gtbs_dev.pending and the policy has not seen it.  The owner may only
 *	set bits of &gtbs_grid.throttle here (a grid of a throttled user
 *	arrives throttled, throttle.c); the core then leaves it off the
 *	pending list.
 * @grid_start: optional.  First block of @grid started.
 * @grid_done: optional.  Last block of @grid ended; the grid has left
 *	&gtbs_dev.grids and the core no longer touches it.
 * @grid_timeout: optional.  @grid ran past its job timeout and is being
 *	stopped (state %GTBS_GRID_TIMED_OUT, &gtbs_grid.end_cycle the cycle).
 *	Called while its blocks are still resident, so that the owner can
 *	account SM time up to the cycle; right after the call, under the same
 *	lock hold, the core releases its resident blocks' SM resources, drops
 *	its unissued blocks, removes it from &gtbs_dev.grids and no longer
 *	touches it.  No @block_end is made for the blocks it lost.
 * @block_start: optional.  Block @block of @grid started in slot @slot of
 *	@sm (the paper's blkindex) at @cycle.
 * @block_end: optional.  Block @block of @grid that ran in slot @slot of
 *	@sm ended; @start and @end in cycles.
 * @predict: optional.  A new prediction for @grid on @sm, at @sm->now
 *	(&gtbs_grid_sm.pred holds Pred_Cycles, t and Done_Blocks).
 * @kick: optional.  @sm should call gtbs_sm_advance() soon because the
 *	scheduling state changed (a grid arrived or ended); first at
 *	&gtbs_sm.kick_cycle if its owner runs it late.
 * @block_preempt: optional.  Block @block of @grid in slot @slot of @sm
 *	stopped running at @sm->now without ending, by &enum
 *	gtbs_preempt_mech @mech: switched out (its save takes @cycles, the
 *	slot stays held until then) or flushed (@cycles 0, the slot is
 *	free).  It starts again later with another @block_start.
 * @pick: optional.  The policy's &gtbs_policy_ops.pick_grid chose @grid
 *	(NULL: nothing) for @sm at @sm->now, at a block boundary, for
 *	@reason (&enum gtbs_pick_reason).  Called after the policy updated
 *	its own state (SRTF's sampling, a sharing mode) and before the SM
 *	issues the grid's next block,
 *	which it does only if the block fits (else the SM waits for its
 *	next event).  For observers: the module derives preemptions (the
 *	SM stops issuing one grid for another) and SRTF/Adaptive's sharing
 *	mode switches from it; it must not change the scheduling state.
 *
 * All ops are called with the device lock held and must not sleep.
 */
struct gtbs_backend_ops {
	void (*grid_arrive)(struct gtbs_dev *dev, struct gtbs_grid *grid);
	void (*grid_start)(struct gtbs_dev *dev, struct gtbs_grid *grid);
	void (*grid_done)(struct gtbs_dev *dev, struct gtbs_grid *grid);
	void (*grid_timeout)(struct gtbs_dev *dev, struct gtbs_grid *grid);
	void (*block_start)(struct gtbs_dev *dev, struct gtbs_sm *sm,
			    struct gtbs_grid *grid, u32 slot, u32 block,
			    u64 cycle);
	void (*block_end)(struct gtbs_dev *dev, struct gtbs_sm *sm,
			  struct gtbs_grid *grid, u32 slot, u32 block,
			  u64 start, u64 end);
	void (*predict)(struct gtbs_dev *dev, struct gtbs_sm *sm,
			struct gtbs_grid *grid);
	void (*kick)(struct gtbs_dev *dev, struct gtbs_sm *sm);
	void (*block_preempt)(struct gtbs_dev *dev, struct gtbs_sm *sm,
			      struct gtbs_grid *grid, u32 slot, u32 block,
			      u32 mech, u64 cycles);
	void (*pick)(struct gtbs_dev *dev, struct gtbs_sm *sm,
		     struct gtbs_grid *grid, u32 reason);
};

/**
 * enum gtbs_pred_mode - how the engine drives the Simple Slicing predictor
 * @GTBS_PRED_EXTENDED: a change of a grid's residency on an SM is also a
 *	slice boundary, and Resident_Blocks follows the observed residency
 *	(predictor.c, DOC).
 * @GTBS_PRED_LITERAL: Algorithm 1 as printed: Resident_Blocks = R from
 *	OnLaunch on; only launches and ends of grids start slices.
 * @GTBS_NR_PRED_MODES: number of modes.
 */
enum gtbs_pred_mode {
	GTBS_PRED_EXTENDED,
	GTBS_PRED_LITERAL,
	GTBS_NR_PRED_MODES,
};

/** GTBS_PRED_MODE_DEFAULT - &gtbs_dev.pred_mode of a new device */
#define GTBS_PRED_MODE_DEFAULT	GTBS_PRED_LITERAL

/**
 * struct gtbs_pair_alloc - an owner's allocator of per-(grid, SM) states
 * @zalloc: returns @size zeroed bytes (gtbs_grid_sm_size()), or NULL; it
 *	is called with the device lock held and must not sleep (userland:
 *	calloc(); KUnit: kzalloc(GFP_NOWAIT)).  NULL: the device takes pairs
 *	only from &gtbs_dev.spare, which the owner fills outside its lock (the
 *	module).  A NULL return defers the issue; nothing is lost (grid.c).
 * @free: frees one pair that @zalloc returned or the owner gave with
 *	gtbs_dev_spare_add(); any context the owner frees pairs from.
 *
 * The portable core references no allocator (``make bench`` counts the
 * allocator symbols of the core's objects): an owner lends it one here.
 */
struct gtbs_pair_alloc {
	void *(*zalloc)(size_t size);
	void (*free)(void *p);
};

/**
 * struct gtbs_dev - the emulated device and its scheduler state
 * @cfg: resources; constant while grids exist.
 * @policy: thread block scheduling policy; see gtbs_dev_set_policy().
 * @backend: owner callbacks, may be NULL.
 * @priv: owner's pointer.
 * @sms: @cfg.nr_sms SMs, allocated by the owner.
 * @sm_heap: SM indices as a binary min-heap by (@heap_key, index): the
 *	next SM with an event is @sm_heap[0], found in O(1) and refiled in
 *	O(log SMs), so no event scans every SM.  SMs kicked by
 *	gtbs_dev_kick() are not refiled here but wait in @kick_set.
 * @heap_key: by heap position, the key of the SM at that position of
 *	@sm_heap: its next event (&gtbs_sm.next_end, or &gtbs_sm.kick_cycle
 *	if kicked on its own and earlier) as last filed, cycles.  Kept
 *	beside the heap, not in the SM, so that a refile's comparisons stay
 *	within the device's arrays.
 * @heap_pos: by SM index, the SM's position in @sm_heap.
 * @kick_cycle: the cycle of the device's pending kick: the SMs in
 *	@kick_set re-evaluate at it, in index order, merged with the events
 *	of @sm_heap by (cycle, index); U64_MAX while @kick_set is empty.
 * @nr_kick_set: SMs in @kick_set (its bitmap_weight()).
 * @kick_first: an SM index, no bit of @kick_set below it is set: where
 *	find_next_bit() looks for the pending kick's lowest SM (a hint,
 *	meaningful only while @nr_kick_set is not 0).
 * @kick_set: bitmap of the SMs with the pending kick still to take (bit
 *	i: SM i, the first @cfg.nr_sms bits used); an SM leaves it when it
 *	dispatches (gtbs_sm_dispatch()) or its kick is undone.  Changed with
 *	the non-atomic bitops (__set_bit() and the bitmap_*() helpers): the
 *	device lock protects it.
 * @sm_full: bitmap of the SMs whose block slots are all held (bit i: SM
 *	i), kept by gtbs_sm_take() and gtbs_sm_give() with __assign_bit()
 *	under the device lock: gtbs_dev_kick() leaves them out while
 *	&gtbs_dev.preempt_mode is %GTBS_PREEMPT_DRAIN.
 * @next_moved: bitmap of the SMs whose &gtbs_sm.next_end changed since
 *	the owner last cleared their bit (gtbs_dev_next_moved()); set by the
 *	engine under the device lock (__set_bit()), never read by the core.
 * @nr_sm_kicked: SMs with &gtbs_sm.kicked set.
 * @grids: QUEUED and RUNNING grids in arrival order.
 * @arrivals: ARRIVING grids by arrival cycle, then the order they were put
 *	there (submission, or release by their predecessor).
 * @arrival_tree: the same grids in a red-black tree by arrival cycle
 *	(&gtbs_grid.arrival_node), equal cycles in the order they were
 *	added: the index that finds a new arrival's place on @arrivals in
 *	O(log n) (gtbs_grid_submit_at()).
 * @waiting: WAITING grids (stream order, gtbs_grid_submit_after()), in
 *	submission order.
 * @pending: grids with unissued blocks, in arrival order.
 * @timeouts: RUNNING grids with a job timeout, by &gtbs_grid.expire_cycle
 *	(then launch order), linked by &gtbs_grid.timeout_node.
 * @timeout_tree: the same grids in a red-black tree by
 *	&gtbs_grid.expire_cycle (&gtbs_grid.timeout_rb), equal cycles in
 *	the order they were filed: the index that finds a grid's place on
 *	@timeouts in O(log n) (as @arrival_tree for @arrivals).
 * @clock: the cycle the device has been run to: every event before it has
 *	been processed, and no SM's clock is past it (gtbs_dev_run_bounded()).
 * @slice_gen: incremented at every launch and at every end of a grid that
 *	ran: a new slice for every running grid on every SM (Algorithm 1's
 *	OnKernelEnd), applied lazily (&gtbs_grid_sm.slice_gen) by the
 *	slicing rules of predictor.c (gtbs_slice_on_kernel_launch(),
 *	gtbs_slice_on_kernel_end()).
 * @pending_gen: incremented whenever a grid joins or leaves @pending:
 *	policies that cache something computed over @pending compare it.
 * @nr_grids: grids on @grids.
 * @nr_pending: grids on @pending per &enum gtbs_prio_class.
 * @next_id: id of the next grid submitted.
 * @starve_cycles: starvation guard: a grid with unissued blocks that has
 *	had none issued for more than this many cycles is promoted one
 *	class until one is; 0 (the default) disables the guard.
 * @slice_unaware: the predictor runs in the paper's slice-unaware mode for
 *	grids launched from now on (default false: slice-aware, "/SS").
 * @top_class: the class that may issue blocks, set by the engine before
 *	each &gtbs_policy_ops.pick_grid call.
 * @pick_cycle: the cycle of that call.
 * @grids_submitted: counter.
 * @grids_completed: counter.
 * @grids_cancelled: counter of arrived grids cancelled before completing
 *	by gtbs_grid_cancel(); with no grid present, @grids_submitted =
 *	@grids_completed + @grids_cancelled.
 * @blocks_dispatched: counter.
 * @predictions: counter of predictions made.
 * @promotions: counter of starvation-guard promotions.
 * @policy_switches: counter of gtbs_dev_set_policy() changes.
 * @sharing_switches: counter of sharing-mode switches, kept by the policies
 *	that have a sharing mode (&gtbs_policy_ops.sm_sharing): SMs entering
 *	or leaving it, or the device's switches when one decision covers
 *	every SM.
 * @pred_mode: &enum gtbs_pred_mode of grids launched from now on (default
 *	%GTBS_PRED_MODE_DEFAULT); see gtbs_dev_set_pred_mode().
 * @timeout_cycles: the device's job timeout, emulated cycles from a grid's
 *	first block's start; 0 (the default in the core) turns it off.  Set
 *	with gtbs_dev_set_timeout().
 * @grids_timed_out: counter of grids stopped by their job timeout; with no
 *	grid present, @grids_submitted = @grids_completed + @grids_cancelled
 *	+ @grids_timed_out.
 * @grids_throttled: counter of throttles: a grid without a reason got
 *	one (gtbs_grid_throttle(), throttle.c).
 * @lock: kernel only: the owner's lock that serialises the device (the
 *	module's &gputbs_device.lock), or NULL (KUnit's devices): the core's
 *	entry points assert it under lockdep (gtbs_lockdep_assert_held()).
 *	Set by the owner after gtbs_dev_init().
 * @preempt_mode: &enum gtbs_preempt_mode (default %GTBS_PREEMPT_DRAIN);
 *	gtbs_dev_set_preempt().
 * @switch_bytes_per_cycle: each SM's bandwidth for saving and restoring
 *	block contexts, bytes per cycle, >= 1
 *	(%GTBS_SWITCH_BYTES_PER_CYCLE_DEFAULT).
 * @preempt_budget: per class, the preemption latency %GTBS_PREEMPT_AUTO
 *	aims for, cycles (default 0: as fast as possible).
 * @saved_pool: the owner's records for preempted blocks, @saved_cap of
 *	them, or NULL: without records nothing is switched or flushed
 *	(every SM drains).  Set before gtbs_dev_init()'s return is used;
 *	gtbs_dev_set_saved_pool().
 * @saved_cap: entries at @saved_pool.
 * @saved_free: unused records.
 * @saved_nr_free: entries on @saved_free.
 * @spare: unused per-(grid, SM) states (&struct gtbs_grid_sm, by
 *	&gtbs_grid_sm.node): the reserve a dispatch takes a new pair from
 *	(grid.c, "Per-(grid, SM) state").  Owners add to it
 *	(gtbs_dev_spare_add()), gtbs_grid_release() returns pairs to it,
 *	gtbs_dev_spare_free() empties it.
 * @nr_spare: entries on @spare.
 * @spare_low: the fewest spare pairs an SM event may start with while
 *	@spare_only: 2 x &gtbs_dev_config.max_blocks_per_sm, more than one
 *	event's dispatches create (gtbs_dev_init()).
 * @spare_only: the core takes pairs only from @spare (the module: its
 *	lock is a spinlock); false (the default) lets it ask
 *	@pair_alloc->zalloc for one when @spare is empty.
 * @pair_alloc: the owner's allocator of pairs, set after gtbs_dev_init():
 *	the core itself never allocates or frees memory.  NULL (or a NULL
 *	&gtbs_pair_alloc.zalloc) behaves as @spare_only; a device that held
 *	pairs needs a &gtbs_pair_alloc.free for gtbs_dev_spare_free().
 * @spare_short: the last gtbs_dev_run_bounded() stopped for want of
 *	spare pairs (before an SM event, or a dispatch found none for a grid
 *	it picked and deferred the issue), not for its budget.
 * @preempts: counter of blocks preempted, per &enum gtbs_preempt_mech.
 * @restores: counter of switched-out blocks restored.
 * @xfer_cycles: counter of cycles SMs spent saving and restoring.
 * @lost_cycles: counter of cycles of work flushed blocks lost.
 * @tenants: the tenants the device knows (&gtbs_tenant.node), @tenant0
 *	first.
 * @tenant0: the device's own tenant: the grids whose owner gave none.
 * @cap_period: cycles of a cap period (tenant.c), 1..2^33 (the quota
 *	max_ppm x nr_sms x period stays below 2^63), default
 *	%GTBS_CAP_PERIOD_DEFAULT; set while no tenant is capped.
 * @cap_hold_max: the longest a block was expected to hold its slot at
 *	its issue, cycles, since the device was made: the longest wait for a
 *	slot that block granularity imposes, which bounds what a capped
 *	tenant waiting for one may bank (tenant.c).
 * @refill_cycle: the next refill of a throttled tenant (valid while
 *	@nr_tenants_throttled).
 * @nr_tenants_throttled: tenants throttled by their cap.
 * @policy_priv: the policy's state of the device, its parameters
 *	included (&gtbs_policy_param.offset),
 *	&gtbs_policy_ops.dev_priv_size bytes used (gtbs_policy_priv());
 *	zeroed at every policy switch.
 *
 * Every member is protected by the owner's device lock.
 */
struct gtbs_dev {
	struct gtbs_dev_config cfg;
	const struct gtbs_policy_ops *policy;
	const struct gtbs_backend_ops *backend;
	void *priv;
	struct gtbs_sm **sms;
	u32 sm_heap[GTBS_MAX_SMS];
	u64 heap_key[GTBS_MAX_SMS];
	u32 heap_pos[GTBS_MAX_SMS];
	u64 kick_cycle;
	u32 nr_kick_set;
	u32 kick_first;
	DECLARE_BITMAP(kick_set, GTBS_MAX_SMS);
	DECLARE_BITMAP(sm_full, GTBS_MAX_SMS);
	DECLARE_BITMAP(next_moved, GTBS_MAX_SMS);
	u32 nr_sm_kicked;
	struct list_head grids;
	struct list_head arrivals;
	struct rb_root arrival_tree;
	struct list_head waiting;
	struct list_head pending;
	struct list_head timeouts;
	struct rb_root timeout_tree;
	u64 clock;
	u64 slice_gen;
	u64 pending_gen;
	u32 nr_grids;
	u32 nr_pending[GTBS_NR_PRIO_CLASSES];
	u64 next_id;
	u64 starve_cycles;
	bool slice_unaware;
	u32 top_class;
	u64 pick_cycle;
	u64 grids_submitted;
	u64 grids_completed;
	u64 grids_cancelled;
	u64 blocks_dispatched;
	u64 predictions;
	u64 promotions;
	u64 policy_switches;
	u64 sharing_switches;
	u32 pred_mode;
	u64 timeout_cycles;
	u64 grids_timed_out;
	u64 grids_throttled;
#ifdef __KERNEL__
	spinlock_t *lock;	/* the owner's, asserted, never taken here */
#endif
	u32 preempt_mode;
	u32 switch_bytes_per_cycle;
	u64 preempt_budget[GTBS_NR_PRIO_CLASSES];
	struct gtbs_saved *saved_pool;
	u32 saved_cap;
	struct list_head saved_free;
	u32 saved_nr_free;
	struct list_head spare;
	u32 nr_spare;
	u32 spare_low;
	bool spare_only;
	const struct gtbs_pair_alloc *pair_alloc;
	bool spare_short;
	u64 preempts[GTBS_NR_MECHS];
	u64 restores;
	u64 xfer_cycles;
	u64 lost_cycles;
	struct list_head tenants;
	struct gtbs_tenant tenant0;
	u64 cap_period;
	u64 cap_hold_max;
	u64 refill_cycle;
	u32 nr_tenants_throttled;
	u64 policy_priv[GTBS_POLICY_DEV_PRIV_SIZE / sizeof(u64)];
};

/* config.c */
void gtbs_config_default(struct gtbs_dev_config *cfg);
int gtbs_config_check(const struct gtbs_dev_config *cfg, const char **why);
const struct gtbs_dev_preset *gtbs_config_preset_at(unsigned int i);
const struct gtbs_dev_preset *gtbs_config_preset(const char *name);
u64 gtbs_config_context_bytes(const struct gtbs_dev_config *cfg);

/* occupancy.c */
int gtbs_occupancy_calc(const struct gtbs_dev_config *cfg,
			const struct gtbs_grid_desc *desc,
			struct gtbs_occupancy *occ);
const char *gtbs_limiter_name(enum gtbs_limiter limiter);
void gtbs_footprint_add(struct gtbs_footprint *fp,
			const struct gtbs_occupancy *occ, u32 n);
u32 gtbs_footprint_room(const struct gtbs_dev_config *cfg,
			const struct gtbs_occupancy *occ,
			const struct gtbs_footprint *used);

/* timing.c */
u64 gtbs_block_work(const struct gtbs_grid_desc *desc, u32 block);
u64 gtbs_block_work_wave(const struct gtbs_grid_desc *desc, u32 block,
			 u32 wave_blocks, u32 share_ppm);
u64 gtbs_grid_block_work(const struct gtbs_dev *dev,
			 const struct gtbs_grid *grid, u32 block);

/* tenant.c */
void gtbs_tenant_init(struct gtbs_dev *dev, struct gtbs_tenant *t, u64 id,
		      u64 now);
void gtbs_tenant_setup(struct gtbs_dev *dev, struct gtbs_tenant *t, u64 id,
		       u64 now);
bool gtbs_tenant_busy(const struct gtbs_tenant *t);
void gtbs_tenant_del(struct gtbs_dev *dev, struct gtbs_tenant *t);
int gtbs_tenant_set(struct gtbs_dev *dev, struct gtbs_tenant *t, u32 weight,
		    u32 max_ppm, u64 now);
void gtbs_tenant_sync(struct gtbs_dev *dev, struct gtbs_tenant *t, u64 now);
u64 gtbs_tenant_sm_time(const struct gtbs_tenant *t, u64 now);
bool gtbs_tenant_check(struct gtbs_dev *dev, struct gtbs_tenant *t, u64 now);
void gtbs_tenant_hold(struct gtbs_dev *dev, struct gtbs_slot *slot,
		      u64 cycles, u64 now);
void gtbs_tenant_unhold(struct gtbs_dev *dev, const struct gtbs_slot *slot,
			u64 now);
u64 gtbs_dev_next_refill(const struct gtbs_dev *dev);
void gtbs_dev_refill(struct gtbs_dev *dev, u64 now);
void gtbs_grid_tenant_join(struct gtbs_dev *dev, struct gtbs_grid *grid);
void gtbs_grid_tenant_leave(struct gtbs_dev *dev, struct gtbs_grid *grid,
			    u64 now);
u64 gtbs_block_progress(u64 work, u32 full_div);
u64 gtbs_progress_advance(u64 cycles, u32 div);
u64 gtbs_progress_advance_rem(u64 cycles, u32 div, u32 *rem);
u64 gtbs_progress_cycles(u64 progress, u32 div);
u32 gtbs_progress_remainder(u64 cycles, u32 div);
u32 gtbs_load_div(u32 knee, u32 mem_ppm, u64 load_issue, u64 load_mem);

/* engine.c */
size_t gtbs_sm_size(const struct gtbs_dev_config *cfg);
size_t gtbs_grid_size(const struct gtbs_dev_config *cfg);
size_t gtbs_grid_sm_size(const struct gtbs_dev_config *cfg);
struct gtbs_grid_sm *gtbs_grid_sm_get(struct gtbs_dev *dev,
				      struct gtbs_grid *grid, u32 sm);
void gtbs_grid_sm_view(const struct gtbs_dev *dev,
		       const struct gtbs_grid *grid, u32 sm,
		       struct gtbs_grid_sm *view);
void gtbs_grid_release(struct gtbs_dev *dev, struct gtbs_grid *grid);
void gtbs_grid_free_sms(const struct gtbs_pair_alloc *pa,
			struct gtbs_grid *grid);
void gtbs_dev_spare_add(struct gtbs_dev *dev, struct gtbs_grid_sm *gs);
u32 gtbs_dev_spare_wanted(const struct gtbs_dev *dev);
void gtbs_dev_spare_free(struct gtbs_dev *dev);
void gtbs_dev_init(struct gtbs_dev *dev, const struct gtbs_dev_config *cfg,
		   const struct gtbs_policy_ops *policy, struct gtbs_sm **sms);
void gtbs_sm_init(const struct gtbs_dev_config *cfg, struct gtbs_sm *sm, u32 id);
int gtbs_grid_desc_check(const struct gtbs_dev_config *cfg,
			 const struct gtbs_grid_desc *desc, const char **why);
int gtbs_grid_desc_verify(const struct gtbs_dev_config *cfg,
			  const struct gtbs_grid_desc *desc,
			  struct gtbs_grid_err *err);
int gtbs_grid_init(struct gtbs_dev *dev, struct gtbs_grid *grid,
		   const struct gtbs_grid_desc *desc, const char **why);
int gtbs_grid_init_err(struct gtbs_dev *dev, struct gtbs_grid *grid,
		       const struct gtbs_grid_desc *desc,
		       struct gtbs_grid_err *err);
void gtbs_grid_submit(struct gtbs_dev *dev, struct gtbs_grid *grid, u64 now);
void gtbs_grid_submit_after(struct gtbs_dev *dev, struct gtbs_grid *grid,
			    u64 now, struct gtbs_grid *pred, u64 after_cycles);
void gtbs_grid_submit_at(struct gtbs_dev *dev, struct gtbs_grid *grid,
			 u64 now, u64 at);
u64 gtbs_dev_next_arrival(const struct gtbs_dev *dev);
u64 gtbs_dev_next_expiry(const struct gtbs_dev *dev);
void gtbs_grid_cancel(struct gtbs_dev *dev, struct gtbs_grid *grid, u64 now);
void gtbs_grid_throttle(struct gtbs_dev *dev, struct gtbs_grid *grid, u32 why,
			u64 now);
void gtbs_grid_unthrottle(struct gtbs_dev *dev, struct gtbs_grid *grid,
			  u32 why, u64 now);
u32 gtbs_dev_unthrottle(struct gtbs_dev *dev, u32 why, u64 now);
u64 gtbs_sm_advance(struct gtbs_dev *dev, struct gtbs_sm *sm, u64 now);
unsigned long *gtbs_dev_next_moved(struct gtbs_dev *dev);
u64 gtbs_sm_next_event(const struct gtbs_dev *dev, const struct gtbs_sm *sm);
u64 gtbs_dev_next_event(const struct gtbs_dev *dev);
void gtbs_dev_run_until(struct gtbs_dev *dev, u64 until);
bool gtbs_dev_run_bounded(struct gtbs_dev *dev, u64 until, u32 *budget);
u64 gtbs_grid_timeout(const struct gtbs_dev *dev, const struct gtbs_grid *grid);
void gtbs_dev_set_timeout(struct gtbs_dev *dev, u64 timeout_cycles, u64 now);
int gtbs_dev_set_pred_mode(struct gtbs_dev *dev, u32 mode);
const char *gtbs_pred_mode_name(u32 mode);
bool gtbs_dev_idle(const struct gtbs_dev *dev);
void gtbs_dev_kick(struct gtbs_dev *dev, u64 cycle);
u64 gtbs_sm_kick_cycle(const struct gtbs_dev *dev, const struct gtbs_sm *sm);
void gtbs_dev_set_policy(struct gtbs_dev *dev,
			 const struct gtbs_policy_ops *policy, u64 now);

/* preempt.c */
void gtbs_dev_set_saved_pool(struct gtbs_dev *dev, struct gtbs_saved *pool,
			     u32 n);
int gtbs_dev_set_preempt(struct gtbs_dev *dev, u32 mode, u64 now);
const char *gtbs_preempt_mode_name(u32 mode);
const char *gtbs_preempt_mech_name(u32 mech);
u64 gtbs_context_cycles(const struct gtbs_dev *dev,
			const struct gtbs_grid *grid);
bool gtbs_block_fits(const struct gtbs_dev *dev, const struct gtbs_sm *sm,
		     const struct gtbs_grid *grid);
u32 gtbs_grid_class(const struct gtbs_dev *dev, const struct gtbs_grid *grid,
		    u64 now);
bool gtbs_grid_sm_reslice_due(const struct gtbs_dev *dev,
			      const struct gtbs_grid_sm *gs);

/**
 * gtbs_grid_has_blocks() - whether a grid has blocks to issue
 * @grid: a grid.
 *
 * Context: device lock held.
 * Return: true if it has unissued blocks or preempted blocks waiting to
 * run again (&gtbs_grid.saved) and is not throttled (&gtbs_grid.throttle:
 * a throttled grid has no block it may issue now).
 */
static inline bool gtbs_grid_has_blocks(const struct gtbs_grid *grid)
{
	return !grid->throttle &&
	       (grid->next_block < grid->desc.nr_blocks || grid->nr_saved);
}

/**
 * gtbs_grid_eligible() - whether a policy may pick a grid now
 * @dev: the device, inside &gtbs_policy_ops.pick_grid.
 * @grid: a grid on &gtbs_dev.grids.
 *
 * Priority classes are strict: only grids of the highest effective class
 * with unissued blocks (gtbs_grid_class()) may issue blocks.  Inline: the
 * policies call it for every pending grid on every pick; without the
 * starvation guard the effective class is the submitted one.
 *
 * Context: device lock held, from &gtbs_policy_ops.pick_grid.
 * Return: true if @grid has unissued blocks and is of &gtbs_dev.top_class.
 */
static inline bool gtbs_grid_eligible(const struct gtbs_dev *dev,
				      const struct gtbs_grid *grid)
{
	if (!gtbs_grid_has_blocks(grid))
		return false;
	if (!dev->starve_cycles)
		return grid->desc.prio_class == dev->top_class;
	return gtbs_grid_class(dev, grid, dev->pick_cycle) == dev->top_class;
}

u64 gtbs_grid_alone_cycles(const struct gtbs_dev_config *cfg,
			   const struct gtbs_grid_desc *desc,
			   const struct gtbs_occupancy *occ);
const char *gtbs_prio_class_name(u32 prio_class);
int gtbs_prio_class_check(u32 prio_class, bool may_raise);

/* policy.c: the registry */
int gtbs_policy_check(const struct gtbs_policy_ops *ops, const char **why);
int gtbs_policy_register(const struct gtbs_policy_ops *ops);
void gtbs_policy_unregister(const struct gtbs_policy_ops *ops);
bool gtbs_policy_registered(const struct gtbs_policy_ops *ops);
int gtbs_policy_register_builtins(void);
void gtbs_policy_unregister_builtins(void);
void gtbs_policy_lock(void);
void gtbs_policy_unlock(void);
const struct gtbs_policy_ops *gtbs_policy_find(const char *name);
const struct gtbs_policy_ops *gtbs_policy_at(unsigned int index);
const struct gtbs_policy_ops *gtbs_policy_get(const char *name);
bool gtbs_policy_get_ref(const struct gtbs_policy_ops *ops);
void gtbs_policy_put(const struct gtbs_policy_ops *ops);
int gtbs_policy_param_find(const struct gtbs_policy_ops *ops,
			   const char *name);
u64 gtbs_policy_param_get(const struct gtbs_dev *dev, u32 index);
int gtbs_policy_param_set(struct gtbs_dev *dev, u32 index, u64 value,
			  u64 now);
int gtbs_policy_param_parse(const struct gtbs_policy_param *param,
			    const char *text, u64 *value);
bool gtbs_sm_sharing(const struct gtbs_dev *dev, const struct gtbs_sm *sm);
const char *gtbs_pick_reason_name(u32 reason);

/* the built-in policies, registered by gtbs_policy_register_builtins() */
extern const struct gtbs_policy_ops gtbs_policy_fifo;
extern const struct gtbs_policy_ops gtbs_policy_mpmax;
extern const struct gtbs_policy_ops gtbs_policy_srtf;
extern const struct gtbs_policy_ops gtbs_policy_srtf_adaptive;
extern const struct gtbs_policy_ops gtbs_policy_srtf_oracle;
extern const struct gtbs_policy_ops gtbs_policy_sjf;
extern const struct gtbs_policy_ops gtbs_policy_ljf;
extern const struct gtbs_policy_ops gtbs_policy_fair;
/* test only (policy_sjf.c): SJF and LJF pick by the plain scan */
extern bool gtbs_serial_scan_ref;

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
u64 gtbs_grid_pred_final(const struct gtbs_dev_config *cfg,
			 const struct gtbs_grid *grid);
int gtbs_metrics_calc(const u64 *alone, const u64 *shared, u32 n,
		      struct gtbs_metrics *m);

#endif /* _GTBS_H */
