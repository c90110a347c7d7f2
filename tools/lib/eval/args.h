/* SPDX-License-Identifier: GPL-2.0 */
/*
 * args.h - option parsing and messages of the eval commands and gputbs-sim (args.c)
 *
 * Copyright (C) 2026 The gputbs developers
 */
#ifndef _GPUTBS_EVAL_ARGS_H
#define _GPUTBS_EVAL_ARGS_H

#include "eval.h"

typedef void sim_help_fn(FILE *f);
extern const char *sim_progname;
void sim_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void sim_err_line(const char *line);
void sim_registry(char *buf, size_t len, const char *sep);
void sim_registry_sweep(char *buf, size_t len, const char *sep);
const char *sim_timing_name(u32 model);
const char *sim_block_times_name(u32 model);
int sim_parse_block_times(sim_help_fn *help, const char *arg,
			  struct gtbs_dev_config *cfg);
int sim_timing_parse(const char *name, struct gtbs_dev_config *cfg);
int sim_parse_timing(sim_help_fn *help, const char *arg,
		     struct gtbs_dev_config *cfg);
/* The note that sjf changed meaning, for gputbs-sim and gputbs. */
#define SIM_SJF_NOTE \
	"note: sjf is now the paper's serial SJF (shortest grid alone first, one grid at a time); the former SJF oracle is srtf-oracle\n"
void sim_sjf_note(void);
int sim_usage_error(sim_help_fn *help, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int sim_parse_uint(const char *s, u64 lo, u64 hi, u64 *out);
int sim_parse_time(const char *s, size_t len, struct wl_time *t);
int sim_parse_policies(sim_help_fn *help, const char *opt, const char *arg,
		       const struct gtbs_policy_ops **out, unsigned int *n);
int sim_all_policies(sim_help_fn *help, const struct gtbs_policy_ops **out,
		     unsigned int *n);
int sim_add_plugin(sim_help_fn *help, const char *arg, const char **paths,
		   unsigned int *n);
int sim_parse_format(sim_help_fn *help, const char *arg, bool *json);
unsigned int sim_jobs_default(void);
int sim_parse_jobs(sim_help_fn *help, const char *arg, unsigned int *jobs);
int sim_parse_sms(sim_help_fn *help, const char *arg,
		  struct gtbs_dev_config *cfg);
int sim_parse_seed(sim_help_fn *help, const char *arg, u64 *seed);
int sim_parse_preset(sim_help_fn *help, const char *arg,
		     const struct gtbs_dev_preset **preset);
void sim_apply_preset(struct gtbs_dev_config *cfg,
		      const struct gtbs_dev_preset *preset, bool sms_given,
		      bool timing_given);
void sim_modes_default(struct sim_modes *m);
int sim_parse_pred_mode(sim_help_fn *help, const char *arg,
			struct sim_modes *m);
int sim_parse_param(sim_help_fn *help, const char *arg, struct sim_modes *m);
int sim_parse_preempt(sim_help_fn *help, int opt, const char *arg,
		      struct sim_modes *m);
int sim_check_params(sim_help_fn *help, const struct sim_modes *m);
int sim_modes_apply(struct gtbs_dev *dev, const struct sim_modes *m,
		    const char **why);
const char *sim_param_text(const struct sim_modes *m, const char *name,
			   char *buf, size_t len);
int sim_parse_share_mode(sim_help_fn *help, const char *arg,
			 struct sim_modes *m);

#endif /* _GPUTBS_EVAL_ARGS_H */
