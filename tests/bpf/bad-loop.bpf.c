// SPDX-License-Identifier: GPL-2.0
/*
 * bad-loop.bpf.c - the verifier must refuse it: a loop with no bound.
 *
 * Copyright (C) 2026 The gputbs developers
 */
#include "gtbs_bpf.h"

char _license[] SEC("license") = "GPL";

SEC("struct_ops/pick_grid")
void BPF_PROG(loop_pick_grid, struct gtbs_dev *dev, struct gtbs_sm *sm)
{
	GTBS_BPF_TYPES();
	/* the SM's cycle does not change during the callback */
	while (gtbs_bpf_sm_now(sm) != 12345)
		;
}

SEC(".struct_ops.link")
struct gtbs_bpf_ops bad_loop = {
	.pick_grid = (void *)loop_pick_grid,
	.name = "bad_loop",
};
