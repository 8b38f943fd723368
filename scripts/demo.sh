#!/usr/bin/env bash
# The README's first command: build and run the etwctl demo on the simulated kernel.
# Works on a fresh Debian 12 machine as root: installs what is missing, then builds only the demo.
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
command -v cmake >/dev/null || need+=(cmake)
command -v ninja >/dev/null || need+=(ninja-build)
command -v g++ >/dev/null || need+=(g++)
[ -f /usr/share/cmake/Microsoft.GSL/Microsoft.GSLConfig.cmake ] || [ -d /usr/include/gsl ] || need+=(libmsgsl-dev)
if [ ${#need[@]} -gt 0 ]; then
    echo "installing: ${need[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

cmake -S . -B build/demo -G Ninja -DCMAKE_BUILD_TYPE=Release -DETWCTL_BUILD_TESTS=OFF -DETWCTL_BUILD_EXAMPLES=ON >/dev/null
cmake --build build/demo --target etwctl_demo etwctl_tool
echo
./build/demo/examples/etwctl_demo

# The same controls from the shell: the etwctl tool (here on the simulated kernel; on Windows the real one).
tool=./build/demo/tools/etwctl/etwctl
run() { echo; echo "\$ etwctl $*"; "$tool" "$@" 2>&1; }
refused() { # a deliberate mistake: the tool must refuse it (exit code 2, the rule named)
    echo; echo "\$ etwctl $*   # a deliberate mistake"
    local rc=0
    "$tool" "$@" 2>&1 || rc=$?
    if [ "$rc" -ne 2 ]; then echo "demo: expected a refusal (exit code 2), got $rc" >&2; exit 1; fi
    echo "(refused, as intended: exit code 2)"
}
run profile-sources
run --dry-run stackwalk kernel SampledProfile+CSwitch+ReadyThread
run interval set 8kHz
run pmc kernel --counters TotalCycles,InstructionRetired --events CSwitch
refused pmc kernel --counters TotalCycles --events ReadyThread
run decode-handle 0x0000000500040005

# The whole loop on a simulated machine that lives across commands (--sim=STATEFILE): start the NT Kernel
# Logger with xperf's line, let the machine run, stop it with its statistics, read the file back.
work=build/demo/recording
rm -rf "$work" && mkdir -p "$work"
state=$work/machine.sim
echo
echo "---- recording on the simulated machine ($state) ----"
run --sim="$state" interval set 8kHz
run --sim="$state" -on PROC_THREAD+LOADER+PROFILE+CSWITCH -stackwalk Profile+CSwitch -f "$work/kernel.etl"
run --sim="$state" --sim-advance 250
run --sim="$state" -stop
run trace stats "$work/kernel.etl"
run trace dump "$work/kernel.etl" --events SampledProfile --limit 4
run trace dump "$work/kernel.etl" --events SampledProfile --limit 1 --json
echo; echo "\$ etwctl trace stacks $work/kernel.etl   # the 3 hottest stacks, folded (flame-graph input)"
# (awk, not head, keeps the first three: it reads sort's output to the end, so sort never writes into a
# closed pipe, which set -o pipefail would report as a failure)
"$tool" trace stacks "$work/kernel.etl" 2>/dev/null | awk '{print $NF "\t" $0}' | sort -rn | awk 'NR <= 3' | cut -f2-
