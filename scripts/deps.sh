#!/usr/bin/env bash
# scripts/deps.sh [demo|check] - install the Debian packages gputbs needs.
#
#   demo   (default) build the module and userland, run them in the QEMU
#          guest on the stock 6.12 kernel, plot results; linux-source-6.12
#          (and xz-utils) for the kernel's rbtree, which the userland build
#          of the core takes from its tarball (tools/lib/rbtree.mk)
#   check  everything for `demo` plus what the full check needs: the
#          debug kernel build (from linux-source-6.12), 6.1 compile check,
#          sparse, checkpatch/kernel-doc/kunit.py from the source tree, pahole,
#          trace-cmd (copied into the guest with its libraries),
#          libnl-utils (genl-ctrl-list, likewise), dkms (make check builds
#          dkms.conf in scratch trees), PyYAML and jsonschema (the kernel's
#          YNL tools check the netlink spec), slurm-wlm and munge (the
#          sweep as a Slurm job array, tests/cluster/slurm-test.sh: it
#          starts a munged, slurmctld and slurmd of its own, on their own
#          key, socket, ports and files; the packages' services are not
#          used, and slurmctld and slurmd do not start without
#          /etc/slurm/slurm.conf, which nothing here writes),
#          python3-distributed (the sweep on a local Dask cluster,
#          tests/cluster/dask-test.sh)
#
# Idempotent and non-interactive: packages are checked with dpkg-query first
# and nothing else happens when all are present (no apt-get update).  Runs
# apt-get directly as root, through sudo otherwise.
set -euo pipefail

say() { printf 'deps: %s\n' "$*" >&2; }
die() {
	say "error: $*"
	exit 1
}

demo_pkgs=(
	gcc make libc6-dev
	libcsv-dev
	qemu-system-x86 busybox-static
	linux-headers-6.12-amd64 linux-image-6.12-amd64
	kmod cpio gzip python3 rsync perl
	libjson-c-dev
	check libsubunit-dev gnuplot-nox pkg-config libnl-3-dev libnl-genl-3-dev
	linux-source-6.12 xz-utils
	libtracecmd-dev libtraceevent-dev libtracefs-dev
	libelf-dev zlib1g-dev
)
check_pkgs=(
	linux-headers-amd64
	flex bison libelf-dev libssl-dev bc
	sparse dwarves
	trace-cmd
	clang
	libnl-utils dkms python3-yaml python3-jsonschema
	slurm-wlm munge python3-distributed
)

mode=${1:-demo}
case "$mode" in
demo) pkgs=("${demo_pkgs[@]}") ;;
check) pkgs=("${demo_pkgs[@]}" "${check_pkgs[@]}") ;;
-h | --help)
	sed -n '2,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'
	exit 0
	;;
*) die "unknown mode '$mode' (usage: $0 [demo|check])" ;;
esac
[ $# -le 1 ] || die "too many arguments (usage: $0 [demo|check])"

command -v dpkg-query >/dev/null 2>&1 || die "dpkg-query not found: this script supports Debian 12 (bookworm) only"

missing=()
for p in "${pkgs[@]}"; do
	st=$(dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null || true)
	case "$st" in
	ii*) ;;
	*) missing+=("$p") ;;
	esac
done

if [ ${#missing[@]} -eq 0 ]; then
	say "all ${#pkgs[@]} packages for '$mode' are installed"
	exit 0
fi

say "missing for '$mode': ${missing[*]}"
if [ "$(id -u)" = 0 ]; then
	sudo=()
elif command -v sudo >/dev/null 2>&1; then
	sudo=(sudo)
else
	die "not root and no sudo; as root run: apt-get install -y --no-install-recommends ${missing[*]}"
fi

export DEBIAN_FRONTEND=noninteractive
say "apt-get update"
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q ||
	die "apt-get update failed"
say "apt-get install ${missing[*]}"
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
	--no-install-recommends -o Dpkg::Options::=--force-confdef \
	-o Dpkg::Options::=--force-confold "${missing[@]}" ||
	die "apt-get install failed (linux-*-6.12 packages come from bookworm/bookworm-security; check /etc/apt/sources.list)"

# verify
still=()
for p in "${missing[@]}"; do
	st=$(dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null || true)
	case "$st" in ii*) ;; *) still+=("$p") ;; esac
done
[ ${#still[@]} -eq 0 ] || die "still not installed: ${still[*]}"
say "done"
