/* SPDX-License-Identifier: GPL-2.0 */
/*
 * gputbs_kunit.h - shared helpers of the gputbs KUnit suites: a device in
 * pure virtual time (gtbs_dev_run_until()) that records block events.
 *
 * Copyright (C) 2026 The gputbs developers
 */
#ifndef _GPUTBS_KUNIT_H
#define _GPUTBS_KUNIT_H

#include <kunit/test.h>

#include "../../sm-emu/gtbs.h"

#define GTBS_TEST_MAX_EVENTS	4096

/**
 * struct gtbs_test_event - one recorded block start or end
 * @grid_id: &gtbs_grid.id.
 * @sm: SM index.
 * @slot: SM slot (blkindex).
 * @block: block index in the grid.
 * @start: start cycle.
 * @end: end cycle (block ends only).
 */
struct gtbs_test_event {
	u64 grid_id;
	u32 sm;
	u32 slot;
	u32 block;
	u64 start;
	u64 end;
};

/**
 * struct gtbs_test_dev - a device under test
 * @dev: the core device.
 * @sms: its SMs.
 * @nr_starts: entries in @starts.
 * @nr_ends: entries in @ends.
 * @starts: block starts in event order (first %GTBS_TEST_MAX_EVENTS).
 * @ends: block ends in event order (first %GTBS_TEST_MAX_EVENTS).
 */
struct gtbs_test_dev {
	struct gtbs_dev dev;
	struct gtbs_sm **sms;
	unsigned int nr_starts;
	unsigned int nr_ends;
	struct gtbs_test_event starts[GTBS_TEST_MAX_EVENTS];
	struct gtbs_test_event ends[GTBS_TEST_MAX_EVENTS];
};

struct gtbs_test_dev *gtbs_test_dev_new(struct kunit *test,
					const struct gtbs_dev_config *cfg);
struct gtbs_test_dev *gtbs_test_dev_sms(struct kunit *test, u32 nr_sms);
struct gtbs_grid *gtbs_test_grid_new(struct kunit *test,
				     struct gtbs_test_dev *td,
				     const struct gtbs_grid_desc *desc);
struct gtbs_grid *gtbs_test_submit(struct kunit *test,
				   struct gtbs_test_dev *td,
				   const struct gtbs_grid_desc *desc, u64 now);
void gtbs_test_drain(struct gtbs_test_dev *td);
struct gtbs_grid_desc gtbs_test_desc(u32 blocks, u32 threads, u32 regs,
				     u32 shmem, u64 cycles);

/* Suites of gputbs_kunit_sched.c, registered by gputbs_kunit.c. */
extern struct kunit_suite gtbs_predictor_suite;
extern struct kunit_suite gtbs_srtf_suite;
extern struct kunit_suite gtbs_prio_suite;
extern struct kunit_suite gtbs_switch_suite;
extern struct kunit_suite gtbs_share_suite;
extern struct kunit_suite gtbs_serial_suite;
extern struct kunit_suite gtbs_registry_suite;
extern struct kunit_suite gtbs_preempt_suite;

#endif /* _GPUTBS_KUNIT_H */
