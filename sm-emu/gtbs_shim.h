/* SPDX-License-Identifier: GPL-2.0 */
/*
 * gtbs_shim.h - the only header the portable core includes.
 *
 * The portable core (sm-emu/) builds into the kernel module and into
 * userland (simulator, unit tests, fuzzers).  In the kernel this shim
 * includes the kernel headers the core uses; in userland it includes
 * tools/include/gtbs_shim_user.h, which provides the same names (fixed-width
 * types, 64-bit division, list_head, the bitmap subset, errno values) on top
 * of libc, as the kernel's own tools/include does.  The red-black trees
 * (rb_root_cached, rb_add_cached()) are the kernel's own in both: in
 * userland <linux/rbtree.h> is tools/include/linux/rbtree.h and the code
 * tools/lib/rbtree.c of Linux 6.12, taken from the linux-source-6.12
 * package at build time (tools/lib/rbtree.mk).  No floating point anywhere
 * in the core.
 *
 * Copyright (C) 2026 The gputbs developers
 */
#ifndef _GTBS_SHIM_H
#define _GTBS_SHIM_H

#ifdef __KERNEL__

#include <kunit/visibility.h>
#include <linux/bitmap.h>
#include <linux/bitops.h>
#include <linux/bits.h>
#include <linux/build_bug.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/math64.h>
#include <linux/lockdep.h>
#include <linux/minmax.h>
#include <linux/module.h>
#include <linux/printk.h>
#include <linux/rbtree.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/types.h>

/*
 * gtbs_lockdep_assert_held() - the core's entry points assert the owner's
 * device lock (&gtbs_dev.lock, when the owner set it) under lockdep.
 */
#ifdef CONFIG_LOCKDEP
#define gtbs_lockdep_assert_held(dev)					\
	do {								\
		spinlock_t *__gtbs_lock = (dev)->lock;			\
									\
		if (__gtbs_lock)					\
			lockdep_assert_held(__gtbs_lock);		\
	} while (0)
#else
#define gtbs_lockdep_assert_held(dev)	((void)(dev))
#endif

/*
 * The policy registry (policy.c) is the one piece of core state shared by
 * devices: its own lock, and references on the module that owns a policy
 * (try_module_get() on the policy module, as tcp_congestion_ops does; the
 * built-ins, owned by gputbs.ko itself, need none).  Messages for people go
 * to the kernel log.
 */
#define GTBS_DEFINE_LOCK(name)		DEFINE_SPINLOCK(name)
#define gtbs_lock(l)			spin_lock(l)
#define gtbs_unlock(l)			spin_unlock(l)
#define gtbs_pr_err(fmt, ...)		pr_err("gputbs: " fmt, ##__VA_ARGS__)

/* Only policy.c, built into gputbs.ko, calls these: THIS_MODULE is gputbs. */
static inline bool gtbs_module_get(struct module *m)
{
	return m == THIS_MODULE || try_module_get(m);
}

static inline void gtbs_module_put(struct module *m)
{
	if (m != THIS_MODULE)
		module_put(m);
}

#else /* !__KERNEL__ */

/* Userland: the same names from libc (tools/include/gtbs_shim_user.h). */
#include "../tools/include/gtbs_shim_user.h"
/*
 * The kernel's tools/include/linux/rbtree.h, alone in its include directory
 * (tools/lib/rbtree.mk): its container_of(), READ_ONCE() and bool come from
 * the shim above; its own <linux/kernel.h> and <linux/stddef.h> resolve to
 * the libc's uapi headers, which it does not need.
 */
#include <linux/rbtree.h>

/* Userland owners serialise a device without a kernel lock: no check. */
#define gtbs_lockdep_assert_held(dev)	((void)(dev))

#endif /* __KERNEL__ */

#endif /* _GTBS_SHIM_H */
