/* SPDX-License-Identifier: GPL-2.0 */
/*
 * paper.h - the sweep against the paper's tables (paper.c)
 *
 * Copyright (C) 2026 The gputbs developers
 */
#ifndef _GPUTBS_EVAL_PAPER_H
#define _GPUTBS_EVAL_PAPER_H

#include "eval.h"

struct json;
void sim_paper_text(FILE *f, const struct sim_eval *ev);
void sim_paper_json(struct json *j, const struct sim_eval *ev);

#endif /* _GPUTBS_EVAL_PAPER_H */
