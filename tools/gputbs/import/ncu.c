// SPDX-License-Identifier: GPL-2.0
/*
 * ncu.c - Nsight Compute reports (ncu --csv) for "gputbs import": read
 * (the details page, one row per metric: ID, Kernel Name, Section Name,
 * Metric Name, Metric Unit, Metric Value; and the raw page, ncu --csv
 * --page raw: one row per kernel, one column per metric, a row of units
 * under the header), matched to the nsys kernels by name and order, or
 * imported alone; their figures set each grid's mem= and knee=
 * (Documentation/workloads.rst, "Nsight Compute").
 *
 * Copyright (C) 2026 The gputbs developers
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../cli.h"
#include "import.h"

#define NCU_MAX_FIELDS		8192	/* fields of a line of the raw page */
#define NCU_MAX_KERNELS		(1U << 20)
#define PPM			1000000ULL

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
static bool ncu_is(const struct ncu *nc, unsigned int i, const char *name)
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
static int ncu_header(struct ncu *nc, unsigned int n)
{
	int i, *cols[] = { &nc->col_id, &nc->col_name, &nc->col_mname,
			   &nc->col_munit, &nc->col_mvalue };
	static const char *const names[] = { "ID", "Kernel Name",
		"Metric Name", "Metric Unit", "Metric Value" };
	unsigned int c;

	for (c = 0; c < ARRAY_SIZE(cols); c++)
		*cols[c] = -1;
	for (i = 0; i < (int)n; i++) {
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
	nc->col_dev = -1;
	for (i = 0; i < (int)n; i++)
		if (ncu_is(nc, i, "device__attribute_display_name") ||
		    (nc->col_dev < 0 && ncu_is(nc, i, "Device")))
			nc->col_dev = i;
	nc->dev_what = nc->col_dev >= 0 && ncu_is(nc, nc->col_dev, "Device") ?
		       "Device column" :
		       "device__attribute_display_name column";
	nc->wide = nc->col_mname < 0 && nc->col_munit < 0 &&
		   nc->col_mvalue < 0;
	for (c = 2; !nc->wide && c < ARRAY_SIZE(cols); c++)
		if (*cols[c] < 0)
			return in_fail(&nc->in, "missing column %s", names[c]);
	for (i = 0; i < (int)n; i++) {
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
	if (nc->col_dev >= 0) {
		ret = gpu_note(&nc->gpu, &nc->in, nc->field[nc->col_dev],
			       nc->dev_what, nc->given);
		if (ret)
			return ret;
	}
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

/* One row of the report: before the header, is it the header? */
static int ncu_csv_row(void *ctx, const struct csv_row *r)
{
	struct ncu *nc = ctx;
	bool first = nc->first;
	unsigned int i;
	int id = 0, name = 0;

	nc->field = r->field;
	if (!nc->header) {
		for (i = 0; i < r->n; i++) {
			id |= ncu_is(nc, i, "ID");
			name |= ncu_is(nc, i, "Kernel Name");
		}
		if (!id || !name)
			return 0;
		if (ncu_header(nc, r->n))
			return EXIT_USAGE;
		nc->header = nc->first = true;
		return CSV_HEADER;
	}
	if (r->n != nc->nr_fields)
		return in_fail(&nc->in, "%u fields, the header has %u", r->n,
			       nc->nr_fields);
	nc->first = false;
	if (first && nc->wide && !nc->field[nc->col_id][0])
		return ncu_units_row(nc);
	return ncu_row(nc);
}

/**
 * ncu_read() - read a whole ncu report
 * @nc: the report, its input open.
 *
 * Lines before the header (ncu's "==PROF==" notices, the application's
 * output, blank lines) are skipped: the header is the first line with the
 * columns ID and Kernel Name.  After it, blank lines and ncu's notices are
 * skipped; on the raw page, a row right after the header whose ID is
 * empty is the units row; every other row has exactly the header's number
 * of fields (csv.c).
 *
 * Return: 0, or an exit status after a message.
 */
static int ncu_read(struct ncu *nc)
{
	int ret = csv_read(&nc->in, NCU_MAX_FIELDS, ncu_csv_row, ncu_notice,
			   nc);

	if (ret)
		return ret;
	if (!nc->header) {
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

/**
 * ncu_free() - release an ncu report
 * @nc: the report, or NULL.
 */
void ncu_free(struct ncu *nc)
{
	unsigned int i;

	if (!nc)
		return;
	input_close(&nc->in);
	for (i = 0; i < nc->nr; i++)
		free(nc->k[i].name);
	free(nc->k);
	free(nc->mcol);
	free(nc->mfactor);
	free(nc->gpu.name);
	free(nc);
}

/**
 * ncu_open() - open and read an ncu report
 * @path: its path, "-" for standard input.
 * @given: --device was given.
 * @ret: out: the exit status on failure.
 *
 * Return: the report, or NULL after a message.
 */
struct ncu *ncu_open(const char *path, bool given, int *ret)
{
	struct ncu *nc = calloc(1, sizeof(*nc));

	if (nc) {
		nc->mcol = calloc(NCU_MAX_FIELDS, sizeof(*nc->mcol));
		nc->mfactor = calloc(NCU_MAX_FIELDS, sizeof(*nc->mfactor));
	}
	if (!nc || !nc->mcol || !nc->mfactor) {
		ncu_free(nc);
		err_msg("%s", "out of memory");
		*ret = EXIT_DEVICE;
		return NULL;
	}
	nc->given = given;
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

/*
 * A kernel name's function name, from @name: without "void " and without
 * "(anonymous namespace)::"; it ends at '<', '(' or the end.  Each call
 * returns the next character of it, 0 at its end.
 */
static char ncu_fn_char(const char **name)
{
	static const char anon[] = "(anonymous namespace)::";
	const char *s = *name;

	while (!strncmp(s, anon, sizeof(anon) - 1))
		s += sizeof(anon) - 1;
	if (!*s || *s == '<' || *s == '(') {
		*name = s;
		return 0;
	}
	*name = s + 1;
	return *s;
}

/* Whether function name @a (from its start) equals @b's. */
static bool ncu_fn_equal(const char *a, const char *b)
{
	char ca, cb;

	do {
		ca = ncu_fn_char(&a);
		cb = ncu_fn_char(&b);
	} while (ca && ca == cb);
	return ca == cb;
}

/* The start of @name's function name, and of its last "::" component. */
static const char *ncu_fn(const char *name, const char **last)
{
	const char *s;
	char c;

	if (!strncmp(name, "void ", 5))
		name += 5;
	*last = name;
	for (s = name; (c = ncu_fn_char(&s));)
		if (c == ':' && *s == ':')
			*last = s + 1;
	return name;
}

/*
 * Whether two kernel names name the same function: their function names
 * are equal, or one is unqualified and the other's last component (ncu
 * may print "softmax_warp_forward" for nsys's
 * "at::native::(anonymous namespace)::softmax_warp_forward<...>(...)").
 */
static bool ncu_same_name(const char *a, const char *b)
{
	const char *la, *lb, *fa = ncu_fn(a, &la), *fb = ncu_fn(b, &lb);

	if (ncu_fn_equal(fa, fb))
		return true;
	return (la == fa && ncu_fn_equal(fa, lb)) ||
	       (lb == fb && ncu_fn_equal(la, fb));
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
 * ncu_match() - the nsys kernels' ncu launches, by name and order
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
int ncu_match(struct imp *im, struct ncu *nc)
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
 * ncu_kernels() - the kernels of an ncu report alone, in ID order
 * @im: the import; @im->in is the report (for messages).
 * @nc: the report, read.
 *
 * Grid Size, Block Size, Registers Per Thread and Duration are required
 * per launch; the shared memory sizes default to 0.
 *
 * Return: 0, or an exit status after a message.
 */
int ncu_kernels(struct imp *im, struct ncu *nc)
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
		if (in_fits(im, &nc->in, k))
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


/**
 * ncu_comment() - the comment line of a grid's ncu launch
 * @f: the workload file.
 * @k: the kernel, with a launch.
 */
void ncu_comment(FILE *f, const struct imp_kernel *k)
{
	static const enum ncu_field show[] = { NF_SM, NF_DRAM, NF_OCC };
	const struct ncu_kernel *n = k->ncu;
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
