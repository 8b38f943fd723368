// etwctl/guards.hpp - moved to etwctl/profiler/guards.hpp. This path keeps existing code compiling and will be removed
// in etwctl 2; include etwctl/profiler/guards.hpp (or etwctl/etwctl.hpp) instead.
#pragma once

#include "etwctl/profiler/guards.hpp"
