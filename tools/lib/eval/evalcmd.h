/* SPDX-License-Identifier: GPL-2.0 */
/*
 * evalcmd.h - the eval command line, shared by gputbs-sim and "gputbs eval" (evalcmd.c)
 *
 * Copyright (C) 2026 The gputbs developers
 */
#ifndef _GPUTBS_EVAL_EVALCMD_H
#define _GPUTBS_EVAL_EVALCMD_H

#include "eval.h"

/**
 * struct sim_eval_cli - what differs between the eval commands
 * @usage: the usage, a printf format with one %s (the registry's
 *	policies, comma-separated).
 * @module: "gputbs eval": the module runs the jobs; --device, no --jobs,
 *	--sms or --sjf-key (the module's SMs and its SJF key, Equation 1).
 * @start: called once the sweep is prepared, before it runs: sets
 *	&sim_eval.backend (and with @module the device's configuration);
 *	returns 0 or an exit status after a message.
 * @finish: NULL, or called after the runs, whether they succeeded or not
 *	(@ret: the status so far); returns the status.
 * @priv: for @start and @finish; "gputbs eval" also gets --device in it
 *	through @set_device.
 * @set_device: with @module, --device PATH.
 * @load_plugins: NULL (the command takes no --policy-plugin), or
 *	sim_load_plugins(): called once the options are parsed, before the
 *	policy list and the --param options are resolved.
 */
struct sim_eval_cli {
	const char *usage;
	bool module;
	int (*start)(struct sim_eval *ev, void *priv);
	int (*finish)(struct sim_eval *ev, void *priv, int ret);
	void (*set_device)(void *priv, const char *path);
	void *priv;
	int (*load_plugins)(const char * const *paths, unsigned int n);
};

int sim_eval_main(int argc, char **argv, const struct sim_eval_cli *cli);
int sim_load_workloads(const char *dir, struct wl_set **set, char **file);

int sim_emit(const struct sim_eval *ev, const struct sim_timeline *tl,
	     bool json, const char *plot);

#endif /* _GPUTBS_EVAL_EVALCMD_H */
