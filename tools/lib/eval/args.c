// SPDX-License-Identifier: GPL-2.0
/*
 * args.c - command-line helpers of the evaluation commands.
 *
 * Shared by gputbs-sim (eval, run, report) and by "gputbs eval", which
 * runs the same sweep on the module: the same option syntax and the same
 * messages, prefixed with the name of the program (@sim_progname).
 *
 * Copyright (C) 2026 The gputbs developers
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../input.h"
#include "../parallel.h"
#include "args.h"

/* The prefix of every message: "gputbs-sim" or "gputbs". */
const char *sim_progname = "gputbs-sim";

/**
 * sim_err() - print "PROG: message" to stderr
 * @fmt: printf format.
 */
void sim_err(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fprintf(stderr, "%s: ", sim_progname);
	va_start(ap, fmt);
	input_vprint(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/**
 * sim_err_line() - one error line of a workload file (wl_errors())
 * @line: "FILE:LINE: reason".
 */
void sim_err_line(const char *line)
{
	sim_err("%s", line);
}

/* The registered policies (@sweep: but those of tenants), by @sep. */
static void sim_registry_names(char *buf, size_t len, const char *sep,
			       bool sweep)
{
	const struct gtbs_policy_ops *p;
	unsigned int i;
	size_t n = 0;

	buf[0] = '\0';
	for (i = 0; (p = gtbs_policy_at(i)) && n < len; i++)
		if (!sweep || !(p->flags & GTBS_POLICY_TENANTS))
			n += snprintf(buf + n, len - n, "%s%s", n ? sep : "",
				      p->name);
}

/**
 * sim_registry() - the registered policies, separated by @sep
 * @buf: output.
 * @len: its size.
 * @sep: separator.
 */
void sim_registry(char *buf, size_t len, const char *sep)
{
	sim_registry_names(buf, len, sep, false);
}

/**
 * sim_registry_sweep() - the policies a sweep runs by default
 *	(sim_all_policies()), separated by @sep
 * @buf: output.
 * @len: its size.
 * @sep: separator.
 */
void sim_registry_sweep(char *buf, size_t len, const char *sep)
{
	sim_registry_names(buf, len, sep, true);
}

/**
 * sim_usage_error() - "PROG: message", a blank line and the usage
 * @help: prints the usage of the command.
 * @fmt: printf format of the message.
 *
 * Return: %SIM_EXIT_USAGE.
 */
int sim_usage_error(sim_help_fn *help, const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fprintf(stderr, "%s: ", sim_progname);
	va_start(ap, fmt);
	input_vprint(stderr, fmt, ap);
	va_end(ap);
	fputs("\n\n", stderr);
	help(stderr);
	return SIM_EXIT_USAGE;
}

/**
 * sim_parse_uint() - a decimal unsigned integer in [@lo, @hi]
 * @s: digits only.
 * @lo: smallest accepted.
 * @hi: largest accepted.
 * @out: out: the value.
 *
 * Return: 0, -EINVAL or -ERANGE.
 */
int sim_parse_uint(const char *s, u64 lo, u64 hi, u64 *out)
{
	u64 v = 0;

	if (!*s || strlen(s) > 20)
		return -EINVAL;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -EINVAL;
		if (v > (U64_MAX - 9) / 10)
			return -ERANGE;
		v = v * 10 + (u64)(*s - '0');
	}
	if (v < lo || v > hi)
		return -ERANGE;
	*out = v;
	return 0;
}

/**
 * sim_sjf_note() - say once on stderr that sjf changed meaning
 *
 * The module's note (gputbs_policy_note()) for the command line: ``sjf``
 * is now the paper's serial SJF, the former oracle ``srtf-oracle``.
 */
void sim_sjf_note(void)
{
	static bool said;

	if (said)
		return;
	said = true;
	fputs(SIM_SJF_NOTE, stderr);
}

/**
 * sim_parse_policies() - a comma-separated policy list
 * @help: usage of the command, for errors.
 * @opt: the option's name, for errors.
 * @arg: the list.
 * @out: out: at most %SIM_MAX_POLICIES, none twice, each registered.
 * @n: out: entries of @out.
 *
 * Return: 0, or an exit status after a message.
 */
int sim_parse_policies(sim_help_fn *help, const char *opt, const char *arg,
		       const struct gtbs_policy_ops **out, unsigned int *n)
{
	char *list = strdup(arg), *s, *save = NULL;
	char reg[256];
	unsigned int i;
	int ret = 0;

	if (!list) {
		sim_err("out of memory");
		return SIM_EXIT_SYSTEM;
	}
	*n = 0;
	sim_registry(reg, sizeof(reg), " ");
	if (!*arg || arg[0] == ',' || arg[strlen(arg) - 1] == ',' ||
	    strstr(arg, ",,"))
		ret = sim_usage_error(help, "%s: bad policy list '%s'", opt,
				      arg);
	for (s = strtok_r(list, ",", &save); !ret && s;
	     s = strtok_r(NULL, ",", &save)) {
		const struct gtbs_policy_ops *p = gtbs_policy_find(s);

		if (!p || strchr(s, '\n')) {
			ret = sim_usage_error(help, "%s: unknown policy '%s' (registered: %s)",
					      opt, s, reg);
			break;
		}
		if (p == &gtbs_policy_sjf)
			sim_sjf_note();
		for (i = 0; i < *n; i++)
			if (out[i] == p)
				break;
		if (i < *n) {
			ret = sim_usage_error(help, "%s: policy '%s' given twice",
					      opt, s);
		} else if (*n == SIM_MAX_POLICIES) {
			ret = sim_usage_error(help, "%s: more than %d policies",
					      opt, SIM_MAX_POLICIES);
		} else {
			out[(*n)++] = p;
		}
	}
	free(list);
	return ret;
}

/**
 * sim_all_policies() - every registered policy but those that order
 *	tenants (%GTBS_POLICY_TENANTS: fair), in registration order
 * @help: usage of the command, for errors.
 * @out: out: the built-ins, then the plug-ins.
 * @n: out: entries of @out.
 *
 * Return: 0, or an exit status after a message if more than
 * %SIM_MAX_POLICIES are registered.
 */
int sim_all_policies(sim_help_fn *help, const struct gtbs_policy_ops **out,
		     unsigned int *n)
{
	const struct gtbs_policy_ops *p;
	unsigned int i;

	for (*n = 0, i = 0; (p = gtbs_policy_at(i)); i++) {
		/* tenant policies: a sweep of programs names them */
		if (p->flags & GTBS_POLICY_TENANTS)
			continue;
		if (*n == SIM_MAX_POLICIES)
			return sim_usage_error(help, "more than %d policies registered: choose with --policies",
					       SIM_MAX_POLICIES);
		out[(*n)++] = p;
	}
	return 0;
}

/**
 * sim_add_plugin() - --policy-plugin FILE, remembered until the options
 * are parsed
 * @help: usage of the command, for errors.
 * @arg: the file.
 * @paths: the files so far; @arg is appended.
 * @n: in and out: entries of @paths.
 *
 * The files are loaded (sim_load_plugins(), gputbs-sim only) after every
 * option is parsed, so that --policies and --param may name their
 * policies in any order.
 *
 * Return: 0, or an exit status after a message.
 */
int sim_add_plugin(sim_help_fn *help, const char *arg, const char **paths,
		   unsigned int *n)
{
	if (!*arg)
		return sim_usage_error(help, "%s",
				       "--policy-plugin: empty file name");
	if (*n == SIM_MAX_PLUGINS)
		return sim_usage_error(help, "--policy-plugin: more than %d plug-ins",
				       SIM_MAX_PLUGINS);
	paths[(*n)++] = arg;
	return 0;
}

/**
 * sim_parse_format() - text or json
 * @help: usage of the command, for errors.
 * @arg: the argument.
 * @json: out: json.
 *
 * Return: 0, or an exit status after a message.
 */
int sim_parse_format(sim_help_fn *help, const char *arg, bool *json)
{
	if (!strcmp(arg, "text"))
		*json = false;
	else if (!strcmp(arg, "json"))
		*json = true;
	else
		return sim_usage_error(help, "unknown format '%s' (text or json)",
				       arg);
	return 0;
}

/**
 * sim_jobs_default() - --jobs' default: the online CPUs
 *
 * Return: sysconf(_SC_NPROCESSORS_ONLN), within 1..%PAR_MAX_JOBS.
 */
unsigned int sim_jobs_default(void)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	return cpus < 1 ? 1 : cpus > PAR_MAX_JOBS ? PAR_MAX_JOBS : cpus;
}

/**
 * sim_parse_jobs() - --jobs N: worker threads, 1..%PAR_MAX_JOBS
 * @help: usage of the command, for errors.
 * @arg: the argument.
 * @jobs: out: N.
 *
 * The results never depend on N (par_for()).
 *
 * Return: 0, or an exit status after a message.
 */
int sim_parse_jobs(sim_help_fn *help, const char *arg, unsigned int *jobs)
{
	u64 v;

	if (sim_parse_uint(arg, 1, PAR_MAX_JOBS, &v))
		return sim_usage_error(help, "bad job count '%s' (1..%d)", arg,
				       PAR_MAX_JOBS);
	*jobs = v;
	return 0;
}

/**
 * sim_parse_sms() - --sms N
 * @help: usage of the command, for errors.
 * @arg: the argument.
 * @cfg: out: its &gtbs_dev_config.nr_sms.
 *
 * Return: 0, or an exit status after a message.
 */
int sim_parse_sms(sim_help_fn *help, const char *arg,
		  struct gtbs_dev_config *cfg)
{
	u64 v;

	if (sim_parse_uint(arg, 1, GTBS_MAX_SMS, &v))
		return sim_usage_error(help, "bad SM count '%s' (1..%d)", arg,
				       GTBS_MAX_SMS);
	cfg->nr_sms = v;
	return 0;
}

/**
 * sim_parse_preset() - gputbs-sim's --device NAME (or --preset NAME)
 * @help: usage of the command, for errors.
 * @arg: the argument: a preset's name (gtbs_config_preset()).
 * @preset: out: the preset.
 *
 * Return: 0, or an exit status after a message.
 */
int sim_parse_preset(sim_help_fn *help, const char *arg,
		     const struct gtbs_dev_preset **preset)
{
	const struct gtbs_dev_preset *p;
	char names[64];
	size_t len = 0;
	unsigned int i;

	*preset = gtbs_config_preset(arg);
	if (*preset)
		return 0;
	names[0] = '\0';
	for (i = 0; (p = gtbs_config_preset_at(i)); i++)
		len += snprintf(names + len, len < sizeof(names) ?
				sizeof(names) - len : 0, "%s%s", i ? ", " : "",
				p->name);
	return sim_usage_error(help, "unknown device preset '%s' (%s)", arg,
			       names);
}

/**
 * sim_apply_preset() - give a device a preset, under the options that
 *	override its fields
 * @cfg: in: the device as the other options left it; out: @preset's
 *	configuration with --sms and --timing-model kept where given.
 * @preset: the preset, or NULL for none (@cfg unchanged).
 * @sms_given: --sms was given: keep @cfg's SM count.
 * @timing_given: --timing-model was given: keep @cfg's timing model.
 *
 * So --sms overrides the preset's SM count wherever it is on the
 * command line.
 */
void sim_apply_preset(struct gtbs_dev_config *cfg,
		      const struct gtbs_dev_preset *preset, bool sms_given,
		      bool timing_given)
{
	struct gtbs_dev_config old = *cfg;

	if (!preset)
		return;
	*cfg = preset->cfg;
	if (sms_given)
		cfg->nr_sms = old.nr_sms;
	if (timing_given)
		cfg->timing_model = old.timing_model;
	/* not a property of a device: --block-times, or the default */
	cfg->block_times = old.block_times;
}

static const char * const sim_block_times_names[] = {
	[GTBS_BLOCK_TIMES_WAVE] = "wave",
	[GTBS_BLOCK_TIMES_INDEPENDENT] = "independent",
};

/**
 * sim_block_times_name() - name of a block-time model
 * @model: &enum gtbs_block_times.
 *
 * Return: "wave" or "independent" (timing-model.rst, "Waves"), "?"
 * otherwise.
 */
const char *sim_block_times_name(u32 model)
{
	return model < GTBS_NR_BLOCK_TIMES ? sim_block_times_names[model] : "?";
}

/**
 * sim_parse_block_times() - --block-times wave|independent
 * @help: usage of the command, for errors.
 * @arg: the argument.
 * @cfg: out: its &gtbs_dev_config.block_times.
 *
 * Return: 0, or an exit status after a message.
 */
int sim_parse_block_times(sim_help_fn *help, const char *arg,
			  struct gtbs_dev_config *cfg)
{
	u32 m;

	for (m = 0; m < GTBS_NR_BLOCK_TIMES; m++) {
		if (!strcmp(arg, sim_block_times_names[m])) {
			cfg->block_times = m;
			return 0;
		}
	}
	return sim_usage_error(help, "unknown block times '%s' (wave or independent)",
			       arg);
}

static const char * const sim_timing_names[] = {
	[GTBS_TIMING_OVERLAP] = "overlap",
	[GTBS_TIMING_UNIFORM] = "uniform",
};

/**
 * sim_timing_name() - name of a timing model
 * @model: &enum gtbs_timing_model.
 *
 * Return: "overlap" or "uniform" (timing-model.rst), "?" otherwise.
 */
const char *sim_timing_name(u32 model)
{
	return model < GTBS_NR_TIMING_MODELS ? sim_timing_names[model] : "?";
}

/**
 * sim_timing_parse() - a timing model by name
 * @name: "overlap" or "uniform".
 * @cfg: out: its &gtbs_dev_config.timing_model.
 *
 * Return: 0, or -EINVAL for another name.
 */
int sim_timing_parse(const char *name, struct gtbs_dev_config *cfg)
{
	u32 m;

	for (m = 0; m < GTBS_NR_TIMING_MODELS; m++) {
		if (!strcmp(name, sim_timing_names[m])) {
			cfg->timing_model = m;
			return 0;
		}
	}
	return -EINVAL;
}

/**
 * sim_parse_timing() - --timing-model overlap|uniform
 * @help: usage of the command, for errors.
 * @arg: the argument.
 * @cfg: out: its &gtbs_dev_config.timing_model.
 *
 * Return: 0, or an exit status after a message.
 */
int sim_parse_timing(sim_help_fn *help, const char *arg,
		     struct gtbs_dev_config *cfg)
{
	if (sim_timing_parse(arg, cfg))
		return sim_usage_error(help, "unknown timing model '%s' (overlap or uniform)",
				       arg);
	return 0;
}

/**
 * sim_parse_seed() - --seed N
 * @help: usage of the command, for errors.
 * @arg: the argument.
 * @seed: out: the seed.
 *
 * Return: 0, or an exit status after a message.
 */
int sim_parse_seed(sim_help_fn *help, const char *arg, u64 *seed)
{
	if (sim_parse_uint(arg, 0, U64_MAX, seed))
		return sim_usage_error(help, "bad seed '%s' (0..2^64-1)", arg);
	return 0;
}

/**
 * sim_modes_default() - the settings of a new device
 * @m: out: %GTBS_PRED_MODE_DEFAULT, every policy parameter at its default.
 */
void sim_modes_default(struct sim_modes *m)
{
	memset(m, 0, sizeof(*m));
	m->pred_mode = GTBS_PRED_MODE_DEFAULT;
}

/**
 * sim_parse_preempt() - --preempt MODE and --switch-bw BYTES
 * @help: usage of the command, for errors.
 * @opt: %SIM_OPT_PREEMPT, %SIM_OPT_SWITCH_BW or %SIM_OPT_CAP_PERIOD.
 * @arg: drain, switch, flush or auto; or bytes per cycle, 1..65536.
 * @m: out: &sim_modes.preempt_mode or &sim_modes.switch_bw.
 *
 * Return: 0, or an exit status after a message.
 */
int sim_parse_preempt(sim_help_fn *help, int opt, const char *arg,
		      struct sim_modes *m)
{
	u64 v;
	u32 i;

	if (opt == SIM_OPT_CAP_PERIOD) {
		if (sim_parse_uint(arg, 1, 1ULL << 33, &v))
			return sim_usage_error(help, "--cap-period: '%s' is not 1..8589934592 cycles",
					       arg);
		m->cap_period = v;
		return 0;
	}
	if (opt == SIM_OPT_SWITCH_BW) {
		if (sim_parse_uint(arg, 1, 65536, &v))
			return sim_usage_error(help, "--switch-bw: '%s' is not 1..65536 bytes per cycle",
					       arg);
		m->switch_bw = v;
		return 0;
	}
	for (i = 0; i < GTBS_NR_PREEMPT_MODES; i++)
		if (!strcmp(arg, gtbs_preempt_mode_name(i))) {
			m->preempt_mode = i;
			return 0;
		}
	return sim_usage_error(help, "--preempt: unknown mode '%s' (drain, switch, flush or auto)",
			       arg);
}

/**
 * sim_parse_param() - --param NAME=VALUE
 * @help: usage of the command, for errors.
 * @arg: the option's argument.
 * @m: out: appended to (or replaces a NAME in) &sim_modes.params.
 *
 * Only the form is checked here; sim_check_params() checks the names and
 * values against the registered policies once plug-ins are loaded.
 *
 * Return: 0, or an exit status after a message.
 */
int sim_parse_param(sim_help_fn *help, const char *arg, struct sim_modes *m)
{
	const char *eq = strchr(arg, '=');
	struct sim_param *p = NULL;
	size_t len = eq ? (size_t)(eq - arg) : 0;
	u32 i;

	if (!eq || !len || len >= sizeof(p->name) ||
	    strlen(eq + 1) >= sizeof(p->value) || !eq[1])
		return sim_usage_error(help, "--param: '%s' is not NAME=VALUE (NAME up to 31, VALUE up to 31 characters)",
				       arg);
	for (i = 0; i < m->nr_params; i++)
		if (strlen(m->params[i].name) == len &&
		    !strncmp(m->params[i].name, arg, len))
			p = &m->params[i];
	if (!p) {
		if (m->nr_params == SIM_MAX_PARAMS)
			return sim_usage_error(help, "--param: more than %d parameters",
					       SIM_MAX_PARAMS);
		p = &m->params[m->nr_params++];
	}
	memcpy(p->name, arg, len);
	p->name[len] = '\0';
	strcpy(p->value, eq + 1);
	return 0;
}

/**
 * sim_check_params() - every --param names a parameter of a registered
 * policy, with a value valid for each policy that declares it
 * @help: usage of the command, for errors.
 * @m: the settings.
 *
 * Return: 0, or an exit status after a message.
 */
int sim_check_params(sim_help_fn *help, const struct sim_modes *m)
{
	const struct gtbs_policy_ops *ops;
	u32 i, k;
	u64 v;
	int idx;

	for (i = 0; i < m->nr_params; i++) {
		const struct sim_param *p = &m->params[i];
		bool found = false;

		for (k = 0; (ops = gtbs_policy_at(k)); k++) {
			const struct gtbs_policy_param *pp;

			idx = gtbs_policy_param_find(ops, p->name);
			if (idx < 0)
				continue;
			found = true;
			pp = &ops->params[idx];
			if (gtbs_policy_param_parse(pp, p->value, &v) ||
			    v < pp->min || v > pp->max)
				return sim_usage_error(help, "--param %s: '%s' is not valid for %s (%llu..%llu%s%s%s)",
						       p->name, p->value,
						       ops->name, pp->min,
						       pp->max,
						       *pp->unit ? " " : "",
						       pp->unit,
						       pp->names ? ", or a name" : "");
		}
		if (!found)
			return sim_usage_error(help, "--param: no registered policy has a parameter '%s'",
					       p->name);
	}
	return 0;
}

/**
 * sim_modes_apply() - set a device's predictor mode and its policy's
 * parameters from the settings
 * @dev: a device just initialised with its policy.
 * @m: the settings, checked by sim_check_params().
 * @why: out: the reason of an error.
 *
 * Parameters the policy does not declare are for other policies.
 *
 * Return: 0, or -EINVAL with @why set.
 */
int sim_modes_apply(struct gtbs_dev *dev, const struct sim_modes *m,
		    const char **why)
{
	u32 i;
	u64 v;
	int idx;

	gtbs_dev_set_pred_mode(dev, m->pred_mode);
	if (m->cap_period)	/* before any tenant is made */
		dev->cap_period = m->cap_period;
	for (i = 0; i < m->nr_params; i++) {
		idx = gtbs_policy_param_find(dev->policy, m->params[i].name);
		if (idx < 0)
			continue;
		if (gtbs_policy_param_parse(&dev->policy->params[idx],
					    m->params[i].value, &v) ||
		    gtbs_policy_param_set(dev, idx, v, dev->clock)) {
			*why = "a --param value out of the parameter's range";
			return -EINVAL;
		}
	}
	return 0;
}

/**
 * sim_param_text() - a parameter's setting as text, for reports
 * @m: the settings.
 * @name: the parameter.
 * @buf: room for a number.
 * @len: bytes at @buf.
 *
 * Return: the --param value if given, else the default of the first
 * registered policy that declares @name (its value name if it has one),
 * else NULL.
 */
const char *sim_param_text(const struct sim_modes *m, const char *name,
			   char *buf, size_t len)
{
	const struct gtbs_policy_ops *ops;
	const struct gtbs_policy_param *pp;
	u32 i;
	int idx;

	for (i = m->nr_params; i--;)
		if (!strcmp(m->params[i].name, name))
			return m->params[i].value;
	for (i = 0; (ops = gtbs_policy_at(i)); i++) {
		idx = gtbs_policy_param_find(ops, name);
		if (idx < 0)
			continue;
		pp = &ops->params[idx];
		if (pp->names)
			return pp->names[pp->def];
		snprintf(buf, len, "%llu", pp->def);
		return buf;
	}
	return NULL;
}

/**
 * sim_parse_pred_mode() - --predictor literal|extended
 * @help: usage of the command, for errors.
 * @arg: the name, as gtbs_pred_mode_name() spells it.
 * @m: out: &sim_modes.pred_mode.
 *
 * Return: 0, or an exit status after a message.
 */
int sim_parse_pred_mode(sim_help_fn *help, const char *arg,
			struct sim_modes *m)
{
	u32 i;

	for (i = 0; i < GTBS_NR_PRED_MODES; i++) {
		if (!strcmp(arg, gtbs_pred_mode_name(i))) {
			m->pred_mode = i;
			return 0;
		}
	}
	return sim_usage_error(help, "--predictor: unknown mode '%s' (literal or extended)",
			       arg);
}

/**
 * sim_parse_share_mode() - --share-mode MODE, the short form of
 * --param share_mode=MODE (SRTF/Adaptive's reading, device or sm)
 * @help: usage of the command, for errors.
 * @arg: the value.
 * @m: out: &sim_modes.params.
 *
 * Return: 0, or an exit status after a message.
 */
int sim_parse_share_mode(sim_help_fn *help, const char *arg,
			 struct sim_modes *m)
{
	char buf[64];

	if (strlen(arg) >= 32)
		return sim_usage_error(help, "--share-mode: unknown reading '%s'",
				       arg);
	snprintf(buf, sizeof(buf), "share_mode=%s", arg);
	return sim_parse_param(help, buf, m);
}

/**
 * sim_parse_time() - a TIME of the command line, as a workload file's
 * @s: the text; need not be NUL-terminated at @len.
 * @len: its length.
 * @t: out: the time: emulated cycles (a plain integer, 1..2^40) or an
 *	integer with a unit ns, us, ms or s (1 ns..2^40 ns).
 *
 * Shared by run --share-window and sweep --duration.
 *
 * Return: 0, -EINVAL (not a time), -EDOM (digits and an unknown unit) or
 * -ERANGE.
 */
int sim_parse_time(const char *s, size_t len, struct wl_time *t)
{
	static const struct { const char *unit; u64 ns; } units[] = {
		{ "ns", 1 }, { "us", 1000 }, { "ms", 1000000 },
		{ "s", 1000000000 },
	};
	size_t digits = strspn(s, "0123456789");
	unsigned int i;
	char num[24];
	u64 v;

	if (digits > len)
		digits = len;
	if (!digits || digits >= sizeof(num))
		return -EINVAL;
	memcpy(num, s, digits);
	num[digits] = '\0';
	for (i = 0; digits < len && i < ARRAY_SIZE(units); i++)
		if (len - digits == strlen(units[i].unit) &&
		    !strncmp(s + digits, units[i].unit, len - digits))
			break;
	if (i == ARRAY_SIZE(units))
		return -EDOM;
	if (sim_parse_uint(num, 1, WL_MAX_CYCLES, &v) ||
	    (digits < len && v > WL_MAX_TIME_NS / units[i].ns))
		return -ERANGE;
	*t = digits == len ? (struct wl_time) { .value = v, .ns = 0 } :
		(struct wl_time) { .value = v * units[i].ns, .ns = 1 };
	return 0;
}
