// SPDX-License-Identifier: GPL-2.0
/*
 * gputbs_tenant.c - the module's tenants: cgroups v2 and open files, their
 * weights and caps, and the accounting users read.
 *
 * Copyright (C) 2026 The gputbs developers
 */

/**
 * DOC: Module tenants
 *
 * The portable core charges every grid's SM time to its tenant
 * (sm-emu/tenant.c, DOC "Tenants"), weighs tenants in ``fair`` and caps
 * them under every policy.  In the module a grid's tenant is the cgroup v2
 * of the task that submits it (task_dfl_cgroup(): the cgroup itself, not
 * its ancestors), so that containers and Kubernetes pods are tenants
 * without new tooling.  A task in the root cgroup, where every task is
 * when cgroup v2 is not mounted, submits as its open file instead: each
 * file of /dev/gputbs is then a tenant of its own.
 *
 * Tenants of cgroups are made at their first grid (or by tenant-set) and
 * kept, with their weight, cap and SM time, in &gputbs_tenants.cgroups by
 * cgroup id.  At most %GPUTBS_TENANTS_MAX exist; making one more reclaims
 * those that hold no grid and were not set (or whose cgroup was removed);
 * when none can be, the grid is charged to the device's own tenant
 * (&gtbs_dev.tenant0, counted in &gputbs_tenants.overflows) rather than
 * refused: one user's cgroups never deny the device to another.  A file's
 * tenant lives as long as the file (&gputbs_tenants.files by
 * drm-client-id).
 *
 * Weights and caps are set by tenant-set of the netlink family
 * (gputbs_tenant_set()): with CAP_SYS_ADMIN on any tenant to any value;
 * without, only lowered, and only on the caller's own tenants: its cgroup
 * and the cgroups below it, or the files its real uid opened.
 *
 * Lifetime: a tenant counts references (&gputbs_tenant.refs): one per
 * grid that names it, from SUBMIT until the grid is freed, one for the
 * file whose last tenant it is (fdinfo), and for a file's tenant one for
 * the file.  Only &gputbs_tenants.lock makes or frees tenants, so that a
 * tenant found under it with no reference stays unreferenced until the
 * lock is dropped.
 *
 * Lock order: &gputbs_device.cfg_lock, &gputbs_tenants.lock,
 * &gputbs_device.lock.
 */
#include <linux/cgroup.h>
#include <linux/cred.h>
#include <linux/slab.h>
#include <linux/xarray.h>

#include "../uapi/linux/gputbs_netlink.h"

#include "gputbs_drv.h"

/**
 * gputbs_tenants_init() - an empty tenant table
 * @gdev: the device, being allocated.
 *
 * Context: process context, module init.
 */
void gputbs_tenants_init(struct gputbs_device *gdev)
{
	struct gputbs_tenants *ts = &gdev->tenants;

	mutex_init(&ts->lock);
	xa_init(&ts->cgroups);
	xa_init(&ts->files);
}

/* Unlink @t from the core and its table and free it.  Both locks held. */
static void gputbs_tenant_free(struct gputbs_device *gdev,
			       struct gputbs_tenant *t)
{
	struct gputbs_tenants *ts = &gdev->tenants;

	lockdep_assert_held(&ts->lock);
	lockdep_assert_held(&gdev->lock);
	gtbs_tenant_del(&gdev->core, &t->core);
	if (t->kind == GPUTBS_TENANT_KIND_CGROUP)
		xa_erase(&ts->cgroups, (unsigned long)t->core.id);
	else
		xa_erase(&ts->files, (unsigned long)t->core.id);
	ts->nr--;
	kfree(t);
}

/**
 * gputbs_tenants_free() - free every tenant, at module exit
 * @gdev: the device; no file is open and no grid exists.  A device whose
 *	allocation failed has no tenant (and may have no lock yet).
 *
 * Context: process context, module exit or failed init.
 */
void gputbs_tenants_free(struct gputbs_device *gdev)
{
	struct gputbs_tenants *ts = &gdev->tenants;
	struct gputbs_tenant *t;
	unsigned long id;

	if (!ts->nr)
		return;
	mutex_lock(&ts->lock);
	spin_lock(&gdev->lock);
	xa_for_each(&ts->cgroups, id, t)
		gputbs_tenant_free(gdev, t);
	xa_for_each(&ts->files, id, t)
		gputbs_tenant_free(gdev, t);
	spin_unlock(&gdev->lock);
	mutex_unlock(&ts->lock);
}

/**
 * gputbs_tenants_reinit() - put the tenants on a reinitialised core
 * @gdev: the device, whose core gtbs_dev_init() just made anew (no file
 *	open, so only cgroups' tenants exist).
 *
 * Each keeps its weight and cap; its SM time restarts with the clock.
 *
 * Context: &gputbs_tenants.lock and &gputbs_device.lock held.
 */
void gputbs_tenants_reinit(struct gputbs_device *gdev)
{
	struct gputbs_tenants *ts = &gdev->tenants;
	struct gputbs_tenant *t;
	unsigned long id;

	lockdep_assert_held(&ts->lock);
	lockdep_assert_held(&gdev->lock);
	xa_for_each(&ts->cgroups, id, t) {
		u32 weight = t->core.weight, max_ppm = t->core.max_ppm;

		gtbs_tenant_init(&gdev->core, &t->core, t->core.id, 0);
		gtbs_tenant_set(&gdev->core, &t->core, weight, max_ppm, 0);
	}
}

/* Whether the cgroup of id @id still exists. */
static bool gputbs_cgroup_alive(u64 id)
{
	struct cgroup *cgrp = cgroup_get_from_id(id);

	if (IS_ERR(cgrp))
		return false;
	cgroup_put(cgrp);
	return true;
}

/*
 * Free the cgroups' tenants that hold no grid and were not set, or whose
 * cgroup is gone; returns how many.  Both locks are taken here; the table
 * lock is held.  O(tenants).
 */
static u32 gputbs_tenants_reclaim(struct gputbs_device *gdev)
{
	struct gputbs_tenants *ts = &gdev->tenants;
	struct gputbs_tenant *t;
	unsigned long id;
	u32 freed = 0;

	lockdep_assert_held(&ts->lock);
	xa_for_each(&ts->cgroups, id, t) {
		if (atomic_read(&t->refs) ||
		    (t->set && gputbs_cgroup_alive(t->core.id)))
			continue;
		spin_lock(&gdev->lock);
		if (!gtbs_tenant_busy(&t->core)) {
			gputbs_tenant_free(gdev, t);
			freed++;
		}
		spin_unlock(&gdev->lock);
	}
	return freed;
}

/*
 * Make a tenant of @kind and @id (not in the table yet), with no
 * reference; NULL when the table is full and nothing can be reclaimed, or
 * without memory.  Table lock held.
 */
static struct gputbs_tenant *gputbs_tenant_new(struct gputbs_device *gdev,
					       u32 kind, u64 id)
{
	struct gputbs_tenants *ts = &gdev->tenants;
	struct xarray *xa = kind == GPUTBS_TENANT_KIND_CGROUP ? &ts->cgroups :
								&ts->files;
	struct gputbs_tenant *t;

	lockdep_assert_held(&ts->lock);
	if (ts->nr >= GPUTBS_TENANTS_MAX && !gputbs_tenants_reclaim(gdev))
		return NULL;
	t = kzalloc(sizeof(*t), GFP_KERNEL_ACCOUNT);
	if (!t)
		return NULL;
	t->kind = kind;
	t->uid = current_uid();
	atomic_set(&t->refs, 0);
	if (xa_insert(xa, (unsigned long)id, t, GFP_KERNEL_ACCOUNT)) {
		kfree(t);
		return NULL;
	}
	ts->nr++;
	spin_lock(&gdev->lock);
	gtbs_tenant_init(&gdev->core, &t->core, id, gdev->core.clock);
	spin_unlock(&gdev->lock);
	return t;
}

/* The cgroup id of the current task's tenant, 0 in the root cgroup. */
static u64 gputbs_current_cgroup_id(void)
{
	struct cgroup *cgrp;
	u64 id = 0;

	rcu_read_lock();
	cgrp = task_dfl_cgroup(current);
	if (cgroup_parent(cgrp))
		id = cgroup_id(cgrp);
	rcu_read_unlock();
	return id;
}

/**
 * gputbs_tenant_get_current() - the tenant a grid submitted now belongs to
 * @client: the file it is submitted through.
 *
 * The cgroup v2 of the current task, or in the root cgroup @client's own
 * tenant (made at its first grid); see the DOC above.  The file's last
 * tenant (fdinfo) becomes the one returned.
 *
 * Context: process context, may sleep; takes &gputbs_tenants.lock.
 * Return: the tenant, with a reference for the grid (gputbs_tenant_put()),
 * or NULL: the grid belongs to the device's own tenant (the table is full,
 * or no memory).
 */
struct gputbs_tenant *gputbs_tenant_get_current(struct gputbs_client *client)
{
	struct gputbs_device *gdev = client->gdev;
	struct gputbs_tenants *ts = &gdev->tenants;
	u64 cgid = gputbs_current_cgroup_id();
	struct gputbs_tenant *t;

	mutex_lock(&ts->lock);
	if (cgid) {
		t = xa_load(&ts->cgroups, (unsigned long)cgid);
		if (!t)
			t = gputbs_tenant_new(gdev, GPUTBS_TENANT_KIND_CGROUP,
					      cgid);
	} else {
		t = client->file_tenant;
		if (!t) {
			t = gputbs_tenant_new(gdev, GPUTBS_TENANT_KIND_FILE,
					      client->stats.id);
			if (t) {
				atomic_inc(&t->refs);	/* the file's */
				client->file_tenant = t;
			}
		}
	}
	if (!t) {
		ts->overflows++;
	} else {
		atomic_inc(&t->refs);
		if (client->tenant != t) {
			atomic_inc(&t->refs);
			if (client->tenant)
				gputbs_tenant_put(client->tenant);
			/* fdinfo reads it under the device lock */
			spin_lock(&gdev->lock);
			client->tenant = t;
			spin_unlock(&gdev->lock);
		}
	}
	mutex_unlock(&ts->lock);
	return t;
}

/**
 * gputbs_tenant_put() - drop a reference to a tenant
 * @t: the tenant, or NULL.
 *
 * The tenant is freed later, by the table (reclaim, or its file's
 * release), never here.
 *
 * Context: any.
 */
void gputbs_tenant_put(struct gputbs_tenant *t)
{
	if (t)
		WARN_ON_ONCE(atomic_dec_return(&t->refs) < 0);
}

/**
 * gputbs_tenant_client_release() - a file of /dev/gputbs is released
 * @client: the file; its grids were cancelled and freed.
 *
 * Drops its last tenant and frees its own tenant, if it had one.
 *
 * Context: process context (release); takes &gputbs_tenants.lock and
 * &gputbs_device.lock.
 */
void gputbs_tenant_client_release(struct gputbs_client *client)
{
	struct gputbs_device *gdev = client->gdev;
	struct gputbs_tenants *ts = &gdev->tenants;
	struct gputbs_tenant *t = client->file_tenant;

	mutex_lock(&ts->lock);
	spin_lock(&gdev->lock);
	if (client->tenant)
		gputbs_tenant_put(client->tenant);
	client->tenant = NULL;
	if (t) {
		gputbs_tenant_put(t);	/* the file's */
		/* its grids left the device and were freed with the file */
		WARN_ON_ONCE(atomic_read(&t->refs) ||
			     gtbs_tenant_busy(&t->core));
		gputbs_tenant_free(gdev, t);
		client->file_tenant = NULL;
	}
	spin_unlock(&gdev->lock);
	mutex_unlock(&ts->lock);
}

/* Whether the current task may act on @t without CAP_SYS_ADMIN. */
static bool gputbs_tenant_own(const struct gputbs_tenant *t)
{
	struct cgroup *target, *mine;
	bool own;

	if (t->kind == GPUTBS_TENANT_KIND_FILE)
		return uid_eq(t->uid, current_uid());
	target = cgroup_get_from_id(t->core.id);
	if (IS_ERR(target))
		return false;
	rcu_read_lock();
	mine = task_dfl_cgroup(current);
	own = cgroup_is_descendant(target, mine);
	rcu_read_unlock();
	cgroup_put(target);
	return own;
}

/* Whether @req only lowers @t: its weight, and its cap (0: none). */
static bool gputbs_tenant_lowers(const struct gputbs_tenant *t,
				 const struct gputbs_tenant_req *req)
{
	if (req->set_weight && req->weight > t->core.weight)
		return false;
	if (req->set_max && (!req->max_ppm ||
			     (t->core.max_ppm && req->max_ppm > t->core.max_ppm)))
		return false;
	return true;
}

/* Find, or for a cgroup that exists make, the tenant of @req.  Lock held. */
static int gputbs_tenant_find(struct gputbs_device *gdev,
			      const struct gputbs_tenant_req *req,
			      struct gputbs_tenant **out, const char **msg)
{
	struct gputbs_tenants *ts = &gdev->tenants;
	struct gputbs_tenant *t;

	lockdep_assert_held(&ts->lock);
	if (req->kind == GPUTBS_TENANT_KIND_FILE) {
		t = xa_load(&ts->files, (unsigned long)req->id);
		if (!t) {
			*msg = "no open file of that client-id has a tenant";
			return -ENOENT;
		}
		*out = t;
		return 0;
	}
	t = xa_load(&ts->cgroups, (unsigned long)req->id);
	if (t) {
		*out = t;
		return 0;
	}
	if (!gputbs_cgroup_alive(req->id)) {
		*msg = "no cgroup v2 of that cgroup-id";
		return -ENOENT;
	}
	if (req->id == 1) {
		*msg = "the root cgroup is no tenant: its tasks submit as their files";
		return -EINVAL;
	}
	t = gputbs_tenant_new(gdev, GPUTBS_TENANT_KIND_CGROUP, req->id);
	if (!t) {
		*msg = "the device holds its most tenants (1024)";
		return -ENOSPC;
	}
	*out = t;
	return 0;
}

/**
 * gputbs_tenant_set() - set a tenant's weight or cap (netlink tenant-set)
 * @gdev: the device.
 * @req: the tenant (a cgroup id or a drm-client-id) and what to set:
 *	weight 1..%GTBS_TENANT_WEIGHT_MAX, cap 0 (none) or 1..%GTBS_PPM ppm.
 * @admin: the requester has CAP_SYS_ADMIN.
 * @msg: out: on error, why, for the extended ACK.
 *
 * Without @admin only the current task's own tenant (its cgroup or one
 * below it; a file of its real uid) may be set, and only lowered.  The
 * values are applied at the current emulated cycle with gtbs_tenant_set();
 * a tenant that was set is kept by the table's reclaim while its cgroup
 * exists.
 *
 * Context: process context, may sleep; takes &gputbs_tenants.lock and
 * &gputbs_device.lock (gputbs_dev_lock_sync()).
 * Return: 0; -EINVAL for a value out of range or the root cgroup; -ENOENT
 * for a cgroup or file that does not exist (or a file without a tenant);
 * -EPERM; -ENOSPC when the table is full; -EINTR for a signal while the
 * device caught up (nothing set).
 */
int gputbs_tenant_set(struct gputbs_device *gdev,
		      const struct gputbs_tenant_req *req, bool admin,
		      const char **msg)
{
	struct gputbs_tenants *ts = &gdev->tenants;
	struct gputbs_tenant *t;
	u32 weight, max_ppm;
	u64 now;
	int ret;

	if ((req->set_weight &&
	     (!req->weight || req->weight > GTBS_TENANT_WEIGHT_MAX)) ||
	    (req->set_max && req->max_ppm > GTBS_PPM)) {
		*msg = "weight outside 1..10000 or max-ppm above 1000000";
		return -EINVAL;
	}
	mutex_lock(&ts->lock);
	ret = gputbs_tenant_find(gdev, req, &t, msg);
	if (ret)
		goto out;
	if (!admin && !(gputbs_tenant_own(t) && gputbs_tenant_lowers(t, req))) {
		*msg = "without CAP_SYS_ADMIN a tenant of one's own may only be lowered";
		ret = -EPERM;
		goto out;
	}
	ret = gputbs_dev_lock_sync(gdev, &now);
	if (!ret) {
		weight = req->set_weight ? req->weight : t->core.weight;
		max_ppm = req->set_max ? req->max_ppm : t->core.max_ppm;
		ret = gtbs_tenant_set(&gdev->core, &t->core, weight, max_ppm,
				      now);
		t->set = true;
		gtbs_dev_kick(&gdev->core, now);
		gputbs_dev_sync(gdev);	/* unthrottled grids issue now */
	}
	spin_unlock(&gdev->lock);
out:
	mutex_unlock(&ts->lock);
	return ret;
}

/* What a reader sees of @t at @now.  Device lock held. */
static void gputbs_tenant_fill(const struct gtbs_tenant *t, u32 kind,
			       u64 now, struct gputbs_tenant_info *info)
{
	*info = (struct gputbs_tenant_info) {
		.kind = kind,
		.id = t->id,
		.weight = t->weight,
		.max_ppm = t->max_ppm,
		.grids = t->nr_grids,
		.sm_time = gtbs_tenant_sm_time(t, now),
		.now = now,
		.throttled = t->throttled,
		.throttled_cycles = t->throttled_cycles +
				    (t->throttled ? now - t->throttled_since : 0),
		.throttles = t->nr_throttles,
	};
}

/**
 * gputbs_tenant_info_of() - what a reader sees of a tenant now
 * @gdev: the device.
 * @t: a tenant of the device, or NULL for the device's own.
 * @info: out: its kind, id, weight, cap and accounting at the device's
 *	current cycle (&gtbs_dev.clock).
 *
 * Context: &gputbs_device.lock held.
 */
void gputbs_tenant_info_of(struct gputbs_device *gdev,
			   const struct gputbs_tenant *t,
			   struct gputbs_tenant_info *info)
{
	lockdep_assert_held(&gdev->lock);
	if (t)
		gputbs_tenant_fill(&t->core, t->kind, gdev->core.clock, info);
	else
		gputbs_tenant_fill(&gdev->core.tenant0,
				   GPUTBS_TENANT_KIND_DEVICE, gdev->core.clock,
				   info);
}

/**
 * gputbs_tenants_snapshot() - every tenant as a reader sees it now
 * @gdev: the device.
 * @out: out: a kvmalloc()ed array (kvfree() it), the device's own tenant
 *	first, then the others in the order they were made.
 * @nr: out: its entries.
 *
 * Runs the device up to the current cycle first (gputbs_dev_lock_sync()).
 *
 * Context: process context, may sleep; takes &gputbs_tenants.lock and
 * &gputbs_device.lock.
 * Return: 0, -ENOMEM, or -EINTR for a signal while the device caught up.
 */
int gputbs_tenants_snapshot(struct gputbs_device *gdev,
			    struct gputbs_tenant_info **out, u32 *nr)
{
	struct gputbs_tenants *ts = &gdev->tenants;
	struct gputbs_tenant_info *info;
	struct gtbs_tenant *ct;
	u32 n = 0, cap;
	u64 now;
	int ret;

	mutex_lock(&ts->lock);
	cap = ts->nr + 1;
	info = kvcalloc(cap, sizeof(*info), GFP_KERNEL);
	if (!info) {
		mutex_unlock(&ts->lock);
		return -ENOMEM;
	}
	ret = gputbs_dev_lock_sync(gdev, &now);
	if (!ret) {
		list_for_each_entry(ct, &gdev->core.tenants, node) {
			const struct gputbs_tenant *t;

			if (WARN_ON_ONCE(n == cap))
				break;
			if (ct == &gdev->core.tenant0) {
				gputbs_tenant_info_of(gdev, NULL, &info[n++]);
				continue;
			}
			t = container_of(ct, struct gputbs_tenant, core);
			gputbs_tenant_info_of(gdev, t, &info[n++]);
		}
	}
	spin_unlock(&gdev->lock);
	mutex_unlock(&ts->lock);
	if (ret) {
		kvfree(info);
		return ret;
	}
	*out = info;
	*nr = n;
	return 0;
}
