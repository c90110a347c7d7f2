# SPDX-License-Identifier: GPL-2.0
#
# userlib/monitor.mk - the netlink side of the userland: libgputbs' monitor
# API over libnl-genl-3 (userlib/monitor.c), the commands "gputbs top",
# "gputbs monitor" and "gputbs tenant", and their in-guest tests.  Included by
# userlib/userland.mk before its library and CLI rules.
#
#   $(BUILD)/bin/gputbs-nl-test      in-guest Check suite of the family
#                                    through the monitor API, static
#   $(BUILD)/bin/gputbs-nl-cli-test  in-guest check of gputbs top and
#                                    gputbs monitor (sh)
#
# libgputbs.so and the CLI (dynamic, for libtracecmd) link libnl
# dynamically; the static guest tests link Debian's libnl-3.a and
# libnl-genl-3.a (libnl-3-dev, libnl-genl-3-dev).

LIBNL_CFLAGS := $(shell $(PKG_CONFIG) --cflags libnl-genl-3.0 2>/dev/null)
LIBNL_LIBS := $(shell $(PKG_CONFIG) --libs libnl-genl-3.0 2>/dev/null)
LIBNL_STATIC_LIBS := $(shell $(PKG_CONFIG) --libs --static libnl-genl-3.0 \
	2>/dev/null)

LIBGPUTBS_OBJS += $(UL_OBJ)/userlib/monitor.pic.o
GPUTBS_CLI_OBJS += $(addprefix $(UL_OBJ)/, tools/gputbs/cmd_top.o \
	tools/gputbs/cmd_monitor.o tools/gputbs/monitor_fmt.o tools/gputbs/cmd_tenant.o \
	tools/gputbs/run_tenants.o)
USERLAND_BINS += $(UL_BIN)/gputbs-nl-test $(UL_BIN)/gputbs-nl-cli-test

$(UL_OBJ)/userlib/monitor.pic.o: USERLAND_CFLAGS += $(LIBNL_CFLAGS)
$(UL_OBJ)/tests/guest/gputbs-nl-test.o: USERLAND_CFLAGS += $(CHECK_CFLAGS) \
	$(LIBNL_CFLAGS)

$(UL_BIN)/gputbs-nl-test: $(UL_OBJ)/tests/guest/gputbs-nl-test.o \
		$(LIBGPUTBS_A)
	@mkdir -p $(dir $@)
	$(CC) -static -pthread $(LDFLAGS) -o $@ $^ $(LIBNL_STATIC_LIBS) \
		$(CHECK_LIBS)

$(UL_BIN)/gputbs-nl-cli-test: tests/guest/gputbs-nl-cli-test.sh
	@mkdir -p $(dir $@)
	install -m 755 $< $@
