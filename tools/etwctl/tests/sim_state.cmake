# The simulated machine that lives across commands (--sim=STATEFILE, --sim-advance, session consume):
# each case runs several etwctl commands in a row (sim_state_run.cmake), in a directory of its own under
# the build tree (its state file and the .etl files its sessions write). Included by CMakeLists.txt.
function(etwctl_sim_state_test case)
    string(REPLACE ";" "|" emulator "${CMAKE_CROSSCOMPILING_EMULATOR}")
    add_test(NAME tool.sim_state_${case}
             COMMAND ${CMAKE_COMMAND} "-DTOOL=$<TARGET_FILE:etwctl_tool>" "-DEMULATOR=${emulator}"
                     "-DWORK=${CMAKE_CURRENT_BINARY_DIR}/sim_state/${case}" "-DCASE=${case}" "-DDATA=${CMAKE_CURRENT_SOURCE_DIR}/data"
                     -P ${CMAKE_CURRENT_SOURCE_DIR}/sim_state_run.cmake)
    set_tests_properties(tool.sim_state_${case} PROPERTIES COST 5) # several commands each (tests/fuzz: COST)
endfunction()
etwctl_sim_state_test(recording)  # -on ... -f, --sim-advance, -stop, trace stats / dump: counts, stacks
etwctl_sim_state_test(losses)     # small buffers: lost events in the stop statistics and the file
etwctl_sim_state_test(pmc)        # -pmc: the counters on the listed events, in order
etwctl_sim_state_test(provider)   # EnableTraceEx2's level and keywords: which provider events arrive
etwctl_sim_state_test(flush)      # -flush: the file complete so far
etwctl_sim_state_test(consume)    # session consume: JSON Lines, --events, the report, the clock going on
etwctl_sim_state_test(state_file) # kept between commands; corrupt, foreign, newer, diverging files refused
etwctl_sim_state_test(reconfigure) # the interval, flags and stack list changed while recording apply from then on
if(TARGET etwctl::wpr) # wpr is in native builds only (pugixml)
    etwctl_sim_state_test(wpr) # wpr -start, --sim-advance, wpr -stop: each session's file read back
endif()
