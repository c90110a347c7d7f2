// SPDX-License-Identifier: GPL-2.0
/*
 * predict.c - the "predict" command of the gputbs CLI: replay a block
 * trace through the Simple Slicing predictor (sm-emu/predictor.c), as the
 * paper's Section "Predictor Accuracy" does with traces of real runs.
 *
 * The trace format and the replay rules are in
 * Documentation/trace-format.rst.  In short: the blocks' starts and ends
 * are replayed in global cycle order, ends before starts at the same cycle;
 * each (grid, SM) has one &struct gtbs_pred_sm; a new slice starts for
 * every running grid at every grid launch (first block start) and grid end
 * (last block end), and, in the extended mode only (--predictor extended;
 * the default is literal, as the module's and gputbs-sim's), for one
 * (grid, SM) when the grid's resident block count on that SM after all
 * events of a cycle differs from the Resident_Blocks the predictor holds.
 *
 * The slicing rules (when slices start, applied lazily by a generation
 * count) are not written here: the replay calls the engine's own, the
 * gtbs_slice_*() functions of sm-emu/predictor.c (DOC "Slices"), with its
 * generation &pt_trace.slice_gen in the place of &gtbs_dev.slice_gen.
 *
 * Cost: a (grid, SM)'s state is made at the grid's first block on the SM
 * (gtbs_slice_join(): no SM it never ran on is touched), and a launch or
 * an end costs O(1) (the states catch up at their next block end).  So
 * the replay is linear in the blocks plus the (grid, SM) pairs they touch,
 * in time and in memory (the states are found through a hash table,
 * &pt_trace.tab, not an index per SM): 65,536 grids at once on 1,024 SMs
 * replay in about 1.5 s and 100 MiB (Documentation/performance.rst).
 *
 * Copyright (C) 2026 The gputbs developers
 */
#include <assert.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "gtbs.h"
#include "../lib/input.h"
#include "../lib/json.h"
#include "predictor.h"

#define PT_MAX_GRIDS		65536U
#define PT_MAX_GRID_ID		((1U << 20) - 1)
/* bad lines reported in one run, as the workload parser's WL_MAX_ERRORS */
#define PT_MAX_ERRORS		20
#define PT_MAX_BLOCKS		(1U << 24)	/* per grid, and per trace */
#define PT_MAX_CYCLE		GTBS_MAX_BLOCK_CYCLES
#define PT_NR_SLOTS		GTBS_MAX_BLOCKS_PER_SM

enum { PT_CSV, PT_JSON };
enum { PT_EV_END, PT_EV_START };	/* sort order at one cycle */

static const char usage_predict[] =
	"Usage: gputbs predict --trace FILE [OPTIONS]\n"
	"\n"
	"Replay a block trace through the Simple Slicing runtime predictor\n"
	"(paper Section \"The Simple Slicing Predictor\") and print every\n"
	"prediction, and per grid the first and the final prediction against\n"
	"the actual runtime.  The trace format is described in\n"
	"Documentation/trace-format.rst.\n"
	"\n"
	"  -t, --trace FILE      the block trace (required)\n"
	"  -u, --slice-unaware   one prediction per grid and SM, at its first\n"
	"                        block end (default: slice-aware, \"/SS\")\n"
	"  -r, --predictor MODE  literal (default, as the module's predictor\n"
	"                        attribute and gputbs-sim: Algorithm 1 as\n"
	"                        printed, Resident_Blocks stays R) or\n"
	"                        extended (gputbs' extension: a residency\n"
	"                        change on an SM starts a slice)\n"
	"  -s, --sms N           SMs of the device, N_SM (default: highest SM\n"
	"                        in the trace + 1)\n"
	"  -f, --format FORMAT   csv (default) or json\n"
	"  -S, --summary         only the first and final prediction of each\n"
	"                        grid, not every prediction\n"
	"  -h, --help            this help\n";

static_assert(GTBS_PRED_MODE_DEFAULT == GTBS_PRED_LITERAL,
	      "usage_predict and gputbs(1) name literal the default");

/**
 * struct pt_block - one ``block`` line
 * @start: start cycle.
 * @end: end cycle, > @start.
 * @grid: index in &pt_trace.grids.
 * @sm: SM.
 * @slot: SM slot, the paper's blkindex.
 * @line: line in the trace.
 */
struct pt_block {
	__u64 start, end;
	__u32 grid, sm, slot, line;
};

/**
 * struct pt_event - a block start or end, sorted into replay order
 * @cycle: when.
 * @kind: %PT_EV_END or %PT_EV_START.
 * @block: index in &pt_trace.blocks.
 */
struct pt_event {
	__u64 cycle;
	__u32 kind;
	__u32 block;
};

/**
 * struct pt_pred - one prediction of one (grid, SM)
 * @cycle: cycle of the block end that made it.
 * @pred: Pred_Cycles.
 * @t: t used.
 * @grid: index in &pt_trace.grids.
 * @sm: SM.
 * @done: Done_Blocks.
 * @resident: Resident_Blocks used.
 */
struct pt_pred {
	__u64 cycle, pred, t;
	__u32 grid, sm, done, resident;
};

/**
 * struct pt_gsm - a running grid's predictor state on one SM it ran on
 * @pred: the state (&struct gtbs_pred_sm).
 * @starts: its Block_Start[] storage.
 * @gen: the &pt_trace.slice_gen it has caught up with (gtbs_slice_*(), as
 *	the engine's &gtbs_grid_sm.slice_gen).
 * @last_pred: 1 + index in &pt_trace.preds of its latest prediction, or 0.
 * @grid: the grid, index in &pt_trace.grids.
 * @sm: the SM.
 */
struct pt_gsm {
	struct gtbs_pred_sm pred;
	__u64 starts[PT_NR_SLOTS];
	__u64 gen;
	__u32 last_pred;
	__u32 grid;
	__u32 sm;
};

/**
 * struct pt_grid - one ``grid`` line and its replay state
 * @id: the trace's grid ID.
 * @label: label, may be empty.
 * @nr_blocks: blocks=.
 * @residency: residency=, R.
 * @line: line of the declaration.
 * @given: block lines seen.
 * @ended: blocks ended in the replay.
 * @running: first block started, last not yet ended.
 * @launched: first block started (at @start).
 * @start: cycle of the first block start.
 * @end: cycle of the last block end.
 * @st: while running, the states of the SMs it ran on, in first-touch
 *	order; @nr_st of them, @cap_st allocated (found by SM through
 *	&pt_trace.tab).
 * @run_pos: index in &pt_trace.running while running.
 * @nr_preds: predictions made.
 * @first: 1 + index in &pt_trace.preds of the first prediction.
 * @final: 1 + index in &pt_trace.preds of the final grid prediction.
 */
struct pt_grid {
	__u32 id;
	char label[GTBS_LABEL_LEN];
	__u32 nr_blocks, residency, line;
	__u32 given, ended;
	bool running, launched;
	__u64 start, end;
	struct pt_gsm **st;
	__u32 nr_st;
	size_t cap_st;
	__u32 run_pos;
	__u32 nr_preds;
	size_t first, final;
};

/**
 * struct pt_trace - a parsed trace and the replay's results
 * @path: file name, for messages.
 * @nr_sms: N_SM.
 * @sms_given: --sms was given (check SMs while parsing).
 * @unaware: slice-unaware mode.
 * @literal: the literal predictor mode (gtbs_pred_set_literal()); by
 *	default %GTBS_PRED_MODE_DEFAULT's, as the engine's, --predictor
 *	extended clears it.
 * @grids: declared grids, in declaration order.
 * @nr_grids: entries of @grids.
 * @cap_grids: allocated entries of @grids.
 * @by_id: grid ID -> 1 + index in @grids, or 0; @nr_by_id entries.
 * @nr_by_id: entries of @by_id.
 * @blocks: block lines, in file order.
 * @nr_blocks: entries of @blocks.
 * @cap_blocks: allocated entries of @blocks.
 * @max_sm: highest SM of a block.
 * @lines: lines read.
 * @preds: predictions, in replay order.
 * @nr_preds: entries of @preds.
 * @cap_preds: allocated entries of @preds.
 * @running: indices of running grids.
 * @nr_running: entries of @running.
 * @tab: the states of the running grids by (grid, SM), NULL where none:
 *	open addressing with linear probing, @tab_mask + 1 entries (a power
 *	of two; no table before the first state), at most half of them used.
 *	Memory in the (grid, SM) pairs touched, not in grids x SMs.
 * @tab_mask: entries of @tab - 1.
 * @tab_used: states in @tab.
 * @slice_gen: the replay's slice generation, moved on at every launch and
 *	grid end by gtbs_slice_on_kernel_launch() and
 *	gtbs_slice_on_kernel_end(), as the engine's &gtbs_dev.slice_gen.
 * @err: message of the first error, "FILE:LINE: reason".
 */
struct pt_trace {
	const char *path;
	__u32 nr_sms;
	bool sms_given;
	bool unaware;
	bool literal;
	struct pt_grid *grids;
	__u32 nr_grids;
	size_t cap_grids;
	__u32 *by_id;
	__u32 nr_by_id;
	struct pt_block *blocks;
	size_t nr_blocks, cap_blocks;
	__u32 max_sm;
	__u32 lines;
	struct pt_pred *preds;
	size_t nr_preds, cap_preds;
	__u32 *running;
	__u32 nr_running;
	struct pt_gsm **tab;
	size_t tab_mask, tab_used;
	__u64 slice_gen;
	char err[512];
	__u32 nr_errors;
	__u32 nr_bad_ids;
	__u64 bad_ids[PT_MAX_ERRORS];
};

static int __attribute__((format(printf, 3, 4)))
pt_fail(struct pt_trace *tr, __u32 line, const char *fmt, ...)
{
	size_t n;
	va_list ap;

	snprintf(tr->err, sizeof(tr->err), "%s:%u: ", tr->path, line);
	n = strlen(tr->err);
	va_start(ap, fmt);
	vsnprintf(tr->err + n, sizeof(tr->err) - n, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static int pt_nomem(struct pt_trace *tr)
{
	snprintf(tr->err, sizeof(tr->err), "out of memory");
	return -ENOMEM;
}

/* Grow *@arr to hold @want entries of @size bytes; *@cap is updated. */
static int pt_grow(void **arr, size_t *cap, size_t want, size_t size)
{
	size_t n = *cap ? *cap : 64;
	void *p;

	if (want <= *cap)
		return 0;
	while (n < want)
		n *= 2;
	p = realloc(*arr, n * size);
	if (!p)
		return -ENOMEM;
	*arr = p;
	*cap = n;
	return 0;
}

/* Decimal unsigned integer, digits only, in @min..@max. */
static int pt_number(struct pt_trace *tr, const char *what, const char *s,
		     __u64 min, __u64 max, __u64 *out)
{
	__u64 v = 0;
	const char *p;

	if (!*s)
		return pt_fail(tr, tr->lines, "%s: missing number", what);
	for (p = s; *p; p++) {
		if (*p < '0' || *p > '9')
			return pt_fail(tr, tr->lines, "%s: bad number '%s'",
				       what, s);
		if (v > max)	/* keeps v * 10 + 9 from wrapping */
			break;
		v = v * 10 + (__u64)(*p - '0');
	}
	if (*p || v < min || v > max)
		return pt_fail(tr, tr->lines, "%s %s out of range %llu..%llu",
			       what, s, (unsigned long long)min,
			       (unsigned long long)max);
	*out = v;
	return 0;
}

static bool pt_valid_label(const char *s)
{
	for (; *s; s++)
		if (*s <= ' ' || *s > '~' || *s == ',' || *s == '"' ||
		    *s == '\\')
			return false;
	return true;
}

/* grid ID blocks=N residency=R [label=NAME] */
static int pt_grid_line(struct pt_trace *tr, char **tok, int n)
{
	bool have_blocks = false, have_res = false, have_label = false;
	struct pt_grid *g;
	__u64 id, v;
	int i, ret;

	if (n < 2)
		return pt_fail(tr, tr->lines, "grid: missing ID");
	ret = pt_number(tr, "grid ID", tok[1], 0, PT_MAX_GRID_ID, &id);
	if (ret)
		return ret;
	if (id < tr->nr_by_id && tr->by_id[id])
		return pt_fail(tr, tr->lines, "grid %llu already declared at line %u",
			       (unsigned long long)id,
			       tr->grids[tr->by_id[id] - 1].line);
	if (tr->nr_grids == PT_MAX_GRIDS)
		return pt_fail(tr, tr->lines, "more than %u grids",
			       PT_MAX_GRIDS);
	if (id >= tr->nr_by_id) {
		size_t cap = tr->nr_by_id;
		__u32 old = tr->nr_by_id;

		if (pt_grow((void **)&tr->by_id, &cap, id + 1,
			    sizeof(*tr->by_id)))
			return pt_nomem(tr);
		memset(tr->by_id + old, 0, (cap - old) * sizeof(*tr->by_id));
		tr->nr_by_id = cap;
	}
	if (pt_grow((void **)&tr->grids, &tr->cap_grids, tr->nr_grids + 1,
		    sizeof(*tr->grids)))
		return pt_nomem(tr);
	g = &tr->grids[tr->nr_grids];
	memset(g, 0, sizeof(*g));
	g->id = id;
	g->line = tr->lines;
	for (i = 2; i < n; i++) {
		char *eq = strchr(tok[i], '=');
		const char *key = tok[i];

		if (!eq || eq == tok[i])
			return pt_fail(tr, tr->lines, "not key=value: '%s'",
				       tok[i]);
		*eq++ = '\0';
		if (!strcmp(key, "blocks")) {
			if (have_blocks)
				return pt_fail(tr, tr->lines,
					       "duplicate key 'blocks'");
			have_blocks = true;
			ret = pt_number(tr, "blocks", eq, 1, PT_MAX_BLOCKS, &v);
			if (ret)
				return ret;
			g->nr_blocks = v;
		} else if (!strcmp(key, "residency")) {
			if (have_res)
				return pt_fail(tr, tr->lines,
					       "duplicate key 'residency'");
			have_res = true;
			ret = pt_number(tr, "residency", eq, 1, PT_NR_SLOTS,
					&v);
			if (ret)
				return ret;
			g->residency = v;
		} else if (!strcmp(key, "label")) {
			if (have_label)
				return pt_fail(tr, tr->lines,
					       "duplicate key 'label'");
			have_label = true;
			if (strlen(eq) >= GTBS_LABEL_LEN)
				return pt_fail(tr, tr->lines,
					       "label longer than %d characters",
					       GTBS_LABEL_LEN - 1);
			if (!pt_valid_label(eq))
				return pt_fail(tr, tr->lines, "bad label '%s'",
					       eq);
			snprintf(g->label, sizeof(g->label), "%s", eq);
		} else {
			return pt_fail(tr, tr->lines, "unknown key '%s'", key);
		}
	}
	if (!have_blocks)
		return pt_fail(tr, tr->lines, "grid %llu: missing blocks=",
			       (unsigned long long)id);
	if (!have_res)
		return pt_fail(tr, tr->lines, "grid %llu: missing residency=",
			       (unsigned long long)id);
	tr->by_id[id] = ++tr->nr_grids;
	return 0;
}

/* block GRID SM INDEX START END */
static int pt_block_line(struct pt_trace *tr, char **tok, int n)
{
	__u64 id, sm, slot, start, end;
	struct pt_block *b;
	struct pt_grid *g;
	int ret;

	if (n != 6)
		return pt_fail(tr, tr->lines,
			       "block: expected GRID SM INDEX START END");
	ret = pt_number(tr, "grid ID", tok[1], 0, PT_MAX_GRID_ID, &id);
	if (!ret)
		ret = pt_number(tr, "SM", tok[2], 0,
				tr->sms_given ? tr->nr_sms - 1 : GTBS_MAX_SMS - 1,
				&sm);
	if (!ret)
		ret = pt_number(tr, "INDEX", tok[3], 0, PT_NR_SLOTS - 1,
				&slot);
	if (!ret)
		ret = pt_number(tr, "START", tok[4], 0, PT_MAX_CYCLE, &start);
	if (!ret)
		ret = pt_number(tr, "END", tok[5], 0, PT_MAX_CYCLE, &end);
	if (ret)
		return ret;
	if (id >= tr->nr_by_id || !tr->by_id[id]) {
		__u32 i;

		/* its grid line was reported already */
		for (i = 0; i < tr->nr_bad_ids; i++)
			if (tr->bad_ids[i] == id)
				return 0;
		return pt_fail(tr, tr->lines, "block of undeclared grid %llu",
			       (unsigned long long)id);
	}
	g = &tr->grids[tr->by_id[id] - 1];
	if (end <= start)
		return pt_fail(tr, tr->lines,
			       "block ends at %llu, not after its start %llu",
			       (unsigned long long)end,
			       (unsigned long long)start);
	if (g->given == g->nr_blocks)
		return pt_fail(tr, tr->lines,
			       "grid %u has more than blocks=%u blocks", g->id,
			       g->nr_blocks);
	if (tr->nr_blocks == PT_MAX_BLOCKS)
		return pt_fail(tr, tr->lines, "more than %u blocks",
			       PT_MAX_BLOCKS);
	if (pt_grow((void **)&tr->blocks, &tr->cap_blocks, tr->nr_blocks + 1,
		    sizeof(*tr->blocks)))
		return pt_nomem(tr);
	b = &tr->blocks[tr->nr_blocks++];
	b->start = start;
	b->end = end;
	b->grid = tr->by_id[id] - 1;
	b->sm = sm;
	b->slot = slot;
	b->line = tr->lines;
	g->given++;
	if (sm > tr->max_sm)
		tr->max_sm = sm;
	return 0;
}

static int pt_parse(struct pt_trace *tr, struct input *in)
{
	char *line, *tok[16], *save, *s, prev[sizeof(tr->err)];
	__u32 i;
	int n, ret;

	for (;;) {
		ret = input_line(in);
		if (ret < 0)	/* a NUL byte, a read error */
			snprintf(tr->err, sizeof(tr->err), "%s", in->err);
		if (ret <= 0)
			break;
		tr->lines = in->nr;
		line = in->line;
		line[strcspn(line, "#\r")] = '\0';
		n = 0;
		for (s = strtok_r(line, " \t", &save); s && n < 16;
		     s = strtok_r(NULL, " \t", &save))
			tok[n++] = s;
		if (!n)
			continue;
		if (s) {
			ret = pt_fail(tr, tr->lines, "too many words");
		} else if (!strcmp(tok[0], "grid")) {
			ret = pt_grid_line(tr, tok, n);
		} else if (!strcmp(tok[0], "block")) {
			ret = pt_block_line(tr, tok, n);
		} else {
			ret = pt_fail(tr, tr->lines, "unknown keyword '%s'",
				      tok[0]);
		}
		if (!ret)
			continue;
		if (ret != -EINVAL)
			break;
		/*
		 * A bad line: report the one before, keep this one in
		 * tr->err for the caller, go on with the next (issue 17).
		 * The blocks of a grid whose line failed are not reported
		 * again.
		 */
		if (tr->nr_errors)
			err_msg("%s", prev);
		snprintf(prev, sizeof(prev), "%s", tr->err);
		if (n >= 2 && !strcmp(tok[0], "grid") &&
		    tr->nr_bad_ids < PT_MAX_ERRORS) {
			__u64 id = 0;

			for (s = tok[1]; *s >= '0' && *s <= '9' &&
			     id <= PT_MAX_GRID_ID; s++)
				id = id * 10 + (__u64)(*s - '0');
			if (!*s)
				tr->bad_ids[tr->nr_bad_ids++] = id;
		}
		if (++tr->nr_errors == PT_MAX_ERRORS) {
			err_msg("%s", prev);
			snprintf(tr->err, sizeof(tr->err),
				 "%s: stopped after %d errors", tr->path,
				 PT_MAX_ERRORS);
			return -EINVAL;
		}
		ret = 0;
	}
	if (ret && tr->nr_errors)	/* a NUL byte after bad lines */
		err_msg("%s", prev);
	if (ret)
		return ret;
	if (tr->nr_errors)
		return -EINVAL;
	if (!tr->nr_grids)
		return pt_fail(tr, tr->lines ? tr->lines : 1, "no grids");
	for (i = 0; i < tr->nr_grids; i++) {
		struct pt_grid *g = &tr->grids[i];

		if (g->given != g->nr_blocks)
			return pt_fail(tr, g->line,
				       "grid %u: blocks=%u, but %u block lines",
				       g->id, g->nr_blocks, g->given);
	}
	if (!tr->sms_given)
		tr->nr_sms = tr->max_sm + 1;
	return 0;
}

/* For qsort(): the replay needs the blocks. */
static const struct pt_block *pt_sort_blocks;

static int pt_event_cmp(const void *a, const void *b)
{
	const struct pt_event *x = a, *y = b;
	const struct pt_block *bx = &pt_sort_blocks[x->block];
	const struct pt_block *by = &pt_sort_blocks[y->block];

	if (x->cycle != y->cycle)
		return x->cycle < y->cycle ? -1 : 1;
	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	if (bx->grid != by->grid)
		return bx->grid < by->grid ? -1 : 1;
	if (bx->sm != by->sm)
		return bx->sm < by->sm ? -1 : 1;
	if (bx->slot != by->slot)
		return bx->slot < by->slot ? -1 : 1;
	return x->block < y->block ? -1 : x->block > y->block;
}

/* Where (@grid, @sm) starts probing in &pt_trace.tab (Fibonacci hashing). */
static size_t pt_tab_home(const struct pt_trace *tr, __u32 grid, __u32 sm)
{
	__u64 key = ((__u64)grid << 10 | sm) * 0x9e3779b97f4a7c15ULL;

	return (size_t)(key >> 32) & tr->tab_mask;
}

/* @grid's state on SM @sm while it runs, or NULL if none was made. */
static struct pt_gsm *pt_tab_find(const struct pt_trace *tr, __u32 grid,
				  __u32 sm)
{
	struct pt_gsm *e;
	size_t i;

	if (!tr->tab)
		return NULL;
	for (i = pt_tab_home(tr, grid, sm); (e = tr->tab[i]);
	     i = (i + 1) & tr->tab_mask)
		if (e->grid == grid && e->sm == sm)
			return e;
	return NULL;
}

static void pt_tab_put(struct pt_trace *tr, struct pt_gsm *e)
{
	size_t i = pt_tab_home(tr, e->grid, e->sm);

	while (tr->tab[i])
		i = (i + 1) & tr->tab_mask;
	tr->tab[i] = e;
}

/* Add @e, not in the table; doubles it when half full.  -ENOMEM. */
static int pt_tab_add(struct pt_trace *tr, struct pt_gsm *e)
{
	if (!tr->tab || (tr->tab_used + 1) * 2 > tr->tab_mask + 1) {
		size_t n = tr->tab ? 2 * (tr->tab_mask + 1) : 64, i;
		struct pt_gsm **old = tr->tab;
		size_t old_n = tr->tab ? tr->tab_mask + 1 : 0;

		tr->tab = calloc(n, sizeof(*tr->tab));
		if (!tr->tab) {
			tr->tab = old;
			return -ENOMEM;
		}
		tr->tab_mask = n - 1;
		for (i = 0; i < old_n; i++)
			if (old[i])
				pt_tab_put(tr, old[i]);
		free(old);
	}
	pt_tab_put(tr, e);
	tr->tab_used++;
	return 0;
}

/*
 * Remove @e, which is in the table: the entries after it in its probe run
 * move back where their probe may stop early (backward-shift deletion).
 */
static void pt_tab_del(struct pt_trace *tr, const struct pt_gsm *e)
{
	size_t i = pt_tab_home(tr, e->grid, e->sm), j, k;

	while (tr->tab[i] != e)
		i = (i + 1) & tr->tab_mask;
	for (j = i;;) {
		tr->tab[i] = NULL;
		for (;;) {
			j = (j + 1) & tr->tab_mask;
			if (!tr->tab[j]) {
				tr->tab_used--;
				return;
			}
			k = pt_tab_home(tr, tr->tab[j]->grid, tr->tab[j]->sm);
			/* stays if its home is cyclically in (i, j] */
			if (i <= j ? i < k && k <= j : i < k || k <= j)
				continue;
			break;
		}
		tr->tab[i] = tr->tab[j];
		i = j;
	}
}

/*
 * @g's state on SM @sm, made at its first block there: OnLaunch, joined at
 * the current slice generation (gtbs_slice_join(): OnLaunch sets Reslice,
 * so the slices since the grid's launch change nothing).  NULL when out of
 * memory.
 */
static struct pt_gsm *pt_gsm_get(struct pt_trace *tr, struct pt_grid *g,
				 __u32 sm)
{
	__u32 gi = g - tr->grids;
	struct pt_gsm *e = pt_tab_find(tr, gi, sm);

	if (e)
		return e;
	if (pt_grow((void **)&g->st, &g->cap_st, g->nr_st + 1,
		    sizeof(*g->st)))
		return NULL;
	e = calloc(1, sizeof(*e));
	if (!e)
		return NULL;
	if (gtbs_pred_init(&e->pred, e->starts, PT_NR_SLOTS) ||
	    gtbs_slice_join(&e->pred, &e->gen, tr->slice_gen, g->nr_blocks,
			    g->residency, tr->nr_sms, tr->unaware,
			    tr->literal)) {
		free(e);
		return NULL;
	}
	e->grid = gi;
	e->sm = sm;
	if (pt_tab_add(tr, e)) {
		free(e);
		return NULL;
	}
	g->st[g->nr_st++] = e;
	return e;
}

/* Free @g's states; @tab: also take them out of &pt_trace.tab. */
static void pt_gsm_free(struct pt_trace *tr, struct pt_grid *g, bool tab)
{
	__u32 i;

	for (i = 0; i < g->nr_st; i++) {
		if (tab)
			pt_tab_del(tr, g->st[i]);
		free(g->st[i]);
	}
	free(g->st);
	g->st = NULL;
	g->nr_st = 0;
	g->cap_st = 0;
}

static int pt_launch(struct pt_trace *tr, __u32 gi, __u64 cycle)
{
	struct pt_grid *g = &tr->grids[gi];

	g->running = true;
	g->launched = true;
	g->start = cycle;
	g->run_pos = tr->nr_running;
	tr->running[tr->nr_running++] = gi;
	/* a new slice for every other running grid; its own join after */
	gtbs_slice_on_kernel_launch(&tr->slice_gen);
	return 0;
}

/* The grid's final prediction: the maximum of its SMs' latest ones. */
static void pt_finish(struct pt_trace *tr, __u32 gi, __u64 cycle)
{
	struct pt_grid *g = &tr->grids[gi];
	__u32 i, last, best_sm = 0;

	g->end = cycle;
	/* the lowest SM among equal maxima, as a scan of the SMs in order */
	for (i = 0; i < g->nr_st; i++) {
		size_t p = g->st[i]->last_pred;
		__u32 sm = g->st[i]->sm;

		if (p && (!g->final ||
			  tr->preds[p - 1].pred > tr->preds[g->final - 1].pred ||
			  (tr->preds[p - 1].pred ==
			   tr->preds[g->final - 1].pred && sm < best_sm))) {
			g->final = p;
			best_sm = sm;
		}
	}
	pt_gsm_free(tr, g, true);
	g->running = false;
	last = tr->running[--tr->nr_running];
	tr->running[g->run_pos] = last;
	tr->grids[last].run_pos = g->run_pos;
	/* OnKernelEnd: a new slice for the others */
	gtbs_slice_on_kernel_end(&tr->slice_gen, true);
}

static int pt_end(struct pt_trace *tr, const struct pt_block *b, __u64 cycle)
{
	struct pt_grid *g = &tr->grids[b->grid];
	struct pt_gsm *e = pt_tab_find(tr, b->grid, b->sm);
	struct gtbs_pred_sm *s;
	struct pt_pred *p;
	int ret;

	if (!e)
		return pt_fail(tr, b->line, "internal: block end on no state");
	s = &e->pred;
	ret = gtbs_slice_on_block_end(s, &e->gen, tr->slice_gen, b->slot,
				      cycle);
	if (ret < 0)
		return pt_fail(tr, b->line, "internal: block end: %s",
			       strerror(-ret));
	g->ended++;
	if (!ret)
		return 0;
	if (pt_grow((void **)&tr->preds, &tr->cap_preds, tr->nr_preds + 1,
		    sizeof(*tr->preds)))
		return pt_nomem(tr);
	p = &tr->preds[tr->nr_preds++];
	*p = (struct pt_pred) {
		.cycle = cycle,
		.pred = s->pred_cycles,
		.t = s->t,
		.grid = b->grid,
		.sm = b->sm,
		.done = s->done_blocks,
		.resident = s->resident_blocks,
	};
	g->nr_preds++;
	e->last_pred = tr->nr_preds;
	if (!g->first)
		g->first = tr->nr_preds;
	return 0;
}

static int pt_replay(struct pt_trace *tr)
{
	size_t nev = 2 * tr->nr_blocks, i, j, k;
	__u32 *slot_line = NULL;
	struct pt_event *ev;
	int ret = 0;

	ev = calloc(nev, sizeof(*ev));
	slot_line = calloc((size_t)tr->nr_sms * PT_NR_SLOTS, sizeof(*slot_line));
	tr->running = calloc(tr->nr_grids, sizeof(*tr->running));
	if (!ev || !slot_line || !tr->running) {
		ret = pt_nomem(tr);
		goto out;
	}
	for (i = 0; i < tr->nr_blocks; i++) {
		ev[2 * i] = (struct pt_event) { tr->blocks[i].start,
						PT_EV_START, i };
		ev[2 * i + 1] = (struct pt_event) { tr->blocks[i].end,
						    PT_EV_END, i };
	}
	pt_sort_blocks = tr->blocks;
	qsort(ev, nev, sizeof(*ev), pt_event_cmp);

	for (i = 0; i < nev && !ret; i = j) {
		__u64 c = ev[i].cycle;

		for (j = i; j < nev && ev[j].cycle == c; j++)
			;
		/* 1. block ends: OnBlockEnd, with its prediction */
		for (k = i; k < j && ev[k].kind == PT_EV_END && !ret; k++) {
			const struct pt_block *b = &tr->blocks[ev[k].block];

			slot_line[(size_t)b->sm * PT_NR_SLOTS + b->slot] = 0;
			ret = pt_end(tr, b, c);
		}
		/* 2. grid ends: OnKernelEnd, a new slice for the others */
		for (k = i; k < j && ev[k].kind == PT_EV_END && !ret; k++) {
			__u32 gi = tr->blocks[ev[k].block].grid;
			struct pt_grid *g = &tr->grids[gi];

			if (g->running && g->ended == g->nr_blocks)
				pt_finish(tr, gi, c);
		}
		/*
		 * 3. block starts: a grid's first is its launch (a new slice
		 * for every other running grid); OnLaunch on an SM at the
		 * grid's first block there; OnBlockStart
		 */
		for (k = i; k < j && !ret; k++) {
			const struct pt_block *b = &tr->blocks[ev[k].block];
			__u32 *sl = &slot_line[(size_t)b->sm * PT_NR_SLOTS +
					       b->slot];
			struct pt_grid *g = &tr->grids[b->grid];

			if (ev[k].kind != PT_EV_START)
				continue;
			if (*sl) {
				ret = pt_fail(tr, b->line,
					      "SM %u slot %u already holds the block of line %u",
					      b->sm, b->slot, *sl);
				break;
			}
			*sl = b->line;
			if (!g->launched)
				ret = pt_launch(tr, b->grid, c);
			if (!ret) {
				struct pt_gsm *e = pt_gsm_get(tr, g, b->sm);

				if (!e) {
					ret = pt_nomem(tr);
					break;
				}
				if (gtbs_pred_on_block_start(&e->pred, b->slot,
							     c))
					ret = pt_fail(tr, b->line,
						      "internal: block start");
			}
		}
		/*
		 * 4. residency changes of the (grid, SM)s touched: the
		 * engine's rule, gtbs_pred_on_residency() (nothing in the
		 * literal mode)
		 */
		for (k = i; k < j && !ret; k++) {
			const struct pt_block *b = &tr->blocks[ev[k].block];
			/* none once the grid ended: its states are freed */
			struct pt_gsm *e = pt_tab_find(tr, b->grid, b->sm);

			if (e)
				gtbs_pred_on_residency(&e->pred,
						       e->pred.nr_resident);
		}
	}
out:
	free(ev);
	free(slot_line);
	return ret;
}

static void pt_ratio(char *buf, size_t len, __u64 pred, __u64 actual)
{
	__u64 fp = gtbs_slowdown(pred, actual);

	snprintf(buf, len, "%" PRIu64 ".%06" PRIu64,
		 (uint64_t)(fp / GTBS_FP_ONE), (uint64_t)(fp % GTBS_FP_ONE));
}

static void pt_csv_row(const struct pt_trace *tr, const char *type,
		       const struct pt_pred *p)
{
	const struct pt_grid *g = &tr->grids[p->grid];
	__u64 actual = g->end - g->start;
	char ratio[48];

	pt_ratio(ratio, sizeof(ratio), p->pred, actual);
	printf("%s,%u,%s,%u,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%u,%u,%" PRIu64
	       ",%s\n", type, g->id, g->label, p->sm, (uint64_t)p->cycle,
	       (uint64_t)p->pred, (uint64_t)p->t, p->done, p->resident,
	       (uint64_t)actual, ratio);
}

static void pt_print_csv(const struct pt_trace *tr, bool summary)
{
	size_t i;

	puts("type,grid,label,sm,cycle,pred_cycles,t,done_blocks,"
	     "resident_blocks,actual_cycles,ratio");
	for (i = 0; !summary && i < tr->nr_preds; i++)
		pt_csv_row(tr, "pred", &tr->preds[i]);
	for (i = 0; i < tr->nr_grids; i++) {
		const struct pt_grid *g = &tr->grids[i];

		pt_csv_row(tr, "first", &tr->preds[g->first - 1]);
		pt_csv_row(tr, "final", &tr->preds[g->final - 1]);
	}
}

static void pt_json_pred(struct json *j, const char *key,
			 const struct pt_trace *tr, const struct pt_pred *p,
			 bool with_grid)
{
	const struct pt_grid *g = &tr->grids[p->grid];
	__u64 actual = g->end - g->start;

	json_obj(j, key);
	if (with_grid)
		json_u64(j, "grid", g->id);
	json_u64(j, "sm", p->sm);
	json_u64(j, "cycle", p->cycle);
	json_u64(j, "pred_cycles", p->pred);
	json_u64(j, "t", p->t);
	json_u64(j, "done_blocks", p->done);
	json_u64(j, "resident_blocks", p->resident);
	json_fp(j, "ratio", gtbs_slowdown(p->pred, actual));
	json_obj_end(j);
}

static void pt_print_json(const struct pt_trace *tr, bool summary)
{
	struct json j;
	size_t i;

	json_init(&j, stdout);
	json_obj(&j, NULL);
	json_str(&j, "trace", tr->path);
	json_str(&j, "mode", tr->unaware ? "slice-unaware" : "slice-aware");
	json_str(&j, "predictor", tr->literal ? "literal" : "extended");
	json_u64(&j, "sms", tr->nr_sms);
	json_arr(&j, "grids");
	for (i = 0; i < tr->nr_grids; i++) {
		const struct pt_grid *g = &tr->grids[i];

		json_obj(&j, NULL);
		json_u64(&j, "grid", g->id);
		json_str(&j, "label", g->label);
		json_u64(&j, "blocks", g->nr_blocks);
		json_u64(&j, "residency", g->residency);
		json_u64(&j, "start", g->start);
		json_u64(&j, "end", g->end);
		json_u64(&j, "actual_cycles", g->end - g->start);
		json_u64(&j, "predictions", g->nr_preds);
		pt_json_pred(&j, "first", tr, &tr->preds[g->first - 1], false);
		pt_json_pred(&j, "final", tr, &tr->preds[g->final - 1], false);
		json_obj_end(&j);
	}
	json_arr_end(&j);
	if (!summary) {
		json_arr(&j, "predictions");
		for (i = 0; i < tr->nr_preds; i++)
			pt_json_pred(&j, NULL, tr, &tr->preds[i], true);
		json_arr_end(&j);
	}
	json_obj_end(&j);
	json_end(&j);
}

static void pt_free(struct pt_trace *tr)
{
	__u32 i;

	for (i = 0; i < tr->nr_grids; i++)
		pt_gsm_free(tr, &tr->grids[i], false);
	free(tr->tab);
	free(tr->grids);
	free(tr->by_id);
	free(tr->blocks);
	free(tr->preds);
	free(tr->running);
}

int cmd_predict(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "trace", required_argument, NULL, 't' },
		{ "slice-unaware", no_argument, NULL, 'u' },
		{ "predictor", required_argument, NULL, 'r' },
		{ "sms", required_argument, NULL, 's' },
		{ "format", required_argument, NULL, 'f' },
		{ "summary", no_argument, NULL, 'S' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	/* the engine's default mode, the module's and gputbs-sim's */
	struct pt_trace tr = {
		.literal = GTBS_PRED_MODE_DEFAULT == GTBS_PRED_LITERAL,
	};
	int format = PT_CSV, c, ret;
	bool summary = false;
	struct input in;
	char *endp;

	while ((c = getopt_long(argc, argv, "t:ur:s:f:Sh", opts, NULL)) != -1) {
		switch (c) {
		case 't':
			tr.path = optarg;
			break;
		case 'u':
			tr.unaware = true;
			break;
		case 'r':
			if (strcmp(optarg, "literal") &&
			    strcmp(optarg, "extended"))
				return usage_error(usage_predict,
						   "--predictor: unknown mode '%s' (literal or extended)",
						   optarg);
			tr.literal = !strcmp(optarg, "literal");
			break;
		case 's': {
			unsigned long v;

			errno = 0;
			v = strtoul(optarg, &endp, 10);
			if (errno || endp == optarg || *endp ||
			    optarg[0] < '0' || optarg[0] > '9' || !v ||
			    v > GTBS_MAX_SMS)
				return usage_error(usage_predict,
						   "bad SM count '%s' (1..1024)",
						   optarg);
			tr.nr_sms = v;
			tr.sms_given = true;
			break;
		}
		case 'f':
			if (!strcmp(optarg, "csv"))
				format = PT_CSV;
			else if (!strcmp(optarg, "json"))
				format = PT_JSON;
			else
				return usage_error(usage_predict,
						   "unknown format '%s'",
						   optarg);
			break;
		case 'S':
			summary = true;
			break;
		case 'h':
			fputs(usage_predict, stdout);
			return 0;
		default:
			fputs(usage_predict, stderr);
			return EXIT_USAGE;
		}
	}
	if (optind < argc)
		return usage_error(usage_predict, "unexpected argument '%s'",
				   argv[optind]);
	if (!tr.path)
		return usage_error(usage_predict, "%s", "no trace given (--trace)");
	ret = input_open(&in, tr.path, 0);
	if (!ret)
		ret = pt_parse(&tr, &in);
	else
		snprintf(tr.err, sizeof(tr.err), "%s", in.err);
	input_close(&in);
	if (!ret)
		ret = pt_replay(&tr);
	if (ret) {
		err_msg("%s", tr.err);
		pt_free(&tr);
		return ret == -ENOMEM ? EXIT_DEVICE : EXIT_USAGE;
	}
	if (format == PT_JSON)
		pt_print_json(&tr, summary);
	else
		pt_print_csv(&tr, summary);
	pt_free(&tr);
	if (fflush(stdout) || ferror(stdout)) {
		err_msg("stdout: %s", strerror(errno));
		return EXIT_DEVICE;
	}
	return 0;
}
