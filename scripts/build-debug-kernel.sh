#!/usr/bin/env bash
# shellcheck source-path=SCRIPTDIR
# scripts/build-debug-kernel.sh - build (once) the gputbs debug kernel.
#
# Usage: scripts/build-debug-kernel.sh [--force]
#
# Unpacks /usr/src/linux-source-6.12.tar.xz into the cache, configures it as
# x86_64_defconfig + tests/debug-kernel.config (KASAN, UBSAN, lockdep,
# kmemleak, KUnit, fault injection, ...) and runs `make bzImage modules`
# in-tree, so that the tree can be used both to boot (arch/x86/boot/bzImage)
# and as KDIR for out-of-tree modules (Module.symvers is there):
#     make -C "$DEBUG_KERNEL_DIR" M=<dir> modules
#
# The tree lives in $DEBUG_KERNEL_DIR (see scripts/kernel-paths.sh), keyed on
# the fragment's contents and the linux-source-6.12 package version; it is
# complete once $DEBUG_KERNEL_DIR/.gputbs-ok exists, in which case this script
# only prints the path.  Progress goes to stderr ("debug-kernel: ..."), the
# path of the tree to stdout, so `KDIR=$(scripts/build-debug-kernel.sh)` works.
# The full build log is kept in $GPUTBS_CACHE_ROOT/build-<key>.log.
# Concurrent invocations serialise on a lock file in the cache root.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=kernel-paths.sh disable=SC1091
. "$here/kernel-paths.sh"

say() { printf 'debug-kernel: %s\n' "$*" >&2; }
die() { say "error: $*"; exit 1; }

force=0
case "${1:-}" in
"") ;;
--force) force=1 ;;
-h | --help)
	sed -n '3,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'
	exit 0
	;;
*) die "unknown argument '$1' (usage: $0 [--force])" ;;
esac

ok_file=$DEBUG_KERNEL_DIR/.gputbs-ok
if [ "$force" = 0 ] && [ -e "$ok_file" ]; then
	printf '%s\n' "$DEBUG_KERNEL_DIR"
	exit 0
fi

# --- prerequisites --------------------------------------------------------------
[ -r "$LINUX_SOURCE_TARBALL" ] ||
	die "$LINUX_SOURCE_TARBALL not found; install it with: scripts/deps.sh check"
missing=()
for t in make gcc flex bison bc xz tar perl flock sha256sum; do
	command -v "$t" >/dev/null 2>&1 || missing+=("$t")
done
[ -e /usr/include/libelf.h ] || missing+=("libelf-dev")
# CONFIG_DEBUG_INFO_BTF: without pahole, olddefconfig drops it silently
command -v pahole >/dev/null 2>&1 || missing+=("dwarves")
[ -e /usr/include/openssl/ssl.h ] || missing+=("libssl-dev")
[ ${#missing[@]} -eq 0 ] ||
	die "missing build tools: ${missing[*]}; run: scripts/deps.sh check"

mkdir -p "$GPUTBS_CACHE_ROOT"
exec 9>"$GPUTBS_CACHE_ROOT/.build.lock"
if ! flock -n 9; then
	say "another build is running; waiting for the lock ($GPUTBS_CACHE_ROOT/.build.lock)"
	flock 9
fi
if [ "$force" = 0 ] && [ -e "$ok_file" ]; then
	say "built by a concurrent invocation"
	printf '%s\n' "$DEBUG_KERNEL_DIR"
	exit 0
fi

# Leftovers of interrupted builds (we hold the lock, nobody else is using them).
for d in "$GPUTBS_CACHE_ROOT"/.tmp-kernel-*; do
	[ -e "$d" ] || continue
	say "removing stale $d"
	rm -rf "$d"
done

log=$GPUTBS_CACHE_ROOT/build-$DEBUG_KERNEL_KEY.log
: >"$log"
tmp=$(mktemp -d "$GPUTBS_CACHE_ROOT/.tmp-kernel-$DEBUG_KERNEL_KEY.XXXXXX")
tree=$tmp/linux-source-6.12
fail() {
	say "FAILED: $*"
	say "last lines of $log:"
	tail -n 40 "$log" | sed 's/^/    /' >&2
	exit 1
}
cleanup() {
	local rc=$?
	if [ "$rc" != 0 ] && [ -n "${tmp:-}" ] && [ -d "$tmp" ]; then
		rm -rf "$tmp"
	fi
	exit "$rc"
}
# Long steps run in the background so that a signal (kill, CI cancellation)
# is handled at once: the trap stops the step, cleanup removes the tree.
child=""
bg() {
	local rc=0
	"$@" &
	child=$!
	wait "$child" || rc=$?
	child=""
	return "$rc"
}
# shellcheck disable=SC2317 # invoked via trap
on_signal() {
	trap - INT TERM HUP
	if [ -n "$child" ]; then
		kill -TERM "$child" 2>/dev/null || true
		wait "$child" 2>/dev/null || true
	fi
	say "interrupted"
	exit "$1"
}
trap cleanup EXIT
trap 'on_signal 130' INT
trap 'on_signal 143' TERM
trap 'on_signal 129' HUP

jobs=$(($(nproc) + 1))
t0=$(date +%s)
say "building debug kernel $DEBUG_KERNEL_KEY (linux-source-6.12 $LINUX_SOURCE_VERSION, -j$jobs)"
say "log: $log"

# Sanitise the environment: these would change how the tree gets built.
unset KBUILD_OUTPUT KBUILD_EXTMOD ARCH CROSS_COMPILE LOCALVERSION O M W C \
	KCFLAGS KCPPFLAGS KAFLAGS KBUILD_BUILD_VERSION 2>/dev/null || true
export KBUILD_BUILD_USER=gputbs KBUILD_BUILD_HOST=gputbs

say "unpacking $LINUX_SOURCE_TARBALL"
bg tar -xJf "$LINUX_SOURCE_TARBALL" -C "$tmp" >>"$log" 2>&1 || fail "unpacking"
[ -f "$tree/Makefile" ] || fail "unexpected tarball layout (no linux-source-6.12/Makefile)"

say "configuring (x86_64_defconfig + tests/debug-kernel.config)"
frag=$GPUTBS_ROOT/tests/debug-kernel.config
cp "$frag" "$tree/gputbs-debug.config"
configure() {
	make -C "$tree" x86_64_defconfig &&
		(cd "$tree" && scripts/kconfig/merge_config.sh -m .config gputbs-debug.config) &&
		make -C "$tree" olddefconfig
}
bg configure >>"$log" 2>&1 || fail "configuring"

# Every symbol the fragment sets must have survived olddefconfig.
bad=()
while IFS= read -r line; do
	case "$line" in
	CONFIG_*=*)
		grep -qxF -- "$line" "$tree/.config" ||
			bad+=("wanted '$line', got '$(grep -E "^(# )?${line%%=*}[= ]" "$tree/.config" || echo "<absent>")'")
		;;
	"# CONFIG_"*" is not set")
		sym=${line#\# }
		sym=${sym%% *}
		if grep -qE "^$sym=" "$tree/.config"; then
			bad+=("wanted '$line', got '$(grep -E "^$sym=" "$tree/.config")'")
		fi
		;;
	esac
done <"$frag"
if [ ${#bad[@]} -ne 0 ]; then
	for b in "${bad[@]}"; do say "config mismatch: $b"; done
	fail "tests/debug-kernel.config was not applied as written (see mismatches above)"
fi

say "compiling bzImage + modules (this takes a while; tail -f $log)"
bg make -C "$tree" -j"$jobs" bzImage modules >>"$log" 2>&1 || fail "make bzImage modules"
[ -f "$tree/arch/x86/boot/bzImage" ] || fail "no arch/x86/boot/bzImage after the build"
[ -f "$tree/Module.symvers" ] || fail "no Module.symvers after the build"
rm -f "$tree/gputbs-debug.config"

t1=$(date +%s)
krel=$(cat "$tree/include/config/kernel.release")
{
	echo "key=$DEBUG_KERNEL_KEY"
	echo "linux_source_version=$LINUX_SOURCE_VERSION"
	echo "kernel_release=$krel"
	echo "build_seconds=$((t1 - t0))"
	echo "jobs=$jobs"
	echo "built=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
} >"$tree/.gputbs-info"

# Publish atomically: rename the finished tree into place, then mark it ok.
if [ -e "$DEBUG_KERNEL_DIR" ]; then
	say "replacing previous (incomplete or forced) $DEBUG_KERNEL_DIR"
	mv "$DEBUG_KERNEL_DIR" "$tmp/old"
fi
mv "$tree" "$DEBUG_KERNEL_DIR"
touch "$DEBUG_KERNEL_DIR/.gputbs-ok"
rm -rf "$tmp"
tmp=
say "done in $((t1 - t0))s: $krel"
printf '%s\n' "$DEBUG_KERNEL_DIR"
