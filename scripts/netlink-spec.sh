#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/netlink-spec.sh [check|gen] - the YNL spec of the gputbs generic
# netlink family, Documentation/netlink/specs/gputbs.yaml, through the
# kernel tree's own tooling ($SRC_TREE/tools/net/ynl, see
# scripts/kernel-paths.sh):
#
#   check  (default) validate the spec against the tree's JSON schema
#          (Documentation/netlink/genetlink.yaml), generate the uAPI
#          header and the kernel policy code from it, load it with YNL's
#          spec loader, compare the header with uapi/linux/gputbs_netlink.h
#          and the generated policies with kmod/gputbs_nl_cmd.c
#   gen    regenerate uapi/linux/gputbs_netlink.h
#
# ynl-gen-c.py wants the spec inside a kernel tree (it looks for
# MAINTAINERS and the schema two directories up), so the spec is copied
# into a scratch tree with the schema.  Needs python3 with PyYAML and
# jsonschema (Debian: python3-yaml, python3-jsonschema).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/kernel-paths.sh
. "$root/scripts/kernel-paths.sh"
mode=${1:-check}
spec=Documentation/netlink/specs/gputbs.yaml
header=uapi/linux/gputbs_netlink.h
ynl=$SRC_TREE/tools/net/ynl

die() {
	echo "netlink-spec: $*" >&2
	exit 1
}
case "$mode" in check | gen) ;; *) die "usage: $0 [check|gen]" ;; esac
[ -f "$ynl/ynl-gen-c.py" ] ||
	die "no $ynl/ynl-gen-c.py (SRC_TREE=$SRC_TREE; build the debug kernel: scripts/build-debug-kernel.sh)"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/gputbs-ynl.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/Documentation/netlink/specs"
: >"$tmp/MAINTAINERS"
cp "$SRC_TREE/Documentation/netlink/genetlink.yaml" "$tmp/Documentation/netlink/"
cp "$root/$spec" "$tmp/$spec"

gen() {	# gen MODE header|source OUT
	timeout 120 python3 "$ynl/ynl-gen-c.py" --mode "$1" "--$2" \
		--spec "$tmp/$spec" -o "$3"
}

gen uapi header "$tmp/gputbs_netlink.h"
if [ "$mode" = gen ]; then
	cp "$tmp/gputbs_netlink.h" "$root/$header"
	echo "netlink-spec: wrote $header"
	exit 0
fi
gen kernel source "$tmp/gputbs_nl_gen.c"
gen kernel header "$tmp/gputbs_nl_gen.h"
# YNL's own spec loader (tools/net/ynl/lib, used by its CLI) with the schema
timeout 120 python3 - "$ynl" "$tmp/$spec" "$tmp/Documentation/netlink/genetlink.yaml" \
	>"$tmp/ops" <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
from lib import SpecFamily
family = SpecFamily(sys.argv[2], sys.argv[3])
for name, op in family.msgs.items():
    print(name, op.value)
PY
for op in dev-get grid-get sm-get policy-set param-set preempt-set \
	tenant-get tenant-set grid-submitted-ntf grid-completed-ntf; do
	grep -q "^$op " "$tmp/ops" || die "YNL's spec loader does not list operation $op"
done
if ! diff -u "$root/$header" "$tmp/gputbs_netlink.h"; then
	die "$header is not what $spec generates: run scripts/netlink-spec.sh gen"
fi
# the module's policies are hand-written (they build against 6.1 too):
# every policy the generator derives from the spec must be in it, but
# preempt-set's preempt-mode: the generator bounds the enum with
# NLA_POLICY_MAX, whose ERANGE the module replaces with its own check,
# EINVAL and a message, as sysfs preempt_mode answers
for pol in GPUTBS_A_GRID_ID GPUTBS_A_SM_ID GPUTBS_A_DEV_POLICY \
	GPUTBS_A_PARAM_NAME GPUTBS_A_PARAM_VALUE GPUTBS_A_PARAM_VALUE_NAME \
	GPUTBS_A_DEV_SWITCH_BYTES_PER_CYCLE \
	GPUTBS_A_DEV_PREEMPT_BUDGET_LOW GPUTBS_A_DEV_PREEMPT_BUDGET_NORMAL \
	GPUTBS_A_DEV_PREEMPT_BUDGET_HIGH GPUTBS_A_DEV_PREEMPT_BUDGET_REALTIME \
	GPUTBS_A_TENANT_CGROUP_ID GPUTBS_A_TENANT_CLIENT_ID \
	GPUTBS_A_TENANT_WEIGHT GPUTBS_A_TENANT_MAX_PPM; do
	want=$(grep -F "[$pol] =" "$tmp/gputbs_nl_gen.c" | sed 's/^[[:space:]]*//')
	grep -qF "$want" "$root/kmod/gputbs_nl_cmd.c" ||
		die "kmod/gputbs_nl_cmd.c lacks the spec's policy: $want"
done
echo "netlink-spec: $spec valid; $header up to date; $(wc -l <"$tmp/ops") operations"
