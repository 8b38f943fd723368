// etwctl/stack_walk_set.hpp - moved to etwctl/profiler/stack_walk_set.hpp. This path keeps existing code compiling and will be removed
// in etwctl 2; include etwctl/profiler/stack_walk_set.hpp (or etwctl/etwctl.hpp) instead.
#pragma once

#include "etwctl/profiler/stack_walk_set.hpp"
