/* SPDX-License-Identifier: GPL-2.0 */
/*
 * gputbs_drv.h - private header of the gputbs module glue.
 *
 * Copyright (C) 2026 The gputbs developers
 */
#ifndef _GPUTBS_DRV_H
#define _GPUTBS_DRV_H

#include <linux/hrtimer.h>
#include <linux/kref.h>
#include <linux/miscdevice.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/uidgid.h>
#include <linux/wait.h>
#include <linux/xarray.h>

#include "../sm-emu/gtbs.h"
#include "../sm-emu/gtbs_names.h"
#include "../uapi/linux/gputbs.h"
#include "gputbs_obs.h"

struct dentry;
struct task_struct;

/**
 * GPUTBS_SYNC_BUDGET - the most events one hold of &gputbs_device.lock
 * processes (gputbs_dev_sync()): 64 block completions, arrivals, kicks or
 * timeouts, each O(block slots x pick); undoing a kick that found nothing
 * to issue is not counted (gtbs_dev_run_bounded()).
 * Documentation/reliability.rst gives the measured hold times.
 */
#define GPUTBS_SYNC_BUDGET	64

/**
 * GPUTBS_DEFAULT_TIMEOUT_NS - the device's job timeout at load, ns of
 * emulated time (120 s: 120 million cycles at the default 1 us per cycle,
 * over five times the longest ERCBench kernel alone, SHA1's 22.2 million
 * cycles; root changes it in /sys/class/misc/gputbs/timeout_ns)
 */
#define GPUTBS_DEFAULT_TIMEOUT_NS	(120ULL * NSEC_PER_SEC)

/**
 * GPUTBS_SWITCH_BW_MAX - the largest switch bandwidth accepted, bytes per
 * emulated cycle (&gtbs_dev.switch_bytes_per_cycle; sysfs
 * switch_bytes_per_cycle and netlink preempt-set, from 1)
 */
#define GPUTBS_SWITCH_BW_MAX	65536

/**
 * struct gputbs_sm_thread - the kthread that runs one emulated SM
 * @gdev: the device.
 * @sm: the SM's core state (protected by &gputbs_device.lock).
 * @task: the kthread.
 * @timer: fires at the SM's next block completion and wakes @task; SM 0's
 *	at the device's next deferred arrival instead if that is earlier.
 * @woken: set by @timer's callback before it wakes @task; accessed with
 *	READ_ONCE()/WRITE_ONCE(), ordered by the wake-up.
 * @deadline: emulated cycle @timer is armed for, U64_MAX when disarmed
 *	(&gputbs_device.lock).
 */
struct gputbs_sm_thread {
	struct gputbs_device *gdev;
	struct gtbs_sm *sm;
	struct task_struct *task;
	struct hrtimer timer;
	bool woken;
	u64 deadline;
};

/**
 * struct gputbs_sync_stats - how long the device lock is held to run the
 *	device (gputbs_dev_sync(), gputbs_dev_lock_sync())
 * @slices: bounded slices run.
 * @behind: slices that stopped with events due left (the device was
 *	behind the wall clock; an SM kthread went on).
 * @max_events: the most events one slice processed, at most
 *	%GPUTBS_SYNC_BUDGET.
 * @max_ns: the longest slice, wall-clock ns (CLOCK_MONOTONIC), including
 *	re-arming the SM timers.
 * @total_ns: all slices together, wall-clock ns (the mean is
 *	@total_ns / @slices).
 *
 * Protected by &gputbs_device.lock; shown in debugfs gputbs/sync.
 */
struct gputbs_sync_stats {
	u64 slices;
	u64 behind;
	u32 max_events;
	u64 max_ns;
	u64 total_ns;
};

/**
 * GPUTBS_MAX_LAG_NS_DEFAULT - max_lag_ns at load: how far, in wall-clock
 * ns, the device may lag the wall clock before the users above their fair
 * share of block events are throttled (100 ms; gputbs_isolation.c)
 */
#define GPUTBS_MAX_LAG_NS_DEFAULT	(100ULL * NSEC_PER_MSEC)
/** GPUTBS_MAX_LAG_NS_MAX - the largest max_lag_ns accepted (1 hour), ns */
#define GPUTBS_MAX_LAG_NS_MAX		(3600ULL * NSEC_PER_SEC)
/**
 * GPUTBS_ISOL_SCAN_NS - the shortest wall-clock time between two checks
 * that look for users to throttle while the device lags (1 ms), ns
 */
#define GPUTBS_ISOL_SCAN_NS		NSEC_PER_MSEC

/**
 * struct gputbs_user_isol - one user's block events (gputbs_isolation.c)
 * @epoch: the window (&gputbs_isol.epoch) @events counts in.
 * @events: block events of the user's grids in window @epoch.
 * @total_events: block events of the user's grids while it held grids.
 * @throttled: the user's grids issue no block (%GTBS_THROTTLE_OWNER).
 * @throttles: times the user was throttled.
 *
 * Part of &struct gputbs_user (gputbs_limits.c), which lives while the
 * user holds a grid; protected by &gputbs_device.lock (not by the
 * accounting's lock, which protects the rest of the entry).
 */
struct gputbs_user_isol {
	u64 epoch;
	u64 events;
	u64 total_events;
	bool throttled;
	u32 throttles;
};

/**
 * struct gputbs_isol - the device's share-out of the emulator's capacity
 *	(gputbs_isolation.c)
 * @max_lag_ns: the lag of the device behind the wall clock past which
 *	users above their fair share are throttled, ns; 0: never (sysfs
 *	max_lag_ns).
 * @epoch: the current window: incremented whenever a slice reaches the
 *	current cycle.
 * @events: block events of all users in the window.
 * @last_scan_ns: CLOCK_MONOTONIC time of the last check for users to
 *	throttle.
 * @throttling: some users are throttled now.
 * @since_ns: while @throttling, when the first of them was.
 * @throttles: counter of users throttled.
 * @lifts: counter of times every throttle was lifted.
 * @throttled_ns: wall-clock ns spent with a user throttled, up to the
 *	last lift.
 * @max_lag_seen_ns: the largest lag seen by a check, ns.
 *
 * Protected by &gputbs_device.lock; shown in debugfs gputbs/sync.
 */
struct gputbs_isol {
	u64 max_lag_ns;
	u64 epoch;
	u64 events;
	u64 last_scan_ns;
	bool throttling;
	u64 since_ns;
	u64 throttles;
	u64 lifts;
	u64 throttled_ns;
	u64 max_lag_seen_ns;
};

/**
 * struct gputbs_params - the sysfs directory policy_params/
 * @ops: the policy the directory shows, NULL while it does not exist.
 * @group: the attribute group, named "policy_params".
 * @attrs: NULL-terminated pointers to @dattrs' attributes, then to
 *	@rattrs'.
 * @dattrs: one file per parameter of @ops, in its &gtbs_policy_ops.params
 *	order (a file's index is its parameter's).
 * @rattrs: the read-only ``<param>_range`` file of each, same order.
 * @rnames: the names of @rattrs' files.
 *
 * Built and removed under &gputbs_device.cfg_lock
 * (gputbs_policy_params_changed()); read by the files' show and store
 * under &gputbs_device.lock, which compare @ops with the device's policy.
 */
struct gputbs_params {
	const struct gtbs_policy_ops *ops;
	struct attribute_group group;
	struct attribute *attrs[2 * GTBS_MAX_POLICY_PARAMS + 1];
	struct device_attribute dattrs[GTBS_MAX_POLICY_PARAMS];
	struct device_attribute rattrs[GTBS_MAX_POLICY_PARAMS];
	char rnames[GTBS_MAX_POLICY_PARAMS][GTBS_POLICY_NAME_LEN +
					     sizeof("_range")];
};

/**
 * GPUTBS_TENANTS_MAX - the most tenants of cgroups and files a device
 * keeps (gputbs_tenant.c); beyond, grids go to the device's own tenant
 */
#define GPUTBS_TENANTS_MAX	1024

/**
 * struct gputbs_tenant - a cgroup v2 or an open file as a tenant
 *	(gputbs_tenant.c)
 * @core: the core's tenant; &gtbs_tenant.id is the cgroup's id or the
 *	file's drm-client-id (&gputbs_device.lock).
 * @kind: %GPUTBS_TENANT_KIND_CGROUP or %GPUTBS_TENANT_KIND_FILE
 *	(constant).
 * @refs: grids that name it until they are freed, the files whose last
 *	tenant it is, and for a file's tenant its file (atomic; the tenant
 *	is freed only under &gputbs_tenants.lock).
 * @set: tenant-set set its weight or cap: reclaim keeps it while its
 *	cgroup exists (&gputbs_tenants.lock).
 * @uid: real uid of the task that made it (constant): a file's tenant
 *	belongs to it.
 */
struct gputbs_tenant {
	struct gtbs_tenant core;
	u32 kind;
	atomic_t refs;
	bool set;
	kuid_t uid;
};

/**
 * struct gputbs_tenants - the tenants of a device
 * @lock: makes and frees tenants, and serialises tenant-set; taken
 *	before &gputbs_device.lock.
 * @cgroups: cgroup id -> &struct gputbs_tenant (@lock to change).
 * @files: drm-client-id -> the file's &struct gputbs_tenant (@lock to
 *	change).
 * @nr: entries of @cgroups and @files together (@lock).
 * @overflows: grids given the device's own tenant because @nr reached
 *	%GPUTBS_TENANTS_MAX and none could be reclaimed (@lock).
 */
struct gputbs_tenants {
	/* makes and frees tenants: see @lock above */
	struct mutex lock;
	struct xarray cgroups;
	struct xarray files;
	u32 nr;
	u64 overflows;
};

/**
 * struct gputbs_tenant_info - a tenant as readers see it (netlink
 *	tenant-get, debugfs tenants, fdinfo)
 * @kind: &enum gputbs_tenant_kind.
 * @id: the cgroup's id, the file's drm-client-id, or 0 (device).
 * @weight: 1..%GTBS_TENANT_WEIGHT_MAX.
 * @max_ppm: cap, ppm of the device's SM time; 0: none.
 * @grids: grids in the device.
 * @sm_time: SM time held, 1/%GTBS_SM_TIME_SCALE SM-cycles, up to @now.
 * @now: the emulated cycle of the reading.
 * @throttled: throttled by its cap at @now.
 * @throttled_cycles: cycles spent throttled, up to @now.
 * @throttles: times throttled.
 */
struct gputbs_tenant_info {
	u32 kind;
	u64 id;
	u32 weight;
	u32 max_ppm;
	u32 grids;
	u64 sm_time;
	u64 now;
	bool throttled;
	u64 throttled_cycles;
	u64 throttles;
};

/**
 * struct gputbs_tenant_req - what tenant-set asks (gputbs_tenant_set())
 * @kind: %GPUTBS_TENANT_KIND_CGROUP (@id a cgroup id) or
 *	%GPUTBS_TENANT_KIND_FILE (@id a drm-client-id).
 * @id: the tenant.
 * @set_weight: set @weight.
 * @set_max: set @max_ppm.
 * @weight: 1..%GTBS_TENANT_WEIGHT_MAX.
 * @max_ppm: 0 (no cap) or 1..%GTBS_PPM.
 */
struct gputbs_tenant_req {
	u32 kind;
	u64 id;
	bool set_weight;
	bool set_max;
	u32 weight;
	u32 max_ppm;
};

/**
 * struct gputbs_device - the emulated GPU behind /dev/gputbs
 * @lock: serialises every call into the portable core and the grids'
 *	done lists; taken by SM kthreads and ioctls, never from irq context.
 * @core: the device model and scheduler state (protected by @lock).
 * @sms: the SMs' core state, @core.cfg.nr_sms entries (constant pointers
 *	while a file is open; replaced by gputbs_reconfigure() under @lock).
 * @threads: one kthread per SM, @core.cfg.nr_sms entries (likewise).
 * @misc: the misc device /dev/gputbs.
 * @epoch_ns: CLOCK_MONOTONIC time of emulated cycle 0, ns (constant while
 *	a file is open; gputbs_reconfigure() restarts the clock).
 * @time_scale_ps: wall-clock picoseconds per emulated cycle (constant
 *	while a file is open).
 * @max_grids_per_fd: limit of unreaped grids per open file (constant).
 * @starve_ns: the value last written to the sysfs file starve_ns, ns; the
 *	core's &gtbs_dev.starve_cycles holds it in cycles (@lock).
 * @timeout_ns: the job timeout last written to the sysfs file timeout_ns
 *	(initially %GPUTBS_DEFAULT_TIMEOUT_NS), ns of emulated time; the
 *	core's &gtbs_dev.timeout_cycles holds it in cycles; 0: none (@lock).
 * @cfg_lock: serialises opening the device with reconfiguring it
 *	(gputbs_reconfigure()) and keeps the configuration stable for
 *	debugfs readers; taken before @lock, never under it.
 * @nr_open: open files of /dev/gputbs (@cfg_lock to increment).
 * @next_client_id: the last drm-client-id given to an open file.
 * @obs: preemptions, latencies, accuracy log, per-SM tracking (@lock).
 * @sync: lock hold statistics of the device's runs (@lock).
 * @isol: block events charged to users, and their throttles (@lock).
 * @debugfs: the debugfs directory gputbs/, or an error pointer.
 * @params: the sysfs directory policy_params/ (@cfg_lock).
 * @preset: the device preset the configuration was last set from (module
 *	parameter device=, sysfs attribute device); the per-field
 *	attributes may have changed fields since (@cfg_lock).
 * @saved_pool: the core's records for preempted blocks
 *	(&gtbs_dev.saved_pool), %GPUTBS_SAVED_PER_SLOT per block slot of the
 *	device; replaced with the SMs by gputbs_reconfigure() (@lock).
 * @tenants: the device's cgroups and files as tenants (their own lock).
 */
struct gputbs_device {
	/* serialises the core: see @lock above */
	spinlock_t lock;
	struct gtbs_dev core;
	struct gtbs_sm **sms;
	struct gputbs_sm_thread *threads;
	struct miscdevice misc;
	u64 epoch_ns;
	u32 time_scale_ps;
	u32 max_grids_per_fd;
	u64 starve_ns;
	u64 timeout_ns;
	/* serialises open() with reconfiguration: see @cfg_lock above */
	struct mutex cfg_lock;
	atomic_t nr_open;
	atomic64_t next_client_id;
	struct gputbs_obs obs;
	struct gputbs_sync_stats sync;
	struct gputbs_isol isol;
	struct dentry *debugfs;
	struct gputbs_params params;
	const struct gtbs_dev_preset *preset;
	struct gtbs_saved *saved_pool;
	struct gputbs_tenants tenants;
};

/*
 * GPUTBS_SAVED_PER_SLOT - records for preempted blocks per block slot of the
 * device: a slot's block may wait preempted by each of the three classes
 * above the lowest, and one spare; a preemption that would need more
 * drains instead (sm-emu/preempt.c).
 */
#define GPUTBS_SAVED_PER_SLOT	4

/* Records for preempted blocks of a device of configuration @cfg. */
static inline u32 gputbs_saved_count(const struct gtbs_dev_config *cfg)
{
	return cfg->nr_sms * cfg->max_blocks_per_sm * GPUTBS_SAVED_PER_SLOT;
}

/**
 * struct gputbs_client - one open file of /dev/gputbs
 * @gdev: the device.
 * @grids: handle -> &struct gputbs_grid; each entry holds one reference.
 *	The xarray has its own lock.
 * @nr_grids: grids charged to the file, for &gputbs_device.max_grids_per_fd
 *	(gputbs_grid_charge() and gputbs_grid_uncharge()).
 * @done: completed, unreaped grids in completion order (&gputbs_device.lock).
 * @wq: waiters for completions and poll() (wakes under &gputbs_device.lock).
 * @stats: fdinfo accounting (&gputbs_device.lock).
 * @tenant: the tenant of the file's last grid, with a reference, or NULL
 *	(&gputbs_tenants.lock to change, &gputbs_device.lock too; fdinfo
 *	reads it under the latter).
 * @file_tenant: the file's own tenant, made at the first grid a task of
 *	the root cgroup submits through it (&gputbs_tenants.lock).
 */
struct gputbs_client {
	struct gputbs_device *gdev;
	struct xarray grids;
	atomic_t nr_grids;
	struct list_head done;
	wait_queue_head_t wq;
	struct gputbs_client_stats stats;
	struct gputbs_tenant *tenant;
	struct gputbs_tenant *file_tenant;
};

struct gputbs_user;

/**
 * struct gputbs_charge - what a grid is charged (gputbs_limits.c)
 * @user: the user charged, by the real uid of the submitting task; NULL
 *	once uncharged.
 * @bytes: bytes of block records and duration array charged, the
 *	submission's gputbs_grid_bytes().
 *
 * Written by gputbs_grid_charge() and gputbs_grid_uncharge() only, by the
 * one task that submits or retires the grid; no lock.
 */
struct gputbs_charge {
	struct gputbs_user *user;
	u64 bytes;
};

/**
 * struct gputbs_user_usage - one user's charges, copied for debugfs
 * @uid: the user (unset for the device's totals).
 * @nr_grids: unreaped grids charged.
 * @bytes: bytes of block records and duration arrays charged.
 */
struct gputbs_user_usage {
	kuid_t uid;
	u32 nr_grids;
	u64 bytes;
};

/**
 * struct gputbs_grid - a grid submitted through an open file
 * @ref: references: one for the handle in &gputbs_client.grids, one per
 *	sleeping waiter.  The core's use of @core ends before the handle's
 *	reference can be dropped (the grid is DONE or cancelled first).
 * @client: the file that submitted it.
 * @handle: its handle in @client.
 * @durations: explicit block durations (kvmalloc), or NULL.
 * @records: with %GPUTBS_SUBMIT_RECORD_BLOCKS, an array of nr_blocks block
 *	records (kvmalloc) filled in block-end order, else NULL.  Written
 *	under &gputbs_device.lock until @done, read-only afterwards.
 * @nr_records: records filled in @records (&gputbs_device.lock).
 * @done_node: link in &gputbs_client.done (&gputbs_device.lock).
 * @done: set under &gputbs_device.lock when the last block ended.
 * @lat_pending: one bit per SM: a preemption on that SM waits for the
 *	grid's first block there (gputbs_obs.c; &gputbs_device.lock).
 * @lat_mech: per SM, while its bit of @lat_pending is set, the slowest
 *	&enum gtbs_preempt_mech that preempted a block there for the grid
 *	(%GTBS_MECH_DRAIN if none; gputbs_obs.c; &gputbs_device.lock).
 * @id: device-wide serial number from 1, in submission order: the grid's
 *	id in the gputbs netlink family (set at submission, under
 *	&gputbs_device.lock, by gputbs_nl_grid_submitted()).
 * @pid: thread group id of the submitter, initial PID namespace (likewise).
 * @uid: real uid of the submitter (likewise): the user who sees @pid and
 *	the label through the netlink family without CAP_SYS_ADMIN or
 *	CAP_PERFMON (gputbs_nl_viewer_sees()).
 * @charge: what the grid is charged against the per-user and device-wide
 *	limits, from its submission until gputbs_grid_retire() (reaped, or
 *	cancelled with its file or with its submitter's hold on the file).
 * @owner: the file table (&struct files_struct, current->files) of the
 *	task that submitted it; compared, never dereferenced, like a POSIX
 *	lock's owner.  NULL until the grid is in the core; written once, under
 *	&gputbs_device.lock, by SUBMIT, read under it by gputbs_flush().
 * @orphaned: set under &gputbs_device.lock by gputbs_flush() when @owner
 *	let go of the file (closed its last descriptor of it, or exited)
 *	while other references keep the file open: the grid is cancelled
 *	as soon as no ioctl holds it (@busy).  Read with READ_ONCE().
 * @gone: set under &gputbs_device.lock once the grid was cancelled that
 *	way; wakes a WAIT that holds it (which then returns -ENOENT).
 * @busy: ioctls (WAIT by handle, BLOCKS, SUBMIT's predecessor) holding a
 *	reference from gputbs_grid_get(); the last of them cancels an
 *	@orphaned grid.
 * @tenant: the tenant charged, with a reference, or NULL for the
 *	device's own (constant from SUBMIT; &gtbs_grid.tenant points to its
 *	@core).
 * @core: the core's grid; must be last (its per-SM pointers follow it).
 *	Cache-line aligned, so that its first 64 bytes, what every pick
 *	reads (&struct gtbs_grid), are one line.
 *
 * One kvmalloc() (gputbs_grid_create()) holds the grid, the core's per-SM
 * pointers (8 bytes per SM, gtbs_grid_size()) and, after them, the arrays
 * @lat_pending and @lat_mech point to (gputbs_grid_lat_offset()): 9 bits
 * per SM.
 */
struct gputbs_grid {
	struct kref ref;
	struct gputbs_client *client;
	u32 handle;
	u64 *durations;
	struct gputbs_block_record *records;
	u32 nr_records;
	struct list_head done_node;
	bool done;
	unsigned long *lat_pending;
	u8 *lat_mech;
	u64 id;
	pid_t pid;
	kuid_t uid;
	struct gputbs_charge charge;
	void *owner;
	bool orphaned;
	bool gone;
	atomic_t busy;
	struct gputbs_tenant *tenant;
	struct gtbs_grid core ____cacheline_aligned;
};

/* gputbs_sm.c */
u64 gputbs_now_cycles(const struct gputbs_device *gdev);
u64 gputbs_cycles_to_ns(const struct gputbs_device *gdev, u64 cycles);
int gputbs_sm_threads_start(struct gputbs_device *gdev);
void gputbs_sm_threads_stop(struct gputbs_device *gdev);
int gputbs_sm_threads_create(struct gputbs_device *gdev,
			     struct gputbs_sm_thread *threads,
			     struct gtbs_sm **sms, u32 nr);
void gputbs_sm_threads_destroy(struct gputbs_sm_thread *threads, u32 nr);
bool gputbs_dev_sync(struct gputbs_device *gdev);
bool gputbs_dev_advance(struct gputbs_device *gdev);
int gputbs_spare_refill(struct gputbs_device *gdev);
extern const struct gtbs_pair_alloc gputbs_pair_alloc;
int gputbs_ns_to_cycles(const struct gputbs_device *gdev, u64 ns, u64 *cycles);
int gputbs_dev_lock_sync(struct gputbs_device *gdev, u64 *now)
	__acquires(&gdev->lock);

/* gputbs_file.c */
extern const struct file_operations gputbs_fops;
void gputbs_grid_done(struct gputbs_device *gdev, struct gputbs_grid *grid);
void gputbs_grid_block_end(struct gputbs_grid *grid, u32 sm, u32 slot,
			   u32 block, u64 start, u64 end);

/* gputbs_tenant.c */
void gputbs_tenants_init(struct gputbs_device *gdev);
void gputbs_tenants_free(struct gputbs_device *gdev);
void gputbs_tenants_reinit(struct gputbs_device *gdev);
struct gputbs_tenant *gputbs_tenant_get_current(struct gputbs_client *client);
void gputbs_tenant_put(struct gputbs_tenant *t);
void gputbs_tenant_client_release(struct gputbs_client *client);
int gputbs_tenant_set(struct gputbs_device *gdev,
		      const struct gputbs_tenant_req *req, bool admin,
		      const char **msg);
void gputbs_tenant_info_of(struct gputbs_device *gdev,
			   const struct gputbs_tenant *t,
			   struct gputbs_tenant_info *info);
int gputbs_tenants_snapshot(struct gputbs_device *gdev,
			    struct gputbs_tenant_info **out, u32 *nr);

/* gputbs_bpf.c: BPF policies, where the kernel has them (Kbuild) */
#ifdef GPUTBS_HAVE_BPF
void gputbs_bpf_init(struct gputbs_device *gdev);
#else
static inline void gputbs_bpf_init(struct gputbs_device *gdev)
{
}
#endif

/* gputbs_sysfs.c */
extern const struct attribute_group *gputbs_groups[];
void gputbs_policy_params_changed(struct gputbs_device *gdev);
void gputbs_policy_params_remove(struct gputbs_device *gdev);
int gputbs_admin_check(void);

/* gputbs_limits.c */
void gputbs_limits_apply(struct gtbs_dev_config *cfg);
u64 gputbs_grid_bytes(const struct gputbs_submit *args);
int gputbs_grid_charge(struct gputbs_client *client, u64 bytes,
		       struct gputbs_charge *charge, struct gtbs_grid_err *err);
void gputbs_grid_uncharge(struct gputbs_client *client,
			  struct gputbs_charge *charge);
u32 gputbs_users_snapshot(struct gputbs_user_usage *usage, u32 max,
			  struct gputbs_user_usage *total);
u32 gputbs_max_grids_per_device(void);
struct gputbs_user_isol *gputbs_user_isol(struct gputbs_user *user);
u32 gputbs_users_isol_scan(bool (*fn)(struct gputbs_user_isol *ui,
				      u32 nr_users, void *arg), void *arg);

/* gputbs_isolation.c */
bool gputbs_isol_check(struct gputbs_device *gdev, bool done);
void gputbs_isol_set_max_lag(struct gputbs_device *gdev, u64 ns);
void gputbs_isol_block_end(struct gputbs_device *gdev,
			   struct gputbs_grid *grid);
void gputbs_isol_grid_arrive(struct gtbs_dev *core, struct gtbs_grid *cg);
u32 gputbs_max_grids_per_user(void);
void gputbs_max_bytes(u64 *per_user, u64 *per_device);
void gputbs_reserves(u32 *grids, u64 *bytes);

#endif /* _GPUTBS_DRV_H */
