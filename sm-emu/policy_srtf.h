/* SPDX-License-Identifier: GPL-2.0 */
/*
 * policy_srtf.h - SRTF's sampling and ordering, shared by policy_srtf.c
 * and policy_srtf_adaptive.c (which is SRTF plus a sharing mode).
 *
 * Copyright (C) 2026 The gputbs developers
 */
#ifndef _GTBS_POLICY_SRTF_H
#define _GTBS_POLICY_SRTF_H

#include "gtbs.h"

/**
 * struct gtbs_srtf_choice - what SRTF sees when an SM may issue a block
 * @sampled: non-NULL when sampling decides: the SM issues from this grid
 *	(it samples it, or the grid runs unsampled because nothing known may
 *	issue); @first and @second are then not computed.
 * @first: the known grid with the shortest predicted remaining time on the
 *	SM, among those that may issue, or NULL.
 * @second: the next shortest, or NULL.
 * @first_key: @first's predicted remaining time on the SM, cycles.
 * @second_key: @second's, cycles.
 */
struct gtbs_srtf_choice {
	struct gtbs_grid *sampled;
	struct gtbs_grid *first;
	struct gtbs_grid *second;
	u64 first_key;
	u64 second_key;
};

/**
 * struct gtbs_adaptive_total - SRTF/Adaptive's device reading of one grid
 * @total: its total predicted runtime: the largest Pred_Cycles (Equation
 *	2) over the SMs that predicted it, cycles.
 * @t: t, block duration, on that SM, cycles.
 * @n: Total_Blocks on that SM, blocks.
 */
struct gtbs_adaptive_total {
	u64 total;
	u64 t;
	u64 n;
};

bool gtbs_adaptive_dev_unfair(const struct gtbs_dev *dev,
			      const struct gtbs_grid *a,
			      const struct gtbs_grid *b, u64 t1, u64 t2,
			      bool sharing, u64 ts1,
			      const struct gtbs_adaptive_total *eb);
void gtbs_srtf_choose(struct gtbs_dev *dev, struct gtbs_sm *sm,
		      struct gtbs_srtf_choice *c);
void gtbs_srtf_predict(struct gtbs_dev *dev, struct gtbs_sm *sm,
		       struct gtbs_grid *grid);
void gtbs_srtf_grid_end(struct gtbs_dev *dev, struct gtbs_grid *grid);
void gtbs_srtf_attach(struct gtbs_dev *dev);
void gtbs_srtf_detach(struct gtbs_dev *dev);

#endif /* _GTBS_POLICY_SRTF_H */
