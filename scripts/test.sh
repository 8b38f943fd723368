#!/usr/bin/env bash
# etwctl's test command: installs what is missing (Debian 12, as root), then for every CMake preset
# configures, builds and runs CTest, then runs the package tests, and prints a summary. The msvc-mode
# stage (scripts/msvc_mode.sh) compiles the headers, examples and tests as an MSVC build would, with
# clang-cl and Microsoft's STL from ${ETWCTL_MSVC_MODE_DIR:-../shared/msvc-mode}; without them it is skipped.
#
#   scripts/test.sh                  all presets and the msvc-mode stage
#   scripts/test.sh gcc mingw-gcc    only these presets (the package stage runs if gcc / mingw-gcc are among them)
#   scripts/test.sh msvc-mode        only the msvc-mode stage (it can be named with presets too)
#   ETWCTL_SKIP_INSTALL=1 scripts/test.sh    do not touch packages
#
# Exit status: 0 when every stage passed, 1 otherwise.
set -u
set -o pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 1
root=$(pwd)

all_presets=(gcc clang asan tsan noexcept mingw-gcc mingw-clang)
msvc_mode=1
if [ "$#" -gt 0 ]; then
    presets=() msvc_mode=0
    for arg in "$@"; do
        if [ "$arg" = msvc-mode ]; then msvc_mode=1; else presets+=("$arg"); fi
    done
else
    presets=("${all_presets[@]}")
fi

packages=(cmake ninja-build pkg-config g++ clang-14 libclang-rt-14-dev libmsgsl-dev doctest-dev libbenchmark-dev libpugixml-dev
          g++-mingw-w64-x86-64-posix mingw-w64-x86-64-dev wine64 wine
          clang-tools-19) # clang-cl-19 (and clang-19) for the msvc-mode stage

log_dir="$root/build/test-logs"
# One Wine prefix for both Windows presets (creating one takes ~20 s and ~700 MB).
export ETWCTL_WINEPREFIX="${ETWCTL_WINEPREFIX:-$root/build/wineprefix}"
# Programs cmake/wine-run.sh ran once more (Wine ended them with status 1 before they wrote anything):
# recorded there, reported in the summary.
export ETWCTL_WINE_RERUNS="$log_dir/wine-reruns.txt"
mkdir -p "$log_dir"
rm -f "$ETWCTL_WINE_RERUNS"

declare -a summary=()
failed=0
script_start=$SECONDS

note() { printf '\n==== %s\n' "$*"; }

# ---- packages -------------------------------------------------------------------------------------
install_missing() {
    local missing=() p
    for p in "${packages[@]}"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
    done
    if [ "${#missing[@]}" -eq 0 ]; then
        echo "all ${#packages[@]} packages present"
        return 0
    fi
    echo "missing: ${missing[*]}"
    local sudo=""
    if [ "$(id -u)" -ne 0 ]; then
        if command -v sudo >/dev/null 2>&1; then sudo="sudo"; else
            echo "not root and no sudo: install them first" >&2
            return 1
        fi
    fi
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get update -q || return 1
    $sudo apt-get install -y --no-install-recommends "${missing[@]}" || return 1
}

# ---- one stage: a command, its log, its time, its verdict -----------------------------------------
# A command that exits 77 was skipped (what it lacks: the last line of its output).
run_stage() { # run_stage <name> <command...>
    local name=$1; shift
    local log="$log_dir/${name//[^A-Za-z0-9_.-]/_}.log"
    local start=$SECONDS rc=0
    printf '%-34s ' "$name"
    "$@" >"$log" 2>&1 || rc=$?
    local secs=$((SECONDS - start))
    if [ "$rc" -eq 0 ]; then
        printf 'ok     %4ds\n' "$secs"
        summary+=("$(printf '%-34s PASS %5ds' "$name" "$secs")")
        return 0
    elif [ "$rc" -eq 77 ]; then
        printf 'SKIP   %4ds %s\n' "$secs" "$(tail -n 1 "$log")"
        summary+=("$(printf '%-34s SKIP %5ds  %s' "$name" "$secs" "$(tail -n 1 "$log")")")
        return 0
    else
        printf 'FAILED %4ds (log: %s)\n' "$secs" "${log#"$root"/}"
        tail -n 40 "$log" | sed 's/^/    | /'
        summary+=("$(printf '%-34s FAIL %5ds  %s' "$name" "$secs" "${log#"$root"/}")")
        failed=1
        return 1
    fi
}

# What each failed test printed (outputOnFailure puts it under the test's result line, anywhere in a
# long log): the report shows it, so a failure on a machine whose logs are gone can still be read.
ctest_failures() { # ctest_failures <log>
    echo "    what the failed tests printed:"
    awk '/^ *[0-9]+\/[0-9]+ Test +#[0-9]+:/ { show = /\*\*\*|Not Run/; lines = 0 }
         /^ +Start +[0-9]+:/ { show = 0 }
         show && lines++ < 60 { print "    > " $0 }' "$1"
}

# ctest's own summary line of the last run of a preset, for the report.
ctest_counts() { # ctest_counts <log>
    grep -E 'tests passed, [0-9]+ tests? failed out of [0-9]+' "$1" | tail -n 1
}

note "packages"
if [ "${ETWCTL_SKIP_INSTALL:-0}" = "1" ]; then
    echo "skipped (ETWCTL_SKIP_INSTALL=1)"
elif ! command -v dpkg-query >/dev/null 2>&1; then
    echo "no dpkg: not a Debian system, packages not checked"
else
    run_stage "install packages" install_missing || { echo "cannot install the tools; stopping" >&2; exit 1; }
fi

if [ "$msvc_mode" -eq 1 ]; then
    note "msvc-mode (clang-cl, Microsoft's STL, /W4 /WX /permissive-)"
    run_stage "msvc-mode" scripts/msvc_mode.sh
fi

declare -A counts=()
for preset in "${presets[@]}"; do
    note "preset $preset"
    fresh=()
    # build/<preset> is shared scratch: start afresh if its cache belongs to another source tree.
    if [ -f "build/$preset/CMakeCache.txt" ] &&
       ! grep -qx "CMAKE_HOME_DIRECTORY:INTERNAL=$root" "build/$preset/CMakeCache.txt"; then
        fresh=(--fresh)
    fi
    run_stage "$preset: configure" cmake --preset "$preset" "${fresh[@]}" || continue
    run_stage "$preset: build" cmake --build --preset "$preset" || continue
    run_stage "$preset: test" ctest --preset "$preset" || ctest_failures "$log_dir/${preset}__test.log"
    counts[$preset]=$(ctest_counts "$log_dir/${preset}__test.log")
done

note "package tests"
for preset in gcc mingw-gcc; do
    if printf '%s\n' "${presets[@]}" | grep -qx "$preset" && [ -f "build/$preset/CTestTestfile.cmake" ]; then
        run_stage "package ($preset)" ctest --preset "package-$preset" || ctest_failures "$log_dir/package__${preset}_.log"
        counts[package-$preset]=$(ctest_counts "$log_dir/package__${preset}_.log")
    fi
done

# Wine servers of the build trees' prefixes linger a few seconds; end them so nothing is left running.
for prefix in build/wineprefix build/*/_wineprefix; do
    [ -d "$prefix" ] || continue
    for ws in /usr/lib/wine/wineserver64 "$(command -v wineserver 2>/dev/null)"; do
        if [ -n "$ws" ] && [ -x "$ws" ]; then WINEPREFIX="$root/$prefix" "$ws" -k >/dev/null 2>&1; break; fi
    done
done

note "summary ($((SECONDS - script_start)) s in all)"
printf '%s\n' "${summary[@]}"
echo
for key in "${!counts[@]}"; do
    [ -n "${counts[$key]}" ] && printf '%-22s %s\n' "$key" "${counts[$key]}"
done | sort
echo
if [ -s "$ETWCTL_WINE_RERUNS" ]; then
    echo "wine-run.sh ran $(wc -l <"$ETWCTL_WINE_RERUNS") program(s) once more (Wine ended them before they ran):"
    sed 's/^/    /' "$ETWCTL_WINE_RERUNS"
    echo
fi
if [ "$failed" -ne 0 ]; then
    echo "RESULT: FAILED (logs in build/test-logs/)"
    exit 1
fi
echo "RESULT: all stages passed"
exit 0
