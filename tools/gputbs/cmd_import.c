// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_import.c - "gputbs import nsys" and "gputbs import ncu": an Nsight
 * Systems cuda_gpu_trace report (nsys stats --report cuda_gpu_trace
 * --format csv), optionally with the Nsight Compute report of the same
 * program (ncu --csv), or an Nsight Compute report alone, turned into a
 * workload file (Documentation/workloads.rst, "Importing a profile" and
 * "Nsight Compute").  The ncu launches set each grid's mem= and knee=
 * (imp_model()).
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
#include "../lib/input.h"
#include "../lib/workload.h"
#include "gtbs.h"

#define CSV_MAX_FIELDS	64	/* fields of a line */
#define IMP_FRAC_DIGITS	9	/* decimals kept of a number */
#define IMP_E9		1000000000ULL

static const char usage_import[] =
	"Usage: gputbs import nsys [OPTIONS] [--ncu NCU.csv] FILE.csv\n"
	"       gputbs import ncu [OPTIONS] NCU.csv\n"
	"\n"
	"Convert an Nsight Systems cuda_gpu_trace report exported as CSV\n"
	"(nsys stats --report cuda_gpu_trace --format csv) into a workload\n"
	"file: one program whose grids are the kernels in start-time order,\n"
	"and a workload that runs it (Documentation/workloads.rst,\n"
	"\"Importing a profile\").  memcpy and memset rows are skipped.\n"
	"With --ncu, the kernels' launches in an Nsight Compute report\n"
	"(ncu --csv, details or raw page), matched by name and order, set\n"
	"each grid's mem= and knee= from its speed-of-light throughputs and\n"
	"achieved occupancy.  \"import ncu\" reads an ncu report alone: its\n"
	"launches in ID order, with their launch statistics and durations.\n"
	"\n"
	"  -o, --output FILE         write the workload file there (default:\n"
	"                            standard output)\n"
	"  -k, --device-clock-khz N  clock of the profiled GPU, kHz (default:\n"
	"                            the emulated device's)\n"
	"  -p, --program NAME        program name (default: FILE's name\n"
	"                            without its directory and .csv)\n"
	"  -d, --device NAME         emulated device preset: gtx480 (default),\n"
	"                            v100, a100 or h100 (gputbs-sim --device)\n"
	"  -n, --ncu NCU.csv         nsys: the Nsight Compute report of the\n"
	"                            same program\n"
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
 * @ncu: its launch in the ncu report, or NULL.
 * @ncu_reused: @ncu is the last launch of its name, not its own.
 * @has_mem: @mem_ppm derived from @ncu.
 * @mem_ppm: the grid's mem=, ppm.
 * @has_knee: @knee_mw derived from @ncu.
 * @knee_mw: the grid's knee=, 1/1000 warps.
 */
struct ncu_kernel;

struct imp_kernel {
	unsigned int line;
	__u64 start;
	__u64 duration;
	__u32 blocks;
	__u32 threads;
	__u32 regs;
	__u32 shmem;
	char *name;
	struct ncu_kernel *ncu;
	bool ncu_reused;
	bool has_mem;
	__u32 mem_ppm;
	bool has_knee;
	__u32 knee_mw;
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
 * @device: the emulated device's preset name.
 * @nc: the ncu report, or NULL.
 * @nr_shmem_default: kernels of an ncu report alone without a shared
 *	memory size.
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
	const char *device;
	struct ncu *nc;
	unsigned int nr_shmem_default;
};

/* An error at the current line of @in: "gputbs: FILE:LINE: reason", status 2. */
static int __attribute__((format(printf, 2, 3)))
in_fail(const struct input *in, const char *fmt, ...)
{
	char msg[INPUT_ERR_LEN];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	err_msg("%s:%u: %s", in->path, in->nr, msg);
	return EXIT_USAGE;
}

#define imp_fail(im, ...)	in_fail(&(im)->in, __VA_ARGS__)

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
 * in_fits() - a kernel against the emulated device's limits
 * @in: the report, at the kernel's line (for messages).
 * @cfg: the emulated device.
 * @k: the kernel.
 *
 * Return: 0, or %EXIT_USAGE after a message naming the limit.
 */
static int in_fits(const struct input *in, const struct gtbs_dev_config *cfg,
		   const struct imp_kernel *k)
{
	struct gtbs_grid_desc desc = {
		.nr_blocks = k->blocks, .threads_per_block = k->threads,
		.regs_per_thread = k->regs, .shmem_per_block = k->shmem,
	};
	struct gtbs_occupancy occ;

	if (k->blocks > cfg->max_blocks_per_grid)
		return in_fail(in, "%u blocks: the emulated device takes at most %u per grid",
				k->blocks, cfg->max_blocks_per_grid);
	if (k->threads > cfg->max_threads_per_block)
		return in_fail(in, "%u threads per block: the emulated device allows at most %u",
				k->threads, cfg->max_threads_per_block);
	if (k->regs > cfg->max_regs_per_thread)
		return in_fail(in, "%u registers per thread: the emulated device allows at most %u",
				k->regs, cfg->max_regs_per_thread);
	if (k->shmem > cfg->max_shmem_per_sm)
		return in_fail(in, "%u bytes of shared memory per block: the emulated device allows at most %u",
				k->shmem, cfg->max_shmem_per_sm);
	if (gtbs_occupancy_calc(cfg, &desc, &occ))
		return in_fail(in, "%u threads x %u registers: more than the %u registers of an SM",
				k->threads, k->regs, cfg->max_regs_per_sm);
	return 0;
}

static int imp_fits(struct imp *im, const struct imp_kernel *k)
{
	return in_fits(&im->in, &im->cfg, k);
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

/*
 * imp_kernel_new() - the next kernel row, zeroed: as many as a run may
 * launch (workloads.rst, "Limits"), in an array that grows by doubling.
 * @in names the line of the error.  Return: the row, or NULL after a
 * message.
 */
static struct imp_kernel *imp_kernel_new(struct imp *im,
					 const struct input *in)
{
	struct imp_kernel *k;

	if (im->nr_kernels == WL_MAX_LAUNCHES) {
		in_fail(in, "more than %u kernels", WL_MAX_LAUNCHES);
		return NULL;
	}
	if (im->nr_kernels == im->cap_kernels) {
		unsigned int cap = im->cap_kernels ? 2 * im->cap_kernels : 64;

		k = realloc(im->kernels, cap * sizeof(*k));
		if (!k) {
			in_fail(in, "out of memory");
			return NULL;
		}
		im->kernels = k;
		im->cap_kernels = cap;
	}
	k = &im->kernels[im->nr_kernels];
	memset(k, 0, sizeof(*k));
	return k;
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

/*
 * Nsight Compute reports (ncu --csv): the "details" page (one row per
 * metric: ID, Kernel Name, Section Name, Metric Name, Metric Unit, Metric
 * Value) and the raw page (ncu --csv --page raw: one row per kernel, one
 * column per metric, a row of units under the header).
 */
#define NCU_MAX_FIELDS		8192	/* fields of a line of the raw page */
#define NCU_MAX_KERNELS		(1U << 20)
#define PPM			1000000ULL

/* What the importer reads of a kernel in an ncu report. */
enum ncu_field {
	NF_GRID, NF_BLOCK, NF_REGS, NF_SMEM_S, NF_SMEM_D, NF_DURATION,
	NF_SM, NF_DRAM, NF_OCC, NF_WARPS,
	NF_GRID_COL, NF_BLOCK_COL,	/* the "(x, y, z)" columns */
	NR_NF,
};

/* Kinds of value: what a unit converts to. */
enum ncu_kind {
	NK_COUNT,	/* as is */
	NK_BYTES,	/* bytes */
	NK_TIME,	/* ns */
	NK_PCT,		/* ppm of the peak: 1% = 10000 */
	NK_WARPS,	/* 1/1000 warps */
};

static const struct {
	const char *name;	/* in messages */
	enum ncu_kind kind;
} ncu_fields[NR_NF] = {
	[NF_GRID] = { "Grid Size", NK_COUNT },
	[NF_BLOCK] = { "Block Size", NK_COUNT },
	[NF_REGS] = { "Registers Per Thread", NK_COUNT },
	[NF_SMEM_S] = { "Static Shared Memory Per Block", NK_BYTES },
	[NF_SMEM_D] = { "Dynamic Shared Memory Per Block", NK_BYTES },
	[NF_DURATION] = { "Duration", NK_TIME },
	[NF_SM] = { "Compute (SM) Throughput", NK_PCT },
	[NF_DRAM] = { "DRAM Throughput", NK_PCT },
	[NF_OCC] = { "Achieved Occupancy", NK_PCT },
	[NF_WARPS] = { "Achieved Active Warps Per SM", NK_WARPS },
	[NF_GRID_COL] = { "Grid Size", NK_COUNT },
	[NF_BLOCK_COL] = { "Block Size", NK_COUNT },
};

/* Metric names, as the details page and the raw page (--page raw) name them. */
static const struct {
	const char *name;
	enum ncu_field f;
} ncu_metrics[] = {
	{ "Grid Size", NF_GRID }, { "launch__grid_size", NF_GRID },
	{ "Block Size", NF_BLOCK }, { "launch__block_size", NF_BLOCK },
	{ "Registers Per Thread", NF_REGS },
	{ "launch__registers_per_thread", NF_REGS },
	{ "Static Shared Memory Per Block", NF_SMEM_S },
	{ "launch__shared_mem_per_block_static", NF_SMEM_S },
	{ "Dynamic Shared Memory Per Block", NF_SMEM_D },
	{ "launch__shared_mem_per_block_dynamic", NF_SMEM_D },
	{ "Duration", NF_DURATION }, { "gpu__time_duration.sum", NF_DURATION },
	{ "Compute (SM) Throughput", NF_SM }, { "Compute (SM) [%]", NF_SM },
	{ "SM [%]", NF_SM },
	{ "sm__throughput.avg.pct_of_peak_sustained_elapsed", NF_SM },
	{ "DRAM Throughput", NF_DRAM },
	{ "dram__throughput.avg.pct_of_peak_sustained_elapsed", NF_DRAM },
	{ "gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed", NF_DRAM },
	{ "Achieved Occupancy", NF_OCC },
	{ "sm__warps_active.avg.pct_of_peak_sustained_active", NF_OCC },
	{ "Achieved Active Warps Per SM", NF_WARPS },
	{ "sm__warps_active.avg.per_cycle_active", NF_WARPS },
};

/* Units, to the kind's unit (a "/block" suffix of a size is dropped). */
static const struct {
	const char *name;
	enum ncu_kind kind;
	__u64 factor;
} ncu_units[] = {
	{ "", NK_COUNT, 1 }, { "block", NK_COUNT, 1 },
	{ "thread", NK_COUNT, 1 }, { "register/thread", NK_COUNT, 1 },
	{ "register", NK_COUNT, 1 },
	{ "", NK_BYTES, 1 }, { "byte", NK_BYTES, 1 }, { "B", NK_BYTES, 1 },
	{ "Kbyte", NK_BYTES, 1000 }, { "KB", NK_BYTES, 1000 },
	{ "Mbyte", NK_BYTES, 1000000 }, { "MB", NK_BYTES, 1000000 },
	{ "Kibyte", NK_BYTES, 1024 }, { "KiB", NK_BYTES, 1024 },
	{ "Mibyte", NK_BYTES, 1048576 }, { "MiB", NK_BYTES, 1048576 },
	{ "", NK_TIME, 1 }, { "nsecond", NK_TIME, 1 }, { "ns", NK_TIME, 1 },
	{ "usecond", NK_TIME, 1000 }, { "us", NK_TIME, 1000 },
	{ "msecond", NK_TIME, 1000000 }, { "ms", NK_TIME, 1000000 },
	{ "second", NK_TIME, IMP_E9 }, { "s", NK_TIME, IMP_E9 },
	{ "", NK_PCT, 10000 }, { "%", NK_PCT, 10000 },
	{ "", NK_WARPS, 1000 }, { "warp", NK_WARPS, 1000 },
};

/**
 * struct ncu_kernel - one profiled launch (one ID) of an ncu report
 * @line: its first line in the report.
 * @id: the report's ID.
 * @name: its Kernel Name.
 * @have: bit per &enum ncu_field read.
 * @v: the values read: counts, bytes, ns, ppm of the peak (NK_PCT),
 *	1/1000 warps (NK_WARPS).
 * @used: matched to an nsys kernel.
 */
struct ncu_kernel {
	unsigned int line;
	__u64 id;
	char *name;
	unsigned int have;
	__u64 v[NR_NF];
	bool used;
};

/**
 * struct ncu - an ncu report being read
 * @in: the report.
 * @buf: the current line's fields, unquoted.
 * @field: the fields of the current line (pointers into @buf).
 * @nr_fields: fields of the header line.
 * @wide: the raw page (a column per metric), not the details page.
 * @col_id: index of the ID column.
 * @col_name: of Kernel Name.
 * @col_mname: details page: of Metric Name.
 * @col_munit: details page: of Metric Unit.
 * @col_mvalue: details page: of Metric Value.
 * @mcol: per column, the &enum ncu_field it holds, or -1.
 * @mfactor: raw page: per metric column, its unit's factor.
 * @units: raw page: the line after the header was the units row.
 * @k: the launches read.
 * @nr: entries of @k.
 * @cap: entries allocated.
 */
struct ncu {
	struct input in;
	char *buf;
	char *field[NCU_MAX_FIELDS];
	unsigned int nr_fields;
	bool wide;
	int col_id, col_name, col_mname, col_munit, col_mvalue;
	int mcol[NCU_MAX_FIELDS];
	__u64 mfactor[NCU_MAX_FIELDS];
	bool units;
	struct ncu_kernel *k;
	unsigned int nr, cap;
};

/* The field of a metric name, or -1. */
static int ncu_metric(const char *name)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ncu_metrics); i++)
		if (!strcmp(name, ncu_metrics[i].name))
			return ncu_metrics[i].f;
	return -1;
}

/* The factor of @unit for field @f: 0 if the unit is not one of its kind. */
static __u64 ncu_unit(enum ncu_field f, const char *unit)
{
	enum ncu_kind kind = ncu_fields[f].kind;
	size_t n = strlen(unit);
	unsigned int i;

	if (kind == NK_BYTES && n > 6 && !strcmp(unit + n - 6, "/block"))
		n -= 6;
	for (i = 0; i < ARRAY_SIZE(ncu_units); i++)
		if (ncu_units[i].kind == kind &&
		    strlen(ncu_units[i].name) == n &&
		    !strncmp(ncu_units[i].name, unit, n))
			return ncu_units[i].factor;
	return 0;
}

/**
 * ncu_number() - a value as ncu prints it, scaled by its unit
 * @s: digits with an optional point and decimals; the integer part may
 *	group its digits by three with commas ("1,234.5"), as ncu does.
 * @factor: what one unit is worth.
 * @out: out: the value times @factor, rounded.
 *
 * Return: 0, 1 for no value ("" or "n/a"), -EINVAL if @s is not such a
 * number, -ERANGE past 2^63.
 */
static int ncu_number(const char *s, __u64 factor, __u64 *out)
{
	size_t ip = strcspn(s, "."), i, n = 0, run = 0;
	bool commas = memchr(s, ',', ip) != NULL;
	char plain[64];

	if (!*s || !strcmp(s, "n/a"))
		return 1;
	if (strlen(s) >= sizeof(plain))
		return -ERANGE;
	if (strchr(s + ip, ','))
		return -EINVAL;
	for (i = 0; i < ip; i++) {
		if (s[i] == ',') {
			/* 1 to 3 digits before the first comma, 3 after each */
			if (!run || run > 3 || (n > run && run != 3))
				return -EINVAL;
			run = 0;
			continue;
		}
		run++;
		plain[n++] = s[i];
	}
	if (commas && run != 3)
		return -EINVAL;
	strcpy(plain + n, s + ip);
	return imp_number(plain, factor, out);
}

/* The launch with ID @id: the last one, a new one, or an earlier one. */
static struct ncu_kernel *ncu_kernel(struct ncu *nc, __u64 id,
				     const char *name, int *err)
{
	struct ncu_kernel *k;
	unsigned int i;

	*err = 0;
	for (i = nc->nr; i-- > 0;)
		if (nc->k[i].id == id)
			break;
	if (i < nc->nr) {
		k = &nc->k[i];
		if (strcmp(k->name, name)) {
			*err = in_fail(&nc->in, "ID %llu: Kernel Name '%s', line %u has '%s'",
				       (unsigned long long)id, name, k->line,
				       k->name);
			return NULL;
		}
		return k;
	}
	if (nc->nr == NCU_MAX_KERNELS) {
		*err = in_fail(&nc->in, "more than %u kernels", NCU_MAX_KERNELS);
		return NULL;
	}
	if (nc->nr == nc->cap) {
		unsigned int cap = nc->cap ? nc->cap * 2 : 64;
		void *p = realloc(nc->k, cap * sizeof(*nc->k));

		if (!p)
			goto oom;
		nc->k = p;
		nc->cap = cap;
	}
	k = &nc->k[nc->nr];
	memset(k, 0, sizeof(*k));
	k->line = nc->in.nr;
	k->id = id;
	k->name = strdup(name);
	if (!k->name)
		goto oom;
	nc->nr++;
	return k;
oom:
	err_msg("%s", "out of memory");
	*err = EXIT_DEVICE;
	return NULL;
}

/* "(x, y, z)" or "(x,y,z)": the product; 1 for "", "n/a"; <0 if neither. */
static int ncu_tuple(const char *s, __u64 *prod)
{
	unsigned long long v;
	unsigned int n = 0;
	char *end;

	if (!*s || !strcmp(s, "n/a"))
		return 1;
	if (*s++ != '(')
		return -EINVAL;
	*prod = 1;
	for (;;) {
		while (*s == ' ')
			s++;
		if (*s < '0' || *s > '9')
			return -EINVAL;
		errno = 0;
		v = strtoull(s, &end, 10);
		if (errno || !v || v > (1ULL << 31))
			return -EINVAL;
		*prod *= v;
		n++;
		s = end;
		while (*s == ' ')
			s++;
		if (*s == ')' && !s[1] && n == 3)
			return 0;
		if (*s != ',' || n == 3)
			return -EINVAL;
		s++;
	}
}

/* Store value @s of field @f (unit factor @factor) for launch @k. */
static int ncu_store(struct ncu *nc, struct ncu_kernel *k, enum ncu_field f,
		     const char *s, __u64 factor)
{
	const char *what = ncu_fields[f].name;
	__u64 v;
	int ret;

	if (f == NF_GRID_COL || f == NF_BLOCK_COL)
		ret = ncu_tuple(s, &v);
	else
		ret = ncu_number(s, factor, &v);
	if (ret == 1)
		return 0;
	if (ret == -EINVAL && s[0] == '-')
		return in_fail(&nc->in, "%s '%s' is negative", what, s);
	if (ret == -EINVAL && (f == NF_GRID_COL || f == NF_BLOCK_COL))
		return in_fail(&nc->in, "%s '%s' is not (x, y, z)", what, s);
	if (ret == -EINVAL)
		return in_fail(&nc->in, "%s '%s' is not a number", what, s);
	if (ret)
		return in_fail(&nc->in, "%s '%s' is too large", what, s);
	if (ncu_fields[f].kind == NK_PCT && v > PPM)
		return in_fail(&nc->in, "%s '%s' is more than 100%%", what, s);
	if ((k->have & (1U << f)) && k->v[f] != v)
		return in_fail(&nc->in, "ID %llu: %s '%s', but an earlier row had another value",
			       (unsigned long long)k->id, what, s);
	k->have |= 1U << f;
	k->v[f] = v;
	return 0;
}

/* Whether field @i of the header names @name. */
static bool ncu_is(const struct ncu *nc, int i, const char *name)
{
	return !strcmp(nc->field[i], name);
}

/**
 * ncu_header() - take the current line as the header
 * @nc: the report; @nc->field holds the line's @n fields.
 * @n: fields.
 *
 * Return: 0, or %EXIT_USAGE after a message.
 */
static int ncu_header(struct ncu *nc, int n)
{
	int i, *cols[] = { &nc->col_id, &nc->col_name, &nc->col_mname,
			   &nc->col_munit, &nc->col_mvalue };
	static const char *const names[] = { "ID", "Kernel Name",
		"Metric Name", "Metric Unit", "Metric Value" };
	unsigned int c;

	for (c = 0; c < ARRAY_SIZE(cols); c++)
		*cols[c] = -1;
	for (i = 0; i < n; i++) {
		nc->mcol[i] = -1;
		for (c = 0; c < ARRAY_SIZE(cols); c++)
			if (ncu_is(nc, i, names[c]))
				break;
		if (c < ARRAY_SIZE(cols)) {
			if (*cols[c] >= 0)
				return in_fail(&nc->in, "column %s twice (fields %d and %d)",
					       names[c], *cols[c] + 1, i + 1);
			*cols[c] = i;
		}
	}
	nc->wide = nc->col_mname < 0 && nc->col_munit < 0 &&
		   nc->col_mvalue < 0;
	for (c = 2; !nc->wide && c < ARRAY_SIZE(cols); c++)
		if (*cols[c] < 0)
			return in_fail(&nc->in, "missing column %s", names[c]);
	for (i = 0; i < n; i++) {
		int f;

		if (ncu_is(nc, i, "Grid Size"))
			f = NF_GRID_COL;
		else if (ncu_is(nc, i, "Block Size"))
			f = NF_BLOCK_COL;
		else if (nc->wide)
			f = ncu_metric(nc->field[i]);
		else
			continue;
		for (c = 0; f >= 0 && (int)c < i; c++)
			if (nc->mcol[c] == f)
				return in_fail(&nc->in, "column %s twice (fields %u and %d)",
					       nc->field[i], c + 1, i + 1);
		nc->mcol[i] = f;
		nc->mfactor[i] = f >= 0 ? ncu_unit(f, "") : 0;
	}
	nc->nr_fields = n;
	return 0;
}

/* The units row of the raw page: each read column's unit. */
static int ncu_units_row(struct ncu *nc)
{
	unsigned int i;

	for (i = 0; i < nc->nr_fields; i++) {
		int f = nc->mcol[i];

		if (f < 0 || f == NF_GRID_COL || f == NF_BLOCK_COL)
			continue;
		nc->mfactor[i] = ncu_unit(f, nc->field[i]);
		if (!nc->mfactor[i])
			return in_fail(&nc->in, "field %u (%s): unknown unit '%s'",
				       i + 1, ncu_fields[f].name, nc->field[i]);
	}
	nc->units = true;
	return 0;
}

/* One data row. */
static int ncu_row(struct ncu *nc)
{
	const char *ids = nc->field[nc->col_id];
	struct ncu_kernel *k;
	unsigned int i;
	__u64 id;
	int ret, f;

	ret = imp_number(ids, 1, &id);
	if (ret || strchr(ids, '.'))
		return in_fail(&nc->in, "ID '%s' is not a number", ids);
	k = ncu_kernel(nc, id, nc->field[nc->col_name], &ret);
	if (!k)
		return ret;
	for (i = 0; i < nc->nr_fields; i++) {
		f = nc->mcol[i];
		if (f >= 0 && (nc->wide || f == NF_GRID_COL ||
			       f == NF_BLOCK_COL)) {
			ret = ncu_store(nc, k, f, nc->field[i], nc->mfactor[i]);
			if (ret)
				return ret;
		}
	}
	if (nc->wide)
		return 0;
	f = ncu_metric(nc->field[nc->col_mname]);
	if (f < 0)
		return 0;
	if (ncu_fields[f].kind == NK_PCT &&
	    strcmp(nc->field[nc->col_munit], "%"))
		return 0;	/* e.g. a Memory Workload Analysis row in byte/s */
	{
		__u64 factor = ncu_unit(f, nc->field[nc->col_munit]);

		if (!factor)
			return in_fail(&nc->in, "%s: unknown unit '%s'",
				       ncu_fields[f].name,
				       nc->field[nc->col_munit]);
		return ncu_store(nc, k, f, nc->field[nc->col_mvalue], factor);
	}
}

/* ncu's own messages, which it prints before, between and after rows. */
static bool ncu_notice(const char *line)
{
	return !strncmp(line, "==PROF==", 8) ||
	       !strncmp(line, "==WARNING==", 11);
}

/* Launches by ID (IDs are unique). */
static int ncu_by_id(const void *a, const void *b)
{
	const struct ncu_kernel *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

/**
 * ncu_read() - read a whole ncu report
 * @nc: the report, its input open.
 *
 * Lines before the header (ncu's "==PROF==" notices, the application's
 * output, blank lines) are skipped: the header is the first line with the
 * columns ID and Kernel Name.  After it, blank lines and ncu's notices are
 * skipped; on the raw page, a line right after the header whose ID is
 * empty is the units row; every other line is a row with exactly the
 * header's number of fields.
 *
 * Return: 0, or an exit status after a message.
 */
static int ncu_read(struct ncu *nc)
{
	bool header = false, first = false;
	const char *why;
	int n, ret;

	while ((ret = input_line(&nc->in)) > 0) {
		if (strspn(nc->in.line, " \t\r") == nc->in.len ||
		    ncu_notice(nc->in.line))
			continue;
		free(nc->buf);
		nc->buf = malloc(nc->in.len + 1);
		if (!nc->buf) {
			err_msg("%s", "out of memory");
			return EXIT_DEVICE;
		}
		n = csv_split(nc->in.line, nc->buf, nc->field, NCU_MAX_FIELDS,
			      &why);
		if (!header) {
			int i, id = 0, name = 0;

			for (i = 0; i < n; i++) {
				id |= ncu_is(nc, i, "ID");
				name |= ncu_is(nc, i, "Kernel Name");
			}
			if (!id || !name)
				continue;
			if (ncu_header(nc, n))
				return EXIT_USAGE;
			header = first = true;
			continue;
		}
		if (n < 0)
			return in_fail(&nc->in, "%s", why);
		if ((unsigned int)n != nc->nr_fields)
			return in_fail(&nc->in, "%d fields, the header has %u", n,
				       nc->nr_fields);
		if (first && nc->wide && !nc->field[nc->col_id][0]) {
			first = false;
			if (ncu_units_row(nc))
				return EXIT_USAGE;
			continue;
		}
		first = false;
		ret = ncu_row(nc);
		if (ret)
			return ret;
	}
	if (ret < 0) {
		err_msg("%s", nc->in.err);
		return ret == -EINVAL ? EXIT_USAGE : EXIT_DEVICE;
	}
	if (!header) {
		err_msg("%s: no header line (a line with ID and Kernel Name columns): not an ncu --csv report",
			nc->in.path);
		return EXIT_USAGE;
	}
	if (!nc->nr) {
		err_msg("%s: no kernel rows", nc->in.path);
		return EXIT_USAGE;
	}
	qsort(nc->k, nc->nr, sizeof(*nc->k), ncu_by_id);
	return 0;
}

static void ncu_free(struct ncu *nc)
{
	unsigned int i;

	if (!nc)
		return;
	input_close(&nc->in);
	for (i = 0; i < nc->nr; i++)
		free(nc->k[i].name);
	free(nc->k);
	free(nc->buf);
	free(nc);
}

/* A launch's grid or block size: the metric, else the "(x, y, z)" column. */
static bool ncu_dim(const struct ncu_kernel *k, enum ncu_field f, __u64 *v)
{
	enum ncu_field col = f == NF_GRID ? NF_GRID_COL : NF_BLOCK_COL;

	if (k->have & (1U << f)) {
		*v = k->v[f];
		return true;
	}
	if (k->have & (1U << col)) {
		*v = k->v[col];
		return true;
	}
	return false;
}

/* The length of a kernel name's function name: no "void ", no <...>, (...). */
static size_t ncu_base(const char *name, const char **start)
{
	if (!strncmp(name, "void ", 5))
		name += 5;
	*start = name;
	return strcspn(name, "<(");
}

/* Whether two kernel names name the same function. */
static bool ncu_same_name(const char *a, const char *b)
{
	const char *sa, *sb;
	size_t la = ncu_base(a, &sa), lb = ncu_base(b, &sb);

	return la == lb && !strncmp(sa, sb, la);
}

/**
 * imp_model() - a kernel's mem= and knee= from its ncu launch
 * @im: the import (its device).
 * @k: the kernel; @k->ncu set.
 *
 * mem = DRAM / (DRAM + SM) of the two speed-of-light percentages; knee
 * from the achieved load L (warps per SM: Achieved Active Warps Per SM,
 * else Achieved Occupancy times the emulated device's warps per SM) and
 * the utilisation u of the busier pipe (max of the two, clamped to
 * 1%..99%): the timing model's throughput L / (K + L) reaches u at L, so
 * K = L (1 - u) / u, clamped to 0.001..1024 warps.
 * Documentation/workloads.rst, "Nsight Compute".
 */
static void imp_model(const struct imp *im, struct imp_kernel *k)
{
	const struct ncu_kernel *n = k->ncu;
	__u64 s = n->v[NF_SM], d = n->v[NF_DRAM], u, l;
	bool has_s = n->have & (1U << NF_SM), has_d = n->have & (1U << NF_DRAM);

	if (has_s && has_d) {
		k->has_mem = true;
		k->mem_ppm = s + d ? (d * PPM + (s + d) / 2) / (s + d) : 0;
	}
	if (!has_s && !has_d)
		return;
	if (n->have & (1U << NF_WARPS))
		l = n->v[NF_WARPS];
	else if (n->have & (1U << NF_OCC))
		l = (n->v[NF_OCC] * im->cfg.max_warps_per_sm * 1000 + PPM / 2) /
		    PPM;
	else
		return;
	if (!l)
		return;
	u = has_s && s > d ? s : d;
	if (!has_d)
		u = s;
	u = u < PPM / 100 ? PPM / 100 : u > PPM * 99 / 100 ? PPM * 99 / 100 : u;
	k->knee_mw = (l * (PPM - u) + u / 2) / u;
	if (!k->knee_mw)
		k->knee_mw = 1;
	if (k->knee_mw > 1024000)
		k->knee_mw = 1024000;
	k->has_knee = true;
}

/**
 * imp_match() - the nsys kernels' ncu launches, by name and order
 * @im: the import, its kernels sorted by start.
 * @nc: the ncu report.
 *
 * The i-th kernel of a name in start order gets the i-th launch of that
 * name in ID order; past the last launch of its name, the last one.  A
 * launch whose grid or block size differs from its kernel's is an error
 * (the reports are not of the same run); a reused last launch of another
 * size is not used.
 *
 * Return: 0, or %EXIT_USAGE after a message.
 */
static int imp_match(struct imp *im, struct ncu *nc)
{
	unsigned int i, j, seen, want;

	for (i = 0; i < im->nr_kernels; i++) {
		struct imp_kernel *k = &im->kernels[i];
		struct ncu_kernel *last = NULL, *got = NULL;
		__u64 g, b;

		want = 0;
		for (j = 0; j < i; j++)
			want += ncu_same_name(im->kernels[j].name, k->name);
		for (j = 0, seen = 0; j < nc->nr && !got; j++) {
			if (!ncu_same_name(nc->k[j].name, k->name))
				continue;
			if (seen++ == want)
				got = &nc->k[j];
			last = &nc->k[j];
		}
		if (!got && !last)
			continue;
		if (!got)
			k->ncu_reused = true;
		got = got ? got : last;
		if ((ncu_dim(got, NF_GRID, &g) && g != k->blocks) ||
		    (ncu_dim(got, NF_BLOCK, &b) && b != k->threads)) {
			if (k->ncu_reused)
				continue;
			nc->in.nr = got->line;
			ncu_dim(got, NF_GRID, &g);
			ncu_dim(got, NF_BLOCK, &b);
			return in_fail(&nc->in, "ID %llu '%s': %llu blocks of %llu threads, its nsys kernel (%s:%u) %u of %u: not the same launch",
				       (unsigned long long)got->id, got->name,
				       ncu_dim(got, NF_GRID, &g) ?
				       (unsigned long long)g : 0,
				       ncu_dim(got, NF_BLOCK, &b) ?
				       (unsigned long long)b : 0,
				       im->in.path, k->line, k->blocks,
				       k->threads);
		}
		got->used = true;
		k->ncu = got;
		imp_model(im, k);
	}
	return 0;
}

/**
 * imp_from_ncu() - the kernels of an ncu report alone, in ID order
 * @im: the import; @im->in is the report (for messages).
 * @nc: the report, read.
 *
 * Grid Size, Block Size, Registers Per Thread and Duration are required
 * per launch; the shared memory sizes default to 0.
 *
 * Return: 0, or an exit status after a message.
 */
static int imp_from_ncu(struct imp *im, struct ncu *nc)
{
	static const enum ncu_field req[] = { NF_GRID, NF_BLOCK, NF_REGS,
					      NF_DURATION };
	unsigned int i, r;
	__u64 v = 0;

	for (i = 0; i < nc->nr; i++) {
		struct ncu_kernel *n = &nc->k[i];
		struct imp_kernel *k;

		nc->in.nr = n->line;
		for (r = 0; r < ARRAY_SIZE(req); r++)
			if (!(req[r] == NF_GRID || req[r] == NF_BLOCK ?
			      ncu_dim(n, req[r], &v) :
			      (n->have & (1U << req[r]))))
				return in_fail(&nc->in, "ID %llu '%s': no %s",
					       (unsigned long long)n->id,
					       n->name, ncu_fields[req[r]].name);
		k = imp_kernel_new(im, &nc->in);
		if (!k)
			return EXIT_USAGE;
		k->line = n->line;
		k->start = n->id;
		k->duration = n->v[NF_DURATION];
		if (!k->duration)
			return in_fail(&nc->in, "ID %llu '%s': Duration is 0",
				       (unsigned long long)n->id, n->name);
		ncu_dim(n, NF_GRID, &v);
		k->blocks = v > ~0U ? ~0U : v;
		ncu_dim(n, NF_BLOCK, &v);
		k->threads = v > ~0U ? ~0U : v;
		k->regs = n->v[NF_REGS] > ~0U ? ~0U : n->v[NF_REGS];
		v = n->v[NF_SMEM_S] + n->v[NF_SMEM_D];
		k->shmem = v > ~0U ? ~0U : v;
		if (!(n->have & (1U << NF_SMEM_S)) &&
		    !(n->have & (1U << NF_SMEM_D)))
			im->nr_shmem_default++;
		if (!k->blocks || !k->threads)
			return in_fail(&nc->in, "ID %llu '%s': %s is 0",
				       (unsigned long long)n->id, n->name,
				       k->blocks ? "Block Size" : "Grid Size");
		if (in_fits(&nc->in, &im->cfg, k))
			return EXIT_USAGE;
		k->name = strdup(n->name);
		if (!k->name) {
			err_msg("%s", "out of memory");
			return EXIT_DEVICE;
		}
		n->used = true;
		k->ncu = n;
		im->nr_kernels++;
		imp_model(im, k);
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

	fprintf(f, "# imported by gputbs import %s from %s%s%s\n",
		im->nc && im->nc->in.path == im->in.path ? "ncu" : "nsys",
		im->in.path, im->nc && im->nc->in.path != im->in.path ?
		" with ncu report " : "",
		im->nc && im->nc->in.path != im->in.path ?
		im->nc->in.path : "");
	fprintf(f, "# profiled clock %llu kHz; emulated device %s, %u SMs (gputbs-sim --device %s); cycles = duration / waves\n",
		(unsigned long long)im->clock_khz, im->device, im->cfg.nr_sms,
		im->device);
	fprintf(f, "program %s\n", prog);
	for (i = 0; i < im->nr_kernels; i++) {
		const struct imp_kernel *k = &im->kernels[i];
		const struct ncu_kernel *n = k->ncu;

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
		if (n) {
			static const enum ncu_field show[] = { NF_SM, NF_DRAM,
							       NF_OCC };
			unsigned int j;

			fprintf(f, "#   ncu ID %llu (line %u%s):",
				(unsigned long long)n->id, n->line,
				k->ncu_reused ? ", the last of its name" : "");
			for (j = 0; j < ARRAY_SIZE(show); j++)
				if (n->have & (1U << show[j]))
					fprintf(f, " %s %llu.%02llu%%",
						ncu_fields[show[j]].name,
						(unsigned long long)n->v[show[j]] / 10000,
						(unsigned long long)(n->v[show[j]] / 100) % 100);
			if (n->have & (1U << NF_WARPS))
				fprintf(f, " %s %llu.%03llu",
					ncu_fields[NF_WARPS].name,
					(unsigned long long)n->v[NF_WARPS] / 1000,
					(unsigned long long)n->v[NF_WARPS] % 1000);
			fputc('\n', f);
		}
		fprintf(f, "grid %s blocks=%u threads=%u regs=%u shmem=%u cycles=%llu expect=%llu",
			label, k->blocks, k->threads, k->regs, k->shmem,
			(unsigned long long)t, (unsigned long long)total);
		if (k->has_mem)
			fprintf(f, " mem=%u.%04u", k->mem_ppm / 10000,
				k->mem_ppm % 10000);
		if (k->has_knee)
			fprintf(f, " knee=%u.%03u", k->knee_mw / 1000,
				k->knee_mw % 1000);
		fputc('\n', f);
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
	unsigned int i, mem = 0, knee = 0, matched = 0, reused = 0, unused = 0;
	bool alone = im->nc && im->nc->in.path == im->in.path;

	if (alone)
		fprintf(stderr, "gputbs import: %u kernel%s imported into %s\n",
			im->nr_kernels, im->nr_kernels == 1 ? "" : "s", out);
	else
		fprintf(stderr, "gputbs import: %u kernel%s imported into %s; skipped %u memcpy and %u memset rows\n",
			im->nr_kernels, im->nr_kernels == 1 ? "" : "s", out,
			im->nr_memcpy, im->nr_memset);
	fprintf(stderr, "gputbs import: assumed: profiled clock %llu kHz; emulated device %s, %u SMs; block cycles = duration x clock / waves, waves = ceil(blocks / (R x SMs)); rsd=0 (one duration per kernel)\n",
		(unsigned long long)im->clock_khz, im->device, im->cfg.nr_sms);
	for (i = 0; i < im->nr_kernels; i++) {
		mem += !im->kernels[i].has_mem;
		knee += !im->kernels[i].has_knee;
		matched += !!im->kernels[i].ncu;
		reused += im->kernels[i].ncu_reused;
	}
	for (i = 0; im->nc && i < im->nc->nr; i++)
		unused += !im->nc->k[i].used;
	if (im->nc && !alone)
		fprintf(stderr, "gputbs import: ncu: %u of %u kernels matched to a launch by name and order (%u to the last launch of their name); %u launches unused\n",
			matched, im->nr_kernels, reused, unused);
	if (!im->nc) {
		fprintf(stderr, "gputbs import: no ncu report (--ncu): mem defaulted to 0 (all demand on the issue pipe) for all %u kernels\n",
			im->nr_kernels);
		fprintf(stderr, "gputbs import: no ncu report (--ncu): knee defaulted to the device's %u warps for all %u kernels\n",
			im->cfg.load_knee_warps, im->nr_kernels);
	} else {
		if (mem)
			fprintf(stderr, "gputbs import: mem defaulted to 0 for %u kernel%s (no ncu launch, or no DRAM Throughput or Compute (SM) Throughput)\n",
				mem, mem == 1 ? "" : "s");
		if (knee)
			fprintf(stderr, "gputbs import: knee defaulted to the device's %u warps for %u kernel%s (no ncu launch, or no Achieved Occupancy or throughput)\n",
				im->cfg.load_knee_warps, knee,
				knee == 1 ? "" : "s");
	}
	if (im->nr_shmem_default)
		fprintf(stderr, "gputbs import: shmem defaulted to 0 for %u kernel%s (no Static or Dynamic Shared Memory Per Block)\n",
			im->nr_shmem_default,
			im->nr_shmem_default == 1 ? "" : "s");
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

/* Open and read an ncu report: NULL with *ret set on failure. */
static struct ncu *imp_ncu_open(const char *path, int *ret)
{
	struct ncu *nc = calloc(1, sizeof(*nc));

	if (!nc) {
		err_msg("%s", "out of memory");
		*ret = EXIT_DEVICE;
		return NULL;
	}
	if (input_open(&nc->in, path, INPUT_STDIN)) {
		err_msg("%s", nc->in.err);
		*ret = EXIT_USAGE;
	} else {
		*ret = ncu_read(nc);
	}
	if (*ret) {
		ncu_free(nc);
		return NULL;
	}
	return nc;
}

/**
 * imp_run() - one import
 * @ncu_alone: @path is an ncu report (gputbs import ncu), not an nsys one.
 * @path: the report.
 * @ncu_path: with an nsys report, the ncu report (--ncu) or NULL.
 * @out: the output file, NULL for standard output.
 * @prog: the program name, NULL for the default.
 * @clock_khz: the profiled clock, 0 for the device's.
 * @preset: the emulated device.
 *
 * Return: the exit status.
 */
static int imp_run(bool ncu_alone, const char *path, const char *ncu_path,
		   const char *out, const char *prog, __u64 clock_khz,
		   const struct gtbs_dev_preset *preset)
{
	struct imp *im = calloc(1, sizeof(*im));
	char name[WL_NAME_LEN];
	unsigned int i;
	int ret;

	if (!im) {
		err_msg("%s", "out of memory");
		return EXIT_DEVICE;
	}
	im->cfg = preset->cfg;
	im->device = preset->name;
	im->clock_khz = clock_khz ? clock_khz : im->cfg.clock_khz;
	if (ncu_alone) {
		im->nc = imp_ncu_open(path, &ret);
		if (!im->nc)
			goto out;
		im->in.path = im->nc->in.path;
		ret = imp_from_ncu(im, im->nc);
	} else {
		if (input_open(&im->in, path, INPUT_STDIN)) {
			err_msg("%s", im->in.err);
			ret = EXIT_USAGE;
			goto out;
		}
		ret = imp_read(im);
		if (!ret && ncu_path) {
			im->nc = imp_ncu_open(ncu_path, &ret);
			if (!im->nc)
				goto out;
		}
	}
	if (ret)
		goto out;
	qsort(im->kernels, im->nr_kernels, sizeof(im->kernels[0]),
	      imp_by_start);
	if (im->nc && !ncu_alone) {
		ret = imp_match(im, im->nc);
		if (ret)
			goto out;
	}
	if (!prog)
		imp_program_name(path, name, sizeof(name));
	ret = imp_output(im, out, prog ? prog : name);
out:
	input_close(&im->in);
	for (i = 0; i < im->nr_kernels; i++)
		free(im->kernels[i].name);
	ncu_free(im->nc);
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
 * cmd_import() - gputbs import nsys|ncu [OPTIONS] FILE.csv
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
		{ "device", required_argument, NULL, 'd' },
		{ "ncu", required_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const struct gtbs_dev_preset *preset = gtbs_config_preset_at(0);
	const char *out = NULL, *prog = NULL, *ncu = NULL;
	unsigned long long khz = 0;
	bool ncu_alone;
	char *end;
	int c;

	while ((c = getopt_long(argc, argv, "o:k:p:d:n:h", opts, NULL)) != -1) {
		switch (c) {
		case 'd':
			preset = gtbs_config_preset(optarg);
			if (!preset)
				return usage_error(usage_import,
						   "--device: unknown device preset '%s' (gtx480, v100, a100 or h100)",
						   optarg);
			break;
		case 'n':
			ncu = optarg;
			break;
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
				   "missing format (nsys or ncu)");
	if (strcmp(argv[optind], "nsys") && strcmp(argv[optind], "ncu"))
		return usage_error(usage_import,
				   "unknown format '%s' (nsys or ncu)",
				   argv[optind]);
	ncu_alone = !strcmp(argv[optind], "ncu");
	if (ncu_alone && ncu)
		return usage_error(usage_import, "%s",
				   "--ncu is for an nsys report: gputbs import ncu reads one ncu report");
	if (argc - optind != 2)
		return usage_error(usage_import, "%s",
				   "expected one FILE.csv");
	return imp_run(ncu_alone, argv[optind + 1], ncu, out, prog, khz,
		       preset);
}
