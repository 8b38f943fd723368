// etwctl/sim/hostile_kernel.hpp - moved to etwctl/testing/hostile_kernel.hpp. This path keeps existing code compiling and will be removed
// in etwctl 2; include etwctl/testing/hostile_kernel.hpp (or etwctl/etwctl.hpp) instead.
#pragma once

#include "etwctl/testing/hostile_kernel.hpp"
