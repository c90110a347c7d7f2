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
 * max_grids_per_device (module parameter, root may change it at run time)
 *	Unreaped grids of all files together; -ENOSPC above it, so that a
 *	caller can tell a full device (other files' grids) from its own full
 *	file.  Lowering it below the current count refuses new grids until
 *	enough are reaped or cancelled; grids already submitted are kept.
 *
 * A grid counts from its successful submission until it is reaped by
 * %GPUTBS_IOCTL_WAIT or cancelled by the release of its file.
 *
 * Writing the parameters needs CAP_SYS_ADMIN besides the file mode
 * (gputbs_admin_check()), also at load.
 */
#include <linux/atomic.h>
#include <linux/moduleparam.h>

#include "gputbs_drv.h"

/* GPUTBS_MAX_GRIDS_PER_DEVICE_LIMIT - largest max_grids_per_device */
#define GPUTBS_MAX_GRIDS_PER_DEVICE_LIMIT	BIT(20)

static unsigned int max_grids_per_device = 4096;

static int max_grids_per_device_set(const char *val,
				    const struct kernel_param *kp)
{
	unsigned int n;
	int ret;

	ret = gputbs_admin_check();
	if (ret)
		return ret;
	ret = kstrtouint(val, 0, &n);
	if (ret)
		return ret;
	if (!n || n > GPUTBS_MAX_GRIDS_PER_DEVICE_LIMIT)
		return -EINVAL;
	WRITE_ONCE(max_grids_per_device, n);
	return 0;
}

static const struct kernel_param_ops max_grids_per_device_ops = {
	.set = max_grids_per_device_set,
	.get = param_get_uint,
};

module_param_cb(max_grids_per_device, &max_grids_per_device_ops,
		&max_grids_per_device, 0644);
MODULE_PARM_DESC(max_grids_per_device,
		 "Unreaped grids of all open files together, 1..1048576 (default 4096; root may change it at run time; ENOSPC when full)");

static unsigned int max_blocks_per_grid = 1U << 20;
module_param(max_blocks_per_grid, uint, 0444);
MODULE_PARM_DESC(max_blocks_per_grid,
		 "Largest grid accepted, thread blocks, 1..16777216 (default 1048576; E2BIG above it)");

/**
 * gputbs_limits_apply() - put the load-time limits into a configuration
 * @cfg: the configuration built from the module parameters; checked by
 *	gtbs_config_check() afterwards.
 *
 * Context: module init.
 */
void gputbs_limits_apply(struct gtbs_dev_config *cfg)
{
	cfg->max_blocks_per_grid = max_blocks_per_grid;
}

/**
 * gputbs_grid_charge() - count a new grid against the file's and the
 *	device's limits
 * @client: the file submitting it.
 *
 * Context: process context.
 * Return: 0 (counted: undo with gputbs_grid_uncharge()), -EAGAIN when the
 * file holds &gputbs_device.max_grids_per_fd grids, -ENOSPC when the
 * device holds max_grids_per_device grids (nothing counted on error).
 */
int gputbs_grid_charge(struct gputbs_client *client)
{
	struct gputbs_device *gdev = client->gdev;

	if (atomic_inc_return(&client->nr_grids) > gdev->max_grids_per_fd) {
		atomic_dec(&client->nr_grids);
		return -EAGAIN;
	}
	if (atomic_inc_return(&gdev->nr_unreaped) >
	    READ_ONCE(max_grids_per_device)) {
		atomic_dec(&gdev->nr_unreaped);
		atomic_dec(&client->nr_grids);
		return -ENOSPC;
	}
	return 0;
}

/**
 * gputbs_grid_uncharge() - grids of a file were reaped or cancelled
 * @client: the file.
 * @n: how many.
 *
 * Context: any.
 */
void gputbs_grid_uncharge(struct gputbs_client *client, unsigned int n)
{
	atomic_sub(n, &client->nr_grids);
	atomic_sub(n, &client->gdev->nr_unreaped);
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
