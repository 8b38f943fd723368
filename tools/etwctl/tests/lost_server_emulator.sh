#!/bin/sh
# A stand-in for the Wine wrapper whose first run loses its server, for the tests of run_tool.cmake's
# retry (CMakeLists.txt, tool.retry_*).
#   lost_server_emulator.sh STATE MESSAGE PROGRAM [ARGS...]
# Without the file STATE, it creates it, prints MESSAGE on stderr as Wine's loader would, and exits 1
# without running PROGRAM (MESSAGE "-": it prints nothing at all); with it, it removes it and runs
# PROGRAM.
state=$1
message=$2
shift 2
if [ ! -e "$state" ]; then
    : >"$state"
    if [ "$message" != "-" ]; then echo "$message" >&2; fi
    exit 1
fi
rm -f "$state"
exec "$@"
