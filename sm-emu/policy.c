// SPDX-License-Identifier: GPL-2.0
/*
 * policy.c - the registry of thread block scheduling policies and their
 * parameters.
 *
 * Copyright (C) 2026 The gputbs developers
 */

/**
 * DOC: Policy registry
 *
 * Policies register themselves, the kernel's way (tcp_congestion_ops,
 * the elevator, sched_ext): gtbs_policy_register() checks the ops
 * (gtbs_policy_check(): the required op, a valid unique name, private
 * areas and parameters that fit) and appends them;
 * gtbs_policy_unregister() removes them.  The built-ins are registered the
 * same way by their owner at start-up (gtbs_policy_register_builtins():
 * the module's init, the simulator's main, the unit tests), in the order
 * the sysfs selector lists them and ``gputbs-sim eval`` sweeps them: the
 * paper's online policies, then the oracle baselines (srtf-oracle, the
 * serial sjf and ljf).  Policies from elsewhere follow in registration
 * order: a policy module (``insmod``) or a simulator plug-in
 * (``--policy-plugin FILE.so``).
 *
 * A device that uses a policy holds a reference on the policy's module
 * (gtbs_policy_get(), gtbs_policy_put()): ``rmmod`` of a policy module in
 * use is refused by the module loader, with EBUSY from delete_module(2)
 * ("Module ... is in use"), until every device has switched away.
 *
 * The registry is the one piece of core state shared by devices and
 * serialised by the core itself, with its own lock (a spinlock in the
 * module; userland registers from one thread before it runs devices).
 *
 * A policy's parameters (&struct gtbs_policy_param) are data: the core
 * sets their defaults at attach and range-checks every change, and owners
 * expose them generically (sysfs ``policy_params/``, netlink,
 * ``gputbs-sim --param``).
 */
#include "gtbs.h"
#include "gtbs_names.h"

static GTBS_DEFINE_LOCK(gtbs_policy_reg_lock);

/* Registered policies, in registration order.  gtbs_policy_reg_lock. */
static const struct gtbs_policy_ops *gtbs_policies[GTBS_MAX_POLICIES];
/* Entries used in gtbs_policies[].  gtbs_policy_reg_lock. */
static unsigned int gtbs_nr_policies;

/* The built-ins, in the order they are registered. */
static const struct gtbs_policy_ops * const gtbs_builtins[] = {
	&gtbs_policy_fifo,
	&gtbs_policy_mpmax,
	&gtbs_policy_srtf,
	&gtbs_policy_srtf_adaptive,
	&gtbs_policy_srtf_oracle,
	&gtbs_policy_sjf,
	&gtbs_policy_ljf,
	&gtbs_policy_fair,
};

/**
 * gtbs_policy_lock() - take the registry's lock
 *
 * For owners that walk the registry with gtbs_policy_at() (the sysfs
 * selector's list) while policy modules may come and go.  Pair with
 * gtbs_policy_unlock(); do not sleep in between.
 *
 * Context: process context in the module (a spinlock); not nested in the
 * device lock.
 */
void gtbs_policy_lock(void)
	__acquires(&gtbs_policy_reg_lock)
{
	gtbs_lock(&gtbs_policy_reg_lock);
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_policy_lock);

/**
 * gtbs_policy_unlock() - release the registry's lock
 *
 * Context: after gtbs_policy_lock().
 */
void gtbs_policy_unlock(void)
	__releases(&gtbs_policy_reg_lock)
{
	gtbs_unlock(&gtbs_policy_reg_lock);
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_policy_unlock);

static bool gtbs_name_ok(const char *name, const char *extra, size_t len)
{
	size_t i, n = name ? strlen(name) : 0;

	if (!n || n >= len)
		return false;
	for (i = 0; i < n; i++) {
		char c = name[i];

		if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
		      strchr(extra, c)))
			return false;
	}
	return true;
}

static int gtbs_param_check(const struct gtbs_policy_ops *ops,
			    const struct gtbs_policy_param *p,
			    const char **why)
{
	const struct gtbs_policy_param *q;
	size_t n;
	u64 i;

	if (!gtbs_name_ok(p->name, "_", GTBS_POLICY_NAME_LEN)) {
		*why = "a parameter name is not 1..31 of [a-z0-9_]";
		return -EINVAL;
	}
	n = strlen(p->name);
	if (n >= sizeof("_range") - 1 &&
	    !strcmp(p->name + n - (sizeof("_range") - 1), "_range")) {
		/* the module's sysfs file of a parameter's range is NAME_range */
		*why = "a parameter name ends in _range";
		return -EINVAL;
	}
	if (p->min > p->max || p->def < p->min || p->def > p->max) {
		*why = "a parameter's default is not within min..max";
		return -EINVAL;
	}
	if (p->offset % sizeof(u64) ||
	    p->offset + sizeof(u64) > ops->dev_priv_size) {
		*why = "a parameter's offset is not an aligned u64 within dev_priv_size";
		return -EINVAL;
	}
	if (p->names) {
		if (p->min || p->max >= 64) {
			*why = "a named parameter's values are not 0..max < 64";
			return -EINVAL;
		}
		for (i = 0; i <= p->max; i++)
			if (!p->names[i] || !p->names[i][0]) {
				*why = "a named parameter lacks a value's name";
				return -EINVAL;
			}
	}
	for (q = ops->params; q < p; q++)
		if (!strcmp(q->name, p->name)) {
			*why = "two parameters have the same name";
			return -EINVAL;
		}
	return 0;
}

/**
 * gtbs_policy_check() - whether ops may be registered
 * @ops: the policy.
 * @why: out: on error, a reason for people.
 *
 * Checks what gtbs_policy_register() requires: a name of 1..31 of
 * [a-z0-9_-], &gtbs_policy_ops.pick_grid, private sizes within their
 * areas (%GTBS_POLICY_DEV_PRIV_SIZE and the like) and valid parameters.
 *
 * Context: any.
 * Return: 0, or -EINVAL with @why set.
 */
int gtbs_policy_check(const struct gtbs_policy_ops *ops, const char **why)
{
	u32 i;
	int ret;

	if (!gtbs_name_ok(ops->name, "-_", GTBS_POLICY_NAME_LEN)) {
		*why = "the name is not 1..31 of [a-z0-9_-]";
		return -EINVAL;
	}
	if (!ops->pick_grid) {
		*why = "pick_grid is required";
		return -EINVAL;
	}
	if (ops->dev_priv_size > GTBS_POLICY_DEV_PRIV_SIZE ||
	    ops->sm_priv_size > GTBS_POLICY_SM_PRIV_SIZE ||
	    ops->grid_priv_size > GTBS_POLICY_GRID_PRIV_SIZE ||
	    ops->grid_sm_priv_size > GTBS_POLICY_GRID_SM_PRIV_SIZE ||
	    ops->tenant_priv_size > GTBS_POLICY_TENANT_PRIV_SIZE) {
		*why = "a private size exceeds its area (GTBS_POLICY_*_PRIV_SIZE)";
		return -EINVAL;
	}
	if (ops->nr_params > GTBS_MAX_POLICY_PARAMS ||
	    (ops->nr_params && !ops->params)) {
		*why = "more than GTBS_MAX_POLICY_PARAMS parameters, or none given";
		return -EINVAL;
	}
	for (i = 0; i < ops->nr_params; i++) {
		ret = gtbs_param_check(ops, &ops->params[i], why);
		if (ret)
			return ret;
	}
	return 0;
}
EXPORT_SYMBOL_GPL(gtbs_policy_check);

/* The registered policy named @name (@len bytes).  Registry lock held. */
static const struct gtbs_policy_ops *gtbs_policy_lookup(const char *name,
							size_t len)
{
	unsigned int i;

	for (i = 0; i < gtbs_nr_policies; i++) {
		const char *p = gtbs_policies[i]->name;

		if (strlen(p) == len && !strncmp(p, name, len))
			return gtbs_policies[i];
	}
	return NULL;
}

/**
 * gtbs_policy_register() - make a policy available to every device
 * @ops: the policy; it must stay valid until gtbs_policy_unregister().
 *
 * Logs the reason of a refusal (kernel log, or stderr in userland).
 *
 * Context: process context (module init); takes the registry lock.
 * Return: 0; -EINVAL if gtbs_policy_check() refuses @ops; -EEXIST if a
 * policy of that name is registered; -ENOSPC if %GTBS_MAX_POLICIES are.
 */
int gtbs_policy_register(const struct gtbs_policy_ops *ops)
{
	const char *why;
	int ret;

	ret = gtbs_policy_check(ops, &why);
	if (ret) {
		gtbs_pr_err("policy '%s' refused: %s\n",
			    ops->name ? ops->name : "(null)", why);
		return ret;
	}
	gtbs_lock(&gtbs_policy_reg_lock);
	if (gtbs_policy_lookup(ops->name, strlen(ops->name))) {
		why = "a policy of that name is registered";
		ret = -EEXIST;
	} else if (gtbs_nr_policies == GTBS_MAX_POLICIES) {
		why = "GTBS_MAX_POLICIES policies are registered";
		ret = -ENOSPC;
	} else {
		gtbs_policies[gtbs_nr_policies++] = ops;
	}
	gtbs_unlock(&gtbs_policy_reg_lock);
	if (ret)
		gtbs_pr_err("policy '%s' refused: %s\n", ops->name, why);
	return ret;
}
EXPORT_SYMBOL_GPL(gtbs_policy_register);

/**
 * gtbs_policy_unregister() - withdraw a policy
 * @ops: a registered policy that no device uses.  In the module no device
 *	can: each holds a reference on the policy's module, so a module's
 *	exit runs only once none does.
 *
 * Devices can no longer select it; the order of the others is kept.
 *
 * Context: process context (module exit); takes the registry lock.
 */
void gtbs_policy_unregister(const struct gtbs_policy_ops *ops)
{
	unsigned int i;

	gtbs_lock(&gtbs_policy_reg_lock);
	for (i = 0; i < gtbs_nr_policies; i++) {
		if (gtbs_policies[i] != ops)
			continue;
		memmove(&gtbs_policies[i], &gtbs_policies[i + 1],
			(gtbs_nr_policies - i - 1) * sizeof(gtbs_policies[0]));
		gtbs_nr_policies--;
		break;
	}
	gtbs_unlock(&gtbs_policy_reg_lock);
}
EXPORT_SYMBOL_GPL(gtbs_policy_unregister);

/**
 * gtbs_policy_registered() - whether a policy is still registered
 * @ops: a policy the caller found earlier.
 *
 * For owners whose policies may be withdrawn while a device selects one
 * (a BPF policy detached between gtbs_policy_get() and the switch).
 *
 * Context: any but under the registry lock; takes it.
 * Return: true if @ops is registered.
 */
bool gtbs_policy_registered(const struct gtbs_policy_ops *ops)
{
	unsigned int i;
	bool found = false;

	gtbs_lock(&gtbs_policy_reg_lock);
	for (i = 0; i < gtbs_nr_policies && !found; i++)
		found = gtbs_policies[i] == ops;
	gtbs_unlock(&gtbs_policy_reg_lock);
	return found;
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_policy_registered);

/**
 * gtbs_policy_register_builtins() - register fifo, mpmax, srtf,
 * srtf-adaptive, srtf-oracle, sjf and ljf, in that order
 *
 * Context: process context, once, before any other registration.
 * Return: 0, or the first error of gtbs_policy_register(), with none of
 * the built-ins left registered.
 */
int gtbs_policy_register_builtins(void)
{
	unsigned int i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(gtbs_builtins); i++) {
		ret = gtbs_policy_register(gtbs_builtins[i]);
		if (ret) {
			while (i--)
				gtbs_policy_unregister(gtbs_builtins[i]);
			return ret;
		}
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_policy_register_builtins);

/**
 * gtbs_policy_unregister_builtins() - undo gtbs_policy_register_builtins()
 *
 * Context: process context, when no device uses a built-in.
 */
void gtbs_policy_unregister_builtins(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(gtbs_builtins); i++)
		gtbs_policy_unregister(gtbs_builtins[i]);
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_policy_unregister_builtins);

/**
 * gtbs_policy_at() - the registered policy at an index
 * @index: 0-based, in registration order.
 *
 * Context: registry lock held (gtbs_policy_lock()) where policies may be
 * registered concurrently (the module); any in userland.
 * Return: the policy, or NULL past the last one.
 */
const struct gtbs_policy_ops *gtbs_policy_at(unsigned int index)
{
	return index < gtbs_nr_policies ? gtbs_policies[index] : NULL;
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_policy_at);

/**
 * gtbs_policy_find() - look a registered policy up by name
 * @name: policy name, NUL-terminated; one trailing newline is ignored
 *	(sysfs writes end with one).
 *
 * Context: as gtbs_policy_at(); a device that will use the policy takes
 * it with gtbs_policy_get() instead.
 * Return: the policy, or NULL if no registered policy has that name.
 */
const struct gtbs_policy_ops *gtbs_policy_find(const char *name)
{
	size_t len = strlen(name);

	if (len && name[len - 1] == '\n')
		len--;
	return gtbs_policy_lookup(name, len);
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_policy_find);

/**
 * gtbs_policy_get() - look a policy up and take a reference for a device
 * @name: as for gtbs_policy_find().
 *
 * Context: process context; takes the registry lock.
 * Return: the policy, whose owner module cannot be unloaded until
 * gtbs_policy_put(); NULL if none has that name or its module is going.
 */
const struct gtbs_policy_ops *gtbs_policy_get(const char *name)
{
	const struct gtbs_policy_ops *ops;

	gtbs_lock(&gtbs_policy_reg_lock);
	ops = gtbs_policy_find(name);
	if (ops && !gtbs_module_get(ops->owner))
		ops = NULL;
	gtbs_unlock(&gtbs_policy_reg_lock);
	return ops;
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_policy_get);

/**
 * gtbs_policy_get_ref() - take another reference on a policy in use
 * @ops: a policy the caller already holds a reference on.
 *
 * Context: any.
 * Return: true (a held module cannot be going); false if it were.
 */
bool gtbs_policy_get_ref(const struct gtbs_policy_ops *ops)
{
	return gtbs_module_get(ops->owner);
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_policy_get_ref);

/**
 * gtbs_policy_put() - drop a reference taken by gtbs_policy_get()
 * @ops: the policy, no longer used by the device that took it.
 *
 * Context: any (module_put() does not sleep).
 */
void gtbs_policy_put(const struct gtbs_policy_ops *ops)
{
	if (ops)
		gtbs_module_put(ops->owner);
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_policy_put);

/**
 * gtbs_policy_param_find() - a policy's parameter by name
 * @ops: the policy.
 * @name: the parameter's name; one trailing newline is ignored.
 *
 * Context: any.
 * Return: its index in &gtbs_policy_ops.params, or -ENOENT.
 */
int gtbs_policy_param_find(const struct gtbs_policy_ops *ops,
			   const char *name)
{
	size_t len = strlen(name);
	u32 i;

	if (len && name[len - 1] == '\n')
		len--;
	for (i = 0; i < ops->nr_params; i++)
		if (strlen(ops->params[i].name) == len &&
		    !strncmp(ops->params[i].name, name, len))
			return i;
	return -ENOENT;
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_policy_param_find);

static u64 *gtbs_param_slot(const struct gtbs_dev *dev, u32 index)
{
	return (u64 *)((char *)dev->policy_priv +
		       dev->policy->params[index].offset);
}

/**
 * gtbs_policy_param_get() - a parameter of the device's policy
 * @dev: the device.
 * @index: below &gtbs_policy_ops.nr_params of &gtbs_dev.policy.
 *
 * Context: device lock held.
 * Return: its value, in the parameter's unit.
 */
u64 gtbs_policy_param_get(const struct gtbs_dev *dev, u32 index)
{
	gtbs_lockdep_assert_held(dev);
	return *gtbs_param_slot(dev, index);
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_policy_param_get);

/**
 * gtbs_policy_param_set() - change a parameter of the device's policy
 * @dev: the device.
 * @index: below &gtbs_policy_ops.nr_params of &gtbs_dev.policy.
 * @value: the new value, in the parameter's unit.
 * @now: the emulated cycle of the change, which the device has been run
 *	to; the policy's &gtbs_policy_ops.param_set sees it.
 *
 * Context: device lock held.
 * Return: 0; -EINVAL if @index is not a parameter of the policy; -ERANGE
 * if @value is outside its min..max (nothing changes).
 */
int gtbs_policy_param_set(struct gtbs_dev *dev, u32 index, u64 value,
			  u64 now)
{
	const struct gtbs_policy_param *p;

	gtbs_lockdep_assert_held(dev);
	if (index >= dev->policy->nr_params)
		return -EINVAL;
	p = &dev->policy->params[index];
	if (value < p->min || value > p->max)
		return -ERANGE;
	if (*gtbs_param_slot(dev, index) == value)
		return 0;
	*gtbs_param_slot(dev, index) = value;
	if (dev->policy->param_set)
		dev->policy->param_set(dev, index, now);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_policy_param_set);

/**
 * gtbs_policy_param_parse() - a parameter value from text
 * @param: the parameter.
 * @text: a decimal number, or one of @param's value names; one trailing
 *	newline is ignored.
 * @value: out: the value.  Not range-checked (gtbs_policy_param_set()
 *	does that).
 *
 * Context: any.
 * Return: 0, or -EINVAL if @text is neither.
 */
int gtbs_policy_param_parse(const struct gtbs_policy_param *param,
			    const char *text, u64 *value)
{
	size_t len = strlen(text);
	u64 v = 0;
	size_t i;

	if (len && text[len - 1] == '\n')
		len--;
	if (param->names)
		for (i = 0; i <= param->max; i++)
			if (strlen(param->names[i]) == len &&
			    !strncmp(param->names[i], text, len)) {
				*value = i;
				return 0;
			}
	if (!len || len > 20)
		return -EINVAL;
	for (i = 0; i < len; i++) {
		u64 d = text[i] - '0';

		if (text[i] < '0' || text[i] > '9' ||
		    v > (U64_MAX - d) / 10)
			return -EINVAL;
		v = v * 10 + d;
	}
	*value = v;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_policy_param_parse);

/**
 * gtbs_sm_sharing() - whether an SM runs in its policy's sharing mode
 * @dev: the device.
 * @sm: one of its SMs.
 *
 * Context: device lock held.
 * Return: &gtbs_policy_ops.sm_sharing of the device's policy, or false.
 */
bool gtbs_sm_sharing(const struct gtbs_dev *dev, const struct gtbs_sm *sm)
{
	return dev->policy->sm_sharing ? dev->policy->sm_sharing(dev, sm) :
					 false;
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_sm_sharing);

/**
 * gtbs_pick_reason_name() - name of an &enum gtbs_pick_reason
 * @reason: the reason.
 *
 * Context: any.
 * Return: "policy", "shorter", "sample", "share", "limit", or "?".
 */
const char *gtbs_pick_reason_name(u32 reason)
{
	static const char * const names[GTBS_NR_PICK_REASONS] = {
		GTBS_PICK_REASON_NAMES(GTBS_PICK_)
	};

	return reason < GTBS_NR_PICK_REASONS ? names[reason] : "?";
}
EXPORT_SYMBOL_IF_KUNIT(gtbs_pick_reason_name);
