// SPDX-License-Identifier: GPL-2.0
/*
 * bad-write.bpf.c - the verifier must refuse it: a write to a grid, which
 * is the engine's (the programs read it only).
 *
 * Copyright (C) 2026 The gputbs developers
 */
#include "gtbs_bpf.h"

char _license[] SEC("license") = "GPL";

SEC("struct_ops/pick_grid")
void BPF_PROG(write_pick_grid, struct gtbs_dev *dev, struct gtbs_sm *sm)
{
	struct gtbs_grid *grid;

	GTBS_BPF_TYPES();
	bpf_for_each(gtbs_grid, grid, dev) {
		grid->next_block = 0;
		gtbs_bpf_pick(sm, grid);
		break;
	}
}

SEC(".struct_ops.link")
struct gtbs_bpf_ops bad_write = {
	.pick_grid = (void *)write_pick_grid,
	.name = "bad_write",
};
