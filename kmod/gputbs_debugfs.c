// SPDX-License-Identifier: GPL-2.0
/*
 * gputbs_debugfs.c - the scheduler's state in debugfs, gputbs/.
 *
 * Copyright (C) 2026 The gputbs developers
 */

/**
 * DOC: debugfs
 *
 * /sys/kernel/debug/gputbs/ (root only) holds seven read-only seq_files,
 * described with their formats in Documentation/tracing.rst:
 *
 * sms
 *	Per SM: its clock, free resources, busy cycles, sharing mode, and the
 *	blocks resident on it per grid.
 * grids
 *	Per grid (arriving, queued or running; at most
 *	%GPUTBS_DEBUGFS_MAX_GRIDS): state, class, blocks issued and done,
 *	predictions, and per SM the Simple Slicing predictor's state (the
 *	paper's Table "State maintained per-kernel in each SM") with the
 *	current prediction.
 * accuracy
 *	The predictor-accuracy log: the last %GPUTBS_ACC_LOG_LEN completed
 *	grids with their first and final predictions against the actual
 *	runtime.
 * preempt_latency
 *	Preemptions per reason and the preemption-latency histogram in log2
 *	buckets of cycles (gputbs_obs.c).
 * sync
 *	How the device lock is held to run the device (struct
 *	gputbs_sync_stats): the budget of events per hold, slices run, slices
 *	that left the device behind the wall clock, the most events, the
 *	longest and the mean hold of one slice (ns), the device's clock and
 *	how many cycles it lags the wall clock now; then the wall-clock
 *	isolation of users (struct gputbs_isol, gputbs_isolation.c):
 *	max_lag_ns, the largest lag a check saw (ns), whether users are
 *	throttled now, users throttled and lifts so far, and the wall-clock
 *	ns spent throttling.
 * users
 *	The per-user accounting of gputbs_limits.c: per user holding grids
 *	(at most %GPUTBS_DEBUGFS_MAX_USERS) its uid, unreaped grids and
 *	bytes of block records and duration arrays, then the device's
 *	totals and the limits in force.
 * tenants
 *	The tenants of gputbs_tenant.c (cgroups and files): per tenant its
 *	kind and id, weight, cap (ppm), grids in the device, SM time
 *	(SM-cycles), whether its cap throttles it now, the cycles it spent
 *	throttled and the times it was.
 *
 * Every file is safe to read under load: the show function allocates a
 * snapshot buffer first, then takes &gputbs_device.lock only to copy the
 * state into it (bringing the device up to the current cycle first), and
 * prints after unlocking.  &gputbs_device.cfg_lock keeps the configuration
 * (SM count, slots) stable between the allocation and the copy.
 */
#include <linux/debugfs.h>
#include <linux/err.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/uidgid.h>

#include "../uapi/linux/gputbs_netlink.h"

#include "gputbs_drv.h"

/** GPUTBS_DEBUGFS_MAX_GRIDS - grids the file grids shows at most */
#define GPUTBS_DEBUGFS_MAX_GRIDS	64

/** GPUTBS_DEBUGFS_MAX_USERS - users the file users shows at most */
#define GPUTBS_DEBUGFS_MAX_USERS	1024

/* ---- sms ------------------------------------------------------------- */

struct gputbs_dbg_slot {
	u64 client;
	u32 handle;
	u32 block;
	u64 start;
	bool used;
};

struct gputbs_dbg_sm {
	u64 now;
	u64 busy_cycles;
	u64 blocks_run;
	u32 used_threads;
	u32 used_warps;
	u32 used_regs;
	u32 used_shmem;
	u32 nr_resident;
	bool sharing;
};

static void gputbs_dbg_copy_sm(const struct gtbs_dev *core,
			       const struct gtbs_sm *sm, u32 nr_slots,
			       struct gputbs_dbg_sm *d,
			       struct gputbs_dbg_slot *slots)
{
	u32 j;

	*d = (struct gputbs_dbg_sm) {
		.now = sm->now,
		.busy_cycles = sm->busy_cycles,
		.blocks_run = sm->blocks_run,
		.used_threads = sm->used_threads,
		.used_warps = sm->used_warps,
		.used_regs = sm->used_regs,
		.used_shmem = sm->used_shmem,
		.nr_resident = sm->nr_resident,
		.sharing = gtbs_sm_sharing(core, sm),
	};
	for (j = 0; j < nr_slots; j++) {
		const struct gtbs_slot *s = &sm->slots[j];
		const struct gputbs_grid *grid;

		slots[j].used = s->grid;
		if (!s->grid)
			continue;
		grid = s->grid->priv;
		slots[j].client = grid->client->stats.id;
		slots[j].handle = grid->handle;
		slots[j].block = s->block;
		slots[j].start = s->start_cycle;
	}
}

/* One line per grid resident on the SM, with its blocks' indices. */
static void gputbs_dbg_print_slots(struct seq_file *m,
				   struct gputbs_dbg_slot *slots, u32 nr)
{
	u32 i, j, count;

	for (i = 0; i < nr; i++) {
		if (!slots[i].used)
			continue;
		count = 0;
		for (j = i; j < nr; j++)
			if (slots[j].used && slots[j].client == slots[i].client &&
			    slots[j].handle == slots[i].handle)
				count++;
		seq_printf(m, "  grid client=%llu handle=%u resident=%u blocks=",
			   slots[i].client, slots[i].handle, count);
		for (j = i, count = 0; j < nr; j++) {
			if (!slots[j].used || slots[j].client != slots[i].client ||
			    slots[j].handle != slots[i].handle || j == i)
				continue;
			seq_printf(m, "%u@%llu,", slots[j].block, slots[j].start);
			slots[j].used = false;
		}
		seq_printf(m, "%u@%llu\n", slots[i].block, slots[i].start);
		slots[i].used = false;
	}
}

static int gputbs_dbg_sms_show(struct seq_file *m, void *unused)
{
	struct gputbs_device *gdev = m->private;
	struct gputbs_dbg_slot *slots;
	struct gtbs_dev_config cfg;
	struct gputbs_dbg_sm *sms;
	u32 i, nr_slots;

	mutex_lock(&gdev->cfg_lock);
	cfg = gdev->core.cfg;
	nr_slots = cfg.max_blocks_per_sm;
	sms = kvcalloc(cfg.nr_sms, sizeof(*sms), GFP_KERNEL);
	slots = kvcalloc(array_size(cfg.nr_sms, nr_slots), sizeof(*slots),
			 GFP_KERNEL);
	if (!sms || !slots) {
		mutex_unlock(&gdev->cfg_lock);
		kvfree(sms);
		kvfree(slots);
		return -ENOMEM;
	}
	spin_lock(&gdev->lock);
	gputbs_dev_sync(gdev);	/* a bounded slice: the state as far as it got */
	for (i = 0; i < cfg.nr_sms; i++)
		gputbs_dbg_copy_sm(&gdev->core, gdev->sms[i], nr_slots, &sms[i],
				   &slots[(size_t)i * nr_slots]);
	spin_unlock(&gdev->lock);
	mutex_unlock(&gdev->cfg_lock);

	seq_printf(m, "# %u SMs; per SM: clock, free resources, busy cycles; then per resident grid: block@start_cycle\n",
		   cfg.nr_sms);
	for (i = 0; i < cfg.nr_sms; i++) {
		const struct gputbs_dbg_sm *d = &sms[i];

		seq_printf(m, "sm=%u now=%llu resident=%u free_slots=%u free_warps=%u free_threads=%u free_regs=%u free_shmem=%u busy_cycles=%llu blocks_run=%llu sharing=%u\n",
			   i, d->now, d->nr_resident,
			   cfg.max_blocks_per_sm - d->nr_resident,
			   cfg.max_warps_per_sm - d->used_warps,
			   cfg.max_threads_per_sm - d->used_threads,
			   cfg.max_regs_per_sm - d->used_regs,
			   cfg.max_shmem_per_sm - d->used_shmem,
			   d->busy_cycles, d->blocks_run, d->sharing);
		gputbs_dbg_print_slots(m, &slots[(size_t)i * nr_slots],
				       nr_slots);
	}
	kvfree(sms);
	kvfree(slots);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(gputbs_dbg_sms);

/* ---- grids ----------------------------------------------------------- */

struct gputbs_dbg_grid {
	u64 client;
	u32 handle;
	u64 id;
	char label[GTBS_LABEL_LEN];
	u32 state;
	u32 prio_class;
	u32 eff_class;
	char policy_state[16];
	u32 nr_blocks;
	u32 issued;
	u32 done;
	u32 resident;
	u32 residency;
	u64 arrival;
	u64 start;
	u64 alone;
	u64 predictions;
	u64 first_pred;
	u64 final_pred;
	u64 pred_remaining;
	u64 pred_cycle;
};

struct gputbs_dbg_pred {
	u64 now;
	u32 resident;
	u32 done_blocks;
	u32 total_blocks;
	u32 resident_blocks;
	u64 active;
	u64 t;
	u64 pred_cycles;
	u64 remaining;
	bool reslice;
	bool predicted;
};

static const char *gputbs_dbg_state_name(u32 state)
{
	static const char * const names[] = {
		GTBS_GRID_STATE_NAMES(GTBS_GRID_)
	};

	return state < ARRAY_SIZE(names) ? names[state] : "?";
}

static void gputbs_dbg_copy_grid(struct gputbs_device *gdev,
				 const struct gtbs_grid *g, u64 now,
				 struct gputbs_dbg_grid *d,
				 struct gputbs_dbg_pred *preds)
{
	const struct gputbs_grid *grid = g->priv;
	struct gtbs_grid_sm view;
	u32 i;

	*d = (struct gputbs_dbg_grid) {
		.client = grid->client->stats.id,
		.handle = grid->handle,
		.id = g->id,
		.state = g->state,
		.prio_class = g->desc.prio_class,
		.eff_class = g->state == GTBS_GRID_ARRIVING ||
			     g->state == GTBS_GRID_WAITING ?
			     g->desc.prio_class :
			     gtbs_grid_class(&gdev->core, g, now),
		.nr_blocks = g->desc.nr_blocks,
		.issued = g->next_block,
		.done = g->blocks_done,
		.resident = g->resident,
		.residency = g->occ.residency,
		.arrival = g->submit_cycle,
		.start = g->start_cycle,
		.alone = g->alone_cycles,
		.predictions = g->nr_predictions,
		.first_pred = g->nr_predictions ? g->first_pred : 0,
		.final_pred = gtbs_grid_pred_final(&gdev->core.cfg, g),
		.pred_remaining = g->pred_remaining,
		.pred_cycle = g->pred_cycle,
	};
	memcpy(d->label, g->desc.label, sizeof(d->label));
	/* the policy's word for the grid (SRTF: its sampling state) */
	strscpy(d->policy_state, gdev->core.policy->grid_state ?
		gdev->core.policy->grid_state(&gdev->core, g) ?: "-" : "-",
		sizeof(d->policy_state));
	for (i = 0; i < gdev->core.cfg.nr_sms; i++) {
		const struct gtbs_grid_sm *gs = &view;
		const struct gtbs_pred_sm *p = &view.pred;
		u64 sm_now = gdev->sms[i]->now;

		/* where the grid never ran: the state a pair starts with */
		gtbs_grid_sm_view(&gdev->core, g, i, &view);

		preds[i] = (struct gputbs_dbg_pred) {
			.now = sm_now,
			.resident = gs->resident,
			.done_blocks = p->done_blocks,
			.total_blocks = p->total_blocks,
			.resident_blocks = p->resident_blocks,
			.active = g->state == GTBS_GRID_RUNNING ?
				  gtbs_pred_active_cycles(p, sm_now) : 0,
			.t = p->t,
			.pred_cycles = p->pred_cycles,
			.remaining = p->predicted ?
				     gtbs_pred_remaining(p, sm_now) : 0,
			.reslice = gtbs_grid_sm_reslice_due(&gdev->core, gs),
			.predicted = p->predicted,
		};
	}
}

static void gputbs_dbg_print_grid(struct seq_file *m, u32 nr_sms,
				  const struct gputbs_dbg_grid *d,
				  const struct gputbs_dbg_pred *preds)
{
	u32 i;

	seq_printf(m, "grid client=%llu handle=%u id=%llu state=%s class=%s eff_class=%s blocks=%u issued=%u done=%u resident=%u residency=%u arrival=%llu start=%llu alone=%llu policy_state=%s predictions=%llu first_pred=%llu final_pred=%llu pred_remaining=%llu pred_cycle=%llu label=%s\n",
		   d->client, d->handle, d->id, gputbs_dbg_state_name(d->state),
		   gtbs_prio_class_name(d->prio_class),
		   gtbs_prio_class_name(d->eff_class), d->nr_blocks, d->issued,
		   d->done, d->resident, d->residency, d->arrival, d->start,
		   d->alone, d->policy_state, d->predictions,
		   d->first_pred, d->final_pred, d->pred_remaining,
		   d->pred_cycle, d->label);
	if (d->state != GTBS_GRID_RUNNING)
		return;
	seq_puts(m, "  sm now resident Active_Kernel_Cycles Done_Blocks Total_Blocks Resident_Blocks t Pred_Cycles Reslice predicted remaining\n");
	for (i = 0; i < nr_sms; i++) {
		const struct gputbs_dbg_pred *p = &preds[i];

		seq_printf(m, "  %u %llu %u %llu %u %u %u %llu %llu %u %u %llu\n",
			   i, p->now, p->resident, p->active, p->done_blocks,
			   p->total_blocks, p->resident_blocks, p->t,
			   p->pred_cycles, p->reslice, p->predicted,
			   p->remaining);
	}
}

/* Copy up to @max grids, arrived ones first.  Lock held.  Returns total. */
static u32 gputbs_dbg_copy_grids(struct gputbs_device *gdev, u64 now,
				 u32 max, struct gputbs_dbg_grid *grids,
				 struct gputbs_dbg_pred *preds)
{
	struct list_head *lists[] = { &gdev->core.grids,
				      &gdev->core.arrivals,
				      &gdev->core.waiting };
	u32 nr_sms = gdev->core.cfg.nr_sms, n = 0, l;
	const struct gtbs_grid *g;

	for (l = 0; l < ARRAY_SIZE(lists); l++) {
		list_for_each_entry(g, lists[l], node) {
			if (n < max)
				gputbs_dbg_copy_grid(gdev, g, now, &grids[n],
						     &preds[(size_t)n * nr_sms]);
			n++;
		}
	}
	return n;
}

static u32 gputbs_dbg_count_grids(const struct gputbs_device *gdev)
{
	const struct gtbs_grid *g;
	u32 n = gdev->core.nr_grids;

	list_for_each_entry(g, &gdev->core.arrivals, node)
		n++;
	list_for_each_entry(g, &gdev->core.waiting, node)
		n++;
	return n;
}

static int gputbs_dbg_grids_show(struct seq_file *m, void *unused)
{
	struct gputbs_device *gdev = m->private;
	struct gputbs_dbg_pred *preds = NULL;
	struct gputbs_dbg_grid *grids = NULL;
	u32 i, n, total, nr_sms;
	u64 now;

	mutex_lock(&gdev->cfg_lock);
	nr_sms = gdev->core.cfg.nr_sms;
	spin_lock(&gdev->lock);
	n = min_t(u32, gputbs_dbg_count_grids(gdev), GPUTBS_DEBUGFS_MAX_GRIDS);
	spin_unlock(&gdev->lock);
	if (n) {
		grids = kvcalloc(n, sizeof(*grids), GFP_KERNEL);
		preds = kvcalloc(array_size(n, nr_sms), sizeof(*preds),
				 GFP_KERNEL);
		if (!grids || !preds) {
			mutex_unlock(&gdev->cfg_lock);
			kvfree(grids);
			kvfree(preds);
			return -ENOMEM;
		}
	}
	spin_lock(&gdev->lock);
	gputbs_dev_sync(gdev);	/* a bounded slice: the state as far as it got */
	now = gdev->core.clock;
	total = gputbs_dbg_copy_grids(gdev, now, n, grids, preds);
	spin_unlock(&gdev->lock);
	mutex_unlock(&gdev->cfg_lock);

	n = min(n, total);
	seq_printf(m, "# %u grids at cycle %llu, %u shown; per running grid and SM the Simple Slicing predictor's state\n",
		   total, now, n);
	for (i = 0; i < n; i++)
		gputbs_dbg_print_grid(m, nr_sms, &grids[i],
				      &preds[(size_t)i * nr_sms]);
	kvfree(grids);
	kvfree(preds);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(gputbs_dbg_grids);

/* ---- accuracy -------------------------------------------------------- */

/* @pred / @actual in parts per million; 0 when either is 0. */
static u64 gputbs_dbg_ppm(u64 pred, u64 actual)
{
	if (!pred || !actual)
		return 0;
	return mul_u64_u64_div_u64(pred, 1000000, actual);
}

static int gputbs_dbg_accuracy_show(struct seq_file *m, void *unused)
{
	struct gputbs_device *gdev = m->private;
	struct gputbs_acc_entry *acc;
	u64 total, first, i;

	acc = kmalloc_array(GPUTBS_ACC_LOG_LEN, sizeof(*acc), GFP_KERNEL);
	if (!acc)
		return -ENOMEM;
	spin_lock(&gdev->lock);
	memcpy(acc, gdev->obs.acc, sizeof(gdev->obs.acc));
	total = gdev->obs.acc_total;
	spin_unlock(&gdev->lock);

	first = total > GPUTBS_ACC_LOG_LEN ? total - GPUTBS_ACC_LOG_LEN : 0;
	seq_printf(m, "# the last %llu of %llu completed grids, oldest first; cycles; ppm = prediction / actual * 10^6\n",
		   total - first, total);
	seq_puts(m, "# client handle id class blocks arrival start end actual predictions first_pred final_pred first_ppm final_ppm label\n");
	for (i = first; i < total; i++) {
		const struct gputbs_acc_entry *e = &acc[i % GPUTBS_ACC_LOG_LEN];
		u64 actual = e->end - e->start;

		seq_printf(m, "%llu %u %llu %s %u %llu %llu %llu %llu %llu %llu %llu %llu %llu %s\n",
			   e->client, e->handle, e->id,
			   gtbs_prio_class_name(e->prio_class), e->blocks,
			   e->arrival, e->start, e->end, actual, e->predictions,
			   e->first_pred, e->final_pred,
			   gputbs_dbg_ppm(e->first_pred, actual),
			   gputbs_dbg_ppm(e->final_pred, actual), e->label);
	}
	kfree(acc);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(gputbs_dbg_accuracy);

/* ---- preempt_latency ------------------------------------------------- */

struct gputbs_dbg_lat {
	u64 preemptions;
	u64 switches[GPUTBS_NR_PREEMPT_REASONS];
	struct gputbs_lat_hist lat[GTBS_NR_PRIO_CLASSES][GTBS_NR_MECHS];
	struct gputbs_lat_hist total;
};

/* The buckets of @l up to its highest non-empty one, @prefix before each. */
static void gputbs_dbg_lat_rows(struct seq_file *m, const char *prefix,
				const struct gputbs_lat_hist *l)
{
	unsigned int b, last = 0;

	for (b = 0; b < GPUTBS_LAT_BUCKETS; b++)
		if (l->hist[b])
			last = b;
	for (b = 0; b <= last; b++) {
		u64 from = b ? 1ULL << (b - 1) : 0;

		if (!l->hist[b] && *prefix)
			continue;	/* per class and mechanism: non-empty only */
		if (b < 64)
			seq_printf(m, "%s%llu %llu %llu\n", prefix, from,
				   b ? 1ULL << b : 1, l->hist[b]);
		else
			seq_printf(m, "%s%llu inf %llu\n", prefix, from,
				   l->hist[b]);
	}
}

static int gputbs_dbg_latency_show(struct seq_file *m, void *unused)
{
	struct gputbs_device *gdev = m->private;
	struct gputbs_dbg_lat *l;
	unsigned int b, c, k;
	char prefix[32];

	l = kzalloc(sizeof(*l), GFP_KERNEL);
	if (!l)
		return -ENOMEM;
	spin_lock(&gdev->lock);
	l->preemptions = gdev->obs.preemptions;
	memcpy(l->switches, gdev->obs.switches, sizeof(l->switches));
	memcpy(l->lat, gdev->obs.lat, sizeof(l->lat));
	spin_unlock(&gdev->lock);

	for (c = 0; c < GTBS_NR_PRIO_CLASSES; c++) {
		for (k = 0; k < GTBS_NR_MECHS; k++) {
			const struct gputbs_lat_hist *h = &l->lat[c][k];

			for (b = 0; b < GPUTBS_LAT_BUCKETS; b++)
				l->total.hist[b] += h->hist[b];
			l->total.count += h->count;
			l->total.sum += h->sum;
			l->total.max = max(l->total.max, h->max);
		}
	}
	seq_printf(m, "# preemptions %llu\n", l->preemptions);
	seq_puts(m, "# switches");
	for (b = 0; b < GPUTBS_NR_PREEMPT_REASONS; b++)
		seq_printf(m, " %s=%llu", gputbs_preempt_reason_name(b),
			   l->switches[b]);
	seq_printf(m, "\n# latencies %llu sum %llu max %llu (cycles from the preempting grid's arrival to its first block on the SM)\n",
		   l->total.count, l->total.sum, l->total.max);
	seq_puts(m, "# from to count (cycles in [from, to))\n");
	gputbs_dbg_lat_rows(m, "", &l->total);
	seq_puts(m, "# by class (of the grid that waited) and mechanism (the slowest that preempted a block for it): class mech latencies=N sum=S max=M, then class mech from to count for each non-empty bucket\n");
	for (c = 0; c < GTBS_NR_PRIO_CLASSES; c++) {
		for (k = 0; k < GTBS_NR_MECHS; k++) {
			const struct gputbs_lat_hist *h = &l->lat[c][k];

			snprintf(prefix, sizeof(prefix), "%s %s ",
				 gtbs_prio_class_name(c),
				 gtbs_preempt_mech_name(k));
			seq_printf(m, "%slatencies=%llu sum=%llu max=%llu\n",
				   prefix, h->count, h->sum, h->max);
			gputbs_dbg_lat_rows(m, prefix, h);
		}
	}
	kfree(l);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(gputbs_dbg_latency);

/* ---- sync ------------------------------------------------------------ */

static int gputbs_dbg_sync_show(struct seq_file *m, void *unused)
{
	struct gputbs_device *gdev = m->private;
	struct gputbs_sync_stats st;
	struct gputbs_isol isol;
	u64 clock, now, throttled_ns;

	spin_lock(&gdev->lock);
	st = gdev->sync;
	isol = gdev->isol;
	throttled_ns = isol.throttled_ns;
	if (isol.throttling)
		throttled_ns += ktime_get_ns() - isol.since_ns;
	clock = gdev->core.clock;
	now = gputbs_now_cycles(gdev);
	spin_unlock(&gdev->lock);

	seq_printf(m, "budget %u\n", GPUTBS_SYNC_BUDGET);
	seq_printf(m, "slices %llu\n", st.slices);
	seq_printf(m, "behind %llu\n", st.behind);
	seq_printf(m, "max_events %u\n", st.max_events);
	seq_printf(m, "max_ns %llu\n", st.max_ns);
	seq_printf(m, "mean_ns %llu\n",
		   st.slices ? div64_u64(st.total_ns, st.slices) : 0);
	seq_printf(m, "clock %llu\n", clock);
	seq_printf(m, "lag %llu\n", now > clock ? now - clock : 0);
	seq_printf(m, "max_lag_ns %llu\n", isol.max_lag_ns);
	seq_printf(m, "max_lag_seen_ns %llu\n", isol.max_lag_seen_ns);
	seq_printf(m, "throttling %d\n", isol.throttling);
	seq_printf(m, "users_throttled %llu\n", isol.throttles);
	seq_printf(m, "lifts %llu\n", isol.lifts);
	seq_printf(m, "throttled_ns %llu\n", throttled_ns);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(gputbs_dbg_sync);
/* ---- users ----------------------------------------------------------- */

static int gputbs_dbg_users_show(struct seq_file *m, void *unused)
{
	struct gputbs_user_usage *usage, total;
	u64 per_user, per_device, res_bytes;
	u32 i, n, res_grids;

	usage = kvcalloc(GPUTBS_DEBUGFS_MAX_USERS, sizeof(*usage), GFP_KERNEL);
	if (!usage)
		return -ENOMEM;
	n = gputbs_users_snapshot(usage, GPUTBS_DEBUGFS_MAX_USERS, &total);
	gputbs_max_bytes(&per_user, &per_device);
	gputbs_reserves(&res_grids, &res_bytes);

	seq_printf(m, "# %u users holding grids, %u shown; limits: max_grids_per_user=%u max_bytes_per_user=%llu max_grids_per_device=%u max_bytes_per_device=%llu reserved_grids=%u reserved_bytes=%llu\n",
		   n, min_t(u32, n, GPUTBS_DEBUGFS_MAX_USERS),
		   gputbs_max_grids_per_user(), per_user,
		   gputbs_max_grids_per_device(), per_device, res_grids,
		   res_bytes);
	seq_puts(m, "# uid grids bytes (block records and duration arrays of unreaped grids)\n");
	for (i = 0; i < min_t(u32, n, GPUTBS_DEBUGFS_MAX_USERS); i++)
		seq_printf(m, "%u %u %llu\n",
			   from_kuid_munged(seq_user_ns(m), usage[i].uid),
			   usage[i].nr_grids, usage[i].bytes);
	seq_printf(m, "total users=%u grids=%u bytes=%llu\n", n,
		   total.nr_grids, total.bytes);
	kvfree(usage);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(gputbs_dbg_users);

/* ---- tenants --------------------------------------------------------- */

static int gputbs_dbg_tenants_show(struct seq_file *m, void *unused)
{
	static const char * const kinds[] = {
		GTBS_TENANT_KIND_NAMES(GPUTBS_TENANT_KIND_)
	};
	struct gputbs_device *gdev = m->private;
	struct gputbs_tenant_info *ti;
	u32 i, nr;
	u64 overflows;
	int ret;

	ret = gputbs_tenants_snapshot(gdev, &ti, &nr);
	if (ret)
		return ret;
	mutex_lock(&gdev->tenants.lock);
	overflows = gdev->tenants.overflows;
	mutex_unlock(&gdev->tenants.lock);
	seq_printf(m, "# %u tenants at cycle %llu; cap_period=%llu cycles; grids given the device's tenant for want of room: %llu\n",
		   nr, nr ? ti[0].now : 0, READ_ONCE(gdev->core.cap_period),
		   overflows);
	seq_puts(m, "# kind id weight max_ppm grids sm_time_cycles throttled throttled_cycles throttles\n");
	for (i = 0; i < nr; i++)
		seq_printf(m, "%s %llu %u %u %u %llu %u %llu %llu\n",
			   kinds[ti[i].kind], ti[i].id, ti[i].weight,
			   ti[i].max_ppm, ti[i].grids,
			   div_u64(ti[i].sm_time, GTBS_SM_TIME_SCALE),
			   ti[i].throttled, ti[i].throttled_cycles,
			   ti[i].throttles);
	kvfree(ti);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(gputbs_dbg_tenants);

/**
 * gputbs_debugfs_init() - create /sys/kernel/debug/gputbs/
 * @gdev: the device, registered.
 *
 * debugfs is optional: failures are not reported (debugfs_create_*
 * handle an error parent).
 *
 * Context: process context, module init.
 */
void gputbs_debugfs_init(struct gputbs_device *gdev)
{
	struct dentry *dir = debugfs_create_dir("gputbs", NULL);

	gdev->debugfs = dir;
	debugfs_create_file("sms", 0400, dir, gdev, &gputbs_dbg_sms_fops);
	debugfs_create_file("grids", 0400, dir, gdev, &gputbs_dbg_grids_fops);
	debugfs_create_file("accuracy", 0400, dir, gdev,
			    &gputbs_dbg_accuracy_fops);
	debugfs_create_file("preempt_latency", 0400, dir, gdev,
			    &gputbs_dbg_latency_fops);
	debugfs_create_file("sync", 0400, dir, gdev, &gputbs_dbg_sync_fops);
	debugfs_create_file("users", 0400, dir, gdev, &gputbs_dbg_users_fops);
	debugfs_create_file("tenants", 0400, dir, gdev,
			    &gputbs_dbg_tenants_fops);
}

/**
 * gputbs_debugfs_exit() - remove /sys/kernel/debug/gputbs/
 * @gdev: the device.
 *
 * Waits for readers of the files to finish, so the device may be freed
 * afterwards.
 *
 * Context: process context, module exit.
 */
void gputbs_debugfs_exit(struct gputbs_device *gdev)
{
	debugfs_remove_recursive(gdev->debugfs);
	gdev->debugfs = NULL;
}
