/* SPDX-License-Identifier: GPL-2.0 */
/*
 * gtbs_names.h - the one table of the names gputbs prints for its enums.
 *
 * Copyright (C) 2026 The gputbs developers
 */
#ifndef _GTBS_NAMES_H
#define _GTBS_NAMES_H

/**
 * DOC: Enum names
 *
 * debugfs, sysfs, the netlink family's spec, libgputbs
 * (gputbs_preemption_reason_name() and the like), the CLI and the
 * tracepoints print the same names for the same values.  Each macro below
 * is that one table: the designated initialisers of a name array, for the
 * enum whose constants start with @p (``GTBS_PRIO_`` in the core,
 * ``GPUTBS_PRIO_`` in the uAPI), so that a user writes
 * ``static const char * const names[] = { GTBS_PRIO_CLASS_NAMES(GTBS_PRIO_) };``.
 * A new value is one entry here.  The tracepoints' ``__print_symbolic()``
 * lists (kmod/gputbs_trace.h), which ftrace needs literally, are checked
 * against these tables by the unit test ``trace_names_match_table``.
 *
 * The grid states have two spellings: the core's (``timed_out``, as
 * tracepoints and debugfs print it) and the netlink spec's (``timed-out``:
 * YNL names use hyphens).
 */

/* enum gtbs_prio_class, the uAPI's GPUTBS_PRIO_* */
#define GTBS_PRIO_CLASS_NAMES(p)					\
	[p##LOW] = "low", [p##NORMAL] = "normal", [p##HIGH] = "high",	\
	[p##REALTIME] = "realtime"

/*
 * The preemption reasons: the module's enum gputbs_preempt_reason
 * (GPUTBS_PREEMPT_*) and the uAPI's GPUTBS_PREEMPTION_REASON_*.
 */
#define GTBS_PREEMPT_REASON_NAMES(p)					\
	[p##CLASS] = "class", [p##STARVE] = "starve",			\
	[p##SHORTER] = "shorter", [p##SAMPLE] = "sample",		\
	[p##SHARE] = "share", [p##LIMIT] = "limit", [p##POLICY] = "policy"

/* enum gtbs_pick_reason: a policy's reason for its pick (GTBS_PICK_*) */
#define GTBS_PICK_REASON_NAMES(p)					\
	[p##POLICY] = "policy", [p##SHORTER] = "shorter",		\
	[p##SAMPLE] = "sample", [p##SHARE] = "share", [p##LIMIT] = "limit"

/* enum gtbs_preempt_mech (GTBS_MECH_*): what preempted a block */
#define GTBS_PREEMPT_MECH_NAMES(p)					\
	[p##DRAIN] = "drain", [p##SWITCH] = "switch", [p##FLUSH] = "flush"

/* enum gtbs_grid_state (GTBS_GRID_*), the core's spelling */
#define GTBS_GRID_STATE_NAMES(p)					\
	[p##NEW] = "new", [p##ARRIVING] = "arriving",			\
	[p##QUEUED] = "queued", [p##RUNNING] = "running",		\
	[p##DONE] = "done", [p##CANCELLED] = "cancelled",		\
	[p##TIMED_OUT] = "timed_out", [p##WAITING] = "waiting"

/* the uAPI's GPUTBS_GRID_STATE_*, the netlink spec's spelling (no NEW) */
#define GTBS_GRID_STATE_NL_NAMES(p)					\
	[p##ARRIVING] = "arriving", [p##QUEUED] = "queued",		\
	[p##RUNNING] = "running", [p##DONE] = "done",			\
	[p##CANCELLED] = "cancelled", [p##TIMED_OUT] = "timed-out"

/* the uAPI's GPUTBS_TENANT_KIND_*, the netlink spec's spelling */
#define GTBS_TENANT_KIND_NAMES(p)					\
	[p##DEVICE] = "device", [p##CGROUP] = "cgroup", [p##FILE] = "file"

#endif /* _GTBS_NAMES_H */
