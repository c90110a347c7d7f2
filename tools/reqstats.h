/* SPDX-License-Identifier: GPL-2.0 */
/*
 * reqstats.h - latency metrics of a program's requests (percentiles,
 * throughput, SLO attainment), shared by gputbs and gputbs-sim
 * (Documentation/workloads.rst, "Requests").
 *
 * Copyright (C) 2026 The gputbs developers
 */
#ifndef _GPUTBS_REQSTATS_H
#define _GPUTBS_REQSTATS_H

#include <linux/types.h>

/**
 * struct req_stats - what a program's requests did
 * @n: requests.
 * @p50: median latency, cycles (nearest rank, req_percentile()).
 * @p90: 90th percentile latency, cycles.
 * @p99: 99th percentile latency, cycles.
 * @max: largest latency, cycles.
 * @mean: mean latency, cycles, rounded down.
 * @first_arrive: arrival of the first request, cycles.
 * @last_end: end of the last request to end, cycles.
 * @slo: the deadline, cycles (0: none).
 * @slo_met: requests with latency <= @slo.
 */
struct req_stats {
	unsigned int n;
	__u64 p50;
	__u64 p90;
	__u64 p99;
	__u64 max;
	__u64 mean;
	__u64 first_arrive;
	__u64 last_end;
	__u64 slo;
	unsigned int slo_met;
};

__u64 req_percentile(const __u64 *sorted, unsigned int n, unsigned int pct);
int req_stats_calc(const __u64 *arrive, const __u64 *end, unsigned int n,
		   __u64 slo, struct req_stats *st);
double req_per_second(const struct req_stats *st, __u64 count,
		      __u32 clock_khz);

#endif /* _GPUTBS_REQSTATS_H */
