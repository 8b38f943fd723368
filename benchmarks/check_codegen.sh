#!/bin/sh
# check_codegen.sh <binary> [objdump]: inspects the machine code of the measured functions.
#   stack_const_typed[_ctad] (set<stack_tracing> with a compile-time hook_list): no backward branch, i.e.
#                       no loop over the events; one call, to the kernel double, and no other.
#   enable_flags_typed / enable_flags_compat (enable-flags decode): no call at all.
#   group_mask_compat, pmc_counters_compat, interval_timer_compat, query_mask_compat: the drop-in
#                       function inlined: one call, to the kernel double, and no other.
# Prints one line per function (instructions, backward branches, calls) and exits non-zero if a
# property does not hold; exits 77 (CTest: skipped) when objdump is missing.
set -eu
bin=$1
objdump=${2:-objdump}
command -v "$objdump" >/dev/null 2>&1 || { echo "check_codegen: $objdump not found; skipped"; exit 77; }

dis=$(mktemp)
trap 'rm -f "$dis"' EXIT
"$objdump" -d -C --no-show-raw-insn "$bin" >"$dis"

# body <function>: the disassembly lines of etwctl_bench::<function>() (address: mnemonic operands).
body() {
    awk -v name="<etwctl_bench::$1()>:" '
        index($0, name) { on = 1; next }
        on && /^$/ { exit }
        on { print }' "$dis"
}

# stats <function>: "<instructions> <backward branches> <calls to other than the kernel double> <kernel calls>"
stats() {
    body "$1" | awk '
        function hex(s,    i, v) { v = 0; for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1; return v }
        {
            addr = $1; sub(":", "", addr); mnem = $2
            if (mnem == "") next
            if (start == "") start = hex(addr)
            n++
            # calls into the failure path (ETWCTL_COLD functions that record the error context, and the
            # NTSTATUS -> Win32 mapping of a kernel failure; g++ moves them to a .cold part, clang keeps
            # them after the status test) are not the hot path
            if (mnem ~ /^call/) {
                if (index($0, "null_kernel::") > 0) kcalls++
                else if (index($0, "kernel_refused<") == 0 && index($0, "detail::fail(") == 0 &&
                         index($0, "nt_status_to_win32(") == 0) calls++
            }
            if (mnem ~ /^j/ && $3 ~ /^[0-9a-f]+$/) {
                # a loop: a jump back inside the function (a jump to its out-of-line .cold part is not)
                if (hex($3) <= hex(addr) && hex($3) >= start) back++
            }
        }
        END { printf "%d %d %d %d\n", n, back + 0, calls + 0, kcalls + 0 }'
}

status=0
# check <function> <backward branches allowed: number or "any"> <kernel calls wanted>
# Calls to anything but the kernel double are never allowed.
check() {
    set -- "$1" "$2" "$3" $(stats "$1")
    if [ "$4" -eq 0 ]; then echo "check_codegen: etwctl_bench::$1 not found in $bin"; status=1; return; fi
    verdict=ok
    if [ "$2" != any ] && [ "$5" -gt "$2" ]; then verdict=FAIL; fi
    [ "$6" -eq 0 ] || verdict=FAIL
    [ "$7" -eq "$3" ] || verdict=FAIL
    echo "$1: $4 instructions, $5 backward branches, $7 kernel calls, $6 other calls: $verdict"
    [ "$verdict" = ok ] || status=1
}

# The compile-time list: straight-line code (no loop over the events), only the kernel call.
check stack_const_typed 0 1
check stack_const_typed_ctad 0 1
check stack_const_raw 0 1
# The enable-flags decode: no call at all (a cold error block may jump back to the common exit).
check enable_flags_typed any 0
check enable_flags_compat any 0
check enable_flags_raw any 0
# The drop-in functions for a fixed-size class: inlined into the caller (no call to raw_set / raw_query
# or to compat::, only the kernel's), so the class and the buffer checks fold to the one request.
check group_mask_compat any 1
check pmc_counters_compat any 1
check interval_timer_compat any 1
check query_mask_compat any 1
exit $status
