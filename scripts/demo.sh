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
cmake --build build/demo --target etwctl_demo
echo
./build/demo/examples/etwctl_demo
