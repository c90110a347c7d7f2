// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_tenant.c - "gputbs tenant": the module's tenants through the gputbs
 * generic netlink family (tenant-get, tenant-set): list them with their
 * weight, cap and accounting, or set a tenant's weight or cap.
 *
 * A tenant is the cgroup v2 of the tasks that submit grids, or the open
 * file of a task in the root cgroup (Documentation/scheduling.rst,
 * "Tenants").  Its SM time comes in 1/1000000 SM-cycles; the list shows
 * SM-cycles.  A cgroup tenant's path is found by walking /sys/fs/cgroup
 * for the directory of its id (gputbs_cgroup_id()), once per command.
 *
 * Copyright (C) 2026 The gputbs developers
 */
#include <errno.h>
#include <ftw.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statfs.h>
#include <linux/magic.h>

#include "cli.h"
#include "gtbs_names.h"
#include "../lib/json.h"
#include "monitor_fmt.h"
#include "../lib/workload.h"

#define CGROUP_ROOT	"/sys/fs/cgroup"
#define SM_TIME_UNIT	1000000.0	/* sm_time per SM-cycle */

static const char usage_tenant[] =
	"Usage: gputbs tenant [list] [--json]\n"
	"       gputbs tenant set (--cgroup PATH | --cgroup-id ID | --client ID)\n"
	"                         [--weight W] [--max PCT|none]\n"
	"\n"
	"The module's tenants, through the gputbs netlink family: the cgroup\n"
	"v2 of the tasks that submit grids, or the open file of a task in the\n"
	"root cgroup (kind file, its drm-client-id).\n"
	"\n"
	"list (the default) prints one line per tenant: kind, id, weight, cap,\n"
	"grids in the device, SM time held (SM-cycles: a block of a grid of\n"
	"residency R holds 1/R of an SM), whether it is throttled by its cap,\n"
	"the cycles it spent throttled and how often, and a cgroup's path.\n"
	"\n"
	"set changes a tenant's weight (1..10000, as cpu.weight) or cap\n"
	"(percent of the device's SM time, 0.0001..100 with up to 4 decimals,\n"
	"or none), as root for any tenant; without CAP_SYS_ADMIN only for the\n"
	"caller's own cgroup (or a descendant) or file, and only lower.\n"
	"\n"
	"  -j, --json            list: one JSON object\n"
	"  -c, --cgroup PATH     set: the tenant of cgroup directory PATH\n"
	"  -C, --cgroup-id ID    set: the tenant of the cgroup of id ID\n"
	"  -F, --client ID       set: the tenant of the file of drm-client-id ID\n"
	"  -w, --weight W        set: its weight\n"
	"  -m, --max PCT|none    set: its cap, or none to remove it\n"
	"  -h, --help            this help\n";

static const char *kind_name(__u32 kind)
{
	static const char * const names[] = {
		GTBS_TENANT_KIND_NAMES(GPUTBS_TENANT_KIND_)
	};

	return kind < sizeof(names) / sizeof(names[0]) ? names[kind] : "?";
}

static __u64 tenant_id(const struct gputbs_mon_tenant *t)
{
	if (t->kind == GPUTBS_TENANT_KIND_CGROUP)
		return t->cgroup_id;
	if (t->kind == GPUTBS_TENANT_KIND_FILE)
		return t->client_id;
	return 0;
}

/* The cgroups whose paths the walk looks for, and what it found. */
static struct {
	const struct gputbs_mon_tenant *tenants;
	size_t nr;
	char **paths;
	size_t left;
} walk;

static int walk_one(const char *path, const struct stat *st, int type,
		    struct FTW *ftw)
{
	size_t i;
	__u64 id;

	(void)st;
	(void)ftw;
	if (type != FTW_D || gputbs_cgroup_id(path, &id))
		return 0;
	for (i = 0; i < walk.nr; i++) {
		if (walk.tenants[i].kind != GPUTBS_TENANT_KIND_CGROUP ||
		    walk.tenants[i].cgroup_id != id || walk.paths[i])
			continue;
		walk.paths[i] = strdup(path);
		if (walk.paths[i] && !--walk.left)
			return 1;	/* every one found */
	}
	return 0;
}

/*
 * The path of each cgroup tenant under /sys/fs/cgroup, or NULL where
 * none is found (a cgroup removed since, another mount); NULL for the
 * others.  Returns a calloc()ed array of @nr entries, or NULL.
 */
static char **cgroup_paths(const struct gputbs_mon_tenant *t, size_t nr)
{
	struct statfs sfs;
	size_t i;

	walk.tenants = t;
	walk.nr = nr;
	walk.left = 0;
	walk.paths = calloc(nr ? nr : 1, sizeof(*walk.paths));
	if (!walk.paths)
		return NULL;
	for (i = 0; i < nr; i++)
		if (t[i].kind == GPUTBS_TENANT_KIND_CGROUP)
			walk.left++;
	if (walk.left && !statfs(CGROUP_ROOT, &sfs) &&
	    sfs.f_type == CGROUP2_SUPER_MAGIC)
		nftw(CGROUP_ROOT, walk_one, 16, FTW_PHYS | FTW_MOUNT);
	return walk.paths;
}

static void format_max(char *buf, size_t len, __u32 max_ppm)
{
	char pct[16];

	if (max_ppm)
		snprintf(buf, len, "%s%%", wl_fmt_pct(max_ppm, pct,
							  sizeof(pct)));
	else
		snprintf(buf, len, "-");
}

static void list_text(const struct gputbs_mon_dev *d,
		      const struct gputbs_mon_tenant *t, size_t nr,
		      char **paths)
{
	char cap[24];
	size_t i;

	printf("tenants of %u SMs at cycle %" PRIu64 " (SM time in SM-cycles, throttled in cycles; cap period %" PRIu64 " cycles)\n",
	       d->nr_sms, (uint64_t)d->now_cycle, (uint64_t)d->cap_period);
	printf("%-6s  %20s  %6s  %9s  %5s  %16s  %9s  %14s  %9s  %s\n", "kind",
	       "id", "weight", "max", "grids", "sm-cycles", "throttled",
	       "throttled-cyc", "throttles", "path");
	for (i = 0; i < nr; i++) {
		format_max(cap, sizeof(cap), t[i].max_ppm);
		printf("%-6s  %20" PRIu64 "  %6u  %9s  %5u  %16.0f  %9s  %14" PRIu64 "  %9" PRIu64 "  %s\n",
		       kind_name(t[i].kind), (uint64_t)tenant_id(&t[i]),
		       t[i].weight, cap, t[i].grids,
		       (double)t[i].sm_time / SM_TIME_UNIT,
		       t[i].throttled ? "yes" : "no",
		       (uint64_t)t[i].throttled_cycles,
		       (uint64_t)t[i].throttles,
		       paths && paths[i] ? paths[i] : "-");
	}
}

static void list_json(const struct gputbs_mon_dev *d,
		      const struct gputbs_mon_tenant *t, size_t nr,
		      char **paths)
{
	struct json j;
	size_t i;

	json_init(&j, stdout);
	json_obj(&j, NULL);
	json_u64(&j, "nr_sms", d->nr_sms);
	json_u64(&j, "now_cycle", d->now_cycle);
	json_u64(&j, "cap_period", d->cap_period);
	json_arr(&j, "tenants");
	for (i = 0; i < nr; i++) {
		json_obj(&j, NULL);
		json_str(&j, "kind", kind_name(t[i].kind));
		if (t[i].kind == GPUTBS_TENANT_KIND_CGROUP)
			json_u64(&j, "cgroup_id", t[i].cgroup_id);
		if (t[i].kind == GPUTBS_TENANT_KIND_FILE)
			json_u64(&j, "client_id", t[i].client_id);
		if (paths && paths[i])
			json_str(&j, "path", paths[i]);
		json_u64(&j, "weight", t[i].weight);
		if (t[i].max_ppm)
			json_double(&j, "max", t[i].max_ppm / 10000.0);
		json_u64(&j, "grids", t[i].grids);
		json_u64(&j, "sm_time", t[i].sm_time);
		json_u64(&j, "now_cycle", t[i].now_cycle);
		json_boolean(&j, "throttled", t[i].throttled);
		json_u64(&j, "throttled_cycles", t[i].throttled_cycles);
		json_u64(&j, "throttles", t[i].throttles);
		json_obj_end(&j);
	}
	json_arr_end(&j);
	json_obj_end(&j);
	json_end(&j);
}

/* "gputbs: tenant-get: ..." for an error of a request to the module. */
static int tenant_error(struct gputbs_monitor *m, const char *what, int err)
{
	const char *msg = gputbs_monitor_errmsg(m);

	if (err == -EOPNOTSUPP)
		err_msg("%s: the module has no tenants (a module older than tenant-get)",
			what);
	else if (err == -EPERM || err == -EACCES)
		err_msg("%s: %s%s%s (raising a weight or a cap, or setting another's tenant, needs CAP_SYS_ADMIN)",
			what, gputbs_strerror(err), msg[0] ? ": " : "", msg);
	else
		err_msg("%s: %s%s%s", what, gputbs_strerror(err),
			msg[0] ? ": " : "", msg);
	return EXIT_DEVICE;
}

static int tenant_list(bool json)
{
	struct gputbs_mon_tenant *t = NULL;
	struct gputbs_monitor *m;
	struct gputbs_mon_dev d;
	char **paths;
	size_t nr = 0, i;
	int ret;

	ret = gputbs_monitor_open(0, &m);
	if (ret)
		return monitor_error(ret);
	ret = gputbs_monitor_get_device(m, &d, sizeof(d));
	if (ret) {
		gputbs_monitor_close(m);
		return monitor_error(ret);
	}
	ret = gputbs_monitor_dump_tenants(m, &t, sizeof(*t), &nr);
	if (ret) {
		ret = tenant_error(m, "tenant-get", ret);
		gputbs_monitor_close(m);
		return ret;
	}
	gputbs_monitor_close(m);
	paths = cgroup_paths(t, nr);
	if (json)
		list_json(&d, t, nr, paths);
	else
		list_text(&d, t, nr, paths);
	for (i = 0; paths && i < nr; i++)
		free(paths[i]);
	free(paths);
	free(t);
	return 0;
}

/* A decimal id > 0. */
static int parse_id(const char *s, __u64 *out)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end || !*s || *s == '-' || !v)
		return -EINVAL;
	*out = v;
	return 0;
}

/**
 * struct set_args - the command line of "gputbs tenant set"
 * @cgroup: --cgroup PATH, or NULL.
 * @req: the request: its tenant (--cgroup-id, --client) and values.
 * @nr_who: tenants named (exactly one is right).
 */
struct set_args {
	const char *cgroup;
	struct gputbs_tenant_set req;
	unsigned int nr_who;
};

/* Returns 0, EXIT_USAGE, or -1 after printing the help. */
static int parse_set(int argc, char **argv, struct set_args *a)
{
	static const struct option opts[] = {
		{ "cgroup", required_argument, NULL, 'c' },
		{ "cgroup-id", required_argument, NULL, 'C' },
		{ "client", required_argument, NULL, 'F' },
		{ "weight", required_argument, NULL, 'w' },
		{ "max", required_argument, NULL, 'm' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned long long v;
	char *end;
	int c, ret;

	while ((c = getopt_long(argc, argv, "c:C:F:w:m:h", opts, NULL)) !=
	       -1) {
		switch (c) {
		case 'c':
			if (!*optarg)
				return usage_error(usage_tenant,
						   "bad --cgroup '%s'", optarg);
			a->cgroup = optarg;
			a->nr_who++;
			break;
		case 'C':
			if (parse_id(optarg, &a->req.cgroup_id))
				return usage_error(usage_tenant,
						   "bad --cgroup-id '%s'",
						   optarg);
			a->nr_who++;
			break;
		case 'F':
			if (parse_id(optarg, &a->req.client_id))
				return usage_error(usage_tenant,
						   "bad --client '%s'", optarg);
			a->nr_who++;
			break;
		case 'w':
			errno = 0;
			v = strtoull(optarg, &end, 10);
			if (errno || *end || !*optarg || *optarg == '-' ||
			    !v || v > WL_WEIGHT_MAX)
				return usage_error(usage_tenant,
						   "bad --weight '%s' (1..10000)",
						   optarg);
			a->req.weight = v;
			break;
		case 'm':
			if (!strcmp(optarg, "none")) {
				a->req.max_ppm = GPUTBS_TENANT_MAX_NONE;
				break;
			}
			ret = wl_parse_max(optarg, &a->req.max_ppm);
			if (ret == -EINVAL)
				return usage_error(usage_tenant,
						   "bad --max '%s' (a percentage with at most 4 decimals, or none)",
						   optarg);
			if (ret)
				return usage_error(usage_tenant,
						   "--max %s out of range 0.0001..100 (percent)",
						   optarg);
			break;
		case 'h':
			fputs(usage_tenant, stdout);
			return -1;
		default:
			fputs(usage_tenant, stderr);
			return EXIT_USAGE;
		}
	}
	if (optind < argc)
		return usage_error(usage_tenant, "unexpected argument '%s'",
				   argv[optind]);
	if (a->nr_who != 1)
		return usage_error(usage_tenant, "%s",
				   "set needs exactly one of --cgroup, --cgroup-id and --client");
	if (!a->req.weight && !a->req.max_ppm)
		return usage_error(usage_tenant, "%s",
				   "set needs --weight or --max");
	return 0;
}

static int tenant_set(int argc, char **argv)
{
	struct gputbs_monitor *m;
	struct set_args a;
	int ret;

	memset(&a, 0, sizeof(a));
	ret = parse_set(argc, argv, &a);
	if (ret)
		return ret < 0 ? 0 : ret;
	if (a.cgroup) {
		ret = gputbs_cgroup_id(a.cgroup, &a.req.cgroup_id);
		if (ret == -EMEDIUMTYPE) {
			err_msg("--cgroup %s: not a directory of a cgroup v2 file system",
				a.cgroup);
			return EXIT_USAGE;
		}
		if (ret) {
			err_msg("--cgroup %s: %s", a.cgroup,
				gputbs_strerror(ret));
			return EXIT_USAGE;
		}
	}
	ret = gputbs_monitor_open(0, &m);
	if (ret)
		return monitor_error(ret);
	ret = gputbs_monitor_set_tenant(m, &a.req, sizeof(a.req));
	if (ret)
		ret = tenant_error(m, "tenant-set", ret);
	gputbs_monitor_close(m);
	return ret;
}

int cmd_tenant(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	bool json = false;
	int c;

	static char set_name[] = "gputbs tenant set";
	static char list_name[] = "gputbs tenant list";

	/* getopt_long() prefixes its messages with argv[0] */
	if (argc > 1 && !strcmp(argv[1], "set")) {
		argv[1] = set_name;
		return tenant_set(argc - 1, argv + 1);
	}
	if (argc > 1 && !strcmp(argv[1], "list")) {
		argv[1] = list_name;
		argc--;
		argv++;
	}
	while ((c = getopt_long(argc, argv, "jh", opts, NULL)) != -1) {
		switch (c) {
		case 'j':
			json = true;
			break;
		case 'h':
			fputs(usage_tenant, stdout);
			return 0;
		default:
			fputs(usage_tenant, stderr);
			return EXIT_USAGE;
		}
	}
	if (optind < argc)
		return usage_error(usage_tenant, "unexpected argument '%s'",
				   argv[optind]);
	return tenant_list(json);
}
