# shellcheck shell=bash
# scripts/kernel-paths.sh - where the kernels and kernel build trees live.
#
# Source it (from bash) to define and export:
#   GPUTBS_ROOT       repository root
#   STOCK_KVER        newest installed 6.12.*-amd64 release that has both
#                     /lib/modules/$STOCK_KVER/build and /boot/vmlinuz-$STOCK_KVER
#   STOCK_KDIR        /lib/modules/$STOCK_KVER/build   (headers for build/kmod/)
#   STOCK_VMLINUZ     /boot/vmlinuz-$STOCK_KVER
#   KDIR_61           newest 6.1.*-amd64 headers (compile check only)
#   GPUTBS_CACHE_ROOT ${GPUTBS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/gputbs}
#   DEBUG_KERNEL_KEY  first 12 hex of sha256(tests/debug-kernel.config +
#                     linux-source-6.12 package version)
#   DEBUG_KERNEL_DIR  $GPUTBS_CACHE_ROOT/kernel-$DEBUG_KERNEL_KEY: the unpacked,
#                     configured and built (in-tree) linux-source-6.12 tree; use it
#                     as KDIR for build/kmod-debug/ (valid once
#                     $DEBUG_KERNEL_DIR/.gputbs-ok exists; see
#                     scripts/build-debug-kernel.sh)
#   SRC_TREE          kernel source tree for checkpatch.pl, kernel-doc and
#                     kunit.py (= $DEBUG_KERNEL_DIR)
#   LINUX_SOURCE_TARBALL /usr/src/linux-source-6.12.tar.xz
#
# Variables that cannot be resolved are set to the empty string; sourcing
# never fails.  Executed directly, it prints the values as VAR=value lines:
#   scripts/kernel-paths.sh
#   eval "$(scripts/kernel-paths.sh)"   # equivalent to sourcing

_gputbs_kp_main() {
	local here root d kver best="" f
	here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
	root=$(cd "$here/.." && pwd)

	# --- stock 6.12 kernel ---------------------------------------------------
	for d in /lib/modules/6.12.*-amd64; do
		[ -d "$d/build" ] || continue
		kver=${d#/lib/modules/}
		[ -f "/boot/vmlinuz-$kver" ] || continue
		best+="$kver"$'\n'
	done
	kver=$(printf '%s' "$best" | sort -V | tail -n 1)
	STOCK_KVER=$kver
	if [ -n "$kver" ]; then
		STOCK_KDIR=/lib/modules/$kver/build
		STOCK_VMLINUZ=/boot/vmlinuz-$kver
	else
		STOCK_KDIR=
		STOCK_VMLINUZ=
	fi

	# --- 6.1 headers (compile check) -----------------------------------------
	best=""
	# /lib/modules last so that it wins a tie (stable sort, tail)
	for d in /usr/src/linux-headers-6.1.*-amd64 /lib/modules/6.1.*-amd64/build; do
		[ -f "$d/Makefile" ] || continue
		kver=$(printf '%s' "$d" | grep -oE '6\.1\.[0-9]+-[0-9]+' | head -n 1)
		best+="$kver $d"$'\n'
	done
	KDIR_61=$(printf '%s' "$best" | sort -s -V -k1,1 | tail -n 1 | cut -d' ' -f2-)

	# --- debug kernel cache -----------------------------------------------------
	GPUTBS_CACHE_ROOT=${GPUTBS_CACHE:-${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/gputbs}
	LINUX_SOURCE_TARBALL=/usr/src/linux-source-6.12.tar.xz
	local srcver="" frag="$root/tests/debug-kernel.config"
	srcver=$(dpkg-query -W -f='${Version}' linux-source-6.12 2>/dev/null || true)
	if [ -z "$srcver" ] && [ -f "$LINUX_SOURCE_TARBALL" ]; then
		# not a dpkg system: fall back to the tarball's size+mtime
		srcver=$(stat -c '%s-%Y' "$LINUX_SOURCE_TARBALL" 2>/dev/null || true)
	fi
	f=""
	[ -f "$frag" ] && f=$(cat "$frag")
	DEBUG_KERNEL_KEY=$(printf '%s\n%s\n' "$f" "$srcver" | sha256sum | cut -c1-12)
	DEBUG_KERNEL_DIR=$GPUTBS_CACHE_ROOT/kernel-$DEBUG_KERNEL_KEY
	SRC_TREE=$DEBUG_KERNEL_DIR
	LINUX_SOURCE_VERSION=$srcver
	GPUTBS_ROOT=$root
}

_gputbs_kp_main
unset -f _gputbs_kp_main
export GPUTBS_ROOT STOCK_KVER STOCK_KDIR STOCK_VMLINUZ KDIR_61 GPUTBS_CACHE_ROOT \
	DEBUG_KERNEL_KEY DEBUG_KERNEL_DIR SRC_TREE LINUX_SOURCE_TARBALL LINUX_SOURCE_VERSION

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	for _v in GPUTBS_ROOT STOCK_KVER STOCK_KDIR STOCK_VMLINUZ KDIR_61 GPUTBS_CACHE_ROOT \
		DEBUG_KERNEL_KEY DEBUG_KERNEL_DIR SRC_TREE LINUX_SOURCE_TARBALL LINUX_SOURCE_VERSION; do
		printf '%s=%q\n' "$_v" "${!_v}"
	done
	unset _v
fi
