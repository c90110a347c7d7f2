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
 *   results.c   a sweep read back from its JSON (gputbs-sim report)
 *   jsonparse.c the JSON reader for results.c
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

/* jsonparse.c */
/**
 * enum sim_jtype - the kind of a parsed JSON value
 */
enum sim_jtype { SIM_JNULL, SIM_JBOOL, SIM_JNUM, SIM_JSTR, SIM_JARR, SIM_JOBJ };

/**
 * struct sim_jval - a parsed JSON value
 * @type: its kind.
 * @str: SIM_JSTR: the string, unescaped; SIM_JNUM: the number's text;
 *	SIM_JBOOL: "true" or "false"; SIM_JOBJ members: see @key.
 * @key: inside an object, the member's name; else NULL.
 * @n: SIM_JARR, SIM_JOBJ: entries of @items.
 * @items: SIM_JARR, SIM_JOBJ: the elements or members, in order.
 */
struct sim_jval {
	enum sim_jtype type;
	char *str;
	char *key;
	size_t n;
	struct sim_jval *items;
};

int sim_json_parse(const char *text, struct sim_jval *root, char *err,
		   size_t errlen);
void sim_json_free(struct sim_jval *v);
const struct sim_jval *sim_json_get(const struct sim_jval *obj,
				    const char *key);

#endif /* _GPUTBS_SIM_H */
