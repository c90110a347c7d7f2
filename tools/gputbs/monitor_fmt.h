/* SPDX-License-Identifier: GPL-2.0 */
/*
 * monitor_fmt.h - output of the netlink commands of the gputbs CLI
 * ("gputbs monitor", "gputbs top").
 *
 * Copyright (C) 2026 The gputbs developers
 */
#ifndef _GPUTBS_MONITOR_FMT_H
#define _GPUTBS_MONITOR_FMT_H

#include <stdio.h>

#include <gputbs.h>

#include "../lib/report.h"

const char *mon_class_name(__u32 prio_class);
void mon_event_text(FILE *f, const struct gputbs_mon_event *ev);
void mon_event_json(FILE *f, const struct gputbs_mon_event *ev);
void mon_overflow(FILE *f, enum report_format format);
int monitor_error(int err);
void mon_params_text(FILE *f, const struct gputbs_mon_dev *d);

int cmd_monitor(int argc, char **argv);
int cmd_top(int argc, char **argv);
int cmd_param(int argc, char **argv);
int cmd_preempt(int argc, char **argv);
int cmd_tenant(int argc, char **argv);
int cmd_policy(int argc, char **argv);

#endif /* _GPUTBS_MONITOR_FMT_H */
