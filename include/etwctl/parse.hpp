// etwctl/parse.hpp - moved to etwctl/names/parse.hpp. This path keeps existing code compiling and will be removed
// in etwctl 2; include etwctl/names/parse.hpp (or etwctl/etwctl.hpp) instead.
#pragma once

#include "etwctl/names/parse.hpp"
