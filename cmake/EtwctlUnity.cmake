# etwctl_unity(target): compile the target's sources as unity batches (CMake's UNITY_BUILD), so the
# library headers, doctest and the simulated kernels are parsed, instantiated and optimised once per
# batch of ETWCTL_UNITY_BATCH files instead of once per file. For the test programs and the tool only:
# the header-hygiene checks compile each header on its own and never use it. Every test source must
# therefore be a good citizen in a shared TU (no clashing file-local names, no macro left defined);
# configure with -DETWCTL_UNITY=OFF to compile file by file (what a failure's line numbers read best in).
option(ETWCTL_UNITY "Compile etwctl's test programs and tool as unity batches" ON)
set(ETWCTL_UNITY_BATCH 4 CACHE STRING "Source files per unity TU (etwctl_unity)")
function(etwctl_unity target)
    if(ETWCTL_UNITY)
        set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_MODE BATCH
                              UNITY_BUILD_BATCH_SIZE ${ETWCTL_UNITY_BATCH})
    endif()
endfunction()
