// SPDX-License-Identifier: GPL-2.0
/*
 * gputbs_limits.c - the resource limits of /dev/gputbs.
 *
 * Copyright (C) 2026 The gputbs developers
 */

/**
 * DOC: Limits
 *
 * What one caller can make the module allocate is bounded, and every
 * allocation made on behalf of a file is charged to the caller's memory
 * cgroup (%GFP_KERNEL_ACCOUNT):
 *
 * max_blocks_per_grid (module parameter, read-only after load)
 *	&gputbs_submit.nr_blocks above it is -E2BIG, checked before anything
 *	is allocated.  It also bounds the per-block duration array of
 *	%GPUTBS_WORK_ARRAY (whose length must equal nr_blocks) and the block
 *	records of %GPUTBS_SUBMIT_RECORD_BLOCKS.
 * max_grids_per_fd (module parameter, read-only after load)
 *	Unreaped grids of one open file; -EAGAIN above it.
 * max_grids_per_user (module parameter, root may change it at run time)
 *	Unreaped grids of all files of one user together; -EDQUOT above it,
 *	the kernel's errno for a per-user quota (as the keyrings' per-user
 *	quota uses it).
 * max_bytes_per_user (module parameter, root may change it at run time)
 *	Bytes of block records and duration arrays of one user's unreaped
 *	grids; -ENOBUFS above it.
 * max_grids_per_device (module parameter, root may change it at run time)
 *	Unreaped grids of all files together; -ENOSPC above it, so that a
 *	caller can tell a full device (other files' grids) from its own full
 *	file.
 * max_bytes_per_device (module parameter, root may change it at run time)
 *	Bytes of block records and duration arrays of all unreaped grids
 *	together; -ENOMEM above it.  Clamped at load to 1/8 of the RAM, so
 *	that what gputbs pins stays bounded without a memory cgroup.
 * reserved_grids, reserved_bytes (module parameters, root may change them)
 *	The last grids and bytes of the two device limits above, which only
 *	a task with CAP_SYS_RESOURCE may take: the others together get
 *	-ENOSPC at max_grids_per_device - reserved_grids grids and -ENOMEM
 *	above max_bytes_per_device - reserved_bytes bytes.  A reserve at or
 *	above its limit leaves nothing to them; 0 turns it off.  The
 *	kernel's reserves for root work alike: ext4's reserved blocks
 *	(ext4_has_free_clusters(): CAP_SYS_RESOURCE), the last files of
 *	fs.file-max (alloc_empty_file(): CAP_SYS_ADMIN), the ptys of
 *	kernel.pty.reserve.
 *
 * A grid is charged from its successful submission until it is reaped by
 * %GPUTBS_IOCTL_WAIT or cancelled by the release of its file, to the real
 * uid of the submitting task (current_uid(), as RLIMIT_NPROC counts
 * processes); the grid keeps the user it was charged to, so the uncharge
 * hits the same user whatever task reaps it.  Its bytes are nr_blocks *
 * sizeof(struct gputbs_block_record) with %GPUTBS_SUBMIT_RECORD_BLOCKS
 * plus nr_durations * 8 with %GPUTBS_WORK_ARRAY, charged before either
 * array is allocated: a refused grid allocates nothing.  The limits are
 * checked in this order, the caller's own first: file, user's grids,
 * user's bytes, device's grids, device's bytes.  A task with
 * CAP_SYS_RESOURCE may exceed the per-user limits (like RLIMIT_NPROC and
 * the io_uring and inotify per-user limits), never the per-file or
 * device-wide ones; the capability is asked for only when a per-user
 * limit would be exceeded.
 *
 * Lowering a limit below the current usage keeps the grids already
 * charged and refuses new ones until enough are reaped or cancelled; a
 * reserve is taken from the limit in force at each submission.
 *
 * Writing the parameters needs CAP_SYS_ADMIN besides the file mode
 * (gputbs_admin_check()), also at load.
 */
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/hashtable.h>
#include <linux/lockdep.h>
#include <linux/mm.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/uidgid.h>

#include "gputbs_drv.h"

/* GPUTBS_MAX_GRIDS_LIMIT - largest max_grids_per_device and _per_user */
#define GPUTBS_MAX_GRIDS_LIMIT	BIT(20)

/* A count of grids: @min..GPUTBS_MAX_GRIDS_LIMIT, -EINVAL otherwise. */
static int gputbs_count_param_set(const char *val,
				  const struct kernel_param *kp,
				  unsigned int min)
{
	unsigned int n;
	int ret;

	ret = gputbs_admin_check();
	if (ret)
		return ret;
	ret = kstrtouint(val, 0, &n);
	if (ret)
		return ret;
	if (n < min || n > GPUTBS_MAX_GRIDS_LIMIT)
		return -EINVAL;
	WRITE_ONCE(*(unsigned int *)kp->arg, n);
	return 0;
}

/* A limit of grids: 1..GPUTBS_MAX_GRIDS_LIMIT, -EINVAL otherwise. */
static int gputbs_grids_param_set(const char *val,
				  const struct kernel_param *kp)
{
	return gputbs_count_param_set(val, kp, 1);
}

static const struct kernel_param_ops gputbs_grids_param_ops = {
	.set = gputbs_grids_param_set,
	.get = param_get_uint,
};

/* A reserve of grids: 0..GPUTBS_MAX_GRIDS_LIMIT, -EINVAL otherwise. */
static int gputbs_reserve_param_set(const char *val,
				    const struct kernel_param *kp)
{
	return gputbs_count_param_set(val, kp, 0);
}

static const struct kernel_param_ops gputbs_reserve_param_ops = {
	.set = gputbs_reserve_param_set,
	.get = param_get_uint,
};

/* A limit of bytes: any 64-bit number. */
static int gputbs_bytes_param_set(const char *val,
				  const struct kernel_param *kp)
{
	u64 n;
	int ret;

	ret = gputbs_admin_check();
	if (ret)
		return ret;
	ret = kstrtou64(val, 0, &n);
	if (ret)
		return ret;
	WRITE_ONCE(*(u64 *)kp->arg, n);
	return 0;
}

static const struct kernel_param_ops gputbs_bytes_param_ops = {
	.set = gputbs_bytes_param_set,
	.get = param_get_ullong,
};

static unsigned int max_grids_per_device = 4096;
module_param_cb(max_grids_per_device, &gputbs_grids_param_ops,
		&max_grids_per_device, 0644);
MODULE_PARM_DESC(max_grids_per_device,
		 "Unreaped grids of all open files together, 1..1048576 (default 4096; root may change it at run time; ENOSPC when full)");

static unsigned int max_grids_per_user = 1024;
module_param_cb(max_grids_per_user, &gputbs_grids_param_ops,
		&max_grids_per_user, 0644);
MODULE_PARM_DESC(max_grids_per_user,
		 "Unreaped grids of one user (real uid), 1..1048576 (default 1024; root may change it at run time; EDQUOT when full; CAP_SYS_RESOURCE exceeds it)");

static u64 max_bytes_per_user = 64ULL << 20;
module_param_cb(max_bytes_per_user, &gputbs_bytes_param_ops,
		&max_bytes_per_user, 0644);
MODULE_PARM_DESC(max_bytes_per_user,
		 "Bytes of block records and duration arrays of one user's unreaped grids (default 67108864 = 64 MiB; root may change it at run time; ENOBUFS when full; CAP_SYS_RESOURCE exceeds it)");

static u64 max_bytes_per_device = 256ULL << 20;
module_param_cb(max_bytes_per_device, &gputbs_bytes_param_ops,
		&max_bytes_per_device, 0644);
MODULE_PARM_DESC(max_bytes_per_device,
		 "Bytes of block records and duration arrays of all unreaped grids (default 268435456 = 256 MiB, clamped at load to 1/8 of RAM if that is less; root may change it at run time; ENOMEM when full, for everyone)");

/*
 * The reserves: one file's worth of grids (max_grids_per_fd's default, 256,
 * 1/16 of the device's), and 1/16 of the device's bytes (16 MiB: a grid of
 * 2^19 recorded blocks).
 */
static unsigned int reserved_grids = 256;
module_param_cb(reserved_grids, &gputbs_reserve_param_ops, &reserved_grids,
		0644);
MODULE_PARM_DESC(reserved_grids,
		 "The last grids of max_grids_per_device, which only CAP_SYS_RESOURCE may use, 0..1048576 (default 256; root may change it at run time; ENOSPC for the others)");

static u64 reserved_bytes = 16ULL << 20;
module_param_cb(reserved_bytes, &gputbs_bytes_param_ops, &reserved_bytes,
		0644);
MODULE_PARM_DESC(reserved_bytes,
		 "The last bytes of max_bytes_per_device, which only CAP_SYS_RESOURCE may use (default 16777216 = 16 MiB; root may change it at run time; ENOMEM for the others)");

static unsigned int max_blocks_per_grid = 1U << 20;
module_param(max_blocks_per_grid, uint, 0444);
MODULE_PARM_DESC(max_blocks_per_grid,
		 "Largest grid accepted, thread blocks, 1..16777216 (default 1048576; E2BIG above it)");

/**
 * struct gputbs_user - what one user's unreaped grids hold
 * @node: link in &gputbs_acct.users (&gputbs_acct.lock).
 * @uid: the user, a real uid (constant).
 * @nr_grids: grids charged to the user (&gputbs_acct.lock).  It is the
 *	reference count: each charged grid holds one reference, and the
 *	structure is freed when the last grid is uncharged.
 * @bytes: bytes of block records and duration arrays charged to the user
 *	(&gputbs_acct.lock).
 * @isol: the user's block events and throttle (&gputbs_device.lock;
 *	gputbs_isolation.c).
 */
struct gputbs_user {
	struct hlist_node node;
	kuid_t uid;
	u32 nr_grids;
	u64 bytes;
	struct gputbs_user_isol isol;
};

/* GPUTBS_USERS_HASH_BITS - log2 of the buckets of &gputbs_acct.users */
#define GPUTBS_USERS_HASH_BITS	6

/**
 * struct gputbs_acct - the module's accounting of unreaped grids
 * @lock: protects every member and every &struct gputbs_user; a leaf
 *	lock, taken in process context, alone or under
 *	&gputbs_device.lock, never from interrupt context.
 * @users: the users holding at least one grid, hashed by uid.
 * @nr_users: entries in @users.
 * @nr_grids: grids charged to all users, for max_grids_per_device.
 * @bytes: bytes charged to all users, for max_bytes_per_device.
 */
struct gputbs_acct {
	/* protects the accounting: see @lock above */
	spinlock_t lock;
	DECLARE_HASHTABLE(users, GPUTBS_USERS_HASH_BITS);
	u32 nr_users;
	u32 nr_grids;
	u64 bytes;
};

static struct gputbs_acct gputbs_acct = {
	.lock = __SPIN_LOCK_UNLOCKED(gputbs_acct.lock),
};

/**
 * gputbs_limits_apply() - put the load-time limits into a configuration
 * @cfg: the configuration built from the module parameters; checked by
 *	gtbs_config_check() afterwards.
 *
 * Also clamps max_bytes_per_device to 1/8 of the RAM (totalram_pages()),
 * whatever it was given at load; root may raise it afterwards.
 *
 * Context: module init.
 */
void gputbs_limits_apply(struct gtbs_dev_config *cfg)
{
	u64 ram_8 = ((u64)totalram_pages() << PAGE_SHIFT) / 8;

	cfg->max_blocks_per_grid = max_blocks_per_grid;
	if (READ_ONCE(max_bytes_per_device) > ram_8) {
		pr_info("gputbs: max_bytes_per_device clamped to %llu bytes, 1/8 of RAM\n",
			ram_8);
		WRITE_ONCE(max_bytes_per_device, ram_8);
	}
}

/**
 * gputbs_grid_bytes() - the bytes a submission is charged for
 * @args: the submission, its work model and nr_blocks checked.
 *
 * Context: any.
 * Return: &gputbs_submit.nr_blocks * sizeof(struct gputbs_block_record)
 * with %GPUTBS_SUBMIT_RECORD_BLOCKS, plus &gputbs_submit.nr_durations * 8
 * with %GPUTBS_WORK_ARRAY; bytes, 0 for a grid with neither.
 */
u64 gputbs_grid_bytes(const struct gputbs_submit *args)
{
	u64 bytes = 0;

	if (args->flags & GPUTBS_SUBMIT_RECORD_BLOCKS)
		bytes += (u64)args->nr_blocks *
			 sizeof(struct gputbs_block_record);
	if (args->work_model == GPUTBS_WORK_ARRAY)
		bytes += (u64)args->nr_durations * sizeof(u64);
	return bytes;
}

static struct gputbs_user *gputbs_user_find(kuid_t uid)
{
	struct gputbs_user *user;

	lockdep_assert_held(&gputbs_acct.lock);
	hash_for_each_possible(gputbs_acct.users, user, node, __kuid_val(uid))
		if (uid_eq(user->uid, uid))
			return user;
	return NULL;
}

/* @have + @add above @limit; adding nothing never is. */
static bool gputbs_over(u64 have, u64 add, u64 limit)
{
	return add && (have > limit || add > limit - have);
}

/* Fill @err (may be NULL) with a limit's reason; returns @ret. */
static int gputbs_limit_err(struct gtbs_grid_err *err, int ret, u32 reason,
			    u64 value, u64 limit)
{
	if (err) {
		err->reason = reason;
		err->value = value;
		err->limit = limit;
	}
	return ret;
}

/*
 * What the device's limit @lim leaves to a caller: all of it with
 * CAP_SYS_RESOURCE (@privileged), else all but the reserve @res (nothing
 * if the reserve is at or above the limit).
 */
static u64 gputbs_dev_room(u64 lim, u64 res, bool privileged)
{
	return privileged ? lim : lim - min(res, lim);
}

/*
 * Charge one grid of @bytes to @user, the per-user limits and the
 * device's reserves unless @privileged.  Returns 0 or the error of the
 * first limit hit, with its reason, the count or bytes it would take and
 * the limit in @err.
 */
static int gputbs_user_add(struct gputbs_user *user, u64 bytes,
			   bool privileged, struct gtbs_grid_err *err)
{
	struct gputbs_acct *acct = &gputbs_acct;
	u64 lim, room;

	lockdep_assert_held(&acct->lock);
	lim = READ_ONCE(max_grids_per_user);
	if (!privileged && user->nr_grids >= lim)
		return gputbs_limit_err(err, -EDQUOT,
					GPUTBS_SUBMIT_ERR_LIMIT_USER_GRIDS,
					user->nr_grids, lim);
	lim = READ_ONCE(max_bytes_per_user);
	if (!privileged && gputbs_over(user->bytes, bytes, lim))
		return gputbs_limit_err(err, -ENOBUFS,
					GPUTBS_SUBMIT_ERR_LIMIT_USER_BYTES,
					user->bytes + bytes, lim);
	lim = READ_ONCE(max_grids_per_device);
	if (acct->nr_grids >= lim)
		return gputbs_limit_err(err, -ENOSPC,
					GPUTBS_SUBMIT_ERR_LIMIT_DEV_GRIDS,
					acct->nr_grids, lim);
	room = gputbs_dev_room(lim, READ_ONCE(reserved_grids), privileged);
	if (acct->nr_grids >= room)
		return gputbs_limit_err(err, -ENOSPC,
					GPUTBS_SUBMIT_ERR_RESERVE_GRIDS,
					acct->nr_grids, room);
	lim = READ_ONCE(max_bytes_per_device);
	if (gputbs_over(acct->bytes, bytes, lim))
		return gputbs_limit_err(err, -ENOMEM,
					GPUTBS_SUBMIT_ERR_LIMIT_DEV_BYTES,
					acct->bytes + bytes, lim);
	room = gputbs_dev_room(lim, READ_ONCE(reserved_bytes), privileged);
	if (gputbs_over(acct->bytes, bytes, room))
		return gputbs_limit_err(err, -ENOMEM,
					GPUTBS_SUBMIT_ERR_RESERVE_BYTES,
					acct->bytes + bytes, room);
	user->nr_grids++;
	user->bytes += bytes;
	acct->nr_grids++;
	acct->bytes += bytes;
	return 0;
}

/* Unhash @user if it holds nothing; the caller frees it after unlocking. */
static struct gputbs_user *gputbs_user_unhash_idle(struct gputbs_user *user)
{
	lockdep_assert_held(&gputbs_acct.lock);
	if (user->nr_grids)
		return NULL;
	WARN_ON_ONCE(user->bytes);
	hash_del(&user->node);
	gputbs_acct.nr_users--;
	return user;
}

/*
 * Charge one grid of @bytes to @uid, creating its entry if it has none.
 * Returns 0 with *@out set, or an error with nothing charged or kept.
 */
static int gputbs_user_charge(kuid_t uid, u64 bytes, bool privileged,
			      struct gputbs_user **out,
			      struct gtbs_grid_err *err)
{
	struct gputbs_acct *acct = &gputbs_acct;
	struct gputbs_user *user, *new = NULL, *idle = NULL;
	int ret;

	spin_lock(&acct->lock);
	user = gputbs_user_find(uid);
	if (!user) {
		spin_unlock(&acct->lock);
		new = kzalloc(sizeof(*new), GFP_KERNEL_ACCOUNT);
		if (!new)
			return gputbs_limit_err(err, -ENOMEM,
						GPUTBS_SUBMIT_ERR_NOMEM,
						sizeof(*new), 0);
		new->uid = uid;
		spin_lock(&acct->lock);
		user = gputbs_user_find(uid);	/* added meanwhile? */
		if (!user) {
			hash_add(acct->users, &new->node, __kuid_val(uid));
			acct->nr_users++;
			user = new;
			new = NULL;
		}
	}
	ret = gputbs_user_add(user, bytes, privileged, err);
	if (ret)
		idle = gputbs_user_unhash_idle(user);
	spin_unlock(&acct->lock);
	kfree(new);
	kfree(idle);
	*out = ret ? NULL : user;
	return ret;
}

/* Whether CAP_SYS_RESOURCE would have let a refused grid (@reason) in. */
static bool gputbs_cap_would_help(u32 reason)
{
	switch (reason) {
	case GPUTBS_SUBMIT_ERR_LIMIT_USER_GRIDS:
	case GPUTBS_SUBMIT_ERR_LIMIT_USER_BYTES:
	case GPUTBS_SUBMIT_ERR_RESERVE_GRIDS:
	case GPUTBS_SUBMIT_ERR_RESERVE_BYTES:
		return true;
	}
	return false;
}

/**
 * gputbs_grid_charge() - count a new grid against every limit
 * @client: the file submitting it.
 * @bytes: its block records and duration array, gputbs_grid_bytes().
 * @charge: out: what was charged, for gputbs_grid_uncharge().
 * @err: out, may be NULL: on error the GPUTBS_SUBMIT_ERR_* reason, the
 *	count (grids) or total (bytes) the grid would take it to and the
 *	limit (%GPUTBS_FEATURE_ERROR_DETAIL); for a reserve, the limit is
 *	what the reserve leaves to the caller.
 *
 * Charges the file, the real uid of the calling task and the device; see
 * the DOC above for the order of the checks and CAP_SYS_RESOURCE, which
 * is asked for (capable(), as ext4_has_free_clusters() does for its
 * reserved blocks) only when a per-user limit or a reserve would refuse
 * the grid.  Called before anything of the grid is allocated.
 *
 * Context: process context, may sleep (allocates the user's entry on its
 * first grid).  Takes &gputbs_acct.lock.
 * Return: 0 (charged: undo with gputbs_grid_uncharge()); -EAGAIN when the
 * file holds &gputbs_device.max_grids_per_fd grids; -EDQUOT when the user
 * holds max_grids_per_user grids; -ENOBUFS when @bytes would take the
 * user above max_bytes_per_user; -ENOSPC when the device holds
 * max_grids_per_device grids, or, without CAP_SYS_RESOURCE,
 * max_grids_per_device - reserved_grids; -ENOMEM when @bytes would take
 * the device above max_bytes_per_device, or, without CAP_SYS_RESOURCE,
 * above max_bytes_per_device - reserved_bytes, or for a failed
 * allocation.  Nothing is charged on error.
 */
int gputbs_grid_charge(struct gputbs_client *client, u64 bytes,
		       struct gputbs_charge *charge, struct gtbs_grid_err *err)
{
	struct gputbs_device *gdev = client->gdev;
	struct gtbs_grid_err e = {};
	kuid_t uid = current_uid();
	int ret, held;

	held = atomic_inc_return(&client->nr_grids);
	if (held > gdev->max_grids_per_fd) {
		atomic_dec(&client->nr_grids);
		return gputbs_limit_err(err, -EAGAIN,
					GPUTBS_SUBMIT_ERR_LIMIT_FD, held - 1,
					gdev->max_grids_per_fd);
	}
	ret = gputbs_user_charge(uid, bytes, false, &charge->user, &e);
	/* like RLIMIT_NPROC: the capability only once it would be needed */
	if (ret && gputbs_cap_would_help(e.reason) &&
	    capable(CAP_SYS_RESOURCE))
		ret = gputbs_user_charge(uid, bytes, true, &charge->user, &e);
	if (ret) {
		atomic_dec(&client->nr_grids);
		return gputbs_limit_err(err, ret, e.reason, e.value, e.limit);
	}
	charge->bytes = bytes;
	return 0;
}

/**
 * gputbs_grid_uncharge() - give back what a grid was charged
 * @client: the file it was charged to.
 * @charge: what gputbs_grid_charge() charged, cleared here.
 *
 * Frees the user's entry when it holds nothing any more.  Called once per
 * charge: for a submitted grid only by gputbs_grid_retire() (reap,
 * release), else on the submission's error path.
 *
 * Context: process context or under &gputbs_device.lock; not from
 * interrupt context.  Takes &gputbs_acct.lock.
 */
void gputbs_grid_uncharge(struct gputbs_client *client,
			  struct gputbs_charge *charge)
{
	struct gputbs_acct *acct = &gputbs_acct;
	struct gputbs_user *user = charge->user, *idle;

	if (WARN_ON_ONCE(!user))
		return;
	atomic_dec(&client->nr_grids);
	spin_lock(&acct->lock);
	WARN_ON_ONCE(!user->nr_grids || user->bytes < charge->bytes ||
		     !acct->nr_grids || acct->bytes < charge->bytes);
	user->nr_grids--;
	user->bytes -= charge->bytes;
	acct->nr_grids--;
	acct->bytes -= charge->bytes;
	idle = gputbs_user_unhash_idle(user);
	spin_unlock(&acct->lock);
	kfree(idle);
	charge->user = NULL;
	charge->bytes = 0;
}

/**
 * gputbs_users_snapshot() - copy the per-user accounting
 * @usage: room for @max entries.
 * @max: entries @usage has room for.
 * @total: out: the device's totals (&gputbs_user_usage.uid unset).
 *
 * For debugfs: the users holding at least one grid, in no order.
 *
 * Context: process context.  Takes &gputbs_acct.lock.
 * Return: the number of such users, which may exceed @max (then only
 * @max are copied).
 */
u32 gputbs_users_snapshot(struct gputbs_user_usage *usage, u32 max,
			  struct gputbs_user_usage *total)
{
	struct gputbs_acct *acct = &gputbs_acct;
	struct gputbs_user *user;
	u32 n = 0, nr;
	int bkt;

	spin_lock(&acct->lock);
	hash_for_each(acct->users, bkt, user, node) {
		if (n < max)
			usage[n] = (struct gputbs_user_usage) {
				.uid = user->uid,
				.nr_grids = user->nr_grids,
				.bytes = user->bytes,
			};
		n++;
	}
	nr = acct->nr_users;
	total->nr_grids = acct->nr_grids;
	total->bytes = acct->bytes;
	spin_unlock(&acct->lock);
	WARN_ON_ONCE(n != nr);
	return n;
}

/**
 * gputbs_max_grids_per_device() - the device-wide limit on unreaped grids
 *
 * Context: any.
 * Return: the module parameter max_grids_per_device now, grids, 1..2^20.
 */
u32 gputbs_max_grids_per_device(void)
{
	return READ_ONCE(max_grids_per_device);
}

/**
 * gputbs_max_grids_per_user() - the per-user limit on unreaped grids
 *
 * Context: any.
 * Return: the module parameter max_grids_per_user now, grids, 1..2^20.
 */
u32 gputbs_max_grids_per_user(void)
{
	return READ_ONCE(max_grids_per_user);
}

/**
 * gputbs_reserves() - what only CAP_SYS_RESOURCE may use of the device
 * @grids: out: reserved_grids now, grids, 0..2^20.
 * @bytes: out: reserved_bytes now, bytes.
 *
 * Context: any.
 */
void gputbs_reserves(u32 *grids, u64 *bytes)
{
	*grids = READ_ONCE(reserved_grids);
	*bytes = READ_ONCE(reserved_bytes);
}

/**
 * gputbs_max_bytes() - the limits on bytes of records and durations
 * @per_user: out: max_bytes_per_user now, bytes.
 * @per_device: out: max_bytes_per_device now, bytes.
 *
 * Context: any.
 */
void gputbs_max_bytes(u64 *per_user, u64 *per_device)
{
	*per_user = READ_ONCE(max_bytes_per_user);
	*per_device = READ_ONCE(max_bytes_per_device);
}

/**
 * gputbs_user_isol() - a user's block events and throttle
 * @user: a user charged with a grid (&gputbs_charge.user).
 *
 * Context: &gputbs_device.lock held to use the result; @user lives while
 * the caller's grid is charged to it.
 * Return: its &struct gputbs_user_isol.
 */
struct gputbs_user_isol *gputbs_user_isol(struct gputbs_user *user)
{
	return &user->isol;
}

/**
 * gputbs_users_isol_scan() - call @fn for every user holding grids
 * @fn: called with each user's &struct gputbs_user_isol, the number of
 *	users holding grids, and @arg; returns whether it changed the user.
 * @arg: passed to @fn.
 *
 * O(users).  Used by gputbs_isolation.c to throttle and lift users.
 *
 * Context: &gputbs_device.lock held (it protects what @fn changes); takes
 * the accounting's lock, a leaf lock, inside.
 * Return: the users for which @fn returned true.
 */
u32 gputbs_users_isol_scan(bool (*fn)(struct gputbs_user_isol *ui,
				      u32 nr_users, void *arg), void *arg)
{
	struct gputbs_acct *acct = &gputbs_acct;
	struct gputbs_user *user;
	u32 bkt, n = 0;

	spin_lock(&acct->lock);
	hash_for_each(acct->users, bkt, user, node)
		n += fn(&user->isol, acct->nr_users, arg);
	spin_unlock(&acct->lock);
	return n;
}
