// SPDX-License-Identifier: GPL-2.0
/*
 * bad-oob.bpf.c - the verifier must refuse it: a grid read beyond its end.
 *
 * Copyright (C) 2026 The gputbs developers
 */
#include "gtbs_bpf.h"

char _license[] SEC("license") = "GPL";

SEC("struct_ops/pick_grid")
void BPF_PROG(oob_pick_grid, struct gtbs_dev *dev, struct gtbs_sm *sm)
{
	struct gtbs_grid *grid;

	GTBS_BPF_TYPES();
	bpf_for_each(gtbs_grid, grid, dev) {
		/* struct gtbs_grid is 608 bytes */
		if (*(volatile __u64 *)((char *)grid + 4096))
			gtbs_bpf_pick(sm, grid);
		break;
	}
}

SEC(".struct_ops.link")
struct gtbs_bpf_ops bad_oob = {
	.pick_grid = (void *)oob_pick_grid,
	.name = "bad_oob",
};
