// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_import.c - "gputbs import nsys": an Nsight Systems cuda_gpu_trace
 * report (nsys stats --report cuda_gpu_trace --format csv) turned into a
 * workload file (Documentation/workloads.rst, "Importing a profile").
 *
 * The report is read with the tools' line reader (input.c) and split into
 * fields by a small RFC 4180 splitter; columns are found by their names,
 * whatever their order and units.  Every kernel row becomes a grid of one
 * program, in start-time order; memcpy and memset rows are counted and
 * skipped (the workload format has no gap).  A kernel's measured duration
 * becomes its mean block duration on the emulated device: the duration in
 * cycles at the profiled GPU's clock, divided by the number of waves its
 * blocks take on the emulated device (the staircase model, Equation 1).
 *
 * Copyright (C) 2026 The gputbs developers
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "input.h"
#include "workload.h"
#include "gtbs.h"

#define CSV_MAX_FIELDS	64	/* fields of a line */
#define IMP_FRAC_DIGITS	9	/* decimals kept of a number */
#define IMP_E9		1000000000ULL

static const char usage_import[] =
	"Usage: gputbs import nsys [OPTIONS] FILE.csv\n"
	"\n"
	"Convert an Nsight Systems cuda_gpu_trace report exported as CSV\n"
	"(nsys stats --report cuda_gpu_trace --format csv) into a workload\n"
	"file: one program whose grids are the kernels in start-time order,\n"
	"and a workload that runs it (Documentation/workloads.rst,\n"
	"\"Importing a profile\").  memcpy and memset rows are skipped.\n"
	"\n"
	"  -o, --output FILE         write the workload file there (default:\n"
	"                            standard output)\n"
	"  -k, --device-clock-khz N  clock of the profiled GPU, kHz (default:\n"
	"                            the emulated device's, 1401000)\n"
	"  -p, --program NAME        program name (default: FILE's name\n"
	"                            without its directory and .csv)\n"
	"  -h, --help                this help\n"
	"\n"
	"A summary (kernels, skipped rows, assumptions) goes to standard\n"
	"error.  Exit status: 0, 1 for a system error, 2 for a usage error or\n"
	"a bad report (FILE:LINE: reason).\n";

/* The columns the importer reads; every one but Strm is required. */
enum imp_col {
	COL_START, COL_DURATION, COL_GRDX, COL_GRDY, COL_GRDZ, COL_BLKX,
	COL_BLKY, COL_BLKZ, COL_REGS, COL_STCSMEM, COL_DYMSMEM, COL_NAME,
	COL_STRM, NR_COLS,
};

#define NR_REQUIRED_COLS	COL_STRM

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

/**
 * struct imp_kernel - one kernel row
 * @line: its line in the report.
 * @start: start, ns.
 * @duration: duration, ns.
 * @blocks: GrdX * GrdY * GrdZ.
 * @threads: BlkX * BlkY * BlkZ.
 * @regs: registers per thread.
 * @shmem: static plus dynamic shared memory per block, bytes.
 * @name: the kernel's name as the report gives it.
 */
struct imp_kernel {
	unsigned int line;
	__u64 start;
	__u64 duration;
	__u32 blocks;
	__u32 threads;
	__u32 regs;
	__u32 shmem;
	char *name;
};

/**
 * struct imp - the state of one import
 * @in: the report.
 * @cfg: the emulated device.
 * @clock_khz: the profiled GPU's clock.
 * @col: index of each column in a line, -1 if absent.
 * @factor: per column, what its unit multiplies a value by (ns, bytes).
 * @nr_fields: fields of the header line.
 * @field: the fields of the current line (pointers into @buf).
 * @buf: the current line's fields, unquoted.
 * @kernels: the kernel rows read.
 * @nr_kernels: entries of @kernels.
 * @nr_memcpy: memcpy rows skipped.
 * @nr_memset: memset rows skipped.
 * @streams: distinct Strm values seen (at most 2 counted: 1 or "several").
 * @stream: the first Strm value.
 */
struct imp {
	struct input in;
	struct gtbs_dev_config cfg;
	__u64 clock_khz;
	int col[NR_COLS];
	__u64 factor[NR_COLS];
	unsigned int nr_fields;
	char *field[CSV_MAX_FIELDS];
	char *buf;
	struct imp_kernel *kernels;
	unsigned int nr_kernels;
	unsigned int cap_kernels;
	unsigned int nr_memcpy;
	unsigned int nr_memset;
	unsigned int streams;
	char stream[32];
};

/* An error at the current line: "gputbs: FILE:LINE: reason", status 2. */
static int __attribute__((format(printf, 2, 3)))
imp_fail(struct imp *im, const char *fmt, ...)
{
	char msg[INPUT_ERR_LEN];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	err_msg("%s:%u: %s", im->in.path, im->in.nr, msg);
	return EXIT_USAGE;
}

/**
 * csv_split() - split a line into fields, RFC 4180
 * @line: the line, without its line break (a trailing CR is dropped).
 * @buf: out: the fields' text, NUL-separated; at least strlen(@line) + 1
 *	bytes.
 * @field: out: the start of each field in @buf.
 * @max: entries of @field.
 * @why: out: the reason of a failure, a static string.
 *
 * Fields are separated by commas.  A field that starts with a double quote
 * runs to the next lone double quote and may hold commas; "" in it is one
 * double quote; the closing quote must end the field.  A double quote in
 * a field that does not start with one is an error, and so is a quoted
 * field that does not end on its line (the reports never break a field
 * over lines).  Spaces are part of fields.
 *
 * Return: the number of fields, or -1 with @why set.
 */
static int csv_split(const char *line, char *buf, char **field,
		     unsigned int max, const char **why)
{
	const char *s = line;
	unsigned int n = 0;
	char *d = buf;

	for (;;) {
		if (n == max) {
			*why = "too many fields";
			return -1;
		}
		field[n++] = d;
		if (*s == '"') {
			for (s++;; s++) {
				if (!*s) {
					*why = "unterminated quoted field";
					return -1;
				}
				if (*s == '"' && s[1] != '"')
					break;
				if (*s == '"')
					s++;
				*d++ = *s;
			}
			s++;
			if (*s && *s != ',' && strcmp(s, "\r")) {
				*why = "text after a closing quote";
				return -1;
			}
		} else {
			for (; *s && *s != ',' && strcmp(s, "\r"); s++) {
				if (*s == '"') {
					*why = "quote inside an unquoted field";
					return -1;
				}
				*d++ = *s;
			}
		}
		*d++ = '\0';
		if (*s != ',')
			return n;
		s++;
	}
}

/* Split the current line into @im->field; the count, or -1 with @why. */
static int imp_split(struct imp *im, const char **why)
{
	free(im->buf);
	im->buf = malloc(im->in.len + 1);
	if (!im->buf) {
		*why = "out of memory";
		return -1;
	}
	return csv_split(im->in.line, im->buf, im->field, CSV_MAX_FIELDS, why);
}

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
static int imp_header(struct imp *im, int n)
{
	const char *unit;
	__u64 factor;
	int i, c;

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
			return imp_fail(im, "column %s twice (fields %d and %d)",
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
static bool imp_is_header(struct imp *im, int n)
{
	const char *unit;
	__u64 factor;
	int i;

	for (i = 0; i < n; i++)
		if (imp_header_col(im->field[i], &factor, &unit) == COL_START)
			return true;
	return false;
}

/**
 * imp_number() - a non-negative decimal number scaled by its unit
 * @s: digits, optionally a point and up to 9 decimals.
 * @factor: what one unit is worth.
 * @out: out: round(@s * @factor).
 *
 * Exact, in integers: the value is read as nano-units.
 *
 * Return: 0, -EINVAL if @s is not such a number, -ERANGE past 2^63.
 */
static int imp_number(const char *s, __u64 factor, __u64 *out)
{
	unsigned __int128 v = 0, r;
	unsigned int frac = 0;
	bool point = false, digits = false;

	for (; *s; s++) {
		if (*s == '.' && !point) {
			point = true;
			continue;
		}
		if (*s < '0' || *s > '9')
			return -EINVAL;
		digits = true;
		if (point && frac == IMP_FRAC_DIGITS)
			continue;
		v = v * 10 + (*s - '0');
		if (point)
			frac++;
		if (v > ((unsigned __int128)1 << 100))
			return -ERANGE;
	}
	if (!digits)
		return -EINVAL;
	for (; frac < IMP_FRAC_DIGITS; frac++)
		v *= 10;
	r = (v * factor + IMP_E9 / 2) / IMP_E9;
	if (r >> 63)
		return -ERANGE;
	*out = r;
	return 0;
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

/**
 * imp_fits() - a kernel against the emulated device's limits
 * @im: the import.
 * @k: the kernel.
 *
 * Return: 0, or %EXIT_USAGE after a message naming the limit.
 */
static int imp_fits(struct imp *im, const struct imp_kernel *k)
{
	const struct gtbs_dev_config *cfg = &im->cfg;
	struct gtbs_grid_desc desc = {
		.nr_blocks = k->blocks, .threads_per_block = k->threads,
		.regs_per_thread = k->regs, .shmem_per_block = k->shmem,
	};
	struct gtbs_occupancy occ;

	if (k->blocks > cfg->max_blocks_per_grid)
		return imp_fail(im, "%u blocks: the emulated device takes at most %u per grid",
				k->blocks, cfg->max_blocks_per_grid);
	if (k->threads > cfg->max_threads_per_block)
		return imp_fail(im, "%u threads per block: the emulated device allows at most %u",
				k->threads, cfg->max_threads_per_block);
	if (k->regs > cfg->max_regs_per_thread)
		return imp_fail(im, "%u registers per thread: the emulated device allows at most %u",
				k->regs, cfg->max_regs_per_thread);
	if (k->shmem > cfg->max_shmem_per_sm)
		return imp_fail(im, "%u bytes of shared memory per block: the emulated device allows at most %u",
				k->shmem, cfg->max_shmem_per_sm);
	if (gtbs_occupancy_calc(cfg, &desc, &occ))
		return imp_fail(im, "%u threads x %u registers: more than the %u registers of an SM",
				k->threads, k->regs, cfg->max_regs_per_sm);
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

	imp_stream(im);
	if (imp_no_dims(im)) {
		if (!strncmp(name, "[CUDA memcpy", 12))
			im->nr_memcpy++;
		else if (!strncmp(name, "[CUDA memset", 12))
			im->nr_memset++;
		else
			return imp_fail(im, "'%s': no grid dimensions, and not a memcpy or memset",
					name);
		return 0;
	}
	/* as many as a run may launch (workloads.rst, "Limits") */
	if (im->nr_kernels == WL_MAX_LAUNCHES)
		return imp_fail(im, "more than %u kernels", WL_MAX_LAUNCHES);
	if (im->nr_kernels == im->cap_kernels) {
		unsigned int cap = im->cap_kernels ? 2 * im->cap_kernels : 64;

		k = realloc(im->kernels, cap * sizeof(*k));
		if (!k)
			return imp_fail(im, "out of memory");
		im->kernels = k;
		im->cap_kernels = cap;
	}
	k = &im->kernels[im->nr_kernels];
	memset(k, 0, sizeof(*k));
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
	if (imp_fits(im, k))
		return EXIT_USAGE;
	k->name = strdup(name);
	if (!k->name) {
		err_msg("%s", "out of memory");
		return EXIT_DEVICE;
	}
	im->nr_kernels++;
	return 0;
}

/* Skip the trailing blanks and a CR of the current line: blank? */
static bool imp_blank(const struct imp *im)
{
	return strspn(im->in.line, " \t\r") == im->in.len;
}

/**
 * imp_read() - read the whole report
 * @im: the import, its input open.
 *
 * Lines before the header (notices of nsys, blank lines) are skipped: the
 * header is the first line with a column named Start.  After it, blank
 * lines are skipped and every other line is a row with exactly the
 * header's number of fields.
 *
 * Return: 0, or an exit status after a message.
 */
static int imp_read(struct imp *im)
{
	bool header = false;
	const char *why;
	int n, ret;

	while ((ret = input_line(&im->in)) > 0) {
		if (imp_blank(im))
			continue;
		n = imp_split(im, &why);
		if (!header) {
			if (n < 0 || !imp_is_header(im, n))
				continue;
			if (imp_header(im, n))
				return EXIT_USAGE;
			header = true;
			continue;
		}
		if (n < 0)
			return imp_fail(im, "%s", why);
		if ((unsigned int)n != im->nr_fields)
			return imp_fail(im, "%d fields, the header has %u", n,
					im->nr_fields);
		ret = imp_row(im);
		if (ret)
			return ret;
	}
	if (ret < 0) {
		err_msg("%s", im->in.err);
		return ret == -EINVAL ? EXIT_USAGE : EXIT_DEVICE;
	}
	if (!header) {
		err_msg("%s: no header line (a line with a Start column): not a cuda_gpu_trace report",
			im->in.path);
		return EXIT_USAGE;
	}
	if (!im->nr_kernels) {
		err_msg("%s: no kernel rows", im->in.path);
		return EXIT_USAGE;
	}
	return 0;
}

/* Kernels by start, then by line: qsort() comparison. */
static int imp_by_start(const void *a, const void *b)
{
	const struct imp_kernel *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

/*
 * A grid label from a kernel name: its function name without "void ",
 * template arguments and parameters, other characters than [A-Za-z0-9_:.-]
 * as '_', cut to the label's length.
 */
static void imp_label(const char *name, char *label)
{
	size_t n = 0;

	if (!strncmp(name, "void ", 5))
		name += 5;
	for (; *name && *name != '<' && *name != '(' &&
	       n < GPUTBS_LABEL_LEN - 1; name++) {
		char c = *name;

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || strchr("_:.-", c)))
			c = '_';
		label[n++] = c;
	}
	if (!n)
		label[n++] = 'k';
	label[n] = '\0';
}

/* The name in a comment: bytes outside printable ASCII as '?'. */
static void imp_comment_name(FILE *f, const char *name)
{
	for (; *name; name++)
		fputc(*name >= ' ' && *name <= '~' ? *name : '?', f);
}

/**
 * imp_cycles() - a kernel's mean block duration on the emulated device
 * @im: the import.
 * @k: the kernel.
 * @total: out: its duration in cycles at the profiled clock.
 * @waves: out: ceil(blocks / (R * SMs)) on the emulated device.
 * @occ: out: its occupancy there.
 *
 * Return: the mean block duration, cycles, 1..%WL_MAX_CYCLES, or 0 if it
 * is larger.
 */
static __u64 imp_cycles(const struct imp *im, const struct imp_kernel *k,
			__u64 *total, __u64 *waves, struct gtbs_occupancy *occ)
{
	struct gtbs_grid_desc desc = {
		.nr_blocks = k->blocks, .threads_per_block = k->threads,
		.regs_per_thread = k->regs, .shmem_per_block = k->shmem,
	};
	unsigned __int128 c;
	__u64 slots, t;

	gtbs_occupancy_calc(&im->cfg, &desc, occ);	/* imp_fits() passed */
	slots = (__u64)occ->residency * im->cfg.nr_sms;
	*waves = (k->blocks + slots - 1) / slots;
	c = ((unsigned __int128)k->duration * im->clock_khz + 500000) / 1000000;
	*total = c > WL_MAX_CYCLES * 1024 ? WL_MAX_CYCLES * 1024 : (__u64)c;
	t = (*total + *waves / 2) / *waves;
	if (!t)
		t = 1;
	return t > WL_MAX_CYCLES ? 0 : t;
}

/**
 * imp_write() - the workload file
 * @im: the import, its kernels sorted.
 * @f: where to.
 * @prog: the program's name.
 *
 * Return: 0, or %EXIT_USAGE after a message (a kernel too long).
 */
static int imp_write(struct imp *im, FILE *f, const char *prog)
{
	struct gtbs_occupancy occ;
	char label[GPUTBS_LABEL_LEN];
	__u64 t, total, waves;
	unsigned int i;

	fprintf(f, "# imported by gputbs import nsys from %s\n", im->in.path);
	fprintf(f, "# profiled clock %llu kHz; emulated device %u SMs; cycles = duration / waves\n",
		(unsigned long long)im->clock_khz, im->cfg.nr_sms);
	fprintf(f, "program %s\n", prog);
	for (i = 0; i < im->nr_kernels; i++) {
		const struct imp_kernel *k = &im->kernels[i];

		t = imp_cycles(im, k, &total, &waves, &occ);
		if (!t) {
			im->in.nr = k->line;
			return imp_fail(im, "Duration %llu ns: more than %llu cycles per block",
					(unsigned long long)k->duration,
					WL_MAX_CYCLES);
		}
		imp_label(k->name, label);
		fprintf(f, "# line %u: ", k->line);
		imp_comment_name(f, k->name);
		fprintf(f, "\n#   %llu ns = %llu cycles, R=%u, %llu wave%s\n",
			(unsigned long long)k->duration,
			(unsigned long long)total, occ.residency,
			(unsigned long long)waves, waves == 1 ? "" : "s");
		fprintf(f, "grid %s blocks=%u threads=%u regs=%u shmem=%u cycles=%llu expect=%llu\n",
			label, k->blocks, k->threads, k->regs, k->shmem,
			(unsigned long long)t, (unsigned long long)total);
	}
	fprintf(f, "\nworkload %s\nrun %s at=0\n", prog, prog);
	return 0;
}

/* The default program name: FILE without its directory and ".csv". */
static void imp_program_name(const char *path, char *name, size_t len)
{
	const char *base = strrchr(path, '/');
	size_t n, i;

	base = base ? base + 1 : path;
	n = strlen(base);
	if (n > 4 && !strcasecmp(base + n - 4, ".csv"))
		n -= 4;
	if (n >= len)
		n = len - 1;
	for (i = 0; i < n; i++)
		name[i] = base[i] > ' ' && base[i] <= '~' ? base[i] : '_';
	if (!n)
		name[n++] = 'p';
	name[n] = '\0';
}

/* The summary on standard error. */
static void imp_summary(const struct imp *im, const char *out)
{
	fprintf(stderr, "gputbs import: %u kernel%s imported into %s; skipped %u memcpy and %u memset rows\n",
		im->nr_kernels, im->nr_kernels == 1 ? "" : "s", out,
		im->nr_memcpy, im->nr_memset);
	fprintf(stderr, "gputbs import: assumed: profiled clock %llu kHz; emulated device %u SMs (gtbs_config_default); block cycles = duration x clock / waves, waves = ceil(blocks / (R x SMs)); rsd=0 (one duration per kernel)\n",
		(unsigned long long)im->clock_khz, im->cfg.nr_sms);
	if (im->streams > 1)
		fprintf(stderr, "gputbs import: kernels of several streams serialised in start order\n");
	if (im->nr_memcpy + im->nr_memset)
		fprintf(stderr, "gputbs import: the workload format has no gap: the time of the skipped rows and between kernels is dropped\n");
}

static int imp_output(struct imp *im, const char *out, const char *prog)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f, *m = open_memstream(&text, &len);
	int ret;

	if (!m) {
		err_msg("%s", "out of memory");
		return EXIT_DEVICE;
	}
	ret = imp_write(im, m, prog);
	fclose(m);
	if (ret)
		goto out;
	f = out ? fopen(out, "we") : stdout;
	if (!f || fwrite(text, 1, len, f) != len || (out && fclose(f))) {
		err_msg("%s: %s", out ? out : "standard output",
			strerror(errno));
		ret = EXIT_DEVICE;
		goto out;
	}
	imp_summary(im, out ? out : "standard output");
out:
	free(text);
	return ret;
}

static int imp_nsys(const char *path, const char *out, const char *prog,
		    __u64 clock_khz)
{
	struct imp *im = calloc(1, sizeof(*im));
	char name[WL_NAME_LEN];
	unsigned int i;
	int ret;

	if (!im) {
		err_msg("%s", "out of memory");
		return EXIT_DEVICE;
	}
	gtbs_config_default(&im->cfg);
	im->clock_khz = clock_khz ? clock_khz : im->cfg.clock_khz;
	if (input_open(&im->in, path, INPUT_STDIN)) {
		err_msg("%s", im->in.err);
		ret = EXIT_USAGE;
		goto out;
	}
	ret = imp_read(im);
	if (!ret) {
		qsort(im->kernels, im->nr_kernels, sizeof(im->kernels[0]),
		      imp_by_start);
		if (!prog)
			imp_program_name(path, name, sizeof(name));
		ret = imp_output(im, out, prog ? prog : name);
	}
out:
	input_close(&im->in);
	for (i = 0; i < im->nr_kernels; i++)
		free(im->kernels[i].name);
	free(im->kernels);
	free(im->buf);
	free(im);
	return ret;
}

/* A program name: 1..63 printable ASCII characters without spaces. */
static bool imp_valid_name(const char *s)
{
	if (!*s || strlen(s) >= WL_NAME_LEN)
		return false;
	for (; *s; s++)
		if (*s <= ' ' || *s > '~')
			return false;
	return true;
}

/**
 * cmd_import() - gputbs import nsys [OPTIONS] FILE.csv
 * @argc: arguments, "import" first.
 * @argv: them.
 *
 * Return: the exit status.
 */
int cmd_import(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "device-clock-khz", required_argument, NULL, 'k' },
		{ "program", required_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *out = NULL, *prog = NULL;
	unsigned long long khz = 0;
	char *end;
	int c;

	while ((c = getopt_long(argc, argv, "o:k:p:h", opts, NULL)) != -1) {
		switch (c) {
		case 'o':
			out = optarg;
			break;
		case 'k':
			errno = 0;
			khz = strtoull(optarg, &end, 10);
			if (errno || *end || optarg[0] < '1' ||
			    optarg[0] > '9' || khz > 100000000)
				return usage_error(usage_import,
						   "--device-clock-khz: '%s' is not 1..100000000",
						   optarg);
			break;
		case 'p':
			if (!imp_valid_name(optarg))
				return usage_error(usage_import,
						   "--program: '%s' is not 1 to 63 printable characters without spaces",
						   optarg);
			prog = optarg;
			break;
		case 'h':
			fputs(usage_import, stdout);
			return 0;
		default:
			fputs(usage_import, stderr);
			return EXIT_USAGE;
		}
	}
	if (optind >= argc)
		return usage_error(usage_import, "%s",
				   "missing format (nsys)");
	if (strcmp(argv[optind], "nsys"))
		return usage_error(usage_import,
				   "unknown format '%s' (nsys)", argv[optind]);
	if (argc - optind != 2)
		return usage_error(usage_import, "%s",
				   "expected one FILE.csv");
	return imp_nsys(argv[optind + 1], out, prog, khz);
}
