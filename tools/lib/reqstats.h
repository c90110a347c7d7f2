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

#include <stdbool.h>
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
 * @has_tokens: the program has ``token=1`` grids: the token metrics below
 *	are filled (req_token_stats_calc()); else they are 0.
 * @tokens: output tokens per request (its ``token=1`` grids).
 * @ttft_p50: median time to first token, cycles (nearest rank).
 * @ttft_p99: 99th percentile time to first token, cycles.
 * @tpot_p50: median time per output token, cycles; 0 where no request has
 *	two tokens.
 * @tpot_p99: 99th percentile time per output token, cycles.
 * @slo_ttft: the bound on TTFT, cycles (0: none).
 * @slo_tpot: the bound on TPOT, cycles (0: none).
 * @tokens_met: requests that meet both bounds (a bound of 0 is met; a
 *	request of one token has no TPOT and meets @slo_tpot).
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
	bool has_tokens;
	unsigned int tokens;
	__u64 ttft_p50;
	__u64 ttft_p99;
	__u64 tpot_p50;
	__u64 tpot_p99;
	__u64 slo_ttft;
	__u64 slo_tpot;
	unsigned int tokens_met;
};

__u64 req_percentile(const __u64 *sorted, unsigned int n, unsigned int pct);
int req_stats_calc(const __u64 *arrive, const __u64 *end, unsigned int n,
		   __u64 slo, struct req_stats *st);
int req_token_stats_calc(const __u64 *arrive, const __u64 *first_token,
			 const __u64 *last_token, unsigned int tokens,
			 unsigned int n, __u64 slo_ttft, __u64 slo_tpot,
			 struct req_stats *st);
double req_per_second(const struct req_stats *st, __u64 count,
		      __u32 clock_khz);

#endif /* _GPUTBS_REQSTATS_H */
