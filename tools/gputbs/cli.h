/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cli.h - helpers shared by the commands of the gputbs CLI.
 *
 * Copyright (C) 2026 The gputbs developers
 */
#ifndef _GPUTBS_CLI_H
#define _GPUTBS_CLI_H

#include <stddef.h>

#include "../lib/report.h"
#include "run.h"

#define EXIT_DEVICE	1	/* device or system error */
#define EXIT_USAGE	2	/* bad command line or workload file */

void err_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int usage_error(const char *usage, const char *fmt, const char *arg);
int device_error(const char *device, int err);
int parse_format(const char *s, enum report_format *out);
void read_policy(char *buf, size_t len);
int open_info(const char *device, struct gputbs_info *info);

/* cmd_run.c: the device's policy, restored after a fatal signal */
void restore_arm(struct gputbs *g, const char *name);
void restore_disarm(void);
bool policy_offered(const char *all, const char *name);

int cmd_run(int argc, char **argv);
int cmd_eval(int argc, char **argv);
int cmd_calibrate(int argc, char **argv);
int cmd_predict(int argc, char **argv);
int cmd_timeline(int argc, char **argv);
int cmd_import(int argc, char **argv);

#endif /* _GPUTBS_CLI_H */
