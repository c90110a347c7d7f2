/* SPDX-License-Identifier: GPL-2.0 */
/*
 * gputbs_bpf.h - the kfuncs of BPF policies (gputbs_bpf.c), declared for
 * the compiler's and sparse's sake: BPF programs reach them through the
 * module's BTF, never through this header (samples/bpf/gtbs_bpf.h
 * declares them for the programs).
 *
 * Copyright (C) 2026 The gputbs developers
 */
#ifndef _GPUTBS_BPF_H
#define _GPUTBS_BPF_H

#include <linux/types.h>

struct gtbs_dev;
struct gtbs_grid;
struct gtbs_sm;

/**
 * struct bpf_iter_gtbs_grid - a program's iterator over the eligible grids
 * @__opaque: the iterator's state (gputbs_bpf.c), which the program
 *	cannot see.
 */
struct bpf_iter_gtbs_grid {
	u64 __opaque[2];
} __aligned(8);

int bpf_iter_gtbs_grid_new(struct bpf_iter_gtbs_grid *it, struct gtbs_dev *dev);
struct gtbs_grid *bpf_iter_gtbs_grid_next(struct bpf_iter_gtbs_grid *it);
void bpf_iter_gtbs_grid_destroy(struct bpf_iter_gtbs_grid *it);
void gtbs_bpf_pick(struct gtbs_sm *sm, struct gtbs_grid *grid);
bool gtbs_bpf_grid_eligible(struct gtbs_dev *dev, struct gtbs_grid *grid);
u32 gtbs_bpf_grid_remaining(struct gtbs_grid *grid);
u32 gtbs_bpf_grid_resident(struct gtbs_grid *grid);
u32 gtbs_bpf_grid_residency(struct gtbs_grid *grid);
u32 gtbs_bpf_grid_class(struct gtbs_dev *dev, struct gtbs_grid *grid);
u64 gtbs_bpf_grid_predict(struct gtbs_dev *dev, struct gtbs_sm *sm,
			  struct gtbs_grid *grid);
u32 gtbs_bpf_sm_free_slots(struct gtbs_dev *dev, struct gtbs_sm *sm);
u64 gtbs_bpf_sm_now(struct gtbs_sm *sm);

#endif /* _GPUTBS_BPF_H */
