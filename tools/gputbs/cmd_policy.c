// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_policy.c - gputbs policy: load and unload BPF policies, list every
 * policy (Documentation/bpf.rst).
 *
 *   gputbs policy list
 *   gputbs policy load [--foreground] FILE.bpf.o
 *   gputbs policy unload NAME
 *
 * A BPF policy is a struct_ops map of type gtbs_bpf_ops in an object file
 * (samples/bpf/); loading attaches it with a BPF link, which registers the
 * policy in the module under the map's name field, and pins the link at
 * /sys/fs/bpf/gputbs/NAME, so that the policy outlives this process.
 * Unloading detaches the link and removes the pin: the module switches a
 * device that used the policy to fifo.  With --foreground nothing is
 * pinned: the policy lives until the loader exits (SIGINT, SIGTERM, or
 * killed: the kernel closes the link), as a sched_ext loader's does.  libbpf is the 6.12 tree's
 * (tools/lib/libbpf.mk), linked statically.
 *
 * Copyright (C) 2026 The gputbs developers
 */
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "cli.h"
#include "monitor_fmt.h"
#include "gtbs.h"

#define POLICY_ATTR	"/sys/class/misc/gputbs/policy"
#define BPFFS		"/sys/fs/bpf"
#define BPF_PIN_DIR	BPFFS "/gputbs"
#define BPFFS_MAGIC	0xcafe4a11

static const char usage_policy[] =
	"Usage: gputbs policy list\n"
	"       gputbs policy load [--foreground] FILE.bpf.o\n"
	"       gputbs policy unload NAME\n"
	"\n"
	"List the scheduling policies of the module (built-in, module, bpf; the\n"
	"current one marked), load a BPF policy (a gtbs_bpf_ops struct_ops in\n"
	"FILE.bpf.o, make bpf-samples) and pin it at /sys/fs/bpf/gputbs/NAME,\n"
	"or unload it: a device that used it goes back to fifo.  Select a\n"
	"loaded policy like any other (gputbs run --policy NAME).\n"
	"\n"
	"  --foreground   load: pin nothing, keep the policy until this process\n"
	"                 exits (SIGINT, SIGTERM or killed)\n"
	"  -h, --help     this help\n";

/* libbpf's warnings (the verifier's log among them) go to stderr */
static int policy_libbpf_print(enum libbpf_print_level level, const char *fmt,
			       va_list ap)
{
	if (level == LIBBPF_DEBUG)
		return 0;
	return vfprintf(stderr, fmt, ap);
}

/* /sys/fs/bpf mounted (mount it if not: a bare guest) and our directory */
static int policy_pin_dir(void)
{
	struct statfs st;

	if (statfs(BPFFS, &st) || st.f_type != BPFFS_MAGIC) {
		if (mount("bpf", BPFFS, "bpf", 0, NULL)) {
			err_msg("mount bpf on %s: %s", BPFFS, strerror(errno));
			return -errno;
		}
	}
	if (mkdir(BPF_PIN_DIR, 0700) && errno != EEXIST) {
		err_msg("%s: %s", BPF_PIN_DIR, strerror(errno));
		return -errno;
	}
	return 0;
}

/*
 * The policy's name: the "name" field of the map's initial value, laid
 * out by the object's own BTF of the struct (the program's gtbs_bpf_ops).
 */
static int policy_map_name(const struct bpf_object *obj,
			   const struct bpf_map *map, char *name, size_t len)
{
	const struct btf *btf = bpf_object__btf(obj);
	const struct btf_member *m;
	const struct btf_type *t;
	const char *data;
	size_t size;
	int i;

	data = bpf_map__initial_value((struct bpf_map *)map, &size);
	t = btf ? btf__type_by_id(btf, bpf_map__btf_value_type_id(map)) : NULL;
	if (!data || !t || !btf_is_struct(t))
		return -EINVAL;
	m = btf_members(t);
	for (i = 0; i < btf_vlen(t); i++, m++) {
		size_t off = btf_member_bit_offset(t, i) / 8;

		if (strcmp(btf__name_by_offset(btf, m->name_off), "name"))
			continue;
		if (off >= size)
			return -EINVAL;
		snprintf(name, len, "%.*s", (int)(size - off), data + off);
		return name[0] ? 0 : -EINVAL;
	}
	return -EINVAL;
}

/* --foreground: the links live until SIGINT or SIGTERM (or SIGKILL) */
static void policy_wait(void)
{
	sigset_t set;
	int sig;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigprocmask(SIG_BLOCK, &set, NULL);
	fflush(stdout);
	sigwait(&set, &sig);
}

static int policy_load(const char *file, bool foreground)
{
	struct bpf_link *links[8];
	int nr_links = 0, i;
	char pin[sizeof(BPF_PIN_DIR) + GTBS_POLICY_NAME_LEN + 1];
	char name[GTBS_POLICY_NAME_LEN];
	struct bpf_object *obj;
	struct bpf_map *map;
	struct bpf_link *link;
	int ret;

	libbpf_set_print(policy_libbpf_print);
	obj = bpf_object__open_file(file, NULL);
	if (!obj) {
		err_msg("%s: %s", file, strerror(errno));
		return EXIT_USAGE;
	}
	ret = bpf_object__load(obj);
	if (ret) {
		err_msg("%s: not loaded: %s (libbpf's messages above; the verifier's log among them)",
			file, strerror(-ret));
		goto out;
	}
	ret = foreground ? 0 : policy_pin_dir();
	if (ret)
		goto out;
	bpf_object__for_each_map(map, obj) {
		if (bpf_map__type(map) != BPF_MAP_TYPE_STRUCT_OPS)
			continue;
		if (policy_map_name(obj, map, name, sizeof(name))) {
			err_msg("%s: map %s has no policy name", file,
				bpf_map__name(map));
			ret = -EINVAL;
			goto out;
		}
		if (nr_links == (int)(sizeof(links) / sizeof(links[0]))) {
			err_msg("%s: more than %d policies", file, nr_links);
			ret = -E2BIG;
			goto out;
		}
		link = bpf_map__attach_struct_ops(map);
		if (!link) {
			ret = -errno;
			err_msg("%s: policy %s not attached: %s%s", file, name,
				strerror(-ret), ret == -EEXIST ?
				" (a policy of that name is registered)" : "");
			goto out;
		}
		links[nr_links++] = link;
		if (foreground) {
			printf("loaded %s (until this process exits)\n", name);
			continue;
		}
		snprintf(pin, sizeof(pin), "%s/%s", BPF_PIN_DIR, name);
		ret = bpf_link__pin(link, pin);
		if (ret) {
			err_msg("%s: %s", pin, strerror(-ret));
			goto out;
		}
		/* the pin holds the link: closing ours keeps the policy */
		bpf_link__disconnect(link);
		printf("loaded %s (%s)\n", name, pin);
	}
	if (!nr_links) {
		err_msg("%s: no gtbs_bpf_ops map (SEC(\".struct_ops.link\"))", file);
		ret = -ENOENT;
	} else if (foreground) {
		policy_wait();
	}
out:
	/* detaches what is not pinned (an error, --foreground) */
	for (i = 0; i < nr_links; i++)
		bpf_link__destroy(links[i]);
	bpf_object__close(obj);
	return ret ? EXIT_DEVICE : 0;
}

static int policy_unload(const char *name)
{
	char pin[sizeof(BPF_PIN_DIR) + GTBS_POLICY_NAME_LEN + 1];
	int fd;

	if (strlen(name) >= GTBS_POLICY_NAME_LEN || strchr(name, '/'))
		return usage_error(usage_policy, "bad policy name '%s'", name);
	snprintf(pin, sizeof(pin), "%s/%s", BPF_PIN_DIR, name);
	fd = bpf_obj_get(pin);
	if (fd < 0) {
		err_msg("%s: %s (not a loaded BPF policy?)", pin,
			strerror(errno));
		return EXIT_DEVICE;
	}
	/* now: the module withdraws the policy before this returns */
	if (bpf_link_detach(fd))
		err_msg("%s: detach: %s; removing the pin detaches it later",
			pin, strerror(errno));
	close(fd);
	if (unlink(pin)) {
		err_msg("%s: %s", pin, strerror(errno));
		return EXIT_DEVICE;
	}
	printf("unloaded %s\n", name);
	return 0;
}

/* the byte offset of member @member of struct type @id, or -1 */
static long policy_btf_member(const struct btf *btf, __u32 id,
			      const char *member, __u32 *type)
{
	const struct btf_type *t = btf__type_by_id(btf, id);
	const struct btf_member *m;
	int i;

	if (!t || !btf_is_struct(t))
		return -1;
	m = btf_members(t);
	for (i = 0; i < btf_vlen(t); i++, m++) {
		if (strcmp(btf__name_by_offset(btf, m->name_off), member))
			continue;
		if (type)
			*type = m->type;
		return btf_member_bit_offset(t, i) / 8;
	}
	return -1;
}

/*
 * The name of the policy of struct_ops map @fd if it is a gtbs_bpf_ops,
 * read from the map's value (the kernel's struct bpf_struct_ops_gtbs_bpf_ops,
 * laid out by the module's BTF; a map of another module's type has an id
 * there that is not that struct's); 0, or -1 if the map is another.
 */
static int policy_map_policy(int fd, const struct bpf_map_info *info,
			     struct btf *vmlinux, char *name, size_t len)
{
	struct btf *btf;
	const struct btf_type *t;
	long data, off;
	__u32 key = 0, ops;
	char *val = NULL;
	int ret = -1;

	/* the type is the module's: its BTF, split on the kernel's */
	btf = btf__parse_split("/sys/kernel/btf/gputbs", vmlinux);
	if (!btf)
		return -1;
	t = btf__type_by_id(btf, info->btf_vmlinux_value_type_id);
	if (!t || strcmp(btf__name_by_offset(btf, t->name_off),
			 "bpf_struct_ops_gtbs_bpf_ops"))
		goto out;
	data = policy_btf_member(btf, info->btf_vmlinux_value_type_id, "data", &ops);
	off = data < 0 ? -1 : policy_btf_member(btf, ops, "name", NULL);
	if (off < 0 || data + off >= info->value_size)
		goto out;
	val = calloc(1, info->value_size);
	if (!val || bpf_map_lookup_elem(fd, &key, val))
		goto out;
	snprintf(name, len, "%.*s", (int)(info->value_size - data - off),
		 val + data + off);
	ret = 0;
out:
	free(val);
	btf__free(btf);
	return ret;
}

/*
 * The BPF policies: every gtbs_bpf_ops struct_ops map's name, into
 * @names (@size bytes, one name after the other, NUL-separated), found
 * whether pinned or held by a --foreground loader.  Root only (the
 * BPF_MAP_GET_FD_BY_ID command); nothing otherwise.
 */
static void policy_bpf_names(char *names, size_t size)
{
	struct btf *vmlinux = btf__load_vmlinux_btf();
	size_t used = 0;
	__u32 id = 0;

	names[0] = '\0';
	if (!vmlinux)
		return;
	while (!bpf_map_get_next_id(id, &id)) {
		struct bpf_map_info info;
		__u32 len = sizeof(info);
		char name[GTBS_POLICY_NAME_LEN];
		int fd = bpf_map_get_fd_by_id(id);

		if (fd < 0)
			continue;
		memset(&info, 0, sizeof(info));
		if (!bpf_map_get_info_by_fd(fd, &info, &len) &&
		    info.type == BPF_MAP_TYPE_STRUCT_OPS &&
		    !policy_map_policy(fd, &info, vmlinux, name, sizeof(name)) &&
		    used + strlen(name) + 2 < size) {
			strcpy(names + used, name);
			used += strlen(name) + 1;
			names[used] = '\0';
		}
		close(fd);
	}
	btf__free(vmlinux);
}

static const char *policy_kind(const char *name, const char *bpf_names)
{
	char pin[sizeof(BPF_PIN_DIR) + 256];
	const char *p;
	struct stat st;

	for (p = bpf_names; *p; p += strlen(p) + 1)
		if (!strcmp(p, name))
			return "bpf";
	snprintf(pin, sizeof(pin), "%s/%s", BPF_PIN_DIR, name);
	if (!stat(pin, &st))
		return "bpf";
	return gtbs_policy_find(name) ? "built-in" : "module";
}

static int policy_list(void)
{
	char line[4096], bpf_names[4096], *tok, *save = NULL;
	FILE *f = fopen(POLICY_ATTR, "re");

	if (!f)
		return device_error(POLICY_ATTR, -errno);
	if (!fgets(line, sizeof(line), f)) {
		fclose(f);
		return device_error(POLICY_ATTR, -EIO);
	}
	fclose(f);
	libbpf_set_print(NULL);		/* no complaint without root */
	policy_bpf_names(bpf_names, sizeof(bpf_names));
	for (tok = strtok_r(line, " \t\n", &save); tok;
	     tok = strtok_r(NULL, " \t\n", &save)) {
		bool cur = tok[0] == '[';
		size_t n;

		if (cur) {
			tok++;
			n = strlen(tok);
			if (n && tok[n - 1] == ']')
				tok[n - 1] = '\0';
		}
		/* main() registered the built-ins in the userland core */
		printf("%-16s %s%s\n", tok, policy_kind(tok, bpf_names),
		       cur ? " (current)" : "");
	}
	return 0;
}

int cmd_policy(int argc, char **argv)
{
	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		fputs(usage_policy, argc < 2 ? stderr : stdout);
		return argc < 2 ? EXIT_USAGE : 0;
	}
	if (!strcmp(argv[1], "list") && argc == 2)
		return policy_list();
	if (!strcmp(argv[1], "load") && argc == 3)
		return policy_load(argv[2], false);
	if (!strcmp(argv[1], "load") && argc == 4 &&
	    !strcmp(argv[2], "--foreground"))
		return policy_load(argv[3], true);
	if (!strcmp(argv[1], "unload") && argc == 3)
		return policy_unload(argv[2]);
	return usage_error(usage_policy, "bad arguments to '%s'", argv[1]);
}
