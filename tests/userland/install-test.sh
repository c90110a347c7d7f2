#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# tests/userland/install-test.sh - "make install" into a scratch DESTDIR
# on the host: the expected files (module for the stock 6.12 headers,
# libraries, headers, pkg-config file, CLI, man pages), a program built
# through the installed pkg-config file (shared and static) and run, and,
# when dkms is installed, "dkms build" and "dkms install" of dkms.conf
# against the 6.12 headers in scratch DKMS trees (the system's are not
# touched).  Ends with "install: N passed, M failed".
set -uo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 1
# shellcheck source=scripts/kernel-paths.sh
. scripts/kernel-paths.sh
pass=0
fail=0
ok() {
	pass=$((pass + 1))
	echo "ok - $*"
}
not_ok() {
	fail=$((fail + 1))
	echo "not ok - $*"
}
check() {	# check DESCRIPTION COMMAND...
	local d=$1
	shift
	if "$@"; then ok "$d"; else not_ok "$d"; fi
}

t=$(mktemp -d "${TMPDIR:-/tmp}/gputbs-install.XXXXXX")
trap 'rm -rf "$t"' EXIT
d=$t/dest
p=/usr/local

if ! make -s install DESTDIR="$d" PREFIX=$p KDIR="$STOCK_KDIR" >"$t/make.log" 2>&1; then
	cat "$t/make.log"
	not_ok "make install DESTDIR=$d KDIR=$STOCK_KDIR"
	echo "install: $pass passed, $fail failed"
	exit 1
fi
ok "make install DESTDIR=... PREFIX=$p KDIR=<6.12 headers>"
(cd "$d" && find . ! -type d | sort) | tee "$t/files"

for f in $p/bin/gputbs $p/bin/gputbs-sim $p/lib/libgputbs.a $p/lib/libgputbs.so.0.3 \
	$p/lib/pkgconfig/libgputbs.pc $p/include/gputbs.h \
	$p/include/linux/gputbs.h $p/include/linux/gputbs_netlink.h \
	$p/share/man/man1/gputbs.1 $p/share/man/man1/gputbs-sim.1 \
	$p/share/man/man1/gputbs-vm.1 $p/share/man/man3/libgputbs.3; do
	check "installed $f" test -f "$d$f"
done
check "libgputbs.so.0 -> libgputbs.so.0.3" \
	test "$(readlink "$d$p/lib/libgputbs.so.0")" = libgputbs.so.0.3
check "libgputbs.so -> libgputbs.so.0" \
	test "$(readlink "$d$p/lib/libgputbs.so")" = libgputbs.so.0
ko=$(find "$d/lib/modules/$STOCK_KVER" -name 'gputbs.ko*' | head -n 1)
check "the module in /lib/modules/$STOCK_KVER/updates" test -n "$ko"
check "its vermagic is $STOCK_KVER" \
	test "$(modinfo -F vermagic "$ko" 2>/dev/null | cut -d' ' -f1)" = "$STOCK_KVER"
check "no KUnit module installed" \
	test -z "$(find "$d/lib/modules" -name 'gputbs_kunit*')"
check "nothing outside the prefix and /lib/modules" \
	test -z "$(grep -v "^\./usr/local/" "$t/files" |
		grep -vF "./lib/modules/$STOCK_KVER/")"
check "the pkg-config file has prefix=$p" \
	grep -qx "prefix=$p" "$d$p/lib/pkgconfig/libgputbs.pc"
check "the man pages format without warnings" \
	sh -c 'for f; do groff -man -ww -z "$f" 2>&1 | grep . && exit 1; done; exit 0' _ \
	"$d$p"/share/man/man1/*.1 "$d$p/share/man/man3/libgputbs.3"
check "the CLI runs" "$d$p/bin/gputbs" --version
check "the simulator runs" "$d$p/bin/gputbs-sim" run workloads/tests/staircase.gtbs

# without a kernel build tree: the userland, and a line saying the module
# was skipped
d2=$t/dest-nokdir
if make -s install DESTDIR="$d2" PREFIX=$p KDIR="$t/no-such-kernel" >"$t/make2.log" 2>&1; then
	ok "make install KDIR=<no kernel tree> succeeds"
else
	cat "$t/make2.log"
	not_ok "make install KDIR=<no kernel tree> succeeds"
fi
check "it says that it skipped the module" \
	grep -q "install: skipped the module: no kernel build tree at $t/no-such-kernel" "$t/make2.log"
check "it installed the CLI, the simulator, the library and the man pages" \
	test -f "$d2$p/bin/gputbs" -a -f "$d2$p/bin/gputbs-sim" -a \
	-f "$d2$p/lib/libgputbs.so.0.3" -a -f "$d2$p/share/man/man1/gputbs-vm.1"
check "and no module" test ! -e "$d2/lib/modules"
check "make install-module alone still fails without a kernel tree" \
	sh -c '! make -s install-module KDIR="$1" DESTDIR="$2" >/dev/null 2>&1' _ \
	"$t/no-such-kernel" "$t/dest-mod"

# make help lists every target (each .PHONY target of the Makefiles)
make -s help >"$t/help.txt" 2>&1
missing=""
for target in $(make -pRrq -f Makefile : 2>/dev/null | sed -n 's/^\.PHONY: //p' | tr ' ' '\n' | sort -u); do
	grep -qE "(^|[ ,(])$target([ ,:;)]|\$)" "$t/help.txt" || missing+=" $target"
done
check "make help lists every target${missing:+ (missing:$missing)}" test -z "$missing"

# a program built through the installed pkg-config file
export PKG_CONFIG_PATH=$d$p/lib/pkgconfig PKG_CONFIG_SYSROOT_DIR=$d
check "pkg-config finds libgputbs 0.3" \
	test "$(pkg-config --modversion libgputbs)" = 0.3
# shellcheck disable=SC2046 # word splitting of pkg-config's flags
if gcc -std=gnu11 -Wall -Wextra -Werror -o "$t/prog" tests/userland/install/prog.c \
	$(pkg-config --cflags --libs libgputbs) 2>"$t/cc.log"; then
	ok "a program compiles and links against the installed library"
	LD_LIBRARY_PATH=$d$p/lib "$t/prog" >"$t/prog.out" 2>&1
	check "it runs (family not found on the host: ENOENT)" \
		grep -qx "monitor_open: ENOENT" "$t/prog.out"
	check "NULL handles and arguments get EINVAL (EBADF for gputbs_fd), no crash" \
		grep -qx "null: submit -22 wait -22 info -22 policy -22 fd -9 open -22 attr -22 -22" "$t/prog.out"
	cat "$t/prog.out"
	check "gputbs_submit_strerror() names the limit of EDQUOT" \
		grep -qx "submit: Disk quota exceeded: per-user grid limit (max_grids_per_user) reached" "$t/prog.out"
	check "it needs libgputbs.so.0 at LIBGPUTBS_0.1, 0.2 and 0.3" \
		sh -c "readelf -d '$t/prog' | grep -q 'NEEDED.*libgputbs.so.0' &&
		       readelf -V '$t/prog' | grep -q LIBGPUTBS_0.1 &&
		       readelf -V '$t/prog' | grep -q LIBGPUTBS_0.2 &&
		       readelf -V '$t/prog' | grep -q LIBGPUTBS_0.3"
else
	cat "$t/cc.log"
	not_ok "a program compiles and links against the installed library"
fi
# shellcheck disable=SC2046
if gcc -static -std=gnu11 -Wall -Wextra -Werror -o "$t/prog-static" \
	tests/userland/install/prog.c \
	$(pkg-config --static --cflags --libs libgputbs) 2>"$t/cc-static.log"; then
	ok "and links statically (pkg-config --static: libnl-genl-3, libnl-3)"
	check "the static program runs" "$t/prog-static"
else
	cat "$t/cc-static.log"
	not_ok "and links statically (pkg-config --static: libnl-genl-3, libnl-3)"
fi
unset PKG_CONFIG_PATH PKG_CONFIG_SYSROOT_DIR

# DKMS, in scratch trees
if command -v dkms >/dev/null 2>&1; then
	v=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' dkms.conf)
	check "make dkms-src" make -s dkms-src DESTDIR="$t/src"
	mkdir -p "$t/dkms" "$t/modules/$STOCK_KVER"
	if dkms build -m gputbs -v "$v" -k "$STOCK_KVER" \
		--sourcetree "$t/src/usr/src" --dkmstree "$t/dkms" \
		>"$t/dkms.log" 2>&1; then
		ok "dkms build gputbs/$v -k $STOCK_KVER"
	else
		cat "$t/dkms.log"
		not_ok "dkms build gputbs/$v -k $STOCK_KVER"
	fi
	check "it built gputbs.ko only" test "$(find "$t/dkms/gputbs/$v/$STOCK_KVER" \
		-name '*.ko*' -printf '%f\n')" = "$(basename "$ko")"
	if dkms install -m gputbs -v "$v" -k "$STOCK_KVER" \
		--sourcetree "$t/src/usr/src" --dkmstree "$t/dkms" \
		--installtree "$t/modules" >"$t/dkms-install.log" 2>&1; then
		ok "dkms install (into a scratch module tree)"
	else
		cat "$t/dkms-install.log"
		not_ok "dkms install (into a scratch module tree)"
	fi
	check "it installed updates/dkms/gputbs.ko" \
		test -n "$(find "$t/modules/$STOCK_KVER/updates/dkms" -name 'gputbs.ko*')"
else
	echo "# dkms not installed: dkms.conf not exercised (apt-get install dkms)"
fi

echo "install: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
