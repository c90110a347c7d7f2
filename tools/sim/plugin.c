// SPDX-License-Identifier: GPL-2.0
/*
 * plugin.c - policies loaded from shared objects: gputbs-sim
 * --policy-plugin FILE.so.
 *
 * A plug-in is a policy source built with -fPIC -shared that ends with
 * GTBS_POLICY_MODULE() (sm-emu/gtbs_policy_module.h): it exports
 * GTBS_POLICY_PLUGIN_SYMBOL, a pointer to its &struct gtbs_policy_ops, and
 * calls the core's functions, which gputbs-sim exports (it is linked with
 * --export-dynamic).  Only gputbs-sim links this file: "gputbs eval" runs
 * the module's policies, which are loaded with insmod.
 *
 * Copyright (C) 2026 The gputbs developers
 */
#include <dlfcn.h>

#include "gtbs_policy_module.h"
#include "sim.h"

/**
 * sim_load_plugin() - load a policy plug-in and register its policy
 * @path: the shared object's file, as given on the command line (a name
 *	without a slash is a file in the current directory, never a
 *	library looked up in the library path).
 *
 * The file stays loaded until the program exits: the registry keeps a
 * pointer to its ops.  Errors are "PROG: PATH: reason" on stderr: the
 * file cannot be loaded (dlerror(): not found, not a shared object, a
 * symbol the core does not export), it has no %GTBS_POLICY_PLUGIN_SYMBOL
 * or a NULL one, gtbs_policy_check() refuses its ops, a policy of that
 * name is registered already (a built-in, or another plug-in), or
 * %GTBS_MAX_POLICIES are.
 *
 * Return: 0, or %SIM_EXIT_USAGE after a message.
 */
int sim_load_plugin(const char *path)
{
	const struct gtbs_policy_ops *const *sym;
	const struct gtbs_policy_ops *ops;
	char file[4096];
	const char *why;
	void *handle;
	int ret;

	/* a file, never a library looked up in the library path */
	if (snprintf(file, sizeof(file), "%s%s", strchr(path, '/') ? "" : "./",
		     path) >= (int)sizeof(file)) {
		sim_err("%s: file name too long", path);
		return SIM_EXIT_USAGE;
	}
	handle = dlopen(file, RTLD_NOW | RTLD_LOCAL);
	if (!handle) {
		/* dlerror() names the file already, as "FILE: reason" */
		why = dlerror();
		if (why && !strncmp(why, file, strlen(file)) &&
		    !strncmp(why + strlen(file), ": ", 2))
			why += strlen(file) + 2;
		sim_err("%s: %s", path, why ? why : "cannot be loaded");
		return SIM_EXIT_USAGE;
	}
	sym = dlsym(handle, GTBS_POLICY_PLUGIN_SYMBOL);
	if (!sym || !*sym) {
		sim_err("%s: no %s symbol: not a policy built with GTBS_POLICY_MODULE()",
			path, GTBS_POLICY_PLUGIN_SYMBOL);
		dlclose(handle);
		return SIM_EXIT_USAGE;
	}
	ops = *sym;
	if (gtbs_policy_check(ops, &why)) {
		sim_err("%s: policy '%s' refused: %s", path,
			ops->name ? ops->name : "(null)", why);
		dlclose(handle);
		return SIM_EXIT_USAGE;
	}
	if (gtbs_policy_find(ops->name)) {
		/* the same file twice is the same ops: still a second name */
		sim_err("%s: policy '%s' refused: a policy of that name is registered",
			path, ops->name);
		dlclose(handle);
		return SIM_EXIT_USAGE;
	}
	ret = gtbs_policy_register(ops);
	if (ret) {
		/* gtbs_policy_register() said why (GTBS_MAX_POLICIES) */
		sim_err("%s: policy '%s' refused: %s", path, ops->name,
			strerror(-ret));
		dlclose(handle);
		return SIM_EXIT_USAGE;
	}
	return 0;
}

/**
 * sim_load_plugins() - sim_load_plugin() for each of a list, in order
 * @paths: the files, in command-line order.
 * @n: entries of @paths.
 *
 * Return: 0, or the exit status of the first that failed.
 */
int sim_load_plugins(const char * const *paths, unsigned int n)
{
	unsigned int i;
	int ret;

	for (i = 0; i < n; i++) {
		ret = sim_load_plugin(paths[i]);
		if (ret)
			return ret;
	}
	return 0;
}
