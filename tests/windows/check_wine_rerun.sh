#!/bin/sh
# CTest script: cmake/wine-run.sh runs a program that ended with status 1 having written nothing once
# more (Wine under load now and then ends a program so before it runs), records the rerun, and passes the
# second run's status through; a program that wrote something, or ended with another status, runs once.
#   check_wine_rerun.sh WRAPPER PROBE
set -u

if [ "$#" -ne 2 ]; then
    echo "usage: $0 WRAPPER PROBE" >&2
    exit 2
fi
wrapper=$1
probe=$2

fail() {
    echo "FAILED: $*" >&2
    exit 1
}

work=$(mktemp -d "${TMPDIR:-/tmp}/etwctl-rerun.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work" || fail "cannot enter $work"
ETWCTL_WINE_RETRIES=$work/reruns
export ETWCTL_WINE_RETRIES

# Status 1, nothing written: run twice, recorded once, the status passed through.
"$wrapper" "$probe" count runs >out 2>err
rc=$?
[ "$rc" -eq 1 ] || fail "count: exit code $rc (expected 1)"
[ -f runs ] || fail "count: the probe did not run (no file 'runs')"
[ "$(grep -c '^run' runs)" -eq 2 ] || fail "count: the probe ran $(grep -c '^run' runs) times (expected 2: once more)"
[ ! -s out ] && [ ! -s err ] || fail "count: the wrapper wrote something: $(cat out err)"
[ "$(wc -l <reruns)" -eq 1 ] || fail "count: $(wc -l <reruns) reruns recorded (expected 1)"
grep -q 'count runs -> 1$' reruns || fail "count: the record does not name the program and its status: $(cat reruns)"

# Status 1 with a line on stderr: a failure that says so, run once.
"$wrapper" "$probe" fail >out 2>err
rc=$?
[ "$rc" -eq 1 ] || fail "fail: exit code $rc (expected 1)"
grep -qx 'failing' err || fail "fail: stderr is '$(cat err)' (expected 'failing')"
[ "$(wc -l <reruns)" -eq 1 ] || fail "fail: it was run again ($(wc -l <reruns) reruns recorded)"

# Another status, nothing written: run once.
"$wrapper" "$probe" exit 3 >out 2>err
rc=$?
[ "$rc" -eq 3 ] || fail "exit 3: exit code $rc (expected 3)"
[ "$(wc -l <reruns)" -eq 1 ] || fail "exit 3: it was run again ($(wc -l <reruns) reruns recorded)"

echo "wine-run.sh reruns a silent status 1 once and records it; nothing else"
