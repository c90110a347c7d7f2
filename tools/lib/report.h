/* SPDX-License-Identifier: GPL-2.0 */
/*
 * report.h - text and JSON output of the gputbs CLI.
 *
 * Copyright (C) 2026 The gputbs developers
 */
#ifndef _GPUTBS_REPORT_H
#define _GPUTBS_REPORT_H

#include <stdio.h>

#include "result.h"

enum report_format { REPORT_TEXT, REPORT_JSON };

/**
 * struct report - everything a run command measured
 * @format: output format.
 * @device: device node.
 * @policy: scheduling policy of the alone runs (the first of @policies).
 * @policies: run: the policies the workloads ran under, in order.
 * @nr_policies: run: entries of @policies, at least 1.
 * @info: the device.
 * @preset: the device preset (gputbs-sim run --device NAME), or NULL
 *	where unknown (the module's: its sysfs attribute device).
 * @alone: alone executions, one per distinct program.
 * @nr_alone: entries of @alone.
 * @wls: run: workload executions, @nr_wls per policy: those of policy p
 *	are @wls[p * @nr_wls ... (p + 1) * @nr_wls - 1].
 * @nr_wls: run: workloads (per policy).
 * @tolerance_ppm: calibration: largest accepted relative error, ppm.
 */
struct report {
	enum report_format format;
	const char *device;
	const char *policy;
	const char * const *policies;
	unsigned int nr_policies;
	const struct gputbs_info *info;
	const char *preset;
	const struct prog_result *alone;
	unsigned int nr_alone;
	const struct workload_result *wls;
	unsigned int nr_wls;
	__u32 tolerance_ppm;
};

void report_info(FILE *f, enum report_format format, const char *device,
		 const char *policy, const struct gputbs_info *info);
void report_run(FILE *f, const struct report *r);
void report_scenarios(FILE *f, const struct report *r);
unsigned int report_calibration(FILE *f, const struct report *r);
int report_trace(FILE *f, const struct report *r,
		 const struct workload_result *res);

#endif /* _GPUTBS_REPORT_H */
