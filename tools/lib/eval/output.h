/* SPDX-License-Identifier: GPL-2.0 */
/*
 * output.h - the evaluation sweep in text and JSON (output.c)
 *
 * Copyright (C) 2026 The gputbs developers
 */
#ifndef _GPUTBS_EVAL_OUTPUT_H
#define _GPUTBS_EVAL_OUTPUT_H

#include "eval.h"

void sim_report_text(FILE *f, const struct sim_eval *ev);
void sim_report_json(FILE *f, const struct sim_eval *ev,
		     const struct sim_timeline *tl);

#endif /* _GPUTBS_EVAL_OUTPUT_H */
