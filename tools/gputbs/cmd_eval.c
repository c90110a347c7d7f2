// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_eval.c - "gputbs eval": the paper's evaluation sweep on the module.
 *
 * The sweep of "gputbs-sim eval" (tools/sim/: the programs alone, every
 * ordered pair at every arrival offset under every policy, the tables,
 * the JSON and the figures), with every run executed on the module
 * through real processes instead of in virtual time.  Only the backend is
 * here: a simulator job (programs and their arrival cycles) becomes a
 * workload that run.c executes as it does for "gputbs run", one process
 * per program, the first grid of each arriving at exactly its cycle
 * (GPUTBS_SUBMIT_AT_CYCLE) after a common start T0; cycles are reported
 * from T0, as the simulator counts them from 0.  A program alone runs
 * through run_alone().  The device's policy is switched through sysfs
 * before each run that needs another one (the alone runs are FIFO's, as
 * in the simulator) and restored at the end, also after SIGINT, SIGTERM
 * or SIGHUP.  Runs go one at a time: the device is shared.
 *
 * T0 margin: each run's processes must submit between the choice of T0
 * and T0, and the device idles for the whole margin, so it is most of a
 * short run's wall time.  It is small (EVAL_T0_MARGIN_NS, several times
 * what a TCG guest needs to fork two processes) so that 840 runs take
 * minutes; a run in which a process submitted too late (run.c reports
 * "arrival": a hiccup of the guest) is run again with twice the margin,
 * up to EVAL_MAX_TRIES times, and the next run starts from the small
 * margin again.  Results do not depend on T0: arrivals are exact and the
 * device is idle until them.
 *
 * The module reports neither Simple Slicing predictions nor sharing-mode
 * switches per grid; those columns are "-" (JSON null).  Its SJF key is
 * Equation 1 of each grid's work model (gtbs_grid_alone_cycles()): the
 * simulator's --sjf-key model.
 *
 * Progress goes to stderr: pairs done, elapsed and remaining time,
 * redrawn in place on a terminal, one line per tenth otherwise (also on
 * a serial console such as the QEMU guest's, whose output is logged
 * line by line).
 *
 * Copyright (C) 2026 The gputbs developers
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "../lib/eval/args.h"
#include "../lib/eval/evalcmd.h"

#define EVAL_POLICY_LEN		32
#define EVAL_POLICY_LIST_LEN	1024
/* T0 margin of a run, doubled for each retry after a late arrival. */
#define EVAL_T0_MARGIN_NS	30000000ULL
#define EVAL_MAX_TRIES		8
/* A grid that takes longer than this fails the sweep. */
#define EVAL_TIMEOUT_NS		600000000000ULL

static const char usage_eval[] =
	"Usage: gputbs eval [OPTIONS]\n"
	"\n"
	"The evaluation sweep of 'gputbs-sim eval' on the module: run every\n"
	"program of DIR/kernels.gtbs alone (FIFO), then every ordered pair of\n"
	"distinct programs, the second arriving at each offset, under each\n"
	"policy, each program a process whose first grid arrives at exactly\n"
	"its cycle; print the same tables, JSON and figures as gputbs-sim.\n"
	"Switches the device's policy (needs root) and restores it at the end.\n"
	"The SMs and the SJF key (Equation 1) are the module's; the module\n"
	"reports no predictions.  Progress goes to stderr.\n"
	"\n"
	"  -d, --device PATH     device node (default /dev/gputbs)\n"
	"  -w, --workloads DIR   programs of DIR/kernels.gtbs\n"
	"                        (default workloads/ercbench)\n"
	"  -o, --offsets LIST    comma-separated arrival offsets of the second\n"
	"                        program, percent (0..1000) of the first one's\n"
	"                        alone runtime; 0 means cycle 50 (default\n"
	"                        0,25,50)\n"
	"  -P, --policies LIST   comma-separated policies (default: all but\n"
	"                        those that order tenants (fair), in the\n"
	"                        registry's order: %s)\n"
	"  -f, --format FORMAT   text (default) or json\n"
	"  -S, --seed N          XOR a scramble of N into every grid's seed\n"
	"                        (default 0: the workload file's seeds)\n"
	"  -p, --plot DIR        also write the figures of 'gputbs-sim eval\n"
	"                        --plot' into DIR (needs gnuplot; without it,\n"
	"                        'gputbs-sim report --results JSON --plot DIR'\n"
	"                        draws them elsewhere)\n"
	"  -t, --timeline PAIR[@OFFSET]\n"
	"                        the pair of the timeline, one figure per policy\n"
	"                        (default RayTracing+JPEG-d@0, else the first);\n"
	"                        with --format json, its blocks are in the JSON\n"
	"      --preempt MODE    the device's preempt_mode during the sweep:\n"
	"                        drain, switch, flush or auto (default: as\n"
	"                        it is); restored at the end\n"
	"      --switch-bw BYTES its switch_bytes_per_cycle during the sweep\n"
	"      --idempotent      submit every grid idempotent (flush may\n"
	"                        rerun its blocks)\n"
	"  -h, --help            this help\n";

/**
 * struct eval_state - the module backend
 * @device: device node.
 * @g: the device, open while the sweep runs.
 * @info: its description.
 * @prev: its policy before the sweep, restored at the end.
 * @cur: its policy now.
 * @switched: @cur was written by us.
 * @opts: how run.c runs.
 * @res: the workload being run (large: not on the stack).
 * @wl: its workload.
 * @progs: per run, its program with the job's seeds.
 * @why: the last error, for sim_eval_run().
 * @backend: the backend, for &sim_eval.backend.
 * @t_start: CLOCK_MONOTONIC ns at the start of the sweep.
 * @t_pairs: CLOCK_MONOTONIC ns at the start of the first pair.
 * @tty: progress redrawn in place.
 * @shown: tenths of the pairs reported so far (lines).
 * @pending: a progress line without its newline is on the terminal.
 * @late: runs repeated because a process submitted too late.
 * @runs: runs executed, alone and pairs.
 * @prev_preempt: the device's preempt_mode before the sweep, or "" if
 *	the sweep does not change it.
 * @prev_switch_bw: its switch_bytes_per_cycle before, or "".
 */
struct eval_state {
	const char *device;
	struct gputbs *g;
	struct gputbs_info info;
	char prev[EVAL_POLICY_LEN];
	char cur[EVAL_POLICY_LEN];
	bool switched;
	struct run_opts opts;
	struct workload_result res;
	struct wl_workload wl;
	struct wl_program progs[WL_MAX_RUNS];
	char why[512];
	const struct sim_backend *backend;
	__u64 t_start;
	__u64 t_pairs;
	bool tty;
	unsigned int shown;
	bool pending;
	unsigned int late;
	unsigned int runs;
	char prev_preempt[16];
	char prev_switch_bw[16];
};

/*
 * Set @attr to @val for the sweep, keeping its value in @prev (@len
 * bytes) for eval_finish(); 0 or an exit status after a message.
 */
static int eval_attr_apply(struct eval_state *s, const char *attr,
			   const char *val, char *prev, size_t len)
{
	int ret = gputbs_attr_read(s->g, attr, prev, len);

	if (!ret)
		ret = gputbs_attr_write(s->g, attr, val);
	if (!ret)
		return 0;
	prev[0] = '\0';
	err_msg("%s: cannot set %s to %s: %s%s", s->device, attr, val,
		gputbs_strerror(ret),
		ret == -EACCES || ret == -EPERM ?
		" (writing sysfs needs root with CAP_SYS_ADMIN)" :
		ret == -ENOENT ? " (a module without preemption)" : "");
	return EXIT_DEVICE;
}

/* Apply --preempt and --switch-bw; 0 or an exit status. */
static int eval_preempt_start(struct eval_state *s, const struct sim_modes *m)
{
	char v[16];
	int ret = 0;

	if (m->preempt_mode != GTBS_PREEMPT_DRAIN)
		ret = eval_attr_apply(s, "preempt_mode",
				      gtbs_preempt_mode_name(m->preempt_mode),
				      s->prev_preempt,
				      sizeof(s->prev_preempt));
	if (!ret && m->switch_bw) {
		snprintf(v, sizeof(v), "%u", m->switch_bw);
		ret = eval_attr_apply(s, "switch_bytes_per_cycle", v,
				      s->prev_switch_bw,
				      sizeof(s->prev_switch_bw));
	}
	return ret;
}

/* Put back what eval_preempt_start() changed; 0 or an exit status. */
static int eval_preempt_finish(struct eval_state *s)
{
	int ret = 0, r;

	if (s->prev_preempt[0]) {
		r = gputbs_attr_write(s->g, "preempt_mode", s->prev_preempt);
		if (r) {
			err_msg("cannot restore preempt_mode %s: %s",
				s->prev_preempt, gputbs_strerror(r));
			ret = EXIT_DEVICE;
		}
	}
	if (s->prev_switch_bw[0]) {
		r = gputbs_attr_write(s->g, "switch_bytes_per_cycle",
				      s->prev_switch_bw);
		if (r) {
			err_msg("cannot restore switch_bytes_per_cycle %s: %s",
				s->prev_switch_bw, gputbs_strerror(r));
			ret = EXIT_DEVICE;
		}
	}
	s->prev_preempt[0] = s->prev_switch_bw[0] = '\0';
	return ret;
}

/* Switch the device to @name unless it is there already. */
static int eval_policy(struct eval_state *s, const char *name)
{
	int ret;

	if (!strcmp(s->cur, name))
		return 0;
	if (!s->switched)
		restore_arm(s->g, s->prev);
	ret = gputbs_set_policy(s->g, name);
	if (ret) {
		snprintf(s->why, sizeof(s->why),
			 "cannot switch the policy to %s: %s%s", name,
			 gputbs_strerror(ret),
			 ret == -EACCES || ret == -EPERM ?
			 " (writing /sys/class/misc/gputbs/policy needs root with CAP_SYS_ADMIN)" :
			 "");
		return ret;
	}
	s->switched = true;
	snprintf(s->cur, sizeof(s->cur), "%s", name);
	return 0;
}

static void eval_run_error(struct eval_state *s, const struct wl_program *prog,
			   const struct run_error *err)
{
	if (!strcmp(err->what, "arrival"))
		snprintf(s->why, sizeof(s->why),
			 "%s arrived %llu cycles after its arrival cycle (T0 margin %llu cycles)",
			 prog->name, (unsigned long long)err->late_cycles,
			 (unsigned long long)err->margin_cycles);
	else if (!strcmp(err->what, "child"))
		snprintf(s->why, sizeof(s->why),
			 "%s: its process exited before grid %u finished",
			 prog->name, err->grid);
	else if (!strcmp(err->what, "open") || !strcmp(err->what, "fork") ||
		 !strcmp(err->what, "pipe"))
		snprintf(s->why, sizeof(s->why), "%s: %s: %s", prog->name,
			 err->what, gputbs_strerror(err->err));
	else
		snprintf(s->why, sizeof(s->why), "%s: grid %s: %s: %s",
			 prog->name,
			 prog->grids[err->grid % prog->nr_grids].label,
			 err->what,
			 run_strerror(err));
}

/* A WAIT result as the simulator's grid, cycles from @base. */
static void eval_grid(const struct gputbs_wait *w, u64 base,
		      struct sim_grid_out *g)
{
	memset(g, 0, sizeof(*g));
	g->submit_cycle = w->submit_cycle - base;
	g->start_cycle = w->start_cycle - base;
	g->end_cycle = w->end_cycle - base;
	g->residency = w->residency;
}

static int eval_block_cmp(const void *a, const void *b)
{
	const struct sim_block *x = a, *y = b;

	if (x->end != y->end)
		return x->end < y->end ? -1 : 1;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->sm != y->sm)
		return x->sm < y->sm ? -1 : 1;
	return x->slot < y->slot ? -1 : x->slot > y->slot;
}

/* The recorded blocks of every grid, from @base, in block-end order. */
static int eval_blocks(const struct workload_result *res, unsigned int nr_runs,
		       u64 base, struct sim_out *out)
{
	size_t n = 0, b;
	unsigned int r, k, i;

	for (r = 0; r < nr_runs; r++)
		for (k = 0; k < res->runs[r].prog->nr_grids; k++)
			n += res->runs[r].prog->grids[k].nr_blocks;
	out->blocks = calloc(n ?: 1, sizeof(*out->blocks));
	if (!out->blocks)
		return -ENOMEM;
	for (b = 0, r = 0; r < nr_runs; r++) {
		for (k = 0; k < res->runs[r].prog->nr_grids; k++) {
			const struct gputbs_block_record *rec =
				res->runs[r].blocks[k];

			for (i = 0; rec && i < res->runs[r].prog->grids[k].nr_blocks;
			     i++, b++)
				out->blocks[b] = (struct sim_block) {
					.run = r, .grid = k,
					.sm = rec[i].sm, .slot = rec[i].slot,
					.block = rec[i].block,
					.start = rec[i].start_cycle - base,
					.end = rec[i].end_cycle - base,
				};
		}
	}
	qsort(out->blocks, b, sizeof(*out->blocks), eval_block_cmp);
	out->nr_blocks = b;
	return 0;
}

/* The programs of @job, with its seeds; 0 or -ENOMEM. */
static int eval_programs(struct eval_state *s, const struct sim_job *job)
{
	unsigned int r, k;

	for (r = 0; r < job->nr_runs; r++) {
		/* a copy of the grids, which the seeds change */
		struct wl_grid *own = s->progs[r].grids;
		size_t n = job->progs[r]->nr_grids;

		s->progs[r] = *job->progs[r];
		own = realloc(own, n * sizeof(*own));
		if (!own)
			return -ENOMEM;
		memcpy(own, job->progs[r]->grids, n * sizeof(*own));
		s->progs[r].grids = own;
		s->progs[r].cap_grids = n;
		for (k = 0; k < s->progs[r].nr_grids; k++) {
			s->progs[r].grids[k].seed ^= job->seed_mix;
			if (job->modes && job->modes->idempotent)
				s->progs[r].grids[k].idempotent = true;
		}
	}
	return 0;
}

/* One program alone, arriving when its process submits. */
static int eval_alone(struct eval_state *s, struct sim_out *out)
{
	struct prog_result *pr = &s->res.runs[0];
	struct sim_prog_out *po = &out->progs[0];
	struct run_error err;
	unsigned int k;
	int ret;

	ret = run_alone(&s->opts, &s->progs[0], pr, &err);
	if (ret) {
		eval_run_error(s, &s->progs[0], &err);
		return ret;
	}
	po->nr_grids = s->progs[0].nr_grids;
	po->grids = calloc(po->nr_grids, sizeof(*po->grids));
	if (!po->grids) {
		prog_result_free(pr);
		return -ENOMEM;
	}
	for (k = 0; k < po->nr_grids; k++)
		eval_grid(&pr->grids[k], pr->grids[0].submit_cycle,
			  &po->grids[k]);
	po->turnaround = pr->runtime;
	out->end_cycle = po->grids[po->nr_grids - 1].end_cycle;
	prog_result_free(pr);
	return 0;
}

/* The programs of @job as a workload, every first grid at its cycle. */
static int eval_workload(struct eval_state *s, const struct sim_job *job,
			 struct sim_out *out)
{
	struct workload_result *res = &s->res;
	struct wl_set set;
	struct run_error err;
	unsigned int r, k, failed, tries;
	int ret;

	memset(&set, 0, sizeof(set));
	memset(&s->wl, 0, sizeof(s->wl));
	snprintf(s->wl.name, sizeof(s->wl.name), "eval");
	s->wl.nr_runs = job->nr_runs;
	set.path = (char *)"gputbs eval";
	set.nr_programs = job->nr_runs;
	for (r = 0; r < job->nr_runs; r++) {
		set.programs[r] = &s->progs[r];
		s->wl.runs[r].program = r;
		s->wl.runs[r].at = job->arrive[r];
		s->wl.runs[r].requests = 1;
		s->wl.runs[r].outstanding = 1;
	}
	set.nr_workloads = 1;
	set.workloads[0] = &s->wl;
	s->opts.record_blocks = job->record;
	s->opts.t0_margin_ns = EVAL_T0_MARGIN_NS;
	for (tries = 1;; tries++) {
		memset(res, 0, sizeof(*res));
		res->set = &set;
		res->wl = &s->wl;
		for (r = 0; r < job->nr_runs; r++)
			res->at_cycles[r] = job->arrive[r];
		ret = run_workload(&s->opts, &s->info, res, &failed, &err);
		if (!ret)
			break;
		eval_run_error(s, res->runs[failed].prog, &err);
		run_free_blocks(res);
		if (err.err != -ETIME || strcmp(err.what, "arrival") ||
		    tries == EVAL_MAX_TRIES)
			return ret;
		/* a process submitted after T0: again, with more time */
		s->late++;
		if (tries > 1)
			fprintf(stderr, "%sgputbs eval: %s%s%s under %s: %s; again with a %llu ms margin\n",
				s->pending ? "\r\033[K" : "", s->progs[0].name,
				job->nr_runs > 1 ? "+" : "",
				job->nr_runs > 1 ? s->progs[1].name : "",
				job->policy->name, s->why,
				(unsigned long long)(2 * s->opts.t0_margin_ns /
						     1000000));
		if (tries > 1)
			s->pending = false;
		s->opts.t0_margin_ns *= 2;
	}
	for (r = 0; r < job->nr_runs; r++) {
		struct sim_prog_out *po = &out->progs[r];

		po->nr_grids = res->runs[r].prog->nr_grids;
		po->grids = calloc(po->nr_grids, sizeof(*po->grids));
		if (!po->grids) {
			run_free_blocks(res);
			return -ENOMEM;
		}
		for (k = 0; k < po->nr_grids; k++)
			eval_grid(&res->runs[r].grids[k], res->t0_cycle,
				  &po->grids[k]);
		po->turnaround = res->runs[r].runtime;
		out->end_cycle = max(out->end_cycle,
				     po->grids[po->nr_grids - 1].end_cycle);
	}
	ret = job->record ? eval_blocks(res, job->nr_runs, res->t0_cycle, out) :
	      0;
	run_free_blocks(res);
	return ret;
}

/* The backend's run: one job on the module. */
static int eval_run(void *priv, const struct sim_job *job, struct sim_out *out,
		    const char **why)
{
	struct eval_state *s = priv;
	int ret;

	memset(out, 0, sizeof(*out));
	*why = s->why;
	s->why[0] = '\0';
	ret = eval_policy(s, job->policy->name);
	if (ret)
		return ret;
	ret = eval_programs(s, job);
	if (ret) {
		snprintf(s->why, sizeof(s->why), "out of memory");
		return ret;
	}
	if (job->nr_runs > 1 && !s->t_pairs)
		s->t_pairs = gputbs_now_ns();
	if (job->nr_runs == 1 && !job->arrive[0] && !job->record)
		ret = eval_alone(s, out);
	else
		ret = eval_workload(s, job, out);
	if (ret == -ENOMEM && !s->why[0])
		snprintf(s->why, sizeof(s->why), "out of memory");
	if (!ret)
		s->runs++;
	else if (s->pending)
		/* the error message goes below the progress line */
		fputc('\n', stderr);
	s->pending = s->pending && !ret;
	return ret;
}

/* "1:05" or "1:02:03". */
static const char *eval_hms(__u64 ns, char *buf, size_t len)
{
	unsigned long long t = ns / 1000000000ULL;

	if (t >= 3600)
		snprintf(buf, len, "%llu:%02llu:%02llu", t / 3600,
			 t / 60 % 60, t % 60);
	else
		snprintf(buf, len, "%llu:%02llu", t / 60, t % 60);
	return buf;
}

/* Pairs done, elapsed and remaining time on stderr. */
static void eval_progress(void *priv, size_t done, size_t total)
{
	struct eval_state *s = priv;
	__u64 now = gputbs_now_ns();
	unsigned int tenth = total ? done * 10 / total : 10;
	char e[32], l[32];

	if (!s->tty && tenth == s->shown && done != 1)
		return;
	s->shown = tenth;
	/* the pairs so far at their pace, without the alone runs */
	fprintf(stderr, "%sgputbs eval: %zu/%zu pairs (%zu%%), %s elapsed, %s%s%s",
		s->tty ? "\r" : "", done, total, total ? 100 * done / total : 100,
		eval_hms(now - s->t_start, e, sizeof(e)),
		done < total ? "about " : "",
		done < total ? eval_hms((now - s->t_pairs) / done *
					(total - done), l, sizeof(l)) :
		"done", done < total ? " left" : "");
	fputs(s->tty && done < total ? "\033[K" : "\n", stderr);
	fflush(stderr);
	s->pending = s->tty && done < total;
}

/*
 * Redraw progress in place only on a terminal that shows it: not on a
 * serial console (the QEMU guest's /dev/console is a tty, but its output
 * is logged line by line on the host).
 */
/*
 * The module's timing model (sysfs timing_model, which GPUTBS_IOCTL_INFO
 * does not report): the uniform model only if the attribute says 1, the
 * overlap model for 0 and for a module without the attribute.
 */
static u32 eval_timing_model(void)
{
	FILE *f = fopen("/sys/class/misc/gputbs/timing_model", "re");
	unsigned int v = GTBS_TIMING_OVERLAP;

	if (f) {
		if (fscanf(f, "%u", &v) != 1 || v >= GTBS_NR_TIMING_MODELS)
			v = GTBS_TIMING_OVERLAP;
		fclose(f);
	}
	return v;
}

static bool eval_is_tty(void)
{
	const char *name;

	if (!isatty(STDERR_FILENO))
		return false;
	name = ttyname(STDERR_FILENO);
	return name && strcmp(name, "/dev/console") &&
	       strncmp(name, "/dev/ttyS", 9);
}

static void eval_set_device(void *priv, const char *path)
{
	struct eval_state *s = priv;

	s->device = path;
}

static int eval_start(struct sim_eval *ev, void *priv)
{
	struct eval_state *s = priv;
	char all[EVAL_POLICY_LIST_LEN], scale[64];
	unsigned int p;
	int ret;

	ret = gputbs_open(s->device, 0, &s->g);
	if (ret) {
		s->g = NULL;
		return device_error(s->device, ret);
	}
	ret = gputbs_info(s->g, &s->info);
	if (ret)
		return device_error(s->device, ret);
	if (!(s->info.features & GPUTBS_FEATURE_ARRIVAL_CYCLE)) {
		err_msg("%s: the module cannot submit for an arrival cycle (no GPUTBS_FEATURE_ARRIVAL_CYCLE): its runs would not be those of the simulator",
			s->device);
		return EXIT_DEVICE;
	}
	ret = gputbs_get_policy(s->g, s->prev, sizeof(s->prev), all,
				sizeof(all));
	if (ret) {
		err_msg("%s: cannot read the policy: %s", s->device,
			gputbs_strerror(ret));
		return EXIT_DEVICE;
	}
	snprintf(s->cur, sizeof(s->cur), "%s", s->prev);
	if (!policy_offered(all, "fifo")) {
		err_msg("the module has no fifo policy for the alone runs (it offers: %s)",
			all);
		return EXIT_DEVICE;
	}
	for (p = 0; p < ev->nr_policies; p++) {
		if (!policy_offered(all, ev->policies[p]->name)) {
			err_msg("--policies: the module has no policy '%s' (it offers: %s)",
				ev->policies[p]->name, all);
			return EXIT_USAGE;
		}
	}
	if (ev->modes.preempt_mode != GTBS_PREEMPT_DRAIN &&
	    !(s->info.features & GPUTBS_FEATURE_PREEMPT)) {
		err_msg("%s: --preempt: the module cannot preempt running blocks (no GPUTBS_FEATURE_PREEMPT)",
			s->device);
		return EXIT_DEVICE;
	}
	ret = eval_preempt_start(s, &ev->modes);
	if (ret)
		return ret;
	/* the device as the module describes it */
	ev->cfg.nr_sms = s->info.nr_sms;
	ev->cfg.warp_size = s->info.warp_size;
	ev->cfg.max_threads_per_sm = s->info.max_threads_per_sm;
	ev->cfg.max_regs_per_sm = s->info.max_regs_per_sm;
	ev->cfg.max_shmem_per_sm = s->info.max_shmem_per_sm;
	ev->cfg.max_blocks_per_sm = s->info.max_blocks_per_sm;
	ev->cfg.max_warps_per_sm = s->info.max_warps_per_sm;
	ev->cfg.max_threads_per_block = s->info.max_threads_per_block;
	ev->cfg.max_regs_per_thread = s->info.max_regs_per_thread;
	ev->cfg.reg_alloc_unit = s->info.reg_alloc_unit;
	ev->cfg.shmem_alloc_unit = s->info.shmem_alloc_unit;
	ev->cfg.max_blocks_per_grid = s->info.max_blocks_per_grid;
	ev->cfg.clock_khz = s->info.clock_khz;
	ev->cfg.load_knee_warps = s->info.load_knee_warps;
	ev->cfg.timing_model = eval_timing_model();
	ev->device = s->device;
	ev->time_scale_ps = s->info.time_scale_ps;
	s->opts.device = s->device;
	s->opts.timeout_ns = EVAL_TIMEOUT_NS;
	s->opts.info = &s->info;
	s->tty = eval_is_tty();
	ev->backend = s->backend;
	s->t_start = gputbs_now_ns();
	snprintf(scale, sizeof(scale), "%llu ps per cycle",
		 (unsigned long long)s->info.time_scale_ps);
	fprintf(stderr, "gputbs eval: %u programs alone, then %u pairs x %u offset%s x %u polic%s = %u pair runs on %s (%u SMs, %s)\n",
		ev->nr_progs, ev->nr_pairs, ev->nr_offsets,
		ev->nr_offsets == 1 ? "" : "s", ev->nr_policies,
		ev->nr_policies == 1 ? "y" : "ies",
		ev->nr_pairs * ev->nr_offsets * ev->nr_policies, s->device,
		s->info.nr_sms, scale);
	return 0;
}

static int eval_finish(struct sim_eval *ev __attribute__((unused)), void *priv,
		       int ret)
{
	struct eval_state *s = priv;
	char e[32];
	int r;

	if (s->g && s->switched && strcmp(s->cur, s->prev)) {
		restore_disarm();
		r = gputbs_set_policy(s->g, s->prev);
		if (r) {
			err_msg("cannot restore policy %s: %s", s->prev,
				gputbs_strerror(r));
			ret = ret ?: EXIT_DEVICE;
		}
	}
	if (s->g) {
		r = eval_preempt_finish(s);
		ret = ret ?: r;
		gputbs_close(s->g);
	}
	s->g = NULL;
	if (!ret && s->t_start)
		fprintf(stderr, "gputbs eval: %u runs in %s (T0 margin %llu ms; %u repeated after a late arrival)\n",
			s->runs, eval_hms(gputbs_now_ns() - s->t_start, e,
					  sizeof(e)),
			(unsigned long long)(EVAL_T0_MARGIN_NS / 1000000),
			s->late);
	return ret;
}

/**
 * cmd_eval() - "gputbs eval"
 * @argc: arguments, "gputbs eval" first.
 * @argv: the arguments.
 *
 * Return: the exit status: 0; 1 for a device or system error; 2 for a
 * usage error or a bad workload file.
 */
int cmd_eval(int argc, char **argv)
{
	unsigned int i;
	struct sim_backend backend = {
		.run = eval_run,
		.progress = eval_progress,
		.max_jobs = 1,
	};
	struct sim_eval_cli cli = {
		.usage = usage_eval,
		.module = true,
		.finish = eval_finish,
		.set_device = eval_set_device,
	};
	struct eval_state *s;
	int ret;

	s = calloc(1, sizeof(*s));
	if (!s) {
		err_msg("out of memory");
		return EXIT_DEVICE;
	}
	s->device = GPUTBS_DEFAULT_PATH;
	backend.priv = s;
	cli.priv = s;
	cli.start = eval_start;
	sim_progname = "gputbs";
	s->backend = &backend;
	ret = sim_eval_main(argc, argv, &cli);
	for (i = 0; i < WL_MAX_RUNS; i++)
		free(s->progs[i].grids);
	free(s);
	return ret;
}
