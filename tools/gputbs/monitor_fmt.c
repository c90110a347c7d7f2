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

/* A JSON string; labels and policy names are printable ASCII already. */
static void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = *s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20 || c >= 0x7f)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

static void json_grid(FILE *f, const struct gputbs_mon_grid *g)
{
	fprintf(f, "{\"id\":%" PRIu64 ",\"pid\":%u,\"client_id\":%" PRIu64
		",\"handle\":%u,\"label\":", (uint64_t)g->id, g->pid,
		(uint64_t)g->client_id, g->handle);
	json_str(f, g->label);
	fprintf(f, ",\"class\":\"%s\",\"state\":\"%s\",\"nr_blocks\":%u"
		",\"blocks_issued\":%u,\"blocks_done\":%u,\"resident\":%u"
		",\"residency\":%u,\"submit_cycle\":%" PRIu64
		",\"alone_cycles\":%" PRIu64,
		mon_class_name(g->prio_class), gputbs_grid_state_name(g->state),
		g->nr_blocks, g->blocks_issued, g->blocks_done, g->resident,
		g->residency, (uint64_t)g->submit_cycle,
		(uint64_t)g->alone_cycles);
	if (g->flags & GPUTBS_MON_GRID_STARTED)
		fprintf(f, ",\"start_cycle\":%" PRIu64,
			(uint64_t)g->start_cycle);
	if (g->flags & GPUTBS_MON_GRID_ENDED)
		fprintf(f, ",\"end_cycle\":%" PRIu64, (uint64_t)g->end_cycle);
	if (g->flags & GPUTBS_MON_GRID_PREDICTED)
		fprintf(f, ",\"pred_remaining\":%" PRIu64 ",\"pred_cycle\":%"
			PRIu64, (uint64_t)g->pred_remaining,
			(uint64_t)g->pred_cycle);
	fputc('}', f);
}

void mon_event_json(FILE *f, const struct gputbs_mon_event *ev)
{
	fprintf(f, "{\"event\":\"%s\"", gputbs_event_name(ev->type));
	switch (ev->type) {
	case GPUTBS_EVENT_LOST:
		fprintf(f, ",\"lost\":%" PRIu64 "}\n", (uint64_t)ev->lost);
		return;
	case GPUTBS_EVENT_POLICY_CHANGED:
		fprintf(f, ",\"cycle\":%" PRIu64 ",\"time_ns\":%" PRIu64
			",\"policy\":", (uint64_t)ev->cycle,
			(uint64_t)ev->time_ns);
		json_str(f, ev->policy);
		fputs(",\"old_policy\":", f);
		json_str(f, ev->old_policy);
		fputs("}\n", f);
		return;
	default:
		break;
	}
	fprintf(f, ",\"cycle\":%" PRIu64 ",\"time_ns\":%" PRIu64 ",\"grid\":",
		(uint64_t)ev->cycle, (uint64_t)ev->time_ns);
	json_grid(f, &ev->grid);
	if (ev->type == GPUTBS_EVENT_GRID_PREEMPTED)
		fprintf(f, ",\"by_grid_id\":%" PRIu64 ",\"sm\":%u,\"reason\":\"%s\"",
			(uint64_t)ev->by_grid_id, ev->sm,
			gputbs_preemption_reason_name(ev->reason));
	fputs("}\n", f);
}

/* This socket's buffer overflowed: events are missing here. */
void mon_overflow(FILE *f, enum report_format format)
{
	if (format == REPORT_JSON)
		fputs("{\"event\":\"socket-overflow\"}\n", f);
	else
		fprintf(f, "%14s  %-14s  events lost: the socket's receive buffer overflowed\n",
			"-", "socket-overflow");
	fflush(f);
}
