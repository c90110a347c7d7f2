/* SPDX-License-Identifier: GPL-2.0 */
/*
 * report.h - text and JSON output of the gputbs CLI.
 *
 * Copyright (C) 2026 The gputbs developers
 */
#ifndef _GPUTBS_REPORT_H
#define _GPUTBS_REPORT_H

#include <stdio.h>

#include "run.h"

enum report_format { REPORT_TEXT, REPORT_JSON };

/**
 * struct report - everything a run command measured
 * @format: output format.
 * @device: device node.
 * @policy: scheduling policy name.
 * @info: the device.
 * @alone: alone executions, one per distinct program.
 * @nr_alone: entries of @alone.
 * @wls: workload executions.
 * @nr_wls: entries of @wls.
 * @tolerance_ppm: calibration: largest accepted relative error, ppm.
 */
struct report {
	enum report_format format;
	const char *device;
	const char *policy;
	const struct gputbs_info *info;
	const struct prog_result *alone;
	unsigned int nr_alone;
	const struct workload_result *wls;
	unsigned int nr_wls;
	__u32 tolerance_ppm;
};

void report_info(FILE *f, enum report_format format, const char *device,
		 const char *policy, const struct gputbs_info *info);
void report_run(FILE *f, const struct report *r);
unsigned int report_calibration(FILE *f, const struct report *r);

#endif /* _GPUTBS_REPORT_H */
