/* SPDX-License-Identifier: GPL-2.0 */
/*
 * gtbs_shim.h - the only header the portable core includes.
 *
 * The portable core (sm-emu/) builds into the kernel module and into
 * userland (simulator, unit tests, fuzzers).  In the kernel this shim
 * includes the kernel headers the core uses; in userland it includes
 * tools/include/gtbs_shim_user.h, which provides the same names (fixed-width
 * types, 64-bit division, list_head, errno values) on top of libc, as the
 * kernel's own tools/include does.  No floating point anywhere in the core.
 *
 * Copyright (C) 2026 The gputbs developers
 */
#ifndef _GTBS_SHIM_H
#define _GTBS_SHIM_H

#ifdef __KERNEL__

#include <kunit/visibility.h>
#include <linux/bits.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/math64.h>
#include <linux/lockdep.h>
#include <linux/minmax.h>
#include <linux/spinlock_types.h>
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

#else /* !__KERNEL__ */

/* Userland: the same names from libc (tools/include/gtbs_shim_user.h). */
#include "../tools/include/gtbs_shim_user.h"

/* Userland owners serialise a device without a kernel lock: no check. */
#define gtbs_lockdep_assert_held(dev)	((void)(dev))

#endif /* __KERNEL__ */

#endif /* _GTBS_SHIM_H */
