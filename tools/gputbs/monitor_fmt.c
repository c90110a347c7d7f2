// SPDX-License-Identifier: GPL-2.0
/*
 * monitor_fmt.c - events of the gputbs netlink family as text and as one
 * JSON object per line, for "gputbs monitor" and "gputbs top".
 *
 * Copyright (C) 2026 The gputbs developers
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>

#include "cli.h"
#include "monitor_fmt.h"
#include "gtbs_names.h"
#include "../lib/json.h"

const char *mon_class_name(__u32 prio_class)
{
	static const char * const names[] = {
		GTBS_PRIO_CLASS_NAMES(GPUTBS_PRIO_)
	};

	if (prio_class < sizeof(names) / sizeof(names[0]) && names[prio_class])
		return names[prio_class];
	return "unknown";
}

/* "gputbs: ..." for an error of gputbs_monitor_open() or a request. */
int monitor_error(int err)
{
	if (err == -ENOENT)
		err_msg("generic netlink family '%s' not found (is the module loaded?)",
			GPUTBS_FAMILY_NAME);
	else
		err_msg("netlink family %s: %s", GPUTBS_FAMILY_NAME,
			gputbs_strerror(err));
	return EXIT_DEVICE;
}

/*
 * "params: NAME=VALUE UNIT ..." of the current policy, one line ("params:
 * none" for a policy without parameters); a choice shows its value name.
 */
void mon_params_text(FILE *f, const struct gputbs_mon_dev *d)
{
	__u32 i;

	fputs("params:", f);
	if (!d->nr_params)
		fputs(" none", f);
	for (i = 0; i < d->nr_params; i++) {
		const struct gputbs_mon_param *p = &d->params[i];

		if (p->value_name[0])
			fprintf(f, " %s=%s", p->name, p->value_name);
		else
			fprintf(f, " %s=%llu%s%s", p->name,
				(unsigned long long)p->value,
				p->unit[0] ? " " : "", p->unit);
	}
	fputc('\n', f);
}

void mon_event_text(FILE *f, const struct gputbs_mon_event *ev)
{
	const struct gputbs_mon_grid *g = &ev->grid;

	switch (ev->type) {
	case GPUTBS_EVENT_LOST:
		fprintf(f, "%14s  %-14s  %" PRIu64 " events dropped by the module\n",
			"-", gputbs_event_name(ev->type), (uint64_t)ev->lost);
		return;
	case GPUTBS_EVENT_POLICY_CHANGED:
		fprintf(f, "%14" PRIu64 "  %-14s  %s -> %s\n",
			(uint64_t)ev->cycle, gputbs_event_name(ev->type),
			ev->old_policy, ev->policy);
		return;
	default:
		break;
	}
	fprintf(f, "%14" PRIu64 "  %-14s  grid %" PRIu64 " '%s' pid %u handle %u class %s blocks %u/%u/%u",
		(uint64_t)ev->cycle, gputbs_event_name(ev->type),
		(uint64_t)g->id, g->label, g->pid, g->handle,
		mon_class_name(g->prio_class), g->blocks_done,
		g->blocks_issued, g->nr_blocks);
	switch (ev->type) {
	case GPUTBS_EVENT_GRID_SUBMITTED:
		fprintf(f, " R %u arrives %" PRIu64, g->residency,
			(uint64_t)g->submit_cycle);
		break;
	case GPUTBS_EVENT_GRID_STARTED:
		fprintf(f, " waited %" PRIu64,
			(uint64_t)(g->start_cycle - g->submit_cycle));
		break;
	case GPUTBS_EVENT_GRID_PREEMPTED:
		fprintf(f, " by grid %" PRIu64 " on SM %u (%s)",
			(uint64_t)ev->by_grid_id, ev->sm,
			gputbs_preemption_reason_name(ev->reason));
		break;
	case GPUTBS_EVENT_GRID_COMPLETED:
	case GPUTBS_EVENT_GRID_CANCELLED:
	case GPUTBS_EVENT_GRID_TIMED_OUT:
		fprintf(f, " turnaround %" PRIu64,
			(uint64_t)(g->end_cycle - g->submit_cycle));
		break;
	default:
		break;
	}
	fputc('\n', f);
}

static void json_grid(struct json *j, const struct gputbs_mon_grid *g)
{
	json_obj(j, "grid");
	json_u64(j, "id", g->id);
	json_u64(j, "pid", g->pid);
	json_u64(j, "client_id", g->client_id);
	json_u64(j, "handle", g->handle);
	json_str(j, "label", g->label);
	json_str(j, "class", mon_class_name(g->prio_class));
	json_str(j, "state", gputbs_grid_state_name(g->state));
	json_u64(j, "nr_blocks", g->nr_blocks);
	json_u64(j, "blocks_issued", g->blocks_issued);
	json_u64(j, "blocks_done", g->blocks_done);
	json_u64(j, "resident", g->resident);
	json_u64(j, "residency", g->residency);
	json_u64(j, "submit_cycle", g->submit_cycle);
	json_u64(j, "alone_cycles", g->alone_cycles);
	if (g->flags & GPUTBS_MON_GRID_STARTED)
		json_u64(j, "start_cycle", g->start_cycle);
	if (g->flags & GPUTBS_MON_GRID_ENDED)
		json_u64(j, "end_cycle", g->end_cycle);
	if (g->flags & GPUTBS_MON_GRID_PREDICTED) {
		json_u64(j, "pred_remaining", g->pred_remaining);
		json_u64(j, "pred_cycle", g->pred_cycle);
	}
	json_obj_end(j);
}

/* One event, one line: {"event":"...",...} (JSON Lines, json-c's plain). */
void mon_event_json(FILE *f, const struct gputbs_mon_event *ev)
{
	struct json j;

	json_init_line(&j, f);
	json_obj(&j, NULL);
	json_str(&j, "event", gputbs_event_name(ev->type));
	switch (ev->type) {
	case GPUTBS_EVENT_LOST:
		json_u64(&j, "lost", ev->lost);
		break;
	case GPUTBS_EVENT_POLICY_CHANGED:
		json_u64(&j, "cycle", ev->cycle);
		json_u64(&j, "time_ns", ev->time_ns);
		json_str(&j, "policy", ev->policy);
		json_str(&j, "old_policy", ev->old_policy);
		break;
	default:
		json_u64(&j, "cycle", ev->cycle);
		json_u64(&j, "time_ns", ev->time_ns);
		json_grid(&j, &ev->grid);
		if (ev->type == GPUTBS_EVENT_GRID_PREEMPTED) {
			json_u64(&j, "by_grid_id", ev->by_grid_id);
			json_u64(&j, "sm", ev->sm);
			json_str(&j, "reason",
				 gputbs_preemption_reason_name(ev->reason));
		}
		break;
	}
	json_obj_end(&j);
	json_end(&j);
}

/* This socket's buffer overflowed: events are missing here. */
void mon_overflow(FILE *f, enum report_format format)
{
	struct json j;

	if (format == REPORT_JSON) {
		json_init_line(&j, f);
		json_obj(&j, NULL);
		json_str(&j, "event", "socket-overflow");
		json_obj_end(&j);
		json_end(&j);
	} else {
		fprintf(f, "%14s  %-14s  events lost: the socket's receive buffer overflowed\n",
			"-", "socket-overflow");
	}
	fflush(f);
}
