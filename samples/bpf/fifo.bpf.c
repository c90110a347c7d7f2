// SPDX-License-Identifier: GPL-2.0
/*
 * fifo.bpf.c - bpf_fifo, the built-in fifo (sm-emu/policy_fifo.c) as a BPF
 * program: every SM issues from the oldest grid that may issue a block.
 *
 * gputbs policy load build/bpf/fifo.bpf.o, then select bpf_fifo.
 *
 * Copyright (C) 2026 The gputbs developers
 */
#include "gtbs_bpf.h"

char _license[] SEC("license") = "GPL";

/* the first eligible grid in arrival order, as fifo's pick_grid */
SEC("struct_ops/pick_grid")
void BPF_PROG(fifo_pick_grid, struct gtbs_dev *dev, struct gtbs_sm *sm)
{
	struct gtbs_grid *grid;

	GTBS_BPF_TYPES();
	bpf_for_each(gtbs_grid, grid, dev) {
		gtbs_bpf_pick(sm, grid);
		break;
	}
}

SEC(".struct_ops.link")
struct gtbs_bpf_ops bpf_fifo = {
	.pick_grid = (void *)fifo_pick_grid,
	.name = "bpf_fifo",
};
