// SPDX-License-Identifier: GPL-2.0
/*
 * import.c - "gputbs import nsys" and "gputbs import ncu": an Nsight
 * Systems cuda_gpu_trace report (nsys stats --report cuda_gpu_trace
 * --format csv, nsys.c), optionally with the Nsight Compute report of the
 * same program (ncu --csv, ncu.c), or an Nsight Compute report alone,
 * turned into a workload file (Documentation/workloads.rst, "Importing a
 * profile" and "Nsight Compute").  Both reports are read through csv.c
 * (libcsv).
 *
 * Every kernel row becomes a grid of one program, in start-time order,
 * with the time since the previous kernel of its stream as its gap=
 * (memcpy and memset rows are part of it: nsys_gaps()) and a label of its
 * own (label.c), on the device preset of the GPU the report names
 * (device.c) unless --device names one.  A kernel's measured duration
 * becomes its mean block duration on the emulated device: the duration in
 * cycles at the profiled GPU's clock, divided by the number of waves its
 * blocks take on the emulated device (the staircase model, Equation 1).
 *
 * Copyright (C) 2026 The gputbs developers
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../cli.h"
#include "../../lib/workload.h"
#include "import.h"

static const char usage_import[] =
	"Usage: gputbs import nsys [OPTIONS] [--ncu NCU.csv] FILE.csv\n"
	"       gputbs import ncu [OPTIONS] NCU.csv\n"
	"\n"
	"Convert an Nsight Systems cuda_gpu_trace report exported as CSV\n"
	"(nsys stats --report cuda_gpu_trace --format csv) into a workload\n"
	"file: one program whose grids are the kernels in start-time order,\n"
	"and a workload that runs it (Documentation/workloads.rst,\n"
	"\"Importing a profile\").  Each grid's gap= is the time since the\n"
	"previous kernel of its stream ended, memcpy and memset rows included.\n"
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
	"  -d, --device NAME         emulated device preset: gtx480, v100, a100\n"
	"                            or h100 (gputbs-sim --device); default:\n"
	"                            the profiled GPU's, from the report's\n"
	"                            Device column, else gtx480\n"
	"  -n, --ncu NCU.csv         nsys: the Nsight Compute report of the\n"
	"                            same program\n"
	"  -h, --help                this help\n"
	"\n"
	"A summary (kernels, skipped rows, assumptions) goes to standard\n"
	"error.  Exit status: 0, 1 for a system error, 2 for a usage error or\n"
	"a bad report (FILE:LINE: reason).\n";


/**
 * in_fail() - an error at the current line of @in
 * @in: the report.
 * @fmt: the reason, printf-style.
 *
 * Prints "gputbs: FILE:LINE: reason".
 *
 * Return: %EXIT_USAGE.
 */
int in_fail(const struct input *in, const char *fmt, ...)
{
	char msg[INPUT_ERR_LEN];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	err_msg("%s:%u: %s", in->path, in->nr, msg);
	return EXIT_USAGE;
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
int imp_number(const char *s, __u64 factor, __u64 *out)
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

/**
 * in_fits() - a kernel against the emulated device's limits
 * @im: the import: its device, and the GPU the report names.
 * @in: the report, at the kernel's line (for messages).
 * @k: the kernel.
 *
 * Return: 0, or %EXIT_USAGE after a message naming the limit, and the
 * preset of the GPU the report names when --device gave another.
 */
int in_fits(const struct imp *im, const struct input *in,
	    const struct imp_kernel *k)
{
	const struct gtbs_dev_config *cfg = &im->cfg;
	struct gtbs_grid_desc desc = {
		.nr_blocks = k->blocks, .threads_per_block = k->threads,
		.regs_per_thread = k->regs, .shmem_per_block = k->shmem,
	};
	struct gtbs_occupancy occ;
	char why[160], hint[INPUT_ERR_LEN / 2] = "";

	if (k->blocks > cfg->max_blocks_per_grid)
		snprintf(why, sizeof(why), "%u blocks: the emulated device takes at most %u per grid",
			 k->blocks, cfg->max_blocks_per_grid);
	else if (k->threads > cfg->max_threads_per_block)
		snprintf(why, sizeof(why), "%u threads per block: the emulated device allows at most %u",
			 k->threads, cfg->max_threads_per_block);
	else if (k->regs > cfg->max_regs_per_thread)
		snprintf(why, sizeof(why), "%u registers per thread: the emulated device allows at most %u",
			 k->regs, cfg->max_regs_per_thread);
	else if (k->shmem > cfg->max_shmem_per_sm)
		snprintf(why, sizeof(why), "%u bytes of shared memory per block: the emulated device allows at most %u",
			 k->shmem, cfg->max_shmem_per_sm);
	else if (gtbs_occupancy_calc(cfg, &desc, &occ))
		snprintf(why, sizeof(why), "%u threads x %u registers: more than the %u registers of an SM",
			 k->threads, k->regs, cfg->max_regs_per_sm);
	else
		return 0;
	if (im->hint)
		snprintf(hint, sizeof(hint), " (--device %s); the %s names \"%.80s\": give --device %s",
			 im->device, im->hint_gpu->what, im->hint_gpu->name,
			 im->hint->name);
	return in_fail(in, "%s%s", why, hint);
}

/*
 * imp_kernel_new() - the next kernel row, zeroed: as many as a run may
 * launch (workloads.rst, "Limits"), in an array that grows by doubling.
 * @in names the line of the error.  Return: the row, or NULL after a
 * message.
 */
struct imp_kernel *imp_kernel_new(struct imp *im, const struct input *in)
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

/* Kernels by start, then by line: qsort() comparison. */
static int imp_by_start(const void *a, const void *b)
{
	const struct imp_kernel *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
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

	gtbs_occupancy_calc(&im->cfg, &desc, occ);	/* in_fits() passed */
	slots = (__u64)occ->residency * im->cfg.nr_sms;
	*waves = (k->blocks + slots - 1) / slots;
	c = ((unsigned __int128)k->duration * im->clock_khz + 500000) / 1000000;
	*total = c > WL_MAX_CYCLES * 1024 ? WL_MAX_CYCLES * 1024 : (__u64)c;
	t = (*total + *waves / 2) / *waves;
	if (!t)
		t = 1;
	return t > WL_MAX_CYCLES ? 0 : t;
}

/* ns to cycles at the profiled clock, rounded; 2^64 - 1 past it. */
static __u64 imp_ns_cycles(const struct imp *im, __u64 ns)
{
	unsigned __int128 c = ((unsigned __int128)ns * im->clock_khz +
			       500000) / 1000000;

	return c >> 64 ? ~0ULL : (__u64)c;
}

/* The comment on a kernel's gap (or overlap) in its stream. */
static void imp_gap_comment(FILE *f, const struct imp_kernel *k, __u64 gap)
{
	if (!k->gap_line)
		return;
	if (k->overlap_ns)
		fprintf(f, "#   starts %llu ns before the end of line %u, the previous kernel of",
			(unsigned long long)k->overlap_ns, k->gap_line);
	else
		fprintf(f, "#   gap %llu ns = %llu cycles after the %s of line %u, the %s of",
			(unsigned long long)k->gap_ns, (unsigned long long)gap,
			k->gap_first ? "start" : "end", k->gap_line,
			k->gap_first ? "first row" : "previous kernel");
	if (k->stream[0]) {
		fputs(" stream ", f);
		imp_comment_name(f, k->stream);
	} else {
		fputs(" the stream", f);
	}
	fputs(k->overlap_ns ? ": gap 0\n" : "\n", f);
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
	__u64 t, total, waves, gap;
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

		t = imp_cycles(im, k, &total, &waves, &occ);
		if (!t) {
			im->in.nr = k->line;
			return imp_fail(im, "Duration %llu ns: more than %llu cycles per block",
					(unsigned long long)k->duration,
					WL_MAX_CYCLES);
		}
		fprintf(f, "# line %u: ", k->line);
		imp_comment_name(f, k->name);
		fprintf(f, "\n#   %llu ns = %llu cycles, R=%u, %llu wave%s\n",
			(unsigned long long)k->duration,
			(unsigned long long)total, occ.residency,
			(unsigned long long)waves, waves == 1 ? "" : "s");
		if (k->ncu)
			ncu_comment(f, k);
		gap = imp_ns_cycles(im, k->gap_ns);
		if (gap > WL_MAX_CYCLES) {
			im->in.nr = k->line;
			return imp_fail(im, "gap of %llu ns after line %u: more than %llu cycles",
					(unsigned long long)k->gap_ns,
					k->gap_line, WL_MAX_CYCLES);
		}
		imp_gap_comment(f, k, gap);
		fprintf(f, "grid %s blocks=%u threads=%u regs=%u shmem=%u cycles=%llu expect=%llu",
			k->label, k->blocks, k->threads, k->regs, k->shmem,
			(unsigned long long)t, (unsigned long long)total);
		if (k->has_mem)
			fprintf(f, " mem=%u.%04u", k->mem_ppm / 10000,
				k->mem_ppm % 10000);
		if (k->has_knee)
			fprintf(f, " knee=%u.%03u", k->knee_mw / 1000,
				k->knee_mw % 1000);
		if (gap)
			fprintf(f, " gap=%llu", (unsigned long long)gap);
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
	unsigned int gaps = 0, overlaps = 0;
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
	if (im->src && !im->given)
		fprintf(stderr, "gputbs import: emulated device %s, from the %s of %s:%u (\"%s\"); --device overrides\n",
			im->device, im->src->what, im->src->path,
			im->src->line, im->src->name);
	else if (im->src)
		fprintf(stderr, "gputbs import: emulated device %s (--device); the %s of %s:%u names \"%s\" (%s)\n",
			im->device, im->src->what, im->src->path,
			im->src->line, im->src->name,
			im->src_preset ? im->src_preset->name : "no preset");
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
		fprintf(stderr, "gputbs import: kernels of several streams serialised in start order, each gap= of its own stream\n");
	for (i = 0; i < im->nr_kernels; i++) {
		gaps += im->kernels[i].gap_ns > 0;
		overlaps += im->kernels[i].overlap_ns > 0;
	}
	if (gaps)
		fprintf(stderr, "gputbs import: gap= kept for %u kernel%s: each the time from the end of the previous kernel of its stream (for a stream's first kernel, from the start of a memcpy or memset before it), the memcpy and memset rows between them included\n",
			gaps, gaps == 1 ? "" : "s");
	if (overlaps)
		fprintf(stderr, "gputbs import: %u kernel%s start%s before the previous kernel of %s stream ends: gap 0\n",
			overlaps, overlaps == 1 ? "" : "s",
			overlaps == 1 ? "s" : "", overlaps == 1 ? "its" : "their");
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

/* Every kernel of an nsys report against the emulated device, in file order. */
static int imp_check(struct imp *im)
{
	unsigned int i;

	for (i = 0; i < im->nr_kernels; i++) {
		im->in.nr = im->kernels[i].line;
		if (in_fits(im, &im->in, &im->kernels[i]))
			return EXIT_USAGE;
	}
	return 0;
}

/* The reports read: the kernels, on the device the reports name. */
static int imp_read(struct imp *im, bool ncu_alone, const char *path,
		    const char *ncu_path)
{
	int ret;

	if (ncu_alone) {
		im->nc = ncu_open(path, im->given, &ret);
		if (!im->nc)
			return ret;
		im->in.path = im->nc->in.path;
		ret = gpu_device(im, &im->nc->gpu);
		return ret ? ret : ncu_kernels(im, im->nc);
	}
	if (input_open(&im->in, path, INPUT_STDIN)) {
		err_msg("%s", im->in.err);
		return EXIT_USAGE;
	}
	ret = nsys_read(im);
	if (!ret && ncu_path) {
		im->nc = ncu_open(ncu_path, im->given, &ret);
		if (!im->nc)
			return ret;
	}
	if (!ret)	/* nsys's GPU, else ncu's */
		ret = gpu_device(im, im->gpu.name || !im->nc ? &im->gpu :
				 &im->nc->gpu);
	return ret ? ret : imp_check(im);
}

/**
 * imp_run() - one import
 * @ncu_alone: @path is an ncu report (gputbs import ncu), not an nsys one.
 * @path: the report.
 * @ncu_path: with an nsys report, the ncu report (--ncu) or NULL.
 * @out: the output file, NULL for standard output.
 * @prog: the program name, NULL for the default.
 * @clock_khz: the profiled clock, 0 for the device's.
 * @preset: the emulated device (--device), NULL for the GPU's the report
 *	names, else the default.
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
	im->given = preset;
	if (!preset)
		preset = gtbs_config_preset_at(0);
	im->cfg = preset->cfg;
	im->device = preset->name;
	ret = imp_read(im, ncu_alone, path, ncu_path);
	if (ret)
		goto out;
	im->clock_khz = clock_khz ? clock_khz : im->cfg.clock_khz;
	qsort(im->kernels, im->nr_kernels, sizeof(im->kernels[0]),
	      imp_by_start);
	if (im->nc && !ncu_alone) {
		ret = ncu_match(im, im->nc);
		if (ret)
			goto out;
	}
	ret = imp_labels(im);
	if (ret)
		goto out;
	if (!prog)
		imp_program_name(path, name, sizeof(name));
	ret = imp_output(im, out, prog ? prog : name);
out:
	input_close(&im->in);
	for (i = 0; i < im->nr_kernels; i++) {
		free(im->kernels[i].name);
		free(im->kernels[i].stream);
	}
	for (i = 0; i < im->nr_xfers; i++)
		free(im->xfers[i].stream);
	free(im->xfers);
	free(im->labels);
	free(im->gpu.name);
	ncu_free(im->nc);
	free(im->kernels);
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
	const struct gtbs_dev_preset *preset = NULL;
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
