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
 *	/sys/block/<disk>/queue/scheduler ("[fifo] mpmax srtf
 *	srtf-adaptive srtf-oracle sjf ljf fair").  Write a name (a trailing
 *	newline is fine) to switch the policy of the running device:
 *	gtbs_dev_set_policy() under the device lock, at the
 *	current emulated cycle, after every event due before it.  Blocks
 *	already resident keep running; the next block issues follow the
 *	new policy.
 *
 * starve_ns
 *	The starvation guard (&gtbs_dev.starve_cycles) in wall-clock ns of
 *	emulated time; 0 (the default) turns it off.
 *
 * policy_params/
 *	A directory with one file per parameter the current policy declares
 *	(&struct gtbs_policy_param), rebuilt at every policy switch: empty
 *	for fifo; ``share_threshold_ppm``, ``share_residency`` and
 *	``share_mode`` for srtf-adaptive.  Read: the value (a choice by its
 *	name).  Write: a decimal number, or a value name; outside the
 *	parameter's min..max is %-ERANGE, anything else %-EINVAL.  A
 *	policy's parameters start at their defaults when it is selected.
 *	Beside each, read-only ``<param>_range``: what a write accepts (see
 *	the ranges below).
 *
 * <tunable>_range
 *	Read-only, one per tunable whose writes are range-checked
 *	(starve_ns, timeout_ns, max_lag_ns, cap_period,
 *	switch_bytes_per_cycle, preempt_budget_<class>, and every
 *	policy_params/<param>): ``MIN..MAX`` in the tunable's own unit,
 *	decimal, inclusive (a write outside it is %-ERANGE); for a
 *	parameter that is a choice, its value names instead, separated by
 *	spaces.  A separate file, so that every reader of the value files
 *	reads what it always did; a range that depends on the time scale
 *	(timeout_ns) is computed at the read.
 *
 * predictor
 *	A selector like policy: ``[extended] literal`` (the Simple Slicing
 *	predictor's mode, &gtbs_dev.pred_mode, for grids launched from now
 *	on).
 *
 * nr_sms, threads_per_sm, regs_per_sm, shmem_per_sm, blocks_per_sm,
 * warps_per_sm, warp_size, load_knee_warps, timing_model, block_times,
 * time_scale_ps
 *	The device's configuration (initially the module parameters of the
 *	same names).  Writable while no file of /dev/gputbs is open and no
 *	grid exists (else %-EBUSY): gputbs_reconfigure() builds new SMs and
 *	SM kthreads.  A value the configuration rules refuse is %-EINVAL.
 *
 * grids_submitted, grids_completed, grids_cancelled, blocks_dispatched,
 * predictions, promotions, policy_switches, sharing_switches, preemptions
 *	Read-only counters since the module was loaded (the core's, and
 *	&gputbs_obs.preemptions).
 *
 * Writable files are 0644, and every store checks CAP_SYS_ADMIN first
 * (gputbs_admin_check(), as the netlink family's policy-set does): a
 * write changes the device for every user, so the file mode alone, which
 * lets any uid 0 process write, is not enough.  Without the capability a
 * write fails with %-EPERM and changes nothing.
 */
#include <linux/capability.h>
#include <linux/device.h>
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/mutex.h>
#include <linux/overflow.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#include "gputbs_drv.h"

/**
 * gputbs_admin_check() - may the caller change the device for everyone?
 *
 * The one privilege check of every sysfs store of the misc device and of
 * the writable module parameters' set operations: CAP_SYS_ADMIN in the
 * initial user namespace, as the netlink family asks for its policy-set
 * command.  Called before the value is parsed.
 *
 * Context: process context (a sysfs write, or module load).
 * Return: 0 if the caller has CAP_SYS_ADMIN, else -EPERM.
 */
int gputbs_admin_check(void)
{
	return capable(CAP_SYS_ADMIN) ? 0 : -EPERM;
}

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
	/* every registered policy, those of policy modules included */
	gtbs_policy_lock();
	for (i = 0; (ops = gtbs_policy_at(i)); i++)
		len += sysfs_emit_at(buf, len, ops == cur ? "%s[%s]" : "%s%s",
				     i ? " " : "", ops->name);
	gtbs_policy_unlock();
	len += sysfs_emit_at(buf, len, "\n");
	return len;
}

static ssize_t policy_store(struct device *dev, struct device_attribute *attr,
			    const char *buf, size_t count)
{
	struct gputbs_device *gdev = gputbs_from_dev(dev);
	const struct gtbs_policy_ops *ops;
	int ret;

	ret = gputbs_admin_check();
	if (ret)
		return ret;
	/* the exact name, one trailing newline allowed; a reference */
	ops = gtbs_policy_get(buf);
	if (!ops)
		return -EINVAL;
	ret = gputbs_switch_policy(gdev, ops);
	if (ret)
		return ret;
	gputbs_policy_params_changed(gdev);
	return count;
}
static DEVICE_ATTR_RW(policy);

/*
 * A scheduler tunable changes at the current cycle, after every event due
 * before it (gputbs_dev_lock_sync()), and every SM re-evaluates its waits
 * against it at once.  @set stores @val at cycle @now under the lock and
 * returns 0 or a negative errno (nothing changed).
 */
static int gputbs_tunable_store(struct gputbs_device *gdev,
				int (*set)(struct gputbs_device *gdev, u64 val,
					   u64 now),
				u64 val)
{
	u64 now;
	int ret;

	ret = gputbs_dev_lock_sync(gdev, &now);
	if (!ret)
		ret = set(gdev, val, now);
	if (!ret) {
		gtbs_dev_kick(&gdev->core, now);
		gputbs_dev_sync(gdev);
	}
	spin_unlock(&gdev->lock);
	return ret;
}

/*
 * The range of the tunable @name, @lo..@hi (expressions of the device,
 * evaluated under its lock): gputbs_@name_range(), which a store that
 * checks the range itself calls too, and the read-only file @name_range,
 * "MIN..MAX".
 */
#define GPUTBS_RANGE_ATTR(name, lo, hi)					\
static void gputbs_##name##_range(struct gputbs_device *gdev,		\
				  u64 *min, u64 *max)			\
{									\
	spin_lock(&gdev->lock);						\
	*min = (lo);							\
	*max = (hi);							\
	spin_unlock(&gdev->lock);					\
}									\
									\
static ssize_t name##_range_show(struct device *dev,			\
				 struct device_attribute *attr,		\
				 char *buf)				\
{									\
	u64 min, max;							\
									\
	gputbs_##name##_range(gputbs_from_dev(dev), &min, &max);	\
	return sysfs_emit(buf, "%llu..%llu\n", min, max);		\
}									\
static DEVICE_ATTR_RO(name##_range)

/*
 * The largest ns a tunable kept in ns takes: @ns * 1000 must not overflow
 * (gputbs_ns_to_cycles()).
 */
#define GPUTBS_NS_MAX		div_u64(U64_MAX, 1000)

/*
 * A tunable kept in ns of emulated time, @expr of the device (the core
 * holds it in cycles): read under the lock; written by root
 * (gputbs_admin_check()) as a decimal number through gputbs_set_@name()
 * and gputbs_tunable_store(); outside the range of its
 * GPUTBS_RANGE_ATTR(), which comes first, is -ERANGE (and so is what
 * the conversion to cycles refuses at the time of the write).
 */
#define GPUTBS_NS_TUNABLE_ATTR(name, expr)				\
static ssize_t name##_show(struct device *dev,				\
			   struct device_attribute *attr, char *buf)	\
{									\
	struct gputbs_device *gdev = gputbs_from_dev(dev);		\
	u64 ns;								\
									\
	spin_lock(&gdev->lock);						\
	ns = (expr);							\
	spin_unlock(&gdev->lock);					\
	return sysfs_emit(buf, "%llu\n", ns);				\
}									\
									\
static ssize_t name##_store(struct device *dev,				\
			    struct device_attribute *attr,		\
			    const char *buf, size_t count)		\
{									\
	struct gputbs_device *gdev = gputbs_from_dev(dev);		\
	u64 ns, min, max;						\
	int ret;							\
									\
	ret = gputbs_admin_check();					\
	if (ret)							\
		return ret;						\
	ret = kstrtou64(buf, 10, &ns);					\
	if (ret)							\
		return ret;						\
	gputbs_##name##_range(gdev, &min, &max);			\
	if (ns < min || ns > max)					\
		return -ERANGE;						\
	ret = gputbs_tunable_store(gdev, gputbs_set_##name, ns);	\
	return ret ?: count;						\
}									\
static DEVICE_ATTR_RW(name)

static int gputbs_set_starve_ns(struct gputbs_device *gdev, u64 ns, u64 now)
{
	u64 cycles;
	int ret;

	/* under the lock: the time scale changes with the configuration */
	ret = gputbs_ns_to_cycles(gdev, ns, &cycles);
	if (ret)
		return ret;
	gdev->core.starve_cycles = cycles;
	gdev->starve_ns = ns;
	return 0;
}

GPUTBS_RANGE_ATTR(starve_ns, 0, GPUTBS_NS_MAX);
GPUTBS_NS_TUNABLE_ATTR(starve_ns, gdev->starve_ns);

/*
 * A selector among @n names (@name(i) for i < @n), the current one in
 * brackets, like policy.
 */
static ssize_t gputbs_selector_show(char *buf, u32 cur, u32 n,
				    const char *(*name)(u32 mode))
{
	int len = 0;
	u32 i;

	for (i = 0; i < n; i++)
		len += sysfs_emit_at(buf, len, i == cur ? "%s[%s]" : "%s%s",
				     i ? " " : "", name(i));
	len += sysfs_emit_at(buf, len, "\n");
	return len;
}

/* The index of @buf among the @n names, or -EINVAL. */
static int gputbs_selector_parse(const char *buf, u32 n,
				 const char *(*name)(u32 mode))
{
	u32 i;

	for (i = 0; i < n; i++)
		if (sysfs_streq(buf, name(i)))
			return i;
	return -EINVAL;
}

/*
 * A selector attribute: the choices with the current one in brackets,
 * written by name (CAP_SYS_ADMIN), applied by gputbs_tunable_store().
 */
struct gputbs_selector {
	u32 nr;
	const char *(*name)(u32 mode);
	u32 (*get)(const struct gtbs_dev *core);
	int (*set)(struct gputbs_device *gdev, u64 mode, u64 now);
};

static ssize_t gputbs_selector_attr_show(struct device *dev, char *buf,
					 const struct gputbs_selector *sel)
{
	struct gputbs_device *gdev = gputbs_from_dev(dev);
	u32 mode;

	spin_lock(&gdev->lock);
	mode = sel->get(&gdev->core);
	spin_unlock(&gdev->lock);
	return gputbs_selector_show(buf, mode, sel->nr, sel->name);
}

static ssize_t gputbs_selector_attr_store(struct device *dev, const char *buf,
					  size_t count,
					  const struct gputbs_selector *sel)
{
	int ret;

	ret = gputbs_admin_check();
	if (ret)
		return ret;
	ret = gputbs_selector_parse(buf, sel->nr, sel->name);
	if (ret < 0)
		return ret;
	ret = gputbs_tunable_store(gputbs_from_dev(dev), sel->set, ret);
	return ret ?: count;
}

/* The attribute @name of the &struct gputbs_selector gputbs_@name_sel. */
#define GPUTBS_SELECTOR_ATTR(name)					\
static ssize_t name##_show(struct device *dev,				\
			   struct device_attribute *attr, char *buf)	\
{									\
	return gputbs_selector_attr_show(dev, buf, &gputbs_##name##_sel); \
}									\
									\
static ssize_t name##_store(struct device *dev,				\
			    struct device_attribute *attr,		\
			    const char *buf, size_t count)		\
{									\
	return gputbs_selector_attr_store(dev, buf, count,		\
					  &gputbs_##name##_sel);	\
}									\
static DEVICE_ATTR_RW(name)

/* The Simple Slicing predictor's mode: literal or extended. */
static u32 gputbs_get_predictor(const struct gtbs_dev *core)
{
	return core->pred_mode;
}

static int gputbs_set_predictor(struct gputbs_device *gdev, u64 mode,
				u64 now)
{
	return gtbs_dev_set_pred_mode(&gdev->core, mode);
}

static const struct gputbs_selector gputbs_predictor_sel = {
	GTBS_NR_PRED_MODES, gtbs_pred_mode_name, gputbs_get_predictor,
	gputbs_set_predictor,
};
GPUTBS_SELECTOR_ATTR(predictor);

static u32 gputbs_get_preempt_mode(const struct gtbs_dev *core)
{
	return core->preempt_mode;
}

static int gputbs_set_preempt_mode(struct gputbs_device *gdev, u64 mode,
				   u64 now)
{
	return gtbs_dev_set_preempt(&gdev->core, mode, now);
}

static const struct gputbs_selector gputbs_preempt_mode_sel = {
	GTBS_NR_PREEMPT_MODES, gtbs_preempt_mode_name, gputbs_get_preempt_mode,
	gputbs_set_preempt_mode,
};
GPUTBS_SELECTOR_ATTR(preempt_mode);

/*
 * A tunable held by the core as a plain number (@expr of the device):
 * read under the lock, written by root as a decimal number through
 * gputbs_set_@name() and gputbs_tunable_store(); outside the range of its
 * GPUTBS_RANGE_ATTR(), which comes first, is -ERANGE.
 */
#define GPUTBS_U64_TUNABLE_ATTR(name, expr)				\
static ssize_t name##_show(struct device *dev,				\
			   struct device_attribute *attr, char *buf)	\
{									\
	struct gputbs_device *gdev = gputbs_from_dev(dev);		\
	u64 val;							\
									\
	spin_lock(&gdev->lock);						\
	val = (expr);							\
	spin_unlock(&gdev->lock);					\
	return sysfs_emit(buf, "%llu\n", val);				\
}									\
									\
static ssize_t name##_store(struct device *dev,				\
			    struct device_attribute *attr,		\
			    const char *buf, size_t count)		\
{									\
	struct gputbs_device *gdev = gputbs_from_dev(dev);		\
	u64 val, min, max;						\
	int ret;							\
									\
	ret = gputbs_admin_check();					\
	if (ret)							\
		return ret;						\
	ret = kstrtou64(buf, 10, &val);					\
	if (ret)							\
		return ret;						\
	gputbs_##name##_range(gdev, &min, &max);			\
	if (val < min || val > max)					\
		return -ERANGE;						\
	ret = gputbs_tunable_store(gdev, gputbs_set_##name, val);	\
	return ret ?: count;						\
}									\
static DEVICE_ATTR_RW(name)

static int gputbs_set_switch_bytes_per_cycle(struct gputbs_device *gdev,
					     u64 val, u64 now)
{
	gdev->core.switch_bytes_per_cycle = val;
	return 0;
}

GPUTBS_RANGE_ATTR(switch_bytes_per_cycle, 1, GPUTBS_SWITCH_BW_MAX);
GPUTBS_U64_TUNABLE_ATTR(switch_bytes_per_cycle,
			gdev->core.switch_bytes_per_cycle);

/* The preemption latency budget of class GTBS_PRIO_@CLS, emulated cycles. */
#define GPUTBS_BUDGET_ATTR(cls, CLS)					\
static int gputbs_set_preempt_budget_##cls(struct gputbs_device *gdev,	\
					   u64 val, u64 now)		\
{									\
	gdev->core.preempt_budget[GTBS_PRIO_##CLS] = val;		\
	return 0;							\
}									\
GPUTBS_RANGE_ATTR(preempt_budget_##cls, 0, GTBS_MAX_TIMEOUT_CYCLES);	\
GPUTBS_U64_TUNABLE_ATTR(preempt_budget_##cls,				\
			gdev->core.preempt_budget[GTBS_PRIO_##CLS])

GPUTBS_BUDGET_ATTR(low, LOW);
GPUTBS_BUDGET_ATTR(normal, NORMAL);
GPUTBS_BUDGET_ATTR(high, HIGH);
GPUTBS_BUDGET_ATTR(realtime, REALTIME);

/*
 * The period of tenants' caps, emulated cycles (sm-emu/tenant.c): set
 * while no tenant is capped (-EBUSY otherwise), every tenant's period
 * then starting anew at the next multiple of it.
 */
static int gputbs_set_cap_period(struct gputbs_device *gdev, u64 val, u64 now)
{
	struct gtbs_tenant *t;

	list_for_each_entry(t, &gdev->core.tenants, node)
		if (t->max_ppm)
			return -EBUSY;
	gdev->core.cap_period = val;
	list_for_each_entry(t, &gdev->core.tenants, node)
		t->period_end = (div64_u64(now, val) + 1) * val;
	return 0;
}

GPUTBS_RANGE_ATTR(cap_period, 1, 1ULL << 33);
GPUTBS_U64_TUNABLE_ATTR(cap_period, gdev->core.cap_period);

/* The job timeout, in wall-clock ns of emulated time; 0: none. */
static int gputbs_set_timeout_ns(struct gputbs_device *gdev, u64 ns, u64 now)
{
	u64 cycles;
	int ret;

	ret = gputbs_ns_to_cycles(gdev, ns, &cycles);
	if (ret)
		return ret;
	if (cycles > GTBS_MAX_TIMEOUT_CYCLES)
		return -ERANGE;
	gtbs_dev_set_timeout(&gdev->core, cycles, now);
	gdev->timeout_ns = ns;
	return 0;
}

/*
 * The largest timeout_ns: ns whose cycles, rounded up, stay within
 * GTBS_MAX_TIMEOUT_CYCLES at @scale_ps, floor(2^62 x @scale_ps / 1000),
 * and within GPUTBS_NS_MAX (from 4 ps per cycle on, the product exceeds
 * 64 bits and GPUTBS_NS_MAX is the lower; no 128-bit division, whose
 * quotient would not fit either).
 */
static u64 gputbs_timeout_ns_max(u32 scale_ps)
{
	u64 ps;

	if (check_mul_overflow(GTBS_MAX_TIMEOUT_CYCLES, (u64)scale_ps, &ps))
		return GPUTBS_NS_MAX;
	return min(GPUTBS_NS_MAX, div_u64(ps, 1000));
}

GPUTBS_RANGE_ATTR(timeout_ns, 0, gputbs_timeout_ns_max(gdev->time_scale_ps));
GPUTBS_NS_TUNABLE_ATTR(timeout_ns, gdev->timeout_ns);

/*
 * How far the device may lag the wall clock before users above their fair
 * share of block events are throttled (gputbs_isolation.c), ns; 0: never.
 * Not a scheduling event: written at once, without catching up first, so
 * that root can turn isolation on while the device is far behind.
 */
GPUTBS_RANGE_ATTR(max_lag_ns, 0, GPUTBS_MAX_LAG_NS_MAX);

static ssize_t max_lag_ns_show(struct device *dev,
			       struct device_attribute *attr, char *buf)
{
	struct gputbs_device *gdev = gputbs_from_dev(dev);
	u64 val;

	spin_lock(&gdev->lock);
	val = gdev->isol.max_lag_ns;
	spin_unlock(&gdev->lock);
	return sysfs_emit(buf, "%llu\n", val);
}

static ssize_t max_lag_ns_store(struct device *dev,
				struct device_attribute *attr,
				const char *buf, size_t count)
{
	struct gputbs_device *gdev = gputbs_from_dev(dev);
	u64 val, min, max;
	int ret;

	ret = gputbs_admin_check();
	if (ret)
		return ret;
	ret = kstrtou64(buf, 10, &val);
	if (ret)
		return ret;
	gputbs_max_lag_ns_range(gdev, &min, &max);
	if (val < min || val > max)
		return -ERANGE;
	spin_lock(&gdev->lock);
	gputbs_isol_set_max_lag(gdev, val);
	spin_unlock(&gdev->lock);
	return count;
}
static DEVICE_ATTR_RW(max_lag_ns);

/*
 * The device's configuration: a field of struct gtbs_dev_config, or the
 * time scale.  Reads take the lock for a consistent copy; writes hold
 * cfg_lock, which open() takes too.
 */
enum gputbs_cfg_field {
	GPUTBS_CFG_NR_SMS,
	GPUTBS_CFG_THREADS,
	GPUTBS_CFG_REGS,
	GPUTBS_CFG_SHMEM,
	GPUTBS_CFG_BLOCKS,
	GPUTBS_CFG_WARPS,
	GPUTBS_CFG_WARP_SIZE,
	GPUTBS_CFG_KNEE,
	GPUTBS_CFG_TIMING_MODEL,
	GPUTBS_CFG_BLOCK_TIMES,
	GPUTBS_CFG_TIME_SCALE,
};

/* A configuration attribute: which field it shows. */
struct gputbs_cfg_attribute {
	struct device_attribute attr;
	enum gputbs_cfg_field field;
};

static u32 *gputbs_cfg_field(struct gtbs_dev_config *cfg, u32 *scale,
			     struct device_attribute *attr)
{
	switch (container_of(attr, struct gputbs_cfg_attribute, attr)->field) {
	case GPUTBS_CFG_NR_SMS:
		return &cfg->nr_sms;
	case GPUTBS_CFG_THREADS:
		return &cfg->max_threads_per_sm;
	case GPUTBS_CFG_REGS:
		return &cfg->max_regs_per_sm;
	case GPUTBS_CFG_SHMEM:
		return &cfg->max_shmem_per_sm;
	case GPUTBS_CFG_BLOCKS:
		return &cfg->max_blocks_per_sm;
	case GPUTBS_CFG_WARPS:
		return &cfg->max_warps_per_sm;
	case GPUTBS_CFG_WARP_SIZE:
		return &cfg->warp_size;
	case GPUTBS_CFG_KNEE:
		return &cfg->load_knee_warps;
	case GPUTBS_CFG_TIMING_MODEL:
		return &cfg->timing_model;
	case GPUTBS_CFG_BLOCK_TIMES:
		return &cfg->block_times;
	case GPUTBS_CFG_TIME_SCALE:
		break;
	}
	return scale;
}

static ssize_t gputbs_cfg_show(struct device *dev,
			       struct device_attribute *attr, char *buf)
{
	struct gputbs_device *gdev = gputbs_from_dev(dev);
	struct gtbs_dev_config cfg;
	u32 scale;

	spin_lock(&gdev->lock);
	cfg = gdev->core.cfg;
	scale = gdev->time_scale_ps;
	spin_unlock(&gdev->lock);
	return sysfs_emit(buf, "%u\n", *gputbs_cfg_field(&cfg, &scale, attr));
}

static ssize_t gputbs_cfg_store(struct device *dev,
				struct device_attribute *attr,
				const char *buf, size_t count)
{
	struct gputbs_device *gdev = gputbs_from_dev(dev);
	struct gtbs_dev_config cfg;
	const char *why;
	u32 val, scale;
	int ret;

	ret = gputbs_admin_check();
	if (ret)
		return ret;
	ret = kstrtou32(buf, 10, &val);
	if (ret)
		return ret;
	mutex_lock(&gdev->cfg_lock);
	if (atomic_read(&gdev->nr_open)) {
		ret = -EBUSY;
		goto out;
	}
	spin_lock(&gdev->lock);
	cfg = gdev->core.cfg;
	scale = gdev->time_scale_ps;
	spin_unlock(&gdev->lock);
	*gputbs_cfg_field(&cfg, &scale, attr) = val;
	/* the rule of the module parameters: no block above an SM */
	cfg.max_threads_per_block = min(gdev->preset->cfg.max_threads_per_block,
					cfg.max_threads_per_sm);
	ret = gtbs_config_check(&cfg, &why);
	if (!ret && (scale < 1000 || scale > 1000000000))
		ret = -EINVAL;
	if (!ret)
		ret = gputbs_reconfigure(gdev, &cfg, scale);
	if (ret == -EINVAL)
		dev_dbg(dev, "configuration refused: %s\n",
			why ? why : "time_scale_ps must be 1000..1000000000");
out:
	mutex_unlock(&gdev->cfg_lock);
	return ret ? ret : count;
}

/*
 * device: the presets, the one the configuration was last set from in
 * brackets.  Writing a preset's name replaces the whole configuration by
 * the preset's (the timing model and the time scale stay), as writing
 * nr_sms replaces one field: through gputbs_reconfigure(), while no file
 * of /dev/gputbs is open and no grid exists (-EBUSY otherwise).
 */
static ssize_t device_show(struct device *dev, struct device_attribute *attr,
			   char *buf)
{
	struct gputbs_device *gdev = gputbs_from_dev(dev);
	const struct gtbs_dev_preset *p, *cur;
	unsigned int i;
	int len = 0;

	mutex_lock(&gdev->cfg_lock);
	cur = gdev->preset;
	mutex_unlock(&gdev->cfg_lock);
	for (i = 0; (p = gtbs_config_preset_at(i)); i++)
		len += sysfs_emit_at(buf, len, p == cur ? "%s[%s]" : "%s%s",
				     i ? " " : "", p->name);
	len += sysfs_emit_at(buf, len, "\n");
	return len;
}

static ssize_t device_store(struct device *dev, struct device_attribute *attr,
			    const char *buf, size_t count)
{
	struct gputbs_device *gdev = gputbs_from_dev(dev);
	const struct gtbs_dev_preset *p;
	struct gtbs_dev_config cfg;
	const char *why;
	unsigned int i;
	u32 scale;
	int ret;

	ret = gputbs_admin_check();
	if (ret)
		return ret;
	for (i = 0; (p = gtbs_config_preset_at(i)); i++)
		if (sysfs_streq(buf, p->name))
			break;
	if (!p)
		return -EINVAL;
	mutex_lock(&gdev->cfg_lock);
	if (atomic_read(&gdev->nr_open)) {
		ret = -EBUSY;
		goto out;
	}
	cfg = p->cfg;
	spin_lock(&gdev->lock);
	/* not the preset's: the load-time limit and the chosen model */
	cfg.max_blocks_per_grid = gdev->core.cfg.max_blocks_per_grid;
	cfg.timing_model = gdev->core.cfg.timing_model;
	cfg.block_times = gdev->core.cfg.block_times;
	scale = gdev->time_scale_ps;
	spin_unlock(&gdev->lock);
	ret = gtbs_config_check(&cfg, &why);
	if (ret) {
		dev_dbg(dev, "preset refused: %s\n", why);
		goto out;
	}
	ret = gputbs_reconfigure(gdev, &cfg, scale);
	if (!ret)
		gdev->preset = p;
out:
	mutex_unlock(&gdev->cfg_lock);
	return ret ? ret : count;
}
static DEVICE_ATTR_RW(device);

#define GPUTBS_CFG_ATTR(_name, _field)					\
static struct gputbs_cfg_attribute dev_attr_##_name = {			\
	.attr = __ATTR(_name, 0644, gputbs_cfg_show, gputbs_cfg_store),	\
	.field = _field,						\
}

GPUTBS_CFG_ATTR(nr_sms, GPUTBS_CFG_NR_SMS);
GPUTBS_CFG_ATTR(threads_per_sm, GPUTBS_CFG_THREADS);
GPUTBS_CFG_ATTR(regs_per_sm, GPUTBS_CFG_REGS);
GPUTBS_CFG_ATTR(shmem_per_sm, GPUTBS_CFG_SHMEM);
GPUTBS_CFG_ATTR(blocks_per_sm, GPUTBS_CFG_BLOCKS);
GPUTBS_CFG_ATTR(warps_per_sm, GPUTBS_CFG_WARPS);
GPUTBS_CFG_ATTR(warp_size, GPUTBS_CFG_WARP_SIZE);
GPUTBS_CFG_ATTR(load_knee_warps, GPUTBS_CFG_KNEE);
GPUTBS_CFG_ATTR(timing_model, GPUTBS_CFG_TIMING_MODEL);
GPUTBS_CFG_ATTR(block_times, GPUTBS_CFG_BLOCK_TIMES);
GPUTBS_CFG_ATTR(time_scale_ps, GPUTBS_CFG_TIME_SCALE);

/* Read-only counters: @expr of the device, read under the lock. */
#define GPUTBS_COUNTER_ATTR(name, expr)					\
static ssize_t name##_show(struct device *dev,				\
			   struct device_attribute *attr, char *buf)	\
{									\
	struct gputbs_device *gdev = gputbs_from_dev(dev);		\
	u64 val;							\
									\
	spin_lock(&gdev->lock);						\
	val = (expr);							\
	spin_unlock(&gdev->lock);					\
	return sysfs_emit(buf, "%llu\n", val);				\
}									\
static DEVICE_ATTR_RO(name)

GPUTBS_COUNTER_ATTR(grids_submitted, gdev->core.grids_submitted);
GPUTBS_COUNTER_ATTR(grids_completed, gdev->core.grids_completed);
GPUTBS_COUNTER_ATTR(grids_cancelled, gdev->core.grids_cancelled);
GPUTBS_COUNTER_ATTR(grids_timed_out, gdev->core.grids_timed_out);
GPUTBS_COUNTER_ATTR(blocks_dispatched, gdev->core.blocks_dispatched);
GPUTBS_COUNTER_ATTR(predictions, gdev->core.predictions);
GPUTBS_COUNTER_ATTR(promotions, gdev->core.promotions);
GPUTBS_COUNTER_ATTR(policy_switches, gdev->core.policy_switches);
GPUTBS_COUNTER_ATTR(sharing_switches, gdev->core.sharing_switches);
GPUTBS_COUNTER_ATTR(preemptions, gdev->obs.preemptions);
GPUTBS_COUNTER_ATTR(blocks_switched, gdev->core.preempts[GTBS_MECH_SWITCH]);
GPUTBS_COUNTER_ATTR(blocks_flushed, gdev->core.preempts[GTBS_MECH_FLUSH]);
GPUTBS_COUNTER_ATTR(blocks_restored, gdev->core.restores);
GPUTBS_COUNTER_ATTR(switch_cycles, gdev->core.xfer_cycles);
GPUTBS_COUNTER_ATTR(flushed_cycles, gdev->core.lost_cycles);
GPUTBS_COUNTER_ATTR(users_throttled, gdev->isol.throttles);
GPUTBS_COUNTER_ATTR(grids_throttled, gdev->core.grids_throttled);

static struct attribute *gputbs_attrs[] = {
	&dev_attr_policy.attr,
	&dev_attr_starve_ns.attr,
	&dev_attr_predictor.attr,
	&dev_attr_preempt_mode.attr,
	&dev_attr_switch_bytes_per_cycle.attr,
	&dev_attr_preempt_budget_low.attr,
	&dev_attr_preempt_budget_normal.attr,
	&dev_attr_preempt_budget_high.attr,
	&dev_attr_preempt_budget_realtime.attr,
	&dev_attr_timeout_ns.attr,
	&dev_attr_cap_period.attr,
	&dev_attr_max_lag_ns.attr,
	&dev_attr_device.attr,
	&dev_attr_nr_sms.attr.attr,
	&dev_attr_threads_per_sm.attr.attr,
	&dev_attr_regs_per_sm.attr.attr,
	&dev_attr_shmem_per_sm.attr.attr,
	&dev_attr_blocks_per_sm.attr.attr,
	&dev_attr_warps_per_sm.attr.attr,
	&dev_attr_warp_size.attr.attr,
	&dev_attr_load_knee_warps.attr.attr,
	&dev_attr_timing_model.attr.attr,
	&dev_attr_block_times.attr.attr,
	&dev_attr_time_scale_ps.attr.attr,
	&dev_attr_grids_submitted.attr,
	&dev_attr_grids_completed.attr,
	&dev_attr_grids_cancelled.attr,
	&dev_attr_grids_timed_out.attr,
	&dev_attr_blocks_dispatched.attr,
	&dev_attr_predictions.attr,
	&dev_attr_promotions.attr,
	&dev_attr_policy_switches.attr,
	&dev_attr_sharing_switches.attr,
	&dev_attr_preemptions.attr,
	&dev_attr_users_throttled.attr,
	&dev_attr_grids_throttled.attr,
	&dev_attr_blocks_switched.attr,
	&dev_attr_blocks_flushed.attr,
	&dev_attr_blocks_restored.attr,
	&dev_attr_switch_cycles.attr,
	&dev_attr_flushed_cycles.attr,
	&dev_attr_starve_ns_range.attr,
	&dev_attr_switch_bytes_per_cycle_range.attr,
	&dev_attr_preempt_budget_low_range.attr,
	&dev_attr_preempt_budget_normal_range.attr,
	&dev_attr_preempt_budget_high_range.attr,
	&dev_attr_preempt_budget_realtime_range.attr,
	&dev_attr_timeout_ns_range.attr,
	&dev_attr_cap_period_range.attr,
	&dev_attr_max_lag_ns_range.attr,
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

/*
 * policy_params/: the current policy's parameters, one file each.  The
 * group lives in &gputbs_device.params and is rebuilt, under
 * &gputbs_device.cfg_lock, whenever the policy changes.  A file knows its
 * parameter by index; a read or write checks under the device lock that
 * the policy is still the one the group was built for (else -EAGAIN: a
 * switch is rebuilding the directory).
 */
static struct gputbs_device *gputbs_param_index(struct device *dev,
						struct device_attribute *attr,
						u32 *index)
{
	struct gputbs_device *gdev = gputbs_from_dev(dev);

	*index = attr - gdev->params.dattrs;
	return gdev;
}

static ssize_t gputbs_param_show(struct device *dev,
				 struct device_attribute *attr, char *buf)
{
	const struct gtbs_policy_param *p;
	struct gputbs_device *gdev;
	u32 index;
	u64 val;

	gdev = gputbs_param_index(dev, attr, &index);
	spin_lock(&gdev->lock);
	if (gdev->core.policy != gdev->params.ops) {
		spin_unlock(&gdev->lock);
		return -EAGAIN;
	}
	p = &gdev->core.policy->params[index];
	val = gtbs_policy_param_get(&gdev->core, index);
	spin_unlock(&gdev->lock);
	/* @p stays valid: the device holds a reference on its module */
	if (p->names)
		return sysfs_emit(buf, "%s\n", p->names[val]);
	return sysfs_emit(buf, "%llu\n", val);
}

/* policy_params/<param>_range: "MIN..MAX", or a choice's value names. */
static ssize_t gputbs_param_range_show(struct device *dev,
				       struct device_attribute *attr,
				       char *buf)
{
	struct gputbs_device *gdev = gputbs_from_dev(dev);
	const struct gtbs_policy_param *p;
	u32 index = attr - gdev->params.rattrs;
	int len = 0;
	u64 i;

	spin_lock(&gdev->lock);
	if (gdev->core.policy != gdev->params.ops) {
		spin_unlock(&gdev->lock);
		return -EAGAIN;
	}
	p = &gdev->core.policy->params[index];
	spin_unlock(&gdev->lock);
	/* @p stays valid: the device holds a reference on its module */
	if (!p->names)
		return sysfs_emit(buf, "%llu..%llu\n", p->min, p->max);
	for (i = 0; i <= p->max; i++)
		len += sysfs_emit_at(buf, len, "%s%s", i ? " " : "",
				     p->names[i]);
	len += sysfs_emit_at(buf, len, "\n");
	return len;
}

static ssize_t gputbs_param_store(struct device *dev,
				  struct device_attribute *attr,
				  const char *buf, size_t count)
{
	struct gputbs_device *gdev;
	u32 index;
	u64 val, now;
	int ret;

	ret = gputbs_admin_check();
	if (ret)
		return ret;
	gdev = gputbs_param_index(dev, attr, &index);
	ret = gputbs_dev_lock_sync(gdev, &now);
	if (!ret && gdev->core.policy != gdev->params.ops)
		ret = -EAGAIN;
	if (!ret)
		ret = gtbs_policy_param_parse(&gdev->core.policy->params[index],
					      buf, &val);
	if (!ret)
		ret = gtbs_policy_param_set(&gdev->core, index, val, now);
	if (!ret) {
		gtbs_dev_kick(&gdev->core, now);
		gputbs_dev_sync(gdev);
	}
	spin_unlock(&gdev->lock);
	return ret ?: count;
}

/* Build policy_params/ for @ops.  &gputbs_device.cfg_lock held. */
static int gputbs_params_create(struct gputbs_device *gdev,
				const struct gtbs_policy_ops *ops)
{
	struct gputbs_params *pa = &gdev->params;
	u32 i;
	int ret;

	lockdep_assert_held(&gdev->cfg_lock);
	memset(pa->attrs, 0, sizeof(pa->attrs));
	for (i = 0; i < ops->nr_params; i++) {
		struct device_attribute *da = &pa->dattrs[i];

		sysfs_attr_init(&da->attr);
		da->attr.name = ops->params[i].name;
		da->attr.mode = 0644;
		da->show = gputbs_param_show;
		da->store = gputbs_param_store;
		pa->attrs[i] = &da->attr;
		/* beside it, <param>_range (names are at most 31 characters) */
		da = &pa->rattrs[i];
		snprintf(pa->rnames[i], sizeof(pa->rnames[i]), "%s_range",
			 ops->params[i].name);
		sysfs_attr_init(&da->attr);
		da->attr.name = pa->rnames[i];
		da->attr.mode = 0444;
		da->show = gputbs_param_range_show;
		pa->attrs[ops->nr_params + i] = &da->attr;
	}
	pa->group.name = "policy_params";
	pa->group.attrs = pa->attrs;
	pa->ops = ops;
	ret = sysfs_create_group(&gdev->misc.this_device->kobj, &pa->group);
	if (ret)
		pa->ops = NULL;
	return ret;
}

/**
 * gputbs_policy_params_changed() - rebuild policy_params/ for the policy
 * @gdev: the registered device.
 *
 * Called after every policy switch and once after misc_register(): if
 * the device's policy is not the one the directory shows, the directory
 * is removed and created for the current policy (an empty directory for
 * a policy without parameters).  A failure to create it is logged; the
 * policy switch itself stands.
 *
 * Context: process context, may sleep; takes &gputbs_device.cfg_lock.
 */
void gputbs_policy_params_changed(struct gputbs_device *gdev)
{
	const struct gtbs_policy_ops *ops;
	int ret;

	if (!gdev->misc.this_device)
		return;		/* not registered yet: init creates it */
	mutex_lock(&gdev->cfg_lock);
	spin_lock(&gdev->lock);
	ops = gdev->core.policy;
	spin_unlock(&gdev->lock);
	if (ops != gdev->params.ops) {
		if (gdev->params.ops)
			sysfs_remove_group(&gdev->misc.this_device->kobj,
					   &gdev->params.group);
		gdev->params.ops = NULL;
		ret = gputbs_params_create(gdev, ops);
		if (ret)
			pr_warn("gputbs: policy_params/ for %s: error %d\n",
				ops->name, ret);
	}
	mutex_unlock(&gdev->cfg_lock);
}

/**
 * gputbs_policy_params_remove() - remove policy_params/
 * @gdev: the device, before misc_deregister().
 *
 * Context: process context, may sleep; takes &gputbs_device.cfg_lock.
 */
void gputbs_policy_params_remove(struct gputbs_device *gdev)
{
	mutex_lock(&gdev->cfg_lock);
	if (gdev->params.ops)
		sysfs_remove_group(&gdev->misc.this_device->kobj,
				   &gdev->params.group);
	gdev->params.ops = NULL;
	mutex_unlock(&gdev->cfg_lock);
}
