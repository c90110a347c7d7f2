// SPDX-License-Identifier: GPL-2.0
/*
 * parallel.c - par_for(): a numbered list of independent items on worker
 * threads (parallel.h).
 *
 * The workers share one counter, the next item to hand out, and the
 * lowest item that failed so far, both under one mutex; an item's own
 * work runs outside it.  A worker stops when the counter passes the last
 * item or an item has failed.
 *
 * Copyright (C) 2026 The gputbs developers
 */
#include <pthread.h>
#include <stdbool.h>

#include "parallel.h"

struct par_pool {
	size_t n;
	par_fn *fn;
	par_progress_fn *progress;
	void *arg;
	pthread_mutex_t lock;	/* protects everything below */
	size_t next;		/* the next item to hand out */
	size_t done;		/* items that succeeded */
	bool failed;		/* an item failed: hand out no more */
	size_t first;		/* with @failed, the lowest item that failed */
	int err;		/* with @failed, @first's error */
	const char *why;	/* with @failed, @first's why */
};

static void *par_worker(void *data)
{
	struct par_pool *pool = data;
	const char *why;
	size_t i;
	int ret;

	for (;;) {
		pthread_mutex_lock(&pool->lock);
		if (pool->failed || pool->next >= pool->n) {
			pthread_mutex_unlock(&pool->lock);
			return NULL;
		}
		i = pool->next++;
		pthread_mutex_unlock(&pool->lock);
		why = NULL;
		ret = pool->fn(pool->arg, i, &why);
		pthread_mutex_lock(&pool->lock);
		if (ret && (!pool->failed || i < pool->first)) {
			pool->failed = true;
			pool->first = i;
			pool->err = ret;
			pool->why = why;
		} else if (!ret && pool->progress) {
			pool->progress(pool->arg, ++pool->done, pool->n);
		}
		pthread_mutex_unlock(&pool->lock);
	}
}

int par_for(size_t n, unsigned int jobs, par_fn *fn,
	    par_progress_fn *progress, void *arg, size_t *failed,
	    const char **why)
{
	struct par_pool pool = {
		.n = n, .fn = fn, .progress = progress, .arg = arg,
	};
	pthread_t tids[PAR_MAX_JOBS];
	unsigned int t, nr;

	if (jobs > PAR_MAX_JOBS)
		jobs = PAR_MAX_JOBS;
	/* no more threads than items: the caller is one of them */
	nr = jobs > 1 ? jobs - 1 : 0;
	if (n && nr > n - 1)
		nr = n - 1;
	pthread_mutex_init(&pool.lock, NULL);
	for (t = 0; t < nr; t++)
		if (pthread_create(&tids[t], NULL, par_worker, &pool))
			break;
	par_worker(&pool);
	while (t--)
		pthread_join(tids[t], NULL);
	pthread_mutex_destroy(&pool.lock);
	if (!pool.failed)
		return 0;
	if (failed)
		*failed = pool.first;
	if (why)
		*why = pool.why;
	return pool.err;
}
