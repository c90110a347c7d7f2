// SPDX-License-Identifier: GPL-2.0
/*
 * workload.c - parser of gputbs workload files.
 *
 * The format is described in Documentation/workloads.rst.  Every error is
 * reported as "FILE:LINE: reason" in the caller's buffer; the parser never
 * prints.
 *
 * Copyright (C) 2026 The gputbs developers
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "input.h"
#include "workload.h"
#include "gtbs_names.h"

#define WL_MAX_TOKENS		32
#define WL_MAX_BLOCKS		(1U << 20)
#define WL_MAX_THREADS		1024
#define WL_MAX_REGS		255	/* the largest preset's (v100, a100, h100) */
#define WL_MAX_SHMEM		(228 * 1024)	/* h100's */
#define WL_MAX_FILES		256

/* Identity of a file, to detect include loops and repeated includes. */
struct wl_file_id {
	dev_t dev;
	ino_t ino;
};

struct wl_parser {
	struct wl_set *set;
	char *err;
	size_t errlen;
	struct wl_file_id stack[WL_MAX_DEPTH + 1];
	unsigned int depth;
	struct wl_file_id seen[WL_MAX_FILES];
	unsigned int nr_seen;
	struct wl_program *prog;	/* program that grid lines extend */
	struct wl_workload *wl;		/* workload that run lines extend */
	unsigned int last_line;		/* lines of the top-level file */
	unsigned long long grid_bytes;	/* grids and durations held */
	unsigned int flags;		/* WL_PARSE_* */
	unsigned int nr_errors;		/* line errors reported so far */
	bool stop;			/* WL_MAX_ERRORS reached */
	bool skip;			/* a program or workload line failed */
};

/*
 * Append "FILE:LINE: reason" (or "reason" without @loc) to the caller's
 * buffer, after the errors already there, one per line.
 */
static int __attribute__((format(printf, 4, 5)))
wl_error(struct wl_parser *p, const struct wl_loc *loc, int ret,
	 const char *fmt, ...)
{
	size_t n;
	va_list ap;

	if (!p->errlen)
		return ret;
	n = strlen(p->err);
	if (n && n + 1 < p->errlen)
		p->err[n++] = '\n';
	if (n + 1 >= p->errlen)
		return ret;
	if (loc)
		snprintf(p->err + n, p->errlen - n, "%s:%u: ", loc->file,
			 loc->line);
	else
		p->err[n] = '\0';
	n += strlen(p->err + n);
	va_start(ap, fmt);
	vsnprintf(p->err + n, p->errlen - n, fmt, ap);
	va_end(ap);
	return ret;
}

#define wl_fail(p, loc, ...)	wl_error(p, loc, -EINVAL, __VA_ARGS__)

/* Decimal unsigned integer, digits only. */
static int wl_parse_u64(const char *s, __u64 *out)
{
	__u64 v = 0;

	if (!*s)
		return -EINVAL;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -EINVAL;
		if (v > (~0ULL - 9) / 10)
			return -ERANGE;
		v = v * 10 + (__u64)(*s - '0');
	}
	*out = v;
	return 0;
}

/*
 * Decimal number with up to @places decimals, returned times 10^@places.
 */
static int wl_parse_fixed(const char *s, size_t len, unsigned int places,
			  __u64 *out)
{
	__u64 ipart = 0, frac = 0;
	unsigned int decimals = 0;
	bool dot = false, digit = false;
	size_t i;

	for (i = 0; i < len; i++) {
		char c = s[i];

		if (c == '.' && !dot) {
			dot = true;
			continue;
		}
		if (c < '0' || c > '9')
			return -EINVAL;
		digit = true;
		if (dot) {
			if (++decimals > places)
				return -EINVAL;
			frac = frac * 10 + (__u64)(c - '0');
		} else {
			if (ipart > 1000000000ULL)
				return -ERANGE;
			ipart = ipart * 10 + (__u64)(c - '0');
		}
	}
	if (!digit)
		return -EINVAL;
	for (i = 0; i < places; i++) {
		ipart *= 10;
		if (i >= decimals)
			frac *= 10;
	}
	*out = ipart + frac;
	return 0;
}

/*
 * Decimal number with up to four decimals, returned times 10^4: a percent
 * given this way is directly parts per million.
 */
static int wl_parse_fixed4(const char *s, size_t len, __u64 *out)
{
	return wl_parse_fixed(s, len, 4, out);
}

static bool wl_valid_name(const char *s)
{
	for (; *s; s++)
		if (*s <= ' ' || *s > '~')
			return false;
	return true;
}

/* Path of @rel relative to the directory of @base; malloc()ed. */
static char *wl_join(const char *base, const char *rel)
{
	const char *slash = strrchr(base, '/');
	char *path;

	if (rel[0] == '/' || !slash)
		return strdup(rel);
	if (asprintf(&path, "%.*s/%s", (int)(slash - base), base, rel) < 0)
		return NULL;
	return path;
}

static const char *wl_file_add(struct wl_set *set, const char *path)
{
	char **files, *copy;

	copy = strdup(path);
	if (!copy)
		return NULL;
	files = realloc(set->files, (set->nr_files + 1) * sizeof(*files));
	if (!files) {
		free(copy);
		return NULL;
	}
	set->files = files;
	files[set->nr_files++] = copy;
	return copy;
}

/* A number key within [lo, hi]. */
static int wl_key_u64(struct wl_parser *p, const struct wl_loc *loc,
		      const char *key, const char *val, __u64 lo, __u64 hi,
		      __u64 *out)
{
	int ret = wl_parse_u64(val, out);

	if (ret == -EINVAL)
		return wl_fail(p, loc, "%s: bad number '%s'", key, val);
	if (ret || *out < lo || *out > hi)
		return wl_fail(p, loc, "%s=%s out of range %llu..%llu", key,
			       val, (unsigned long long)lo,
			       (unsigned long long)hi);
	return 0;
}

/*
 * A time (gap=, think=, slo=): emulated cycles as a plain integer
 * (0..2^40), or an integer with a unit ns, us, ms or s (at most 2^40 ns),
 * converted to cycles with the device's clock when run (wl_time_cycles()).
 */
static int wl_key_time(struct wl_parser *p, const struct wl_loc *loc,
		       const char *key, const char *val, __u64 lo,
		       struct wl_time *out)
{
	static const struct { const char *unit; __u64 ns; } units[] = {
		{ "ns", 1 }, { "us", 1000 }, { "ms", 1000000 },
		{ "s", 1000000000 },
	};
	size_t digits = strspn(val, "0123456789");
	char num[24];
	unsigned int i;
	__u64 v;

	if (!digits || digits >= sizeof(num))
		return digits ? wl_fail(p, loc, "%s=%s out of range", key, val) :
			wl_fail(p, loc,
				"%s: bad time '%s' (cycles, or an integer with ns, us, ms or s)",
				key, val);
	memcpy(num, val, digits);
	num[digits] = '\0';
	if (wl_parse_u64(num, &v))
		return wl_fail(p, loc, "%s=%s out of range", key, val);
	if (!val[digits]) {
		if (v < lo || v > WL_MAX_CYCLES)
			return wl_fail(p, loc, "%s=%s out of range %llu..%llu cycles",
				       key, val, (unsigned long long)lo,
				       (unsigned long long)WL_MAX_CYCLES);
		*out = (struct wl_time) { .value = v, .ns = 0 };
		return 0;
	}
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(val + digits, units[i].unit))
			break;
	if (i == sizeof(units) / sizeof(units[0]))
		return wl_fail(p, loc,
			       "%s: unknown unit '%s' (ns, us, ms or s; no unit: cycles)",
			       key, val + digits);
	if (v > WL_MAX_TIME_NS / units[i].ns || v < lo)
		return wl_fail(p, loc, "%s=%s out of range %llu..%llu ns",
			       key, val, (unsigned long long)lo,
			       (unsigned long long)WL_MAX_TIME_NS);
	*out = (struct wl_time) { .value = v * units[i].ns, .ns = 1 };
	return 0;
}

/* Charge @bytes of grid data to the file's bound, %WL_MAX_GRID_BYTES. */
static int wl_charge(struct wl_parser *p, const struct wl_loc *loc,
		     unsigned long long bytes)
{
	if (bytes > WL_MAX_GRID_BYTES - p->grid_bytes)
		return wl_fail(p, loc,
			       "more than %llu MiB of grids and durations in the file (a grid takes %zu bytes, a duration 8)",
			       WL_MAX_GRID_BYTES >> 20, sizeof(struct wl_grid));
	p->grid_bytes += bytes;
	return 0;
}

/*
 * Read the durations file of a grid: one cycle count per line, at most
 * the grid's blocks= (%WL_MAX_BLOCKS without it).  Reading stops at the
 * first value too many, so memory never grows past that.
 */
static int wl_read_durations(struct wl_parser *p, const struct wl_loc *from,
			     const char *rel, struct wl_grid *g,
			     __u32 *count)
{
	size_t max = g->nr_blocks ? g->nr_blocks : WL_MAX_BLOCKS;
	struct wl_loc loc = { .line = 0 };
	size_t cap = 0, n = 0;
	__u64 *d = NULL, *nd;
	char *path, *tok, *save;
	struct input in;
	int ret;

	path = wl_join(from->file, rel);
	if (!path)
		return wl_error(p, from, -ENOMEM, "out of memory");
	ret = input_open(&in, path, 0);
	if (ret) {
		ret = wl_fail(p, from, "durations file %s", in.err);
		goto out;
	}
	loc.file = wl_file_add(p->set, path);
	if (!loc.file) {
		ret = wl_error(p, from, -ENOMEM, "out of memory");
		goto out;
	}
	while ((ret = input_line(&in)) > 0) {
		__u64 v;

		loc.line = in.nr;
		in.line[strcspn(in.line, "#")] = '\0';
		tok = strtok_r(in.line, " \t\r", &save);
		if (!tok)
			continue;
		if (strtok_r(NULL, " \t\r", &save)) {
			ret = wl_fail(p, &loc, "one duration per line");
			goto out;
		}
		ret = wl_key_u64(p, &loc, "duration", tok, 1, WL_MAX_CYCLES,
				 &v);
		if (ret)
			goto out;
		if (n == max) {
			ret = wl_fail(p, &loc, "more than %zu durations (%s)",
				      max, g->nr_blocks ? "the grid's blocks" :
				      "the most blocks a grid may have");
			goto out;
		}
		if (n == cap) {
			cap = cap ? 2 * cap : 256;
			if (cap > max)
				cap = max;
			nd = realloc(d, cap * sizeof(*d));
			if (!nd) {
				ret = wl_error(p, &loc, -ENOMEM,
					       "out of memory");
				goto out;
			}
			d = nd;
		}
		d[n++] = v;
	}
	if (ret) {	/* a NUL byte, a read error */
		ret = wl_error(p, NULL, ret, "%s", in.err);
		goto out;
	}
	if (!n) {
		ret = wl_fail(p, from, "durations file '%s' is empty",
			      loc.file);
		goto out;
	}
	g->durations = d;
	*count = n;
	d = NULL;
out:
	free(d);
	free(path);
	input_close(&in);
	return ret;
}

enum wl_key {
	KEY_BLOCKS, KEY_THREADS, KEY_REGS, KEY_SHMEM, KEY_CYCLES, KEY_RSD,
	KEY_SEED, KEY_DURATIONS, KEY_EXPECT, KEY_CLASS, KEY_MEM, KEY_KNEE,
	KEY_DIST, KEY_DIST_PARAM, KEY_STARTUP, KEY_IDEMPOTENT, KEY_GAP,
	KEY_TOKEN, NR_KEYS
};

static const char * const wl_key_names[NR_KEYS] = {
	[KEY_BLOCKS] = "blocks", [KEY_THREADS] = "threads",
	[KEY_REGS] = "regs", [KEY_SHMEM] = "shmem", [KEY_CYCLES] = "cycles",
	[KEY_RSD] = "rsd", [KEY_SEED] = "seed", [KEY_DURATIONS] = "durations",
	[KEY_EXPECT] = "expect", [KEY_CLASS] = "class", [KEY_MEM] = "mem",
	[KEY_KNEE] = "knee", [KEY_DIST] = "dist",
	[KEY_DIST_PARAM] = "dist-param", [KEY_STARTUP] = "startup",
	[KEY_IDEMPOTENT] = "idempotent", [KEY_GAP] = "gap",
	[KEY_TOKEN] = "token",
};

/* Names of the block duration shapes, indexed by GPUTBS_DIST_*. */
static const char * const wl_dist_names[] = {
	[GPUTBS_DIST_NORMAL] = "normal", [GPUTBS_DIST_SKEWED] = "skewed",
	[GPUTBS_DIST_PEAKED] = "peaked",
};
#define WL_NR_DISTS	(sizeof(wl_dist_names) / sizeof(wl_dist_names[0]))

/* Names of the priority classes, indexed by &gputbs_submit.prio_class. */
static const char * const wl_class_names[] = {
	[GPUTBS_PRIO_DEFAULT] = "default",
	GTBS_PRIO_CLASS_NAMES(GPUTBS_PRIO_)
};

/**
 * wl_class_name() - name of a priority class
 * @prio_class: &gputbs_submit.prio_class.
 *
 * Return: "low", "normal", "high" or "realtime"; "normal" for
 * %GPUTBS_PRIO_DEFAULT; "?" for an unknown value.
 */
const char *wl_class_name(__u32 prio_class)
{
	if (prio_class == GPUTBS_PRIO_DEFAULT)
		return wl_class_names[GPUTBS_PRIO_NORMAL];
	if (prio_class > GPUTBS_PRIO_REALTIME)
		return "?";
	return wl_class_names[prio_class];
}

/* class=low|normal|high|realtime. */
static int wl_key_class(struct wl_parser *p, const struct wl_loc *loc,
			const char *val, __u32 *out)
{
	__u32 c;

	for (c = GPUTBS_PRIO_LOW; c <= GPUTBS_PRIO_REALTIME; c++) {
		if (!strcmp(val, wl_class_names[c])) {
			*out = c;
			return 0;
		}
	}
	return wl_fail(p, loc,
		       "class: unknown class '%s' (low, normal, high or realtime)",
		       val);
}

/* Split "key=value" into @vals by key name. */
static int wl_split_keys(struct wl_parser *p, const struct wl_loc *loc,
			 char **tok, int ntok, const char * const *names,
			 int nr_names, const char **vals)
{
	int i, k;

	for (i = 0; i < ntok; i++) {
		char *eq = strchr(tok[i], '=');

		if (!eq || eq == tok[i])
			return wl_fail(p, loc, "expected key=value, got '%s'",
				       tok[i]);
		*eq = '\0';
		for (k = 0; k < nr_names; k++)
			if (!strcmp(tok[i], names[k]))
				break;
		if (k == nr_names)
			return wl_fail(p, loc, "unknown key '%s'", tok[i]);
		if (vals[k])
			return wl_fail(p, loc, "duplicate key '%s'", tok[i]);
		if (!eq[1])
			return wl_fail(p, loc, "%s: empty value", tok[i]);
		vals[k] = eq + 1;
	}
	return 0;
}

/*
 * mem=PERCENT (the memory share of the grid's demand, up to 4 decimals)
 * and knee=WARPS (its own knee, up to 3 decimals): the co-running timing
 * model (Documentation/timing-model.rst).
 */
static int wl_key_timing(struct wl_parser *p, const struct wl_loc *loc,
			 const char *mem, const char *knee, struct wl_grid *g)
{
	__u64 n;
	int ret;

	if (mem) {
		ret = wl_parse_fixed4(mem, strlen(mem), &n);
		if (ret == -EINVAL)
			return wl_fail(p, loc,
				       "mem: bad percentage '%s' (at most 4 decimals)",
				       mem);
		if (ret || n > 1000000)
			return wl_fail(p, loc, "mem=%s out of range 0..100", mem);
		g->mem_ppm = n;
	}
	if (knee) {
		ret = wl_parse_fixed4(knee, strlen(knee), &n);
		if (ret == -EINVAL || (!ret && n % 10))
			return wl_fail(p, loc,
				       "knee: bad number of warps '%s' (at most 3 decimals)",
				       knee);
		if (ret || !n || n > 10240000)
			return wl_fail(p, loc,
				       "knee=%s out of range (0..1024 warps, not 0)",
				       knee);
		g->knee_mwarps = n / 10;
	}
	return 0;
}

/*
 * dist=normal|skewed|peaked, dist-param=PERCENT (the shape's share: heavy
 * blocks of skewed, 0.1..50; outliers of peaked, 0..100; up to 4
 * decimals) and startup=PERCENT@BLOCKS (the start-up effect: a seeded half
 * of the first BLOCKS blocks last PERCENT longer, 0 < PERCENT <= 1600):
 * Documentation/timing-model.rst, "Block work".
 */
static int wl_key_dist(struct wl_parser *p, const struct wl_loc *loc,
		       const char * const *v, struct wl_grid *g)
{
	const char *at;
	__u64 n;
	__u32 d;
	int ret;

	if (v[KEY_DIST]) {
		for (d = 0; d < WL_NR_DISTS; d++)
			if (!strcmp(v[KEY_DIST], wl_dist_names[d]))
				break;
		if (d == WL_NR_DISTS)
			return wl_fail(p, loc,
				       "dist: unknown shape '%s' (normal, skewed or peaked)",
				       v[KEY_DIST]);
		g->block_dist = d;
	}
	if (v[KEY_DIST_PARAM]) {
		if (g->block_dist == GPUTBS_DIST_NORMAL)
			return wl_fail(p, loc,
				       "dist-param needs dist=skewed or dist=peaked");
		ret = wl_parse_fixed4(v[KEY_DIST_PARAM],
				      strlen(v[KEY_DIST_PARAM]), &n);
		if (ret == -EINVAL)
			return wl_fail(p, loc,
				       "dist-param: bad percentage '%s' (at most 4 decimals)",
				       v[KEY_DIST_PARAM]);
		if (g->block_dist == GPUTBS_DIST_SKEWED &&
		    (ret || n < 1000 || n > 500000))
			return wl_fail(p, loc,
				       "dist-param=%s out of range 0.1..50 for dist=skewed",
				       v[KEY_DIST_PARAM]);
		if (ret || n > 1000000)
			return wl_fail(p, loc,
				       "dist-param=%s out of range 0..100",
				       v[KEY_DIST_PARAM]);
		g->block_dist_param = n;
	} else if (g->block_dist == GPUTBS_DIST_SKEWED) {
		return wl_fail(p, loc, "dist=skewed needs dist-param");
	}
	if (g->block_dist == GPUTBS_DIST_PEAKED && g->rsd_ppm > 540000)
		return wl_fail(p, loc, "dist=peaked needs rsd at most 54");
	if (!v[KEY_STARTUP])
		return 0;
	at = strchr(v[KEY_STARTUP], '@');
	if (!at)
		return wl_fail(p, loc, "startup: expected PERCENT@BLOCKS, got '%s'",
			       v[KEY_STARTUP]);
	ret = wl_parse_fixed4(v[KEY_STARTUP], at - v[KEY_STARTUP], &n);
	if (ret == -EINVAL)
		return wl_fail(p, loc,
			       "startup: bad percentage in '%s' (at most 4 decimals)",
			       v[KEY_STARTUP]);
	if (ret || !n || n > 16000000)
		return wl_fail(p, loc, "startup: percentage in '%s' out of range (0..1600, not 0)",
			       v[KEY_STARTUP]);
	g->startup_ppm = n;
	ret = wl_key_u64(p, loc, "startup blocks", at + 1, 1, g->nr_blocks,
			 &n);
	if (ret)
		return ret;
	g->startup_blocks = n;
	return 0;
}

static int wl_do_grid(struct wl_parser *p, const struct wl_loc *loc,
		      char **tok, int ntok)
{
	const char *v[NR_KEYS] = { NULL };
	struct wl_grid *g;
	__u64 n;
	__u32 count = 0;
	int ret;

	if (!p->prog)
		return wl_fail(p, loc, "grid outside a program");
	if (ntok < 2)
		return wl_fail(p, loc, "grid: missing label");
	if (strlen(tok[1]) >= GPUTBS_LABEL_LEN)
		return wl_fail(p, loc, "grid label '%s' longer than %d",
			       tok[1], GPUTBS_LABEL_LEN - 1);
	if (!wl_valid_name(tok[1]))
		return wl_fail(p, loc, "grid label: not printable ASCII");
	ret = wl_split_keys(p, loc, tok + 2, ntok - 2, wl_key_names, NR_KEYS,
			    v);
	if (ret)
		return ret;
	if (!v[KEY_THREADS])
		return wl_fail(p, loc, "missing required key 'threads'");
	if (!v[KEY_CYCLES] == !v[KEY_DURATIONS])
		return wl_fail(p, loc,
			       "exactly one of 'cycles' and 'durations' required");
	if (v[KEY_DURATIONS] && (v[KEY_RSD] || v[KEY_SEED]))
		return wl_fail(p, loc,
			       "'rsd' and 'seed' do not apply to 'durations'");
	if (v[KEY_DURATIONS] &&
	    (v[KEY_DIST] || v[KEY_DIST_PARAM] || v[KEY_STARTUP]))
		return wl_fail(p, loc,
			       "'dist', 'dist-param' and 'startup' do not apply to 'durations'");
	if (!v[KEY_BLOCKS] && !v[KEY_DURATIONS])
		return wl_fail(p, loc, "missing required key 'blocks'");

	ret = wl_charge(p, loc, sizeof(*g));
	if (ret)
		return ret;
	if (p->prog->nr_grids == p->prog->cap_grids) {
		unsigned int cap = p->prog->cap_grids ?
				   2 * p->prog->cap_grids : 4;

		g = realloc(p->prog->grids, cap * sizeof(*g));
		if (!g)
			return wl_error(p, loc, -ENOMEM, "out of memory");
		p->prog->grids = g;
		p->prog->cap_grids = cap;
	}
	g = &p->prog->grids[p->prog->nr_grids];
	memset(g, 0, sizeof(*g));
	snprintf(g->label, sizeof(g->label), "%s", tok[1]);
	g->loc = *loc;
	if (v[KEY_BLOCKS]) {
		ret = wl_key_u64(p, loc, "blocks", v[KEY_BLOCKS], 1,
				 WL_MAX_BLOCKS, &n);
		if (ret)
			return ret;
		g->nr_blocks = n;
	}
	ret = wl_key_u64(p, loc, "threads", v[KEY_THREADS], 1,
			 WL_MAX_THREADS, &n);
	if (ret)
		return ret;
	g->threads = n;
	if (v[KEY_REGS]) {
		ret = wl_key_u64(p, loc, "regs", v[KEY_REGS], 0, WL_MAX_REGS,
				 &n);
		if (ret)
			return ret;
		g->regs = n;
	}
	if (v[KEY_SHMEM]) {
		ret = wl_key_u64(p, loc, "shmem", v[KEY_SHMEM], 0,
				 WL_MAX_SHMEM, &n);
		if (ret)
			return ret;
		g->shmem = n;
	}
	if (v[KEY_SEED]) {
		ret = wl_key_u64(p, loc, "seed", v[KEY_SEED], 0, ~0ULL,
				 &g->seed);
		if (ret)
			return ret;
	}
	if (v[KEY_EXPECT]) {
		ret = wl_key_u64(p, loc, "expect", v[KEY_EXPECT], 1,
				 WL_MAX_CYCLES * WL_MAX_BLOCKS, &g->expect);
		if (ret)
			return ret;
	}
	if (v[KEY_CLASS]) {
		ret = wl_key_class(p, loc, v[KEY_CLASS], &g->prio_class);
		if (ret)
			return ret;
	}
	if (v[KEY_IDEMPOTENT]) {
		/* running a block again gives the same result: it may be flushed */
		if (strcmp(v[KEY_IDEMPOTENT], "0") &&
		    strcmp(v[KEY_IDEMPOTENT], "1"))
			return wl_fail(p, loc, "idempotent=%s: 0 or 1",
				       v[KEY_IDEMPOTENT]);
		g->idempotent = v[KEY_IDEMPOTENT][0] == '1';
	}
	if (v[KEY_TOKEN]) {
		/* the grid's end emits an output token (TTFT, TPOT) */
		if (strcmp(v[KEY_TOKEN], "0") && strcmp(v[KEY_TOKEN], "1"))
			return wl_fail(p, loc, "token=%s: 0 or 1",
				       v[KEY_TOKEN]);
		g->token = v[KEY_TOKEN][0] == '1';
	}
	if (v[KEY_RSD]) {
		ret = wl_parse_fixed4(v[KEY_RSD], strlen(v[KEY_RSD]), &n);
		if (ret == -EINVAL)
			return wl_fail(p, loc,
				       "rsd: bad percentage '%s' (at most 4 decimals)",
				       v[KEY_RSD]);
		if (ret || n > 1000000)
			return wl_fail(p, loc, "rsd=%s out of range 0..100",
				       v[KEY_RSD]);
		g->rsd_ppm = n;
	}
	ret = wl_key_timing(p, loc, v[KEY_MEM], v[KEY_KNEE], g);
	if (ret)
		return ret;
	if (v[KEY_GAP]) {
		ret = wl_key_time(p, loc, "gap", v[KEY_GAP], 0, &g->gap);
		if (ret)
			return ret;
	}
	if (v[KEY_CYCLES]) {
		ret = wl_key_u64(p, loc, "cycles", v[KEY_CYCLES], 1,
				 WL_MAX_CYCLES, &g->cycles);
		if (ret)
			return ret;
		ret = wl_key_dist(p, loc, v, g);
		if (ret)
			return ret;
	} else {
		ret = wl_read_durations(p, loc, v[KEY_DURATIONS], g, &count);
		if (ret)
			return ret;
		if (g->nr_blocks && g->nr_blocks != count) {
			free(g->durations);
			g->durations = NULL;
			return wl_fail(p, loc,
				       "blocks=%u but the durations file has %u",
				       g->nr_blocks, count);
		}
		g->nr_blocks = count;
		ret = wl_charge(p, loc, (unsigned long long)count * 8);
		if (ret) {
			free(g->durations);
			g->durations = NULL;
			return ret;
		}
	}
	p->prog->nr_grids++;
	return 0;
}

static int wl_do_program(struct wl_parser *p, const struct wl_loc *loc,
			 char **tok, int ntok)
{
	static const char * const names[] = { "paper" };
	const char *paper = NULL;
	struct wl_set *set = p->set;
	struct wl_program *prog;
	unsigned int k;
	int i, ret;

	if (ntok < 2)
		return wl_fail(p, loc, "usage: program NAME [paper=NAME]");
	if (strlen(tok[1]) >= WL_NAME_LEN)
		return wl_fail(p, loc, "program name longer than %d",
			       WL_NAME_LEN - 1);
	if (!wl_valid_name(tok[1]))
		return wl_fail(p, loc, "program name: not printable ASCII");
	i = wl_find_program(set, tok[1]);
	if (i >= 0)
		return wl_fail(p, loc,
			       "duplicate program '%s' (first defined at %s:%u)",
			       tok[1], set->programs[i]->loc.file,
			       set->programs[i]->loc.line);
	ret = wl_split_keys(p, loc, tok + 2, ntok - 2, names, 1, &paper);
	if (ret)
		return ret;
	if (paper && strlen(paper) >= WL_NAME_LEN)
		return wl_fail(p, loc, "paper name longer than %d",
			       WL_NAME_LEN - 1);
	if (paper && !wl_valid_name(paper))
		return wl_fail(p, loc, "paper name: not printable ASCII");
	/* the paper's names order pairs: two programs may not share one */
	for (k = 0; k < set->nr_programs; k++)
		if (!strcmp(wl_program_paper(set->programs[k]),
			    paper ? paper : tok[1]))
			return wl_fail(p, loc,
				       "paper name '%s' already names program '%s' (%s:%u)",
				       paper ? paper : tok[1],
				       set->programs[k]->name,
				       set->programs[k]->loc.file,
				       set->programs[k]->loc.line);
	if (set->nr_programs == WL_MAX_PROGRAMS)
		return wl_fail(p, loc, "more than %d programs",
			       WL_MAX_PROGRAMS);
	prog = calloc(1, sizeof(*prog));
	if (!prog)
		return wl_error(p, loc, -ENOMEM, "out of memory");
	snprintf(prog->name, sizeof(prog->name), "%s", tok[1]);
	if (paper)
		snprintf(prog->paper, sizeof(prog->paper), "%s", paper);
	prog->loc = *loc;
	set->programs[set->nr_programs++] = prog;
	p->prog = prog;
	p->wl = NULL;
	return 0;
}

static int wl_do_workload(struct wl_parser *p, const struct wl_loc *loc,
			  char **tok, int ntok)
{
	struct wl_set *set = p->set;
	struct wl_workload *wl;
	unsigned int i;

	if (ntok != 2)
		return wl_fail(p, loc, "usage: workload NAME");
	if (strlen(tok[1]) >= WL_NAME_LEN)
		return wl_fail(p, loc, "workload name longer than %d",
			       WL_NAME_LEN - 1);
	if (!wl_valid_name(tok[1]))
		return wl_fail(p, loc, "workload name: not printable ASCII");
	for (i = 0; i < set->nr_workloads; i++)
		if (!strcmp(set->workloads[i]->name, tok[1]))
			return wl_fail(p, loc,
				       "duplicate workload '%s' (first defined at %s:%u)",
				       tok[1], set->workloads[i]->loc.file,
				       set->workloads[i]->loc.line);
	if (set->nr_workloads == WL_MAX_WORKLOADS)
		return wl_fail(p, loc, "more than %d workloads",
			       WL_MAX_WORKLOADS);
	wl = calloc(1, sizeof(*wl));
	if (!wl)
		return wl_error(p, loc, -ENOMEM, "out of memory");
	snprintf(wl->name, sizeof(wl->name), "%s", tok[1]);
	wl->loc = *loc;
	set->workloads[set->nr_workloads++] = wl;
	p->wl = wl;
	p->prog = NULL;
	return 0;
}

enum wl_run_key {
	RKEY_AT, RKEY_REQUESTS, RKEY_RATE, RKEY_ARRIVAL, RKEY_SEED,
	RKEY_OUTSTANDING, RKEY_THINK, RKEY_SLO, RKEY_TENANT, RKEY_WEIGHT,
	RKEY_MAX, RKEY_SLO_TTFT, RKEY_SLO_TPOT, RKEY_CLASS, NR_RKEYS
};

static const char * const wl_run_key_names[NR_RKEYS] = {
	[RKEY_AT] = "at", [RKEY_REQUESTS] = "requests", [RKEY_RATE] = "rate",
	[RKEY_ARRIVAL] = "arrival", [RKEY_SEED] = "seed",
	[RKEY_OUTSTANDING] = "outstanding", [RKEY_THINK] = "think",
	[RKEY_SLO] = "slo", [RKEY_TENANT] = "tenant", [RKEY_WEIGHT] = "weight",
	[RKEY_MAX] = "max", [RKEY_SLO_TTFT] = "slo-ttft",
	[RKEY_SLO_TPOT] = "slo-tpot", [RKEY_CLASS] = "class",
};

/*
 * requests=, rate=, arrival=, seed=, outstanding=, think=, slo=,
 * slo-ttft=, slo-tpot=
 */
static int wl_run_requests(struct wl_parser *p, const struct wl_loc *loc,
			   const char **v, struct wl_run *run)
{
	__u64 n;
	int ret;

	run->requests = 1;
	run->outstanding = 1;
	if (v[RKEY_REQUESTS]) {
		ret = wl_key_u64(p, loc, "requests", v[RKEY_REQUESTS], 1,
				 WL_MAX_REQUESTS, &n);
		if (ret)
			return ret;
		run->requests = n;
	}
	if (v[RKEY_RATE] && (v[RKEY_OUTSTANDING] || v[RKEY_THINK]))
		return wl_fail(p, loc,
			       "rate= (open loop) and %s= (closed loop) exclude each other",
			       v[RKEY_OUTSTANDING] ? "outstanding" : "think");
	if ((v[RKEY_ARRIVAL] || v[RKEY_SEED]) && !v[RKEY_RATE])
		return wl_fail(p, loc, "%s= needs rate=",
			       v[RKEY_ARRIVAL] ? "arrival" : "seed");
	if (v[RKEY_RATE]) {
		ret = wl_parse_fixed4(v[RKEY_RATE], strlen(v[RKEY_RATE]), &n);
		if (ret == -EINVAL)
			return wl_fail(p, loc,
				       "rate: bad number '%s' (requests per second, at most 4 decimals)",
				       v[RKEY_RATE]);
		if (ret || !n || n > 10000000000000ULL)
			return wl_fail(p, loc,
				       "rate=%s out of range 0.0001..1000000000 requests per second",
				       v[RKEY_RATE]);
		run->rate_e4 = n;
		run->arrival = WL_ARRIVAL_FIXED;
	}
	if (v[RKEY_ARRIVAL]) {
		if (!strcmp(v[RKEY_ARRIVAL], "poisson"))
			run->arrival = WL_ARRIVAL_POISSON;
		else if (strcmp(v[RKEY_ARRIVAL], "fixed"))
			return wl_fail(p, loc,
				       "arrival: unknown arrival '%s' (fixed or poisson)",
				       v[RKEY_ARRIVAL]);
	}
	if (v[RKEY_SEED]) {
		if (run->arrival != WL_ARRIVAL_POISSON)
			return wl_fail(p, loc, "seed= needs arrival=poisson");
		ret = wl_key_u64(p, loc, "seed", v[RKEY_SEED], 0, ~0ULL,
				 &run->seed);
		if (ret)
			return ret;
	}
	if (v[RKEY_OUTSTANDING]) {
		ret = wl_key_u64(p, loc, "outstanding", v[RKEY_OUTSTANDING], 1,
				 run->requests, &n);
		if (ret)
			return ret;
		run->outstanding = n;
	}
	if (v[RKEY_THINK]) {
		ret = wl_key_time(p, loc, "think", v[RKEY_THINK], 0,
				  &run->think);
		if (ret)
			return ret;
	}
	if (v[RKEY_SLO]) {
		ret = wl_key_time(p, loc, "slo", v[RKEY_SLO], 1, &run->slo);
		if (ret)
			return ret;
		run->has_slo = 1;
	}
	if (v[RKEY_SLO_TTFT]) {
		ret = wl_key_time(p, loc, "slo-ttft", v[RKEY_SLO_TTFT], 1,
				  &run->slo_ttft);
		if (ret)
			return ret;
		run->has_slo_ttft = 1;
	}
	if (v[RKEY_SLO_TPOT]) {
		ret = wl_key_time(p, loc, "slo-tpot", v[RKEY_SLO_TPOT], 1,
				  &run->slo_tpot);
		if (ret)
			return ret;
		run->has_slo_tpot = 1;
	}
	return 0;
}

/**
 * wl_fmt_pct() - ppm as a percentage, without trailing zeros
 * @ppm: parts per million.
 * @buf: out: "30", "0.5", "12.3456".
 * @len: bytes of @buf.
 *
 * Return: @buf.
 */
char *wl_fmt_pct(__u32 ppm, char *buf, size_t len)
{
	int n = snprintf(buf, len, "%u.%04u", ppm / 10000, ppm % 10000);

	if (n <= 0 || (size_t)n >= len)
		return buf;
	while (buf[n - 1] == '0')
		buf[--n] = '\0';
	if (buf[n - 1] == '.')
		buf[n - 1] = '\0';
	return buf;
}

/**
 * wl_parse_max() - a cap on the device's SM time, as ``max=`` gives it
 * @s: a percentage of 0.0001..100 with up to 4 decimals, its ``%`` sign
 *	optional (``30``, ``12.5%``).
 * @ppm: out: the cap, parts per million of the device's SM time.
 *
 * Shared by the workload files and ``gputbs tenant set --max``.
 *
 * Return: 0, -EINVAL for a malformed number, or -ERANGE for one outside
 * 0.0001..100.
 */
int wl_parse_max(const char *s, __u32 *ppm)
{
	size_t len = strlen(s);
	__u64 n;
	int ret;

	/* a percentage, its sign optional: max=30 is max=30% */
	if (len > 1 && s[len - 1] == '%')
		len--;
	ret = wl_parse_fixed4(s, len, &n);
	if (ret == -EINVAL)
		return ret;
	if (ret || !n || n > WL_MAX_PPM)
		return -ERANGE;
	*ppm = n;
	return 0;
}

/**
 * wl_parse_load() - a load, as ``--load`` gives it
 * @s: a decimal number of 0.000001..100 with up to 6 decimals (``0.6``,
 *	``1``, ``2.5``): 1 is the rate at which an open-loop stream alone
 *	keeps the device busy (wl_workload_at_load()).
 * @ppm: out: the load in parts per million, 1..%WL_MAX_LOAD_PPM.
 *
 * Shared by ``gputbs run --load`` and ``gputbs-sim run --load``.
 *
 * Return: 0, -EINVAL for a malformed number (a sign, an exponent, more
 * than 6 decimals), or -ERANGE for one outside 0.000001..100.
 */
int wl_parse_load(const char *s, __u32 *ppm)
{
	__u64 n;
	int ret;

	ret = wl_parse_fixed(s, strlen(s), 6, &n);
	if (ret == -EINVAL)
		return ret;
	if (ret || !n || n > WL_MAX_LOAD_PPM)
		return -ERANGE;
	*ppm = (__u32)n;
	return 0;
}

/*
 * tenant=, weight=, max=: the run's tenant in its workload.  Runs of one
 * tenant share its weight and cap: a run that gives neither takes what
 * another of its runs gives, two that give different values are an error
 * naming the other's line.
 */
static int wl_run_tenant_keys(struct wl_parser *p, const struct wl_loc *loc,
			      const char **v, struct wl_run *run)
{
	struct wl_workload *wl = p->wl;
	char a[16], b[16];
	unsigned int i;
	__u64 n;
	int ret;

	run->weight = WL_WEIGHT_DEFAULT;
	if (v[RKEY_TENANT]) {
		if (strlen(v[RKEY_TENANT]) >= WL_NAME_LEN)
			return wl_fail(p, loc, "tenant name longer than %d",
				       WL_NAME_LEN - 1);
		if (!wl_valid_name(v[RKEY_TENANT]))
			return wl_fail(p, loc,
				       "tenant name: not printable ASCII");
		snprintf(run->tenant, sizeof(run->tenant), "%s",
			 v[RKEY_TENANT]);
	}
	if (v[RKEY_WEIGHT]) {
		ret = wl_key_u64(p, loc, "weight", v[RKEY_WEIGHT], 1,
				 WL_WEIGHT_MAX, &n);
		if (ret)
			return ret;
		run->weight = n;
		run->has_weight = 1;
	}
	if (v[RKEY_MAX]) {
		ret = wl_parse_max(v[RKEY_MAX], &run->max_ppm);
		if (ret == -EINVAL)
			return wl_fail(p, loc,
				       "max: bad percentage '%s' (at most 4 decimals)",
				       v[RKEY_MAX]);
		if (ret)
			return wl_fail(p, loc,
				       "max=%s out of range 0.0001..100 (percent)",
				       v[RKEY_MAX]);
		run->has_max = 1;
	}
	run->tenant_id = wl->nr_tenants;
	for (i = 0; run->tenant[0] && i < wl->nr_runs; i++) {
		struct wl_run *o = &wl->runs[i];

		if (strcmp(o->tenant, run->tenant))
			continue;
		run->tenant_id = o->tenant_id;
		if (run->has_weight && o->has_weight &&
		    run->weight != o->weight)
			return wl_fail(p, loc,
				       "tenant '%s': weight=%u, but weight=%u at %s:%u",
				       run->tenant, run->weight, o->weight,
				       o->loc.file, o->loc.line);
		if (run->has_max && o->has_max && run->max_ppm != o->max_ppm)
			return wl_fail(p, loc,
				       "tenant '%s': max=%s, but max=%s at %s:%u",
				       run->tenant,
				       wl_fmt_pct(run->max_ppm, a, sizeof(a)),
				       wl_fmt_pct(o->max_ppm, b, sizeof(b)),
				       o->loc.file, o->loc.line);
	}
	if (run->tenant_id == wl->nr_tenants)
		wl->nr_tenants++;
	/* what one run of the tenant gives, all of them have */
	for (i = 0; i < wl->nr_runs; i++) {
		struct wl_run *o = &wl->runs[i];

		if (o->tenant_id != run->tenant_id)
			continue;
		if (run->has_weight)
			o->weight = run->weight;
		else
			run->weight = o->weight;
		if (run->has_max)
			o->max_ppm = run->max_ppm;
		else
			run->max_ppm = o->max_ppm;
	}
	if (run->tenant[0] || run->has_weight || run->has_max)
		wl->tenant_keys = 1;
	return 0;
}

static int wl_do_run(struct wl_parser *p, const struct wl_loc *loc,
		     char **tok, int ntok)
{
	const char *v[NR_RKEYS] = { NULL };
	const char *at;
	struct wl_run *run;
	size_t len;
	int ret;

	if (!p->wl)
		return wl_fail(p, loc, "run outside a workload");
	if (ntok < 2)
		return wl_fail(p, loc, "usage: run PROGRAM [at=CYCLES|at=PCT%%] [KEY=VALUE...]");
	if (strlen(tok[1]) >= WL_NAME_LEN)
		return wl_fail(p, loc, "unknown program '%s'", tok[1]);
	if (p->wl->nr_runs == WL_MAX_RUNS)
		return wl_fail(p, loc, "workload '%s': more than %d runs",
			       p->wl->name, WL_MAX_RUNS);
	ret = wl_split_keys(p, loc, tok + 2, ntok - 2, wl_run_key_names,
			    NR_RKEYS, v);
	if (ret)
		return ret;
	at = v[RKEY_AT];
	run = &p->wl->runs[p->wl->nr_runs];
	memset(run, 0, sizeof(*run));
	snprintf(run->program_name, sizeof(run->program_name), "%s", tok[1]);
	run->loc = *loc;
	len = at ? strlen(at) : 0;
	if (len && at[len - 1] == '%') {
		ret = wl_parse_fixed4(at, len - 1, &run->at);
		if (ret == -EINVAL)
			return wl_fail(p, loc,
				       "at: bad percentage '%s' (at most 4 decimals)",
				       at);
		if (ret || run->at > WL_MAX_AT_PCT_PPM)
			return wl_fail(p, loc, "at=%s out of range 0..1000%%",
				       at);
		run->at_pct = 1;
	} else if (at) {
		ret = wl_key_u64(p, loc, "at", at, 0, WL_MAX_CYCLES, &run->at);
		if (ret)
			return ret;
	}
	ret = wl_run_requests(p, loc, v, run);
	if (ret)
		return ret;
	if (v[RKEY_CLASS]) {
		ret = wl_key_class(p, loc, v[RKEY_CLASS], &run->prio_class);
		if (ret)
			return ret;
	}
	ret = wl_run_tenant_keys(p, loc, v, run);
	if (ret)
		return ret;
	p->wl->nr_runs++;
	return 0;
}

static int wl_parse_path(struct wl_parser *p, const char *path,
			 const struct wl_loc *from);

static int wl_do_include(struct wl_parser *p, const struct wl_loc *loc,
			 char **tok, int ntok)
{
	char *path;
	int ret;

	if (ntok != 2)
		return wl_fail(p, loc, "usage: include FILE");
	path = wl_join(loc->file, tok[1]);
	if (!path)
		return wl_error(p, loc, -ENOMEM, "out of memory");
	ret = wl_parse_path(p, path, loc);
	free(path);
	/* Grid and run lines do not continue across an include. */
	p->prog = NULL;
	p->wl = NULL;
	return ret;
}

static const struct {
	const char *name;
	int (*fn)(struct wl_parser *p, const struct wl_loc *loc, char **tok,
		  int ntok);
} wl_keywords[] = {
	{ "program", wl_do_program },
	{ "grid", wl_do_grid },
	{ "workload", wl_do_workload },
	{ "run", wl_do_run },
	{ "include", wl_do_include },
};

static int wl_parse_line(struct wl_parser *p, const struct wl_loc *loc,
			 char *line)
{
	char *tok[WL_MAX_TOKENS], *save;
	unsigned int i;
	int ntok = 0;

	line[strcspn(line, "#")] = '\0';
	for (tok[0] = strtok_r(line, " \t\r\n", &save); tok[ntok];
	     tok[ntok] = strtok_r(NULL, " \t\r\n", &save)) {
		if (++ntok == WL_MAX_TOKENS)
			return wl_fail(p, loc, "more than %d words",
				       WL_MAX_TOKENS - 1);
	}
	if (!ntok)
		return 0;
	for (i = 0; i < sizeof(wl_keywords) / sizeof(wl_keywords[0]); i++) {
		bool block = !strcmp(tok[0], "program") ||
			     !strcmp(tok[0], "workload");
		int ret;

		if (strcmp(tok[0], wl_keywords[i].name))
			continue;
		/* the lines of a program or workload whose line failed */
		if (p->skip && !block && strcmp(tok[0], "include"))
			return 0;
		ret = wl_keywords[i].fn(p, loc, tok, ntok);
		if (block) {
			p->skip = ret != 0;
			if (ret) {
				p->prog = NULL;
				p->wl = NULL;
			}
		}
		return ret;
	}
	return wl_fail(p, loc, "unknown keyword '%s'", tok[0]);
}

static bool wl_same_file(const struct wl_file_id *a,
			 const struct wl_file_id *b)
{
	return a->dev == b->dev && a->ino == b->ino;
}

/*
 * Parse one file.  @from is the include line, NULL for the top-level
 * file.  A file included a second time (not recursively) is skipped, so a
 * shared definitions file may be included from several places.
 */
static int wl_parse_path(struct wl_parser *p, const char *path,
			 const struct wl_loc *from)
{
	struct wl_file_id id;
	struct wl_loc loc = { .line = 0 };
	struct input in;
	struct stat st;
	unsigned int i;
	int ret;

	ret = input_open(&in, path, 0);
	if (ret) {
		ret = wl_error(p, from, from ? -EINVAL : ret, "%s%s",
			       from ? "cannot include " : "", in.err);
		goto out;
	}
	if (fstat(fileno(in.f), &st)) {
		ret = wl_error(p, from, -errno, "%s: %s", path,
			       strerror(errno));
		goto out;
	}
	id.dev = st.st_dev;
	id.ino = st.st_ino;
	for (i = 0; i < p->depth; i++) {
		if (wl_same_file(&p->stack[i], &id)) {
			ret = wl_fail(p, from, "include loop: %s", path);
			goto out;
		}
	}
	if (p->depth > WL_MAX_DEPTH) {
		ret = wl_fail(p, from, "includes nested deeper than %d",
			      WL_MAX_DEPTH);
		goto out;
	}
	for (i = 0; i < p->nr_seen; i++)
		if (wl_same_file(&p->seen[i], &id))
			goto out;
	if (p->nr_seen == WL_MAX_FILES) {
		ret = wl_fail(p, from, "more than %d files", WL_MAX_FILES);
		goto out;
	}
	loc.file = wl_file_add(p->set, path);
	if (!loc.file) {
		ret = wl_error(p, from, -ENOMEM, "out of memory");
		goto out;
	}
	p->seen[p->nr_seen++] = id;
	p->stack[p->depth++] = id;
	p->prog = NULL;
	p->wl = NULL;
	p->skip = false;
	for (;;) {
		ret = input_line(&in);
		if (ret < 0)	/* a NUL byte, a read error */
			ret = wl_error(p, NULL, ret, "%s", in.err);
		if (ret <= 0)
			break;
		loc.line = in.nr;
		ret = wl_parse_line(p, &loc, in.line);
		if (!ret)
			continue;
		if (ret != -EINVAL || p->stop)
			break;
		/* a bad line: report it, go on with the next (issue 17) */
		if (++p->nr_errors == WL_MAX_ERRORS) {
			wl_error(p, NULL, ret, "%s: stopped after %d errors",
				 loc.file, WL_MAX_ERRORS);
			p->stop = true;
			break;
		}
		ret = 0;
	}
	p->depth--;
	if (!p->depth)
		p->last_line = loc.line;
out:
	input_close(&in);
	return ret;
}

/* Resolve run lines and check what single lines cannot. */
static int wl_check(struct wl_parser *p)
{
	struct wl_set *set = p->set;
	struct wl_loc end = { set->files[0], p->last_line };
	unsigned int i, j;

	for (i = 0; i < set->nr_programs; i++)
		if (!set->programs[i]->nr_grids)
			return wl_fail(p, &set->programs[i]->loc,
				       "program '%s' has no grids",
				       set->programs[i]->name);
	if (!set->nr_workloads && !(p->flags & WL_PARSE_PROGRAMS))
		return wl_fail(p, &end, "no workload defined");
	if (!set->nr_programs)
		return wl_fail(p, &end, "no program defined");
	for (i = 0; i < set->nr_workloads; i++) {
		struct wl_workload *wl = set->workloads[i];

		if (!wl->nr_runs)
			return wl_fail(p, &wl->loc,
				       "workload '%s' has no runs", wl->name);
		for (j = 0; j < wl->nr_runs; j++) {
			struct wl_run *run = &wl->runs[j];
			int k = wl_find_program(set, run->program_name);

			if (k < 0)
				return wl_fail(p, &run->loc,
					       "run of unknown program '%s'",
					       run->program_name);
			run->program = k;
			if ((unsigned long long)run->requests *
			    set->programs[k]->nr_grids > WL_MAX_LAUNCHES)
				return wl_fail(p, &run->loc,
					       "requests=%u of a program of %u grids: more than %u grid launches",
					       run->requests,
					       set->programs[k]->nr_grids,
					       WL_MAX_LAUNCHES);
			if ((run->has_slo_ttft || run->has_slo_tpot) &&
			    !wl_program_tokens(set->programs[k], NULL, NULL))
				return wl_fail(p, &run->loc,
					       "%s= needs a program with a token=1 grid; '%s' has none",
					       run->has_slo_ttft ? "slo-ttft" :
					       "slo-tpot", run->program_name);
		}
	}
	return 0;
}

/**
 * wl_parse_file() - parse a workload file and its includes
 * @path: the file.
 * @flags: %WL_PARSE_PROGRAMS: a file without workloads is fine.
 * @out: out: what it defines, to be freed with wl_free().
 * @err: out: on error, "FILE:LINE: reason", one line per error: every
 *	bad line up to %WL_MAX_ERRORS (reading goes on with the next line;
 *	the lines of a program or workload whose own line failed are
 *	skipped), then "FILE: stopped after 20 errors"; the checks of the
 *	whole file (runs of unknown programs, programs without grids) only
 *	when every line was good; a file that cannot be read, a NUL byte or
 *	an over-long line ends reading at once.
 * @errlen: size of @err (%WL_ERR_LEN holds 20 errors).
 *
 * Return: 0; -EINVAL for a malformed file (including a missing included
 * file), -errno if @path itself cannot be read, -ENOMEM.
 */
int wl_parse_file(const char *path, unsigned int flags, struct wl_set **out,
		  char *err, size_t errlen)
{
	struct wl_parser *p;
	int ret;

	*out = NULL;
	if (errlen)
		err[0] = '\0';
	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	p->err = err;
	p->errlen = errlen;
	p->flags = flags;
	p->set = calloc(1, sizeof(*p->set));
	if (p->set)
		p->set->path = strdup(path);
	if (!p->set || !p->set->path) {
		ret = wl_error(p, NULL, -ENOMEM, "out of memory");
		goto out;
	}
	ret = wl_parse_path(p, path, NULL);
	if (!ret && p->nr_errors)
		ret = -EINVAL;
	if (!ret)
		ret = wl_check(p);
out:
	if (ret)
		wl_free(p->set);
	else
		*out = p->set;
	free(p);
	return ret;
}

/**
 * wl_free() - free what wl_parse_file() returned
 * @set: the set, or NULL.
 */
void wl_free(struct wl_set *set)
{
	unsigned int i, j;

	if (!set)
		return;
	for (i = 0; i < set->nr_programs; i++) {
		for (j = 0; j < set->programs[i]->nr_grids; j++)
			free(set->programs[i]->grids[j].durations);
		free(set->programs[i]->grids);
		free(set->programs[i]);
	}
	for (i = 0; i < set->nr_workloads; i++)
		free(set->workloads[i]);
	for (i = 0; i < set->nr_files; i++)
		free(set->files[i]);
	free(set->files);
	free(set->path);
	free(set);
}

/**
 * wl_find_program() - look a program up by name
 * @set: the set.
 * @name: program name.
 *
 * Return: its index in &wl_set.programs, or -1.
 */
int wl_find_program(const struct wl_set *set, const char *name)
{
	unsigned int i;

	for (i = 0; i < set->nr_programs; i++)
		if (!strcmp(set->programs[i]->name, name))
			return i;
	return -1;
}

/**
 * wl_grid_equal() - do two grids describe the same work?
 * @a: a grid.
 * @b: another grid.
 *
 * Return: 1 if they describe the same work (where they were defined and
 * what runtime is expected do not matter), else 0.
 */
int wl_grid_equal(const struct wl_grid *a, const struct wl_grid *b)
{
	if (strcmp(a->label, b->label) || a->nr_blocks != b->nr_blocks ||
	    a->threads != b->threads || a->regs != b->regs ||
	    a->shmem != b->shmem || a->cycles != b->cycles ||
	    a->rsd_ppm != b->rsd_ppm || a->seed != b->seed ||
	    a->mem_ppm != b->mem_ppm || a->knee_mwarps != b->knee_mwarps ||
	    a->block_dist != b->block_dist ||
	    a->block_dist_param != b->block_dist_param ||
	    a->startup_ppm != b->startup_ppm ||
	    a->startup_blocks != b->startup_blocks ||
	    a->idempotent != b->idempotent || a->token != b->token ||
	    a->gap.value != b->gap.value || a->gap.ns != b->gap.ns ||
	    /* the same name: no class given is class=normal */
	    wl_class_name(a->prio_class) != wl_class_name(b->prio_class) ||
	    !a->durations != !b->durations)
		return 0;
	return !a->durations || !memcmp(a->durations, b->durations,
					a->nr_blocks * sizeof(__u64));
}

/**
 * wl_program_paper() - the name a program has in the paper
 * @prog: a program.
 *
 * Return: its ``paper=`` name, or its name when it has none.
 */
const char *wl_program_paper(const struct wl_program *prog)
{
	return prog->paper[0] ? prog->paper : prog->name;
}

/**
 * wl_program_equal() - do two programs describe the same work?
 * @a: a program.
 * @b: another program.
 *
 * Return: 1 if they have the same name and equal grids, else 0.
 */
int wl_program_equal(const struct wl_program *a, const struct wl_program *b)
{
	unsigned int i;

	if (strcmp(a->name, b->name) || a->nr_grids != b->nr_grids)
		return 0;
	for (i = 0; i < a->nr_grids; i++)
		if (!wl_grid_equal(&a->grids[i], &b->grids[i]))
			return 0;
	return 1;
}

/**
 * wl_time_cycles() - a workload file's time in emulated cycles
 * @t: the time.
 * @clock_khz: the device's clock (&gtbs_dev_config.clock_khz,
 *	&gputbs_info.clock_khz), kHz.
 *
 * Return: @t's cycles as given, or its ns times @clock_khz / 10^6 rounded
 * to the nearest cycle (at most 2^40 ns * clock: no overflow).
 */
__u64 wl_time_cycles(const struct wl_time *t, __u32 clock_khz)
{
	if (!t->ns)
		return t->value;
	return (__u64)(((unsigned __int128)t->value * clock_khz + 500000) /
		       1000000);
}

/**
 * wl_rand_next() - the request generator's PRNG: SplitMix64
 * @state: its state, advanced.
 *
 * state += 0x9e3779b97f4a7c15; z = state; z = (z ^ z >> 30) *
 * 0xbf58476d1ce4e5b9; z = (z ^ z >> 27) * 0x94d049bb133111eb; z ^ z >> 31.
 *
 * Return: the next 64-bit value.
 */
__u64 wl_rand_next(__u64 *state)
{
	__u64 z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/**
 * wl_exp_q32() - an exponential variate of mean 1 from a random value
 * @r: a value of wl_rand_next().
 *
 * Inversion in integer arithmetic: u = (top 32 bits of @r + 1) / 2^32,
 * in (0, 1]; the result is -ln(u) = (32 - log2(top + 1)) * ln 2, with
 * log2 computed bit by bit in Q32 (squaring the mantissa), so it is the
 * same on every machine.
 *
 * Return: -ln(u) in Q32 fixed point (0 .. 22.2 * 2^32).
 */
__u64 wl_exp_q32(__u64 r)
{
	/* ln 2 in Q32, rounded */
	const unsigned __int128 ln2_q32 = 2977044472ULL;
	__u64 k = (r >> 32) + 1;	/* 1 .. 2^32 */
	__u64 ipart = 63 - __builtin_clzll(k), log2_q32, m;
	unsigned int i;

	/* mantissa in Q31 in [1, 2): k / 2^ipart */
	m = ipart >= 31 ? k >> (ipart - 31) : k << (31 - ipart);
	log2_q32 = ipart << 32;
	for (i = 1; i <= 32; i++) {
		m = (m * m) >> 31;	/* < 2^33: no overflow */
		if (m >= (2ULL << 31)) {
			m >>= 1;
			log2_q32 |= 1ULL << (32 - i);
		}
	}
	return (__u64)(((32ULL << 32) - log2_q32) * ln2_q32 >> 32);
}

/**
 * wl_run_tenant() - the name of a run's tenant
 * @run: the run.
 * @prog: its program.
 *
 * Return: its ``tenant=``, or without the key its program's name (the run
 * is a tenant of its own).
 */
const char *wl_run_tenant(const struct wl_run *run,
			  const struct wl_program *prog)
{
	return run->tenant[0] ? run->tenant : prog->name;
}

/**
 * wl_run_has_slo() - does a run have an SLO
 * @run: the run.
 *
 * Return: 1 with ``slo=``, ``slo-ttft=`` or ``slo-tpot=``, else 0.
 */
int wl_run_has_slo(const struct wl_run *run)
{
	return run->has_slo || run->has_slo_ttft || run->has_slo_tpot;
}

/**
 * wl_run_grid_class() - the class a grid of a run is submitted in
 * @run: the run, or NULL (alone: the grid's own).
 * @g: a grid of its program.
 *
 * Return: the run's ``class=`` (&wl_run.prio_class) where it gives one,
 * else the grid's &wl_grid.prio_class (%GPUTBS_PRIO_DEFAULT: normal).
 */
__u32 wl_run_grid_class(const struct wl_run *run, const struct wl_grid *g)
{
	if (run && run->prio_class != GPUTBS_PRIO_DEFAULT)
		return run->prio_class;
	return g->prio_class;
}

/**
 * wl_program_tokens() - the output tokens of one request of a program
 * @prog: the program.
 * @first: out (unless NULL): the index of its first ``token=1`` grid.
 * @last: out (unless NULL): the index of its last ``token=1`` grid.
 *
 * Return: its grids with ``token=1``, the tokens a request emits; 0: none
 * (then @first and @last are left alone).
 */
unsigned int wl_program_tokens(const struct wl_program *prog,
			       unsigned int *first, unsigned int *last)
{
	unsigned int k, n = 0;

	for (k = 0; k < prog->nr_grids; k++) {
		if (!prog->grids[k].token)
			continue;
		if (!n && first)
			*first = k;
		if (last)
			*last = k;
		n++;
	}
	return n;
}

/**
 * wl_run_open() - are a run's requests an open loop?
 * @run: the run.
 *
 * Return: 1 with ``rate=`` (arrivals fixed in advance, wl_run_arrivals()),
 * 0 for a closed loop (arrivals follow the ends of earlier requests).
 */
int wl_run_open(const struct wl_run *run)
{
	return run->rate_e4 != 0;
}

/**
 * wl_run_saturating() - the run that measures a stream's alone service rate
 * @run: an open-loop run (wl_run_open()).
 * @out: out: @run as a closed loop with all its requests outstanding at
 *	once (``outstanding=`` = ``requests=``, no ``think=``): run alone,
 *	it keeps the device as busy as the stream can, and its requests over
 *	the time from the first arrival to the last end are the stream's
 *	alone service rate, the unit of wl_workload_at_load()'s load.
 *
 * Requests of one stream overlap on the device (each is its own chain of
 * grids), so the rate at which a stream saturates the device is above one
 * over a request's latency whenever a request leaves SMs idle (the batch-1
 * inference grids of workloads/scenarios/).  Shared by gputbs-sim sweep,
 * gputbs-sim run --load and gputbs run --load.
 */
void wl_run_saturating(const struct wl_run *run, struct wl_run *out)
{
	*out = *run;
	out->arrival = WL_ARRIVAL_CLOSED;
	out->rate_e4 = 0;
	out->outstanding = run->requests;
	memset(&out->think, 0, sizeof(out->think));
}

/**
 * wl_workload_at_load() - a workload's request streams at a given load
 * @wl: the workload as its file gives it.
 * @alone: per run of @wl, cycles per request alone, each at least 1: for
 *	an open-loop run its alone service interval (wl_run_saturating()'s
 *	time from first arrival to last end over its requests), for a closed
 *	loop the latency of one request (its program alone on a fresh
 *	device).
 * @load_ppm: the load, parts per million of each open-loop stream's alone
 *	service rate, 1..%WL_MAX_LOAD_PPM (1000000: the rate at which the
 *	stream alone saturates the device, wl_run_saturating()).
 * @duration: how long the open-loop streams run, cycles; 0: each for the
 *	span its file gives it (``requests=`` / ``rate=``, as written).
 * @clock_khz: the device's clock, kHz (converts cycles to seconds).
 * @out: out: @wl with its runs' request streams rescaled; runs without
 *	requests (one request, no ``rate=``) and every other key unchanged.
 *
 * Issue 31's sweep (gputbs-sim sweep, gputbs run --load):
 *
 * - an open-loop run (``rate=``) gets ``rate`` = load / @alone, rounded
 *   down to the format's 4 decimals (at least 0.0001), and as many
 *   requests as arrive at that rate in @duration (or its own span),
 *   ceil(rate x duration), 1..%WL_MAX_REQUESTS; ``arrival=`` and
 *   ``seed=`` stay.  A stream thus runs as long at every load, in a
 *   steady state rather than a burst, and its p99 comes from more
 *   requests as the load grows;
 * - a closed-loop run of several requests (a training loop:
 *   ``outstanding=``) gets as many requests as cover the open-loop
 *   streams' span, the longest of their requests / rate, at its alone
 *   latency per request: ceil(span / alone), times its
 *   ``outstanding=``, 1..%WL_MAX_REQUESTS (the rule by which
 *   workloads/scenarios/gen-scenarios.py sized the training loops).
 *   Without an open-loop run it keeps its count.
 *
 * So the best-effort loop runs as long as the latency-critical streams
 * at every load, and its throughput is measured beside them.
 *
 * Return: 0, or -EINVAL when @load_ppm or an @alone is out of range.
 */
int wl_workload_at_load(const struct wl_workload *wl, const __u64 *alone,
			__u32 load_ppm, __u64 duration, __u32 clock_khz,
			struct wl_workload *out)
{
	const unsigned __int128 hz_e4 = (unsigned __int128)clock_khz * 10000000;
	unsigned __int128 span = 0;	/* cycles */
	unsigned int r;

	if (!load_ppm || load_ppm > WL_MAX_LOAD_PPM || !clock_khz ||
	    duration > WL_MAX_CYCLES)
		return -EINVAL;
	for (r = 0; r < wl->nr_runs; r++)
		if (!alone[r])
			return -EINVAL;
	*out = *wl;
	for (r = 0; r < wl->nr_runs; r++) {
		struct wl_run *run = &out->runs[r];
		unsigned __int128 t, n;

		if (!wl_run_open(run))
			continue;
		/* its own span: requests / rate as written, cycles */
		t = duration ? duration :
		    run->requests * hz_e4 / run->rate_e4;
		/* rate x 10^4 = load x clock (Hz) x 10^4 / alone */
		n = (unsigned __int128)load_ppm * clock_khz * 10 / alone[r];
		run->rate_e4 = n ? (__u64)n : 1;
		/* requests arriving in t: ceil(t x rate) */
		n = (t * run->rate_e4 + hz_e4 - 1) / hz_e4;
		run->requests = n < 1 ? 1 :
				n > WL_MAX_REQUESTS ? WL_MAX_REQUESTS : (__u32)n;
		t = run->requests * hz_e4 / run->rate_e4;
		if (t > span)
			span = t;
	}
	if (!span)
		return 0;
	for (r = 0; r < wl->nr_runs; r++) {
		struct wl_run *run = &out->runs[r];
		unsigned __int128 n;

		if (wl_run_open(run) || run->requests < 2)
			continue;
		n = (span + alone[r] - 1) / alone[r];
		n *= run->outstanding ? run->outstanding : 1;
		run->requests = n < 1 ? 1 :
				n > WL_MAX_REQUESTS ? WL_MAX_REQUESTS : (__u32)n;
	}
	return 0;
}

/**
 * wl_run_arrivals() - the arrival cycles of an open-loop run's requests
 * @run: the run, with wl_run_open().
 * @clock_khz: the device's clock, kHz.
 * @at: the arrival of the first request (the run's ``at=``), cycles.
 * @arrive: out: &wl_run.requests arrival cycles, non-decreasing.
 *
 * The mean inter-arrival time is T = clock / rate cycles.  Fixed: request
 * i arrives at @at + floor(i * T) (no drift).  Poisson: request 0 at @at,
 * each next one exp(1) * T cycles (wl_exp_q32() of wl_rand_next() seeded
 * with &wl_run.seed, rounded down) after the one before.
 */
void wl_run_arrivals(const struct wl_run *run, __u32 clock_khz, __u64 at,
		     __u64 *arrive)
{
	/* clock in Hz times 10^4, over rate times 10^4 */
	unsigned __int128 hz_e4 = (unsigned __int128)clock_khz * 1000 * 10000;
	__u64 state = run->seed, t = at;
	__u32 i;

	for (i = 0; i < run->requests; i++) {
		if (run->arrival != WL_ARRIVAL_POISSON) {
			arrive[i] = at + (__u64)(hz_e4 * i / run->rate_e4);
			continue;
		}
		if (i)
			t += (__u64)((hz_e4 * wl_exp_q32(wl_rand_next(&state)) /
				      run->rate_e4) >> 32);
		arrive[i] = t;
	}
}

/**
 * wl_errors() - each error of wl_parse_file(), one at a time
 * @err: its error buffer: errors one per line.
 * @fn: called with each, without the newline (printed by the caller
 *	with its prefix, "gputbs: ").
 */
void wl_errors(const char *err, void (*fn)(const char *line))
{
	char line[1024];
	const char *nl;
	size_t n;

	for (;;) {
		nl = strchr(err, '\n');
		n = nl ? (size_t)(nl - err) : strlen(err);
		if (n >= sizeof(line))
			n = sizeof(line) - 1;
		memcpy(line, err, n);
		line[n] = '\0';
		fn(line);
		if (!nl)
			break;
		err = nl + 1;
	}
}
