/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim.h - gputbs-sim, the virtual-time simulator of gputbs.
 *
 * The simulator runs workloads on a private &struct gtbs_dev driven in
 * pure virtual time by the portable core (sm-emu/): the same policies,
 * predictor, occupancy calculation, timing model and metrics as the
 * module.  It has no scheduling code of its own.
 *
 *   simulate.c  one workload on a fresh device (sim_run()), the backend
 *               of the evaluation sweep (tools/lib/eval/)
 *   main.c      the command line (eval, run, report, blocks, sweep,
 *               devices)
 *   sweep.c     serving at load (gputbs-sim sweep)
 *   devices.c   the device presets (gputbs-sim devices)
 *   blocks.c    one grid's blocks (gputbs-sim blocks)
 *   reqplot.c   request latency figures (gputbs-sim run --plot)
 *   results.c   a sweep read back from its JSON (gputbs-sim report),
 *               and the JSON reading it shares with sweep.c (json-c)
 *   plugin.c    policies from shared objects (--policy-plugin)
 *
 * Copyright (C) 2026 The gputbs developers
 */
#ifndef _GPUTBS_SIM_H
#define _GPUTBS_SIM_H

#include "../lib/eval/args.h"
#include "../lib/eval/eval.h"
#include "../lib/eval/evalcmd.h"

/* blocks.c */
int cmd_blocks(int argc, char **argv);

/* sweep.c */
int cmd_sweep(int argc, char **argv);

/* devices.c */
int cmd_devices(int argc, char **argv);

/* simulate.c */
extern const struct sim_backend sim_backend_virtual;
int sim_grid_desc(const struct wl_grid *g, u64 seed_mix,
		  struct gtbs_grid_desc *desc);
int sim_run(const struct sim_job *job, struct sim_out *out,
	    const char **why);
int sim_service_interval(const struct sim_job *alone,
			 const struct wl_run *run, u64 *interval,
			 const char **why);

/* reqplot.c */
struct workload_result;
int sim_plot_requests(const char *dir, const struct workload_result *wls,
		      unsigned int nr_wls, const char * const *names,
		      unsigned int nr_policies, u32 clock_khz);

/* plugin.c (gputbs-sim only: it needs dlopen() and --export-dynamic) */
int sim_load_plugin(const char *path);
int sim_load_plugins(const char * const *paths, unsigned int n);

/* results.c */
int sim_load_results(const char *path, struct sim_eval *ev,
		     struct sim_timeline *tl);
void sim_results_free(struct sim_eval *ev);

/*
 * JSON read through json-c (results.c, also for sweep.c --merge): null
 * is json-c's NULL value, so sim_json_get() is NULL for a member that is
 * null or absent, and sim_json_has() tells them apart.  A number's text
 * is json_object_get_string()'s: the integer printed again, or a
 * double's text as it was in the file.
 */
struct json_object;
struct json_object *sim_json_parse(const char *text, char *err,
				   size_t errlen, int *ret);
struct json_object *sim_json_get(const struct json_object *obj,
				 const char *key);
bool sim_json_has(const struct json_object *obj, const char *key);
const char *sim_json_num(const struct json_object *v);
const char *sim_json_str(const struct json_object *v);

#endif /* _GPUTBS_SIM_H */
