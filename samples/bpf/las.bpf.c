// SPDX-License-Identifier: GPL-2.0
/*
 * las.bpf.c - bpf_las, least attained service as a BPF program: the
 * sample policy module samples/policies/gtbs_las.c (policy las, parameter
 * service at its default, sm_time) in BPF, with the attained service of
 * each grid in a BPF hash map instead of the grid's private area.
 *
 * Attained service, in 1/GTBS_SM_TIME_SCALE SM-cycles: the sum over the
 * grid's ended blocks of end - start (block_end) times the share of an SM
 * a block holds, GTBS_SM_TIME_SCALE / R (R: the grid's residency).  Pick:
 * the eligible grid with the least, ties to the earlier arrival (the
 * smaller grid id).  A grid the map has no room for (LAS_MAX_GRIDS at
 * once) counts as unserved.  Service counts from the load, across
 * selections (the module's las: from each selection).
 *
 * Copyright (C) 2026 The gputbs developers
 */
#include "gtbs_bpf.h"

char _license[] SEC("license") = "GPL";

/* sm-emu/gtbs.h's GTBS_SM_TIME_SCALE and GTBS_MAX_BLOCK_CYCLES */
#define LAS_SM_TIME_SCALE	1000000ULL
#define LAS_MAX_ADD_CYCLES	((1ULL << 40) * 16)
#define LAS_MAX_GRIDS		4096

/* grid id -> attained service */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, LAS_MAX_GRIDS);
	__type(key, __u64);
	__type(value, __u64);
} las_service SEC(".maps");

static __u64 las_of(__u64 id)
{
	__u64 *v = bpf_map_lookup_elem(&las_service, &id);

	return v ? *v : 0;
}

SEC("struct_ops/pick_grid")
void BPF_PROG(las_pick_grid, struct gtbs_dev *dev, struct gtbs_sm *sm)
{
	struct gtbs_grid *grid, *best = NULL;
	__u64 least = 0, best_id = 0;

	GTBS_BPF_TYPES();
	bpf_for_each(gtbs_grid, grid, dev) {
		__u64 service = las_of(grid->id);

		if (!best || service < least ||
		    (service == least && grid->id < best_id)) {
			best = grid;
			least = service;
			best_id = grid->id;
		}
	}
	if (best)
		gtbs_bpf_pick(sm, best);
}

SEC("struct_ops/block_end")
void BPF_PROG(las_block_end, struct gtbs_dev *dev, struct gtbs_sm *sm,
	      struct gtbs_grid *grid, __u32 slot, __u64 start, __u64 end)
{
	__u32 r = gtbs_bpf_grid_residency(grid);
	__u64 id = grid->id, add = end - start, sum;

	if (add > LAS_MAX_ADD_CYCLES)
		add = LAS_MAX_ADD_CYCLES;
	add *= LAS_SM_TIME_SCALE / (r ? r : 1);
	sum = las_of(id) + add;
	if (sum < add)
		sum = ~0ULL;
	bpf_map_update_elem(&las_service, &id, &sum, BPF_ANY);
}

/* a new grid starts unserved, whatever an earlier grid left */
SEC("struct_ops/grid_arrive")
void BPF_PROG(las_grid_arrive, struct gtbs_dev *dev, struct gtbs_grid *grid)
{
	__u64 id = grid->id, zero = 0;

	bpf_map_update_elem(&las_service, &id, &zero, BPF_ANY);
}

SEC("struct_ops/grid_end")
void BPF_PROG(las_grid_end, struct gtbs_dev *dev, struct gtbs_grid *grid)
{
	__u64 id = grid->id;

	bpf_map_delete_elem(&las_service, &id);
}

SEC(".struct_ops.link")
struct gtbs_bpf_ops bpf_las = {
	.pick_grid = (void *)las_pick_grid,
	.grid_arrive = (void *)las_grid_arrive,
	.block_end = (void *)las_block_end,
	.grid_end = (void *)las_grid_end,
	.name = "bpf_las",
};
