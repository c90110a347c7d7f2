#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/build-samples.sh KDIR MODDIR OUTDIR [make args...]
#
# Builds the sample policy modules (samples/policies/, one .ko per source)
# out of tree with W=1 against KDIR, linking against the gputbs.ko built
# in MODDIR (its Module.symvers, KBUILD_EXTRA_SYMBOLS: the policy API is
# EXPORT_SYMBOL_GPL), and copies the .ko files into OUTDIR.  As
# build-module.sh does, the sources (and the core's headers, sm-emu/*.h)
# are mirrored into OUTDIR/kbuild so that object files never land in the
# work tree.  Any compiler, modpost or kernel-doc warning fails the build.
#
# The mirror compares contents, not times (rsync --checksum), and does not
# copy times: a file whose content changed (a git checkout, a stash) gets
# the mirror's current time, so kbuild rebuilds what depends on it, and a
# file that did not change keeps its objects.  Only the .ko files of the
# samples now in samples/policies/ are copied out: those of a sample that
# was removed (their objects stay in the mirror) are deleted from OUTDIR.
set -euo pipefail

usage="usage: build-samples.sh KDIR MODDIR OUTDIR [make args]"
kdir=${1:?$usage}
moddir=${2:?$usage}
out=${3:?$usage}
shift 3
root=$(cd "$(dirname "$0")/.." && pwd)

if [ ! -f "$kdir/Makefile" ]; then
	echo "build-samples: no kernel build tree at '$kdir' (run scripts/deps.sh)" >&2
	exit 1
fi
if [ ! -f "$moddir/Module.symvers" ]; then
	echo "build-samples: no $moddir/Module.symvers: build gputbs.ko there first" >&2
	exit 1
fi
symvers=$(cd "$moddir" && pwd)/Module.symvers
kb=$out/kbuild
mkdir -p "$kb/sm-emu"
rsync -r --checksum --delete --include='*.c' --include=Kbuild \
	--exclude='*' "$root/samples/policies/" "$kb/"
rsync -r --checksum --delete --include='*.h' --exclude='*' \
	"$root/sm-emu/" "$kb/sm-emu/"
# the samples now there; a removed one's objects and module go
mods=()
for c in "$root"/samples/policies/gtbs_*.c; do
	[ -f "$c" ] || continue
	m=$(basename "$c" .c)
	mods+=("$m")
done
for k in "$kb"/*.ko "$out"/*.ko; do
	[ -f "$k" ] || continue
	case " ${mods[*]} " in
	*" $(basename "$k" .ko) "*) ;;
	*) rm -f "$k" "${k%.ko}".o "${k%.ko}".mod* ;;
	esac
done
kb=$(cd "$kb" && pwd)
log=$kb/build.log
if ! make -C "$kdir" M="$kb" W=1 KBUILD_EXTRA_SYMBOLS="$symvers" "$@" \
	modules >"$log" 2>&1; then
	cat "$log" >&2
	echo "build-samples: build against $kdir failed" >&2
	exit 1
fi
# make's own notices ("make[1]: warning: jobserver unavailable") are not
# the compiler's
if grep -E 'warning:|error:|WARNING:' "$log" |
	grep -v -e 'Skipping BTF generation' -e '^make\(\[[0-9]*\]\)\?: ' >&2; then
	echo "build-samples: warnings building against $kdir (W=1 must be clean)" >&2
	exit 1
fi
for m in "${mods[@]}"; do
	# modules.order: what this build made (Kbuild's wildcard found it)
	if ! grep -Eq "(^|/)$m\.k?o\$" "$kb/modules.order" ||
		[ ! -f "$kb/$m.ko" ]; then
		echo "build-samples: samples/policies/$m.c gave no $m.ko (Kbuild)" >&2
		exit 1
	fi
	cp "$kb/$m.ko" "$out/"
done
echo "build-samples: ${mods[*]/%/.ko} against $kdir, in $out"
