/* SPDX-License-Identifier: GPL-2.0 */
/*
 * import.h - "gputbs import": what its readers share.  import.c is the
 * command (options, the workload file written, the summary), csv.c the
 * CSV reader on libcsv, nsys.c the Nsight Systems cuda_gpu_trace reader
 * and the gaps, ncu.c the Nsight Compute reader and the mapping of its
 * figures to mem= and knee=, device.c the preset of the profiled GPU,
 * label.c the grid labels.  Documentation/workloads.rst,
 * "Importing a profile" and "Nsight Compute".
 *
 * Copyright (C) 2026 The gputbs developers
 */
#ifndef _GPUTBS_IMPORT_H
#define _GPUTBS_IMPORT_H

#include <stdbool.h>

#include <linux/types.h>

#include "../../lib/input.h"
#include "gtbs.h"

#define IMP_FRAC_DIGITS	9	/* decimals kept of a number */
#define IMP_E9		1000000000ULL

/* csv.c ------------------------------------------------------------------ */

/**
 * struct csv_row - one row of a CSV report, as csv_read() hands it over
 * @field: its fields, unquoted, NUL-terminated.
 * @n: entries of @field.
 * @line: the physical line the row starts on, from 1.
 */
struct csv_row {
	char **field;
	unsigned int n;
	unsigned int line;
};

/* Return value of a csv_read() callback: the row was the header. */
#define CSV_HEADER	1

/**
 * typedef csv_row_fn - what to do with a row
 * @ctx: the caller's.
 * @r: the row; during the call, the input's line number is @r->line.
 *
 * Return: 0; %CSV_HEADER (the row was the header: from then on the reader
 * is strict); or an exit status after a message, which ends the reading.
 */
typedef int (*csv_row_fn)(void *ctx, const struct csv_row *r);

/* A line between rows that is not part of the report (ncu's notices). */
typedef bool (*csv_skip_fn)(const char *line);

int csv_read(struct input *in, unsigned int max_fields, csv_row_fn row,
	     csv_skip_fn skip, void *ctx);

/* import.c --------------------------------------------------------------- */

struct ncu_kernel;
struct ncu;

/**
 * struct imp_gpu - the profiled GPU a report names
 * @name: its name, without a device index " (0)"; NULL if none.
 * @line: the line that first names it.
 * @path: the report.
 * @what: where the name is ("Device column").
 */
struct imp_gpu {
	char *name;
	unsigned int line;
	const char *path;
	const char *what;
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
 * @label: its grid label (label.c), in &imp.labels.
 * @stream: its Strm value ("" without the column).
 * @gap_ns: the time from @gap_line's end (a kernel) or start (the first
 *	row of a stream, a memcpy or memset) to its start, ns: its gap=.
 * @gap_line: the row @gap_ns is measured from, 0 if none.
 * @gap_first: @gap_line is the first row of the stream, not a kernel.
 * @overlap_ns: it starts this long before @gap_line's kernel ends (gap 0).
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
	struct ncu_kernel *ncu;
	bool ncu_reused;
	bool has_mem;
	__u32 mem_ppm;
	bool has_knee;
	__u32 knee_mw;
	const char *label;
	char *stream;
	__u64 gap_ns;
	unsigned int gap_line;
	bool gap_first;
	__u64 overlap_ns;
};

/**
 * struct imp_xfer - a memcpy or memset row, for the gaps
 * @stream: its Strm value.
 * @start: its start, ns.
 * @line: its line.
 */
struct imp_xfer {
	char *stream;
	__u64 start;
	unsigned int line;
};

/**
 * struct imp - the state of one import
 * @in: the report.
 * @cfg: the emulated device.
 * @clock_khz: the profiled GPU's clock.
 * @col: index of each column in a line, -1 if absent.
 * @factor: per column, what its unit multiplies a value by (ns, bytes).
 * @nr_fields: fields of the header line.
 * @header: the header was read.
 * @field: the fields of the current row.
 * @kernels: the kernel rows read.
 * @nr_kernels: entries of @kernels.
 * @cap_kernels: entries allocated.
 * @nr_memcpy: memcpy rows skipped.
 * @nr_memset: memset rows skipped.
 * @xfers: the memcpy and memset rows.
 * @nr_xfers: entries of @xfers.
 * @cap_xfers: entries allocated.
 * @streams: distinct Strm values seen (at most 2 counted: 1 or "several").
 * @stream: the first Strm value.
 * @device: the emulated device's preset name.
 * @given: @device was given (--device).
 * @gpu: the GPU the report names.
 * @hint: with --device, the preset of the GPU the report names, if
 *	another: named in the errors of kernels that do not fit.
 * @hint_gpu: that GPU.
 * @src: the GPU the reports name (nsys's, else ncu's), or NULL.
 * @src_preset: its preset, or NULL.
 * @nc: the ncu report, or NULL.
 * @labels: the kernels' labels, one per distinct name.
 * @nr_shmem_default: kernels of an ncu report alone without a shared
 *	memory size.
 */
struct imp {
	struct input in;
	struct gtbs_dev_config cfg;
	__u64 clock_khz;
	int col[16];
	__u64 factor[16];
	unsigned int nr_fields;
	bool header;
	char **field;
	struct imp_kernel *kernels;
	unsigned int nr_kernels;
	unsigned int cap_kernels;
	unsigned int nr_memcpy;
	unsigned int nr_memset;
	struct imp_xfer *xfers;
	unsigned int nr_xfers;
	unsigned int cap_xfers;
	unsigned int streams;
	char stream[32];
	const char *device;
	bool given;
	struct imp_gpu gpu;
	const struct gtbs_dev_preset *hint;
	const struct imp_gpu *hint_gpu;
	const struct imp_gpu *src;
	const struct gtbs_dev_preset *src_preset;
	struct ncu *nc;
	char (*labels)[GPUTBS_LABEL_LEN];
	unsigned int nr_shmem_default;
};

int in_fail(const struct input *in, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
#define imp_fail(im, ...)	in_fail(&(im)->in, __VA_ARGS__)
int imp_number(const char *s, __u64 factor, __u64 *out);
int in_fits(const struct imp *im, const struct input *in,
	    const struct imp_kernel *k);
struct imp_kernel *imp_kernel_new(struct imp *im, const struct input *in);

/* device.c --------------------------------------------------------------- */

const struct gtbs_dev_preset *gpu_preset(const char *name);
int gpu_note(struct imp_gpu *g, const struct input *in, const char *field,
	     const char *what, bool given);
int gpu_device(struct imp *im, const struct imp_gpu *g);

/* label.c ---------------------------------------------------------------- */

int imp_labels(struct imp *im);

/* nsys.c ----------------------------------------------------------------- */

int nsys_read(struct imp *im);

/* ncu.c ------------------------------------------------------------------ */

/* What the importer reads of a kernel in an ncu report. */
enum ncu_field {
	NF_GRID, NF_BLOCK, NF_REGS, NF_SMEM_S, NF_SMEM_D, NF_DURATION,
	NF_SM, NF_DRAM, NF_OCC, NF_WARPS,
	NF_GRID_COL, NF_BLOCK_COL,	/* the "(x, y, z)" columns */
	NR_NF,
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
 * @field: the fields of the current row.
 * @nr_fields: fields of the header line.
 * @header: the header was read.
 * @first: the row after the header is next (the raw page's units row).
 * @wide: the raw page (a column per metric), not the details page.
 * @col_id: index of the ID column.
 * @col_name: of Kernel Name.
 * @col_mname: details page: of Metric Name.
 * @col_munit: details page: of Metric Unit.
 * @col_mvalue: details page: of Metric Value.
 * @mcol: per column, the &enum ncu_field it holds, or -1.
 * @mfactor: raw page: per metric column, its unit's factor.
 * @units: raw page: the line after the header was the units row.
 * @col_dev: of the GPU's name (device__attribute_display_name, else
 *	Device), or -1.
 * @dev_what: that column, for messages.
 * @given: --device was given.
 * @gpu: the GPU the report names.
 * @k: the launches read.
 * @nr: entries of @k.
 * @cap: entries allocated.
 */
struct ncu {
	struct input in;
	char **field;
	unsigned int nr_fields;
	bool header;
	bool first;
	bool wide;
	int col_id, col_name, col_mname, col_munit, col_mvalue;
	int *mcol;
	__u64 *mfactor;
	bool units;
	int col_dev;
	const char *dev_what;
	bool given;
	struct imp_gpu gpu;
	struct ncu_kernel *k;
	unsigned int nr, cap;
};

struct ncu *ncu_open(const char *path, bool given, int *ret);
void ncu_free(struct ncu *nc);
int ncu_match(struct imp *im, struct ncu *nc);
int ncu_kernels(struct imp *im, struct ncu *nc);
void ncu_comment(FILE *f, const struct imp_kernel *k);

#endif /* _GPUTBS_IMPORT_H */
