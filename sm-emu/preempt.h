/* SPDX-License-Identifier: GPL-2.0 */
/*
 * preempt.h - preemption of resident blocks, between the engine and
 * preempt.c.  Internal to the portable core; every function needs the
 * device lock.
 *
 * Copyright (C) 2026 The gputbs developers
 */
#ifndef _GTBS_PREEMPT_H
#define _GTBS_PREEMPT_H

#include "sm.h"

/* engine.c */
void gtbs_slot_run(struct gtbs_dev *dev, struct gtbs_sm *sm,
		   struct gtbs_slot *slot, u64 progress, bool restored);

/* preempt.c */
void gtbs_preempt_make_room(struct gtbs_dev *dev, struct gtbs_sm *sm,
			    struct gtbs_grid *grid);
void gtbs_slot_phase_done(struct gtbs_dev *dev, struct gtbs_sm *sm,
			  struct gtbs_slot *slot);
void gtbs_issue_saved(struct gtbs_dev *dev, struct gtbs_sm *sm,
		      struct gtbs_grid *grid, struct gtbs_slot *slot);
void gtbs_grid_drop_saved(struct gtbs_dev *dev, struct gtbs_grid *grid);
void gtbs_slot_free(struct gtbs_dev *dev, struct gtbs_sm *sm,
		    struct gtbs_slot *slot);
void gtbs_pending_readd(struct gtbs_dev *dev, struct gtbs_grid *grid, u64 now);
void gtbs_pending_add(struct gtbs_dev *dev, struct gtbs_grid *grid,
		      struct list_head *prev);

/* engine.c */
void gtbs_pending_leave(struct gtbs_dev *dev, struct gtbs_grid *grid, u64 now);

#endif /* _GTBS_PREEMPT_H */
