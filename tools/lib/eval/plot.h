/* SPDX-License-Identifier: GPL-2.0 */
/*
 * plot.h - the sweep's figures through gnuplot (plot.c)
 *
 * Copyright (C) 2026 The gputbs developers
 */
#ifndef _GPUTBS_EVAL_PLOT_H
#define _GPUTBS_EVAL_PLOT_H

#include "eval.h"

int sim_plot(const struct sim_eval *ev, const struct sim_timeline *tl,
	     const char *dir);
/* DIR/NAME of a figure's data or script: NULL or -EIO after a message */
FILE *sim_open(const char *dir, const char *name);
int sim_close(FILE *f, const char *dir, const char *name);
/* SIM_GNUPLOT_MISSING - sim_run_gnuplot(): gnuplot could not be run */
#define SIM_GNUPLOT_MISSING	127
int sim_run_gnuplot(const char *dir, const char *script);
void sim_gp_str(FILE *gp, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif /* _GPUTBS_EVAL_PLOT_H */
