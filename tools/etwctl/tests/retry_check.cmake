# run_tool.cmake with lost_server_emulator.sh as the emulator, from a clean start: -DSTATE=<its state
# file>, and run_tool.cmake's own variables.
file(REMOVE "${STATE}")
include(${CMAKE_CURRENT_LIST_DIR}/run_tool.cmake)
