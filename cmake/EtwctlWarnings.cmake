# etwctl_strict(target): the warning level every etwctl test, example and tool is built with.
function(etwctl_strict target)
    target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Werror -Wshadow -Wconversion -Wsign-conversion)
endfunction()
