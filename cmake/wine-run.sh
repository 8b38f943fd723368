#!/bin/sh
# Runs a Windows program under Wine for CTest (CMAKE_CROSSCOMPILING_EMULATOR):
#   wine-run.sh program.exe [args...]
# Headless, with a private prefix (ETWCTL_WINEPREFIX, default: _wineprefix next to CMakeCache.txt
# of the build tree the program lives in, else a per-user temp dir), no Wine debug output, and
# Wine's crash debugger disabled so that a crash always gives a non-zero exit code. The program's
# exit code is passed through. stdout and stderr are passed through separately with CR removed
# (Windows writes CRLF), so CTest regular expressions and scripts compare plain text. ETWCTL_WINE names
# the loader and ETWCTL_WINESERVER its server (found beside the loader when unset; set and empty: no
# server is kept, the loader starts its own, as the wrapper's own test runs it with a stand-in loader).
set -u

if [ "$#" -lt 1 ]; then
    echo "usage: $0 program.exe [args...]" >&2
    exit 2
fi

# The 64-bit loader: Debian puts it in the wine64 package's library folder, not on PATH.
loader=${ETWCTL_WINE:-}
if [ -z "$loader" ]; then
    for candidate in /usr/lib/wine/wine64 /usr/lib/x86_64-linux-gnu/wine/wine64 /opt/wine-stable/bin/wine64; do
        if [ -x "$candidate" ]; then loader=$candidate; break; fi
    done
fi
if [ -z "$loader" ] && command -v dpkg >/dev/null 2>&1; then
    loader=$(dpkg -L wine64 2>/dev/null | grep '/wine64$' | head -n 1)
fi
if [ -z "$loader" ]; then loader=$(command -v wine64 || command -v wine || true); fi
if [ -z "$loader" ] || [ ! -x "$loader" ]; then
    echo "wine-run.sh: no Wine loader found (install wine64)" >&2
    exit 2
fi

# The server that goes with the loader (Debian: wineserver64 beside wine64, not on PATH).
if [ "${ETWCTL_WINESERVER+set}" = set ]; then
    wineserver=$ETWCTL_WINESERVER
else
    wineserver=$(dirname "$loader")/wineserver64
    [ -x "$wineserver" ] || wineserver=$(dirname "$loader")/wineserver
    [ -x "$wineserver" ] || wineserver=$(command -v wineserver64 || command -v wineserver || true)
fi

prefix=${ETWCTL_WINEPREFIX:-}
if [ -z "$prefix" ]; then
    dir=$(cd "$(dirname "$1")" 2>/dev/null && pwd -P || pwd -P)
    while [ "$dir" != "/" ] && [ ! -f "$dir/CMakeCache.txt" ]; do dir=$(dirname "$dir"); done
    if [ -f "$dir/CMakeCache.txt" ]; then
        prefix="$dir/_wineprefix"
    else
        prefix="${TMPDIR:-/tmp}/etwctl-wineprefix-$(id -u)"
    fi
fi
mkdir -p "$prefix"

WINEPREFIX=$prefix
WINEDEBUG=-all
WINEDLLOVERRIDES="winedbg.exe=d;mscoree=d;mshtml=d"
WINEARCH=win64
export WINEPREFIX WINEDEBUG WINEDLLOVERRIDES WINEARCH
unset DISPLAY WAYLAND_DISPLAY

# One Wine server and one set of Wine's own processes (services.exe, winedevice.exe, ...) per prefix,
# kept for the whole test run. Without it, the server shut down in every pause between programs, and
# the next program booted Wine's processes again; they inherited that program's stderr, so its test
# waited until they exited (1.5 to 2.7 s, 17 times in one run of the tool's cases, 45 of the 74 s the
# mingw-gcc tests took), and programs started while a server went down could lose it (a "wine client
# error" was seen once). Here the server runs in the foreground of a background job, so its pid is
# known; it stays up to 30 s after the last program ends (-p30). wineboot then starts Wine's processes
# with /dev/null as their stdio. Neither keeps the lock (fd 9). "$prefix.server" names the server once
# Wine's processes are up; a name whose process is gone, or is not a Wine server, is stale.
server_up() {
    pid=$(cat "$prefix.server" 2>/dev/null) || return 1
    [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || return 1
    [ ! -r "/proc/$pid/comm" ] || grep -q '^wineserver' "/proc/$pid/comm"
}
# Creating the prefix (a while) and starting the server: when tests run in parallel, one of them does
# it, under the lock, and the others find it done.
if [ ! -f "$prefix/system.reg" ] || ! server_up; then
    (
        if command -v flock >/dev/null 2>&1; then flock 9; fi
        if [ ! -f "$prefix/system.reg" ]; then
            "$loader" wineboot --init >/dev/null 2>&1 </dev/null 9>&-
            [ -n "$wineserver" ] && "$wineserver" -w >/dev/null 2>&1
        fi
        if [ -n "$wineserver" ] && ! server_up; then
            "$wineserver" -f -p30 </dev/null >/dev/null 2>&1 9>&- &
            server=$!
            # Until it listens, a program would start a server of its own (Linux: its socket appears
            # in its working directory). It exits at once if the prefix has a server.
            tries=0
            while [ -d /proc/self ] && [ ! -S "/proc/$server/cwd/socket" ] && [ "$tries" -lt 500 ] &&
                  kill -0 "$server" 2>/dev/null; do
                sleep 0.01
                tries=$((tries + 1))
            done
            "$loader" wineboot </dev/null >/dev/null 2>&1 9>&-
            if kill -0 "$server" 2>/dev/null; then echo "$server" >"$prefix.server"; fi
        fi
    ) 9>"$prefix.lock"
fi

# Keep the exit code of the program, not of the filter, and stdout and stderr apart (tests check
# them separately). Both streams go through pipes that are read while the program runs: with stderr
# redirected to a regular file, Wine occasionally lost a short-lived program's stderr under parallel
# load (seen about once in 500 runs); pipes, as for stdout, have not lost a byte. Each stream is also
# counted (tee into the work folder) for the one case run again, below.
work=$(mktemp -d "${TMPDIR:-/tmp}/etwctl-wine.XXXXXX")
run_once() {
    rm -f "$work/stderr" "$work/out" "$work/err" "$work/status"
    mkfifo "$work/stderr"
    tr -d '\r' <"$work/stderr" | tee "$work/err" >&2 &
    stderr_reader=$!
    { "$loader" "$@" </dev/null 2>"$work/stderr"; echo $? >"$work/status"; } | tr -d '\r' | tee "$work/out"
    wait "$stderr_reader"
    status=$(cat "$work/status" 2>/dev/null)
}
run_once "$@"
# A program Wine ended before it ran is run once more: one that ended with status 1 having written nothing
# at all, on either stream (under parallel load Wine now and then ends a program so: no byte from a
# doctest program that always prints its summary, or from the tool where it prints an error; seen in one
# program of a few hundred to a few thousand in full test runs, once in 1,200 runs of a loop with both
# cores busy), and one that failed with nothing on stdout and Wine's loader saying on stderr that it lost
# its server ("wine client error:...: recvmsg: Connection reset by peer", seen once in 302 runs of the
# tool) or cannot reach it ("a wine server seems to be running, but I cannot connect to it", seen once);
# that first run's stderr has already been passed on. Every rerun is recorded (ETWCTL_WINE_RERUNS,
# default "$prefix.reruns": the program, its arguments and what the second run ended with) and
# scripts/test.sh lists them; a program that fails so every time still fails. The one place this is
# decided: the test scripts run a program once.
lost_server() {
    grep -q -e 'wine client error' -e 'a wine server seems to be running, but I cannot connect' "$work/err"
}
if [ "$status" != 0 ] && [ ! -s "$work/out" ] && { { [ "$status" = 1 ] && [ ! -s "$work/err" ]; } || lost_server; }; then
    run_once "$@"
    echo "$* -> ${status:-none}" >>"${ETWCTL_WINE_RERUNS:-$prefix.reruns}"
fi
rm -rf "$work"
if [ -z "$status" ]; then
    echo "wine-run.sh: no exit status recorded for $1" >&2
    exit 1
fi
exit "$status"
