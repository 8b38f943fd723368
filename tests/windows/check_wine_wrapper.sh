#!/bin/sh
# CTest script: what cmake/wine-run.sh promises besides exit codes and line ends (check_emulator.cmake).
#   check_wine_wrapper.sh processes WRAPPER PROBE
#     one Wine server per prefix for the whole test run, and Wine's own processes of that prefix
#     (services.exe, winedevice.exe, ...) never hold a test program's stdout or stderr. When one of them
#     did, the test that happened to boot them waited until they exited, and the server's shutdowns and
#     restarts met the next tests (see the comment in wine-run.sh).
#   check_wine_wrapper.sh rerun WRAPPER PROBE
#     a program that ended with status 1 having written nothing, or that failed with nothing on stdout and
#     Wine's loader saying on stderr that it lost its server, is run once more (Wine ended it before it
#     ran), the rerun recorded, the second run's status and output passed through; a program that wrote
#     something else, or ended silently with another status, runs once.
#   check_wine_wrapper.sh standin WRAPPER
#     the rerun check on any host: the wrapper runs a shell script through a stand-in loader (no Wine,
#     no server kept) that behaves as the probe does.
set -u

if [ "$#" -ne 3 ] && { [ "$#" -ne 2 ] || [ "$1" != standin ]; }; then
    echo "usage: $0 processes|rerun WRAPPER PROBE | standin WRAPPER" >&2
    exit 2
fi
check=$1
wrapper=$2
probe=${3:-}

fail() {
    echo "FAILED: $*" >&2
    exit 1
}

processes() {
    # The prefix the wrapper chose, as the program under Wine sees it.
    prefix=$("$wrapper" "$probe" env WINEPREFIX) || fail "the probe did not run through $wrapper"
    [ -n "$prefix" ] || fail "the probe saw no WINEPREFIX"

    # The server the wrapper started: alive, and persistent.
    server=$(cat "$prefix.server" 2>/dev/null) || fail "no $prefix.server after a program ran: the wrapper keeps no server"
    [ -r "/proc/$server/cmdline" ] || fail "the server $server named by $prefix.server is not running"
    args=$(tr '\0' ' ' <"/proc/$server/cmdline")
    case "$args" in
    *wineserver*' -p'*) ;;
    *) fail "process $server is not a persistent Wine server: $args" ;;
    esac

    # Wine's own long-lived processes of this prefix: stdin, stdout and stderr are not pipes, FIFOs or sockets.
    # Other tests' programs run beside this one with pipes of their own; they are not Wine's own programs.
    found=0
    for dir in /proc/[0-9]*; do
        tr '\0' '\n' 2>/dev/null <"$dir/environ" | grep -qxF "WINEPREFIX=$prefix" || continue
        program=$(tr '\0' '\n' 2>/dev/null <"$dir/cmdline" | head -n 1)
        case "$program" in
        *'\system32\services.exe' | *'\system32\winedevice.exe' | *'\system32\plugplay.exe' | \
            *'\system32\svchost.exe' | *'\system32\rpcss.exe') ;;
        *) continue ;;
        esac
        found=$((found + 1))
        for fd in 0 1 2; do
            # A pipe (the wrapper's stdout pipe or its stderr FIFO) or a socket: some test's stream.
            if [ -p "$dir/fd/$fd" ] || [ -S "$dir/fd/$fd" ]; then
                fail "$program (pid ${dir#/proc/}) has fd $fd on $(readlink "$dir/fd/$fd"): it holds a test's stream"
            fi
        done
    done
    [ "$found" -gt 0 ] || fail "no services.exe, winedevice.exe, ... of $prefix is running beside server $server"
    echo "wine processes ok: server $server persistent, $found of Wine's own processes, none on a pipe"
}

rerun() {
    work=$(mktemp -d "${TMPDIR:-/tmp}/etwctl-rerun.XXXXXX")
    trap 'rm -rf "$work"' EXIT
    cd "$work" || fail "cannot enter $work"
    ETWCTL_WINE_RERUNS=$work/reruns
    export ETWCTL_WINE_RERUNS

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

    # Status 1, nothing on stdout, Wine's lost-server message on stderr: run again, its output and status passed on.
    "$wrapper" "$probe" lost lost-runs >out 2>err
    rc=$?
    [ "$rc" -eq 0 ] || fail "lost: exit code $rc (expected 0, the second run's)"
    [ "$(grep -c '^run' lost-runs)" -eq 2 ] || fail "lost: the probe ran $(grep -c '^run' lost-runs) times (expected 2: once more)"
    grep -qx 'ran' out || fail "lost: stdout is '$(cat out)' (expected the second run's 'ran')"
    [ "$(wc -l <reruns)" -eq 2 ] || fail "lost: $(wc -l <reruns) reruns recorded (expected 2)"
    grep -q 'lost lost-runs -> 0$' reruns || fail "lost: the record does not name the program and its status: $(cat reruns)"

    echo "wine-run.sh reruns a silent status 1 and a run whose loader lost its server once, and records them; nothing else"
}

# A loader that runs the "program" with sh (wineboot: nothing to do) and a probe in shell with
# emulator_probe.cpp's modes that rerun uses; the wrapper keeps no server (ETWCTL_WINESERVER empty).
standin() {
    dir=$(mktemp -d "${TMPDIR:-/tmp}/etwctl-standin.XXXXXX")
    cat >"$dir/loader" <<'LOADER'
#!/bin/sh
case "$1" in wineboot) exit 0 ;; esac
exec sh "$@"
LOADER
    cat >"$dir/probe" <<'PROBE'
case "$1" in
count) echo run >>"$2"; exit 1 ;;
fail) echo failing >&2; exit 1 ;;
exit) exit "$2" ;;
lost)
    first=1
    [ -s "$2" ] && first=0
    echo run >>"$2"
    if [ "$first" = 1 ]; then echo 'wine client error:0: recvmsg: Connection reset by peer' >&2; exit 1; fi
    echo ran
    exit 0 ;;
esac
exit 2
PROBE
    chmod +x "$dir/loader"
    ETWCTL_WINE=$dir/loader ETWCTL_WINESERVER= ETWCTL_WINEPREFIX=$dir/prefix
    export ETWCTL_WINE ETWCTL_WINESERVER ETWCTL_WINEPREFIX
    probe=$dir/probe
    (rerun)
    rc=$?
    rm -rf "$dir"
    exit "$rc"
}

case "$check" in
processes) processes ;;
rerun) rerun ;;
standin) standin ;;
*) echo "usage: $0 processes|rerun WRAPPER PROBE | standin WRAPPER" >&2; exit 2 ;;
esac
