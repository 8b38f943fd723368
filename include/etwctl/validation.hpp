// etwctl/validation.hpp - moved to etwctl/request/checks.hpp. This path keeps existing code compiling and will be removed
// in etwctl 2; include etwctl/request/checks.hpp (or etwctl/etwctl.hpp) instead.
#pragma once

#include "etwctl/request/checks.hpp"
