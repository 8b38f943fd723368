// etwctl/kernel_requests.hpp - moved to etwctl/request/layouts.hpp. This path keeps existing code compiling and will be removed
// in etwctl 2; include etwctl/request/layouts.hpp (or etwctl/etwctl.hpp) instead.
#pragma once

#include "etwctl/request/layouts.hpp"
