// SPDX-License-Identifier: GPL-2.0
/*
 * eval.c - the paper's evaluation sweep in virtual time.
 *
 * Paper Section "Evaluation", "Methodology": every ordered pair of
 * distinct programs (56 for the eight ERCBench kernels) runs with the
 * second program arriving shortly after the first (offset 0: cycle
 * %SIM_OFFSET0_CYCLES, "staggered by up to 100 cycles") or at 25% and 50%
 * of the first program's alone runtime (Section "Sensitivity to Arrival
 * Time"), under every policy.  Alone runtimes come first: each program
 * alone on a fresh device under FIFO, with the seeds of the pairs.  SJF
 * is an oracle: each of its grids carries its measured alone runtime.
 *
 * The runs are independent, so they are spread over worker threads, each
 * with its own devices; results go to a table indexed by (offset, policy,
 * pair) and everything printed is computed from that table afterwards,
 * in a fixed order, so the output does not depend on the number of
 * workers or on their timing.
 *
 * Copyright (C) 2026 The gputbs developers
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "../parallel.h"
#include "args.h"
#include "eval.h"

/**
 * sim_seed_mix() - what --seed XORs into every grid's seed
 * @seed: --seed; 0 keeps the workload file's seeds.
 *
 * Return: 0 for 0, else a splitmix64 scramble of @seed.
 */
u64 sim_seed_mix(u64 seed)
{
	u64 z = seed * 0x9e3779b97f4a7c15ULL;

	if (!seed)
		return 0;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/**
 * sim_arrival() - arrival cycle of a pair's second program
 * @ev: the sweep, with alone runtimes.
 * @offset: percent of the first program's alone runtime; 0 means
 *	%SIM_OFFSET0_CYCLES cycles.
 * @a: the first program.
 *
 * Return: the cycle, rounded down.
 */
u64 sim_arrival(const struct sim_eval *ev, unsigned int offset, unsigned int a)
{
	if (!offset)
		return SIM_OFFSET0_CYCLES;
	return mul_u64_u64_div_u64(ev->alone[a].progs[0].turnaround, offset,
				   100);
}

/**
 * sim_policy_keyed() - whether a policy reads &gtbs_grid.alone_cycles
 * @policy: a registered policy.
 *
 * The oracle baselines (srtf-oracle, sjf and ljf) schedule by each
 * grid's alone runtime: the simulator gives them the measured one unless
 * --sjf-key model.
 *
 * Return: true for those.
 */
bool sim_policy_keyed(const struct gtbs_policy_ops *policy)
{
	return policy == &gtbs_policy_srtf_oracle ||
	       policy == &gtbs_policy_sjf || policy == &gtbs_policy_ljf;
}

/**
 * sim_pair_job() - the simulation of one pair
 * @ev: the sweep, with alone runtimes.
 * @offset: its offset.
 * @policy: the policy.
 * @pair: the pair.
 * @job: out: the job.
 */
void sim_pair_job(const struct sim_eval *ev, unsigned int offset,
		  const struct gtbs_policy_ops *policy,
		  const struct sim_pair *pair, struct sim_job *job)
{
	memset(job, 0, sizeof(*job));
	job->cfg = &ev->cfg;
	job->policy = policy;
	job->nr_runs = 2;
	job->progs[0] = ev->progs[pair->a];
	job->progs[1] = ev->progs[pair->b];
	job->arrive[0] = 0;
	job->arrive[1] = sim_arrival(ev, offset, pair->a);
	if (sim_policy_keyed(policy) && !ev->sjf_model) {
		/* the oracle knows what each grid takes alone */
		job->oracle[0] = ev->alone_grids[pair->a];
		job->oracle[1] = ev->alone_grids[pair->b];
	}
	job->seed_mix = ev->seed_mix;
	job->modes = &ev->modes;
}

/**
 * sim_result_at() - the result of a pair at an offset under a policy
 * @ev: the sweep.
 * @o: index in &sim_eval.offsets.
 * @p: index in &sim_eval.policies.
 * @i: index in &sim_eval.pairs.
 *
 * Return: the result.
 */
struct sim_result *sim_result_at(const struct sim_eval *ev, unsigned int o,
				 unsigned int p, unsigned int i)
{
	return &ev->results[((size_t)o * ev->nr_policies + p) * ev->nr_pairs +
			    i];
}

/**
 * sim_find_pair() - a pair by name
 * @ev: the sweep.
 * @name: "A+B".
 *
 * Return: its index, or -1.
 */
int sim_find_pair(const struct sim_eval *ev, const char *name)
{
	unsigned int i;

	for (i = 0; i < ev->nr_pairs; i++)
		if (!strcmp(ev->pairs[i].name, name))
			return i;
	return -1;
}

/* Run every program alone: its runtime and each grid's. */
static int sim_eval_alone(struct sim_eval *ev, const char **why)
{
	struct sim_job job;
	unsigned int i, k;
	int ret;

	for (i = 0; i < ev->nr_progs; i++) {
		const struct wl_program *prog = ev->progs[i];

		memset(&job, 0, sizeof(job));
		job.cfg = &ev->cfg;
		job.policy = &gtbs_policy_fifo;
		job.nr_runs = 1;
		job.progs[0] = prog;
		job.seed_mix = ev->seed_mix;
		job.modes = &ev->modes;
		ret = ev->backend->run(ev->backend->priv, &job, &ev->alone[i],
				       why);
		if (ret)
			return ret;
		ev->alone_grids[i] = calloc(prog->nr_grids, sizeof(u64));
		if (!ev->alone_grids[i]) {
			*why = "out of memory";
			return -ENOMEM;
		}
		for (k = 0; k < prog->nr_grids; k++) {
			const struct sim_grid_out *g =
				&ev->alone[i].progs[0].grids[k];

			ev->alone_grids[i][k] = g->end_cycle - g->submit_cycle;
		}
	}
	return 0;
}

/* Item @n of the sweep (par_fn): offset, policy and pair from @n. */
static int sim_eval_one(void *arg, size_t n, const char **why)
{
	struct sim_eval *ev = arg;
	size_t per_offset = (size_t)ev->nr_policies * ev->nr_pairs;
	unsigned int o = n / per_offset;
	unsigned int p = n % per_offset / ev->nr_pairs;
	unsigned int i = n % ev->nr_pairs;
	const struct sim_pair *pair = &ev->pairs[i];
	struct sim_result *res = sim_result_at(ev, o, p, i);
	struct sim_job job;
	u64 shared[2];
	int ret;

	sim_pair_job(ev, ev->offsets[o], ev->policies[p], pair, &job);
	ret = ev->backend->run(ev->backend->priv, &job, &res->out, why);
	if (ret)
		return ret;
	res->alone[0] = ev->alone[pair->a].progs[0].turnaround;
	res->alone[1] = ev->alone[pair->b].progs[0].turnaround;
	shared[0] = res->out.progs[0].turnaround;
	shared[1] = res->out.progs[1].turnaround;
	if (gtbs_metrics_calc(res->alone, shared, 2, &res->metrics)) {
		*why = "a runtime is zero cycles";
		return -EINVAL;
	}
	return 0;
}

/* Told after each item (par_progress_fn): the backend's progress. */
static void sim_eval_progress(void *arg, size_t done, size_t n)
{
	struct sim_eval *ev = arg;

	ev->backend->progress(ev->backend->priv, done, n);
}

/**
 * sim_eval_geomeans() - geometric means over the pairs, in pair order
 * @ev: the sweep, with every result; &sim_eval.geomeans out.
 */
void sim_eval_geomeans(struct sim_eval *ev)
{
	unsigned int o, p, i;

	for (o = 0; o < ev->nr_offsets; o++) {
		for (p = 0; p < ev->nr_policies; p++) {
			struct sim_geomean *gm =
				&ev->geomeans[o * ev->nr_policies + p];
			double ls = 0, la = 0, lf = 0;

			for (i = 0; i < ev->nr_pairs; i++) {
				const struct gtbs_metrics *m =
					&sim_result_at(ev, o, p, i)->metrics;

				ls += log(sim_fp(m->stp));
				la += log(sim_fp(m->antt));
				lf += log(sim_fp(m->strictf));
			}
			gm->stp = exp(ls / ev->nr_pairs);
			gm->antt = exp(la / ev->nr_pairs);
			gm->strictf = exp(lf / ev->nr_pairs);
		}
	}
}

static int sim_eval_pairs(struct sim_eval *ev, const char **why)
{
	unsigned int a, b, n = 0;

	ev->pairs = calloc((size_t)ev->nr_progs * ev->nr_progs,
			   sizeof(*ev->pairs));
	if (!ev->pairs) {
		*why = "out of memory";
		return -ENOMEM;
	}
	for (a = 0; a < ev->nr_progs; a++) {
		for (b = 0; b < ev->nr_progs; b++) {
			if (a == b)
				continue;
			ev->pairs[n].a = a;
			ev->pairs[n].b = b;
			snprintf(ev->pairs[n].name, sizeof(ev->pairs[n].name),
				 "%s+%s", ev->progs[a]->name,
				 ev->progs[b]->name);
			n++;
		}
	}
	ev->nr_pairs = n;
	if (!n) {
		*why = "the workload file defines fewer than two programs";
		return -EINVAL;
	}
	return 0;
}

/**
 * sim_eval_prepare() - the programs and pairs of a sweep
 * @ev: @set in; @progs and @pairs out.
 * @why: out: on error, why.
 *
 * Return: 0, -EINVAL (fewer than two programs) or -ENOMEM.
 */
int sim_eval_prepare(struct sim_eval *ev, const char **why)
{
	unsigned int i;

	ev->nr_progs = ev->set->nr_programs;
	for (i = 0; i < ev->nr_progs; i++)
		ev->progs[i] = ev->set->programs[i];
	return sim_eval_pairs(ev, why);
}

/**
 * sim_eval_run() - run the whole sweep
 * @ev: prepared by sim_eval_prepare(); parameters in: @cfg, @seed_mix,
 *	@jobs, @policies, @offsets; results out.
 * @why: out: on error, why.
 *
 * Return: 0, -EINVAL (a grid the device rejects) or -ENOMEM.
 */
int sim_eval_run(struct sim_eval *ev, const char **why)
{
	size_t n = (size_t)ev->nr_offsets * ev->nr_policies * ev->nr_pairs;
	int ret;

	ret = sim_eval_alone(ev, why);
	if (ret)
		return ret;
	ev->results = calloc(n, sizeof(*ev->results));
	ev->geomeans = calloc((size_t)ev->nr_offsets * ev->nr_policies,
			      sizeof(*ev->geomeans));
	if (!ev->results || !ev->geomeans) {
		*why = "out of memory";
		return -ENOMEM;
	}
	ret = par_for(n, min(ev->jobs, ev->backend->max_jobs ?: 1),
		      sim_eval_one,
		      ev->backend->progress ? sim_eval_progress : NULL, ev,
		      NULL, why);
	if (ret)
		return ret;
	sim_eval_geomeans(ev);
	return 0;
}

/**
 * sim_eval_timeline() - run the timeline's pair with every block recorded
 * @ev: the sweep, run (alone runtimes known).
 * @tl: @pair and @offset in; under each policy of the sweep
 *	(&sim_eval.policies, --policies), the policies and executions out.
 * @why: out: on error, why.
 *
 * Return: 0, or a negative errno from the backend.
 */
int sim_eval_timeline(const struct sim_eval *ev, struct sim_timeline *tl,
		      const char **why)
{
	const struct gtbs_policy_ops *p;
	struct sim_job job;
	unsigned int i;
	int ret;

	for (i = 0; i < ev->nr_policies && i < SIM_MAX_POLICIES; i++) {
		p = ev->policies[i];
		sim_pair_job(ev, tl->offset, p, &ev->pairs[tl->pair], &job);
		job.record = true;
		tl->policies[tl->nr_policies] = p;
		ret = ev->backend->run(ev->backend->priv, &job,
				       &tl->outs[tl->nr_policies++], why);
		if (ret)
			return ret;
	}
	return 0;
}

/**
 * sim_eval_free() - release what sim_eval_run() allocated
 * @ev: the sweep; @set is the caller's.
 */
void sim_eval_free(struct sim_eval *ev)
{
	size_t i, n = (size_t)ev->nr_offsets * ev->nr_policies * ev->nr_pairs;

	for (i = 0; ev->results && i < n; i++)
		sim_out_free(&ev->results[i].out);
	for (i = 0; i < WL_MAX_PROGRAMS; i++) {
		sim_out_free(&ev->alone[i]);
		free(ev->alone_grids[i]);
	}
	free(ev->results);
	free(ev->geomeans);
	free(ev->pairs);
}

/**
 * sim_out_free() - release what a backend's run allocated
 * @out: its output (sim_run() or another backend).
 */
void sim_out_free(struct sim_out *out)
{
	unsigned int r, w;

	for (r = 0; r < WL_MAX_RUNS; r++) {
		free(out->progs[r].grids);
		out->progs[r].grids = NULL;
		free(out->progs[r].arrive);
		out->progs[r].arrive = NULL;
		for (w = 0; w < SIM_MAX_SHARE_WINDOWS; w++) {
			free(out->progs[r].win_share[w]);
			out->progs[r].win_share[w] = NULL;
		}
	}
	free(out->blocks);
	out->blocks = NULL;
	out->nr_blocks = 0;
}

/**
 * sim_timeline_free() - free a timeline and the executions it holds
 * @tl: NULL, or a timeline allocated with calloc().
 */
void sim_timeline_free(struct sim_timeline *tl)
{
	unsigned int i;

	for (i = 0; tl && i < tl->nr_policies; i++)
		sim_out_free(&tl->outs[i]);
	free(tl);
}
