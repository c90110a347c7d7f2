// SPDX-License-Identifier: GPL-2.0
/*
 * gputbs_sysfs.c - sysfs attributes of /dev/gputbs's misc device.
 *
 * Copyright (C) 2026 The gputbs developers
 */

/**
 * DOC: sysfs attributes
 *
 * The misc device carries two attributes, in /sys/class/misc/gputbs/
 * (Documentation/ABI/testing/sysfs-class-misc-gputbs):
 *
 * policy
 *	Read: every registered policy, the current one in brackets, like
 *	/sys/block/<disk>/queue/scheduler ("[fifo] mpmax srtf srtf-adaptive sjf").  Write a
 *	name (a trailing newline is fine) to switch the policy of the
 *	running device: gtbs_dev_set_policy() under the device lock, at the
 *	current emulated cycle, after every event due before it.  Blocks
 *	already resident keep running; the next block issues follow the
 *	new policy.
 *
 * starve_ns
 *	The starvation guard (&gtbs_dev.starve_cycles) in wall-clock ns of
 *	emulated time; 0 (the default) turns it off.
 *
 * Both files are 0644: the file mode restricts writing to root.
 */
#include <linux/device.h>
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/overflow.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#include "gputbs_drv.h"

static struct gputbs_device *gputbs_from_dev(struct device *dev)
{
	struct miscdevice *misc = dev_get_drvdata(dev);

	return container_of(misc, struct gputbs_device, misc);
}

static ssize_t policy_show(struct device *dev, struct device_attribute *attr,
			   char *buf)
{
	struct gputbs_device *gdev = gputbs_from_dev(dev);
	const struct gtbs_policy_ops *cur, *ops;
	unsigned int i;
	int len = 0;

	spin_lock(&gdev->lock);
	cur = gdev->core.policy;
	spin_unlock(&gdev->lock);
	for (i = 0; (ops = gtbs_policy_at(i)); i++)
		len += sysfs_emit_at(buf, len, ops == cur ? "%s[%s]" : "%s%s",
				     i ? " " : "", ops->name);
	len += sysfs_emit_at(buf, len, "\n");
	return len;
}

static ssize_t policy_store(struct device *dev, struct device_attribute *attr,
			    const char *buf, size_t count)
{
	struct gputbs_device *gdev = gputbs_from_dev(dev);
	const struct gtbs_policy_ops *ops;
	unsigned int i;

	for (i = 0; (ops = gtbs_policy_at(i)); i++)
		if (sysfs_streq(buf, ops->name))
			break;
	if (!ops)
		return -EINVAL;
	spin_lock(&gdev->lock);
	gtbs_dev_set_policy(&gdev->core, ops, gputbs_dev_sync(gdev));
	gputbs_dev_sync(gdev);	/* kicked SMs issue under the new policy now */
	spin_unlock(&gdev->lock);
	return count;
}
static DEVICE_ATTR_RW(policy);

static ssize_t starve_ns_show(struct device *dev,
			      struct device_attribute *attr, char *buf)
{
	struct gputbs_device *gdev = gputbs_from_dev(dev);
	u64 ns;

	spin_lock(&gdev->lock);
	ns = gdev->starve_ns;
	spin_unlock(&gdev->lock);
	return sysfs_emit(buf, "%llu\n", ns);
}

/* ns of emulated time in cycles, rounded up: 0, or -ERANGE on overflow. */
static int gputbs_ns_to_cycles(const struct gputbs_device *gdev, u64 ns,
			       u64 *cycles)
{
	u64 ps;
	u32 rem;

	if (check_mul_overflow(ns, 1000ULL, &ps))
		return -ERANGE;
	*cycles = div_u64_rem(ps, gdev->time_scale_ps, &rem);
	if (rem)
		(*cycles)++;
	return 0;
}

static ssize_t starve_ns_store(struct device *dev,
			       struct device_attribute *attr,
			       const char *buf, size_t count)
{
	struct gputbs_device *gdev = gputbs_from_dev(dev);
	u64 ns, cycles, now;
	int ret;

	ret = kstrtou64(buf, 10, &ns);
	if (ret)
		return ret;
	ret = gputbs_ns_to_cycles(gdev, ns, &cycles);
	if (ret)
		return ret;
	spin_lock(&gdev->lock);
	now = gputbs_dev_sync(gdev);
	gdev->core.starve_cycles = cycles;
	gdev->starve_ns = ns;
	gtbs_dev_kick(&gdev->core, now);
	gputbs_dev_sync(gdev);	/* re-evaluate waits against the new limit */
	spin_unlock(&gdev->lock);
	return count;
}
static DEVICE_ATTR_RW(starve_ns);

/* SRTF/Adaptive's threshold, read and written in parts per million. */
static ssize_t share_threshold_ppm_show(struct device *dev,
					struct device_attribute *attr,
					char *buf)
{
	struct gputbs_device *gdev = gputbs_from_dev(dev);
	u64 fp;

	spin_lock(&gdev->lock);
	fp = gdev->core.share_threshold;
	spin_unlock(&gdev->lock);
	/* GTBS_FP_ONE is 10^6: fixed point and ppm are the same number */
	return sysfs_emit(buf, "%llu\n", fp);
}

static ssize_t share_threshold_ppm_store(struct device *dev,
					 struct device_attribute *attr,
					 const char *buf, size_t count)
{
	struct gputbs_device *gdev = gputbs_from_dev(dev);
	u64 ppm, now;
	int ret;

	BUILD_BUG_ON(GTBS_FP_ONE != 1000000);
	ret = kstrtou64(buf, 10, &ppm);
	if (ret)
		return ret;
	if (ppm > 100 * GTBS_FP_ONE)
		return -ERANGE;
	spin_lock(&gdev->lock);
	now = gputbs_dev_sync(gdev);
	gdev->core.share_threshold = ppm;
	gtbs_dev_kick(&gdev->core, now);
	gputbs_dev_sync(gdev);
	spin_unlock(&gdev->lock);
	return count;
}
static DEVICE_ATTR_RW(share_threshold_ppm);

/* SRTF/Adaptive's residency limit of the fastest grid while sharing. */
static ssize_t share_residency_show(struct device *dev,
				    struct device_attribute *attr, char *buf)
{
	struct gputbs_device *gdev = gputbs_from_dev(dev);
	u32 limit;

	spin_lock(&gdev->lock);
	limit = gdev->core.share_residency;
	spin_unlock(&gdev->lock);
	return sysfs_emit(buf, "%u\n", limit);
}

static ssize_t share_residency_store(struct device *dev,
				     struct device_attribute *attr,
				     const char *buf, size_t count)
{
	struct gputbs_device *gdev = gputbs_from_dev(dev);
	u32 limit;
	u64 now;
	int ret;

	ret = kstrtou32(buf, 10, &limit);
	if (ret)
		return ret;
	if (!limit || limit > GTBS_MAX_BLOCKS_PER_SM)
		return -ERANGE;
	spin_lock(&gdev->lock);
	now = gputbs_dev_sync(gdev);
	gdev->core.share_residency = limit;
	gtbs_dev_kick(&gdev->core, now);
	gputbs_dev_sync(gdev);
	spin_unlock(&gdev->lock);
	return count;
}
static DEVICE_ATTR_RW(share_residency);

static struct attribute *gputbs_attrs[] = {
	&dev_attr_policy.attr,
	&dev_attr_starve_ns.attr,
	&dev_attr_share_threshold_ppm.attr,
	&dev_attr_share_residency.attr,
	NULL,
};

static const struct attribute_group gputbs_group = {
	.attrs = gputbs_attrs,
};

/* Attribute groups of the misc device, for &miscdevice.groups. */
const struct attribute_group *gputbs_groups[] = {
	&gputbs_group,
	NULL,
};
