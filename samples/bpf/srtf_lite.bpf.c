// SPDX-License-Identifier: GPL-2.0
/*
 * srtf_lite.bpf.c - bpf_srtf_lite, shortest predicted remaining time
 * first through the predictor's kfuncs: a small cousin of the paper's
 * SRTF (sm-emu/policy_srtf.c), not the paper's policy (no sampling
 * phase, no sharing mode, no preemption).
 *
 * On an SM, among the eligible grids: those the predictor has no state
 * for on this SM yet (gtbs_bpf_grid_predict() is U64_MAX: the grid never
 * issued a block here) first, so that every grid gets a prediction;
 * then the least predicted remaining time on this SM; ties to the fewer
 * blocks left to issue (gtbs_bpf_grid_remaining()), then to the earlier
 * arrival (the smaller grid id).
 *
 * Copyright (C) 2026 The gputbs developers
 */
#include "gtbs_bpf.h"

char _license[] SEC("license") = "GPL";

SEC("struct_ops/pick_grid")
void BPF_PROG(srtf_lite_pick_grid, struct gtbs_dev *dev, struct gtbs_sm *sm)
{
	struct gtbs_grid *grid, *best = NULL;
	__u64 best_pred = 0, best_id = 0;
	__u32 best_left = 0;

	GTBS_BPF_TYPES();
	bpf_for_each(gtbs_grid, grid, dev) {
		__u64 pred = gtbs_bpf_grid_predict(dev, sm, grid);
		__u32 left = gtbs_bpf_grid_remaining(grid);

		/* no prediction here yet: first, to get one */
		if (pred == ~0ULL)
			pred = 0;
		if (!best || pred < best_pred ||
		    (pred == best_pred && (left < best_left ||
		     (left == best_left && grid->id < best_id)))) {
			best = grid;
			best_pred = pred;
			best_left = left;
			best_id = grid->id;
		}
	}
	if (best)
		gtbs_bpf_pick(sm, best);
}

SEC(".struct_ops.link")
struct gtbs_bpf_ops bpf_srtf_lite = {
	.pick_grid = (void *)srtf_lite_pick_grid,
	.name = "bpf_srtf_lite",
};
