/* SPDX-License-Identifier: GPL-2.0 */
/*
 * gtbs_policy_module.h - build one policy source as a kernel module and
 * as a simulator plug-in.
 *
 * Copyright (C) 2026 The gputbs developers
 */
#ifndef _GTBS_POLICY_MODULE_H
#define _GTBS_POLICY_MODULE_H

#include "gtbs.h"

/**
 * DOC: Policy modules and plug-ins
 *
 * A policy outside gputbs is one C file that uses only the public API of
 * gtbs.h (&struct gtbs_policy_ops, the private areas, the parameters) and
 * ends with GTBS_POLICY_MODULE().  The same file builds two ways:
 *
 * - In the kernel (Kbuild, ``make samples``), a module that registers the
 *   policy when it is loaded (``insmod``, after gputbs.ko, whose exported
 *   gtbs_policy_register() it links to) and withdraws it when it is
 *   unloaded.  A device that uses the policy holds a reference on the
 *   module (&gtbs_policy_ops.owner, THIS_MODULE), so ``rmmod`` is refused
 *   while one does.
 * - In userland (``-fPIC -shared``), a shared object that exports one
 *   symbol, %GTBS_POLICY_PLUGIN_SYMBOL, a pointer to the ops.
 *   ``gputbs-sim --policy-plugin FILE.so`` dlopen()s the file, looks the
 *   symbol up with dlsym(), checks the ops (gtbs_policy_check()) and
 *   registers them; the core's functions the policy calls are resolved
 *   against the simulator, which exports them.
 *
 * Documentation/scheduling.rst, "Writing a policy", is the tutorial;
 * samples/policies/ has two complete policies.
 */

/**
 * GTBS_POLICY_PLUGIN_SYMBOL - the symbol a plug-in exports
 *
 * Its type is ``const struct gtbs_policy_ops *const``: the address of
 * the policy's ops, defined by GTBS_POLICY_MODULE() in userland.
 */
#define GTBS_POLICY_PLUGIN_SYMBOL	"gtbs_plugin_policy"

#ifdef __KERNEL__

#include <linux/init.h>
#include <linux/module.h>

/**
 * GTBS_POLICY_MODULE() - make a policy a module (kernel) or a plug-in
 * (userland)
 * @ops: the policy's &struct gtbs_policy_ops, a variable of the file
 *	(static const is fine), with &gtbs_policy_ops.owner THIS_MODULE.
 * @desc: a string literal that says what the policy is, for modinfo.
 *
 * In the kernel: module_init() and module_exit() functions (named after
 * @ops) that call gtbs_policy_register() (the module fails to load with
 * its error: -EINVAL, -EEXIST for a name already registered, -ENOSPC) and
 * gtbs_policy_unregister(), with MODULE_LICENSE("GPL") (the policy API is
 * EXPORT_SYMBOL_GPL) and MODULE_DESCRIPTION(@desc).  In userland: the
 * exported constants %GTBS_POLICY_PLUGIN_SYMBOL, pointing at @ops, and
 * ``gtbs_plugin_description``, @desc.  Use it once per file, at file
 * scope, after @ops.
 */
#define GTBS_POLICY_MODULE(ops, desc)					\
	static const struct gtbs_policy_ops *const ops##_module = &(ops); \
	static int __init ops##_module_init(void)			\
	{								\
		return gtbs_policy_register(ops##_module);		\
	}								\
	module_init(ops##_module_init);					\
	static void __exit ops##_module_exit(void)			\
	{								\
		gtbs_policy_unregister(ops##_module);			\
	}								\
	module_exit(ops##_module_exit);					\
	MODULE_LICENSE("GPL");						\
	MODULE_DESCRIPTION(desc)

#else /* !__KERNEL__ */

/*
 * The plug-in's exported symbols (plug-ins are built with
 * -fvisibility=hidden), found by the simulator with dlsym().
 */
#define GTBS_POLICY_MODULE(ops, desc)					\
	extern const struct gtbs_policy_ops *const gtbs_plugin_policy	\
		__attribute__((visibility("default")));			\
	const struct gtbs_policy_ops *const gtbs_plugin_policy = &(ops); \
	extern const char gtbs_plugin_description[]			\
		__attribute__((visibility("default")));			\
	const char gtbs_plugin_description[] = desc

#endif /* __KERNEL__ */

#endif /* _GTBS_POLICY_MODULE_H */
