#!/bin/sh
# CTest script: cmake/wine-run.sh keeps one Wine server per prefix for the whole test run, and Wine's
# own processes of that prefix (services.exe, winedevice.exe, ...) never hold a test program's stdout or
# stderr. When one of them did, the test that happened to boot them waited until they exited, and the
# server's shutdowns and restarts met the next tests (see the comment in wine-run.sh).
#   check_wine_processes.sh WRAPPER PROBE
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
