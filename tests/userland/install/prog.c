// SPDX-License-Identifier: GPL-2.0
/*
 * A program built against an installed libgputbs through its pkg-config
 * file (tests/userland/install-test.sh): it uses every symbol version and
 * the netlink uAPI header, and runs without the module loaded.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <gputbs.h>

int main(void)
{
	struct gputbs_monitor *m = NULL;
	struct gputbs *g = NULL;
	int a, b;

	a = gputbs_open("/nonexistent/gputbs", 0, &g);
	b = gputbs_monitor_open(GPUTBS_MONITOR_EVENTS, &m);
	printf("open: %s\n", gputbs_strerror(a));
	/* NULL handles and arguments are errors, not crashes */
	printf("null: submit %d wait %d info %d policy %d fd %d open %d attr %d %d\n",
	       gputbs_submit(NULL, NULL), gputbs_wait(NULL, NULL),
	       gputbs_info(NULL, NULL), gputbs_set_policy(NULL, NULL),
	       gputbs_fd(NULL), gputbs_open(NULL, 0, NULL),
	       gputbs_attr_read(NULL, "policy", NULL, 0),
	       gputbs_attr_write(NULL, "policy", "fifo"));
	printf("submit: %s\n", gputbs_submit_strerror(-EDQUOT));
	/* no module on the build host: the family does not resolve */
	printf("monitor_open: %s\n", b == -ENOENT ? "ENOENT" :
	       gputbs_strerror(b));
	printf("event: %s, family: %s, events group: %s, cmd %d\n",
	       gputbs_event_name(GPUTBS_EVENT_GRID_COMPLETED),
	       GPUTBS_FAMILY_NAME, GPUTBS_MCGRP_EVENTS, GPUTBS_CMD_DEV_GET);
	gputbs_monitor_close(m);
	gputbs_close(g);
	return a == -ENOENT && !g && !m ? 0 : 1;
}
