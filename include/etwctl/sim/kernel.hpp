// etwctl/sim/kernel.hpp - moved to etwctl/testing/sim_kernel.hpp. This path keeps existing code compiling and will be removed
// in etwctl 2; include etwctl/testing/sim_kernel.hpp (or etwctl/etwctl.hpp) instead.
#pragma once

#include "etwctl/testing/sim_kernel.hpp"
