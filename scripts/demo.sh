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
run() { echo; echo "\$ etwctl $*"; "$tool" "$@" 2>&1 || echo "(exit code $?)"; }
run profile-sources
run --dry-run stackwalk kernel SampledProfile+CSwitch+ReadyThread
run interval set 8kHz
run pmc kernel --counters TotalCycles,InstructionRetired --events ReadyThread
run decode-handle 0x0000000500040005
