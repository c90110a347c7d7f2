/* SPDX-License-Identifier: GPL-2.0 */
/*
 * harness.h - a virtual-time test device for the host unit tests.
 *
 * A device of N SMs driven by gtbs_dev_run_until() in pure virtual time,
 * with backend callbacks that record every block and grid event in a log
 * and (optionally) check every SM's resource invariants at every event.
 * Memory is owned here: h_free() releases the device, its SMs, its grids
 * and its log, so LeakSanitizer stays quiet.
 *
 * Copyright (C) 2026 The gputbs developers
 */
#ifndef GTBS_UNIT_HARNESS_H
#define GTBS_UNIT_HARNESS_H

#include <check.h>
#include <stdio.h>
#include <stdlib.h>

#include "gtbs.h"

/* Event kinds in &struct h_event.kind. */
enum h_ev_kind {
	H_EV_BLOCK_START = 1,
	H_EV_BLOCK_END,
	H_EV_GRID_START,
	H_EV_GRID_DONE,
	H_EV_GRID_TIMEOUT,
};

/*
 * One recorded event.  No padding (all members are 8 or 4 bytes in pairs),
 * so two logs can be compared with memcmp().  For grid events @sm and
 * @block are U32_MAX; for BLOCK_START @end is 0.
 */
struct h_event {
	u64 grid_id;
	u64 start;
	u64 end;
	u32 kind;
	u32 sm;
	u32 block;
	u32 pad;
};

struct h_dev {
	struct gtbs_dev dev;
	struct gtbs_sm **sms;
	/* event log */
	struct h_event *ev;
	size_t nr_ev, cap_ev;
	/* grids allocated by h_grid_new(), freed by h_free() */
	struct gtbs_grid **grids;
	size_t nr_grids, cap_grids;
	/* &gtbs_grid.throttle bits every arriving grid gets (throttle.c) */
	u32 arrive_throttle;
	/* backend.kick calls, total and per SM */
	u64 nr_kicks;
	u64 *sm_kicks;
	/* check invariants of every SM in every callback */
	bool check_every_event;
	unsigned int nr_checks;
	unsigned int violations;
	char violation[256];
	/* event cycles must never decrease (block/grid events) */
	u64 last_cycle;
	unsigned int nonmonotonic;
	/* devices still allocated, freed by the teardown after a failure */
	struct h_dev *live_next, *live_prev;
};

/* A device with @cfg (checked) and @policy (NULL: FIFO). */
struct h_dev *h_new(const struct gtbs_dev_config *cfg,
		    const struct gtbs_policy_ops *policy);
/*
 * A test case whose checked teardown frees every device a failed test left
 * behind (CK_FORK=no: a failed assertion skips the test's own h_free()),
 * so LeakSanitizer reports only real leaks; timeout 60 s (CK_FORK=yes).
 */
TCase *h_tcase(const char *name);

/*
 * Run @fn(@arg) in a child process; true if it returned within
 * @timeout_ms.  For calls that might never return.
 */
bool h_returns_within(void (*fn)(void *arg), void *arg, unsigned int timeout_ms);

/* The default (paper) device with @nr_sms SMs, FIFO. */
struct h_dev *h_new_sms(u32 nr_sms);
void h_free(struct h_dev *h);

/* A grid description with the given resources; label "test". */
struct gtbs_grid_desc h_desc(u32 blocks, u32 threads, u32 regs, u32 shmem,
			     u64 cycles);

/* Allocate and gtbs_grid_init() a grid; NULL (and *@err, *@why) on error. */
struct gtbs_grid *h_grid_new(struct h_dev *h, const struct gtbs_grid_desc *desc,
			     int *err, const char **why);
/*
 * Run to @now, init and submit a grid at @now, run to @now again (as the
 * KUnit suite does).  Fails the test if the grid is rejected.
 */
struct gtbs_grid *h_submit(struct h_dev *h, const struct gtbs_grid_desc *desc,
			   u64 now);
/* Run event by event until no block is resident; returns the last cycle. */
u64 h_drain(struct h_dev *h);

/* Check one SM's invariants; returns 0 or appends a message and returns 1. */
int h_check_sm(struct h_dev *h, const struct gtbs_sm *sm);
/* Check every SM; returns the number of SMs that violate an invariant. */
int h_check_all(struct h_dev *h);

/* Count events of @kind of grid @grid_id (U64_MAX: any grid). */
size_t h_count(const struct h_dev *h, u32 kind, u64 grid_id);
/* Index of the first event of @kind for (@grid_id, @block), or -1. */
long h_find(const struct h_dev *h, u32 kind, u64 grid_id, u32 block);

/* Run @desc alone on a fresh default device of @nr_sms SMs; runtime. */
u64 h_alone_runtime(u32 nr_sms, const struct gtbs_grid_desc *desc);

static inline u64 h_ceil_div(u64 n, u64 d)
{
	return (n + d - 1) / d;
}

/* Deterministic PRNG (splitmix64) for property tests. */
u64 h_rand(u64 *state);
/* Uniform in [lo, hi]. */
u64 h_rand_range(u64 *state, u64 lo, u64 hi);

/*
 * The eight ERCBench kernels (paper Tables "Grid Characteristics" and
 * "Runtimes"); registers and shared memory of workloads/ercbench.
 */
struct h_erc_kernel {
	const char *name;
	u32 blocks, threads, regs, shmem;
	u64 mean_t;		/* Table "Runtimes": mean t, cycles */
	u32 rsd_ppm;		/* Table "Runtimes": %RSD, ppm */
	u64 runtime;		/* Table "Runtimes": simulator runtime */
	u32 residency;		/* Table "Grid Characteristics": R */
	enum gtbs_limiter limiter;
	u32 kunit_regs, kunit_shmem;	/* tests/kunit's choices, same R */
};

#define H_NR_ERC	8
extern const struct h_erc_kernel h_erc_kernels[H_NR_ERC];
struct gtbs_grid_desc h_erc_desc(const struct h_erc_kernel *k, u64 seed);

/* Suites, one constructor per test file. */
Suite *occupancy_suite(void);
Suite *timing_suite(void);
Suite *engine_suite(void);
Suite *metrics_suite(void);
Suite *predictor_suite(void);
Suite *policy_suite(void);
Suite *timeout_suite(void);
Suite *conformance_suite(void);
Suite *preempt_suite(void);
Suite *throttle_suite(void);
Suite *tenant_suite(void);
Suite *policy_order_suite(void);
Suite *parallel_suite(void);
/* Regression cases, one per core bug found by these tests. */
Suite *regressions_suite(void);
void regressions_timing(Suite *s);
void regressions_engine(Suite *s);
void regressions_metrics(Suite *s);

#endif /* GTBS_UNIT_HARNESS_H */
