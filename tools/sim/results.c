// SPDX-License-Identifier: GPL-2.0
/*
 * results.c - a sweep read back from its JSON ("gputbs-sim report").
 *
 * The JSON of "gputbs-sim eval --format json" and of "gputbs eval
 * --format json" (the same sweep on the module, output.c either way) has
 * every number the text has.  Reading it back into a &struct sim_eval
 * lets output.c and plot.c render a sweep that ran elsewhere, in the
 * guest for example, with the same code: the text of a sweep read back is
 * the text the sweep printed, byte for byte.  The programs are rebuilt
 * from the JSON (name, paper name, grid labels, blocks, expected
 * runtimes), the pairs
 * from the programs (their order must be the JSON's), each pair's STP,
 * ANTT and StrictF computed again with gtbs_metrics_calc() from its alone
 * and shared runtimes and checked against the JSON's, and the geomeans
 * computed again from the pairs.
 *
 * Copyright (C) 2026 The gputbs developers
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <limits.h>
#include <stdlib.h>

#include <json-c/json.h>

#include "../lib/input.h"
#include "sim.h"

/* What is being read, for messages. */
struct sim_reader {
	const char *path;
	char where[160];
};

static int __attribute__((format(printf, 2, 3)))
sim_rerr(const struct sim_reader *r, const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fprintf(stderr, "%s: ", sim_progname);
	input_print(stderr, "%s: %s%s", r->path, r->where,
		    r->where[0] ? ": " : "");
	va_start(ap, fmt);
	input_vprint(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return SIM_EXIT_USAGE;
}

/* An optional number: left alone if absent or null. */
static void sim_read_opt(const struct json_object *obj, const char *key,
			 u64 *out)
{
	const char *num = sim_json_num(sim_json_get(obj, key));
	u64 x;

	if (num && !sim_parse_uint(num, 0, U64_MAX, &x))
		*out = x;
}

/* "predictor" and "share_mode", absent or null in older and module files. */
static int sim_read_modes(const struct json_object *root, struct sim_modes *m)
{
	struct json_object *idem;
	const char *v;
	u64 x = 0;
	u32 i;

	sim_modes_default(m);
	v = sim_json_str(sim_json_get(root, "predictor"));
	if (v) {
		for (i = 0; i < GTBS_NR_PRED_MODES; i++)
			if (!strcmp(v, gtbs_pred_mode_name(i)))
				break;
		if (i == GTBS_NR_PRED_MODES)
			return -EINVAL;
		m->pred_mode = i;
	}
	v = sim_json_str(sim_json_get(root, "preempt_mode"));
	if (v) {
		for (i = 0; i < GTBS_NR_PREEMPT_MODES; i++)
			if (!strcmp(v, gtbs_preempt_mode_name(i)))
				break;
		if (i == GTBS_NR_PREEMPT_MODES)
			return -EINVAL;
		m->preempt_mode = i;
	}
	sim_read_opt(root, "switch_bytes_per_cycle", &x);
	m->switch_bw = x <= 65536 ? x : 0;
	idem = sim_json_get(root, "idempotent");
	m->idempotent = json_object_is_type(idem, json_type_boolean) &&
			json_object_get_boolean(idem);
	v = sim_json_str(sim_json_get(root, "share_mode"));
	if (v) {
		struct sim_param *p = &m->params[m->nr_params++];

		if (strlen(v) >= sizeof(p->value))
			return -EINVAL;
		strcpy(p->name, "share_mode");
		strcpy(p->value, v);
	}
	return 0;
}

static struct json_object *sim_member(const struct sim_reader *r,
				      const struct json_object *obj,
				      const char *key, enum json_type type)
{
	struct json_object *v = sim_json_get(obj, key);

	if (!v || !json_object_is_type(v, type)) {
		sim_rerr(r, "no %s '%s'", type == json_type_array ? "array" :
			 type == json_type_object ? "object" :
			 type == json_type_string ? "string" : "number", key);
		return NULL;
	}
	return v;
}

/* An array's length and elements (json-c's, for short lines). */
static size_t sim_jlen(const struct json_object *arr)
{
	return json_object_array_length(arr);
}

static struct json_object *sim_jitem(const struct json_object *arr, size_t i)
{
	return json_object_array_get_idx(arr, i);
}

/* An unsigned integer member; null gives @null_val if @null_ok. */
static int sim_u64(const struct sim_reader *r, const struct json_object *obj,
		   const char *key, bool null_ok, u64 *out)
{
	const char *num = sim_json_num(sim_json_get(obj, key));

	if (null_ok && sim_json_has(obj, key) && !sim_json_get(obj, key)) {
		*out = 0;
		return 0;
	}
	if (!num || sim_parse_uint(num, 0, U64_MAX, out))
		return sim_rerr(r, "'%s' is not an unsigned integer", key);
	return 0;
}

/* A six-decimal fixed-point member ("1.202020") as GTBS_FP_ONE units. */
static int sim_fp_member(const struct sim_reader *r,
			 const struct json_object *obj, const char *key,
			 u64 *out)
{
	const char *num = sim_json_num(sim_json_get(obj, key));
	char ip[32];
	const char *dot;
	u64 i, f;

	if (!num)
		return sim_rerr(r, "'%s' is not a number", key);
	dot = strchr(num, '.');
	if (!dot || strlen(dot + 1) != 6 || (size_t)(dot - num) >= sizeof(ip))
		return sim_rerr(r, "'%s' is not a six-decimal number", key);
	snprintf(ip, sizeof(ip), "%.*s", (int)(dot - num), num);
	if (sim_parse_uint(ip, 0, U64_MAX / GTBS_FP_ONE - 1, &i) ||
	    sim_parse_uint(dot + 1, 0, GTBS_FP_ONE - 1, &f))
		return sim_rerr(r, "'%s' is not a six-decimal number", key);
	*out = i * GTBS_FP_ONE + f;
	return 0;
}

static int sim_str(const struct sim_reader *r, const struct json_object *obj,
		   const char *key, char *buf, size_t len)
{
	const char *v = sim_json_str(sim_member(r, obj, key,
						json_type_string));

	if (!v)
		return SIM_EXIT_USAGE;
	if (strlen(v) >= len)
		return sim_rerr(r, "'%s' is too long", key);
	memcpy(buf, v, strlen(v) + 1);
	return 0;
}

/* A string member duplicated into *@out (NULL for null if @null_ok). */
static int sim_strdup(const struct sim_reader *r,
		      const struct json_object *obj, const char *key,
		      bool null_ok, const char **out)
{
	const struct json_object *v = sim_json_get(obj, key);

	*out = NULL;
	if (!v && sim_json_has(obj, key) && null_ok)
		return 0;
	if (!sim_json_str(v))
		return sim_rerr(r, "no string '%s'", key);
	*out = strdup(sim_json_str(v));
	if (!*out) {
		sim_err("out of memory");
		return SIM_EXIT_SYSTEM;
	}
	return 0;
}

/* The programs, from "alone": names, grids, alone runtimes. */
static int sim_read_alone(struct sim_reader *r, const struct json_object *root,
			  struct sim_eval *ev)
{
	const struct json_object *alone = sim_member(r, root, "alone",
						     json_type_array);
	unsigned int i, k;
	int ret;
	u64 v;

	if (!alone)
		return SIM_EXIT_USAGE;
	if (sim_jlen(alone) > WL_MAX_PROGRAMS)
		return sim_rerr(r, "more than %d programs", WL_MAX_PROGRAMS);
	for (i = 0; i < sim_jlen(alone); i++) {
		const struct json_object *a = sim_jitem(alone, i), *grids;
		size_t nr_grids;
		struct sim_prog_out *po = &ev->alone[i].progs[0];
		struct wl_program *prog;

		snprintf(r->where, sizeof(r->where), "alone[%u]", i);
		prog = calloc(1, sizeof(*prog));
		if (!prog) {
			sim_err("out of memory");
			return SIM_EXIT_SYSTEM;
		}
		ev->set->programs[ev->set->nr_programs++] = prog;
		ret = sim_str(r, a, "program", prog->name, sizeof(prog->name));
		if (ret)
			return ret;
		/* the paper's name (paper=), null without; older JSON: none */
		if (sim_json_get(a, "paper")) {
			ret = sim_str(r, a, "paper", prog->paper,
				      sizeof(prog->paper));
			if (ret)
				return ret;
		}
		ret = sim_u64(r, a, "runtime_cycles", false, &po->turnaround);
		if (ret)
			return ret;
		grids = sim_member(r, a, "grids", json_type_array);
		if (!grids)
			return SIM_EXIT_USAGE;
		nr_grids = sim_jlen(grids);
		if (!nr_grids || nr_grids > WL_MAX_LAUNCHES)
			return sim_rerr(r, "%zu grids", nr_grids);
		prog->grids = calloc(nr_grids, sizeof(*prog->grids));
		if (prog->grids) {
			prog->nr_grids = nr_grids;
			prog->cap_grids = nr_grids;
		}
		po->nr_grids = nr_grids;
		po->grids = calloc(nr_grids, sizeof(*po->grids));
		ev->alone_grids[i] = calloc(nr_grids, sizeof(u64));
		if (!prog->grids || !po->grids || !ev->alone_grids[i]) {
			sim_err("out of memory");
			return SIM_EXIT_SYSTEM;
		}
		for (k = 0; k < nr_grids; k++) {
			const struct json_object *g = sim_jitem(grids, k);
			struct wl_grid *wg = &prog->grids[k];

			snprintf(r->where, sizeof(r->where),
				 "alone[%u].grids[%u]", i, k);
			ret = sim_str(r, g, "label", wg->label,
				      sizeof(wg->label));
			if (!ret)
				ret = sim_u64(r, g, "residency", false, &v);
			po->grids[k].residency = v;
			if (!ret)
				ret = sim_u64(r, g, "blocks", false, &v);
			wg->nr_blocks = v;
			if (!ret)
				ret = sim_u64(r, g, "cycles", false,
					      &ev->alone_grids[i][k]);
			if (!ret)
				ret = sim_u64(r, g, "expect_cycles", false,
					      &wg->expect);
			if (ret)
				return ret;
			/* the predictions alone: absent in older files */
			sim_read_opt(g, "actual_cycles",
				     &po->grids[k].end_cycle);
			sim_read_opt(g, "first_pred_cycles",
				     &po->grids[k].first_pred);
			sim_read_opt(g, "final_pred_cycles",
				     &po->grids[k].final_pred);
		}
	}
	r->where[0] = '\0';
	return 0;
}

/* One program of a pair into @po; its alone runtime into @alone. */
static int sim_read_prog(struct sim_reader *r, const struct json_object *pj,
			 const struct wl_program *prog,
			 struct sim_prog_out *po, u64 *alone)
{
	const struct json_object *grids;
	size_t nr_grids;
	char name[WL_NAME_LEN];
	unsigned int k;
	int ret;
	u64 v;

	ret = sim_str(r, pj, "program", name, sizeof(name));
	if (ret)
		return ret;
	if (strcmp(name, prog->name))
		return sim_rerr(r, "program '%s', not '%s'", name, prog->name);
	ret = sim_u64(r, pj, "alone_cycles", false, alone) ?:
	      sim_u64(r, pj, "shared_cycles", false, &po->turnaround);
	if (ret)
		return ret;
	grids = sim_member(r, pj, "grids", json_type_array);
	if (!grids)
		return SIM_EXIT_USAGE;
	nr_grids = sim_jlen(grids);
	if (nr_grids != prog->nr_grids)
		return sim_rerr(r, "%zu grids, not %u", nr_grids,
				prog->nr_grids);
	po->nr_grids = nr_grids;
	po->grids = calloc(nr_grids, sizeof(*po->grids));
	if (!po->grids) {
		sim_err("out of memory");
		return SIM_EXIT_SYSTEM;
	}
	for (k = 0; k < nr_grids; k++) {
		const struct json_object *g = sim_jitem(grids, k);
		struct sim_grid_out *go = &po->grids[k];

		ret = sim_u64(r, g, "residency", false, &v);
		go->residency = v;
		if (!ret)
			ret = sim_u64(r, g, "submit_cycle", false,
				      &go->submit_cycle) ?:
			      sim_u64(r, g, "start_cycle", false,
				      &go->start_cycle) ?:
			      sim_u64(r, g, "end_cycle", false,
				      &go->end_cycle) ?:
			      sim_u64(r, g, "predictions", true,
				      &go->nr_predictions) ?:
			      sim_u64(r, g, "first_pred_cycles", true,
				      &go->first_pred) ?:
			      sim_u64(r, g, "final_pred_cycles", true,
				      &go->final_pred);
		if (ret)
			return ret;
		if (go->end_cycle < go->start_cycle ||
		    go->start_cycle < go->submit_cycle)
			return sim_rerr(r, "grid %u ends before it starts", k);
	}
	return 0;
}

/* One pair's result. */
static int sim_read_pair(struct sim_reader *r, const struct json_object *pj,
			 const struct sim_eval *ev, unsigned int i,
			 struct sim_result *res)
{
	const struct sim_pair *pair = &ev->pairs[i];
	const unsigned int idx[2] = { pair->a, pair->b };
	const struct json_object *progs;
	char name[2 * WL_NAME_LEN];
	u64 shared[2], stp, antt, strictf;
	unsigned int k;
	int ret;

	ret = sim_str(r, pj, "pair", name, sizeof(name));
	if (ret)
		return ret;
	if (strcmp(name, pair->name))
		return sim_rerr(r, "pair '%s', not '%s' (pairs out of order)",
				name, pair->name);
	ret = sim_u64(r, pj, "sharing_switches", true,
		      &res->out.sharing_switches);
	if (ret)
		return ret;
	progs = sim_member(r, pj, "programs", json_type_array);
	if (!progs)
		return SIM_EXIT_USAGE;
	if (sim_jlen(progs) != 2)
		return sim_rerr(r, "%zu programs, not 2", sim_jlen(progs));
	for (k = 0; k < 2; k++) {
		ret = sim_read_prog(r, sim_jitem(progs, k), ev->progs[idx[k]],
				    &res->out.progs[k], &res->alone[k]);
		if (ret)
			return ret;
		shared[k] = res->out.progs[k].turnaround;
	}
	if (gtbs_metrics_calc(res->alone, shared, 2, &res->metrics))
		return sim_rerr(r, "a runtime is zero cycles");
	ret = sim_fp_member(r, pj, "stp", &stp) ?:
	      sim_fp_member(r, pj, "antt", &antt) ?:
	      sim_fp_member(r, pj, "strictf", &strictf);
	if (ret)
		return ret;
	if (stp != res->metrics.stp || antt != res->metrics.antt ||
	    strictf != res->metrics.strictf)
		return sim_rerr(r, "STP, ANTT or StrictF do not follow from the runtimes");
	return 0;
}

static int sim_read_offsets(struct sim_reader *r,
			    const struct json_object *root, struct sim_eval *ev)
{
	const struct json_object *offs = sim_member(r, root, "offsets",
						    json_type_array);
	unsigned int o, p, i;
	int ret;
	u64 v;

	if (!offs)
		return SIM_EXIT_USAGE;
	if (sim_jlen(offs) != ev->nr_offsets)
		return sim_rerr(r, "%zu offsets, not %u", sim_jlen(offs),
				ev->nr_offsets);
	for (o = 0; o < ev->nr_offsets; o++) {
		const struct json_object *oj = sim_jitem(offs, o), *pols;

		snprintf(r->where, sizeof(r->where), "offsets[%u]", o);
		ret = sim_u64(r, oj, "offset_pct", false, &v);
		if (ret)
			return ret;
		if (v != ev->offsets[o])
			return sim_rerr(r, "offset %" PRIu64 ", not %u",
					(uint64_t)v, ev->offsets[o]);
		pols = sim_member(r, oj, "policies", json_type_array);
		if (!pols)
			return SIM_EXIT_USAGE;
		if (sim_jlen(pols) != ev->nr_policies)
			return sim_rerr(r, "%zu policies, not %u",
					sim_jlen(pols), ev->nr_policies);
		for (p = 0; p < ev->nr_policies; p++) {
			const struct json_object *pj = sim_jitem(pols, p);
			const struct json_object *pairs;
			char name[64];

			snprintf(r->where, sizeof(r->where),
				 "offsets[%u].policies[%u]", o, p);
			ret = sim_str(r, pj, "policy", name, sizeof(name));
			if (ret)
				return ret;
			if (strcmp(name, ev->policies[p]->name))
				return sim_rerr(r, "policy '%s', not '%s'",
						name, ev->policies[p]->name);
			pairs = sim_member(r, pj, "pairs", json_type_array);
			if (!pairs)
				return SIM_EXIT_USAGE;
			if (sim_jlen(pairs) != ev->nr_pairs)
				return sim_rerr(r, "%zu pairs, not %u",
						sim_jlen(pairs), ev->nr_pairs);
			for (i = 0; i < ev->nr_pairs; i++) {
				snprintf(r->where, sizeof(r->where),
					 "offsets[%u].policies[%u].pairs[%u]",
					 o, p, i);
				ret = sim_read_pair(r, sim_jitem(pairs, i), ev, i,
						    sim_result_at(ev, o, p, i));
				if (ret)
					return ret;
			}
		}
	}
	r->where[0] = '\0';
	return 0;
}

/* The timeline, if the JSON has one. */
static int sim_read_timeline(struct sim_reader *r,
			     const struct json_object *root,
			     const struct sim_eval *ev,
			     struct sim_timeline *tl)
{
	const struct json_object *tj = sim_json_get(root, "timeline"), *pols;
	char name[2 * WL_NAME_LEN];
	unsigned int t;
	int pair, ret;
	size_t b, nr_blocks;
	u64 v;

	if (!tj)
		return 0;
	snprintf(r->where, sizeof(r->where), "timeline");
	ret = sim_str(r, tj, "pair", name, sizeof(name)) ?:
	      sim_u64(r, tj, "offset_pct", false, &v);
	if (ret)
		return ret;
	pair = sim_find_pair(ev, name);
	if (pair < 0)
		return sim_rerr(r, "no pair '%s'", name);
	tl->pair = pair;
	tl->offset = v;
	pols = sim_member(r, tj, "policies", json_type_array);
	if (!pols)
		return SIM_EXIT_USAGE;
	if (sim_jlen(pols) > SIM_MAX_POLICIES)
		return sim_rerr(r, "more than %d policies", SIM_MAX_POLICIES);
	for (t = 0; t < sim_jlen(pols); t++) {
		const struct json_object *pj = sim_jitem(pols, t), *blocks;
		struct sim_out *out = &tl->outs[t];
		char pname[64];

		ret = sim_str(r, pj, "policy", pname, sizeof(pname));
		if (ret)
			return ret;
		tl->policies[t] = gtbs_policy_find(pname);
		if (!tl->policies[t])
			return sim_rerr(r, "unknown policy '%s'", pname);
		tl->nr_policies++;
		blocks = sim_member(r, pj, "blocks", json_type_array);
		if (!blocks)
			return SIM_EXIT_USAGE;
		nr_blocks = sim_jlen(blocks);
		out->blocks = calloc(nr_blocks ?: 1, sizeof(*out->blocks));
		if (!out->blocks) {
			sim_err("out of memory");
			return SIM_EXIT_SYSTEM;
		}
		for (b = 0; b < nr_blocks; b++) {
			const char *bs = sim_json_str(sim_jitem(blocks, b));
			struct sim_block *sb = &out->blocks[b];
			uint64_t start, end;
			int n = -1;

			if (!bs ||
			    sscanf(bs,
				   "%u %u %u %u %u %" SCNu64 " %" SCNu64 "%n",
				   &sb->run, &sb->grid, &sb->sm, &sb->slot,
				   &sb->block, &start, &end, &n) != 7 ||
			    bs[n] || sb->run > 1 ||
			    sb->sm >= ev->cfg.nr_sms)
				return sim_rerr(r, "policy %s: bad block %zu",
						pname, b);
			sb->start = start;
			sb->end = end;
		}
		out->nr_blocks = nr_blocks;
	}
	r->where[0] = '\0';
	return 0;
}

static int sim_read_policies(struct sim_reader *r,
			     const struct json_object *root,
			     struct sim_eval *ev)
{
	const struct json_object *pols = sim_member(r, root, "policies",
						    json_type_array);
	const struct json_object *offs = sim_member(r, root, "offsets_pct",
						    json_type_array);
	unsigned int i;
	const char *s;
	u64 v;

	if (!pols || !offs)
		return SIM_EXIT_USAGE;
	if (!sim_jlen(pols) || sim_jlen(pols) > SIM_MAX_POLICIES)
		return sim_rerr(r, "%zu policies", sim_jlen(pols));
	for (i = 0; i < sim_jlen(pols); i++) {
		s = sim_json_str(sim_jitem(pols, i));
		if (!s)
			return sim_rerr(r, "policies[%u] is not a string", i);
		ev->policies[i] = gtbs_policy_find(s);
		if (!ev->policies[i])
			return sim_rerr(r, "unknown policy '%s'", s);
	}
	ev->nr_policies = sim_jlen(pols);
	if (!sim_jlen(offs) || sim_jlen(offs) > SIM_MAX_OFFSETS)
		return sim_rerr(r, "%zu offsets", sim_jlen(offs));
	for (i = 0; i < sim_jlen(offs); i++) {
		s = sim_json_num(sim_jitem(offs, i));
		if (!s || sim_parse_uint(s, 0, SIM_MAX_OFFSET_PCT, &v))
			return sim_rerr(r, "offsets_pct[%u] is not 0..%d", i,
					SIM_MAX_OFFSET_PCT);
		ev->offsets[i] = v;
	}
	ev->nr_offsets = sim_jlen(offs);
	return 0;
}

/* The top-level members other than the results. */
static int sim_read_head(struct sim_reader *r, const struct json_object *root,
			 struct sim_eval *ev)
{
	const char *backend, *key;
	int ret;
	u64 v;

	ret = sim_strdup(r, root, "tool", false, &ev->tool) ?:
	      sim_strdup(r, root, "workloads", false, &ev->file) ?:
	      sim_strdup(r, root, "device", true, &ev->device) ?:
	      sim_u64(r, root, "time_scale_ps", true, &ev->time_scale_ps) ?:
	      sim_u64(r, root, "seed", false, &ev->seed);
	if (ret)
		return ret;
	backend = sim_json_str(sim_member(r, root, "backend",
					  json_type_string));
	key = sim_json_str(sim_member(r, root, "sjf_key", json_type_string));
	if (!backend || !key)
		return SIM_EXIT_USAGE;
	if (strcmp(backend, "module") && strcmp(backend, "simulator"))
		return sim_rerr(r, "unknown backend '%s'", backend);
	ev->module = !strcmp(backend, "module");
	if (ev->module && !ev->device)
		return sim_rerr(r, "a module's results without 'device'");
	if (strcmp(key, "model") && strcmp(key, "measured"))
		return sim_rerr(r, "unknown sjf_key '%s'", key);
	ev->sjf_model = !strcmp(key, "model");
	ev->seed_mix = sim_seed_mix(ev->seed);
	ret = sim_read_modes(root, &ev->modes);
	if (ret)
		return sim_rerr(r, "unknown predictor or share_mode");
	gtbs_config_default(&ev->cfg);
	/* the device preset, absent from the JSON of older releases */
	key = sim_json_str(sim_json_get(root, "preset"));
	if (key) {
		const struct gtbs_dev_preset *p = gtbs_config_preset(key);

		if (!p)
			return sim_rerr(r, "unknown preset '%s'", key);
		ev->cfg = p->cfg;
		ev->preset = p->name;
	} else if (sim_json_get(root, "preset")) {
		return sim_rerr(r, "'preset' is not a string");
	}
	key = sim_json_str(sim_member(r, root, "timing_model",
				      json_type_string));
	if (!key)
		return SIM_EXIT_USAGE;
	if (sim_timing_parse(key, &ev->cfg))
		return sim_rerr(r, "unknown timing_model '%s'", key);
	/* absent from the JSON of releases before block times had waves */
	key = sim_json_str(sim_json_get(root, "block_times"));
	ev->cfg.block_times = GTBS_BLOCK_TIMES_INDEPENDENT;
	if (sim_json_has(root, "block_times") &&
	    (!key || (strcmp(key, "independent") && strcmp(key, "wave"))))
		return sim_rerr(r, "block_times is not wave or independent");
	if (key && !strcmp(key, "wave"))
		ev->cfg.block_times = GTBS_BLOCK_TIMES_WAVE;
	ret = sim_u64(r, root, "nr_sms", false, &v);
	if (ret)
		return ret;
	if (!v || v > GTBS_MAX_SMS)
		return sim_rerr(r, "nr_sms %" PRIu64, (uint64_t)v);
	ev->cfg.nr_sms = v;
	ret = sim_u64(r, root, "max_blocks_per_sm", false, &v);
	if (ret)
		return ret;
	if (!v || v > GTBS_MAX_BLOCKS_PER_SM)
		return sim_rerr(r, "max_blocks_per_sm %" PRIu64, (uint64_t)v);
	ev->cfg.max_blocks_per_sm = v;
	ret = sim_u64(r, root, "offset0_cycles", false, &v);
	if (ret)
		return ret;
	if (v != SIM_OFFSET0_CYCLES)
		return sim_rerr(r, "offset0_cycles %" PRIu64 ", not %d",
				(uint64_t)v, SIM_OFFSET0_CYCLES);
	return sim_read_policies(r, root, ev);
}

/* Read a whole file, or standard input for "-". */
static char *sim_slurp(const char *path)
{
	size_t len = 0, cap = 1 << 16, n;
	FILE *f = strcmp(path, "-") ? fopen(path, "re") : stdin;
	char *buf, *nb;

	if (!f)
		return NULL;
	buf = malloc(cap);
	while (buf) {
		n = fread(buf + len, 1, cap - len - 1, f);
		len += n;
		if (n == 0)
			break;
		if (len + 1 == cap) {
			cap *= 2;
			nb = realloc(buf, cap);
			if (!nb) {
				free(buf);
				buf = NULL;
				errno = ENOMEM;
			}
			buf = nb;
		}
	}
	if (buf && ferror(f)) {
		free(buf);
		buf = NULL;
	}
	if (f != stdin)
		fclose(f);
	if (buf)
		buf[len] = '\0';
	return buf;
}

/* ---- JSON through json-c (sim.h), for this file and sweep.c ---- */

/* as deep as the reader before json-c allowed */
#define SIM_JSON_MAX_DEPTH	64

/**
 * sim_json_parse() - parse a JSON text with json-c
 * @text: NUL-terminated.
 * @err: out: on failure, "line L, column C: what".
 * @errlen: size of @err.
 * @ret: out: 0, -EINVAL (not JSON) or -ENOMEM.
 *
 * Strict RFC 8259 as json-c's JSON_TOKENER_STRICT has it (it also takes
 * a few things the RFC does not, such as 'single quotes'), nested at most
 * %SIM_JSON_MAX_DEPTH deep, nothing but white space after the value.
 * Members named twice: json-c keeps the last.
 *
 * Return: the value (json_object_put() it; NULL also for a JSON null).
 */
struct json_object *sim_json_parse(const char *text, char *err,
				   size_t errlen, int *ret)
{
	size_t len = strlen(text), end, i, line = 1, col = 1;
	enum json_tokener_error jerr;
	struct json_object *root;
	struct json_tokener *tok;
	const char *what;

	*ret = 0;
	err[0] = '\0';
	if (len > INT_MAX) {
		snprintf(err, errlen, "larger than %d bytes", INT_MAX);
		*ret = -EINVAL;
		return NULL;
	}
	tok = json_tokener_new_ex(SIM_JSON_MAX_DEPTH);
	if (!tok) {
		snprintf(err, errlen, "out of memory");
		*ret = -ENOMEM;
		return NULL;
	}
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT);
	root = json_tokener_parse_ex(tok, text, (int)len);
	jerr = json_tokener_get_error(tok);
	end = json_tokener_get_parse_end(tok);
	json_tokener_free(tok);
	if (jerr == json_tokener_success) {
		end += strspn(text + end, " \t\r\n");
		if (end == len)
			return root;
		json_object_put(root);
		what = "text after the value";
	} else if (jerr == json_tokener_continue) {
		end = len;
		what = "unexpected end of input";
	} else {
		what = json_tokener_error_desc(jerr);
	}
	for (i = 0; i < end && i < len; i++, col++)
		if (text[i] == '\n') {
			line++;
			col = 0;
		}
	if (end < len && text[end] > ' ' && text[end] < 0x7f)
		snprintf(err, errlen, "line %zu, column %zu: %s at '%c'",
			 line, col, what, text[end]);
	else
		snprintf(err, errlen, "line %zu, column %zu: %s", line, col,
			 what);
	*ret = -EINVAL;
	return NULL;
}

/**
 * sim_json_get() - a member of an object
 * @obj: the object (or anything else, or NULL: NULL).
 * @key: the member's name.
 *
 * Return: its value; NULL if absent or null.
 */
struct json_object *sim_json_get(const struct json_object *obj,
				 const char *key)
{
	struct json_object *v = NULL;

	return json_object_object_get_ex(obj, key, &v) ? v : NULL;
}

/* Whether @obj has a member @key, null or not. */
bool sim_json_has(const struct json_object *obj, const char *key)
{
	return json_object_object_get_ex(obj, key, NULL);
}

/*
 * A number's text: an integer's as json-c prints it (strict parsing
 * leaves no other way to write it but "-0"), a decimal's as in the file
 * (json-c keeps it for doubles it parses).  NULL if @v is no number.
 */
const char *sim_json_num(const struct json_object *v)
{
	if (!json_object_is_type(v, json_type_int) &&
	    !json_object_is_type(v, json_type_double))
		return NULL;
	return json_object_get_string((struct json_object *)v);
}

/* A string value; NULL if @v is no string. */
const char *sim_json_str(const struct json_object *v)
{
	if (!json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string((struct json_object *)v);
}

/**
 * sim_load_results() - a sweep from its JSON
 * @path: the file, or "-" for standard input.
 * @ev: zeroed; out: the sweep, as after sim_eval_run() (no backend);
 *	release with sim_results_free(), also on error.
 * @tl: zeroed; out: the timeline if the JSON has one (@nr_policies 0
 *	if not); its outputs are released with sim_out_free().
 *
 * Return: 0, or an exit status after a message.
 */
int sim_load_results(const char *path, struct sim_eval *ev,
		     struct sim_timeline *tl)
{
	struct sim_reader r = { .path = path };
	struct json_object *root;
	char err[256];
	const char *why;
	char *text;
	unsigned int i;
	int ret;

	text = sim_slurp(path);
	if (!text) {
		sim_err("--results: %s: %s", path, strerror(errno));
		return errno == ENOMEM ? SIM_EXIT_SYSTEM : SIM_EXIT_USAGE;
	}
	root = sim_json_parse(text, err, sizeof(err), &ret);
	free(text);
	if (ret) {
		sim_err("%s: %s", path, err);
		return ret == -ENOMEM ? SIM_EXIT_SYSTEM : SIM_EXIT_USAGE;
	}
	ev->set = calloc(1, sizeof(*ev->set));
	if (!ev->set) {
		json_object_put(root);
		sim_err("out of memory");
		return SIM_EXIT_SYSTEM;
	}
	if (!json_object_is_type(root, json_type_object))
		ret = sim_rerr(&r, "not a JSON object");
	if (!ret)
		ret = sim_read_head(&r, root, ev) ?:
		      sim_read_alone(&r, root, ev);
	if (!ret) {
		ret = sim_eval_prepare(ev, &why);
		if (ret)
			ret = ret == -ENOMEM ? SIM_EXIT_SYSTEM :
			      sim_rerr(&r, "%s", why);
	}
	if (!ret) {
		ev->results = calloc((size_t)ev->nr_offsets * ev->nr_policies *
				     ev->nr_pairs, sizeof(*ev->results));
		ev->geomeans = calloc((size_t)ev->nr_offsets *
				      ev->nr_policies, sizeof(*ev->geomeans));
		if (!ev->results || !ev->geomeans) {
			sim_err("out of memory");
			ret = SIM_EXIT_SYSTEM;
		}
	}
	if (!ret)
		ret = sim_read_offsets(&r, root, ev);
	if (!ret)
		ret = sim_read_timeline(&r, root, ev, tl);
	if (!ret)
		sim_eval_geomeans(ev);
	for (i = 0; ret && i < tl->nr_policies; i++)
		sim_out_free(&tl->outs[i]);
	if (ret)
		tl->nr_policies = 0;
	json_object_put(root);
	return ret;
}

/**
 * sim_results_free() - release what sim_load_results() allocated
 * @ev: the sweep.
 */
void sim_results_free(struct sim_eval *ev)
{
	sim_eval_free(ev);
	wl_free(ev->set);
	free((char *)ev->tool);
	free((char *)ev->file);
	free((char *)ev->device);
}
