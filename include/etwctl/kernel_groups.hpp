// etwctl/kernel_groups.hpp - moved to etwctl/names/groups.hpp. This path keeps existing code compiling and will be removed
// in etwctl 2; include etwctl/names/groups.hpp (or etwctl/etwctl.hpp) instead.
#pragma once

#include "etwctl/names/groups.hpp"
