// SPDX-License-Identifier: GPL-2.0
/*
 * gputbs_trace.c - instantiates the tracepoints of gputbs_trace.h.
 *
 * Copyright (C) 2026 The gputbs developers
 */

/**
 * DOC: Tracepoints
 *
 * The trace system ``gputbs`` has the events grid_submit, grid_start,
 * block_start, block_end, block_preempt, block_restore, grid_end, preempt,
 * predict, policy_switch and sharing_mode (gputbs_trace.h, Documentation/tracing.rst).  They are
 * emitted under the device lock from the module's backend of the core
 * (gputbs_obs.c), the SUBMIT ioctl and release (gputbs_file.c) and the
 * sysfs ``policy`` file (gputbs_sysfs.c); their cycle fields are emulated
 * cycles.  This file only creates them: Kbuild adds kmod/ to its include
 * path, so that <trace/define_trace.h> finds gputbs_trace.h again.
 */
#define CREATE_TRACE_POINTS
#include "gputbs_trace.h"
