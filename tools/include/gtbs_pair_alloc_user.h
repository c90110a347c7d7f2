/* SPDX-License-Identifier: GPL-2.0 */
/*
 * gtbs_pair_alloc_user.h - libc's allocator for a userland device's
 * per-(grid, SM) states (&struct gtbs_pair_alloc, sm-emu/gtbs.h).
 *
 * The portable core references no allocator; the simulator, the unit
 * tests, the fuzzers and the benchmarks lend it this one:
 *
 *	dev->pair_alloc = &gtbs_pair_alloc_libc;
 *
 * Copyright (C) 2026 The gputbs developers
 */
#ifndef GTBS_PAIR_ALLOC_USER_H
#define GTBS_PAIR_ALLOC_USER_H

#include <stdlib.h>

static inline void *gtbs_pair_zalloc_libc(size_t size)
{
	return calloc(1, size);
}

static inline void gtbs_pair_free_libc(void *p)
{
	free(p);
}

static const struct gtbs_pair_alloc gtbs_pair_alloc_libc
	__attribute__((unused)) = {
	.zalloc = gtbs_pair_zalloc_libc,
	.free = gtbs_pair_free_libc,
};

#endif /* GTBS_PAIR_ALLOC_USER_H */
