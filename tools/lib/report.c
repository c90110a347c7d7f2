// SPDX-License-Identifier: GPL-2.0
/*
 * report.c - text and JSON output of the gputbs CLI.
 *
 * Cycles are printed as integers; slowdowns, STP, ANTT and StrictF come
 * from the portable core's fixed-point metrics (sm-emu/metrics.c) and are
 * printed with three decimals in text, six in JSON.  Only the geometric
 * mean over workloads uses floating point.
 *
 * Copyright (C) 2026 The gputbs developers
 */
#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdbool.h>
#include <string.h>

#include "json.h"
#include "report.h"

static const struct {
	__u64 bit;
	const char *name;
} report_features[] = {
	{ GPUTBS_FEATURE_WORK_DIST, "work-dist" },
	{ GPUTBS_FEATURE_WORK_ARRAY, "work-array" },
	{ GPUTBS_FEATURE_WAIT_ANY, "wait-any" },
	{ GPUTBS_FEATURE_POLL, "poll" },
	{ GPUTBS_FEATURE_PRIO_CLASS, "prio-class" },
	{ GPUTBS_FEATURE_BLOCK_RECORDS, "block-records" },
	{ GPUTBS_FEATURE_ARRIVAL_CYCLE, "arrival-cycle" },
	{ GPUTBS_FEATURE_DEVICE_GRID_LIMIT, "device-grid-limit" },
	{ GPUTBS_FEATURE_JOB_TIMEOUT, "job-timeout" },
	{ GPUTBS_FEATURE_USER_LIMITS, "user-limits" },
	{ GPUTBS_FEATURE_CORUN_TIMING, "corun-timing" },
	{ GPUTBS_FEATURE_BLOCK_DIST, "block-dist" },
	{ GPUTBS_FEATURE_PREEMPT, "preempt" },
	{ GPUTBS_FEATURE_STREAM_ORDER, "stream-order" },
	{ GPUTBS_FEATURE_ERROR_DETAIL, "error-detail" },
};

#define NR_FEATURES	ARRAY_SIZE(report_features)

/* Members of struct gputbs_info other than features, with units. */
#define INFO_FIELD(m, u) {						\
	.name = #m, .unit = u,						\
	.offset = offsetof(struct gputbs_info, m),			\
	.size = sizeof(((struct gputbs_info *)NULL)->m),		\
}

static const struct {
	const char *name;
	const char *unit;
	size_t offset;
	size_t size;
} report_info_fields[] = {
	INFO_FIELD(nr_sms, "SMs"),
	INFO_FIELD(warp_size, "threads"),
	INFO_FIELD(max_threads_per_sm, "threads"),
	INFO_FIELD(max_regs_per_sm, "registers"),
	INFO_FIELD(max_shmem_per_sm, "bytes"),
	INFO_FIELD(max_blocks_per_sm, "blocks"),
	INFO_FIELD(max_warps_per_sm, "warps"),
	INFO_FIELD(max_threads_per_block, "threads"),
	INFO_FIELD(max_regs_per_thread, "registers"),
	INFO_FIELD(reg_alloc_unit, "registers per warp"),
	INFO_FIELD(shmem_alloc_unit, "bytes"),
	INFO_FIELD(max_blocks_per_grid, "blocks"),
	INFO_FIELD(clock_khz, "kHz"),
	INFO_FIELD(time_scale_ps, "ps per cycle"),
	INFO_FIELD(max_grids_per_fd, "grids"),
	INFO_FIELD(load_knee_warps, "warps"),
	INFO_FIELD(epoch_ns, "ns, CLOCK_MONOTONIC"),
	INFO_FIELD(max_grids_per_device, "grids"),
	INFO_FIELD(max_grids_per_user, "grids"),
};

static uint64_t report_info_field(const struct gputbs_info *info,
				  unsigned int i)
{
	const char *p = (const char *)info + report_info_fields[i].offset;
	__u32 v32;
	__u64 v64;

	if (report_info_fields[i].size == sizeof(v32)) {
		memcpy(&v32, p, sizeof(v32));
		return v32;
	}
	memcpy(&v64, p, sizeof(v64));
	return v64;
}

static double report_dbl(__u64 fp)
{
	return (double)fp / GTBS_FP_ONE;
}

/**
 * report_info() - print a device description
 * @f: output.
 * @format: text or JSON.
 * @device: device node.
 * @policy: scheduling policy name.
 * @info: the description.
 */
void report_info(FILE *f, enum report_format format, const char *device,
		 const char *policy, const struct gputbs_info *info)
{
	__u64 unknown = info->features;
	struct json j;
	unsigned int i;

	for (i = 0; i < NR_FEATURES; i++)
		unknown &= ~report_features[i].bit;
	if (format == REPORT_JSON) {
		json_init(&j, f);
		json_obj(&j, NULL);
		json_str(&j, "device", device);
		json_str(&j, "policy", policy);
		json_u64(&j, "features", info->features);
		json_arr(&j, "feature_names");
		for (i = 0; i < NR_FEATURES; i++)
			if (info->features & report_features[i].bit)
				json_str(&j, NULL, report_features[i].name);
		json_arr_end(&j);
		for (i = 0; i < ARRAY_SIZE(report_info_fields); i++)
			json_u64(&j, report_info_fields[i].name,
				 report_info_field(info, i));
		json_obj_end(&j);
		json_end(&j);
		return;
	}
	fprintf(f, "%-22s %s\n", "device", device);
	fprintf(f, "%-22s %s\n", "policy", policy);
	fprintf(f, "%-22s %#" PRIx64, "features",
		(uint64_t)info->features);
	for (i = 0; i < NR_FEATURES; i++)
		if (info->features & report_features[i].bit)
			fprintf(f, " %s", report_features[i].name);
	if (unknown)
		fprintf(f, " %#" PRIx64, (uint64_t)unknown);
	fputc('\n', f);
	for (i = 0; i < ARRAY_SIZE(report_info_fields); i++)
		fprintf(f, "%-22s %-12" PRIu64 " %s\n",
			report_info_fields[i].name, report_info_field(info, i),
			report_info_fields[i].unit);
}

/* Mean block duration of a grid, cycles. */
static __u64 report_mean_t(const struct wl_grid *g)
{
	__u64 sum = 0;
	__u32 i;

	if (!g->durations)
		return g->cycles;
	for (i = 0; i < g->nr_blocks; i++)
		sum += g->durations[i];
	return (sum + g->nr_blocks / 2) / g->nr_blocks;
}

/* Staircase model, paper Equation 1: ceil(N / (SMs * R)) * t. */
static __u64 report_model(const struct gputbs_info *info,
			  const struct wl_grid *g, __u32 residency)
{
	__u64 per_wave = (__u64)info->nr_sms * residency;

	if (!per_wave)
		return 0;
	return (g->nr_blocks + per_wave - 1) / per_wave * report_mean_t(g);
}

static __u64 report_cycles(const struct gputbs_wait *w)
{
	return w->end_cycle > w->submit_cycle ?
	       w->end_cycle - w->submit_cycle : 0;
}

static __s64 report_arrival(const struct workload_result *res,
			    unsigned int run)
{
	const struct prog_result *s = &res->runs[run];

	/* the request's arrival: its first grid's unless it has a gap= */
	if (s->arrive)
		return (__s64)(s->arrive[0] - res->t0_cycle);
	return (__s64)(s->grids[0].submit_cycle - res->t0_cycle);
}

/*
 * Does run @i of @res have request metrics (requests= above 1, or an SLO:
 * slo=, slo-ttft= or slo-tpot=)?
 */
static bool report_run_has_requests(const struct workload_result *res,
				    unsigned int i)
{
	const struct prog_result *s = &res->runs[i];

	return s->nr_requests > 1 || s->slo_cycles || s->stats.slo_ttft ||
	       s->stats.slo_tpot;
}

/* cycles in ms at @clock_khz (cycles per ms) */
static double report_ms(__u64 cycles, __u32 clock_khz)
{
	return clock_khz ? (double)cycles / clock_khz : 0;
}

/* the share of @s's requests that met their TTFT and TPOT bounds */
static double report_tokens_share(const struct prog_result *s)
{
	return s->stats.n ? (double)s->stats.tokens_met / s->stats.n : 1;
}

/* Does a run of @res emit tokens (token=1 grids)? */
static bool report_has_tokens(const struct workload_result *res)
{
	unsigned int i;

	for (i = 0; i < res->wl->nr_runs; i++)
		if (res->runs[i].stats.has_tokens &&
		    report_run_has_requests(res, i))
			return true;
	return false;
}

/*
 * TTFT and TPOT of the runs of @res with token=1 grids
 * (Documentation/workloads.rst, "Requests"), in cycles like the requests
 * table above it.
 */
static void report_tokens_text(FILE *f, const struct workload_result *res,
			       int pw)
{
	unsigned int i;

	fprintf(f, "  %-*s  %8s  %6s  %11s  %11s  %11s  %11s  %11s  %11s  %7s\n",
		pw, "tokens", "n", "tokens", "TTFT50(cyc)", "TTFT99(cyc)",
		"TPOT50(cyc)", "TPOT99(cyc)", "SLO TTFT", "SLO TPOT", "met");
	for (i = 0; i < res->wl->nr_runs; i++) {
		const struct prog_result *s = &res->runs[i];
		const struct req_stats *st = &s->stats;
		char ttft[24] = "-", tpot[24] = "-", met[16] = "-";

		if (!st->has_tokens || !report_run_has_requests(res, i))
			continue;
		if (st->slo_ttft)
			snprintf(ttft, sizeof(ttft), "%" PRIu64,
				 (uint64_t)st->slo_ttft);
		if (st->slo_tpot)
			snprintf(tpot, sizeof(tpot), "%" PRIu64,
				 (uint64_t)st->slo_tpot);
		if (st->slo_ttft || st->slo_tpot)
			snprintf(met, sizeof(met), "%.2f%%",
				 100.0 * report_tokens_share(s));
		fprintf(f, "  %-*s  %8u  %6u  %11" PRIu64 "  %11" PRIu64
			"  %11" PRIu64 "  %11" PRIu64 "  %11s  %11s  %7s\n",
			pw, s->prog->name, st->n, st->tokens,
			(uint64_t)st->ttft_p50, (uint64_t)st->ttft_p99,
			(uint64_t)st->tpot_p50, (uint64_t)st->tpot_p99, ttft,
			tpot, met);
	}
}

/* Does any run of @res repeat its program as requests or have an SLO? */
static bool report_has_requests(const struct workload_result *res)
{
	unsigned int i;

	for (i = 0; i < res->wl->nr_runs; i++)
		if (report_run_has_requests(res, i))
			return true;
	return false;
}

/*
 * The request metrics of each run of @res (Documentation/workloads.rst,
 * "Requests"): latency percentiles, throughput, SLO attainment.
 */
static void report_requests_text(FILE *f, const struct report *r,
				 const struct workload_result *res, int pw)
{
	unsigned int i;

	fprintf(f, "  %-*s  %8s  %11s  %11s  %11s  %11s  %11s  %10s  %10s  %7s\n",
		pw, "requests", "n", "p50(cyc)", "p90(cyc)", "p99(cyc)",
		"max(cyc)", "mean(cyc)", "req/s", "grids/s", "SLO");
	for (i = 0; i < res->wl->nr_runs; i++) {
		const struct prog_result *s = &res->runs[i];
		const struct req_stats *st = &s->stats;

		fprintf(f, "  %-*s  %8u  %11" PRIu64 "  %11" PRIu64 "  %11"
			PRIu64 "  %11" PRIu64 "  %11" PRIu64 "  %10.1f  %10.1f",
			pw, s->prog->name, st->n, (uint64_t)st->p50,
			(uint64_t)st->p90, (uint64_t)st->p99,
			(uint64_t)st->max, (uint64_t)st->mean,
			req_per_second(st, st->n, r->info->clock_khz),
			req_per_second(st, s->nr_grids, r->info->clock_khz));
		if (s->slo_cycles)
			fprintf(f, "  %6.2f%%\n",
				100.0 * st->slo_met / (st->n ? st->n : 1));
		else
			fprintf(f, "  %7s\n", "-");
	}
}

/*
 * A fixed-point number of @places decimals (at most 6) without trailing
 * zeros: a load in ppm (6) as --load takes it, 600000 -> "0.6"; a rate as
 * rate= gives it (4), 1558000 -> "155.8".
 */
static const char *report_fixed_str(__u64 v, unsigned int places, char *buf,
				    size_t len)
{
	static const __u32 pow10[] = { 1, 10, 100, 1000, 10000, 100000,
				       1000000 };
	size_t n;

	snprintf(buf, len, "%" PRIu64 ".%0*" PRIu64, (uint64_t)(v / pow10[places]),
		 (int)places, (uint64_t)(v % pow10[places]));
	n = strlen(buf);
	while (n && buf[n - 1] == '0')
		buf[--n] = '\0';
	if (n && buf[n - 1] == '.')
		buf[--n] = '\0';
	return buf;
}

/*
 * --load: per run with requests, what wl_workload_at_load() made of its
 * stream: an open loop's rate and requests with the alone service interval
 * under fifo that scaled it (wl_run_saturating()), a closed loop's count
 * of requests with its alone latency under fifo.
 */
static void report_load_text(FILE *f, const struct workload_result *res,
			     int pw)
{
	char load[32], rate[32];
	unsigned int i;

	report_fixed_str(res->load_ppm, 6, load, sizeof(load));
	for (i = 0; i < res->wl->nr_runs; i++) {
		const struct wl_run *run = &res->wl->runs[i];

		if (wl_run_open(run))
			fprintf(f, "  %-*s  rate %s/s (load %s), %u requests (service interval alone under fifo %" PRIu64 " cyc)\n",
				pw, res->runs[i].prog->name,
				report_fixed_str(run->rate_e4, 4, rate,
						 sizeof(rate)),
				load, run->requests,
				(uint64_t)res->load_alone[i]);
		else if (run->requests > 1)
			fprintf(f, "  %-*s  %u requests (load %s), %u outstanding (alone under fifo %" PRIu64 " cyc)\n",
				pw, res->runs[i].prog->name, run->requests,
				load, run->outstanding ? run->outstanding : 1,
				(uint64_t)res->load_alone[i]);
	}
}

/* Does a program of @res with several grids depend on its process? */
static bool report_wallclock(const struct workload_result *res)
{
	unsigned int i;

	for (i = 0; i < res->wl->nr_runs; i++)
		if (!res->runs[i].stream_order &&
		    (res->runs[i].nr_grids > 1))
			return true;
	return false;
}

/*
 * The program cell of an alone execution: its name, and its cap when it
 * ran with one (gputbs-sim: a capped run alone is capped too), "P (max
 * 30%)".
 */
static const char *report_alone_name(const struct prog_result *a, char *buf,
				     size_t len)
{
	char pct[16];

	if (!a->has_share || !a->max_ppm)
		return a->prog->name;
	snprintf(buf, len, "%s (max %s%%)", a->prog->name,
		 wl_fmt_pct(a->max_ppm, pct, sizeof(pct)));
	return buf;
}

/* Widths of the program and grid columns. */
static void report_widths(const struct report *r, int *pw, int *gw)
{
	char name[WL_NAME_LEN + 32];
	unsigned int i, k;

	*pw = strlen("program");
	*gw = strlen("(program)");
	for (i = 0; i < r->nr_alone; i++) {
		const struct wl_program *p = r->alone[i].prog;
		const char *pn = report_alone_name(&r->alone[i], name,
						   sizeof(name));

		if ((int)strlen(pn) > *pw)
			*pw = strlen(pn);
		for (k = 0; k < p->nr_grids; k++)
			if ((int)strlen(p->grids[k].label) > *gw)
				*gw = strlen(p->grids[k].label);
	}
}

/*
 * Whether any grid of the report has a class other than normal (given
 * class=normal counts as used too): the text tables then get a class
 * column.
 */
static bool report_uses_classes(const struct report *r)
{
	unsigned int i, k;

	for (i = 0; i < r->nr_alone; i++)
		for (k = 0; k < r->alone[i].prog->nr_grids; k++)
			if (r->alone[i].prog->grids[k].prio_class !=
			    GPUTBS_PRIO_DEFAULT)
				return true;
	/* a run's class= */
	for (i = 0; r->wls && i < r->nr_wls; i++)
		for (k = 0; k < r->wls[i].wl->nr_runs; k++)
			if (r->wls[i].wl->runs[k].prio_class !=
			    GPUTBS_PRIO_DEFAULT)
				return true;
	return false;
}

/*
 * The class column's cell of grid @g of run @run (NULL: alone): "  CLASS"
 * when the report has classes, else nothing; the run's class= where it
 * gives one; with @g NULL, that or blank.
 */
static const char *report_run_class_cell(const struct report *r,
					 const struct wl_run *run,
					 const struct wl_grid *g, char *buf,
					 size_t len)
{
	const char *name = "";

	if (!report_uses_classes(r))
		return "";
	if (run && run->prio_class != GPUTBS_PRIO_DEFAULT)
		name = wl_class_name(run->prio_class);
	else if (g)
		name = wl_class_name(g->prio_class);
	snprintf(buf, len, "  %-8s", name);
	return buf;
}

/* The class column's cell of @g alone (report_run_class_cell()). */
static const char *report_class_cell(const struct report *r,
				     const struct wl_grid *g, char *buf,
				     size_t len)
{
	return report_run_class_cell(r, NULL, g, buf, len);
}

/**
 * report_wall_clock_program() - does a result depend on wall-clock timing
 * @r: the results.
 *
 * On the module (not in the simulator's virtual time), a program of more
 * than one grid runs at exact cycles only when the module orders its grids
 * itself (%GPUTBS_FEATURE_STREAM_ORDER) and the process submitted each
 * grid before its cycle (&prog_result.stream_order, run_plan_late());
 * otherwise a later grid arrived when the process got to it, in wall time,
 * and the runtime varies from run to run.
 *
 * Return: the first program, alone or in a workload, that did not run at
 * exact cycles, or NULL when the results are exact.
 */
static const struct wl_program *
report_wall_clock_program(const struct report *r)
{
	unsigned int i, w;

	if (!r->info->time_scale_ps)
		return NULL;	/* the simulator: virtual time */
	for (i = 0; i < r->nr_alone; i++)
		if (r->alone[i].nr_grids > 1 && !r->alone[i].stream_order)
			return r->alone[i].prog;
	for (w = 0; w < r->nr_policies * r->nr_wls; w++) {
		const struct workload_result *res = &r->wls[w];

		for (i = 0; i < res->wl->nr_runs; i++)
			if (res->runs[i].nr_grids > 1 &&
			    !res->runs[i].stream_order)
				return res->runs[i].prog;
	}
	return NULL;
}

/*
 * The time scale for a header: "N ps/cycle" on the module; the simulator
 * (time_scale_ps 0) has none, its cycles are virtual.
 */
static const char *report_scale(const struct report *r, char *buf,
				size_t len)
{
	if (!r->info->time_scale_ps)
		return "virtual time";
	snprintf(buf, len, "%" PRIu64 " ps/cycle",
		 (uint64_t)r->info->time_scale_ps);
	return buf;
}

static void report_alone_text(FILE *f, const struct report *r, int pw,
			      int gw)
{
	unsigned int i, k;
	char scale[48];
	char name[WL_NAME_LEN + 32];
	char cls[16];

	fprintf(f, "alone (policy %s, %u SMs, %s)\n", r->policy,
		r->info->nr_sms, report_scale(r, scale, sizeof(scale)));
	fprintf(f, "  %-*s  %-*s%s  %2s  %7s  %8s  %11s  %11s  %8s\n", pw,
		"program", gw, "grid",
		report_uses_classes(r) ? "  class   " : "", "R", "blocks",
		"t(cyc)", "model(cyc)", "alone(cyc)", "vs model");
	for (i = 0; i < r->nr_alone; i++) {
		const struct prog_result *a = &r->alone[i];
		const char *pn = report_alone_name(a, name, sizeof(name));

		for (k = 0; k < a->prog->nr_grids; k++) {
			const struct wl_grid *g = &a->prog->grids[k];
			__u64 model = report_model(r->info, g,
						   a->grids[k].residency);
			__u64 cyc = report_cycles(&a->grids[k]);

			fprintf(f, "  %-*s  %-*s%s  %2u  %7u  %8" PRIu64
				"  %11" PRIu64 "  %11" PRIu64, pw, pn, gw,
				g->label,
				report_class_cell(r, g, cls, sizeof(cls)),
				a->grids[k].residency, g->nr_blocks,
				(uint64_t)report_mean_t(g), (uint64_t)model,
				(uint64_t)cyc);
			if (model)
				fprintf(f, "  %+7.1f%%\n",
					100.0 * ((double)cyc - model) / model);
			else
				fprintf(f, "  %8s\n", "-");
		}
		if (a->prog->nr_grids > 1)
			fprintf(f, "  %-*s  %-*s%s  %2s  %7s  %8s  %11s  %11"
				PRIu64 "\n", pw, pn, gw,
				"(program)",
				report_class_cell(r, NULL, cls, sizeof(cls)),
				"", "", "", "",
				(uint64_t)a->runtime);
	}
}

/* Do the runs of @res name tenants, weights or caps, measured? */
static bool report_has_tenants(const struct workload_result *res)
{
	return res->wl->tenant_keys && res->runs[0].has_share;
}

/*
 * The tenants of the runs of @res and each run's share of the device's SM
 * time (Documentation/workloads.rst, "Tenants").
 */
static void report_tenants_text(FILE *f, const struct workload_result *res,
				int pw)
{
	int tw = strlen("tenant");
	char pct[16], cap[24];
	unsigned int i;

	for (i = 0; i < res->wl->nr_runs; i++) {
		const char *t = wl_run_tenant(&res->wl->runs[i],
					      res->runs[i].prog);

		if ((int)strlen(t) > tw)
			tw = strlen(t);
	}
	if (res->share_to > res->share_from)
		fprintf(f, "  SM share over cycles %" PRIu64 "..%" PRIu64
			" (every run had a grid in the device)\n",
			(uint64_t)(res->share_from - res->t0_cycle),
			(uint64_t)(res->share_to - res->t0_cycle));
	else
		fprintf(f, "  SM share: no interval in which every run had a grid in the device\n");
	fprintf(f, "  %-*s  %-*s  %6s  %9s  %8s\n", pw, "program", tw,
		"tenant", "weight", "max", "share");
	for (i = 0; i < res->wl->nr_runs; i++) {
		const struct prog_result *s = &res->runs[i];

		if (s->max_ppm)
			snprintf(cap, sizeof(cap), "%s%%",
				 wl_fmt_pct(s->max_ppm, pct, sizeof(pct)));
		else
			snprintf(cap, sizeof(cap), "-");
		fprintf(f, "  %-*s  %-*s  %6u  %9s", pw, s->prog->name, tw,
			wl_run_tenant(&res->wl->runs[i], s->prog), s->weight,
			cap);
		if (isfinite(s->sm_share))
			fprintf(f, "  %7.3f%%\n", 100.0 * s->sm_share);
		else
			fprintf(f, "  %8s\n", "-");
	}
}

static void report_workload_text(FILE *f, const struct report *r,
				 const char *policy,
				 const struct workload_result *res, int pw,
				 int gw)
{
	const struct gtbs_metrics *m = &res->metrics;
	unsigned int i, k;
	char cls[16];

	fprintf(f, "\nworkload %s (policy %s, %u SMs, %s)\n", res->wl->name,
		policy, r->info->nr_sms, res->set->path);
	fprintf(f, "  %-*s  %-*s%s  %2s  %7s  %11s  %11s  %11s  %8s\n", pw,
		"program", gw, "grid",
		report_uses_classes(r) ? "  class   " : "", "R", "blocks",
		"arrive(cyc)", "alone(cyc)", "shared(cyc)", "slowdown");
	if (res->wakeup_arrivals)
		fprintf(f, "  (arrive: when the processes submitted; the module cannot submit for a cycle)\n");
	for (i = 0; i < res->wl->nr_runs; i++) {
		const struct prog_result *s = &res->runs[i];
		const struct prog_result *a = &r->alone[res->alone[i]];
		const struct wl_run *run = &res->wl->runs[i];

		if (s->nr_requests > 1) {
			/* shared: the mean latency of its requests */
			fprintf(f, "  %-*s  %-*s%s  %2s  %7s  %11" PRId64
				"  %11" PRIu64 "  %11" PRIu64 "  %8.3f\n",
				pw, s->prog->name, gw, "(requests)",
				report_run_class_cell(r, run, NULL, cls,
						      sizeof(cls)), "", "",
				(int64_t)report_arrival(res, i),
				(uint64_t)res->alone_cycles[i],
				(uint64_t)res->shared_cycles[i],
				report_dbl(gtbs_slowdown(res->shared_cycles[i],
							 res->alone_cycles[i])));
			continue;
		}
		for (k = 0; k < s->prog->nr_grids; k++) {
			__u64 ac = report_cycles(&a->grids[k]);
			__u64 sc = report_cycles(&s->grids[k]);
			__s64 arr = (__s64)(s->grids[k].submit_cycle -
					    res->t0_cycle);

			fprintf(f, "  %-*s  %-*s%s  %2u  %7u  %11" PRId64
				"  %11" PRIu64 "  %11" PRIu64 "  %8.3f\n",
				pw, s->prog->name, gw, s->prog->grids[k].label,
				report_run_class_cell(r, run,
						      &s->prog->grids[k], cls,
						      sizeof(cls)),
				s->grids[k].residency,
				s->prog->grids[k].nr_blocks, (int64_t)arr,
				(uint64_t)ac, (uint64_t)sc,
				report_dbl(gtbs_slowdown(sc, ac)));
		}
		if (s->prog->nr_grids > 1)
			fprintf(f, "  %-*s  %-*s%s  %2s  %7s  %11" PRId64
				"  %11" PRIu64 "  %11" PRIu64 "  %8.3f\n",
				pw, s->prog->name, gw, "(program)",
				report_run_class_cell(r, run, NULL, cls,
						      sizeof(cls)),
				"", "",
				(int64_t)report_arrival(res, i),
				(uint64_t)res->alone_cycles[i],
				(uint64_t)res->shared_cycles[i],
				report_dbl(gtbs_slowdown(res->shared_cycles[i],
							 res->alone_cycles[i])));
	}
	fprintf(f, "  STP %.3f  ANTT %.3f  StrictF %.3f\n", report_dbl(m->stp),
		report_dbl(m->antt), report_dbl(m->strictf));
	if (res->load_ppm)
		report_load_text(f, res, pw);
	if (report_has_requests(res))
		report_requests_text(f, r, res, pw);
	if (report_has_tokens(res))
		report_tokens_text(f, res, pw);
	if (report_has_tenants(res))
		report_tenants_text(f, res, pw);
	if (report_wallclock(res))
		fprintf(f, "  (a grid arrived when its process got to it, not at its exact cycle: the result depends on wall-clock timing)\n");
}

/* The execution of workload @w under policy @p. */
static const struct workload_result *report_wl(const struct report *r,
					       unsigned int p, unsigned int w)
{
	return &r->wls[p * r->nr_wls + w];
}

/* Geometric means of STP, ANTT and StrictF over the workloads of @p. */
static void report_geomean(const struct report *r, unsigned int p,
			   double gm[3])
{
	unsigned int i;

	memset(gm, 0, 3 * sizeof(*gm));
	for (i = 0; i < r->nr_wls; i++) {
		const struct gtbs_metrics *m = &report_wl(r, p, i)->metrics;

		gm[0] += log(report_dbl(m->stp));
		gm[1] += log(report_dbl(m->antt));
		gm[2] += log(report_dbl(m->strictf));
	}
	for (i = 0; i < 3; i++)
		gm[i] = exp(gm[i] / r->nr_wls);
}

/*
 * Several policies: one row per workload with STP, ANTT and StrictF under
 * each policy side by side, and a row of their geomeans.
 */
static void report_compare_text(FILE *f, const struct report *r)
{
	unsigned int i, p;
	double gm[3];
	int ww = strlen("workload");	/* >= "geomean" */
	int pw = 23;	/* "%6s  %6s  %7s": STP, ANTT, StrictF */
	char cell[64];

	for (i = 0; i < r->nr_wls; i++)
		if ((int)strlen(report_wl(r, 0, i)->wl->name) > ww)
			ww = strlen(report_wl(r, 0, i)->wl->name);
	for (p = 0; p < r->nr_policies; p++)
		if ((int)strlen(r->policies[p]) > pw)
			pw = strlen(r->policies[p]);
	fprintf(f, "\npolicies side by side (%u SMs; STP: higher is better, "
		"ANTT: lower is better, StrictF: 1 is fair)\n",
		r->info->nr_sms);
	fprintf(f, "  %-*s", ww, "");
	for (p = 0; p < r->nr_policies; p++)
		fprintf(f, p + 1 < r->nr_policies ? "  | %-*s" : "  | %.*s",
			pw, r->policies[p]);
	fprintf(f, "\n  %-*s", ww, "workload");
	for (p = 0; p < r->nr_policies; p++) {
		snprintf(cell, sizeof(cell), "%6s  %6s  %7s", "STP", "ANTT",
			 "StrictF");
		fprintf(f, p + 1 < r->nr_policies ? "  | %-*s" : "  | %.*s",
			pw, cell);
	}
	fputc('\n', f);
	for (i = 0; i < r->nr_wls; i++) {
		fprintf(f, "  %-*s", ww, report_wl(r, 0, i)->wl->name);
		for (p = 0; p < r->nr_policies; p++) {
			const struct gtbs_metrics *m =
				&report_wl(r, p, i)->metrics;

			snprintf(cell, sizeof(cell), "%6.3f  %6.3f  %7.3f",
				 report_dbl(m->stp), report_dbl(m->antt),
				 report_dbl(m->strictf));
			fprintf(f, p + 1 < r->nr_policies ?
				"  | %-*s" : "  | %.*s", pw, cell);
		}
		fputc('\n', f);
	}
	if (r->nr_wls < 2)
		return;
	fprintf(f, "  %-*s", ww, "geomean");
	for (p = 0; p < r->nr_policies; p++) {
		report_geomean(r, p, gm);
		snprintf(cell, sizeof(cell), "%6.3f  %6.3f  %7.3f", gm[0],
			 gm[1], gm[2]);
		fprintf(f, p + 1 < r->nr_policies ? "  | %-*s" : "  | %.*s",
			pw, cell);
	}
	fputc('\n', f);
}

static void report_run_text(FILE *f, const struct report *r)
{
	const struct wl_program *wc;
	unsigned int i, p;
	double gm[3];
	int pw, gw;

	report_widths(r, &pw, &gw);
	report_alone_text(f, r, pw, gw);
	/* Each workload under every policy, one after another. */
	for (i = 0; i < r->nr_wls; i++)
		for (p = 0; p < r->nr_policies; p++)
			report_workload_text(f, r, r->policies[p],
					     report_wl(r, p, i), pw, gw);
	if (r->nr_policies > 1) {
		report_compare_text(f, r);
	} else if (r->nr_wls > 1) {
		report_geomean(r, 0, gm);
		fprintf(f, "\ngeomean over %u workloads: STP %.3f  ANTT %.3f"
			"  StrictF %.3f\n", r->nr_wls, gm[0], gm[1], gm[2]);
	}
	wc = report_wall_clock_program(r);
	if (wc)
		fprintf(f, "\nnote: wall-clock dependent: program %s has %u grids; some arrived when its process got to them (the module lacks GPUTBS_FEATURE_STREAM_ORDER, or the process fell behind), in wall time, so these results vary from run to run\n",
			wc->name, wc->nr_grids);
}

static void report_wait_json(struct json *j, const struct gputbs_wait *w)
{
	json_u64(j, "residency", w->residency);
	json_u64(j, "blocks_done", w->blocks_done);
	json_u64(j, "submit_cycle", w->submit_cycle);
	json_u64(j, "start_cycle", w->start_cycle);
	json_u64(j, "end_cycle", w->end_cycle);
	json_u64(j, "submit_ns", w->submit_ns);
	json_u64(j, "start_ns", w->start_ns);
	json_u64(j, "end_ns", w->end_ns);
}

static void report_alone_json(struct json *j, const struct report *r)
{
	unsigned int i, k;

	json_arr(j, "alone");
	for (i = 0; i < r->nr_alone; i++) {
		const struct prog_result *a = &r->alone[i];

		json_obj(j, NULL);
		json_str(j, "program", a->prog->name);
		json_u64(j, "runtime_cycles", a->runtime);
		if (a->has_share) {
			if (a->max_ppm)
				json_double(j, "max", a->max_ppm / 10000.0);
			json_double(j, "sm_share", a->sm_share);
		}
		json_arr(j, "grids");
		for (k = 0; k < a->prog->nr_grids; k++) {
			const struct wl_grid *g = &a->prog->grids[k];

			json_obj(j, NULL);
			json_str(j, "label", g->label);
			json_str(j, "class", wl_class_name(g->prio_class));
			json_u64(j, "blocks", g->nr_blocks);
			json_u64(j, "threads", g->threads);
			json_u64(j, "regs", g->regs);
			json_u64(j, "shmem", g->shmem);
			json_u64(j, "mean_block_cycles", report_mean_t(g));
			json_u64(j, "model_cycles",
				 report_model(r->info, g,
					      a->grids[k].residency));
			json_u64(j, "cycles", report_cycles(&a->grids[k]));
			report_wait_json(j, &a->grids[k]);
			json_obj_end(j);
		}
		json_arr_end(j);
		json_obj_end(j);
	}
	json_arr_end(j);
}

/*
 * The TTFT and TPOT of a run with token=1 grids, in cycles and ms, and
 * with slo-ttft= or slo-tpot= the bounds and the requests within both.
 */
static void report_tokens_json(struct json *j, const struct report *r,
			       const struct prog_result *s)
{
	const struct req_stats *st = &s->stats;
	__u32 khz = r->info->clock_khz;

	json_u64(j, "tokens", st->tokens);
	json_u64(j, "ttft_p50_cycles", st->ttft_p50);
	json_u64(j, "ttft_p99_cycles", st->ttft_p99);
	json_u64(j, "tpot_p50_cycles", st->tpot_p50);
	json_u64(j, "tpot_p99_cycles", st->tpot_p99);
	json_double(j, "ttft_p50_ms", report_ms(st->ttft_p50, khz));
	json_double(j, "ttft_p99_ms", report_ms(st->ttft_p99, khz));
	json_double(j, "tpot_p50_ms", report_ms(st->tpot_p50, khz));
	json_double(j, "tpot_p99_ms", report_ms(st->tpot_p99, khz));
	if (st->slo_ttft) {
		json_u64(j, "slo_ttft_cycles", st->slo_ttft);
		json_double(j, "slo_ttft_ms", report_ms(st->slo_ttft, khz));
	}
	if (st->slo_tpot) {
		json_u64(j, "slo_tpot_cycles", st->slo_tpot);
		json_double(j, "slo_tpot_ms", report_ms(st->slo_tpot, khz));
	}
	if (st->slo_ttft || st->slo_tpot) {
		json_u64(j, "tokens_met", st->tokens_met);
		json_double(j, "tokens_attainment", report_tokens_share(s));
	}
}

/*
 * "requests" of a run: the metrics and, per request, its arrival and end
 * (cycles after T0) and latency.
 */
static void report_requests_json(struct json *j, const struct report *r,
				 const struct prog_result *s, __u64 t0)
{
	const struct req_stats *st = &s->stats;
	unsigned int g = s->prog->nr_grids, q;

	json_obj(j, "requests");
	json_u64(j, "n", st->n);
	json_u64(j, "p50_cycles", st->p50);
	json_u64(j, "p90_cycles", st->p90);
	json_u64(j, "p99_cycles", st->p99);
	json_u64(j, "max_cycles", st->max);
	json_u64(j, "mean_cycles", st->mean);
	json_u64(j, "window_cycles", st->last_end - st->first_arrive);
	json_double(j, "requests_per_s",
		    req_per_second(st, st->n, r->info->clock_khz));
	json_double(j, "grids_per_s",
		    req_per_second(st, s->nr_grids, r->info->clock_khz));
	if (s->slo_cycles) {
		json_u64(j, "slo_cycles", s->slo_cycles);
		json_u64(j, "slo_met", st->slo_met);
		json_double(j, "slo_attainment",
			    (double)st->slo_met / (st->n ? st->n : 1));
	}
	if (st->has_tokens)
		report_tokens_json(j, r, s);
	json_arr(j, "list");
	for (q = 0; q < s->nr_requests; q++) {
		__u64 end = s->grids[(size_t)(q + 1) * g - 1].end_cycle;

		json_obj(j, NULL);
		json_u64(j, "arrive_cycles", s->arrive[q] - t0);
		json_u64(j, "end_cycles", end - t0);
		json_u64(j, "latency_cycles", end - s->arrive[q]);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_obj_end(j);
}

/*
 * gputbs-sim run --share-window: per window length, the run's SM share in
 * each window that tiles the interval of sm_share, and their min, max and
 * mean (null without a whole window).
 */
static void report_windows_json(struct json *j, const struct prog_result *s)
{
	unsigned int w;
	size_t k;

	json_arr(j, "share_windows");
	for (w = 0; w < s->nr_windows; w++) {
		double lo = NAN, hi = NAN, sum = 0;

		for (k = 0; k < s->nr_win[w]; k++) {
			double v = s->win_share[w][k];

			lo = k && lo <= v ? lo : v;
			hi = k && hi >= v ? hi : v;
			sum += v;
		}
		json_obj(j, NULL);
		json_u64(j, "window_cycles", s->window_cycles[w]);
		json_u64(j, "n", s->nr_win[w]);
		json_double(j, "min", lo);
		json_double(j, "max", hi);
		json_double(j, "mean", s->nr_win[w] ? sum / s->nr_win[w] : NAN);
		json_arr(j, "shares");
		for (k = 0; k < s->nr_win[w]; k++)
			json_double(j, NULL, s->win_share[w][k]);
		json_arr_end(j);
		json_obj_end(j);
	}
	json_arr_end(j);
}

static void report_run_json(struct json *j, const struct report *r,
			    const struct workload_result *res,
			    unsigned int i)
{
	const struct prog_result *s = &res->runs[i];
	const struct prog_result *a = &r->alone[res->alone[i]];
	unsigned int k;

	json_obj(j, NULL);
	json_str(j, "program", s->prog->name);
	json_u64(j, "at_cycles", res->at_cycles[i]);
	json_s64(j, "arrive_cycles", report_arrival(res, i));
	json_u64(j, "alone_cycles", res->alone_cycles[i]);
	json_u64(j, "shared_cycles", res->shared_cycles[i]);
	json_fp(j, "slowdown", gtbs_slowdown(res->shared_cycles[i],
					     res->alone_cycles[i]));
	if (res->wl->runs[i].prio_class != GPUTBS_PRIO_DEFAULT)
		json_str(j, "class",
			 wl_class_name(res->wl->runs[i].prio_class));
	if (s->has_share) {
		json_str(j, "tenant",
			 wl_run_tenant(&res->wl->runs[i], s->prog));
		json_u64(j, "weight", s->weight);
		if (s->max_ppm)
			json_double(j, "max", s->max_ppm / 10000.0);
		json_double(j, "sm_share", s->sm_share);
		if (s->nr_windows)
			report_windows_json(j, s);
	}
	if (res->load_ppm) {
		json_double(j, "load", res->load_ppm / 1e6);
		json_u64(j, "load_alone_cycles", res->load_alone[i]);
		if (wl_run_open(&res->wl->runs[i]))
			json_double(j, "rate_per_s",
				    res->wl->runs[i].rate_e4 / 10000.0);
		json_u64(j, "nr_requests", res->wl->runs[i].requests);
	}
	if (report_run_has_requests(res, i))
		report_requests_json(j, r, s, res->t0_cycle);
	if (!s->stream_order && s->nr_grids > 1)
		json_boolean(j, "wall_clock_dependent", true);
	if (s->nr_requests > 1) {
		json_obj_end(j);
		return;
	}
	json_arr(j, "grids");
	for (k = 0; k < s->prog->nr_grids; k++) {
		__u64 ac = report_cycles(&a->grids[k]);
		__u64 sc = report_cycles(&s->grids[k]);

		json_obj(j, NULL);
		json_str(j, "label", s->prog->grids[k].label);
		json_str(j, "class",
			 wl_class_name(wl_run_grid_class(&res->wl->runs[i],
							 &s->prog->grids[k])));
		json_u64(j, "blocks", s->prog->grids[k].nr_blocks);
		json_u64(j, "alone_cycles", ac);
		json_u64(j, "shared_cycles", sc);
		json_fp(j, "slowdown", gtbs_slowdown(sc, ac));
		report_wait_json(j, &s->grids[k]);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_obj_end(j);
}

/* Open the top-level JSON object with the device description. */
static void report_json_open(struct json *j, FILE *f, const struct report *r)
{
	json_init(j, f);
	json_obj(j, NULL);
	json_obj(j, "device");
	json_str(j, "path", r->device);
	if (r->preset)
		json_str(j, "preset", r->preset);
	json_str(j, "policy", r->policy);
	json_u64(j, "nr_sms", r->info->nr_sms);
	json_u64(j, "time_scale_ps", r->info->time_scale_ps);
	json_u64(j, "clock_khz", r->info->clock_khz);
	json_obj_end(j);
}

static void report_workload_json(struct json *j, const struct report *r,
				 const char *policy,
				 const struct workload_result *res)
{
	const struct gtbs_metrics *m = &res->metrics;
	unsigned int i;

	json_obj(j, NULL);
	json_str(j, "name", res->wl->name);
	json_str(j, "file", res->set->path);
	json_str(j, "policy", policy);
	json_u64(j, "t0_ns", res->t0_ns);
	json_u64(j, "t0_cycle", res->t0_cycle);
	json_boolean(j, "exact_arrivals", !res->wakeup_arrivals);
	if (res->load_ppm)
		json_double(j, "load", res->load_ppm / 1e6);
	if (res->runs[0].has_share) {
		json_u64(j, "share_from_cycles",
			 res->share_from - res->t0_cycle);
		json_u64(j, "share_to_cycles", res->share_to - res->t0_cycle);
	}
	json_arr(j, "runs");
	for (i = 0; i < res->wl->nr_runs; i++)
		report_run_json(j, r, res, i);
	json_arr_end(j);
	json_fp(j, "stp", m->stp);
	json_fp(j, "antt", m->antt);
	json_fp(j, "strictf", m->strictf);
	json_fp(j, "min_slowdown", m->min_slowdown);
	json_fp(j, "max_slowdown", m->max_slowdown);
	json_obj_end(j);
}

/* Members "workloads" and, for several, "geomean" of policy @p. */
static void report_policy_json(struct json *j, const struct report *r,
			       unsigned int p)
{
	unsigned int i;
	double gm[3];

	json_arr(j, "workloads");
	for (i = 0; i < r->nr_wls; i++)
		report_workload_json(j, r, r->policies[p], report_wl(r, p, i));
	json_arr_end(j);
	if (r->nr_wls > 1) {
		report_geomean(r, p, gm);
		json_obj(j, "geomean");
		json_u64(j, "workloads", r->nr_wls);
		json_double(j, "stp", gm[0]);
		json_double(j, "antt", gm[1]);
		json_double(j, "strictf", gm[2]);
		json_obj_end(j);
	}
}

/**
 * report_run() - print the results of a run command
 * @f: output.
 * @r: the results.
 *
 * JSON: the top-level "workloads" and "geomean" are those of the first
 * policy (as before policies could be compared); "policies" holds one
 * object per policy with its own "workloads" and "geomean".
 */
void report_run(FILE *f, const struct report *r)
{
	const struct wl_program *wc;
	struct json j;
	unsigned int p;

	if (r->format == REPORT_TEXT) {
		report_run_text(f, r);
		return;
	}
	report_json_open(&j, f, r);
	wc = report_wall_clock_program(r);
	json_boolean(&j, "wall_clock_dependent", wc != NULL);
	if (wc)
		json_str(&j, "wall_clock_program", wc->name);
	report_alone_json(&j, r);
	report_policy_json(&j, r, 0);
	json_arr(&j, "policies");
	for (p = 0; p < r->nr_policies; p++) {
		json_obj(&j, NULL);
		json_str(&j, "policy", r->policies[p]);
		report_policy_json(&j, r, p);
		json_obj_end(&j);
	}
	json_arr_end(&j);
	json_obj_end(&j);
	json_end(&j);
}


/* the SLO attainment of @s, a fraction (1 where no request ran) */
static double report_slo_share(const struct prog_result *s)
{
	return s->stats.n ? (double)s->stats.slo_met / s->stats.n : 1;
}

/* width of the request columns of a run: p50, p99, SLO, req/s */
#define REPORT_SCN_CELL	36
/* ... of a run with tokens: also its TTFT and TPOT p99 */
#define REPORT_SCN_TOKEN_CELL	56

static void report_scenario_text(FILE *f, const struct report *r,
				 unsigned int w)
{
	const struct workload_result *res0 = report_wl(r, 0, w);
	unsigned int nr_runs = res0->wl->nr_runs, i, p;
	int gw[WL_MAX_RUNS], pw = strlen("policy");
	unsigned int last = 0;
	char cell[128];

	for (p = 0; p < r->nr_policies; p++)
		if ((int)strlen(r->policies[p]) > pw)
			pw = strlen(r->policies[p]);
	for (i = 0; i < nr_runs; i++)
		if (report_run_has_requests(res0, i))
			last = i;
	fprintf(f, "\n%s (%s)\n  %-*s  %6s  %6s", res0->wl->name,
		res0->set->path, pw, "", "", "");
	for (i = 0; i < nr_runs; i++) {
		const struct prog_result *s = &res0->runs[i];

		if (!report_run_has_requests(res0, i))
			continue;
		if (s->stats.has_tokens &&
		    (s->stats.slo_ttft || s->stats.slo_tpot))
			snprintf(cell, sizeof(cell),
				 "%s, SLO TTFT %g ms, TPOT %g ms",
				 s->prog->name,
				 report_ms(s->stats.slo_ttft,
					   r->info->clock_khz),
				 report_ms(s->stats.slo_tpot,
					   r->info->clock_khz));
		else if (s->slo_cycles)
			snprintf(cell, sizeof(cell), "%s, SLO %g ms",
				 s->prog->name,
				 report_ms(s->slo_cycles, r->info->clock_khz));
		else
			snprintf(cell, sizeof(cell), "%s", s->prog->name);
		gw[i] = s->stats.has_tokens ? REPORT_SCN_TOKEN_CELL :
			REPORT_SCN_CELL;
		if ((int)strlen(cell) > gw[i])
			gw[i] = strlen(cell);
		fprintf(f, "  | %-*s", i == last ? 0 : gw[i], cell);
	}
	fprintf(f, "\n  %-*s  %6s  %6s", pw, "policy", "STP", "ANTT");
	for (i = 0; i < nr_runs; i++) {
		if (!report_run_has_requests(res0, i))
			continue;
		if (res0->runs[i].stats.has_tokens)
			snprintf(cell, sizeof(cell),
				 "%8s  %8s  %8s  %8s  %7s  %7s", "p50(ms)",
				 "p99(ms)", "TTFT99", "TPOT99", "SLO",
				 "req/s");
		else
			snprintf(cell, sizeof(cell), "%8s  %8s  %7s  %7s",
				 "p50(ms)", "p99(ms)", "SLO", "req/s");
		fprintf(f, "  | %-*s", gw[i], cell);
	}
	fputc('\n', f);
	for (p = 0; p < r->nr_policies; p++) {
		const struct workload_result *res = report_wl(r, p, w);

		fprintf(f, "  %-*s  %6.3f  %6.3f", pw, r->policies[p],
			report_dbl(res->metrics.stp),
			report_dbl(res->metrics.antt));
		for (i = 0; i < nr_runs; i++) {
			const struct prog_result *s = &res->runs[i];
			const struct req_stats *st = &s->stats;
			char slo[16] = "-";

			if (!report_run_has_requests(res, i))
				continue;
			if (st->has_tokens && (st->slo_ttft || st->slo_tpot))
				snprintf(slo, sizeof(slo), "%.1f%%",
					 100.0 * report_tokens_share(s));
			else if (s->slo_cycles)
				snprintf(slo, sizeof(slo), "%.1f%%",
					 100.0 * report_slo_share(s));
			if (st->has_tokens) {
				snprintf(cell, sizeof(cell),
					 "%8.3f  %8.3f  %8.3f  %8.3f  %7s  %7.1f",
					 report_ms(st->p50, r->info->clock_khz),
					 report_ms(st->p99, r->info->clock_khz),
					 report_ms(st->ttft_p99,
						   r->info->clock_khz),
					 report_ms(st->tpot_p99,
						   r->info->clock_khz), slo,
					 req_per_second(st, st->n,
							r->info->clock_khz));
				fprintf(f, "  | %-*s", gw[i], cell);
				continue;
			}
			snprintf(cell, sizeof(cell),
				 "%8.3f  %8.3f  %7s  %7.1f",
				 report_ms(st->p50, r->info->clock_khz),
				 report_ms(st->p99, r->info->clock_khz), slo,
				 req_per_second(st, st->n,
						r->info->clock_khz));
			fprintf(f, "  | %-*s", gw[i], cell);
		}
		fputc('\n', f);
	}
}

static void report_scenario_json(struct json *j, const struct report *r,
				 unsigned int w)
{
	const struct workload_result *res0 = report_wl(r, 0, w);
	unsigned int p, i;

	json_obj(j, NULL);
	json_str(j, "name", res0->wl->name);
	json_str(j, "file", res0->set->path);
	json_arr(j, "policies");
	for (p = 0; p < r->nr_policies; p++) {
		const struct workload_result *res = report_wl(r, p, w);

		json_obj(j, NULL);
		json_str(j, "policy", r->policies[p]);
		json_fp(j, "stp", res->metrics.stp);
		json_fp(j, "antt", res->metrics.antt);
		json_fp(j, "strictf", res->metrics.strictf);
		json_arr(j, "runs");
		for (i = 0; i < res->wl->nr_runs; i++) {
			const struct prog_result *s = &res->runs[i];
			const struct req_stats *st = &s->stats;

			if (!report_run_has_requests(res, i))
				continue;
			json_obj(j, NULL);
			json_str(j, "program", s->prog->name);
			json_u64(j, "requests", st->n);
			json_u64(j, "p50_cycles", st->p50);
			json_u64(j, "p99_cycles", st->p99);
			json_double(j, "p50_ms",
				    report_ms(st->p50, r->info->clock_khz));
			json_double(j, "p99_ms",
				    report_ms(st->p99, r->info->clock_khz));
			json_double(j, "requests_per_s",
				    req_per_second(st, st->n,
						   r->info->clock_khz));
			if (s->slo_cycles) {
				json_u64(j, "slo_cycles", s->slo_cycles);
				json_double(j, "slo_ms",
					    report_ms(s->slo_cycles,
						      r->info->clock_khz));
				json_u64(j, "slo_met", st->slo_met);
				json_double(j, "slo_attainment",
					    report_slo_share(s));
			}
			if (st->has_tokens)
				report_tokens_json(j, r, s);
			json_obj_end(j);
		}
		json_arr_end(j);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_obj_end(j);
}

/**
 * report_scenarios() - the summary of "gputbs-sim eval --scenario"
 * @f: output.
 * @r: the results: every workload (@r->nr_wls) under every policy.
 *
 * Per workload, one row per policy: STP, ANTT and, per run with requests
 * (requests= above 1 or slo=), its p50 and p99 latency in ms (cycles over
 * the device's clock), SLO attainment and requests completed per second
 * (Documentation/evaluation.rst, "Modern scenarios"); a run with
 * ``token=1`` grids also its p99 TTFT and TPOT in ms, its SLO attainment
 * the share within ``slo-ttft=`` and ``slo-tpot=``.  JSON: "device"
 * and "scenarios", one object per workload with one per policy (a run
 * with tokens: "ttft_p50_ms", "ttft_p99_ms", "tpot_p50_ms",
 * "tpot_p99_ms", report_tokens_json()).
 */
void report_scenarios(FILE *f, const struct report *r)
{
	struct json j;
	unsigned int w;

	if (r->format == REPORT_TEXT) {
		fprintf(f, "scenarios on %s (%u SMs, %u MHz): STP higher is better, ANTT lower is better;\n"
			"per run with requests: p50 and p99 latency (ms), SLO attainment, req/s\n",
			r->preset ? r->preset : "the device",
			(unsigned int)r->info->nr_sms,
			(unsigned int)(r->info->clock_khz / 1000));
		for (w = 0; w < r->nr_wls; w++)
			if (report_has_tokens(report_wl(r, 0, w)))
				break;
		if (w < r->nr_wls)
			fprintf(f, "with tokens (token=1 grids) also the p99 TTFT and TPOT (ms), and SLO: the share within slo-ttft and slo-tpot\n");
		for (w = 0; w < r->nr_wls; w++)
			report_scenario_text(f, r, w);
		return;
	}
	report_json_open(&j, f, r);
	json_arr(&j, "scenarios");
	for (w = 0; w < r->nr_wls; w++)
		report_scenario_json(&j, r, w);
	json_arr_end(&j);
	json_obj_end(&j);
	json_end(&j);
}

/* A grid label as the trace format allows it: no , ' " \ (nor spaces). */
static void report_trace_label(char *dst, const char *label)
{
	size_t i;

	for (i = 0; label[i] && i < GPUTBS_LABEL_LEN - 1; i++)
		dst[i] = strchr(",'\"\\ ", label[i]) ? '_' : label[i];
	dst[i] = '\0';
}

/**
 * report_trace() - write a workload execution as a block trace
 * @f: output.
 * @r: the run (device, policy).
 * @res: the execution, run with &run_opts.record_blocks.
 *
 * Documentation/trace-format.rst: a ``grid`` line per grid (IDs from 0 in
 * the order of the runs and of their grids), then its ``block`` lines in
 * block-end order, with absolute emulated cycles.
 *
 * Return: 1 if a cycle exceeds 2^40, the largest the trace format (and so
 * gputbs predict) accepts, else 0.
 */
int report_trace(FILE *f, const struct report *r,
		 const struct workload_result *res)
{
	char label[GPUTBS_LABEL_LEN];
	unsigned int i, k, id = 0;
	__u32 b;
	int big = 0;

	fprintf(f, "# gputbs run --trace: workload %s (%s), policy %s\n",
		res->wl->name, res->set->path, r->policies[0]);
	fprintf(f, "# %u SMs, %" PRIu64 " ps/cycle; cycles are absolute "
		"emulated cycles\n", r->info->nr_sms,
		(uint64_t)r->info->time_scale_ps);
	fprintf(f, "# replay: gputbs predict --sms %u --trace FILE\n",
		r->info->nr_sms);
	for (i = 0; i < res->wl->nr_runs; i++) {
		const struct prog_result *s = &res->runs[i];

		for (k = 0; k < s->prog->nr_grids; k++, id++) {
			const struct wl_grid *g = &s->prog->grids[k];

			report_trace_label(label, g->label);
			fprintf(f, "# run %u: program %s, grid %u\n", i,
				s->prog->name, k);
			fprintf(f, "grid %u blocks=%u residency=%u label=%s\n",
				id, g->nr_blocks, s->grids[k].residency,
				label);
			for (b = 0; s->blocks && s->blocks[k] && b < g->nr_blocks; b++) {
				const struct gputbs_block_record *br =
					&s->blocks[k][b];

				if (br->end_cycle > GTBS_MAX_BLOCK_CYCLES)
					big = 1;
				fprintf(f, "block %u %u %u %" PRIu64 " %" PRIu64
					"\n", id, br->sm, br->slot,
					(uint64_t)br->start_cycle,
					(uint64_t)br->end_cycle);
			}
		}
	}
	return big;
}

/* Reference runtime of a grid: its expect= value, else the model. */
static __u64 report_reference(const struct report *r, const struct wl_grid *g,
			      const struct gputbs_wait *w)
{
	return g->expect ? g->expect : report_model(r->info, g, w->residency);
}

/* Relative error of @cycles against @ref, ppm (signed). */
static __s64 report_error_ppm(__u64 cycles, __u64 ref)
{
	__s64 diff = (__s64)cycles - (__s64)ref;

	if (!ref)
		return INT64_MAX;
	return (__s64)((__int128)diff * 1000000 / (__s64)ref);
}

static bool report_within(const struct report *r, __s64 err_ppm)
{
	return err_ppm != INT64_MAX &&
	       (err_ppm < 0 ? -err_ppm : err_ppm) <= (__s64)r->tolerance_ppm;
}

static void report_calibration_text(FILE *f, const struct report *r,
				    unsigned int within, unsigned int outside)
{
	unsigned int i, k;
	char scale[48];
	int pw, gw;

	report_widths(r, &pw, &gw);
	fprintf(f, "calibration (policy %s, %u SMs, %s, tolerance %.2f%%)\n",
		r->policy, r->info->nr_sms,
		report_scale(r, scale, sizeof(scale)), r->tolerance_ppm / 1e4);
	fprintf(f, "  %-*s  %-*s  %2s  %7s  %8s  %11s  %11s  %11s  %8s\n",
		pw, "program", gw, "grid", "R", "blocks", "t(cyc)",
		"model(cyc)", "expect(cyc)", "alone(cyc)", "error");
	for (i = 0; i < r->nr_alone; i++) {
		const struct prog_result *a = &r->alone[i];

		for (k = 0; k < a->prog->nr_grids; k++) {
			const struct wl_grid *g = &a->prog->grids[k];
			const struct gputbs_wait *w = &a->grids[k];
			__u64 cyc = report_cycles(w);
			__s64 e = report_error_ppm(cyc,
						   report_reference(r, g, w));

			fprintf(f, "  %-*s  %-*s  %2u  %7u  %8" PRIu64
				"  %11" PRIu64, pw, a->prog->name, gw,
				g->label, w->residency, g->nr_blocks,
				(uint64_t)report_mean_t(g),
				(uint64_t)report_model(r->info, g,
						       w->residency));
			if (g->expect)
				fprintf(f, "  %11" PRIu64, (uint64_t)g->expect);
			else
				fprintf(f, "  %11s", "-");
			fprintf(f, "  %11" PRIu64 "  %+7.2f%%  %s\n",
				(uint64_t)cyc, e / 1e4,
				report_within(r, e) ? "ok" : "OUTSIDE");
		}
	}
	fprintf(f, "calibration: %u within %.2f%%, %u outside\n", within,
		r->tolerance_ppm / 1e4, outside);
}

static void report_calibration_json(FILE *f, const struct report *r,
				    unsigned int within, unsigned int outside)
{
	struct json j;
	unsigned int i, k;

	report_json_open(&j, f, r);
	json_u64(&j, "tolerance_ppm", r->tolerance_ppm);
	json_arr(&j, "grids");
	for (i = 0; i < r->nr_alone; i++) {
		const struct prog_result *a = &r->alone[i];

		for (k = 0; k < a->prog->nr_grids; k++) {
			const struct wl_grid *g = &a->prog->grids[k];
			const struct gputbs_wait *w = &a->grids[k];
			__u64 ref = report_reference(r, g, w);
			__s64 e = report_error_ppm(report_cycles(w), ref);

			json_obj(&j, NULL);
			json_str(&j, "program", a->prog->name);
			json_str(&j, "label", g->label);
			json_u64(&j, "blocks", g->nr_blocks);
			json_u64(&j, "mean_block_cycles", report_mean_t(g));
			json_u64(&j, "model_cycles",
				 report_model(r->info, g, w->residency));
			json_u64(&j, "expect_cycles", g->expect);
			json_u64(&j, "cycles", report_cycles(w));
			json_s64(&j, "error_ppm", e);
			json_boolean(&j, "within", report_within(r, e));
			report_wait_json(&j, w);
			json_obj_end(&j);
		}
	}
	json_arr_end(&j);
	json_u64(&j, "within", within);
	json_u64(&j, "outside", outside);
	json_obj_end(&j);
	json_end(&j);
}

/**
 * report_calibration() - compare alone runtimes with expected ones
 * @f: output.
 * @r: the results; @alone and @tolerance_ppm are used.
 *
 * Each grid's alone runtime is compared with its expect= value, or with
 * the staircase model when it has none.
 *
 * Return: the number of grids outside the tolerance.
 */
unsigned int report_calibration(FILE *f, const struct report *r)
{
	unsigned int i, k, within = 0, outside = 0;

	for (i = 0; i < r->nr_alone; i++) {
		const struct prog_result *a = &r->alone[i];

		for (k = 0; k < a->prog->nr_grids; k++) {
			const struct wl_grid *g = &a->prog->grids[k];
			const struct gputbs_wait *w = &a->grids[k];
			__s64 e = report_error_ppm(report_cycles(w),
						   report_reference(r, g, w));

			if (report_within(r, e))
				within++;
			else
				outside++;
		}
	}
	if (r->format == REPORT_JSON)
		report_calibration_json(f, r, within, outside);
	else
		report_calibration_text(f, r, within, outside);
	return outside;
}
