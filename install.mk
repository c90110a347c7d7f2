# SPDX-License-Identifier: GPL-2.0
#
# install.mk - installing gputbs; included by the top-level Makefile.
#
#   make install          libgputbs (static and shared), its headers and
#                         pkg-config file, gputbs and gputbs-sim, the man
#                         pages gputbs(1), gputbs-sim(1), gputbs-vm(1) and
#                         libgputbs(3), and the module when KDIR holds a
#                         kernel build tree; without one it says that it
#                         skipped the module and installs the rest
#   make install-module   gputbs.ko through the kernel's modules_install,
#                         built for KDIR (default: the running kernel's
#                         /lib/modules/$(uname -r)/build); then depmod
#                         unless DESTDIR is set
#   make install-userland the library, headers, pkg-config file and CLI
#   make install-man      the man pages
#   make dkms-src         the module's sources and dkms.conf in
#                         $(DESTDIR)/usr/src/gputbs-VERSION, for DKMS
#   make install-dkms     dkms-src, then "dkms add" (root); afterwards
#                         "dkms install gputbs/VERSION" builds and installs
#                         the module, and DKMS rebuilds it for new kernels
#
# Variables: DESTDIR (a staging root), PREFIX (default /usr/local), MANDIR
# (default $(PREFIX)/share/man), KDIR.  The module is installed unsigned
# (CONFIG_MODULE_SIG_ALL= keeps modules_install from trying to sign it
# without the kernel's key); kernels that enforce module signatures need
# DKMS's own key (enrolled as a MOK) or scripts/sign-file.

KDIR ?= /lib/modules/$(shell uname -r)/build
MANDIR ?= $(PREFIX)/share/man
INSTALL_KMOD := $(BUILD)/kmod-install
DKMS_VERSION := $(shell sed -n 's/^PACKAGE_VERSION="\(.*\)"$$/\1/p' dkms.conf)
DKMS_SRC = $(DESTDIR)/usr/src/gputbs-$(DKMS_VERSION)
# only gputbs.ko: no KUnit suite, even for a kernel with KUnit
KMOD_INSTALL_ARGS = -C $(KDIR) M=$(abspath $(INSTALL_KMOD)) CONFIG_KUNIT=

.PHONY: install install-module install-man dkms-src install-dkms

install: install-userland install-man
	@if [ -f "$(KDIR)/Makefile" ]; then \
		$(MAKE) --no-print-directory install-module; \
	else \
		echo "install: skipped the module: no kernel build tree at $(KDIR)" \
			"(install the headers of that kernel, or make install-module" \
			"KDIR=/lib/modules/VERSION/build for another one)"; \
	fi

install-module:
	@test -f "$(KDIR)/Makefile" || { echo "install-module: no kernel build" \
		"tree at $(KDIR) (install its headers, or set KDIR)" >&2; exit 1; }
	@mkdir -p $(INSTALL_KMOD)/tests
	rsync -a --delete Kbuild kmod sm-emu uapi $(INSTALL_KMOD)/
	rsync -a --delete tests/kunit $(INSTALL_KMOD)/tests/
	$(MAKE) $(KMOD_INSTALL_ARGS) modules
	$(MAKE) $(KMOD_INSTALL_ARGS) CONFIG_MODULE_SIG_ALL= \
		INSTALL_MOD_PATH=$(DESTDIR) modules_install
	@if [ -z "$(DESTDIR)" ]; then \
		kver=$$($(MAKE) -s --no-print-directory -C $(KDIR) kernelrelease); \
		echo "depmod -a $$kver"; depmod -a "$$kver"; \
	fi

install-man:
	install -d $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man3
	install -m 644 Documentation/man/gputbs.1 Documentation/man/gputbs-sim.1 \
		Documentation/man/gputbs-vm.1 $(DESTDIR)$(MANDIR)/man1/
	install -m 644 Documentation/man/libgputbs.3 $(DESTDIR)$(MANDIR)/man3/

dkms-src:
	@test "$(DKMS_VERSION)" = "$(LIBGPUTBS_VERSION)" || { echo "dkms.conf's" \
		"PACKAGE_VERSION $(DKMS_VERSION) is not $(LIBGPUTBS_VERSION)" >&2; exit 1; }
	install -d $(DKMS_SRC)/tests
	cp -R Kbuild dkms.conf kmod sm-emu uapi $(DKMS_SRC)/
	cp -R tests/kunit $(DKMS_SRC)/tests/

install-dkms: dkms-src
	dkms add gputbs/$(DKMS_VERSION)
