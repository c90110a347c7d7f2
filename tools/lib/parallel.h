/* SPDX-License-Identifier: GPL-2.0 */
/*
 * parallel.h - a numbered list of independent items run on worker
 * threads, with the first failure the same whatever the number of threads;
 * shared by gputbs-sim eval (the pairwise sweep), gputbs-sim sweep and
 * gputbs-sim run / eval --scenario (every workload under every policy).
 *
 * Copyright (C) 2026 The gputbs developers
 */
#ifndef _GPUTBS_PARALLEL_H
#define _GPUTBS_PARALLEL_H

#include <stddef.h>

/* the most threads par_for() starts (--jobs' upper bound) */
#define PAR_MAX_JOBS	256

/**
 * typedef par_fn - one item's work
 * @arg: par_for()'s @arg.
 * @i: the item, 0..n-1.
 * @why: out: on failure, why (a static string).
 *
 * Called on any of the worker threads, each item once; it must touch only
 * what belongs to item @i (or take its own lock).
 *
 * Return: 0, or a negative errno: the item failed.
 */
typedef int par_fn(void *arg, size_t i, const char **why);

/**
 * typedef par_progress_fn - told after each item that succeeded
 * @arg: par_for()'s @arg.
 * @done: items done so far, 1..@n.
 * @n: par_for()'s @n.
 *
 * Called under par_for()'s lock, one call at a time, @done increasing.
 */
typedef void par_progress_fn(void *arg, size_t done, size_t n);

/**
 * par_for() - run @fn on every item 0..@n-1 on up to @jobs threads
 * @n: items; 0 runs nothing.
 * @jobs: threads, the caller's included: 1 runs every item in the
 *	calling thread, in order; at most %PAR_MAX_JOBS (more are capped), and
 *	fewer when pthread_create() fails (at least the caller's).
 * @fn: the work of one item.
 * @progress: NULL, or told after each item that succeeded.
 * @arg: passed to @fn and @progress.
 * @failed: out, may be NULL: on failure, the item that failed.
 * @why: out, may be NULL: on failure, that item's why.
 *
 * Items are handed out in increasing order, and once an item has failed
 * no further one is: the items already handed out finish.  So every item
 * below the lowest failing one ran and succeeded, as in a loop that stops
 * at its first failure, and the failure reported is that loop's whatever
 * @jobs: the lowest item that failed.  The results are the same for every
 * @jobs when each item's are its own.
 *
 * Context: any thread; not reentrant from within @fn.
 * Return: 0, or the lowest failing item's negative errno.
 */
int par_for(size_t n, unsigned int jobs, par_fn *fn,
	    par_progress_fn *progress, void *arg, size_t *failed,
	    const char **why);

#endif /* _GPUTBS_PARALLEL_H */
