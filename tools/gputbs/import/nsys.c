// SPDX-License-Identifier: GPL-2.0
/*
 * nsys.c - "gputbs import nsys": an Nsight Systems cuda_gpu_trace report
 * (nsys stats --report cuda_gpu_trace --format csv) read into the
 * import's kernels (Documentation/workloads.rst, "Importing a profile").
 *
 * Columns are found by their names, whatever their order and units.
 * Every kernel row becomes a kernel; memcpy and memset rows are counted.
 *
 * Copyright (C) 2026 The gputbs developers
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../cli.h"
#include "../../lib/workload.h"
#include "import.h"

#define NSYS_MAX_FIELDS	64	/* fields of a row */

/* The columns the importer reads; every one but Strm and Device is required. */
enum imp_col {
	COL_START, COL_DURATION, COL_GRDX, COL_GRDY, COL_GRDZ, COL_BLKX,
	COL_BLKY, COL_BLKZ, COL_REGS, COL_STCSMEM, COL_DYMSMEM, COL_NAME,
	COL_STRM, COL_DEVICE, NR_COLS,
};

#define NR_REQUIRED_COLS	COL_STRM

_Static_assert(NR_COLS <= ARRAY_SIZE(((struct imp *)0)->col),
	       "struct imp holds every column");

enum imp_unit_kind { UNIT_NONE, UNIT_TIME, UNIT_BYTES };

static const struct {
	const char *name;
	enum imp_unit_kind kind;
} imp_cols[NR_COLS] = {
	[COL_START] = { "Start", UNIT_TIME },
	[COL_DURATION] = { "Duration", UNIT_TIME },
	[COL_GRDX] = { "GrdX", UNIT_NONE },
	[COL_GRDY] = { "GrdY", UNIT_NONE },
	[COL_GRDZ] = { "GrdZ", UNIT_NONE },
	[COL_BLKX] = { "BlkX", UNIT_NONE },
	[COL_BLKY] = { "BlkY", UNIT_NONE },
	[COL_BLKZ] = { "BlkZ", UNIT_NONE },
	[COL_REGS] = { "Reg/Trd", UNIT_NONE },
	[COL_STCSMEM] = { "StcSMem", UNIT_BYTES },
	[COL_DYMSMEM] = { "DymSMem", UNIT_BYTES },
	[COL_NAME] = { "Name", UNIT_NONE },
	[COL_STRM] = { "Strm", UNIT_NONE },
	[COL_DEVICE] = { "Device", UNIT_NONE },
};

/* Units a header may name, in parentheses: to ns or to bytes. */
static const struct {
	const char *name;
	enum imp_unit_kind kind;
	__u64 factor;
} imp_units[] = {
	{ "ns", UNIT_TIME, 1 }, { "us", UNIT_TIME, 1000 },
	{ "ms", UNIT_TIME, 1000000 }, { "s", UNIT_TIME, IMP_E9 },
	{ "B", UNIT_BYTES, 1 }, { "byte", UNIT_BYTES, 1 },
	{ "bytes", UNIT_BYTES, 1 }, { "KB", UNIT_BYTES, 1000 },
	{ "KiB", UNIT_BYTES, 1024 }, { "MB", UNIT_BYTES, 1000000 },
	{ "MiB", UNIT_BYTES, 1048576 },
};


/*
 * A header field: its name without " (unit)" and the unit's factor.
 * Return: the column, NR_COLS for a column the importer does not read,
 * or -1 for a unit it does not know (in @why).
 */
static int imp_header_col(const char *f, __u64 *factor, const char **unit)
{
	const char *paren = strchr(f, '(');
	size_t len = paren ? (size_t)(paren - f) : strlen(f);
	unsigned int c, u;

	while (len && f[len - 1] == ' ')
		len--;
	*factor = 1;
	*unit = NULL;
	for (c = 0; c < NR_COLS; c++)
		if (strlen(imp_cols[c].name) == len &&
		    !strncasecmp(f, imp_cols[c].name, len))
			break;
	if (c == NR_COLS || !paren || imp_cols[c].kind == UNIT_NONE)
		return c;
	*unit = paren + 1;
	for (u = 0; u < ARRAY_SIZE(imp_units); u++) {
		size_t ul = strlen(imp_units[u].name);

		if (imp_units[u].kind == imp_cols[c].kind &&
		    !strncmp(paren + 1, imp_units[u].name, ul) &&
		    !strcmp(paren + 1 + ul, ")")) {
			*factor = imp_units[u].factor;
			return c;
		}
	}
	return -1;
}

/**
 * imp_header() - take the current line as the header
 * @im: the import; @im->field holds the line's @n fields.
 * @n: fields.
 *
 * Return: 0, or %EXIT_USAGE after a message (an unknown unit, a column
 * twice, a required column missing).
 */
static int imp_header(struct imp *im, unsigned int n)
{
	const char *unit;
	__u64 factor;
	unsigned int i;
	int c;

	for (c = 0; c < NR_COLS; c++)
		im->col[c] = -1;
	for (i = 0; i < n; i++) {
		c = imp_header_col(im->field[i], &factor, &unit);
		if (c < 0)
			return imp_fail(im, "column '%s': unknown unit '%.*s'",
					im->field[i], (int)strcspn(unit, ")"),
					unit);
		if (c == NR_COLS)
			continue;
		if (im->col[c] >= 0)
			return imp_fail(im, "column %s twice (fields %d and %u)",
					imp_cols[c].name, im->col[c] + 1, i + 1);
		im->col[c] = i;
		im->factor[c] = factor;
	}
	for (c = 0; c < NR_REQUIRED_COLS; c++)
		if (im->col[c] < 0)
			return imp_fail(im, "missing column %s",
					imp_cols[c].name);
	im->nr_fields = n;
	return 0;
}

/* A line is the header if it splits and has a field named Start. */
static bool imp_is_header(struct imp *im, unsigned int n)
{
	const char *unit;
	__u64 factor;
	unsigned int i;

	for (i = 0; i < n; i++)
		if (imp_header_col(im->field[i], &factor, &unit) == COL_START)
			return true;
	return false;
}

/* The value of column @c in the current row, at most @max. */
static int imp_field(struct imp *im, enum imp_col c, __u64 max, __u64 *out)
{
	const char *s = im->field[im->col[c]];
	int ret = imp_number(s, im->factor[c], out);

	if (ret == -EINVAL && s[0] == '-')
		return imp_fail(im, "%s '%s' is negative", imp_cols[c].name, s);
	if (ret == -EINVAL)
		return imp_fail(im, "%s '%s' is not a number",
				imp_cols[c].name, s);
	if (ret || *out > max)
		return imp_fail(im, "%s '%s' is larger than %llu",
				imp_cols[c].name, s, (unsigned long long)max);
	return 0;
}

/* The product of three dimension columns, each at least 1. */
static int imp_dims(struct imp *im, enum imp_col first, __u64 *prod)
{
	__u64 v;
	int c;

	*prod = 1;
	for (c = first; c < (int)first + 3; c++) {
		if (imp_field(im, c, 1U << 31, &v))
			return EXIT_USAGE;
		if (!v)
			return imp_fail(im, "%s is 0: dimensions are at least 1",
					imp_cols[c].name);
		*prod *= v;
	}
	return 0;
}

/* Note the row's stream, if the report has a Strm column. */
static void imp_stream(struct imp *im)
{
	const char *s;

	if (im->col[COL_STRM] < 0)
		return;
	s = im->field[im->col[COL_STRM]];
	if (!im->streams) {
		snprintf(im->stream, sizeof(im->stream), "%s", s);
		im->streams = 1;
	} else if (strncmp(s, im->stream, sizeof(im->stream) - 1)) {
		im->streams = 2;
	}
}

/* The row's Strm value, a copy: "" without the column. */
static char *imp_stream_name(struct imp *im)
{
	char *s = strdup(im->col[COL_STRM] < 0 ? "" :
			 im->field[im->col[COL_STRM]]);

	if (!s)
		err_msg("%s", "out of memory");
	return s;
}

/* A memcpy or memset row: its stream and start, for the gaps. */
static int imp_xfer(struct imp *im)
{
	struct imp_xfer *x;

	if (im->nr_xfers == WL_MAX_LAUNCHES)
		return imp_fail(im, "more than %u memcpy and memset rows",
				WL_MAX_LAUNCHES);
	if (im->nr_xfers == im->cap_xfers) {
		unsigned int cap = im->cap_xfers ? 2 * im->cap_xfers : 64;

		x = realloc(im->xfers, cap * sizeof(*x));
		if (!x) {
			err_msg("%s", "out of memory");
			return EXIT_DEVICE;
		}
		im->xfers = x;
		im->cap_xfers = cap;
	}
	x = &im->xfers[im->nr_xfers];
	x->line = im->in.nr;
	if (imp_field(im, COL_START, ~0ULL >> 1, &x->start))
		return EXIT_USAGE;
	x->stream = imp_stream_name(im);
	if (!x->stream)
		return EXIT_DEVICE;
	im->nr_xfers++;
	return 0;
}

/* Whether every dimension field of the row is empty (not a kernel). */
static bool imp_no_dims(struct imp *im)
{
	int c;

	for (c = COL_GRDX; c <= COL_BLKZ; c++)
		if (im->field[im->col[c]][0])
			return false;
	return true;
}

/**
 * imp_row() - one data row
 * @im: the import; @im->field holds the row.
 *
 * Return: 0, or %EXIT_USAGE after a message.
 */
static int imp_row(struct imp *im)
{
	const char *name = im->field[im->col[COL_NAME]];
	struct imp_kernel *k;
	__u64 v, s, d;
	int ret;

	imp_stream(im);
	if (im->col[COL_DEVICE] >= 0) {
		ret = gpu_note(&im->gpu, &im->in,
			       im->field[im->col[COL_DEVICE]], "Device column",
			       im->given);
		if (ret)
			return ret;
	}
	if (imp_no_dims(im)) {
		if (!strncmp(name, "[CUDA memcpy", 12))
			im->nr_memcpy++;
		else if (!strncmp(name, "[CUDA memset", 12))
			im->nr_memset++;
		else
			return imp_fail(im, "'%s': no grid dimensions, and not a memcpy or memset",
					name);
		return imp_xfer(im);
	}
	k = imp_kernel_new(im, &im->in);
	if (!k)
		return EXIT_USAGE;
	k->line = im->in.nr;
	if (imp_field(im, COL_START, ~0ULL >> 1, &k->start) ||
	    imp_field(im, COL_DURATION, ~0ULL >> 1, &k->duration))
		return EXIT_USAGE;
	if (!k->duration)
		return imp_fail(im, "Duration is 0");
	if (imp_dims(im, COL_GRDX, &v))
		return EXIT_USAGE;
	k->blocks = v > (1ULL << 32) - 1 ? ~0U : v;
	if (imp_dims(im, COL_BLKX, &v))
		return EXIT_USAGE;
	k->threads = v > (1ULL << 32) - 1 ? ~0U : v;
	if (imp_field(im, COL_REGS, 1U << 16, &v) ||
	    imp_field(im, COL_STCSMEM, 1U << 30, &s) ||
	    imp_field(im, COL_DYMSMEM, 1U << 30, &d))
		return EXIT_USAGE;
	k->regs = v;
	k->shmem = s + d;
	k->name = strdup(name);
	if (!k->name) {
		err_msg("%s", "out of memory");
		return EXIT_DEVICE;
	}
	im->nr_kernels++;	/* from here on, imp_run() frees its strings */
	k->stream = imp_stream_name(im);
	return k->stream ? 0 : EXIT_DEVICE;
}

/* One row of the report: before the header, is it the header? */
static int nsys_row(void *ctx, const struct csv_row *r)
{
	struct imp *im = ctx;

	im->field = r->field;
	if (!im->header) {
		if (!imp_is_header(im, r->n))
			return 0;
		if (imp_header(im, r->n))
			return EXIT_USAGE;
		im->header = true;
		return CSV_HEADER;
	}
	if (r->n != im->nr_fields)
		return imp_fail(im, "%u fields, the header has %u", r->n,
				im->nr_fields);
	return imp_row(im);
}

/* Kernels by stream, start and line: qsort() comparison. */
/* By stream, then start, then line: the order of both sorts below. */
static int imp_stream_order(const char *sx, __u64 tx, unsigned int lx,
			    const char *sy, __u64 ty, unsigned int ly)
{
	int c = strcmp(sx, sy);

	if (c)
		return c;
	if (tx != ty)
		return tx < ty ? -1 : 1;
	return lx < ly ? -1 : lx > ly;
}

static int imp_by_stream(const void *a, const void *b)
{
	const struct imp_kernel *x = *(struct imp_kernel *const *)a;
	const struct imp_kernel *y = *(struct imp_kernel *const *)b;

	return imp_stream_order(x->stream, x->start, x->line,
				y->stream, y->start, y->line);
}

/* memcpy and memset rows by stream, start and line: qsort() comparison. */
static int imp_xfer_by_stream(const void *a, const void *b)
{
	const struct imp_xfer *x = a, *y = b;

	return imp_stream_order(x->stream, x->start, x->line,
				y->stream, y->start, y->line);
}

/**
 * nsys_gaps() - each kernel's gap in its stream
 * @im: the import, its kernels and memcpy and memset rows read.
 *
 * In each stream (Strm; one stream without the column), in start order
 * (rows with equal starts in file order), a kernel's gap is its start
 * minus the end (start + duration) of the kernel before it: the memcpy
 * and memset rows between them are part of it.  A kernel that starts
 * before that end overlaps it: gap 0, noted.  The first kernel of a
 * stream has as gap its start minus the start of its stream's first row
 * when that is a memcpy or memset before it, else 0.  Rows after a
 * stream's last kernel count for nothing.
 *
 * Return: 0, or %EXIT_DEVICE without memory.
 */
static int nsys_gaps(struct imp *im)
{
	struct imp_kernel **by = calloc(im->nr_kernels, sizeof(*by));
	unsigned int i, x = 0;

	if (!by) {
		err_msg("%s", "out of memory");
		return EXIT_DEVICE;
	}
	for (i = 0; i < im->nr_kernels; i++)
		by[i] = &im->kernels[i];
	qsort(by, im->nr_kernels, sizeof(*by), imp_by_stream);
	if (im->nr_xfers)	/* qsort(NULL, 0, ...) is undefined */
		qsort(im->xfers, im->nr_xfers, sizeof(*im->xfers),
		      imp_xfer_by_stream);
	for (i = 0; i < im->nr_kernels; i++) {
		struct imp_kernel *k = by[i], *prev = i ? by[i - 1] : NULL;
		const struct imp_xfer *f;
		__u64 end;

		if (prev && !strcmp(prev->stream, k->stream)) {
			end = prev->start + prev->duration;
			k->gap_line = prev->line;
			if (k->start >= end)
				k->gap_ns = k->start - end;
			else
				k->overlap_ns = end - k->start;
			continue;
		}
		while (x < im->nr_xfers &&
		       strcmp(im->xfers[x].stream, k->stream) < 0)
			x++;
		f = x < im->nr_xfers ? &im->xfers[x] : NULL;
		if (f && !strcmp(f->stream, k->stream) &&
		    (f->start < k->start ||
		     (f->start == k->start && f->line < k->line))) {
			k->gap_ns = k->start - f->start;
			k->gap_line = f->line;
			k->gap_first = true;
		}
	}
	free(by);
	return 0;
}

/**
 * nsys_read() - read the whole report
 * @im: the import, its input open.
 *
 * Lines before the header (notices of nsys, blank lines) are skipped: the
 * header is the first line with a column named Start.  After it, blank
 * lines are skipped and every other row has exactly the header's number
 * of fields (csv.c).
 *
 * Return: 0, or an exit status after a message.
 */
int nsys_read(struct imp *im)
{
	int ret = csv_read(&im->in, NSYS_MAX_FIELDS, nsys_row, NULL, im);

	if (ret)
		return ret;
	if (!im->header) {
		err_msg("%s: no header line (a line with a Start column): not a cuda_gpu_trace report",
			im->in.path);
		return EXIT_USAGE;
	}
	if (!im->nr_kernels) {
		err_msg("%s: no kernel rows", im->in.path);
		return EXIT_USAGE;
	}
	return nsys_gaps(im);
}
