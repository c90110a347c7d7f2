// SPDX-License-Identifier: GPL-2.0
/*
 * run_tenants.c - the tenants of "gputbs run" on the module: one cgroup v2
 * per tenant of a workload, its weight and cap set through the netlink
 * family before its runs submit, and every run's SM share from its block
 * records (Documentation/workloads.rst, "Tenants").
 *
 * In the module a grid's tenant is the cgroup v2 of the task that submits
 * it.  For a workload with tenant keys, "gputbs run" (as root, with
 * cgroup2 at /sys/fs/cgroup) makes /sys/fs/cgroup/gputbs-run.PID/ and in
 * it one cgroup per tenant of the workload, named after the tenant
 * (gputbs-sim's names: its tenant=, else its program's), sets its weight
 * and cap with tenant-set, and each run's process moves itself into its
 * tenant's cgroup (a write of "0" to cgroup.procs moves the writer)
 * before it opens /dev/gputbs.  The cgroups are removed once the
 * processes are reaped, so that every workload (and every policy's round)
 * starts with fresh tenants, as the simulator makes them at cycle 0.
 *
 * Copyright (C) 2026 The gputbs developers
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <time.h>
#include <unistd.h>
#include <linux/magic.h>

#include "run.h"

#define CGROUP_ROOT		"/sys/fs/cgroup"
#define RMDIR_TRIES		100	/* 10 ms apart: a second */

/**
 * run_cgroups_init() - the directory of this command's tenant cgroups
 * @cg: out: its state, @cg->root made.
 *
 * Return: 0; -EPERM when not root (effective uid 0); -EMEDIUMTYPE when
 * /sys/fs/cgroup is not a cgroup2 file system; or the negative errno of
 * mkdir().
 */
int run_cgroups_init(struct run_cgroups *cg)
{
	struct statfs sfs;

	memset(cg, 0, sizeof(*cg));
	if (geteuid())
		return -EPERM;
	if (statfs(CGROUP_ROOT, &sfs) || sfs.f_type != CGROUP2_SUPER_MAGIC)
		return -EMEDIUMTYPE;
	snprintf(cg->root, sizeof(cg->root), CGROUP_ROOT "/gputbs-run.%d",
		 (int)getpid());
	if (mkdir(cg->root, 0755))
		return -errno;
	cg->made = true;
	return 0;
}

/* rmdir() a cgroup, again while its last tasks are still being released. */
static int run_cgroup_rmdir(const char *path)
{
	struct timespec ts = { .tv_nsec = 10000000 };
	int i;

	for (i = 0; i < RMDIR_TRIES; i++) {
		if (!rmdir(path) || errno == ENOENT)
			return 0;
		if (errno != EBUSY)
			return -errno;
		nanosleep(&ts, NULL);
	}
	return -EBUSY;
}

/* Remove the cap that run_cgroup_tenant() gave cgroup @i's tenant. */
static int run_cgroup_uncap(struct run_cgroups *cg, unsigned int i)
{
	struct gputbs_tenant_set req = {
		.cgroup_id = cg->capped[i],
		.max_ppm = GPUTBS_TENANT_MAX_NONE,
	};

	if (!cg->capped[i] || !cg->mon)
		return 0;
	cg->capped[i] = 0;
	return gputbs_monitor_set_tenant(cg->mon, &req, sizeof(req));
}

/**
 * run_cgroups_drop() - remove the tenants' cgroups of one execution
 * @cg: the cgroups, or NULL (none); their processes reaped.
 *
 * A capped tenant's cap is removed first: the module keeps a cgroup's
 * tenant after the cgroup is gone, and while any tenant is capped sysfs
 * cap_period refuses writes.
 *
 * Return: 0, or the negative errno of the first tenant-set or rmdir()
 * that failed (the others are tried all the same).
 */
int run_cgroups_drop(struct run_cgroups *cg)
{
	unsigned int i;
	int ret = 0, r;

	if (!cg)
		return 0;
	for (i = 0; i < cg->nr; i++) {
		r = run_cgroup_uncap(cg, i);
		if (r && !ret)
			ret = r;
		r = run_cgroup_rmdir(cg->paths[i]);
		if (r && !ret)
			ret = r;
	}
	cg->nr = 0;
	return ret;
}

/**
 * run_cgroups_exit() - remove every cgroup of the command
 * @cg: the cgroups, or NULL (none); their processes reaped.
 *
 * Return: 0, or a negative errno of rmdir().
 */
int run_cgroups_exit(struct run_cgroups *cg)
{
	int ret = run_cgroups_drop(cg), r;

	if (cg && cg->made) {
		r = run_cgroup_rmdir(cg->root);
		ret = ret ?: r;
		cg->made = false;
	}
	return ret;
}

/* Is @name one of the cgroups made already? */
static bool run_cgroup_taken(const struct run_cgroups *cg, const char *name)
{
	size_t len = strlen(cg->root) + 1;
	unsigned int i;

	for (i = 0; i < cg->nr; i++)
		if (!strcmp(cg->paths[i] + len, name))
			return true;
	return false;
}

/*
 * Make the cgroup of a tenant named @tenant: the name with every byte but
 * letters, digits, '-' and '_' as '_' (so no name is a cgroup interface
 * file, which all have a '.'), and "-2", "-3"... after a name taken.  Its
 * path is @cg->paths[@cg->nr++].
 */
static int run_cgroup_make(struct run_cgroups *cg, const char *tenant)
{
	char name[WL_NAME_LEN], uniq[WL_NAME_LEN + 16];
	char path[RUN_CGROUP_PATH];
	unsigned int n = 1;
	size_t i;

	if (cg->nr == RUN_MAX_CGROUPS)
		return -ENOSPC;
	for (i = 0; tenant[i] && i < sizeof(name) - 1; i++)
		name[i] = (tenant[i] >= 'a' && tenant[i] <= 'z') ||
			  (tenant[i] >= 'A' && tenant[i] <= 'Z') ||
			  (tenant[i] >= '0' && tenant[i] <= '9') ||
			  tenant[i] == '-' || tenant[i] == '_' ? tenant[i] :
								 '_';
	name[i] = '\0';
	snprintf(uniq, sizeof(uniq), "%s", name);
	while (run_cgroup_taken(cg, uniq))
		snprintf(uniq, sizeof(uniq), "%s-%u", name, ++n);
	snprintf(path, sizeof(path), "%s/%s", cg->root, uniq);
	if (mkdir(path, 0755))
		return -errno;
	cg->capped[cg->nr] = 0;
	memcpy(cg->paths[cg->nr++], path, sizeof(path));
	return 0;
}

/*
 * Make a cgroup for tenant @tenant and give its module tenant @weight and
 * @max_ppm (0: none).  On failure *@what says which step.
 */
static int run_cgroup_tenant(struct run_cgroups *cg,
			     struct gputbs_monitor *m, const char *tenant,
			     __u32 weight, __u32 max_ppm, const char **what)
{
	struct gputbs_tenant_set req = {
		.weight = weight ?: WL_WEIGHT_DEFAULT,
		.max_ppm = max_ppm,
	};
	int ret;

	*what = "mkdir";
	ret = run_cgroup_make(cg, tenant);
	if (ret)
		return ret;
	*what = "cgroup id";
	ret = gputbs_cgroup_id(cg->paths[cg->nr - 1], &req.cgroup_id);
	if (ret)
		return ret;
	*what = "tenant-set";
	cg->mon = m;
	ret = gputbs_monitor_set_tenant(m, &req, sizeof(req));
	if (!ret && max_ppm)
		cg->capped[cg->nr - 1] = req.cgroup_id;
	return ret;
}

/**
 * run_cgroups_workload() - the tenants of a workload execution
 * @cg: the command's cgroups (run_cgroups_init()), none made for another
 *	execution.
 * @m: the netlink family, for tenant-set.
 * @res: the execution; out: @res->cgroups, the cgroup of each run.
 * @failed_run: out: on error, the run whose tenant failed.
 * @what: out: on error, the step: "mkdir", "cgroup id" or "tenant-set".
 *
 * Every tenant of the workload (&wl_run.tenant_id) gets a cgroup, with
 * the weight and cap of its runs; a run without ``tenant=`` is a tenant
 * of its own, named after its program.
 *
 * Return: 0 or a negative errno; on error the cgroups made stay in @cg
 * for run_cgroups_drop().
 */
int run_cgroups_workload(struct run_cgroups *cg, struct gputbs_monitor *m,
			 struct workload_result *res, unsigned int *failed_run,
			 const char **what)
{
	const struct wl_workload *wl = res->wl;
	int first[WL_MAX_RUNS];
	unsigned int i;
	int ret;

	for (i = 0; i < WL_MAX_RUNS; i++)
		first[i] = -1;
	for (i = 0; i < wl->nr_runs; i++) {
		const struct wl_run *run = &wl->runs[i];
		unsigned int t = run->tenant_id;

		if (t < WL_MAX_RUNS && first[t] >= 0) {
			res->cgroups[i] = res->cgroups[first[t]];
			continue;
		}
		ret = run_cgroup_tenant(cg, m,
					wl_run_tenant(run, res->runs[i].prog),
					run->weight, run->max_ppm, what);
		if (ret) {
			*failed_run = i;
			return ret;
		}
		if (t < WL_MAX_RUNS)
			first[t] = i;
		res->cgroups[i] = cg->paths[cg->nr - 1];
	}
	return 0;
}

/**
 * run_cgroups_alone() - the tenant of a program run alone
 * @cg: the command's cgroups, none made for another execution.
 * @m: the netlink family.
 * @prog: the program.
 * @weight: its tenant's weight.
 * @max_ppm: its tenant's cap (0: none): a capped run alone is capped too.
 * @what: out: on error, the step.
 *
 * Return: 0 and the cgroup at @cg->paths[0], or a negative errno.
 */
int run_cgroups_alone(struct run_cgroups *cg, struct gputbs_monitor *m,
		      const struct wl_program *prog, __u32 weight,
		      __u32 max_ppm, const char **what)
{
	char name[WL_NAME_LEN + 8];

	snprintf(name, sizeof(name), "alone-%s", prog->name);
	return run_cgroup_tenant(cg, m, name, weight, max_ppm, what);
}

/**
 * run_cgroup_enter() - move the calling process into a cgroup
 * @dir: the cgroup's directory.
 *
 * Writes "0" to its cgroup.procs: cgroup v2 moves the writer's process.
 *
 * Return: 0 or a negative errno.
 */
int run_cgroup_enter(const char *dir)
{
	char path[RUN_CGROUP_PATH + 16];
	int fd, ret = 0;

	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (write(fd, "0", 1) != 1)
		ret = -errno;
	close(fd);
	return ret;
}

/**
 * run_cgroup_self() - the cgroup v2 directory of the calling process
 * @buf: out: its path under /sys/fs/cgroup.
 * @len: size of @buf.
 *
 * Return: 0, or a negative errno (-ENOENT without a "0::" line in
 * /proc/self/cgroup).
 */
int run_cgroup_self(char *buf, size_t len)
{
	char line[RUN_CGROUP_PATH];
	FILE *f = fopen("/proc/self/cgroup", "re");
	int ret = -ENOENT;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "0::", 3))
			continue;
		line[strcspn(line, "\n")] = '\0';
		snprintf(buf, len, CGROUP_ROOT "%s",
			 strcmp(line + 3, "/") ? line + 3 : "");
		ret = 0;
		break;
	}
	fclose(f);
	return ret;
}

/*
 * SM time of @pr's blocks within [@from, @to], over SMs x cycles: per
 * residency R the slot-cycles as integers, then each over R (as
 * gputbs-sim's sim_share()).
 */
static double run_share_of(const struct prog_result *pr, __u64 from,
			   __u64 to, __u32 nr_sms)
{
	__u64 held[GTBS_MAX_BLOCKS_PER_SM + 1] = { 0 };
	long double sum = 0;
	unsigned int k, r;
	size_t b;

	if (to <= from || !nr_sms || !pr->blocks)
		return NAN;
	for (k = 0; k < pr->nr_grids; k++) {
		const struct wl_grid *g =
			&pr->prog->grids[k % pr->prog->nr_grids];
		__u32 res = pr->grids[k].residency;

		if (!pr->blocks[k])
			return NAN;
		if (res > GTBS_MAX_BLOCKS_PER_SM)
			res = GTBS_MAX_BLOCKS_PER_SM;
		for (b = 0; b < g->nr_blocks; b++) {
			const struct gputbs_block_record *rec =
				&pr->blocks[k][b];
			__u64 s = rec->start_cycle > from ? rec->start_cycle :
							    from;
			__u64 e = rec->end_cycle < to ? rec->end_cycle : to;

			if (e > s)
				held[res] += e - s;
		}
	}
	for (r = 1; r <= GTBS_MAX_BLOCKS_PER_SM; r++)
		sum += (long double)held[r] / r;
	return (double)(sum / ((long double)nr_sms * (to - from)));
}

/* First arrival and last end of the grids of @pr. */
static void run_span(const struct prog_result *pr, __u64 *first, __u64 *last)
{
	unsigned int k;

	*first = ~0ULL;
	*last = 0;
	for (k = 0; k < pr->nr_grids; k++) {
		if (pr->grids[k].submit_cycle < *first)
			*first = pr->grids[k].submit_cycle;
		if (pr->grids[k].end_cycle > *last)
			*last = pr->grids[k].end_cycle;
	}
}

/**
 * run_shares() - every run's SM share of a workload execution
 * @res: the execution, its block records fetched; out: @res->share_from,
 *	@res->share_to and each run's &prog_result.sm_share.
 * @nr_sms: the device's SMs.
 *
 * The interval is [T0, T1]: T0 the latest arrival of a run's first grid,
 * T1 the earliest end of a run's last grid.  A run's share is the sum
 * over its blocks of the cycles of [T0, T1] each held its slot, over its
 * grid's residency R, divided by @nr_sms x (T1 - T0); NAN for an empty
 * interval.  A block record spans its start to its end: unlike
 * gputbs-sim's share, the save and restore of a switched-out block are
 * not in it.
 */
void run_shares(struct workload_result *res, __u32 nr_sms)
{
	__u64 from = 0, to = ~0ULL, first, last;
	unsigned int i;

	for (i = 0; i < res->wl->nr_runs; i++) {
		run_span(&res->runs[i], &first, &last);
		if (first > from)
			from = first;
		if (last < to)
			to = last;
	}
	res->share_from = from;
	res->share_to = to;
	for (i = 0; i < res->wl->nr_runs; i++)
		res->runs[i].sm_share = run_share_of(&res->runs[i], from, to,
						     nr_sms);
}

/**
 * run_share_alone() - the SM share of a program's whole run alone
 * @pr: the execution, its block records fetched; out: @pr->sm_share.
 * @nr_sms: the device's SMs.
 */
void run_share_alone(struct prog_result *pr, __u32 nr_sms)
{
	__u64 first, last;

	run_span(pr, &first, &last);
	pr->sm_share = run_share_of(pr, first, last, nr_sms);
}
