// SPDX-License-Identifier: GPL-2.0
/*
 * devices.c - gputbs-sim devices: the device presets, their vendor
 * figures and what a context switch of a full device costs on each
 * (Documentation/design.rst, "Device presets" and "Preemption cost").
 *
 * Copyright (C) 2026 The gputbs developers
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>

#include "sim.h"
#include "../lib/json.h"

static void devices_help(FILE *f)
{
	fputs("Usage: gputbs-sim devices [--format text|json]\n"
	      "\n"
	      "List the device presets (--device NAME of the other commands): their\n"
	      "SMs, clock and per-SM limits, their peak DRAM bandwidth and the\n"
	      "bandwidth at which they save contexts, and the time to save the\n"
	      "contexts of a fully occupied device (every SM's registers and shared\n"
	      "memory): at that bandwidth (context_save_us_full), at the peak, and\n"
	      "as gputbs models it (--switch-bw, default 8 bytes per cycle per SM).\n"
	      "\n"
	      "Options:\n"
	      "  -f, --format FMT  text (default) or json\n"
	      "  -h, --help        this help\n", f);
}

/**
 * struct devices_row - what the command prints of one preset
 * @p: the preset.
 * @bytes: the contexts of a full device, bytes
 *	(gtbs_config_context_bytes()).
 * @save_us: @bytes at &gtbs_dev_preset.save_bw_mbs, microseconds.
 * @peak_us: @bytes at &gtbs_dev_preset.mem_bw_mbs, microseconds.
 * @bw_cycle: the bytes per cycle per SM that &gtbs_dev_preset.save_bw_mbs
 *	is at the preset's clock.
 * @model_us: @bytes at the default &gtbs_dev.switch_bytes_per_cycle of
 *	every SM at once, microseconds.
 */
struct devices_row {
	const struct gtbs_dev_preset *p;
	u64 bytes;
	double save_us;
	double peak_us;
	double bw_cycle;
	double model_us;
};

static void devices_row(const struct gtbs_dev_preset *p,
			struct devices_row *r)
{
	const struct gtbs_dev_config *c = &p->cfg;
	double hz = (double)c->clock_khz * 1000.0;

	r->p = p;
	r->bytes = gtbs_config_context_bytes(c);
	/* MB/s is bytes per microsecond */
	r->save_us = (double)r->bytes / (double)p->save_bw_mbs;
	r->peak_us = (double)r->bytes / (double)p->mem_bw_mbs;
	r->bw_cycle = (double)p->save_bw_mbs * 1e6 / hz / c->nr_sms;
	r->model_us = (double)r->bytes /
		      ((double)GTBS_SWITCH_BYTES_PER_CYCLE_DEFAULT *
		       c->nr_sms * hz / 1e6);
}

static void devices_json(const struct devices_row *rows, unsigned int n)
{
	struct json j;
	unsigned int i;

	json_init(&j, stdout);
	json_obj(&j, NULL);
	json_u64(&j, "switch_bytes_per_cycle_default",
		 GTBS_SWITCH_BYTES_PER_CYCLE_DEFAULT);
	json_arr(&j, "devices");
	for (i = 0; i < n; i++) {
		const struct gtbs_dev_preset *p = rows[i].p;
		const struct gtbs_dev_config *c = &p->cfg;

		json_obj(&j, NULL);
		json_str(&j, "name", p->name);
		json_str(&j, "desc", p->desc);
		json_u64(&j, "sms", c->nr_sms);
		json_u64(&j, "clock_khz", c->clock_khz);
		json_u64(&j, "max_threads_per_sm", c->max_threads_per_sm);
		json_u64(&j, "max_warps_per_sm", c->max_warps_per_sm);
		json_u64(&j, "max_blocks_per_sm", c->max_blocks_per_sm);
		json_u64(&j, "max_regs_per_sm", c->max_regs_per_sm);
		json_u64(&j, "max_shmem_per_sm", c->max_shmem_per_sm);
		json_u64(&j, "mem_bw_mbs", p->mem_bw_mbs);
		json_u64(&j, "save_bw_mbs", p->save_bw_mbs);
		json_double(&j, "switch_bytes_per_cycle", rows[i].bw_cycle);
		json_u64(&j, "context_bytes_full", rows[i].bytes);
		json_double(&j, "context_mib_full",
			    (double)rows[i].bytes / 1048576.0);
		json_double(&j, "context_save_us_full", rows[i].save_us);
		json_double(&j, "context_save_us_full_peak", rows[i].peak_us);
		json_double(&j, "context_save_us_full_model",
			    rows[i].model_us);
		json_obj_end(&j);
	}
	json_arr_end(&j);
	json_obj_end(&j);
	json_end(&j);
}

static void devices_text(const struct devices_row *rows, unsigned int n)
{
	unsigned int i;

	printf("%-7s %4s %5s %7s %5s %6s %8s %8s %9s %9s %6s %8s %8s %8s %8s %8s\n",
	       "preset", "SMs", "MHz", "threads", "warps", "blocks",
	       "regs/SM", "shmem/SM", "peak MB/s", "save MB/s", "B/cyc",
	       "full MB", "full MiB", "save us", "peak us", "model us");
	for (i = 0; i < n; i++) {
		const struct gtbs_dev_config *c = &rows[i].p->cfg;

		printf("%-7s %4u %5u %7u %5u %6u %8u %7uK %9" PRIu64 " %9" PRIu64
		       " %6.2f %8.2f %8.2f %8.2f %8.2f %8.2f\n",
		       rows[i].p->name, c->nr_sms, c->clock_khz / 1000,
		       c->max_threads_per_sm, c->max_warps_per_sm,
		       c->max_blocks_per_sm, c->max_regs_per_sm,
		       c->max_shmem_per_sm / 1024,
		       (uint64_t)rows[i].p->mem_bw_mbs,
		       (uint64_t)rows[i].p->save_bw_mbs, rows[i].bw_cycle,
		       rows[i].bytes / 1e6, rows[i].bytes / 1048576.0,
		       rows[i].save_us, rows[i].peak_us, rows[i].model_us);
	}
	printf("\nfull MB, MiB: every SM's registers (4 bytes each) and shared memory, the most\n"
	       "its resident blocks can hold; save us: at save MB/s (a100: GPreempt's measured\n"
	       "1.1 TB/s; the others the same 70.7%% of their peak, assumed); B/cyc: save MB/s\n"
	       "per SM per cycle; model us: at gputbs's default --switch-bw %d bytes per cycle\n"
	       "per SM (Documentation/design.rst, \"Preemption cost\")\n",
	       GTBS_SWITCH_BYTES_PER_CYCLE_DEFAULT);
}

/**
 * cmd_devices() - gputbs-sim devices
 * @argc: arguments, argv[0] "gputbs-sim devices".
 * @argv: the options.
 *
 * Return: the exit status: 0, or %SIM_EXIT_USAGE.
 */
int cmd_devices(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct devices_row rows[16];
	const struct gtbs_dev_preset *p;
	unsigned int n = 0;
	bool json = false;
	int opt, ret = 0;

	while (!ret && (opt = getopt_long(argc, argv, "f:h", opts,
					  NULL)) != -1) {
		switch (opt) {
		case 'f':
			ret = sim_parse_format(devices_help, optarg, &json);
			break;
		case 'h':
			devices_help(stdout);
			return 0;
		default:
			devices_help(stderr);
			return SIM_EXIT_USAGE;
		}
	}
	if (ret)
		return ret;
	if (optind < argc)
		return sim_usage_error(devices_help, "unexpected argument '%s'",
				       argv[optind]);
	while (n < ARRAY_SIZE(rows) && (p = gtbs_config_preset_at(n))) {
		devices_row(p, &rows[n]);
		n++;
	}
	if (json)
		devices_json(rows, n);
	else
		devices_text(rows, n);
	return fflush(stdout) ? SIM_EXIT_SYSTEM : 0;
}
