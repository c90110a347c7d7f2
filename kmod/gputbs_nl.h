/* SPDX-License-Identifier: GPL-2.0 */
/*
 * gputbs_nl.h - the gputbs generic netlink family: its life cycle
 * (gputbs_nl_cmd.c) and the scheduling events the rest of the module
 * reports (gputbs_nl_event.c).
 *
 * Copyright (C) 2026 The gputbs developers
 */
#ifndef _GPUTBS_NL_H
#define _GPUTBS_NL_H

#include <linux/types.h>

struct gputbs_device;
struct gputbs_grid;
struct gtbs_policy_ops;
struct gtbs_sm;

int gputbs_nl_init(struct gputbs_device *gdev);
void gputbs_nl_exit(struct gputbs_device *gdev);

/* Events; every one is called with &gputbs_device.lock held. */
void gputbs_nl_grid_submitted(struct gputbs_device *gdev,
			      struct gputbs_grid *grid);
void gputbs_nl_grid_started(struct gputbs_device *gdev,
			    const struct gputbs_grid *grid);
void gputbs_nl_grid_completed(struct gputbs_device *gdev,
			      const struct gputbs_grid *grid);
void gputbs_nl_grid_stopped(struct gputbs_device *gdev,
			    const struct gputbs_grid *grid);
void gputbs_nl_grid_preempted(struct gputbs_device *gdev,
			      const struct gtbs_sm *sm,
			      const struct gputbs_grid *grid,
			      const struct gputbs_grid *by, u32 reason);
void gputbs_nl_policy_changed(struct gputbs_device *gdev,
			      const struct gtbs_policy_ops *old, u64 now);

#endif /* _GPUTBS_NL_H */
