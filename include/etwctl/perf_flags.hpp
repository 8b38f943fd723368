// etwctl/perf_flags.hpp - moved to etwctl/names/flags.hpp. This path keeps existing code compiling and will be removed
// in etwctl 2; include etwctl/names/flags.hpp (or etwctl/etwctl.hpp) instead.
#pragma once

#include "etwctl/names/flags.hpp"
