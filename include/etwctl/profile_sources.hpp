// etwctl/profile_sources.hpp - moved to etwctl/names/sources.hpp. This path keeps existing code compiling and will be removed
// in etwctl 2; include etwctl/names/sources.hpp (or etwctl/etwctl.hpp) instead.
#pragma once

#include "etwctl/names/sources.hpp"
