// etwctl/pmc.hpp - moved to etwctl/profiler/pmc.hpp. This path keeps existing code compiling and will be removed
// in etwctl 2; include etwctl/profiler/pmc.hpp (or etwctl/etwctl.hpp) instead.
#pragma once

#include "etwctl/profiler/pmc.hpp"
