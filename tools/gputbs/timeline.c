// SPDX-License-Identifier: GPL-2.0
/*
 * timeline.c - the "timeline" command of the gputbs CLI: a recording of
 * the module's tracepoints (trace system gputbs, Documentation/tracing.rst)
 * turned into a per-SM timeline plot through gnuplot.
 *
 * Input: the text of "trace-cmd report", the raw text of
 * /sys/kernel/tracing/trace or trace_pipe, or "perf script" output; or a
 * trace-cmd .dat file, read with libtracecmd, its events' fields by name
 * through libtraceevent (the fields of kmod/gputbs_trace.h's
 * TP_STRUCT__entry; a symbolic one by the __print_symbolic() table the
 * recording holds).  Events and lines of other trace systems are ignored.
 * The plot has the format of the simulator's timeline
 * (tools/lib/eval/plot.c): one horizontal bar per thread block on its SM,
 * one thin row per block slot, a colour per grid, and a black tick
 * wherever an SM stopped issuing a grid (gputbs:preempt).  A preempted
 * block (gputbs:block_preempt, gputbs:block_restore) has one bar
 * per run, its save and restore drawn hatched beside them and nothing
 * while it is switched out; a flushed run is drawn hatched grey.
 *
 * Copyright (C) 2026 The gputbs developers
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <trace-cmd.h>

#include "cli.h"
#include "../lib/input.h"
#include "../lib/eval/plot.h"

#define TL_LABEL_LEN	32
#define TL_MAX_SMS	1024
#define TL_MAX_SLOTS	64

static const char usage_timeline[] =
	"Usage: gputbs timeline [OPTIONS] TRACE\n"
	"\n"
	"Turn a recording of the gputbs tracepoints into a per-SM timeline of\n"
	"thread blocks (gnuplot SVG and PNG) and print what it holds.  TRACE is\n"
	"the output of 'trace-cmd report', the text of /sys/kernel/tracing/trace,\n"
	"or a trace-cmd .dat file (read with libtracecmd); - reads\n"
	"standard input.  Record with: trace-cmd record -e gputbs COMMAND\n"
	"\n"
	"  -o, --output DIR      write timeline.dat, timeline-preempt.dat,\n"
	"                        timeline-xfer.dat, timeline.gp, timeline.svg and\n"
	"                        timeline.png into DIR, created if missing\n"
	"                        (default: timeline)\n"
	"  -n, --no-plot         write the data and the script, do not run gnuplot\n"
	"  -s, --summary         only print the summary, write nothing\n"
	"  -c, --check           exit 1 unless the recording adds up: every\n"
	"                        block_start has its block_end (or a\n"
	"                        block_preempt, and a restore its block_start),\n"
	"                        each grid has as many block_end as blocks,\n"
	"                        every grid_submit has its grid_end\n"
	"  -t, --title TEXT      title of the plot\n"
	"  -w, --window FROM:TO  plot only blocks and preemptions between these\n"
	"                        emulated cycles (either may be empty)\n"
	"  -h, --help            this help\n";

enum tl_event {
	TL_GRID_SUBMIT,
	TL_GRID_START,
	TL_BLOCK_START,
	TL_BLOCK_END,
	TL_GRID_END,
	TL_PREEMPT,
	TL_PREDICT,
	TL_POLICY_SWITCH,
	TL_SHARING_MODE,
	TL_BLOCK_PREEMPT,
	TL_BLOCK_RESTORE,
	TL_NR_EVENTS,
};

static const char * const tl_event_names[TL_NR_EVENTS] = {
	"grid_submit", "grid_start", "block_start", "block_end", "grid_end",
	"preempt", "predict", "policy_switch", "sharing_mode",
	"block_preempt", "block_restore",
};

/* What an interval of a block is (timeline-xfer.dat's kind column). */
enum tl_kind {
	TL_RUN,		/* block_start, block_end, a switched-out run */
	TL_SAVE,	/* block_preempt mech=switch: [cycle, + save_cycles) */
	TL_FLUSH,	/* block_preempt mech=flush; a run whose work was lost */
	TL_RESTORE,	/* block_restore: [cycle, + restore_cycles) */
};

/*
 * One block as a block event saw it: block_start (@start), block_end
 * (@start, @end), block_preempt and block_restore (@start the event's
 * cycle, @end that plus its cycles; @kind), or an interval derived from
 * them (tl_walk()).
 */
struct tl_block {
	uint32_t block;
	uint32_t sm;
	uint32_t slot;
	uint64_t start;
	uint64_t end;
	unsigned long seq;	/* the event's line: the order of one block's */
	enum tl_kind kind;
};

struct tl_vec {
	struct tl_block *v;
	size_t n;
	size_t cap;
};

/* A grid, named by its file's client id and its handle there. */
struct tl_grid {
	uint64_t client;
	uint32_t handle;
	char label[TL_LABEL_LEN];
	char program[64];	/* the submitter's comm, escaped; "" if unknown */
	char class[16];
	char state[16];
	uint32_t blocks;	/* from grid_submit or grid_end, 0 if unseen */
	uint64_t arrival;
	uint64_t start;
	uint64_t end;
	bool submitted;
	bool started;
	bool ended;
	unsigned int nr_ends;	/* grid_end events (must be at most 1) */
	struct tl_vec starts;
	struct tl_vec ends;
	struct tl_vec preempts;	/* block_preempt */
	struct tl_vec restores;	/* block_restore */
	struct tl_vec cuts;	/* runs that ended in a preemption (tl_walk()) */
};

struct tl_preempt {
	uint32_t sm;
	uint64_t cycle;
	char reason[16];
};

struct tl_trace {
	const char *file;
	struct tl_grid *grids;
	size_t nr_grids;
	size_t cap_grids;
	struct tl_preempt *preempts;
	size_t nr_preempts;
	size_t cap_preempts;
	unsigned long events[TL_NR_EVENTS];
	uint64_t first;
	uint64_t last;
	uint32_t nr_sms;
	uint32_t nr_slots;
	uint64_t from;	/* --window */
	uint64_t to;
	char comm[16];	/* the process of the line being read */
	bool dat;	/* a .dat file: events numbered, not lines */
	unsigned int nr_errors;	/* bad events reported */
};

/*
 * One event's fields, by the keys of its text form (the TP_printk() of
 * kmod/gputbs_trace.h): a text line's key=value pairs (label= takes the
 * rest of the line), or a .dat record (@event set) read through
 * libtraceevent, a string field or symbol into @str.
 */
#define TL_MAX_FIELDS	16
struct tl_fields {
	const char *key[TL_MAX_FIELDS];
	const char *val[TL_MAX_FIELDS];
	unsigned int n;
	struct tep_event *event;
	struct tep_record *record;
	enum tl_event ev;
	char str[64];
};

/* @line: the line of a text recording, the event's number in a .dat */
static int tl_error(const struct tl_trace *t, unsigned long line,
		    const char *what)
{
	if (t->dat)
		err_msg("%s: event %lu: %s", t->file, line, what);
	else
		err_msg("%s:%lu: %s", t->file, line, what);
	return -EINVAL;
}

/* Room in *@arr for entry @n of @size bytes: 0 or -ENOMEM after a message. */
static int tl_grow(void **arr, size_t *cap, size_t n, size_t size)
{
	size_t c = *cap ? *cap * 2 : 16;
	void *q;

	if (n < *cap)
		return 0;
	q = realloc(*arr, c * size);
	if (!q) {
		err_msg("out of memory");
		return -ENOMEM;
	}
	*arr = q;
	*cap = c;
	return 0;
}

/* Split "k=v k=v ... label=rest" in place. */
static void tl_split(char *s, struct tl_fields *f)
{
	char *eq;

	f->n = 0;
	f->event = NULL;
	for (;;) {
		s += strspn(s, " \t");
		if (!*s || f->n == TL_MAX_FIELDS)
			return;
		eq = strchr(s, '=');
		if (!eq)
			return;
		*eq = '\0';
		f->key[f->n] = s;
		f->val[f->n] = eq + 1;
		f->n++;
		if (!strcmp(s, "label")) {
			char *e = eq + 1 + strlen(eq + 1);

			while (e > eq + 1 && (e[-1] == ' ' || e[-1] == '\t'))
				*--e = '\0';
			return;
		}
		s = eq + 1 + strcspn(eq + 1, " \t");
		if (*s)
			*s++ = '\0';
	}
}

/*
 * The .dat field behind @key of event @ev's text form: the key where
 * TP_printk() prints a field under its own name, else the field's name;
 * NULL where the text form has no such key.
 */
static const char *tl_dat_name(enum tl_event ev, const char *key)
{
	if (ev == TL_GRID_SUBMIT && !strcmp(key, "class"))
		return "prio_class";
	if (ev == TL_BLOCK_PREEMPT || ev == TL_BLOCK_RESTORE) {
		if (!strcmp(key, "cycle"))
			return "now";
		if (!strcmp(key, ev == TL_BLOCK_PREEMPT ? "save_cycles" :
						       "restore_cycles"))
			return "cycles";
		if (!strcmp(key, "now") || !strcmp(key, "cycles") ||
		    (ev == TL_BLOCK_RESTORE && !strcmp(key, "mech")))
			return NULL;
	}
	return key;
}

/* The field behind @key of the .dat record @f, NULL if none or cut short. */
static struct tep_format_field *tl_dat_field(const struct tl_fields *f,
					     const char *key)
{
	const char *name = tl_dat_name(f->ev, key);
	struct tep_format_field *field;

	field = name ? tep_find_field(f->event, name) : NULL;
	if (!field || (field->flags & (TEP_FIELD_IS_DYNAMIC |
				       TEP_FIELD_IS_RELATIVE)) ||
	    field->offset < 0 || field->size <= 0 ||
	    field->offset + field->size > f->record->size)
		return NULL;
	return field;
}

/*
 * The name __print_symbolic(REC->@name, ...) in @event's print format
 * gives @val: what trace-cmd report prints (0x%llx if none); NULL if the
 * field is printed as a number.
 */
static const char *tl_dat_symbol(struct tl_fields *f, const char *name,
				 unsigned long long val)
{
	struct tep_print_arg *arg;
	struct tep_print_flag_sym *sym;

	for (arg = f->event->print_fmt.args; arg; arg = arg->next) {
		if (arg->type != TEP_PRINT_SYMBOL || !arg->symbol.field ||
		    arg->symbol.field->type != TEP_PRINT_FIELD ||
		    strcmp(arg->symbol.field->field.name, name))
			continue;
		for (sym = arg->symbol.symbols; sym; sym = sym->next)
			if (strtoull(sym->value, NULL, 0) == val)
				return sym->str;
		snprintf(f->str, sizeof(f->str), "0x%llx", val);
		return f->str;
	}
	return NULL;
}

/*
 * A .dat record's field @key as its text form shows it: a char array up
 * to its NUL, trailing blanks cut as a text line's label; a symbol; or
 * the number in decimal.  Into @f->str, or a symbol of the format.
 */
static const char *tl_dat_str(struct tl_fields *f, const char *key)
{
	struct tep_format_field *field = tl_dat_field(f, key);
	unsigned long long val;
	const char *s;
	size_t n;

	if (!field)
		return NULL;
	if (field->flags & TEP_FIELD_IS_STRING) {
		s = (const char *)f->record->data + field->offset;
		n = strnlen(s, field->size);
		if (n >= sizeof(f->str))
			n = sizeof(f->str) - 1;
		while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
			n--;
		memcpy(f->str, s, n);
		f->str[n] = '\0';
		return f->str;
	}
	if (tep_read_number_field(field, f->record->data, &val))
		return NULL;
	s = tl_dat_symbol(f, field->name, val);
	if (s)
		return s;
	snprintf(f->str, sizeof(f->str), "%llu", val);
	return f->str;
}

/* Field @key: a string, NULL if absent. */
static const char *tl_get(struct tl_fields *f, const char *key)
{
	unsigned int i;

	if (f->event)
		return tl_dat_str(f, key);
	for (i = 0; i < f->n; i++)
		if (!strcmp(f->key[i], key))
			return f->val[i];
	return NULL;
}

/*
 * Field @key as a number at most @max (a text line's in decimal, a .dat
 * record's an integer field); false if absent or bad.
 */
static bool tl_num(struct tl_fields *f, const char *key, uint64_t max,
		   uint64_t *out)
{
	struct tep_format_field *field;
	unsigned long long val;
	const char *s;
	char *end;

	if (f->event) {
		field = tl_dat_field(f, key);
		if (!field || (field->flags & (TEP_FIELD_IS_ARRAY |
					       TEP_FIELD_IS_STRING)) ||
		    tep_read_number_field(field, f->record->data, &val))
			return false;
		*out = val;
		return *out <= max;
	}
	s = tl_get(f, key);
	if (!s || *s < '0' || *s > '9')
		return false;
	errno = 0;
	*out = strtoull(s, &end, 10);
	return !errno && !*end && *out <= max;
}

static struct tl_grid *tl_grid(struct tl_trace *t, uint64_t client,
			       uint32_t handle)
{
	struct tl_grid *g;
	size_t i;

	for (i = 0; i < t->nr_grids; i++)
		if (t->grids[i].client == client &&
		    t->grids[i].handle == handle)
			return &t->grids[i];
	if (tl_grow((void **)&t->grids, &t->cap_grids, t->nr_grids,
		    sizeof(*t->grids)))
		return NULL;
	g = &t->grids[t->nr_grids++];
	memset(g, 0, sizeof(*g));
	g->client = client;
	g->handle = handle;
	snprintf(g->state, sizeof(g->state), "-");
	snprintf(g->class, sizeof(g->class), "-");
	return g;
}

static int tl_push(struct tl_vec *v, const struct tl_block *b)
{
	if (tl_grow((void **)&v->v, &v->cap, v->n, sizeof(*v->v)))
		return -ENOMEM;
	v->v[v->n++] = *b;
	return 0;
}

static void tl_seen(struct tl_trace *t, uint64_t cycle)
{
	if (cycle < t->first)
		t->first = cycle;
	if (cycle > t->last)
		t->last = cycle;
}

/* A field's value for the output: "-" if absent, escaped (input.c). */
static void tl_copy(char *dst, size_t len, const char *src)
{
	input_escape(dst, len, src ? src : "-");
}

/* One gputbs event with its fields.  0, -EINVAL or -ENOMEM after a message. */
static int tl_event(struct tl_trace *t, unsigned long line, enum tl_event ev,
		    struct tl_fields *f)
{
	uint64_t client, handle, sm, slot, block, c1, c2, n;
	struct tl_block b = { 0 };
	struct tl_grid *g = NULL;

	t->events[ev]++;
	if (ev == TL_POLICY_SWITCH || ev == TL_SHARING_MODE ||
	    ev == TL_PREDICT) {
		if (!tl_num(f, "cycle", UINT64_MAX, &c1))
			return tl_error(t, line, "no cycle= field");
		tl_seen(t, c1);
		return 0;
	}
	if (ev == TL_PREEMPT) {
		struct tl_preempt *p;

		if (!tl_num(f, "sm", TL_MAX_SMS - 1, &sm) ||
		    !tl_num(f, "cycle", UINT64_MAX, &c1))
			return tl_error(t, line, "preempt needs sm= and cycle=");
		if (tl_grow((void **)&t->preempts, &t->cap_preempts,
			    t->nr_preempts, sizeof(*t->preempts)))
			return -ENOMEM;
		p = &t->preempts[t->nr_preempts++];
		p->sm = sm;
		p->cycle = c1;
		tl_copy(p->reason, sizeof(p->reason), tl_get(f, "reason"));
		tl_seen(t, c1);
		return 0;
	}
	if (!tl_num(f, "client", UINT64_MAX, &client) ||
	    !tl_num(f, "handle", UINT32_MAX, &handle))
		return tl_error(t, line, "no client= and handle= fields");
	g = tl_grid(t, client, handle);
	if (!g)
		return -ENOMEM;
	switch (ev) {
	case TL_GRID_SUBMIT:
		if (!tl_num(f, "blocks", UINT32_MAX, &n) ||
		    !tl_num(f, "arrival", UINT64_MAX, &c1))
			return tl_error(t, line,
					"grid_submit needs blocks= and arrival=");
		g->submitted = true;
		g->blocks = n;
		g->arrival = c1;
		tl_copy(g->class, sizeof(g->class), tl_get(f, "class"));
		tl_copy(g->label, sizeof(g->label), tl_get(f, "label"));
		/* "gputbs": an older gputbs run, or not run by it */
		if (t->comm[0] && strcmp(t->comm, "gputbs"))
			input_escape(g->program, sizeof(g->program), t->comm);
		tl_seen(t, c1);
		break;
	case TL_GRID_START:
		if (!tl_num(f, "cycle", UINT64_MAX, &c1))
			return tl_error(t, line, "grid_start needs cycle=");
		g->started = true;
		g->start = c1;
		tl_seen(t, c1);
		break;
	case TL_GRID_END:
		if (!tl_num(f, "blocks", UINT32_MAX, &n) ||
		    !tl_num(f, "end", UINT64_MAX, &c1))
			return tl_error(t, line, "grid_end needs blocks= and end=");
		g->ended = true;
		g->nr_ends++;
		g->blocks = n;
		g->end = c1;
		tl_copy(g->state, sizeof(g->state), tl_get(f, "state"));
		tl_seen(t, c1);
		break;
	case TL_BLOCK_START:
	case TL_BLOCK_END:
	case TL_BLOCK_PREEMPT:
	case TL_BLOCK_RESTORE:
		if (!tl_num(f, "sm", TL_MAX_SMS - 1, &sm) ||
		    !tl_num(f, "slot", TL_MAX_SLOTS - 1, &slot) ||
		    !tl_num(f, "block", UINT32_MAX, &block))
			return tl_error(t, line,
					"a block event needs sm=, slot= and block=");
		b.sm = sm;
		b.slot = slot;
		b.block = block;
		b.seq = line;
		if (ev == TL_BLOCK_PREEMPT || ev == TL_BLOCK_RESTORE) {
			const char *mech = tl_get(f, "mech");

			if (!tl_num(f, "cycle", UINT64_MAX, &c1) ||
			    !tl_num(f, ev == TL_BLOCK_PREEMPT ? "save_cycles" :
				    "restore_cycles", UINT64_MAX - c1, &c2))
				return tl_error(t, line, ev == TL_BLOCK_PREEMPT ?
						"block_preempt needs cycle= and save_cycles=" :
						"block_restore needs cycle= and restore_cycles=");
			if (ev == TL_BLOCK_RESTORE)
				b.kind = TL_RESTORE;
			else if (mech && !strcmp(mech, "switch"))
				b.kind = TL_SAVE;
			else if (mech && !strcmp(mech, "flush") && !c2)
				b.kind = TL_FLUSH;
			else
				return tl_error(t, line,
						"block_preempt needs mech=switch, or mech=flush with save_cycles=0");
			b.start = c1;
			b.end = c1 + c2;
			if (tl_push(ev == TL_BLOCK_PREEMPT ? &g->preempts :
				    &g->restores, &b))
				return -ENOMEM;
			tl_seen(t, b.end);
		} else if (ev == TL_BLOCK_START) {
			if (!tl_num(f, "cycle", UINT64_MAX, &c1))
				return tl_error(t, line,
						"block_start needs cycle=");
			b.start = c1;
			if (tl_push(&g->starts, &b))
				return -ENOMEM;
		} else {
			if (!tl_num(f, "start", UINT64_MAX, &c1) ||
			    !tl_num(f, "end", UINT64_MAX, &c2) || c2 < c1)
				return tl_error(t, line,
						"block_end needs start= <= end=");
			b.start = c1;
			b.end = c2;
			if (tl_push(&g->ends, &b))
				return -ENOMEM;
			tl_seen(t, c2);
		}
		tl_seen(t, b.start);
		if (sm + 1 > t->nr_sms)
			t->nr_sms = sm + 1;
		if (slot + 1 > t->nr_slots)
			t->nr_slots = slot + 1;
		break;
	default:
		break;
	}
	return 0;
}

/* The event of a trace line, and where its fields start; -1 if none. */
static int tl_find_event(char *line, char **fields)
{
	char *s = line, *tok, *colon;
	unsigned int i;
	size_t len;

	while (*s) {
		s += strspn(s, " \t");
		tok = s;
		len = strcspn(s, " \t");
		s += len;
		if (len < 2 || tok[len - 1] != ':')
			continue;
		/* "block_end:", or perf's "gputbs:block_end:" */
		colon = tok;
		if (len > 7 && !strncmp(tok, "gputbs:", 7))
			colon = tok + 7;
		for (i = 0; i < TL_NR_EVENTS; i++) {
			size_t n = strlen(tl_event_names[i]);

			if ((size_t)(tok + len - 1 - colon) == n &&
			    !strncmp(colon, tl_event_names[i], n)) {
				*fields = s;
				return i;
			}
		}
	}
	return -1;
}

/*
 * The process of a trace line into @t->comm ("" if none): trace-cmd
 * report's "COMM-PID [CPU] ...", or perf script's "COMM PID [CPU] ...".
 */
static void tl_line_comm(struct tl_trace *t, const char *line)
{
	const char *b, *e = strstr(line, " [");
	size_t n;

	t->comm[0] = '\0';
	if (!e)
		return;
	b = line + strspn(line, " \t");
	while (e > b && e[-1] == ' ')
		e--;
	n = 0;
	while (e > b && e[-1] >= '0' && e[-1] <= '9') {
		e--;
		n++;
	}
	if (!n || e == b || (e[-1] != '-' && e[-1] != ' '))
		return;
	e--;
	while (e > b && e[-1] == ' ')
		e--;
	n = (size_t)(e - b);
	if (!n || n >= sizeof(t->comm))
		return;
	memcpy(t->comm, b, n);
	t->comm[n] = '\0';
}

/* bad events reported in one run, as the workload parser's WL_MAX_ERRORS */
#define TL_MAX_ERRORS	20

/*
 * The result @ret of tl_event(): 0 to go on with the next event (a bad
 * event is reported, up to %TL_MAX_ERRORS), else the error to stop with.
 */
static int tl_take(struct tl_trace *t, int ret)
{
	if (ret && ret != -EINVAL)
		return ret;
	/* a bad event, reported: go on with the next (issue 17) */
	if (ret && ++t->nr_errors == TL_MAX_ERRORS) {
		err_msg("%s: stopped after %d errors", t->file, TL_MAX_ERRORS);
		return -EINVAL;
	}
	return 0;
}

/* After the last event: 0, or -EINVAL after a message. */
static int tl_done(const struct tl_trace *t)
{
	if (t->nr_errors)
		return -EINVAL;
	if (!t->nr_grids && !t->nr_preempts) {
		err_msg("%s: no gputbs events (record with: trace-cmd record -e gputbs)",
			t->file);
		return -EINVAL;
	}
	return 0;
}

/*
 * Every line of @in; each bad event reported, up to %TL_MAX_ERRORS.
 * 0, or -EINVAL, -EIO or -ENOMEM after a message.
 */
static int tl_read(struct tl_trace *t, struct input *in)
{
	struct tl_fields f;
	char *line, *fields;
	size_t len;
	int ev, ret;

	while ((ret = input_line(in)) > 0) {
		line = in->line;
		len = in->len;
		while (len && line[len - 1] == '\r')
			line[--len] = '\0';
		if (line[0] == '#')
			continue;
		ev = tl_find_event(line, &fields);
		if (ev < 0)
			continue;
		if (ev == TL_GRID_SUBMIT)
			tl_line_comm(t, line);
		tl_split(fields, &f);
		ret = tl_take(t, tl_event(t, in->nr, ev, &f));
		if (ret)
			return ret;
	}
	if (ret) {	/* a NUL byte, an overlong line, a read error */
		err_msg("%s", in->err);
		return ret;
	}
	return tl_done(t);
}

/* The reading of a .dat file: the events' ids, the error that stopped it. */
struct tl_dat {
	struct tl_trace *t;
	struct tep_handle *tep;
	int id[TL_NR_EVENTS];	/* -1: not in the recording */
	unsigned long nr;	/* records read */
	int ret;
};

/*
 * The tracecmd_iterate_events() callback: one record, in time order.  After
 * an error it skips the rest rather than stop the iteration: libtracecmd
 * 3.1 leaks the records it peeked on the other CPUs when a callback stops
 * it.
 */
static int tl_dat_record(struct tracecmd_input *handle __attribute__((unused)),
			 struct tep_record *record,
			 int cpu __attribute__((unused)), void *data)
{
	struct tl_dat *d = data;
	struct tl_trace *t = d->t;
	struct tl_fields f;
	const char *comm;
	int type, ev;

	if (d->ret)
		return 0;
	d->nr++;
	type = tep_data_type(d->tep, record);
	for (ev = 0; ev < TL_NR_EVENTS; ev++)
		if (d->id[ev] >= 0 && d->id[ev] == type)
			break;
	if (ev == TL_NR_EVENTS)
		return 0;
	f.n = 0;
	f.event = tep_find_event(d->tep, type);
	f.record = record;
	f.ev = ev;
	if (ev == TL_GRID_SUBMIT) {
		/* the process, as trace-cmd report shows it */
		comm = tep_data_comm_from_pid(d->tep,
					      tep_data_pid(d->tep, record));
		t->comm[0] = '\0';
		if (comm && strlen(comm) < sizeof(t->comm))
			strcpy(t->comm, comm);
	}
	d->ret = tl_take(t, tl_event(t, d->nr, ev, &f));
	return 0;
}

/* A handle libtracecmd cannot close (tl_read_dat()) */
static struct tracecmd_input *volatile tl_unclosable;

/*
 * The events of the trace-cmd .dat file @path, with libtracecmd, in time
 * order across CPUs (as trace-cmd report lists them); the top-level
 * buffer only.  0, or -EINVAL or -ENOMEM after a message.
 */
static int tl_read_dat(struct tl_trace *t, const char *path)
{
	struct tracecmd_input *handle;
	struct tl_dat d = { .t = t };
	struct tep_event *e;
	int i;

	/* its messages: ours below say what failed */
	tracecmd_set_loglevel(TEP_LOG_NONE);
	tep_set_loglevel(TEP_LOG_NONE);
	t->dat = true;
	/*
	 * tracecmd_open() in two steps: where tracecmd_init_data() fails
	 * (a .dat whose CPU data is corrupt), libtracecmd 3.1's
	 * tracecmd_close() dereferences NULL, in tracecmd_open() too; such a
	 * handle is left open (trace-cmd report exits there as well), kept
	 * in tl_unclosable: held on purpose, not leaked.
	 */
	handle = tracecmd_open_head(path, TRACECMD_FL_LOAD_NO_PLUGINS |
				    TRACECMD_FL_LOAD_NO_SYSTEM_PLUGINS);
	if (handle && tracecmd_init_data(handle) < 0) {
		tl_unclosable = handle;
		handle = NULL;
	}
	if (!handle) {
		err_msg("%s: not a trace-cmd .dat file that libtracecmd reads",
			path);
		return -EINVAL;
	}
	d.tep = tracecmd_get_tep(handle);
	for (i = 0; i < TL_NR_EVENTS; i++) {
		e = d.tep ? tep_find_event_by_name(d.tep, "gputbs",
						   tl_event_names[i]) : NULL;
		d.id[i] = e ? e->id : -1;
	}
	if (d.tep)
		tracecmd_iterate_events(handle, NULL, 0, tl_dat_record, &d);
	tracecmd_close(handle);
	return d.ret ? d.ret : tl_done(t);
}

/* One event of a block, in the order of the recording. */
struct tl_step {
	const struct tl_block *b;
	enum tl_event ev;
};

static int tl_cmp_step(const void *a, const void *b)
{
	const struct tl_step *x = a, *y = b;

	if (x->b->block != y->b->block)
		return x->b->block < y->b->block ? -1 : 1;
	return x->b->seq < y->b->seq ? -1 : x->b->seq > y->b->seq;
}

static size_t tl_add_steps(struct tl_step *st, size_t n,
			   const struct tl_vec *v, enum tl_event ev)
{
	size_t i;

	for (i = 0; i < v->n; i++) {
		st[n].b = &v->v[i];
		st[n++].ev = ev;
	}
	return n;
}

/*
 * Walk the events of each block of @g in their order: a block_start (and
 * a block_restore at its cycle), then a block_preempt or the block_end,
 * on one SM slot; fills @g->cuts with the runs that a block_preempt
 * ended.  Return: the first problem found, or NULL; -ENOMEM in *@err.
 */
static const char *tl_walk(struct tl_grid *g, uint32_t *block, int *err)
{
	size_t n = g->starts.n + g->ends.n + g->preempts.n + g->restores.n;
	const char *bad = NULL;
	struct tl_block cur = { 0 };
	bool open = false, ended = false, restored = false;
	struct tl_step *st;
	size_t i;

	*err = 0;
	if (!n)
		return NULL;
	st = calloc(n, sizeof(*st));
	if (!st) {
		err_msg("out of memory");
		*err = -ENOMEM;
		return NULL;
	}
	n = tl_add_steps(st, 0, &g->starts, TL_BLOCK_START);
	n = tl_add_steps(st, n, &g->ends, TL_BLOCK_END);
	n = tl_add_steps(st, n, &g->preempts, TL_BLOCK_PREEMPT);
	n = tl_add_steps(st, n, &g->restores, TL_BLOCK_RESTORE);
	qsort(st, n, sizeof(*st), tl_cmp_step);
	for (i = 0; i < n; i++) {
		const struct tl_block *b = st[i].b;
		const char *why = NULL;

		if (i && b->block != st[i - 1].b->block) {
			open = false;
			ended = false;
		}
		if (open && st[i].ev != TL_BLOCK_START &&
		    (b->sm != cur.sm || b->slot != cur.slot))
			why = "block_start and block_end differ or repeat";
		switch (st[i].ev) {
		case TL_BLOCK_START:
			if (open || ended)
				why = "block_start and block_end differ or repeat";
			open = true;
			restored = false;
			cur = *b;
			cur.end = b->start;	/* the run from here */
			break;
		case TL_BLOCK_RESTORE:
			if (!open || restored || b->start != cur.start)
				why = "block_restore without its block_start";
			restored = true;
			cur.end = b->end;
			break;
		case TL_BLOCK_PREEMPT:
			if (!open || b->start < cur.end) {
				why = "block_preempt of a block not running";
			} else {
				struct tl_block r = cur;

				r.start = cur.end;
				r.end = b->start;
				r.kind = b->kind == TL_FLUSH ? TL_FLUSH : TL_RUN;
				if (tl_push(&g->cuts, &r)) {
					*err = -ENOMEM;
					break;
				}
			}
			open = false;
			break;
		default:	/* TL_BLOCK_END */
			if (!open || ended || b->start != cur.end)
				why = "block_start and block_end differ or repeat";
			open = false;
			ended = true;
			break;
		}
		if (*err)
			break;
		if (why && !bad) {
			bad = why;
			*block = b->block;
		}
	}
	free(st);
	return bad;
}

/* The checks of --check; prints each problem, returns their number. */
static int tl_problems(FILE *f, struct tl_trace *t, unsigned int *nr_bad)
{
	unsigned int bad = 0;
	const char *why;
	uint32_t block;
	size_t i;
	int err;

	for (i = 0; i < t->nr_grids; i++) {
		struct tl_grid *g = &t->grids[i];

		if (g->starts.n != g->ends.n + g->preempts.n) {
			fprintf(f, "problem: grid %" PRIu64 ":%u: %zu block_start, %zu block_end",
				g->client, g->handle, g->starts.n, g->ends.n);
			if (g->preempts.n)
				fprintf(f, ", %zu block_preempt", g->preempts.n);
			fputc('\n', f);
			bad++;
		}
		why = tl_walk(g, &block, &err);
		if (err)
			return err;
		if (why) {
			fprintf(f, "problem: grid %" PRIu64 ":%u: block %u: %s\n",
				g->client, g->handle, block, why);
			bad++;
		}
		if (!g->submitted || g->nr_ends != 1) {
			fprintf(f, "problem: grid %" PRIu64 ":%u: %s grid_submit, %u grid_end\n",
				g->client, g->handle,
				g->submitted ? "a" : "no", g->nr_ends);
			bad++;
		}
		if (!strcmp(g->state, "done") && g->ends.n != g->blocks) {
			fprintf(f, "problem: grid %" PRIu64 ":%u: done with %u blocks but %zu block_end\n",
				g->client, g->handle, g->blocks, g->ends.n);
			bad++;
		}
		if (g->ends.n > g->blocks && g->blocks) {
			fprintf(f, "problem: grid %" PRIu64 ":%u: %zu block_end for %u blocks\n",
				g->client, g->handle, g->ends.n, g->blocks);
			bad++;
		}
	}
	*nr_bad = bad;
	return 0;
}

static void tl_summary(FILE *f, const struct tl_trace *t)
{
	unsigned int i;
	size_t k;

	fputs("events:", f);
	for (i = 0; i < TL_NR_EVENTS; i++)
		fprintf(f, " %s=%lu", tl_event_names[i], t->events[i]);
	fputc('\n', f);
	fprintf(f, "cycles: %" PRIu64 " %" PRIu64 "\n",
		t->first == UINT64_MAX ? 0 : t->first, t->last);
	fprintf(f, "sms: %u slots: %u grids: %zu preempts: %zu\n", t->nr_sms,
		t->nr_slots, t->nr_grids, t->nr_preempts);
	for (k = 0; k < t->nr_grids; k++) {
		const struct tl_grid *g = &t->grids[k];

		fprintf(f, "grid client=%" PRIu64 " handle=%u class=%s blocks=%u block_start=%zu block_end=%zu block_preempt=%zu block_restore=%zu arrival=%" PRIu64 " start=%" PRIu64 " end=%" PRIu64 " state=%s label=%s\n",
			g->client, g->handle, g->class, g->blocks, g->starts.n,
			g->ends.n, g->preempts.n, g->restores.n, g->arrival,
			g->start, g->end, g->state, g->label);
	}
}

static FILE *tl_open_out(const char *dir, const char *name)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "we");
	if (!f)
		err_msg("%s: %s", path, strerror(errno));
	return f;
}

static int tl_close_out(FILE *f, const char *dir, const char *name)
{
	if (fclose(f)) {
		err_msg("%s/%s: %s", dir, name, strerror(errno));
		return -EIO;
	}
	return 0;
}

static bool tl_in_window(const struct tl_trace *t, uint64_t start,
			 uint64_t end)
{
	return end >= t->from && start <= t->to;
}

/* A grid is plotted if one of its runs lies in the window. */
static bool tl_plotted(const struct tl_trace *t, const struct tl_grid *g)
{
	size_t j;

	for (j = 0; j < g->ends.n; j++)
		if (tl_in_window(t, g->ends.v[j].start, g->ends.v[j].end))
			return true;
	for (j = 0; j < g->cuts.n; j++)
		if (g->cuts.v[j].kind == TL_RUN &&
		    tl_in_window(t, g->cuts.v[j].start, g->cuts.v[j].end))
			return true;
	return false;
}

/* The intervals of @kind (timeline-xfer.dat) of @g's vector @v. */
static size_t tl_nr_kind(const struct tl_trace *t, const struct tl_vec *v,
			 enum tl_kind kind)
{
	size_t j, n = 0;

	for (j = 0; j < v->n; j++)
		n += v->v[j].kind == kind &&
		     tl_in_window(t, v->v[j].start, v->v[j].end);
	return n;
}

/* Every interval of @kind in the window, over the grids. */
static size_t tl_nr_xfer(const struct tl_trace *t, enum tl_kind kind)
{
	const struct tl_vec *v;
	size_t i, n = 0;

	for (i = 0; i < t->nr_grids; i++) {
		const struct tl_grid *g = &t->grids[i];

		v = kind == TL_RESTORE ? &g->restores :
		    kind == TL_SAVE ? &g->preempts : &g->cuts;
		n += tl_nr_kind(t, v, kind);
	}
	return n;
}

static const char *tl_kind_name(enum tl_kind kind)
{
	return kind == TL_SAVE ? "save" : kind == TL_RESTORE ? "restore" :
	       kind == TL_FLUSH ? "flush" : "run";
}

/* Rows of @v of @kind in the window, of the grid @g. */
static void tl_write_xfer(FILE *f, const struct tl_trace *t,
			  const struct tl_grid *g, const struct tl_vec *v,
			  enum tl_kind kind)
{
	size_t j;

	for (j = 0; j < v->n; j++) {
		const struct tl_block *b = &v->v[j];

		if (b->kind == kind && tl_in_window(t, b->start, b->end))
			fprintf(f, "%u %u %u %" PRIu64 " %" PRIu64 " %s %" PRIu64 ":%u\n",
				b->sm, b->slot, b->block, b->start, b->end,
				tl_kind_name(kind), g->client, g->handle);
	}
}

static size_t tl_nr_preempts_plotted(const struct tl_trace *t)
{
	size_t i, n = 0;

	for (i = 0; i < t->nr_preempts; i++)
		n += tl_in_window(t, t->preempts[i].cycle, t->preempts[i].cycle);
	return n;
}

/* timeline.dat: one gnuplot data block per grid that ran blocks. */
static int tl_write_data(const struct tl_trace *t, const char *dir)
{
	FILE *f = tl_open_out(dir, "timeline.dat");
	size_t i, j;

	if (!f)
		return -EIO;
	input_print(f, "# %s: every block that ended in [%" PRIu64 ", %" PRIu64 "], one data block per grid",
		    t->file, t->from, t->to);
	fputs("\n# sm slot block start end (every run: a block's last, and those a\n# block_preempt mech=switch ended)\n", f);
	for (i = 0; i < t->nr_grids; i++) {
		const struct tl_grid *g = &t->grids[i];

		if (!tl_plotted(t, g))
			continue;
		fprintf(f, "# grid client=%" PRIu64 " handle=%u label=%s\n",
			g->client, g->handle, g->label);
		for (j = 0; j < g->ends.n; j++)
			if (tl_in_window(t, g->ends.v[j].start,
					 g->ends.v[j].end))
				fprintf(f, "%u %u %u %" PRIu64 " %" PRIu64 "\n",
					g->ends.v[j].sm, g->ends.v[j].slot,
					g->ends.v[j].block, g->ends.v[j].start,
					g->ends.v[j].end);
		for (j = 0; j < g->cuts.n; j++)
			if (g->cuts.v[j].kind == TL_RUN &&
			    tl_in_window(t, g->cuts.v[j].start,
					 g->cuts.v[j].end))
				fprintf(f, "%u %u %u %" PRIu64 " %" PRIu64 "\n",
					g->cuts.v[j].sm, g->cuts.v[j].slot,
					g->cuts.v[j].block, g->cuts.v[j].start,
					g->cuts.v[j].end);
		fputs("\n\n", f);
	}
	if (tl_close_out(f, dir, "timeline.dat"))
		return -EIO;
	f = tl_open_out(dir, "timeline-preempt.dat");
	if (!f)
		return -EIO;
	fputs("# every gputbs:preempt in the window: sm cycle reason\n", f);
	for (i = 0; i < t->nr_preempts; i++)
		if (tl_in_window(t, t->preempts[i].cycle, t->preempts[i].cycle))
			fprintf(f, "%u %" PRIu64 " %s\n", t->preempts[i].sm,
				t->preempts[i].cycle, t->preempts[i].reason);
	if (tl_close_out(f, dir, "timeline-preempt.dat"))
		return -EIO;
	f = tl_open_out(dir, "timeline-xfer.dat");
	if (!f)
		return -EIO;
	fputs("# preempted blocks in the window: sm slot block start end kind grid\n"
	      "# kind: save (a context switch out, block_preempt mech=switch),\n"
	      "# restore (block_restore), flush (a run whose work a flush lost)\n", f);
	for (i = 0; i < t->nr_grids; i++) {
		const struct tl_grid *g = &t->grids[i];

		tl_write_xfer(f, t, g, &g->preempts, TL_SAVE);
		tl_write_xfer(f, t, g, &g->restores, TL_RESTORE);
		tl_write_xfer(f, t, g, &g->cuts, TL_FLUSH);
	}
	return tl_close_out(f, dir, "timeline-xfer.dat");
}

/* Draw what was just plotted again as PNG (as tools/lib/eval/plot.c does). */
static void tl_gp_png(FILE *gp, int w, int h)
{
	fprintf(gp, "if (strstrt(GPVAL_TERMINALS, \"pngcairo\") > 0) {\n"
		"\tset terminal pngcairo size %d,%d noenhanced font \"sans,10\" background rgb \"white\"\n"
		"} else {\n"
		"\tset terminal png size %d,%d noenhanced\n"
		"}\n"
		"set output \"timeline.png\"\n"
		"replot\n"
		"unset output\n", w, h, w, h);
}

static int tl_write_script(const struct tl_trace *t, const char *dir,
			   const char *title)
{
	static const char * const colours[] = {
		"#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b",
		"#e377c2", "#7f7f7f", "#bcbd22", "#17becf", "#d62728",
	};
	/* hatched: the intervals of preempted blocks (timeline-xfer.dat) */
	static const struct {
		enum tl_kind kind;
		int pattern;
		const char *colour;
		const char *title;
	} xfer[] = {
		{ TL_SAVE, 4, "#d62728", "save (switched out)" },
		{ TL_RESTORE, 5, "#2ca02c", "restore" },
		{ TL_FLUSH, 2, "#555555", "flushed (work lost)" },
	};
	FILE *gp = tl_open_out(dir, "timeline.gp");
	unsigned int n = 0, sms = t->nr_sms ? t->nr_sms : 1;
	unsigned int slots = t->nr_slots ? t->nr_slots : 1;
	uint64_t t0 = t->from;
	uint64_t end = t->to < t->last ? t->to : t->last;
	double unit = 1, span;
	const char *sfx = "";
	int prec;
	size_t i;

	if (!gp)
		return -EIO;
	/* absolute cycles in k, M or G, with as many decimals as ticks need */
	if (end >= 1000000000) {
		unit = 1e9;
		sfx = "G";
	} else if (end >= 1000000) {
		unit = 1e6;
		sfx = "M";
	} else if (end >= 1000) {
		unit = 1e3;
		sfx = "k";
	}
	span = (end > t0 ? (double)(end - t0) : 1) / unit;
	for (prec = 0; prec < 6 && span < 10; prec++)
		span *= 10;
	input_print(gp, "# gputbs timeline %s: run \"gnuplot timeline.gp\" in this directory",
		    t->file);
	fputs("\n# after editing to restyle.\nset title ", gp);
	sim_gp_str(gp, "%s: blocks per SM (thin rows: block slots; white: a block starts); legend: program: kernel, else kernel (client = open file, grid handle); black: an SM stops issuing a grid (gputbs:preempt); hatched: saves, restores, flushed runs",
		   title);
	fprintf(gp, "\n"
		"set xlabel \"emulated cycle (k = 10^3, M = 10^6, G = 10^9)\"\n"
		"set format x \"%%.%df%s\"\n"
		"set xtics out nomirror\n"
		"set rmargin 9\n"
		"set ylabel \"SM\"\n"
		"set yrange [-0.6:%u.6]\n"
		"set ytics 1\n"
		"set xrange [%.17g:*]\n"
		"set key outside top center horizontal\n"
		"set style fill solid 0.85 noborder\n"
		"u = %.17g\n"
		"x(c) = c / u\n"
		"slots = %u.0\n"
		"y(sm, slot) = sm - 0.45 + (slot + 0.5) * 0.9 / slots\n"
		"h = 0.4 / slots\n"
		"set terminal svg size 1600,700 noenhanced font \"sans,10\" background rgb \"white\"\n"
		"set output \"timeline.svg\"\n", prec, sfx, sms - 1,
		(double)t0 / unit, unit, slots);
	fputs("plot ", gp);
	for (i = 0; i < t->nr_grids; i++) {
		const struct tl_grid *g = &t->grids[i];

		if (!tl_plotted(t, g))
			continue;
		fprintf(gp, "%s\"timeline.dat\" index %u using (x(($4 + $5) / 2)):(y($1, $2)):(x(($5 - $4) / 2)):(h) with boxxyerror lc rgb \"%s\" title ",
			n ? ", \\\n     " : "", n,
			colours[n % ARRAY_SIZE(colours)]);
		if (g->program[0] && g->handle > 1)
			sim_gp_str(gp, "%s: %s (grid %u)", g->program,
				   g->label[0] ? g->label : "grid", g->handle);
		else if (g->program[0])
			sim_gp_str(gp, "%s: %s", g->program,
				   g->label[0] ? g->label : "grid");
		else
			sim_gp_str(gp, "%s (client %" PRIu64 ", handle %u)",
				   g->label[0] ? g->label : "grid", g->client,
				   g->handle);
		n++;
	}
	/* a white tick where each block starts: consecutive blocks apart */
	for (i = 0; i < n; i++)
		fprintf(gp, ", \\\n     \"timeline.dat\" index %zu using (x($4)):(y($1, $2) - h):(0):(2 * h) with vectors nohead lw 1 lc rgb \"white\" notitle",
			i);
	for (i = 0; i < ARRAY_SIZE(xfer); i++) {
		if (!tl_nr_xfer(t, xfer[i].kind))
			continue;
		fprintf(gp, "%s\"timeline-xfer.dat\" using (x(($4 + $5) / 2)):(strcol(6) eq \"%s\" ? y($1, $2) : NaN):(x(($5 - $4) / 2)):(h) with boxxyerror fs pattern %d border lc rgb \"%s\" fc rgb \"%s\" title \"%s\"",
			n ? ", \\\n     " : "", tl_kind_name(xfer[i].kind),
			xfer[i].pattern, xfer[i].colour, xfer[i].colour,
			xfer[i].title);
		n++;
	}
	if (tl_nr_preempts_plotted(t))
		fprintf(gp, "%s\"timeline-preempt.dat\" using (x($2)):($1 - 0.5):(0):(1) with vectors nohead lw 2 lc rgb \"black\" title \"preempt\"",
			n++ ? ", \\\n     " : "");
	if (!n)	/* nothing to draw: an empty frame */
		fputs("NaN notitle", gp);
	fputs("\nunset output\n", gp);
	tl_gp_png(gp, 1600, 700);
	return tl_close_out(gp, dir, "timeline.gp");
}

/* Run "gnuplot timeline.gp" in @dir.  0, or an exit status after a message. */
static int tl_gnuplot(const char *dir)
{
	int ret = sim_run_gnuplot(dir, "timeline.gp");

	if (!ret)
		return 0;
	if (ret < 0)
		err_msg("fork: %s", strerror(errno));
	else if (ret == SIM_GNUPLOT_MISSING)
		err_msg("cannot run gnuplot (Debian: apt-get install gnuplot-nox); the data and timeline.gp are in %s",
			dir);
	else
		err_msg("gnuplot %s/timeline.gp failed", dir);
	return EXIT_DEVICE;
}

/* A trace-cmd .dat file starts with "\027\010\104tracing". */
static bool tl_is_dat(FILE *f)
{
	static const char magic[] = "\027\010\104tracing";
	char buf[sizeof(magic) - 1];
	bool dat;

	dat = fread(buf, 1, sizeof(buf), f) == sizeof(buf) &&
	      !memcmp(buf, magic, sizeof(buf));
	rewind(f);
	return dat;
}

/*
 * The events of @t->file: standard input for "-" or a regular file, its
 * text read line by line, or a .dat file read with libtracecmd.  0, an
 * exit status after a message (the file cannot be read), or -EINVAL,
 * -EIO or -ENOMEM after a message (a bad recording).
 */
static int tl_read_trace(struct tl_trace *t)
{
	struct input in;
	int ret;

	ret = input_open(&in, t->file, INPUT_STDIN);
	if (ret) {
		err_msg("%s", in.err);
		return ret == -ENOMEM ? EXIT_DEVICE : EXIT_USAGE;
	}
	t->first = UINT64_MAX;
	if (in.f != stdin && tl_is_dat(in.f)) {
		input_close(&in);
		return tl_read_dat(t, t->file);
	}
	ret = tl_read(t, &in);
	input_close(&in);
	return ret;
}

static void tl_free(struct tl_trace *t)
{
	size_t i;

	for (i = 0; i < t->nr_grids; i++) {
		free(t->grids[i].starts.v);
		free(t->grids[i].ends.v);
		free(t->grids[i].preempts.v);
		free(t->grids[i].restores.v);
		free(t->grids[i].cuts.v);
	}
	free(t->grids);
	free(t->preempts);
}

/* "FROM:TO", either part empty: 0 or -EINVAL. */
static int tl_parse_window(const char *s, uint64_t *from, uint64_t *to)
{
	const char *colon = strchr(s, ':');
	char *end;

	if (!colon)
		return -EINVAL;
	errno = 0;
	if (colon > s) {
		if (*s < '0' || *s > '9')
			return -EINVAL;
		*from = strtoull(s, &end, 10);
		if (errno || end != colon)
			return -EINVAL;
	}
	if (colon[1]) {
		if (colon[1] < '0' || colon[1] > '9')
			return -EINVAL;
		*to = strtoull(colon + 1, &end, 10);
		if (errno || *end)
			return -EINVAL;
	}
	return *from <= *to ? 0 : -EINVAL;
}

int cmd_timeline(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "no-plot", no_argument, NULL, 'n' },
		{ "summary", no_argument, NULL, 's' },
		{ "check", no_argument, NULL, 'c' },
		{ "title", required_argument, NULL, 't' },
		{ "window", required_argument, NULL, 'w' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	bool plot = true, write = true, check = false, window = false;
	const char *dir = "timeline", *title = NULL;
	struct tl_trace t = { 0 };
	unsigned int bad;
	int c, ret;

	t.to = UINT64_MAX;
	while ((c = getopt_long(argc, argv, "o:nsct:w:h", opts, NULL)) != -1) {
		switch (c) {
		case 'o':
			dir = optarg;
			break;
		case 'n':
			plot = false;
			break;
		case 's':
			write = false;
			break;
		case 'c':
			check = true;
			break;
		case 't':
			title = optarg;
			break;
		case 'w':
			if (tl_parse_window(optarg, &t.from, &t.to))
				return usage_error(usage_timeline,
						   "bad --window '%s' (FROM:TO, cycles)",
						   optarg);
			window = true;
			break;
		case 'h':
			fputs(usage_timeline, stdout);
			return 0;
		default:
			fputs(usage_timeline, stderr);
			return EXIT_USAGE;
		}
	}
	if (optind != argc - 1)
		return usage_error(usage_timeline, "%s",
				   optind < argc ? "one TRACE only" :
						   "missing TRACE");
	t.file = argv[optind];
	ret = tl_read_trace(&t);
	if (ret > 0)
		goto out;
	if (ret) {
		ret = ret == -EINVAL ? EXIT_USAGE : EXIT_DEVICE;
		goto out;
	}
	if (!window)
		t.from = t.first == UINT64_MAX ? 0 : t.first;
	tl_summary(stdout, &t);
	if (tl_problems(stdout, &t, &bad)) {
		ret = EXIT_DEVICE;
		goto out;
	}
	printf("check: %s (%u problems)\n", bad ? "FAILED" : "ok", bad);
	ret = check && bad ? EXIT_DEVICE : 0;
	if (!write)
		goto out;
	if (mkdir(dir, 0777) && errno != EEXIST) {
		err_msg("%s: %s", dir, strerror(errno));
		ret = EXIT_DEVICE;
	} else if (tl_write_data(&t, dir) ||
		   tl_write_script(&t, dir, title ? title : t.file)) {
		ret = EXIT_DEVICE;
	} else if (plot) {
		c = tl_gnuplot(dir);
		if (c)
			ret = c;
	}
out:
	tl_free(&t);
	return ret;
}
